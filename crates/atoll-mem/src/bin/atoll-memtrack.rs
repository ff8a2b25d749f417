//! The memory-tracking benchmark (the seed's program), with the tracking allocator installed.
//!
//! `atoll-memtrack --json` measures, in one run:
//!
//! * the small-allocation program (one task per core, each converting `1..=n` to heap `String`s
//!   and dropping them) under: `untracked` (the sibling binary `atoll-memtrack-untracked`, no
//!   tracking allocator at all), and in this process `off`, `count`, `full`, and `threshold`
//!   (`full` with a 1 KiB threshold);
//! * the large-array program (each task allocates, touches and frees 64 MiB blocks) under the
//!   same five configurations, named `large_untracked`, `large_off`, ...
//!
//! Every variant runs `--rounds` times (default 7), the variants in a different order each
//! round (rotated, and reversed every other round) to spread machine noise; each measurement is
//! preceded by an unmeasured warm-up. It prints one JSON line per variant with the best time,
//! the median, and `ratio_vs_untracked` (best over best). `ok` is true only if every round
//! passed its checks: the workload's checksum, memory in use back to its value before the run,
//! and for the tracked modes the expected number of counted allocations (and the peak, for
//! large blocks).

mod memtrack_common;

use std::path::PathBuf;
use std::process::Command;

use atoll_mem::{Mode, TrackingAllocator};
use memtrack_common::{best_and_median, large_blocks, parse_args, small_strings, Options};
use serde_json::{json, Value};

#[global_allocator]
static ALLOC: TrackingAllocator = TrackingAllocator::new();

const BASELINE: &str = "atoll-memtrack-untracked";
const THRESHOLD: usize = 1024;

/// One configuration to measure: `None` is the untracked baseline (the sibling binary).
#[derive(Clone, Copy)]
struct Variant {
    name: &'static str,
    config: Option<(Mode, usize)>,
}

const VARIANTS: [Variant; 5] = [
    Variant { name: "untracked", config: None },
    Variant { name: "off", config: Some((Mode::Off, 0)) },
    Variant { name: "count", config: Some((Mode::Count, 0)) },
    Variant { name: "full", config: Some((Mode::Full, 0)) },
    Variant { name: "threshold", config: Some((Mode::Full, THRESHOLD)) },
];

/// What one measurement found.
#[derive(Default, Clone)]
struct Sample {
    seconds: f64,
    cpu_seconds: f64,
    ok: bool,
    allocs_counted: u64,
    used_before: u64,
    used_after: u64,
    peak: u64,
    problems: Vec<String>,
}

/// The sibling baseline binary, next to this executable.
fn baseline_path() -> Result<PathBuf, String> {
    let me = std::env::current_exe().map_err(|e| format!("cannot locate this executable: {e}"))?;
    let dir = me.parent().ok_or_else(|| format!("{} has no parent directory", me.display()))?;
    let path = dir.join(format!("{BASELINE}{}", std::env::consts::EXE_SUFFIX));
    if path.is_file() {
        Ok(path)
    } else {
        Err(format!(
            "the baseline binary {} is missing: build both benchmark binaries with `cargo build --release -p atoll-mem` (they are placed side by side)",
            path.display()
        ))
    }
}

