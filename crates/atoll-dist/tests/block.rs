//! The Block distribution against brute force, plus its edge cases.

mod common;

use atoll_dist::{Block, DimMap, DistKind, Distribution, Domain, Error, LocaleGrid, StridedRange};
use common::*;
use proptest::prelude::*;

fn part(_d: usize, p: usize, n: usize, parts: usize) -> usize {
    block_part(p, n, parts)
}

macro_rules! block_props {
    ($name:ident, $d:literal, $max_len:expr, $cases:expr) => {
        proptest! {
            #![proptest_config(config($cases))]
            #[test]
            fn $name((dom, grid, subs) in dist_case::<$d>($max_len)) {
                let dist = Block::new(dom, grid);
                check_distribution(&dist, part)?;
                for sub in &subs {
                    check_runs(&dist, sub, one_piece)?;
                }
                check_runs(&dist, &dom, one_piece)?;
                check_serde(&dist)?;
                // The owned sub-domain is a box: exactly the runs of the whole domain.
                for (_, t) in dist.grid().iter() {
                    let mine = dist.local_domain(t).unwrap();
                    prop_assert_eq!(mine.size(), dist.local_len(t).unwrap());
                    for idx in mine.iter() {
                        prop_assert_eq!(dist.owner(idx), t);
                    }
                }
            }
        }
    };
}

block_props!(block_rank1_matches_brute_force, 1, 40, 256);
block_props!(block_rank2_matches_brute_force, 2, 10, 128);
block_props!(block_rank3_matches_brute_force, 3, 5, 96);

#[test]
fn owner_map_1d_uneven() -> Result<(), Error> {
    // floor(p * 4 / 10) for p = 0..10.
    let dist = Block::new(Domain::from_shape([10])?, LocaleGrid::auto(0..4)?);
    assert_eq!(dist.owner_map(), "0 0 0 1 1 2 2 2 3 3\n");
    assert_eq!(dist.kind(), DistKind::Block);
    assert_eq!(dist.kind().to_string(), "Block");
    Ok(())
}

#[test]
fn more_targets_than_elements() -> Result<(), Error> {
    // floor(p * 5 / 3): 0, 1, 3; targets 2 and 4 own nothing.
    let dist = Block::new(Domain::new([StridedRange::with_stride(-7, 2, 3)?])?, LocaleGrid::auto(0..5)?);
    assert_eq!(dist.owner_map(), "0 1 3\n");
    let lens: Vec<usize> = (0..5).map(|t| dist.local_len(t)).collect::<Result<_, _>>()?;
    assert_eq!(lens, [1, 1, 0, 1, 0]);
    assert!(dist.runs(2, dist.domain())?.is_empty());
    assert!(dist.local_domain(4)?.is_empty());
    assert!(dist.global_index(2, 0).is_err());
    Ok(())
}

#[test]
fn empty_domain() -> Result<(), Error> {
    let dist = Block::new(Domain::new([StridedRange::new(5, 5), StridedRange::new(0, 4)])?, LocaleGrid::auto(0..4)?);
    assert_eq!(dist.owner_map(), "");
    for t in 0..4 {
        assert_eq!(dist.local_len(t)?, 0);
    }
    assert!(dist.checked_owner([5, 0]).is_err());
    assert!(dist.dist_is_total());
    Ok(())
}

trait Total {
    fn dist_is_total(&self) -> bool;
}

impl<M: Distribution<2>> Total for M {
    /// Owner and locate never panic, even on an empty domain.
    fn dist_is_total(&self) -> bool {
        [[i64::MIN, i64::MIN], [0, 0], [i64::MAX, -3]]
            .iter()
            .all(|&idx| self.grid().contains(self.owner(idx)) && self.grid().contains(self.locate(idx).0))
    }
}

#[test]
fn sublocale_targets_keep_their_ids() -> Result<(), Error> {
    // Targets are just ids: here three sublocales with scattered ids, in a chosen order.
    let dist = Block::new(Domain::from_shape([2, 6])?, LocaleGrid::new([17, 4, 9], [1, 3])?);
    assert_eq!(dist.owner_map(), "17 17  4  4  9  9\n17 17  4  4  9  9\n");
    assert_eq!(dist.owner([1, 3]), 4);
    assert_eq!(dist.local_len(9)?, 4);
    assert_eq!(
        dist.local_len(0),
        Err(atoll_dist::Error::InvalidArgument("target 0 is not in the locale grid of targets [17, 4, 9]".into()))
    );
    Ok(())
}

