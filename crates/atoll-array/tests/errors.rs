//! Bad input is a typed error, the same on every locale, never a panic, and the job goes on:
//! after each error the test runs another collective operation and checks its result.

// `a.slice([lo..hi])` is how 1-D arrays are sliced.
#![allow(clippy::single_range_in_vec_init)]

mod common;

use atoll_array::{
    dist, Block, BlockCyclic, Cyclic, DistArray, Domain, ExprExt, ExprReduce, LocaleGrid, Scalar, StridedRange,
};
use atoll_runtime::{run, Config, Ctx, Error, Result};
use common::check;

/// `r` must be an error that `pred` accepts.
fn expect_err<T: std::fmt::Debug>(r: Result<T>, what: &str, pred: impl Fn(&Error) -> bool) -> Result<Error> {
    match r {
        Err(e) if pred(&e) => Ok(e),
        other => Err(Error::InvalidArgument(format!("{what}: unexpected {other:?}"))),
    }
}

fn shape_mismatch(e: &Error, a: &str, b: &str) -> bool {
    let text = e.to_string();
    matches!(e, Error::ShapeMismatch { .. }) && text.contains(a) && text.contains(b)
}

fn out_of_bounds(e: &Error, index: &str, bounds: &str) -> bool {
    matches!(e, Error::IndexOutOfBounds { index: i, bounds: b } if i.contains(index) && b.contains(bounds))
}

/// A collective operation that must still work: a fresh array, an expression and a sum.
fn still_works(ctx: &Ctx) -> Result<()> {
    let a = DistArray::<i64, 1>::from_fn(ctx, dist::block(ctx, [17])?, |[i]| i)?;
    let mut b = DistArray::<i64, 1, Cyclic<1>>::zeros(ctx, dist::cyclic(ctx, [17])?)?;
    b.assign_expr(a.view() * 2i64)?;
    let s = b.view().sum()?;
    check(s == 2 * (0..17).sum::<i64>(), || format!("the job goes on: sum {s}"))
}

fn shape_errors(ctx: &Ctx) -> Result<()> {
    let mut a = DistArray::<i64, 1>::zeros(ctx, dist::block(ctx, [10])?)?;
    let b = DistArray::<i64, 1, Cyclic<1>>::zeros(ctx, dist::cyclic(ctx, [9])?)?;
    expect_err(a.zip_apply(b.view(), |x, y| *x += y), "zip [10] with [9]", |e| shape_mismatch(e, "[10]", "[9]"))?;
    still_works(ctx)?;
    expect_err(a.view_mut().zip_apply_indexed((b.view(),), |_, x, (y,)| *x += y), "zip_apply_indexed", |e| {
        shape_mismatch(e, "[10]", "[9]")
    })?;
    expect_err(a.assign(&b.view()), "assign [9] to [10]", |e| shape_mismatch(e, "[10]", "[9]"))?;
    still_works(ctx)?;
    expect_err(a.assign_expr(b.view() + 1i64), "assign_expr", |e| shape_mismatch(e, "[10]", "[9]"))?;
    // The follower is the second operand of a binary node: still named.
    let a2 = DistArray::<i64, 1>::zeros(ctx, dist::block(ctx, [10])?)?;
    expect_err(a.assign_expr(a2.slice([0..10])? + b.view()), "a2 + b", |e| shape_mismatch(e, "[10]", "[9]"))?;
    // A reduction of an expression of two shapes.
    expect_err((a.view() - b.view()).sum(), "reduce of [10] - [9]", |e| shape_mismatch(e, "[10]", "[9]"))?;
    still_works(ctx)?;

    // 2-D, the same number of elements in another shape.
    let mut c = DistArray::<f64, 2, BlockCyclic<2>>::zeros(ctx, dist::block_cyclic(ctx, [3, 4], [2, 2])?)?;
    let d = DistArray::<f64, 2>::zeros(ctx, dist::block(ctx, [4, 3])?)?;
    expect_err(c.assign(&d.view()), "assign [4, 3] to [3, 4]", |e| shape_mismatch(e, "[3, 4]", "[4, 3]"))?;
    expect_err(c.zip_apply((d.view(), Scalar(1.0)), |x, (y, z)| *x = y + z), "zip 2-D", |e| {
        shape_mismatch(e, "[3, 4]", "[4, 3]")
    })?;
    // Views of equal shape are fine, of unequal shape are not.
    c.slice_mut([0..3, 0..3])?.assign(&d.slice([1..4, 0..3])?)?;
    expect_err(c.slice_mut([0..3, 0..3])?.assign(&d.slice([0..4, 0..3])?), "views", |e| {
        shape_mismatch(e, "[3, 3]", "[4, 3]")
    })?;

    // from_vec with the wrong number of elements: the same error on every locale.
    let r = DistArray::<i64, 1>::from_vec(ctx, dist::block(ctx, [5])?, 0, (ctx.id() == 0).then(|| vec![1, 2, 3]));
    expect_err(r, "from_vec of 3 elements over 5", |e| shape_mismatch(e, "5 elements", "3 elements"))?;
    let r = DistArray::<i64, 1>::from_vec(ctx, dist::block(ctx, [5])?, 0, None);
    expect_err(r, "from_vec without data", |e| matches!(e, Error::ShapeMismatch { .. }))?;
    still_works(ctx)
}

