//! Friction points of the array API: `to_vec` (every element on every locale) beside `gather(root)`
//! and the indexed read `take` (formerly `gather_at`), and `Scalar(x) op e` compiling and
//! computing as `x op e`, with Scalar on the left of every operator.

// `a.slice([lo..hi])` is how 1-D arrays are sliced.
#![allow(clippy::single_range_in_vec_init)]

use atoll_array::{dist, Cyclic, DistArray, ExprReduce, Scalar, StridedRange};
use atoll_runtime::{run, Config, Error, Result};

fn check(cond: bool, what: impl FnOnce() -> String) -> Result<()> {
    if cond {
        Ok(())
    } else {
        Err(Error::InvalidArgument(what()))
    }
}

#[test]
fn to_vec_gives_every_locale_the_whole_array_in_row_major_order() {
    for n in 1..=4 {
        run(Config::local(n), |ctx| {
            let a = DistArray::<i64, 2, Cyclic<2>>::from_fn(ctx, dist::cyclic(ctx, [5, 7])?, |[i, j]| i * 7 + j)?;
            check(a.to_vec()? == (0..35).collect::<Vec<i64>>(), || "Cyclic 2-D".into())?;
            let b = DistArray::from_fn(ctx, dist::block_cyclic(ctx, [30], [4])?, |[i]| i as f64 * 0.5)?;
            let s = StridedRange::with_stride(1, 29, 4)?;
            let want: Vec<f64> = s.iter().map(|i| i as f64 * 0.5).collect();
            check(b.slice(s)?.to_vec()? == want, || "strided view of BlockCyclic".into())?;
            // The same as gather(root) on the root, and on every locale.
            let (g, all) = (a.gather(n - 1)?, a.to_vec()?);
            check(g.is_none_or(|g| g == all) && all.len() == 35, || "gather agrees".into())?;
            let e = DistArray::<u8, 1>::zeros(ctx, dist::block(ctx, [0])?)?;
            check(e.to_vec()?.is_empty(), || "empty".into())
        })
        .unwrap();
    }
}

#[test]
#[allow(deprecated)]
fn take_is_the_indexed_read_and_gather_at_its_deprecated_alias() {
    run(Config::local(3), |ctx| {
        let a = DistArray::from_fn(ctx, dist::cyclic(ctx, [20])?, |[i]| i * i)?;
        let idx = DistArray::from_fn(ctx, dist::block(ctx, [6])?, |[j]| 19 - 3 * j)?;
        let t = a.take(&idx)?.to_vec()?;
        check(t == vec![361, 256, 169, 100, 49, 16], || format!("take {t:?}"))?;
        check(a.gather_at(&idx)?.to_vec()? == t, || "gather_at".into())
    })
    .unwrap();
}

#[test]
fn scalar_on_the_left_works_like_a_plain_number() {
    run(Config::local(2), |ctx| {
        let a = DistArray::from_fn(ctx, dist::cyclic(ctx, [10])?, |[i]| i + 1)?;
        let v = a.slice(2..9)?;
        let xs: Vec<i64> = (3..10).collect();
        let sum = |f: &dyn Fn(i64) -> i64| xs.iter().map(|&x| f(x)).sum::<i64>();
        check((Scalar(100i64) + v).sum()? == (100i64 + v).sum()?, || "+ view".into())?;
        check((Scalar(100i64) + v).sum()? == sum(&|x| 100 + x), || "+".into())?;
        check((Scalar(100i64) - v).sum()? == sum(&|x| 100 - x), || "-".into())?;
        check((Scalar(3i64) * v).sum()? == sum(&|x| 3 * x), || "*".into())?;
        check((Scalar(100i64) / v).sum()? == sum(&|x| 100 / x), || "/".into())?;
        check((Scalar(100i64) % v).sum()? == sum(&|x| 100 % x), || "%".into())?;
        // On expressions, arrays and mixed with plain scalars.
        check((Scalar(2i64) * (v + 1i64)).sum()? == sum(&|x| 2 * (x + 1)), || "* expression".into())?;
        check((Scalar(1i64) - &a).sum()? == (1..=10).map(|x| 1 - x).sum::<i64>(), || "- array".into())?;
        let f = DistArray::from_fn(ctx, dist::block(ctx, [4])?, |[i]| i as f64)?;
        check((Scalar(0.5) * &f + Scalar(1.0)).sum()? == 7.0, || "floats".into())
    })
    .unwrap();
}
