//! Loops with a static split among the sublocales: the caller says which range each sublocale
//! runs (the piece of an array that the sublocale first touched), instead of
//! [`Ctx::forall_chunks`]'s split in proportion to threads. Inside a sublocale the threads
//! still take chunks from a shared counter.
//!
//! Also [`current_sublocale`]: the sublocale whose pool runs the calling thread, which every
//! pool thread records when it starts (so tests and diagnostics can check where work ran).

use crate::Ctx;
use atoll_error::{ensure, invalid_arg, Result};
use std::cell::Cell;
use std::ops::Range;

thread_local! {
    static SUBLOCALE: Cell<Option<(usize, usize)>> = const { Cell::new(None) };
}

/// Records that the calling thread belongs to sublocale `index` of `locale` (pool start hook).
pub(crate) fn set_current_sublocale(locale: usize, index: usize) {
    SUBLOCALE.with(|s| s.set(Some((locale, index))));
}

/// Marks the calling thread as running in a sublocale until dropped (then restores what it
/// was, also on unwinding): for loops that a one-thread sublocale runs on the caller.
pub(crate) struct InSublocale(Option<(usize, usize)>);

impl InSublocale {
    pub(crate) fn enter(locale: usize, index: usize) -> InSublocale {
        InSublocale(SUBLOCALE.with(|s| s.replace(Some((locale, index)))))
    }
}

impl Drop for InSublocale {
    fn drop(&mut self) {
        SUBLOCALE.with(|s| s.set(self.0));
    }
}

/// `(locale, sublocale)` when the calling thread is a thread of a sublocale's task pool, `None`
/// on other threads (a locale's main thread, a communication thread).
///
/// ```
/// use atoll_runtime::{current_sublocale, run, Config};
/// run(Config::local(2), |ctx| {
///     assert_eq!(current_sublocale(), None);
///     let here = ctx.here().child(0)?.run(current_sublocale);
///     assert_eq!(here, Some((ctx.id(), 0)));
///     Ok(())
/// }).unwrap();
/// ```
pub fn current_sublocale() -> Option<(usize, usize)> {
    SUBLOCALE.with(Cell::get)
}

impl Ctx {
    /// Runs `f(sublocale, sub_range)` over `parts[s]` on sublocale `s`'s task pool, for every
    /// sublocale `s` of this locale at once, in chunks of `chunk` iterations (0: about 16
    /// chunks per thread of the sublocale) that its threads take dynamically. Every iteration
    /// runs on a thread of the sublocale whose part holds it, even for a loop of one chunk (the
    /// static placement is the point: memory a sublocale first touched is processed by it).
    /// The parts may be empty; they need not be adjacent. Returns after every part is done.
    /// **One-sided.**
    ///
    /// ```
    /// use atoll_runtime::{current_sublocale, run, Config, SublocaleMode};
    /// use std::sync::Mutex;
    /// let cfg = Config::local(1).with_sublocales(SublocaleMode::Core);
    /// run(cfg, |ctx| {
    ///     let subs = ctx.here().children().len();
    ///     let parts: Vec<_> = (0..subs).map(|s| s * 100..(s + 1) * 100).collect();
    ///     let seen = Mutex::new(Vec::new());
    ///     ctx.forall_chunks_on_sublocales(&parts, 10, |s, r| {
    ///         assert_eq!(current_sublocale(), Some((0, s)));
    ///         seen.lock().unwrap().push((s, r));
    ///     })?;
    ///     let mut seen = seen.into_inner().unwrap();
    ///     seen.sort_by_key(|(_, r)| r.start);
    ///     assert_eq!(seen.len(), subs * 10);
    ///     assert!(seen.iter().all(|(s, r)| r.start / 100 == *s));
    ///     Ok(())
    /// }).unwrap();
    /// ```
    ///
    /// # Errors
    /// [`atoll_error::Error::InvalidArgument`] when `parts` does not have one range per
    /// sublocale of this locale.
    pub fn forall_chunks_on_sublocales(
        &self,
        parts: &[Range<usize>],
        chunk: usize,
        f: impl Fn(usize, Range<usize>) + Sync,
    ) -> Result<()> {
        let subs = self.here().children();
        ensure!(
            parts.len() == subs.len(),
            invalid_arg!("{} ranges given for the {} sublocales of locale {}", parts.len(), subs.len(), self.id())
        );
        let f = &f;
        let run = |s: usize| {
            let sub = &subs[s];
            let p = parts[s].clone();
            let c = if chunk == 0 { (p.len() / (sub.num_threads() * 16)).max(1) } else { chunk };
            sub.for_chunks(p, c, 0, &|_, r| f(s, r));
        };
        let busy: Vec<usize> = (0..parts.len()).filter(|&s| !parts[s].is_empty()).collect();
        match busy.as_slice() {
            [] => {}
            [s] => run(*s),
            [first, rest @ ..] => std::thread::scope(|scope| {
                for &s in rest {
                    scope.spawn(move || run(s));
                }
                run(*first);
            }),
        }
        Ok(())
    }

    /// The number of sublocales of every locale, by locale id. **Collective** (one allgather).
    pub fn sublocale_counts(&self) -> Result<Vec<usize>> {
        self.allgather(&self.here().children().len())
    }
}
