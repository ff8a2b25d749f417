//! The dense-key paths against sequential references: `dense_groups` (distinct keys, counts,
//! sums) and `dense_in1d` on 1-4 locales, heavy duplicates, empty inputs, fewer rows than
//! locales, keys at the ends of the range, and keys outside it (a typed error).

use atoll_array::{dist, DistArray};
use atoll_runtime::{run, Config, Ctx, Result};
use proptest::prelude::*;
use std::collections::{BTreeMap, HashSet};

fn block<T: atoll_array::Elem>(ctx: &Ctx, v: &[T]) -> Result<DistArray<T, 1>> {
    DistArray::from_fn(ctx, dist::block(ctx, [v.len()])?, |[i]| v[i as usize])
}

fn check(ctx: &Ctx, keys: &[i64], vals: &[f64], probe: &[i64], lo: i64, range: usize) -> Result<()> {
    let mut want: BTreeMap<i64, (i64, f64)> = BTreeMap::new();
    for (&k, &v) in keys.iter().zip(vals) {
        let e = want.entry(k).or_insert((0, 0.0));
        e.0 += 1;
        if !v.is_nan() {
            e.1 += v;
        }
    }
    let (k, v) = (block(ctx, keys)?, block(ctx, vals)?);
    let (uk, c, s) = atoll_ops::dense_groups(&k, Some(&v), lo, range)?;
    assert_eq!(uk.to_vec()?, want.keys().copied().collect::<Vec<_>>());
    assert_eq!(c.to_vec()?, want.values().map(|x| x.0).collect::<Vec<_>>());
    assert_eq!(s.expect("sums").to_vec()?, want.values().map(|x| x.1).collect::<Vec<_>>());
    let (uk2, c2, none) = atoll_ops::dense_groups(&k, None, lo, range)?;
    assert!(none.is_none());
    assert_eq!(uk2.to_vec()?, uk.to_vec()?);
    assert_eq!(c2.to_vec()?, c.to_vec()?);
    let set: HashSet<i64> = keys.iter().copied().collect();
    let p = block(ctx, probe)?;
    let m = atoll_ops::dense_in1d(&p, &k, lo, range)?;
    assert_eq!(m.to_vec()?, probe.iter().map(|x| set.contains(x)).collect::<Vec<_>>());
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn dense_paths_match_the_reference(
        locales in 1usize..=4,
        kv in prop::collection::vec((-5i64..20, prop_oneof![Just(f64::NAN), (-4i32..5).prop_map(f64::from)]), 0..200),
        probe in prop::collection::vec(-30i64..40, 0..100),
    ) {
        let (k, v): (Vec<i64>, Vec<f64>) = kv.into_iter().unzip();
        run(Config::local(locales), |ctx| check(ctx, &k, &v, &probe, -5, 25)).unwrap();
    }
}

#[test]
fn extremes_and_errors() {
    for locales in [1, 3, 5] {
        run(Config::local(locales), |ctx| {
            check(ctx, &[i64::MAX, i64::MAX - 2], &[1.0, 2.0], &[i64::MAX, i64::MIN, 0], i64::MAX - 3, 4)?;
            check(ctx, &[7; 30], &[0.5; 30], &[7], 7, 1)?;
            let k = block(ctx, &[1i64, 2, 50])?;
            assert!(matches!(atoll_ops::dense_groups(&k, None, 0, 10), Err(atoll_runtime::Error::InvalidArgument(_))));
            assert!(atoll_ops::dense_in1d(&k, &k, 0, 10).is_err());
            assert!(atoll_ops::dense_groups(&k, None, 0, 0).is_err());
            let short = block(ctx, &[1.0])?;
            assert!(matches!(
                atoll_ops::dense_groups(&k, Some(&short), 0, 100),
                Err(atoll_runtime::Error::ShapeMismatch { .. })
            ));
            Ok(())
        })
        .unwrap();
    }
}
