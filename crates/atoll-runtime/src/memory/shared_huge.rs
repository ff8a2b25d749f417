//! Huge pages for node-shared segments (the memfd mappings of `comm/mpi/shm.rs`) on kernels
//! whose `shmem_enabled` is `never`: the one small `unsafe` shim that maps a segment at a
//! 2 MiB aligned address and asks the kernel to back it with 2 MiB pages.
//!
//! Shared memory gets transparent huge pages by fault only where
//! `/sys/kernel/mm/transparent_hugepage/shmem_enabled` allows it; with `never` (a
//! 2-vCPU KVM guest's setting and many distributions' default) every MPI array shared between node peers
//! had 4 KiB pages: a TLB miss per 4 KiB of every stream and nearly every random access, and a
//! page fault per 4 KiB at first touch. `madvise(MADV_COLLAPSE)` (Linux 6.1) builds huge pages
//! whatever that setting says (except `deny`): after one byte of each 2 MiB of a fresh segment
//! is touched, it allocates one zeroed 2 MiB page per 2 MiB (the cost of a huge-page fault,
//! about what faulting the 4 KiB pages cost) and maps it with one page-table entry. A peer
//! that maps the segment at a 2 MiB aligned address then maps the same huge pages by fault.
//!
//! What it changes: a segment of at least [`THRESHOLD`] bytes is rounded up to whole huge pages
//! ([`segment_len`]) and mapped 2 MiB aligned ([`map_shared`]) by its owner and its peers; its
//! owner collapses it at creation ([`collapse`]) where the kernel does not give shared memory
//! huge pages by itself. Off with `ATOLL_HUGEPAGES=0`, like the heap's advice. A kernel that
//! refuses (before 6.1, `deny`, no free huge page) leaves 4 KiB pages: only speed differs.
#![cfg_attr(not(feature = "mpi"), allow(dead_code))]

use crate::memory::hugepages::{enabled, HUGE_PAGE, THRESHOLD};
use crate::sync::OnceLock;

/// Bytes of the segment for `bytes` of data: page rounded, and whole huge pages from
/// [`THRESHOLD`] on while huge pages are [`enabled`].
pub(crate) fn segment_len(bytes: usize, page: usize) -> usize {
    let paged = bytes.div_ceil(page).max(1) * page;
    if paged >= THRESHOLD && enabled() {
        paged.next_multiple_of(HUGE_PAGE)
    } else {
        paged
    }
}

/// Maps `len` bytes of the shared file `fd` read-write (`MAP_SHARED`, with `MAP_POPULATE` when
/// `populate`), at a 2 MiB aligned address when `len` is at least [`THRESHOLD`]. Returns
/// `MAP_FAILED` when the kernel refuses. The caller unmaps `len` bytes at the result.
pub(crate) fn map_shared(fd: i32, len: usize, populate: bool) -> *mut libc::c_void {
    // MAP_POPULATE (fault every page in now) is Linux's; elsewhere pages fault in on first use.
    #[cfg(target_os = "linux")]
    let populate_flag = libc::MAP_POPULATE;
    #[cfg(not(target_os = "linux"))]
    let populate_flag = 0;
    let flags = libc::MAP_SHARED | if populate { populate_flag } else { 0 };
    let prot = libc::PROT_READ | libc::PROT_WRITE;
    if len < THRESHOLD {
        // SAFETY: a fresh shared mapping of the file; the kernel picks the address.
        return unsafe { libc::mmap(std::ptr::null_mut(), len, prot, flags, fd, 0) };
    }
    // Reserve len + 2 MiB of address space, place the file at the first 2 MiB boundary inside,
    // and give back the slack on both sides.
    let span = len + HUGE_PAGE;
    // SAFETY: a fresh private reservation (no access, no memory); the kernel picks the address.
    let r = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            span,
            libc::PROT_NONE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
            -1,
            0,
        )
    };
    if r == libc::MAP_FAILED {
        return r;
    }
    let start = r as usize;
    let aligned = start.next_multiple_of(HUGE_PAGE);
    // SAFETY: `aligned..aligned + len` lies inside the reservation made above (at most 2 MiB -
    // 4 KiB of it precede `aligned`), which nothing else uses: MAP_FIXED replaces only it.
    let p = unsafe { libc::mmap(aligned as *mut libc::c_void, len, prot, flags | libc::MAP_FIXED, fd, 0) };
    let (head, tail) = (aligned - start, start + span - (aligned + len));
    // SAFETY: the slack before and after the file's mapping belongs to the reservation made
    // above (when the fixed mapping failed, the whole reservation is released).
    unsafe {
        if p == libc::MAP_FAILED {
            libc::munmap(r, span);
        } else {
            if head > 0 {
                libc::munmap(r, head);
            }
            if tail > 0 {
                libc::munmap((aligned + len) as *mut libc::c_void, tail);
            }
        }
    }
    p
}

/// Whether the kernel already gives shared memory huge pages on advice or always
/// (`shmem_enabled` other than `never` and `deny`), read once.
fn shmem_thp_by_fault() -> bool {
    static BY_FAULT: OnceLock<bool> = OnceLock::new();
    *BY_FAULT.get_or_init(|| {
        std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/shmem_enabled")
            .ok()
            .and_then(|s| s.split_whitespace().find(|w| w.starts_with('[')).map(|w| !matches!(w, "[never]" | "[deny]")))
            .unwrap_or(false)
    })
}

