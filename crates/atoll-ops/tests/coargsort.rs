//! `coargsort`: several key arrays of mixed types and distributions, against the stable
//! sequential reference over rows of key images; typed errors on every locale.

mod common;

use atoll_array::{dist, DistArray};
use atoll_ops::{coargsort, SortColumn, SortKey, MAX_COARGSORT_KEYS};
use atoll_runtime::{run, Config, Error};
use atoll_util::mix;
use common::{reference_rows, with_array, Kind, KINDS};
use proptest::prelude::*;

fn kind() -> impl Strategy<Value = Kind> {
    (0usize..3).prop_map(|k| KINDS[k])
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn two_and_three_mixed_keys_sort_lexicographically(
        locales in 1usize..=4,
        rows in prop::collection::vec((0i64..3, prop_oneof![Just(f64::NAN), Just(-0.0), Just(0.0), (-2i32..2).prop_map(f64::from)], 0u64..3), 0..120),
        kinds in (kind(), kind(), kind()),
        three in any::<bool>(),
    ) {
        let a: Vec<i64> = rows.iter().map(|r| r.0).collect();
        let b: Vec<f64> = rows.iter().map(|r| r.1).collect();
        let c: Vec<u64> = rows.iter().map(|r| r.2).collect();
        let images: Vec<Vec<u64>> = rows
            .iter()
            .map(|r| if three { vec![r.0.to_ordered(), r.1.to_ordered(), r.2] } else { vec![r.1.to_ordered(), r.0.to_ordered()] })
            .collect();
        let want = reference_rows(&images);
        run(Config::local(locales), |ctx| {
            with_array(ctx, kinds.0, &a, |ka| {
                with_array(ctx, kinds.1, &b, |kb| {
                    with_array(ctx, kinds.2, &c, |kc| {
                        let p = if three {
                            coargsort(&[ka.column(), kb.column(), kc.column()])?
                        } else {
                            coargsort(&[kb.column(), ka.column()])?
                        };
                        if let Some(v) = p.gather(0)? {
                            assert_eq!(v, want, "{locales} locales, {kinds:?}, three keys: {three}");
                        }
                        Ok(())
                    })
                })
            })
        })
        .unwrap();
    }
}

#[test]
fn one_key_is_argsort_and_views_are_columns() {
    run(Config::local(3), |ctx| {
        let n = 200;
        let a = DistArray::from_fn(ctx, dist::block_cyclic(ctx, [n], [7])?, |[i]| ((i * 31) % 17) as f64 - 8.0)?;
        let p1 = coargsort(&[&a])?;
        let p2 = atoll_ops::argsort(&a.view())?;
        assert_eq!(p1.gather(0)?, p2.gather(0)?);
        // Views of different arrays, same length.
        let b = DistArray::from_fn(ctx, dist::block(ctx, [n + 10])?, |[i]| (i % 3) as u64)?;
        let (va, vb) = (a.slice(0..100)?, b.slice(10..110)?);
        let p = atoll_ops::coargsort_positions(&[&vb as &dyn SortColumn, &va])?;
        let rows: Vec<Vec<u64>> =
            (0..100).map(|i| vec![((i + 10) % 3) as u64, ((((i * 31) % 17) as f64) - 8.0).to_ordered()]).collect();
        if let Some(v) = p.gather(0)? {
            assert_eq!(v, reference_rows(&rows));
        }
        Ok(())
    })
    .unwrap();
}

