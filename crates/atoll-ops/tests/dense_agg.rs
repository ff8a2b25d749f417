//! `dense_aggregate` (one pass, the key range found while reading) against a sequential
//! reference: sum, count, mean, min, max of `i64` and `f64` values (NaNs skipped) on 1-4
//! locales; tables that grow both ways across several tasks; keys at the ends of `i64`; the
//! limit (`None` beyond it on every locale); errors.

use atoll_array::{dist, DistArray, Elem};
use atoll_ops::{dense_aggregate, dense_aggregate_values, dense_unique, Agg, AggResult, AggValue};
use atoll_runtime::{run, Config, Ctx, Result};
use proptest::prelude::*;
use std::collections::BTreeMap;

fn block<T: Elem>(ctx: &Ctx, v: &[T]) -> Result<DistArray<T, 1>> {
    DistArray::from_fn(ctx, dist::block(ctx, [v.len()])?, |[i]| v[i as usize])
}

/// Per key: rows, and the values of the non-NaN rows in row order.
fn groups<T: AggValue>(keys: &[i64], vals: &[T]) -> BTreeMap<i64, (i64, Vec<T>)> {
    let mut m: BTreeMap<i64, (i64, Vec<T>)> = BTreeMap::new();
    for (&k, &v) in keys.iter().zip(vals) {
        let e = m.entry(k).or_default();
        e.0 += 1;
        if !v.nan() {
            e.1.push(v);
        }
    }
    m
}

/// Bit patterns (of small values), so that NaN equals NaN and -0.0 differs from 0.0.
fn bits<T: AggValue>(v: &[T]) -> Vec<u64> {
    v.iter().map(|x| if x.nan() { u64::MAX } else { x.f64().to_bits() }).collect()
}

fn check<T: AggValue>(ctx: &Ctx, keys: &[i64], vals: &[T], limit: usize) -> Result<()> {
    let want = groups(keys, vals);
    let (k, v) = (block(ctx, keys)?, block(ctx, vals)?);
    let g = dense_aggregate::<T>(&k, None, limit)?.expect("within the limit");
    assert_eq!(g.keys.to_vec()?, want.keys().copied().collect::<Vec<_>>());
    assert_eq!(g.rows.expect("rows").to_vec()?, want.values().map(|x| x.0).collect::<Vec<_>>());
    assert!(g.values.is_none());
    // The presence-bitmap path: the same keys.
    assert_eq!(dense_unique(&k, limit)?.expect("within the limit").to_vec()?, want.keys().copied().collect::<Vec<_>>());
    for agg in [Agg::Sum, Agg::Count, Agg::Mean, Agg::Min, Agg::Max] {
        let g = dense_aggregate(&k, Some((&v, agg)), limit)?.expect("within the limit");
        assert_eq!(g.keys.to_vec()?, want.keys().copied().collect::<Vec<_>>());
        assert_eq!(g.rows.expect("rows").to_vec()?, want.values().map(|x| x.0).collect::<Vec<_>>());
        let sum = |x: &(i64, Vec<T>)| x.1.iter().fold(T::zero(), |a, &b| a.add(b));
        // Without rows: the uncounted `f64` sum (presence from the sums), the same for `i64`.
        let gv = dense_aggregate_values(&k, (&v, agg), limit)?.expect("within the limit");
        assert_eq!(gv.keys.to_vec()?, want.keys().copied().collect::<Vec<_>>());
        assert_eq!(gv.rows.is_none(), agg == Agg::Sum && T::missing().nan(), "rows only when needed");
        if agg == Agg::Sum {
            let Some(AggResult::Same(s)) = gv.values else { panic!("sum") };
            assert_eq!(bits(&s.to_vec()?), bits(&want.values().map(sum).collect::<Vec<_>>()), "uncounted sum");
        }
        let first = |max: bool, xs: &Vec<T>| {
            xs.iter().fold(None, |b: Option<T>, &x| match b {
                Some(b) if !(if max { x > b } else { x < b }) => Some(b),
                _ => Some(x),
            })
        };
        match (agg, g.values.expect("values")) {
            (Agg::Sum, AggResult::Same(s)) => {
                let w: Vec<T> = want.values().map(sum).collect();
                assert_eq!(bits(&s.to_vec()?), bits(&w), "sum");
            }
            (Agg::Count, AggResult::I64(c)) => {
                assert_eq!(c.to_vec()?, want.values().map(|x| x.1.len() as i64).collect::<Vec<_>>())
            }
            (Agg::Mean, AggResult::F64(m)) => {
                let w: Vec<f64> = want
                    .values()
                    .map(|x| {
                        if x.1.is_empty() {
                            f64::NAN
                        } else {
                            x.1.iter().fold(0.0, |a, v| a + v.f64()) / x.1.len() as f64
                        }
                    })
                    .collect();
                assert_eq!(bits(&m.to_vec()?), bits(&w), "mean");
            }
            (Agg::Min, AggResult::Same(m)) => {
                let w: Vec<T> = want.values().map(|x| first(false, &x.1).unwrap_or(T::missing())).collect();
                assert_eq!(bits(&m.to_vec()?), bits(&w), "min");
            }
            (Agg::Max, AggResult::Same(m)) => {
                let w: Vec<T> = want.values().map(|x| first(true, &x.1).unwrap_or(T::missing())).collect();
                assert_eq!(bits(&m.to_vec()?), bits(&w), "max");
            }
            _ => panic!("{agg:?}: unexpected result type"),
        }
    }
    Ok(())
}

