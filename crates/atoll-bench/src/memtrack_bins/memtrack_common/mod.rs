//! The workloads shared by `atoll-memtrack` (tracking allocator installed) and
//! `atoll-memtrack-untracked` (the system allocator, the baseline).

use std::hint::black_box;
use std::sync::{Arc, Barrier};
use std::time::Instant;

/// Command-line options of both binaries.
#[derive(Debug, Clone)]
pub struct Options {
    /// Print JSON lines.
    pub json: bool,
    /// Integers converted per task in the small-allocation workload.
    pub n: u64,
    /// Tasks (threads); default one per core.
    pub threads: usize,
    /// Measured repetitions per variant (best and median are reported).
    pub rounds: usize,
    /// Size of each large block in MiB.
    pub large_mib: usize,
    /// Large blocks allocated (one after another) per task.
    pub large_blocks: usize,
    /// Which workloads to run: "small", "large" or "all".
    pub workload: String,
    /// Which variants to run (`atoll-memtrack` only); empty means all.
    pub variants: Vec<String>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            json: false,
            n: 1_000_000,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            rounds: 7,
            large_mib: 64,
            large_blocks: 4,
            workload: "all".to_string(),
            variants: Vec::new(),
        }
    }
}

/// The usage text.
pub const USAGE: &str = "options: [--json] [--n N] [--threads T] [--rounds R] [--large-mib M] [--large-blocks B] [--workload small|large|all] [--variants untracked,passthrough,off,count,full,threshold]";

/// Parses the command line; `Err` carries a message for the user.
pub fn parse_args(args: impl Iterator<Item = String>) -> Result<Options, String> {
    let mut o = Options::default();
    let mut args = args.peekable();
    while let Some(a) = args.next() {
        let mut value = |name: &str| -> Result<String, String> {
            args.next().ok_or_else(|| format!("{name} needs a value; {USAGE}"))
        };
        fn num<T: std::str::FromStr>(name: &str, v: String) -> Result<T, String> {
            v.parse().map_err(|_| format!("{name}: {v:?} is not a valid number; {USAGE}"))
        }
        match a.as_str() {
            "--json" => o.json = true,
            "--n" => o.n = num("--n", value("--n")?)?,
            "--threads" => o.threads = num("--threads", value("--threads")?)?,
            "--rounds" => o.rounds = num("--rounds", value("--rounds")?)?,
            "--large-mib" => o.large_mib = num("--large-mib", value("--large-mib")?)?,
            "--large-blocks" => o.large_blocks = num("--large-blocks", value("--large-blocks")?)?,
            "--workload" => {
                let w = value("--workload")?;
                if !matches!(w.as_str(), "small" | "large" | "all") {
                    return Err(format!("--workload must be small, large or all, not {w:?}"));
                }
                o.workload = w;
            }
            "--variants" => {
                let list = value("--variants")?;
                for v in list.split(',') {
                    if !matches!(v, "untracked" | "passthrough" | "off" | "count" | "full" | "threshold") {
                        return Err(format!("unknown variant {v:?}; {USAGE}"));
                    }
                    o.variants.push(v.to_string());
                }
            }
            "-h" | "--help" => return Err(USAGE.to_string()),
            other => return Err(format!("unknown argument {other:?}; {USAGE}")),
        }
    }
    if o.n == 0 || o.threads == 0 || o.rounds == 0 || o.large_mib == 0 || o.large_blocks == 0 {
        return Err(format!("--n, --threads, --rounds, --large-mib and --large-blocks must be positive; {USAGE}"));
    }
    Ok(o)
}

/// The number of decimal digits in all of `1..=n`, computed arithmetically (the reference for
/// the small workload's checksum).
pub fn digits_up_to(n: u64) -> u64 {
    let mut total = 0;
    let mut low = 1u64;
    let mut digits = 1;
    while low <= n {
        let high = low.saturating_mul(10).saturating_sub(1).min(n);
        total += (high - low + 1) * digits;
        digits += 1;
        match low.checked_mul(10) {
            Some(l) => low = l,
            None => break,
        }
    }
    total
}

