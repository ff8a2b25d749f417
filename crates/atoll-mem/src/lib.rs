//! Atoll's memory layer: a low-overhead tracking global allocator and per-locale memory
//! budgets.
//!
//! # Tracking
//!
//! A program opts in with one line:
//!
//! ```
//! #[global_allocator]
//! static ALLOC: atoll_mem::TrackingAllocator = atoll_mem::TrackingAllocator::new();
//! // or: atoll_mem::track_memory!();
//!
//! fn main() {
//!     atoll_mem::set_mode(atoll_mem::Mode::Count, 0); // normally chosen by ATOLL_MEM_TRACK
//!     atoll_mem::set_current_locale(3).unwrap();
//!     let before = atoll_mem::memory_used_by(3).unwrap();
//!     let grid = vec![0f64; 1 << 17]; // 1 MiB
//!     assert_eq!(atoll_mem::memory_used_by(3).unwrap() - before, 1 << 20);
//!     drop(grid);
//!     assert_eq!(atoll_mem::memory_used_by(3).unwrap(), before);
//!     assert!(atoll_mem::peak_memory_by(3).unwrap() >= before + (1 << 20));
//! }
//! ```
//!
//! The mode comes from `ATOLL_MEM_TRACK` (read without allocating on the first allocation):
//!
//! * `off`: one relaxed load and one predictable branch over [`std::alloc::System`];
//! * `count` (default): exact bytes in use, allocation and free counts, and a peak, per locale,
//!   in per-thread counter shards: no shared cache line and no atomic read-modify-write on the
//!   allocation path (blocks below 64 KiB are counted just before the system allocator is
//!   tail-called; should the system fail to provide such a block, that block stays counted:
//!   see [`SPECULATIVE_MAX`]);
//! * `full`: also records every live block (size, locale, and with `ATOLL_MEM_TRACK_SITES=1`
//!   its allocation site) in a 64-way sharded table, for exact per-locale figures and
//!   [`leak_report`].
//!
//! `ATOLL_MEM_THRESHOLD=<bytes>` leaves blocks smaller than the threshold untracked in every
//! mode, on allocation and on free, at the cost of one comparison. Bad values fall back to the
//! defaults; [`config_error`] reports them so that the runtime can refuse to start, and
//! [`Settings::from_env`] parses the same variables into a typed [`Error`].
//!
//! # Attribution
//!
//! [`set_current_locale`] sets the calling thread's locale (default 0; ids below
//! [`MAX_LOCALES`]). An allocation is charged to its thread's locale. In `count` mode a free is
//! charged to the freeing thread's locale (the process total stays exact; a locale that frees
//! what another allocated can go negative, see [`LocaleStats::net`]); in `full` mode a free is
//! charged to the locale that allocated the block, so per-locale figures are exact.
//!
//! # Switching modes
//!
//! [`set_mode`] changes the mode and threshold at run time, for benchmarks and tests. It starts
//! a new measurement: the counters read zero afterwards, the peaks restart, and the `full`
//! table is emptied. Blocks allocated under one configuration and freed under another are
//! handled without corruption: `full` mode ignores frees of blocks it did not record; `count`
//! mode cannot tell such blocks apart, so freeing a block that was not counted lowers the figure
//! (reads clamp at zero; counters are signed and never wrap). Figures are exact for blocks
//! allocated and freed under the current configuration, and whenever `full` mode is on.
//!
//! # Budgets
//!
//! [`Budget`] keeps one locale under its limit ([`MemoryLimit`], from `ATOLL_MEM_MAX`):
//! [`Budget::try_reserve`] refuses with [`Error::OutOfMemory`] before anything is allocated.
//! See the [`budget`] module for how reservations and tracked memory combine.
//!
//! # Precision of the peak
//!
//! A thread reports to the shared peak only when its unreported change reaches
//! [`PEAK_GRANULE`] (256 KiB) in either direction, so that small allocations touch no shared
//! memory. The peak read by [`peak_memory`] is never below the use at the moment of the read,
//! and is within `PEAK_GRANULE` per live allocating thread (per locale, for
//! [`peak_memory_by`]) of the true peak, above or below. A block of `PEAK_GRANULE` bytes or
//! more reaches the peak at once. Exiting threads report what they had not.
//!
//! See `README.md` in the crate for the design notes and measured costs.

