//! Raw copies into and out of registered memory of locales that share this process.
//!
//! The in-process backend reaches another locale's memory by address. The addresses come from
//! the registration cache ([`crate::registration`]): the caller has checked that the whole
//! range lies inside a region registered on its locale, and a registered region stays
//! allocated until it is deregistered (the registration contract, as for MPI windows). As with
//! MPI RMA, concurrent conflicting accesses to the same bytes without synchronization give
//! unspecified values to the program; they are the program's race, as in any PGAS model.

use crate::comm::Strided;
use std::sync::atomic::{AtomicU64, Ordering};

/// Copies `dst.len()` bytes from `src`.
///
/// # Safety
/// `src..src+dst.len()` must be registered memory of a live locale of this process.
pub(crate) unsafe fn read(src: u64, dst: &mut [u8]) {
    // SAFETY: the caller guarantees the source range is valid, registered memory; `dst` is a
    // distinct exclusive borrow, so the ranges do not overlap.
    unsafe { std::ptr::copy_nonoverlapping(src as *const u8, dst.as_mut_ptr(), dst.len()) }
}

/// Copies `src` to `dst`.
///
/// # Safety
/// `dst..dst+src.len()` must be registered memory of a live locale of this process.
pub(crate) unsafe fn write(dst: u64, src: &[u8]) {
    // SAFETY: the caller guarantees the destination range is valid, registered memory; `src`
    // is a shared borrow of other memory (a registered region is never lent out as `&[u8]`
    // while written remotely by the program's own contract).
    unsafe { std::ptr::copy_nonoverlapping(src.as_ptr(), dst as *mut u8, src.len()) }
}

/// Gathers the elements of `shape` at `src` into `dst`.
///
/// # Safety
/// `src..src+shape.extent_bytes()` must be registered memory of a live locale of this process,
/// and `dst.len() == shape.total_bytes()`.
pub(crate) unsafe fn read_strided(src: u64, shape: &Strided, dst: &mut [u8]) {
    let es = shape.elem_size;
    let d = dst.as_mut_ptr();
    shape.for_each_elem(|r, l| {
        // SAFETY: `r + es <= extent` (for_each_elem stays inside the shape) and `l + es <=
        // dst.len()` (packed local layout), by the caller's guarantees.
        unsafe { std::ptr::copy_nonoverlapping((src as *const u8).add(r), d.add(l), es) }
    });
}

/// Scatters `src` to the elements of `shape` at `dst`.
///
/// # Safety
/// `dst..dst+shape.extent_bytes()` must be registered memory of a live locale of this process,
/// and `src.len() == shape.total_bytes()`.
pub(crate) unsafe fn write_strided(dst: u64, shape: &Strided, src: &[u8]) {
    let es = shape.elem_size;
    let s = src.as_ptr();
    shape.for_each_elem(|r, l| {
        // SAFETY: as in `read_strided`, with the roles of the buffers swapped.
        unsafe { std::ptr::copy_nonoverlapping(s.add(l), (dst as *mut u8).add(r), es) }
    });
}

/// The atomic word at `addr`.
///
/// # Safety
/// `addr` must be 8-byte aligned and `addr..addr+8` registered memory of a live locale of this
/// process, accessed atomically by every party for the duration of the operation.
pub(crate) unsafe fn atomic<'a>(addr: u64) -> &'a AtomicU64 {
    // SAFETY: alignment and validity are the caller's guarantees; AtomicU64 has the same size
    // and alignment as u64.
    unsafe { AtomicU64::from_ptr(addr as *mut u64) }
}

/// The ordering used for remote atomics on this backend.
pub(crate) const ATOMIC_ORDER: Ordering = Ordering::SeqCst;
