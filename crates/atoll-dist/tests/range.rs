//! StridedRange against brute force: membership, positions, iteration, intersection,
//! sub-ranges by positions, overflow checks.

mod common;

use std::collections::HashSet;

use atoll_dist::{Error, StridedRange};
use common::*;
use proptest::prelude::*;

fn brute(lo: i64, hi: i64, stride: u64) -> Vec<i64> {
    (lo..hi).step_by(stride as usize).collect()
}

fn elems(r: &StridedRange) -> Vec<i64> {
    r.iter().collect()
}

/// Ranges anywhere in i64 with any stride, as long as they are valid.
fn wide_range() -> impl Strategy<Value = StridedRange> {
    (any::<i64>(), prop_oneof![1u64..10, any::<u64>().prop_map(|s| s.max(1))], 0usize..6)
        .prop_filter_map("overflows", |(first, stride, len)| StridedRange::from_parts(first, stride, len).ok())
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn matches_brute_force(lo in -40i64..40, span in -5i64..60, stride in 1u64..=6) {
        let hi = lo + span;
        let r = StridedRange::with_stride(lo, hi, stride).unwrap();
        let want = brute(lo, hi, stride);
        prop_assert_eq!(elems(&r), want.clone());
        prop_assert_eq!(r.len(), want.len());
        prop_assert_eq!(r.is_empty(), want.is_empty());
        prop_assert_eq!(r.first(), want.first().copied());
        prop_assert_eq!(r.last(), want.last().copied());
        prop_assert_eq!(r.hi(), want.last().map_or(r.lo(), |l| l + 1));
        prop_assert_eq!(r.iter().rev().collect::<Vec<_>>(), want.iter().rev().copied().collect::<Vec<_>>());
        prop_assert_eq!(r.iter().len(), want.len());
        for i in lo - 10..hi + 10 {
            let pos = want.iter().position(|&x| x == i);
            prop_assert_eq!(r.contains(i), pos.is_some());
            prop_assert_eq!(r.position(i), pos);
        }
        for (k, &x) in want.iter().enumerate() {
            prop_assert_eq!(r.nth(k), Some(x));
            prop_assert_eq!(r.iter().nth(k), Some(x));
        }
        prop_assert_eq!(r.nth(want.len()), None);
        // Display round trip through the constructor.
        let text = r.to_string();
        let rebuilt = {
            let (bounds, by) = text.split_once(" by ").map_or((text.as_str(), 1), |(b, s)| (b, s.parse().unwrap()));
            let (a, b) = bounds.split_once("..").unwrap();
            StridedRange::with_stride(a.parse().unwrap(), b.parse().unwrap(), by).unwrap()
        };
        prop_assert_eq!(rebuilt, r);
        check_serde(&r)?;
    }

    #[test]
    fn by_keeps_every_kth(r in range_strategy(30), k in 1u64..=6) {
        let s = r.by(k).unwrap();
        let want: Vec<i64> = r.iter().step_by(k as usize).collect();
        prop_assert_eq!(elems(&s), want);
        prop_assert!(s.is_subset_of(&r));
    }

    #[test]
    fn intersection_matches_brute_force(a in range_strategy(25), b in range_strategy(25)) {
        let c = a.intersect(&b);
        let eb: HashSet<i64> = b.iter().collect();
        let want: Vec<i64> = a.iter().filter(|x| eb.contains(x)).collect();
        prop_assert_eq!(elems(&c), want.clone());
        prop_assert_eq!(b.intersect(&a), c);
        if want.len() >= 2 {
            let lcm = a.stride() / gcd(a.stride() as usize, b.stride() as usize) as u64 * b.stride();
            prop_assert_eq!(c.stride(), lcm);
        }
        prop_assert!(c.is_subset_of(&a) && c.is_subset_of(&b));
    }

    #[test]
    fn intersection_of_wide_ranges(a in wide_range(), b in wide_range(), shift in 0usize..3) {
        // Make overlaps likely: start b at an element of a.
        let b = match a.nth(shift) {
            Some(x) => StridedRange::from_parts(x, b.stride(), b.len()).unwrap_or(b),
            None => b,
        };
        let eb: HashSet<i64> = b.iter().collect();
        let want: Vec<i64> = a.iter().filter(|x| eb.contains(x)).collect();
        prop_assert_eq!(elems(&a.intersect(&b)), want);
    }

    #[test]
    fn subset_matches_brute_force(a in range_strategy(12), b in range_strategy(25)) {
        let eb: HashSet<i64> = b.iter().collect();
        prop_assert_eq!(a.is_subset_of(&b), a.iter().all(|x| eb.contains(&x)));
    }

    #[test]
    fn positions_round_trip(r in range_strategy(30), p0 in 0i64..12, q in 1u64..=5, n in 0usize..8) {
        let positions = StridedRange::from_parts(p0, q, n).unwrap();
        let inside = positions.iter().all(|p| (p as usize) < r.len());
        match r.slice_positions(&positions) {
            Ok(sub) => {
                prop_assert!(inside);
                let want: Vec<i64> = positions.iter().map(|p| r.nth(p as usize).unwrap()).collect();
                prop_assert_eq!(elems(&sub), want);
                prop_assert!(sub.is_subset_of(&r));
                prop_assert_eq!(r.positions_of(&sub).unwrap(), positions);
            }
            Err(e) => {
                prop_assert!(!inside);
                let is_bounds_error = matches!(e, Error::IndexOutOfBounds { .. });
                prop_assert!(is_bounds_error);
            }
        }
    }

    #[test]
    fn positions_of_non_subsets_fail(r in range_strategy(20), sub in range_strategy(20)) {
        prop_assert_eq!(r.positions_of(&sub).is_ok(), sub.is_subset_of(&r));
    }

    #[test]
    fn from_parts_checks_overflow(first in any::<i64>(), stride in 1u64..u64::MAX, len in 0usize..5) {
        let last = first as i128 + (len as i128 - 1).max(0) * stride as i128;
        let ok = len == 0 || last < i64::MAX as i128;
        let r = StridedRange::from_parts(first, stride, len);
        prop_assert_eq!(r.is_ok(), ok);
        if let Ok(r) = r {
            let want: Vec<i64> = (0..len as i128).map(|k| (first as i128 + k * stride as i128) as i64).collect();
            prop_assert_eq!(elems(&r), want);
            check_serde(&r)?;
        }
    }

    #[test]
    fn shift_moves_every_index(r in wide_range(), offset in any::<i64>()) {
        match r.shift(offset) {
            Ok(s) => {
                let want: Vec<i64> = r.iter().map(|i| i + offset).collect();
                prop_assert_eq!(elems(&s), want);
            }
            Err(_) => {
                let fits = r.iter().all(|i| i.checked_add(offset).is_some_and(|x| x < i64::MAX))
                    && r.lo().checked_add(offset).is_some();
                prop_assert!(!fits);
            }
        }
    }
}

