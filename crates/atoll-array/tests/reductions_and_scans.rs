//! Reductions (`sum`, `product`, `min`, `max`, `argmin`, `argmax`, `count`, `reduce_with`) of
//! views and of expressions mixing views of different distributions, and 1-D scans (`scan`
//! inclusive and exclusive, `cumsum`), against a sequential reference: integers exactly, floats
//! within a tolerance.

// `a.slice([lo..hi])` is how 1-D arrays are sliced.
#![allow(clippy::single_range_in_vec_init)]

mod common;

use atoll_array::{Cyclic, DistArray, Distribution, ExprExt, ExprReduce};
use atoll_runtime::{run, Config, Ctx, Error, Result};
use common::*;
use proptest::prelude::*;

/// The first extremum (value, position) of `v` by `better`.
fn arg_ref<T: Copy>(v: &[T], better: impl Fn(T, T) -> bool) -> Option<(T, usize)> {
    let mut best: Option<(T, usize)> = None;
    for (k, &x) in v.iter().enumerate() {
        if best.is_none_or(|(b, _)| better(x, b)) {
            best = Some((x, k));
        }
    }
    best
}

fn body<const D: usize, M: Distribution<D> + 'static>(ctx: &Ctx, dist: M, c: &ZipCase<D>) -> Result<()> {
    let (l, f1) = (&c.leader, &c.followers[1]);
    let a = DistArray::<i64, D, M>::from_fn(ctx, dist.clone(), |i| val(i, l.salt))?;
    let af = DistArray::<f64, D, M>::from_fn(ctx, dist, |i| val(i, l.salt) as f64 * 0.37)?;
    let cc = DistArray::<i64, D, Cyclic<D>>::from_fn(ctx, f1.build().cyclic(), |i| val(i, f1.salt))?;
    let (v, vf, vc) = (nested(&a, &l.views)?, nested(&af, &l.views)?, nested(&cc, &f1.views)?);
    let vdom = l.view_dom();
    let xs: Vec<i64> = vdom.iter().map(|i| val(i, l.salt)).collect();
    let ys: Vec<i64> = f1.view_dom().iter().map(|i| val(i, f1.salt)).collect();
    let fs: Vec<f64> = xs.iter().map(|&x| x as f64 * 0.37).collect();

    check(v.sum()? == xs.iter().sum::<i64>(), || "sum".into())?;
    let fsum = vf.sum()?;
    check(close(fsum, fs.iter().sum()), || format!("float sum {fsum}"))?;
    let small = |x: i64| {
        if x > 40 {
            2i64
        } else if x < -40 {
            -1
        } else {
            1
        }
    };
    check(v.map(small).product()? == xs.iter().map(|&x| small(x)).product::<i64>(), || "product".into())?;
    check(vf.map(|x: f64| 1.0 + x / 1000.0).product()?.to_bits() != 0, || "float product".into())?;
    let fp = vf.map(|x: f64| 1.0 + x / 1000.0).product()?;
    check(close(fp, fs.iter().map(|x| 1.0 + x / 1000.0).product()), || format!("float product {fp}"))?;
    check(v.map(|x| x > 0).count()? == xs.iter().filter(|&&x| x > 0).count() as u64, || "count".into())?;
    let (lo, hi) =
        (v.reduce_with(i64::MAX, |a, x| a.min(x), i64::min)?, v.reduce_with(i64::MIN, |a, x| a.max(x), i64::max)?);
    check(lo == xs.iter().copied().min().unwrap_or(i64::MAX), || "reduce_with min".into())?;
    check(hi == xs.iter().copied().max().unwrap_or(i64::MIN), || "reduce_with max".into())?;

    let idx: Vec<[i64; D]> = vdom.iter().collect();
    match (xs.is_empty(), v.min(), v.max(), v.argmin(), v.argmax(), vf.min(), vf.argmax()) {
        (true, Err(Error::InvalidArgument(_)), Err(Error::InvalidArgument(_)), Err(_), Err(_), Err(_), Err(_)) => {}
        (false, Ok(mn), Ok(mx), Ok(amin), Ok(amax), Ok(fmin), Ok(famax)) => {
            check(mn == *xs.iter().min().unwrap() && mx == *xs.iter().max().unwrap(), || "min/max".into())?;
            let (rv, rp) = arg_ref(&xs, |x, b| x < b).unwrap();
            check(amin == (rv, idx[rp]), || format!("argmin {amin:?}, want {:?}", (rv, idx[rp])))?;
            let (rv, rp) = arg_ref(&xs, |x, b| x > b).unwrap();
            check(amax == (rv, idx[rp]), || format!("argmax {amax:?}, want {:?}", (rv, idx[rp])))?;
            check(fmin == fs.iter().copied().fold(f64::INFINITY, f64::min), || "float min".into())?;
            let (rv, rp) = arg_ref(&fs, |x, b| x > b).unwrap();
            check(famax == (rv, idx[rp]), || format!("float argmax {famax:?}"))?;
        }
        other => return Err(Error::InvalidArgument(format!("reductions of {} elements: {other:?}", xs.len()))),
    }

    // Expressions led by a view, with a follower of another distribution.
    let e_sum = (v + 2i64 * vc).sum()?;
    check(e_sum == xs.iter().zip(&ys).map(|(x, y)| x + 2 * y).sum::<i64>(), || "expr sum".into())?;
    let zs: Vec<i64> = xs.iter().zip(&ys).map(|(x, y)| y - x).collect();
    match (vc - v).argmin() {
        Ok(got) => {
            let (rv, rp) = arg_ref(&zs, |x, b| x < b).unwrap();
            let fidx: Vec<[i64; D]> = f1.view_dom().iter().collect();
            // The index is the leader's (the first view of the expression: the follower here).
            check(got == (rv, fidx[rp]), || format!("expr argmin {got:?}, want {:?}", (rv, fidx[rp])))?;
        }
        Err(e) => check(zs.is_empty(), || format!("expr argmin: {e}"))?,
    }
    let cnt = vc.zip_map(v, |y, x| y == x).count()?;
    check(cnt == zs.iter().filter(|&&z| z == 0).count() as u64, || "zip_map count".into())?;
    Ok(())
}

