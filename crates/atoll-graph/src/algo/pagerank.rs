//! PageRank by power iteration on any [`RowMatrix`] (row `i`'s entries are `i`'s out-links,
//! weighted): `x' = (1 - d) / n + d (A^T (x / w) + s / n)`, `w` the row weight sums, `s` the
//! rank of vertices without out-links; until `||x' - x||_1 <= tol`.

use crate::operator::RowMatrix;
use atoll_error::{Error, Result};
use atoll_runtime::Ctx;

/// This locale's ranks (its columns), the iterations run and whether it converged.
/// **Collective.**
///
/// # Errors
/// [`Error::InvalidArgument`] for a damping outside `[0, 1)` or a non-square matrix;
/// communication failures.
pub fn pagerank<M: RowMatrix + ?Sized>(
    ctx: &Ctx,
    m: &M,
    damping: f64,
    tol: f64,
    max_iters: usize,
) -> Result<(Vec<f64>, usize, bool)> {
    let (n, c) = m.shape();
    if n != c || !(0.0..1.0).contains(&damping) {
        return Err(Error::InvalidArgument(format!(
            "pagerank: needs a square matrix and a damping in [0, 1), got {n} x {c} and {damping}"
        )));
    }
    let w = m.abs_row_sums(ctx)?;
    let (rows, cols) = (m.local_rows(), m.local_cols());
    let nf = n as f64;
    // x lives on the columns' partition; x / w needs it on the rows' (equal for square Block).
    if rows != cols {
        return Err(Error::InvalidArgument("pagerank: rows and columns must be partitioned alike".into()));
    }
    let mut x = vec![1.0 / nf; cols.len()];
    let mut y = vec![0.0; cols.len()];
    let mut z = vec![0.0; rows.len()];
    for it in 1..=max_iters {
        let mut dangling = 0.0;
        for i in 0..rows.len() {
            if w[i] > 0.0 {
                z[i] = x[i] / w[i];
            } else {
                z[i] = 0.0;
                dangling += x[i];
            }
        }
        let s = ctx.allreduce(dangling, |a, b| a + b)?;
        m.spmv_transpose(ctx, &z, &mut y)?;
        let base = (1.0 - damping) / nf + damping * s / nf;
        let mut diff = 0.0;
        for j in 0..cols.len() {
            let v = base + damping * y[j];
            diff += (v - x[j]).abs();
            x[j] = v;
        }
        if ctx.allreduce(diff, |a, b| a + b)? <= tol {
            return Ok((x, it, true));
        }
    }
    Ok((x, max_iters, false))
}
