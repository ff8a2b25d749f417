//! Domain against brute force: shape, positions, row-major order, intersection, slicing.

mod common;

use std::collections::HashSet;

use atoll_dist::{Domain, Error, StridedRange};
use common::*;
use proptest::prelude::*;

/// The row-major product of the ranges, by brute force.
fn brute<const D: usize>(dom: &Domain<D>) -> Vec<[i64; D]> {
    let mut out: Vec<Vec<i64>> = vec![Vec::new()];
    for r in dom.dims() {
        out = out.into_iter().flat_map(|prefix| r.iter().map(move |i| [prefix.clone(), vec![i]].concat())).collect();
    }
    out.into_iter().map(|v| v.try_into().unwrap()).collect()
}

macro_rules! domain_props {
    ($name:ident, $d:literal, $max_len:expr) => {
        proptest! {
            #![proptest_config(config(96))]
            #[test]
            fn $name(dom in domain_strategy::<$d>($max_len), other in domain_strategy::<$d>($max_len)) {
                let all = brute(&dom);
                prop_assert_eq!(dom.iter().collect::<Vec<_>>(), all.clone());
                prop_assert_eq!(dom.iter().len(), all.len());
                prop_assert_eq!(dom.size(), all.len());
                prop_assert_eq!(dom.shape().iter().product::<usize>(), all.len());
                prop_assert_eq!(dom.rank(), $d);
                for (k, idx) in all.iter().enumerate() {
                    prop_assert!(dom.contains(*idx));
                    prop_assert_eq!(dom.position(*idx), Ok(k));
                    prop_assert_eq!(dom.index(k), Ok(*idx));
                    let pos = dom.positions(*idx).unwrap();
                    let strides = dom.row_major_strides();
                    prop_assert_eq!(pos.iter().zip(&strides).map(|(p, s)| p * s).sum::<usize>(), k);
                }
                let is_bounds_error = matches!(dom.index(all.len()), Err(Error::IndexOutOfBounds { .. }));
                prop_assert!(is_bounds_error);
                // Intersection and subsets.
                let set: HashSet<[i64; $d]> = brute(&other).into_iter().collect();
                let common: Vec<[i64; $d]> = all.iter().copied().filter(|i| set.contains(i)).collect();
                prop_assert_eq!(dom.intersect(&other).iter().collect::<Vec<_>>(), common);
                let inter = dom.intersect(&other);
                prop_assert!(inter.is_subset_of(&dom));
                prop_assert_eq!(dom.slice(&inter), Ok(inter));
                // Views of views: positions and back.
                let positions = dom.positions_of(&inter).unwrap();
                prop_assert_eq!(dom.slice_positions(&positions), Ok(inter));
                match dom.slice(&other) {
                    Ok(s) => prop_assert!(other.is_subset_of(&dom) && s == other),
                    Err(Error::IndexOutOfBounds { index, bounds }) => {
                        prop_assert!(!other.is_subset_of(&dom));
                        prop_assert_eq!(index, other.to_string());
                        prop_assert_eq!(bounds, dom.to_string());
                    }
                    Err(e) => prop_assert!(false, "unexpected error {}", e),
                }
                // Membership of nearby indices.
                for idx in brute(&Domain::new(dom.dims().map(|r| StridedRange::new(r.lo() - 2, r.hi() + 2))).unwrap()) {
                    prop_assert_eq!(dom.contains(idx), all.contains(&idx));
                    prop_assert_eq!(dom.ensure_contains(idx).is_ok(), all.contains(&idx));
                }
                check_serde(&dom)?;
            }
        }
    };
}

domain_props!(domain_rank1_matches_brute_force, 1, 30);
domain_props!(domain_rank2_matches_brute_force, 2, 8);
domain_props!(domain_rank3_matches_brute_force, 3, 5);

#[test]
fn rank_is_checked() {
    let r = StridedRange::new(0, 2);
    assert!(matches!(Domain::<0>::new([]), Err(Error::InvalidArgument(_))));
    assert!(matches!(Domain::new([r; 4]), Err(Error::InvalidArgument(_))));
    assert!(Domain::<4>::from_shape([1; 4]).is_err());
    assert!(Domain::new([r; 3]).is_ok());
    let text = serde_json::to_string(&Domain::new([r; 2]).unwrap()).unwrap();
    assert!(serde_json::from_str::<Domain<3>>(&text).is_err());
    assert!(serde_json::from_str::<Domain<2>>(&text).is_ok());
}

#[test]
fn size_overflow_is_an_error() {
    let big = StridedRange::new(i64::MIN, i64::MAX);
    assert!(matches!(Domain::new([big, StridedRange::new(0, 2)]), Err(Error::InvalidArgument(_))));
    // An empty dimension makes the domain empty, whatever the others.
    let dom = Domain::new([big, StridedRange::new(0, 0), big]).unwrap();
    assert_eq!(dom.size(), 0);
    assert_eq!(dom.iter().count(), 0);
    assert!(Domain::from_shape([usize::MAX]).is_err());
}

#[test]
fn slicing_names_the_bounds() {
    let dom = Domain::from_shape([4, 5]).unwrap();
    let sub = Domain::new([StridedRange::new(1, 3), StridedRange::with_stride(0, 9, 4).unwrap()]).unwrap();
    assert_eq!(
        dom.slice(&sub),
        Err(Error::IndexOutOfBounds { index: "{1..3, 0..9 by 4}".into(), bounds: "{0..4, 0..5}".into() })
    );
    assert_eq!(
        dom.position([4, 0]),
        Err(Error::IndexOutOfBounds { index: "[4, 0]".into(), bounds: "{0..4, 0..5}".into() })
    );
    let positions = Domain::new([StridedRange::new(0, 2), StridedRange::new(3, 6)]).unwrap();
    assert!(matches!(dom.slice_positions(&positions), Err(Error::IndexOutOfBounds { .. })));
}
