//! [`StridedRange`]: Chapel's `lo..hi by s` for `i64` indices and a positive stride, with a
//! Rust-style exclusive upper bound.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::iter::FusedIterator;
use std::ops::Range;

use atoll_error::{ensure, invalid_arg, Error, Result};
use serde::{Deserialize, Serialize};

use crate::math::Ap;

/// A finite sequence of `i64` indices `first, first + stride, ..., first + (len - 1) * stride`
/// with a positive stride: Chapel's `lo..hi by stride`, written the Rust way with an
/// **exclusive** `hi`.
///
/// `StridedRange::new(lo, hi)` is the half-open range `lo..hi` (empty when `hi <= lo`), and
/// [`by`](StridedRange::by) strides it like Chapel's `by` operator: it keeps the first index
/// and multiplies the stride, so `0..10 by 3` is `0, 3, 6, 9`. Bases may be negative or any other
/// value; every element is below `i64::MAX` (the exclusive bound must be an `i64`).
///
/// A range is stored as (first index, stride, length), so `0..10 by 3` and `0..12 by 3` are the
/// same range. Two ranges are equal (`==`, and they hash alike) when they hold the same
/// sequence of indices: all empty ranges are equal, and the stride of a range with fewer than
/// two elements is ignored.
///
/// Positions are the 0-based ordinal numbers of the elements: [`nth`](StridedRange::nth) maps a
/// position to its index and [`position`](StridedRange::position) an index to its position.
///
/// ```
/// use atoll_dist::StridedRange;
///
/// let r = StridedRange::new(-4, 10).by(3)?; // -4, -1, 2, 5, 8
/// assert_eq!(r.len(), 5);
/// assert_eq!(r.iter().collect::<Vec<_>>(), [-4, -1, 2, 5, 8]);
/// assert!(r.contains(5) && !r.contains(6));
/// assert_eq!((r.nth(2), r.position(8)), (Some(2), Some(4)));
///
/// // The intersection of two strided ranges is a strided range (stride lcm(3, 2) = 6).
/// let s = StridedRange::new(0, 20).by(2)?;
/// assert_eq!(r.intersect(&s).iter().collect::<Vec<_>>(), [2, 8]);
/// assert_eq!(r.to_string(), "-4..9 by 3");
/// # Ok::<(), atoll_dist::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
#[serde(try_from = "RangeRepr", into = "RangeRepr")]
pub struct StridedRange {
    first: i64,
    stride: u64,
    len: usize,
}

/// The serialized form of a [`StridedRange`], validated when read back.
#[derive(Clone, Copy, Serialize, Deserialize)]
struct RangeRepr {
    first: i64,
    stride: u64,
    len: u64,
}

impl From<StridedRange> for RangeRepr {
    fn from(r: StridedRange) -> Self {
        RangeRepr { first: r.first, stride: r.stride, len: r.len as u64 }
    }
}

impl TryFrom<RangeRepr> for StridedRange {
    type Error = Error;
    fn try_from(r: RangeRepr) -> Result<Self> {
        let len = usize::try_from(r.len).map_err(|_| invalid_arg!("range length {} does not fit in usize", r.len))?;
        StridedRange::from_parts(r.first, r.stride, len)
    }
}

impl StridedRange {
    /// The half-open range `lo..hi` with stride 1 (empty when `hi <= lo`).
    ///
    /// ```
    /// use atoll_dist::StridedRange;
    /// assert_eq!(StridedRange::new(-2, 3).len(), 5);
    /// assert!(StridedRange::new(3, -2).is_empty());
    /// ```
    pub fn new(lo: i64, hi: i64) -> Self {
        // hi - lo < 2^64 fits in usize on the 64-bit targets this crate supports.
        let len = if hi > lo { (hi as i128 - lo as i128) as usize } else { 0 };
        StridedRange { first: lo, stride: 1, len }
    }

    /// `lo..hi by stride`: the indices `lo, lo + stride, ...` below `hi`.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when `stride` is 0.
    ///
    /// ```
    /// use atoll_dist::StridedRange;
    /// let r = StridedRange::with_stride(1, 10, 4)?;
    /// assert_eq!(r.iter().collect::<Vec<_>>(), [1, 5, 9]);
    /// assert!(StridedRange::with_stride(0, 10, 0).is_err());
    /// # Ok::<(), atoll_dist::Error>(())
    /// ```
    pub fn with_stride(lo: i64, hi: i64, stride: u64) -> Result<Self> {
        StridedRange::new(lo, hi).by(stride)
    }

