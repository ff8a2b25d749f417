//! [`Domain`]: a rectangular index set, the product of `D` strided ranges, in row-major order.

use std::fmt;
use std::iter::FusedIterator;

use atoll_error::{ensure, invalid_arg, Error, Result};
use serde::{Deserialize, Serialize};

use crate::StridedRange;

/// The smallest supported rank.
pub const MIN_RANK: usize = 1;
/// The largest supported rank.
pub const MAX_RANK: usize = 3;

/// Checks that `D` is a supported rank (`1..=3`).
pub(crate) fn check_rank<const D: usize>() -> Result<()> {
    ensure!(
        (MIN_RANK..=MAX_RANK).contains(&D),
        invalid_arg!("rank {D} is not supported: Atoll domains have {MIN_RANK} to {MAX_RANK} dimensions")
    );
    Ok(())
}

/// Row-major strides of a shape: the last dimension varies fastest (stride 1). Saturating, so
/// that the strides of an empty shape never overflow (they are unused then).
pub(crate) fn row_major_strides<const D: usize>(shape: &[usize; D]) -> [usize; D] {
    let mut strides = [1usize; D];
    for d in (0..D.saturating_sub(1)).rev() {
        strides[d] = strides[d + 1].saturating_mul(shape[d + 1]);
    }
    strides
}

/// Formats a multi-index for error messages.
pub(crate) fn fmt_index<const D: usize>(idx: &[i64; D]) -> String {
    format!("{idx:?}")
}

/// A rectangular domain of rank `D` (1 to 3): the product of `D` [`StridedRange`]s, Chapel's
/// `{lo0..hi0 by s0, lo1..hi1 by s1}`. Its elements are multi-indices `[i64; D]`, ordered
/// row-major (the last dimension varies fastest); the *linear position* of an index is its
/// ordinal number in that order.
///
/// The rank is checked when a domain is built: `D` outside `1..=3` is an
/// [`Error::InvalidArgument`], as is a domain of more than `usize::MAX` indices.
///
/// ```
/// use atoll_dist::{Domain, StridedRange};
///
/// let dom = Domain::new([StridedRange::new(-1, 2), StridedRange::with_stride(0, 10, 4)?])?;
/// assert_eq!((dom.shape(), dom.size()), ([3, 3], 9));
/// assert_eq!(dom.to_string(), "{-1..2, 0..9 by 4}");
/// assert_eq!(dom.position([0, 8])?, 5);
/// assert_eq!(dom.index(5)?, [0, 8]);
/// assert_eq!(dom.iter().take(4).collect::<Vec<_>>(), [[-1, 0], [-1, 4], [-1, 8], [0, 0]]);
/// assert!(dom.position([0, 7]).is_err()); // off the stride
/// # Ok::<(), atoll_dist::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "DomainRepr", into = "DomainRepr")]
pub struct Domain<const D: usize> {
    dims: [StridedRange; D],
    size: usize,
}

/// The serialized form of a [`Domain`], validated when read back.
#[derive(Clone, Serialize, Deserialize)]
struct DomainRepr {
    dims: Vec<StridedRange>,
}

impl<const D: usize> From<Domain<D>> for DomainRepr {
    fn from(d: Domain<D>) -> Self {
        DomainRepr { dims: d.dims.to_vec() }
    }
}

impl<const D: usize> TryFrom<DomainRepr> for Domain<D> {
    type Error = Error;
    fn try_from(r: DomainRepr) -> Result<Self> {
        let n = r.dims.len();
        let dims: [StridedRange; D] = r.dims.try_into().map_err(|_| Error::ShapeMismatch {
            context: "deserializing a domain".into(),
            left: format!("rank {D}"),
            right: format!("{n} ranges"),
        })?;
        Domain::new(dims)
    }
}

