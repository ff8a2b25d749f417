//! The MPI program of the sublocale-target checks (`tests/common/sublocale_checks.rs`), launched
//! by `tests/mpi_launch_sublocales.rs` under `mpiexec` (one locale per rank; the sublocale mode
//! comes from `ATOLL_SUBLOCALES`).
//!
//! Usage: `atoll-array-sublocale-selftest`; locale 0 prints the checks' report and then
//! `sublocale selftest ok`.

#[path = "../common/sublocale_checks.rs"]
mod sublocale_checks;

use atoll_runtime::{run, Config, Result};

fn main() {
    let config = match Config::from_env() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("sublocale selftest: {e}");
            std::process::exit(2);
        }
    };
    let r: Result<(usize, String)> = run(config, |ctx| Ok((ctx.id(), sublocale_checks::all(ctx)?)));
    match r {
        Ok((0, report)) => {
            println!("{report}");
            println!("sublocale selftest ok");
        }
        Ok(_) => {}
        Err(e) => {
            eprintln!("sublocale selftest failed: {e}");
            std::process::exit(1);
        }
    }
}
