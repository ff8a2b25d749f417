//! Every element type: i8..i64, u8..u64, f32, f64, bool and [f64; 2] (complex). Creation (`zeros`, `filled`,
//! `from_fn`, `from_vec`), `get`/`set` (local and remote), `gather`, `assign` across
//! distributions, `zip_apply`, extrema and `count` for all of them; sums, products, scans and
//! promoted expressions for the numeric ones; over 1-4 locales and the three distributions.

// `a.slice([lo..hi])` is how 1-D arrays are sliced.
#![allow(clippy::single_range_in_vec_init)]

mod common;

use atoll_array::{dist, Block, BlockCyclic, Cyclic, DistArray, Distribution, Elem, ExprExt, ExprReduce, One, Scalar};
use atoll_runtime::{run, Config, Ctx, Result};
use common::check;
use std::ops::{Add, Mul};

const SHAPE: [usize; 2] = [7, 5];

/// Checks for every element type, with `mk(k)` the value at row-major position `k`.
fn all_types<T: Elem, M: Distribution<2> + 'static, M2: Distribution<2> + 'static>(
    ctx: &Ctx,
    d: M,
    d2: M2,
    mk: fn(i64) -> T,
) -> Result<()> {
    let n = SHAPE[0] * SHAPE[1];
    let want: Vec<T> = (0..n as i64).map(mk).collect();
    let root = ctx.num_locales() - 1;
    let z = DistArray::<T, 2, M>::zeros(ctx, d.clone())?;
    check(z.gather(0)?.is_none_or(|g| g == vec![T::default(); n]), || format!("{} zeros", T::NAME))?;
    let f = DistArray::<T, 2, M>::filled(ctx, d.clone(), mk(3))?;
    check(f.get([6, 4])? == mk(3) && f.get([0, 0])? == mk(3), || format!("{} filled", T::NAME))?;
    let mut a = DistArray::<T, 2, M>::from_fn(ctx, d.clone(), |[i, j]| mk(i * 5 + j))?;
    check(a.gather(root)?.is_none_or(|g| g == want), || format!("{} from_fn", T::NAME))?;
    let v = DistArray::<T, 2, M2>::from_vec(ctx, d2.clone(), 0, (ctx.id() == 0).then(|| want.clone()))?;
    check(v.gather(root)?.is_none_or(|g| g == want), || format!("{} from_vec", T::NAME))?;
    for k in 0..n as i64 {
        let (x, y) = (a.get([k / 5, k % 5])?, v.get([k / 5, k % 5])?);
        check(x == mk(k) && y == mk(k), || format!("{} get {k} of {:?} / {:?}: {x:?}, {y:?}", T::NAME, a, v))?;
    }
    // Each locale sets one element (remote for most), then everyone reads them.
    let me = ctx.id() as i64;
    ctx.barrier()?; // every locale has read the old values
    a.set([me % 7, me % 5], mk(me + 1))?;
    ctx.barrier()?;
    for l in 0..ctx.num_locales() as i64 {
        check(a.get([l % 7, l % 5])? == mk(l + 1), || format!("{} set by {l}", T::NAME))?;
    }
    // Assign across distributions (and views), then a zip that copies.
    let mut b = DistArray::<T, 2, M2>::zeros(ctx, d2)?;
    b.assign(&a.view())?;
    check(b.gather(root)? == a.gather(root)?, || format!("{} assign", T::NAME))?;
    b.slice_mut([1..4, 1..5])?.assign(&v.slice([3..6, 0..4])?)?;
    check(b.get([1, 1])? == mk(15) && b.get([3, 4])? == mk(28), || format!("{} assign of views", T::NAME))?;
    // The one-sided reads above are done before the aligned (barrier-free) loop below writes b.
    ctx.barrier()?;
    b.zip_apply(&v, |x, y| *x = y)?;
    check(b.gather(root)?.is_none_or(|g| g == want), || format!("{} zip_apply", T::NAME))?;
    // Extrema and a count.
    let mx = want.iter().copied().fold(want[0], |m, x| if x > m { x } else { m });
    let mn = want.iter().copied().fold(want[0], |m, x| if x < m { x } else { m });
    check(v.view().max()? == mx && v.view().min()? == mn, || format!("{} min/max", T::NAME))?;
    let first_max = want.iter().position(|&x| x == mx).unwrap() as i64;
    check(v.view().argmax()? == (mx, [first_max / 5, first_max % 5]), || format!("{} argmax", T::NAME))?;
    let c = v.view().map(move |x| x == mn).count()?;
    check(c == want.iter().filter(|&&x| x == mn).count() as u64, || format!("{} count", T::NAME))?;
    Ok(())
}

