//! `atoll-bench slices`: what a view costs. `create`: nanoseconds to make a view of a
//! distributed array (1-D and 2-D) and the messages that made (must be 0). `expr`: the triad over
//! views covering all but the ends, against the same triad over whole arrays (per element).

use crate::report::Line;
use atoll::array::{dist, DistArray, ExprExt, ExprReduce, StridedRange};
use atoll::prelude::*;
use std::hint::black_box;
use std::time::Instant;

/// Options of the slices benchmark.
pub struct SlicesOpts {
    pub json: bool,
    pub n: usize,
    pub slices: usize,
    pub reps: usize,
}

/// `create`'s check: views were made, none sent a message, and the counters were on (a read
/// of another locale's element, the probe, was counted; with one locale there is none).
fn create_ok(views_len: usize, messages: u64, probe_messages: u64, locales: usize) -> bool {
    views_len > 0 && messages == 0 && (locales == 1 || probe_messages > 0)
}

/// `expr`'s check: every element right, no message (aligned views read in place).
fn expr_ok(bad: u64, messages: u64) -> bool {
    bad == 0 && messages == 0
}

fn create(ctx: &Ctx, opts: &SlicesOpts) -> Result<Vec<Line>> {
    let side = 1024usize;
    let a1 = DistArray::<f64, 1>::zeros(ctx, dist::block(ctx, [opts.n])?)?;
    let a2 = DistArray::<f64, 2, _>::zeros(ctx, dist::cyclic(ctx, [side, side])?)?;
    let n = opts.n as i64;
    // Counters on for the timed loops (off, `messages` would be 0 whatever happened).
    ctx.reset_comm_diagnostics()?;
    ctx.start_comm_diagnostics()?;
    let t = Instant::now();
    let mut acc = 0usize;
    for k in 0..opts.slices as i64 {
        let lo = k % (n / 2);
        let v = a1.slice(lo..n - 1)?;
        acc += black_box(v).len();
    }
    let s1 = t.elapsed().as_secs_f64();
    let t = Instant::now();
    for k in 0..opts.slices as i64 {
        let lo = k % 512;
        let v = a2.slice([StridedRange::with_stride(lo, 1024, 2)?, StridedRange::new(1, 1023)])?;
        let w = v.slice([StridedRange::with_stride(lo, 1024, 4)?, StridedRange::new(2, 1000)])?;
        acc += black_box(w).len();
    }
    let s2 = t.elapsed().as_secs_f64();
    let msgs = ctx.comm_counts().total_ops();
    let all_msgs = ctx.allreduce(msgs, |a, b| a + b)?;
    // Probe: one read of an element owned by another locale must be counted, which proves the
    // counters were on while the views were made.
    let before = ctx.comm_counts();
    // (Block: the last element is not locale 0's, the first is locale 0's.)
    let probe = if ctx.id() == 0 { n - 1 } else { 0 };
    black_box(a1.get([probe])?);
    let probe_msgs = ctx.allreduce(ctx.comm_counts().since(&before).total_ops(), |a, b| a + b)?;
    ctx.stop_comm_diagnostics()?;
    let ok = create_ok(acc, all_msgs, probe_msgs, ctx.num_locales());
    let k = opts.slices as f64;
    Ok(vec![
        Line::new("slices", "create", ctx.backend_name(), ctx.num_locales(), opts.slices as u64, s1, ok)
            .with("ns_per_slice", s1 / k * 1e9)
            .with("messages", all_msgs)
            .with("probe_messages", probe_msgs)
            .with("shape", "1-D Block"),
        Line::new(
            "slices",
            "create_2d_view_of_view",
            ctx.backend_name(),
            ctx.num_locales(),
            opts.slices as u64,
            s2,
            ok,
        )
        .with("ns_per_slice", s2 / k / 2.0 * 1e9)
        .with("messages", all_msgs)
        .with("shape", "2-D Cyclic, strided, a view of a view"),
    ])
}

fn expr(ctx: &Ctx, opts: &SlicesOpts) -> Result<Line> {
    let n = opts.n;
    let b = DistArray::from_fn(ctx, dist::block(ctx, [n])?, |[i]| i as f64)?;
    let c = DistArray::<f64, 1>::filled(ctx, dist::block(ctx, [n])?, 2.0)?;
    let mut a = DistArray::<f64, 1>::zeros(ctx, dist::block(ctx, [n])?)?;
    let inner = 1..n as i64 - 1;
    let (mut whole, mut view) = (f64::INFINITY, f64::INFINITY);
    ctx.reset_comm_diagnostics()?;
    ctx.start_comm_diagnostics()?;
    for _ in 0..opts.reps.max(1) {
        ctx.barrier()?;
        let t = Instant::now();
        a.assign_expr(&b + 3.0 * &c)?;
        whole = whole.min(ctx.allreduce(t.elapsed().as_secs_f64(), f64::max)?);
        ctx.barrier()?;
        let t = Instant::now();
        a.slice_mut(inner.clone())?.assign_expr(b.slice(inner.clone())? + 3.0 * c.slice(inner.clone())?)?;
        view = view.min(ctx.allreduce(t.elapsed().as_secs_f64(), f64::max)?);
    }
    ctx.stop_comm_diagnostics()?;
    let msgs = ctx.allreduce(ctx.comm_counts().total_ops(), |x, y| x + y)?;
    let bad = (a.view() - (&b + 3.0 * &c)).map(|d| u64::from(d != 0.0)).sum()?;
    // Per element: the view covers n - 2 elements.
    let ratio = (view / (n - 2) as f64) / (whole / n as f64);
    Ok(Line::new("slices", "expr", ctx.backend_name(), ctx.num_locales(), n as u64, view, expr_ok(bad, msgs))
        .with("whole_seconds", whole)
        .with("view_vs_whole_ratio", ratio)
        .with("messages", msgs))
}

/// Runs the benchmark (collective; locale 0 prints).
pub fn slices(ctx: &Ctx, opts: &SlicesOpts) -> Result<()> {
    let mut lines = create(ctx, opts)?;
    lines.push(expr(ctx, opts)?);
    if ctx.id() == 0 {
        for l in &lines {
            l.print(opts.json);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wrong_result_is_not_ok() {
        assert!(create_ok(10, 0, 1, 2));
        assert!(create_ok(10, 0, 0, 1));
        assert!(!create_ok(10, 3, 1, 2), "messages while creating views");
        assert!(!create_ok(10, 0, 0, 2), "counters off: the probe was not counted");
        assert!(!create_ok(0, 0, 1, 2), "no view made");
        assert!(expr_ok(0, 0));
        assert!(!expr_ok(1, 0));
        assert!(!expr_ok(0, 1));
    }
}
