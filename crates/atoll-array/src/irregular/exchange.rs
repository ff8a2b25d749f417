//! Gather and scatter as one exchange per destination and round ([`Transfer::Exchange`]),
//! where other locales' parts are not directly addressable (MPI ranks on other hosts, or with
//! node memory sharing off).
//!
//! A call first agrees, on every locale alike, on what it needs (**one allgather** of the
//! locales' index counts, **one allocation**): the number of rounds (a locale's indices are
//! taken in rounds of at most `round` consecutive positions, [`IrregularOptions::round`];
//! every locale takes part in as many rounds as the locale with the most) and one registered
//! buffer per locale, reused by every round: a landing area with room for the most a round can
//! bring it (every other locale's whole round) and a staging area for one round of its own.
//! Running out of memory is then the same [`Error::OutOfMemory`] everywhere, before anything is
//! read or written. One round:
//!
//! 1. each task counts, for its contiguous part of the round, the indices per owner;
//! 2. the locales exchange their totals per destination: **one allgather**; from it every
//!    locale knows where its records land on each destination (after those of lower locales)
//!    and how many it receives;
//! 3. each task packs its records into the staging area, per owner in one contiguous range
//!    (the tasks' cursors from step 1's counts): the local offset of each index (and, for
//!    scatter, its value), this locale's own elements included;
//! 4. **one put per destination** of the offsets (scatter: and one of the values); while
//!    they travel, this locale serves its own records in one loop (gather reads
//!    `values[k] = own[offsets[k]]`, scatter writes `own[offsets[k]] = values[k]`, each
//!    prefetching the target 16 records ahead); then a barrier;
//! 5. each owner serves what landed in the same loop; then (gather) a barrier, **one get per
//!    destination** of the values, and a pass that puts each value in its slot (the packing's
//!    walk again, each task's records in its cursors' order);
//! 6. a barrier before the next round lands; after the last, the buffer is freed
//!    (**collective**).
//!
//! Messages per round and destination named `k > 0` times: gather one put of `8 k` bytes and
//! one get of `k size_of::<T>()` bytes, scatter two puts (`8 k` and `k size_of::<T>()`).
//! Where memory is addressable ([`direct`](super::direct)), the loops load and store in place
//! and [`count_as_exchanged`] counts the same messages, so counts are the same on every
//! placement.
//!
//! Memory per locale: `8 + size_of::<T>()` bytes per record of the staging area (a round) and
//! of the landing area (a round of every other locale: the default round,
//! [`default_round`], keeps that near 2^22 records up to 64 locales).
//!
//! Against the dynamic aggregators, the exchange sends a few large transfers instead of one
//! message per buffer, but it reads the indices three times (count, pack, unpack) where an
//! aggregator reads them once, and its transfers overlap only the own records' loop where an
//! aggregator's messages overlap its packing; across two simulated hosts of one core each it
//! took longer than the aggregators in the same jobs (docs/cluster.md), so it is an option,
//! not the default. `ATOLL_SORT_PROFILE=1` prints its phases.
//!
//! [`Transfer::Exchange`]: super::Transfer::Exchange
//! [`IrregularOptions::round`]: super::IrregularOptions::round

use super::{parts, run_parts, to_store, IndexElem, Locator};
use crate::elem::Elem;
use crate::storage::Storage;
use atoll_dist::Distribution;
use atoll_error::{Error, Result};
use atoll_runtime::phase_profile::mark;
use atoll_runtime::{bytemuck, Ctx, GlobalPtr, Symmetric};
use atoll_util::sync::{into_inner, lock};
use atoll_util::{Disjoint, SyncPtr};
use std::ops::Range;
use std::sync::Mutex;

/// Records ahead of the current one whose target the owner's loop prefetches.
const AHEAD: usize = 16;

/// The default indices per locale and round: `2^22 / locales`, at least 2^16, so that the
/// records a locale may receive in one round stay near 2^22 up to 64 locales.
pub(super) fn default_round(locales: usize) -> usize {
    ((1usize << 22) / locales.max(1)).max(1 << 16)
}

/// Round `r` of a locale's `len` positions, rounds of `round`.
pub(super) fn round_range(r: usize, round: usize, len: usize) -> Range<usize> {
    (r * round).min(len)..((r + 1) * round).min(len)
}

