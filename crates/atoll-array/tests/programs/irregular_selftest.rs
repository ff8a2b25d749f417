//! The MPI program of gather/scatter: runs the scenarios of `tests/irregular_scenarios` on the
//! backend chosen by the environment (`ATOLL_BACKEND`), launched by
//! `tests/mpi_launch_irregular.rs` under `mpiexec`.
//!
//! Usage: `atoll-array-irregular-selftest`; locale 0 prints one `counts <scenario> [...]` line
//! per counted scenario (every locale's message counts) and then `irregular selftest ok`.

#[path = "../irregular_scenarios/mod.rs"]
mod irregular_scenarios;

use atoll_runtime::{run, Config, Result};

fn main() {
    let config = match Config::from_env() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("irregular selftest: {e}");
            std::process::exit(2);
        }
    };
    let r: Result<(usize, String)> =
        run(config, |ctx| Ok((ctx.id(), irregular_scenarios::report(&irregular_scenarios::all(ctx)?))));
    match r {
        Ok((0, report)) => {
            print!("{report}");
            println!("irregular selftest ok");
        }
        Ok(_) => {}
        Err(e) => {
            eprintln!("irregular selftest failed: {e}");
            std::process::exit(1);
        }
    }
}
