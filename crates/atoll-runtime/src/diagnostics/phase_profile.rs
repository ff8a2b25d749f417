//! Per-phase timings of long collective operations, a diagnostic for finding what limits them:
//! with [`Config::sort_profile`](crate::Config::sort_profile) (`ATOLL_SORT_PROFILE=1`), every
//! locale prints to standard error, after each operation, the seconds its calling thread spent
//! in each phase. `atoll-ops` marks the phases of its sorts (key bounds and first histograms,
//! output allocation, buffer allocation, and per pass: histogram, exchange, cursors, scatter,
//! puts, barrier) and of its dense aggregations (the tasks' fold, the key-span allreduce, the
//! merge of the tasks' tables, the exchange of the key range's Block parts, the merge of the
//! locales' parts, the output arrays); `atoll-array` marks those of gather and scatter: as
//! exchanges (setup, and per round: count, plan, pack, puts, barriers, serve, gets, unpack),
//! and aggregated across memory that is not addressable (the index check, gather's output
//! allocation, the opening barrier, the aggregators' loop with its flushes, the agreement on
//! failures, the closing barrier).
//! Off by default: then every call is one relaxed load.
//!
//! The timings are of the locale's calling thread (the phases are parallel loops it waits
//! for), kept in a thread-local list: each locale of the local backend calls the operation
//! from its own thread.

use crate::sync::{AtomicU8, Ordering};
use std::cell::RefCell;
use std::time::Instant;

/// 0: not set yet; 1: on; 2: off.
static STATE: AtomicU8 = AtomicU8::new(0);

/// Whether phases are timed: [`Config::sort_profile`](crate::Config::sort_profile) of the job
/// that started last, else of the environment.
pub fn enabled() -> bool {
    match STATE.load(Ordering::Relaxed) {
        1 => true,
        2 => false,
        _ => crate::config::from_env_once().sort_profile,
    }
}

/// Turns the timing on or off (a job does it when it starts, from its `Config`).
pub(crate) fn set_enabled(on: bool) {
    STATE.store(if on { 1 } else { 2 }, Ordering::Relaxed);
}

struct Phases {
    last: Instant,
    rows: Vec<(String, f64)>,
}

thread_local! {
    static PHASES: RefCell<Option<Phases>> = const { RefCell::new(None) };
}

/// Starts timing an operation on this thread (when enabled).
pub fn start() {
    if enabled() {
        PHASES.with(|p| *p.borrow_mut() = Some(Phases { last: Instant::now(), rows: Vec::new() }));
    }
}

/// Ends the current phase: the time since the previous mark (or `start`) is `name`'s.
pub fn mark(name: impl FnOnce() -> String) {
    if enabled() {
        PHASES.with(|p| {
            if let Some(ph) = p.borrow_mut().as_mut() {
                let now = Instant::now();
                ph.rows.push((name(), now.duration_since(ph.last).as_secs_f64()));
                ph.last = now;
            }
        });
    }
}

/// Prints this thread's phases as one line (`what`, the locale, the total and each phase in
/// milliseconds) and stops timing.
pub fn report(what: &str, locale: usize) {
    if enabled() {
        if let Some(ph) = PHASES.with(|p| p.borrow_mut().take()) {
            let total: f64 = ph.rows.iter().map(|r| r.1).sum();
            let rows: Vec<String> = ph.rows.iter().map(|(n, s)| format!("{n}={:.1}", s * 1e3)).collect();
            eprintln!("[sort-profile] {what} locale {locale} total_ms={:.1} {}", total * 1e3, rows.join(" "));
        }
    }
}
