//! The scan of a view that is aligned with its output (a Block array scanned into a Block array
//! over the same indices: Arkouda's `cumsum`) in one pass over memory on the last locale and
//! two reads and one write elsewhere, instead of a copy and two passes. (Arrays of 2^20 elements
//! or more whose parts every locale addresses directly take `scan/wavefront.rs` instead: one
//! pass for all locales.)
//!
//! 1. Each locale needs the combination of everything before its part: the totals of every part
//!    but the last. When every part is directly addressable (the local backend, MPI ranks of one
//!    node) and the array is large, all locales fold those parts together, each an equal share of
//!    them read in place ([`bases_balanced`]), and one allgather of the shares' totals gives every
//!    locale its base; otherwise every locale but the last folds its own part and one exclusive
//!    scan of the totals gives the bases (the last locale's total is needed by nobody, so it
//!    skips this pass; it waits instead, which is why the balanced form exists).
//! 2. Each locale's tasks take cache-sized chunks of its part in increasing order (an atomic
//!    counter): a task folds the chunk's input (bringing it into the cache), takes its
//!    predecessor's inclusive prefix (published by the task that had it, a chained look-back:
//!    the wait is the time to fold one chunk, and the combination order, hence floating-point
//!    results, do not depend on the schedule), publishes its own, then re-reads the chunk from
//!    cache to write the output, with streaming stores for large outputs (no read for
//!    ownership of the output's lines).
//!
//!    A locale with one worker (one core per locale) scans its part in one straight pass
//!    instead: its base is known, and the chunk folds would only stall the memory reads.
//!
//! Tasks wait only for chunks with a lower index, which were taken earlier by tasks that are
//! running, so the look-back cannot deadlock, whatever the number of threads.

use crate::elem::Elem;
use crate::storage::stream_store::{worth_it, write_streaming};
use crate::storage::Storage;
use atoll_dist::Distribution;
use atoll_error::Result;
use atoll_runtime::Ctx;
use atoll_util::sync::lock;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

/// Bytes of input per chunk: a share of the L2 cache, so the re-read hits it.
const CHUNK_BYTES: usize = 128 << 10;

/// Scans `input` (this locale's part) into `out` (the same length) with `op`, locale prefixes
/// combined in locale order. **Collective** (one exclusive scan of the locales' totals).
/// `store` holds the input, `dist` is its (Block) distribution.
pub(crate) fn scan_aligned<T: Elem, M: Distribution<1>>(
    ctx: &Ctx,
    store: &Storage<T>,
    dist: &M,
    out: &mut [T],
    op: impl Fn(T, T) -> T + Sync + Copy,
    identity: T,
    inclusive: bool,
) -> Result<()> {
    let input = store.local();
    debug_assert_eq!(input.len(), out.len());
    let base = match bases_balanced(ctx, store, dist, op, identity)? {
        Some(b) => b,
        None => {
            let last = ctx.id() + 1 == ctx.num_locales();
            let mine = if last { identity } else { fold_parallel(ctx, input, op, identity) };
            ctx.exscan(mine, identity, op)?
        }
    };
    scan_chunks(ctx, input, out, base, op, identity, inclusive);
    Ok(())
}

/// Elements before the last part from which the balanced fold is used: below, its extra
/// collective costs more than the idle last locale.
const BALANCED_MIN: usize = 1 << 20;

