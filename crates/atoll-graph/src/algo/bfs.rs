//! Breadth-first search, level-synchronous: in round `k` every unvisited vertex with a
//! neighbour at level `k` gets level `k + 1` (one ghost exchange per level).

use super::lp::square;
use crate::csr::CsrMatrix;
use atoll_error::{Error, Result};
use atoll_runtime::Ctx;

/// BFS levels from `source` (this locale's rows; -1 for unreachable vertices) and the number of
/// levels. Vertex `i` is reached from any `j` with entry `(i, j)` stored (a pull; for a
/// symmetric pattern, the usual BFS of the undirected graph). **Collective.**
///
/// # Errors
/// [`Error::IndexOutOfBounds`] for a bad source; a non-square matrix; communication failures.
pub fn bfs(ctx: &Ctx, m: &CsrMatrix, source: u64) -> Result<(Vec<i64>, usize)> {
    square(m, "bfs")?;
    let n = m.shape().0 as u64;
    if source >= n {
        return Err(Error::IndexOutOfBounds { index: source.to_string(), bounds: format!("0..{n} (bfs source)") });
    }
    let rows = m.local_rows();
    let own = rows.start - m.local_cols().start;
    let mut level: Vec<i64> = rows.clone().map(|i| if i as u64 == source { 0 } else { -1 }).collect();
    let mut lg: Vec<i64> = Vec::new();
    let mut k = 0i64;
    loop {
        m.halo().gather(ctx, &level, &mut lg)?;
        let found = std::sync::atomic::AtomicU64::new(0);
        ctx.forall_chunks_mut(&mut level, |r, out| {
            let mut f = 0;
            for (i, o) in r.zip(out) {
                if lg[i + own] < 0 && m.row(i).0.iter().any(|&c| lg[c as usize] == k) {
                    *o = k + 1;
                    f += 1;
                }
            }
            found.fetch_add(f, std::sync::atomic::Ordering::Relaxed);
        });
        if ctx.allreduce(found.into_inner(), |a, b| a + b)? == 0 {
            return Ok((level, k as usize + 1));
        }
        k += 1;
    }
}
