//! The counters behind `count` and `full` mode: per-thread shards, per locale.
//!
//! # Layout
//!
//! [`SLOTS`] shards (`Slot`s) of [`MAX_LOCALES`] `Cell`s each; a cell holds the bytes in use,
//! the allocation and free counts, and the last value flushed to the peak tracker. A slot is
//! 128-byte aligned and 2 KiB long, so two threads never write the same cache line.
//!
//! A thread binds to a slot the first time it is counted and keeps it until it exits. The
//! first [`EXCLUSIVE_SLOTS`] slots are *exclusive*: claimed by one thread at a time (an atomic
//! flag), so their owner updates them with plain relaxed loads and stores, no read-modify-write
//! and no shared cache line on the allocation path. The thread gives its slot back from a
//! thread-local destructor registered once, on that first use (not on the hot path); the counts
//! stay in the slot and the next owner adds to them, so sums stay exact. When all exclusive
//! slots are taken (more than `EXCLUSIVE_SLOTS` live threads), or in a thread's own destructors
//! after it gave its slot back, the thread uses one of the last [`OVERFLOW_SLOTS`] slots with
//! atomic read-modify-writes, shared with other overflow threads: correct, just slower.
//!
//! The thread's slot, its locale and its re-entrancy flag live in one `const`-initialised
//! thread-local word (no lazy initialisation, no destructor); a second one holds a reference to
//! the thread's own cell for its current locale (`None` for threads on overflow slots), so the
//! `count`-mode hot path is one TLS load and plain loads and stores to that cell.
//!
//! # Totals and locales
//!
//! Sums over slots are exact at any quiescent moment: every update lands in exactly one cell.
//! A cell's `used` may go negative (a thread that frees blocks another allocated); only sums
//! mean something. Readers clamp a negative sum at zero (see `LocaleStats::net`).
//!
//! # Peak
//!
//! Each cell remembers `flushed`, the value of `used` the last time it reported to its locale's
//! shared `approx` counter. When a cell's unreported change reaches [`PEAK_GRANULE`] in either
//! direction the thread adds it to `approx` (for its locale and for the process) and raises the
//! shared `peak` to the new value with `fetch_max`: four shared atomics per 256 KiB of net
//! change, none for small allocations that come and go. `approx` is exactly the sum of the
//! cells' `flushed` values, so it differs from the true use by less than `PEAK_GRANULE` per
//! cell with unreported changes; a thread reports everything left in its slot when it exits,
//! so only live threads (and threads past their thread-local destructors) hold unreported
//! changes. A read reports `max(peak, exact current use)`, so **the reported peak is never
//! below the use at the moment of the read**, and it is within `PEAK_GRANULE` times the number
//! of live allocating threads (per locale) of the true historical peak, above or below.

use std::cell::Cell as StdCell;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, AtomicUsize, Ordering::*};

/// The number of locales that allocations can be attributed to.
pub const MAX_LOCALES: usize = 64;
/// Slots a thread can own exclusively.
pub(crate) const EXCLUSIVE_SLOTS: usize = 240;
/// Slots shared, with atomic updates, by threads that found no free exclusive slot.
pub(crate) const OVERFLOW_SLOTS: usize = 16;
/// All slots (a power of two, so that indexing needs no bounds check).
pub(crate) const SLOTS: usize = EXCLUSIVE_SLOTS + OVERFLOW_SLOTS;
/// The unreported change after which a cell reports to the peak tracker.
pub const PEAK_GRANULE: i64 = 256 * 1024;

const _: () = assert!(SLOTS.is_power_of_two() && MAX_LOCALES.is_power_of_two());

/// One locale's counters in one slot.
#[repr(C)]
pub(crate) struct Cell {
    used: AtomicI64,
    flushed: AtomicI64,
    allocs: AtomicU64,
    frees: AtomicU64,
}

impl Cell {
    const fn new() -> Self {
        Cell {
            used: AtomicI64::new(0),
            flushed: AtomicI64::new(0),
            allocs: AtomicU64::new(0),
            frees: AtomicU64::new(0),
        }
    }
}

/// One shard: every locale's cell, for the thread(s) bound to it.
#[repr(C, align(128))]
struct Slot {
    cells: [Cell; MAX_LOCALES],
}

