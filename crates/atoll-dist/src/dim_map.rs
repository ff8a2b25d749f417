//! [`DimMap`]: how one dimension of a domain is split over the grid coordinates along that
//! dimension. Distributions are products of these (one per dimension), as Chapel's
//! dimensional distributions are products of dimension specifiers.

use std::fmt::Debug;

use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::math::Ap;
use crate::{Piece, StridedRange};

/// The map of one dimension: the positions `0..len()` of the dimension's [`StridedRange`]
/// are split over `parts()` grid coordinates ("parts"); each part stores the positions it owns
/// densely, in increasing order, at local positions `0..local_len(part)`.
///
/// All methods are O(1) except [`pieces`](DimMap::pieces), which is O(pieces). Methods that take
/// a position expect `pos < len()`; for larger positions they return unspecified values but never
/// panic. [`BlockDim`](crate::BlockDim), [`CyclicDim`](crate::CyclicDim) and
/// [`BlockCyclicDim`](crate::BlockCyclicDim) implement it.
pub trait DimMap: Clone + Debug + PartialEq + Send + Sync + Serialize + DeserializeOwned {
    /// The dimension's indices.
    fn range(&self) -> &StridedRange;

    /// The number of grid coordinates along this dimension (at least 1).
    fn parts(&self) -> usize;

    /// The part (grid coordinate) that owns position `pos`.
    fn part_of(&self, pos: usize) -> usize;

    /// The local position of position `pos` in its owner's buffer along this dimension.
    fn local_pos(&self, pos: usize) -> usize;

    /// Both [`part_of`](Self::part_of) and [`local_pos`](Self::local_pos) of `pos`.
    #[inline]
    fn locate(&self, pos: usize) -> (usize, usize) {
        (self.part_of(pos), self.local_pos(pos))
    }

    /// The position of local position `local` of `part`, or `None` when `part >= parts()` or
    /// `local >= local_len(part)`.
    fn global_pos(&self, part: usize, local: usize) -> Option<usize>;

    /// How many positions `part` owns (0 for `part >= parts()`).
    fn local_len(&self, part: usize) -> usize;

    /// Appends to `out` the pieces of the indices of `sub` (any strided range, clipped to
    /// this dimension) that `part` owns, in increasing order of their first index. Appends
    /// nothing for `part >= parts()`.
    fn pieces(&self, part: usize, sub: &StridedRange, out: &mut Vec<Piece>);

    /// Where the positions `p + shift` are stored, for the positions `p` of `part`'s local
    /// positions `start..start + len` in order (row position `j` for local position
    /// `start + j`): appends to `out` (after clearing it) strided copies that, applied in
    /// order, fill the row (a later copy overwrites an earlier one). `false` when this map
    /// does not describe them (the caller reads otherwise), or when a shifted position leaves
    /// the dimension. Only [`BlockCyclicDim`](crate::BlockCyclicDim) describes them: a part of
    /// other maps owns runs of consecutive positions, read as such.
    fn shifted_moves(
        &self,
        part: usize,
        start: usize,
        len: usize,
        shift: i64,
        out: &mut Vec<crate::ShiftMove>,
    ) -> bool {
        let _ = (part, start, len, shift);
        out.clear();
        false
    }

    /// The number of positions.
    fn len(&self) -> usize {
        self.range().len()
    }

    /// Whether the dimension is empty.
    fn is_empty(&self) -> bool {
        self.range().is_empty()
    }

    /// The part and local position of index `i`, or `None` when `i` is not in
    /// [`range`](Self::range).
    fn locate_index(&self, i: i64) -> Option<(usize, usize)> {
        self.range().position(i).map(|p| self.locate(p))
    }

    /// How many indices of `sub` `part` owns: the total length of its pieces.
    fn count(&self, part: usize, sub: &StridedRange) -> usize {
        let mut out = Vec::new();
        self.pieces(part, sub, &mut out);
        out.iter().map(Piece::len).sum()
    }
}

/// The positions in `range` of the indices of `sub` that lie in `range`, as a progression.
pub(crate) fn sub_positions(range: &StridedRange, sub: &StridedRange) -> Ap {
    let common = range.to_ap().intersect(&sub.to_ap());
    if common.len == 0 {
        return Ap::empty(0);
    }
    let s = range.stride() as u128;
    // With two or more elements the common stride is a multiple of the range's stride.
    let step = if common.len >= 2 { common.step() / s } else { 1 };
    Ap::new((common.first - range.lo() as i128) / s as i128, step, common.len)
}
