//! Per-phase timings of the sorts, for finding what limits them (issue 15): with
//! `ATOLL_SORT_PROFILE=1` in the environment, every locale prints to standard error, after each
//! sort, the seconds its calling thread spent in each phase (key bounds and first histograms,
//! output allocation, buffer allocation, and per pass: histogram, exchange, cursors, scatter,
//! puts, barrier), and after each dense aggregation (`dense_agg.rs`: the tasks' fold, the
//! key-span allreduce, the merge of the tasks' tables, the exchange of the key range's Block
//! parts, the merge of the locales' parts, the output arrays). Off by default: then every call
//! is one relaxed load of a cached flag.
//!
//! The timings are of the locale's calling thread (the phases are parallel loops it waits
//! for), kept in a thread-local list: each locale of the local backend calls the sort from its
//! own thread.

use std::cell::RefCell;
use std::sync::OnceLock;
use std::time::Instant;

/// Whether `ATOLL_SORT_PROFILE` is set to something other than `0` or empty (read once).
pub(crate) fn enabled() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| std::env::var("ATOLL_SORT_PROFILE").is_ok_and(|v| !v.is_empty() && v != "0"))
}

struct Phases {
    last: Instant,
    rows: Vec<(String, f64)>,
}

thread_local! {
    static PHASES: RefCell<Option<Phases>> = const { RefCell::new(None) };
}

/// Starts timing a sort on this thread (when enabled).
pub(crate) fn start() {
    if enabled() {
        PHASES.with(|p| *p.borrow_mut() = Some(Phases { last: Instant::now(), rows: Vec::new() }));
    }
}

/// Ends the current phase: the time since the previous mark (or `start`) is `name`'s.
pub(crate) fn mark(name: impl FnOnce() -> String) {
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
pub(crate) fn report(what: &str, locale: usize) {
    if enabled() {
        if let Some(ph) = PHASES.with(|p| p.borrow_mut().take()) {
            let total: f64 = ph.rows.iter().map(|r| r.1).sum();
            let rows: Vec<String> = ph.rows.iter().map(|(n, s)| format!("{n}={:.1}", s * 1e3)).collect();
            eprintln!("[sort-profile] {what} locale {locale} total_ms={:.1} {}", total * 1e3, rows.join(" "));
        }
    }
}
