//! `atoll-bench arkouda` gather and scatter under `mpiexec -n 2` and `-n 3` (`ATOLL_MPIEXEC`
//! or `MPIEXEC` names the launcher; the project venv's MPICH by default): Atoll's lines and
//! the plain MPI versions beside them (`mpi_alltoallv_*`, `src/arkouda/plain.rs`) check their
//! results against the kernels' formulas. Correctness only.
#![cfg(feature = "mpi")]

use serde_json::Value;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// `ATOLL_MPIEXEC` or `MPIEXEC`, else the project venv's MPICH.
fn mpiexec() -> String {
    std::env::var("ATOLL_MPIEXEC")
        .or_else(|_| std::env::var("MPIEXEC"))
        .unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/../../.venv/bin/mpiexec").into())
}

/// Runs gather and scatter of `n` elements on `ranks` ranks with a hard time limit (a hang
/// fails); returns the JSON lines.
fn launch(ranks: usize, n: usize) -> Vec<Value> {
    let mut child = Command::new(mpiexec())
        .args(["-n", &ranks.to_string(), env!("CARGO_BIN_EXE_atoll-bench")])
        .args(["arkouda", "--backend", "mpi", "--json", "--reps", "2", "--kernels", "gather,scatter"])
        .args(["--n", &n.to_string()])
        .env("ATOLL_BACKEND", "mpi")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cannot start mpiexec: run `make venv` first");
    let start = Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if start.elapsed() > Duration::from_secs(300) {
            let _ = child.kill();
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().expect("output");
    let (so, se) = (String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "atoll-bench arkouda on {ranks} ranks failed or hung\nstdout:\n{so}\nstderr:\n{se}");
    so.lines().filter(|l| l.starts_with('{')).filter_map(|l| serde_json::from_str(l).ok()).collect()
}

fn check(ranks: usize, n: usize) {
    let lines = launch(ranks, n);
    for v in ["gather", "scatter"] {
        let l = lines.iter().find(|l| l["variant"] == v).unwrap_or_else(|| panic!("no {v} line: {lines:?}"));
        assert_eq!(l["ok"], Value::Bool(true), "{l}");
        assert_eq!(l["locales"].as_u64(), Some(ranks as u64), "{l}");
        assert_eq!(l["mpi_alltoallv_ok"], Value::Bool(true), "{l}");
        assert!(l["mpi_alltoallv_seconds"].as_f64().is_some_and(|s| s > 0.0), "{l}");
    }
}

#[test]
fn gather_and_scatter_verify_beside_plain_mpi_on_2_ranks() {
    check(2, 100_000);
}

#[test]
fn uneven_parts_verify_beside_plain_mpi_on_3_ranks() {
    check(3, 100_003);
}
