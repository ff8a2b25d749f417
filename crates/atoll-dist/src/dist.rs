//! The [`Distribution`] trait: how a domain's indices are mapped to targets and to offsets in
//! each target's dense local buffer.

use std::fmt::{self, Debug, Write as _};

use atoll_error::{ensure, invalid_arg, Error, Result};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::domain::row_major_strides;
use crate::{DimMap, Domain, LocaleGrid, Piece, Runs, StridedRange};

/// Which distribution a [`Distribution`] is, for reports and logs (array code never needs
/// to match on it: everything goes through the trait).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub enum DistKind {
    /// [`Block`](crate::Block): one contiguous block per target along each dimension.
    Block,
    /// [`Cyclic`](crate::Cyclic): round-robin along each dimension.
    Cyclic,
    /// [`BlockCyclic`](crate::BlockCyclic): blocks of a fixed size, round-robin.
    BlockCyclic,
}

impl fmt::Display for DistKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DistKind::Block => "Block",
            DistKind::Cyclic => "Cyclic",
            DistKind::BlockCyclic => "BlockCyclic",
        })
    }
}

/// A distribution of a rectangular [`Domain`] over the targets of a [`LocaleGrid`]: pure
/// index math, no communication.
///
/// Each target stores the indices it owns densely, in row-major order of its owned sub-grid,
/// in a local buffer of [`local_len`](Self::local_len) elements. The trait maps a global index
/// to its owner and local offset ([`owner`](Self::owner), [`local_index`](Self::local_index),
/// [`locate`](Self::locate)), a (target, local offset) back to the global index
/// ([`global_index`](Self::global_index)), and tells what a target owns of any strided
/// sub-domain as a few strided pieces ([`runs`](Self::runs)), which is what owner-computes
/// loops and aggregated strided transfers need.
///
/// Distributions are products of one [`DimMap`] per dimension over the grid: the owner of
/// `idx` has grid coordinate `dim_maps()[d].part_of(position of idx[d])` along each dimension
/// `d`. Implementors give the `Dim` type and four methods; everything else is provided,
/// and all of it is O(1) per index (O(pieces) for [`runs`](Self::runs)).
///
/// # Local layout
/// With owner coordinates `c` and per-dimension local positions `l[d]`, the local offset is
/// `sum(l[d] * s[d])` where `s` are the row-major strides of the owner's local shape
/// `[dim_maps()[d].local_len(c[d])]` ([`local_strides`](Self::local_strides)). Array code
/// can precompute `s` for its own target and use [`dimension_map`](Self::dimension_map) to
/// get `l[d]`.
///
/// # Indices outside the domain
/// [`owner`](Self::owner), [`owner_coords`](Self::owner_coords),
/// [`local_index`](Self::local_index) and [`locate`](Self::locate) are total and never
/// panic: an index outside the domain is first moved, per dimension, to the nearest position
/// of the domain (clamped into the range and rounded down onto its stride), so its
/// owner and local index are those of that element. Use the `checked_` variants to get an
/// error instead.
///
/// ```
/// use atoll_dist::{Block, Distribution, Domain, LocaleGrid};
///
/// let dist = Block::new(Domain::from_shape([8, 8])?, LocaleGrid::auto(0..6)?);
/// assert_eq!(dist.owner([4, 6]), 3);
/// assert_eq!(dist.local_shape(3)?, [3, 4]);
/// assert_eq!(dist.locate([4, 6]), (3, 6)); // row 1, column 2 of target 3's 3x4 block
/// assert_eq!(dist.global_index(3, 6)?, [4, 6]);
/// assert!(dist.checked_owner([8, 0]).is_err());
/// # Ok::<(), atoll_dist::Error>(())
/// ```
pub trait Distribution<const D: usize>: Clone + Debug + PartialEq + Send + Sync + Serialize + DeserializeOwned {
    /// The map of one dimension.
    type Dim: DimMap;

    /// Which distribution this is.
    fn kind(&self) -> DistKind;

    /// The distributed domain (Chapel's bounding box).
    fn domain(&self) -> &Domain<D>;

    /// The targets, arranged in a grid of rank `D`.
    fn grid(&self) -> &LocaleGrid<D>;

    /// The per-dimension maps; `dim_maps()[d]` splits `domain().dims()[d]` over
    /// `grid().shape()[d]` grid coordinates.
    fn dim_maps(&self) -> &[Self::Dim; D];

    /// The map of dimension `dim`, to compute local positions along it.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when `dim >= D`.
    fn dimension_map(&self, dim: usize) -> Result<&Self::Dim> {
        self.dim_maps().get(dim).ok_or_else(|| invalid_arg!("dimension {dim} does not exist: the rank is {D}"))
    }