    /// The range with the given first index, stride and length.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when `stride` is 0 or when the last index,
    /// `first + (len - 1) * stride`, is not below `i64::MAX`.
    ///
    /// ```
    /// use atoll_dist::StridedRange;
    /// let r = StridedRange::from_parts(-10, 5, 3)?;
    /// assert_eq!(r.iter().collect::<Vec<_>>(), [-10, -5, 0]);
    /// assert!(StridedRange::from_parts(i64::MAX - 4, 5, 2).is_err());
    /// # Ok::<(), atoll_dist::Error>(())
    /// ```
    pub fn from_parts(first: i64, stride: u64, len: usize) -> Result<Self> {
        ensure!(stride > 0, invalid_arg!("range stride must be positive, got 0"));
        if len > 0 {
            let last = first as i128 + (len as i128 - 1) * stride as i128;
            ensure!(
                last < i64::MAX as i128,
                invalid_arg!(
                    "range of {len} indices from {first} by {stride} overflows i64 (its last index {last} must be below {})",
                    i64::MAX
                )
            );
        }
        Ok(StridedRange { first, stride, len })
    }

    /// The empty range `0..0`.
    pub fn empty() -> Self {
        StridedRange { first: 0, stride: 1, len: 0 }
    }

    /// Strides the range like Chapel's `by`: keeps the first index, multiplies the stride by
    /// `stride`, and keeps every `stride`-th element. `(0..10).by(2)?.by(3)?` is `0..10 by 6`.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when `stride` is 0.
    pub fn by(self, stride: u64) -> Result<Self> {
        ensure!(stride > 0, invalid_arg!("range stride must be positive, got 0 (in {self} by 0)"));
        let len = self.len.div_ceil(stride as usize);
        // With two or more elements left, the product spans part of the range, so it fits;
        // otherwise the stride carries no information and saturates.
        let new_stride = self.stride.saturating_mul(stride);
        Ok(StridedRange { first: self.first, stride: new_stride, len })
    }

    /// The first index, or `None` when empty.
    pub fn first(&self) -> Option<i64> {
        (self.len > 0).then_some(self.first)
    }

    /// The last index, or `None` when empty.
    pub fn last(&self) -> Option<i64> {
        self.len.checked_sub(1).map(|k| self.at(k))
    }

    /// The inclusive lower bound: the first index, or the place an empty range starts.
    pub fn lo(&self) -> i64 {
        self.first
    }

    /// The tight exclusive upper bound: the last index plus one, or [`lo`](Self::lo) when empty.
    pub fn hi(&self) -> i64 {
        // The last index is below i64::MAX, so this cannot overflow.
        self.last().map_or(self.first, |l| l + 1)
    }

    /// The stride (at least 1).
    pub fn stride(&self) -> u64 {
        self.stride
    }

    /// The number of indices.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the range holds no index.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The index at position `pos`, for `pos < len` (wrapping arithmetic is exact here because
    /// the result is known to be an `i64`).
    #[inline]
    fn at(&self, pos: usize) -> i64 {
        self.first.wrapping_add((pos as u64).wrapping_mul(self.stride) as i64)
    }

    /// The index at position `pos` (0-based), or `None` when `pos >= len`.
    #[inline]
    pub fn nth(&self, pos: usize) -> Option<i64> {
        (pos < self.len).then(|| self.at(pos))
    }

    /// The position of index `i`, or `None` when `i` is not in the range.
    #[inline]
    pub fn position(&self, i: i64) -> Option<usize> {
        if i < self.first {
            return None;
        }
        // i >= first, so the difference is below 2^64 and exact as u64.
        let off = i.wrapping_sub(self.first) as u64;
        let pos = if self.stride == 1 {
            off
        } else {
            if off % self.stride != 0 {
                return None;
            }
            off / self.stride
        };
        (pos < self.len as u64).then_some(pos as usize)
    }

    /// The position of the last element not after `i`, clamped into `0..len` (0 when empty):
    /// total, so that distributions can map any index to some owner without panicking.
    #[inline]
    pub(crate) fn clamped_position(&self, i: i64) -> usize {
        if i <= self.first || self.len == 0 {
            return 0;
        }
        let off = i.wrapping_sub(self.first) as u64;
        let pos = if self.stride == 1 { off } else { off / self.stride };
        (pos.min(self.len as u64 - 1)) as usize
    }

    /// Whether `i` is one of the range's indices.
    #[inline]
    pub fn contains(&self, i: i64) -> bool {
        self.position(i).is_some()
    }

