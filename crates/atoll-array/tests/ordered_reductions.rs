//! `reduce_with` folds in index (row-major) order on every distribution (Block over any grid,
//! Cyclic, BlockCyclic, also on 1 locale), views and strided views, ranks 1-3, 1-5 locales:
//! checked with associative operators that are **not commutative** against a sequential fold
//! in index order. `reduce_commutative` and the built-in reductions are checked elsewhere
//! (`reductions_and_scans.rs`).

// `a.slice([lo..hi])` is how 1-D arrays are sliced.
#![allow(clippy::single_range_in_vec_init)]

mod common;

use atoll_array::{dist, BlockCyclic, Cyclic, DistArray, Distribution, ExprReduce, Scalar};
use atoll_runtime::{run, Config, Ctx, Result};
use common::*;
use proptest::prelude::*;

/// "The last non-zero value": associative, not commutative, identity 0.
fn last(a: i64, b: i64) -> i64 {
    if b != 0 {
        b
    } else {
        a
    }
}

/// The (first, last) values of a sequence: concatenation of two sequences' summaries.
type Ends = Option<(i64, i64)>;
fn ends(a: Ends, b: Ends) -> Ends {
    match (a, b) {
        (Some((f, _)), Some((_, l))) => Some((f, l)),
        (x, None) => x,
        (None, y) => y,
    }
}

/// 2x2 integer matrices under wrapping multiplication (the ring Z/2^64: associative, not
/// commutative); `x` becomes `[[x, 1], [1, 0]]`.
type Mat = [i64; 4];
const EYE: Mat = [1, 0, 0, 1];
fn mat(x: i64) -> Mat {
    [x, 1, 1, 0]
}
fn mul(a: Mat, b: Mat) -> Mat {
    [
        a[0].wrapping_mul(b[0]).wrapping_add(a[1].wrapping_mul(b[2])),
        a[0].wrapping_mul(b[1]).wrapping_add(a[1].wrapping_mul(b[3])),
        a[2].wrapping_mul(b[0]).wrapping_add(a[3].wrapping_mul(b[2])),
        a[2].wrapping_mul(b[1]).wrapping_add(a[3].wrapping_mul(b[3])),
    ]
}

/// Concatenation of sequences (the strongest check: every value, in order).
fn cat(mut a: Vec<i64>, b: Vec<i64>) -> Vec<i64> {
    a.extend(b);
    a
}

fn body<const D: usize, M: Distribution<D> + 'static>(ctx: &Ctx, dist: M, c: &ZipCase<D>) -> Result<()> {
    let (l, f1) = (&c.leader, &c.followers[1]);
    let a = DistArray::<i64, D, M>::from_fn(ctx, dist, |i| val(i, l.salt))?;
    let cc = DistArray::<i64, D, Cyclic<D>>::from_fn(ctx, f1.build().cyclic(), |i| val(i, f1.salt))?;
    let (v, vc) = (nested(&a, &l.views)?, nested(&cc, &f1.views)?);
    let xs: Vec<i64> = l.view_dom().iter().map(|i| val(i, l.salt)).collect();
    let ys: Vec<i64> = f1.view_dom().iter().map(|i| val(i, f1.salt)).collect();
    let what = |op: &str| format!("{op} over {:?} of {:?} on {} locales", l.view_dom(), l.dist, c.n);

    let got = v.reduce_with(
        Vec::new(),
        |mut s, x| {
            s.push(x);
            s
        },
        cat,
    )?;
    check(got == xs, || format!("{}: {got:?}, want {xs:?}", what("concatenation")))?;
    let want = xs.iter().copied().fold(0, last);
    let got = v.reduce_with(0, last, last)?;
    check(got == want, || format!("{}: {got}, want {want}", what("last non-zero")))?;
    let want = xs.iter().map(|&x| Some((x, x))).fold(None, ends);
    let got = v.reduce_with(None, |s, x| ends(s, Some((x, x))), ends)?;
    check(got == want, || format!("{}: {got:?}, want {want:?}", what("(first, last)")))?;
    let want = xs.iter().map(|&x| mat(x)).fold(EYE, mul);
    let got = v.reduce_with(EYE, |s, x| mul(s, mat(x)), mul)?;
    check(got == want, || format!("{}: {got:?}, want {want:?}", what("2x2 matrix product")))?;
    // An expression led by the view with a Cyclic follower (fetched by the leader).
    let want: Vec<i64> = xs.iter().zip(&ys).map(|(x, y)| x - 3 * y).collect();
    let got = (v - Scalar(3i64) * vc).reduce_with(
        Vec::new(),
        |mut s, x| {
            s.push(x);
            s
        },
        cat,
    )?;
    check(got == want, || format!("{}: {got:?}, want {want:?}", what("expression concatenation")))?;
    // The commutative reductions still agree.
    check(v.sum()? == xs.iter().sum::<i64>(), || what("sum"))?;
    check(v.reduce_commutative(0i64, |a, x| a + x, |a, b| a + b)? == xs.iter().sum::<i64>(), || {
        what("reduce_commutative")
    })?;
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
    non_commutative_reduce_with_folds_in_index_order_1d: 1,
    non_commutative_reduce_with_folds_in_index_order_2d: 2,
    non_commutative_reduce_with_folds_in_index_order_3d: 3
);