fn scan_body<M: Distribution<1> + 'static>(ctx: &Ctx, dist: M, c: &ZipCase<1>, root: usize) -> Result<()> {
    let root = root % ctx.num_locales();
    let l = &c.leader;
    let a = DistArray::<i64, 1, M>::from_fn(ctx, dist.clone(), |i| val(i, l.salt))?;
    let af = DistArray::<f64, 1, M>::from_fn(ctx, dist, |i| val(i, l.salt) as f64 / 3.0)?;
    let (v, vf) = (nested(&a, &l.views)?, nested(&af, &l.views)?);
    let xs: Vec<i64> = l.view_dom().iter().map(|i| val(i, l.salt)).collect();

    let incl: Vec<i64> = xs
        .iter()
        .scan(0, |s, &x| {
            *s += x;
            Some(*s)
        })
        .collect();
    let excl: Vec<i64> = std::iter::once(0).chain(incl.iter().copied()).take(xs.len()).collect();
    // "The last non-zero value": associative, not commutative, identity 0.
    let last = |a: i64, b: i64| if b != 0 { b } else { a };
    let lastnz: Vec<i64> = xs
        .iter()
        .scan(0, |s, &x| {
            *s = last(*s, x);
            Some(*s)
        })
        .collect();
    let lastnz_ex: Vec<i64> = std::iter::once(0).chain(lastnz.iter().copied()).take(xs.len()).collect();

    let s = v.scan(|x, y| x + y, 0, true)?;
    // The scan keeps the view's indices (not positions 0..len).
    check(s.domain() == v.domain(), || format!("scan domain {:?}, want the view's {:?}", s.domain(), v.domain()))?;
    for (k, i) in l.view_dom().iter().enumerate().step_by(5) {
        check(s.get(i)? == incl[k], || format!("scan at index {i:?}"))?;
    }
    check(s.to_vec()? == incl, || "scan to_vec".into())?;
    for (got, want, what) in [
        (s.gather(root)?, &incl, "inclusive sum"),
        (v.scan(|x, y| x + y, 0, false)?.gather(root)?, &excl, "exclusive sum"),
        (v.cumsum()?.gather(root)?, &incl, "cumsum"),
        (v.scan(last, 0, true)?.gather(root)?, &lastnz, "inclusive last-non-zero"),
        (v.scan(last, 0, false)?.gather(root)?, &lastnz_ex, "exclusive last-non-zero"),
        (
            s.view().scan(|x, y| x.max(y), i64::MIN, true)?.gather(root)?,
            &incl
                .iter()
                .scan(i64::MIN, |m, &x| {
                    *m = (*m).max(x);
                    Some(*m)
                })
                .collect(),
            "max of a scan",
        ),
    ] {
        if let Some(g) = got {
            check(&g == want, || format!("{what}: {g:?}, want {want:?}"))?;
        }
    }
    if let Some(g) = vf.cumsum()?.gather(root)? {
        let mut acc = 0.0;
        for (k, &x) in xs.iter().enumerate() {
            acc += x as f64 / 3.0;
            check((g[k] - acc).abs() < 1e-9 * (1.0 + acc.abs()), || format!("float cumsum at {k}: {} vs {acc}", g[k]))?;
        }
    }
    Ok(())
}

