//! Parking on a word of node-shared memory (Linux futexes, which work across processes on a
//! `MAP_SHARED` mapping): the waiters of `shm_coll.rs` sleep in the kernel until the rank they
//! wait for arrives, instead of polling with yields and sleeps (on a loaded machine a
//! `sched_yield` hands the core to another process for a whole time slice, and a sleep costs
//! its timer slack: each made a collective cost hundreds of microseconds).
//!
//! Other systems (and builds with `--cfg atoll_portable`, which compile this fallback on
//! Linux) have no futex shared between processes: a wait there polls the word (a short spin,
//! then yields, then naps growing to 1 ms) and a wake does nothing.

use std::sync::atomic::AtomicU32;
use std::time::Duration;

/// Sleeps while `word` holds `expected`, for at most `timeout` (spurious and early wake-ups
/// are allowed: the caller re-checks its condition).
#[cfg(all(target_os = "linux", not(atoll_portable)))]
pub(crate) fn wait(word: &AtomicU32, expected: u32, timeout: Duration) {
    let ts =
        libc::timespec { tv_sec: timeout.as_secs() as libc::time_t, tv_nsec: timeout.subsec_nanos() as libc::c_long };
    // SAFETY: `word` is a live, aligned 32-bit atomic (in a shared mapping: hence no
    // FUTEX_PRIVATE_FLAG); `ts` outlives the call; the kernel only reads both.
    unsafe {
        libc::syscall(
            libc::SYS_futex,
            word.as_ptr(),
            libc::FUTEX_WAIT,
            expected,
            &ts as *const libc::timespec,
            std::ptr::null::<u32>(),
            0,
        );
    }
}

/// Wakes every process sleeping in [`wait`] on `word`.
#[cfg(all(target_os = "linux", not(atoll_portable)))]
pub(crate) fn wake_all(word: &AtomicU32) {
    // SAFETY: as in `wait`; FUTEX_WAKE reads no user memory beyond the word's address.
    unsafe {
        libc::syscall(
            libc::SYS_futex,
            word.as_ptr(),
            libc::FUTEX_WAKE,
            i32::MAX,
            std::ptr::null::<libc::timespec>(),
            std::ptr::null::<u32>(),
            0,
        );
    }
}

/// Waits while `word` holds `expected`, for at most `timeout`, polling the word: 64 spins,
/// then 16 yields, then naps doubling from 10 us to 1 ms.
#[cfg(not(all(target_os = "linux", not(atoll_portable))))]
pub(crate) fn wait(word: &AtomicU32, expected: u32, timeout: Duration) {
    use std::sync::atomic::Ordering::SeqCst;
    let start = std::time::Instant::now();
    let mut nap = Duration::from_micros(10);
    let mut round = 0u32;
    while word.load(SeqCst) == expected {
        let left = timeout.saturating_sub(start.elapsed());
        if left.is_zero() {
            return;
        }
        round = round.saturating_add(1);
        if round <= 64 {
            std::hint::spin_loop();
        } else if round <= 80 {
            std::thread::yield_now();
        } else {
            std::thread::sleep(nap.min(left));
            nap = (nap * 2).min(Duration::from_millis(1));
        }
    }
}

/// Wakes nobody: the waiters of the polling [`wait`] see the word change by themselves.
#[cfg(not(all(target_os = "linux", not(atoll_portable))))]
pub(crate) fn wake_all(_word: &AtomicU32) {}
