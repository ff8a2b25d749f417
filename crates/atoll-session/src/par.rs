//! The one unsafe piece of the crate: disjoint chunks of a locale's part written by the
//! locale's task pool.

use std::marker::PhantomData;
use std::ops::Range;

/// A slice that tasks write in disjoint ranges.
pub struct Disjoint<'a, T> {
    ptr: *mut T,
    len: usize,
    _life: PhantomData<&'a mut [T]>,
}

// SAFETY: a `Disjoint` only hands out `&mut` sub-slices through `chunk`, whose callers promise
// disjoint ranges; `T: Send` makes moving those sub-slices' elements across threads sound.
unsafe impl<T: Send> Send for Disjoint<'_, T> {}
// SAFETY: as above: shared access only creates sub-slices for disjoint ranges.
unsafe impl<T: Send> Sync for Disjoint<'_, T> {}

impl<'a, T> Disjoint<'a, T> {
    /// Wraps `s` for the duration of a parallel loop.
    pub fn new(s: &'a mut [T]) -> Self {
        Disjoint { ptr: s.as_mut_ptr(), len: s.len(), _life: PhantomData }
    }

    /// The elements of `r`.
    ///
    /// # Safety
    /// Ranges passed by concurrent callers must not overlap (the chunks of one
    /// `Ctx::forall_chunks_with` loop do not).
    #[allow(clippy::mut_from_ref)]
    pub unsafe fn chunk(&self, r: Range<usize>) -> &mut [T] {
        assert!(r.start <= r.end && r.end <= self.len, "chunk {r:?} outside 0..{}", self.len);
        // SAFETY: in bounds (checked above) of a slice borrowed mutably for 'a; no other
        // reference to these elements exists by the caller's promise of disjoint ranges.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.add(r.start), r.len()) }
    }
}
