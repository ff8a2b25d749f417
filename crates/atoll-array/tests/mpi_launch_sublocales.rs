//! The MPI suite of sublocale-target arrays: runs this file's program (the checks of
//! `tests/common/sublocale_checks.rs`, which `tests/sublocales.rs` runs locally) under
//! `mpiexec -n 2` with one sublocale per core and `-n 3` with one per rank, and checks that
//! every check passed on every rank.
#![cfg(feature = "mpi")]

mod common;

use atoll_testkit::{expect_ok, selftest, Program};
use std::time::Duration;

const PROGRAM: Program = Program::new("sublocale_selftest_program");

/// The ranks' program (the sublocale mode comes from `ATOLL_SUBLOCALES`): locale 0 prints the
/// checks' report, then `sublocale selftest ok`.
#[test]
#[ignore = "the MPI program of this file's launches"]
fn sublocale_selftest_program() {
    selftest("sublocale selftest", common::sublocale_checks::all);
}

#[test]
fn sublocale_arrays_under_mpi_on_2_and_3_ranks() {
    for (ranks, mode) in [(2, "core"), (3, "none")] {
        let mut cmd = PROGRAM.command(Some(ranks), "");
        cmd.env("ATOLL_SUBLOCALES", mode);
        let what = format!("the sublocale selftest on {ranks} ranks ({mode})");
        let so = expect_ok(cmd, &what, "sublocale selftest ok", Duration::from_secs(300));
        assert!(so.contains("sublocale checks:"), "{so}");
    }
}
