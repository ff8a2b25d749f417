//! The concurrency primitives the runtime uses, in one place, and a polite waiting strategy.
//!
//! Two layers:
//! - the items at this module's root are std's: the runtime's process-wide state (statics,
//!   `OnceLock`s, channels) and the code that no model covers;
//! - [`model`]: the primitives of the algorithms that loom model-checks, the local backend's
//!   barrier (`comm/local/barrier.rs`) and the byte ring of the MPI backend's shared-memory
//!   inbox (`comm/byte_ring.rs`). They are std's in every build, and loom's when the crate is
//!   built with `--cfg loom` (`make loom`, which runs only the models: loom's primitives work
//!   inside `loom::model` alone).

/// The poison-tolerant locks (the runtime's own state stays consistent across panics: every
/// critical section is short and non-panicking).
pub(crate) use atoll_util::sync::{into_inner, lock, read, wait, wait_timeout, write};
pub(crate) use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU64, AtomicU8, AtomicUsize, Ordering};
pub(crate) use std::sync::{mpsc, Arc, Condvar, Mutex, MutexGuard, OnceLock, RwLock, Weak};

/// The primitives of the model-checked algorithms: std's, or loom's under `--cfg loom`. (The
/// byte ring, which uses some of them alone, is built with the MPI backend and for tests.)
#[cfg(not(loom))]
#[allow(unused_imports)]
pub(crate) mod model {
    pub(crate) use super::{lock, wait_timeout};
    pub(crate) use std::sync::atomic::{fence, AtomicU32, AtomicU64, AtomicUsize, Ordering};
    pub(crate) use std::sync::{Condvar, Mutex};
    pub(crate) use std::thread::yield_now;
}

/// The primitives of the model-checked algorithms: std's, or loom's under `--cfg loom`.
#[cfg(loom)]
#[allow(unused_imports)]
pub(crate) mod model {
    pub(crate) use loom::sync::atomic::{fence, AtomicU32, AtomicU64, AtomicUsize, Ordering};
    pub(crate) use loom::sync::{Condvar, Mutex, MutexGuard};
    pub(crate) use loom::thread::yield_now;
    use std::sync::PoisonError;
    use std::time::Duration;

    /// `lock` for loom's mutex.
    pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
        m.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// `wait_timeout` for loom's condition variable (which never times out: a model that
    /// needs the timeout to make progress deadlocks, and loom reports it).
    pub(crate) fn wait_timeout<'a, T>(
        cv: &Condvar,
        g: MutexGuard<'a, T>,
        timeout: Duration,
    ) -> (MutexGuard<'a, T>, bool) {
        let (g, r) = cv.wait_timeout(g, timeout).unwrap_or_else(PoisonError::into_inner);
        (g, r.timed_out())
    }
}

/// Waits politely: spins briefly, then yields, then sleeps with growing pauses (capped), so
/// an idle waiter does not burn a core (4 ranks on 2 cores stay usable).
///
/// A wait for a transfer of known size ([`Backoff::for_bytes`]) keeps yielding, never
/// sleeping, for as long as the transfer could take at [`TRANSFER_BYTES_PER_SEC`]: MPI moves
/// a large message in pieces, one per progress call (`MPI_Test`), so pauses of up to a
/// millisecond between calls stretched an 8 MiB `MPI_Alltoallv` between two ranks of one node
/// from ~8 ms to ~170 ms (measured on a 2-vCPU guest).
#[cfg_attr(not(feature = "mpi"), allow(dead_code))]
pub(crate) struct Backoff {
    step: u32,
    max_sleep_us: u64,
    /// No sleeping before this instant (a transfer's window).
    yield_until: Option<std::time::Instant>,
}

/// The slowest rate at which a wait for a transfer of known size is assumed to move its
/// bytes (it yields rather than sleeps for `bytes / rate`).
#[cfg_attr(not(feature = "mpi"), allow(dead_code))]
pub(crate) const TRANSFER_BYTES_PER_SEC: u64 = 1 << 30;

#[cfg_attr(not(feature = "mpi"), allow(dead_code))]
impl Backoff {
    pub(crate) fn new() -> Self {
        Backoff { step: 0, max_sleep_us: 1000, yield_until: None }
    }

    /// A backoff for a wait that moves `bytes` (sent and received by this process): it yields,
    /// never sleeps, for `bytes / TRANSFER_BYTES_PER_SEC` (the usual spin and yield counts
    /// for small transfers).
    pub(crate) fn for_bytes(bytes: usize) -> Self {
        let us = (bytes as u64).saturating_mul(1_000_000) / TRANSFER_BYTES_PER_SEC;
        let mut b = Self::new();
        if us > 0 {
            b.yield_until = std::time::Instant::now().checked_add(std::time::Duration::from_micros(us));
        }
        b
    }

    pub(crate) fn reset(&mut self) {
        self.step = 0;
    }

    pub(crate) fn snooze(&mut self) {
        match self.pause(std::time::Instant::now) {
            Pause::Spin => std::hint::spin_loop(),
            Pause::Yield => std::thread::yield_now(),
            Pause::Sleep(d) => std::thread::sleep(d),
        }
        self.step = self.step.saturating_add(1);
    }

    /// What the next [`snooze`](Self::snooze) does at `now()` (read only inside a transfer's
    /// window, so spinning and plain yielding read no clock).
    fn pause(&self, now: impl FnOnce() -> std::time::Instant) -> Pause {
        const SPIN: u32 = 32;
        const YIELD: u32 = SPIN + 200;
        if self.step < SPIN {
            Pause::Spin
        } else if self.step < YIELD || self.yield_until.is_some_and(|t| now() < t) {
            Pause::Yield
        } else {
            let k = (self.step - YIELD).min(10);
            Pause::Sleep(std::time::Duration::from_micros((10u64 << k).min(self.max_sleep_us)))
        }
    }
}

/// One step of a [`Backoff`].
#[derive(Debug, PartialEq, Eq)]
#[cfg_attr(not(feature = "mpi"), allow(dead_code))]
enum Pause {
    Spin,
    Yield,
    Sleep(std::time::Duration),
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    #[test]
    fn a_transfer_window_yields_instead_of_sleeping() {
        let now = Instant::now();
        let at = |mut b: Backoff, step: u32, t: Instant| {
            b.step = step;
            b.pause(|| t)
        };
        // Small waits: spin, yield, then sleep (growing, capped at 1 ms).
        assert_eq!(at(Backoff::new(), 0, now), Pause::Spin);
        assert_eq!(at(Backoff::new(), 100, now), Pause::Yield);
        assert_eq!(at(Backoff::new(), 232, now), Pause::Sleep(Duration::from_micros(10)));
        assert_eq!(at(Backoff::new(), 10_000, now), Pause::Sleep(Duration::from_micros(1000)));
        assert!(Backoff::for_bytes(0).yield_until.is_none());
        assert!(Backoff::for_bytes(1000).yield_until.is_none(), "under a microsecond at 1 GiB/s");
        // 64 MiB: a window of 62.5 ms, during which every step past the spin yields.
        let b = Backoff::for_bytes(64 << 20);
        let end = b.yield_until.expect("a window");
        let w = end.duration_since(now);
        assert!(w >= Duration::from_micros(62_000) && w < Duration::from_secs(5), "{w:?}");
        assert_eq!(at(Backoff::for_bytes(64 << 20), 10_000, now), Pause::Yield);
        assert_eq!(
            at(Backoff::for_bytes(64 << 20), 10_000, end + Duration::from_millis(1)),
            Pause::Sleep(Duration::from_micros(1000))
        );
    }
}
