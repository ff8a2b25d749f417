//! Connected components (of the undirected graph of a symmetric pattern): every vertex takes
//! the smallest label among itself and its neighbours until nothing changes; the label of a
//! component is its smallest vertex id.

use super::lp::{square, Labels};
use crate::csr::CsrMatrix;
use crate::par::for_chunks_mut;
use atoll_error::Result;
use atoll_runtime::Ctx;

/// Component labels (smallest vertex id of each component). The pattern must be symmetric
/// (an undirected graph). **Collective.**
///
/// # Errors
/// A non-square matrix; communication failures.
pub fn connected_components(ctx: &Ctx, m: &CsrMatrix) -> Result<Labels> {
    square(m, "connected_components")?;
    let rows = m.local_rows();
    let own = rows.start - m.local_cols().start;
    let mut labels: Vec<u64> = rows.clone().map(|i| i as u64).collect();
    let mut lg = Vec::new();
    let mut next = labels.clone();
    let mut iters = 0;
    loop {
        m.halo().gather(ctx, &labels, &mut lg)?;
        let changed = std::sync::atomic::AtomicU64::new(0);
        for_chunks_mut(ctx, &mut next, |r, out| {
            let mut ch = 0;
            for (i, o) in r.zip(out) {
                let cur = lg[i + own];
                let (cs, _) = m.row(i);
                let new = cs.iter().map(|&c| lg[c as usize]).fold(cur, u64::min);
                ch += (new != cur) as u64;
                *o = new;
            }
            changed.fetch_add(ch, std::sync::atomic::Ordering::Relaxed);
        });
        iters += 1;
        std::mem::swap(&mut labels, &mut next);
        if ctx.allreduce(changed.into_inner(), |a, b| a + b)? == 0 {
            return Ok(Labels { labels, iters, converged: true });
        }
    }
}
