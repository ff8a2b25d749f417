//! The sort MPI test program: runs the scenarios of `tests/mpi_scenarios/mod.rs` on the
//! backend chosen by the environment (`ATOLL_BACKEND`), launched by `tests/mpi_launch.rs`
//! under `mpiexec`.
//!
//! Usage: `atoll-ops-selftest`; locale 0 prints one `counts <scenario> [...]` line per
//! scenario (every locale's message counts) and then `ops selftest ok`.

#[path = "../mpi_scenarios/mod.rs"]
mod mpi_scenarios;

use atoll_runtime::{run, Config, Result};

fn main() {
    let config = match Config::from_env() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("ops selftest: {e}");
            std::process::exit(2);
        }
    };
    let r: Result<(usize, String)> =
        run(config, |ctx| Ok((ctx.id(), mpi_scenarios::report(&mpi_scenarios::all(ctx)?))));
    match r {
        Ok((0, report)) => {
            print!("{report}");
            println!("ops selftest ok");
        }
        Ok(_) => {}
        Err(e) => {
            eprintln!("ops selftest failed: {e}");
            std::process::exit(1);
        }
    }
}
