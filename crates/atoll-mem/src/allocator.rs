//! [`TrackingAllocator`]: the `GlobalAlloc` wrapper around [`System`].
//!
//! Every entry point first loads the configuration word (one relaxed load) and compares the
//! block's size with the word's size field: in `off` mode the field holds the largest value,
//! so every block goes straight to the system after that one predictable branch; in the other
//! modes it holds the threshold, so small blocks take the same branch, on allocation *and* on
//! free, because `dealloc` is given the block's size. Counted blocks update the calling thread's counter
//! cell ([`crate::counters`]); in `full` mode they also enter or leave the sharded table
//! ([`crate::table`]), under a per-thread re-entrancy flag so the tracker's own work is never
//! tracked.

#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};

use crate::counters::{self, BUSY, PERMANENT};
use crate::sites;
use crate::state::{self, skip_below, COUNTING, FULL, SITES_BIT, UNINIT};
use crate::table::{self, Entry};

/// A global allocator that tracks memory use per locale, wrapping [`System`].
///
/// Install it with one line (or with [`track_memory!`](crate::track_memory)):
///
/// ```
/// #[global_allocator]
/// static ALLOC: atoll_mem::TrackingAllocator = atoll_mem::TrackingAllocator::new();
///
/// fn main() {
///     atoll_mem::set_mode(atoll_mem::Mode::Count, 0);
///     let before = atoll_mem::memory_used_by(0).unwrap();
///     let block = vec![0u8; 1 << 20];
///     assert_eq!(atoll_mem::memory_used_by(0).unwrap() - before, 1 << 20);
///     drop(block);
///     assert_eq!(atoll_mem::memory_used_by(0).unwrap(), before);
/// }
/// ```
///
/// The mode, threshold and site recording come from `ATOLL_MEM_TRACK`,
/// `ATOLL_MEM_THRESHOLD` and `ATOLL_MEM_TRACK_SITES`, read on the first allocation (see
/// [`Settings`](crate::Settings)); [`set_mode`](crate::set_mode) changes them at run time.
#[derive(Debug, Default, Clone, Copy)]
pub struct TrackingAllocator {
    _private: (),
}

impl TrackingAllocator {
    /// The allocator, for a `#[global_allocator]` static.
    pub const fn new() -> Self {
        TrackingAllocator { _private: () }
    }
}

/// Installs [`TrackingAllocator`] as the program's global allocator.
///
/// Expands to
/// `#[global_allocator] static ATOLL_MEM_ALLOCATOR: atoll_mem::TrackingAllocator = atoll_mem::TrackingAllocator::new();`
///
/// ```
/// atoll_mem::track_memory!();
///
/// fn main() {
///     let _v = vec![1u64; 1000];
///     assert!(atoll_mem::is_installed());
/// }
/// ```
#[macro_export]
macro_rules! track_memory {
    () => {
        #[global_allocator]
        static ATOLL_MEM_ALLOCATOR: $crate::TrackingAllocator = $crate::TrackingAllocator::new();
    };
}

/// Whether a word selects `count` mode (and not `full` mode or the state before start-up).
#[inline(always)]
fn is_count(word: usize) -> bool {
    word & (COUNTING | FULL) == COUNTING
}

/// The system's allocation, written so that the common case (alignment at most 16 and at most
/// the size: plain `malloc`) needs no stack frame in the caller and can be a tail call; the
/// other case (`posix_memalign`, which needs an out-parameter) is out of line. Both call
/// [`System`]; the split only shapes the generated code.
///
/// # Safety
///
/// As [`GlobalAlloc::alloc`].
#[inline(always)]
unsafe fn system_alloc(layout: Layout, zeroed: bool) -> *mut u8 {
    if layout.align() <= 16 && layout.align() <= layout.size() {
        if zeroed {
            // SAFETY: forwarded caller contract.
            unsafe { System.alloc_zeroed(layout) }
        } else {
            // SAFETY: forwarded caller contract.
            unsafe { System.alloc(layout) }
        }
    } else {
        // SAFETY: forwarded caller contract.
        unsafe { system_alloc_aligned(layout, zeroed) }
    }
}