/// Which operation's messages.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Op {
    Gather,
    Scatter,
}

/// Counts, for one round, the messages the exchange sends for `per_dest[t]` indices owned by
/// locale `t` (values of `S`), where the loops loaded and stored in place instead.
pub(super) fn count_as_exchanged<S>(ctx: &Ctx, per_dest: &[usize], op: Op) {
    for (t, &k) in per_dest.iter().enumerate().filter(|&(t, _)| t != ctx.id()) {
        ctx.count_direct_put(GlobalPtr::<u64>::new(t, 0), k);
        match op {
            Op::Gather => ctx.count_direct_get(GlobalPtr::<S>::new(t, 0), k),
            Op::Scatter => ctx.count_direct_put(GlobalPtr::<S>::new(t, 0), k),
        }
    }
}

/// What an exchange works on: this locale's part of the indexed array (`own`, `own_len`
/// elements), where every index goes (`loc`), the tasks and round, the operation's name for
/// the memory budget.
pub(super) struct Exchange<'a, T, M: Distribution<1>> {
    ctx: &'a Ctx,
    loc: &'a Locator<'a, M>,
    own: SyncPtr<T>,
    own_len: usize,
    tasks: usize,
    round: usize,
    operation: &'a str,
}

/// One round's counts and where every record goes.
struct Plan {
    me: usize,
    /// Per task of the round, its indices per owner.
    counts: Vec<Vec<usize>>,
    /// `all[s][t]`: the records locale `s` sends locale `t` (own elements are not sent).
    all: Vec<Vec<u64>>,
    /// Where each owner's records start in the staging buffer (this locale's own too);
    /// `start[locales]` is its length.
    start: Vec<usize>,
}

impl Plan {
    /// From this locale's counts, every locale's totals. **Collective** (one allgather).
    fn new(ctx: &Ctx, counts: Vec<Vec<usize>>) -> Result<Plan> {
        let (me, nl) = (ctx.id(), ctx.num_locales());
        let mut sent = vec![0u64; nl];
        for c in &counts {
            for (t, &k) in c.iter().enumerate().filter(|&(t, _)| t != me) {
                sent[t] += k as u64;
            }
        }
        let all: Vec<Vec<u64>> = ctx.allgather(&sent)?;
        // This locale's own elements are staged too (not sent): served by a tight loop.
        sent[me] = counts.iter().map(|c| c[me] as u64).sum();
        let mut start = vec![0usize; nl + 1];
        for t in 0..nl {
            start[t + 1] = start[t] + sent[t] as usize;
        }
        Ok(Plan { me, counts, all, start })
    }

    /// The records locale `t` receives.
    fn received(&self, t: usize) -> usize {
        self.all.iter().map(|s| s[t] as usize).sum()
    }

    /// Where locale `s`'s records start in locale `t`'s landing buffer.
    fn at(&self, s: usize, t: usize) -> usize {
        self.all[..s].iter().map(|x| x[t] as usize).sum()
    }

    /// Task `p`'s first staging position per destination.
    fn cursors(&self, p: usize) -> Vec<usize> {
        (0..self.start.len() - 1)
            .map(|d| self.start[d] + self.counts[..p].iter().map(|c| c[d]).sum::<usize>())
            .collect()
    }

    /// The destinations this locale sends records to, with their staging ranges.
    fn sends(&self) -> impl Iterator<Item = (usize, Range<usize>)> + '_ {
        (0..self.start.len() - 1)
            .filter(|&t| t != self.me && self.start[t + 1] > self.start[t])
            .map(|t| (t, self.start[t]..self.start[t + 1]))
    }
}

/// The buffers of a call, one registered allocation per locale (from the page pool when a
/// like-sized one was freed, so repeated calls touch no fresh page), reused by every round:
/// on each locale `t`, room for `caps[t]` landing records (offsets, then values of `S`), then
/// this locale's staging area for `stage` records (offsets, then values), which only it uses.
struct Buffers<S> {
    sym: Symmetric<u64>,
    here: usize,
    stage: usize,
    _s: std::marker::PhantomData<S>,
}

