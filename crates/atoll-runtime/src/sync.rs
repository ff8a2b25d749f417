//! The concurrency primitives the runtime uses, in one place (so a model checker can replace
//! them), and a polite waiting strategy.

pub(crate) use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU64, AtomicUsize, Ordering};
pub(crate) use std::sync::{Arc, Condvar, Mutex, RwLock, Weak};

/// Waits politely: spins briefly, then yields, then sleeps with growing pauses (capped), so
/// an idle waiter does not burn a core (4 ranks on 2 cores stay usable).
#[cfg_attr(not(feature = "mpi"), allow(dead_code))]
pub(crate) struct Backoff {
    step: u32,
    max_sleep_us: u64,
}

#[cfg_attr(not(feature = "mpi"), allow(dead_code))]
impl Backoff {
    pub(crate) fn new() -> Self {
        Backoff { step: 0, max_sleep_us: 1000 }
    }

    pub(crate) fn reset(&mut self) {
        self.step = 0;
    }

    pub(crate) fn snooze(&mut self) {
        const SPIN: u32 = 32;
        const YIELD: u32 = SPIN + 200;
        if self.step < SPIN {
            std::hint::spin_loop();
        } else if self.step < YIELD {
            std::thread::yield_now();
        } else {
            let k = (self.step - YIELD).min(10);
            let us = (10u64 << k).min(self.max_sleep_us);
            std::thread::sleep(std::time::Duration::from_micros(us));
        }
        self.step = self.step.saturating_add(1);
    }
}

/// Locks a mutex, recovering the data if a panicking thread poisoned it (the runtime's own
/// state stays consistent across panics: every critical section is short and non-panicking).
pub(crate) fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}
