//! The crate's small, fenced set of `unsafe` operations on the system.
//!
//! Everything here is a thin, safe wrapper around one system facility, so that the rest of the
//! crate (the tracking tables, the counters, the reports) is written in safe Rust:
//!
//! * [`SysBuf`]: a fixed-size zero-initialised buffer allocated from [`std::alloc::System`]
//!   directly, never through the global allocator, so that the tracking tables can grow from
//!   inside the global allocator without recursing into it;
//! * [`with_env`]: reads an environment variable with `libc::getenv`, without allocating
//!   (the allocator reads its settings on its first call, when it cannot allocate);
//! * [`capture_frames`]: the return addresses of the current call stack (allocation sites);
//! * [`SpinLock`]: the small lock of each tracking-table shard (one atomic read-modify-write
//!   to take it, a plain release store to give it back);
//! * [`physical_memory_sysconf`] and [`register_atexit`]: two libc calls.

#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::UnsafeCell;
use std::ffi::CStr;
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;
use std::sync::atomic::{AtomicBool, Ordering};

/// Types whose every field is a plain integer, so the all-zero bit pattern is a valid value.
///
/// # Safety
///
/// Implement only for `Copy` types for which all-zero bytes are a valid, initialised value and
/// that own no resources (no references, no pointers that are dereferenced, no `Drop`).
pub(crate) unsafe trait Zeroable: Copy {}

// SAFETY: integers are valid when zero and own nothing.
unsafe impl Zeroable for u32 {}
// SAFETY: as above.
unsafe impl Zeroable for usize {}
// SAFETY: `Entry` is `Copy` and made of integers only (all-zero is the valid "empty" entry); it
// owns nothing.
unsafe impl Zeroable for crate::records::Entry {}
// SAFETY: `Site` is `Copy` and made of integers and an array of integers only; it owns nothing.
unsafe impl Zeroable for crate::records::Site {}

/// A fixed-capacity, zero-initialised array of `T` allocated from [`System`].
///
/// It never goes through the global allocator, so the tracking allocator may create and drop
/// one while it serves an allocation.
pub(crate) struct SysBuf<T: Zeroable> {
    ptr: NonNull<T>,
    cap: usize,
}

// SAFETY: a `SysBuf` uniquely owns its allocation (like a `Box<[T]>`), so sending it to another
// thread is sound whenever `T` itself may be sent.
unsafe impl<T: Zeroable + Send> Send for SysBuf<T> {}
// SAFETY: shared access only hands out `&[T]`, which is sound to share when `T: Sync`.
unsafe impl<T: Zeroable + Sync> Sync for SysBuf<T> {}

impl<T: Zeroable> SysBuf<T> {
    /// A buffer of `cap` zeroed elements, or `None` when `cap` is zero, the size overflows or
    /// the system is out of memory.
    pub(crate) fn zeroed(cap: usize) -> Option<Self> {
        if cap == 0 || std::mem::size_of::<T>() == 0 {
            return None;
        }
        let layout = Layout::array::<T>(cap).ok()?;
        // SAFETY: `layout` has a non-zero size (cap > 0 and T is not zero-sized).
        let raw = unsafe { System.alloc_zeroed(layout) };
        let ptr = NonNull::new(raw.cast::<T>())?;
        Some(SysBuf { ptr, cap })
    }

    /// The number of elements.
    pub(crate) fn capacity(&self) -> usize {
        self.cap
    }

    /// The elements.
    pub(crate) fn as_slice(&self) -> &[T] {
        // SAFETY: `ptr` points to `cap` initialised (zeroed, then only written through safe
        // slices) elements that live as long as `self`, and `&self` excludes mutation.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.cap) }
    }

    /// The elements, mutably.
    pub(crate) fn as_mut_slice(&mut self) -> &mut [T] {
        // SAFETY: as in `as_slice`, and `&mut self` guarantees exclusive access.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.cap) }
    }
}

impl<T: Zeroable> Drop for SysBuf<T> {
    fn drop(&mut self) {
        // `zeroed` already computed this layout successfully for the same `cap`.
        if let Ok(layout) = Layout::array::<T>(self.cap) {
            // SAFETY: `ptr` was returned by `System.alloc_zeroed` with exactly this layout and
            // has not been freed (a `SysBuf` frees it only here, once).
            unsafe { System.dealloc(self.ptr.as_ptr().cast::<u8>(), layout) }
        }
    }
}

/// A test-and-test-and-set lock for very short critical sections that never allocate through
/// the global allocator: taking it costs one atomic read-modify-write, giving it back a plain
/// release store (a `std::sync::Mutex` needs a second read-modify-write to look for sleepers).
/// A waiter spins briefly, then yields its core, so a holder that lost its core gets it back.
/// Never poisoned: a holder that panics releases it as it unwinds.
pub(crate) struct SpinLock<T> {
    locked: AtomicBool,
    value: UnsafeCell<T>,
}

// SAFETY: the lock hands out access to `value` to one thread at a time (see `lock`), which is
// exactly what `Mutex<T>: Sync` requires of `T`: that it may be sent between threads.
unsafe impl<T: Send> Sync for SpinLock<T> {}

impl<T> SpinLock<T> {
    /// A new, unlocked lock.
    pub(crate) const fn new(value: T) -> Self {
        SpinLock { locked: AtomicBool::new(false), value: UnsafeCell::new(value) }
    }

