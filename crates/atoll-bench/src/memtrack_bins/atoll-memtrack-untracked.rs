//! The baseline of the memory-tracking benchmark: the same workloads as `atoll-memtrack`, with
//! the system allocator (no `#[global_allocator]`).
//!
//! `atoll-memtrack --json` spawns this binary (it must sit next to it, as cargo builds them).
//! Run alone it prints one line per workload: `{"bench":"memtrack","variant":"untracked"|
//! "large_untracked","seconds":best,"samples":[...],"ok":bool,...}`. Each invocation runs one
//! unmeasured warm-up, then `--rounds` measured repetitions.

mod memtrack_common;

use memtrack_common::{best_and_median, large_blocks, parse_args, small_strings, Options};
use serde_json::json;

fn run(o: &Options, large: bool) -> serde_json::Value {
    let bytes = o.large_mib << 20;
    let once = || if large { large_blocks(o.threads, o.large_blocks, bytes) } else { small_strings(o.threads, o.n) };
    let _warm_up = once();
    let mut samples = Vec::with_capacity(o.rounds);
    let mut cpu_samples = Vec::with_capacity(o.rounds);
    let mut ok = true;
    for _ in 0..o.rounds {
        let (t, good) = once();
        samples.push(t.wall);
        cpu_samples.push(t.cpu);
        ok &= good;
    }
    let (best, median) = best_and_median(&samples);
    let (cpu_best, _) = best_and_median(&cpu_samples);
    json!({
        "bench": "memtrack",
        "variant": if large { "large_untracked" } else { "untracked" },
        "backend": "local",
        "locales": 1,
        "n": if large { o.large_blocks as u64 } else { o.n },
        "threads": o.threads,
        "rounds": o.rounds,
        "seconds": best,
        "median_seconds": median,
        "samples": samples,
        "cpu_seconds": cpu_best,
        "ok": ok,
    })
}

fn main() {
    let o = match parse_args(std::env::args().skip(1)) {
        Ok(o) => o,
        Err(msg) => {
            eprintln!("atoll-memtrack-untracked: {msg}");
            std::process::exit(2);
        }
    };
    let mut all_ok = true;
    for large in [false, true] {
        if (large && o.workload == "small") || (!large && o.workload == "large") {
            continue;
        }
        let line = run(&o, large);
        all_ok &= line["ok"].as_bool() == Some(true);
        println!("{line}");
    }
    if !all_ok {
        std::process::exit(1);
    }
}
