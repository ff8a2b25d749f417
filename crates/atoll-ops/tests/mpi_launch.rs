//! The MPI suite of the sorts: launches `atoll-ops-selftest` under `mpiexec -n 2` and `-n 3`
//! (`ATOLL_MPIEXEC` or `MPIEXEC` names it; the project venv's MPICH by default), checks that
//! every scenario passed on every rank (results against a sequential stable sort), and that
//! the message counts it printed are those of the same scenarios run here on the local backend
//! with as many locales.
#![cfg(feature = "mpi")]

mod mpi_scenarios;

use atoll_runtime::{run, Config};
use std::time::Duration;

#[path = "../../atoll-array/tests/support/launch.rs"]
mod launch;

fn same_results_and_counts_as_local(n: usize) {
    let so = launch::launch(
        env!("CARGO_BIN_EXE_atoll-ops-selftest"),
        "the sort selftest",
        "ops selftest ok",
        n,
        Duration::from_secs(180),
    );
    let local = run(Config::local(n), |ctx| mpi_scenarios::all(ctx).map(|r| mpi_scenarios::report(&r))).unwrap();
    let (mpi, local) = (launch::counts(&so), launch::counts(&local));
    assert_eq!(mpi.len(), 6, "one line per scenario:\n{so}");
    assert_eq!(mpi, local, "message counts under MPI (left) and on the local backend (right), {n} locales");
}

#[test]
fn sorts_under_mpi_on_2_ranks_match_the_reference_and_count_the_same_messages_as_local() {
    same_results_and_counts_as_local(2);
}

#[test]
fn sorts_under_mpi_on_3_ranks_match_the_reference_and_count_the_same_messages_as_local() {
    same_results_and_counts_as_local(3);
}
