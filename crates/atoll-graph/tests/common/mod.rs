//! Helpers of the graph tests: temporary files, sequential references.
#![allow(dead_code)]

use std::path::PathBuf;

/// A fresh path in the temporary directory.
pub fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("atoll-graph-test-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d.join(name)
}

/// A dense `n x m` matrix from triples, duplicates summed.
pub fn dense(n: usize, m: usize, t: &[(usize, usize, f64)]) -> Vec<Vec<f64>> {
    let mut a = vec![vec![0.0; m]; n];
    for &(i, j, v) in t {
        a[i][j] += v;
    }
    a
}

/// A deterministic pseudo-random u64.
pub fn mix(i: u64) -> u64 {
    let mut x = i.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}
