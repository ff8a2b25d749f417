//! The MPI suite of the sorts: launches `atoll-ops-selftest` under `mpiexec -n 2` and `-n 3`
//! (`ATOLL_MPIEXEC` or `MPIEXEC` names it; the project venv's MPICH by default), checks that
//! every scenario passed on every rank (results against a sequential stable sort), and that
//! the message counts it printed are those of the same scenarios run here on the local backend
//! with as many locales.
#![cfg(feature = "mpi")]

mod mpi_scenarios;

use atoll_runtime::{run, Config};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn mpiexec() -> String {
    std::env::var("ATOLL_MPIEXEC")
        .or_else(|_| std::env::var("MPIEXEC"))
        .unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/../../.venv/bin/mpiexec").into())
}

/// Runs the selftest on `n` ranks with a hard time limit (a hang fails instead of blocking).
fn launch(n: usize, limit: Duration) -> Output {
    let exe = env!("CARGO_BIN_EXE_atoll-ops-selftest");
    let mut cmd = Command::new(mpiexec());
    cmd.args(["-n", &n.to_string(), exe]).env("ATOLL_BACKEND", "mpi");
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    let start = Instant::now();
    let mut child = cmd.spawn().expect("cannot start mpiexec: run `make venv` first");
    while child.try_wait().expect("wait").is_none() {
        if start.elapsed() > limit {
            let _ = child.kill();
            let out = child.wait_with_output().expect("output");
            panic!(
                "the sort selftest on {n} ranks did not end within {limit:?}\nstdout:\n{}\nstderr:\n{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().expect("output")
}

/// The `counts` lines of a report.
fn counts(report: &str) -> Vec<String> {
    report.lines().filter(|l| l.starts_with("counts ")).map(str::to_string).collect()
}

fn same_results_and_counts_as_local(n: usize) {
    let out = launch(n, Duration::from_secs(180));
    let (so, se) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "the sort selftest on {n} ranks failed\nstdout:\n{so}\nstderr:\n{se}");
    assert!(so.contains("ops selftest ok"), "{so}\n{se}");
    let local = run(Config::local(n), |ctx| mpi_scenarios::all(ctx).map(|r| mpi_scenarios::report(&r))).unwrap();
    let (mpi, local) = (counts(&so), counts(&local));
    assert_eq!(mpi.len(), 5, "one line per scenario:\n{so}");
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
