//! Parallel tasks writing disjoint parts of one buffer.
//!
//! The safe form is `atoll_runtime::Ctx::forall_chunks_mut(&mut out, |range, chunk| ..)`,
//! which hands each task of a locale's pool its own sub-slice. The two types here are what it
//! is built on, for the loops whose tasks' parts are not plain chunks (a scatter by digit,
//! chunks of other locales' memory): every write through them is `unsafe` and relies on one
//! contract, stated once here.
//!
//! **The contract.** Each place is written by at most one task of the parallel region, and
//! nothing reads a place while a task may write it; the memory outlives the region. (A
//! region of a locale's task pool ends when its loop returns, so the caller may read the
//! buffer afterwards.)

use std::marker::PhantomData;
use std::ops::Range;

/// A raw pointer that the tasks of one parallel region share to write disjoint places of one
/// buffer (see the module's contract). Creating and copying one is safe; every access through
/// `.0` is `unsafe`.
#[derive(Debug)]
pub struct SyncPtr<T>(pub *mut T);

impl<T> Clone for SyncPtr<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for SyncPtr<T> {}

impl<T> SyncPtr<T> {
    /// The address. A closure that calls it captures the whole `SyncPtr` (which is `Sync`),
    /// where one that reads `.0` would capture the raw pointer field alone (which is not).
    #[inline(always)]
    pub fn get(self) -> *mut T {
        self.0
    }
}

// SAFETY: a `SyncPtr` is an address; the accesses through it are `unsafe` and follow the
// module's contract (each place written by one task, none read while written), under which
// moving and sharing the address between threads is sound.
unsafe impl<T> Send for SyncPtr<T> {}
// SAFETY: as above.
unsafe impl<T> Sync for SyncPtr<T> {}

/// A slice that the tasks of one parallel region write in disjoint ranges.
///
/// ```
/// use atoll_util::Disjoint;
/// let mut v = vec![0u32; 1000];
/// let d = Disjoint::new(&mut v);
/// std::thread::scope(|s| {
///     for t in 0..4 {
///         let d = &d;
///         s.spawn(move || {
///             // SAFETY: each thread takes its own quarter.
///             let part = unsafe { d.chunk(250 * t..250 * (t + 1)) };
///             part.fill(t as u32);
///         });
///     }
/// });
/// assert_eq!(v[999], 3);
/// ```
pub struct Disjoint<'a, T> {
    ptr: *mut T,
    len: usize,
    _life: PhantomData<&'a mut [T]>,
}

// SAFETY: a `Disjoint` hands out `&mut` sub-slices only through `chunk`, whose callers promise
// disjoint ranges; `T: Send` makes using those elements from other threads sound.
unsafe impl<T: Send> Send for Disjoint<'_, T> {}
// SAFETY: as above: shared access only creates sub-slices of disjoint ranges.
unsafe impl<T: Send> Sync for Disjoint<'_, T> {}

impl<'a, T> Disjoint<'a, T> {
    /// Shares `s` (borrowed exclusively for `'a`) for disjoint writes.
    pub fn new(s: &'a mut [T]) -> Self {
        Disjoint { ptr: s.as_mut_ptr(), len: s.len(), _life: PhantomData }
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are no elements.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The elements of `r`.
    ///
    /// # Panics
    /// If `r` is not inside `0..len`.
    ///
    /// # Safety
    /// No other live reference (from a concurrent or earlier `chunk` call) covers an element
    /// of `r`: the chunks of one `Ctx::forall_chunks_with` loop, for example, do not overlap.
    #[allow(clippy::mut_from_ref)]
    pub unsafe fn chunk(&self, r: Range<usize>) -> &'a mut [T] {
        assert!(r.start <= r.end && r.end <= self.len, "chunk {r:?} outside 0..{}", self.len);
        // SAFETY: in bounds (checked above) of a slice borrowed mutably for 'a; no other
        // reference to these elements exists by the caller's promise of disjoint ranges.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.add(r.start), r.len()) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_fill_their_own_chunks() {
        let mut v = vec![0usize; 10_007];
        let d = Disjoint::new(&mut v);
        std::thread::scope(|s| {
            for t in 0..3 {
                let d = &d;
                s.spawn(move || {
                    let (lo, hi) = (d.len() * t / 3, d.len() * (t + 1) / 3);
                    // SAFETY: the three ranges are disjoint.
                    for (k, x) in unsafe { d.chunk(lo..hi) }.iter_mut().enumerate() {
                        *x = lo + k;
                    }
                });
            }
        });
        assert!(v.iter().enumerate().all(|(i, &x)| i == x));
    }

    #[test]
    fn threads_write_their_own_slots_through_a_shared_pointer() {
        let mut v = vec![0u64; 999];
        let p = SyncPtr(v.as_mut_ptr());
        std::thread::scope(|s| {
            for t in 0..3 {
                s.spawn(move || {
                    let p = p; // the whole value (Send), not its field
                    for i in (t..999).step_by(3) {
                        // SAFETY: slot `i` (in bounds) is this thread's only (`i % 3 == t`).
                        unsafe { p.0.add(i).write(i as u64 * 2) };
                    }
                });
            }
        });
        assert!(v.iter().enumerate().all(|(i, &x)| x == i as u64 * 2));
    }

    #[test]
    #[should_panic(expected = "outside")]
    fn a_chunk_past_the_end_panics() {
        let mut v = [0u8; 4];
        let d = Disjoint::new(&mut v);
        // SAFETY: the only chunk.
        let _ = unsafe { d.chunk(2..5) };
    }
}
