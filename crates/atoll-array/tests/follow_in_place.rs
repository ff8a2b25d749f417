//! Followers read in place (`follow/mod.rs`, `zip/strided_row.rs`, the leader's merged tiles in
//! `zip/mod.rs`): stencils on BlockCyclic and Cyclic arrays (block sizes that do not divide the
//! extents, 1-3 dimensions, 1-3 locales, several time steps) and strided-view followers
//! (strides 2, 3, 7 and larger than the array, negative indices), in the three aggregation
//! modes, against sequential references; and exact message counts of a strided-view follower
//! that lives evenly strided in one locale (read in place, counted as the gets it replaces).

use atoll_array::{
    dist, set_aggregation, Aggregation, BlockCyclic, Cyclic, DistArray, Distribution, Domain, LocaleGrid, StridedRange,
};
use atoll_runtime::{run, CommCounts, Config, Ctx, Error, Result};

const MODES: [Aggregation; 3] = [Aggregation::Off, Aggregation::Static, Aggregation::Auto];

fn check(cond: bool, what: impl FnOnce() -> String) -> Result<()> {
    if cond {
        Ok(())
    } else {
        Err(Error::InvalidArgument(format!("check failed: {}", what())))
    }
}

fn r(lo: usize, hi: usize) -> std::ops::Range<i64> {
    lo as i64..hi as i64
}

/// A 1-D three-point stencil `b[i] = a[i-1] + 2 a[i] + 3 a[i+1]` for `steps` steps (swapping
/// `a` and `b`), against the same on a vector.
fn stencil_1d<M: Distribution<1> + Clone + 'static>(ctx: &Ctx, dist: M, steps: usize) -> Result<()> {
    let n = dist.domain().shape()[0];
    let init = |i: usize| ((i * 37) % 101) as f64 - 50.0;
    for mode in MODES {
        set_aggregation(ctx, mode);
        let mut a = DistArray::<f64, 1, M>::from_fn(ctx, dist.clone(), |[i]| init(i as usize))?;
        let mut b = DistArray::<f64, 1, M>::zeros(ctx, dist.clone())?;
        let mut want_a: Vec<f64> = (0..n).map(init).collect();
        let mut want_b = vec![0.0; n];
        for _ in 0..steps {
            b.slice_mut(r(1, n - 1))?
                .zip_apply((a.slice(r(0, n - 2))?, a.slice(r(1, n - 1))?, a.slice(r(2, n))?), |x, (l, c, rr)| {
                    *x = l + 2.0 * c + 3.0 * rr
                })?;
            for i in 1..n - 1 {
                want_b[i] = want_a[i - 1] + 2.0 * want_a[i] + 3.0 * want_a[i + 1];
            }
            std::mem::swap(&mut a, &mut b);
            std::mem::swap(&mut want_a, &mut want_b);
        }
        if let Some(got) = a.gather(0)? {
            check(got == want_a, || format!("1-D stencil n={n} ({mode}): {got:?} vs {want_a:?}"))?;
        }
    }
    set_aggregation(ctx, Aggregation::Auto);
    Ok(())
}

