//! Which locale the current thread works for (used to attribute memory to locales when
//! several locales share one process).
//!
//! Setting a thread's locale also sets its `atoll-mem` locale, so the per-locale memory
//! counters charge runtime threads to the locale they work for:
//!
//! * local backend: locale `id` is `atoll-mem` locale `id` (ids at or above
//!   [`atoll_mem::MAX_LOCALES`] share the last index, `MAX_LOCALES - 1`; see [`mem_index`]);
//! * MPI backend: each process is one locale and `atoll-mem` counters are per process, so every
//!   thread of the process is charged to `atoll-mem` locale 0, whatever its rank.

use crate::sync::{AtomicBool, Ordering};
use std::cell::Cell;

thread_local! {
    static LOCALE: Cell<usize> = const { Cell::new(0) };
}

/// Set once a process becomes one locale of an MPI job.
static ONE_LOCALE_PER_PROCESS: AtomicBool = AtomicBool::new(false);

/// Records that this process is one locale of a multi-process (MPI) job: from now on every
/// locale id maps to `atoll-mem` locale 0.
#[cfg_attr(not(feature = "mpi"), allow(dead_code))]
pub(crate) fn set_one_locale_per_process() {
    ONE_LOCALE_PER_PROCESS.store(true, Ordering::SeqCst);
}

/// The `atoll-mem` locale index that counts the memory of runtime locale `locale` in this
/// process: 0 under MPI (one locale per process); `locale` on the local backend, except that
/// locales at or above [`atoll_mem::MAX_LOCALES`] share the last index (their budgets then see
/// the memory of all of them together: conservative, never an under-count).
pub(crate) fn mem_index(locale: usize) -> usize {
    if ONE_LOCALE_PER_PROCESS.load(Ordering::Relaxed) {
        0
    } else {
        locale.min(atoll_mem::MAX_LOCALES - 1)
    }
}

/// Marks the calling thread as working for `locale`, for the runtime and for `atoll-mem`'s
/// per-locale counters (see [`mem_index`]).
pub(crate) fn set_thread_locale(locale: usize) {
    LOCALE.with(|l| l.set(locale));
    // `mem_index` is always below MAX_LOCALES, so this cannot fail; were it to, the thread
    // would simply keep its previous attribution (memory figures are diagnostics and budgets,
    // never a reason to stop a thread).
    let _ = atoll_mem::set_current_locale(mem_index(locale));
}

/// The locale the calling thread works for (0 for threads the runtime did not start).
pub fn thread_locale() -> usize {
    LOCALE.with(|l| l.get())
}

/// Runs `f` as locale `locale`, restoring the previous attribution afterwards.
pub(crate) fn as_locale<R>(locale: usize, f: impl FnOnce() -> R) -> R {
    let prev = thread_locale();
    set_thread_locale(locale);
    struct Restore(usize);
    impl Drop for Restore {
        fn drop(&mut self) {
            set_thread_locale(self.0);
        }
    }
    let _r = Restore(prev);
    f()
}
