//! `atoll-bench arkouda` gather and scatter under `mpiexec -n 2` and `-n 3` (`ATOLL_MPIEXEC`
//! or `MPIEXEC` names the launcher; the project venv's MPICH by default): Atoll's lines and
//! the plain MPI versions beside them (`mpi_alltoallv_*`, `src/arkouda/plain.rs`) check their
//! results against the kernels' formulas. Correctness only.
#![cfg(feature = "mpi")]

mod common;

use serde_json::Value;

/// Runs gather and scatter of `n` elements on `ranks` ranks; returns the JSON lines.
fn launch(ranks: usize, n: usize) -> Vec<Value> {
    let n = n.to_string();
    let args = ["arkouda", "--backend", "mpi", "--json", "--reps", "2", "--kernels", "gather,scatter", "--n", &n];
    let so = common::launch(ranks, &args);
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
