//! The MPI suite of gather/scatter: runs this file's program (`irregular_selftest_program`, the
//! scenarios of `tests/irregular_scenarios`) under `mpiexec -n 2` and `-n 3` (`ATOLL_MPIEXEC` or
//! `MPIEXEC` names it; the project venv's MPICH by default), checks that every scenario passed
//! on every rank (values against sequential references, message counts against the counts
//! computed from the indices), and that the counts it printed are those of the same scenarios
//! run here on the local backend.
#![cfg(feature = "mpi")]

mod irregular_scenarios;

use atoll_runtime::{run, Config};
use atoll_testkit::{counts, expect_ok, launch, selftest, Program};
use std::time::Duration;

const PROGRAM: Program = Program::new("irregular_selftest_program");

/// The ranks' program: locale 0 prints one `counts <scenario> [...]` line per counted scenario
/// (every locale's message counts), then `irregular selftest ok`.
#[test]
#[ignore = "the MPI program of this file's launches"]
fn irregular_selftest_program() {
    selftest("irregular selftest", |ctx| Ok(irregular_scenarios::report(&irregular_scenarios::all(ctx)?)));
}

fn same_counts_as_local(n: usize) {
    let so = launch(&PROGRAM, "irregular selftest ok", n, Duration::from_secs(300));
    let local =
        run(Config::local(n), |ctx| irregular_scenarios::all(ctx).map(|r| irregular_scenarios::report(&r))).unwrap();
    let (mpi, local) = (counts(&so), counts(&local));
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

/// With node memory sharing off, no rank addresses another's part: gather and scatter go
/// through their exchanges and aggregators (as between hosts), with the same results and counts.
#[test]
fn gather_scatter_without_shared_memory_exchange_and_count_the_same_as_local() {
    let mut cmd = PROGRAM.command(Some(2), "");
    cmd.env("ATOLL_MPI_SHM", "0");
    let so =
        expect_ok(cmd, "irregular selftest without shared memory", "irregular selftest ok", Duration::from_secs(300));
    let local =
        run(Config::local(2), |ctx| irregular_scenarios::all(ctx).map(|r| irregular_scenarios::report(&r))).unwrap();
    assert_eq!(counts(&so), counts(&local), "message counts under MPI without shared memory (left) and local (right)");
}