/// Backs the fresh (all zero, unshared) segment mapped at `ptr` (2 MiB aligned, `len` a
/// multiple of 2 MiB, from [`map_shared`] and [`segment_len`]) with huge pages where the kernel
/// would not by fault: its pages are then all present and zero. Returns whether it did (false:
/// too small, huge pages off, not needed, or refused by the kernel; contents unchanged).
///
/// # Safety
/// `ptr..ptr + len` is a writable shared mapping that nothing else reads or writes yet.
pub(crate) unsafe fn collapse(ptr: *mut u8, len: usize) -> bool {
    if len < THRESHOLD || !enabled() || shmem_thp_by_fault() || ptr as usize % HUGE_PAGE != 0 || len % HUGE_PAGE != 0 {
        return false;
    }
    // SAFETY: the caller's contract, passed on.
    unsafe { collapse_touched(ptr, len) }
}

/// [`collapse`] once checked. Safety: as [`collapse`].
#[cfg(target_os = "linux")]
unsafe fn collapse_touched(ptr: *mut u8, len: usize) -> bool {
    // The kernel collapses only ranges with a page present: fault in one per huge page (the
    // segment is zero, so writing a zero changes nothing).
    for off in (0..len).step_by(HUGE_PAGE) {
        // SAFETY: `off < len`, inside the writable mapping the caller owns alone.
        unsafe { ptr.add(off).write_volatile(0) };
    }
    // SAFETY: advice on the caller's mapping; MADV_COLLAPSE copies the present pages into huge
    // pages (the rest zero, as the file's holes read) and changes no byte or address.
    unsafe { libc::madvise(ptr.cast(), len, libc::MADV_COLLAPSE) == 0 }
}

/// No collapse off Linux. Safety: as [`collapse`].
#[cfg(not(target_os = "linux"))]
unsafe fn collapse_touched(_ptr: *mut u8, _len: usize) -> bool {
    false
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    /// A fresh memfd of `len` bytes (closed by the caller).
    fn memfd(len: usize) -> i32 {
        // SAFETY: a valid NUL-terminated name; the descriptor is checked.
        let fd = unsafe { libc::memfd_create(c"atoll-test".as_ptr(), libc::MFD_CLOEXEC) };
        assert!(fd >= 0);
        // SAFETY: `fd` was just created.
        assert_eq!(unsafe { libc::ftruncate(fd, len as libc::off_t) }, 0);
        fd
    }

    #[test]
    fn segment_lengths() {
        assert_eq!(segment_len(1, 4096), 4096);
        assert_eq!(segment_len(THRESHOLD - 4096, 4096), THRESHOLD - 4096);
        let big = segment_len(THRESHOLD + 1, 4096);
        assert!(big > THRESHOLD && (!enabled() || big % HUGE_PAGE == 0), "{big}");
    }

    #[test]
    fn aligned_mappings_share_the_data_and_collapse_keeps_zeros() {
        let len = segment_len(6 << 20, 4096);
        let fd = memfd(len);
        let owner = map_shared(fd, len, false);
        assert_ne!(owner, libc::MAP_FAILED);
        assert_eq!(owner as usize % HUGE_PAGE, 0, "2 MiB aligned");
        let owner = owner.cast::<u8>();
        // SAFETY: the fresh mapping above, used by this test alone.
        let collapsed = unsafe { collapse(owner, len) };
        // SAFETY: `len` readable bytes.
        let all = unsafe { std::slice::from_raw_parts_mut(owner, len) };
        assert!(all.iter().all(|&b| b == 0), "a collapsed segment reads as zeros");
        if collapsed {
            assert!(
                crate::memory::hugepages::huge_kib(owner).is_some_and(|k| k > 0),
                "collapse reported success without huge pages"
            );
        }
        for (i, b) in all.iter_mut().enumerate().step_by(4093) {
            *b = (i % 251) as u8 + 1;
        }
        let peer = map_shared(fd, len, true);
        assert_ne!(peer, libc::MAP_FAILED);
        assert_eq!(peer as usize % HUGE_PAGE, 0);
        // SAFETY: the second mapping of the same file, `len` readable bytes.
        let seen = unsafe { std::slice::from_raw_parts(peer.cast::<u8>(), len) };
        for (i, &b) in seen.iter().enumerate() {
            assert_eq!(b, if i % 4093 == 0 { (i % 251) as u8 + 1 } else { 0 }, "byte {i}");
        }
        // SAFETY: both mappings made above, unmapped once; the descriptor closed once.
        unsafe {
            libc::munmap(peer, len);
            libc::munmap(owner.cast(), len);
            libc::close(fd);
        }
    }

    #[test]
    fn small_segments_map_anywhere_and_do_not_collapse() {
        let len = segment_len(8192, 4096);
        let fd = memfd(len);
        let p = map_shared(fd, len, true);
        assert_ne!(p, libc::MAP_FAILED);
        // SAFETY: the fresh mapping above.
        assert!(!unsafe { collapse(p.cast(), len) });
        // SAFETY: unmapped and closed once.
        unsafe {
            libc::munmap(p, len);
            libc::close(fd);
        }
    }
}