/// # Safety
///
/// As [`GlobalAlloc::alloc`].
#[inline(never)]
unsafe fn system_alloc_aligned(layout: Layout, zeroed: bool) -> *mut u8 {
    if zeroed {
        // SAFETY: forwarded caller contract.
        unsafe { System.alloc_zeroed(layout) }
    } else {
        // SAFETY: forwarded caller contract.
        unsafe { System.alloc(layout) }
    }
}

/// In `count` mode, blocks smaller than this are counted *before* the system allocator is
/// called, so that the call is a tail call (a second stack frame cost about 9% on the
/// small-allocation benchmark). If the system then fails to provide such a block (the process
/// is out of memory; Rust's infallible allocations abort right after), the count is not
/// undone: `count` mode over-counts by that block. Larger blocks, the ones that fail in
/// practice (`try_reserve` of a big buffer, a memory limit), are counted after the call, so a
/// failure leaves the figures unchanged. `full` mode always counts after the call.
pub const SPECULATIVE_MAX: usize = 64 * 1024;

/// `count` mode's allocation, counted after the call: exact even when the system fails. Out
/// of line, so that the pass-through path of `alloc` needs no stack frame.
///
/// # Safety
///
/// As [`GlobalAlloc::alloc`].
#[inline(never)]
unsafe fn count_alloc<const ZEROED: bool>(layout: Layout) -> *mut u8 {
    // SAFETY: forwarded caller contract.
    let p = unsafe { system_alloc(layout, ZEROED) };
    if !p.is_null() {
        counters::count_alloc(layout.size());
    }
    p
}

/// `count` mode's allocation: small blocks are counted first and the system is tail-called
/// (see [`SPECULATIVE_MAX`]); the rest go through [`count_alloc`]. Out of line, so that neither
/// this nor the pass-through path of `alloc` needs a stack frame.
///
/// # Safety
///
/// As [`GlobalAlloc::alloc`].
#[inline(never)]
unsafe fn count_alloc_fast<const ZEROED: bool>(layout: Layout) -> *mut u8 {
    let size = layout.size();
    if size < SPECULATIVE_MAX {
        // Every path ends in a tail call with the arguments in registers: no stack frame.
        let Some(cell) = counters::fast_cell() else {
            // SAFETY: forwarded caller contract.
            return unsafe { count_alloc_slow::<ZEROED>(layout) };
        };
        return match counters::bump(cell, size as i64, 1, 0) {
            // SAFETY: forwarded caller contract.
            None => unsafe { system_alloc(layout, ZEROED) },
            // SAFETY: forwarded caller contract.
            Some((used, flushed)) => unsafe { count_alloc_report::<ZEROED>(cell, used, flushed, layout) },
        };
    }
    // SAFETY: forwarded caller contract.
    unsafe { count_alloc::<ZEROED>(layout) }
}

/// A rare end of [`count_alloc_fast`]: a report to the peak tracker, then the allocation.
///
/// # Safety
///
/// As [`GlobalAlloc::alloc`].
#[cold]
#[inline(never)]
unsafe fn count_alloc_report<const ZEROED: bool>(
    cell: &'static counters::Cell,
    used: i64,
    flushed: i64,
    layout: Layout,
) -> *mut u8 {
    counters::report_cell(cell, used, flushed);
    // SAFETY: forwarded caller contract.
    unsafe { system_alloc(layout, ZEROED) }
}

/// A rare end of [`count_alloc_fast`]: the thread's first count (binding it to a slot) or a
/// count on a shared overflow slot, then the allocation.
///
/// # Safety
///
/// As [`GlobalAlloc::alloc`].
#[cold]
#[inline(never)]
unsafe fn count_alloc_slow<const ZEROED: bool>(layout: Layout) -> *mut u8 {
    counters::charge_slow(layout.size() as i64, 1, 0);
    // SAFETY: forwarded caller contract.
    unsafe { system_alloc(layout, ZEROED) }
}