/// Where every locale's landing records are.
struct Remote<S> {
    bases: Vec<u64>,
    caps: Vec<usize>,
    _s: std::marker::PhantomData<S>,
}

impl<S> Remote<S> {
    /// Record `at` of locale `t`'s offsets.
    fn offsets(&self, t: usize, at: usize) -> GlobalPtr<u64> {
        GlobalPtr::new(t, self.bases[t] + 8 * at as u64)
    }

    /// Record `at` of locale `t`'s values.
    fn values(&self, t: usize, at: usize) -> GlobalPtr<S> {
        GlobalPtr::new(t, self.bases[t] + (8 * self.caps[t] + at * size_of::<S>()) as u64)
    }
}

/// One round's view of this locale's buffers: the first `n` landing offsets and values, the
/// first `m` staging offsets and values.
struct Parts<'b, S> {
    land_offs: &'b mut [u64],
    land_vals: &'b mut [S],
    offs: &'b mut [u64],
    vals: &'b mut [S],
}

/// Words of `n` values of `S`.
fn words<S>(n: usize) -> usize {
    (n * size_of::<S>()).div_ceil(8)
}

impl<S: atoll_runtime::Pod + Send + Sync> Buffers<S> {
    /// Room for `caps[ctx.id()]` landing and `stage` staging records here. **Collective.**
    fn new(ctx: &Ctx, operation: &str, caps: Vec<usize>, stage: usize) -> Result<(Self, Remote<S>)> {
        let here = caps[ctx.id()];
        let total = here + words::<S>(here) + stage + words::<S>(stage);
        let sym = ctx.alloc_symmetric_for_overwrite::<u64>(operation, total)?;
        let bases = (0..caps.len()).map(|t| sym.ptr(t).addr()).collect();
        let remote = Remote { bases, caps, _s: Default::default() };
        Ok((Buffers { sym, here, stage, _s: Default::default() }, remote))
    }

    /// This round's parts: `n` landed, `m` staged records.
    fn parts(&mut self, n: usize, m: usize) -> Parts<'_, S> {
        let (here, stage) = (self.here, self.stage);
        let (land, rest) = self.sym.local_mut().split_at_mut(here + words::<S>(here));
        let (land_offs, land_vals) = land.split_at_mut(here);
        let (offs, vals) = rest.split_at_mut(stage);
        let land_vals: &mut [S] = bytemuck::cast_slice_mut(land_vals);
        let vals: &mut [S] = bytemuck::cast_slice_mut(vals);
        Parts {
            land_offs: &mut land_offs[..n],
            land_vals: &mut land_vals[..n],
            offs: &mut offs[..m],
            vals: &mut vals[..m],
        }
    }
}

/// One round as [`Exchange::each_round`] hands it out: its number, its positions of this
/// locale's indices and their parts per task, its plan, this locale's buffers, and where every
/// locale's landing area is.
struct Round<'b, 'p, S> {
    r: usize,
    range: Range<usize>,
    ranges: Vec<Range<usize>>,
    plan: &'p Plan,
    parts: Parts<'b, S>,
    remote: &'p Remote<S>,
}

/// `s` split at the destinations' staging ranges (empty ones included), mutably.
fn split_by<'s, X>(mut s: &'s mut [X], start: &[usize]) -> Vec<&'s mut [X]> {
    let mut out = Vec::with_capacity(start.len());
    for w in start.windows(2) {
        let (a, b) = std::mem::take(&mut s).split_at_mut(w[1] - w[0]);
        out.push(a);
        s = b;
    }
    out
}

/// Runs `work(p)` for every task `p` on the locale's task pool.
fn for_tasks(ctx: &Ctx, tasks: usize, work: impl Fn(usize) + Sync) {
    ctx.forall_chunks_with(0..tasks, 1, |r| r.for_each(&work));
}

/// The first error of any locale, on every locale. **Collective.**
fn agree(ctx: &Ctx, failure: Option<Error>) -> Result<()> {
    ctx.agree(failure.map_or(Ok(()), Err))
}

