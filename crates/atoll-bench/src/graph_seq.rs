//! The one-core baselines of `atoll-bench graph`: a plain CSR (u32 columns, like Atoll's) and
//! the best sequential algorithm for each line: synchronous label propagation (the faster of a
//! sort-based and a counting-array mode per vertex, both timed), union-find connected
//! components, and conjugate gradients for hitting times.

use std::time::Instant;

/// A sequential CSR matrix.
pub struct SeqCsr {
    pub n: usize,
    pub row_ptr: Vec<usize>,
    pub col: Vec<u32>,
    pub val: Option<Vec<f64>>,
}

impl SeqCsr {
    /// From `(row, col, val)` entries (duplicates summed, or merged for a pattern).
    pub fn from_entries(n: usize, rows: &[u64], cols: &[u64], vals: Option<&[f64]>) -> SeqCsr {
        let mut cnt = vec![0usize; n + 1];
        for &r in rows {
            cnt[r as usize + 1] += 1;
        }
        for i in 0..n {
            cnt[i + 1] += cnt[i];
        }
        let mut fill = cnt.clone();
        let mut c = vec![0u32; rows.len()];
        let mut v = vec![0.0; if vals.is_some() { rows.len() } else { 0 }];
        for k in 0..rows.len() {
            let i = rows[k] as usize;
            c[fill[i]] = cols[k] as u32;
            if let Some(vals) = vals {
                v[fill[i]] = vals[k];
            }
            fill[i] += 1;
        }
        let mut row_ptr = vec![0usize];
        let mut w = 0;
        let mut pairs: Vec<(u32, f64)> = Vec::new();
        for i in 0..n {
            let r = cnt[i]..cnt[i + 1];
            if vals.is_none() {
                c[r.clone()].sort_unstable();
                let mut last = u32::MAX;
                for k in r {
                    if c[k] != last {
                        last = c[k];
                        c[w] = last;
                        w += 1;
                    }
                }
            } else {
                pairs.clear();
                pairs.extend(r.map(|k| (c[k], v[k])));
                pairs.sort_by_key(|p| p.0);
                let mut last = u32::MAX;
                for &(cc, vv) in &pairs {
                    if cc == last {
                        v[w - 1] += vv;
                    } else {
                        last = cc;
                        c[w] = cc;
                        v[w] = vv;
                        w += 1;
                    }
                }
            }
            row_ptr.push(w);
        }
        c.truncate(w);
        v.truncate(w);
        SeqCsr { n, row_ptr, col: c, val: vals.map(|_| v) }
    }

    /// The pattern of an undirected graph from its edge list (each edge stored in both
    /// directions, self loops dropped, duplicates merged): 8 bytes per generated edge instead
    /// of the 32 of a both-direction `u64` list (scale 22: 0.5 GiB instead of 2 GiB).
    pub fn from_undirected(n: usize, edges: &[(u32, u32)]) -> SeqCsr {
        let mut cnt = vec![0usize; n + 1];
        for &(u, v) in edges {
            if u != v {
                cnt[u as usize + 1] += 1;
                cnt[v as usize + 1] += 1;
            }
        }
        for i in 0..n {
            cnt[i + 1] += cnt[i];
        }
        let mut fill = cnt.clone();
        let mut c = vec![0u32; cnt[n]];
        for &(u, v) in edges {
            if u != v {
                c[fill[u as usize]] = v;
                fill[u as usize] += 1;
                c[fill[v as usize]] = u;
                fill[v as usize] += 1;
            }
        }
        drop(fill);
        let mut row_ptr = Vec::with_capacity(n + 1);
        row_ptr.push(0usize);
        let mut w = 0;
        for i in 0..n {
            let r = cnt[i]..cnt[i + 1];
            c[r.clone()].sort_unstable();
            let mut last = u32::MAX;
            for k in r {
                if c[k] != last {
                    last = c[k];
                    c[w] = last;
                    w += 1;
                }
            }
            row_ptr.push(w);
        }
        c.truncate(w);
        c.shrink_to_fit();
        SeqCsr { n, row_ptr, col: c, val: None }
    }

    pub fn nnz(&self) -> usize {
        self.col.len()
    }
}

/// The mode of `buf` (ties to the smallest); `None` when empty. Sorts `buf`.
fn mode_sorted(buf: &mut [u64]) -> Option<u64> {
    if buf.is_empty() {
        return None;
    }
    buf.sort_unstable();
    let (mut best, mut best_n, mut k) = (buf[0], 0, 0);
    while k < buf.len() {
        let mut e = k + 1;
        while e < buf.len() && buf[e] == buf[k] {
            e += 1;
        }
        if e - k > best_n {
            best = buf[k];
            best_n = e - k;
        }
        k = e;
    }
    Some(best)
}

