//! LocaleGrid: explicit and automatic shapes, coordinates, errors.

mod common;

use atoll_dist::{Error, LocaleGrid};
use common::*;
use proptest::prelude::*;

/// The expected automatic shapes for 1..=16 targets: the non-increasing factorization with
/// the smallest largest factor (then the smallest second factor).
const SHAPES_2D: [[usize; 2]; 16] = [
    [1, 1],
    [2, 1],
    [3, 1],
    [2, 2],
    [5, 1],
    [3, 2],
    [7, 1],
    [4, 2],
    [3, 3],
    [5, 2],
    [11, 1],
    [4, 3],
    [13, 1],
    [7, 2],
    [5, 3],
    [4, 4],
];
const SHAPES_3D: [[usize; 3]; 16] = [
    [1, 1, 1],
    [2, 1, 1],
    [3, 1, 1],
    [2, 2, 1],
    [5, 1, 1],
    [3, 2, 1],
    [7, 1, 1],
    [2, 2, 2],
    [3, 3, 1],
    [5, 2, 1],
    [11, 1, 1],
    [3, 2, 2],
    [13, 1, 1],
    [7, 2, 1],
    [5, 3, 1],
    [4, 2, 2],
];

#[test]
fn auto_shapes_for_1_to_16_targets() {
    for n in 1..=16 {
        assert_eq!(LocaleGrid::<1>::auto_shape(n).unwrap(), [n]);
        assert_eq!(LocaleGrid::<2>::auto_shape(n).unwrap(), SHAPES_2D[n - 1], "{n} targets in 2-D");
        assert_eq!(LocaleGrid::<3>::auto_shape(n).unwrap(), SHAPES_3D[n - 1], "{n} targets in 3-D");
        let grid = LocaleGrid::<2>::auto(0..n).unwrap();
        assert_eq!(grid.shape(), SHAPES_2D[n - 1]);
        assert_eq!(grid.targets(), (0..n).collect::<Vec<_>>());
    }
}

/// The rule, by brute force: among all factorizations, sorted non-increasing, the
/// lexicographically smallest.
fn brute_shape<const D: usize>(n: usize) -> [usize; D] {
    ordered_factorizations::<D>(n).into_iter().filter(|f| f.windows(2).all(|w| w[0] >= w[1])).min().unwrap()
}

proptest! {
    #![proptest_config(config(128))]

    #[test]
    fn auto_shape_is_the_squarest(n in 1usize..5000) {
        prop_assert_eq!(LocaleGrid::<1>::auto_shape(n).unwrap(), brute_shape::<1>(n));
        prop_assert_eq!(LocaleGrid::<2>::auto_shape(n).unwrap(), brute_shape::<2>(n));
        prop_assert_eq!(LocaleGrid::<3>::auto_shape(n).unwrap(), brute_shape::<3>(n));
    }

    #[test]
    fn coordinates_round_trip(grid in grid_strategy::<3>()) {
        let shape = grid.shape();
        prop_assert_eq!(shape.iter().product::<usize>(), grid.num_targets());
        for (k, (coords, t)) in grid.iter().enumerate() {
            prop_assert_eq!(grid.targets()[k], t);
            prop_assert_eq!(grid.coords(t), Ok(coords));
            prop_assert_eq!(grid.target(coords), Ok(t));
            prop_assert_eq!(grid.place(t), Ok(k));
            prop_assert!(grid.contains(t));
            prop_assert_eq!(
                coords[0] * shape[1] * shape[2] + coords[1] * shape[2] + coords[2],
                k
            );
        }
        prop_assert!(grid.target(shape).is_err());
        check_serde(&grid)?;
    }
}

#[test]
fn errors_for_bad_grids() {
    assert!(matches!(LocaleGrid::<2>::auto(Vec::new()), Err(Error::InvalidArgument(_))));
    assert!(matches!(LocaleGrid::<2>::new([], [0, 0]), Err(Error::InvalidArgument(_))));
    assert!(LocaleGrid::<2>::auto_shape(0).is_err());
    assert_eq!(
        LocaleGrid::new(0..6, [2, 2]),
        Err(Error::ShapeMismatch {
            context: "locale grid".into(),
            left: "grid shape [2, 2]".into(),
            right: "6 targets".into()
        })
    );
    assert!(LocaleGrid::new(0..2, [usize::MAX, 2]).is_err());
    assert!(matches!(LocaleGrid::new([3, 5, 3], [3]), Err(Error::InvalidArgument(m)) if m.contains("twice")));
    assert!(matches!(LocaleGrid::<4>::auto(0..4), Err(Error::InvalidArgument(_))));
    assert!(matches!(LocaleGrid::<0>::new([0], []), Err(Error::InvalidArgument(_))));
    let grid = LocaleGrid::<2>::auto(0..6).unwrap();
    assert_eq!(grid.coords(6), Err(Error::InvalidLocale { locale: 6, num_locales: 6 }));
    assert!(matches!(grid.target([3, 0]), Err(Error::IndexOutOfBounds { .. })));
    let bad = r#"{"targets":[0,1,2],"shape":[2,2]}"#;
    assert!(serde_json::from_str::<LocaleGrid<2>>(bad).is_err());
}

#[test]
fn sublocale_ids() {
    // Two locales with four sublocales each, ids locale * 4 + sublocale, arranged with the
    // locales along the first dimension.
    let grid = LocaleGrid::new((0..8).map(|k| 1000 + k), [2, 4]).unwrap();
    assert_eq!(grid.coords(1005), Ok([1, 1]));
    assert_eq!(grid.target([0, 3]), Ok(1003));
    assert!(matches!(grid.coords(5), Err(Error::InvalidArgument(m)) if m.contains("1000")));
    assert_eq!(grid.to_string(), "2x4 grid of targets [1000, 1001, 1002, 1003, 1004, 1005, 1006, 1007]");
}
