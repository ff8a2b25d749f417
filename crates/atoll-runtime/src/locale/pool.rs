//! Locales, sublocales and their task pools.
//!
//! Each locale owns a set of cores, divided into sublocales (NUMA domains, cores, or one for
//! all; see [`crate::SublocaleMode`]). Each sublocale has a task pool whose threads are pinned
//! to its cores (the `init_task` hook of the hierarchical-locales talk), so work started there
//! stays there, and memory it first touches is placed in its NUMA domain.
//!
//! `forall` over a local range splits the range among the sublocales in proportion to their
//! threads; inside a sublocale the threads take chunks from a shared counter (dynamic
//! chunking), so uneven iterations balance. Reductions combine per-chunk results in chunk
//! order: the result does not depend on which thread ran which chunk.
//!
//! Also [`current_sublocale`]: the sublocale whose pool runs the calling thread, which every
//! pool thread records when it starts (so tests and diagnostics can check where work ran).

use crate::locale::affinity;
use crate::sync::lock;
use crate::sync::{AtomicUsize, Ordering};
use atoll_error::{Error, Result};
use std::cell::Cell;
use std::mem::MaybeUninit;
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

/// A part of a locale (a NUMA domain or a core) with its own pinned task pool.
pub struct Sublocale {
    locale: usize,
    index: usize,
    cores: Vec<usize>,
    pool: rayon::ThreadPool,
}

impl std::fmt::Debug for Sublocale {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sublocale")
            .field("locale", &self.locale)
            .field("index", &self.index)
            .field("cores", &self.cores)
            .field("threads", &self.pool.current_num_threads())
            .finish()
    }
}

impl Sublocale {
    pub(crate) fn new(locale: usize, index: usize, cores: Vec<usize>, threads: usize, pin: bool) -> Result<Self> {
        let pin_to = cores.clone();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads.max(1))
            .thread_name(move |i| format!("atoll-l{locale}-s{index}-{i}"))
            .start_handler(move |_| {
                if pin {
                    // Pinning is best effort: a container may forbid some cores.
                    let _ = affinity::pin_current_thread(&pin_to);
                }
                crate::locale::attribution::set_thread_locale(locale);
                set_current_sublocale(locale, index);
                // The work-stealing deques register each worker with crossbeam's global epoch
                // collector, which lives as long as the process (the registration is freed
                // lazily, if ever): register now, marked permanent for the leak report.
                atoll_mem::permanent(|| drop(crossbeam_epoch::pin()));
            })
            .exit_handler(|_| {
                // What the worker's teardown hands to crossbeam's global state (its last garbage
                // bag) outlives it: permanent too.
                atoll_mem::set_thread_permanent(true);
            })
            .build()
            .map_err(|e| Error::Io(format!("cannot start the task pool of sublocale {index}: {e}")))?;
        Ok(Sublocale { locale, index, cores, pool })
    }

    /// This sublocale's index in its locale.
    pub fn index(&self) -> usize {
        self.index
    }

    /// The cores its threads run on.
    pub fn cores(&self) -> &[usize] {
        &self.cores
    }

    /// The number of threads in its pool.
    pub fn num_threads(&self) -> usize {
        self.pool.current_num_threads()
    }

    /// Runs `f` on one of this sublocale's threads and waits for it (an `on` to a sublocale).
    ///
    /// ```
    /// use atoll_runtime::{run, Config};
    /// run(Config::local(1), |ctx| {
    ///     let sub = ctx.here().child(0)?;
    ///     let name = sub.run(|| std::thread::current().name().unwrap().to_string());
    ///     assert!(name.starts_with("atoll-l0-s0"));
    ///     Ok(())
    /// }).unwrap();
    /// ```
    pub fn run<R: Send>(&self, f: impl FnOnce() -> R + Send) -> R {
        self.pool.install(f)
    }

    /// A vector of `len` copies of `value` whose pages were first written by this sublocale's
    /// threads, so the OS places them in its NUMA domain.
    pub fn alloc_filled<T: Copy + Send + Sync>(&self, len: usize, value: T) -> Vec<T> {
        let mut v: Vec<T> = crate::memory::hugepages::vec_with_capacity(len);
        let spare = &mut v.spare_capacity_mut()[..len];
        let chunk = (len / (self.num_threads() * 4)).max(4096);
        let parts: Vec<&mut [MaybeUninit<T>]> = spare.chunks_mut(chunk).collect();
        let next = AtomicUsize::new(0);
        let parts: Vec<crate::sync::Mutex<&mut [MaybeUninit<T>]>> =
            parts.into_iter().map(crate::sync::Mutex::new).collect();
        self.pool.broadcast(|_| loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(p) = parts.get(i) else { break };
            let mut p = lock(p);
            for x in p.iter_mut() {
                x.write(value);
            }
        });
        drop(parts);
        // SAFETY: every element of 0..len was written just above (the chunks cover the first
        // `len` slots of the spare capacity, and broadcast returns after all threads finished).
        unsafe { v.set_len(len) };
        v
    }

    pub(crate) fn for_chunks(
        &self,
        range: Range<usize>,
        chunk: usize,
        first_chunk: usize,
        f: &(dyn Fn(usize, Range<usize>) + Sync),
    ) {
        if range.is_empty() {
            return;
        }
        let next = AtomicUsize::new(range.start);
        let body = || loop {
            let lo = next.fetch_add(chunk, Ordering::Relaxed);
            if lo >= range.end {
                break;
            }
            let hi = (lo + chunk).min(range.end);
            f(first_chunk + (lo - range.start) / chunk, lo..hi);
        };
        if self.num_threads() == 1 {
            self.pool.install(body);
        } else {
            self.pool.broadcast(|_| body());
        }
    }
}

