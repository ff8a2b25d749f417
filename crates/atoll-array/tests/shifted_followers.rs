//! Shifted followers read in the leader's storage order (`zip/local_order.rs`,
//! `follow/shift.rs`): 1-D loops `b[lo..hi] = f(a[lo+s..hi+s], a[lo..hi], a[lo-s..hi-s])` on
//! Block, Cyclic and BlockCyclic arrays (block sizes that do and do not divide `n`, runs longer
//! than a segment), shifts of 1, 2, 3 and more than a block, on 1, 2 and 4 locales, in the three
//! aggregation modes, through `zip_apply` and `assign_expr`, against sequential references; and
//! the messages of the halo on 2 locales (one get per halo element in `off`, one strided get per
//! neighbour and segment in `static`).

use atoll_array::{dist, follower_stats, reset_follower_stats, set_aggregation, Aggregation, DistArray, Distribution};
use atoll_runtime::{run, Config, Ctx, Error, Result};

const MODES: [Aggregation; 3] = [Aggregation::Off, Aggregation::Static, Aggregation::Auto];

fn check(cond: bool, what: impl FnOnce() -> String) -> Result<()> {
    if cond {
        Ok(())
    } else {
        Err(Error::InvalidArgument(format!("check failed: {}", what())))
    }
}

fn init(i: usize) -> f64 {
    ((i * 37) % 101) as f64 - 50.0
}

/// `b[lo..hi] = a[i-s] + 2 a[i] + 5 a[i+s]` (zip_apply) then `c[lo..hi] = a[i+s] - a[i]`
/// (assign_expr), against the same on vectors; positions outside `lo..hi` keep their values.
fn shifted<M: Distribution<1> + Clone + 'static>(ctx: &Ctx, dist: M, s: usize, what: &str) -> Result<()> {
    let n = dist.domain().shape()[0];
    if n <= 2 * s + 1 {
        return Ok(());
    }
    // A leader that starts and ends inside blocks: lo = s + 1 when there is room.
    let lo = if n > 2 * s + 3 { s + 1 } else { s };
    let hi = n - s;
    let r = |a: usize, b: usize| a as i64..b as i64;
    for mode in MODES {
        set_aggregation(ctx, mode);
        let a = DistArray::<f64, 1, M>::from_fn(ctx, dist.clone(), |[i]| init(i as usize))?;
        let mut b = DistArray::<f64, 1, M>::from_fn(ctx, dist.clone(), |[i]| -(i as f64))?;
        let mut c = DistArray::<f64, 1, M>::zeros(ctx, dist.clone())?;
        b.slice_mut(r(lo, hi))?.zip_apply(
            (a.slice(r(lo - s, hi - s))?, a.slice(r(lo, hi))?, a.slice(r(lo + s, hi + s))?),
            |x, (l, m, rr)| *x = l + 2.0 * m + 5.0 * rr,
        )?;
        c.slice_mut(r(lo, hi))?.assign_expr(a.slice(r(lo + s, hi + s))? - a.slice(r(lo, hi))?)?;
        let a0: Vec<f64> = (0..n).map(init).collect();
        let want_b: Vec<f64> = (0..n)
            .map(|i| if (lo..hi).contains(&i) { a0[i - s] + 2.0 * a0[i] + 5.0 * a0[i + s] } else { -(i as f64) })
            .collect();
        let want_c: Vec<f64> = (0..n).map(|i| if (lo..hi).contains(&i) { a0[i + s] - a0[i] } else { 0.0 }).collect();
        let (gb, gc) = (b.gather(0)?, c.gather(0)?);
        if let (Some(gb), Some(gc)) = (gb, gc) {
            check(gb == want_b, || format!("{what} n={n} s={s} {lo}..{hi} ({mode}) zip_apply: {gb:?} vs {want_b:?}"))?;
            check(gc == want_c, || {
                format!("{what} n={n} s={s} {lo}..{hi} ({mode}) assign_expr: {gc:?} vs {want_c:?}")
            })?;
        }
    }
    set_aggregation(ctx, Aggregation::Auto);
    Ok(())
}

