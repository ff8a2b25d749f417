//! `count` mode with the tracking allocator installed: exact byte deltas for known sizes,
//! realloc, zeroed allocations, per-locale attribution across threads, the peak, and more live
//! threads than exclusive counter slots.
//!
//! Tests run in parallel threads of this binary, so each one works in its own locale and
//! asserts on that locale's figures only.

use std::sync::{Arc, Barrier, Mutex, Once};

use atoll_mem::{locale_stats, memory_used_by, peak_memory_by, set_current_locale, set_mode, LocaleStats, Mode};

#[global_allocator]
static ALLOC: atoll_mem::TrackingAllocator = atoll_mem::TrackingAllocator::new();

fn setup(locale: usize) {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        if atoll_mem::mode() != Mode::Count || atoll_mem::threshold() != 0 {
            set_mode(Mode::Count, 0);
        }
    });
    set_current_locale(locale).unwrap();
}

fn stats(locale: usize) -> LocaleStats {
    locale_stats(locale).unwrap()
}

#[test]
fn known_sizes_change_memory_used_exactly() {
    setup(1);
    let before = stats(1);
    let v = vec![1u8; 1000];
    assert_eq!(memory_used_by(1).unwrap() - before.used, 1000);
    let b = Box::new([7u64; 100]);
    assert_eq!(memory_used_by(1).unwrap() - before.used, 1800);
    let s = String::with_capacity(333);
    assert_eq!(memory_used_by(1).unwrap() - before.used, 2133);
    let mid = stats(1);
    assert_eq!(mid.allocs - before.allocs, 3);
    assert_eq!(mid.frees - before.frees, 0);
    drop((v, b, s));
    let after = stats(1);
    assert_eq!(after.used, before.used);
    assert_eq!(after.allocs - before.allocs, 3);
    assert_eq!(after.frees - before.frees, 3);
}

#[test]
fn realloc_counts_the_new_capacity() {
    setup(2);
    let before = stats(2);
    let mut v: Vec<u8> = Vec::with_capacity(10);
    assert_eq!(stats(2).net - before.net, 10);
    v.reserve_exact(1000);
    assert_eq!(stats(2).net - before.net, v.capacity() as i64);
    v.extend_from_slice(b"hello");
    v.shrink_to_fit();
    assert_eq!(v.capacity(), 5);
    assert_eq!(stats(2).net - before.net, 5);
    drop(v);
    let after = stats(2);
    assert_eq!(after.net, before.net);
    // Each realloc counts as one free and one allocation.
    assert_eq!(after.allocs - before.allocs, 3);
    assert_eq!(after.frees - before.frees, 3);
}

#[test]
fn zeroed_allocations_are_counted() {
    setup(3);
    let before = stats(3).net;
    let v = vec![0u64; 512]; // alloc_zeroed
    assert!(v.iter().all(|&x| x == 0));
    assert_eq!(stats(3).net - before, 4096);
    drop(v);
    assert_eq!(stats(3).net, before);
}

#[test]
fn threads_are_attributed_to_their_locale() {
    setup(4);
    let locales = [10usize, 11, 12];
    let before: Vec<i64> = locales.iter().map(|&l| stats(l).net).collect();
    let ready = Arc::new(Barrier::new(locales.len() + 1));
    let done = Arc::new(Barrier::new(locales.len() + 1));
    let handles: Vec<_> = locales
        .iter()
        .enumerate()
        .map(|(i, &l)| {
            let (ready, done) = (ready.clone(), done.clone());
            std::thread::spawn(move || {
                set_current_locale(l).unwrap();
                let block = vec![0u8; (i + 1) * 1000 + 7];
                ready.wait();
                done.wait();
                drop(block);
                let after = locale_stats(l).unwrap();
                assert!(after.allocs >= 1 && after.frees >= 1);
            })
        })
        .collect();
    ready.wait();
    for (i, &l) in locales.iter().enumerate() {
        assert_eq!(stats(l).net - before[i], ((i + 1) * 1000 + 7) as i64, "locale {l}");
    }
    done.wait();
    for h in handles {
        h.join().unwrap();
    }
}