/// An offset received from another locale, checked against this locale's part.
#[inline(always)]
fn checked(off: u64, len: usize, operation: &str) -> Result<usize> {
    if (off as usize) < len {
        Ok(off as usize)
    } else {
        Err(Error::InvalidArgument(format!(
            "{operation}: a received offset {off} is outside this locale's {len} elements"
        )))
    }
}

impl<'a, T: Elem, M: Distribution<1>> Exchange<'a, T, M> {
    /// The exchange of an array stored in `store`, distributed by `dist` (what `loc` locates).
    /// **Collective** (the locales agree that their parts are in reach, as they always are).
    pub(super) fn new(
        ctx: &'a Ctx,
        loc: &'a Locator<'a, M>,
        store: &Storage<T>,
        dist: &M,
        tasks: usize,
        round: usize,
        operation: &'a str,
    ) -> Result<Self> {
        let me = ctx.id();
        let own_len = if dist.grid().contains(me) { dist.local_len(me)? } else { 0 };
        let own = store.direct(ctx, me, 0, own_len).and_then(|p| {
            p.ok_or_else(|| {
                Error::InvalidArgument(format!("{operation}: this locale's part of the array is not addressable"))
            })
        });
        let own = ctx.agree(own)?;
        Ok(Exchange { ctx, loc, own: SyncPtr(own), own_len, tasks, round, operation })
    }

    /// What every round needs, agreed before anything is read or written: the number of
    /// rounds (the same on every locale) and the buffers: a staging area for the largest
    /// round of this locale, and room on each locale for the most it can receive in a round
    /// (every other locale's whole round). **Collective** (one allgather, one allocation).
    fn setup<S: atoll_runtime::Pod + Send + Sync>(&self, len: usize) -> Result<(usize, Buffers<S>, Remote<S>)> {
        let ctx = self.ctx;
        let lens: Vec<usize> = ctx.allgather(&len)?;
        let rounds = lens.iter().map(|l| l.div_ceil(self.round)).max().unwrap_or(0);
        let caps: Vec<usize> = (0..lens.len())
            .map(|t| lens.iter().enumerate().filter(|&(s, _)| s != t).map(|(_, l)| (*l).min(self.round)).sum())
            .collect();
        let (bufs, remote) = Buffers::new(ctx, self.operation, caps, len.min(self.round))?;
        Ok((rounds, bufs, remote))
    }

    /// Step 1 of a round: the counts per task and owner of `ids`.
    fn count<I: IndexElem>(&self, ids: &[I]) -> Vec<Vec<usize>> {
        let nl = self.ctx.num_locales();
        let ranges = parts(ids.len(), self.tasks);
        let counts: Vec<Mutex<Vec<usize>>> = (0..self.tasks).map(|_| Mutex::new(Vec::new())).collect();
        self.ctx.forall_chunks_with(0..self.tasks, 1, |r| {
            for p in r {
                let mut c = vec![0usize; nl];
                for &i in &ids[ranges[p].clone()] {
                    c[self.loc.locate(i.to_index().unwrap_or_default()).0] += 1;
                }
                *lock(&counts[p]) = c;
            }
        });
        counts.into_iter().map(into_inner).collect()
    }

    /// Runs `body` for every round of this locale's `indices` (steps 1 and 2 done: the plan,
    /// this locale's buffers for the round), with a barrier between rounds; the first local
    /// failure a round returns is agreed on at the end. `what` names the phase profile's
    /// line. **Collective.**
    fn each_round<I: IndexElem>(
        &self,
        what: &str,
        indices: &[I],
        mut body: impl FnMut(Round<'_, '_, T::Store>) -> Result<Option<Error>>,
    ) -> Result<()> {
        let (ctx, me, len) = (self.ctx, self.ctx.id(), indices.len());
        atoll_runtime::phase_profile::start();
        let (rounds, mut bufs, remote) = self.setup::<T::Store>(len)?;
        mark(|| "setup".into());
        let mut failure: Option<Error> = None;
        for r in 0..rounds {
            let range = round_range(r, self.round, len);
            let counts = self.count(&indices[range.clone()]);
            mark(|| format!("r{r}_count"));
            let plan = Plan::new(ctx, counts)?;
            mark(|| format!("r{r}_plan"));
            let ranges = parts(range.len(), self.tasks);
            let parts = bufs.parts(plan.received(me), plan.start[ctx.num_locales()]);
            let failed = body(Round { r, range, ranges, plan: &plan, parts, remote: &remote })?;
            failure = failure.or(failed);
            // Every locale is done with this round before the next one lands.
            if r + 1 < rounds {
                ctx.barrier()?;
            }
        }
        let agreed = agree(ctx, failure);
        bufs.sym.free()?;
        mark(|| "free".into());
        atoll_runtime::phase_profile::report(what, me);
        agreed
    }

