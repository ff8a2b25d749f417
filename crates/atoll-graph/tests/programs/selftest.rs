//! The graph MPI test program: runs the scenarios of `tests/mpi_scenarios/mod.rs` on the
//! backend chosen by the environment (`ATOLL_BACKEND`), launched by `tests/mpi_launch.rs`.
//! Locale 0 prints one `counts <scenario> [...]` line per scenario, then `graph selftest ok`.

#[path = "../mpi_scenarios/mod.rs"]
mod mpi_scenarios;

use atoll_runtime::{run, Config, Result};

fn main() {
    let config = match Config::from_env() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("graph selftest: {e}");
            std::process::exit(2);
        }
    };
    let r: Result<(usize, String)> =
        run(config, |ctx| Ok((ctx.id(), mpi_scenarios::report(&mpi_scenarios::all_scenarios(ctx)?))));
    match r {
        Ok((0, report)) => {
            print!("{report}");
            println!("graph selftest ok");
        }
        Ok(_) => {}
        Err(e) => {
            eprintln!("graph selftest failed: {e}");
            std::process::exit(1);
        }
    }
}