    /// The grid coordinates of the owner of `idx` (see *Indices outside the domain*).
    #[inline]
    fn owner_coords(&self, idx: [i64; D]) -> [usize; D] {
        let maps = self.dim_maps();
        let mut coords = [0usize; D];
        for d in 0..D {
            let m = &maps[d];
            coords[d] = m.part_of(m.range().clamped_position(idx[d]));
        }
        coords
    }

    /// The target that owns `idx` (see *Indices outside the domain*).
    #[inline]
    fn owner(&self, idx: [i64; D]) -> usize {
        self.grid().target_unchecked(self.owner_coords(idx))
    }

    /// The target that owns `idx`.
    ///
    /// # Errors
    /// [`Error::IndexOutOfBounds`] when `idx` is not in the domain.
    fn checked_owner(&self, idx: [i64; D]) -> Result<usize> {
        self.domain().ensure_contains(idx)?;
        Ok(self.owner(idx))
    }

    /// The owner of `idx` and its offset in the owner's local buffer (see *Indices outside
    /// the domain*).
    #[inline]
    fn locate(&self, idx: [i64; D]) -> (usize, usize) {
        let maps = self.dim_maps();
        let mut coords = [0usize; D];
        let mut local = [0usize; D];
        for d in 0..D {
            let m = &maps[d];
            (coords[d], local[d]) = m.locate(m.range().clamped_position(idx[d]));
        }
        let (mut offset, mut stride) = (0usize, 1usize);
        for d in (0..D).rev() {
            offset += local[d] * stride;
            stride = stride.wrapping_mul(maps[d].local_len(coords[d]));
        }
        (self.grid().target_unchecked(coords), offset)
    }

    /// The owner of `idx` and its offset in the owner's local buffer.
    ///
    /// # Errors
    /// [`Error::IndexOutOfBounds`] when `idx` is not in the domain.
    fn checked_locate(&self, idx: [i64; D]) -> Result<(usize, usize)> {
        self.domain().ensure_contains(idx)?;
        Ok(self.locate(idx))
    }

    /// The offset of `idx` in its owner's local buffer (see *Indices outside the domain*).
    #[inline]
    fn local_index(&self, idx: [i64; D]) -> usize {
        self.locate(idx).1
    }

    /// The offset of `idx` in its owner's local buffer.
    ///
    /// # Errors
    /// [`Error::IndexOutOfBounds`] when `idx` is not in the domain.
    fn checked_local_index(&self, idx: [i64; D]) -> Result<usize> {
        Ok(self.checked_locate(idx)?.1)
    }

    /// The global index stored at offset `local` of `target`'s buffer: the inverse of
    /// [`locate`](Self::locate).
    ///
    /// # Errors
    /// A grid error when `target` is not in the grid (see [`LocaleGrid::place`]), and
    /// [`Error::IndexOutOfBounds`] when `local >= local_len(target)`.
    fn global_index(&self, target: usize, local: usize) -> Result<[i64; D]> {
        let coords = self.grid().coords(target)?;
        let shape = self.local_shape(target)?;
        let len: usize = shape.iter().product();
        ensure!(
            local < len,
            Error::IndexOutOfBounds {
                index: format!("local offset {local}"),
                bounds: format!("0..{len} (the local buffer of target {target})"),
            }
        );
        let maps = self.dim_maps();
        let mut idx = [0i64; D];
        let mut rest = local;
        for d in (0..D).rev() {
            let l = rest % shape[d];
            rest /= shape[d];
            let pos = maps[d].global_pos(coords[d], l).ok_or_else(|| {
                invalid_arg!("inconsistent dimension map: part {} has no local position {l}", coords[d])
            })?;
            idx[d] = maps[d].range().at_unchecked(pos);
        }
        Ok(idx)
    }

    /// The shape of `target`'s owned sub-grid (its local buffer is dense, row-major).
    ///
    /// # Errors
    /// A grid error when `target` is not in the grid.
    fn local_shape(&self, target: usize) -> Result<[usize; D]> {
        let coords = self.grid().coords(target)?;
        let maps = self.dim_maps();
        let mut shape = [0usize; D];
        for d in 0..D {
            shape[d] = maps[d].local_len(coords[d]);
        }
        Ok(shape)
    }

    /// How many indices `target` owns.
    ///
    /// # Errors
    /// A grid error when `target` is not in the grid.
    fn local_len(&self, target: usize) -> Result<usize> {
        // At most the domain's size, so the product cannot overflow.
        Ok(self.local_shape(target)?.iter().product())
    }

    /// The row-major strides of `target`'s local buffer.
    ///
    /// # Errors
    /// A grid error when `target` is not in the grid.
    fn local_strides(&self, target: usize) -> Result<[usize; D]> {
        Ok(row_major_strides(&self.local_shape(target)?))
    }

