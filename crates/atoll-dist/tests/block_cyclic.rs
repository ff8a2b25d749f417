//! The BlockCyclic distribution against brute force, and its piece-count bounds.

mod common;

use atoll_dist::{
    BlockCyclic, BlockCyclicDim, Cyclic, DimMap, DistKind, Distribution, Domain, Error, LocaleGrid, StridedRange,
};
use common::*;
use proptest::prelude::*;

/// The piece-count bound: min(ceil(B / gcd(q, B*N)), m).
fn bound(block: usize, parts: usize, m: usize, q: usize) -> usize {
    block.div_ceil(gcd(q, block * parts)).min(m)
}

macro_rules! block_cyclic_props {
    ($name:ident, $d:literal, $max_len:expr, $cases:expr) => {
        proptest! {
            #![proptest_config(config($cases))]
            #[test]
            fn $name(
                (dom, grid, subs) in dist_case::<$d>($max_len),
                block in proptest::array::uniform::<_, $d>(1usize..=7),
            ) {
                let dist = BlockCyclic::new(dom, grid.clone(), block).unwrap();
                prop_assert_eq!(dist.block(), block);
                check_distribution(&dist, |d, p, _n, parts| block_cyclic_part(p, block[d], parts))?;
                let gshape = grid.shape();
                let max = |d: usize, m: usize, q: usize| bound(block[d], gshape[d], m, q);
                for sub in &subs {
                    check_runs(&dist, sub, max)?;
                }
                check_runs(&dist, &dom, max)?;
                check_serde(&dist)?;
            }
        }
    };
}

block_cyclic_props!(block_cyclic_rank1_matches_brute_force, 1, 40, 384);
block_cyclic_props!(block_cyclic_rank2_matches_brute_force, 2, 12, 160);
block_cyclic_props!(block_cyclic_rank3_matches_brute_force, 3, 6, 96);

proptest! {
    #![proptest_config(config(64))]

    /// Long ranges: pieces are checked element by element against the formula, and their
    /// number is bounded by the block size, not by the length.
    #[test]
    fn long_ranges_have_few_pieces(
        lo in -1000i64..1000,
        stride in 1u64..=3,
        n in 500usize..3000,
        parts in 1usize..=5,
        block in 1usize..=7,
        sub_off in 0i64..50,
        sub_stride in 1u64..=40,
    ) {
        let range = StridedRange::from_parts(lo, stride, n).unwrap();
        let dim = BlockCyclicDim::new(range, parts, block).unwrap();
        let sub = StridedRange::with_stride(lo + sub_off, range.hi() + 100, sub_stride).unwrap();
        let pos = positions_in(&range, &sub);
        let q = if pos.len() >= 2 { pos[1] - pos[0] } else { 1 };
        for part in 0..parts {
            let mut pieces = Vec::new();
            dim.pieces(part, &sub, &mut pieces);
            prop_assert!(pieces.len() <= bound(block, parts, pos.len(), q));
            let mut got = Vec::new();
            for p in &pieces {
                for (i, local, s) in p.iter() {
                    got.push((i, local, s));
                }
            }
            got.sort_unstable();
            let want: Vec<(i64, usize, usize)> = sub
                .iter()
                .enumerate()
                .filter_map(|(s, i)| range.position(i).map(|p| (i, p, s)))
                .filter(|&(_, p, _)| (p / block) % parts == part)
                .map(|(i, p, s)| (i, (p / (block * parts)) * block + p % block, s))
                .collect();
            prop_assert_eq!(got, want);
        }
    }

    /// BlockCyclic with blocks of 1 is Cyclic.
    #[test]
    fn block_one_is_cyclic((dom, grid, subs) in dist_case::<2>(10)) {
        let bc = BlockCyclic::new(dom, grid.clone(), [1, 1]).unwrap();
        let cyc = Cyclic::new(dom, grid);
        for idx in dom.iter() {
            prop_assert_eq!(bc.locate(idx), cyc.locate(idx));
        }
        for sub in &subs {
            for &t in cyc.grid().targets() {
                prop_assert_eq!(bc.count(t, sub), cyc.count(t, sub));
            }
        }
    }
}

#[test]
fn owner_map_uneven_blocks() -> Result<(), Error> {
    // 3x3 blocks over a 2x2 grid on a 7x7 domain.
    let dist = BlockCyclic::new(Domain::from_shape([7, 7])?, LocaleGrid::new(0..4, [2, 2])?, [3, 3])?;
    assert_eq!(
        dist.owner_map(),
        "\
0 0 0 1 1 1 0
0 0 0 1 1 1 0
0 0 0 1 1 1 0
2 2 2 3 3 3 2
2 2 2 3 3 3 2
2 2 2 3 3 3 2
0 0 0 1 1 1 0
"
    );
    assert_eq!(dist.kind(), DistKind::BlockCyclic);
    assert_eq!(dist.local_shape(0)?, [4, 4]);
    assert_eq!(dist.local_shape(3)?, [3, 3]);
    Ok(())
}

#[test]
fn block_size_zero_is_an_error() -> Result<(), Error> {
    let dom = Domain::from_shape([4, 4])?;
    let err = BlockCyclic::new(dom, LocaleGrid::auto(0..4)?, [0, 2]).unwrap_err();
    assert!(matches!(err, Error::InvalidArgument(ref m) if m.contains("[0, 2]")), "{err}");
    assert!(BlockCyclicDim::new(StridedRange::new(0, 4), 2, 0).is_err());
    assert!(BlockCyclicDim::new(StridedRange::new(0, 4), 0, 2).is_err());
    let bad =
        r#"{"domain":{"dims":[{"first":0,"stride":1,"len":8}]},"grid":{"targets":[0,1],"shape":[2]},"block":[0]}"#;
    assert!(serde_json::from_str::<BlockCyclic<1>>(bad).is_err());
    Ok(())
}

