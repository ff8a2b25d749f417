//! Loops with a static split among the sublocales: the caller says which range each sublocale
//! runs (the piece of an array that the sublocale first touched), instead of
//! [`Ctx::forall_chunks`]'s split in proportion to threads. Inside a sublocale the threads
//! still take chunks from a shared counter.

use crate::Ctx;
use atoll_error::{ensure, invalid_arg, Result};
use std::ops::Range;

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
