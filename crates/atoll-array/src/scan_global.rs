//! The one-pass scan of `scan_one_pass.rs` over the whole array at once, when every locale's
//! part of the input and of the output is directly addressable (the local backend; MPI ranks of
//! one node): one chained look-back across locales, so memory is read once and written once.
//!
//! The per-locale form needs each locale's base (the combination of every earlier part) before
//! it writes anything, which costs a fold of the parts before the last: half the array again on
//! 2 locales (2.5 passes of reads and writes instead of 2), a loss on a machine whose cores
//! together have ~1.4x one core's bandwidth. Here the global chunks (each part cut into
//! 128 KiB chunks, parts in locale order) are dealt round-robin to the locales: locale `l`
//! takes chunks `l, l + p, l + 2p, ...` in order (its tasks share one counter), folds the
//! chunk, waits for the inclusive prefix of the chunk before it (published by whichever locale
//! had it), publishes its own, and writes the output from the chunk in cache, where the chunk
//! lives (its owner's part, through [`Storage::direct`]).
//!
//! Prefixes are published in a small [`Symmetric`](atoll_runtime::Symmetric) allocation: the
//! chunk `g`'s slot is on locale `g % p` (written only by it), a flag and an 8-byte value, read
//! by the next chunk's locale through [`Ctx::direct_ptr`] (acquire/release). Combination order:
//! `incl(g) = op(incl(g - 1), fold(chunk g))`, a function of the array and locale count only.
//!
//! Deadlock-free: a task waits only for a lower chunk; a locale takes its chunks in increasing
//! order, so the lowest unpublished chunk is always held by a running task (or about to be
//! taken by a locale whose tasks only hold lower, published-or-publishing chunks).
//!
//! Diagnostics: a chunk of another locale's part counts as one get (its input) and one put (its
//! output), the transfers it replaces; the slots' flags are synchronization, not counted.

use crate::elem::Elem;
use crate::scan_one_pass::{chunk_len, scanner, write_chunk};
use crate::storage::Storage;
use crate::stream_store::worth_it;
use atoll_dist::Distribution;
use atoll_error::Result;
use atoll_runtime::Ctx;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// Elements from which the global form is used: below, its symmetric allocation and
/// synchronization cost more than the extra fold of the per-locale form.
const GLOBAL_MIN: usize = 1 << 20;

/// A chunk of the global order: its part (locale), offset and length there.
#[derive(Clone, Copy)]
struct Chunk {
    locale: usize,
    off: usize,
    len: usize,
}

/// A raw pointer that tasks of this locale share (every access is fenced by the chunk protocol).
#[derive(Clone, Copy)]
struct Ptr<T>(*mut T);
// SAFETY: the pointers address registered memory that outlives the scan (input, output and
// the slots), accessed by disjoint chunks or through atomics (see `scan_global`).
unsafe impl<T> Send for Ptr<T> {}
// SAFETY: as above.
unsafe impl<T> Sync for Ptr<T> {}

