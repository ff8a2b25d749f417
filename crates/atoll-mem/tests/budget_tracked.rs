//! Budgets with tracking on (`count` mode): `in_use = max(tracked, committed) + reserved`, so
//! memory that was reserved, allocated and committed is counted once; errors carry the right
//! numbers and a failed reservation reserves nothing.

use std::sync::Once;

use atoll_mem::{memory_used_by, set_current_locale, set_mode, Budget, Error, Mode};

#[global_allocator]
static ALLOC: atoll_mem::TrackingAllocator = atoll_mem::TrackingAllocator::new();

fn setup(locale: usize) {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| set_mode(Mode::Count, 0));
    set_current_locale(locale).unwrap();
}

#[test]
fn committed_memory_is_counted_once() {
    setup(50);
    let limit = memory_used_by(50).unwrap() + 1_000_000;
    let budget = Budget::new(50, limit).unwrap();
    // The budget's own bookkeeping is an allocation of this locale too.
    let base = memory_used_by(50).unwrap();
    assert!(atoll_mem::tracking_active());
    assert_eq!(budget.tracked(), base);

    let r = budget.try_reserve(600_000, "zeros").unwrap();
    assert_eq!(budget.in_use(), base + 600_000);
    let data = vec![0u8; 600_000];
    // Allocated but not yet committed: counted twice (conservative) until the commit.
    assert_eq!(budget.in_use(), base + 600_000 + 600_000);
    let held = r.commit();
    assert_eq!(budget.reserved(), 0);
    assert_eq!(budget.committed(), 600_000);
    assert_eq!(budget.in_use(), base + 600_000, "tracked and committed memory counted once");

    let err = budget.try_reserve(500_000, "ones").unwrap_err();
    assert_eq!(
        err,
        Error::OutOfMemory { operation: "ones".into(), locale: 50, requested: 500_000, in_use: base + 600_000, limit }
    );
    assert_eq!(budget.reserved(), 0, "a failed reservation reserves nothing");
    assert!(err.to_string().contains("ones") && err.to_string().contains("locale 50"));
    drop(err); // its strings are memory of this locale too

    let fits = budget.try_reserve(limit - base - 600_000, "fits").unwrap();
    assert_eq!(budget.available(), 0);
    assert!(budget.try_reserve(1, "one more").is_err());
    drop(fits);
    drop(data);
    // The memory is gone but the commitment still stands for it until dropped:
    // in_use = max(tracked, committed).
    assert_eq!(budget.in_use(), base.max(600_000));
    drop(held);
    assert_eq!(budget.in_use(), base);
}

#[test]
fn untracked_allocations_count_against_the_budget() {
    setup(51);
    let budget = Budget::new(51, memory_used_by(51).unwrap() + 100_000).unwrap();
    let base = memory_used_by(51).unwrap();
    // Memory allocated without any reservation still counts (it is tracked).
    let other = vec![0u8; 70_000];
    let err = budget.try_reserve(40_000, "grow").unwrap_err();
    assert!(matches!(err, Error::OutOfMemory { in_use, requested: 40_000, .. } if in_use == base + 70_000));
    drop(other);
    let ok = budget.try_reserve(40_000, "grow").unwrap();
    assert_eq!(ok.bytes(), 40_000);
}
