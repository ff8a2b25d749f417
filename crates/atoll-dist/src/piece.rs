//! What a target owns of a sub-domain: per-dimension [`Piece`]s, gathered in [`Runs`], whose
//! products are D-dimensional strided boxes ([`Patch`]es), each one strided transfer.

use std::iter::FusedIterator;

use serde::{Deserialize, Serialize};

use crate::{Domain, StridedRange};

/// A strided run of indices along one dimension that one grid coordinate owns inside a
/// sub-range, with where those elements sit in the owner's local buffer and in the sub-range.
///
/// Element `t` (for `t < len()`) is the global index `global.nth(t)`; along this dimension it
/// has local position `local_start + t * local_stride` in the owner's dense buffer and position
/// `sub_start + t * sub_stride` in the sub-range that was asked about. So a piece is one
/// strided copy between the owner's buffer and a buffer laid out like the sub-range. For a
/// piece of one element all three strides are 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Piece {
    /// The global indices.
    pub global: StridedRange,
    /// The local position (along this dimension) of the first index in the owner's buffer.
    pub local_start: usize,
    /// The local-position step between consecutive elements.
    pub local_stride: usize,
    /// The position of the first index in the sub-range.
    pub sub_start: usize,
    /// The sub-range-position step between consecutive elements.
    pub sub_stride: usize,
}

impl Piece {
    /// Builds a piece from positions in `range` (the dimension's range): `len` elements at
    /// positions `pos_first + t * pos_step`, local positions `local_start + t * local_step`,
    /// all of them indices of `sub`.
    pub(crate) fn from_positions(
        range: &StridedRange,
        sub: &StridedRange,
        pos_first: u128,
        pos_step: u128,
        len: u128,
        local_start: u128,
        local_step: u128,
    ) -> Piece {
        debug_assert!(len >= 1);
        let first = range.lo() as i128 + (pos_first * range.stride() as u128) as i128;
        let (global_stride, local_stride) =
            if len >= 2 { (pos_step * range.stride() as u128, local_step) } else { (1, 1) };
        let sub_stride = if len >= 2 { global_stride / sub.stride() as u128 } else { 1 };
        let sub_start = (first - sub.lo() as i128) as u128 / sub.stride() as u128;
        // All values describe elements of valid ranges and buffers, so they fit.
        Piece {
            global: StridedRange::from_parts_unchecked(first as i64, global_stride as u64, len as usize),
            local_start: local_start as usize,
            local_stride: local_stride as usize,
            sub_start: sub_start as usize,
            sub_stride: sub_stride as usize,
        }
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.global.len()
    }

    /// Whether the piece has no element (pieces returned by distributions never are empty).
    pub fn is_empty(&self) -> bool {
        self.global.is_empty()
    }

    /// The elements as `(global index, local position, sub position)`.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (i64, usize, usize)> + '_ {
        self.global
            .iter()
            .enumerate()
            .map(move |(t, i)| (i, self.local_start + t * self.local_stride, self.sub_start + t * self.sub_stride))
    }
}

/// The elements of a sub-domain owned by one target, from
/// [`Distribution::runs`](crate::Distribution::runs): per dimension a list of [`Piece`]s;
/// the owned elements are exactly the Cartesian product of the per-dimension pieces.
///
/// Each combination of one piece per dimension is a [`Patch`]: a D-dimensional strided box
/// that is one strided transfer between the owner's buffer and a buffer laid out like the
/// sub-domain (row-major). If any dimension has no piece, no dimension has one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Runs<const D: usize> {
    target: usize,
    #[serde(with = "crate::serde_array")]
    pieces: [Vec<Piece>; D],
    #[serde(with = "crate::serde_array")]
    local_strides: [usize; D],
    #[serde(with = "crate::serde_array")]
    sub_strides: [usize; D],
}

impl<const D: usize> Runs<D> {
    /// Assembles runs; empties every dimension when one is empty.
    pub(crate) fn new(
        target: usize,
        mut pieces: [Vec<Piece>; D],
        local_strides: [usize; D],
        sub_strides: [usize; D],
    ) -> Self {
        if pieces.iter().any(Vec::is_empty) {
            pieces.iter_mut().for_each(Vec::clear);
        }
        Runs { target, pieces, local_strides, sub_strides }
    }

    /// The target that owns these elements.
    pub fn target(&self) -> usize {
        self.target
    }

    /// The pieces, per dimension, in increasing order of their first global index.
    pub fn pieces(&self) -> &[Vec<Piece>; D] {
        &self.pieces
    }

    /// The row-major strides of the owner's local buffer (its local offset is
    /// `sum(local_pos[d] * local_strides[d])`).
    pub fn local_strides(&self) -> [usize; D] {
        self.local_strides
    }

    /// The row-major strides of the sub-domain (the position of an index in the sub-domain is
    /// `sum(sub_pos[d] * sub_strides[d])`).
    pub fn sub_strides(&self) -> [usize; D] {
        self.sub_strides
    }

    /// The number of owned elements.
    pub fn count(&self) -> usize {
        self.pieces.iter().map(|ps| ps.iter().map(Piece::len).sum::<usize>()).product()
    }

