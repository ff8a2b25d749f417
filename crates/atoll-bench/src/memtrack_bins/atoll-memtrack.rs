//! The memory-tracking benchmark (the Chapel performance notes' program), with the tracking allocator installed.
//!
//! `atoll-memtrack --json` measures, in one run:
//!
//! * the small-allocation program (one task per core, each converting `1..=n` to heap `String`s
//!   and dropping them) under: `untracked` (the sibling binary `atoll-memtrack-untracked`, no
//!   tracking allocator at all), and in this process `passthrough` (the system allocator
//!   forwarded by this binary's global allocator, the in-process baseline), `off`, `count`,
//!   `full`, and `threshold` (`full` with a 1 KiB threshold);
//! * the large-array program (each task allocates, touches and frees 64 MiB blocks) under the
//!   same six configurations, named `large_untracked`, `large_passthrough`, `large_off`, ...
//!
//! Every variant runs `--rounds` times (default 7), the variants in a different order each
//! round (rotated, and reversed every other round) to spread machine noise; each measurement is
//! preceded by an unmeasured warm-up. It prints one JSON line per variant with the best time,
//! the median, `ratio_vs_untracked` (best over best, against the other binary) and
//! `ratio_vs_passthrough` (against the pass-through in this process: the same binary, the same
//! global allocator's dispatch, only the tracking differs). `ok` is true only if every round
//! passed its checks: the workload's checksum, memory in use back to its value before the run,
//! and for the tracked modes the expected number of counted allocations (and the peak, for
//! large blocks).

mod memtrack_common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};

use atoll_mem::{Mode, TrackingAllocator};
use memtrack_common::{best_and_median, large_blocks, parse_args, small_strings, Options};
use serde_json::{json, Value};

/// This binary's allocator: the tracking allocator, or, while [`PASS_THROUGH`] is set, the
/// system allocator forwarded (the `passthrough` variant). Every variant pays the same test
/// of the flag, so `ratio_vs_passthrough` isolates the tracking.
struct Switch;

static TRACKING: TrackingAllocator = TrackingAllocator::new();
static PASS_THROUGH: AtomicBool = AtomicBool::new(false);

#[global_allocator]
static ALLOC: Switch = Switch;

// SAFETY: every method forwards the caller's arguments unchanged either to `System` or to the
// tracking allocator, whose own contract is that it forwards every call to `System` unchanged
// (its bookkeeping never touches the blocks). So every block is a `System` block with the
// caller's layout, whichever path allocated it, and may be freed or reallocated by either.
unsafe impl GlobalAlloc for Switch {
    #[inline(always)]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if PASS_THROUGH.load(Ordering::Relaxed) {
            // SAFETY: forwarded caller contract.
            unsafe { System.alloc(layout) }
        } else {
            // SAFETY: forwarded caller contract.
            unsafe { TRACKING.alloc(layout) }
        }
    }

    #[inline(always)]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if PASS_THROUGH.load(Ordering::Relaxed) {
            // SAFETY: forwarded caller contract.
            unsafe { System.alloc_zeroed(layout) }
        } else {
            // SAFETY: forwarded caller contract.
            unsafe { TRACKING.alloc_zeroed(layout) }
        }
    }

    #[inline(always)]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if PASS_THROUGH.load(Ordering::Relaxed) {
            // SAFETY: forwarded caller contract (a `System` block, see above).
            unsafe { System.dealloc(ptr, layout) }
        } else {
            // SAFETY: forwarded caller contract.
            unsafe { TRACKING.dealloc(ptr, layout) }
        }
    }

    #[inline(always)]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if PASS_THROUGH.load(Ordering::Relaxed) {
            // SAFETY: forwarded caller contract (a `System` block, see above).
            unsafe { System.realloc(ptr, layout, new_size) }
        } else {
            // SAFETY: forwarded caller contract.
            unsafe { TRACKING.realloc(ptr, layout, new_size) }
        }
    }
}

const BASELINE: &str = "atoll-memtrack-untracked";
const THRESHOLD: usize = 1024;

/// How a variant allocates.
#[derive(Clone, Copy)]
enum Config {
    /// The sibling binary without a global allocator.
    Untracked,
    /// This binary, the system allocator forwarded.
    PassThrough,
    /// This binary, the tracking allocator in this mode and threshold.
    Tracked(Mode, usize),
}

/// One configuration to measure.
#[derive(Clone, Copy)]
struct Variant {
    name: &'static str,
    config: Config,
}

impl Variant {
    /// The tracking mode and threshold of a tracked variant.
    fn tracked(&self) -> Option<(Mode, usize)> {
        match self.config {
            Config::Tracked(m, t) => Some((m, t)),
            _ => None,
        }
    }
}

/// Index of the pass-through variant in [`VARIANTS`].
const PASS: usize = 1;

const VARIANTS: [Variant; 6] = [
    Variant { name: "untracked", config: Config::Untracked },
    Variant { name: "passthrough", config: Config::PassThrough },
    Variant { name: "off", config: Config::Tracked(Mode::Off, 0) },
    Variant { name: "count", config: Config::Tracked(Mode::Count, 0) },
    Variant { name: "full", config: Config::Tracked(Mode::Full, 0) },
    Variant { name: "threshold", config: Config::Tracked(Mode::Full, THRESHOLD) },
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

/// Measures the workload in this process with the system allocator forwarded (the tracking
/// allocator bypassed): the in-process baseline. Checked by the workload's checksum.
fn measure_passthrough(o: &Options, large: bool) -> Sample {
    let bytes = o.large_mib << 20;
    let run = || if large { large_blocks(o.threads, o.large_blocks, bytes) } else { small_strings(o.threads, o.n) };
    PASS_THROUGH.store(true, Ordering::SeqCst);
    let _warm_up = run();
    let (timing, work_ok) = run();
    PASS_THROUGH.store(false, Ordering::SeqCst);
    let mut problems = Vec::new();
    if !work_ok {
        problems.push("workload checksum mismatch".to_string());
    }
    Sample { seconds: timing.wall, cpu_seconds: timing.cpu, ok: problems.is_empty(), problems, ..Sample::default() }
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
        problems.push(format!(
            "the threshold should skip the {expected} small strings, but {allocs} allocations were counted"
        ));
    }
    if mode == Mode::Full && blocks_after != blocks_before {
        problems.push(format!("the full-mode table held {blocks_before} blocks before and {blocks_after} after"));
    }
    Sample {
        seconds: timing.wall,
        cpu_seconds: timing.cpu,
        ok: problems.is_empty(),
        allocs_counted: allocs,
        used_before,
        used_after,
        peak,
        problems,
    }
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
                    Config::Untracked => measure_untracked(&baseline, &o, large),
                    Config::PassThrough => measure_passthrough(&o, large),
                    Config::Tracked(mode, threshold) => measure_tracked(mode, threshold, &o, large),
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
        let (pass_best, _) = best_and_median(&times(PASS));
        let (pass_cpu, _) = best_and_median(&cpu_times(PASS));
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
                "ratio_vs_passthrough": best / pass_best,
                "cpu_ratio_vs_passthrough": cpu_best / pass_cpu,
                "ok": ok,
            });
            if let Some((mode, threshold)) = v.tracked() {
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
