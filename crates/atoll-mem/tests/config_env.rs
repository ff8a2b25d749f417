//! Settings from the environment, as the allocator reads them at start-up: bad values fall back
//! to the defaults and are reported by `config_error()`; good values take effect; the exit
//! report prints once. Each case runs this test binary again as a child process with the
//! environment it needs (the allocator reads it once, on the first allocation).

use std::process::{Command, Output};

use atoll_mem::{Error, MemoryLimit, Mode, Settings};

#[global_allocator]
static ALLOC: atoll_mem::TrackingAllocator = atoll_mem::TrackingAllocator::new();

const CHILD: &str = "ATOLL_MEM_TEST_CHILD";
const VARS: [&str; 6] = [
    "ATOLL_MEM_TRACK",
    "ATOLL_MEM_THRESHOLD",
    "ATOLL_MEM_TRACK_SITES",
    "ATOLL_MEM_STATS",
    "ATOLL_MEM_LEAKS",
    "ATOLL_MEM_MAX",
];

/// Runs the test `name` of this binary in a child process with `env` (and no other
/// `ATOLL_MEM_*` variable).
fn run_child(name: &str, env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(std::env::current_exe().unwrap());
    cmd.args([name, "--exact", "--nocapture", "--test-threads", "1"]);
    for v in VARS {
        cmd.env_remove(v);
    }
    cmd.env(CHILD, name);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "child {name} failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("1 passed"), "child {name} did not run");
    out
}

fn in_child(name: &str) -> bool {
    std::env::var(CHILD).as_deref() == Ok(name)
}

#[test]
fn bad_mode_falls_back_and_is_reported() {
    run_child("child_bad_mode", &[("ATOLL_MEM_TRACK", "loud"), ("ATOLL_MEM_THRESHOLD", "2K")]);
}

