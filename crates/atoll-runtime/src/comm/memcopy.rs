//! Raw copies into and out of registered memory of locales that share this process.
//!
//! The in-process backend reaches another locale's memory by address. The addresses come from
//! the registration cache ([`crate::memory::registration`]): the caller has checked that the whole
//! range lies inside a region registered on its locale, and a registered region stays
//! allocated until it is deregistered (the registration contract, as for MPI windows). As with
//! MPI RMA, concurrent conflicting accesses to the same bytes without synchronization give
//! unspecified values to the program; they are the program's race, as in any PGAS model.

use crate::comm::Strided;
use crate::sync::{AtomicU64, Ordering};

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

/// Records (or addresses) ahead of the current one whose target is prefetched: random
/// accesses to a large array miss the caches and the TLB, and the hint lets the misses of the
/// next ones overlap with this one.
const AHEAD: usize = 16;

/// Writes each record of `records` (an 8-byte little-endian address, then `es` value bytes)
/// to its address: the target side of a destination aggregator's flush
/// ([`crate::aggregate`]). A trailing partial record is ignored (the caller checks lengths).
///
/// # Safety
/// For every record, `addr..addr+es` must be registered memory of a live locale of this
/// process (the caller validated every address against its region table).
pub(crate) unsafe fn write_records(records: &[u8], es: usize) {
    /// # Safety
    /// As the enclosing function.
    unsafe fn fixed<const N: usize>(records: &[u8]) {
        let ahead = records.get(AHEAD * (8 + N)..).unwrap_or_default();
        for (k, r) in records.chunks_exact(8 + N).enumerate() {
            if let Some(p) = ahead.get(k * (8 + N)..k * (8 + N) + 8) {
                atoll_util::prefetch::write(u64::from_le_bytes(p.try_into().unwrap_or_default()) as *const u8);
            }
            let (a, v) = r.split_at(8);
            let mut addr = [0u8; 8];
            addr.copy_from_slice(a);
            let mut val = [0u8; N];
            val.copy_from_slice(v);
            // SAFETY: the enclosing function's contract: `addr..addr+N` is registered memory;
            // the write is unaligned-tolerant.
            unsafe { (u64::from_le_bytes(addr) as *mut [u8; N]).write_unaligned(val) }
        }
    }
    // SAFETY (each arm): the caller's contract, forwarded.
    match es {
        1 => unsafe { fixed::<1>(records) },
        2 => unsafe { fixed::<2>(records) },
        4 => unsafe { fixed::<4>(records) },
        8 => unsafe { fixed::<8>(records) },
        16 => unsafe { fixed::<16>(records) },
        _ => {
            for r in records.chunks_exact(8 + es) {
                let (a, v) = r.split_at(8);
                let mut addr = [0u8; 8];
                addr.copy_from_slice(a);
                // SAFETY: as above; `v` is `es` bytes of the message, distinct from the target.
                unsafe { std::ptr::copy_nonoverlapping(v.as_ptr(), u64::from_le_bytes(addr) as *mut u8, es) }
            }
        }
    }
}

/// Reads `es` bytes at each address of `addrs` (8-byte little-endian each) into consecutive
/// places of `out` (`out.len() == es * addrs.len() / 8`): the target side of a source
/// aggregator's flush ([`crate::aggregate`]).
///
/// # Safety
/// For every address, `addr..addr+es` must be registered memory of a live locale of this
/// process (the caller validated every address against its region table).
pub(crate) unsafe fn read_indexed(addrs: &[u8], es: usize, out: &mut [u8]) {
    /// # Safety
    /// As the enclosing function.
    unsafe fn fixed<const N: usize>(addrs: &[u8], out: &mut [u8]) {
        let ahead = addrs.get(AHEAD * 8..).unwrap_or_default();
        for (k, (a, o)) in addrs.chunks_exact(8).zip(out.chunks_exact_mut(N)).enumerate() {
            if let Some(p) = ahead.get(k * 8..k * 8 + 8) {
                atoll_util::prefetch::read(u64::from_le_bytes(p.try_into().unwrap_or_default()) as *const u8);
            }
            let mut addr = [0u8; 8];
            addr.copy_from_slice(a);
            // SAFETY: the enclosing function's contract: `addr..addr+N` is registered memory.
            let v = unsafe { (u64::from_le_bytes(addr) as *const [u8; N]).read_unaligned() };
            o.copy_from_slice(&v);
        }
    }
    // SAFETY (each arm): the caller's contract, forwarded.
    match es {
        1 => unsafe { fixed::<1>(addrs, out) },
        2 => unsafe { fixed::<2>(addrs, out) },
        4 => unsafe { fixed::<4>(addrs, out) },
        8 => unsafe { fixed::<8>(addrs, out) },
        16 => unsafe { fixed::<16>(addrs, out) },
        _ if es == 0 => {}
        _ => {
            for (a, o) in addrs.chunks_exact(8).zip(out.chunks_exact_mut(es)) {
                let mut addr = [0u8; 8];
                addr.copy_from_slice(a);
                // SAFETY: as above; `o` is an exclusive borrow of other memory.
                unsafe { std::ptr::copy_nonoverlapping(u64::from_le_bytes(addr) as *const u8, o.as_mut_ptr(), es) }
            }
        }
    }
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
