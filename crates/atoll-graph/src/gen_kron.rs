//! Kronecker (R-MAT) graphs with the Graph500/GAP parameters (A = 0.57, B = C = 0.19,
//! D = 0.05, 16 edges per vertex): edge `k` is drawn from its own counter-seeded generator and
//! vertex ids are scrambled by a fixed bijection, so the graph depends only on
//! `(scale, edge_factor, seed)`, never on the locale count.

use crate::csr::CsrMatrix;
use crate::entries::LocalEntries;
use crate::partition::Partition;
use atoll_error::{Error, Result};
use atoll_runtime::Ctx;
use atoll_util::mix;

/// Graph500's initiator probabilities (A, B, C; D = 1 - A - B - C).
pub const RMAT_ABC: (f64, f64, f64) = (0.57, 0.19, 0.19);

/// A bijection of `0..2^scale` (odd multiplications and xor-shifts modulo `2^scale`).
#[inline]
pub fn scramble(v: u64, scale: u32, seed: u64) -> u64 {
    if scale == 0 {
        return 0;
    }
    let mask = if scale >= 64 { u64::MAX } else { (1u64 << scale) - 1 };
    let (m1, m2) = (mix(seed) | 1, mix(seed ^ 0xABCD) | 1);
    let mut x = v & mask;
    x = x.wrapping_mul(m1) & mask;
    x ^= x >> scale.div_ceil(2);
    x = x.wrapping_mul(m2).wrapping_add(mix(seed ^ 77)) & mask;
    x ^= x >> scale.div_ceil(3).max(1);
    x
}

/// Edge `k` of the R-MAT graph (before scrambling); [`kronecker_edge`] scrambles it.
#[inline]
fn rmat_edge(k: u64, scale: u32, seed: u64) -> (u64, u64) {
    let (a, b, c) = RMAT_ABC;
    let ta = (a * u64::MAX as f64) as u64;
    let tb = ((a + b) * u64::MAX as f64) as u64;
    let tc = ((a + b + c) * u64::MAX as f64) as u64;
    let mut s = mix(seed ^ mix(k));
    let (mut u, mut v) = (0u64, 0u64);
    for _ in 0..scale {
        // wyrand step
        s = s.wrapping_add(0xA076_1D64_78BD_642F);
        let t = (s as u128).wrapping_mul((s ^ 0xE703_7ED1_A0B4_28DB) as u128);
        let r = ((t >> 64) as u64) ^ (t as u64);
        let (bu, bv) = if r < ta {
            (0, 0)
        } else if r < tb {
            (0, 1)
        } else if r < tc {
            (1, 0)
        } else {
            (1, 1)
        };
        u = (u << 1) | bu;
        v = (v << 1) | bv;
    }
    (u, v)
}

/// Edge `k` of the Kronecker graph `(scale, seed)`, vertex ids scrambled: what
/// [`kronecker_edges`] generates, for sequential references.
#[inline]
pub fn kronecker_edge(k: u64, scale: u32, seed: u64) -> (u64, u64) {
    let (u, v) = rmat_edge(k, scale, seed);
    (scramble(u, scale, seed), scramble(v, scale, seed))
}

/// This locale's share (a Block range of the `edge_factor * 2^scale` edge numbers) of the
/// generated edges, one direction each, self loops included as generated, scrambled ids.
///
/// # Errors
/// [`Error::InvalidArgument`] for a scale above 40 or an edge count that overflows.
pub fn kronecker_edges(ctx: &Ctx, scale: u32, edge_factor: u64, seed: u64) -> Result<LocalEntries> {
    if scale > 40 {
        return Err(Error::InvalidArgument(format!("kronecker: scale {scale} is above 40")));
    }
    let m = edge_factor
        .checked_mul(1u64 << scale)
        .ok_or_else(|| Error::InvalidArgument("kronecker: too many edges".into()))?;
    let part = Partition::new(m as usize, ctx.num_locales());
    let r = part.range(ctx.id());
    let mut rows = vec![0u64; r.len()];
    let mut cols = vec![0u64; r.len()];
    {
        let base = r.start as u64;
        let mut pairs: Vec<(u64, u64)> = vec![(0, 0); r.len()];
        ctx.forall_chunks_mut(&mut pairs, |sub, out| {
            for (k, o) in sub.zip(out) {
                *o = kronecker_edge(base + k as u64, scale, seed);
            }
        });
        for (k, (u, v)) in pairs.into_iter().enumerate() {
            rows[k] = u;
            cols[k] = v;
        }
    }
    Ok(LocalEntries { rows, cols, vals: None })
}

/// The undirected Kronecker graph as a symmetric pattern CSR matrix of `2^scale` vertices:
/// both directions of every generated edge, self loops and duplicates removed. **Collective.**
///
/// # Errors
/// As [`kronecker_edges`] and [`CsrMatrix::from_entries`].
pub fn kronecker(ctx: &Ctx, scale: u32, edge_factor: u64, seed: u64) -> Result<CsrMatrix> {
    let e = kronecker_edges(ctx, scale, edge_factor, seed)?;
    let mut sym = LocalEntries::new(true);
    sym.rows.reserve(2 * e.len());
    sym.cols.reserve(2 * e.len());
    for k in 0..e.len() {
        let (u, v) = (e.rows[k], e.cols[k]);
        if u != v {
            sym.rows.push(u);
            sym.cols.push(v);
            sym.rows.push(v);
            sym.cols.push(u);
        }
    }
    drop(e);
    let n = 1usize << scale;
    CsrMatrix::from_entries(ctx, n, n, sym)
}
