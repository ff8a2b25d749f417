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
//! and an abandoned driver command resets it at the command boundary (`comm/local/fence.rs`).

use crate::sync::model::{fence, lock, wait_timeout, AtomicU64, AtomicUsize, Condvar, Mutex, Ordering};
use std::time::Duration;
#[cfg(not(loom))]
use std::time::Instant;

/// How long a waiter spins before parking when locales are not oversubscribed.
#[cfg_attr(loom, allow(dead_code))]
const SPIN: Duration = Duration::from_micros(50);
/// How long a waiter yields before parking when the machine is oversubscribed (each yield
/// hands the core to a runnable thread, likely a locale this one waits for).
#[cfg_attr(loom, allow(dead_code))]
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
    #[cfg_attr(loom, allow(dead_code))]
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
            self.gen.0.fetch_add(1, Ordering::SeqCst);
            // Pairs with the fence of a parking waiter (see `park`).
            fence(Ordering::SeqCst);
            if self.sleepers.0.load(Ordering::Relaxed) > 0 {
                self.wake_all();
            }
            return Ok(());
        }
        let passed = || self.gen.0.load(Ordering::Acquire) != gen;
        if let Some(r) = self.wait_a_little(passed, &interrupted) {
            return r;
        }
        self.park(gen, interrupted)
    }

    /// The fast path: spins, or yields when oversubscribed, for a while (see the module docs);
    /// `Some` when the round completed or `interrupted()` said so meanwhile.
    #[cfg(not(loom))]
    fn wait_a_little(
        &self,
        passed: impl Fn() -> bool,
        interrupted: &impl Fn() -> bool,
    ) -> Option<Result<(), Interrupted>> {
        let start = Instant::now();
        if self.spin {
            let mut k = 0u32;
            loop {
                if passed() {
                    return Some(Ok(()));
                }
                std::hint::spin_loop();
                k = k.wrapping_add(1);
                if k % 64 == 0 {
                    if interrupted() {
                        return Some(Err(Interrupted));
                    }
                    if start.elapsed() > SPIN {
                        return None;
                    }
                }
            }
        }
        loop {
            if passed() {
                return Some(Ok(()));
            }
            if interrupted() || start.elapsed() > YIELD {
                return None;
            }
            std::thread::yield_now();
        }
    }

    /// The fast path of the models: two looks with a yield between (the timed phases read the
    /// clock, which a model cannot), then the slow path.
    #[cfg(loom)]
    fn wait_a_little(
        &self,
        passed: impl Fn() -> bool,
        interrupted: &impl Fn() -> bool,
    ) -> Option<Result<(), Interrupted>> {
        for _ in 0..2 {
            if passed() {
                return Some(Ok(()));
            }
            if interrupted() {
                return Some(Err(Interrupted));
            }
            crate::sync::model::yield_now();
        }
        None
    }

    /// The slow path: sleeps on the condition variable until the generation moves on.
    fn park(&self, gen: u64, interrupted: impl Fn() -> bool) -> Result<(), Interrupted> {
        let mut g = lock(&self.park);
        // Registered before the check below, with a SeqCst fence on each side between the store
        // and the load (Dekker's pattern, as in the shared-memory inbox's doorbell): either this
        // waiter sees the new generation, or the releaser sees a sleeper and notifies under the
        // lock, which this waiter holds until `wait_timeout` releases it. (SeqCst accesses
        // alone would order them too; the fences are what loom models.)
        self.sleepers.0.fetch_add(1, Ordering::SeqCst);
        fence(Ordering::SeqCst);
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

#[cfg(all(test, not(loom)))]
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

/// The loom models of the barrier (`make loom`).
#[cfg(all(test, loom))]
mod loom_models {
    use super::*;
    use loom::cell::UnsafeCell;
    use loom::sync::atomic::AtomicBool;
    use loom::sync::Arc;

    /// What each locale wrote before a round is visible to every locale after it (each cell
    /// is plain memory: loom reports a read that the barrier does not order after its write),
    /// the barrier is reusable, and no waiter is left behind (a lost wake-up deadlocks, which
    /// loom reports).
    fn rounds(n: usize, rounds: usize) {
        loom::model(move || {
            let b = Arc::new(FastBarrier::new(n));
            let cells: Arc<Vec<UnsafeCell<usize>>> = Arc::new((0..n).map(|_| UnsafeCell::new(0)).collect());
            let locale = move |me: usize, b: Arc<FastBarrier>, cells: Arc<Vec<UnsafeCell<usize>>>| {
                for round in 1..=rounds {
                    // SAFETY: cell `me` is written by locale `me` only, between barriers.
                    cells[me].with_mut(|p| unsafe { *p = round });
                    b.wait(|| false).expect("not interrupted");
                    for c in cells.iter() {
                        // SAFETY: no locale writes between these two barriers.
                        assert_eq!(c.with(|p| unsafe { *p }), round);
                    }
                    b.wait(|| false).expect("not interrupted");
                }
            };
            let others: Vec<_> = (1..n)
                .map(|me| {
                    let (b, cells) = (Arc::clone(&b), Arc::clone(&cells));
                    loom::thread::spawn(move || locale(me, b, cells))
                })
                .collect();
            locale(0, b, cells);
            for t in others {
                t.join().expect("a locale panicked");
            }
        });
    }

    #[test]
    fn loom_barrier_of_two_over_two_rounds() {
        rounds(2, 2);
    }

    #[test]
    fn loom_barrier_of_three() {
        rounds(3, 1);
    }

    /// A waiter whose barrier will never complete leaves when it is interrupted (the failure
    /// flag, then `wake_all`), in every interleaving: it is never left asleep.
    #[test]
    fn loom_interruption_wakes_a_parked_waiter() {
        loom::model(|| {
            let b = Arc::new(FastBarrier::new(2));
            let stop = Arc::new(AtomicBool::new(false));
            let (b2, stop2) = (Arc::clone(&b), Arc::clone(&stop));
            let waiter = loom::thread::spawn(move || b2.wait(|| stop2.load(Ordering::SeqCst)).is_err());
            stop.store(true, Ordering::SeqCst);
            b.wake_all();
            assert!(waiter.join().expect("the waiter panicked"));
        });
    }
}
