//! `full` mode with sites: the leak report finds intentionally leaked blocks by size and site,
//! frees are charged to the allocating locale, and reallocs move a block's record.

use std::sync::{Mutex, Once};

use atoll_mem::{leak_report, locale_stats, set_current_locale, set_mode, set_track_sites, Mode};

#[global_allocator]
static ALLOC: atoll_mem::TrackingAllocator = atoll_mem::TrackingAllocator::new();

fn setup(locale: usize) {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        set_mode(Mode::Full, 0);
        set_track_sites(true);
    });
    set_current_locale(locale).unwrap();
}

#[inline(never)]
fn leak_one_box() -> &'static mut [u8; 4093] {
    Box::leak(Box::new([3u8; 4093]))
}

#[inline(never)]
fn leak_other_vec() -> &'static mut [u8] {
    vec![9u8; 7777].leak()
}

#[test]
fn leak_report_groups_leaked_blocks_by_size_and_site() {
    setup(1);
    let mut leaked = Vec::new();
    for _ in 0..3 {
        leaked.push(leak_one_box().as_ptr() as usize);
    }
    let other = leak_other_vec().as_ptr() as usize;
    let report = leak_report();
    assert!(report.is_available() && report.sites_tracked && report.complete);

    let boxes: Vec<_> = report.groups_of_size(4093).collect();
    assert_eq!(boxes.len(), 1, "one site, one size: {boxes:#?}");
    let g = boxes[0];
    assert_eq!((g.count, g.bytes), (3, 3 * 4093));
    assert_eq!(g.locales, vec![1]);
    let site = g.site.as_deref().unwrap();
    assert!(site.contains("leak_one_box"), "site {site:?}, backtrace {:#?}", g.backtrace);

    let vecs: Vec<_> = report.groups_of_size(7777).collect();
    assert_eq!(vecs.len(), 1);
    assert_eq!(vecs[0].count, 1);
    assert!(vecs[0].site.as_deref().unwrap().contains("leak_other_vec"), "{:#?}", vecs[0]);

    assert!(report.total_bytes >= 3 * 4093 + 7777);
    assert_eq!(report.total_bytes, report.groups.iter().map(|g| g.bytes).sum::<u64>());
    assert_eq!(report.total_count, report.groups.iter().map(|g| g.count).sum::<u64>());
    let text = report.to_string();
    assert!(text.contains("leak_one_box") && text.contains("4093"), "{text}");
    assert!(leaked.iter().all(|&p| p != 0) && other != 0);
}

#[test]
fn frees_are_charged_to_the_allocating_locale() {
    setup(2);
    let shelf: Mutex<Option<Vec<u8>>> = Mutex::new(None);
    let (before5, before6) = (locale_stats(5).unwrap(), locale_stats(6).unwrap());
    std::thread::scope(|s| {
        s.spawn(|| {
            set_current_locale(5).unwrap();
            *shelf.lock().unwrap() = Some(vec![0u8; 10_000]);
        });
    });
    assert_eq!(locale_stats(5).unwrap().net - before5.net, 10_000);
    std::thread::scope(|s| {
        s.spawn(|| {
            set_current_locale(6).unwrap();
            drop(shelf.lock().unwrap().take());
        });
    });
    let (after5, after6) = (locale_stats(5).unwrap(), locale_stats(6).unwrap());
    // Exact per locale: the free went to locale 5, which allocated the block.
    assert_eq!(after5.net, before5.net);
    assert_eq!(after5.frees - before5.frees, 1);
    assert_eq!(after6.net, before6.net);
    assert_eq!(after6.frees, before6.frees);
}

#[test]
fn realloc_moves_the_record() {
    setup(8);
    let before = locale_stats(8).unwrap().net;
    let mut v: Vec<u8> = Vec::with_capacity(100);
    v.reserve_exact(5003);
    let cap = v.capacity();
    assert_eq!(locale_stats(8).unwrap().net - before, cap as i64);
    {
        let report = leak_report();
        assert!(report.groups_of_size(cap as u64).any(|g| g.locales.contains(&8)));
        assert!(!report.groups_of_size(100).any(|g| g.locales.contains(&8)));
    }
    // Making the report allocated too (and symbolizing caches debug information): new baseline.
    let mid = locale_stats(8).unwrap().net;
    v.shrink_to(0);
    assert_eq!(locale_stats(8).unwrap().net, mid - cap as i64);
    drop(v);
    assert_eq!(locale_stats(8).unwrap().net, mid - cap as i64);
}

#[test]
fn stats_show_the_table() {
    setup(9);
    let keep = vec![0u8; 2048];
    let stats = atoll_mem::mem_stats();
    assert_eq!(stats.mode, Mode::Full);
    assert!(stats.track_sites);
    assert!(stats.table_entries >= 1);
    assert!(atoll_mem::recorded_blocks() >= 1);
    assert!(stats.to_string().contains("blocks recorded"));
    drop(keep);
}

#[test]
fn failed_reallocs_keep_the_record() {
    setup(10);
    let mut w: Vec<u8> = Vec::with_capacity(100_003);
    let with_block = locale_stats(10).unwrap();
    assert!(w.try_reserve_exact(1 << 62).is_err());
    assert_eq!(locale_stats(10).unwrap(), with_block, "the old block is still recorded and counted");
    {
        let report = leak_report();
        assert!(report.groups_of_size(100_003).any(|g| g.locales.contains(&10)));
    }
    let mid = locale_stats(10).unwrap().net;
    drop(w);
    assert_eq!(locale_stats(10).unwrap().net, mid - 100_003);
}