#![deny(unsafe_code)]

mod allocator;
pub mod budget;
mod config;
mod counters;
mod leaks;
mod raw;
mod records;
mod report;
mod sites;
mod state;
mod stats;
mod table;

pub use atoll_error::{Error, Result};

pub use allocator::{note_mapped, note_unmapped, TrackingAllocator, SPECULATIVE_MAX};
pub use budget::{check, physical_memory, Budget, Commitment, MemoryLimit, Reservation};
pub use config::{
    parse_byte_size, Mode, Settings, ENV_LEAKS, ENV_MAX, ENV_STATS, ENV_THRESHOLD, ENV_TRACK, ENV_TRACK_SITES,
};
pub use counters::{MAX_LOCALES, PEAK_GRANULE};
pub use leaks::{LeakGroup, LeakReport};
pub use report::{leak_report, mem_stats, print_stats_table, recorded_blocks};
pub use state::{install_exit_hook, report_at_exit};
pub use stats::{
    allocation_count, free_count, locale_stats, memory_used, memory_used_by, peak_memory, peak_memory_by, reset_peak,
    total_stats, LocaleStats, MemStats,
};

/// Switches the tracking mode and threshold at run time. Meant for benchmarks and tests;
/// production runs choose them once with `ATOLL_MEM_TRACK` and `ATOLL_MEM_THRESHOLD`.
///
/// The call starts a new measurement: every counter ([`memory_used`], [`allocation_count`],
/// the per-locale figures) reads zero right after it, the peaks restart, and the `full`-mode
/// table is emptied (its blocks are no longer recorded). Site recording is left as it is (see
/// [`set_track_sites`]).
///
/// Blocks that outlive the switch are handled safely: in `full` mode their frees find no
/// record and are ignored; in `count` mode a free at or above the threshold is always counted,
/// so freeing blocks that were allocated before the switch (or while tracking was off, or below
/// a higher threshold) lowers the figures (which clamp at zero), and blocks counted before a
/// switch to `off` stay counted. Figures are exact when every block freed under a configuration
/// was allocated under it, and always in `full` mode.
///
/// Call it while no other thread is allocating if the figures must be exact right away: a
/// concurrent allocation may land on either side of the switch.
///
/// ```
/// # #[global_allocator]
/// # static ALLOC: atoll_mem::TrackingAllocator = atoll_mem::TrackingAllocator::new();
/// # fn main() {
/// use atoll_mem::{memory_used, set_mode, Mode};
/// let early = vec![0u8; 5000];
/// set_mode(Mode::Full, 1024);
/// let small = vec![0u8; 100]; // below the threshold: not tracked
/// let big = vec![0u8; 4096];
/// assert_eq!(memory_used(), 4096);
/// drop(early); // allocated before the switch: full mode has no record and ignores it
/// drop((small, big));
/// assert_eq!(memory_used(), 0);
/// # }
/// ```
pub fn set_mode(mode: Mode, threshold: usize) {
    state::set_mode(mode, threshold);
}

/// Turns recording of allocation sites (`full` mode) on or off, for blocks allocated from now
/// on. Same as `ATOLL_MEM_TRACK_SITES` at start-up.
pub fn set_track_sites(on: bool) {
    state::set_track_sites(on);
}

/// The current tracking mode.
pub fn mode() -> Mode {
    state::mode_of(state::word())
}

/// The current threshold in bytes: smaller blocks are not tracked.
pub fn threshold() -> usize {
    state::threshold()
}

/// Whether allocation sites are recorded (`full` mode).
pub fn track_sites() -> bool {
    state::word() & state::SITES_BIT != 0
}