/// An allocation that is neither passed through nor in `count` mode: `full` mode, or the first
/// allocation of the process (the settings are read first).
///
/// # Safety
///
/// As [`GlobalAlloc::alloc`].
#[cold]
#[inline(never)]
unsafe fn alloc_slow(word: usize, layout: Layout, zeroed: bool) -> *mut u8 {
    let word = if word == UNINIT { state::start() } else { word };
    if layout.size() < skip_below(word) || word & COUNTING == 0 {
        // SAFETY: forwarded caller contract.
        return unsafe { system_alloc(layout, zeroed) };
    }
    // SAFETY: forwarded caller contract.
    unsafe {
        match (word & FULL != 0, zeroed) {
            (false, false) => count_alloc::<false>(layout),
            (false, true) => count_alloc::<true>(layout),
            (true, false) => full_alloc::<false>(word, layout),
            (true, true) => full_alloc::<true>(word, layout),
        }
    }
}

/// `full` mode's allocation: the system's block, then its record and count.
///
/// # Safety
///
/// As [`GlobalAlloc::alloc`].
#[inline(never)]
unsafe fn full_alloc<const ZEROED: bool>(word: usize, layout: Layout) -> *mut u8 {
    // SAFETY: forwarded caller contract.
    let p = unsafe { system_alloc(layout, ZEROED) };
    if !p.is_null() {
        record_new(word, p as usize, layout.size());
    }
    p
}

/// `full` mode's free: forget the block, then free it.
///
/// # Safety
///
/// As [`GlobalAlloc::dealloc`].
#[inline(never)]
unsafe fn full_dealloc(ptr: *mut u8, layout: Layout) {
    forget(ptr as usize);
    // SAFETY: forwarded caller contract.
    unsafe { System.dealloc(ptr, layout) }
}

/// Records a new block (`full` mode) and counts it, unless the thread is inside the tracker
/// (capturing a site), whose own allocations are not tracked.
///
/// Only site capture can allocate (through the unwinder); the table's storage comes from the
/// system allocator directly. So the re-entrancy flag is set around the capture only.
fn record_new(word: usize, addr: usize, size: usize) {
    let w = counters::thread_word();
    if w & BUSY != 0 {
        return;
    }
    let locale = counters::locale_of(w);
    let site = if w & PERMANENT != 0 {
        table::PERMANENT_SITE
    } else if word & SITES_BIT != 0 {
        counters::enter_busy(w);
        let site = sites::capture();
        counters::leave_busy();
        site
    } else {
        0
    };
    match table::insert(Entry { addr, size, site, locale: locale as u32 }) {
        Ok(None) => counters::count_alloc(size),
        Ok(Some(stale)) => {
            // The address was recorded already: that block was freed without the table seeing
            // it (only possible around a mode switch). Count it freed now.
            counters::charge(w, stale.locale as usize, -(stale.size as i64), 0, 1);
            counters::count_alloc(size);
        }
        // The table could not grow: the block stays untracked, and its free will not find it.
        Err(()) => {}
    }
}

/// Forgets a block (`full` mode) and counts its free against the locale that allocated it,
/// unless the thread is inside the tracker. Returns the entry, if the block was recorded.
///
/// Called before the block is given back to the system, so that its address cannot be reused
/// (and recorded by another thread) while the old entry is still in the table.
fn forget(addr: usize) -> Option<Entry> {
    let w = counters::thread_word();
    if w & BUSY != 0 {
        return None;
    }
    let entry = table::remove(addr)?;
    if entry.locale as usize == counters::locale_of(w) {
        counters::count_free(entry.size);
    } else {
        counters::charge(w, entry.locale as usize, -(entry.size as i64), 0, 1);
    }
    Some(entry)
}

/// A rare end of a `count`-mode free: a report to the peak tracker, then the free.
///
/// # Safety
///
/// As [`GlobalAlloc::dealloc`].
#[cold]
#[inline(never)]
unsafe fn report_then_dealloc(cell: &'static counters::Cell, used: i64, flushed: i64, ptr: *mut u8, layout: Layout) {
    counters::report_cell(cell, used, flushed);
    // SAFETY: forwarded caller contract.
    unsafe { System.dealloc(ptr, layout) }
}

