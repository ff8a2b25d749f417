//! A slice that a locale's tasks write in disjoint parts at once: the pencils of a strided FFT
//! pass interleave in memory (a block of columns is a few elements of every row), so they
//! cannot be handed out as `chunks_mut`. The only unsafe code of the FT benchmark.

use std::marker::PhantomData;
use std::ops::Range;

/// `&mut [T]` shared by tasks that each touch their own elements.
pub struct Disjoint<'a, T> {
    ptr: *mut T,
    len: usize,
    _life: PhantomData<&'a mut [T]>,
}

// SAFETY: a `Disjoint` is a `&mut [T]` whose parts are handed to tasks through `part`, whose
// contract keeps them disjoint; moving or sharing it across threads is then as sending parts of
// a `&mut [T]` (needs `T: Send`).
unsafe impl<T: Send> Send for Disjoint<'_, T> {}
// SAFETY: as above.
unsafe impl<T: Send> Sync for Disjoint<'_, T> {}

impl<'a, T> Disjoint<'a, T> {
    /// Borrows `s` for the parallel pass.
    pub fn new(s: &'a mut [T]) -> Self {
        Disjoint { ptr: s.as_mut_ptr(), len: s.len(), _life: PhantomData }
    }

    /// The elements `range`, writable.
    ///
    /// # Safety
    /// While the returned slice lives, no other task reads or writes any element of `range`
    /// through this `Disjoint`.
    ///
    /// # Panics
    /// If `range` is not inside the slice.
    #[allow(clippy::mut_from_ref)] // the point of the type: disjoint parts from a shared handle
    pub unsafe fn part(&self, range: Range<usize>) -> &mut [T] {
        assert!(range.start <= range.end && range.end <= self.len, "part {range:?} of {} elements", self.len);
        // SAFETY: in bounds (checked above) of the slice borrowed for 'a; the caller keeps the
        // parts of different tasks disjoint, so this is the only reference to these elements.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.add(range.start), range.len()) }
    }
}

#[cfg(test)]
mod tests {
    use super::Disjoint;

    #[test]
    fn parts_write_through() {
        let mut v = vec![0u32; 10];
        let d = Disjoint::new(&mut v);
        std::thread::scope(|s| {
            for t in 0..2 {
                let d = &d;
                // SAFETY: thread t writes only elements 5t..5t+5.
                s.spawn(move || unsafe { d.part(5 * t..5 * t + 5) }.fill(t as u32 + 1));
            }
        });
        assert_eq!(v, [1, 1, 1, 1, 1, 2, 2, 2, 2, 2]);
    }

    #[test]
    #[should_panic(expected = "part")]
    fn a_part_outside_panics() {
        let mut v = vec![0u8; 4];
        let d = Disjoint::new(&mut v);
        // SAFETY: out of bounds: it panics before any access.
        let _ = unsafe { d.part(2..5) };
    }
}
