//! `atoll-bench memtrack`: the cost of memory tracking, on the program of the Chapel performance
//! notes' memory-tracking benchmark.
//!
//! A global allocator belongs to a whole process, so this subcommand does not measure in the
//! `atoll-bench` process (which has none: the communication benchmarks run on the system
//! allocator). It runs `atoll-memtrack` (a binary of this crate, `src/memtrack_bins`, next
//! to `atoll-bench`) `--repeats` times as a child process. Each run measures, with `--threads`
//! tasks (default: one per core):
//!
//! * the small-allocation program (each task converts `1..=n` to heap `String`s and drops
//!   them) and the large-array program (each task allocates, touches and frees 64 MiB blocks),
//! * under `untracked` (the sibling `atoll-memtrack-untracked`, no tracking allocator at all),
//!   `passthrough` (in the measuring process: its global allocator forwarding to the system
//!   allocator), `off`, `count`, `full` and `threshold` (`full` with a 1 KiB threshold),
//! * each `--rounds` times, the variants interleaved in a different order each round, and
//!   reports each variant's best round and its `ratio_vs_untracked` (best over best).
//!
//! This subcommand prints one line per variant and program (DESIGN.md section 5): `variant` is
//! `untracked`, `off`, `count`, `full` or `threshold`, `program` is `small` or `large`;
//! `seconds` and `ratio_vs_untracked` are the medians over the repeats (of the best round and
//! of the ratio); `ratios` lists every repeat's ratio, `cpu_ratio_vs_untracked` the median
//! ratio of CPU time (insensitive to threads waiting for a core). `ok` is true only if every
//! round of every repeat passed `atoll-memtrack`'s checks (checksums, memory in use back to its
//! value before, counted allocations, the peak of the large blocks).

use crate::report::Line;
use atoll::prelude::{Error, Result};
use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;

/// The program that measures (it installs the tracking allocator).
const MEASURER: &str = "atoll-memtrack";

/// The variants, in output order.
const VARIANTS: [&str; 6] = ["untracked", "passthrough", "off", "count", "full", "threshold"];

/// Options of `atoll-bench memtrack`.
#[derive(clap::Args, Debug, Clone)]
pub struct MemtrackArgs {
    /// Print one JSON object per line.
    #[arg(long)]
    pub json: bool,
    /// Integers converted to strings per task (small program).
    #[arg(long, default_value_t = 1_000_000)]
    pub n: u64,
    /// Tasks (threads); default one per core.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Measured rounds per variant in each repeat (the best counts).
    #[arg(long, default_value_t = 7)]
    pub rounds: usize,
    /// Runs of the whole measurement; the medians over them are reported.
    #[arg(long, default_value_t = 3)]
    pub repeats: usize,
    /// Size of each large block in MiB.
    #[arg(long, default_value_t = 64)]
    pub large_mib: usize,
    /// Large blocks per task.
    #[arg(long, default_value_t = 4)]
    pub large_blocks: usize,
    /// `small`, `large` or `all`.
    #[arg(long, default_value = "all")]
    pub workload: String,
    /// The `atoll-memtrack` binary (default: next to this executable).
    #[arg(long)]
    pub measurer: Option<PathBuf>,
}

/// One variant's results over the repeats.
#[derive(Default)]
struct Series {
    seconds: Vec<f64>,
    ratios: Vec<f64>,
    cpu_ratios: Vec<f64>,
    pass_ratios: Vec<f64>,
    cpu_pass_ratios: Vec<f64>,
    ok: bool,
    /// The last repeat's line, for the figures that do not vary (mode, threshold, counts).
    last: Option<Value>,
}

fn median(v: &[f64]) -> f64 {
    let mut s: Vec<f64> = v.iter().copied().filter(|x| x.is_finite()).collect();
    if s.is_empty() {
        return f64::NAN;
    }
    s.sort_by(f64::total_cmp);
    let m = s.len() / 2;
    if s.len() % 2 == 1 {
        s[m]
    } else {
        (s[m - 1] + s[m]) / 2.0
    }
}

fn measurer_path(args: &MemtrackArgs) -> Result<PathBuf> {
    let path = match &args.measurer {
        Some(p) => p.clone(),
        None => {
            let me = std::env::current_exe().map_err(|e| Error::Io(format!("cannot locate atoll-bench: {e}")))?;
            let dir = me.parent().ok_or_else(|| Error::Io(format!("{} has no parent directory", me.display())))?;
            dir.join(format!("{MEASURER}{}", std::env::consts::EXE_SUFFIX))
        }
    };
    if path.is_file() {
        Ok(path)
    } else {
        Err(Error::Io(format!(
            "{} is missing: build it next to atoll-bench with `make build` or `cargo build --release --workspace` \
             (or name it with --measurer)",
            path.display()
        )))
    }
}

fn check_args(args: &MemtrackArgs) -> Result<()> {
    let bad = |what: &str| Err(Error::InvalidArgument(format!("memtrack: {what}")));
    if args.n == 0 || args.rounds == 0 || args.repeats == 0 || args.large_mib == 0 || args.large_blocks == 0 {
        return bad("--n, --rounds, --repeats, --large-mib and --large-blocks must be positive");
    }
    if args.threads == Some(0) {
        return bad("--threads must be positive");
    }
    if !["small", "large", "all"].contains(&args.workload.as_str()) {
        return bad("--workload must be small, large or all");
    }
    Ok(())
}