/// A rare end of a `count`-mode free: a thread without an exclusive slot counts through the
/// slow path, then frees.
///
/// # Safety
///
/// As [`GlobalAlloc::dealloc`].
#[cold]
#[inline(never)]
unsafe fn slow_then_dealloc(ptr: *mut u8, layout: Layout) {
    counters::charge_slow(-(layout.size() as i64), 0, 1);
    // SAFETY: forwarded caller contract.
    unsafe { System.dealloc(ptr, layout) }
}

/// A free that is neither passed through nor in `count` mode.
///
/// # Safety
///
/// As [`GlobalAlloc::dealloc`].
#[cold]
#[inline(never)]
unsafe fn dealloc_slow(word: usize, ptr: *mut u8, layout: Layout) {
    let word = if word == UNINIT { state::start() } else { word };
    let size = layout.size();
    if size >= skip_below(word) && word & COUNTING != 0 {
        if word & FULL != 0 {
            // Forget the block before the system may hand its address out again.
            forget(ptr as usize);
        } else {
            counters::count_free(size);
        }
    }
    // SAFETY: forwarded caller contract.
    unsafe { System.dealloc(ptr, layout) }
}

/// A realloc that is neither passed through nor in `count` mode.
///
/// # Safety
///
/// As [`GlobalAlloc::realloc`].
#[cold]
#[inline(never)]
unsafe fn realloc_slow(word: usize, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
    let word = if word == UNINIT { state::start() } else { word };
    let skip = skip_below(word);
    let old_tracked = layout.size() >= skip;
    let new_tracked = new_size >= skip;
    if word & COUNTING == 0 || !(old_tracked || new_tracked) {
        // SAFETY: forwarded caller contract.
        return unsafe { System.realloc(ptr, layout, new_size) };
    }
    if word & FULL == 0 {
        // SAFETY: forwarded caller contract.
        return unsafe { count_realloc(ptr, layout, new_size, old_tracked, new_tracked) };
    }
    // `full` mode: the old entry leaves the table before the system may free the old address,
    // and comes back (its free uncounted) if the system refuses.
    let old = if old_tracked { forget(ptr as usize) } else { None };
    // SAFETY: forwarded caller contract.
    let p = unsafe { System.realloc(ptr, layout, new_size) };
    if p.is_null() {
        if let Some(e) = old {
            // The old block is still live: record it again and undo the counted free. The
            // slot it left is free, so this insert cannot fail for lack of memory; if it did,
            // the block would simply stay untracked, consistently.
            if let Ok(None) = table::insert(e) {
                let w = counters::thread_word();
                counters::charge(w, e.locale as usize, e.size as i64, 0, 0);
                counters::uncount_free(w, e.locale as usize);
            }
        }
        return p;
    }
    if new_tracked {
        record_new(word, p as usize, new_size);
    }
    p
}

/// `count` mode's realloc: a realloc counts as the free of the old block and the allocation of
/// the new one, each only if it is at or above the threshold.
///
/// # Safety
///
/// As [`GlobalAlloc::realloc`].
#[inline(always)]
unsafe fn count_realloc(
    ptr: *mut u8,
    layout: Layout,
    new_size: usize,
    old_tracked: bool,
    new_tracked: bool,
) -> *mut u8 {
    // SAFETY: forwarded caller contract.
    let p = unsafe { System.realloc(ptr, layout, new_size) };
    if !p.is_null() {
        let added = if new_tracked { new_size as i64 } else { 0 };
        let removed = if old_tracked { layout.size() as i64 } else { 0 };
        let w = counters::thread_word();
        counters::charge(w, counters::locale_of(w), added - removed, new_tracked as u64, old_tracked as u64);
    }
    p
}

