//! `atoll-bench stencil`: 1-D Jacobi (`b[i] = (a[i-1] + a[i] + a[i+1]) / 3`, three shifted
//! views of `a`, `a` and `b` swapping roles every sweep) on Cyclic and on Block arrays over all
//! locales, per sweep, beside the same sweeps as a plain sequential loop over one `Vec` on one
//! core in the same run. On Cyclic data the views shifted by one are owned by the neighbouring
//! locale (the remote-follower case); on Block data only one halo element per locale is.
//! `cyclic_vs_block` is the ratio of the two per-sweep times. Every result is compared with the
//! sequential loop's (the same operations in the same order: bitwise equal).

use crate::report::Line;
use atoll::array::{dist, DistArray};
use atoll::dist::Distribution;
use atoll::prelude::*;
use std::time::Instant;

/// Options of the stencil benchmark.
pub struct StencilOpts {
    pub json: bool,
    /// Problem sizes.
    pub sizes: Vec<usize>,
    /// Sweeps per timed repetition (0: chosen from n, about 2*10^8 point updates).
    pub steps: usize,
    /// Repetitions (the best is reported).
    pub reps: usize,
}

/// The initial value of point `i` (boundaries included; they never change).
fn init(i: usize) -> f64 {
    ((i * 7919) % 1000) as f64 / 10.0
}

/// Sweeps per repetition for `n` points.
fn steps_for(n: usize, steps: usize) -> usize {
    if steps > 0 {
        steps
    } else {
        (200_000_000 / n.max(1)).clamp(4, 2000)
    }
}

/// `steps` sequential sweeps from the initial values (ping-pong between two vectors): the
/// final values and the best seconds per sweep over `reps` repetitions.
fn sequential(n: usize, steps: usize, reps: usize) -> (Vec<f64>, f64) {
    let mut best = f64::INFINITY;
    let mut out = Vec::new();
    for _ in 0..reps {
        let mut a: Vec<f64> = (0..n).map(init).collect();
        let mut b = a.clone();
        let t = Instant::now();
        for _ in 0..steps {
            sweep(&a, &mut b);
            std::mem::swap(&mut a, &mut b);
        }
        best = best.min(t.elapsed().as_secs_f64() / steps as f64);
        out = a;
    }
    (out, best)
}

/// One sequential sweep of the interior of `b` from `a` (the loop a skeptic writes: slices and
/// windows, no bounds checks in the loop).
fn sweep(a: &[f64], b: &mut [f64]) {
    let n = a.len();
    if n < 3 {
        return;
    }
    for (x, w) in b[1..n - 1].iter_mut().zip(a.windows(3)) {
        *x = (w[0] + w[1] + w[2]) / 3.0;
    }
}

/// `steps` sweeps on arrays of distribution `d` (collective): the result on locale 0, the best
/// seconds per sweep (slowest locale) and the messages per sweep (all locales).
fn distributed<M: Distribution<1> + Clone + 'static>(
    ctx: &Ctx,
    d: M,
    steps: usize,
    reps: usize,
) -> Result<(Option<Vec<f64>>, f64, f64)> {
    let n = d.domain().size() as i64;
    let mut best = f64::INFINITY;
    let mut msgs = 0u64;
    let mut result = None;
    for _ in 0..reps {
        let mut a = DistArray::<f64, 1, M>::from_fn(ctx, d.clone(), |[i]| init(i as usize))?;
        let mut b = DistArray::<f64, 1, M>::from_fn(ctx, d.clone(), |[i]| init(i as usize))?;
        ctx.reset_comm_diagnostics()?;
        ctx.start_comm_diagnostics()?;
        ctx.barrier()?;
        let t = Instant::now();
        for _ in 0..steps {
            if n >= 3 {
                b.slice_mut(1..n - 1)?
                    .zip_apply((a.slice(0..n - 2)?, a.slice(1..n - 1)?, a.slice(2..n)?), |x, (l, c, r)| {
                        *x = (l + c + r) / 3.0
                    })?;
            }
            std::mem::swap(&mut a, &mut b);
        }
        let dt = ctx.allreduce(t.elapsed().as_secs_f64(), f64::max)?;
        ctx.stop_comm_diagnostics()?;
        msgs = ctx.comm_diagnostics()?.iter().map(CommCounts::total_ops).sum();
        best = best.min(dt / steps as f64);
        result = a.gather(0)?;
        a.free()?;
        b.free()?;
    }
    Ok((result, best, msgs as f64 / steps as f64))
}