/// Cyclic over 2 locales, "last non-zero" of [1, 2, 3, 4, 5, 6, 7, 0] is 7 (a fold in storage
/// order gives 6).
#[test]
fn last_non_zero_of_a_cyclic_array_is_in_index_order() {
    let got = run(Config::local(2), |ctx| {
        let v = [1i64, 2, 3, 4, 5, 6, 7, 0];
        let a = DistArray::from_fn(ctx, dist::cyclic(ctx, [8])?, |[i]| v[i as usize])?;
        a.view().reduce_with(0, last, last)
    })
    .unwrap();
    assert_eq!(got, 7);
}

/// BlockCyclic on one locale stores its blocks tile by tile: the fold is still row-major.
#[test]
fn block_cyclic_on_one_locale_folds_in_index_order() {
    let got = run(Config::local(1), |ctx| {
        let a =
            DistArray::<i64, 2, BlockCyclic<2>>::from_fn(ctx, dist::block_cyclic(ctx, [5, 7], [2, 3])?, |[i, j]| {
                i * 7 + j
            })?;
        let all = a.view().reduce_with(
            Vec::new(),
            |mut s, x| {
                s.push(x);
                s
            },
            cat,
        )?;
        let part = a.slice([1..5, 2..7])?.reduce_with(
            Vec::new(),
            |mut s, x| {
                s.push(x);
                s
            },
            cat,
        )?;
        Ok((all, part))
    })
    .unwrap();
    assert_eq!(got.0, (0..35).collect::<Vec<i64>>());
    assert_eq!(got.1, (1..5).flat_map(|i| (2..7).map(move |j| i * 7 + j)).collect::<Vec<i64>>());
}

/// The fast path stays: on index-ordered leaders (1-D Block and its strided views, Block split
/// along the first dimension only) `reduce_with` moves no element; a Cyclic leader is fetched
/// by the row-Block leader (strided gets).
#[test]
fn index_ordered_leaders_reduce_in_place() {
    for n in 1..=4 {
        run(Config::local(n), |ctx| {
            let a = DistArray::from_fn(ctx, dist::block(ctx, [100])?, |[i]| i)?;
            let rows = atoll_array::Block::new(
                atoll_array::Domain::from_shape([9, 7])?,
                atoll_array::LocaleGrid::new(0..n, [n, 1])?,
            );
            let b = DistArray::from_fn(ctx, rows, |[i, j]| i * 7 + j)?;
            let c = DistArray::from_fn(ctx, dist::cyclic(ctx, [100])?, |[i]| i)?;
            let strided = atoll_array::StridedRange::with_stride(3, 97, 4)?;
            let ((x, y, z), counts) = scenarios::measure(ctx, || {
                let x = a.slice(strided)?.reduce_with(
                    Vec::new(),
                    |mut s, x| {
                        s.push(x);
                        s
                    },
                    cat,
                )?;
                let y = b.slice([2..8, 1..7])?.reduce_with(
                    Vec::new(),
                    |mut s, x| {
                        s.push(x);
                        s
                    },
                    cat,
                )?;
                let z = b.view().reduce_with(0, last, last)?;
                Ok((x, y, z))
            })?;
            check(x == strided.iter().collect::<Vec<i64>>(), || format!("strided 1-D Block: {x:?}"))?;
            check(y == (2..8).flat_map(|i| (1..7).map(move |j| i * 7 + j)).collect::<Vec<i64>>(), || {
                format!("2-D Block rows: {y:?}")
            })?;
            check(z == 62, || format!("last non-zero {z}"))?;
            let c0 = &counts[ctx.id()];
            check(c0.gets + c0.strided_gets + c0.puts + c0.strided_puts == 0, || {
                format!("index-ordered leaders moved elements: {c0:?}")
            })?;
            let (w, counts) = scenarios::measure(ctx, || {
                c.view().reduce_with(
                    Vec::new(),
                    |mut s, x| {
                        s.push(x);
                        s
                    },
                    cat,
                )
            })?;
            check(w == (0..100).collect::<Vec<i64>>(), || format!("Cyclic: {w:?}"))?;
            let fetched: u64 = counts.iter().map(|c| c.gets + c.strided_gets).sum();
            check((n == 1) == (fetched == 0), || format!("Cyclic on {n} locales: {fetched} gets"))
        })
        .unwrap();
    }
}
