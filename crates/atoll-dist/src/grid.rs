//! [`LocaleGrid`]: the targets of a distribution arranged in a `D`-dimensional grid.

use std::collections::HashMap;
use std::fmt;

use atoll_error::{ensure, invalid_arg, Error, Result};
use serde::{Deserialize, Serialize};

use crate::domain::{check_rank, row_major_strides};

/// The targets of a distribution (locale ids, sublocale ids, or any other ids: they are just
/// `usize` values, all different) arranged row-major in a `D`-dimensional grid, like Chapel's
/// `targetLocales` array. Grid coordinate `c` holds target `targets[sum(c[d] * stride[d])]`.
///
/// A grid is given explicitly with [`new`](LocaleGrid::new), or shaped automatically with
/// [`auto`](LocaleGrid::auto), as square as possible (see [`auto_shape`](LocaleGrid::auto_shape)).
///
/// ```
/// use atoll_dist::LocaleGrid;
///
/// let grid = LocaleGrid::<2>::auto(0..6)?;
/// assert_eq!(grid.shape(), [3, 2]);
/// assert_eq!(grid.target([2, 1])?, 5);
/// assert_eq!(grid.coords(3)?, [1, 1]);
///
/// // Any ids work, e.g. the sublocales (NUMA domains) of locale 1, numbered 10..14.
/// let subs = LocaleGrid::new([10, 11, 12, 13], [2, 2])?;
/// assert_eq!(subs.coords(12)?, [1, 0]);
/// assert!(subs.coords(3).is_err());
/// assert!(LocaleGrid::new([0, 1, 2], [2, 2]).is_err()); // 3 targets for 4 places
/// # Ok::<(), atoll_dist::Error>(())
/// ```
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(try_from = "GridRepr", into = "GridRepr")]
pub struct LocaleGrid<const D: usize> {
    targets: Vec<usize>,
    shape: [usize; D],
    strides: [usize; D],
    /// Target id -> linear place in the grid (a function of `targets`).
    place: HashMap<usize, usize>,
}

// Equal grids hold the same targets in the same shape (`strides` and `place` follow from
// them): comparing the map too would hash every entry on each comparison, and every zippered
// loop compares its operands' distributions.
impl<const D: usize> PartialEq for LocaleGrid<D> {
    fn eq(&self, other: &Self) -> bool {
        self.shape == other.shape && self.targets == other.targets
    }
}

impl<const D: usize> Eq for LocaleGrid<D> {}

/// The serialized form of a [`LocaleGrid`], validated when read back.
#[derive(Clone, Serialize, Deserialize)]
struct GridRepr {
    targets: Vec<usize>,
    shape: Vec<usize>,
}

impl<const D: usize> From<LocaleGrid<D>> for GridRepr {
    fn from(g: LocaleGrid<D>) -> Self {
        GridRepr { targets: g.targets, shape: g.shape.to_vec() }
    }
}

impl<const D: usize> TryFrom<GridRepr> for LocaleGrid<D> {
    type Error = Error;
    fn try_from(r: GridRepr) -> Result<Self> {
        let n = r.shape.len();
        let shape: [usize; D] = r.shape.try_into().map_err(|_| Error::ShapeMismatch {
            context: "deserializing a locale grid".into(),
            left: format!("rank {D}"),
            right: format!("{n} extents"),
        })?;
        LocaleGrid::new(r.targets, shape)
    }
}

impl<const D: usize> LocaleGrid<D> {
    /// The grid of the given shape holding `targets` in row-major order.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when `D` is not in `1..=3`, when there are no targets, or
    /// when a target id appears twice; [`Error::ShapeMismatch`] when the product of `shape`
    /// is not the number of targets.
    pub fn new(targets: impl IntoIterator<Item = usize>, shape: [usize; D]) -> Result<Self> {
        check_rank::<D>()?;
        let targets: Vec<usize> = targets.into_iter().collect();
        ensure!(!targets.is_empty(), invalid_arg!("a locale grid needs at least one target"));
        let cells = shape.iter().try_fold(1usize, |acc, &n| acc.checked_mul(n));
        ensure!(
            cells == Some(targets.len()),
            Error::ShapeMismatch {
                context: "locale grid".into(),
                left: format!("grid shape {shape:?}"),
                right: format!("{} targets", targets.len()),
            }
        );
        let mut place = HashMap::with_capacity(targets.len());
        for (k, &t) in targets.iter().enumerate() {
            if let Some(prev) = place.insert(t, k) {
                return Err(invalid_arg!("target {t} appears twice in the locale grid (places {prev} and {k})"));
            }
        }
        Ok(LocaleGrid { targets, strides: row_major_strides(&shape), shape, place })
    }

