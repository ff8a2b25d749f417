//! The `argsort` kernel of `atoll-bench arkouda` (and `atoll-bench argsort`): Arkouda's argsort
//! benchmark (`ak.argsort` of `n` random int64 keys in `0..2^32`; GiB/s = 8 x n / seconds /
//! 2^30) with `atoll_ops::argsort` on a Block array over all locales, against the best
//! single-core argsort measured in the same run on locale 0.
//!
//! The single-core reference is a tuned sequential LSD radix argsort, tried with 8-, 11- and
//! 16-bit digits, and 11- and 16-bit digits through software write-combining lines with
//! non-temporal stores (the fastest counts): one read of the keys for every histogram, digits
//! that are the same for every key skipped, records packed into one word (key bits above index
//! bits) when they fit, else (key, index) pairs, the first pass reading the keys and the last
//! writing only the indices. It is checked to be sorted, stable and a permutation; the distributed
//! result must equal it (the stable argsort is unique).
//!
//! Buffers: every variant allocates fresh ones per call (`one_core_fresh_seconds`), and the
//! fastest one also runs keeping its buffers between repetitions (`one_core_kept_seconds`), as
//! Atoll's page pool keeps the distributed sort's (`atoll_runtime::page_pool`): on a
//! 2-vCPU KVM guest fresh pages cost up to 1.2 s per 512 MiB (`probes/first_touch.c`).
//! `one_core_seconds` is the faster of the two.

use crate::hugevec as hv;
use atoll::prelude::*;
use atoll::util::mix;
use std::time::Instant;

/// What one argsort measurement gives.
pub struct ArgsortRun {
    /// The distributed argsort's best time over all locales.
    pub seconds: f64,
    /// The best single-core time.
    pub one_core_seconds: f64,
    /// Whether the reference checked and the distributed result equals it.
    pub ok: bool,
    /// Further figures for the JSON line.
    pub extra: Vec<(&'static str, serde_json::Value)>,
    /// This locale's traffic of one repetition (for the network model).
    pub traffic: crate::netmodel::Traffic,
}

const SEED: u64 = 0x5eed_a7b0_11aa_0002;
const SIGN: u64 = 1 << 63;

/// Key `i`: random in `0..2^32`, as Arkouda's benchmark draws them (`ak.randint(0, 2**32, n)`).
#[inline]
pub fn key(i: u64) -> i64 {
    (mix(i ^ SEED) >> 32) as i64
}

/// The sequential argsort with `w`-bit digits (see the module docs), with write-combining
/// lines (`wc`, when records pack into one word), its buffers on huge pages (`huge`, as
/// Atoll's arrays; see `hugevec.rs`) or 4 KiB pages: the positions of `keys` in stable
/// increasing order.
pub fn seq_argsort(keys: &[i64], w: u32, wc: bool, huge: bool) -> Vec<u64> {
    seq_argsort_kept(keys, w, wc, huge, &mut hv::Keep::default())
}

/// [`seq_argsort`] with its buffers from `keep` (those of earlier calls, given back: reused
/// without zeroing, as a careful one-core program keeps its scratch between calls) and its
/// scratch buffers given back to it; give the result back too to reuse it.
pub fn seq_argsort_kept(keys: &[i64], w: u32, wc: bool, huge: bool, keep: &mut hv::Keep) -> Vec<u64> {
    let n = keys.len();
    let (mut or, mut and) = (0u64, u64::MAX);
    for &k in keys {
        let x = k as u64 ^ SIGN;
        or |= x;
        and &= x;
    }
    let varying = or ^ and;
    if n <= 1 || varying == 0 {
        return (0..n as u64).collect();
    }
    let lo = varying.trailing_zeros();
    let span = 64 - varying.leading_zeros() - lo;
    let idx_bits = 64 - (n as u64 - 1).leading_zeros();
    let w = w.clamp(1, 16);
    if span + idx_bits <= 64 {
        seq::packed(keys, lo, span, idx_bits, w, wc, huge, keep)
    } else {
        seq::wide(keys, lo, span, w, huge, keep)
    }
}

/// The sequential radix passes (the only unsafe code of the benchmarks: unchecked scatters
/// whose offsets come from the histograms).
mod seq {
    use super::SIGN;
    use crate::hugevec as hv;
    use atoll::array::stream_store::{store_fence, stream_line};

