//! Row writers: how the loops write the leader's elements of a segment, and how a locale
//! writes a packed buffer to its own storage.

use crate::elem::Elem;
use crate::storage::Storage;
use crate::zip::Seg;

/// Writes `f(j)` to the leader's elements of `seg`.
#[inline]
pub(crate) fn write_row<T: Elem, const D: usize>(store: &Storage<T>, seg: &Seg<D>, f: impl Fn(usize) -> T) {
    if seg.off_step == 1 {
        // SAFETY: a segment is a run of the leader's own storage, and the segments of one loop
        // are disjoint, so no other task touches it.
        let out = unsafe { store.row_mut(seg.off, seg.len) };
        for (j, x) in out.iter_mut().enumerate() {
            *x = f(j);
        }
    } else {
        for j in 0..seg.len {
            // SAFETY: as above.
            unsafe { store.write(seg.off + j * seg.off_step, f(j)) };
        }
    }
}

/// Applies `f(j, &mut x)` to the leader's elements of `seg`.
#[inline]
pub(crate) fn update_row<T: Elem, const D: usize>(store: &Storage<T>, seg: &Seg<D>, mut f: impl FnMut(usize, &mut T)) {
    if seg.off_step == 1 {
        // SAFETY: as in `write_row`.
        let out = unsafe { store.row_mut(seg.off, seg.len) };
        for (j, x) in out.iter_mut().enumerate() {
            f(j, x);
        }
    } else {
        for j in 0..seg.len {
            let o = seg.off + j * seg.off_step;
            // SAFETY: as in `write_row`.
            unsafe {
                let mut x = store.read(o);
                f(j, &mut x);
                store.write(o, x);
            }
        }
    }
}

/// Writes `buf` (packed, row-major over `shape`) to this locale's storage at offsets
/// `off + sum(t[d] * strides[d])`. The caller owns those elements (no other task writes them).
pub(crate) fn scatter_local<T: Elem, const D: usize>(
    store: &Storage<T>,
    off: usize,
    strides: &[usize; D],
    shape: &[usize; D],
    buf: &[T],
) {
    crate::util::for_each_offset(off, strides, shape, |k, o| {
        // SAFETY: the offsets come from the distribution's runs of this locale, in bounds.
        unsafe { store.write(o, buf[k]) }
    });
}
