//! `assign_expr` with streaming (non-temporal) stores gives exactly the results of plain stores:
//! every element type, 1-D and 2-D arrays of the three distributions, views whose rows start at
//! every offset within a 16-byte line, rows shorter and longer than the streaming minimum, on
//! 1-3 locales. The threshold is set to 0 (stream whenever a row is long enough), and each
//! result is compared with a sequential reference.

// `a.slice([lo..hi])` is how 1-D arrays are sliced.
#![allow(clippy::single_range_in_vec_init)]

use atoll_array::stream_store::{
    set_streaming_store_threshold, streaming_store_threshold, DEFAULT_STREAMING_THRESHOLD,
};
use atoll_array::{dist, DistArray, Distribution, Elem};
use atoll_runtime::{run, Config, Ctx, Error, Result};

fn check(ok: bool, what: impl FnOnce() -> String) -> Result<()> {
    if ok {
        Ok(())
    } else {
        Err(Error::InvalidArgument(what()))
    }
}

/// 1-D: `a[lo..n] = b[lo..n]` (a copy) for every `lo` in 0..16, against the reference.
fn copy_1d<T: Elem, M: Distribution<1> + 'static>(ctx: &Ctx, d: M, mk: fn(i64) -> T) -> Result<()> {
    let n = d.domain().shape()[0] as i64;
    let b = DistArray::<T, 1, M>::from_fn(ctx, d.clone(), |[i]| mk(i * 7 + 1))?;
    for lo in 0..16 {
        let mut a = DistArray::<T, 1, M>::from_fn(ctx, d.clone(), |[i]| mk(-i))?;
        a.slice_mut([lo..n])?.assign_expr(b.slice([lo..n])?)?;
        let want: Vec<T> = (0..n).map(|i| if i < lo { mk(-i) } else { mk(i * 7 + 1) }).collect();
        let got = a.gather(0)?;
        check(got.is_none_or(|g| g == want), || format!("{} 1-D copy from {lo}", T::NAME))?;
    }
    Ok(())
}

/// 2-D: `a[1..r, c0..c] = b[1..r, c0..c]` for a few column starts (rows of the view start at
/// different offsets; short and long rows).
fn copy_2d<T: Elem, M: Distribution<2> + 'static>(ctx: &Ctx, d: M, mk: fn(i64) -> T) -> Result<()> {
    let [r, c] = d.domain().shape();
    let (r, c) = (r as i64, c as i64);
    let b = DistArray::<T, 2, M>::from_fn(ctx, d.clone(), |[i, j]| mk(i * 1000 + j))?;
    for c0 in [0, 1, 3, 5, 9] {
        let mut a = DistArray::<T, 2, M>::zeros(ctx, d.clone())?;
        a.slice_mut([1..r, c0..c])?.assign_expr(b.slice([1..r, c0..c])?)?;
        let want: Vec<T> = (0..r * c)
            .map(|k| (k / c, k % c))
            .map(|(i, j)| if i >= 1 && j >= c0 { mk(i * 1000 + j) } else { T::default() })
            .collect();
        check(a.gather(0)?.is_none_or(|g| g == want), || format!("{} 2-D copy from column {c0}", T::NAME))?;
    }
    Ok(())
}

fn every_type<M1: Distribution<1> + 'static, M2: Distribution<2> + 'static>(ctx: &Ctx, d1: M1, d2: M2) -> Result<()> {
    macro_rules! both {
        ($t:ty, $mk:expr) => {
            copy_1d::<$t, _>(ctx, d1.clone(), $mk)?;
            copy_2d::<$t, _>(ctx, d2.clone(), $mk)?;
        };
    }
    both!(i8, |k| k as i8);
    both!(i16, |k| k as i16);
    both!(i32, |k| k as i32);
    both!(i64, |k| k * 3);
    both!(u8, |k| k as u8);
    both!(u16, |k| k as u16);
    both!(u32, |k| k as u32);
    both!(u64, |k| k as u64);
    both!(f32, |k| k as f32 * 0.5);
    both!(f64, |k| k as f64 * 0.25);
    both!(bool, |k| k % 3 == 0);
    Ok(())
}

#[test]
fn streaming_assignment_equals_the_reference_for_every_type_offset_and_row_length() {
    set_streaming_store_threshold(0);
    assert_eq!(streaming_store_threshold(), 0);
    for locales in 1..=3 {
        run(Config::local(locales), |ctx| {
            // 1-D: 3001 elements (rows of hundreds of bytes per locale); 2-D: 6 x 700 (long
            // rows) and 6 x 40 (rows below the 256-byte minimum for most types).
            every_type(ctx, dist::block(ctx, [3001])?, dist::block(ctx, [6, 700])?)?;
            every_type(ctx, dist::cyclic(ctx, [3001])?, dist::block(ctx, [6, 40])?)?;
            every_type(ctx, dist::block_cyclic(ctx, [3001], [64])?, dist::cyclic(ctx, [6, 700])?)?;
            // Arithmetic (a fused expression, not a copy), f64 and i32.
            let n = 5003;
            let b = DistArray::from_fn(ctx, dist::block(ctx, [n])?, |[i]| i as f64)?;
            let c = DistArray::<f64, 1>::filled(ctx, dist::block(ctx, [n])?, 2.0)?;
            let mut a = DistArray::<f64, 1>::zeros(ctx, dist::block(ctx, [n])?)?;
            a.slice_mut([3..n as i64])?.assign_expr(b.slice([3..n as i64])? + 3.0 * c.slice([3..n as i64])?)?;
            let want: Vec<f64> = (0..n).map(|i| if i < 3 { 0.0 } else { i as f64 + 6.0 }).collect();
            check(a.gather(0)?.is_none_or(|g| g == want), || "f64 triad".into())?;
            let x = DistArray::from_fn(ctx, dist::block(ctx, [n])?, |[i]| i as i32)?;
            let mut y = DistArray::<i32, 1>::zeros(ctx, dist::block(ctx, [n])?)?;
            y.assign_expr(&x * 2 + 1)?;
            let want: Vec<i32> = (0..n as i32).map(|i| i * 2 + 1).collect();
            check(y.gather(0)?.is_none_or(|g| g == want), || "i32 expression".into())
        })
        .unwrap();
    }
    set_streaming_store_threshold(DEFAULT_STREAMING_THRESHOLD);
}
