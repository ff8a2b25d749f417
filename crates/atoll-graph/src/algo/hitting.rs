//! Random-walk hitting times to a target set: `h(v) = 0` on targets and
//! `h(v) = 1 + sum_u P(v, u) h(u)` elsewhere, with `P = D^-1 A` (`D` the weighted degrees).
//! Multiplied by `D`, this is `(D - A)_NN h_N = d_N` on the non-target vertices `N`, a
//! symmetric positive definite system for a symmetric `A` with nonnegative weights, solved by
//! conjugate gradients preconditioned by the degrees (one SpMV and two reductions per
//! iteration; the residual reported is the system's own, `||d_N - (D - A)_NN h_N||_2`). Vertices that cannot reach
//! a target (no target in their connected component) get `+inf` and stay out of the system.
//! [`HittingMethod::Jacobi`] iterates the fixed point instead (any nonnegative `A`).

use crate::algo::cc::connected_components;
use crate::csr::CsrMatrix;
use crate::operator::RowMatrix;
use atoll_error::{Error, Result};
use atoll_runtime::Ctx;

/// The iterative method.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HittingMethod {
    /// Conjugate gradients on `(D - A)_NN` preconditioned by its diagonal `D_NN` (Jacobi
    /// preconditioning; needs a symmetric matrix). One SpMV and two reductions per iteration.
    ConjugateGradient,
    /// The fixed point `h = 1 + D^-1 A h` (Jacobi on the same system).
    Jacobi,
}

/// The solution and its history.
#[derive(Clone, Debug)]
pub struct HittingTimes {
    /// This locale's hitting times (`0` on targets, `inf` where no target is reachable).
    pub times: Vec<f64>,
    /// The residual `||d_N - (D - A)_NN h_N||_2` after each iteration.
    pub residuals: Vec<f64>,
    /// Whether the residual fell to `tol * ||d_N||_2`.
    pub converged: bool,
}

fn dot(ctx: &Ctx, a: &[f64], b: &[f64]) -> Result<f64> {
    let s: f64 = a.iter().zip(b).map(|(x, y)| x * y).sum();
    ctx.allreduce(s, |x, y| x + y)
}