    /// The histograms of every digit of `span` bits from bit `lo` of the keys' images, in one
    /// read; then the digits (their index) that vary, with their start offsets.
    fn histograms(keys: &[i64], lo: u32, span: u32, w: u32) -> Vec<(u32, Vec<usize>)> {
        let nd = 1usize << w;
        let mask = (nd - 1) as u64;
        let passes = span.div_ceil(w) as usize;
        let span_mask = span_mask(span);
        let mut h = vec![0usize; nd * passes];
        for &k in keys {
            let x = ((k as u64 ^ SIGN) >> lo) & span_mask;
            for p in 0..passes {
                h[p * nd + ((x >> (p as u32 * w)) & mask) as usize] += 1;
            }
        }
        let n = keys.len();
        (0..passes)
            .filter(|&p| !h[p * nd..(p + 1) * nd].contains(&n))
            .map(|p| {
                let mut acc = 0;
                let offs = h[p * nd..(p + 1) * nd]
                    .iter()
                    .map(|&c| {
                        let o = acc;
                        acc += c;
                        o
                    })
                    .collect();
                (p as u32 * w, offs)
            })
            .collect()
    }

    /// The low `span` bits.
    fn span_mask(span: u32) -> u64 {
        if span >= 64 {
            u64::MAX
        } else {
            (1u64 << span) - 1
        }
    }

    /// Writes `f(i)` to `out[off[digit(i)]++]` for every `i` in `0..n`.
    #[inline(always)]
    fn scatter<T: Copy>(
        n: usize,
        out: &mut [T],
        off: &mut [usize],
        digit: impl Fn(usize) -> usize,
        f: impl Fn(usize) -> T,
    ) {
        let base = out.as_mut_ptr();
        let len = out.len();
        for i in 0..n {
            let d = digit(i);
            let o = off[d];
            debug_assert!(o < len);
            // SAFETY: `off[d]` starts at the number of records with a smaller digit and
            // advances once per record with digit `d`, so it stays below that number plus the
            // count of digit `d`, at most `n == len` (the histograms were counted from the same
            // records).
            unsafe { base.add(o).write(f(i)) };
            off[d] = o + 1;
        }
    }

    /// [`scatter`] through software write-combining (for 8-byte records): each digit's records
    /// collect in a 64-byte line, slotted by destination address, written whole with
    /// non-temporal stores when full (partial lines at the ends of runs slot by slot).
    #[inline(always)]
    fn scatter_wc(
        n: usize,
        out: &mut [u64],
        off: &mut [usize],
        digit: impl Fn(usize) -> usize,
        f: impl Fn(usize) -> u64,
    ) {
        let nd = off.len();
        let base = out.as_mut_ptr();
        let starts: Vec<usize> = off.to_vec();
        let mut lines = vec![[0u64; 8]; nd];
        let slot = |o: usize| ((base as usize + 8 * o) >> 3) & 7;
        for i in 0..n {
            let d = digit(i);
            let o = off[d];
            lines[d][slot(o)] = f(i);
            off[d] = o + 1;
            if slot(o + 1) == 0 {
                if o + 1 >= starts[d] + 8 && o < out.len() {
                    let first = o + 1 - 8;
                    // SAFETY: `first..first + 8` is inside `out` (`o` is, checked), 64-byte
                    // aligned (slot 0 starts a line), and belongs to this digit's run.
                    unsafe { stream_line(base.add(first), &lines[d]) };
                } else {
                    for p in starts[d]..o + 1 {
                        out[p] = lines[d][slot(p)];
                    }
                }
            }
        }
        for d in 0..nd {
            let o = off[d];
            if slot(o) == 0 {
                continue;
            }
            let from = o.saturating_sub(slot(o)).max(starts[d]);
            for p in from..o {
                out[p] = lines[d][slot(p)];
            }
        }
        store_fence();
    }

