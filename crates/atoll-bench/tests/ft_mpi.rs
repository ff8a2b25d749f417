//! `atoll-bench ft` class S under `mpiexec -n 2` and `-n 4` (`ATOLL_MPIEXEC` or `MPIEXEC`
//! names the launcher; the project venv's MPICH by default): both transposes and the one-core
//! baseline verify against NPB's checksums, with the same message and byte counts as on the
//! local backend. Correctness only.
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

/// Runs class S on `n` ranks with a hard time limit (a hang fails); returns stdout.
fn launch(n: usize) -> String {
    let mut child = Command::new(mpiexec())
        .args(["-n", &n.to_string(), env!("CARGO_BIN_EXE_atoll-bench")])
        .args(["ft", "--class", "S", "--backend", "mpi", "--json"])
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
    assert!(out.status.success(), "atoll-bench ft on {n} ranks failed or hung\nstdout:\n{so}\nstderr:\n{se}");
    so
}

fn under_mpi(n: usize) {
    let so = launch(n);
    let lines: Vec<Value> =
        so.lines().filter(|l| l.starts_with('{')).filter_map(|l| serde_json::from_str(l).ok()).collect();
    let p = n as u64;
    for v in ["one_core", "explicit", "global_view"] {
        let l = lines.iter().find(|l| l["variant"] == v).unwrap_or_else(|| panic!("no {v} line:\n{so}"));
        assert_eq!(l["ok"], Value::Bool(true), "{l}");
        if v != "one_core" {
            assert_eq!(l["backend"], "mpi", "{l}");
            assert_eq!(l["locales"].as_u64(), Some(p), "{l}");
            assert_eq!(l["messages"].as_u64(), Some(7 * p * (p - 1)), "{l}");
            assert_eq!(l["bytes"].as_u64(), Some(7 * 64 * 64 * 64 * 16 * (p - 1) / p), "{l}");
        }
    }
}

#[test]
fn class_s_verifies_under_mpiexec_2() {
    under_mpi(2);
}

#[test]
fn class_s_verifies_under_mpiexec_4() {
    under_mpi(4);
}
