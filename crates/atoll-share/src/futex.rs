//! Linux futex wait and wake on a 32-bit word of a shared file mapping. Not the private
//! variant: the kernel keys the word by file and offset, so processes in different PID, IPC
//! and mount namespaces that map the same file meet on it (where POSIX named semaphores,
//! which live in the IPC namespace's /dev/shm view, may not).
//!
//! Other systems (and builds with `--cfg atoll_portable`, which compile this fallback on
//! Linux) have no futex shared between processes: a wait there polls the word (a short spin,
//! then yields, then naps growing to 1 ms) and a wake does nothing, so the waiter sees a post
//! within a nap's length.

use std::sync::atomic::AtomicU32;
use std::time::Duration;

/// How a wait ended.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Wake {
    /// Woken, interrupted, or the word was no longer `expected`: look again.
    Retry,
    /// The timeout passed.
    TimedOut,
}

/// Sleeps while `word == expected`, at most `timeout`.
#[cfg(all(target_os = "linux", not(atoll_portable)))]
pub(crate) fn wait(word: &AtomicU32, expected: u32, timeout: Duration) -> Wake {
    let ts = libc::timespec {
        tv_sec: timeout.as_secs().min(i64::MAX as u64) as libc::time_t,
        tv_nsec: timeout.subsec_nanos() as libc::c_long,
    };
    // SAFETY: FUTEX_WAIT reads the aligned 32-bit word behind a live reference and the
    // timespec on the stack; it writes no memory.
    let r = unsafe {
        libc::syscall(
            libc::SYS_futex,
            word.as_ptr(),
            libc::FUTEX_WAIT,
            expected,
            &ts as *const libc::timespec,
            std::ptr::null::<u32>(),
            0u32,
        )
    };
    if r == -1 && std::io::Error::last_os_error().raw_os_error() == Some(libc::ETIMEDOUT) {
        Wake::TimedOut
    } else {
        Wake::Retry
    }
}

/// Wakes at most `n` waiters on `word`; returns how many were woken.
#[cfg(all(target_os = "linux", not(atoll_portable)))]
pub(crate) fn wake(word: &AtomicU32, n: u32) -> u32 {
    let n = n.min(i32::MAX as u32) as libc::c_int;
    // SAFETY: FUTEX_WAKE only uses the word's address as a key; it reads and writes no memory.
    let r = unsafe {
        libc::syscall(
            libc::SYS_futex,
            word.as_ptr(),
            libc::FUTEX_WAKE,
            n,
            std::ptr::null::<libc::timespec>(),
            std::ptr::null::<u32>(),
            0u32,
        )
    };
    if r < 0 {
        0
    } else {
        r as u32
    }
}

/// Waits while `word == expected`, at most `timeout`, polling the word.
#[cfg(not(all(target_os = "linux", not(atoll_portable))))]
pub(crate) fn wait(word: &AtomicU32, expected: u32, timeout: Duration) -> Wake {
    if poll_while_equal(word, expected, timeout) {
        Wake::Retry
    } else {
        Wake::TimedOut
    }
}

/// Wakes nobody: the waiters of the polling [`wait`] see the word change by themselves.
#[cfg(not(all(target_os = "linux", not(atoll_portable))))]
pub(crate) fn wake(_word: &AtomicU32, _n: u32) -> u32 {
    0
}

/// Polls `word` until it no longer holds `expected` (true) or `timeout` passes (false): 64
/// spins, then 16 yields, then naps doubling from 10 us to 1 ms.
#[cfg(not(all(target_os = "linux", not(atoll_portable))))]
fn poll_while_equal(word: &AtomicU32, expected: u32, timeout: Duration) -> bool {
    use std::sync::atomic::Ordering::SeqCst;
    let start = std::time::Instant::now();
    let mut nap = Duration::from_micros(10);
    let mut round = 0u32;
    loop {
        if word.load(SeqCst) != expected {
            return true;
        }
        let left = timeout.saturating_sub(start.elapsed());
        if left.is_zero() {
            return false;
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering::SeqCst;
    use std::sync::Arc;

    #[test]
    fn a_wait_on_an_unchanged_word_times_out() {
        let word = AtomicU32::new(5);
        let mut w = wait(&word, 5, Duration::from_millis(20));
        // A futex wait may also return early (a signal); the caller loops, as here.
        for _ in 0..100 {
            if w == Wake::TimedOut {
                break;
            }
            w = wait(&word, 5, Duration::from_millis(20));
        }
        assert_eq!(w, Wake::TimedOut);
    }

    #[test]
    fn a_wait_on_a_changed_word_returns_at_once() {
        let word = AtomicU32::new(1);
        assert_eq!(wait(&word, 0, Duration::from_secs(3600)), Wake::Retry);
    }

    #[test]
    fn a_store_and_a_wake_end_a_wait_in_another_thread() {
        let word = Arc::new(AtomicU32::new(0));
        let waiter = {
            let word = Arc::clone(&word);
            std::thread::spawn(move || {
                // Loops as the callers do: spurious returns are allowed.
                while word.load(SeqCst) == 0 {
                    assert_eq!(wait(&word, 0, Duration::from_secs(3600)), Wake::Retry);
                }
                word.load(SeqCst)
            })
        };
        std::thread::sleep(Duration::from_millis(10));
        word.store(7, SeqCst);
        wake(&word, u32::MAX);
        assert_eq!(waiter.join().unwrap(), 7);
    }
}