static SLOT_TABLE: [Slot; SLOTS] = [const { Slot { cells: [const { Cell::new() }; MAX_LOCALES] } }; SLOTS];
static OWNED: [AtomicBool; EXCLUSIVE_SLOTS] = [const { AtomicBool::new(false) }; EXCLUSIVE_SLOTS];
static NEXT_HINT: AtomicUsize = AtomicUsize::new(0);
/// Whether any thread was ever counted, i.e. the tracking allocator is installed.
static INSTALLED: AtomicBool = AtomicBool::new(false);

/// Shared per-locale figures: the peak tracker and the baseline set by `set_mode`.
#[repr(C, align(128))]
struct Global {
    approx: AtomicI64,
    peak: AtomicI64,
    base_used: AtomicI64,
    base_allocs: AtomicU64,
    base_frees: AtomicU64,
}

impl Global {
    const fn new() -> Self {
        Global {
            approx: AtomicI64::new(0),
            peak: AtomicI64::new(0),
            base_used: AtomicI64::new(0),
            base_allocs: AtomicU64::new(0),
            base_frees: AtomicU64::new(0),
        }
    }
}

static LOCALES: [Global; MAX_LOCALES] = [const { Global::new() }; MAX_LOCALES];
static TOTAL: Global = Global::new();

// The thread word: bits 0..16 slot index + 1 (0 = not bound yet), bit 16 SHARED (the slot is an
// overflow slot: update atomically), bit 17 BUSY (the thread is inside the tracker: allocations
// pass straight to the system), bit 18 PERMANENT (`full` mode records the thread's new blocks as
// meant to live until the process ends), bits 32..40 the locale.
const SLOT_MASK: u64 = 0xFFFF;
const SHARED: u64 = 1 << 16;
pub(crate) const BUSY: u64 = 1 << 17;
pub(crate) const PERMANENT: u64 = 1 << 18;
const LOCALE_SHIFT: u32 = 32;

thread_local! {
    static THREAD: StdCell<u64> = const { StdCell::new(0) };
    // The only thing the `count`-mode hot path reads: the thread's own cell for its locale, when
    // the thread owns an exclusive slot; `None` sends the update through the slow path (an
    // unbound thread, or one on a shared overflow slot). Kept in step with THREAD by
    // `set_thread`.
    static FAST: StdCell<Option<&'static Cell>> = const { StdCell::new(None) };
    static RELEASE: SlotRelease = const { SlotRelease { slot: StdCell::new(0) } };
}

/// Sets the thread word and the fast cell derived from it.
#[inline(always)]
fn set_thread(w: u64) {
    THREAD.set(w);
    let slot = (w & SLOT_MASK) as usize;
    let fast = if slot == 0 || w & SHARED != 0 {
        None
    } else {
        Some(&SLOT_TABLE[(slot - 1) & (SLOTS - 1)].cells[locale_of(w)])
    };
    FAST.set(fast);
}

/// Gives the thread's exclusive slot back when the thread exits.
struct SlotRelease {
    slot: StdCell<usize>,
}

impl Drop for SlotRelease {
    fn drop(&mut self) {
        let slot = self.slot.replace(0);
        if slot == 0 {
            return;
        }
        // Report what the slot has not reported yet, so that a slot never carries unreported
        // changes of a thread that is gone (the peak's error stays bounded by live threads).
        for (locale, cell) in SLOT_TABLE[slot - 1].cells.iter().enumerate() {
            let used = cell.used.load(Relaxed);
            let flushed = cell.flushed.load(Relaxed);
            if used != flushed {
                cell.flushed.store(used, Relaxed);
                report(locale, used.wrapping_sub(flushed));
            }
        }
        // Later allocations of this thread (other destructors) must not touch the slot.
        let w = THREAD.get();
        set_thread((w & !(SLOT_MASK | SHARED)) | overflow_binding());
        OWNED[slot - 1].store(false, Release);
    }
}

/// A binding (slot index + 1 | SHARED) to an overflow slot chosen by the thread's identity.
fn overflow_binding() -> u64 {
    let id = THREAD.with(|c| c as *const StdCell<u64> as usize) >> 6;
    let index = EXCLUSIVE_SLOTS + id % OVERFLOW_SLOTS;
    (index as u64 + 1) | SHARED
}

