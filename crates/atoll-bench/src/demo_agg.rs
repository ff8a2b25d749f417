//! The aggregation part of the `make demo` tour: a random scatter `a[idx] = v` with dynamic
//! aggregation (one message per buffer of 8192 elements per destination and task) against one
//! put per remote element, with times, message counts and a check of every element.

use crate::check;
use atoll::array::{dist, DistArray, IrregularOptions};
use atoll::prelude::*;
use std::time::Instant;

/// Scatters a permutation of `0..n` (`a[(j * 7919) % n] = j`) with `opts`: (seconds, messages
/// of all locales, every element right). **Collective.**
fn scatter(ctx: &Ctx, n: usize, opts: &IrregularOptions) -> Result<(f64, u64, bool)> {
    // 7919 is prime and does not divide n: j -> 7919 j mod n is a permutation.
    let step = 7919i64;
    let idx = DistArray::from_fn(ctx, dist::cyclic(ctx, [n])?, |[j]| (j * step) % n as i64)?;
    let v = DistArray::from_fn(ctx, dist::cyclic(ctx, [n])?, |[j]| j as u64)?;
    let mut a = DistArray::<u64, 1>::zeros(ctx, dist::block(ctx, [n])?)?;
    ctx.barrier()?;
    let before = ctx.comm_counts();
    let t = Instant::now();
    a.scatter_at_with(&idx, &v, opts)?;
    let secs = ctx.allreduce(t.elapsed().as_secs_f64(), f64::max)?;
    let msgs = ctx.allreduce(ctx.comm_counts().since(&before).total_ops(), |x, y| x + y)?;
    // a[(j * step) % n] == j: check each local element through its index.
    let local = a.local();
    let start = if local.is_empty() { 0 } else { a.dist().global_index(ctx.id(), 0)?[0] };
    let bad = local.iter().enumerate().filter(|&(k, &x)| (x as i64 * step) % n as i64 != start + k as i64).count();
    let ok = ctx.allreduce(bad, |x, y| x + y)? == 0;
    Ok((secs, msgs, ok))
}

/// The aggregation step of the tour. **Collective.**
pub fn aggregation_tour(ctx: &Ctx) -> Result<()> {
    ctx.start_comm_diagnostics()?;
    let (n, small) = (1usize << 21, 1usize << 15);
    let (s_agg, m_agg, ok_agg) = scatter(ctx, n, &IrregularOptions::aggregated())?;
    let (s_one, m_one, ok_one) = scatter(ctx, small, &IrregularOptions::per_element())?;
    ctx.stop_comm_diagnostics()?;
    check(ok_agg && ok_one, "scatter results")?;
    check(m_one as usize <= small && (ctx.num_locales() == 1 || m_agg > 0), "message counts")?;
    if ctx.id() == 0 {
        let rate = |n: usize, s: f64| n as f64 / s / 1e6;
        println!("\n== Irregular access: scatter a[idx] = v of a random permutation (Cyclic idx, Block a)");
        println!(
            "   aggregated:   n = {n:>8}  {:>7.1} ms  {:>7} messages  {:>7.1} M elements/s",
            s_agg * 1e3,
            m_agg,
            rate(n, s_agg)
        );
        println!(
            "   element-wise: n = {small:>8}  {:>7.1} ms  {:>7} messages  {:>7.1} M elements/s",
            s_one * 1e3,
            m_one,
            rate(small, s_one)
        );
        println!(
            "   aggregation: {:.0}x the element rate, {:.0}x fewer messages per element (buffers of {} elements per destination and task)",
            rate(n, s_agg) / rate(small, s_one),
            (m_one as f64 / small as f64) / (m_agg.max(1) as f64 / n as f64),
            ctx.config().agg_buffer
        );
    }
    Ok(())
}
