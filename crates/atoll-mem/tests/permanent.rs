//! Permanent blocks (`full` mode): counted as usual, but not listed by the leak report;
//! `mark_live_blocks_permanent` hides every block live at the call. Alone in its binary, since
//! that call affects every block of the process.

use atoll_mem::{leak_report, locale_stats, set_current_locale, set_mode, set_track_sites, Mode};

#[global_allocator]
static ALLOC: atoll_mem::TrackingAllocator = atoll_mem::TrackingAllocator::new();

fn setup(locale: usize) {
    set_mode(Mode::Full, 0);
    set_track_sites(true);
    set_current_locale(locale).unwrap();
}

#[test]
fn permanent_blocks_are_counted_but_not_reported_as_leaks() {
    const L: usize = 13;
    setup(L);
    let before = locale_stats(L).unwrap();
    // A block allocated in a permanent scope, one after it, and one by a thread that marks its
    // teardown permanent. Sizes unique to this test.
    let kept = atoll_mem::permanent(|| vec![1u8; 6101]);
    let live = vec![2u8; 6102];
    let from_thread = std::thread::spawn(|| {
        set_current_locale(L).unwrap();
        assert!(!atoll_mem::set_thread_permanent(true));
        let v = vec![3u8; 6103];
        assert!(atoll_mem::set_thread_permanent(false));
        v
    })
    .join()
    .unwrap();
    // Nested scopes restore the outer state.
    let nested = atoll_mem::permanent(|| {
        let inner = atoll_mem::permanent(|| vec![4u8; 6104]);
        (inner, vec![5u8; 6105])
    });
    let after_scope = vec![6u8; 6106];
    let all = 6101 + 6102 + 6103 + 6104 + 6105 + 6106;
    // Counted like any block.
    assert_eq!(locale_stats(L).unwrap().used - before.used, all);
    let report = leak_report();
    for size in [6101, 6103, 6104, 6105] {
        assert_eq!(report.groups_of_size(size).count(), 0, "{size} is permanent: {report}");
    }
    for size in [6102, 6106] {
        assert_eq!(report.groups_of_size(size).map(|g| g.count).sum::<u64>(), 1, "{size} is listed");
    }
    assert!(report.permanent_count >= 4 && report.permanent_bytes >= 6101 + 6103 + 6104 + 6105, "{report}");
    assert!(report.to_string().contains("marked permanent"), "{report}");
    // Marking every live block permanent removes the others from the list too.
    assert!(atoll_mem::mark_live_blocks_permanent() >= 2);
    let report = leak_report();
    assert_eq!(report.groups_of_size(6102).count() + report.groups_of_size(6106).count(), 0, "{report}");
    // Frees of permanent blocks are counted as usual. (The reports above cached symbolized
    // sites in this locale, so compare with the use just before the frees.)
    let held = locale_stats(L).unwrap().used;
    drop((kept, live, from_thread, nested, after_scope));
    assert_eq!(held - locale_stats(L).unwrap().used, all);
}
