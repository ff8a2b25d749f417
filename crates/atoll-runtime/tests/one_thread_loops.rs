//! Loops on locales whose task pool has one thread run on the calling thread (no hand-off to
//! the pool and back): every chunk exactly once, chunk-ordered reductions, the loop marked as
//! in the locale's sublocale while it runs, and the mark restored afterwards (also after a
//! panic in the body). Checked against sequential computations, on 1-4 locales, and with more
//! locales than cores (oversubscribed).

use atoll_runtime::{current_sublocale, run, Config};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

fn check(locales: usize) {
    run(Config::local(locales).with_threads_per_locale(1), |ctx| {
        let me = ctx.id();
        assert_eq!(ctx.here().num_threads(), 1);
        for n in [0usize, 1, 15, 16, 17, 1000, 10_000, 100_003] {
            // Every index once, whatever the chunking.
            let hits: Vec<AtomicU64> = (0..n).map(|_| AtomicU64::new(0)).collect();
            let seen = Mutex::new(Vec::new());
            ctx.forall_chunks(0..n, |r| {
                seen.lock().unwrap().push((current_sublocale(), std::thread::current().id()));
                for i in r {
                    hits[i].fetch_add(1, Ordering::Relaxed);
                }
            });
            assert!(hits.iter().all(|h| h.load(Ordering::Relaxed) == 1), "n = {n}: an index run twice or never");
            let seen = seen.into_inner().unwrap();
            assert!(
                n < 2 || seen.iter().all(|&(s, _)| s == Some((me, 0))),
                "n = {n}: chunks outside sublocale 0: {seen:?}"
            );
            let caller = std::thread::current().id();
            assert!(seen.iter().all(|&(_, t)| t == caller), "n = {n}: a chunk ran on another thread than the caller");
            // A non-commutative reduction (concatenation order) equals the sequential one.
            let got = ctx.forall_reduce(
                0..n,
                Vec::new(),
                |mut a: Vec<usize>, i| {
                    a.push(i);
                    a
                },
                |mut a, b| {
                    a.extend(b);
                    a
                },
            );
            assert_eq!(got, (0..n).collect::<Vec<_>>(), "n = {n}");
        }
        // Many small loops between barriers: rounds stay in step.
        let total = AtomicU64::new(0);
        for round in 0..200u64 {
            ctx.forall_chunks(0..64, |r| {
                total.fetch_add(r.map(|i| i as u64 + round).sum::<u64>(), Ordering::Relaxed);
            });
            ctx.barrier()?;
        }
        assert_eq!(total.load(Ordering::Relaxed), (0..200u64).map(|r| 64 * r + 2016).sum::<u64>());
        // The caller's mark comes back after the loop, also when the body panics.
        let before = current_sublocale();
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            ctx.forall_chunks(0..100, |r| assert!(!r.contains(&50), "planted"));
        }));
        assert!(r.is_err(), "the planted panic propagates");
        assert_eq!(current_sublocale(), before);
        Ok(())
    })
    .unwrap();
}

#[test]
fn one_thread_loops_on_1_to_4_locales() {
    for locales in 1..=4 {
        check(locales);
    }
}

#[test]
fn one_thread_loops_oversubscribed() {
    // More locales than cores on most machines: each locale's one thread shares a core.
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    check((cores * 2).min(16));
}