    /// The indices of the strided sub-domain `sub` that `target` owns, as per-dimension
    /// pieces with their local positions and their positions in `sub` (see [`Runs`]). `sub`
    /// may be any domain: indices outside the distribution's domain are owned by no one.
    ///
    /// Per dimension, Block and Cyclic give at most one piece; BlockCyclic gives at most
    /// `min(ceil(B / gcd(q, B*N)), m)` pieces for `m` indices of `sub` in the dimension at
    /// position stride `q`, block size `B` and `N` grid coordinates: the number does not grow
    /// with the length of the range.
    ///
    /// # Errors
    /// A grid error when `target` is not in the grid.
    ///
    /// ```
    /// use atoll_dist::{Cyclic, Distribution, Domain, LocaleGrid, StridedRange};
    ///
    /// // Jacobi-2D on a Cyclic 8x8 array over a 2x2 grid (the modulo-unrolling paper's
    /// // Figure 6): the A[i, j-1] read by the iterations (i, j) = (2, 2), (2, 4), ..., (6, 6)
    /// // is A[2..7 by 2, 1..6 by 2], all on target 1: one strided get.
    /// let dist = Cyclic::new(Domain::from_shape([8, 8])?, LocaleGrid::new(0..4, [2, 2])?);
    /// let sub = Domain::new([StridedRange::with_stride(2, 8, 2)?, StridedRange::with_stride(1, 7, 2)?])?;
    /// assert!(dist.runs(0, &sub)?.is_empty());
    /// let runs = dist.runs(1, &sub)?;
    /// assert_eq!((runs.count(), runs.num_patches()), (9, 1));
    /// let patch = runs.patches().next().unwrap();
    /// assert_eq!((patch.local_offset, patch.local_strides), (4, [4, 1]));
    /// # Ok::<(), atoll_dist::Error>(())
    /// ```
    fn runs(&self, target: usize, sub: &Domain<D>) -> Result<Runs<D>> {
        let coords = self.grid().coords(target)?;
        let maps = self.dim_maps();
        let mut pieces: [Vec<Piece>; D] = std::array::from_fn(|_| Vec::new());
        let mut shape = [0usize; D];
        for d in 0..D {
            shape[d] = maps[d].local_len(coords[d]);
        }
        for d in 0..D {
            maps[d].pieces(coords[d], &sub.dims()[d], &mut pieces[d]);
            if pieces[d].is_empty() {
                break;
            }
        }
        Ok(Runs::new(target, pieces, row_major_strides(&shape), sub.row_major_strides()))
    }

    /// The pieces of the strided range `sub` that grid coordinate `coord` owns along
    /// dimension `dim`: one dimension of [`runs`](Self::runs).
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when `dim >= D`, [`Error::IndexOutOfBounds`] when `coord`
    /// is not below the grid's extent along `dim`.
    fn runs_1d(&self, dim: usize, coord: usize, sub: &StridedRange) -> Result<Vec<Piece>> {
        let map = self.dimension_map(dim)?;
        ensure!(
            coord < map.parts(),
            Error::IndexOutOfBounds {
                index: format!("grid coordinate {coord}"),
                bounds: format!("0..{} (the grid along dimension {dim})", map.parts()),
            }
        );
        let mut out = Vec::new();
        map.pieces(coord, sub, &mut out);
        Ok(out)
    }

    /// How many indices of `sub` `target` owns, in O(pieces).
    ///
    /// # Errors
    /// A grid error when `target` is not in the grid.
    fn count(&self, target: usize, sub: &Domain<D>) -> Result<usize> {
        let coords = self.grid().coords(target)?;
        let maps = self.dim_maps();
        let mut total = 1usize;
        for d in 0..D {
            total *= maps[d].count(coords[d], &sub.dims()[d]);
            if total == 0 {
                break;
            }
        }
        Ok(total)
    }

    /// The owner of every index, as text: one line per row of the last dimension, targets
    /// right-aligned and separated by a space; for rank 3, planes (first index) separated by
    /// a blank line. Meant for small domains: docs, tests and debugging.
    fn owner_map(&self) -> String {
        let dom = self.domain();
        let shape = dom.shape();
        let width = self.grid().targets().iter().map(|t| t.to_string().len()).max().unwrap_or(1);
        let mut text = String::new();
        let row = shape[D - 1];
        let plane = if D == 3 { shape[1] * shape[2] } else { usize::MAX };
        for (k, idx) in dom.iter().enumerate() {
            if k > 0 && k % row == 0 {
                text.push('\n');
                if k % plane == 0 {
                    text.push('\n');
                }
            } else if k > 0 {
                text.push(' ');
            }
            let _ = write!(text, "{:>width$}", self.owner(idx));
        }
        if !dom.is_empty() {
            text.push('\n');
        }
        text
    }
}
