//! `atoll-bench ft` class S on 1, 2 and 4 local locales: both transposes and the one-core
//! baseline verify against NPB's published checksums, and the transposes move what they must
//! (one message per ordered pair of locales and transpose, the whole field's bytes but each
//! locale's own part). Correctness only; no timing assertion.

use serde_json::Value;
use std::process::Command;

fn lines(locales: usize) -> Vec<Value> {
    let out = Command::new(env!("CARGO_BIN_EXE_atoll-bench"))
        .args(["ft", "--class", "S", "--backend", "local", "--locales", &locales.to_string(), "--json"])
        .output()
        .expect("run atoll-bench");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "atoll-bench ft failed: {}\n{stdout}", String::from_utf8_lossy(&out.stderr));
    stdout.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("bad JSON line {l}: {e}"))).collect()
}

/// Checks the lines of one class S run on `p` locales (shared with the MPI test's copy).
fn check_class_s(lines: &[Value], p: u64) {
    let find = |v: &str| lines.iter().find(|l| l["variant"] == v).unwrap_or_else(|| panic!("no {v} line in {lines:?}"));
    let one = find("one_core");
    assert_eq!(one["ok"], Value::Bool(true), "{one}");
    // 64^3 points; the field crosses the locales once forward and once per step (6 steps).
    let transposes = 7;
    let bytes_per_transpose = 64 * 64 * 64 * 16 * (p - 1) / p;
    for v in ["explicit", "global_view"] {
        let l = find(v);
        assert_eq!(l["ok"], Value::Bool(true), "{l}");
        assert_eq!(l["class"], "S");
        assert_eq!(l["locales"].as_u64(), Some(p), "{l}");
        assert!(l["mops"].as_f64().is_some_and(|m| m > 0.0), "{l}");
        assert!(l["speedup_vs_one_core"].as_f64().is_some_and(|s| s > 0.0), "{l}");
        assert_eq!(l["messages"].as_u64(), Some(transposes * p * (p - 1)), "one message per pair: {l}");
        assert_eq!(l["bytes"].as_u64(), Some(transposes * bytes_per_transpose), "{l}");
        let (re, im) = (l["checksum_re"].as_f64().unwrap_or(0.0), l["checksum_im"].as_f64().unwrap_or(0.0));
        assert!((re - 554.2683411902).abs() < 1e-8 && (im - 493.2597244941).abs() < 1e-8, "last checksum: {l}");
    }
    assert_eq!(find("explicit")["puts"], find("explicit")["messages"], "the explicit version puts");
    assert_eq!(find("global_view")["gets"], find("global_view")["messages"], "the global view gets");
}

#[test]
fn class_s_verifies_on_1_locale() {
    check_class_s(&lines(1), 1);
}

#[test]
fn class_s_verifies_on_2_locales() {
    check_class_s(&lines(2), 2);
}

#[test]
fn class_s_verifies_on_4_locales() {
    check_class_s(&lines(4), 4);
}

#[test]
fn bad_arguments_are_errors() {
    for args in [&["--class", "Q"][..], &["--class", "S", "--locales", "3"], &["--class", "S", "--variants", "x"]] {
        let out =
            Command::new(env!("CARGO_BIN_EXE_atoll-bench")).arg("ft").args(args).output().expect("run atoll-bench");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && err.contains("ft:"), "{args:?}: {err}");
    }
}
