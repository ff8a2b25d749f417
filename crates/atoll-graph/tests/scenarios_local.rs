//! The MPI scenarios (tests/mpi_scenarios) on the local backend, 1-4 locales, without MPI.

mod mpi_scenarios;

use atoll_runtime::{run, Config};

#[test]
fn the_mpi_scenarios_pass_on_the_local_backend() {
    for p in 1..=4 {
        let r =
            run(Config::local(p), |ctx| mpi_scenarios::all_scenarios(ctx).map(|r| mpi_scenarios::report(&r))).unwrap();
        assert_eq!(r.lines().count(), 4, "{r}");
    }
}
