//! The driver's NumPy buffer shared with the locales of this process (local backend only):
//! `ak.array` and `to_ndarray` copy each locale's part straight from / into it, in parallel,
//! instead of staging it on locale 0. The second fenced `unsafe` piece of the crate.

use std::ops::Range;
use std::sync::Mutex;

/// A buffer of `len` elements at `addr`, valid while the command that uses it runs (the
/// binding holds the Python buffer and waits for the command).
#[derive(Clone, Copy)]
pub struct RawBuf {
    addr: usize,
    len: usize,
}

impl RawBuf {
    /// Describes `len` elements at `ptr`.
    pub fn new<T>(ptr: *const T, len: usize) -> RawBuf {
        RawBuf { addr: ptr as usize, len }
    }

    /// Elements `r` as a slice of `T`.
    ///
    /// # Safety
    /// The buffer holds `len` initialized `T` and outlives the borrow; no one writes `r`
    /// meanwhile.
    pub unsafe fn slice<'a, T>(&self, r: Range<usize>) -> &'a [T] {
        assert!(r.start <= r.end && r.end <= self.len, "range {r:?} outside 0..{}", self.len);
        // SAFETY: in bounds (checked above); validity and lifetime by the caller's promise.
        unsafe { std::slice::from_raw_parts((self.addr as *const T).add(r.start), r.len()) }
    }

    /// Elements `r` as a mutable slice of `T`.
    ///
    /// # Safety
    /// As [`RawBuf::slice`], and no other reference to `r` exists (locales write disjoint parts).
    #[allow(clippy::mut_from_ref)]
    pub unsafe fn slice_mut<'a, T>(&self, r: Range<usize>) -> &'a mut [T] {
        assert!(r.start <= r.end && r.end <= self.len, "range {r:?} outside 0..{}", self.len);
        // SAFETY: in bounds (checked above); exclusivity and lifetime by the caller's promise.
        unsafe { std::slice::from_raw_parts_mut((self.addr as *mut T).add(r.start), r.len()) }
    }
}

/// The buffer of the running `ak.array` / `to_ndarray` command.
pub static RAW: Mutex<Option<RawBuf>> = Mutex::new(None);

/// The buffer of the running command.
pub fn current() -> Option<RawBuf> {
    *RAW.lock().unwrap_or_else(|p| p.into_inner())
}
