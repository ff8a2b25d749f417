//! Gather and scatter by loads and stores in the owners' memory, when every locale's part of the
//! indexed array is directly addressable from this process ([`Ctx::direct_ptr`]: the local
//! backend; MPI node peers once the backend maps their memory). The aggregated transfer then
//! needs no buffers: a task reads (gather) or writes (scatter) each element where it lives, in
//! one loop whose independent cache misses overlap, as the one-core loop does.
//!
//! Each task works in batches of [`BATCH`] elements and two passes: the first computes every
//! element's address (owner and offset, a few dozen instructions each) and counts the elements
//! per owner; the second only loads (gather) or stores (scatter) through those addresses. The
//! second pass is the one-core loop's few instructions per element, so the processor keeps as
//! many cache misses in flight as the plain loop does; in a single pass the address arithmetic
//! filled its instruction window with ~8x fewer misses in flight (Atoll's gather took ~4x the
//! plain loop's time on one thread).
//!
//! Diagnostics ([`run_counted`]): the messages the transfer would have sent are counted, so
//! counts are the same whether or not memory is addressable: for an exchange, per round and
//! destination (`exchange.rs`); for aggregators, per task the active messages its aggregator
//! would have sent (`ceil(k / buffer)` per remote destination that `k` of its elements name,
//! with the records' bytes). Where any part is not addressable, `exchange.rs` or the dynamic
//! aggregators of `irregular/mod.rs` are used.

use super::exchange::{self, count_as_exchanged};
use super::{parts as task_parts, IndexElem, Locator};
use crate::elem::Elem;
use crate::storage::Storage;
use atoll_dist::Distribution;
use atoll_error::Result;
use atoll_runtime::Ctx;
use atoll_util::sync::{into_inner, lock};
use atoll_util::SyncPtr;
use std::ops::Range;
use std::sync::Mutex;

/// Element pointers of every locale's part of `store` (`dist`'s parts), or `None` when one is
/// not directly addressable. **One-sided**, no message.
pub(super) fn parts<T: Elem, M: Distribution<1>>(
    ctx: &Ctx,
    store: &Storage<T>,
    dist: &M,
) -> Result<Option<Vec<SyncPtr<T>>>> {
    let mut out = Vec::with_capacity(ctx.num_locales());
    for l in 0..ctx.num_locales() {
        let len = if dist.grid().contains(l) { dist.local_len(l)? } else { 0 };
        match store.direct(ctx, l, 0, len)? {
            Some(p) => out.push(SyncPtr(p)),
            None => return Ok(None),
        }
    }
    Ok(Some(out))
}

/// `ptrs` where every locale has its own (every locale takes the same path, and so enters the
/// same collectives), else `None` everywhere. A locale may reach every part while another may
/// not: an empty part is addressable from its own locale only, and on MPI a peer's part is
/// mapped only on its node. **Collective** (one allreduce).
pub(super) fn agreed<T>(ctx: &Ctx, ptrs: Option<Vec<SyncPtr<T>>>) -> Result<Option<Vec<SyncPtr<T>>>> {
    Ok(if ctx.allreduce(ptrs.is_some(), |a, b| a && b)? { ptrs } else { None })
}

/// The messages [`run_counted`] counts.
pub(super) enum Counting {
    /// An exchange's (`exchange.rs`), rounds of `round` positions, values of `S`.
    Exchanged { round: usize, op: exchange::Op },
    /// One aggregator's per task, buffers of `cap` elements, `bytes(m)` for a message of `m`
    /// elements and its reply (`DstAggregator::message_bytes`, `SrcAggregator::message_bytes`).
    Aggregated { cap: usize, bytes: fn(usize) -> usize },
}

/// Runs `work(positions, per_dest)` on the task pool for every task part of this locale's
/// `len` positions (of each round, for an exchange), `work` adding the elements it handled per
/// owner to `per_dest`; then counts the messages `counting` names for them (values of `S`).
pub(super) fn run_counted<S>(
    ctx: &Ctx,
    len: usize,
    tasks: usize,
    counting: Counting,
    work: impl Fn(Range<usize>, &mut [usize]) + Sync,
) {
    let (me, nl) = (ctx.id(), ctx.num_locales());
    let round = match counting {
        Counting::Exchanged { round, .. } => round,
        Counting::Aggregated { .. } => len.max(1),
    };
    let items: Vec<(usize, Range<usize>)> = (0..len.div_ceil(round))
        .flat_map(|r| {
            let rr = exchange::round_range(r, round, len);
            task_parts(rr.len(), tasks).into_iter().map(move |p| (r, rr.start + p.start..rr.start + p.end))
        })
        .collect();
    let per: Vec<Mutex<Vec<usize>>> = items.iter().map(|_| Mutex::new(Vec::new())).collect();
    ctx.forall_chunks_with(0..items.len(), 1, |ks| {
        for k in ks {
            let mut d = vec![0usize; nl];
            work(items[k].1.clone(), &mut d);
            d[me] = 0;
            *lock(&per[k]) = d;
        }
    });
    let per: Vec<Vec<usize>> = per.into_iter().map(into_inner).collect();
    match counting {
        Counting::Aggregated { cap, bytes } => {
            for ((_, r), d) in items.iter().zip(&per) {
                count_as_aggregated(ctx, d, cap.min(r.len().max(1)), bytes);
            }
        }
        Counting::Exchanged { op, .. } => {
            let mut round_sum = vec![0usize; nl];
            for (k, ((r, _), d)) in items.iter().zip(&per).enumerate() {
                round_sum.iter_mut().zip(d).for_each(|(a, b)| *a += b);
                if items.get(k + 1).is_none_or(|(next, _)| next != r) {
                    count_as_exchanged::<S>(ctx, &round_sum, op);
                    round_sum.fill(0);
                }
            }
        }
    }
}