    /// Step 3: each task packs the local offset of each of its indices (and, given `vals`, its
    /// value) at its cursors, per owner.
    fn pack<I: IndexElem>(
        &self,
        plan: &Plan,
        ids: &[I],
        ranges: &[Range<usize>],
        staged: &mut [u64],
        vals: Option<(&[T], &mut [T::Store])>,
    ) {
        let stage = SyncPtr(staged.as_mut_ptr());
        let (vals, stage_vals) = match vals {
            Some((v, s)) => (v, SyncPtr(s.as_mut_ptr())),
            None => (&[][..], SyncPtr(std::ptr::null_mut())),
        };
        for_tasks(self.ctx, self.tasks, |p| {
            let mut cur = plan.cursors(p);
            let r = ranges[p].clone();
            for (k, &i) in r.clone().zip(&ids[r]) {
                let (o, off) = self.loc.locate(i.to_index().unwrap_or_default());
                // SAFETY: task `p`'s records for `o` fill `cursors(p)[o]..` up to its count for
                // `o` (step 1's), disjoint from every other task's and owner's, inside `staged`
                // and the values' staging area (`start` sums the counts; both have its length).
                unsafe {
                    stage.get().add(cur[o]).write(off as u64);
                    if let Some(&x) = vals.get(k) {
                        stage_vals.get().add(cur[o]).write(to_store(x));
                    }
                }
                cur[o] += 1;
            }
        });
    }

    /// Gather: `slots[k] = self[indices[k]]` for this locale's indices. **Collective.**
    ///
    /// # Errors
    /// On every locale alike: [`Error::OutOfMemory`] before anything is read (the staging and
    /// landing buffers); communication errors.
    pub(super) fn gather<I: IndexElem>(&self, indices: &[I], slots: &mut [T::Store]) -> Result<()> {
        let (ctx, me) = (self.ctx, self.ctx.id());
        self.each_round("gather", indices, |x| {
            let Round { r, range, ranges, plan, parts, remote } = x;
            let Parts { land_offs, land_vals, offs: staged, vals: back } = parts;
            let (ids, slots) = (&indices[range.clone()], &mut slots[range]);
            self.pack(plan, ids, &ranges, staged, None);
            mark(|| format!("r{r}_pack"));
            // 4. One put of offsets per destination; this locale's own elements are read
            // while they travel.
            let own = plan.start[me]..plan.start[me + 1];
            let put = ctx.nonblocking(|nb| {
                for (t, r) in plan.sends() {
                    nb.put(remote.offsets(t, plan.at(me, t)), &staged[r])?;
                }
                self.read_own(&staged[own.clone()], &mut back[own.clone()])
            });
            mark(|| format!("r{r}_put"));
            ctx.barrier()?;
            mark(|| format!("r{r}_barrier"));
            // 5. Serve what landed; once every owner has, get the values back.
            let served = self.read_own(land_offs, land_vals);
            mark(|| format!("r{r}_serve"));
            ctx.barrier()?;
            mark(|| format!("r{r}_barrier2"));
            let mut dest = split_by(&mut *back, &plan.start);
            let got = ctx.nonblocking(|nb| {
                for (t, _) in plan.sends() {
                    nb.get(remote.values(t, plan.at(me, t)), std::mem::take(&mut dest[t]))?;
                }
                Ok(())
            });
            drop(dest);
            mark(|| format!("r{r}_get"));
            // The packing's walk again: each task's values in its cursors' order.
            let back = &*back;
            let out = Disjoint::new(&mut *slots);
            for_tasks(ctx, self.tasks, |p| {
                let mut cur = plan.cursors(p);
                // SAFETY: `for_tasks` runs task `p` once, and the parts' ranges are disjoint.
                let out = unsafe { out.chunk(ranges[p].clone()) };
                for (slot, &i) in out.iter_mut().zip(&ids[ranges[p].clone()]) {
                    let o = self.loc.locate(i.to_index().unwrap_or_default()).0;
                    *slot = back[cur[o]];
                    cur[o] += 1;
                }
            });
            mark(|| format!("r{r}_unpack"));
            Ok(put.err().or(served.err()).or(got.err()))
        })
    }