fn small_f64() -> impl Strategy<Value = f64> {
    // Small integers (exact sums in any order), -0.0 and NaN.
    prop_oneof![Just(f64::NAN), Just(-0.0), (-4i32..5).prop_map(f64::from)]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    #[test]
    fn dense_aggregate_matches_the_reference(
        locales in 1usize..=4,
        kv in prop::collection::vec((-5i64..20, small_f64(), -1000i64..1000), 0..200),
    ) {
        let k: Vec<i64> = kv.iter().map(|x| x.0).collect();
        let f: Vec<f64> = kv.iter().map(|x| x.1).collect();
        let i: Vec<i64> = kv.iter().map(|x| x.2).collect();
        run(Config::local(locales), |ctx| {
            check(ctx, &k, &f, 25)?;
            check(ctx, &k, &i, 25)
        }).unwrap();
    }
}

#[test]
fn tables_grow_both_ways_over_several_tasks() {
    // 100k rows (several tasks per locale): keys drift down then up, so each task's table
    // grows at both ends; values with ties (min/max keep the first).
    let n = 100_000usize;
    let keys: Vec<i64> = (0..n)
        .map(|i| {
            let x = (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 50;
            if i % 3 == 0 {
                -(x as i64) - (i as i64 / 1000)
            } else {
                x as i64 + i as i64 / 100
            }
        })
        .collect();
    let f: Vec<f64> = (0..n).map(|i| if i % 97 == 0 { f64::NAN } else { ((i * 31) % 17) as f64 - 8.0 }).collect();
    let u: Vec<u64> = (0..n).map(|i| (i as u64 * 7919) % 1013).collect();
    for locales in [1, 2] {
        run(Config::local(locales).with_threads_per_locale(3), |ctx| {
            check(ctx, &keys, &f, 1 << 20)?;
            check(ctx, &keys, &u, 1 << 20)
        })
        .unwrap();
    }
}

#[test]
fn limit_ends_of_i64_and_errors() {
    for locales in [1, 3, 5] {
        run(Config::local(locales), |ctx| {
            check(ctx, &[i64::MAX, i64::MAX - 2, i64::MAX], &[1.0, 2.0, f64::NAN], 3)?;
            check(ctx, &[i64::MIN, i64::MIN + 3, i64::MIN], &[5i64, -2, 7], 4)?;
            check(ctx, &[7; 30], &[0.5; 30], 1)?;
            check::<f64>(ctx, &[], &[], 1)?;
            // Keys spanning 11 values: within a limit of 11, not of 10 (on every locale).
            let k = block(ctx, &[0i64, 3, 10, 4, 2])?;
            let v = block(ctx, &[1.0f64; 5])?;
            assert!(dense_aggregate(&k, Some((&v, Agg::Sum)), 11)?.is_some());
            assert!(dense_aggregate(&k, Some((&v, Agg::Sum)), 10)?.is_none());
            assert!(dense_unique(&k, 11)?.is_some());
            assert!(dense_unique(&k, 10)?.is_none());
            let wide = block(ctx, &[i64::MIN, i64::MAX])?;
            assert!(dense_aggregate::<f64>(&wide, None, atoll_ops::DENSE_MAX_RANGE)?.is_none());
            use atoll_runtime::Error;
            assert!(matches!(dense_aggregate::<f64>(&k, None, 0), Err(Error::InvalidArgument(_))));
            assert!(matches!(dense_unique(&k, 0), Err(Error::InvalidArgument(_))));
            assert!(dense_unique(&wide, atoll_ops::DENSE_MAX_RANGE)?.is_none());
            assert!(matches!(dense_aggregate(&k, Some((&v, Agg::Prod)), 11), Err(Error::InvalidArgument(_))));
            let short = block(ctx, &[1.0f64; 4])?;
            assert!(matches!(dense_aggregate(&k, Some((&short, Agg::Sum)), 11), Err(Error::ShapeMismatch { .. })));
            Ok(())
        })
        .unwrap();
    }
}

#[test]
fn uncounted_sum_over_tasks_and_growth() {
    // Tasks of thousands of rows: keys that grow the table mid-run (both ways),
    // negative keys, every key of the range present (presence from the sums) or some absent
    // and some of NaN/-0.0 values only (presence marked), on 1-4 locales of 1-3 tasks.
    let n = 20_000usize;
    let drift: Vec<i64> = (0..n as i64).map(|i| if i % 2 == 0 { -(i / 7) } else { i / 5 + (i * 7919) % 13 }).collect();
    let dense: Vec<i64> = (0..n as i64).map(|i| (i * 7919) % 300 - 150).collect();
    let sparse: Vec<i64> = (0..n as i64).map(|i| ((i * 7919) % 300 - 150) * 3).collect();
    let vals: Vec<f64> = (0..n).map(|i| ((i * 31) % 17) as f64 - 8.0).collect();
    // Keys that are 0 mod 7 only have NaN or -0.0 values.
    let odd: Vec<f64> = dense
        .iter()
        .zip(&vals)
        .map(|(&k, &v)| {
            if k % 7 == 0 {
                if v > 0.0 {
                    f64::NAN
                } else {
                    -0.0
                }
            } else {
                v
            }
        })
        .collect();
    for (locales, threads) in [(1, 1), (1, 3), (2, 2), (4, 1)] {
        run(Config::local(locales).with_threads_per_locale(threads), |ctx| {
            for (k, v) in [(&drift, &vals), (&dense, &vals), (&sparse, &vals), (&dense, &odd)] {
                check(ctx, k, v, 1 << 16)?;
            }
            // A key range of 300 within a limit of 300 but not 299, found mid-array.
            let k = block(ctx, &dense)?;
            let v = block(ctx, &vals)?;
            assert!(dense_aggregate_values(&k, (&v, Agg::Sum), 300)?.is_some());
            assert!(dense_aggregate_values(&k, (&v, Agg::Sum), 299)?.is_none());
            // Fewer rows than locales, and none.
            check(ctx, &[-3], &[f64::NAN], 4)?;
            check::<f64>(ctx, &[], &[], 4)
        })
        .unwrap();
    }
}
