//! The aligned scan (Arkouda's `cumsum` of a Block array into a Block array over the same
//! indices) in a single pass over memory across locales, where every locale's parts are
//! directly addressable (the local backend; MPI ranks of one node).
//!
//! `scan/one_pass.rs` first folds the parts before the last to find each locale's base, then
//! scans: 20 bytes of memory traffic per 8-byte element on 2 locales. A single pass needs
//! every worker on the same stretch of the array at the same time, since a part's prefixes
//! depend on everything before it. So the array is cut into cache-sized chunks in global order
//! (no chunk straddles two parts) and chunk `g` is dealt to locale `g % p`, whose tasks take
//! their chunks in increasing order. A task folds its chunk's input (bringing it into the
//! cache), waits for chunk `g - 1`'s inclusive prefix, publishes its own (a word and a flag
//! in the publishing locale's symmetric slot table), then re-reads the chunk from the cache to
//! write the output, with streaming stores for large outputs, into whichever locale's part it
//! lies in (counted as the get and put it replaces). 16 bytes per element, and each wait is the
//! time to fold one chunk. The values combine in chunk order (`incl[g] = incl[g - 1] op
//! fold(chunk g)`), which depends on the part boundaries only, not on the schedule.
//!
//! Each core thus alternates a read phase (the fold) and a write phase (the rescan, bound by
//! the combination's latency more than by the stores). Overlapping them was measured and lost
//! every time (docs/BENCHMARKS.md, "Tried and not kept"): the next chunk folded during this
//! one's write (per element, or in 1 KiB vector bursts), software prefetches of the next chunk,
//! two half-chunks scanned in lockstep, other chunk sizes. The two locales' copy of the same
//! bytes (`atoll-bench arkouda`'s `copy` line) is the ceiling to compare with.
//!
//! A panic of `op` in one task publishes its chunk as failed; tasks waiting on a failed
//! predecessor pass the failure on instead of waiting forever, and the panic resumes on its
//! locale once its tasks are done.

use crate::elem::Elem;
use crate::scan::one_pass::{chunk_len, part_lens, scanner, write_chunk};
use crate::storage::stream_store::worth_it;
use crate::storage::Storage;
use atoll_dist::Distribution;
use atoll_error::Result;
use atoll_runtime::Ctx;
use atoll_util::sync::{into_inner, lock};
use atoll_util::SyncPtr;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;

/// Elements below which the two-pass form is used (its extra collective costs less there).
const MIN_LEN: usize = 1 << 20;

/// Slot flags: not yet published (0, the allocation's zeros), published, failed.
const READY: u64 = 1;
const FAILED: u64 = 2;

/// One chunk: its part, offset in the part, and length.
#[derive(Clone, Copy)]
struct Chunk {
    part: usize,
    off: usize,
    len: usize,
}

/// Scans `input` (distributed by `dist`, Block over all locales in order) into `output` (the
/// same layout) in one pass, when the array is large and every part of both is directly
/// addressable from every locale; `false` (on every locale alike, nothing written) otherwise.
/// **Collective** (two allgathers, a symmetric allocation and its free).
pub(crate) fn scan<T: Elem, M: Distribution<1>>(
    ctx: &Ctx,
    input: &Storage<T>,
    dist: &M,
    output: &Storage<T>,
    op: impl Fn(T, T) -> T + Sync + Copy,
    identity: T,
    inclusive: bool,
) -> Result<bool> {
    const { assert!(size_of::<T>() <= 8 && align_of::<T>() <= 8) };
    let p = ctx.num_locales();
    let lens = part_lens(ctx, dist)?;
    if p < 2 || lens.iter().sum::<usize>() < MIN_LEN {
        return Ok(false);
    }
    let mut ins = Vec::with_capacity(p);
    let mut outs = Vec::with_capacity(p);
    for (k, &len) in lens.iter().enumerate() {
        ins.push(input.direct(ctx, k, 0, len)?.map(SyncPtr));
        outs.push(output.direct(ctx, k, 0, len)?.map(SyncPtr));
    }
    let direct = ins.iter().chain(&outs).zip(lens.iter().chain(&lens)).all(|(d, &len)| d.is_some() || len == 0);
    // Agreement, and the entry synchronization: every locale's earlier writes to its parts are
    // done before anyone reads or writes them in place.
    if !ctx.allgather(&direct)?.into_iter().all(|d| d) {
        return Ok(false);
    }
    let sz = chunk_len::<T>();
    let chunks: Vec<Chunk> = lens
        .iter()
        .enumerate()
        .flat_map(|(part, &len)| {
            (0..len.div_ceil(sz)).map(move |c| Chunk { part, off: c * sz, len: sz.min(len - c * sz) })
        })
        .collect();
    let n = chunks.len();
    // Slot `g` (two words: flag, value) lives on chunk `g`'s locale, `g % p`.
    let slots = ctx.alloc_symmetric_lazy_for::<u64>("View::scan (chunk prefixes)", 2 * n)?;
    let mut slot_ptrs = Vec::with_capacity(p);
    for l in 0..p {
        slot_ptrs.push(ctx.direct_ptr(slots.ptr(l), 2 * n)?.map(SyncPtr));
    }
    // The slot tables are small allocations that may live where a node peer cannot map them
    // (a refused shared segment): then every locale falls back to the two-pass form.
    let mapped = slot_ptrs.iter().all(Option::is_some);
    if !ctx.allgather(&mapped)?.into_iter().all(|m| m) {
        slots.free()?;
        return Ok(false);
    }
    let slot = |g: usize| slot_ptrs[g % p].map_or(std::ptr::null_mut(), |s| s.0.wrapping_add(2 * g));
    let panicked = run_chunks(ctx, &chunks, &ins, &outs, slot, input, output, op, identity, inclusive);
    let freed = ctx.barrier().and_then(|()| slots.free());
    if let Some(e) = panicked {
        std::panic::resume_unwind(e);
    }
    freed.map(|()| true)
}