/// The settings in effect: the mode, threshold and site recording now, and the exit-report
/// switches read at start-up.
pub fn settings() -> Settings {
    let word = state::word();
    Settings {
        mode: state::mode_of(word),
        threshold: state::threshold(),
        track_sites: word & state::SITES_BIT != 0,
        print_stats: state::print_stats_at_exit(),
        report_leaks: state::report_leaks_at_exit(),
    }
}

/// The error for the first invalid `ATOLL_MEM_*` tracking setting found when the allocator
/// started ([`Error::Config`] naming the variable and its value), or `None`.
///
/// The allocator cannot fail, so it falls back to the default for that variable and records
/// the problem here; the runtime checks this at start-up and refuses to run.
///
/// ```
/// // In a process started without bad ATOLL_MEM_* values:
/// assert_eq!(atoll_mem::config_error(), atoll_mem::Settings::from_env().err());
/// ```
pub fn config_error() -> Option<Error> {
    state::config_error()
}

/// Attributes the calling thread's future allocations (and, in `count` mode, frees) to
/// `locale`.
///
/// ```
/// atoll_mem::set_current_locale(5).unwrap();
/// assert_eq!(atoll_mem::current_locale(), 5);
/// assert!(atoll_mem::set_current_locale(atoll_mem::MAX_LOCALES).is_err());
/// assert_eq!(atoll_mem::current_locale(), 5);
/// ```
///
/// # Errors
///
/// [`Error::InvalidLocale`] for `locale >= MAX_LOCALES`; the thread's locale is unchanged.
pub fn set_current_locale(locale: usize) -> Result<()> {
    stats::check_locale(locale)?;
    counters::set_thread_locale(locale);
    Ok(())
}

/// Runs `f` with the blocks the calling thread allocates meanwhile marked **permanent**: meant
/// to live until the process ends (a registry, a library's global state), so that
/// [`leak_report`] does not list them. They are counted as usual, and their frees too, should
/// they happen. Only `full` mode records the mark; other modes ignore it. Nests; restores the
/// thread's previous state afterwards (also on panic).
///
/// ```
/// # #[global_allocator]
/// # static ALLOC: atoll_mem::TrackingAllocator = atoll_mem::TrackingAllocator::new();
/// # fn main() {
/// use std::sync::OnceLock;
/// atoll_mem::set_mode(atoll_mem::Mode::Full, 0);
/// static NAMES: OnceLock<Vec<String>> = OnceLock::new();
/// atoll_mem::permanent(|| NAMES.get_or_init(|| vec!["a process-wide table".repeat(100)]));
/// let report = atoll_mem::leak_report();
/// assert_eq!(report.groups_of_size(2000).count(), 0); // not listed...
/// assert!(report.permanent_bytes >= 2000);            // ...but accounted for
/// # }
/// ```
pub fn permanent<R>(f: impl FnOnce() -> R) -> R {
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            counters::set_thread_permanent(self.0);
        }
    }
    let _restore = Restore(counters::set_thread_permanent(true));
    f()
}

/// Marks (`on`) or stops marking the calling thread's new blocks permanent, for code that
/// cannot be wrapped in [`permanent`] (a thread's teardown, whose thread-local destructors may
/// hand blocks to a library's global state). Returns the previous setting.
pub fn set_thread_permanent(on: bool) -> bool {
    counters::set_thread_permanent(on)
}

/// Marks every block live now (in every thread) permanent, so that [`leak_report`] lists only
/// blocks allocated afterwards: a program calls it first thing in `main`, after the standard
/// library's start-up allocations. Returns how many blocks it marked (0 outside `full` mode).
pub fn mark_live_blocks_permanent() -> u64 {
    if mode() == Mode::Full {
        table::mark_all_permanent()
    } else {
        0
    }
}

/// The calling thread's locale (0 unless [`set_current_locale`] said otherwise).
pub fn current_locale() -> usize {
    counters::thread_locale()
}

/// Whether [`TrackingAllocator`] is the global allocator and has tracked an allocation.
pub fn is_installed() -> bool {
    counters::installed()
}

/// Whether allocations are being tracked: the allocator is installed and not `off`.
pub fn tracking_active() -> bool {
    is_installed() && mode() != Mode::Off
}
