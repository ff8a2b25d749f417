//! Positions and indices: a sort's permutation names the input's elements either by their
//! **index** (in the input view's index space, the array's own indices, as views,
//! [`DistArray::take`] and `get` use) or by their **position** `0..len` in the view's
//! row-major order. [`argsort`](crate::argsort) and [`coargsort`](crate::coargsort) return
//! indices, so `a.take(&argsort(&a.view())?)` is the sorted array for any domain (offset,
//! strided, or a view); [`argsort_positions`](crate::argsort_positions) and
//! [`coargsort_positions`](crate::coargsort_positions) return positions. Both are the same
//! when the input's domain is `0..len`.

use atoll_array::{DistArray, StridedRange};
use atoll_error::Result;

/// Turns the positions `p` held in `perm` into the indices `range.nth(p)` of `range` (the
/// input's index range), in place; nothing to do when they are the same (`0..len`).
/// **Collective** (every locale has the same `range`).
pub(crate) fn positions_to_indices(perm: &mut DistArray<i64, 1>, range: &StridedRange) -> Result<()> {
    let (first, stride) = (range.first().unwrap_or(0), range.stride() as i64);
    if first == 0 && (stride == 1 || range.len() <= 1) {
        return Ok(());
    }
    // An owner-computes pass over the permutation's own elements (a collective loop).
    perm.zip_apply(atoll_array::Scalar(()), |x, ()| *x = first + *x * stride)
}