/// Scans `input` (distributed by `dist`, a Block layout) into `output` (the same layout) with
/// `op` in one chained look-back over every locale's chunks. `Ok(false)` (on every locale: they
/// agree by one allgather) when the array is small, there is one locale, or some part is not
/// directly addressable; then nothing was written and the caller scans per locale.
/// **Collective.**
#[allow(clippy::too_many_arguments)]
pub(crate) fn scan_global<T: Elem, M: Distribution<1>>(
    ctx: &Ctx,
    input: &Storage<T>,
    output: &Storage<T>,
    dist: &M,
    op: impl Fn(T, T) -> T + Sync + Copy,
    identity: T,
    inclusive: bool,
) -> Result<bool> {
    let p = ctx.num_locales();
    let mut lens = Vec::with_capacity(p);
    for l in 0..p {
        lens.push(if dist.grid().contains(l) { dist.local_len(l)? } else { 0 });
    }
    let total: usize = lens.iter().sum();
    if p < 2 || total < GLOBAL_MIN || size_of::<T>() > 8 {
        return Ok(false);
    }
    let (mut ins, mut outs) = (Vec::with_capacity(p), Vec::with_capacity(p));
    for (l, &len) in lens.iter().enumerate() {
        ins.push(input.direct(ctx, l, 0, len)?);
        outs.push(output.direct(ctx, l, 0, len)?);
    }
    let direct = ins.iter().chain(&outs).all(Option::is_some);
    // Agreement, and the entry synchronization: every locale's earlier writes to its input part
    // are done before anyone reads it in place, and nobody reads the output until the barrier
    // of the caller.
    if !ctx.allgather(&direct)?.into_iter().all(|d| d) {
        return Ok(false);
    }
    let ins: Vec<Ptr<T>> = ins.into_iter().map(|x| Ptr(x.unwrap_or(std::ptr::null_mut()))).collect();
    let outs: Vec<Ptr<T>> = outs.into_iter().map(|x| Ptr(x.unwrap_or(std::ptr::null_mut()))).collect();
    let sz = chunk_len::<T>();
    let chunks: Vec<Chunk> =
        lens.iter().enumerate().flat_map(|(l, &len)| (0..len.div_ceil(sz)).map(move |k| Chunk { locale: l, off: k * sz, len: sz.min(len - k * sz) })).collect();
    let g_all = chunks.len();
    let me = ctx.id();
    // Slot `g / p` of locale `g % p`: [flag, value] (16 bytes, both in one cache line).
    let per = g_all.div_ceil(p);
    let mut slots = ctx.alloc_symmetric::<u64>(2 * per)?;
    slots.local_mut().fill(0);
    let mut slot_ptrs = Vec::with_capacity(p);
    for l in 0..p {
        slot_ptrs.push(Ptr(ctx.direct_ptr(slots.ptr(l), 2 * per)?.unwrap_or(std::ptr::null_mut())));
    }
    let ok = slot_ptrs.iter().all(|s| !s.0.is_null());
    // Every locale's slots are zeroed (and all reachable) before any is used.
    let ok = ctx.allgather(&ok)?.into_iter().all(|d| d);
    if ok {
        let stream = worth_it::<T>(lens[me]);
        let next = AtomicUsize::new(0);
        let mine = if me < g_all { (g_all - me).div_ceil(p) } else { 0 };
        let workers = ctx.here().num_threads().clamp(1, mine.max(1));
        ctx.forall_chunks_with(0..workers, 1, |_| loop {
            let k = next.fetch_add(1, Ordering::Relaxed);
            let g = k * p + me;
            if k >= mine || g >= g_all {
                break;
            }
            let c = chunks[g];
            // SAFETY: chunk `c` is `c.len` elements at `c.off` of part `c.locale` (in bounds: the
            // chunks cut the part), read-only during the scan (the input is another array than
            // the output, which the caller borrows mutably on every locale).
            let inp = unsafe { std::slice::from_raw_parts(ins[c.locale].0.add(c.off), c.len) };
            let agg = inp.iter().fold(identity, |a, &x| op(a, x));
            let excl = if g == 0 {
                identity
            } else {
                let (flag, val) = slot::<T>(&slot_ptrs, p, g - 1);
                wait_set(flag);
                // SAFETY: the flag was set (release) after the value was written (see below);
                // the acquire load orders this read after that write, and the slot holds a `T`.
                unsafe { val.read() }
            };
            let (flag, val) = slot::<T>(&slot_ptrs, p, g);
            // SAFETY: slot `g` is written only by this task (chunk `g` is taken once), before its
            // flag is released; readers wait for the flag.
            unsafe { val.write(op(excl, agg)) };
            flag.store(1, Ordering::Release);
            // SAFETY: chunk `c` of the output: disjoint from every other chunk, written only by
            // this task, read by nobody until the caller's closing barrier.
            let o = unsafe { std::slice::from_raw_parts_mut(outs[c.locale].0.add(c.off), c.len) };
            if inclusive {
                write_chunk(o, stream, scanner(inp, excl, op, true));
            } else {
                write_chunk(o, stream, scanner(inp, excl, op, false));
            }
            if c.locale != me {
                input.count_direct(ctx, c.locale, c.off, c.len, false);
                output.count_direct_put(ctx, c.locale, c.off, c.len);
            }
        });
    }
    // No locale reads the slots any more once all are past this barrier (inside `free`).
    slots.free()?;
    Ok(ok)
}

/// Chunk `g`'s slot: its flag and its value, slot `g / p` of locale `g % p`'s part.
fn slot<T>(slot_ptrs: &[Ptr<u64>], p: usize, g: usize) -> (&AtomicU64, *mut T) {
    let base = slot_ptrs[g % p].0.wrapping_add(2 * (g / p));
    // SAFETY: `base` is slot `g / p` (< `per`) of locale `g % p`'s `2 * per` registered `u64`s
    // (direct pointers checked by the caller), 8-byte aligned; the flag is only accessed
    // atomically while the scan runs, and the allocation outlives the returned reference (the
    // caller frees it after a barrier, once no task runs).
    (unsafe { AtomicU64::from_ptr(base) }, base.wrapping_add(1).cast::<T>())
}

/// Waits until `flag` is set (by a running task of some locale).
fn wait_set(flag: &AtomicU64) {
    let mut spins = 0u32;
    while flag.load(Ordering::Acquire) == 0 {
        spins += 1;
        if spins < 1 << 10 {
            std::hint::spin_loop();
        } else {
            std::thread::yield_now();
        }
    }
}