/// Binds the calling thread to a slot; returns the new thread word.
#[cold]
#[inline(never)]
fn bind() -> u64 {
    INSTALLED.store(true, Relaxed);
    let w = THREAD.get() & !(SLOT_MASK | SHARED);
    let start = NEXT_HINT.fetch_add(1, Relaxed);
    for k in 0..EXCLUSIVE_SLOTS {
        let index = (start + k) % EXCLUSIVE_SLOTS;
        if OWNED[index].compare_exchange(false, true, Acquire, Relaxed).is_ok() {
            let bound = w | (index as u64 + 1);
            // Set the word first: registering the destructor below may allocate, and that
            // allocation must find the thread bound.
            set_thread(bound);
            if RELEASE.try_with(|r| r.slot.set(index + 1)).is_ok() {
                return bound;
            }
            // The thread is exiting and its destructors are running: no way to give the slot
            // back later, so do not keep it.
            OWNED[index].store(false, Release);
            break;
        }
    }
    let bound = w | overflow_binding();
    set_thread(bound);
    bound
}

/// The calling thread's word, binding it to a slot on first use.
#[inline(always)]
pub(crate) fn thread_word() -> u64 {
    let w = THREAD.get();
    if w & SLOT_MASK == 0 {
        bind()
    } else {
        w
    }
}

/// The locale recorded in a thread word.
#[inline(always)]
pub(crate) fn locale_of(w: u64) -> usize {
    (w >> LOCALE_SHIFT) as usize & (MAX_LOCALES - 1)
}

/// Marks the calling thread as inside the tracker (allocations pass through untracked).
#[inline(always)]
pub(crate) fn enter_busy(w: u64) {
    THREAD.set(w | BUSY);
}

/// Clears the mark set by [`enter_busy`].
#[inline(always)]
pub(crate) fn leave_busy() {
    THREAD.set(THREAD.get() & !BUSY);
}

/// Sets the calling thread's locale (already validated).
pub(crate) fn set_thread_locale(locale: usize) {
    let w = THREAD.get();
    set_thread((w & !(0xFF << LOCALE_SHIFT)) | ((locale as u64) << LOCALE_SHIFT));
}

/// Sets or clears the calling thread's PERMANENT flag; returns its previous state.
pub(crate) fn set_thread_permanent(on: bool) -> bool {
    let w = THREAD.get();
    set_thread(if on { w | PERMANENT } else { w & !PERMANENT });
    w & PERMANENT != 0
}

/// The calling thread's locale.
pub(crate) fn thread_locale() -> usize {
    locale_of(THREAD.get())
}

/// Whether the tracking allocator has counted anything in this process.
pub(crate) fn installed() -> bool {
    INSTALLED.load(Relaxed)
}