impl<const D: usize> Domain<D> {
    /// The domain with the given ranges, one per dimension.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when `D` is not in `1..=3` or when the domain holds more than
    /// `usize::MAX` indices.
    pub fn new(dims: [StridedRange; D]) -> Result<Self> {
        check_rank::<D>()?;
        let size = if dims.iter().any(StridedRange::is_empty) {
            0
        } else {
            dims.iter()
                .try_fold(1usize, |acc, r| acc.checked_mul(r.len()))
                .ok_or_else(|| invalid_arg!("domain {} has more than usize::MAX indices", DisplayDims(&dims)))?
        };
        Ok(Domain { dims, size })
    }

    /// The dense domain `{0..shape[0], 0..shape[1], ...}`.
    ///
    /// # Errors
    /// As [`new`](Self::new), and [`Error::InvalidArgument`] when an extent exceeds `i64::MAX`.
    ///
    /// ```
    /// use atoll_dist::Domain;
    /// let dom = Domain::from_shape([2, 3])?;
    /// assert_eq!(dom.to_string(), "{0..2, 0..3}");
    /// assert!(Domain::from_shape([1, 1, 1, 1]).is_err()); // rank 4
    /// # Ok::<(), atoll_dist::Error>(())
    /// ```
    pub fn from_shape(shape: [usize; D]) -> Result<Self> {
        let mut dims = [StridedRange::empty(); D];
        for (dim, &n) in dims.iter_mut().zip(&shape) {
            let hi = i64::try_from(n).map_err(|_| invalid_arg!("extent {n} of shape {shape:?} exceeds i64::MAX"))?;
            *dim = StridedRange::new(0, hi);
        }
        Domain::new(dims)
    }

    /// A domain from ranges whose product is known to fit (sub-domains of valid domains).
    pub(crate) fn from_dims_unchecked(dims: [StridedRange; D]) -> Self {
        let size = dims.iter().fold(1usize, |acc, r| acc.saturating_mul(r.len()));
        debug_assert!(dims.iter().any(StridedRange::is_empty) || size < usize::MAX);
        Domain { dims, size }
    }

    /// The rank `D`.
    pub const fn rank(&self) -> usize {
        D
    }

    /// The ranges, one per dimension.
    pub fn dims(&self) -> &[StridedRange; D] {
        &self.dims
    }

    /// The number of indices along each dimension.
    pub fn shape(&self) -> [usize; D] {
        self.dims.map(|r| r.len())
    }

    /// The number of indices.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Whether the domain holds no index (some dimension is empty).
    pub fn is_empty(&self) -> bool {
        self.size == 0
    }

    /// The row-major strides of the linear position: `position = sum(pos[d] * strides[d])`.
    pub fn row_major_strides(&self) -> [usize; D] {
        row_major_strides(&self.shape())
    }

    /// Whether `idx` is one of the domain's indices.
    #[inline]
    pub fn contains(&self, idx: [i64; D]) -> bool {
        self.dims.iter().zip(idx).all(|(r, i)| r.contains(i))
    }

    /// Ok when `idx` is in the domain.
    ///
    /// # Errors
    /// [`Error::IndexOutOfBounds`] naming the index and the domain otherwise.
    pub fn ensure_contains(&self, idx: [i64; D]) -> Result<()> {
        ensure!(self.contains(idx), Error::IndexOutOfBounds { index: fmt_index(&idx), bounds: self.to_string() });
        Ok(())
    }

    /// The per-dimension positions of `idx`.
    ///
    /// # Errors
    /// [`Error::IndexOutOfBounds`] when `idx` is not in the domain.
    pub fn positions(&self, idx: [i64; D]) -> Result<[usize; D]> {
        let mut pos = [0usize; D];
        for d in 0..D {
            pos[d] = self.dims[d]
                .position(idx[d])
                .ok_or_else(|| Error::IndexOutOfBounds { index: fmt_index(&idx), bounds: self.to_string() })?;
        }
        Ok(pos)
    }

    /// The row-major linear position of `idx`, in `0..size()`.
    ///
    /// # Errors
    /// [`Error::IndexOutOfBounds`] when `idx` is not in the domain.
    pub fn position(&self, idx: [i64; D]) -> Result<usize> {
        let pos = self.positions(idx)?;
        let strides = self.row_major_strides();
        Ok(pos.iter().zip(&strides).map(|(p, s)| p * s).sum())
    }

