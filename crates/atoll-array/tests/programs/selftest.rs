//! The array MPI test program: runs the deterministic scenarios of `tests/common/scenarios.rs`
//! on the backend chosen by the environment (`ATOLL_BACKEND`), launched by
//! `tests/mpi_launch.rs` under `mpiexec`.
//!
//! Usage: `atoll-array-selftest`; locale 0 prints one `counts <scenario> [...]` line per
//! scenario (every locale's message counts), `all_mapped true|false` and then
//! `array selftest ok`.

#[path = "../common/scenarios.rs"]
mod scenarios;

use atoll_runtime::{run, Config, Result};

fn main() {
    scenarios::register_all();
    let config = match Config::from_env() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("array selftest: {e}");
            std::process::exit(2);
        }
    };
    let r: Result<(usize, String)> = run(config, |ctx| {
        let report = scenarios::report(&scenarios::all(ctx)?);
        // Whether every locale's memory was addressable from every locale (one host): the
        // wavefront scan's counts follow it (`scenarios::wavefront_scan`).
        Ok((ctx.id(), format!("{report}all_mapped {}\n", scenarios::all_mapped(ctx))))
    });
    match r {
        Ok((0, report)) => {
            print!("{report}");
            println!("array selftest ok");
        }
        Ok(_) => {}
        Err(e) => {
            eprintln!("array selftest failed: {e}");
            std::process::exit(1);
        }
    }
}