#[test]
fn child_bad_mode() {
    if !in_child("child_bad_mode") {
        return;
    }
    assert_eq!(atoll_mem::mode(), Mode::Count, "the default replaces the bad value");
    assert_eq!(atoll_mem::threshold(), 2048, "the other variables still apply");
    let e = atoll_mem::config_error().expect("the bad value is reported");
    match &e {
        Error::Config { key, value, reason } => {
            assert_eq!((key.as_str(), value.as_str()), ("ATOLL_MEM_TRACK", "loud"));
            assert!(reason.contains("off, count, full"), "{reason}");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(Settings::from_env().unwrap_err(), e);
}

#[test]
fn bad_threshold_falls_back_and_is_reported() {
    run_child("child_bad_threshold", &[("ATOLL_MEM_THRESHOLD", "12 apples"), ("ATOLL_MEM_TRACK_SITES", "maybe")]);
}

#[test]
fn child_bad_threshold() {
    if !in_child("child_bad_threshold") {
        return;
    }
    assert_eq!(atoll_mem::threshold(), 0);
    assert!(!atoll_mem::track_sites());
    // The first bad variable, in the documented order, is the one reported.
    let e = atoll_mem::config_error().unwrap();
    assert!(
        matches!(&e, Error::Config { key, value, .. } if key == "ATOLL_MEM_THRESHOLD" && value == "12 apples"),
        "{e}"
    );
    assert_eq!(Settings::from_env().unwrap_err(), e);
}

#[test]
fn good_values_take_effect() {
    run_child(
        "child_good_values",
        &[("ATOLL_MEM_TRACK", "FULL"), ("ATOLL_MEM_THRESHOLD", "2KiB"), ("ATOLL_MEM_TRACK_SITES", "1")],
    );
}

#[test]
fn child_good_values() {
    if !in_child("child_good_values") {
        return;
    }
    assert_eq!(atoll_mem::config_error(), None);
    assert_eq!((atoll_mem::mode(), atoll_mem::threshold(), atoll_mem::track_sites()), (Mode::Full, 2048, true));
    let s = Settings::from_env().unwrap();
    assert_eq!((s.mode, s.threshold, s.track_sites, s.print_stats), (Mode::Full, 2048, true, false));
    assert_eq!(atoll_mem::settings(), s);
    let big = vec![1u8; 3000];
    assert!(atoll_mem::leak_report().groups_of_size(3000).next().is_some());
    drop(big);
}

#[test]
fn off_mode_counts_nothing() {
    run_child("child_off", &[("ATOLL_MEM_TRACK", "off")]);
}

#[test]
fn child_off() {
    if !in_child("child_off") {
        return;
    }
    let v: Vec<Vec<u8>> = (0..100).map(|i| vec![0u8; 100 + i]).collect();
    assert_eq!(atoll_mem::mode(), Mode::Off);
    assert_eq!(atoll_mem::memory_used(), 0);
    assert_eq!(atoll_mem::allocation_count(), 0);
    assert!(!atoll_mem::tracking_active());
    assert!(!atoll_mem::leak_report().is_available());
    drop(v);
}

#[test]
fn memory_limit_from_env() {
    run_child("child_limit_bad", &[("ATOLL_MEM_MAX", "lots")]);
    run_child("child_limit_good", &[("ATOLL_MEM_MAX", "2GiB")]);
    run_child("child_limit_default", &[]);
}

#[test]
fn child_limit_bad() {
    if !in_child("child_limit_bad") {
        return;
    }
    let e = MemoryLimit::from_env().unwrap_err();
    assert!(matches!(&e, Error::Config { key, value, .. } if key == "ATOLL_MEM_MAX" && value == "lots"), "{e}");
    assert!(atoll_mem::Budget::from_env(0, 1).is_err());
}

#[test]
fn child_limit_good() {
    if !in_child("child_limit_good") {
        return;
    }
    assert_eq!(MemoryLimit::from_env().unwrap(), MemoryLimit::Bytes(2 << 30));
    assert_eq!(atoll_mem::Budget::from_env(1, 4).unwrap().limit(), 2 << 30);
}

#[test]
fn child_limit_default() {
    if !in_child("child_limit_default") {
        return;
    }
    assert_eq!(MemoryLimit::from_env().unwrap(), MemoryLimit::PercentOfPhysical(90.0));
    let phys = atoll_mem::physical_memory().unwrap();
    assert_eq!(MemoryLimit::from_env().unwrap().bytes().unwrap(), (phys as f64 * 0.9).floor() as u64);
}

#[test]
fn exit_report_prints_stats_and_leaks_once() {
    let out = run_child(
        "child_exit_report",
        &[
            ("ATOLL_MEM_TRACK", "full"),
            ("ATOLL_MEM_TRACK_SITES", "1"),
            ("ATOLL_MEM_STATS", "1"),
            ("ATOLL_MEM_LEAKS", "1"),
        ],
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.matches("atoll-mem: mode full").count(), 1, "{err}");
    assert_eq!(err.matches("atoll-mem leak report").count(), 1, "{err}");
    assert!(err.contains("child_leaks_here") && err.contains("54321"), "{err}");
}

#[inline(never)]
fn child_leaks_here() -> &'static [u8] {
    vec![0u8; 54321].leak()
}

#[test]
fn child_exit_report() {
    if !in_child("child_exit_report") {
        return;
    }
    let leaked = child_leaks_here();
    assert_eq!(leaked.len(), 54321);
    let s = atoll_mem::settings();
    assert!(s.print_stats && s.report_leaks);
    // The explicit call prints; the atexit hook registered at start-up then does nothing.
    atoll_mem::report_at_exit();
}

#[test]
fn exit_hook_alone_prints_the_stats() {
    let out = run_child("child_exit_hook", &[("ATOLL_MEM_STATS", "yes")]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.matches("atoll-mem: mode count").count(), 1, "{err}");
    assert!(!err.contains("leak report"), "{err}");
}

#[test]
fn child_exit_hook() {
    if !in_child("child_exit_hook") {
        return;
    }
    assert!(atoll_mem::settings().print_stats);
}