/// Hitting times to `targets` (global vertex ids, the same on every locale). **Collective.**
///
/// # Errors
/// [`Error::IndexOutOfBounds`] for a target outside the graph; [`Error::InvalidArgument`] for an
/// empty target set or a negative weight; a non-square matrix; communication failures.
pub fn hitting_times(
    ctx: &Ctx,
    m: &CsrMatrix,
    targets: &[u64],
    method: HittingMethod,
    tol: f64,
    max_iters: usize,
) -> Result<HittingTimes> {
    super::lp::square(m, "hitting_times")?;
    let n = m.shape().0 as u64;
    if let Some(&t) = targets.iter().find(|&&t| t >= n) {
        return Err(Error::IndexOutOfBounds { index: t.to_string(), bounds: format!("0..{n} (hitting_times target)") });
    }
    if targets.is_empty() {
        return Err(Error::InvalidArgument("hitting_times: the target set is empty".into()));
    }
    let neg = m.val.as_ref().is_some_and(|v| v.iter().any(|&a| a < 0.0));
    if ctx.allreduce(neg, |a, b| a || b)? {
        return Err(Error::InvalidArgument(
            "hitting_times: the matrix has a negative weight (a random walk needs nonnegative weights)".into(),
        ));
    }
    let rows = m.local_rows();
    let nl = rows.len();
    // Reachability: components holding a target.
    let cc = connected_components(ctx, m)?;
    let mut tcomp: Vec<u64> = targets
        .iter()
        .filter(|&&t| rows.contains(&(t as usize)))
        .map(|&t| cc.labels[t as usize - rows.start])
        .collect();
    tcomp = ctx.allgather(&tcomp)?.concat();
    tcomp.sort_unstable();
    tcomp.dedup();
    let mut is_target = vec![false; nl];
    for &t in targets {
        if rows.contains(&(t as usize)) {
            is_target[t as usize - rows.start] = true;
        }
    }
    // Degrees without self loops (a self loop only delays the walk; it cancels in D - A).
    let diag = m.diagonal(ctx)?;
    let deg: Vec<f64> = m.abs_row_sums(ctx)?.iter().zip(&diag).map(|(s, d)| s - d).collect();
    // Unknowns: non-targets that reach a target.
    let active: Vec<bool> =
        (0..nl).map(|i| !is_target[i] && tcomp.binary_search(&cc.labels[i]).is_ok() && deg[i] > 0.0).collect();
    let mask = |v: &mut [f64]| {
        v.iter_mut().zip(&active).for_each(|(x, &a)| {
            if !a {
                *x = 0.0
            }
        })
    };
    // y = (D - A) h on active rows (h zero off the active set), diagonal removed from A.
    let apply = |h: &[f64], y: &mut [f64]| -> Result<()> {
        m.spmv(ctx, h, y)?;
        for i in 0..nl {
            y[i] = if active[i] { (deg[i] + diag[i]) * h[i] - y[i] } else { 0.0 };
        }
        Ok(())
    };
    let b: Vec<f64> = (0..nl).map(|i| if active[i] { deg[i] } else { 0.0 }).collect();
    let bnorm = dot(ctx, &b, &b)?.sqrt();
    let mut h = vec![0.0; nl];
    let mut residuals = Vec::new();
    let mut converged = bnorm == 0.0;
    let mut y = vec![0.0; nl];
    match method {
        HittingMethod::ConjugateGradient => {
            // Preconditioned by the system's diagonal (the degrees): without it, CG on a graph
            // whose degrees span five orders of magnitude (a Kronecker graph) stalls, and its
            // residual wanders in the rounding of the summation order.
            let mut r = b.clone();
            let mut z: Vec<f64> = (0..nl).map(|i| if active[i] { r[i] / deg[i] } else { 0.0 }).collect();
            let mut p = z.clone();
            let mut rz = dot(ctx, &r, &z)?;
            while !converged && residuals.len() < max_iters {
                apply(&p, &mut y)?;
                let py = dot(ctx, &p, &y)?;
                if py <= 0.0 {
                    // Only when r (hence p) is exactly zero: the system is positive definite.
                    break;
                }
                let alpha = rz / py;
                let (mut rr_l, mut rz_l) = (0.0, 0.0);
                for i in 0..nl {
                    h[i] += alpha * p[i];
                    r[i] -= alpha * y[i];
                    z[i] = if active[i] { r[i] / deg[i] } else { 0.0 };
                    rr_l += r[i] * r[i];
                    rz_l += r[i] * z[i];
                }
                let (rr, rz_new) = ctx.allreduce((rr_l, rz_l), |a, b| (a.0 + b.0, a.1 + b.1))?;
                residuals.push(rr.sqrt());
                converged = rr.sqrt() <= tol * bnorm;
                let beta = rz_new / rz;
                rz = rz_new;
                for i in 0..nl {
                    p[i] = z[i] + beta * p[i];
                }
            }
        }
        HittingMethod::Jacobi => {
            while !converged && residuals.len() < max_iters {
                // h <- 1 + D^-1 A h (A without its diagonal) on the active set.
                m.spmv(ctx, &h, &mut y)?;
                let mut res = 0.0;
                for i in 0..nl {
                    if active[i] {
                        let ah = y[i] - diag[i] * h[i];
                        let ri = deg[i] - (deg[i] * h[i] - ah);
                        res += ri * ri;
                        h[i] = 1.0 + ah / deg[i];
                    }
                }
                mask(&mut h);
                let res = ctx.allreduce(res, |a, b| a + b)?.sqrt();
                residuals.push(res);
                converged = res <= tol * bnorm;
            }
        }
    }
    let times = (0..nl)
        .map(|i| {
            if is_target[i] {
                0.0
            } else if active[i] {
                h[i]
            } else {
                f64::INFINITY
            }
        })
        .collect();
    Ok(HittingTimes { times, residuals, converged })
}
