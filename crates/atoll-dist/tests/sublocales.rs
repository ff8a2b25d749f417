//! Distributions over sublocales: grid targets are just ids, so the same distributions split
//! an array over the sublocales of one locale, or over every sublocale of every locale.

mod common;

use atoll_dist::{Block, BlockCyclic, Cyclic, Distribution, Domain, Error, LocaleGrid};
use common::*;
use proptest::prelude::*;

/// The id of sublocale `s` of locale `l` (4 sublocales per locale).
fn sublocale(l: usize, s: usize) -> usize {
    l * 16 + s
}

#[test]
fn block_then_block_over_each_locales_sublocales() -> Result<(), Error> {
    let dom = Domain::from_shape([30, 20])?;
    let outer = Block::new(dom, LocaleGrid::auto(0..3)?);
    let mut seen = vec![vec![false; 20]; 30];
    for l in 0..3 {
        // Each locale splits its own block over its 4 sublocales.
        let mine = outer.local_domain(l)?;
        let inner = Block::new(mine, LocaleGrid::auto((0..4).map(|s| sublocale(l, s)))?);
        let mut inner_total = 0;
        for s in 0..4 {
            let t = sublocale(l, s);
            inner_total += inner.local_len(t)?;
            for idx in inner.runs(t, &mine)?.elements().map(|(idx, _, _)| idx) {
                assert_eq!(outer.owner(idx), l);
                assert_eq!(inner.owner(idx), t);
                let [i, j] = idx.map(|x| x as usize);
                assert!(!seen[i][j], "{idx:?} twice");
                seen[i][j] = true;
            }
        }
        assert_eq!(inner_total, outer.local_len(l)?);
    }
    assert!(seen.iter().flatten().all(|&b| b));
    Ok(())
}

#[test]
fn cyclic_over_every_sublocale() -> Result<(), Error> {
    // Locales along the first grid dimension, their sublocales along the second.
    let targets: Vec<usize> = (0..2).flat_map(|l| (0..4).map(move |s| sublocale(l, s))).collect();
    let dist = Cyclic::new(Domain::from_shape([4, 8])?, LocaleGrid::new(targets, [2, 4])?);
    assert_eq!(
        dist.owner_map(),
        concat!(
            " 0  1  2  3  0  1  2  3\n",
            "16 17 18 19 16 17 18 19\n",
            " 0  1  2  3  0  1  2  3\n",
            "16 17 18 19 16 17 18 19\n",
        )
    );
    assert_eq!(dist.local_len(18)?, 4);
    Ok(())
}

proptest! {
    #![proptest_config(config(48))]

    /// Every property of the distributions holds with sublocale ids as targets.
    #[test]
    fn block_cyclic_over_sublocales(
        (dom, _grid, subs) in dist_case::<2>(10),
        locales in 1usize..=3,
        per_locale in 1usize..=3,
        block in proptest::array::uniform::<_, 2>(1usize..=4),
    ) {
        let targets: Vec<usize> =
            (0..locales).flat_map(|l| (0..per_locale).map(move |s| sublocale(l, s))).collect();
        let grid = LocaleGrid::new(targets, [locales, per_locale]).unwrap();
        let dist = BlockCyclic::new(dom, grid, block).unwrap();
        check_distribution(&dist, |d, p, _n, parts| block_cyclic_part(p, block[d], parts))?;
        for sub in &subs {
            check_runs(&dist, sub, |d, m, q| block[d].div_ceil(gcd(q, block[d] * [locales, per_locale][d])).min(m))?;
        }
    }
}