/// Counts, for one task, the messages its aggregator would have sent: `per_dest[t]` elements
/// named on locale `t`, buffers of `cap` elements, `bytes(m)` counted for a message of `m`
/// elements and its reply.
fn count_as_aggregated(ctx: &Ctx, per_dest: &[usize], cap: usize, bytes: fn(usize) -> usize) {
    for (t, &k) in per_dest.iter().enumerate() {
        let mut left = k;
        while left > 0 {
            let m = left.min(cap);
            ctx.count_direct_am(t, bytes(m));
            left -= m;
        }
    }
}

/// Elements per batch of the two-pass loops: the addresses of a batch (8 KiB) stay in L1.
const BATCH: usize = 1024;

/// Elements ahead of the current one whose address pass 2 prefetches (a hint: the slots past
/// a short last batch hold addresses of the previous one, or null, harmless to prefetch).
const AHEAD: usize = 16;

/// Pass 1 of a batch: the address of every element that `ids` names (in `ptrs[owner]`, the
/// element pointers of [`parts`]), counted per owner in `per_dest`.
#[inline(always)]
fn addresses<T, I: IndexElem, M: Distribution<1>>(
    loc: &Locator<'_, M>,
    ptrs: &[SyncPtr<T>],
    ids: &[I],
    per_dest: &mut [usize],
    out: &mut [*mut T; BATCH],
) {
    for (a, &i) in out.iter_mut().zip(ids) {
        let (owner, off) = loc.locate(i.to_index().unwrap_or_default());
        per_dest[owner] += 1;
        // In bounds of `owner`'s part when `i` is an index of the domain (checked by the
        // caller); `wrapping_add` keeps this line safe either way, only the load dereferences.
        *a = ptrs[owner].0.wrapping_add(off);
    }
}

/// One task's gather: `slots[k] = self[ids[k]]`, read in place from `ptrs` (every locale's
/// part, [`parts`]); the elements per owner added to `per_dest`.
///
/// # Safety
/// Every index of `ids` is an index of the domain of the distribution of `loc` (checked), and
/// `ptrs[t]` addresses locale `t`'s whole part of an array of `T` that nobody writes during the
/// call (the PGAS contract, as for a get).
pub(super) unsafe fn gather_part<T: Elem, I: IndexElem, M: Distribution<1>>(
    loc: &Locator<'_, M>,
    ptrs: &[SyncPtr<T>],
    ids: &[I],
    slots: &mut [T],
    per_dest: &mut [usize],
) {
    let mut addr = [std::ptr::null_mut::<T>(); BATCH];
    for (ids, slots) in ids.chunks(BATCH).zip(slots.chunks_mut(BATCH)) {
        addresses(loc, ptrs, ids, per_dest, &mut addr);
        for (k, (slot, &a)) in slots.iter_mut().zip(&addr).enumerate() {
            atoll_util::prefetch::read(addr[(k + AHEAD) % BATCH]);
            // SAFETY: `a` is the element of a checked index in its owner's part (`addresses`,
            // the caller's contract), not written during the call.
            *slot = unsafe { a.read() };
        }
    }
}

/// One task's scatter: `self[ids[k]] = vals[k]`, written in place through `ptrs`; the elements
/// per owner added to `per_dest`. Within a task the writes keep their order.
///
/// # Safety
/// As [`gather_part`], except that the elements are written: other tasks and locales may write
/// the same element (duplicate indices), an unspecified last writer (the PGAS contract of
/// storage/mod.rs, as with puts), and nobody reads `self` during the call.
pub(super) unsafe fn scatter_part<T: Elem, I: IndexElem, M: Distribution<1>>(
    loc: &Locator<'_, M>,
    ptrs: &[SyncPtr<T>],
    ids: &[I],
    vals: &[T],
    per_dest: &mut [usize],
) {
    let mut addr = [std::ptr::null_mut::<T>(); BATCH];
    for (ids, vals) in ids.chunks(BATCH).zip(vals.chunks(BATCH)) {
        addresses(loc, ptrs, ids, per_dest, &mut addr);
        for (k, (&a, &x)) in addr.iter().zip(vals).enumerate() {
            atoll_util::prefetch::write(addr[(k + AHEAD) % BATCH]);
            // SAFETY: `a` is the element of a checked index in its owner's part (`addresses`,
            // the caller's contract).
            unsafe { a.write(x) };
        }
    }
}
