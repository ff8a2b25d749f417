//! `atoll-bench strings`: Atoll's distributed strings against the best single-core
//! Rust loop over the same bytes, measured in the same run.
//!
//! `n` random strings (default 2^24) of length 1-32 over `A-Za-z`
//! (`random_strings_uniform(1, 33, n, letters)`) on all locales. Each kernel runs distributed
//! (best of `reps`, the slowest locale's time) and then on one core of locale 0 over a copy of
//! every string gathered there in the same Arrow layout (bytes + offsets); `ok` is true only
//! when the distributed result equals the single-core one. `gibps` is over the strings' bytes
//! and offsets.
//!
//! - `contains_regex`: `[aeiou]{3}|xyz|QZ` (a character class and an alternation); the
//!   one-core loop is `regex::bytes::Regex::is_match` over every string. `remote_ops` is the sum
//!   over locales of the communication counters (gets, puts, atomics, active messages) during
//!   the distributed runs.
//! - `argsort`: the stable argsort by bytes; the one-core reference buckets `(8-byte prefix,
//!   index)` records by their first two bytes (a counting pass) and sorts each bucket with
//!   `sort_unstable_by` on (prefix, bytes, index). `ratio_vs_numeric` is its time over the time
//!   of `atoll_ops::argsort` of `n` random `u64` keys in the same run.
//! - `groupby_count`: the distinct strings (sorted) and their counts (`unique_counts`); the
//!   one-core reference is the sort above and one pass over the runs.
//! - `hash`: two `u64` per string (`hash128`).
//! - `split`: split at every `"a"` (pieces and segments).

use crate::report::Line;
use atoll::prelude::*;
use atoll::strings::{hash128, random_strings_uniform, Charset, LocalStrings};
use std::cmp::Ordering;
use std::time::Instant;

const GIB: f64 = (1u64 << 30) as f64;
const PATTERN: &str = "[aeiou]{3}|xyz|QZ";
const SEP: &str = "a";

/// Options of `atoll-bench strings`.
pub struct StringsOpts {
    /// One JSON object per line.
    pub json: bool,
    /// Strings.
    pub n: usize,
    /// Repetitions (best time).
    pub reps: usize,
}

/// The best time of `f` over `reps` runs, each between barriers, the slowest locale's time;
/// and the last result. **Collective.**
fn best<R>(ctx: &Ctx, reps: usize, mut f: impl FnMut() -> Result<R>) -> Result<(f64, R)> {
    let mut best = f64::INFINITY;
    let mut last = None;
    for _ in 0..reps.max(1) {
        drop(last.take());
        ctx.barrier()?;
        let t = Instant::now();
        let r = f()?;
        ctx.barrier()?;
        let dt = ctx.allreduce(t.elapsed().as_secs_f64(), f64::max)?;
        best = best.min(dt);
        last = Some(r);
    }
    Ok((best, last.expect("reps >= 1")))
}

/// The best time of a one-core closure (on locale 0 only).
fn best_seq<R>(reps: usize, mut f: impl FnMut() -> R) -> (f64, R) {
    let mut best = f64::INFINITY;
    let mut last = None;
    for _ in 0..reps.max(1) {
        drop(last.take());
        let t = Instant::now();
        let r = f();
        best = best.min(t.elapsed().as_secs_f64());
        last = Some(r);
    }
    (best, last.expect("reps >= 1"))
}

#[inline]
fn prefix(s: &[u8]) -> u64 {
    let mut t = [0u8; 8];
    let k = s.len().min(8);
    t[..k].copy_from_slice(&s[..k]);
    u64::from_be_bytes(t)
}