/// A 2-D nine-point stencil (weights by offset) over the interior, for `steps` steps.
fn stencil_2d<M: Distribution<2> + Clone + 'static>(ctx: &Ctx, dist: M, steps: usize) -> Result<()> {
    let [n, m] = dist.domain().shape();
    let init = |i: usize, j: usize| ((i * 31 + j * 17) % 29) as f64;
    let w = |di: usize, dj: usize| (1 + di * 3 + dj) as f64;
    for mode in MODES {
        set_aggregation(ctx, mode);
        let mut a = DistArray::<f64, 2, M>::from_fn(ctx, dist.clone(), |[i, j]| init(i as usize, j as usize))?;
        let mut b = DistArray::<f64, 2, M>::zeros(ctx, dist.clone())?;
        let mut want_a: Vec<f64> = (0..n * m).map(|q| init(q / m, q % m)).collect();
        let mut want_b = vec![0.0; n * m];
        let at = |di: usize, dj: usize| [r(di, n - 2 + di), r(dj, m - 2 + dj)];
        for _ in 0..steps {
            // Two zippered loops (a tuple holds up to five operands): the rows above and below,
            // then the middle row added.
            b.slice_mut(at(1, 1))?.zip_apply(
                (a.slice(at(0, 0))?, a.slice(at(0, 1))?, a.slice(at(0, 2))?, a.slice(at(2, 0))?, a.slice(at(2, 1))?),
                |x, (p, q, s, t, u)| *x = w(0, 0) * p + w(0, 1) * q + w(0, 2) * s + w(2, 0) * t + w(2, 1) * u,
            )?;
            b.slice_mut(at(1, 1))?.zip_apply(
                (a.slice(at(2, 2))?, a.slice(at(1, 0))?, a.slice(at(1, 1))?, a.slice(at(1, 2))?),
                |x, (p, q, s, t)| *x += w(2, 2) * p + w(1, 0) * q + w(1, 1) * s + w(1, 2) * t,
            )?;
            for i in 1..n - 1 {
                for j in 1..m - 1 {
                    let mut s1 = 0.0;
                    for (di, dj) in [(0, 0), (0, 1), (0, 2), (2, 0), (2, 1)] {
                        s1 += w(di, dj) * want_a[(i + di - 1) * m + j + dj - 1];
                    }
                    let mut s2 = 0.0;
                    for (di, dj) in [(2, 2), (1, 0), (1, 1), (1, 2)] {
                        s2 += w(di, dj) * want_a[(i + di - 1) * m + j + dj - 1];
                    }
                    want_b[i * m + j] = s1 + s2;
                }
            }
            std::mem::swap(&mut a, &mut b);
            std::mem::swap(&mut want_a, &mut want_b);
        }
        if let Some(got) = a.gather(0)? {
            check(got == want_a, || format!("2-D stencil {n}x{m} ({mode})"))?;
        }
    }
    set_aggregation(ctx, Aggregation::Auto);
    Ok(())
}

/// A 3-D seven-point stencil over the interior (one step; values checked exactly: integers).
fn stencil_3d<M: Distribution<3> + Clone + 'static>(ctx: &Ctx, dist: M) -> Result<()> {
    let [n, m, l] = dist.domain().shape();
    let init = |i: usize, j: usize, k: usize| ((i * 7 + j * 5 + k * 3) % 13) as i64;
    for mode in MODES {
        set_aggregation(ctx, mode);
        let a =
            DistArray::<i64, 3, M>::from_fn(ctx, dist.clone(), |[i, j, k]| init(i as usize, j as usize, k as usize))?;
        let mut b = DistArray::<i64, 3, M>::zeros(ctx, dist.clone())?;
        let at = |d: [usize; 3]| [r(d[0], n - 2 + d[0]), r(d[1], m - 2 + d[1]), r(d[2], l - 2 + d[2])];
        b.slice_mut(at([1, 1, 1]))?.zip_apply(
            (
                a.slice(at([0, 1, 1]))?,
                a.slice(at([2, 1, 1]))?,
                a.slice(at([1, 0, 1]))?,
                a.slice(at([1, 2, 1]))?,
                a.slice(at([1, 1, 0]))?,
            ),
            |x, (p, q, s, t, u)| *x = p + 2 * q + 3 * s + 4 * t + 5 * u,
        )?;
        b.slice_mut(at([1, 1, 1]))?
            .zip_apply((a.slice(at([1, 1, 2]))?, a.slice(at([1, 1, 1]))?), |x, (p, q)| *x += 6 * p - 100 * q)?;
        if let Some(got) = b.gather(0)? {
            let mut want = vec![0i64; n * m * l];
            for i in 1..n - 1 {
                for j in 1..m - 1 {
                    for k in 1..l - 1 {
                        want[(i * m + j) * l + k] = init(i - 1, j, k)
                            + 2 * init(i + 1, j, k)
                            + 3 * init(i, j - 1, k)
                            + 4 * init(i, j + 1, k)
                            + 5 * init(i, j, k - 1)
                            + 6 * init(i, j, k + 1)
                            - 100 * init(i, j, k);
                    }
                }
            }
            check(got == want, || format!("3-D stencil {n}x{m}x{l} ({mode})"))?;
        }
    }
    set_aggregation(ctx, Aggregation::Auto);
    Ok(())
}

