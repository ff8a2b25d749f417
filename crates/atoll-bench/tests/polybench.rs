//! `atoll-bench polybench` end to end at a tiny scale: every kernel, both distributions, every
//! aggregation mode, 2 locales on the local backend. Correctness only (each run checks its
//! result against a sequential reference); no timing assertion.

use serde_json::Value;
use std::process::Command;

fn run_bench(args: &[&str]) -> Vec<Value> {
    run_bench_on(2, args)
}

fn run_bench_on(locales: usize, args: &[&str]) -> Vec<Value> {
    let out = Command::new(env!("CARGO_BIN_EXE_atoll-bench"))
        .arg("polybench")
        .args(["--backend", "local", "--locales", &locales.to_string(), "--json"])
        .args(args)
        .output()
        .expect("run atoll-bench");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "atoll-bench failed: {}\n{stdout}", String::from_utf8_lossy(&out.stderr));
    // Progress goes to stderr, and only on a terminal: stdout is JSON lines only.
    assert!(stdout.lines().all(|l| l.starts_with('{')), "non-JSON output on stdout: {stdout}");
    stdout.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("bad JSON line {l}: {e}"))).collect()
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
        let (seq, speedup) = (r["seq_seconds"].as_f64(), r["speedup_vs_sequential"].as_f64());
        assert!(seq.is_some_and(|x| x > 0.0), "no sequential time: {r}");
        let expect = seq.unwrap_or(0.0) / r["seconds"].as_f64().unwrap_or(1.0);
        assert!(
            speedup.is_some_and(|x| (x - expect).abs() <= 1e-9 * expect.max(1.0)),
            "speedup is not seq/seconds: {r}"
        );
    }
    // One sequential time per kernel and dist, the same on every mode's line.
    for r in &runs {
        let same = runs.iter().filter(|o| s(o, "kernel") == s(r, "kernel") && s(o, "dist") == s(r, "dist"));
        assert!(same.into_iter().all(|o| o["seq_seconds"] == r["seq_seconds"]), "{r}");
    }
    // Kernels whose followers are shifted rows (or 1-D shifts and strides): remote elements on
    // 2 locales, so the element-wise baseline sends messages.
    // (The linear-algebra kernels copy matrices or panels of rows onto every locale through
    // zippered loops whose followers are the row-distributed matrices.)
    let shifted = [
        "2mm",
        "fw",
        "trmm",
        "correlation",
        "covariance",
        "cholesky",
        "lu",
        "mvt",
        "syrk",
        "fdtd-2d",
        "jacobi1D",
        "jacobi2D",
        "stencil9",
        "pascal",
        "folding",
    ];
    for k in shifted {
        let off = runs
            .iter()
            .find(|r| s(r, "kernel") == k && s(r, "dist") == "cyclic" && s(r, "mode") == "off")
            .unwrap_or_else(|| panic!("no off line for {k}"));
        assert!(off["messages"].as_u64().is_some_and(|m| m > 0), "{k}: no message in off mode: {off}");
    }
    let geo: Vec<&Value> =
        lines.iter().filter(|l| l.get("variant").and_then(Value::as_str) == Some("geomean")).collect();
    assert_eq!(geo.len(), 2, "one geomean line per dist");
    for g in geo {
        for k in [
            "msg_ratio",
            "time_ratio",
            "worst_time_ratio",
            "static_msg_ratio",
            "static_time_ratio",
            "geomean_speedup_vs_sequential",
            "worst_speedup_vs_sequential",
        ] {
            assert!(g[k].as_f64().is_some_and(f64::is_finite), "{k} in {g}");
        }
        assert_eq!(g["ok"], Value::Bool(true));
        assert_eq!(s(g, "speedup_mode"), "auto");
        let worst = g["worst_speedup_vs_sequential"].as_f64().unwrap_or(f64::NAN);
        let auto: Vec<f64> = runs
            .iter()
            .filter(|r| s(r, "dist") == s(g, "dist") && s(r, "mode") == "auto")
            .filter_map(|r| r["speedup_vs_sequential"].as_f64())
            .collect();
        assert_eq!(auto.len(), 16);
        assert_eq!(worst, auto.iter().copied().fold(f64::INFINITY, f64::min), "{g}");
    }
}

/// The owner-computes kernels at sizes with several panels of rows (lu, cholesky, fw), row
/// counts that do not divide evenly over 3 locales, and a block that does not divide them.
#[test]
fn owner_computes_kernels_check_with_several_panels() {
    for (locales, dists) in [(3, "cyclic,blockcyclic,block"), (1, "cyclic")] {
        let lines = run_bench_on(
            locales,
            &[
                "--scale",
                "0.6",
                "--block",
                "3",
                "--dists",
                dists,
                "--modes",
                "off,auto",
                "--kernels",
                "fw,lu,cholesky,2mm,trmm,syrk,correlation,covariance,mvt",
            ],
        );
        let runs: Vec<&Value> = lines.iter().filter(|l| l.get("kernel").is_some()).collect();
        assert_eq!(runs.len(), 9 * 2 * dists.split(',').count());
        for r in &runs {
            assert_eq!(r["ok"], Value::Bool(true), "run failed its check on {locales} locales: {r}");
        }
    }
}

#[test]
fn block_sweep_reports_points() {
    let lines =
        run_bench(&["--sweep", "block", "--blocks", "1,8", "--scale", "0.02", "--steps", "2", "--modes", "off,auto"]);
    let points: Vec<&Value> =
        lines.iter().filter(|l| l.get("variant").and_then(Value::as_str) == Some("sweep_point")).collect();
    assert_eq!(points.len(), 2 * 2, "folding and jacobi1D at two block sizes");
    for l in &lines {
        assert_eq!(s(l, "sweep"), "block");
        assert_eq!(l["ok"], Value::Bool(true), "{l}");
    }
}