macro_rules! rank_tests {
    ($($name:ident: $d:literal),*) => {$(
        proptest! {
            #![proptest_config(config(160))]
            #[test]
            fn $name(c in zip_case_strategy::<$d>()) {
                let r = run(Config::local(c.n), |ctx| with_dist!(c.leader.build(), dist => body(ctx, dist, &c)));
                prop_assert!(r.is_ok(), "{:?}", r.unwrap_err());
            }
        }
    )*};
}

rank_tests!(
    reductions_match_reference_1d: 1,
    reductions_match_reference_2d: 2,
    reductions_match_reference_3d: 3
);

proptest! {
    #![proptest_config(config(256))]
    #[test]
    fn scans_of_1d_views_match_reference(c in zip_case_strategy::<1>(), root in 0usize..5) {
        let r = run(Config::local(c.n), |ctx| with_dist!(c.leader.build(), dist => scan_body(ctx, dist, &c, root)));
        prop_assert!(r.is_ok(), "{:?}", r.unwrap_err());
    }
}

/// NaN: `min`/`max` are NaN when any value is; `argmin`/`argmax` give the first NaN (as NumPy);
/// ties go to the first index in row-major order, whichever locale owns it.
#[test]
fn nan_and_ties_in_extrema() {
    for n in 1..=4 {
        run(Config::local(n), |ctx| {
            let a = DistArray::<f64, 2, Cyclic<2>>::from_fn(ctx, atoll_array::dist::cyclic(ctx, [6, 5])?, |[i, j]| {
                if (i, j) == (3, 1) || (i, j) == (4, 4) {
                    f64::NAN
                } else {
                    ((i + j) % 3) as f64
                }
            })?;
            let v = a.view();
            check(v.min()?.is_nan() && v.max()?.is_nan(), || "NaN extrema".into())?;
            let (x, at) = v.argmin()?;
            check(x.is_nan() && at == [3, 1], || format!("argmin {x} at {at:?}"))?;
            let (x, at) = v.argmax()?;
            check(x.is_nan() && at == [3, 1], || format!("argmax {x} at {at:?}"))?;
            // Without the NaN rows: ties, first in row-major order.
            let w = a.slice([0..3, 0..5])?;
            check(w.min()? == 0.0 && w.argmin()? == (0.0, [0, 0]) && w.argmax()? == (2.0, [0, 2]), || "ties".into())?;
            let col = a.slice([0..6, 2..3])?;
            check(col.argmin()? == (0.0, [1, 2]), || "ties in a column".into())?;
            let ints = DistArray::<u8, 1>::from_fn(ctx, atoll_array::dist::block(ctx, [40])?, |[i]| (i % 7) as u8)?;
            check(ints.view().argmax()? == (6, [6]) && ints.slice([10..40])?.argmin()? == (0, [14]), || {
                "int ties".into()
            })
        })
        .unwrap();
    }
}