/// The CPU time consumed so far by the calling thread, in seconds (0 where unavailable).
#[allow(unsafe_code)]
fn thread_cpu_seconds() -> f64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid, writable timespec; clock_gettime only writes it.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    if rc == 0 {
        ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
    } else {
        0.0
    }
}

/// A timed run: wall seconds from the common start to the last finish, and the CPU seconds the
/// worker threads consumed (summed; insensitive to time spent waiting for a busy core).
#[derive(Debug, Clone, Copy, Default)]
pub struct Timing {
    /// Wall-clock seconds.
    pub wall: f64,
    /// Sum of the workers' CPU seconds.
    pub cpu: f64,
}

/// Runs `work` on `threads` threads released together; returns the timing (wall time from the
/// first worker's start to the last worker's finish, as the workers themselves measure it) and
/// each thread's result.
fn timed<T: Send + 'static>(threads: usize, work: impl Fn() -> T + Send + Sync + 'static) -> (Timing, Vec<T>) {
    let work = Arc::new(work);
    let start = Arc::new(Barrier::new(threads));
    let handles: Vec<_> = (0..threads)
        .map(|_| {
            let (work, start) = (work.clone(), start.clone());
            std::thread::spawn(move || {
                start.wait();
                let (t0, c0) = (Instant::now(), thread_cpu_seconds());
                let r = work();
                let (c1, t1) = (thread_cpu_seconds(), Instant::now());
                (t0, t1, c1 - c0, r)
            })
        })
        .collect();
    let mut cpu = 0.0;
    let mut first: Option<Instant> = None;
    let mut last: Option<Instant> = None;
    let mut results = Vec::with_capacity(threads);
    for h in handles {
        let (t0, t1, c, r) = h.join().expect("benchmark thread panicked");
        first = Some(first.map_or(t0, |f| f.min(t0)));
        last = Some(last.map_or(t1, |l| l.max(t1)));
        cpu += c;
        results.push(r);
    }
    let wall = match (first, last) {
        (Some(a), Some(b)) => b.duration_since(a).as_secs_f64(),
        _ => 0.0,
    };
    (Timing { wall, cpu }, results)
}

/// The Chapel memory-tracking benchmark's program: each task converts 1..=n to heap `String`s
/// and drops them. Returns the timing and whether every task saw the expected total number of
/// digits.
pub fn small_strings(threads: usize, n: u64) -> (Timing, bool) {
    let (secs, digits) = timed(threads, move || {
        let mut digits = 0u64;
        for i in 1..=n {
            let s = black_box(black_box(i).to_string());
            digits += s.len() as u64;
            drop(s);
        }
        digits
    });
    let expected = digits_up_to(n);
    (secs, digits.iter().all(|&d| d == expected))
}

/// The large-array program: each task allocates `blocks` zeroed blocks of `bytes`, one after
/// another, writes one byte per page, reads them back, and frees the block. Returns the timing
/// and whether every checksum matched.
pub fn large_blocks(threads: usize, blocks: usize, bytes: usize) -> (Timing, bool) {
    const PAGE: usize = 4096;
    let (secs, ok) = timed(threads, move || {
        let mut ok = true;
        for b in 0..blocks {
            let mut v = black_box(vec![0u8; bytes]);
            let mark = (b % 251 + 1) as u8;
            for i in (0..bytes).step_by(PAGE) {
                v[i] = mark;
            }
            let sum: u64 = v.iter().step_by(PAGE).map(|&x| u64::from(x)).sum();
            ok &= sum == bytes.div_ceil(PAGE) as u64 * u64::from(mark);
            drop(black_box(v));
        }
        ok
    });
    (secs, ok.into_iter().all(|x| x))
}

/// Best and median of some timings.
pub fn best_and_median(samples: &[f64]) -> (f64, f64) {
    let mut s = samples.to_vec();
    s.sort_by(f64::total_cmp);
    if s.is_empty() {
        return (f64::NAN, f64::NAN);
    }
    (s[0], s[s.len() / 2])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits() {
        assert_eq!(digits_up_to(9), 9);
        assert_eq!(digits_up_to(10), 11);
        assert_eq!(digits_up_to(1_000_000), (1..=1_000_000u64).map(|i| i.to_string().len() as u64).sum::<u64>());
    }
}
