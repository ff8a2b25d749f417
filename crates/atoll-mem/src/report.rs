//! The public readers of the figures and of the live blocks: each reads the settings first
//! (from the environment, if nothing has yet: `state.rs`), then the counters (`stats.rs`) or
//! the tracking table (`leaks.rs`).

use std::io::Write;

use crate::leaks::{self, LeakReport};
use crate::stats::MemStats;
use crate::{state, table, Mode};

impl MemStats {
    /// Reads every counter (exact when no thread allocates during the call).
    pub fn snapshot() -> MemStats {
        let (mode, threshold, sites) = state::current();
        MemStats::read(mode, threshold, sites)
    }
}

/// A snapshot of all counters; same as [`MemStats::snapshot`].
pub fn mem_stats() -> MemStats {
    MemStats::snapshot()
}

/// Prints the statistics table (the `Display` of [`MemStats`]) to standard error.
pub fn print_stats_table() {
    let text = MemStats::snapshot().to_string();
    let _ = std::io::stderr().lock().write_all(text.as_bytes());
}

/// Blocks recorded in the `full`-mode table (0 in the other modes). Does not allocate.
pub fn recorded_blocks() -> u64 {
    if state::mode_of(state::word()) == Mode::Full {
        table::len() as u64
    } else {
        0
    }
}

/// Lists the blocks still live (`full` mode), grouped by size and site. Blocks marked
/// permanent are counted apart ([`LeakReport::permanent_count`]), not listed.
///
/// ```
/// # #[global_allocator]
/// # static ALLOC: atoll_mem::TrackingAllocator = atoll_mem::TrackingAllocator::new();
/// # fn main() {
/// atoll_mem::set_mode(atoll_mem::Mode::Full, 0);
/// let leaked: &'static mut [u8] = Box::leak(vec![7u8; 12_345].into_boxed_slice());
/// let report = atoll_mem::leak_report();
/// let group = report.groups_of_size(12_345).next().expect("the leaked block is live");
/// assert_eq!((group.count, group.bytes), (1, 12_345));
/// assert!(report.total_bytes >= 12_345);
/// # let _ = leaked;
/// # }
/// ```
pub fn leak_report() -> LeakReport {
    let (mode, _, sites) = state::current();
    leaks::report(mode, sites)
}
