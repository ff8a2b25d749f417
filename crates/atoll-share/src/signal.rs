//! Signals in the shared mapping: counting semaphores on a futex word (the Chapel-Grafiki
//! talk's "pseudo-semaphore" done properly). A waiter sleeps in the kernel (no busy wait) until a
//! post, or returns [`Error::Timeout`] when its timeout passes: a peer that died gives a
//! timeout, never a hang. A wait does not spin: on an oversubscribed machine (the
//! development one) a 20 us spin phase made the round trip 7x slower than a pipe's, where
//! sleeping at once is on par with it (`atoll-bench share`, `signal_rtt`). Posts are counted (a post before the wait is not lost), and every
//! slot keeps the total it was posted, for diagnostics.

use crate::futex::{self, Wake};
use atoll_error::{Error, Result};
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::SeqCst};
use std::time::{Duration, Instant};

/// Number of signals of a shared array.
pub const NUM_SIGNALS: usize = 32;

/// One signal's words in the control page (64 bytes: one cache line).
#[repr(C, align(64))]
pub(crate) struct Slot {
    /// Posts not yet consumed by a wait: the futex word.
    count: AtomicU32,
    /// Processes sleeping in `wait` (a post skips the wake syscall when there are none).
    waiters: AtomicU32,
    /// Every post ever made.
    posted: AtomicU64,
}

/// A counting semaphore in a shared array's control page, usable from every process that
/// maps the array (Rust, C through `atoll.h`, Python).
#[derive(Clone, Copy)]
pub struct Signal<'a> {
    slot: &'a Slot,
    index: usize,
}

impl<'a> Signal<'a> {
    pub(crate) fn new(slot: &'a Slot, index: usize) -> Self {
        Signal { slot, index }
    }

    /// Adds `n` to the count and wakes up to `n` waiters.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when the count would pass `u32::MAX`.
    pub fn post(&self, n: u32) -> Result<()> {
        let s = self.slot;
        s.count.fetch_update(SeqCst, SeqCst, |c| c.checked_add(n)).map_err(|c| {
            Error::InvalidArgument(format!("signal {}: posting {n} to a count of {c} overflows", self.index))
        })?;
        s.posted.fetch_add(n as u64, SeqCst);
        if s.waiters.load(SeqCst) > 0 {
            futex::wake(&s.count, n);
        }
        Ok(())
    }

    /// Takes one post, sleeping until there is one or `timeout` passes.
    ///
    /// # Errors
    /// [`Error::Timeout`] when no post came in time (the peer may be gone).
    pub fn wait(&self, timeout: Duration) -> Result<()> {
        let s = self.slot;
        let start = Instant::now();
        loop {
            if self.try_wait() {
                return Ok(());
            }
            let left = timeout.saturating_sub(start.elapsed());
            if left.is_zero() {
                return Err(Error::Timeout {
                    what: format!("shared signal {}", self.index),
                    waited_ms: start.elapsed().as_millis() as u64,
                });
            }
            s.waiters.fetch_add(1, SeqCst);
            // A post between `try_wait` and here changed the count: the futex returns at once.
            let w = if s.count.load(SeqCst) == 0 { futex::wait(&s.count, 0, left) } else { Wake::Retry };
            s.waiters.fetch_sub(1, SeqCst);
            if w == Wake::TimedOut && self.try_wait() {
                return Ok(());
            }
        }
    }

    /// Takes one post if there is one, without sleeping.
    pub fn try_wait(&self) -> bool {
        self.slot.count.fetch_update(SeqCst, SeqCst, |c| c.checked_sub(1)).is_ok()
    }

    /// Posts not yet taken.
    pub fn value(&self) -> u32 {
        self.slot.count.load(SeqCst)
    }

    /// Every post ever made to this signal.
    pub fn total_posted(&self) -> u64 {
        self.slot.posted.load(SeqCst)
    }
}