    /// Whether the target owns no element of the sub-domain.
    pub fn is_empty(&self) -> bool {
        self.pieces.iter().any(Vec::is_empty)
    }

    /// The number of patches (strided transfers): the product of the piece counts.
    pub fn num_patches(&self) -> usize {
        self.pieces.iter().map(Vec::len).product()
    }

    /// The patches, the last dimension's pieces varying fastest.
    pub fn patches(&self) -> Patches<'_, D> {
        let remaining = self.num_patches();
        Patches { runs: self, next: [0; D], remaining }
    }

    /// Every owned element as `(global index, local offset in the owner's buffer, row-major
    /// position in the sub-domain)`, patch by patch.
    pub fn elements(&self) -> impl Iterator<Item = ([i64; D], usize, usize)> + '_ {
        self.patches().flat_map(|p| p.iter())
    }
}

/// A D-dimensional strided box owned by one target: one strided transfer. Element `t`
/// (per-dimension counters `t[d] < global.shape()[d]`) is the global index
/// `global.dims()[d].nth(t[d])`, at offset `local_offset + sum(t[d] * local_strides[d])` in the
/// owner's buffer and at row-major position `sub_offset + sum(t[d] * sub_strides[d])` in the
/// sub-domain.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Patch<const D: usize> {
    /// The global indices.
    pub global: Domain<D>,
    /// The offset of the first element in the owner's buffer.
    pub local_offset: usize,
    /// Per-dimension element strides in the owner's buffer.
    #[serde(with = "crate::serde_array")]
    pub local_strides: [usize; D],
    /// The row-major position of the first element in the sub-domain.
    pub sub_offset: usize,
    /// Per-dimension element strides in the sub-domain's row-major order.
    #[serde(with = "crate::serde_array")]
    pub sub_strides: [usize; D],
}

impl<const D: usize> Patch<D> {
    /// The number of elements.
    pub fn len(&self) -> usize {
        self.global.size()
    }

    /// Whether the patch has no element (patches from [`Runs`] never are empty).
    pub fn is_empty(&self) -> bool {
        self.global.is_empty()
    }

    /// The elements as `(global index, local offset, sub-domain position)`, row-major.
    pub fn iter(&self) -> PatchIter<D> {
        PatchIter { patch: self.clone(), pos: [0; D], remaining: self.len() }
    }
}

/// The iterator over a [`Patch`]'s elements, from [`Patch::iter`].
#[derive(Clone, Debug)]
pub struct PatchIter<const D: usize> {
    patch: Patch<D>,
    pos: [usize; D],
    remaining: usize,
}

impl<const D: usize> Iterator for PatchIter<D> {
    type Item = ([i64; D], usize, usize);

    fn next(&mut self) -> Option<Self::Item> {
        if self.remaining == 0 {
            return None;
        }
        self.remaining -= 1;
        let p = &self.patch;
        let idx: [i64; D] = std::array::from_fn(|d| p.global.dims()[d].at_unchecked(self.pos[d]));
        let (mut local, mut sub) = (p.local_offset, p.sub_offset);
        for d in 0..D {
            local += self.pos[d] * p.local_strides[d];
            sub += self.pos[d] * p.sub_strides[d];
        }
        for d in (0..D).rev() {
            self.pos[d] += 1;
            if self.pos[d] < p.global.dims()[d].len() {
                break;
            }
            self.pos[d] = 0;
        }
        Some((idx, local, sub))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }
}

impl<const D: usize> ExactSizeIterator for PatchIter<D> {}

impl<const D: usize> FusedIterator for PatchIter<D> {}

/// The iterator over the [`Patch`]es of [`Runs`], from [`Runs::patches`].
#[derive(Clone, Debug)]
pub struct Patches<'a, const D: usize> {
    runs: &'a Runs<D>,
    next: [usize; D],
    remaining: usize,
}

impl<const D: usize> Iterator for Patches<'_, D> {
    type Item = Patch<D>;

    fn next(&mut self) -> Option<Patch<D>> {
        if self.remaining == 0 {
            return None;
        }
        self.remaining -= 1;
        let runs = self.runs;
        let mut dims = [StridedRange::empty(); D];
        let (mut local_offset, mut sub_offset) = (0usize, 0usize);
        let mut local_strides = [0usize; D];
        let mut sub_strides = [0usize; D];
        for d in 0..D {
            let piece = &runs.pieces[d][self.next[d]];
            dims[d] = piece.global;
            local_offset += piece.local_start * runs.local_strides[d];
            sub_offset += piece.sub_start * runs.sub_strides[d];
            local_strides[d] = piece.local_stride * runs.local_strides[d];
            sub_strides[d] = piece.sub_stride * runs.sub_strides[d];
        }
        for d in (0..D).rev() {
            self.next[d] += 1;
            if self.next[d] < runs.pieces[d].len() {
                break;
            }
            self.next[d] = 0;
        }
        Some(Patch { global: Domain::from_dims_unchecked(dims), local_offset, local_strides, sub_offset, sub_strides })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }
}

impl<const D: usize> ExactSizeIterator for Patches<'_, D> {}

impl<const D: usize> FusedIterator for Patches<'_, D> {}
