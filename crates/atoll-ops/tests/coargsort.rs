//! `coargsort`: several key arrays of mixed types and distributions, against the stable
//! sequential reference over rows of key images; typed errors on every locale.

mod common;

use atoll_array::{dist, DistArray};
use atoll_ops::{coargsort, SortColumn, SortKey, MAX_COARGSORT_KEYS};
use atoll_runtime::{run, Config, Error};
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
        let rows: Vec<Vec<u64>> = (0..100).map(|i| vec![((i + 10) % 3) as u64, ((((i * 31) % 17) as f64) - 8.0).to_ordered()]).collect();
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