/// A locale as seen from its own code: its id, name, cores and sublocales.
#[derive(Debug)]
pub struct Locale {
    id: usize,
    name: String,
    cores: Vec<usize>,
    children: Vec<Sublocale>,
}

impl Locale {
    pub(crate) fn new(id: usize, name: String, cores: Vec<usize>, children: Vec<Sublocale>) -> Self {
        Locale { id, name, cores, children }
    }

    /// The locale id.
    pub fn id(&self) -> usize {
        self.id
    }

    /// The locale's name (`locale-<id>@<host>`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The cores this locale runs on.
    pub fn cores(&self) -> &[usize] {
        &self.cores
    }

    /// The sublocales (NUMA domains, cores, or one).
    pub fn children(&self) -> &[Sublocale] {
        &self.children
    }

    /// Sublocale `i`, or an error naming how many there are.
    pub fn child(&self, i: usize) -> Result<&Sublocale> {
        self.children.get(i).ok_or(Error::InvalidSublocale {
            locale: self.id,
            sublocale: i,
            count: self.children.len(),
        })
    }

    /// Total threads over all sublocales.
    pub fn num_threads(&self) -> usize {
        self.children.iter().map(Sublocale::num_threads).sum()
    }

    /// A vector of `len` copies of `value`, each sublocale first-touching its share (see
    /// [`Sublocale::alloc_filled`]), in the proportions of `Locale::split`.
    pub fn alloc_filled<T: Copy + Send + Sync>(&self, len: usize, value: T) -> Vec<T> {
        if self.children.len() == 1 {
            return self.children[0].alloc_filled(len, value);
        }
        let mut v: Vec<T> = crate::memory::hugepages::vec_with_capacity(len);
        let parts = self.split(&(0..len));
        {
            let mut rest = &mut v.spare_capacity_mut()[..len];
            let mut pieces = Vec::with_capacity(parts.len());
            for p in &parts {
                let (a, b) = rest.split_at_mut(p.len());
                pieces.push(a);
                rest = b;
            }
            std::thread::scope(|s| {
                for (sub, piece) in self.children.iter().zip(pieces) {
                    s.spawn(move || {
                        sub.run(|| {
                            for x in piece.iter_mut() {
                                x.write(value);
                            }
                        })
                    });
                }
            });
        }
        // SAFETY: the pieces partition the first `len` slots and each was fully written by
        // its sublocale before the scope ended.
        unsafe { v.set_len(len) };
        v
    }

    /// Splits `range` among the sublocales in proportion to their threads.
    pub(crate) fn split(&self, range: &Range<usize>) -> Vec<Range<usize>> {
        let total = self.num_threads().max(1);
        let len = range.len();
        let mut acc = 0;
        self.children
            .iter()
            .map(|s| {
                let lo = range.start + len * acc / total;
                acc += s.num_threads();
                let hi = range.start + len * acc / total;
                lo..hi
            })
            .collect()
    }

    /// The chunk size for dynamic chunking of `len` iterations: about 16 chunks per thread.
    pub(crate) fn default_chunk(&self, len: usize) -> usize {
        (len / (self.num_threads() * 16)).max(1)
    }

    /// Runs `f(chunk_index, sub_range)` over `range` in chunks of `chunk` on all sublocales,
    /// returning the number of chunks.
    pub(crate) fn for_chunks(
        &self,
        range: Range<usize>,
        chunk: usize,
        f: &(dyn Fn(usize, Range<usize>) + Sync),
    ) -> usize {
        let chunk = chunk.max(1);
        let parts = self.split(&range);
        // Chunks are numbered globally: sublocale k's first chunk follows those before it.
        let mut firsts = Vec::with_capacity(parts.len());
        let mut n = 0;
        for p in &parts {
            firsts.push(n);
            n += p.len().div_ceil(chunk);
        }
        if n == 1 {
            // One chunk in all (a small loop): it runs on the calling thread, which saves the
            // hand-off to a pool thread and back (microseconds, and most of a small loop's time).
            if let Some(p) = parts.into_iter().find(|p| !p.is_empty()) {
                f(0, p);
            }
        } else if self.children.len() == 1 && self.children[0].num_threads() == 1 {
            // One sublocale of one thread: the loop would run on that thread alone while the
            // caller sleeps; running it here saves the hand-off and the wake-up (two context
            // switches, most of a small loop's time). The caller is the locale's thread, pinned
            // to the same cores; it is marked as in the sublocale while it runs the chunks.
            let _in_sub = InSublocale::enter(self.id, 0);
            let p = parts[0].clone();
            let mut lo = p.start;
            while lo < p.end {
                let hi = (lo + chunk).min(p.end);
                f((lo - p.start) / chunk, lo..hi);
                lo = hi;
            }
        } else if self.children.len() == 1 {
            self.children[0].for_chunks(parts[0].clone(), chunk, 0, f);
        } else {
            std::thread::scope(|s| {
                for ((sub, p), &first) in self.children.iter().zip(parts).zip(&firsts).skip(1) {
                    s.spawn(move || sub.for_chunks(p, chunk, first, f));
                }
                self.children[0].for_chunks(self.split(&range)[0].clone(), chunk, 0, f);
            });
        }
        n
    }
}