    /// The index at row-major linear position `pos`.
    ///
    /// # Errors
    /// [`Error::IndexOutOfBounds`] when `pos >= size()`.
    pub fn index(&self, pos: usize) -> Result<[i64; D]> {
        ensure!(
            pos < self.size,
            Error::IndexOutOfBounds {
                index: format!("position {pos}"),
                bounds: format!("0..{} (the positions of {self})", self.size),
            }
        );
        let mut idx = [0i64; D];
        let mut rest = pos;
        for d in (0..D).rev() {
            let n = self.dims[d].len();
            idx[d] = self.dims[d].at_unchecked(rest % n);
            rest /= n;
        }
        Ok(idx)
    }

    /// The indices common to both domains (per dimension, the intersection of the ranges).
    ///
    /// ```
    /// use atoll_dist::{Domain, StridedRange};
    /// let a = Domain::from_shape([10, 10])?;
    /// let b = Domain::new([StridedRange::with_stride(-3, 20, 3)?, StridedRange::new(8, 12)])?;
    /// assert_eq!(a.intersect(&b).to_string(), "{0..10 by 3, 8..10}");
    /// # Ok::<(), atoll_dist::Error>(())
    /// ```
    pub fn intersect(&self, other: &Domain<D>) -> Domain<D> {
        let mut dims = self.dims;
        for (r, o) in dims.iter_mut().zip(&other.dims) {
            *r = r.intersect(o);
        }
        Domain::from_dims_unchecked(dims)
    }

    /// Whether each dimension of `self` is a subset of the matching dimension of `other`
    /// (an empty dimension always is).
    pub fn is_subset_of(&self, other: &Domain<D>) -> bool {
        self.dims.iter().zip(&other.dims).all(|(s, o)| s.is_subset_of(o))
    }

    /// The sub-domain `sub` of `self`, checked: Chapel's `D[sub]` with bounds checks. Every
    /// dimension of `sub` must lie in the matching dimension of `self`.
    ///
    /// # Errors
    /// [`Error::IndexOutOfBounds`] naming `sub` and `self` otherwise.
    ///
    /// ```
    /// use atoll_dist::{Domain, Error, StridedRange};
    /// let dom = Domain::from_shape([8, 8])?;
    /// let sub = Domain::new([StridedRange::with_stride(2, 8, 2)?, StridedRange::new(1, 7)])?;
    /// assert_eq!(dom.slice(&sub)?, sub);
    /// let outside = Domain::new([StridedRange::new(6, 10), StridedRange::new(0, 8)])?;
    /// assert_eq!(
    ///     dom.slice(&outside),
    ///     Err(Error::IndexOutOfBounds { index: "{6..10, 0..8}".into(), bounds: "{0..8, 0..8}".into() })
    /// );
    /// # Ok::<(), atoll_dist::Error>(())
    /// ```
    pub fn slice(&self, sub: &Domain<D>) -> Result<Domain<D>> {
        ensure!(sub.is_subset_of(self), Error::IndexOutOfBounds { index: sub.to_string(), bounds: self.to_string() });
        Ok(*sub)
    }

    /// The per-dimension positions in `self` of the sub-domain `sub`: a domain of positions,
    /// so that a view of a view can be stored as positions into the original.
    ///
    /// # Errors
    /// [`Error::IndexOutOfBounds`] when `sub` is not a subset of `self` (per dimension).
    ///
    /// ```
    /// use atoll_dist::{Domain, StridedRange};
    /// let dom = Domain::new([StridedRange::with_stride(-8, 8, 2)?])?; // -8, -6, ..., 6
    /// let sub = Domain::new([StridedRange::with_stride(-4, 7, 4)?])?; // -4, 0, 4
    /// assert_eq!(dom.positions_of(&sub)?.to_string(), "{2..7 by 2}");
    /// # Ok::<(), atoll_dist::Error>(())
    /// ```
    pub fn positions_of(&self, sub: &Domain<D>) -> Result<Domain<D>> {
        self.slice(sub)?;
        let mut dims = self.dims;
        for (r, s) in dims.iter_mut().zip(&sub.dims) {
            *r = r.positions_of(s)?;
        }
        Ok(Domain::from_dims_unchecked(dims))
    }

