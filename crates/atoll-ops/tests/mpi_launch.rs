//! The MPI suite of the sorts: runs this file's program (`selftest_program`, the scenarios of
//! `tests/mpi_scenarios`) under `mpiexec -n 2` and `-n 3`
//! (`ATOLL_MPIEXEC` or `MPIEXEC` names it; the project venv's MPICH by default), checks that
//! every scenario passed on every rank (results against a sequential stable sort), and that
//! the message counts it printed are those of the same scenarios run here on the local backend
//! with as many locales.
#![cfg(feature = "mpi")]

mod mpi_scenarios;

use atoll_runtime::{run, Config};
use atoll_testkit::{counts, launch, selftest, Program};
use std::time::Duration;

const PROGRAM: Program = Program::new("selftest_program");

/// The ranks' program: locale 0 prints one `counts <scenario> [...]` line per scenario (every
/// locale's message counts), then `ops selftest ok`.
#[test]
#[ignore = "the MPI program of this file's launches"]
fn selftest_program() {
    selftest("ops selftest", |ctx| Ok(mpi_scenarios::report(&mpi_scenarios::all(ctx)?)));
}

fn same_results_and_counts_as_local(n: usize) {
    let so = launch(&PROGRAM, "ops selftest ok", n, Duration::from_secs(180));
    let local = run(Config::local(n), |ctx| mpi_scenarios::all(ctx).map(|r| mpi_scenarios::report(&r))).unwrap();
    let (mpi, local) = (counts(&so), counts(&local));
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