/// What [`try_count`] left to do.
pub(crate) enum Pending {
    /// Nothing: the change is recorded.
    Done,
    /// Recorded, but the cell's unreported change must now go to the peak tracker: call
    /// [`finish`].
    Report(&'static Cell, i64, i64),
    /// Not recorded: the thread has no exclusive slot; call [`finish`].
    Slow,
}

/// Counts an allocation of `size` bytes for the calling thread's locale (`count` mode).
#[inline(always)]
pub(crate) fn count_alloc(size: usize) {
    let p = try_count(size as i64, 1, 0);
    if !matches!(p, Pending::Done) {
        finish(p, size as i64, 1, 0);
    }
}

/// Counts a free of `size` bytes for the calling thread's locale (`count` mode).
#[inline(always)]
pub(crate) fn count_free(size: usize) {
    let p = try_count(-(size as i64), 0, 1);
    if !matches!(p, Pending::Done) {
        finish(p, -(size as i64), 0, 1);
    }
}

/// `count` mode's hot path: one thread-local load, then plain loads and stores to the
/// thread's own cell. Anything rarer is left to [`finish`], so that callers can keep their
/// fast path free of calls.
#[inline(always)]
pub(crate) fn try_count(delta: i64, allocs: u64, frees: u64) -> Pending {
    let Some(cell) = FAST.get() else { return Pending::Slow };
    match bump_exclusive(cell, delta, allocs, frees) {
        Some((used, flushed)) => Pending::Report(cell, used, flushed),
        None => Pending::Done,
    }
}

/// Applies a change to a cell of an exclusive slot (this thread is its only writer, so plain
/// loads and stores suffice); returns `(used, flushed)` when the change must be reported to
/// the peak tracker.
#[inline(always)]
fn bump_exclusive(cell: &Cell, delta: i64, allocs: u64, frees: u64) -> Option<(i64, i64)> {
    let used = cell.used.load(Relaxed).wrapping_add(delta);
    cell.used.store(used, Relaxed);
    if allocs != 0 {
        cell.allocs.store(cell.allocs.load(Relaxed).wrapping_add(allocs), Relaxed);
    }
    if frees != 0 {
        cell.frees.store(cell.frees.load(Relaxed).wrapping_add(frees), Relaxed);
    }
    let flushed = cell.flushed.load(Relaxed);
    must_report(used.wrapping_sub(flushed)).then_some((used, flushed))
}

/// Completes what [`try_count`] left: the report to the peak tracker, or the whole update for
/// a thread without an exclusive slot (binding it first if needed).
#[cold]
#[inline(never)]
pub(crate) fn finish(pending: Pending, delta: i64, allocs: u64, frees: u64) {
    match pending {
        Pending::Done => {}
        Pending::Report(cell, used, flushed) => report_cell(cell, used, flushed),
        Pending::Slow => charge_slow(delta, allocs, frees),
    }
}

/// The calling thread's own cell for its locale, when it owns an exclusive slot: the one
/// thread-local read of the `count`-mode hot paths (see [`bump`]).
#[inline(always)]
pub(crate) fn fast_cell() -> Option<&'static Cell> {
    FAST.get()
}

/// [`try_count`] in two steps, for callers that keep everything in registers: applies a change
/// to the calling thread's own `cell` (from [`fast_cell`]) and returns `(used, flushed)` when
/// [`report_cell`] must follow.
#[inline(always)]
pub(crate) fn bump(cell: &Cell, delta: i64, allocs: u64, frees: u64) -> Option<(i64, i64)> {
    bump_exclusive(cell, delta, allocs, frees)
}

/// Reports a cell's unreported change to the peak tracker (after [`bump`] asked for it).
#[cold]
#[inline(never)]
pub(crate) fn report_cell(cell: &Cell, used: i64, flushed: i64) {
    cell.flushed.store(used, Relaxed);
    report(thread_locale(), used.wrapping_sub(flushed));
}

/// The whole update for a thread without an exclusive slot (binding it first if needed).
#[cold]
#[inline(never)]
pub(crate) fn charge_slow(delta: i64, allocs: u64, frees: u64) {
    let w = thread_word();
    charge(w, locale_of(w), delta, allocs, frees);
}

/// Records `delta` bytes (positive: allocated, negative: freed), `allocs` allocations and
/// `frees` frees for `locale` in the slot of the thread whose word is `w`.
#[inline(always)]
pub(crate) fn charge(w: u64, locale: usize, delta: i64, allocs: u64, frees: u64) {
    let locale = locale & (MAX_LOCALES - 1);
    update(&slot_of(w).cells[locale], delta, allocs, frees, w & SHARED != 0, || locale);
}

/// The slot of the thread whose word is `w`.
#[inline(always)]
fn slot_of(w: u64) -> &'static Slot {
    &SLOT_TABLE[((w & SLOT_MASK) as usize).wrapping_sub(1) & (SLOTS - 1)]
}

/// Whether a cell's unreported change (`used - flushed`) reached the granule either way.
#[inline(always)]
fn must_report(change: i64) -> bool {
    (change.wrapping_add(PEAK_GRANULE - 1) as u64) > (2 * PEAK_GRANULE - 2) as u64
}