    /// The grid of `targets` shaped by [`auto_shape`](Self::auto_shape).
    ///
    /// # Errors
    /// As [`new`](Self::new).
    ///
    /// ```
    /// use atoll_dist::LocaleGrid;
    /// assert_eq!(LocaleGrid::<2>::auto(0..12)?.shape(), [4, 3]);
    /// assert_eq!(LocaleGrid::<3>::auto([7, 8, 9, 10])?.shape(), [2, 2, 1]);
    /// # Ok::<(), atoll_dist::Error>(())
    /// ```
    pub fn auto(targets: impl IntoIterator<Item = usize>) -> Result<Self> {
        let targets: Vec<usize> = targets.into_iter().collect();
        let shape = Self::auto_shape(targets.len())?;
        LocaleGrid::new(targets, shape)
    }

    /// The grid shape chosen for `n` targets: the factorization `n = f0 * f1 * ... * f(D-1)`
    /// with `f0 >= f1 >= ... >= f(D-1)` that is lexicographically smallest, i.e. the one with
    /// the smallest largest factor `f0` (as square as possible), then the smallest `f1`. When
    /// `n` does not split evenly, the first dimensions get more targets: 6 targets in 2-D
    /// are `[3, 2]`, 12 in 3-D are `[3, 2, 2]`, 7 (prime) in 2-D are `[7, 1]`.
    ///
    /// This is the goal of Chapel's `setupTargetLocalesArray`/`_factor`, and the same result
    /// for most counts; Chapel's greedy loop (each prime factor, smallest first, multiplies the
    /// currently smallest factor) can be less square: it gives `[6, 2]` for 12 targets in
    /// 2-D where this rule gives `[4, 3]`.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when `n` is 0 or `D` is not in `1..=3`.
    ///
    /// ```
    /// use atoll_dist::LocaleGrid;
    /// assert_eq!(LocaleGrid::<2>::auto_shape(6)?, [3, 2]);
    /// assert_eq!(LocaleGrid::<3>::auto_shape(16)?, [4, 2, 2]);
    /// assert_eq!(LocaleGrid::<1>::auto_shape(5)?, [5]);
    /// # Ok::<(), atoll_dist::Error>(())
    /// ```
    pub fn auto_shape(n: usize) -> Result<[usize; D]> {
        check_rank::<D>()?;
        ensure!(n > 0, invalid_arg!("a locale grid needs at least one target"));
        let mut shape = [1usize; D];
        let found = square_factors(n, &mut shape, n);
        debug_assert!(found, "n = n * 1 * ... * 1 always works");
        Ok(shape)
    }

    /// The grid's shape: how many targets along each dimension.
    pub fn shape(&self) -> [usize; D] {
        self.shape
    }

    /// The targets in row-major grid order.
    pub fn targets(&self) -> &[usize] {
        &self.targets
    }

    /// The number of targets.
    pub fn num_targets(&self) -> usize {
        self.targets.len()
    }

    /// Whether `target` is one of the grid's targets.
    pub fn contains(&self, target: usize) -> bool {
        self.targets.get(target) == Some(&target) || self.place.contains_key(&target)
    }