/// Runs the baseline binary once (warm-up + one measurement) and reads its JSON line.
fn measure_untracked(path: &PathBuf, o: &Options, large: bool) -> Sample {
    let out = Command::new(path)
        .args(["--workload", if large { "large" } else { "small" }, "--rounds", "1"])
        .args(["--n", &o.n.to_string(), "--threads", &o.threads.to_string()])
        .args(["--large-mib", &o.large_mib.to_string(), "--large-blocks", &o.large_blocks.to_string()])
        .output();
    let mut s = Sample::default();
    let out = match out {
        Ok(out) => out,
        Err(e) => {
            s.problems.push(format!("cannot run {}: {e}", path.display()));
            return s;
        }
    };
    let text = String::from_utf8_lossy(&out.stdout);
    match text.lines().next().map(serde_json::from_str::<Value>) {
        Some(Ok(v)) => {
            s.seconds = v["seconds"].as_f64().unwrap_or(f64::NAN);
            s.cpu_seconds = v["cpu_seconds"].as_f64().unwrap_or(f64::NAN);
            s.ok = out.status.success() && v["ok"].as_bool() == Some(true) && s.seconds.is_finite();
            if !s.ok {
                s.problems.push(format!("baseline reported failure: {}", text.trim()));
            }
        }
        _ => s.problems.push(format!(
            "baseline printed no JSON (status {}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        )),
    }
    s
}

/// Measures one configuration in this process.
fn measure_tracked(mode: Mode, threshold: usize, o: &Options, large: bool) -> Sample {
    let bytes = o.large_mib << 20;
    let run = || if large { large_blocks(o.threads, o.large_blocks, bytes) } else { small_strings(o.threads, o.n) };
    atoll_mem::set_mode(mode, threshold);
    let _warm_up = run();
    atoll_mem::reset_peak();
    let used_before = atoll_mem::memory_used();
    let allocs_before = atoll_mem::allocation_count();
    let frees_before = atoll_mem::free_count();
    let blocks_before = atoll_mem::recorded_blocks();
    let (timing, work_ok) = run();
    let used_after = atoll_mem::memory_used();
    let allocs = atoll_mem::allocation_count() - allocs_before;
    let frees = atoll_mem::free_count() - frees_before;
    let blocks_after = atoll_mem::recorded_blocks();
    let peak = atoll_mem::peak_memory();

    let mut problems = Vec::new();
    if !work_ok {
        problems.push("workload checksum mismatch".to_string());
    }
    if used_after != used_before {
        problems.push(format!("memory in use changed from {used_before} to {used_after}"));
    }
    let per_task = if large { o.large_blocks as u64 } else { o.n };
    let expected = per_task * o.threads as u64;
    // Every block of the workload is at or above the threshold, except the small strings.
    let workload_tracked = mode != Mode::Off && (large || threshold == 0);
    if workload_tracked {
        if allocs < expected || frees < expected {
            problems.push(format!("counted {allocs} allocations and {frees} frees, expected at least {expected}"));
        }
        // The documented precision of the peak: within PEAK_GRANULE per thread with unreported
        // changes (here the workers and this thread).
        let slack = (o.threads as u64 + 1) * atoll_mem::PEAK_GRANULE as u64;
        if large && peak + slack < used_before + bytes as u64 {
            problems.push(format!(
                "peak {peak} is below one live block ({bytes} bytes above {used_before}) by more than {slack}"
            ));
        }
    } else if mode == Mode::Off {
        if allocs != 0 {
            problems.push(format!("off mode counted {allocs} allocations"));
        }
    } else if allocs >= expected {
        problems.push(format!("the threshold should skip the {expected} small strings, but {allocs} allocations were counted"));
    }
    if mode == Mode::Full && blocks_after != blocks_before {
        problems.push(format!("the full-mode table held {blocks_before} blocks before and {blocks_after} after"));
    }
    Sample {
        seconds: timing.wall,
        cpu_seconds: timing.cpu,
        ok: problems.is_empty(), allocs_counted: allocs, used_before, used_after, peak, problems }
}

fn main() {
    let o = match parse_args(std::env::args().skip(1)) {
        Ok(o) => o,
        Err(msg) => {
            eprintln!("atoll-memtrack: {msg}");
            std::process::exit(2);
        }
    };
    let baseline = match baseline_path() {
        Ok(p) => p,
        Err(msg) => {
            eprintln!("atoll-memtrack: {msg}");
            std::process::exit(2);
        }
    };
    atoll_mem::set_track_sites(false);

    let mut all_ok = true;
    for large in [false, true] {
        if (large && o.workload == "small") || (!large && o.workload == "large") {
            continue;
        }
        let mut samples: Vec<Vec<Sample>> = vec![Vec::new(); VARIANTS.len()];
        for round in 0..o.rounds {
            let mut order: Vec<usize> = (0..VARIANTS.len()).collect();
            order.rotate_left(round % VARIANTS.len());
            if round % 2 == 1 {
                order.reverse();
            }
            for i in order {
                if !o.variants.is_empty() && !o.variants.iter().any(|v| v == VARIANTS[i].name) {
                    continue;
                }
                let s = match VARIANTS[i].config {
                    None => measure_untracked(&baseline, &o, large),
                    Some((mode, threshold)) => measure_tracked(mode, threshold, &o, large),
                };
                samples[i].push(s);
            }
        }
        // Leave the process in its default configuration.
        atoll_mem::set_mode(Mode::Count, 0);

        let times = |i: usize| samples[i].iter().map(|s| s.seconds).collect::<Vec<_>>();
        let cpu_times = |i: usize| samples[i].iter().map(|s| s.cpu_seconds).collect::<Vec<_>>();
        let (untracked_best, _) = best_and_median(&times(0));
        let (untracked_cpu, _) = best_and_median(&cpu_times(0));
        for (i, v) in VARIANTS.iter().enumerate() {
            if samples[i].is_empty() {
                continue;
            }
            let (best, median) = best_and_median(&times(i));
            let (cpu_best, _) = best_and_median(&cpu_times(i));
            let ok = samples[i].iter().all(|s| s.ok);
            all_ok &= ok;
            let last = samples[i].last().cloned().unwrap_or_default();
            let problems: Vec<String> = samples[i].iter().flat_map(|s| s.problems.clone()).collect();
            let name = if large { format!("large_{}", v.name) } else { v.name.to_string() };
            let mut line = json!({
                "bench": "memtrack",
                "variant": name,
                "backend": "local",
                "locales": 1,
                "n": if large { o.large_blocks as u64 } else { o.n },
                "threads": o.threads,
                "rounds": o.rounds,
                "seconds": best,
                "median_seconds": median,
                "ratio_vs_untracked": best / untracked_best,
                "cpu_seconds": cpu_best,
                "cpu_ratio_vs_untracked": cpu_best / untracked_cpu,
                "ok": ok,
            });
            if let Some((mode, threshold)) = v.config {
                line["mode"] = json!(mode.as_str());
                line["threshold"] = json!(threshold);
                line["allocs_counted"] = json!(last.allocs_counted);
                line["bytes_in_use_before"] = json!(last.used_before);
                line["bytes_in_use_after"] = json!(last.used_after);
                if large {
                    line["peak_bytes"] = json!(last.peak);
                }
            }
            if large {
                line["bytes_per_block"] = json!(o.large_mib << 20);
            }
            if !problems.is_empty() {
                line["problems"] = json!(problems);
            }
            if o.json {
                println!("{line}");
            } else {
                println!(
                    "{:<18} best {:>9.4} s  median {:>9.4} s  ratio {:>6.3}  cpu {:>9.4} s  cpu ratio {:>6.3}  {}{}",
                    name,
                    best,
                    median,
                    best / untracked_best,
                    cpu_best,
                    cpu_best / untracked_cpu,
                    if ok { "ok" } else { "FAILED" },
                    if problems.is_empty() { String::new() } else { format!(": {}", problems.join("; ")) }
                );
            }
        }
    }
    if !all_ok {
        std::process::exit(1);
    }
}