/// Synchronous label propagation, sorting each neighbourhood: (labels, iterations).
pub fn lp_sort(g: &SeqCsr, max_iters: usize) -> (Vec<u64>, usize) {
    let mut l: Vec<u64> = (0..g.n as u64).collect();
    let mut next = l.clone();
    let mut buf = Vec::new();
    for it in 1..=max_iters {
        let mut changed = 0usize;
        for i in 0..g.n {
            buf.clear();
            buf.extend(
                g.col[g.row_ptr[i]..g.row_ptr[i + 1]].iter().filter(|&&c| c as usize != i).map(|&c| l[c as usize]),
            );
            let new = mode_sorted(&mut buf).unwrap_or(l[i]);
            changed += (new != l[i]) as usize;
            next[i] = new;
        }
        std::mem::swap(&mut l, &mut next);
        if changed == 0 {
            return (l, it);
        }
    }
    (l, max_iters)
}

/// The same with a dense counting array per label (no sort).
pub fn lp_count(g: &SeqCsr, max_iters: usize) -> (Vec<u64>, usize) {
    let mut l: Vec<u64> = (0..g.n as u64).collect();
    let mut next = l.clone();
    let mut count = vec![0u32; g.n];
    let mut touched: Vec<u64> = Vec::new();
    for it in 1..=max_iters {
        let mut changed = 0usize;
        for i in 0..g.n {
            touched.clear();
            let (mut best, mut best_n) = (l[i], 0u32);
            for &c in &g.col[g.row_ptr[i]..g.row_ptr[i + 1]] {
                if c as usize == i {
                    continue;
                }
                let lab = l[c as usize];
                let k = &mut count[lab as usize];
                if *k == 0 {
                    touched.push(lab);
                }
                *k += 1;
                if *k > best_n || (*k == best_n && lab < best) {
                    best = lab;
                    best_n = *k;
                }
            }
            for &t in &touched {
                count[t as usize] = 0;
            }
            changed += (best != l[i]) as usize;
            next[i] = best;
        }
        std::mem::swap(&mut l, &mut next);
        if changed == 0 {
            return (l, it);
        }
    }
    (l, max_iters)
}

/// Connected components by union-find (labels: smallest vertex id).
pub fn cc_union_find(g: &SeqCsr) -> Vec<u64> {
    let mut p: Vec<u32> = (0..g.n as u32).collect();
    fn find(p: &mut [u32], mut x: u32) -> u32 {
        while p[x as usize] != x {
            let gp = p[p[x as usize] as usize];
            p[x as usize] = gp;
            x = gp;
        }
        x
    }
    for i in 0..g.n {
        for &c in &g.col[g.row_ptr[i]..g.row_ptr[i + 1]] {
            let (a, b) = (find(&mut p, i as u32), find(&mut p, c));
            if a != b {
                let (lo, hi) = (a.min(b), a.max(b));
                p[hi as usize] = lo;
            }
        }
    }
    (0..g.n as u32).map(|i| find(&mut p, i) as u64).collect()
}

/// The hitting-time system of `targets`: which vertices are unknowns (non-targets in a
/// target's component, with an edge), their degrees without self loops, the self loops.
pub struct HittingSystem {
    pub is_target: Vec<bool>,
    pub active: Vec<bool>,
    pub deg: Vec<f64>,
    pub diag: Vec<f64>,
}

impl HittingSystem {
    pub fn new(g: &SeqCsr, targets: &[u64]) -> HittingSystem {
        let n = g.n;
        let cc = cc_union_find(g);
        let mut tc: Vec<u64> = targets.iter().map(|&t| cc[t as usize]).collect();
        tc.sort_unstable();
        let mut is_target = vec![false; n];
        targets.iter().for_each(|&t| is_target[t as usize] = true);
        let val = |k: usize| g.val.as_ref().map_or(1.0, |v| v[k]);
        let mut diag = vec![0.0; n];
        let mut deg = vec![0.0; n];
        for i in 0..n {
            for k in g.row_ptr[i]..g.row_ptr[i + 1] {
                if g.col[k] as usize == i {
                    diag[i] += val(k);
                } else {
                    deg[i] += val(k).abs();
                }
            }
        }
        let active = (0..n).map(|i| !is_target[i] && tc.binary_search(&cc[i]).is_ok() && deg[i] > 0.0).collect();
        HittingSystem { is_target, active, deg, diag }
    }

    /// `y = (D - A)_NN p` on the unknowns (`p` zero elsewhere), `0` elsewhere.
    fn apply(&self, g: &SeqCsr, p: &[f64], y: &mut [f64]) {
        let (active, deg, diag) = (&self.active, &self.deg, &self.diag);
        match &g.val {
            // Specialized for patterns (no values to load).
            None => {
                for i in 0..g.n {
                    y[i] = if active[i] {
                        let s: f64 = g.col[g.row_ptr[i]..g.row_ptr[i + 1]].iter().map(|&c| p[c as usize]).sum();
                        (deg[i] + diag[i]) * p[i] - s
                    } else {
                        0.0
                    };
                }
            }
            Some(v) => {
                for i in 0..g.n {
                    y[i] = if active[i] {
                        let r = g.row_ptr[i]..g.row_ptr[i + 1];
                        let s: f64 = g.col[r.clone()].iter().zip(&v[r]).map(|(&c, &a)| a * p[c as usize]).sum();
                        (deg[i] + diag[i]) * p[i] - s
                    } else {
                        0.0
                    };
                }
            }
        }
    }

