//! Driver-owned data that a command reads or writes in place: the NumPy buffer of `ak.array`
//! and `to_ndarray`, the list of strings of `ak.array(['a', ...])`. The command carries a
//! reference to it (an address and this process's token) instead of a copy, and every locale
//! that lives in the driver's process (all of them on the local backend, locale 0 under MPI)
//! uses it directly. Each command carries its own reference, so concurrent callers on several
//! threads never see each other's data. The crate's fenced `unsafe` for driver memory.
//!
//! The caller's promise, for the whole command that carries a reference: the data stays
//! alive and in place, and the driver neither reads nor writes it (a binding holds the
//! buffer and blocks in `Driver::exec` until every locale is done).

use serde::{Deserialize, Serialize};
use std::ops::Range;
use std::sync::OnceLock;

/// A token unique to this process (with high probability): addresses are meaningful only in
/// the process that made them, and MPI ranks of other hosts may have the same process id.
fn process_token() -> u64 {
    static TOKEN: OnceLock<u64> = OnceLock::new();
    *TOKEN.get_or_init(|| {
        use std::hash::{BuildHasher, Hasher};
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u32(std::process::id());
        h.write_u128(std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos()));
        h.finish() | 1
    })
}

/// `len` elements of `elem` bytes each at `addr` in the driver's process.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub struct DriverSlice {
    addr: u64,
    len: usize,
    elem: usize,
    token: u64,
    writable: bool,
}

impl DriverSlice {
    /// Refers to `s` (read only).
    pub fn of<T>(s: &[T]) -> Self {
        Self::from_raw(s.as_ptr(), s.len(), false)
    }

    /// Refers to `s` (the command may write it).
    pub fn of_mut<T>(s: &mut [T]) -> Self {
        Self::from_raw(s.as_mut_ptr().cast_const(), s.len(), true)
    }

    /// Refers to `len` elements of `T` at `ptr` (a foreign buffer, e.g. Python's buffer protocol).
    pub fn from_raw<T>(ptr: *const T, len: usize, writable: bool) -> Self {
        DriverSlice { addr: ptr as u64, len, elem: std::mem::size_of::<T>(), token: process_token(), writable }
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when there are no elements.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// True in the driver's process (where the address means something).
    pub fn is_here(&self) -> bool {
        self.token == process_token()
    }

    fn check<T>(&self, r: &Range<usize>) {
        assert!(self.is_here(), "a driver buffer used outside the driver's process");
        assert_eq!(self.elem, std::mem::size_of::<T>(), "a driver buffer read with another element size");
        assert!(r.start <= r.end && r.end <= self.len, "range {r:?} outside 0..{}", self.len);
    }

    /// Elements `r` as a slice of `T`.
    ///
    /// # Safety
    /// The module's promise holds (the buffer holds `len` initialized `T` and outlives the
    /// borrow), and no one writes `r` meanwhile. Panics outside the driver's process, for
    /// another element size or a range out of bounds.
    pub unsafe fn slice<'a, T>(&self, r: Range<usize>) -> &'a [T] {
        self.check::<T>(&r);
        // SAFETY: in this process and in bounds (checked above); validity and lifetime by the
        // caller's promise.
        unsafe { std::slice::from_raw_parts((self.addr as *const T).add(r.start), r.len()) }
    }

    /// Elements `r` as a mutable slice of `T`.
    ///
    /// # Safety
    /// As [`DriverSlice::slice`], and no other reference to `r` exists (locales and their
    /// tasks write disjoint ranges). Panics for a read-only reference too.
    #[allow(clippy::mut_from_ref)]
    pub unsafe fn slice_mut<'a, T>(&self, r: Range<usize>) -> &'a mut [T] {
        self.check::<T>(&r);
        assert!(self.writable, "a read-only driver buffer written");
        // SAFETY: in this process, in bounds and writable (checked above); exclusivity and
        // lifetime by the caller's promise.
        unsafe { std::slice::from_raw_parts_mut((self.addr as *mut T).add(r.start), r.len()) }
    }
}

/// A value of type `T` in the driver's process (a list of strings to distribute, a slot for a
/// result to hand back).
#[derive(Serialize, Deserialize, Debug)]
pub struct DriverRef<T> {
    addr: u64,
    token: u64,
    #[serde(skip)]
    _t: std::marker::PhantomData<fn() -> T>,
}

impl<T> Clone for DriverRef<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for DriverRef<T> {}

impl<T> DriverRef<T> {
    /// Refers to `v` (the command may write it).
    pub fn of_mut(v: &mut T) -> Self {
        DriverRef { addr: v as *mut T as u64, token: process_token(), _t: std::marker::PhantomData }
    }

    /// True in the driver's process.
    pub fn is_here(&self) -> bool {
        self.token == process_token()
    }

    /// The value, for exclusive use; `None` outside the driver's process.
    ///
    /// # Safety
    /// The module's promise holds, and only one locale (locale 0) uses the value during the
    /// command.
    #[allow(clippy::mut_from_ref)]
    pub unsafe fn get_mut<'a>(&self) -> Option<&'a mut T> {
        // SAFETY: an address of this process (token checked), alive and unaliased by the
        // caller's promise.
        self.is_here().then(|| unsafe { &mut *(self.addr as *mut T) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slices_are_read_where_they_were_made() {
        let mut v = vec![1u64, 2, 3, 4];
        let s = DriverSlice::of_mut(&mut v);
        assert!(s.is_here());
        // SAFETY: `v` is alive and not otherwise used while these borrows live.
        unsafe {
            assert_eq!(s.slice::<u64>(1..3), &[2, 3]);
            s.slice_mut::<u64>(0..1)[0] = 9;
        }
        assert_eq!(v[0], 9);
        let mut other = s;
        other.token ^= 2;
        assert!(!other.is_here());
    }
}
