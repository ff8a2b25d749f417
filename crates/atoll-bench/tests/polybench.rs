//! `atoll-bench polybench` end to end at a tiny scale: every kernel, both distributions, every
//! aggregation mode, 2 locales on the local backend. Correctness only (each run checks its
//! result against a sequential reference); no timing assertion.

use serde_json::Value;
use std::process::Command;

fn run_bench(args: &[&str]) -> Vec<Value> {
    let out = Command::new(env!("CARGO_BIN_EXE_atoll-bench"))
        .arg("polybench")
        .args(["--backend", "local", "--locales", "2", "--json"])
        .args(args)
        .output()
        .expect("run atoll-bench");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "atoll-bench failed: {}\n{stdout}", String::from_utf8_lossy(&out.stderr));
    stdout
        .lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("bad JSON line {l}: {e}")))
        .collect()
}

fn s<'a>(v: &'a Value, k: &str) -> &'a str {
    v[k].as_str().unwrap_or_else(|| panic!("no string {k} in {v}"))
}

#[test]
fn every_kernel_checks_and_shifted_followers_communicate() {
    let lines = run_bench(&["--scale", "0.04", "--steps", "3"]);
    let runs: Vec<&Value> = lines.iter().filter(|l| l.get("kernel").is_some()).collect();
    assert_eq!(runs.len(), 16 * 2 * 3, "one line per kernel, dist and mode");
    for r in &runs {
        assert_eq!(r["ok"], Value::Bool(true), "run failed its check: {r}");
        assert!(r["seconds"].as_f64().is_some_and(|x| x >= 0.0), "{r}");
    }
    // Kernels whose followers are shifted rows (or 1-D shifts and strides): remote elements on
    // 2 locales, so the element-wise baseline sends messages.
    let shifted = [
        "2mm", "fw", "trmm", "cholesky", "lu", "mvt", "syrk", "fdtd-2d", "jacobi1D", "jacobi2D", "stencil9", "pascal", "folding",
    ];
    for k in shifted {
        let off = runs
            .iter()
            .find(|r| s(r, "kernel") == k && s(r, "dist") == "cyclic" && s(r, "mode") == "off")
            .unwrap_or_else(|| panic!("no off line for {k}"));
        assert!(off["messages"].as_u64().is_some_and(|m| m > 0), "{k}: no message in off mode: {off}");
    }
    let geo: Vec<&Value> = lines.iter().filter(|l| l.get("variant").and_then(Value::as_str) == Some("geomean")).collect();
    assert_eq!(geo.len(), 2, "one geomean line per dist");
    for g in geo {
        for k in ["msg_ratio", "time_ratio", "worst_time_ratio", "static_msg_ratio", "static_time_ratio"] {
            assert!(g[k].as_f64().is_some_and(f64::is_finite), "{k} in {g}");
        }
        assert_eq!(g["ok"], Value::Bool(true));
    }
}

#[test]
fn block_sweep_reports_points() {
    let lines = run_bench(&["--sweep", "block", "--blocks", "1,8", "--scale", "0.02", "--steps", "2", "--modes", "off,auto"]);
    let points: Vec<&Value> = lines.iter().filter(|l| l.get("variant").and_then(Value::as_str) == Some("sweep_point")).collect();
    assert_eq!(points.len(), 2 * 2, "folding and jacobi1D at two block sizes");
    for l in &lines {
        assert_eq!(s(l, "sweep"), "block");
        assert_eq!(l["ok"], Value::Bool(true), "{l}");
    }
}