#[test]
fn errors_for_bad_input() {
    assert!(matches!(StridedRange::with_stride(0, 10, 0), Err(Error::InvalidArgument(_))));
    assert!(StridedRange::new(0, 10).by(0).is_err());
    assert!(StridedRange::from_parts(0, 0, 3).is_err());
    assert!(StridedRange::from_parts(i64::MAX, 1, 1).is_err());
    assert!(StridedRange::from_parts(i64::MAX - 1, 1, 1).is_ok());
    let bad = r#"{"first":9223372036854775800,"stride":5,"len":3}"#;
    assert!(serde_json::from_str::<StridedRange>(bad).is_err());
    let zero = r#"{"first":0,"stride":0,"len":3}"#;
    assert!(serde_json::from_str::<StridedRange>(zero).is_err());
}

#[test]
fn extremes() {
    let all = StridedRange::new(i64::MIN, i64::MAX);
    assert_eq!(all.len() as u128, (1u128 << 64) - 1);
    assert_eq!(all.last(), Some(i64::MAX - 1));
    assert_eq!(all.position(i64::MAX - 1), Some(usize::MAX - 1));
    assert_eq!(all.nth(usize::MAX - 1), Some(i64::MAX - 1));
    assert_eq!(all.iter().next_back(), Some(i64::MAX - 1));
    let evens = all.by(2).unwrap();
    assert_eq!((evens.first(), evens.last()), (Some(i64::MIN), Some(i64::MAX - 1)));
    let threes = StridedRange::with_stride(i64::MIN + 1, i64::MAX, 3).unwrap();
    let both = evens.intersect(&threes);
    assert_eq!(both.stride(), 6);
    assert_eq!(both.first(), Some(i64::MIN + 4));
    // Positions beyond i64 cannot be expressed as a range of positions.
    assert!(all.positions_of(&StridedRange::from_parts(i64::MAX - 3, 1, 2).unwrap()).is_err());
    assert!(all.positions_of(&StridedRange::from_parts(-3, 1, 2).unwrap()).is_ok());
}

#[test]
fn equality_is_by_sequence() {
    assert_eq!(StridedRange::new(3, 3), StridedRange::new(-7, -9));
    assert_eq!(StridedRange::with_stride(0, 10, 3).unwrap(), StridedRange::with_stride(0, 12, 3).unwrap());
    assert_eq!(StridedRange::with_stride(5, 6, 9).unwrap(), StridedRange::new(5, 6));
    assert_ne!(StridedRange::with_stride(0, 10, 3).unwrap(), StridedRange::with_stride(0, 10, 2).unwrap());
    let set: HashSet<StridedRange> = [
        StridedRange::new(3, 3),
        StridedRange::new(1, 0),
        StridedRange::with_stride(5, 6, 9).unwrap(),
        StridedRange::new(5, 6),
    ]
    .into_iter()
    .collect();
    assert_eq!(set.len(), 2);
    assert_eq!(StridedRange::default(), StridedRange::empty());
    assert_eq!(StridedRange::from(2..5), StridedRange::new(2, 5));
    assert_eq!(StridedRange::with_stride(-4, 10, 3).unwrap().to_string(), "-4..9 by 3");
    assert_eq!(StridedRange::new(4, 1).to_string(), "4..4");
}
