//! Synchronous label propagation: every vertex takes the most frequent label among its
//! neighbours (ties to the smallest label; a vertex without neighbours keeps its own), all at
//! once, until no label changes or an iteration limit.

use crate::csr::CsrMatrix;
use crate::par::for_chunks_mut;
use atoll_error::Result;
use atoll_runtime::Ctx;

/// The outcome of an iterative label algorithm: this locale's labels (its rows).
#[derive(Clone, Debug, PartialEq)]
pub struct Labels {
    /// This locale's labels.
    pub labels: Vec<u64>,
    /// Iterations run (each one exchange and one pass).
    pub iters: usize,
    /// Whether a fixed point was reached.
    pub converged: bool,
}

/// One synchronous step: `next[i]` from the labels `lg` (local followed by ghosts); returns the
/// number of changes.
pub fn lp_step(ctx: &Ctx, m: &CsrMatrix, lg: &[u64], next: &mut [u64]) -> u64 {
    let nlc = m.local_cols().len();
    let own = m.local_rows().start - m.local_cols().start;
    let changed = std::sync::atomic::AtomicU64::new(0);
    for_chunks_mut(ctx, next, |r, out| {
        let mut buf: Vec<u64> = Vec::new();
        let mut ch = 0;
        for (i, o) in r.zip(out) {
            let (cs, _) = m.row(i);
            buf.clear();
            // The diagonal is local column `i + own` (square matrices with equal partitions).
            buf.extend(cs.iter().filter(|&&c| c as usize != i + own || (c as usize) >= nlc).map(|&c| lg[c as usize]));
            let cur = lg[i + own];
            let new = if buf.is_empty() {
                cur
            } else {
                buf.sort_unstable();
                let (mut best, mut best_n) = (buf[0], 0usize);
                let mut k = 0;
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
                best
            };
            if new != cur {
                ch += 1;
            }
            *o = new;
        }
        changed.fetch_add(ch, std::sync::atomic::Ordering::Relaxed);
    });
    changed.into_inner()
}

/// Label propagation from `initial` labels (this locale's rows; `None`: each vertex its own
/// id), at most `max_iters` iterations. The matrix must be square. **Collective.**
///
/// # Errors
/// [`atoll_error::Error::ShapeMismatch`] for a non-square matrix or initial labels of the wrong
/// length; communication failures.
pub fn label_propagation(ctx: &Ctx, m: &CsrMatrix, initial: Option<Vec<u64>>, max_iters: usize) -> Result<Labels> {
    square(m, "label_propagation")?;
    let rows = m.local_rows();
    let mut labels = match initial {
        Some(l) => {
            crate::operator::check_part("label_propagation (initial labels)", m.shape().0, l.len(), m.shape().0, rows.clone())?;
            l
        }
        None => rows.clone().map(|i| i as u64).collect(),
    };
    let mut lg = Vec::new();
    let mut next = vec![0u64; labels.len()];
    let mut iters = 0;
    while iters < max_iters {
        m.halo().gather(ctx, &labels, &mut lg)?;
        let ch = lp_step(ctx, m, &lg, &mut next);
        iters += 1;
        std::mem::swap(&mut labels, &mut next);
        if ctx.allreduce(ch, |a, b| a + b)? == 0 {
            return Ok(Labels { labels, iters, converged: true });
        }
    }
    Ok(Labels { labels, iters, converged: false })
}

pub(crate) fn square(m: &CsrMatrix, what: &str) -> Result<()> {
    let (r, c) = m.shape();
    if r != c {
        return Err(atoll_error::Error::ShapeMismatch { context: what.into(), left: format!("a {r} x {c} matrix"), right: "a square matrix (a graph)".into() });
    }
    Ok(())
}