/// Applies a change to `cell`; `locale` names the cell's locale, asked only when the change must
/// be reported to the peak tracker (rarely).
#[inline(always)]
fn update(cell: &Cell, delta: i64, allocs: u64, frees: u64, shared: bool, locale: impl FnOnce() -> usize) {
    if !shared {
        if let Some((used, flushed)) = bump_exclusive(cell, delta, allocs, frees) {
            cell.flushed.store(used, Relaxed);
            report(locale(), used.wrapping_sub(flushed));
        }
    } else {
        let used = cell.used.fetch_add(delta, Relaxed).wrapping_add(delta);
        if allocs != 0 {
            cell.allocs.fetch_add(allocs, Relaxed);
        }
        if frees != 0 {
            cell.frees.fetch_add(frees, Relaxed);
        }
        let flushed = cell.flushed.load(Relaxed);
        if must_report(used.wrapping_sub(flushed))
            && cell.flushed.compare_exchange(flushed, used, Relaxed, Relaxed).is_ok()
        {
            report(locale(), used.wrapping_sub(flushed));
        }
    }
}

/// Takes back one counted free (a failed `realloc` whose old block stays live).
#[cold]
pub(crate) fn uncount_free(w: u64, locale: usize) {
    slot_of(w).cells[locale & (MAX_LOCALES - 1)].frees.fetch_sub(1, Relaxed);
}

/// Adds a cell's unreported change to the shared approximations and raises the peaks.
#[cold]
#[inline(never)]
fn report(locale: usize, change: i64) {
    let g = &LOCALES[locale & (MAX_LOCALES - 1)];
    let now = g.approx.fetch_add(change, Relaxed).wrapping_add(change);
    g.peak.fetch_max(now, Relaxed);
    let now = TOTAL.approx.fetch_add(change, Relaxed).wrapping_add(change);
    TOTAL.peak.fetch_max(now, Relaxed);
}

/// Raw sums for one locale since the process started: (used, allocs, frees).
fn raw_sums(locale: usize) -> (i64, u64, u64) {
    let mut used = 0i64;
    let mut allocs = 0u64;
    let mut frees = 0u64;
    for slot in &SLOT_TABLE {
        let c = &slot.cells[locale];
        used = used.wrapping_add(c.used.load(Relaxed));
        allocs = allocs.wrapping_add(c.allocs.load(Relaxed));
        frees = frees.wrapping_add(c.frees.load(Relaxed));
    }
    (used, allocs, frees)
}

/// One locale's (or the process's) figures relative to the last baseline.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Figures {
    pub net: i64,
    pub peak: i64,
    pub allocs: u64,
    pub frees: u64,
}

fn figures_of(g: &Global, used: i64, allocs: u64, frees: u64) -> Figures {
    let base = g.base_used.load(Relaxed);
    let net = used.wrapping_sub(base);
    let peak = g.peak.load(Relaxed).wrapping_sub(base).max(net);
    Figures {
        net,
        peak,
        allocs: allocs.wrapping_sub(g.base_allocs.load(Relaxed)),
        frees: frees.wrapping_sub(g.base_frees.load(Relaxed)),
    }
}

/// The figures of one locale (`locale < MAX_LOCALES`).
pub(crate) fn locale_figures(locale: usize) -> Figures {
    let (used, allocs, frees) = raw_sums(locale);
    figures_of(&LOCALES[locale], used, allocs, frees)
}

/// The figures of every locale and of the process.
pub(crate) fn all_figures() -> ([Figures; MAX_LOCALES], Figures) {
    let mut per = [Figures::default(); MAX_LOCALES];
    let mut used_all = 0i64;
    let mut allocs_all = 0u64;
    let mut frees_all = 0u64;
    for (locale, out) in per.iter_mut().enumerate() {
        let (used, allocs, frees) = raw_sums(locale);
        used_all = used_all.wrapping_add(used);
        allocs_all = allocs_all.wrapping_add(allocs);
        frees_all = frees_all.wrapping_add(frees);
        *out = figures_of(&LOCALES[locale], used, allocs, frees);
    }
    (per, figures_of(&TOTAL, used_all, allocs_all, frees_all))
}

/// The process's figures (all locales).
pub(crate) fn total_figures() -> Figures {
    all_figures().1
}

