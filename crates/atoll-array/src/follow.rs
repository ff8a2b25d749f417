//! How a follower that is not aligned with the leader gets the values of one segment.
//!
//! Its elements for the segment form a strided sub-domain `sub` of its array (one row). The
//! local fast path: when this locale owns all of `sub` in one contiguous run, the row is a
//! borrowed slice of local storage. Otherwise the row is assembled in the task's scratch buffer:
//! the elements this locale owns are copied, and each remote element is fetched with its own get
//! (the fine-grained baseline, one message per element, as Chapel's original follower).

use crate::array::Inner;
use crate::elem::Elem;
use atoll_dist::{Distribution, Domain};
use atoll_error::Result;

/// The values of `sub` (which has `len` elements, in row-major order).
pub(crate) fn fetch<'s, T: Elem, const D: usize, M: Distribution<D>>(
    arr: &'s Inner<T, D, M>,
    sub: &Domain<D>,
    len: usize,
    scratch: &'s mut Vec<T>,
) -> Result<&'s [T]> {
    let (ctx, dist, store) = (&arr.ctx, &arr.dist, &arr.store);
    let here = ctx.id();
    if dist.grid().contains(here) {
        let runs = dist.runs(here, sub)?;
        if runs.count() == len && runs.num_patches() == 1 {
            if let Some(p) = runs.patches().next() {
                if len == 1 || (p.global.shape()[..D - 1].iter().all(|&n| n == 1) && p.local_strides[D - 1] == 1) {
                    // SAFETY: the runs of this locale are offsets inside its part; followers
                    // are read-only during a loop.
                    return Ok(unsafe { store.row(p.local_offset, len) });
                }
            }
        }
    }
    scratch.clear();
    scratch.resize(len, T::default());
    for &t in dist.grid().targets() {
        let runs = dist.runs(t, sub)?;
        if runs.is_empty() {
            continue;
        }
        if t == here {
            for (_, loc, pos) in runs.elements() {
                // SAFETY: as above.
                scratch[pos] = unsafe { store.read(loc) };
            }
        } else {
            for (_, loc, pos) in runs.elements() {
                store.get(ctx, t, loc, &mut scratch[pos..pos + 1])?;
            }
        }
    }
    Ok(&scratch[..])
}
