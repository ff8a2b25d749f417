//! The aggregation part of the `make demo` tour: a 1-D Jacobi stencil on a Cyclic array, whose
//! shifted followers are remote, run with static message aggregation off and then auto. Both
//! results are checked against each other and against a sequential reference.

use crate::check;
use atoll::array::{aggregation, dist, set_aggregation, Aggregation, Cyclic, DistArray};
use atoll::prelude::*;
use std::time::Instant;

/// `steps` Jacobi sweeps over `n` points with aggregation `mode`: the result (on locale 0),
/// locale 0's seconds and the messages of all locales. **Collective.**
fn jacobi(ctx: &Ctx, n: usize, steps: usize, mode: Aggregation) -> Result<(Option<Vec<f64>>, f64, u64)> {
    set_aggregation(ctx, mode);
    let mut a = DistArray::<f64, 1, Cyclic<1>>::from_fn(ctx, dist::cyclic(ctx, [n])?, |[i]| (i % 10) as f64)?;
    let mut b = DistArray::<f64, 1, Cyclic<1>>::zeros(ctx, dist::cyclic(ctx, [n])?)?;
    let n = n as i64;
    ctx.reset_comm_diagnostics()?;
    ctx.start_comm_diagnostics()?;
    ctx.barrier()?;
    let t = Instant::now();
    for _ in 0..steps {
        // The leader is the written interior; the left and right views follow, shifted by one.
        b.slice_mut(1..n - 1)?
            .zip_apply((a.slice(0..n - 2)?, a.slice(1..n - 1)?, a.slice(2..n)?), |x, (l, c, r)| {
                *x = (l + c + r) / 3.0
            })?;
        a.slice_mut(1..n - 1)?.assign_expr(b.slice(1..n - 1)?)?;
    }
    ctx.barrier()?;
    let secs = t.elapsed().as_secs_f64();
    ctx.stop_comm_diagnostics()?;
    let msgs = ctx.comm_diagnostics()?.iter().map(CommCounts::total_ops).sum();
    Ok((a.gather(0)?, secs, msgs))
}

/// The tour step (collective).
pub fn stencil_tour(ctx: &Ctx) -> Result<()> {
    let (n, steps) = (100_000usize, 10usize);
    let before = aggregation(ctx)?;
    let (off, off_s, off_m) = jacobi(ctx, n, steps, Aggregation::Off)?;
    let (auto, auto_s, auto_m) = jacobi(ctx, n, steps, Aggregation::Auto)?;
    set_aggregation(ctx, before);
    if let (Some(off), Some(auto)) = (off, auto) {
        let mut reference: Vec<f64> = (0..n).map(|i| (i % 10) as f64).collect();
        let mut next = reference.clone();
        for _ in 0..steps {
            for i in 1..n - 1 {
                next[i] = (reference[i - 1] + reference[i] + reference[i + 1]) / 3.0;
            }
            reference[1..n - 1].copy_from_slice(&next[1..n - 1]);
        }
        check(off == auto, "aggregation off and auto give the same stencil")?;
        check(
            off.iter().zip(&reference).all(|(x, y)| (x - y).abs() <= 1e-12 * y.abs().max(1.0)),
            "stencil vs sequential reference",
        )?;
        println!("\n== Static message aggregation: 1-D Jacobi, {n} points on a Cyclic array, {steps} steps (followers shifted by one: remote)");
        println!("   off : {:>8.1} ms, {off_m:>9} messages (one get per remote element)", off_s * 1e3);
        println!("   auto: {:>8.1} ms, {auto_m:>9} messages (strided gets per remote piece); same result, checked against a sequential loop", auto_s * 1e3);
    }
    Ok(())
}