// SAFETY: every method forwards to `System` with the caller's arguments unchanged, so the
// blocks returned, their layouts and their lifetimes are exactly the system allocator's. The
// bookkeeping around the calls never touches the blocks' memory, never allocates through the
// global allocator while it holds a lock (the tables use `System` directly, and a per-thread
// flag sends any nested allocation straight to `System`), and never unwinds.
unsafe impl GlobalAlloc for TrackingAllocator {
    #[inline(always)]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let word = state::load();
        if layout.size() < skip_below(word) {
            // `off` mode, or a block below the threshold.
            // SAFETY: forwarded caller contract.
            return unsafe { system_alloc(layout, false) };
        }
        if is_count(word) {
            // SAFETY: forwarded caller contract.
            unsafe { count_alloc_fast::<false>(layout) }
        } else if word & FULL != 0 {
            // SAFETY: forwarded caller contract.
            unsafe { full_alloc::<false>(word, layout) }
        } else {
            // SAFETY: forwarded caller contract.
            unsafe { alloc_slow(word, layout, false) }
        }
    }

    #[inline(always)]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let word = state::load();
        if layout.size() < skip_below(word) {
            // SAFETY: forwarded caller contract.
            return unsafe { system_alloc(layout, true) };
        }
        if is_count(word) {
            // SAFETY: forwarded caller contract.
            unsafe { count_alloc_fast::<true>(layout) }
        } else if word & FULL != 0 {
            // SAFETY: forwarded caller contract.
            unsafe { full_alloc::<true>(word, layout) }
        } else {
            // SAFETY: forwarded caller contract.
            unsafe { alloc_slow(word, layout, true) }
        }
    }

    #[inline(always)]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        let word = state::load();
        if layout.size() < skip_below(word) {
            // SAFETY: forwarded caller contract.
            return unsafe { System.dealloc(ptr, layout) };
        }
        if is_count(word) {
            // Count first, so that the call to the system is a tail call; anything rare
            // (the first count of a thread, a report to the peak tracker) is out of line,
            // with its arguments in registers, so that this path needs no stack frame.
            let Some(cell) = counters::fast_cell() else {
                // SAFETY: forwarded caller contract.
                return unsafe { slow_then_dealloc(ptr, layout) };
            };
            match counters::bump(cell, -(layout.size() as i64), 0, 1) {
                // SAFETY: forwarded caller contract.
                None => unsafe { System.dealloc(ptr, layout) },
                // SAFETY: forwarded caller contract.
                Some((used, flushed)) => unsafe { report_then_dealloc(cell, used, flushed, ptr, layout) },
            }
        } else if word & FULL != 0 {
            // SAFETY: forwarded caller contract.
            unsafe { full_dealloc(ptr, layout) }
        } else {
            // SAFETY: forwarded caller contract.
            unsafe { dealloc_slow(word, ptr, layout) }
        }
    }

    #[inline(always)]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let word = state::load();
        let skip = skip_below(word);
        let old_tracked = layout.size() >= skip;
        let new_tracked = new_size >= skip;
        if !(old_tracked || new_tracked) {
            // SAFETY: forwarded caller contract.
            return unsafe { System.realloc(ptr, layout, new_size) };
        }
        if is_count(word) {
            // SAFETY: forwarded caller contract.
            unsafe { count_realloc(ptr, layout, new_size, old_tracked, new_tracked) }
        } else {
            // SAFETY: forwarded caller contract.
            unsafe { realloc_slow(word, ptr, layout, new_size) }
        }
    }
}

/// Counts `size` bytes at `addr` that the program mapped itself (memory that does not come
/// from the global allocator, such as the shared-memory segments that MPI ranks of one host
/// map for each other) as an allocation of the calling thread's locale, so that
/// [`memory_used_by`](crate::memory_used_by) includes them like a heap block of that size. A
/// no-op when the tracking allocator is not installed or tracking is off. Pair every call
/// with [`note_unmapped`] of the same range.
pub fn note_mapped(addr: usize, size: usize) {
    if !counters::installed() {
        return;
    }
    let word = state::word();
    if word & COUNTING == 0 || size < skip_below(word) {
        return;
    }
    if word & FULL != 0 {
        record_new(word, addr, size);
    } else {
        counters::count_alloc(size);
    }
}

/// Counts the release of a range counted by [`note_mapped`] (before it is unmapped).
pub fn note_unmapped(addr: usize, size: usize) {
    if !counters::installed() {
        return;
    }
    let word = state::word();
    if word & COUNTING == 0 || size < skip_below(word) {
        return;
    }
    if word & FULL != 0 {
        forget(addr);
    } else {
        counters::count_free(size);
    }
}