#[test]
fn a_free_is_charged_to_the_freeing_threads_locale() {
    setup(5);
    let shelf: Mutex<Option<Vec<u8>>> = Mutex::new(None);
    std::thread::scope(|s| {
        s.spawn(|| {
            set_current_locale(20).unwrap();
            let before = stats(20).net;
            *shelf.lock().unwrap() = Some(vec![0u8; 5000]);
            assert_eq!(stats(20).net - before, 5000);
        })
        .join()
        .unwrap();
    });
    std::thread::scope(|s| {
        s.spawn(|| {
            set_current_locale(21).unwrap();
            let before = stats(21).net;
            drop(shelf.lock().unwrap().take());
            // Count mode: the free lands on the freeing thread's locale, which goes negative.
            assert_eq!(stats(21).net - before, -5000);
        })
        .join()
        .unwrap();
    });
}

#[test]
fn peak_catches_a_large_block_and_never_falls_below_use() {
    setup(30);
    let base = stats(30).used;
    let big = vec![1u8; 8 << 20];
    let during = stats(30);
    assert!(during.peak >= during.used && during.used == base + (8 << 20));
    drop(big);
    let after = stats(30);
    assert_eq!(after.used, base);
    assert!(peak_memory_by(30).unwrap() >= base + (8 << 20));
    // Small churn never lowers the peak below the current use.
    let small: Vec<Vec<u8>> = (0..100).map(|i| vec![0u8; 100 + i]).collect();
    let s = stats(30);
    assert!(s.peak >= s.used);
    drop(small);
}

#[test]
fn more_live_threads_than_exclusive_slots_stay_exact() {
    setup(6);
    const THREADS: usize = 300; // more than the 240 exclusive slots
    const L: usize = 40;
    let before = stats(L).net;
    let ready = Arc::new(Barrier::new(THREADS + 1));
    let done = Arc::new(Barrier::new(THREADS + 1));
    let handles: Vec<_> = (0..THREADS)
        .map(|_| {
            let (ready, done) = (ready.clone(), done.clone());
            std::thread::Builder::new()
                .stack_size(128 * 1024)
                .spawn(move || {
                    set_current_locale(L).unwrap();
                    let block = vec![0u8; 100];
                    ready.wait();
                    done.wait();
                    drop(block);
                })
                .unwrap()
        })
        .collect();
    ready.wait();
    assert_eq!(stats(L).net - before, (THREADS * 100) as i64);
    done.wait();
    for h in handles {
        h.join().unwrap();
    }
}

#[test]
fn process_totals_cover_every_locale() {
    setup(7);
    let before_allocs = atoll_mem::allocation_count();
    let blocks: Vec<Box<u64>> = (0..1000).map(Box::new).collect();
    assert!(atoll_mem::allocation_count() - before_allocs >= 1001);
    assert!(atoll_mem::memory_used() >= 8000 + 8000);
    assert!(atoll_mem::peak_memory() >= atoll_mem::memory_used());
    assert!(atoll_mem::is_installed() && atoll_mem::tracking_active());
    let snapshot = atoll_mem::mem_stats();
    assert_eq!(snapshot.mode, Mode::Count);
    assert!(snapshot.locale(7).unwrap().used >= 16000);
    assert!(snapshot.to_string().contains("total"));
    drop(blocks);
}

#[test]
fn bad_locales_are_refused() {
    setup(8);
    let e = set_current_locale(atoll_mem::MAX_LOCALES).unwrap_err();
    assert_eq!(e, atoll_mem::Error::InvalidLocale { locale: 64, num_locales: 64 });
    assert_eq!(atoll_mem::current_locale(), 8);
    assert!(memory_used_by(1 << 40).is_err());
    assert!(locale_stats(64).is_err());
}

#[test]
fn failed_allocations_count_nothing() {
    setup(9);
    let before = stats(9);
    let mut v: Vec<u8> = Vec::new();
    assert!(v.try_reserve_exact(1 << 62).is_err(), "the system refuses 4 EiB");
    assert_eq!(stats(9), before, "a failed allocation is not counted");
    let mut w: Vec<u8> = Vec::with_capacity(100_000);
    let with_block = stats(9);
    assert!(w.try_reserve_exact(1 << 62).is_err(), "a failed realloc keeps the old block");
    assert_eq!(stats(9), with_block);
    assert_eq!(w.capacity(), 100_000);
    drop(w);
    assert_eq!(stats(9).net, before.net);
}
