//! The threshold: small blocks are skipped on allocation and free, large ones counted exactly,
//! and reallocs across the threshold are handled, in `count` and in `full` mode.
//!
//! The tests switch modes, so they take a lock and run one at a time.

use std::sync::Mutex;

use atoll_mem::{leak_report, locale_stats, set_current_locale, set_mode, LocaleStats, Mode};
use atoll_util::sync::lock;

#[global_allocator]
static ALLOC: atoll_mem::TrackingAllocator = atoll_mem::TrackingAllocator::new();

static SERIAL: Mutex<()> = Mutex::new(());

fn stats(l: usize) -> LocaleStats {
    locale_stats(l).unwrap()
}

fn small_and_large(mode: Mode, locale: usize) {
    set_mode(mode, 1024);
    set_current_locale(locale).unwrap();
    let before = stats(locale);
    let small = vec![0u8; 100];
    let just_below = vec![0u8; 1023];
    assert_eq!(stats(locale), before, "blocks below the threshold are not counted");
    let at = vec![0u8; 1024];
    let large = vec![0u8; 4096];
    let mid = stats(locale);
    assert_eq!(mid.net - before.net, 1024 + 4096);
    assert_eq!(mid.allocs - before.allocs, 2);
    drop((small, just_below));
    assert_eq!(stats(locale).frees, mid.frees, "frees below the threshold are not counted");
    drop((at, large));
    let after = stats(locale);
    assert_eq!(after.net, before.net);
    assert_eq!(after.frees - before.frees, 2);
}

fn realloc_across(mode: Mode, locale: usize) {
    set_mode(mode, 1024);
    set_current_locale(locale).unwrap();
    let before = stats(locale);
    let mut v: Vec<u8> = Vec::with_capacity(100); // below: skipped
    assert_eq!(stats(locale), before);
    v.reserve_exact(2000); // grows across the threshold: the new block is counted
    let cap = v.capacity();
    let grown = stats(locale);
    assert_eq!(grown.net - before.net, cap as i64);
    assert_eq!((grown.allocs - before.allocs, grown.frees - before.frees), (1, 0));
    if mode == Mode::Full {
        assert!(leak_report().groups_of_size(cap as u64).any(|g| g.locales.contains(&locale)));
    }
    v.extend_from_slice(&[1; 10]);
    v.shrink_to_fit(); // shrinks below: the old block's free is counted, the new one skipped
    assert_eq!(v.capacity(), 10);
    let shrunk = stats(locale);
    assert_eq!(shrunk.net, before.net);
    assert_eq!((shrunk.allocs - before.allocs, shrunk.frees - before.frees), (1, 1));
    if mode == Mode::Full {
        assert!(!leak_report().groups_of_size(cap as u64).any(|g| g.locales.contains(&locale)));
    }
    v.reserve_exact(5000); // above to above, through the small block: counted again
    let cap2 = v.capacity();
    assert_eq!(stats(locale).net - before.net, cap2 as i64);
    drop(v);
    let after = stats(locale);
    assert_eq!(after.net, before.net);
    assert_eq!((after.allocs - before.allocs, after.frees - before.frees), (2, 2));
}

#[test]
fn count_mode_skips_small_blocks() {
    let _g = lock(&SERIAL);
    small_and_large(Mode::Count, 1);
}

#[test]
fn full_mode_skips_small_blocks() {
    let _g = lock(&SERIAL);
    small_and_large(Mode::Full, 2);
}

#[test]
fn count_mode_realloc_across_the_threshold() {
    let _g = lock(&SERIAL);
    realloc_across(Mode::Count, 3);
}

#[test]
fn full_mode_realloc_across_the_threshold() {
    let _g = lock(&SERIAL);
    realloc_across(Mode::Full, 4);
}

#[test]
fn full_mode_table_holds_no_small_blocks() {
    let _g = lock(&SERIAL);
    set_mode(Mode::Full, 1024);
    set_current_locale(5).unwrap();
    let small: Vec<Vec<u8>> = (0..50).map(|_| vec![0u8; 64]).collect();
    let large = vec![0u8; 3000];
    let report = leak_report();
    assert!(report.groups.iter().all(|g| g.size >= 1024), "{report}");
    assert!(report.groups_of_size(3000).any(|g| g.locales.contains(&5)));
    drop((small, large));
}
