//! Linux futex wait and wake on a 32-bit word of a shared file mapping. Not the private
//! variant: the kernel keys the word by file and offset, so processes in different PID, IPC
//! and mount namespaces that map the same file meet on it (where POSIX named semaphores,
//! which live in the IPC namespace's /dev/shm view, may not).

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