    /// Takes the lock, waiting as long as needed.
    #[inline(always)]
    pub(crate) fn lock(&self) -> SpinGuard<'_, T> {
        if self.locked.compare_exchange_weak(false, true, Ordering::Acquire, Ordering::Relaxed).is_err() {
            self.lock_slow();
        }
        SpinGuard { lock: self }
    }

    #[cold]
    #[inline(never)]
    fn lock_slow(&self) {
        loop {
            let mut spins = 0u32;
            while self.locked.load(Ordering::Relaxed) {
                if spins < 100 {
                    std::hint::spin_loop();
                    spins += 1;
                } else {
                    // Does not allocate (a `sched_yield` system call).
                    std::thread::yield_now();
                }
            }
            if self.locked.compare_exchange_weak(false, true, Ordering::Acquire, Ordering::Relaxed).is_ok() {
                return;
            }
        }
    }
}

/// Access to a [`SpinLock`]'s value; releases the lock when dropped.
pub(crate) struct SpinGuard<'a, T> {
    lock: &'a SpinLock<T>,
}

impl<T> Deref for SpinGuard<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        // SAFETY: the guard exists only while this thread holds the lock, so no other reference
        // to the value exists.
        unsafe { &*self.lock.value.get() }
    }
}

impl<T> DerefMut for SpinGuard<'_, T> {
    fn deref_mut(&mut self) -> &mut T {
        // SAFETY: as in `deref`, and `&mut self` makes this the only access through the guard.
        unsafe { &mut *self.lock.value.get() }
    }
}

impl<T> Drop for SpinGuard<'_, T> {
    #[inline(always)]
    fn drop(&mut self) {
        self.lock.locked.store(false, Ordering::Release);
    }
}

/// Calls `f` with the value of the environment variable `name` (a NUL-terminated name), or
/// `None` when it is unset. Does not allocate.
///
/// The value is read with `getenv`; like every `getenv` caller, this must not race with a
/// concurrent `setenv` of the same process (Atoll reads its settings once, at start-up).
pub(crate) fn with_env<R>(name: &CStr, f: impl FnOnce(Option<&[u8]>) -> R) -> R {
    // SAFETY: `name` is a valid NUL-terminated string. `getenv` returns either null or a
    // pointer to a NUL-terminated string owned by the environment, which stays valid until the
    // environment is modified; it is only borrowed for the duration of `f`.
    let value = unsafe {
        let p = libc::getenv(name.as_ptr());
        if p.is_null() {
            None
        } else {
            Some(CStr::from_ptr(p).to_bytes())
        }
    };
    f(value)
}

/// Writes the return addresses of the current call stack, innermost first, into `out` and
/// returns how many were written. Does not allocate.
pub(crate) fn capture_frames(out: &mut [usize]) -> usize {
    let mut n = 0;
    let mut record = |frame: &backtrace::Frame| {
        if n >= out.len() {
            return false;
        }
        out[n] = frame.ip() as usize;
        n += 1;
        n < out.len()
    };
    #[cfg(not(windows))]
    // SAFETY: `trace_unsynchronized` is unsafe only because some backends (Windows' dbghelp) are
    // not thread-safe. On the other platforms it walks the stack with the system unwinder
    // (`_Unwind_Backtrace`), which is thread-safe and does not allocate through Rust's global
    // allocator. The callback does not panic.
    unsafe {
        backtrace::trace_unsynchronized(&mut record)
    };
    #[cfg(windows)]
    backtrace::trace(&mut record);
    n
}

/// Physical memory in bytes from `sysconf`, or `None` where it is unavailable.
pub(crate) fn physical_memory_sysconf() -> Option<u64> {
    #[cfg(unix)]
    {
        // SAFETY: `sysconf` has no preconditions; it returns -1 for unsupported names.
        let (pages, page_size) = unsafe { (libc::sysconf(libc::_SC_PHYS_PAGES), libc::sysconf(libc::_SC_PAGESIZE)) };
        if pages > 0 && page_size > 0 {
            return (pages as u64).checked_mul(page_size as u64);
        }
        None
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// Registers `f` to run at normal process exit (`libc::atexit`). Returns whether it was
/// registered.
pub(crate) fn register_atexit(f: extern "C" fn()) -> bool {
    // SAFETY: `f` is a plain `extern "C"` function with no arguments; `atexit` only stores the
    // pointer. The functions registered by this crate never unwind (they catch panics).
    unsafe { libc::atexit(f) == 0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sysbuf_is_zeroed_and_writable() {
        let mut b = SysBuf::<usize>::zeroed(100).expect("allocation");
        assert_eq!(b.capacity(), 100);
        assert!(b.as_slice().iter().all(|&x| x == 0));
        b.as_mut_slice()[99] = 7;
        assert_eq!(b.as_slice()[99], 7);
        assert!(SysBuf::<usize>::zeroed(0).is_none());
        assert!(SysBuf::<usize>::zeroed(usize::MAX).is_none());
    }

    #[test]
    fn spinlock_excludes() {
        let lock = SpinLock::new(0u64);
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| {
                    for _ in 0..100_000 {
                        *lock.lock() += 1;
                    }
                });
            }
        });
        assert_eq!(*lock.lock(), 400_000);
    }

    #[test]
    fn env_reads_without_allocating() {
        // PATH is set in every test environment; a made-up name is not.
        assert!(with_env(c"PATH", |v| v.is_some()));
        assert!(with_env(c"ATOLL_MEM_SURELY_UNSET_VARIABLE", |v| v.is_none()));
    }

    #[test]
    fn frames_are_captured() {
        let mut frames = [0usize; 8];
        let n = capture_frames(&mut frames);
        assert!(n > 0 && n <= 8);
        assert!(frames[..n].iter().all(|&f| f != 0));
    }
}
