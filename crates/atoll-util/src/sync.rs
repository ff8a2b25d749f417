//! Locks that survive a panicking holder.
//!
//! A standard lock whose holder panicked is *poisoned*: `lock()` returns an error from then
//! on. Atoll's critical sections are short and leave their data consistent, and a panic on
//! one locale is reported as that locale's failure (`HandlerPanicked`, `LocaleFailed`), so the
//! data is simply taken back. These helpers are the one way Atoll takes its locks.
//!
//! ```
//! use atoll_util::sync::{into_inner, lock};
//! use std::sync::Mutex;
//!
//! let m = Mutex::new(0);
//! let _ = std::thread::scope(|s| s.spawn(|| {
//!     let _g = lock(&m);
//!     panic!("a holder panics");
//! }).join());
//! *lock(&m) += 1; // still usable
//! assert_eq!(into_inner(m), 1);
//! ```

use std::sync::{Condvar, Mutex, MutexGuard, PoisonError, RwLock, RwLockReadGuard, RwLockWriteGuard};
use std::time::Duration;

/// Locks `m`, taking the data back if a holder panicked.
#[inline]
pub fn lock<T: ?Sized>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Locks `l` for reading, taking the data back if a writer panicked.
#[inline]
pub fn read<T: ?Sized>(l: &RwLock<T>) -> RwLockReadGuard<'_, T> {
    l.read().unwrap_or_else(PoisonError::into_inner)
}

/// Locks `l` for writing, taking the data back if a writer panicked.
#[inline]
pub fn write<T: ?Sized>(l: &RwLock<T>) -> RwLockWriteGuard<'_, T> {
    l.write().unwrap_or_else(PoisonError::into_inner)
}

/// The data of `m`, even if a holder panicked.
#[inline]
pub fn into_inner<T>(m: Mutex<T>) -> T {
    m.into_inner().unwrap_or_else(PoisonError::into_inner)
}

/// [`Condvar::wait`] on `g`, taking the data back if a holder panicked.
#[inline]
pub fn wait<'a, T>(cv: &Condvar, g: MutexGuard<'a, T>) -> MutexGuard<'a, T> {
    cv.wait(g).unwrap_or_else(PoisonError::into_inner)
}

/// [`Condvar::wait_timeout`] on `g` for at most `timeout` (the guard back, and whether the
/// time ran out), taking the data back if a holder panicked.
#[inline]
pub fn wait_timeout<'a, T>(cv: &Condvar, g: MutexGuard<'a, T>, timeout: Duration) -> (MutexGuard<'a, T>, bool) {
    let (g, r) = cv.wait_timeout(g, timeout).unwrap_or_else(PoisonError::into_inner);
    (g, r.timed_out())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn poison<T: Send>(m: &Mutex<T>) {
        let r = std::thread::scope(|s| {
            s.spawn(|| {
                let _g = m.lock();
                panic!("poisons the lock on purpose");
            })
            .join()
        });
        assert!(r.is_err());
        assert!(m.is_poisoned());
    }

    #[test]
    fn a_poisoned_lock_still_gives_its_data() {
        let m = Mutex::new(5);
        poison(&m);
        *lock(&m) += 1;
        assert_eq!(into_inner(m), 6);

        let l = RwLock::new(1);
        let _ = std::thread::scope(|s| {
            s.spawn(|| {
                let _g = l.write();
                panic!("poisons the lock on purpose");
            })
            .join()
        });
        assert!(l.is_poisoned());
        *write(&l) += 1;
        assert_eq!(*read(&l), 2);

        let (m, cv) = (Mutex::new(false), Condvar::new());
        poison(&m);
        let (g, timed_out) = wait_timeout(&cv, lock(&m), Duration::from_millis(1));
        assert!(timed_out && !*g);
        drop(g);
        std::thread::scope(|s| {
            s.spawn(|| {
                *lock(&m) = true;
                cv.notify_all();
            });
            let mut g = lock(&m);
            while !*g {
                g = wait(&cv, g);
            }
        });
    }
}