#[test]
fn blockcyclic_and_cyclic_stencils_1d() {
    for locales in 1..=3 {
        run(Config::local(locales), |ctx| {
            for (n, block) in [(37usize, 4usize), (41, 3), (23, 5), (200, 4), (9, 8)] {
                stencil_1d(ctx, dist::block_cyclic(ctx, [n], [block])?, 3)?;
            }
            stencil_1d(ctx, dist::cyclic(ctx, [41])?, 3)?;
            stencil_1d(ctx, dist::cyclic(ctx, [1000])?, 2)?;
            Ok(())
        })
        .unwrap();
    }
}

#[test]
fn blockcyclic_and_cyclic_stencils_2d_3d() {
    for locales in 1..=3 {
        run(Config::local(locales), |ctx| {
            stencil_2d(ctx, dist::block_cyclic(ctx, [19, 23], [4, 3])?, 2)?;
            stencil_2d(ctx, dist::block_cyclic(ctx, [30, 41], [4, 4])?, 2)?;
            stencil_2d(ctx, dist::cyclic(ctx, [17, 26])?, 2)?;
            // A 2-D grid of locales where there are enough of them: neither dimension whole.
            if locales >= 2 {
                let grid = LocaleGrid::new(0..locales, [1, locales])?;
                stencil_2d(ctx, BlockCyclic::new(Domain::from_shape([13, 29])?, grid.clone(), [3, 4])?, 2)?;
                stencil_2d(ctx, Cyclic::new(Domain::from_shape([13, 29])?, grid), 1)?;
            }
            stencil_3d(ctx, dist::block_cyclic(ctx, [9, 11, 13], [4, 4, 4])?)?;
            stencil_3d(ctx, dist::block_cyclic(ctx, [7, 10, 21], [2, 3, 4])?)?;
            stencil_3d(ctx, dist::cyclic(ctx, [7, 9, 10])?)?;
            Ok(())
        })
        .unwrap();
    }
}

/// `y[i] = x[lo + s i] - 2 x[lo + 1 + s i]` for the strided views `x[lo.. by s]`, on arrays over
/// `whole` (negative indices included), against a vector.
fn strided_views<M: Distribution<1> + Clone + 'static>(ctx: &Ctx, dist: M, stride: u64) -> Result<()> {
    let whole = dist.domain().dims()[0];
    let (lo, n) = (whole.lo(), whole.len() as i64);
    let val = |i: i64| (i * 13).rem_euclid(97) - 40;
    let len = ((n - 2) / stride as i64 + 1) as usize;
    let out =
        Cyclic::new(Domain::new([StridedRange::new(-3, -3 + len as i64)])?, LocaleGrid::auto(0..ctx.num_locales())?);
    for mode in MODES {
        set_aggregation(ctx, mode);
        let x = DistArray::<i64, 1, M>::from_fn(ctx, dist.clone(), |[i]| val(i))?;
        let mut y = DistArray::<i64, 1, Cyclic<1>>::zeros(ctx, out.clone())?;
        let last = lo + (len as i64 - 1) * stride as i64;
        let even = StridedRange::with_stride(lo, last + 1, stride)?;
        let odd = StridedRange::with_stride(lo + 1, last + 2, stride)?;
        y.zip_apply((x.slice(even)?, x.slice(odd)?), |v, (e, o)| *v = e - 2 * o)?;
        // And the same views as the leader's operands through an expression.
        let s: i64 = atoll_array::ExprReduce::sum(x.slice(even)? * 3i64 - x.slice(odd)?)?;
        let want: Vec<i64> =
            (0..len as i64).map(|k| val(lo + k * stride as i64) - 2 * val(lo + 1 + k * stride as i64)).collect();
        let want_s: i64 =
            (0..len as i64).map(|k| 3 * val(lo + k * stride as i64) - val(lo + 1 + k * stride as i64)).sum();
        check(s == want_s, || format!("strided sum by {stride} ({mode}): {s} vs {want_s}"))?;
        if let Some(got) = y.gather(0)? {
            check(got == want, || format!("strided views by {stride} over {whole} ({mode}): {got:?} vs {want:?}"))?;
        }
    }
    set_aggregation(ctx, Aggregation::Auto);
    Ok(())
}