fn bounds_errors(ctx: &Ctx) -> Result<()> {
    let n = ctx.num_locales();
    let mut a = DistArray::<i64, 2, Cyclic<2>>::from_fn(ctx, dist::cyclic(ctx, [6, 5])?, |[i, j]| i * 5 + j)?;
    expect_err(a.get([6, 0]), "get [6, 0]", |e| out_of_bounds(e, "[6, 0]", "{0..6, 0..5}"))?;
    expect_err(a.get([0, -1]), "get [0, -1]", |e| out_of_bounds(e, "[0, -1]", "{0..6, 0..5}"))?;
    expect_err(a.set([2, 5], 1), "set [2, 5]", |e| out_of_bounds(e, "[2, 5]", "{0..6, 0..5}"))?;
    still_works(ctx)?;
    // Nothing was written: every element still holds its value.
    if let Some(g) = a.gather(n - 1)? {
        check(g == (0..30).collect::<Vec<i64>>(), || "an out-of-bounds set wrote something".into())?;
    }
    // Slices outside the array, outside a view, and element access outside a view.
    expect_err(a.slice([4..7, 0..5]), "slice past the end", |e| out_of_bounds(e, "{4..7, 0..5}", "{0..6, 0..5}"))?;
    expect_err(a.slice_mut([-1..2, 0..5]).map(|_| ()), "slice before the start", |e| {
        out_of_bounds(e, "{-1..2, 0..5}", "{0..6, 0..5}")
    })?;
    let v = a.slice([1..5, 1..4])?;
    expect_err(v.slice([0..2, 1..4]), "slice outside a view", |e| out_of_bounds(e, "{0..2, 1..4}", "{1..5, 1..4}"))?;
    expect_err(v.get([0, 0]), "get outside a view", |e| out_of_bounds(e, "[0, 0]", "{1..5, 1..4}"))?;
    let strided = Domain::new([StridedRange::with_stride(0, 6, 2)?, StridedRange::new(0, 5)])?;
    let sv = a.slice(strided)?;
    expect_err(sv.get([1, 0]), "get between the strides of a view", |e| out_of_bounds(e, "[1, 0]", "by 2"))?;
    expect_err(sv.slice([1..3, 0..5]), "slice off the stride", |e| matches!(e, Error::IndexOutOfBounds { .. }))?;
    {
        let mut w = a.slice_mut([1..5, 1..4])?;
        expect_err(w.set([5, 1], 0), "set outside a writable view", |e| out_of_bounds(e, "[5, 1]", "{1..5, 1..4}"))?;
        expect_err(w.slice_mut([1..6, 1..4]).map(|_| ()), "slice_mut outside a view", |e| {
            matches!(e, Error::IndexOutOfBounds { .. })
        })?;
    }
    // Non-zero bases: a domain -3..3.
    let dom = Domain::new([StridedRange::new(-3, 3)])?;
    let b = DistArray::<u8, 1, Block<1>>::filled(ctx, Block::new(dom, LocaleGrid::auto(0..n)?), 1)?;
    check(b.get([-3])? == 1, || "get [-3]".into())?;
    expect_err(b.get([3]), "get [3] of -3..3", |e| out_of_bounds(e, "[3]", "-3..3"))?;
    expect_err(b.get([-4]), "get [-4] of -3..3", |e| out_of_bounds(e, "[-4]", "-3..3"))?;
    still_works(ctx)
}

