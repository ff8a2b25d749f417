//! Switching modes at run time: blocks allocated under one configuration and freed under
//! another never corrupt the counters (no wrap-around, no crash), `full` mode ignores frees of
//! blocks it never recorded, and figures are exact again for blocks allocated after a switch.
//! Also hammers `set_mode` while other threads allocate.
//!
//! One test function, so that nothing else in this binary allocates during the switches.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use atoll_mem::{leak_report, locale_stats, memory_used, set_current_locale, set_mode, Mode};

#[global_allocator]
static ALLOC: atoll_mem::TrackingAllocator = atoll_mem::TrackingAllocator::new();

const L: usize = 9;

fn net() -> i64 {
    locale_stats(L).unwrap().net
}

fn switching_sequence() {
    set_current_locale(L).unwrap();

    // Allocated while tracking is off: never counted.
    set_mode(Mode::Off, 0);
    let a = vec![0u8; 5000];
    assert_eq!(atoll_mem::mode(), Mode::Off);

    // Count mode cannot know `a` was never counted: its free lowers the figure, which reads as
    // zero (clamped) and never wraps.
    set_mode(Mode::Count, 0);
    assert_eq!(net(), 0, "set_mode starts a new measurement");
    drop(a);
    assert_eq!(net(), -5000);
    let s = locale_stats(L).unwrap();
    assert_eq!(s.used, 0);
    assert!(memory_used() < 1 << 62);
    let b = vec![0u8; 6000];
    let c = vec![0u8; 7000];
    assert_eq!(net(), -5000 + 13_000);

    // Full mode has no record of `b`: its free is ignored, the figures stay exact.
    set_mode(Mode::Full, 0);
    assert_eq!(net(), 0);
    let frees_before = locale_stats(L).unwrap().frees;
    drop(b);
    assert_eq!(net(), 0);
    assert_eq!(locale_stats(L).unwrap().frees, frees_before);
    let d = vec![0u8; 8000];
    assert_eq!(net(), 8000);
    assert!(leak_report().groups_of_size(8000).any(|g| g.locales.contains(&L)));

    // Raising the threshold empties the table: `d` is no longer recorded, and its free is
    // ignored.
    set_mode(Mode::Full, 1024);
    assert!(!leak_report().groups_of_size(8000).any(|g| g.locales.contains(&L)));
    drop(d);
    assert_eq!(net(), 0);
    let e = vec![0u8; 2000];
    assert_eq!(net(), 2000);
    drop(e);
    assert_eq!(net(), 0);

    // Back to count: `c` was counted before the last switches; its free is counted again.
    set_mode(Mode::Count, 0);
    drop(c);
    assert_eq!(net(), -7000);
    let f = vec![0u8; 9000];
    assert_eq!(net(), 2000);

    // Counted under count, freed under off: the figure keeps it.
    set_mode(Mode::Off, 0);
    drop(f);
    assert_eq!(net(), 0, "off mode's set_mode started from zero and counts nothing");

    // Full -> count: a block recorded in full mode and freed in count mode is counted as a
    // free (count mode counts every free at or above the threshold).
    set_mode(Mode::Full, 0);
    let g = vec![0u8; 3000];
    set_mode(Mode::Count, 0);
    drop(g);
    assert_eq!(net(), -3000);
    // And exact again for blocks that live within one configuration.
    let before = net();
    let h = vec![0u8; 4321];
    assert_eq!(net() - before, 4321);
    drop(h);
    assert_eq!(net(), before);
}

fn hammer_switches() {
    let stop = Arc::new(AtomicBool::new(false));
    let workers: Vec<_> = (0..3)
        .map(|t| {
            let stop = stop.clone();
            std::thread::spawn(move || {
                set_current_locale(20 + t).unwrap();
                let mut live: Vec<Vec<u8>> = Vec::new();
                let mut x: u64 = 0x9E37_79B9 + t as u64;
                while !stop.load(Ordering::Relaxed) {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    let size = 1 + (x % 4000) as usize;
                    if live.len() > 64 || x % 3 == 0 {
                        let i = (x as usize / 7) % live.len().max(1);
                        if i < live.len() {
                            live.swap_remove(i);
                        }
                    } else {
                        let mut v = Vec::with_capacity(size);
                        v.push(1u8);
                        if x % 5 == 0 {
                            v.reserve(size * 2);
                        }
                        live.push(v);
                    }
                }
            })
        })
        .collect();
    let modes = [(Mode::Off, 0), (Mode::Count, 0), (Mode::Full, 0), (Mode::Count, 512), (Mode::Full, 2048)];
    for i in 0..300 {
        let (m, t) = modes[i % modes.len()];
        set_mode(m, t);
        atoll_mem::set_track_sites(i % 7 == 0);
        std::thread::yield_now();
    }
    stop.store(true, Ordering::Relaxed);
    for w in workers {
        w.join().unwrap();
    }
    // After the storm, a quiet switch gives exact figures again.
    set_mode(Mode::Full, 0);
    atoll_mem::set_track_sites(false);
    set_current_locale(L).unwrap();
    let before = net();
    let v = vec![0u8; 12_345];
    assert_eq!(net() - before, 12_345);
    drop(v);
    assert_eq!(net(), before);
    set_mode(Mode::Count, 0);
    let before = net();
    let v = vec![0u8; 54_321];
    assert_eq!(net() - before, 54_321);
    drop(v);
    assert_eq!(net(), before);
}

#[test]
fn switching_modes_never_corrupts_the_counters() {
    switching_sequence();
    hammer_switches();
}
