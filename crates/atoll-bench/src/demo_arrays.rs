//! The arrays part of the `make demo` tour: distributions, views, a zippered forall, bulk
//! assignment, reductions and scans, and STREAM. Every step checks its result against a
//! sequential computation.

use crate::baseline::Baseline;
use crate::check;
use atoll::array::{dist, Cyclic, DistArray, Distribution, ExprExt, ExprReduce, StridedRange};
use atoll::prelude::*;
use std::time::Instant;

/// Messages (remote operations) made by `f` on all locales together.
fn messages<R>(ctx: &Ctx, f: impl FnOnce() -> Result<R>) -> Result<(R, u64)> {
    ctx.barrier()?;
    let before = ctx.comm_counts();
    let r = f()?;
    let mine = ctx.comm_counts().since(&before).total_ops();
    Ok((r, ctx.allreduce(mine, |a, b| a + b)?))
}

/// The tour (collective).
pub fn arrays_tour(ctx: &Ctx, baseline: &Baseline) -> Result<()> {
    let me = ctx.id();
    ctx.reset_comm_diagnostics()?;
    ctx.start_comm_diagnostics()?;

    // Distributions: who owns what.
    let m = DistArray::<i64, 2, _>::from_fn(ctx, dist::cyclic(ctx, [8, 8])?, |[i, j]| i * 8 + j)?;
    if me == 0 {
        println!("\n== Distributed arrays: an 8x8 Cyclic array; owner of each element:");
        for line in m.dist().owner_map().lines() {
            println!("   {line}");
        }
    }

    // Views: O(1), no message.
    let n = 1_000_000usize;
    let a = DistArray::from_fn(ctx, dist::block(ctx, [n])?, |[i]| (i % 1000) as f64)?;
    let t = Instant::now();
    let (total, msgs) = messages(ctx, || {
        let mut total = 0;
        for k in 0..1000i64 {
            total += a.slice(k..n as i64 - k)?.len();
        }
        Ok(total)
    })?;
    let per = t.elapsed().as_secs_f64() / 1000.0 * 1e9;
    check(msgs == 0 && total == (0..1000).map(|k| n - 2 * k).sum::<usize>(), "1000 views, no message")?;
    let every_third = a.slice([StridedRange::with_stride(0, n as i64, 3)?])?;
    let inner = every_third.slice([StridedRange::with_stride(300, 600_000, 3)?])?;
    let s = inner.sum()?;
    let expect: f64 = (300..600_000).step_by(3).map(|i| (i % 1000) as f64).sum();
    check(s == expect, "sum over a view of a view")?;
    let view_of_m = m.slice([2..6, 1..7])?;
    let (mx, at) = view_of_m.argmax()?;
    check(mx == 5 * 8 + 6 && at == [5, 6], "argmax over a 2-D view")?;
    if me == 0 {
        println!("\n== Views: 1000 slices made {msgs} messages (~{per:.0} ns each incl. checks); sum over a view of a strided view = {s}; argmax of m[2..6, 1..7] = {mx} at {at:?}");
    }

    // Zippered forall: a Block leader with a Cyclic follower (owner computes; the follower
    // fetches what is not local one element at a time: the baseline of static aggregation).
    let k = 10_000usize;
    let b = DistArray::from_fn(ctx, dist::block(ctx, [k])?, |[i]| i as f64)?;
    let c = DistArray::<f64, 1, Cyclic<1>>::from_fn(ctx, dist::cyclic(ctx, [k])?, |[i]| 2.0 * i as f64)?;
    let mut z = DistArray::<f64, 1>::zeros(ctx, dist::block(ctx, [k])?)?;
    let (_, zip_msgs) = messages(ctx, || z.zip_apply((b.view(), c.view()), |x, (y, w)| *x = y + w))?;
    check(z.view().sum()? == (0..k).map(|i| 3.0 * i as f64).sum::<f64>(), "zippered forall")?;
    // The same data moved by bulk assignment: one strided get per pair of locales.
    let mut cb = DistArray::<f64, 1>::zeros(ctx, dist::block(ctx, [k])?)?;
    let (_, bulk_msgs) = messages(ctx, || cb.assign(&c.view()))?;
    check((cb.view() - c.view()).map(f64::abs).max()? == 0.0, "bulk assign Cyclic -> Block")?;
    // A fused promoted expression over aligned arrays: no message at all.
    let (_, expr_msgs) = messages(ctx, || z.assign_expr(&b + 0.5 * &cb))?;
    check(z.get([k as i64 - 1])? == 2.0 * (k - 1) as f64, "fused expression")?;
    let cums = b.view().cumsum()?;
    check(cums.get([k as i64 - 1])? == (k * (k - 1) / 2) as f64, "cumsum")?;
    if me == 0 {
        println!("\n== Zippered forall z = b + c (Block leader, Cyclic follower): {zip_msgs} messages (one per remote element)");
        println!("   bulk assignment Cyclic -> Block of the same data: {bulk_msgs} messages (strided gets, one per locale pair)");
        println!(
            "   fused expression z = b + 0.5 * cb over aligned Block arrays: {expr_msgs} messages; cumsum(b)[-1] = {}",
            cums.get([k as i64 - 1])?
        );
    }
    ctx.stop_comm_diagnostics()?;

    // STREAM triad on Block arrays over all locales vs a plain 2-thread loop (same run).
    let n = baseline.len();
    let b = DistArray::from_fn(ctx, dist::block(ctx, [n])?, |[i]| i as f64)?;
    let c = DistArray::<f64, 1>::filled(ctx, dist::block(ctx, [n])?, 2.0)?;
    let mut a = DistArray::<f64, 1>::zeros(ctx, dist::block(ctx, [n])?)?;
    let (mut best, mut best_vec) = (f64::INFINITY, f64::INFINITY);
    for _ in 0..5 {
        ctx.barrier()?;
        let t = Instant::now();
        a.assign_expr(&b + 3.0 * &c)?;
        best = best.min(ctx.allreduce(t.elapsed().as_secs_f64(), f64::max)?);
        if me == 0 {
            best_vec = best_vec.min(baseline.rep());
        }
        ctx.barrier()?;
    }
    check((a.view() - (&b + 3.0 * &c)).map(|d| u64::from(d != 0.0)).sum()? == 0, "STREAM triad")?;
    check(me != 0 || baseline.check(), "STREAM baseline")?;
    if me == 0 {
        let gb = 24.0 * n as f64 / 1e9;
        println!(
            "\n== STREAM triad a = b + 3 c, 3 x {n} doubles on {} locales: {:.1} GB/s; plain threads over Vecs (one per core): {:.1} GB/s (ratio {:.2})",
            ctx.num_locales(),
            gb / best,
            gb / best_vec,
            best_vec / best
        );
    }
    Ok(())
}