#[test]
fn bad_key_lists_are_typed_errors_on_every_locale() {
    let errors = run(Config::local(3), |ctx| {
        let a = DistArray::<i64, 1>::zeros(ctx, dist::block(ctx, [10])?)?;
        let b = DistArray::<f64, 1, atoll_array::Cyclic<1>>::zeros(ctx, dist::cyclic(ctx, [11])?)?;
        let mismatch = coargsort(&[&a as &dyn SortColumn, &b]).unwrap_err();
        assert!(matches!(&mismatch, Error::ShapeMismatch { right, .. } if right.contains("length 11")), "{mismatch}");
        let none = coargsort(&[]).unwrap_err();
        assert!(matches!(none, Error::InvalidArgument(_)), "{none}");
        let many: Vec<&dyn SortColumn> = vec![&a; MAX_COARGSORT_KEYS + 1];
        let too_many = coargsort(&many).unwrap_err();
        assert!(matches!(too_many, Error::InvalidArgument(_)), "{too_many}");
        // The job goes on: the most keys allowed work.
        let most: Vec<&dyn SortColumn> = vec![&a; MAX_COARGSORT_KEYS];
        assert_eq!(coargsort(&most)?.len(), 10);
        ctx.allgather(&mismatch.to_string())
    })
    .unwrap();
    assert!(errors.windows(2).all(|w| w[0] == w[1]), "the same error everywhere: {errors:?}");
}

/// Key rows whose varying bits fit in one word with the position (one-word records), in one
/// word without it (pairs), and not at all (rows of every key word): every path of
/// `coargsort`, with negative, extreme and NaN keys, against the sequential reference.
#[test]
fn concatenated_and_wide_key_rows_match_the_reference() {
    let n = 3000u64;
    // (first key, second key) per case: i64 and u64 columns.
    type Case = (&'static str, fn(u64) -> i64, fn(u64) -> u64);
    let cases: [Case; 5] = [
        ("narrow: 3 + 4 bits", |i| (mix(i) % 7) as i64 - 3, |i| mix(i + 7) % 16),
        ("one word with the bench's shape: 16 + 32 bits", |i| (mix(i) % (1 << 16)) as i64, |i| mix(i + 7) >> 32),
        ("pairs: 31 + 32 bits", |i| (mix(i) >> 33) as i64 - (1 << 30), |i| mix(i + 7) >> 32),
        ("wide: full-range keys", |i| mix(i) as i64, |i| [0, u64::MAX, mix(i + 7)][(i % 3) as usize]),
        (
            "extremes",
            |i| [i64::MIN, i64::MAX, -1, 0][(mix(i) % 4) as usize],
            |i| [0, u64::MAX][(mix(i + 1) % 2) as usize],
        ),
    ];
    for (what, fa, fb) in cases {
        let a: Vec<i64> = (0..n).map(fa).collect();
        let b: Vec<u64> = (0..n).map(fb).collect();
        let f: Vec<f64> =
            (0..n).map(|i| [f64::NAN, -0.0, 0.0, -1.5, f64::INFINITY][(mix(i + 3) % 5) as usize]).collect();
        let rows: Vec<Vec<u64>> = (0..n as usize).map(|i| vec![a[i].to_ordered(), b[i]]).collect();
        let want = reference_rows(&rows);
        let rows3: Vec<Vec<u64>> = (0..n as usize).map(|i| vec![b[i], f[i].to_ordered(), a[i].to_ordered()]).collect();
        let want3 = reference_rows(&rows3);
        for locales in 1..=4 {
            run(Config::local(locales), |ctx| {
                let ka = DistArray::from_fn(ctx, dist::cyclic(ctx, [n as usize])?, |[i]| a[i as usize])?;
                let kb = DistArray::from_fn(ctx, dist::block(ctx, [n as usize])?, |[i]| b[i as usize])?;
                let kf = DistArray::from_fn(ctx, dist::block(ctx, [n as usize])?, |[i]| f[i as usize])?;
                let p = coargsort(&[&ka as &dyn SortColumn, &kb])?;
                let p3 = coargsort(&[&kb as &dyn SortColumn, &kf, &ka])?;
                if let (Some(v), Some(v3)) = (p.gather(0)?, p3.gather(0)?) {
                    assert_eq!(v, want, "{what}, {locales} locales");
                    assert_eq!(v3, want3, "{what} with a float key, {locales} locales");
                }
                Ok(())
            })
            .unwrap();
        }
    }
}