    /// Scatter: `self[indices[k]] = vals[k]` for this locale's indices. **Collective.**
    ///
    /// # Errors
    /// As [`gather`](Self::gather), before anything is written.
    pub(super) fn scatter<I: IndexElem>(&self, indices: &[I], vals: &[T]) -> Result<()> {
        let (ctx, me) = (self.ctx, self.ctx.id());
        self.each_round("scatter", indices, |x| {
            let Round { r, range, ranges, plan, parts, remote } = x;
            let Parts { land_offs, land_vals, offs: staged, vals: staged_vals } = parts;
            self.pack(plan, &indices[range.clone()], &ranges, staged, Some((&vals[range], &mut *staged_vals)));
            mark(|| format!("r{r}_pack"));
            // 4. Two puts per destination (offsets, values); this locale's own elements are
            // written while they travel.
            let put = ctx.nonblocking(|nb| {
                for (t, r) in plan.sends() {
                    let at = plan.at(me, t);
                    nb.put(remote.offsets(t, at), &staged[r.clone()])?;
                    nb.put(remote.values(t, at), &staged_vals[r])?;
                }
                let own = plan.start[me]..plan.start[me + 1];
                self.write_own(&staged[own.clone()], &staged_vals[own])
            });
            mark(|| format!("r{r}_put"));
            ctx.barrier()?;
            mark(|| format!("r{r}_barrier"));
            // 5. Write what landed.
            let applied = put.and_then(|()| self.write_own(land_offs, land_vals));
            mark(|| format!("r{r}_serve"));
            Ok(applied.err())
        })
    }

    /// `vals[k] = own[offs[k]]` over the tasks (the owner's loop of a gather).
    fn read_own(&self, offs: &[u64], vals: &mut [T::Store]) -> Result<()> {
        let ranges = parts(offs.len(), self.tasks);
        let vals = Disjoint::new(vals);
        let own = self.own;
        let failure = run_parts(self.ctx, self.tasks, |p| {
            let r = ranges[p].clone();
            // SAFETY: `run_parts` runs part `p` once, and the parts' ranges are disjoint.
            let out = unsafe { vals.chunk(r.clone()) };
            for (k, slot) in r.zip(out) {
                if let Some(&a) = offs.get(k + AHEAD) {
                    atoll_util::prefetch::read(own.get().wrapping_add(a as usize));
                }
                let off = checked(offs[k], self.own_len, self.operation)?;
                // SAFETY: `off` is below `own_len` (checked), in this locale's part, which
                // nobody writes during the call.
                *slot = to_store(unsafe { own.get().add(off).read() });
            }
            Ok(())
        });
        failure.map_or(Ok(()), Err)
    }

    /// `own[offs[k]] = vals[k]` over the tasks (the owner's loop of a scatter).
    fn write_own(&self, offs: &[u64], vals: &[T::Store]) -> Result<()> {
        let ranges = parts(offs.len(), self.tasks);
        let own = SyncPtr(self.own.0.cast::<T::Store>());
        let failure = run_parts(self.ctx, self.tasks, |p| {
            for k in ranges[p].clone() {
                if let Some(&a) = offs.get(k + AHEAD) {
                    atoll_util::prefetch::write(own.get().wrapping_add(a as usize));
                }
                let off = checked(offs[k], self.own_len, self.operation)?;
                // SAFETY: `off` is below `own_len` (checked), in this locale's part, whose `T`
                // has `T::Store`'s size and alignment; the value is the image of a `T`
                // (packed from the caller's values). Duplicates: an unspecified last writer.
                unsafe { own.get().add(off).write(vals[k]) };
            }
            Ok(())
        });
        failure.map_or(Ok(()), Err)
    }
}
