//! Budgets without the tracking allocator: `in_use` counts reservations and commitments only.

use atoll_mem::{Budget, Error, MemoryLimit};

#[test]
fn without_tracking_reservations_and_commitments_are_the_use() {
    assert!(!atoll_mem::is_installed());
    assert!(!atoll_mem::tracking_active());
    let _plenty = vec![0u8; 1 << 20]; // invisible: not tracked
    let budget = Budget::new(0, 10_000).unwrap();
    assert_eq!(budget.tracked(), 0);
    let mut r = budget.try_reserve(8_000, "zeros").unwrap();
    assert_eq!(budget.in_use(), 8_000);
    let err = budget.try_reserve(2_001, "more").unwrap_err();
    assert_eq!(
        err,
        Error::OutOfMemory { operation: "more".into(), locale: 0, requested: 2_001, in_use: 8_000, limit: 10_000 }
    );
    assert_eq!(budget.reserved(), 8_000);
    assert_eq!(r.shrink(3_000), 3_000);
    let part = r.commit_part(1_000).unwrap();
    assert_eq!((budget.reserved(), budget.committed(), budget.in_use()), (4_000, 1_000, 5_000));
    let rest = r.commit();
    assert_eq!((budget.reserved(), budget.committed()), (0, 5_000));
    drop(part);
    assert_eq!(budget.in_use(), 4_000);
    drop(rest);
    assert_eq!(budget.in_use(), 0);
    assert!(budget.try_reserve(0, "empty").is_ok());
}

#[test]
fn budgets_from_limits() {
    let b = Budget::from_limit(3, &MemoryLimit::Bytes(1234), 8).unwrap();
    assert_eq!((b.locale(), b.limit()), (3, 1234));
    let phys = atoll_mem::physical_memory().unwrap();
    let b = Budget::from_limit(1, &MemoryLimit::PercentOfPhysical(50.0), 2).unwrap();
    assert_eq!(b.limit(), phys / 2 / 2);
    assert_eq!(Budget::from_limit(1, &MemoryLimit::Bytes(1), 0).unwrap_err(), Error::ZeroLocales);
    assert!(matches!(Budget::new(64, 1), Err(Error::InvalidLocale { locale: 64, .. })));
    assert!(atoll_mem::check(5, 5, 10) && !atoll_mem::check(6, 5, 10));
}

#[test]
fn limit_parsing() {
    use MemoryLimit::*;
    let cases: [(&str, MemoryLimit); 9] = [
        ("12345", Bytes(12345)),
        ("4K", Bytes(4096)),
        ("4KiB", Bytes(4096)),
        ("3M", Bytes(3 << 20)),
        ("3MiB", Bytes(3 << 20)),
        ("2G", Bytes(2 << 30)),
        ("2GiB", Bytes(2 << 30)),
        ("90%", PercentOfPhysical(90.0)),
        ("0.5%", PercentOfPhysical(0.5)),
    ];
    for (text, want) in cases {
        assert_eq!(MemoryLimit::parse(text).unwrap(), want, "{text}");
    }
    for bad in ["", "ten", "12X", "-3G", "0", "0%", "100.1%", "1e9", "5%%"] {
        match MemoryLimit::parse(bad) {
            Err(Error::Config { key, value, reason }) => {
                assert_eq!((key.as_str(), value.as_str()), ("ATOLL_MEM_MAX", bad));
                assert!(!reason.is_empty());
            }
            other => panic!("{bad:?} gave {other:?}"),
        }
    }
}