    /// One-word records: key bits `lo..lo + span` above `idx_bits` index bits; `wc`: through
    /// write-combining lines.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn packed(
        keys: &[i64],
        lo: u32,
        span: u32,
        idx_bits: u32,
        w: u32,
        wc: bool,
        huge: bool,
        keep: &mut hv::Keep,
    ) -> Vec<u64> {
        let n = keys.len();
        let mask = (1u64 << w) - 1;
        let idx_mask = if idx_bits == 64 { u64::MAX } else { (1u64 << idx_bits) - 1 };
        let passes = histograms(keys, lo, span, w);
        let mut out: Vec<u64> = keep.take(n, huge);
        let np = passes.len();
        let sm = span_mask(span);
        let rec = |i: usize| ((((keys[i] as u64 ^ SIGN) >> lo) & sm) << idx_bits) | i as u64;
        let mut a: Vec<u64> = Vec::new();
        let mut b: Vec<u64> = Vec::new();
        for (k, (shift, offs)) in passes.into_iter().enumerate() {
            let mut off = offs;
            let s = shift + idx_bits;
            let (first, last) = (k == 0, k + 1 == np);
            let digit = |r: u64| ((r >> s) & mask) as usize;
            match (first, last, wc) {
                (true, true, false) => scatter(n, &mut out, &mut off, |i| digit(rec(i)), |i| i as u64),
                (true, true, true) => scatter_wc(n, &mut out, &mut off, |i| digit(rec(i)), |i| i as u64),
                (true, false, _) => {
                    a = keep.take(n, huge);
                    if wc {
                        scatter_wc(n, &mut a, &mut off, |i| digit(rec(i)), rec);
                    } else {
                        scatter(n, &mut a, &mut off, |i| digit(rec(i)), rec);
                    }
                }
                (false, true, false) => scatter(n, &mut out, &mut off, |i| digit(a[i]), |i| a[i] & idx_mask),
                (false, true, true) => scatter_wc(n, &mut out, &mut off, |i| digit(a[i]), |i| a[i] & idx_mask),
                (false, false, _) => {
                    if b.is_empty() {
                        b = keep.take(n, huge);
                    }
                    if wc {
                        scatter_wc(n, &mut b, &mut off, |i| digit(a[i]), |i| a[i]);
                    } else {
                        scatter(n, &mut b, &mut off, |i| digit(a[i]), |i| a[i]);
                    }
                    std::mem::swap(&mut a, &mut b);
                }
            }
        }
        keep.give(a);
        keep.give(b);
        out
    }

    /// Two-word records: (image, index).
    pub(super) fn wide(keys: &[i64], lo: u32, span: u32, w: u32, huge: bool, keep: &mut hv::Keep) -> Vec<u64> {
        let n = keys.len();
        let mask = (1u64 << w) - 1;
        let passes = histograms(keys, lo, span, w);
        let mut out: Vec<u64> = keep.take(n, huge);
        let np = passes.len();
        let rec = |i: usize| [keys[i] as u64 ^ SIGN, i as u64];
        let mut a: Vec<[u64; 2]> = Vec::new();
        let mut b: Vec<[u64; 2]> = Vec::new();
        for (k, (shift, offs)) in passes.into_iter().enumerate() {
            let mut off = offs;
            let sm = span_mask(span);
            let (first, last) = (k == 0, k + 1 == np);
            let digit = |r: [u64; 2]| ((((r[0] >> lo) & sm) >> shift) & mask) as usize;
            match (first, last) {
                (true, true) => scatter(n, &mut out, &mut off, |i| digit(rec(i)), |i| i as u64),
                (true, false) => {
                    a = keep.take(n, huge);
                    scatter(n, &mut a, &mut off, |i| digit(rec(i)), rec);
                }
                (false, true) => scatter(n, &mut out, &mut off, |i| digit(a[i]), |i| a[i][1]),
                (false, false) => {
                    if b.is_empty() {
                        b = keep.take(n, huge);
                    }
                    scatter(n, &mut b, &mut off, |i| digit(a[i]), |i| a[i]);
                    std::mem::swap(&mut a, &mut b);
                }
            }
        }
        keep.give(a);
        keep.give(b);
        out
    }
}