    /// `(||d_N - (D - A)_NN h_N||_2, ||d_N||_2)` for full-length hitting times `h` (`inf` and
    /// target entries ignored): the independent check of a solution.
    pub fn residual(&self, g: &SeqCsr, h: &[f64]) -> (f64, f64) {
        let x: Vec<f64> = (0..g.n).map(|i| if self.active[i] { h[i] } else { 0.0 }).collect();
        let mut y = vec![0.0; g.n];
        self.apply(g, &x, &mut y);
        let (mut rr, mut bb) = (0.0, 0.0);
        for (i, &yi) in y.iter().enumerate() {
            if self.active[i] {
                rr += (self.deg[i] - yi).powi(2);
                bb += self.deg[i] * self.deg[i];
            }
        }
        (rr.sqrt(), bb.sqrt())
    }
}

/// Hitting times by conjugate gradients preconditioned by the degrees on `(D - A)_NN h =
/// d_N` (the library's system and method), until `||r||_2 <= tol ||d_N||_2` or `max_iters`:
/// (times, residual after each iteration, converged). Vertices outside the targets'
/// components are `inf`.
pub fn hitting_cg(g: &SeqCsr, sys: &HittingSystem, tol: f64, max_iters: usize) -> (Vec<f64>, Vec<f64>, bool) {
    let n = g.n;
    let (active, deg) = (&sys.active, &sys.deg);
    let b: Vec<f64> = (0..n).map(|i| if active[i] { deg[i] } else { 0.0 }).collect();
    let bnorm = b.iter().map(|x| x * x).sum::<f64>().sqrt();
    let mut h = vec![0.0; n];
    let mut r = b;
    let mut z: Vec<f64> = (0..n).map(|i| if active[i] { 1.0 } else { 0.0 }).collect();
    let mut p = z.clone();
    let mut y = vec![0.0; n];
    let mut rz: f64 = r.iter().zip(&z).map(|(a, b)| a * b).sum();
    let mut res = Vec::new();
    let mut converged = bnorm == 0.0;
    while !converged && res.len() < max_iters {
        sys.apply(g, &p, &mut y);
        let py: f64 = p.iter().zip(&y).map(|(a, b)| a * b).sum();
        if py <= 0.0 {
            break;
        }
        let alpha = rz / py;
        let (mut rr, mut rz2) = (0.0, 0.0);
        for i in 0..n {
            h[i] += alpha * p[i];
            r[i] -= alpha * y[i];
            z[i] = if active[i] { r[i] / deg[i] } else { 0.0 };
            rr += r[i] * r[i];
            rz2 += r[i] * z[i];
        }
        res.push(f64::sqrt(rr));
        converged = rr.sqrt() <= tol * bnorm;
        let beta = rz2 / rz;
        rz = rz2;
        for i in 0..n {
            p[i] = z[i] + beta * p[i];
        }
    }
    let t = (0..n)
        .map(|i| {
            if sys.is_target[i] {
                0.0
            } else if active[i] {
                h[i]
            } else {
                f64::INFINITY
            }
        })
        .collect();
    (t, res, converged)
}

/// Seconds of `f`, and its result.
pub fn timed<R>(f: impl FnOnce() -> R) -> (f64, R) {
    let t = Instant::now();
    let r = f();
    (t.elapsed().as_secs_f64(), r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn from_undirected_equals_both_directions_through_from_entries() {
        // Self loops, duplicates in both orientations, an isolated vertex (5).
        let edges = [(0u32, 1u32), (1, 0), (2, 2), (3, 4), (0, 3), (4, 3), (6, 0)];
        let (mut r, mut c) = (Vec::new(), Vec::new());
        for &(u, v) in &edges {
            if u != v {
                r.extend([u as u64, v as u64]);
                c.extend([v as u64, u as u64]);
            }
        }
        let a = SeqCsr::from_undirected(7, &edges);
        let b = SeqCsr::from_entries(7, &r, &c, None);
        assert_eq!((a.row_ptr.clone(), a.col.clone()), (b.row_ptr, b.col));
        assert_eq!(a.row_ptr, vec![0, 3, 4, 4, 6, 7, 7, 8]);
    }

    #[test]
    fn hitting_cg_on_a_path_gives_the_closed_form() {
        // Path 0 - 1 - ... - 9, target 0: h(v) = v (2 * 9 - v) (a reflecting end at 9);
        // vertex 10 is isolated (inf).
        let edges: Vec<(u32, u32)> = (0..9).map(|v| (v, v + 1)).collect();
        let g = SeqCsr::from_undirected(11, &edges);
        let sys = HittingSystem::new(&g, &[0]);
        let (h, res, conv) = hitting_cg(&g, &sys, 1e-12, 100);
        assert!(conv && !res.is_empty());
        for (v, &hv) in h.iter().enumerate().take(10) {
            let want = (v * (18 - v)) as f64;
            assert!((hv - want).abs() <= 1e-8 * want.max(1.0), "vertex {v}: {hv} vs {want}");
        }
        assert!(h[10].is_infinite());
        let (r, b) = sys.residual(&g, &h);
        assert!(r <= 1e-10 * b);
    }
}
