//! The benchmark binaries run and check themselves: a small `atoll-memtrack --json` run prints
//! one passing line per variant, and a missing baseline binary is a clear error.

use std::collections::BTreeSet;
use std::process::Command;

use serde_json::Value;

const TRACKED: &str = env!("CARGO_BIN_EXE_atoll-memtrack");
const UNTRACKED: &str = env!("CARGO_BIN_EXE_atoll-memtrack-untracked");

#[test]
fn small_run_prints_every_variant_and_passes_its_checks() {
    let out = Command::new(TRACKED)
        .args(["--json", "--n", "20000", "--rounds", "2", "--threads", "2", "--large-mib", "2", "--large-blocks", "2"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    let lines: Vec<Value> = stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let names: BTreeSet<&str> = lines.iter().map(|l| l["variant"].as_str().unwrap()).collect();
    let expected: BTreeSet<&str> = [
        "untracked",
        "passthrough",
        "off",
        "count",
        "full",
        "threshold",
        "large_untracked",
        "large_passthrough",
        "large_off",
        "large_count",
        "large_full",
        "large_threshold",
    ]
    .into_iter()
    .collect();
    assert_eq!(names, expected);
    for l in &lines {
        assert_eq!(l["bench"], "memtrack");
        assert_eq!(l["backend"], "local");
        assert_eq!(l["locales"], 1);
        assert_eq!(l["ok"], true, "{l}");
        assert!(l["seconds"].as_f64().unwrap() > 0.0);
        assert!(l["ratio_vs_untracked"].as_f64().unwrap().is_finite());
        assert!(l["ratio_vs_passthrough"].as_f64().unwrap().is_finite());
    }
    let pass = lines.iter().find(|l| l["variant"] == "passthrough").unwrap();
    assert_eq!(pass["ratio_vs_passthrough"], 1.0);
    let count = lines.iter().find(|l| l["variant"] == "count").unwrap();
    assert!(count["allocs_counted"].as_u64().unwrap() >= 2 * 20000);
    assert_eq!(count["bytes_in_use_before"], count["bytes_in_use_after"]);
    let large_full = lines.iter().find(|l| l["variant"] == "large_full").unwrap();
    // The peak is within PEAK_GRANULE per live thread (2 workers and the main thread).
    let slack = 3 * atoll_mem::PEAK_GRANULE as u64;
    assert!(large_full["peak_bytes"].as_u64().unwrap() + slack >= 2 << 20, "{large_full}");
}

#[test]
fn baseline_runs_alone() {
    let out = Command::new(UNTRACKED).args(["--workload", "small", "--n", "5000", "--rounds", "1"]).output().unwrap();
    assert!(out.status.success());
    let line: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((line["variant"].as_str(), line["ok"].as_bool()), (Some("untracked"), Some(true)));
}

#[test]
fn missing_baseline_is_a_clear_error() {
    let dir = std::env::temp_dir().join(format!("atoll-memtrack-alone-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let lonely = dir.join(format!("atoll-memtrack{}", std::env::consts::EXE_SUFFIX));
    std::fs::copy(TRACKED, &lonely).unwrap();
    // A freshly written executable can be briefly "busy" (ETXTBSY) while another test thread
    // forks with its file descriptor open; retry then.
    let mut attempts = 0;
    let out = loop {
        match Command::new(&lonely).args(["--json", "--n", "10"]).output() {
            Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy && attempts < 100 => {
                attempts += 1;
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            other => break other.unwrap(),
        }
    };
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("atoll-memtrack-untracked") && err.contains("missing"), "{err}");
    assert!(out.stdout.is_empty());
}

#[test]
fn bad_arguments_are_refused() {
    let out = Command::new(TRACKED).args(["--n", "many"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--n"));
}