/// Step 1 with every locale's share of the work equal: the `F` elements before the last part,
/// in global order, are cut into `num_locales` equal pieces; each locale folds its piece (read
/// in place, where it lives, by [`Storage::direct`]; counted as the gets it replaces) part by
/// part; one allgather of those per-part folds gives every part's total (the pieces' folds in
/// piece order) and so every locale's base. `None` (on every locale: they agree through one
/// allgather) when the array is small or some part is not directly addressable from some
/// locale. The combination order depends on the locale count only, not on the threads.
/// **Collective.**
fn bases_balanced<T: Elem, M: Distribution<1>>(
    ctx: &Ctx,
    store: &Storage<T>,
    dist: &M,
    op: impl Fn(T, T) -> T + Sync + Copy,
    identity: T,
) -> Result<Option<T>> {
    let p = ctx.num_locales();
    let mut starts = Vec::with_capacity(p + 1);
    starts.push(0usize);
    for (l, len) in part_lens(ctx, dist)?.into_iter().enumerate() {
        starts.push(starts[l] + len);
    }
    let before_last = starts[p - 1];
    if p < 2 || before_last < BALANCED_MIN {
        return Ok(None);
    }
    let mut parts = Vec::with_capacity(p - 1);
    for k in 0..p - 1 {
        parts.push(store.direct(ctx, k, 0, starts[k + 1] - starts[k])?);
    }
    let direct = parts.iter().all(Option::is_some);
    // Agreement (and the entry synchronization: every locale's earlier writes to its part are
    // done before anyone reads it in place).
    if !ctx.allgather(&direct)?.into_iter().all(|d| d) {
        return Ok(None);
    }
    let me = ctx.id();
    let cut = |l: usize| (before_last as u128 * l as u128 / p as u128) as usize;
    let (lo, hi) = (cut(me), cut(me + 1));
    let mut mine = vec![identity; p - 1];
    for (k, (slot, ptr)) in mine.iter_mut().zip(&parts).enumerate() {
        let (a, b) = (lo.max(starts[k]), hi.min(starts[k + 1]));
        if a >= b {
            continue;
        }
        let (off, len) = (a - starts[k], b - a);
        let Some(ptr) = *ptr else { continue };
        if k != me {
            store.count_direct(ctx, k, off, len, false);
        }
        // SAFETY: `ptr` addresses part `k`'s `starts[k + 1] - starts[k]` elements
        // (`Storage::direct`), of which `off..off + len` is in bounds; the input is only read
        // during the scan (the output is another array, borrowed mutably by the caller on every
        // locale), and the allgather above ordered its owner's earlier writes before this read.
        let seg = unsafe { std::slice::from_raw_parts(ptr.add(off), len) };
        *slot = fold_parallel(ctx, seg, op, identity);
    }
    let all = ctx.allgather(&mine)?;
    let mut base = identity;
    for k in 0..me.min(p - 1) {
        for piece in &all {
            base = op(base, piece[k]);
        }
    }
    Ok(Some(base))
}

/// The length of every locale's part of the Block distribution `dist` (0 off its grid).
pub(crate) fn part_lens<M: Distribution<1>>(ctx: &Ctx, dist: &M) -> Result<Vec<usize>> {
    (0..ctx.num_locales()).map(|l| if dist.grid().contains(l) { dist.local_len(l) } else { Ok(0) }).collect()
}

/// The fold of `input` with `op` on this locale's task pools, chunks combined in order.
fn fold_parallel<T: Elem>(ctx: &Ctx, input: &[T], op: impl Fn(T, T) -> T + Sync + Copy, identity: T) -> T {
    let sz = chunk_len::<T>();
    let n = input.len().div_ceil(sz);
    let totals: Vec<OnceLock<T>> = (0..n).map(|_| OnceLock::new()).collect();
    ctx.forall(0..n, |c| {
        let part = &input[c * sz..((c + 1) * sz).min(input.len())];
        let _ = totals[c].set(part.iter().fold(identity, |a, &x| op(a, x)));
    });
    totals.iter().fold(identity, |a, t| op(a, t.get().copied().unwrap_or(identity)))
}

/// Elements of `T` per chunk.
pub(crate) fn chunk_len<T>() -> usize {
    (CHUNK_BYTES / size_of::<T>().max(1)).max(1)
}

/// Waits until `slot` is set (by a running task) and returns its value.
fn wait_for<T: Copy>(slot: &OnceLock<T>) -> T {
    let mut spins = 0u32;
    loop {
        if let Some(v) = slot.get() {
            return *v;
        }
        spins += 1;
        if spins < 1 << 10 {
            std::hint::spin_loop();
        } else {
            std::thread::yield_now();
        }
    }
}

