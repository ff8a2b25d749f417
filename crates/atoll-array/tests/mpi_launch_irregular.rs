//! The MPI suite of gather/scatter: launches `atoll-array-irregular-selftest` under
//! `mpiexec -n 2` and `-n 3` (`ATOLL_MPIEXEC` or `MPIEXEC` names it; the project venv's MPICH
//! by default), checks that every scenario passed on every rank (values against sequential
//! references, message counts against the counts computed from the indices), and that the
//! counts it printed are those of the same scenarios run here on the local backend.
#![cfg(feature = "mpi")]

mod irregular_scenarios;

use atoll_runtime::{run, Config};
use std::time::Duration;

#[path = "support/launch.rs"]
mod launch;

fn same_counts_as_local(n: usize) {
    let so = launch::launch(
        env!("CARGO_BIN_EXE_atoll-array-irregular-selftest"),
        "the irregular selftest",
        "irregular selftest ok",
        n,
        Duration::from_secs(300),
    );
    let local =
        run(Config::local(n), |ctx| irregular_scenarios::all(ctx).map(|r| irregular_scenarios::report(&r))).unwrap();
    let (mpi, local) = (launch::counts(&so), launch::counts(&local));
    assert_eq!(mpi.len(), 18, "one line per counted scenario:\n{so}");
    assert_eq!(mpi, local, "message counts under MPI (left) and on the local backend (right), {n} locales");
}

#[test]
fn gather_scatter_under_mpi_on_2_ranks_count_the_same_messages_as_local() {
    same_counts_as_local(2);
}

#[test]
fn gather_scatter_under_mpi_on_3_ranks_count_the_same_messages_as_local() {
    same_counts_as_local(3);
}
