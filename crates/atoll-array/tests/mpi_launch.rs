//! The MPI suite of the arrays: runs this file's program (`selftest_program`, the deterministic
//! scenarios of `tests/common/scenarios.rs`) under `mpiexec -n 2` and `-n 3` (`ATOLL_MPIEXEC` or
//! `MPIEXEC` names it; the project venv's MPICH by default), checks that every scenario passed
//! on every rank, and that the message counts it printed are those of the same scenarios run
//! here on the local backend with as many locales.
#![cfg(feature = "mpi")]

mod common;

use atoll_runtime::{run, Config};
use atoll_testkit::{counts, launch, selftest, Program};
use common::scenarios;
use std::time::Duration;

const PROGRAM: Program = Program::new("selftest_program");

/// The ranks' program: locale 0 prints one `counts <scenario> [...]` line per scenario (every
/// locale's message counts), `all_mapped true|false`, then `array selftest ok`.
#[test]
#[ignore = "the MPI program of this file's launches"]
fn selftest_program() {
    scenarios::register_all();
    selftest("array selftest", |ctx| {
        let report = scenarios::report(&scenarios::all(ctx)?);
        // Whether every locale's memory was addressable from every locale (one host): the
        // wavefront scan's counts follow it (`scenarios::wavefront_scan`).
        Ok(format!("{report}all_mapped {}\n", scenarios::all_mapped(ctx)))
    });
}

fn same_counts_as_local(n: usize) {
    let so = launch(&PROGRAM, "array selftest ok", n, Duration::from_secs(180));
    scenarios::register_all();
    let local = run(Config::local(n), |ctx| scenarios::all(ctx).map(|r| scenarios::report(&r))).unwrap();
    let (mut mpi, mut local) = (counts(&so), counts(&local));
    assert_eq!(mpi.len(), 13, "one line per scenario:\n{so}");
    // Ranks on several hosts: the scan runs its two-pass form, whose counts (none) the
    // selftest checked itself; the local backend's one-pass counts do not apply.
    if so.lines().any(|l| l == "all_mapped false") {
        for v in [&mut mpi, &mut local] {
            v.retain(|l| !l.starts_with("counts wavefront_scan "));
        }
    }
    assert_eq!(mpi, local, "message counts under MPI (left) and on the local backend (right), {n} locales");
}

#[test]
fn array_scenarios_under_mpi_on_2_ranks_count_the_same_messages_as_local() {
    same_counts_as_local(2);
}

#[test]
fn array_scenarios_under_mpi_on_3_ranks_count_the_same_messages_as_local() {
    same_counts_as_local(3);
}