#[test]
fn full_i64_range_does_not_overflow() -> Result<(), Error> {
    // 2^64 - 1 indices over 3 targets: the formula needs 128-bit intermediates.
    let r = StridedRange::new(i64::MIN, i64::MAX);
    let n = r.len() as u128;
    let dist = Block::new(Domain::new([r])?, LocaleGrid::auto(0..3)?);
    let total: u128 = (0..3).map(|t| dist.local_len(t).unwrap() as u128).sum();
    assert_eq!(total, n);
    for i in [i64::MIN, i64::MIN + 1, -1, 0, 1, i64::MAX / 3, i64::MAX - 2, i64::MAX - 1] {
        let p = (i as i128 - i64::MIN as i128) as u128;
        let want = (p * 3 / n) as usize;
        let (t, local) = dist.checked_locate([i])?;
        assert_eq!(t, want, "owner of {i}");
        assert_eq!(dist.global_index(t, local)?, [i]);
    }
    assert!(dist.checked_owner([i64::MAX]).is_err());
    // A small strided window at the top, compared with brute force.
    let sub = Domain::new([StridedRange::with_stride(i64::MAX - 40, i64::MAX, 7)?])?;
    for t in 0..3 {
        let runs = dist.runs(t, &sub)?;
        let want: Vec<i64> = sub.iter().map(|[i]| i).filter(|&i| dist.owner([i]) == t).collect();
        let got: Vec<i64> = runs.elements().map(|(idx, _, _)| idx[0]).collect();
        assert_eq!(got, want);
        for (idx, local, _) in runs.elements() {
            assert_eq!(dist.local_index(idx), local);
        }
    }
    Ok(())
}

#[test]
fn huge_strides_and_negative_bases() -> Result<(), Error> {
    let r = StridedRange::from_parts(i64::MIN + 5, 1 << 61, 7)?;
    let dist = Block::new(Domain::new([r, StridedRange::with_stride(-9, -1, 2)?])?, LocaleGrid::auto(0..4)?);
    let mut seen = [0usize; 4];
    for idx in dist.domain().iter() {
        let (t, local) = dist.checked_locate(idx)?;
        assert_eq!(local, seen[t]);
        seen[t] += 1;
        assert_eq!(dist.global_index(t, local)?, idx);
    }
    assert_eq!(seen.iter().sum::<usize>(), 28);
    Ok(())
}

#[test]
fn dimension_maps_split_each_dimension() -> Result<(), Error> {
    let dist = Block::new(Domain::from_shape([8, 8])?, LocaleGrid::auto(0..6)?);
    let rows = dist.dimension_map(0)?;
    let cols = dist.dimension_map(1)?;
    assert_eq!((rows.parts(), cols.parts()), (3, 2));
    assert_eq!((rows.bounds(0), rows.bounds(1), rows.bounds(2)), (0..3, 3..6, 6..8));
    assert_eq!(rows.bounds(3), 8..8);
    assert_eq!(cols.locate_index(5), Some((1, 1)));
    assert_eq!(cols.locate_index(8), None);
    assert!(atoll_dist::BlockDim::new(StridedRange::new(0, 4), 0).is_err());
    Ok(())
}

#[test]
fn deserialization_validates() {
    let bad = r#"{"domain":{"dims":[{"first":0,"stride":1,"len":8}]},"grid":{"targets":[0,1,2],"shape":[2]}}"#;
    assert!(serde_json::from_str::<Block<1>>(bad).is_err());
    let wrong_rank = r#"{"domain":{"dims":[{"first":0,"stride":1,"len":8}]},"grid":{"targets":[0,1],"shape":[2]}}"#;
    assert!(serde_json::from_str::<Block<2>>(wrong_rank).is_err());
    assert!(serde_json::from_str::<Block<1>>(wrong_rank).is_ok());
}