#[test]
fn unit_stride_inside_one_block_is_one_piece() -> Result<(), Error> {
    let dim = BlockCyclicDim::new(StridedRange::new(0, 100_000), 4, 1000)?;
    let mut pieces = Vec::new();
    dim.pieces(2, &StridedRange::new(2100, 2900), &mut pieces);
    assert_eq!(pieces.len(), 1);
    let p = pieces[0];
    assert_eq!((p.global, p.local_start, p.local_stride, p.sub_start), (StridedRange::new(2100, 2900), 100, 1, 0));
    // Spanning two owned blocks (cycle 4000): one piece per block.
    pieces.clear();
    dim.pieces(2, &StridedRange::new(2500, 6800), &mut pieces);
    assert_eq!(pieces.len(), 2);
    assert_eq!((pieces[0].global, pieces[0].local_start), (StridedRange::new(2500, 3000), 500));
    assert_eq!((pieces[1].global, pieces[1].local_start), (StridedRange::new(6000, 6800), 1000));
    Ok(())
}

#[test]
fn residue_classes_follow_the_lcm_period() -> Result<(), Error> {
    // B = 4, N = 3 (cycle 12), sub stride 3 over 0..120: gcd(3, 12) = 3, period 4,
    // lcm(3, 12) = 12. Part 1 owns the window 4..8 of each cycle: residues 6 only (≡ 0 mod 3),
    // so a single piece 6, 18, 30, ... with local stride 12 / 3 = 4.
    let dim = BlockCyclicDim::new(StridedRange::new(0, 120), 3, 4)?;
    let mut pieces = Vec::new();
    dim.pieces(1, &StridedRange::with_stride(0, 120, 3)?, &mut pieces);
    assert_eq!(pieces.len(), 1);
    let p = pieces[0];
    assert_eq!(p.global, StridedRange::with_stride(6, 120, 12)?);
    assert_eq!((p.local_start, p.local_stride, p.sub_start, p.sub_stride), (2, 4, 2, 4));
    // Part 0 (window 0..4): residues 0 and 3.
    pieces.clear();
    dim.pieces(0, &StridedRange::with_stride(0, 120, 3)?, &mut pieces);
    let firsts: Vec<Option<i64>> = pieces.iter().map(|p| p.global.first()).collect();
    assert_eq!(firsts, [Some(0), Some(3)]);
    Ok(())
}

#[test]
fn huge_blocks_and_ranges_do_not_overflow() -> Result<(), Error> {
    // Block size beyond the range: everything on the first grid coordinate.
    let dist = BlockCyclic::new(Domain::from_shape([10])?, LocaleGrid::auto(0..3)?, [usize::MAX])?;
    assert_eq!(dist.owner_map(), "0 0 0 0 0 0 0 0 0 0\n");
    assert_eq!((dist.local_len(0)?, dist.local_len(1)?), (10, 0));
    assert_eq!(dist.global_index(0, 9)?, [9]);
    // The full i64 range with a cycle beyond 2^64.
    let r = StridedRange::new(i64::MIN, i64::MAX);
    for block in [1usize << 40, 1 << 62, usize::MAX / 2, 7] {
        let dist = BlockCyclic::new(Domain::new([r])?, LocaleGrid::auto(0..5)?, [block])?;
        let total: u128 = (0..5).map(|t| dist.local_len(t).unwrap() as u128).sum();
        assert_eq!(total, r.len() as u128, "block {block}");
        for i in [i64::MIN, -1, 0, i64::MAX / 2, i64::MAX - 1] {
            let p = (i as i128 - i64::MIN as i128) as u128;
            let (b, n) = (block as u128, 5u128);
            let (t, local) = dist.locate([i]);
            assert_eq!(t as u128, (p / b) % n);
            assert_eq!(local as u128, p / (b * n) * b + p % b);
            assert_eq!(dist.global_index(t, local)?, [i]);
        }
        for sub in [
            StridedRange::from_parts(i64::MAX - 100, 9, 11)?,
            StridedRange::from_parts(i64::MIN, 1 << 60, 15)?,
            StridedRange::from_parts(-3, 3, 40)?,
        ] {
            let sub = Domain::new([sub])?;
            let mut total = 0;
            for t in 0..5 {
                for (idx, local, pos) in dist.runs(t, &sub)?.elements() {
                    assert_eq!(dist.locate(idx), (t, local));
                    assert_eq!(sub.index(pos)?, idx);
                    total += 1;
                }
            }
            assert_eq!(total, sub.size());
        }
    }
    Ok(())
}

#[test]
fn sublocale_grid() -> Result<(), Error> {
    // The 4 sublocales of locale 3, numbered 3 * 16 + s, in a 2x2 grid.
    let subs: Vec<usize> = (0..4).map(|s| 3 * 16 + s).collect();
    let dist = BlockCyclic::new(Domain::from_shape([4, 6])?, LocaleGrid::auto(subs)?, [1, 2])?;
    assert_eq!(
        dist.owner_map(),
        "\
48 48 49 49 48 48
50 50 51 51 50 50
48 48 49 49 48 48
50 50 51 51 50 50
"
    );
    assert_eq!(dist.local_len(49)?, 4);
    assert!(dist.local_len(3).is_err());
    Ok(())
}
