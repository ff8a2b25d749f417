//! [`SublocaleBlock`]: the owner formula against a sequential enumeration of every index.

use atoll_dist::{Block, Distribution, Domain, Error, LocaleGrid, SublocaleBlock};
use proptest::prelude::*;

/// The (locale, sublocale) of every index, computed sequentially from the definition: walk each
/// locale's block in row-major order and hand its rows out in `counts[l]` runs with the
/// boundaries `ceil(s*m/S)`, found by scanning (independent of `SublocaleBlock`'s code).
fn reference<const D: usize>(block: &Block<D>, counts: &[usize]) -> Vec<([i64; D], usize, usize)> {
    let mut out = Vec::new();
    for &l in block.grid().targets() {
        let mine = block.local_domain(l).unwrap();
        let m = mine.shape()[0];
        let s_count = counts[l];
        let row_len: usize = mine.shape()[1..].iter().product();
        for (k, idx) in mine.iter().enumerate() {
            let q = k / row_len.max(1);
            // The smallest s with q < ceil((s+1) m / S), by scanning.
            let s = (0..s_count).find(|&s| q < ((s + 1) * m).div_ceil(s_count)).unwrap();
            out.push((idx, l, s));
        }
    }
    out
}

fn check<const D: usize>(shape: [usize; D], locales: usize, counts: Vec<usize>) -> Result<(), Error> {
    let block = Block::new(Domain::from_shape(shape)?, LocaleGrid::auto(0..locales)?);
    let sb = SublocaleBlock::new(block.clone(), counts.clone())?;
    let want = reference(&block, &counts);
    assert_eq!(want.len(), block.domain().size());
    for (idx, l, s) in want {
        assert_eq!(sb.owner(idx)?, (l, s), "index {idx:?}");
        assert!(sb.sublocale_domain(l, s)?.contains(idx));
        let (owner, off) = block.locate(idx);
        assert_eq!(owner, l);
        assert!(sb.local_ranges(l)?[s].contains(&off), "offset {off} of {idx:?} not in sublocale {s}'s range");
    }
    for (l, &count) in counts.iter().enumerate().take(locales) {
        let ranges = sb.local_ranges(l)?;
        assert_eq!(ranges.len(), count);
        let mut next = 0;
        for (s, r) in ranges.iter().enumerate() {
            assert_eq!(r.start, next);
            assert_eq!(sb.sublocale_domain(l, s)?.size(), r.len());
            next = r.end;
        }
        assert_eq!(next, block.local_len(l)?);
    }
    Ok(())
}

#[test]
fn small_cases_by_hand() -> Result<(), Error> {
    check([10], 2, vec![2, 3])?;
    check([3], 1, vec![4])?; // more sublocales than rows: the last one holds nothing
    check([0], 2, vec![2, 2])?;
    check([7, 5], 4, vec![2, 1, 3, 2])?;
    check([4, 3, 2], 2, vec![3, 2])?;
    Ok(())
}

#[test]
fn bad_counts_are_errors() -> Result<(), Error> {
    let block = Block::new(Domain::from_shape([10])?, LocaleGrid::auto(0..2)?);
    assert!(matches!(SublocaleBlock::new(block.clone(), vec![2]), Err(Error::InvalidArgument(_))));
    assert!(matches!(SublocaleBlock::new(block.clone(), vec![2, 0]), Err(Error::InvalidArgument(_))));
    let sb = SublocaleBlock::new(block, vec![2, 2])?;
    assert!(sb.owner([10]).is_err());
    assert!(sb.sublocale_domain(0, 2).is_err());
    assert!(sb.local_ranges(2).is_err());
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn owner_formula_1d(n in 0usize..200, counts in proptest::collection::vec(1usize..6, 1..5)) {
        check([n], counts.len(), counts).unwrap();
    }

    #[test]
    fn owner_formula_2d(r in 0usize..20, c in 0usize..9, counts in proptest::collection::vec(1usize..5, 1..5)) {
        check([r, c], counts.len(), counts).unwrap();
    }
}