fn argument_errors(ctx: &Ctx) -> Result<()> {
    let n = ctx.num_locales();
    // Block size 0.
    expect_err(dist::block_cyclic(ctx, [8], [0]), "block size 0", |e| matches!(e, Error::InvalidArgument(_)))?;
    expect_err(
        BlockCyclic::new(Domain::from_shape([4, 4])?, LocaleGrid::auto(0..n)?, [2, 0]),
        "block [2, 0]",
        |e| matches!(e, Error::InvalidArgument(m) if m.contains('0')),
    )?;
    // An empty locale grid.
    expect_err(LocaleGrid::<1>::new([], [0]), "empty grid", |e| matches!(e, Error::InvalidArgument(_)))?;
    expect_err(LocaleGrid::<2>::auto(std::iter::empty()), "empty auto grid", |e| {
        matches!(e, Error::InvalidArgument(_))
    })?;
    still_works(ctx)?;
    // A grid naming a locale that does not exist: the same error on every locale, and the
    // other operations go on.
    let grid = LocaleGrid::new([0, n + 2], [2, 1])?;
    let r = DistArray::<i64, 2>::zeros(ctx, Block::new(Domain::from_shape([4, 4])?, grid));
    expect_err(r, "locale n + 2", |e| *e == Error::InvalidLocale { locale: n + 2, num_locales: n })?;
    let grid = LocaleGrid::new(0..n + 1, [n + 1])?;
    let r = DistArray::<f32, 1, Cyclic<1>>::filled(ctx, Cyclic::new(Domain::from_shape([9])?, grid), 1.0);
    expect_err(r, "locale n", |e| *e == Error::InvalidLocale { locale: n, num_locales: n })?;
    still_works(ctx)?;
    // Bad roots.
    let a = DistArray::<i64, 1>::zeros(ctx, dist::block(ctx, [0])?)?;
    expect_err(a.gather(n), "gather to locale n", |e| *e == Error::InvalidLocale { locale: n, num_locales: n })?;
    let r = DistArray::<i64, 1>::from_vec(ctx, dist::block(ctx, [3])?, n, None);
    expect_err(r, "from_vec from locale n", |e| *e == Error::InvalidLocale { locale: n, num_locales: n })?;
    still_works(ctx)?;
    // Extrema of no element; sums and counts of no element are the identities.
    let empty = a.view();
    expect_err(
        empty.min(),
        "min of an empty array",
        |e| matches!(e, Error::InvalidArgument(m) if m.contains("no element")),
    )?;
    expect_err(empty.max(), "max of an empty array", |e| matches!(e, Error::InvalidArgument(_)))?;
    expect_err(empty.argmin(), "argmin of an empty array", |e| matches!(e, Error::InvalidArgument(_)))?;
    expect_err(empty.argmax(), "argmax of an empty array", |e| matches!(e, Error::InvalidArgument(_)))?;
    check(empty.sum()? == 0 && empty.product()? == 1 && empty.map(|x| x > 0).count()? == 0, || "identities".into())?;
    let b = DistArray::<f64, 2>::zeros(ctx, dist::block(ctx, [4, 4])?)?;
    expect_err(b.slice([2..2, 0..4])?.min(), "min of an empty view", |e| matches!(e, Error::InvalidArgument(_)))?;
    // A reduction without any array operand.
    expect_err(ExprReduce::<1>::sum(Scalar(3i64)), "sum of a scalar", |e| matches!(e, Error::InvalidArgument(_)))?;
    still_works(ctx)
}

#[test]
fn shape_mismatches_are_typed_errors_naming_both_shapes() {
    for n in 1..=4 {
        run(Config::local(n), shape_errors).unwrap();
    }
}

#[test]
fn out_of_bounds_indices_and_slices_are_typed_errors() {
    for n in 1..=4 {
        run(Config::local(n), bounds_errors).unwrap();
    }
}

#[test]
fn bad_block_sizes_grids_locales_and_empty_extrema_are_typed_errors() {
    for n in 1..=4 {
        run(Config::local(n), argument_errors).unwrap();
    }
}
