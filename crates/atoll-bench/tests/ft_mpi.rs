//! `atoll-bench ft` class S under `mpiexec -n 2` and `-n 4` (`ATOLL_MPIEXEC` or `MPIEXEC`
//! names the launcher; the project venv's MPICH by default): both transposes and the one-core
//! baseline verify against NPB's checksums, with the same message and byte counts as on the
//! local backend. Correctness only.
#![cfg(feature = "mpi")]

mod common;

use serde_json::Value;

/// Runs class S on `n` ranks; returns stdout.
fn launch(n: usize) -> String {
    common::launch(n, &["ft", "--class", "S", "--backend", "mpi", "--json"])
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