    /// Whether every index of `sub` is an index of `self` (true for an empty `sub`).
    ///
    /// ```
    /// use atoll_dist::StridedRange;
    /// let r = StridedRange::with_stride(0, 20, 2)?;
    /// assert!(StridedRange::with_stride(4, 13, 4)?.is_subset_of(&r));
    /// assert!(!StridedRange::with_stride(4, 13, 3)?.is_subset_of(&r));
    /// # Ok::<(), atoll_dist::Error>(())
    /// ```
    pub fn is_subset_of(&self, other: &StridedRange) -> bool {
        match (self.first(), self.last()) {
            (Some(f), Some(l)) => {
                other.contains(f) && other.contains(l) && (self.len < 2 || self.stride % other.stride == 0)
            }
            _ => true,
        }
    }

    /// The indices common to both ranges: a strided range whose stride is the least common
    /// multiple of the two strides (found with the Chinese remainder theorem in O(log stride)).
    /// A result with fewer than two elements keeps that lcm as its stride when it fits in `u64`.
    ///
    /// ```
    /// use atoll_dist::StridedRange;
    /// let a = StridedRange::with_stride(1, 100, 4)?;  // 1, 5, 9, ...
    /// let b = StridedRange::with_stride(-7, 60, 6)?;  // -7, -1, 5, 11, ..., 59
    /// let c = a.intersect(&b);                        // x ≡ 1 (mod 4), x ≡ 5 (mod 6)
    /// assert_eq!((c.first(), c.stride(), c.last()), (Some(5), 12, Some(53)));
    /// // No solution: x ≡ 1 (mod 4) is odd, x ≡ 4 (mod 6) is even.
    /// assert!(a.intersect(&StridedRange::with_stride(-8, 60, 6)?).is_empty());
    /// # Ok::<(), atoll_dist::Error>(())
    /// ```
    pub fn intersect(&self, other: &StridedRange) -> StridedRange {
        let ap = self.to_ap().intersect(&other.to_ap());
        StridedRange::from_ap(ap)
    }

    /// The indices at the given positions of `self`: the view of a view. With `self` =
    /// `first..(by stride)` and `positions` = `p0..(by q)`, the result is
    /// `self.nth(p0)..(by stride * q)`.
    ///
    /// # Errors
    /// [`Error::IndexOutOfBounds`] when a position lies outside `0..len`.
    ///
    /// ```
    /// use atoll_dist::StridedRange;
    /// let r = StridedRange::with_stride(10, 50, 5)?;   // 10, 15, ..., 45 (8 indices)
    /// let p = StridedRange::with_stride(1, 8, 3)?;     // positions 1, 4, 7
    /// assert_eq!(r.slice_positions(&p)?.iter().collect::<Vec<_>>(), [15, 30, 45]);
    /// assert!(r.slice_positions(&StridedRange::new(6, 9)).is_err());
    /// # Ok::<(), atoll_dist::Error>(())
    /// ```
    pub fn slice_positions(&self, positions: &StridedRange) -> Result<StridedRange> {
        let (Some(p0), Some(pl)) = (positions.first(), positions.last()) else {
            return Ok(StridedRange { first: self.first, stride: self.stride, len: 0 });
        };
        ensure!(
            p0 >= 0 && (pl as u64) < self.len as u64,
            Error::IndexOutOfBounds {
                index: format!("positions {positions}"),
                bounds: format!("0..{} (the positions of {self})", self.len),
            }
        );
        let stride = if positions.len < 2 {
            self.stride
        } else {
            // (len - 1) * stride * q spans part of self, so it fits.
            self.stride * positions.stride
        };
        Ok(StridedRange { first: self.at(p0 as usize), stride, len: positions.len })
    }

    /// The positions in `self` of the indices of `sub`, as a strided range of positions
    /// (the inverse of [`slice_positions`](Self::slice_positions)).
    ///
    /// # Errors
    /// [`Error::IndexOutOfBounds`] when `sub` is not a subset of `self`, and
    /// [`Error::InvalidArgument`] when a position would not fit in `i64` (ranges of more than
    /// `2^63` indices).
    ///
    /// ```
    /// use atoll_dist::StridedRange;
    /// let r = StridedRange::with_stride(-10, 10, 2)?;  // -10, -8, ..., 8
    /// let sub = StridedRange::with_stride(-6, 9, 6)?;  // -6, 0, 6
    /// assert_eq!(r.positions_of(&sub)?, StridedRange::with_stride(2, 9, 3)?);
    /// assert!(r.positions_of(&StridedRange::new(0, 3)).is_err());
    /// # Ok::<(), atoll_dist::Error>(())
    /// ```
    pub fn positions_of(&self, sub: &StridedRange) -> Result<StridedRange> {
        ensure!(sub.is_subset_of(self), Error::IndexOutOfBounds { index: sub.to_string(), bounds: self.to_string() });
        let Some(f) = sub.first() else {
            return Ok(StridedRange::empty());
        };
        let p0 = self.position(f).unwrap_or(0);
        let p0 = i64::try_from(p0).map_err(|_| invalid_arg!("the positions of {sub} in {self} do not fit in i64"))?;
        let stride = if sub.len < 2 { 1 } else { sub.stride / self.stride };
        StridedRange::from_parts(p0, stride, sub.len)
    }

