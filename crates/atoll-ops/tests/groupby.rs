//! `GroupBy`, `group_flags`, `segment_starts` and the aggregations against a sequential
//! reference (a stable sort of the rows' key images, then a fold per run of equal rows), on
//! 1-4 locales, keys of every distribution, heavy duplicates, all-equal keys, NaN and -0.0,
//! empty inputs and fewer rows than locales.

mod common;

use atoll_array::{dist, DistArray};
use atoll_ops::{Agg, AggResult, GroupBy, SortColumn, SortKey};
use atoll_runtime::{run, Config, Ctx, Result};
use common::{reference_rows, with_array, KINDS};
use proptest::prelude::*;

/// The reference groups: the stable sort of the rows and the rank where each group starts.
fn ref_groups(rows: &[Vec<u64>]) -> (Vec<i64>, Vec<i64>) {
    let perm = reference_rows(rows);
    let starts = (0..perm.len())
        .filter(|&r| r == 0 || rows[perm[r] as usize] != rows[perm[r - 1] as usize])
        .map(|r| r as i64)
        .collect();
    (perm, starts)
}

/// The reference aggregation of `vals` (in sorted order) over groups.
fn ref_agg(sorted: &[f64], starts: &[i64], agg: Agg) -> Vec<f64> {
    let n = sorted.len();
    (0..starts.len())
        .map(|g| {
            let lo = starts[g] as usize;
            let hi = starts.get(g + 1).map_or(n, |&s| s as usize);
            let seg = &sorted[lo..hi];
            let ok: Vec<(usize, f64)> = seg.iter().copied().enumerate().filter(|(_, v)| !v.is_nan()).collect();
            let c = ok.len() as f64;
            let mean = ok.iter().map(|x| x.1).sum::<f64>() / c;
            let var = |d: u32| {
                if ok.len() > d as usize {
                    ok.iter().map(|x| (x.1 - mean).powi(2)).sum::<f64>() / (c - d as f64)
                } else {
                    f64::NAN
                }
            };
            let arg = |max: bool| {
                let mut best: Option<(usize, f64)> = None;
                for &(i, v) in &ok {
                    if best.is_none_or(|(_, b)| if max { v > b } else { v < b }) {
                        best = Some((i, v));
                    }
                }
                best
            };
            match agg {
                Agg::Sum => ok.iter().map(|x| x.1).sum(),
                Agg::Prod => ok.iter().map(|x| x.1).product(),
                Agg::Min => arg(false).map_or(f64::NAN, |b| b.1),
                Agg::Max => arg(true).map_or(f64::NAN, |b| b.1),
                Agg::Count => c,
                Agg::Mean => {
                    if ok.is_empty() {
                        f64::NAN
                    } else {
                        mean
                    }
                }
                Agg::Var(d) => var(d),
                Agg::Std(d) => var(d).sqrt(),
                Agg::ArgMin => (lo + arg(false).map_or(0, |b| b.0)) as f64,
                Agg::ArgMax => (lo + arg(true).map_or(0, |b| b.0)) as f64,
                Agg::Any => f64::from(u8::from(seg.iter().any(|&v| v != 0.0))),
                Agg::All => f64::from(u8::from(seg.iter().all(|&v| v != 0.0))),
                Agg::First => seg[0],
            }
        })
        .collect()
}

const AGGS: [Agg; 14] = [
    Agg::Sum,
    Agg::Prod,
    Agg::Min,
    Agg::Max,
    Agg::Count,
    Agg::Mean,
    Agg::Var(0),
    Agg::Var(1),
    Agg::Std(1),
    Agg::ArgMin,
    Agg::ArgMax,
    Agg::Any,
    Agg::All,
    Agg::First,
];

fn same(a: f64, b: f64) -> bool {
    (a.is_nan() && b.is_nan()) || a == b || (a - b).abs() <= 1e-9 * (1.0 + a.abs().max(b.abs()))
}

/// Groups `keys` (every distribution) with f64 `vals` and checks everything on locale 0.
fn check<K: SortKey>(ctx: &Ctx, keys: &[K], vals: &[f64]) -> Result<()> {
    let rows: Vec<Vec<u64>> = keys.iter().map(|k| vec![k.to_ordered()]).collect();
    let (rperm, rstarts) = ref_groups(&rows);
    let sorted: Vec<f64> = rperm.iter().map(|&p| vals[p as usize]).collect();
    let n = keys.len();
    for kind in KINDS {
        with_array(ctx, kind, keys, |a| {
            let what = format!("{} locales, {kind:?}, n={n}", ctx.num_locales());
            let g = GroupBy::new(&[a.column()])?;
            assert_eq!(g.permutation().to_vec()?, rperm, "perm {what}");
            assert_eq!(g.segments().to_vec()?, rstarts, "segments {what}");
            assert_eq!(g.groups(), rstarts.len());
            let v = DistArray::from_fn(ctx, dist::block(ctx, [n])?, |[i]| vals[i as usize])?;
            for agg in AGGS {
                let mut want = ref_agg(&sorted, &rstarts, agg);
                let got: Vec<f64> = match g.aggregate(&v, agg)? {
                    AggResult::Same(x) | AggResult::F64(x) => x.to_vec()?,
                    AggResult::I64(x) => x.to_vec()?.into_iter().map(|y| y as f64).collect(),
                    AggResult::Bool(x) => x.to_vec()?.into_iter().map(|y| f64::from(u8::from(y))).collect(),
                };
                if matches!(agg, Agg::ArgMin | Agg::ArgMax) {
                    // Positions of the values: the permutation maps the ranks.
                    want = want.iter().map(|&r| rperm[r as usize] as f64).collect();
                }
                assert_eq!(got.len(), want.len(), "{agg:?} {what}");
                for (x, y) in got.iter().zip(&want) {
                    assert!(same(*x, *y), "{agg:?} {what}: got {got:?}, want {want:?}, keys {keys:?}, vals {vals:?}");
                }
            }
            v.free()?;
            g.free()
        })?;
    }
    Ok(())
}