#[test]
fn strided_view_followers() {
    for locales in 1..=3 {
        run(Config::local(locales), |ctx| {
            let grid = || LocaleGrid::auto(0..ctx.num_locales());
            let neg = Domain::new([StridedRange::new(-31, 170)])?;
            for stride in [1u64, 2, 3, 7, 150, 1000] {
                strided_views(ctx, dist::cyclic(ctx, [203])?, stride)?;
                strided_views(ctx, Cyclic::new(neg, grid()?), stride)?;
                strided_views(ctx, dist::block_cyclic(ctx, [203], [4])?, stride)?;
                strided_views(ctx, BlockCyclic::new(neg, grid()?, [3])?, stride)?;
            }
            Ok(())
        })
        .unwrap();
    }
}

fn messages(ctx: &Ctx, f: impl FnOnce() -> Result<()>) -> Result<u64> {
    ctx.reset_comm_diagnostics()?;
    ctx.start_comm_diagnostics()?;
    let r = f();
    ctx.stop_comm_diagnostics()?;
    r?;
    Ok(ctx.comm_diagnostics()?.iter().map(CommCounts::total_ops).sum())
}

/// The folding kernel's loop on Cyclic data over 2 locales: `a[i] = x[2i] + x[2i+1]`. The even
/// elements all live on locale 0 (at stride 1 in its buffer), the odd ones on locale 1, so each
/// locale reads one view in place from the other: `off` counts one get per remote element,
/// `static` one strided get per chunk (a segment of at most `SEG` iterations), exactly as when
/// the chunks were copied.
#[test]
fn strided_follower_counts_are_the_gets_it_replaces() {
    run(Config::local(2), |ctx| {
        let n = 2 * 40_000usize;
        let h = n / 2;
        let x = DistArray::<f64, 1, Cyclic<1>>::from_fn(ctx, dist::cyclic(ctx, [n])?, |[i]| (i % 91) as f64)?;
        let mut a = DistArray::<f64, 1, Cyclic<1>>::zeros(ctx, dist::cyclic(ctx, [h])?)?;
        let mut counts = Vec::new();
        for mode in [Aggregation::Off, Aggregation::Static] {
            set_aggregation(ctx, mode);
            let even = StridedRange::with_stride(0, n as i64, 2)?;
            let odd = StridedRange::with_stride(1, n as i64, 2)?;
            let m = messages(ctx, || a.zip_apply((x.slice(even)?, x.slice(odd)?), |v, (e, o)| *v = e + o))?;
            counts.push(m);
            if let Some(got) = a.gather(0)? {
                let want: Vec<f64> = (0..h).map(|i| ((2 * i) % 91 + (2 * i + 1) % 91) as f64).collect();
                check(got == want, || format!("folded values ({mode})"))?;
            }
        }
        set_aggregation(ctx, Aggregation::Auto);
        // Each locale runs h/2 iterations, one of whose two operands is remote.
        check(counts[0] == h as u64, || format!("off: {counts:?}"))?;
        let chunks = 2 * (h / 2).div_ceil(atoll_array::SEG) as u64;
        check(counts[1] == chunks, || format!("static: {counts:?}, want {chunks}"))?;
        Ok(())
    })
    .unwrap();
}
