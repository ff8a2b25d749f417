//! Tasks and parallel loops on this locale's task pools.

use super::Ctx;
use crate::locale::attribution;
use crate::sync::into_inner;
use atoll_util::Disjoint;
use std::ops::Range;

impl Ctx {
    /// Runs `f(task)` for `task` in `0..n` as `n` concurrent tasks on this locale (each on its
    /// own thread, so tasks may wait for each other) and returns their results in order:
    /// Chapel's `coforall`. **One-sided.**
    pub fn coforall_tasks<R: Send>(&self, n: usize, f: impl Fn(usize) -> R + Sync) -> Vec<R> {
        let me = self.st.id;
        let cores = self.here().cores().to_vec();
        let pin = self.st.config.pin;
        std::thread::scope(|s| {
            let hs: Vec<_> = (0..n)
                .map(|t| {
                    let f = &f;
                    let cores = &cores;
                    s.spawn(move || {
                        if pin {
                            let _ = crate::locale::affinity::pin_current_thread(cores);
                        }
                        attribution::as_locale(me, || f(t))
                    })
                })
                .collect();
            hs.into_iter().map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p))).collect()
        })
    }

    /// Runs `f(i)` for every `i` in `range` on this locale's task pools (dynamic chunking).
    /// **One-sided.**
    ///
    /// ```
    /// use atoll_runtime::{run, Config};
    /// use std::sync::atomic::{AtomicU64, Ordering};
    /// run(Config::local(2), |ctx| {
    ///     let sum = AtomicU64::new(0);
    ///     ctx.forall(0..1000, |i| { sum.fetch_add(i as u64, Ordering::Relaxed); });
    ///     assert_eq!(sum.into_inner(), 499_500);
    ///     Ok(())
    /// }).unwrap();
    /// ```
    pub fn forall(&self, range: Range<usize>, f: impl Fn(usize) + Sync) {
        self.forall_chunks(range, |r| r.for_each(&f));
    }

    /// Runs `f(sub_range)` over chunks of `range` on this locale's task pools (dynamic
    /// chunking, about 16 chunks per thread). When `range` is a single chunk, it runs on the
    /// calling thread: the hand-off to a pool thread and back costs microseconds, more than
    /// a small loop. **One-sided.**
    pub fn forall_chunks(&self, range: Range<usize>, f: impl Fn(Range<usize>) + Sync) {
        let chunk = self.here().default_chunk(range.len());
        self.forall_chunks_with(range, chunk, f);
    }

    /// Like [`Ctx::forall_chunks`] with an explicit chunk size.
    pub fn forall_chunks_with(&self, range: Range<usize>, chunk: usize, f: impl Fn(Range<usize>) + Sync) {
        self.here().for_chunks(range, chunk, &|_, r| f(r));
    }

    /// Runs `f(range, &mut out[range])` over chunks of `0..out.len()` on this locale's task
    /// pools (dynamic chunking, as [`Ctx::forall_chunks`]): each task writes its own part of
    /// `out`. The one way Atoll's loops write disjoint parts of a slice in parallel
    /// (`atoll_util::Disjoint` underneath). **One-sided.**
    ///
    /// ```
    /// use atoll_runtime::{run, Config};
    /// run(Config::local(2), |ctx| {
    ///     let mut v = vec![0u64; 100_000];
    ///     ctx.forall_chunks_mut(&mut v, |r, part| {
    ///         for (i, x) in r.zip(part) {
    ///             *x = 2 * i as u64;
    ///         }
    ///     });
    ///     assert!(v.iter().enumerate().all(|(i, &x)| x == 2 * i as u64));
    ///     Ok(())
    /// }).unwrap();
    /// ```
    pub fn forall_chunks_mut<T: Send>(&self, out: &mut [T], f: impl Fn(Range<usize>, &mut [T]) + Sync) {
        let d = Disjoint::new(out);
        self.forall_chunks(0..d.len(), |r| {
            // SAFETY: the chunks of one `forall_chunks` loop are disjoint sub-ranges of
            // `0..len`, each handed to one task.
            f(r.clone(), unsafe { d.chunk(r) })
        });
    }

    /// Like [`Ctx::forall_chunks_mut`] with chunks of exactly `chunk` elements (the last one
    /// shorter): the `k`-th chunk is `k * chunk..`, so `range.start / chunk` numbers it the
    /// same way in every loop over a slice of the same length (a scan's two passes). A `chunk`
    /// of 0 counts as 1. **One-sided.**
    pub fn forall_chunks_mut_with<T: Send>(
        &self,
        out: &mut [T],
        chunk: usize,
        f: impl Fn(Range<usize>, &mut [T]) + Sync,
    ) {
        let chunk = chunk.max(1);
        let d = Disjoint::new(out);
        let len = d.len();
        self.forall_chunks_with(0..len.div_ceil(chunk), 1, |ks| {
            for k in ks {
                let r = k * chunk..((k + 1) * chunk).min(len);
                // SAFETY: chunk `k` is handed to one task (the loop's ranges of chunk numbers
                // are disjoint), and distinct numbers give disjoint ranges of `0..len`.
                f(r.clone(), unsafe { d.chunk(r) });
            }
        });
    }

    /// Reduces `fold(acc, i)` over `range` on this locale's task pools, starting each chunk
    /// from `identity` and combining the chunks' results with `combine` in chunk order (so the
    /// result does not depend on the schedule). **One-sided.**
    ///
    /// ```
    /// use atoll_runtime::{run, Config};
    /// run(Config::local(1), |ctx| {
    ///     let s = ctx.forall_reduce(0..10_000, 0.0f64, |a, i| a + i as f64, |a, b| a + b);
    ///     assert_eq!(s, 49_995_000.0);
    ///     let m = ctx.forall_reduce(0..10_000, u64::MAX, |a, i| a.min((i as u64 * 7919) % 10_007), u64::min);
    ///     assert_eq!(m, 0);
    ///     Ok(())
    /// }).unwrap();
    /// ```
    pub fn forall_reduce<T: Send + Sync + Clone>(
        &self,
        range: Range<usize>,
        identity: T,
        fold: impl Fn(T, usize) -> T + Sync,
        combine: impl Fn(T, T) -> T,
    ) -> T {
        let chunk = self.here().default_chunk(range.len());
        let partials = crate::sync::Mutex::new(Vec::new());
        let n = self.here().for_chunks(range, chunk, &|c, r| {
            let v = r.fold(identity.clone(), &fold);
            crate::sync::lock(&partials).push((c, v));
        });
        let mut parts = into_inner(partials);
        debug_assert_eq!(parts.len(), n);
        parts.sort_by_key(|(c, _)| *c);
        parts.into_iter().fold(identity, |a, (_, v)| combine(a, v))
    }
}
