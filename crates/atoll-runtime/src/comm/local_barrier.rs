//! The local backend's barrier: a counter plus a generation word, waited on by spinning briefly
//! and then parking (the slow path is a mutex and condition variable, so no wake-up is lost).
//!
//! Arrival is one `fetch_add` on the counter; the last arriver resets it and bumps the
//! generation (the "sense" of a sense-reversing barrier), and wakes parked waiters only when
//! some are parked (one load otherwise). A waiter:
//! 1. spins on the generation for up to [`SPIN`] when every locale can have a core of its own
//!    (`locales <= available cores`), or yields for up to [`YIELD`] when the machine is
//!    oversubscribed (the locale it waits for may need this core: spinning would delay it);
//! 2. then parks on the condition variable, re-checking every [`PARK_SLICE`].
//!
//! Each pass of the wait loop asks `interrupted()` (the world's failure flag, and any abort
//! epoch added later): when it says so the waiter leaves with [`Interrupted`]. Its arrival
//! stays counted, so after an interruption the barrier must not be used again until
//! [`FastBarrier::reset`] runs while no locale is inside it: a job-wide failure ends the job,
//! and an abandoned driver command resets it at the command boundary (`local_fence.rs`).

use crate::sync::wait_timeout;
use crate::sync::{lock, AtomicU64, AtomicUsize, Condvar, Mutex, Ordering};
use std::time::{Duration, Instant};

/// How long a waiter spins before parking when locales are not oversubscribed.
const SPIN: Duration = Duration::from_micros(50);
/// How long a waiter yields before parking when the machine is oversubscribed (each yield
/// hands the core to a runnable thread, likely a locale this one waits for).
const YIELD: Duration = Duration::from_micros(100);
/// How long a parked waiter sleeps before re-checking `interrupted()`.
const PARK_SLICE: Duration = Duration::from_millis(20);

/// A value on a cache line of its own (the counter and the generation word are written by
/// different locales at different times).
#[repr(align(128))]
#[derive(Default)]
pub(crate) struct Padded<T>(pub(crate) T);

/// The waiter left because `interrupted()` said so (the barrier did not complete for it).
#[derive(Debug)]
pub(crate) struct Interrupted;

/// A reusable barrier for `n` locales of one process.
pub(crate) struct FastBarrier {
    n: usize,
    arrived: Padded<AtomicUsize>,
    gen: Padded<AtomicU64>,
    sleepers: Padded<AtomicUsize>,
    park: Mutex<()>,
    cv: Condvar,
    spin: bool,
}

impl FastBarrier {
    /// A barrier for `n` locales; waiters spin only when `n` locales fit on the machine's cores.
    pub(crate) fn new(n: usize) -> Self {
        let cores = std::thread::available_parallelism().map(|c| c.get()).unwrap_or(1);
        FastBarrier {
            n,
            arrived: Padded(AtomicUsize::new(0)),
            gen: Padded(AtomicU64::new(0)),
            sleepers: Padded(AtomicUsize::new(0)),
            park: Mutex::new(()),
            cv: Condvar::new(),
            spin: n <= cores,
        }
    }

    /// Wakes every parked waiter (after a failure, or an abort, so they re-check promptly).
    pub(crate) fn wake_all(&self) {
        let _g = lock(&self.park);
        self.cv.notify_all();
    }

    /// Forgets the arrivals of an interrupted round. Only while no locale is inside `wait`.
    pub(crate) fn reset(&self) {
        self.arrived.0.store(0, Ordering::SeqCst);
    }

    /// Waits until all `n` locales have called `wait` (the memory effects of everything each
    /// did before are visible to all after). Leaves early with [`Interrupted`] when
    /// `interrupted()` returns true while waiting.
    pub(crate) fn wait(&self, interrupted: impl Fn() -> bool) -> Result<(), Interrupted> {
        let gen = self.gen.0.load(Ordering::Acquire);
        // AcqRel: the last arriver acquires every earlier arrival's writes, and its release of
        // the generation publishes them to the waiters.
        if self.arrived.0.fetch_add(1, Ordering::AcqRel) + 1 == self.n {
            self.arrived.0.store(0, Ordering::Relaxed);
            // SeqCst pairs with the waiters' SeqCst increment of `sleepers` (see `park`).
            self.gen.0.fetch_add(1, Ordering::SeqCst);
            if self.sleepers.0.load(Ordering::SeqCst) > 0 {
                self.wake_all();
            }
            return Ok(());
        }
        let passed = || self.gen.0.load(Ordering::Acquire) != gen;
        if self.spin {
            let start = Instant::now();
            let mut k = 0u32;
            loop {
                if passed() {
                    return Ok(());
                }
                std::hint::spin_loop();
                k = k.wrapping_add(1);
                if k % 64 == 0 {
                    if interrupted() {
                        return Err(Interrupted);
                    }
                    if start.elapsed() > SPIN {
                        break;
                    }
                }
            }
        } else {
            let start = Instant::now();
            loop {
                if passed() {
                    return Ok(());
                }
                if interrupted() || start.elapsed() > YIELD {
                    break;
                }
                std::thread::yield_now();
            }
        }
        self.park(gen, interrupted)
    }

    /// The slow path: sleeps on the condition variable until the generation moves on.
    fn park(&self, gen: u64, interrupted: impl Fn() -> bool) -> Result<(), Interrupted> {
        let mut g = lock(&self.park);
        // Registered before the check below (both SeqCst): either this waiter sees the new
        // generation, or the releaser sees a sleeper and notifies under the lock, which this
        // waiter holds until `wait_timeout` releases it.
        self.sleepers.0.fetch_add(1, Ordering::SeqCst);
        let r = loop {
            if self.gen.0.load(Ordering::SeqCst) != gen {
                break Ok(());
            }
            if interrupted() {
                break Err(Interrupted);
            }
            g = wait_timeout(&self.cv, g, PARK_SLICE).0;
        };
        self.sleepers.0.fetch_sub(1, Ordering::SeqCst);
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sync::{Arc, AtomicBool};

    #[test]
    fn rounds_order_memory() {
        for n in [1, 2, 3, 5] {
            let b = Arc::new(FastBarrier::new(n));
            let cells: Arc<Vec<AtomicU64>> = Arc::new((0..n).map(|_| AtomicU64::new(0)).collect());
            std::thread::scope(|s| {
                for me in 0..n {
                    let (b, cells) = (Arc::clone(&b), Arc::clone(&cells));
                    s.spawn(move || {
                        for round in 1..=2000u64 {
                            cells[me].store(round, Ordering::Relaxed);
                            b.wait(|| false).unwrap();
                            for c in cells.iter() {
                                assert_eq!(c.load(Ordering::Relaxed), round);
                            }
                            b.wait(|| false).unwrap();
                        }
                    });
                }
            });
        }
    }

    #[test]
    fn interruption_releases_waiters() {
        let b = Arc::new(FastBarrier::new(3));
        let stop = Arc::new(AtomicBool::new(false));
        std::thread::scope(|s| {
            let hs: Vec<_> = (0..2)
                .map(|_| {
                    let (b, stop) = (Arc::clone(&b), Arc::clone(&stop));
                    s.spawn(move || b.wait(|| stop.load(Ordering::SeqCst)).is_err())
                })
                .collect();
            std::thread::sleep(Duration::from_millis(50));
            stop.store(true, Ordering::SeqCst);
            b.wake_all();
            for h in hs {
                assert!(h.join().unwrap());
            }
        });
    }
}
