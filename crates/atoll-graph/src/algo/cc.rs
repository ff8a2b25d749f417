//! Connected components (of the undirected graph of a symmetric pattern); the label of a
//! component is its smallest vertex id.
//!
//! Each locale first joins its own edges with union-find over its vertices and its ghosts (one
//! pass over its entries, no communication), then the locales agree on labels in rounds: every
//! local component takes the smallest label among its members, ghosts included (a ghost's label
//! is its owner's, fetched with the matrix's cached plan). A round costs O(vertices + ghosts),
//! not O(entries), and the rounds stop when no label changes: their number is bounded by how
//! many times a component crosses between locales, not by its diameter.

use super::lp::{square, Labels};
use crate::csr::CsrMatrix;
use atoll_error::Result;
use atoll_runtime::Ctx;

fn find(p: &mut [u32], mut x: u32) -> u32 {
    while p[x as usize] != x {
        let g = p[p[x as usize] as usize];
        p[x as usize] = g;
        x = g;
    }
    x
}

/// Component labels (smallest vertex id of each component). The pattern must be symmetric
/// (an undirected graph); `iters` counts the label rounds. **Collective.**
///
/// # Errors
/// A non-square matrix; communication failures.
pub fn connected_components(ctx: &Ctx, m: &CsrMatrix) -> Result<Labels> {
    square(m, "connected_components")?;
    let rows = m.local_rows();
    let nl = rows.len();
    let own = rows.start - m.local_cols().start;
    let total = m.local_cols().len() + m.halo().ghosts().len();
    // Union-find over local columns and ghosts (local rows are local columns `i + own`).
    let mut parent: Vec<u32> = (0..total as u32).collect();
    for i in 0..nl {
        let a = (i + own) as u32;
        for &c in m.row(i).0 {
            let (x, y) = (find(&mut parent, a), find(&mut parent, c));
            if x != y {
                let (lo, hi) = (x.min(y), x.max(y));
                parent[hi as usize] = lo;
            }
        }
    }
    let comp: Vec<u32> = (0..total as u32).map(|x| find(&mut parent, x)).collect();
    drop(parent);
    let ncols = m.local_cols().len();
    let mut labels: Vec<u64> = (0..ncols).map(|c| (m.local_cols().start + c) as u64).collect();
    let mut xg = Vec::new();
    let mut best = vec![u64::MAX; total];
    let mut iters = 0;
    loop {
        m.halo().gather(ctx, &labels, &mut xg)?;
        best.iter_mut().for_each(|b| *b = u64::MAX);
        for (x, &r) in comp.iter().enumerate() {
            let b = &mut best[r as usize];
            *b = (*b).min(xg[x]);
        }
        let mut changed = 0u64;
        for (c, l) in labels.iter_mut().enumerate() {
            let new = best[comp[c] as usize];
            changed += (new != *l) as u64;
            *l = new;
        }
        iters += 1;
        if ctx.allreduce(changed, |a, b| a + b)? == 0 {
            break;
        }
    }
    let labels = labels[own..own + nl].to_vec();
    Ok(Labels { labels, iters, converged: true })
}