fn all_dists(ctx: &Ctx) -> Result<()> {
    for n in [2usize, 5, 13, 37, 100] {
        for s in [1usize, 2, 7] {
            shifted(ctx, dist::block(ctx, [n])?, s, "Block")?;
            shifted(ctx, dist::cyclic(ctx, [n])?, s, "Cyclic")?;
            for bs in [1usize, 3, 4, 5] {
                shifted(ctx, dist::block_cyclic(ctx, [n], [bs])?, s, &format!("BlockCyclic({bs})"))?;
            }
        }
    }
    // Runs of more than one segment (8192 iterations), cut inside blocks.
    shifted(ctx, dist::block_cyclic(ctx, [20_011], [4])?, 1, "BlockCyclic(4) long")?;
    shifted(ctx, dist::block_cyclic(ctx, [17_000], [7])?, 3, "BlockCyclic(7) long")?;
    Ok(())
}

#[test]
fn shifted_followers_match_sequential_on_1_2_4_locales() {
    for n in [1, 2, 4] {
        let r = run(Config::local(n), all_dists);
        assert!(r.is_ok(), "{n} locales: {:?}", r.unwrap_err());
    }
}

/// A three-point stencil over BlockCyclic(4) on 2 locales: each locale reads one halo element
/// per block edge from its neighbour for each of the two shifted followers.
#[test]
fn halo_messages_on_two_locales() {
    let r = run(Config::local(2), |ctx| {
        let n = 1000usize;
        let d = dist::block_cyclic(ctx, [n], [4])?;
        let a = DistArray::<f64, 1, _>::from_fn(ctx, d.clone(), |[i]| init(i as usize))?;
        let mut b = DistArray::<f64, 1, _>::zeros(ctx, d)?;
        let r = |a: usize, b: usize| a as i64..b as i64;
        // Leader 1..n-1: locale 0 owns 3 + 124 * 4 = 499 elements (blocks 0, 2, ..., 248),
        // locale 1 owns 125 * 4 - 1 = 499; each block edge but the array's ends reads one
        // element of the other locale through each shifted follower.
        let remote_per_locale = [124u64 + 125, 125 + 124];
        let _ = &remote_per_locale;
        for (mode, strided_want) in [(Aggregation::Off, 0u64), (Aggregation::Static, 2)] {
            set_aggregation(ctx, mode);
            ctx.barrier()?;
            reset_follower_stats(ctx);
            b.slice_mut(r(1, n - 1))?
                .zip_apply((a.slice(r(0, n - 2))?, a.slice(r(2, n))?), |x, (l, rr)| *x = l + rr)?;
            let st = follower_stats(ctx);
            let me = ctx.id();
            // One remote chunk per shifted follower (one segment each).
            check(st.remote_chunks == 2 && st.max_chunk_elems == 125, || format!("{mode}: chunks {st:?}"))?;
            match mode {
                Aggregation::Off => {
                    check(st.element_transfers == remote_per_locale[me] && st.strided_transfers == 0, || {
                        format!("off: {st:?}")
                    })?
                }
                _ => check(st.strided_transfers == strided_want && st.element_transfers == 0, || {
                    format!("static: {st:?}")
                })?,
            }
            if let Some(g) = b.gather(0)? {
                let a0: Vec<f64> = (0..n).map(init).collect();
                let want: Vec<f64> =
                    (0..n).map(|i| if i == 0 || i == n - 1 { 0.0 } else { a0[i - 1] + a0[i + 1] }).collect();
                check(g == want, || format!("{mode}: values"))?;
            }
        }
        set_aggregation(ctx, Aggregation::Auto);
        Ok(())
    });
    assert!(r.is_ok(), "{:?}", r.unwrap_err());
}