/// Whether `perm` is the stable argsort of `keys`: a permutation along which keys never
/// decrease and equal keys keep their order.
pub fn is_stable_argsort(keys: &[i64], perm: &[u64]) -> bool {
    let n = keys.len();
    if perm.len() != n {
        return false;
    }
    let mut seen = vec![false; n];
    for &p in perm {
        match seen.get_mut(p as usize) {
            Some(s) if !*s => *s = true,
            _ => return false,
        }
    }
    perm.windows(2).all(|w| {
        let (a, b) = (keys[w[0] as usize], keys[w[1] as usize]);
        a < b || (a == b && w[0] < w[1])
    })
}

/// One repetition's check: the reference `p` is the stable argsort of `keys` and the
/// distributed result `got` (locale 0's gathered copy) equals it.
fn argsort_ok(keys: &[i64], p: &[u64], got: Option<&[i64]>) -> bool {
    is_stable_argsort(keys, p)
        && got.is_some_and(|g| g.len() == p.len() && g.iter().zip(p).all(|(&a, &b)| a as u64 == b))
}

/// Distributed argsort of `n` keys over all locales, best of `reps`, against the best
/// single-core argsort (locale 0; the others wait), the two interleaved so that both see the
/// same machine: each repetition runs the distributed sort, then the reference (with 8-, 11-
/// and 16-bit digits in the first repetition, then with the fastest width). **Collective.**
pub fn argsort(ctx: &Ctx, n: usize, reps: usize) -> Result<ArgsortRun> {
    let keys = DistArray::from_fn(ctx, dists::block(ctx, [n])?, |[i]| key(i as u64))?;
    let host: Vec<i64> = if ctx.id() == 0 { (0..n as u64).map(key).collect() } else { Vec::new() };
    let mut best = f64::INFINITY;
    let mut one = f64::INFINITY;
    let mut one_4k = f64::INFINITY;
    let mut one_kept = f64::INFINITY;
    let mut keep = hv::Keep::default();
    let mut width = 16u32;
    let mut combine = false;
    let mut ok = true;
    for rep in 0..reps.max(1) {
        ctx.barrier()?;
        let before = crate::netmodel::snapshot(ctx);
        let t = Instant::now();
        let perm = atoll::ops::argsort(&keys.view())?;
        let el = t.elapsed().as_secs_f64();
        crate::netmodel::record(ctx, crate::netmodel::Traffic::since(ctx, before));
        let s = ctx.allreduce(el, f64::max)?;
        best = best.min(s);
        // Every repetition's result is checked (gathered to locale 0, untimed).
        let got = perm.gather(0)?;
        drop(perm);
        if ctx.id() == 0 {
            let all = [(8, false), (11, false), (16, false), (11, true), (16, true)];
            let variants: Vec<(u32, bool)> = if rep == 0 { all.to_vec() } else { vec![(width, combine)] };
            for (w, wc) in variants {
                let t = Instant::now();
                let p = std::hint::black_box(seq_argsort(&host, w, wc, true));
                let s = t.elapsed().as_secs_f64();
                if s < one {
                    (one, width, combine) = (s, w, wc);
                }
                ok &= argsort_ok(&host, &p, got.as_deref());
            }
            // The fastest variant on 4 KiB pages too (plain `Vec`s), for transparency.
            let t = Instant::now();
            let p = std::hint::black_box(seq_argsort(&host, width, combine, false));
            one_4k = one_4k.min(t.elapsed().as_secs_f64());
            ok &= argsort_ok(&host, &p, got.as_deref());
            drop(p);
            // The fastest variant keeping its buffers between repetitions (as Atoll's page pool
            // keeps the sort's): from the second repetition on, no fresh pages.
            let t = Instant::now();
            let p = std::hint::black_box(seq_argsort_kept(&host, width, combine, true, &mut keep));
            one_kept = one_kept.min(t.elapsed().as_secs_f64());
            ok &= argsort_ok(&host, &p, got.as_deref());
            keep.give(p);
        }
        // The other ranks wait here while locale 0 times the one-core references alone
        // (seconds per variant at 2^26): long by design, so without the stall report.
        atoll::runtime::quiet_waits(|| ctx.barrier())?;
    }
    drop(keep);
    let ok = ctx.broadcast(0, (ctx.id() == 0).then_some(ok))?;
    let (one, one_4k, one_kept, width, combine) =
        ctx.broadcast(0, (ctx.id() == 0).then_some((one, one_4k, one_kept, width, combine)))?;
    Ok(ArgsortRun {
        traffic: crate::netmodel::last(ctx),
        seconds: best,
        // The strongest reference: the best of the fresh-buffer variants and the kept one.
        one_core_seconds: one.min(one_kept),
        ok,
        extra: vec![
            ("one_core_digit_bits", width.into()),
            ("one_core_4k_seconds", one_4k.into()),
            ("one_core_fresh_seconds", one.into()),
            ("one_core_kept_seconds", one_kept.into()),
            ("one_core_write_combining", combine.into()),
            ("key_range", "0..2^32".into()),
        ],
    })
}