/// The one-core stable argsort of the strings by bytes (see the module docs).
fn seq_argsort(l: &LocalStrings) -> Vec<u32> {
    let m = l.len();
    const B: usize = 1 << 16;
    let mut starts = vec![0usize; B + 1];
    let recs: Vec<(u64, u32)> = (0..m).map(|i| (prefix(l.get(i)), i as u32)).collect();
    for r in &recs {
        starts[(r.0 >> 48) as usize + 1] += 1;
    }
    for b in 0..B {
        starts[b + 1] += starts[b];
    }
    let mut cur = starts.clone();
    let mut sorted = vec![(0u64, 0u32); m];
    for r in &recs {
        let b = (r.0 >> 48) as usize;
        sorted[cur[b]] = *r;
        cur[b] += 1;
    }
    drop(recs);
    for b in 0..B {
        sorted[starts[b]..starts[b + 1]].sort_unstable_by(|x, y| {
            x.0.cmp(&y.0).then_with(|| l.get(x.1 as usize).cmp(l.get(y.1 as usize))).then(x.1.cmp(&y.1))
        });
    }
    sorted.into_iter().map(|r| r.1).collect()
}

fn seq_groupby_count(l: &LocalStrings) -> (LocalStrings, Vec<i64>) {
    let order = seq_argsort(l);
    let mut keys = LocalStrings::new();
    let mut counts = Vec::new();
    let mut k = 0;
    while k < order.len() {
        let s = l.get(order[k] as usize);
        let mut e = k + 1;
        while e < order.len() && l.get(order[e] as usize) == s {
            e += 1;
        }
        keys.push(std::str::from_utf8(s).unwrap_or_default());
        counts.push((e - k) as i64);
        k = e;
    }
    (keys, counts)
}

fn seq_split(l: &LocalStrings) -> (LocalStrings, Vec<i64>) {
    let mut pieces = LocalStrings::with_capacity(l.len() * 2, l.bytes().len());
    let mut segs = Vec::with_capacity(l.len());
    for i in 0..l.len() {
        segs.push(pieces.len() as i64);
        for p in l.get_str(i).split(SEP) {
            pieces.push(p);
        }
    }
    (pieces, segs)
}