/// Pass 2: the chunks of `input` scanned into `out` from `base`, with a chained look-back.
fn scan_chunks<T: Elem>(
    ctx: &Ctx,
    input: &[T],
    out: &mut [T],
    base: T,
    op: impl Fn(T, T) -> T + Sync + Copy,
    identity: T,
    inclusive: bool,
) {
    let sz = chunk_len::<T>();
    let stream = worth_it::<T>(out.len());
    let n = out.len().div_ceil(sz);
    if n == 0 {
        return;
    }
    let workers = ctx.here().num_threads().clamp(1, n);
    if workers == 1 {
        straight(ctx, input, out, base, op, identity, stream, inclusive);
        return;
    }
    let outs: Vec<Mutex<&mut [T]>> = out.chunks_mut(sz).map(Mutex::new).collect();
    let incl: Vec<OnceLock<T>> = (0..n).map(|_| OnceLock::new()).collect();
    let next = AtomicUsize::new(0);
    ctx.forall_chunks_with(0..workers, 1, |_| loop {
        let c = next.fetch_add(1, Ordering::Relaxed);
        if c >= n {
            break;
        }
        let inp = &input[c * sz..((c + 1) * sz).min(input.len())];
        let agg = inp.iter().fold(identity, |a, &x| op(a, x));
        let excl = if c == 0 { base } else { wait_for(&incl[c - 1]) };
        let _ = incl[c].set(op(excl, agg));
        let mut o = lock(&outs[c]);
        if inclusive {
            write_chunk(&mut o, stream, scanner(inp, excl, op, true));
        } else {
            write_chunk(&mut o, stream, scanner(inp, excl, op, false));
        }
    });
}

/// Pass 2 on a locale with one worker, whose base is already known: one straight pass on the
/// locale's pool, each value computed as the input streams in from memory and written out. The
/// look-back's fold of each chunk first would leave memory idle while the chunk is re-read
/// from the cache and scanned (a scan is one dependent combination per element). The values are
/// combined exactly as the chunked pass combines them (each chunk scanned from the combination
/// of its predecessors' folds, each fold from `identity`: a second, independent chain per
/// element), so floating-point results do not depend on the number of workers.
#[allow(clippy::too_many_arguments)]
fn straight<T: Elem>(
    ctx: &Ctx,
    input: &[T],
    out: &mut [T],
    base: T,
    op: impl Fn(T, T) -> T + Sync + Copy,
    identity: T,
    stream: bool,
    inclusive: bool,
) {
    let sz = chunk_len::<T>();
    let out = Mutex::new(out);
    ctx.forall_chunks_with(0..1, 1, |_| {
        let mut o = lock(&out);
        let mut excl = base;
        for (inp, o) in input.chunks(sz).zip(o.chunks_mut(sz)) {
            let mut total = identity;
            if inclusive {
                write_chunk(o, stream, folding_scanner(inp, excl, identity, op, true, &mut total));
            } else {
                write_chunk(o, stream, folding_scanner(inp, excl, identity, op, false, &mut total));
            }
            excl = op(excl, total);
        }
    });
}

/// [`scanner`] that also folds the chunk from `identity` (as the chunked pass's first fold
/// does, in the same order) and leaves that fold in `total` at the last element. Both running
/// values are owned by the closure, so they stay in registers.
#[inline(always)]
fn folding_scanner<'a, T: Copy>(
    inp: &'a [T],
    mut acc: T,
    mut fold: T,
    op: impl Fn(T, T) -> T + Copy + 'a,
    inclusive: bool,
    total: &'a mut T,
) -> impl FnMut(usize) -> T + 'a {
    let last = inp.len().wrapping_sub(1);
    move |j| {
        let x = inp[j];
        let prev = acc;
        acc = op(acc, x);
        fold = op(fold, x);
        if j == last {
            *total = fold;
        }
        if inclusive {
            acc
        } else {
            prev
        }
    }
}

/// The scan of `inp` from `acc` as a function of the output index, called in index order. The
/// running value is owned by the closure (not borrowed from the caller's frame), so it stays in a
/// register: a borrowed one was stored and reloaded on every element, a store-to-load chain of
/// ~5 cycles that halved the scan's speed. Call it with a literal `inclusive`, so the test folds away.
#[inline(always)]
pub(crate) fn scanner<'a, T: Copy>(
    inp: &'a [T],
    mut acc: T,
    op: impl Fn(T, T) -> T + Copy + 'a,
    inclusive: bool,
) -> impl FnMut(usize) -> T + 'a {
    move |j| {
        let prev = acc;
        acc = op(acc, inp[j]);
        if inclusive {
            acc
        } else {
            prev
        }
    }
}

/// `o[j] = f(j)` in order, with streaming stores when `stream`.
#[inline(always)]
pub(crate) fn write_chunk<T: Copy + 'static>(o: &mut [T], stream: bool, mut f: impl FnMut(usize) -> T) {
    if stream {
        write_streaming(o, f);
    } else {
        for (j, x) in o.iter_mut().enumerate() {
            *x = f(j);
        }
    }
}