/// `atoll-bench argsort`: the argsort line of `arkouda` alone. **Collective**; locale 0 prints.
pub fn argsort_line(ctx: &Ctx, n: usize, reps: usize, json: bool) -> Result<()> {
    let r = argsort(ctx, n, reps)?;
    if ctx.id() == 0 {
        const GIB: f64 = (1u64 << 30) as f64;
        let bytes = 8.0 * n as f64;
        let mut line = crate::report::Line::new(
            "arkouda",
            "argsort",
            ctx.backend_name(),
            ctx.num_locales(),
            n as u64,
            r.seconds,
            r.ok,
        )
        .with("gibps", bytes / r.seconds / GIB)
        .with("speedup_vs_one_core", r.one_core_seconds / r.seconds)
        .with("one_core_seconds", r.one_core_seconds)
        .with("one_core_gibps", bytes / r.one_core_seconds / GIB);
        for (k, v) in r.extra {
            line = line.with(k, v);
        }
        line.print(json);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sequential_argsort_is_stable_for_every_digit_width() {
        let cases: Vec<Vec<i64>> = vec![
            vec![],
            vec![5],
            vec![3, 3, 3],
            (0..1000).map(key).collect(),
            (0..1000).map(|i| (key(i) % 7) - 3).collect(),
            (0..777).map(|i| [i64::MIN, i64::MAX, 0, -1][i % 4]).collect(),
            (0..500).map(|i| (mix(i as u64) as i64) >> (i % 3)).collect(),
        ];
        // One `Keep` across every case and width: later calls get the buffers of earlier ones
        // (stale contents) and must still be right.
        let mut keep = hv::Keep::default();
        for keys in &cases {
            for w in [8, 11, 16] {
                for wc in [false, true] {
                    let p = seq_argsort(keys, w, wc, true);
                    assert!(is_stable_argsort(keys, &p), "w={w} wc={wc}: {keys:?} -> {p:?}");
                    for _ in 0..2 {
                        let k = seq_argsort_kept(keys, w, wc, true, &mut keep);
                        assert_eq!(k, p, "kept buffers, w={w} wc={wc}");
                        keep.give(k);
                    }
                }
            }
        }
        assert!(!is_stable_argsort(&[2, 1], &[0, 1]));
        assert!(!is_stable_argsort(&[1, 1], &[1, 0]));
        assert!(!is_stable_argsort(&[1, 2], &[0, 0]));
    }

    #[test]
    fn a_wrong_distributed_result_is_not_ok() {
        let keys: Vec<i64> = (0..300).map(|i| key(i) % 17).collect();
        let p = seq_argsort(&keys, 8, false, false);
        let good: Vec<i64> = p.iter().map(|&x| x as i64).collect();
        assert!(argsort_ok(&keys, &p, Some(&good)));
        let mut bad = good.clone();
        bad.swap(3, 4);
        assert!(!argsort_ok(&keys, &p, Some(&bad)), "two positions swapped");
        assert!(!argsort_ok(&keys, &p, Some(&good[1..])), "one missing");
        assert!(!argsort_ok(&keys, &p, None), "nothing gathered");
        let mut wrong_ref = p.clone();
        wrong_ref.swap(0, 1);
        assert!(!argsort_ok(&keys, &wrong_ref, Some(&good)), "reference not sorted");
    }
}