/// Makes the current sums the new zero of every figure and restarts the peaks there.
///
/// Exact when no other thread is allocating or freeing during the call.
pub(crate) fn rebase() {
    let mut used_all = 0i64;
    let mut allocs_all = 0u64;
    let mut frees_all = 0u64;
    for (locale, g) in LOCALES.iter().enumerate() {
        let (used, allocs, frees) = raw_sums(locale);
        g.base_used.store(used, Relaxed);
        g.base_allocs.store(allocs, Relaxed);
        g.base_frees.store(frees, Relaxed);
        g.peak.store(g.approx.load(Relaxed), Relaxed);
        used_all = used_all.wrapping_add(used);
        allocs_all = allocs_all.wrapping_add(allocs);
        frees_all = frees_all.wrapping_add(frees);
    }
    TOTAL.base_used.store(used_all, Relaxed);
    TOTAL.base_allocs.store(allocs_all, Relaxed);
    TOTAL.base_frees.store(frees_all, Relaxed);
    TOTAL.peak.store(TOTAL.approx.load(Relaxed), Relaxed);
}

/// Restarts every peak at the current use (the baselines stay).
pub(crate) fn reset_peaks() {
    for g in &LOCALES {
        g.peak.store(g.approx.load(Relaxed), Relaxed);
    }
    TOTAL.peak.store(TOTAL.approx.load(Relaxed), Relaxed);
}

#[cfg(test)]
mod tests {
    use super::*;

    // These tests run without the tracking allocator installed, so only they touch the
    // counters; each uses its own locale so that parallel tests do not interfere.

    #[test]
    fn charges_sum_exactly_across_threads() {
        const L: usize = 61;
        let before = locale_figures(L);
        let handles: Vec<_> = (0..4)
            .map(|_| {
                std::thread::spawn(|| {
                    let w = thread_word();
                    for i in 0..1000 {
                        charge(w, L, 100 + i, 1, 0);
                    }
                    for i in 0..1000 {
                        charge(w, L, -(100 + i), 0, 1);
                    }
                    charge(w, L, 5000, 1, 0);
                })
            })
            .collect();
        for h in handles {
            h.join().unwrap();
        }
        let after = locale_figures(L);
        assert_eq!(after.net - before.net, 4 * 5000);
        assert_eq!(after.allocs - before.allocs, 4 * 1001);
        assert_eq!(after.frees - before.frees, 4 * 1000);
        assert!(after.peak >= after.net);
    }

    #[test]
    fn large_changes_reach_the_peak_at_once() {
        const L: usize = 62;
        let w = thread_word();
        let base = locale_figures(L);
        charge(w, L, 10 * PEAK_GRANULE, 1, 0);
        charge(w, L, -10 * PEAK_GRANULE, 0, 1);
        let f = locale_figures(L);
        assert_eq!(f.net, base.net);
        assert!(f.peak - base.net >= 10 * PEAK_GRANULE, "{f:?}");
    }

    #[test]
    fn exited_threads_give_their_slot_back() {
        // More threads than exclusive slots, one after another: they must reuse slots.
        const L: usize = 63;
        let before = locale_figures(L);
        for _ in 0..(EXCLUSIVE_SLOTS + 20) {
            std::thread::spawn(|| {
                let w = thread_word();
                assert_eq!(w & SHARED, 0, "a free exclusive slot should have been found");
                charge(w, L, 8, 1, 0);
            })
            .join()
            .unwrap();
        }
        let after = locale_figures(L);
        assert_eq!(after.net - before.net, 8 * (EXCLUSIVE_SLOTS as i64 + 20));
    }

    #[test]
    fn locale_bits_round_trip() {
        std::thread::spawn(|| {
            assert_eq!(thread_locale(), 0);
            set_thread_locale(37);
            assert_eq!(thread_locale(), 37);
            let w = thread_word();
            assert_eq!(locale_of(w), 37);
            let fast = FAST.get().expect("an exclusive slot");
            assert!(std::ptr::eq(fast, &SLOT_TABLE[((w & SLOT_MASK) - 1) as usize].cells[37]));
            enter_busy(w);
            assert_ne!(THREAD.get() & BUSY, 0);
            leave_busy();
            assert_eq!(THREAD.get() & BUSY, 0);
            assert_eq!(thread_locale(), 37);
        })
        .join()
        .unwrap();
    }
}