/// Runs `atoll-memtrack` once and returns its JSON lines.
fn run_once(path: &PathBuf, args: &MemtrackArgs, threads: usize) -> Result<(Vec<Value>, bool)> {
    let out = Command::new(path)
        .args(["--json", "--workload", &args.workload])
        .args(["--n", &args.n.to_string(), "--threads", &threads.to_string(), "--rounds", &args.rounds.to_string()])
        .args(["--large-mib", &args.large_mib.to_string(), "--large-blocks", &args.large_blocks.to_string()])
        .output()
        .map_err(|e| Error::Io(format!("cannot run {}: {e}", path.display())))?;
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<Value> = text.lines().filter_map(|l| serde_json::from_str(l).ok()).collect();
    if lines.is_empty() {
        return Err(Error::Io(format!(
            "{} printed no results (status {}): {}",
            path.display(),
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        )));
    }
    Ok((lines, out.status.success()))
}

/// One measured line's check: the child exited successfully, reported `ok` and a finite time.
fn line_ok(status_ok: bool, l: &Value) -> bool {
    status_ok && l["ok"].as_bool() == Some(true) && l["seconds"].as_f64().is_some_and(f64::is_finite)
}

/// `atoll-bench memtrack`.
pub fn memtrack(args: &MemtrackArgs) -> Result<()> {
    check_args(args)?;
    let path = measurer_path(args)?;
    let threads = args.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let programs: Vec<&str> = match args.workload.as_str() {
        "small" => vec!["small"],
        "large" => vec!["large"],
        _ => vec!["small", "large"],
    };
    // series[program][variant]
    let mut series: Vec<Vec<Series>> =
        programs.iter().map(|_| VARIANTS.iter().map(|_| Series { ok: true, ..Series::default() }).collect()).collect();
    for _ in 0..args.repeats {
        let (lines, status_ok) = run_once(&path, args, threads)?;
        for (p, program) in programs.iter().enumerate() {
            for (v, variant) in VARIANTS.iter().enumerate() {
                let name = if *program == "large" { format!("large_{variant}") } else { variant.to_string() };
                let s = &mut series[p][v];
                match lines.iter().find(|l| l["variant"] == name.as_str()) {
                    Some(l) => {
                        s.seconds.push(l["seconds"].as_f64().unwrap_or(f64::NAN));
                        s.ratios.push(l["ratio_vs_untracked"].as_f64().unwrap_or(f64::NAN));
                        s.cpu_ratios.push(l["cpu_ratio_vs_untracked"].as_f64().unwrap_or(f64::NAN));
                        s.pass_ratios.push(l["ratio_vs_passthrough"].as_f64().unwrap_or(f64::NAN));
                        s.cpu_pass_ratios.push(l["cpu_ratio_vs_passthrough"].as_f64().unwrap_or(f64::NAN));
                        s.ok &= line_ok(status_ok, l);
                        s.last = Some(l.clone());
                    }
                    None => s.ok = false,
                }
            }
        }
    }
    for (p, program) in programs.iter().enumerate() {
        for (v, variant) in VARIANTS.iter().enumerate() {
            let s = &series[p][v];
            let n = if *program == "large" { args.large_blocks as u64 } else { args.n };
            // `ok` only from checked runs: none (`--repeats 0`) proves nothing.
            let ok = s.ok && !s.seconds.is_empty() && s.seconds.iter().all(|x| x.is_finite());
            let mut line = Line::new("memtrack", variant, "local", 1, n, median(&s.seconds), ok)
                .with("program", *program)
                .with("ratio_vs_untracked", median(&s.ratios))
                .with("cpu_ratio_vs_untracked", median(&s.cpu_ratios))
                .with("ratios", s.ratios.clone())
                .with("ratio_vs_passthrough", median(&s.pass_ratios))
                .with("cpu_ratio_vs_passthrough", median(&s.cpu_pass_ratios))
                .with("passthrough_ratios", s.pass_ratios.clone())
                .with("threads", threads)
                .with("rounds", args.rounds)
                .with("repeats", args.repeats);
            if *program == "large" {
                line = line.with("bytes_per_block", (args.large_mib as u64) << 20);
            }
            if let Some(last) = &s.last {
                for key in ["mode", "threshold", "allocs_counted", "peak_bytes", "problems"] {
                    if let Some(x) = last.get(key) {
                        line = line.with(key, x.clone());
                    }
                }
            }
            line.print(args.json);
        }
    }
    if series.iter().flatten().all(|s| s.ok) {
        Ok(())
    } else {
        Err(Error::InvalidArgument("memtrack: a measurement failed its checks (see `ok` and `problems` above)".into()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_measurement_is_not_ok() {
        let good: Value = serde_json::json!({"variant": "count", "seconds": 0.01, "ok": true});
        assert!(line_ok(true, &good));
        assert!(!line_ok(false, &good), "the child exited with an error");
        assert!(!line_ok(true, &serde_json::json!({"variant": "count", "seconds": 0.01, "ok": false})));
        assert!(!line_ok(true, &serde_json::json!({"variant": "count", "ok": true})), "no time");
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), 2.5);
        assert!(median(&[]).is_nan());
    }
}