/// Sums, products, expressions and scans of the numeric types (values small enough for i8).
fn numeric<T, M: Distribution<2> + 'static>(ctx: &Ctx, d: M) -> Result<()>
where
    T: Elem + Add<Output = T> + Mul<Output = T> + One,
{
    let n = SHAPE[0] * SHAPE[1];
    // 0, 1 or 2 in T, exactly: sums of 35 of them fit every type.
    let small = |k: i64| (0..k % 3).fold(T::default(), |s, _| s + T::ONE);
    let three = T::ONE + T::ONE + T::ONE;
    let a = DistArray::<T, 2, M>::from_fn(ctx, d.clone(), |[i, j]| small(i * 5 + j))?;
    let want_sum = (0..n as i64).map(small).fold(T::default(), |s, x| s + x);
    check(a.view().sum()? == want_sum, || format!("{} sum", T::NAME))?;
    let ones = a.slice([0..1, 1..3])?; // values 1, 2
    check(ones.product()? == small(2), || format!("{} product", T::NAME))?;
    let mut b = DistArray::<T, 2, M>::zeros(ctx, d)?;
    b.assign_expr(a.view() + a.view() * Scalar(small(2)))?; // 3 * a
    let c = DistArray::<T, 2, Block<2>>::from_fn(ctx, dist::block(ctx, SHAPE)?, |[i, j]| small(i * 5 + j) * three)?;
    check(b.view().zip_map(c.view(), |x, y| x == y).count()? == n as u64, || format!("{} assign_expr", T::NAME))?;
    let row = a.slice([2..3, 0..5])?;
    let flat = DistArray::<T, 1, Cyclic<1>>::from_fn(ctx, dist::cyclic(ctx, [5])?, |[j]| small(10 + j))?;
    let s = flat.view().cumsum()?;
    let mut acc = T::default();
    for j in 0..5 {
        acc = acc + small(10 + j);
        check(s.get([j])? == acc && row.get([2, j])? == small(10 + j), || format!("{} cumsum", T::NAME))?;
    }
    Ok(())
}

fn each_dist<T: Elem>(ctx: &Ctx, mk: fn(i64) -> T) -> Result<()> {
    all_types(ctx, dist::block(ctx, SHAPE)?, dist::cyclic(ctx, SHAPE)?, mk)?;
    all_types(ctx, dist::cyclic(ctx, SHAPE)?, dist::block_cyclic(ctx, SHAPE, [2, 3])?, mk)?;
    all_types::<T, BlockCyclic<2>, Block<2>>(ctx, dist::block_cyclic(ctx, SHAPE, [3, 1])?, dist::block(ctx, SHAPE)?, mk)
}

fn each_dist_numeric<T: Elem + Add<Output = T> + Mul<Output = T> + One>(ctx: &Ctx, mk: fn(i64) -> T) -> Result<()> {
    each_dist(ctx, mk)?;
    numeric::<T, _>(ctx, dist::block(ctx, SHAPE)?)?;
    numeric::<T, _>(ctx, dist::cyclic(ctx, SHAPE)?)?;
    numeric::<T, _>(ctx, dist::block_cyclic(ctx, SHAPE, [2, 2])?)
}

macro_rules! numeric_tests {
    ($($name:ident: $t:ty = $mk:expr;)*) => {$(
        #[test]
        fn $name() {
            for n in 1..=4 {
                run(Config::local(n), |ctx| each_dist_numeric::<$t>(ctx, $mk)).unwrap();
            }
        }
    )*};
}

numeric_tests! {
    i8_arrays: i8 = |k| (k % 50 - 20) as i8;
    i16_arrays: i16 = |k| (k * 37 % 101 - 50) as i16;
    i32_arrays: i32 = |k| (k * 1000 - 9000) as i32;
    i64_arrays: i64 = |k| k * 1_000_000_007 - (1 << 40);
    u8_arrays: u8 = |k| (k * 7 % 251) as u8;
    u16_arrays: u16 = |k| (k * 1999 % 65_521) as u16;
    u32_arrays: u32 = |k| (k as u32).wrapping_mul(2_654_435_761) >> 4;
    u64_arrays: u64 = |k| (k as u64) << 40 | 17;
    f32_arrays: f32 = |k| k as f32 * 0.25 - 3.0;
    f64_arrays: f64 = |k| (k as f64).sqrt() - 2.5;
}

/// Complex numbers as (re, im) pairs: every operation but arithmetic (extrema are lexicographic).
#[test]
fn complex_arrays() {
    for n in 1..=4 {
        run(Config::local(n), |ctx| each_dist::<[f64; 2]>(ctx, |k| [(k % 6) as f64 - 2.5, (k * 7 % 11) as f64 * 0.5]))
            .unwrap();
    }
}

#[test]
fn bool_arrays() {
    for n in 1..=4 {
        run(Config::local(n), |ctx| {
            each_dist::<bool>(ctx, |k| k % 3 == 0)?;
            // fill, count directly (Item = bool) and through map, set, and gather.
            let mut a = DistArray::<bool, 1, Cyclic<1>>::filled(ctx, dist::cyclic(ctx, [10])?, true)?;
            check(a.view().count()? == 10 && a.view().map(|x| x).count()? == 10, || "count of true".into())?;
            a.fill(false)?;
            check(a.view().count()? == 0 && !a.view().max()?, || "fill false".into())?;
            if ctx.id() == 0 {
                a.set([9], true)?;
                a.set([4], true)?;
            }
            ctx.barrier()?;
            check(a.view().count()? == 2 && a.view().argmax()? == (true, [4]), || "set true".into())?;
            check(a.slice([5..10])?.map(|x: bool| !x).count()? == 4, || "map not".into())?;
            let g = a.gather(0)?;
            check(g.is_none_or(|g| g == (0..10).map(|i| i == 4 || i == 9).collect::<Vec<_>>()), || {
                "gather bool".into()
            })?;
            let mut b = DistArray::<bool, 1, BlockCyclic<1>>::zeros(ctx, dist::block_cyclic(ctx, [10], [3])?)?;
            b.assign_expr(a.view().zip_map(Scalar(true), |x, y| x ^ y))?;
            check(b.view().count()? == 8 && !b.get([4])?, || "xor".into())
        })
        .unwrap();
    }
}