/// Whether a distributed result equals the sequential one (bitwise: same operations, same order).
fn same_result(got: Option<&[f64]>, want: &[f64]) -> bool {
    got.is_some_and(|g| g.len() == want.len() && g.iter().zip(want).all(|(x, y)| x.to_bits() == y.to_bits()))
}

/// Runs the benchmark (collective); locale 0 prints.
pub fn stencil(ctx: &Ctx, opts: &StencilOpts) -> Result<()> {
    let reps = opts.reps.max(1);
    for &n in &opts.sizes {
        let steps = steps_for(n, opts.steps);
        let (cyc, cyc_s, cyc_m) = distributed(ctx, dist::cyclic(ctx, [n])?, steps, reps)?;
        let (blk, blk_s, blk_m) = distributed(ctx, dist::block(ctx, [n])?, steps, reps)?;
        // The sequential loop on locale 0 only, while the others wait at the barrier.
        let seq = (ctx.id() == 0).then(|| sequential(n, steps, reps));
        ctx.barrier()?;
        let Some((want, seq_s)) = seq else { continue };
        let (backend, locales) = (ctx.backend_name(), ctx.num_locales());
        let cyc_ok = same_result(cyc.as_deref(), &want);
        let blk_ok = same_result(blk.as_deref(), &want);
        for (variant, s, m, ok) in [("cyclic", cyc_s, cyc_m, cyc_ok), ("block", blk_s, blk_m, blk_ok)] {
            Line::new("stencil", variant, backend, locales, n as u64, s, ok)
                .with("steps", steps as u64)
                .with("messages_per_step", m)
                .with("seq_seconds", seq_s)
                .with("speedup_vs_sequential", seq_s / s)
                .with("gbps", 16.0 * n as f64 / s / 1e9)
                .print(opts.json);
        }
        Line::new("stencil", "sequential", backend, 1, n as u64, seq_s, true)
            .with("steps", steps as u64)
            .print(opts.json);
        Line::new("stencil", "cyclic_vs_block", backend, locales, n as u64, cyc_s, cyc_ok && blk_ok)
            .with("block_seconds", blk_s)
            .with("cyclic_vs_block", cyc_s / blk_s)
            .print(opts.json);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wrong_stencil_is_not_ok() {
        let (want, _) = sequential(50, 3, 1);
        assert!(same_result(Some(&want), &want));
        let mut bad = want.clone();
        bad[10] += 1e-9;
        assert!(!same_result(Some(&bad), &want));
        assert!(!same_result(Some(&want[1..]), &want));
        assert!(!same_result(None, &want));
    }

    #[test]
    fn distributed_jacobi_matches_the_sequential_loop() {
        for locales in [1, 2, 3] {
            run(Config::local(locales), |ctx| {
                let (want, _) = sequential(1001, 5, 1);
                let (c, _, _) = distributed(ctx, dist::cyclic(ctx, [1001])?, 5, 1)?;
                let (b, _, _) = distributed(ctx, dist::block(ctx, [1001])?, 5, 1)?;
                if ctx.id() == 0 {
                    assert!(same_result(c.as_deref(), &want));
                    assert!(same_result(b.as_deref(), &want));
                }
                Ok(())
            })
            .unwrap();
        }
    }
}
