//! [`StridedRow`]: the values of one segment read in place at a fixed stride, so that a view
//! operand whose elements are evenly spaced in memory (a BlockCyclic leader's residue tile, a
//! strided view such as `x[0..n by 2]`, a follower chunk that one locale owns with a fixed
//! element stride) is not copied into a scratch row first. A contiguous row is stride 1 (LLVM
//! versions loops over a runtime stride for stride 1, so contiguous rows still vectorize).

use crate::zip::Row;
use std::marker::PhantomData;

/// `len` values at `ptr`, `ptr + stride`, ... (in elements), borrowed for `'a`.
#[derive(Clone, Copy)]
pub struct StridedRow<'a, T> {
    ptr: *const T,
    stride: usize,
    len: usize,
    _borrow: PhantomData<&'a [T]>,
}

// SAFETY: a `StridedRow` is a shared borrow of `T` values (as `&'a [T]`), so it may move to or
// be shared with another thread when `&T` may.
unsafe impl<T: Sync> Send for StridedRow<'_, T> {}
// SAFETY: as above.
unsafe impl<T: Sync> Sync for StridedRow<'_, T> {}

impl<'a, T> StridedRow<'a, T> {
    /// A contiguous row: the slice itself.
    #[inline]
    pub fn from_slice(s: &'a [T]) -> Self {
        StridedRow { ptr: s.as_ptr(), stride: 1, len: s.len(), _borrow: PhantomData }
    }

    /// The row at `ptr` with `len` elements `stride` apart.
    ///
    /// # Safety
    /// For `j < len`, `ptr + j * stride` is an initialized `T` that nothing writes while `'a`
    /// lasts (when `len > 0`, `(len - 1) * stride` does not overflow).
    #[inline]
    pub(crate) unsafe fn from_raw(ptr: *const T, stride: usize, len: usize) -> Self {
        StridedRow { ptr, stride, len, _borrow: PhantomData }
    }

    /// The number of values.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the row has no value.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The element stride (1: contiguous).
    #[inline]
    pub fn stride(&self) -> usize {
        self.stride
    }

    /// The values, copied into a vector (tests and diagnostics).
    pub fn to_vec(&self) -> Vec<T>
    where
        T: Copy,
    {
        (0..self.len).map(|j| self.at(j)).collect()
    }
}

/// The panic of [`StridedRow`]'s `at` for `j >= len`, out of line.
#[cold]
#[inline(never)]
#[track_caller]
fn out_of_bounds(j: usize, len: usize) -> ! {
    panic!("row index {j} out of bounds ({len})")
}

impl<T: Copy> Row for StridedRow<'_, T> {
    type Item = T;
    #[inline(always)]
    fn at(&self, j: usize) -> T {
        // The check's failure is a call with `j` by value: a panic message formatted here
        // took `j` by reference, which kept the loop counter in memory, one more store per
        // element in every strided loop (the folding kernel's loop ran 2-3x slower,
        // measured on a 2-vCPU guest).
        if j >= self.len {
            out_of_bounds(j, self.len);
        }
        // SAFETY: `j < len`, and the constructor's contract makes `ptr + j * stride` a live,
        // initialized `T` that nothing writes while the row is borrowed.
        unsafe { self.ptr.add(j * self.stride).read() }
    }
    type Unit<'r>
        = &'r [T]
    where
        Self: 'r;
    #[inline(always)]
    fn unit(&self) -> Option<&[T]> {
        // SAFETY: a contiguous row (`stride == 1`, or at most one element) is `len` live,
        // initialized `T`s from `ptr` that nothing writes while the row is borrowed (the
        // constructor's contract), as a slice.
        (self.stride == 1 || self.len <= 1).then(|| unsafe { std::slice::from_raw_parts(self.ptr, self.len) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_strided_row_reads_every_stride_th_value() {
        let v: Vec<u32> = (0..10).collect();
        // SAFETY: elements 1, 4, 7 of `v`, which outlives the row and is not written.
        let r = unsafe { StridedRow::from_raw(v.as_ptr().add(1), 3, 3) };
        assert_eq!(r.to_vec(), vec![1, 4, 7]);
        assert!(r.unit().is_none());
        assert_eq!(StridedRow::from_slice(&v[2..5]).unit(), Some(&[2u32, 3, 4][..]));
    }

    #[test]
    #[should_panic(expected = "row index 3 out of bounds (3)")]
    fn reading_past_a_strided_row_panics_with_the_index() {
        let v = [1.0f64; 8];
        // SAFETY: elements 0, 2, 4 of `v`, which outlives the row and is not written.
        let r = unsafe { StridedRow::from_raw(v.as_ptr(), 2, 3) };
        let _ = r.at(3);
    }
}
