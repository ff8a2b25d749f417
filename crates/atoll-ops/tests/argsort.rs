//! `argsort` and `sort`: against the stable sequential reference (a `sort_by` over (key,
//! position) of the gathered keys) on 1-4 locales, every distribution, views, and the edge
//! cases (empty, one key, all equal, sorted, reversed, extremes, NaN and -0.0).

mod common;

use atoll_array::{dist, DistArray, StridedRange};
use atoll_ops::SortKey;
use atoll_runtime::{run, Config, Ctx, Result};
use common::{check_perm, reference, with_array, KINDS};
use proptest::prelude::*;

/// Checks argsort and sort of `keys` on every distribution.
fn check_all<K: SortKey>(ctx: &Ctx, keys: &[K], what: &str) -> Result<()> {
    for kind in KINDS {
        with_array(ctx, kind, keys, |a| {
            let what = format!("{what}, {} locales, {kind:?}, n={}", ctx.num_locales(), keys.len());
            check_perm(ctx, &a.argsort()?, keys, &what)?;
            let s = a.sort()?;
            if let Some(v) = s.gather(0)? {
                let want: Vec<u64> = reference(keys).iter().map(|&i| keys[i as usize].to_ordered()).collect();
                let got: Vec<u64> = v.iter().map(|x| x.to_ordered()).collect();
                assert_eq!(got, want, "sort: {what}");
            }
            Ok(())
        })?;
    }
    Ok(())
}

fn floats() -> impl Strategy<Value = f64> {
    prop_oneof![
        Just(f64::NAN),
        Just(-f64::NAN),
        Just(0.0),
        Just(-0.0),
        Just(f64::INFINITY),
        Just(f64::NEG_INFINITY),
        Just(f64::MAX),
        Just(f64::MIN),
        Just(5e-324),
        (-4i32..4).prop_map(f64::from),
        any::<f64>(),
    ]
}

fn ints() -> impl Strategy<Value = i64> {
    prop_oneof![Just(i64::MIN), Just(i64::MAX), Just(0), -3i64..3, any::<i64>()]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn i64_keys_sort_like_the_reference(locales in 1usize..=4, keys in prop::collection::vec(ints(), 0..160)) {
        run(Config::local(locales), |ctx| check_all(ctx, &keys, "i64")).unwrap();
    }

    #[test]
    fn u64_keys_sort_like_the_reference(locales in 1usize..=4, keys in prop::collection::vec(prop_oneof![Just(u64::MAX), 0u64..4, any::<u64>()], 0..160)) {
        run(Config::local(locales), |ctx| check_all(ctx, &keys, "u64")).unwrap();
    }

    #[test]
    fn f64_keys_sort_in_the_total_order(locales in 1usize..=4, keys in prop::collection::vec(floats(), 0..160)) {
        run(Config::local(locales), |ctx| check_all(ctx, &keys, "f64")).unwrap();
    }
}

#[test]
fn edge_cases_on_one_to_four_locales() {
    let n = 37; // not a multiple of 2, 3 or 4
    let cases: Vec<(&str, Vec<i64>)> = vec![
        ("empty", vec![]),
        ("one key", vec![42]),
        ("fewer keys than locales", vec![3, -1]),
        ("all equal", vec![7; n]),
        ("sorted", (0..n as i64).collect()),
        ("reverse sorted", (0..n as i64).rev().collect()),
        ("extremes", (0..n as i64).map(|i| [i64::MIN, i64::MAX, -1, 0, 1][i as usize % 5]).collect()),
        ("one key differs", (0..n as i64).map(|i| i64::from(i == 20)).collect()),
    ];
    for locales in 1..=4 {
        run(Config::local(locales), |ctx| {
            for (what, keys) in &cases {
                check_all(ctx, keys, what)?;
            }
            let floats = [f64::NAN, -0.0, 0.0, -f64::NAN, f64::NEG_INFINITY, f64::INFINITY, -0.0, 1.0, f64::NAN];
            check_all(ctx, &floats, "NaN and signed zeros")?;
            check_all(ctx, &[u64::MAX, 0, u64::MAX, 1], "u64 extremes")
        })
        .unwrap();
    }
}

#[test]
fn views_sort_their_own_positions() {
    for locales in [1, 3] {
        run(Config::local(locales), |ctx| {
            let n = 101;
            let data: Vec<i64> = (0..n).map(|i| (i * 37) % 11).collect();
            let a = DistArray::from_fn(ctx, dist::cyclic(ctx, [n as usize])?, |[i]| data[i as usize])?;
            // A slice: positions 0..len of the view (argsort_positions; argsort gives indices,
            // tests/indices.rs).
            let v = a.slice(5..90)?;
            check_perm(ctx, &atoll_ops::argsort_positions(&v)?, &data[5..90], "slice of a Cyclic array")?;
            // A strided view of a Block array.
            let b = DistArray::from_fn(ctx, dist::block(ctx, [n as usize])?, |[i]| data[i as usize])?;
            let sv = b.slice(StridedRange::with_stride(1, n, 3)?)?;
            let keys: Vec<i64> = (1..n).step_by(3).map(|i| data[i as usize]).collect();
            check_perm(ctx, &atoll_ops::argsort_positions(&sv)?, &keys, "strided view of a Block array")?;
            // A slice of a Block array that is not its Block layout.
            check_perm(ctx, &atoll_ops::argsort_positions(&b.slice(10..n)?)?, &data[10..], "slice of a Block array")
        })
        .unwrap();
    }
}
