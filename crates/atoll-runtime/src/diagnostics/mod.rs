//! Per-locale communication counters and tracing (Chapel's `CommDiagnostics`).

pub mod phase_profile;
#[cfg(feature = "bench")]
pub(crate) mod quiet;

use crate::sync::{AtomicBool, AtomicU64, Ordering};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::panic::Location;

/// Counts of the communication one locale started.
///
/// Operations a locale makes on its own memory are not counted: they are plain memory
/// accesses, on every backend.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CommCounts {
    /// Contiguous gets.
    pub gets: u64,
    /// Contiguous puts.
    pub puts: u64,
    /// Strided gets (one per call, whatever the number of elements).
    pub strided_gets: u64,
    /// Strided puts.
    pub strided_puts: u64,
    /// Remote atomic operations.
    pub atomics: u64,
    /// Active messages sent (requests; replies are not counted separately).
    pub ams: u64,
    /// Payload bytes moved by the operations above (AM payloads and replies included).
    pub bytes: u64,
}

impl CommCounts {
    /// Every remote operation: gets, puts, strided ones, atomics and active messages.
    pub fn total_ops(&self) -> u64 {
        self.gets + self.puts + self.strided_gets + self.strided_puts + self.atomics + self.ams
    }

    /// The element-wise difference `self - earlier` (for measuring a region of code).
    pub fn since(&self, earlier: &CommCounts) -> CommCounts {
        CommCounts {
            gets: self.gets - earlier.gets,
            puts: self.puts - earlier.puts,
            strided_gets: self.strided_gets - earlier.strided_gets,
            strided_puts: self.strided_puts - earlier.strided_puts,
            atomics: self.atomics - earlier.atomics,
            ams: self.ams - earlier.ams,
            bytes: self.bytes - earlier.bytes,
        }
    }

    /// The element-wise sum.
    pub fn add(&self, o: &CommCounts) -> CommCounts {
        CommCounts {
            gets: self.gets + o.gets,
            puts: self.puts + o.puts,
            strided_gets: self.strided_gets + o.strided_gets,
            strided_puts: self.strided_puts + o.strided_puts,
            atomics: self.atomics + o.atomics,
            ams: self.ams + o.ams,
            bytes: self.bytes + o.bytes,
        }
    }
}

/// The kinds of operation counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Op {
    Get,
    Put,
    StridedGet,
    StridedPut,
    Atomic,
    Am,
}

impl Op {
    fn name(self) -> &'static str {
        match self {
            Op::Get => "get",
            Op::Put => "put",
            Op::StridedGet => "strided get",
            Op::StridedPut => "strided put",
            Op::Atomic => "atomic",
            Op::Am => "active message",
        }
    }
}

#[repr(align(128))]
struct Padded(AtomicU64);