    /// The sub-domain at the given per-dimension positions of `self` (the inverse of
    /// [`positions_of`](Self::positions_of)).
    ///
    /// # Errors
    /// [`Error::IndexOutOfBounds`] when a position is outside `0..shape()[d]`.
    ///
    /// ```
    /// use atoll_dist::{Domain, StridedRange};
    /// let dom = Domain::new([StridedRange::with_stride(10, 20, 2)?, StridedRange::new(-3, 3)])?;
    /// let pos = Domain::new([StridedRange::with_stride(1, 5, 2)?, StridedRange::new(0, 2)])?;
    /// assert_eq!(dom.slice_positions(&pos)?.to_string(), "{12..17 by 4, -3..-1}");
    /// # Ok::<(), atoll_dist::Error>(())
    /// ```
    pub fn slice_positions(&self, positions: &Domain<D>) -> Result<Domain<D>> {
        let mut dims = self.dims;
        for (r, p) in dims.iter_mut().zip(&positions.dims) {
            *r = r.slice_positions(p)?;
        }
        Ok(Domain::from_dims_unchecked(dims))
    }

    /// An iterator over the indices in row-major order.
    pub fn iter(&self) -> DomainIter<D> {
        DomainIter { dims: self.dims, pos: [0; D], remaining: self.size }
    }
}

impl StridedRange {
    /// The index at position `pos < len`.
    #[inline]
    pub(crate) fn at_unchecked(&self, pos: usize) -> i64 {
        debug_assert!(pos < self.len());
        self.nth(pos).unwrap_or(self.lo())
    }
}

/// Displays ranges as `{r0, r1, ...}`.
struct DisplayDims<'a>(&'a [StridedRange]);

impl fmt::Display for DisplayDims<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("{")?;
        for (d, r) in self.0.iter().enumerate() {
            if d > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{r}")?;
        }
        f.write_str("}")
    }
}

impl<const D: usize> fmt::Display for Domain<D> {
    /// Chapel style: `{0..8, 0..8 by 2}` (exclusive upper bounds).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        DisplayDims(&self.dims).fmt(f)
    }
}

/// The row-major iterator over a [`Domain`]'s indices, from [`Domain::iter`].
#[derive(Clone, Debug)]
pub struct DomainIter<const D: usize> {
    dims: [StridedRange; D],
    pos: [usize; D],
    remaining: usize,
}

impl<const D: usize> Iterator for DomainIter<D> {
    type Item = [i64; D];

    fn next(&mut self) -> Option<[i64; D]> {
        if self.remaining == 0 {
            return None;
        }
        self.remaining -= 1;
        let idx: [i64; D] = std::array::from_fn(|d| self.dims[d].at_unchecked(self.pos[d]));
        // Advance the odometer (the last dimension fastest).
        for d in (0..D).rev() {
            self.pos[d] += 1;
            if self.pos[d] < self.dims[d].len() {
                break;
            }
            self.pos[d] = 0;
        }
        Some(idx)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }
}

impl<const D: usize> ExactSizeIterator for DomainIter<D> {}

impl<const D: usize> FusedIterator for DomainIter<D> {}

impl<const D: usize> IntoIterator for &Domain<D> {
    type Item = [i64; D];
    type IntoIter = DomainIter<D>;
    fn into_iter(self) -> DomainIter<D> {
        self.iter()
    }
}

impl<const D: usize> IntoIterator for Domain<D> {
    type Item = [i64; D];
    type IntoIter = DomainIter<D>;
    fn into_iter(self) -> DomainIter<D> {
        self.iter()
    }
}