fn vals() -> impl Strategy<Value = f64> {
    prop_oneof![Just(f64::NAN), Just(0.0), (-4i32..5).prop_map(f64::from)]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn i64_keys_group_like_the_reference(locales in 1usize..=4, kv in prop::collection::vec((-3i64..3, vals()), 0..120)) {
        let (k, v): (Vec<i64>, Vec<f64>) = kv.into_iter().unzip();
        run(Config::local(locales), |ctx| check(ctx, &k, &v)).unwrap();
    }

    #[test]
    fn f64_keys_with_nan_and_signed_zero(locales in 1usize..=4, kv in prop::collection::vec((prop_oneof![Just(f64::NAN), Just(-0.0), Just(0.0), Just(1.5)], vals()), 0..80)) {
        let (k, v): (Vec<f64>, Vec<f64>) = kv.into_iter().unzip();
        run(Config::local(locales), |ctx| check(ctx, &k, &v)).unwrap();
    }

    #[test]
    fn u64_keys_mostly_distinct(locales in 1usize..=4, kv in prop::collection::vec((any::<u64>(), vals()), 0..60)) {
        let (k, v): (Vec<u64>, Vec<f64>) = kv.into_iter().unzip();
        run(Config::local(locales), |ctx| check(ctx, &k, &v)).unwrap();
    }
}

#[test]
fn edge_cases_empty_short_and_all_equal() {
    for locales in [1, 2, 3, 5] {
        run(Config::local(locales), |ctx| {
            check::<i64>(ctx, &[], &[])?;
            check(ctx, &[7i64], &[f64::NAN])?;
            check(ctx, &[7i64, 7], &[1.0, 2.0])?;
            check(ctx, &[5i64; 50], &(0..50).map(f64::from).collect::<Vec<_>>())?;
            check(ctx, &[f64::NAN; 9], &[f64::NAN; 9])
        })
        .unwrap();
    }
}

#[test]
fn two_key_columns_of_mixed_types_and_distributions() {
    run(Config::local(3), |ctx| {
        let n = 400;
        let a: Vec<i64> = (0..n).map(|i| (i * 7 % 5) as i64 - 2).collect();
        let b: Vec<f64> = (0..n).map(|i| if i % 13 == 0 { f64::NAN } else { (i * 3 % 4) as f64 }).collect();
        let rows: Vec<Vec<u64>> = a.iter().zip(&b).map(|(x, y)| vec![x.to_ordered(), y.to_ordered()]).collect();
        let (rperm, rstarts) = ref_groups(&rows);
        let ka = DistArray::from_fn(ctx, dist::cyclic(ctx, [n])?, |[i]| a[i as usize])?;
        let kb = DistArray::from_fn(ctx, dist::block_cyclic(ctx, [n], [7])?, |[i]| b[i as usize])?;
        let g = GroupBy::new(&[&ka as &dyn SortColumn, &kb])?;
        assert_eq!(g.permutation().to_vec()?, rperm);
        assert_eq!(g.segments().to_vec()?, rstarts);
        let v = DistArray::from_fn(ctx, dist::block(ctx, [n])?, |[i]| i)?;
        let AggResult::Same(s) = g.aggregate(&v, Agg::Sum)? else { panic!("sum of i64 is i64") };
        let want: Vec<i64> = (0..rstarts.len())
            .map(|k| {
                let hi = rstarts.get(k + 1).map_or(n, |&x| x as usize);
                rperm[rstarts[k] as usize..hi].iter().sum()
            })
            .collect();
        assert_eq!(s.to_vec()?, want);
        g.free()
    })
    .unwrap();
}

#[test]
fn bad_input_is_a_typed_error() {
    run(Config::local(2), |ctx| {
        let k = DistArray::from_fn(ctx, dist::block(ctx, [10])?, |[i]| i)?;
        let g = GroupBy::new(&[&k as &dyn SortColumn])?;
        let short = DistArray::from_fn(ctx, dist::block(ctx, [9])?, |[i]| i as f64)?;
        assert!(matches!(g.aggregate(&short, Agg::Sum), Err(atoll_runtime::Error::ShapeMismatch { .. })));
        assert!(matches!(GroupBy::new(&[]), Err(atoll_runtime::Error::InvalidArgument(_))));
        g.free()
    })
    .unwrap();
}