thread_local! {
    /// Set while this thread runs [`crate::Ctx::uncounted`].
    static UNCOUNTED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f` with this thread's operations left out of the counters and the trace.
pub(crate) fn uncounted<R>(f: impl FnOnce() -> R) -> R {
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            UNCOUNTED.with(|u| u.set(self.0));
        }
    }
    let _restore = Restore(UNCOUNTED.with(|u| u.replace(true)));
    f()
}

/// The counters of one locale.
pub(crate) struct Diagnostics {
    locale: usize,
    enabled: AtomicBool,
    verbose: AtomicBool,
    counters: [Padded; 7],
    /// Which locales run on another host (set at the job's start from the locales' names):
    /// the operations with them are also counted in `across` (operations, bytes). Kept apart
    /// from [`CommCounts`], which are the same on every placement. The third counter is the
    /// part of the bytes that left this locale (puts, active message requests, atomics); the
    /// rest came in (gets, active message replies).
    far: std::sync::OnceLock<Vec<bool>>,
    across: [Padded; 3],
}

impl Diagnostics {
    pub(crate) fn new(locale: usize, verbose: bool) -> Self {
        Diagnostics {
            locale,
            enabled: AtomicBool::new(false),
            verbose: AtomicBool::new(verbose),
            counters: std::array::from_fn(|_| Padded(AtomicU64::new(0))),
            far: std::sync::OnceLock::new(),
            across: std::array::from_fn(|_| Padded(AtomicU64::new(0))),
        }
    }

    /// Notes which locales run on another host (`far[l]`); once, at the job's start.
    pub(crate) fn set_far(&self, far: Vec<bool>) {
        let _ = self.far.set(far);
    }

    #[inline]
    fn is_far(&self, target: usize) -> bool {
        self.far.get().is_some_and(|f| f.get(target).copied().unwrap_or(false))
    }

    #[inline]
    pub(crate) fn record(&self, op: Op, target: usize, bytes: usize, at: &Location<'_>) {
        if UNCOUNTED.with(|u| u.get()) {
            return;
        }
        if self.enabled.load(Ordering::Relaxed) {
            let i = match op {
                Op::Get => 0,
                Op::Put => 1,
                Op::StridedGet => 2,
                Op::StridedPut => 3,
                Op::Atomic => 4,
                Op::Am => 5,
            };
            self.counters[i].0.fetch_add(1, Ordering::Relaxed);
            self.counters[6].0.fetch_add(bytes as u64, Ordering::Relaxed);
            if self.is_far(target) {
                self.across[0].0.fetch_add(1, Ordering::Relaxed);
                self.across[1].0.fetch_add(bytes as u64, Ordering::Relaxed);
                if !matches!(op, Op::Get | Op::StridedGet) {
                    self.across[2].0.fetch_add(bytes as u64, Ordering::Relaxed);
                }
            }
        }
        if self.verbose.load(Ordering::Relaxed) {
            eprintln!(
                "atoll comm: locale {} {} {} bytes with locale {} at {}:{}",
                self.locale,
                op.name(),
                bytes,
                target,
                at.file(),
                at.line()
            );
        }
    }

    /// Counts reply bytes of an active message to `target` (no operation).
    #[inline]
    pub(crate) fn record_bytes(&self, target: usize, bytes: usize) {
        if self.enabled.load(Ordering::Relaxed) && !UNCOUNTED.with(|u| u.get()) {
            self.counters[6].0.fetch_add(bytes as u64, Ordering::Relaxed);
            if self.is_far(target) {
                self.across[1].0.fetch_add(bytes as u64, Ordering::Relaxed);
            }
        }
    }

    /// The operations with locales on other hosts, and their bytes, since the last reset.
    pub(crate) fn across(&self) -> (u64, u64) {
        (self.across[0].0.load(Ordering::SeqCst), self.across[1].0.load(Ordering::SeqCst))
    }

    /// Of the bytes of [`Diagnostics::across`], those that left this locale.
    pub(crate) fn across_sent(&self) -> u64 {
        self.across[2].0.load(Ordering::SeqCst)
    }

    pub(crate) fn set_enabled(&self, on: bool) {
        self.enabled.store(on, Ordering::SeqCst);
    }

    pub(crate) fn set_verbose(&self, on: bool) {
        self.verbose.store(on, Ordering::SeqCst);
    }

    pub(crate) fn reset(&self) {
        for c in self.counters.iter().chain(&self.across) {
            c.0.store(0, Ordering::SeqCst);
        }
    }

    pub(crate) fn counts(&self) -> CommCounts {
        let g = |i: usize| self.counters[i].0.load(Ordering::SeqCst);
        CommCounts {
            gets: g(0),
            puts: g(1),
            strided_gets: g(2),
            strided_puts: g(3),
            atomics: g(4),
            ams: g(5),
            bytes: g(6),
        }
    }
}

/// The per-locale table that [`crate::Ctx::print_comm_diagnostics_table`] prints, in the
/// layout of Chapel's `printCommDiagnosticsTable`: one row per locale, one column per kind of
/// operation, columns that are zero everywhere left out.
///
/// ```
/// use atoll_runtime::{CommCounts, CommTable};
/// let rows = vec![CommCounts { gets: 3, bytes: 24, ..Default::default() }, CommCounts::default()];
/// let t = CommTable(rows).to_string();
/// assert!(t.contains("locale") && t.contains("get") && !t.contains("put"));
/// ```
pub struct CommTable(pub Vec<CommCounts>);

impl fmt::Display for CommTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        type Col = (&'static str, fn(&CommCounts) -> u64);
        let cols: [Col; 7] = [
            ("get", |c| c.gets),
            ("put", |c| c.puts),
            ("get_strd", |c| c.strided_gets),
            ("put_strd", |c| c.strided_puts),
            ("amo", |c| c.atomics),
            ("am", |c| c.ams),
            ("bytes", |c| c.bytes),
        ];
        let used: Vec<&Col> = cols.iter().filter(|(_, g)| self.0.iter().any(|c| g(c) != 0)).collect();
        let w = |name: &str, g: &fn(&CommCounts) -> u64| {
            self.0.iter().map(|c| g(c).to_string().len()).max().unwrap_or(1).max(name.len())
        };
        let widths: Vec<usize> = used.iter().map(|(n, g)| w(n, g)).collect();
        write!(f, "| locale |")?;
        for ((n, _), wd) in used.iter().zip(&widths) {
            write!(f, " {n:>wd$} |")?;
        }
        writeln!(f)?;
        write!(f, "| -----: |")?;
        for wd in &widths {
            write!(f, " {}: |", "-".repeat(wd - 1))?;
        }
        writeln!(f)?;
        for (l, c) in self.0.iter().enumerate() {
            write!(f, "| {l:>6} |")?;
            for ((_, g), wd) in used.iter().zip(&widths) {
                write!(f, " {:>wd$} |", g(c))?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_across_hosts_are_split_by_direction() {
        let d = Diagnostics::new(0, false);
        d.set_far(vec![false, true, false]);
        d.set_enabled(true);
        let at = Location::caller();
        d.record(Op::Put, 1, 100, at);
        d.record(Op::Get, 1, 40, at);
        d.record(Op::StridedGet, 1, 8, at);
        d.record(Op::Am, 1, 30, at);
        d.record_bytes(1, 7); // the active message's reply
        d.record(Op::Atomic, 1, 8, at);
        d.record(Op::Put, 2, 1000, at); // a locale on this host
        d.record(Op::Get, 0, 1000, at);
        assert_eq!(d.across(), (5, 100 + 40 + 8 + 30 + 7 + 8));
        assert_eq!(d.across_sent(), 100 + 30 + 8);
        d.reset();
        assert_eq!((d.across(), d.across_sent()), ((0, 0), 0));
    }
}