    /// The row-major place (`0..num_targets()`) of `target` in the grid.
    ///
    /// # Errors
    /// When `target` is not in the grid: [`Error::InvalidLocale`] if the grid's targets are
    /// exactly `0..num_targets()`, [`Error::InvalidArgument`] naming the targets otherwise.
    pub fn place(&self, target: usize) -> Result<usize> {
        // Most grids hold locales 0..n in order: the place is the id, without hashing it.
        if self.targets.get(target) == Some(&target) {
            return Ok(target);
        }
        self.place.get(&target).copied().ok_or_else(|| self.not_a_target(target))
    }

    fn not_a_target(&self, target: usize) -> Error {
        let n = self.targets.len();
        if self.targets.iter().enumerate().all(|(k, &t)| k == t) {
            Error::InvalidLocale { locale: target, num_locales: n }
        } else if n <= 16 {
            invalid_arg!("target {target} is not in the locale grid of targets {:?}", self.targets)
        } else {
            invalid_arg!("target {target} is not among the {n} targets of the locale grid")
        }
    }

    /// The grid coordinates of `target`.
    ///
    /// # Errors
    /// As [`place`](Self::place).
    pub fn coords(&self, target: usize) -> Result<[usize; D]> {
        let mut rest = self.place(target)?;
        let mut coords = [0usize; D];
        for d in (0..D).rev() {
            coords[d] = rest % self.shape[d];
            rest /= self.shape[d];
        }
        Ok(coords)
    }

    /// The target at grid coordinates `coords`.
    ///
    /// # Errors
    /// [`Error::IndexOutOfBounds`] when a coordinate is outside the grid's shape.
    pub fn target(&self, coords: [usize; D]) -> Result<usize> {
        ensure!(
            coords.iter().zip(&self.shape).all(|(c, n)| c < n),
            Error::IndexOutOfBounds {
                index: format!("{coords:?}"),
                bounds: format!("locale grid shape {:?}", self.shape),
            }
        );
        Ok(self.target_unchecked(coords))
    }

    /// The target at coordinates known to be in the grid.
    #[inline]
    pub(crate) fn target_unchecked(&self, coords: [usize; D]) -> usize {
        let place: usize = coords.iter().zip(&self.strides).map(|(c, s)| c * s).sum();
        self.targets[place]
    }

    /// An iterator over `(coordinates, target)` in row-major grid order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = ([usize; D], usize)> + '_ {
        self.targets.iter().enumerate().map(move |(place, &t)| {
            let mut rest = place;
            let mut coords = [0usize; D];
            for d in (0..D).rev() {
                coords[d] = rest % self.shape[d];
                rest /= self.shape[d];
            }
            (coords, t)
        })
    }
}

/// Fills `shape` with the lexicographically smallest non-increasing factorization of `n` into
/// `shape.len()` factors, each at most `max`. Returns false when there is none.
fn square_factors(n: usize, shape: &mut [usize], max: usize) -> bool {
    let Some((first, rest)) = shape.split_first_mut() else {
        return n == 1;
    };
    if rest.is_empty() {
        *first = n;
        return n <= max;
    }
    let k = rest.len() as u32 + 1;
    // The first factor is the largest, so first^k >= n; try the candidates in increasing order.
    for f in divisors(n) {
        if f > max {
            break;
        }
        if f.checked_pow(k).is_some_and(|p| p < n) {
            continue;
        }
        if square_factors(n / f, rest, f) {
            *first = f;
            return true;
        }
    }
    false
}

/// The divisors of `n >= 1` in increasing order (trial division up to the square root).
fn divisors(n: usize) -> Vec<usize> {
    let (mut small, mut large) = (Vec::new(), Vec::new());
    let mut f = 1usize;
    while f.checked_mul(f).is_some_and(|sq| sq <= n) {
        if n % f == 0 {
            small.push(f);
            if f != n / f {
                large.push(n / f);
            }
        }
        f += 1;
    }
    small.extend(large.into_iter().rev());
    small
}

impl<const D: usize> fmt::Display for LocaleGrid<D> {
    /// `3x2 grid of targets [0, 1, 2, 3, 4, 5]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (d, n) in self.shape.iter().enumerate() {
            if d > 0 {
                f.write_str("x")?;
            }
            write!(f, "{n}")?;
        }
        write!(f, " grid of targets {:?}", self.targets)
    }
}
