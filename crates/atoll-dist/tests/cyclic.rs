//! The Cyclic distribution against brute force, plus modulo-unrolling aggregation.

mod common;

use atoll_dist::{Cyclic, CyclicDim, DimMap, DistKind, Distribution, Domain, Error, LocaleGrid, StridedRange};
use common::*;
use proptest::prelude::*;

fn part(_d: usize, p: usize, n: usize, parts: usize) -> usize {
    cyclic_part(p, n, parts)
}

macro_rules! cyclic_props {
    ($name:ident, $d:literal, $max_len:expr, $cases:expr) => {
        proptest! {
            #![proptest_config(config($cases))]
            #[test]
            fn $name((dom, grid, subs) in dist_case::<$d>($max_len)) {
                let dist = Cyclic::new(dom, grid);
                check_distribution(&dist, part)?;
                for sub in &subs {
                    check_runs(&dist, sub, one_piece)?;
                }
                check_runs(&dist, &dom, one_piece)?;
                check_serde(&dist)?;
                // What a target owns is a strided domain, and it is what runs reports.
                for (_, t) in dist.grid().iter() {
                    let mine = dist.local_domain(t).unwrap();
                    prop_assert_eq!(mine.size(), dist.local_len(t).unwrap());
                    let listed: Vec<[i64; $d]> = mine.iter().collect();
                    let owned: Vec<[i64; $d]> = dom.iter().filter(|i| dist.owner(*i) == t).collect();
                    prop_assert_eq!(listed, owned);
                }
            }
        }
    };
}

cyclic_props!(cyclic_rank1_matches_brute_force, 1, 40, 256);
cyclic_props!(cyclic_rank2_matches_brute_force, 2, 10, 128);
cyclic_props!(cyclic_rank3_matches_brute_force, 3, 5, 96);

#[test]
fn owner_map_strided_domain() -> Result<(), Error> {
    // Positions of -5..6 by 2 (-5, -3, ..., 5) dealt to 4 targets.
    let dist = Cyclic::new(Domain::new([StridedRange::with_stride(-5, 6, 2)?])?, LocaleGrid::auto(0..4)?);
    assert_eq!(dist.owner_map(), "0 1 2 3 0 1\n");
    assert_eq!(dist.kind(), DistKind::Cyclic);
    assert_eq!(dist.local_domain(1)?.to_string(), "{-3..6 by 8}");
    Ok(())
}

#[test]
fn owner_map_3d() -> Result<(), Error> {
    let dist = Cyclic::new(Domain::from_shape([2, 2, 3])?, LocaleGrid::new(0..4, [1, 2, 2])?);
    assert_eq!(dist.owner_map(), "0 1 0\n2 3 2\n\n0 1 0\n2 3 2\n");
    Ok(())
}

/// The paper's Figure 6: Jacobi-2D on a Cyclic 8x8 array over 4 locales. Each locale's
/// iterations read, for each of the four neighbours, one strided slice of one other locale:
/// 16 aggregated gets of 9 elements instead of 144 single-element gets.
#[test]
fn jacobi_aggregation_matches_the_paper() -> Result<(), Error> {
    let dist = Cyclic::new(Domain::from_shape([8, 8])?, LocaleGrid::new(0..4, [2, 2])?);
    let loop_space = Domain::new([StridedRange::new(1, 7), StridedRange::new(1, 7)])?;
    let mut gets = Vec::new();
    for writer in 0..4 {
        let mine = dist.runs(writer, &loop_space)?;
        assert_eq!(mine.num_patches(), 1);
        let iters = mine.patches().next().unwrap().global;
        for (di, dj) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
            let [ri, rj] = *iters.dims();
            let read = Domain::new([ri.shift(di)?, rj.shift(dj)?])?;
            let sources: Vec<(usize, usize, usize)> = (0..4)
                .map(|t| {
                    let r = dist.runs(t, &read).unwrap();
                    (t, r.count(), r.num_patches())
                })
                .filter(|&(_, count, _)| count > 0)
                .collect();
            assert_eq!(sources.len(), 1, "one source locale for {read}");
            let (source, count, patches) = sources[0];
            assert_ne!(source, writer);
            assert_eq!(patches, 1);
            gets.push(count);
        }
    }
    assert_eq!(gets, vec![9; 16]);
    Ok(())
}

#[test]
fn long_strided_ranges_stay_one_piece() -> Result<(), Error> {
    let dim = CyclicDim::new(StridedRange::new(-50_000, 50_000), 6)?;
    let sub = StridedRange::with_stride(-49_997, 60_000, 4)?;
    for part in 0..6 {
        let mut pieces = Vec::new();
        dim.pieces(part, &sub, &mut pieces);
        let want = positions_in(dim.range(), &sub).into_iter().filter(|p| p % 6 == part).count();
        assert_eq!(pieces.iter().map(|p| p.len()).sum::<usize>(), want);
        assert!(pieces.len() <= 1);
        // q = 4, N = 6: only the parts of the same parity as the first position are hit,
        // each with position stride lcm(4, 6) = 12 and local stride 2.
        if let Some(p) = pieces.first() {
            assert_eq!((p.global.stride(), p.local_stride, p.sub_stride), (12, 2, 3));
        }
        assert_eq!(dim.count(part, &sub), want);
    }
    Ok(())
}

#[test]
fn extreme_values_do_not_overflow() -> Result<(), Error> {
    let r = StridedRange::new(i64::MIN, i64::MAX);
    let dist = Cyclic::new(Domain::new([r])?, LocaleGrid::auto(0..5)?);
    let total: u128 = (0..5).map(|t| dist.local_len(t).unwrap() as u128).sum();
    assert_eq!(total, r.len() as u128);
    for i in [i64::MIN, i64::MIN + 4, 0, i64::MAX - 1] {
        let p = (i as i128 - i64::MIN as i128) as u128;
        let (t, local) = dist.locate([i]);
        assert_eq!((t as u128, local as u128), (p % 5, p / 5));
        assert_eq!(dist.global_index(t, local)?, [i]);
    }
    let sub = Domain::new([StridedRange::from_parts(i64::MAX - 1000, 333, 4)?])?;
    for t in 0..5 {
        for (idx, local, pos) in dist.runs(t, &sub)?.elements() {
            assert_eq!(dist.locate(idx), (t, local));
            assert_eq!(sub.index(pos)?, idx);
        }
    }
    Ok(())
}