struct Kernel {
    name: &'static str,
    seconds: f64,
    one_core: f64,
    ok: bool,
    extra: Vec<(&'static str, serde_json::Value)>,
}

/// Runs the benchmark and prints one line per kernel on locale 0. **Collective.**
pub fn strings(ctx: &Ctx, o: &StringsOpts) -> Result<()> {
    let reps = o.reps;
    let s = random_strings_uniform(ctx, 1, 33, o.n, Charset::Letters, 0x5eed_0017)?;
    let all = s.gather_block(0)?;
    let bytes = ctx.allreduce(s.local().bytes().len() as u64, |a, b| a + b)? as f64 + 8.0 * (o.n + 1) as f64;
    let mut out = Vec::new();
    let zero = ctx.id() == 0;

    // contains_regex, with the communication counters on.
    ctx.start_comm_diagnostics()?;
    ctx.reset_comm_diagnostics()?;
    let (t, hits) = best(ctx, reps, || s.contains_regex(PATTERN))?;
    let counts = ctx.comm_diagnostics()?;
    ctx.stop_comm_diagnostics()?;
    let remote_ops: u64 = counts.iter().map(|c| c.total_ops()).sum();
    let hits = hits.gather(0)?;
    if let (Some(l), Some(hits)) = (&all, hits) {
        let re = regex::bytes::Regex::new(PATTERN).map_err(|e| Error::InvalidArgument(e.to_string()))?;
        let (t1, want) = best_seq(reps, || l.iter().map(|x| re.is_match(x)).collect::<Vec<bool>>());
        let matched = want.iter().filter(|&&b| b).count();
        out.push(Kernel {
            name: "contains_regex",
            seconds: t,
            one_core: t1,
            ok: hits == want && remote_ops == 0,
            extra: vec![("remote_ops", remote_ops.into()), ("pattern", PATTERN.into()), ("matched", matched.into())],
        });
    }

    // argsort, and the numeric argsort of as many u64 keys.
    let (t, perm) = best(ctx, reps, || s.argsort())?;
    let keys = DistArray::<u64, 1>::from_fn(ctx, dists::block(ctx, [o.n])?, |[i]| atoll::util::mix(i as u64 ^ 0x17))?;
    let (tn, nperm) = best(ctx, reps, || atoll::ops::argsort(&keys.view()))?;
    let (perm, nperm, nkeys) = (perm.gather(0)?, nperm.gather(0)?, keys.gather(0)?);
    if let (Some(l), Some(perm), Some(nperm), Some(nkeys)) = (&all, perm, nperm, nkeys) {
        let (t1, want) = best_seq(reps, || seq_argsort(l));
        let numeric_ok = nperm.windows(2).all(|w| {
            let (a, b) = (nkeys[w[0] as usize], nkeys[w[1] as usize]);
            a < b || (a == b && w[0] < w[1])
        });
        let sorted_ok = want.windows(2).all(|w| match l.get(w[0] as usize).cmp(l.get(w[1] as usize)) {
            Ordering::Less => true,
            Ordering::Equal => w[0] < w[1],
            Ordering::Greater => false,
        });
        let same = perm.len() == want.len() && perm.iter().zip(&want).all(|(&a, &b)| a == b as i64);
        out.push(Kernel {
            name: "argsort",
            seconds: t,
            one_core: t1,
            ok: same && sorted_ok && numeric_ok,
            extra: vec![("ratio_vs_numeric", (t / tn).into()), ("numeric_seconds", tn.into())],
        });
    }
    drop(keys);

    // groupby_count.
    let (t, (uk, uc)) = best(ctx, reps, || s.unique_counts())?;
    let (uk, uc) = (uk.gather_block(0)?, uc.gather(0)?);
    if let (Some(l), Some(uk), Some(uc)) = (&all, uk, uc) {
        let (t1, (wk, wc)) = best_seq(reps, || seq_groupby_count(l));
        let groups = wc.len();
        out.push(Kernel {
            name: "groupby_count",
            seconds: t,
            one_core: t1,
            ok: uk == wk && uc == wc,
            extra: vec![("groups", groups.into())],
        });
    }

    // hash.
    let (t, (h1, h2)) = best(ctx, reps, || s.hash())?;
    let (h1, h2) = (h1.gather(0)?, h2.gather(0)?);
    if let (Some(l), Some(h1), Some(h2)) = (&all, h1, h2) {
        let (t1, want) = best_seq(reps, || l.iter().map(hash128).collect::<Vec<(u64, u64)>>());
        let ok = want.len() == h1.len() && want.iter().zip(h1.iter().zip(&h2)).all(|(w, (&a, &b))| *w == (a, b));
        out.push(Kernel { name: "hash", seconds: t, one_core: t1, ok, extra: vec![] });
    }

    // split.
    let (t, p) = best(ctx, reps, || s.split(SEP, false, None))?;
    let (pieces, segs) = (p.pieces.gather_block(0)?, p.segments.gather(0)?);
    if let (Some(l), Some(pieces), Some(segs)) = (&all, pieces, segs) {
        let (t1, (wp, ws)) = best_seq(reps, || seq_split(l));
        out.push(Kernel {
            name: "split",
            seconds: t,
            one_core: t1,
            ok: pieces == wp && segs == ws,
            extra: vec![("pieces", wp.len().into()), ("separator", SEP.into())],
        });
    }

    if zero {
        for k in out {
            let mut line =
                Line::new("strings", k.name, ctx.backend_name(), ctx.num_locales(), o.n as u64, k.seconds, k.ok)
                    .with("gibps", bytes / k.seconds / GIB)
                    .with("speedup_vs_one_core", k.one_core / k.seconds)
                    .with("one_core_seconds", k.one_core)
                    .with("one_core_gibps", bytes / k.one_core / GIB);
            for (key, v) in k.extra {
                line = line.with(key, v);
            }
            line.print(o.json);
        }
    }
    Ok(())
}
