//! Helpers of the graph tests: temporary files, sequential references.
#![allow(dead_code)]

use std::path::PathBuf;

/// A fresh path in a directory of this process under Cargo's temporary directory for tests
/// (`target/tmp`; the system's temporary directory for the MPI test program), so test files
/// stay with the build instead of piling up in `/tmp`.
pub fn tmp(name: &str) -> PathBuf {
    let base = option_env!("CARGO_TARGET_TMPDIR").map(PathBuf::from).unwrap_or_else(std::env::temp_dir);
    let d = base.join(format!("atoll-graph-test-{}", std::process::id()));
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
/// Distinct neighbour lists (self loops dropped) of an `n`-vertex graph from directed pairs.
pub fn adjacency(n: usize, pairs: &[(u64, u64)]) -> Vec<Vec<u64>> {
    let mut adj = vec![Vec::new(); n];
    for &(u, v) in pairs {
        adj[u as usize].push(v);
    }
    for a in &mut adj {
        a.sort_unstable();
        a.dedup();
    }
    adj
}

/// Sequential synchronous label propagation (ties to the smallest label).
pub fn lp_reference(adj: &[Vec<u64>], max_iters: usize) -> (Vec<u64>, usize, bool) {
    let n = adj.len();
    let mut l: Vec<u64> = (0..n as u64).collect();
    for it in 1..=max_iters {
        let mut next = l.clone();
        for v in 0..n {
            let mut counts = std::collections::BTreeMap::new();
            for &u in adj[v].iter().filter(|&&u| u != v as u64) {
                *counts.entry(l[u as usize]).or_insert(0usize) += 1;
            }
            if let Some(best) = counts.iter().max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(a.0))) {
                next[v] = *best.0;
            }
        }
        let changed = next != l;
        l = next;
        if !changed {
            return (l, it, true);
        }
    }
    (l, max_iters, false)
}

/// Component labels (smallest id) by union-find.
pub fn cc_reference(adj: &[Vec<u64>]) -> Vec<u64> {
    let n = adj.len();
    let mut parent: Vec<usize> = (0..n).collect();
    fn find(p: &mut [usize], x: usize) -> usize {
        let mut r = x;
        while p[r] != r {
            r = p[r];
        }
        p[x] = r;
        r
    }
    for (v, list) in adj.iter().enumerate() {
        for &u in list {
            let (a, b) = (find(&mut parent, v), find(&mut parent, u as usize));
            if a != b {
                parent[a.max(b)] = a.min(b);
            }
        }
    }
    (0..n).map(|v| find(&mut parent, v) as u64).collect()
}

/// BFS levels with a queue (-1 unreachable), following the lists of `adj` backwards: vertex `v`
/// is reached from `u` when `u` is in `adj[v]`.
pub fn bfs_reference(adj: &[Vec<u64>], s: usize) -> Vec<i64> {
    let n = adj.len();
    let mut rev = vec![Vec::new(); n];
    for (v, list) in adj.iter().enumerate() {
        for &u in list {
            rev[u as usize].push(v);
        }
    }
    let mut lvl = vec![-1i64; n];
    lvl[s] = 0;
    let mut q = std::collections::VecDeque::from([s]);
    while let Some(u) = q.pop_front() {
        for &v in &rev[u] {
            if lvl[v] < 0 {
                lvl[v] = lvl[u] + 1;
                q.push_back(v);
            }
        }
    }
    lvl
}

/// Hitting times by Gaussian elimination on the dense system (unweighted graph, `inf` where no
/// target is reachable).
pub fn hitting_reference(adj: &[Vec<u64>], targets: &[u64]) -> Vec<f64> {
    let n = adj.len();
    let cc = cc_reference(adj);
    let tc: std::collections::BTreeSet<u64> = targets.iter().map(|&t| cc[t as usize]).collect();
    let is_t: std::collections::BTreeSet<u64> = targets.iter().copied().collect();
    let unknowns: Vec<usize> = (0..n).filter(|&v| !is_t.contains(&(v as u64)) && tc.contains(&cc[v])).collect();
    let pos: std::collections::HashMap<usize, usize> = unknowns.iter().enumerate().map(|(k, &v)| (v, k)).collect();
    let k = unknowns.len();
    let mut a = vec![vec![0.0; k + 1]; k];
    for (r, &v) in unknowns.iter().enumerate() {
        let nb: Vec<u64> = adj[v].iter().copied().filter(|&u| u != v as u64).collect();
        let d = nb.len() as f64;
        a[r][r] = d;
        a[r][k] = d;
        for u in nb {
            if let Some(&c) = pos.get(&(u as usize)) {
                a[r][c] -= 1.0;
            }
        }
    }
    for c in 0..k {
        let p = (c..k).max_by(|&x, &y| a[x][c].abs().total_cmp(&a[y][c].abs())).unwrap();
        a.swap(c, p);
        for r in 0..k {
            if r != c && a[r][c] != 0.0 {
                let f = a[r][c] / a[c][c];
                let pivot = a[c].clone();
                for (x, p) in a[r][c..=k].iter_mut().zip(&pivot[c..=k]) {
                    *x -= f * p;
                }
            }
        }
    }
    let mut h = vec![f64::INFINITY; n];
    for &t in targets {
        h[t as usize] = 0.0;
    }
    for (r, &v) in unknowns.iter().enumerate() {
        h[v] = a[r][k] / a[r][r];
    }
    h
}

/// PageRank by power iteration (the library's formula), unweighted.
pub fn pagerank_reference(adj: &[Vec<u64>], d: f64, tol: f64, max_iters: usize) -> Vec<f64> {
    let n = adj.len();
    let nf = n as f64;
    let mut x = vec![1.0 / nf; n];
    for _ in 0..max_iters {
        let s: f64 = (0..n).filter(|&v| adj[v].is_empty()).map(|v| x[v]).sum();
        let mut y = vec![(1.0 - d) / nf + d * s / nf; n];
        for v in 0..n {
            for &u in &adj[v] {
                y[u as usize] += d * x[v] / adj[v].len() as f64;
            }
        }
        let diff: f64 = x.iter().zip(&y).map(|(a, b)| (a - b).abs()).sum();
        x = y;
        if diff <= tol {
            break;
        }
    }
    x
}