/// The pass on this locale: its chunks (`g % p == id`) in increasing order on its tasks.
/// Returns a panic payload of `op`, if one panicked.
#[allow(clippy::too_many_arguments)]
fn run_chunks<T: Elem>(
    ctx: &Ctx,
    chunks: &[Chunk],
    ins: &[Option<SyncPtr<T>>],
    outs: &[Option<SyncPtr<T>>],
    slot: impl Fn(usize) -> *mut u64 + Sync,
    input: &Storage<T>,
    output: &Storage<T>,
    op: impl Fn(T, T) -> T + Sync + Copy,
    identity: T,
    inclusive: bool,
) -> Option<Box<dyn std::any::Any + Send>> {
    let (p, me) = (ctx.num_locales(), ctx.id());
    let mine: Vec<usize> = (me..chunks.len()).step_by(p).collect();
    if mine.is_empty() {
        return None;
    }
    let stream = worth_it::<T>(chunks.iter().map(|c| c.len).sum::<usize>() / p);
    let next = AtomicUsize::new(0);
    let panic = Mutex::new(None);
    let workers = ctx.here().num_threads().clamp(1, mine.len());
    ctx.forall_chunks_with(0..workers, 1, |_| loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        let Some(&g) = mine.get(i) else { break };
        let c = chunks[g];
        let (Some(ip), Some(op_)) = (ins[c.part], outs[c.part]) else {
            // Not reached: `scan` checked every non-empty part's pointers.
            fail(slot(g));
            continue;
        };
        // SAFETY: `ip`/`op_` address part `c.part`'s elements (`Storage::direct`, checked for
        // the part's whole length), of which chunk `c` is in bounds; the input is only read
        // during the scan, and chunk `g` of the output is written by this task only (each
        // chunk is dealt once); the allgather before the pass ordered earlier writes.
        let (inp, out) = unsafe {
            (
                std::slice::from_raw_parts(ip.0.add(c.off), c.len),
                std::slice::from_raw_parts_mut(op_.0.add(c.off), c.len),
            )
        };
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let agg = inp.iter().fold(identity, |a, &x| op(a, x));
            let excl = if g == 0 { Some(identity) } else { wait(slot(g - 1)) };
            let Some(excl) = excl else { return false };
            publish(slot(g), op(excl, agg));
            if inclusive {
                write_chunk(out, stream, scanner(inp, excl, op, true));
            } else {
                write_chunk(out, stream, scanner(inp, excl, op, false));
            }
            true
        }));
        match r {
            Ok(true) => {}
            Ok(false) => fail(slot(g)),
            Err(e) => {
                fail(slot(g));
                *lock(&panic) = Some(e);
            }
        }
        if c.part != me {
            input.count_direct(ctx, c.part, c.off, c.len, false);
            output.count_direct_put(ctx, c.part, c.off, c.len);
        }
    });
    into_inner(panic)
}

/// The flag word of a slot.
fn flag<'a>(slot: *mut u64) -> &'a AtomicU64 {
    // SAFETY: `slot` is the first word of a slot in a symmetric `u64` table (8-byte aligned,
    // live until the collective free after the pass), accessed only atomically.
    unsafe { AtomicU64::from_ptr(slot) }
}

/// Publishes `v` as a slot's value.
fn publish<T: Copy>(slot: *mut u64, v: T) {
    // SAFETY: the slot's second word is 8 bytes, 8-byte aligned (`size_of::<T>() <= 8`,
    // checked in `scan`); only the publisher writes it, before the flag's release.
    unsafe { slot.add(1).cast::<T>().write_volatile(v) };
    flag(slot).store(READY, Ordering::Release);
}

/// Publishes a slot as failed.
fn fail(slot: *mut u64) {
    flag(slot).store(FAILED, Ordering::Release);
}

/// Waits for a slot (published by a running task of some locale): its value, or `None` if
/// its chunk failed.
fn wait<T: Copy>(slot: *mut u64) -> Option<T> {
    let f = flag(slot);
    let mut spins = 0u32;
    loop {
        match f.load(Ordering::Acquire) {
            // SAFETY: the flag's acquire saw the publisher's release after it wrote the value.
            READY => return Some(unsafe { slot.add(1).cast::<T>().read_volatile() }),
            FAILED => return None,
            _ => {}
        }
        spins += 1;
        if spins < 1 << 10 {
            std::hint::spin_loop();
        } else {
            std::thread::yield_now();
        }
    }
}
