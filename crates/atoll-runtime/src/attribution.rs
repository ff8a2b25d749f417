//! Which locale the current thread works for (used to attribute memory to locales when
//! several locales share one process).

use std::cell::Cell;

thread_local! {
    static LOCALE: Cell<usize> = const { Cell::new(0) };
}

/// Marks the calling thread as working for `locale`.
pub(crate) fn set_thread_locale(locale: usize) {
    LOCALE.with(|l| l.set(locale));
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