    /// The range moved by `offset`: every index plus `offset`.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when an index would overflow `i64` (or reach `i64::MAX`).
    ///
    /// ```
    /// use atoll_dist::StridedRange;
    /// let r = StridedRange::with_stride(0, 10, 3)?.shift(-5)?;
    /// assert_eq!(r.iter().collect::<Vec<_>>(), [-5, -2, 1, 4]);
    /// assert!(StridedRange::new(0, 10).shift(i64::MAX).is_err());
    /// # Ok::<(), atoll_dist::Error>(())
    /// ```
    pub fn shift(&self, offset: i64) -> Result<StridedRange> {
        let first =
            self.first.checked_add(offset).ok_or_else(|| invalid_arg!("shifting {self} by {offset} overflows i64"))?;
        StridedRange::from_parts(first, self.stride, self.len)
    }

    /// An iterator over the indices in increasing order.
    pub fn iter(&self) -> RangeIter {
        RangeIter { range: *self, front: 0, back: self.len }
    }

    /// The range as a 128-bit progression.
    pub(crate) fn to_ap(self) -> Ap {
        Ap::new(self.first as i128, self.stride as u128, self.len as u128)
    }

    /// The range holding the elements of `ap`, which must be `i64` indices below `i64::MAX`.
    pub(crate) fn from_ap(ap: Ap) -> StridedRange {
        StridedRange {
            first: ap.first as i64,
            stride: u64::try_from(ap.stride).unwrap_or(u64::MAX),
            len: ap.len as usize,
        }
    }

    /// A range from parts known to be valid (internal results of index math).
    pub(crate) fn from_parts_unchecked(first: i64, stride: u64, len: usize) -> StridedRange {
        debug_assert!(StridedRange::from_parts(first, stride, len).is_ok());
        StridedRange { first, stride, len }
    }
}

impl Default for StridedRange {
    /// The empty range `0..0`.
    fn default() -> Self {
        StridedRange::empty()
    }
}

impl From<Range<i64>> for StridedRange {
    /// `lo..hi` with stride 1.
    fn from(r: Range<i64>) -> Self {
        StridedRange::new(r.start, r.end)
    }
}

impl PartialEq for StridedRange {
    fn eq(&self, other: &Self) -> bool {
        self.len == other.len
            && (self.len == 0 || self.first == other.first)
            && (self.len < 2 || self.stride == other.stride)
    }
}

impl Eq for StridedRange {}

impl Hash for StridedRange {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.len.hash(state);
        if self.len > 0 {
            self.first.hash(state);
        }
        if self.len > 1 {
            self.stride.hash(state);
        }
    }
}

impl fmt::Display for StridedRange {
    /// `lo..hi` or `lo..hi by stride` (with the tight exclusive `hi`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}..{}", self.lo(), self.hi())?;
        if self.stride != 1 && self.len > 1 {
            write!(f, " by {}", self.stride)?;
        }
        Ok(())
    }
}

/// The iterator over a [`StridedRange`]'s indices, from [`StridedRange::iter`].
#[derive(Clone, Debug)]
pub struct RangeIter {
    range: StridedRange,
    front: usize,
    back: usize,
}

impl Iterator for RangeIter {
    type Item = i64;

    #[inline]
    fn next(&mut self) -> Option<i64> {
        (self.front < self.back).then(|| {
            self.front += 1;
            self.range.at(self.front - 1)
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.back - self.front;
        (n, Some(n))
    }

    fn nth(&mut self, n: usize) -> Option<i64> {
        self.front = self.front.saturating_add(n).min(self.back);
        self.next()
    }
}

impl DoubleEndedIterator for RangeIter {
    #[inline]
    fn next_back(&mut self) -> Option<i64> {
        (self.front < self.back).then(|| {
            self.back -= 1;
            self.range.at(self.back)
        })
    }
}

impl ExactSizeIterator for RangeIter {}

impl FusedIterator for RangeIter {}

impl IntoIterator for StridedRange {
    type Item = i64;
    type IntoIter = RangeIter;
    fn into_iter(self) -> RangeIter {
        self.iter()
    }
}

impl IntoIterator for &StridedRange {
    type Item = i64;
    type IntoIter = RangeIter;
    fn into_iter(self) -> RangeIter {
        self.iter()
    }
}
