//! The distributed LSD radix passes over records of `W` words (keys, then the global index).
//!
//! One pass sorts the records stably by one 16-bit digit of one key word, from and to the
//! Block layout of `0..n`:
//!
//! 1. each task of the locale counts the digits of its static chunk of the local records
//!    (a histogram per task, merged locally);
//! 2. the locales exchange their merged histograms: **one allgather per pass**, of one
//!    histogram per locale whatever the number of tasks;
//! 3. a record with digit `d` on locale `l` goes to global position `G(d, l) + rank`, where
//!    `G(d, l)` counts the records of smaller digits everywhere and those of digit `d` on
//!    locales before `l` (so equal digits keep their order: the pass is stable);
//! 4. each task scatters its records: those whose position is on this locale straight into
//!    the local part of the destination buffer, the others into a staging buffer in this
//!    locale's digit order. Global positions grow with this locale's digit order, so the
//!    records bound to each destination are one contiguous range of the staging buffer, and
//!    each range goes to its destination with **one put** per destination and pass, into the
//!    destination's landing buffer (at the offset every locale computes from the histograms:
//!    the records of lower locales first); after a barrier each locale moves what landed into
//!    place, by (source, digit) runs, all local copies. Where every locale's part is
//!    addressable from every locale ([`Ctx::direct_ptr`]: the local backend, MPI ranks of one
//!    host), every record is stored in place instead, with no staging or landing buffer and
//!    no copy; the diagnostics still count one put per destination with the same bytes
//!    ([`Ctx::count_direct_put`]), so every backend and placement reports the same messages.
//!    One put per (digit, destination) run, as before, cost ~130,000 puts of ~96 bytes per
//!    pass on 2^20 keys between two hosts (2.07 s against 0.10 s on one host);
//! 5. a barrier, after which the destination buffer is the next pass's source (with landing
//!    buffers, a second one after the records are moved into place).
//!
//! Digits that are the same for every key are skipped (one allreduce of the OR and AND of
//! every key word, before the first pass). The last pass writes only the word the caller
//! wants (the index for argsort, the key for sort).

use crate::layout::Layout;
use crate::raw::{scatter, scatter_wc, Cursors, Places, Registered, SplitRuns, SyncPtr, WriteCombine};
pub(crate) use crate::raw::{DIGITS, DIGIT_BITS};
use atoll_array::{DistArray, Elem};
use atoll_error::{Error, Result};
use atoll_runtime::{bytemuck, Ctx, GlobalPtr, Pod};
use atoll_util::sync::{into_inner, lock};
use std::ops::Range;
use std::sync::Mutex;

/// Bits per digit of small sorts, whose fixed cost per pass (tables of `2^bits` counters,
/// exchanged and scanned) would otherwise exceed their work.
pub(crate) const SMALL_DIGIT_BITS: u32 = 8;
/// Sorts with fewer keys per locale than this use [`SMALL_DIGIT_BITS`].
pub(crate) const SMALL_PER_LOCALE: usize = 1 << 17;

/// One pass: the digit `(r[word] >> shift) % 2^bits` of each record `r`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Pass {
    /// The key word.
    pub(crate) word: usize,
    /// The digit's lowest bit.
    pub(crate) shift: u32,
    /// The digit's width: [`DIGIT_BITS`] or [`SMALL_DIGIT_BITS`].
    pub(crate) bits: u32,
}

impl Pass {
    /// The number of distinct digits.
    fn digits(&self) -> usize {
        1 << self.bits
    }
}

/// The bits of each word of the records that differ between records, over all locales (the
/// XOR of the words' OR and AND). **Collective** (one allreduce).
pub(crate) fn varying_bits<const W: usize>(
    ctx: &Ctx,
    m: usize,
    src: &(impl Fn(usize) -> [u64; W] + Sync),
) -> Result<Vec<u64>> {
    let (or, and) = ctx.forall_reduce(
        0..m,
        ([0u64; W], [u64::MAX; W]),
        |(mut o, mut a), i| {
            let r = src(i);
            for c in 0..W {
                o[c] |= r[c];
                a[c] &= r[c];
            }
            (o, a)
        },
        |(o1, a1), (o2, a2)| (std::array::from_fn(|c| o1[c] | o2[c]), std::array::from_fn(|c| a1[c] & a2[c])),
    );
    let (or, and) = ctx.allreduce((or.to_vec(), and.to_vec()), |(o1, a1), (o2, a2)| {
        (o1.iter().zip(&o2).map(|(x, y)| x | y).collect(), a1.iter().zip(&a2).map(|(x, y)| x & y).collect())
    })?;
    Ok(or.iter().zip(&and).map(|(o, a)| o ^ a).collect())
}

/// The passes that sort `n` records by the key words `0..varying.len()` (word 0 most
/// significant), `varying[w]` being the bits of word `w` that differ between records: least
/// significant word and digit first, digits from the lowest varying bit of each word, skipping
/// the digits every record has in common. The same
/// on every locale (a function of values every locale has).
pub(crate) fn passes(ctx: &Ctx, n: usize, varying: &[u64]) -> Vec<Pass> {
    let mut passes = Vec::new();
    if n <= 1 {
        return passes;
    }
    let bits = if n / ctx.num_locales() >= SMALL_PER_LOCALE { DIGIT_BITS } else { SMALL_DIGIT_BITS };
    for (word, &v) in varying.iter().enumerate().rev() {
        if v == 0 {
            continue;
        }
        // Digits start at the lowest varying bit (so a narrow range of keys anywhere in the
        // word takes as few passes as its width needs).
        let (lo, hi) = (v.trailing_zeros(), 64 - v.leading_zeros());
        for shift in (lo..hi).step_by(bits as usize) {
            if (v >> shift) & ((1 << bits) - 1) != 0 {
                passes.push(Pass { word, shift, bits });
            }
        }
    }
    passes
}

/// Per-locale scratch of the passes: the tasks' chunks, histograms and cursors (one set per
/// task, none per remote locale).
struct Work<O> {
    parts: Vec<Range<usize>>,
    hists: Vec<Mutex<Box<[u32; DIGITS]>>>,
    cursors: Vec<Mutex<Cursors<O>>>,
    /// Write-combining lines (for 8-byte records and 16-bit digits), made on first use.
    combine: Vec<Mutex<Option<WriteCombine<O>>>>,
}

fn zero_hist() -> Box<[u32; DIGITS]> {
    let b: Box<[u32]> = vec![0u32; DIGITS].into_boxed_slice();
    b.try_into().unwrap_or_else(|_| unreachable!("a boxed slice of DIGITS counters"))
}

/// The tasks' static chunks of `m` local records: one per task, fewer for small parts (each
/// costs a histogram and cursors), short enough for 32-bit counters.
pub(crate) fn task_parts(ctx: &Ctx, m: usize) -> Vec<Range<usize>> {
    let tasks = ctx.here().num_threads().max(1);
    let p = (m / DIGITS).clamp(1, tasks).max(m.div_ceil(1 << 31));
    (0..p).map(|k| m * k / p..m * (k + 1) / p).collect()
}

/// The tasks' histograms of a pass, per chunk of [`task_parts`].
pub(crate) type Hists = Vec<Box<[u32; DIGITS]>>;

/// [`varying_bits`] of one key word, and in the same read each task's histogram of the key's
/// low 16 bits (the first pass's digit when the lowest bit varies: see `argsort`).
/// **Collective** (one allreduce).
pub(crate) fn varying_and_low_digits(
    ctx: &Ctx,
    m: usize,
    image: &(impl Fn(usize) -> u64 + Sync),
) -> Result<(u64, Hists)> {
    let parts = task_parts(ctx, m);
    // Per task: the OR and AND of its keys, and its histogram.
    type Counted = (u64, u64, Box<[u32; DIGITS]>);
    let slots: Vec<Mutex<Counted>> = parts.iter().map(|_| Mutex::new((0, u64::MAX, zero_hist()))).collect();
    ctx.forall_chunks_with(0..parts.len(), 1, |r| {
        for t in r {
            let mut g = lock(&slots[t]);
            let (mut or, mut and) = (0u64, u64::MAX);
            let h = &mut *g.2;
            for i in parts[t].clone() {
                let x = image(i);
                or |= x;
                and &= x;
                h[x as usize & (DIGITS - 1)] += 1;
            }
            (g.0, g.1) = (or, and);
        }
    });
    let mut hists = Vec::with_capacity(slots.len());
    let (mut or, mut and) = (0u64, u64::MAX);
    for sl in slots {
        let (o, a, h) = into_inner(sl);
        or |= o;
        and &= a;
        hists.push(h);
    }
    let (or, and) = ctx.allreduce((or, and), |(o1, a1), (o2, a2)| (o1 | o2, a1 & a2))?;
    Ok((or ^ and, hists))
}

impl<O> Work<O> {
    fn new(ctx: &Ctx, m: usize) -> Self {
        let parts = task_parts(ctx, m);
        let p = parts.len();
        Work {
            parts,
            hists: (0..p).map(|_| Mutex::new(zero_hist())).collect(),
            cursors: (0..p).map(|_| Mutex::new(Cursors::new())).collect(),
            combine: (0..p).map(|_| Mutex::new(None)).collect(),
        }
    }
}

/// Where a pass writes: this locale's part (as a raw pointer: the locale's tasks write
/// disjoint slots of it), every locale's part as a global address, and, when this process may
/// store into every part directly (the local backend's locales share it), every part as a
/// pointer: the pass then writes each record in place, with no staging buffer and no put.
struct Dest<O> {
    local: SyncPtr<O>,
    remote: Vec<GlobalPtr<O>>,
    direct: Option<Vec<SyncPtr<O>>>,
}

impl<O: Pod> Dest<O> {
    /// `remote[t]` is locale `t`'s part (`layout`'s positions of `t`); `local` is this
    /// locale's; `in_place`: whether every locale stores into every part directly (decided by
    /// all locales alike, [`in_place`]).
    fn new(ctx: &Ctx, layout: &Layout, local: *mut O, remote: Vec<GlobalPtr<O>>, in_place: bool) -> Result<Self> {
        let mut direct = in_place.then(|| Vec::with_capacity(remote.len()));
        for (t, &g) in remote.iter().enumerate() {
            let len = layout.bounds[t + 1] - layout.bounds[t];
            direct = match (direct, ctx.direct_ptr(g, len)?) {
                (Some(mut v), Some(p)) => {
                    v.push(SyncPtr(if t == layout.me { local } else { p }));
                    Some(v)
                }
                _ => None,
            };
        }
        Ok(Dest { local: SyncPtr(local), remote, direct })
    }

    /// The parts of a registered record buffer, seen as `O`s.
    fn records<const W: usize>(
        ctx: &Ctx,
        layout: &Layout,
        sym: &mut Registered<[u64; W]>,
        in_place: bool,
    ) -> Result<Self> {
        let remote = (0..layout.locales()).map(|t| GlobalPtr::new(t, sym.ptr(t).addr())).collect();
        Self::new(ctx, layout, sym.local_mut().as_mut_ptr().cast::<O>(), remote, in_place)
    }
}

/// Whether every locale can store into every locale's part of `out` directly (the local
/// backend, MPI ranks of one host), on every locale alike. **Collective** (one allgather).
fn in_place<X: Elem + Pod>(ctx: &Ctx, layout: &Layout, out: &DistArray<X, 1>) -> Result<bool> {
    let mut mine = true;
    for t in 0..layout.locales() {
        let len = layout.bounds[t + 1] - layout.bounds[t];
        mine &= ctx.direct_ptr(out.part_ptr(t)?, len)?.is_some();
    }
    Ok(ctx.allgather(&mine)?.into_iter().all(|d| d))
}

/// The records of this locale (the Block part of `0..n`), sorted over all locales by
/// `passes`, into `out` (Block over the same layout) as `last(r)` of each sorted record `r`.
/// `src(i)` is the record at this locale's position `i`; `first`, when given, is the tasks'
/// histograms of the first pass's digit (counted with the key bounds). The buffers (registered record
/// arrays for the passes before the last, at most two, and staging and landing arrays of this locale's
/// size when there are other locales) are charged to the memory budget as `operation`.
/// **Collective.**
#[allow(clippy::too_many_arguments)]
pub(crate) fn sort_records<const W: usize, X: Elem + Pod>(
    ctx: &Ctx,
    layout: &Layout,
    operation: &str,
    src: &(impl Fn(usize) -> [u64; W] + Sync),
    passes: &[Pass],
    out: &mut DistArray<X, 1>,
    last: impl Fn(&[u64; W]) -> X + Sync,
    mut first: Option<Hists>,
) -> Result<()> {
    let m = layout.len_here();
    if out.local().len() != m {
        return Err(Error::ShapeMismatch {
            context: "radix sort output".into(),
            left: format!("{} local elements", out.local().len()),
            right: format!("{m} positions of the layout"),
        });
    }
    let np = passes.len();
    if np == 0 {
        // Already in order (n <= 1, or every key equal).
        let w = out.local_mut();
        let chunk = (m / (ctx.here().num_threads() * 4)).max(1 << 14);
        let slots: Vec<Mutex<(usize, &mut [X])>> =
            w.chunks_mut(chunk).enumerate().map(|(k, c)| Mutex::new((k * chunk, c))).collect();
        ctx.forall_chunks_with(0..slots.len(), 1, |r| {
            for k in r {
                let mut g = lock(&slots[k]);
                let (start, c) = &mut *g;
                for (j, x) in c.iter_mut().enumerate() {
                    *x = last(&src(*start + j));
                }
            }
        });
        return ctx.barrier();
    }
    let mut a = if np >= 2 { Some(Registered::<[u64; W]>::new(ctx, operation, m)?) } else { None };
    let mut b = if np >= 3 { Some(Registered::<[u64; W]>::new(ctx, operation, m)?) } else { None };
    crate::profile::mark(|| "buf_alloc".into());
    let direct = in_place(ctx, layout, out)?;
    let out_local = out.local_mut().as_mut_ptr();
    let out_parts = (0..layout.locales()).map(|t| out.part_ptr(t)).collect::<Result<_>>()?;
    let out_dest = Dest::new(ctx, layout, out_local, out_parts, direct)?;
    // Records bound to other locales wait in the staging buffer for their puts, and land in
    // the destination's landing buffer, unless they are stored in place. Both are symmetric
    // allocations made to be overwritten, so a later sort takes them back from the page pool
    // instead of faulting fresh pages (~2 s/GiB on a 2-vCPU KVM guest).
    let staged = layout.locales() > 1 && !direct;
    let mut staging = if staged { Some(Registered::<[u64; W]>::new(ctx, operation, m)?) } else { None };
    let mut landing = if staged { Some(Registered::<[u64; W]>::new(ctx, operation, m)?) } else { None };
    let mut rec_work = Work::<[u64; W]>::new(ctx, m);
    let mut out_work = Work::<X>::new(ctx, m);
    for (k, &p) in passes.iter().enumerate() {
        let is_last = k + 1 == np;
        // Pass k reads the user's records (k = 0) or buffer (k - 1) % 2, and writes the output
        // (last pass) or buffer k % 2.
        let (from, to) = if k % 2 == 0 { (b.as_mut(), a.as_mut()) } else { (a.as_mut(), b.as_mut()) };
        let prev: &[[u64; W]] = match (k, &from) {
            (0, _) => &[],
            (_, Some(f)) => f.local(),
            (_, None) => return Err(Error::InvalidArgument("radix sort: a pass has no source buffer".into())),
        };
        let s = |i: usize| prev[i];
        let bufs = Buffers { staging: staging.as_mut(), landing: landing.as_mut() };
        match (k == 0, is_last, to) {
            (true, true, _) => pass(ctx, layout, &mut out_work, src, p, &out_dest, bufs, &last, first.take())?,
            (false, true, _) => pass(ctx, layout, &mut out_work, &s, p, &out_dest, bufs, &last, None)?,
            (true, false, Some(t)) => {
                let d = Dest::records(ctx, layout, t, direct)?;
                pass(ctx, layout, &mut rec_work, src, p, &d, bufs, |r: &[u64; W]| *r, first.take())?
            }
            (false, false, Some(t)) => {
                let d = Dest::records(ctx, layout, t, direct)?;
                pass(ctx, layout, &mut rec_work, &s, p, &d, bufs, |r: &[u64; W]| *r, None)?
            }
            (_, false, None) => {
                return Err(Error::InvalidArgument("radix sort: a pass has no destination buffer".into()))
            }
        }
    }
    drop((rec_work, out_work));
    let fa = a.map_or(Ok(()), Registered::free);
    let fb = b.map_or(Ok(()), Registered::free);
    let fs = staging.map_or(Ok(()), Registered::free);
    let fl = landing.map_or(Ok(()), Registered::free);
    crate::profile::mark(|| "free".into());
    fa.and(fb).and(fs).and(fl)
}

/// The buffers of the records bound to other locales when they are not stored in place: the
/// staging and landing buffers (registered, this locale's size on every locale).
struct Buffers<'b, const W: usize> {
    staging: Option<&'b mut Registered<[u64; W]>>,
    landing: Option<&'b mut Registered<[u64; W]>>,
}

/// One pass: the records `src(i)` of this locale, stably by digit `p`, into `dst` (as `O`s,
/// `proj` of each record) over all locales. **Collective** (one allgather, one put per
/// destination, one barrier; with landing buffers a second barrier).
#[allow(clippy::too_many_arguments)]
fn pass<const W: usize, O: Pod + Send + Sync>(
    ctx: &Ctx,
    layout: &Layout,
    work: &mut Work<O>,
    src: &(impl Fn(usize) -> [u64; W] + Sync),
    p: Pass,
    dst: &Dest<O>,
    bufs: Buffers<'_, W>,
    proj: impl Fn(&[u64; W]) -> O + Sync,
    counted: Option<Hists>,
) -> Result<()> {
    let Buffers { staging, landing } = bufs;
    let (word, shift, nd) = (p.word, p.shift, p.digits());
    let mask = nd - 1;
    let digit = |r: &[u64; W]| (r[word] >> shift) as usize & mask & (DIGITS - 1);
    let (me, lo, hi) = (layout.me, layout.lo(), layout.hi());
    let nparts = work.parts.len();

    // 1. Histograms of the tasks' chunks (unless counted already), merged.
    if let Some(c) = counted.filter(|c| c.len() == nparts) {
        for (h, c) in work.hists.iter().zip(c) {
            *lock(h) = c;
        }
    } else {
        let (parts, hists) = (&work.parts, &work.hists);
        ctx.forall_chunks_with(0..nparts, 1, |r| {
            for t in r {
                let mut h = lock(&hists[t]);
                let h = &mut **h;
                h[..nd].fill(0);
                for i in parts[t].clone() {
                    h[digit(&src(i))] += 1;
                }
            }
        });
    }
    crate::profile::mark(|| format!("p{}s{}_hist", p.word, p.shift));
    let mut mine = vec![0u64; nd];
    for h in &work.hists {
        for (x, &c) in mine.iter_mut().zip(lock(h)[..nd].iter()) {
            *x += u64::from(c);
        }
    }

    // 2. One exchange of the locales' histograms.
    let all: Vec<Vec<u64>> = ctx.allgather(&mine)?;
    crate::profile::mark(|| format!("p{}s{}_allgather", p.word, p.shift));
    if all.iter().any(|h| h.len() != nd) {
        return Err(Error::Comm { locale: me, message: "radix sort: a histogram of the wrong size arrived".into() });
    }

    // 3. Where this locale's run of each digit starts, globally (`gbase`) and in this
    // locale's digit order (`lbase`).
    let mut before = vec![0u64; nd];
    let mut total = vec![0u64; nd];
    for (l, h) in all.iter().enumerate() {
        if l < me {
            before.iter_mut().zip(h).for_each(|(x, &c)| *x += c);
        }
        total.iter_mut().zip(h).for_each(|(x, &c)| *x += c);
    }
    let mut gbase = vec![0usize; nd];
    let mut lbase = vec![0usize; nd];
    let (mut gacc, mut lacc) = (0usize, 0usize);
    for d in 0..nd {
        gbase[d] = gacc + before[d] as usize;
        gacc += total[d] as usize;
        lbase[d] = lacc;
        lacc += mine[d] as usize;
    }
    // Positions a..b of this locale's digit order land on this locale (lo..hi).
    let (mut a, mut b) = (0usize, 0usize);
    for d in 0..nd {
        let h = mine[d] as usize;
        a += lo.saturating_sub(gbase[d]).min(h);
        b += hi.saturating_sub(gbase[d]).min(h);
    }
    let gap = b - a;
    // The staging buffer holds the records bound elsewhere (at most this locale's records).
    let need = if dst.direct.is_some() { 0 } else { mine.iter().sum::<u64>() as usize - gap };
    let staging: &mut [[u64; W]] = match staging {
        Some(s) if s.local().len() >= need => s.local_mut(),
        _ if need == 0 => &mut [],
        _ => {
            return Err(Error::InvalidArgument("radix sort: no staging buffer for the records bound elsewhere".into()))
        }
    };

    // 4. Cursors: each task's first slot for each digit.
    let local: *mut O = dst.local.0;
    let stage: *mut O = staging.as_mut_ptr().cast::<O>();
    let mut split_digits = Vec::new();
    let mut next: Vec<usize> = lbase.clone();
    let mut splits: Vec<Vec<(usize, usize, usize)>> = vec![Vec::new(); nparts];
    let bounds = &layout.bounds;
    // The locale holding global position g.
    let owner = |g: usize| bounds.partition_point(|&x| x <= g) - 1;
    for d in 0..nd {
        let (lb, h) = (lbase[d], mine[d] as usize);
        let split = match dst.direct {
            // A run stored in place splits where it crosses into another locale's part.
            Some(_) => h > 0 && owner(gbase[d]) != owner(gbase[d] + h - 1),
            // A run staged splits where it crosses a..b.
            None => h > 0 && ((lb < a && a < lb + h) || (lb < b && b < lb + h)),
        };
        if split {
            split_digits.push(d);
        }
    }
    for (t, split) in splits.iter_mut().enumerate() {
        let h = lock(&work.hists[t]);
        let mut c = lock(&work.cursors[t]);
        let cur = &mut *c.0;
        for d in 0..nd {
            let (lb, run) = (lbase[d], mine[d] as usize);
            let start = next[d];
            let cnt = h[d] as usize;
            next[d] += cnt;
            cur[d] = if cnt == 0 {
                std::ptr::null_mut()
            } else if split_digits.contains(&d) {
                split.push((d, start, gbase[d] - lb));
                std::ptr::null_mut()
            } else if let Some(parts) = &dst.direct {
                // The whole run lands in one locale's part.
                let g = start + gbase[d] - lb;
                let t = owner(g);
                parts[t].0.wrapping_add(g - bounds[t])
            } else if lb + run <= a {
                stage.wrapping_add(start)
            } else if lb >= b {
                stage.wrapping_add(start - gap)
            } else {
                // lb >= a and lb + run <= b: every record of the digit lands here.
                local.wrapping_add(start + gbase[d] - lb - lo)
            };
        }
    }

    crate::profile::mark(|| format!("p{}s{}_cursors", p.word, p.shift));
    // 5. Scatter, each task its chunk.
    {
        let (parts, cursors, combine) = (&work.parts, &work.cursors, &work.combine);
        // Write-combining pays for 8-byte records over many digits (aligned destinations).
        let use_wc = std::mem::size_of::<O>() == 8 && std::mem::align_of::<O>() == 8 && nd > 1 << SMALL_DIGIT_BITS;
        let splits: Vec<Mutex<Vec<(usize, usize, usize)>>> = splits.into_iter().map(Mutex::new).collect();
        let places = match &dst.direct {
            Some(parts) => Places::Direct { parts, bounds },
            None => Places::Staged { staging: SyncPtr(stage), local: SyncPtr(local), a, b, lo },
        };
        ctx.forall_chunks_with(0..nparts, 1, |r| {
            for t in r {
                let mut c = lock(&cursors[t]);
                let mut split = SplitRuns { runs: std::mem::take(&mut *lock(&splits[t])), places: &places };
                // SAFETY: the cursors and split positions of task t give each of its records a
                // distinct slot: a digit's run in this locale's digit order is cut into the
                // tasks' sub-runs in task order (`next`), and the run maps one to one onto the
                // staging buffer (positions outside a..b, compacted, m slots) or onto local
                // storage (global positions lo..hi, hi - lo slots), or, stored in place, onto
                // the global positions gbase[d].. of the parts (every locale computes disjoint
                // global runs from the same histograms). The buffers live until after this
                // loop, and every locale's stores end before the barrier below.
                unsafe {
                    if use_wc {
                        let mut w = lock(&combine[t]);
                        let w = w.get_or_insert_with(WriteCombine::new);
                        scatter_wc(parts[t].clone(), src, word, shift, mask, &mut c, w, &proj, &mut split)
                    } else {
                        scatter(parts[t].clone(), src, word, shift, mask, &mut c, &proj, &mut split)
                    }
                };
            }
        });
    }

    crate::profile::mark(|| format!("p{}s{}_scatter", p.word, p.shift));
    // 6. One transfer per destination: the records bound to locale `t` are the positions
    // `first[t]..first[t + 1]` of this locale's digit order (global positions grow with it).
    let locales = layout.locales();
    let first: Vec<usize> = (0..=locales)
        .map(|t| (0..nd).map(|d| bounds[t].saturating_sub(gbase[d]).min(mine[d] as usize)).sum())
        .collect();
    let flows = dst.direct.is_none().then(|| Flows::new(layout, &all, nd));
    let put_result = if dst.direct.is_some() {
        // Stored in place already: the diagnostics count one put per destination, the
        // transfer that moves those records on other backends and placements.
        for t in (0..locales).filter(|&t| t != me) {
            ctx.count_direct_put(dst.remote[t], first[t + 1] - first[t]);
        }
        Ok(())
    } else {
        let staged: &[O] = bytemuck::try_cast_slice::<[u64; W], O>(&staging[..])
            .map_err(|e| Error::InvalidArgument(format!("radix sort: staging buffer: {e}")))?;
        let landing =
            landing.as_deref().ok_or_else(|| Error::InvalidArgument("radix sort: no landing buffer".into()))?;
        let flows = flows.as_ref().ok_or_else(|| Error::InvalidArgument("radix sort: no flows".into()))?;
        // The staging index of this locale's digit-order position `q` (the local gap a..b
        // is not staged).
        let ci = |q: usize| if q < a { q } else { q - gap };
        ctx.nonblocking(|nb| {
            for t in (0..locales).filter(|&t| t != me && first[t + 1] > first[t]) {
                let k = first[t + 1] - first[t];
                let at = ci(first[t]);
                let to = GlobalPtr::<O>::new(t, landing.ptr(t).addr()).add(flows.offset(me, t));
                nb.put(to, &staged[at..at + k])?;
            }
            Ok(())
        })
    };
    crate::profile::mark(|| format!("p{}s{}_puts", p.word, p.shift));
    // 7. Every locale's records have arrived before anyone reads them.
    let bar = ctx.barrier();
    crate::profile::mark(|| format!("p{}s{}_barrier", p.word, p.shift));
    put_result.and(bar)?;
    // 8. With landing buffers: what landed here goes into place, source by source and digit
    // by digit (each source's records arrived in its digit order), then a barrier (every
    // part is in place before anyone reads it).
    if let (Some(flows), Some(landing)) = (&flows, landing) {
        let landed: &[O] = bytemuck::try_cast_slice::<[u64; W], O>(landing.local())
            .map_err(|e| Error::InvalidArgument(format!("radix sort: landing buffer: {e}")))?;
        let landed = &landed[..landing.local().len()];
        flows.place_landed(ctx, layout, &all, nd, landed, SyncPtr(local));
        crate::profile::mark(|| format!("p{}s{}_place", p.word, p.shift));
        ctx.barrier()?;
    }
    Ok(())
}

/// How many records each locale sends each other in one pass, from the histograms every
/// locale has: `count[s][t]` records of locale `s` land on locale `t` (none from a locale to
/// itself: those stay).
struct Flows {
    count: Vec<Vec<usize>>,
}

impl Flows {
    fn new(layout: &Layout, all: &[Vec<u64>], nd: usize) -> Flows {
        let locales = layout.locales();
        let bounds = &layout.bounds;
        let mut count = vec![vec![0usize; locales]; locales];
        Self::runs(all, nd, |s, _d, g, h| {
            // Split the run g..g+h by the destinations' bounds.
            let mut t = bounds.partition_point(|&x| x <= g).saturating_sub(1);
            while t < locales && bounds[t] < g + h {
                let (lo, hi) = (g.max(bounds[t]), (g + h).min(bounds[t + 1]));
                if s != t && lo < hi {
                    count[s][t] += hi - lo;
                }
                t += 1;
            }
        });
        Flows { count }
    }

    /// Calls `run(source, digit, global start, length)` for every non-empty run of every
    /// locale, in source order, then digit order.
    fn runs(all: &[Vec<u64>], nd: usize, mut run: impl FnMut(usize, usize, usize, usize)) {
        // The global start of each digit, then of each source's run within it.
        let mut start = vec![0usize; nd];
        let mut acc = 0usize;
        for (d, st) in start.iter_mut().enumerate() {
            *st = acc;
            acc += all.iter().map(|h| h[d] as usize).sum::<usize>();
        }
        for (s, h) in all.iter().enumerate() {
            for d in 0..nd {
                let k = h[d] as usize;
                if k > 0 {
                    run(s, d, start[d], k);
                    start[d] += k;
                }
            }
        }
    }

    /// Where locale `s`'s records start in locale `t`'s landing buffer: after those of the
    /// locales before `s`.
    fn offset(&self, s: usize, t: usize) -> usize {
        (0..s).map(|x| self.count[x][t]).sum()
    }

    /// Moves the records landed on this locale (`landed`, the sources' records in source order)
    /// into this locale's part (`local`, global positions `lo..hi`). The tasks take sources.
    fn place_landed<O: Pod + Send + Sync>(
        &self,
        ctx: &Ctx,
        layout: &Layout,
        all: &[Vec<u64>],
        nd: usize,
        landed: &[O],
        local: SyncPtr<O>,
    ) {
        let (me, lo, hi) = (layout.me, layout.lo(), layout.hi());
        // Each source's pieces inside lo..hi, in the order they arrived: (position in the
        // landing buffer, position in the part, length).
        let mut at: Vec<usize> = (0..all.len()).map(|s| self.offset(s, me)).collect();
        let mut moves: Vec<(usize, usize, usize)> = Vec::new();
        Self::runs(all, nd, |s, _d, g, h| {
            let (a, b) = (g.max(lo), (g + h).min(hi));
            if s != me && a < b {
                moves.push((at[s], a - lo, b - a));
                at[s] += b - a;
            }
        });
        let tasks = ctx.here().num_threads().max(1) * 4;
        let chunk = moves.len().div_ceil(tasks).max(1);
        ctx.forall_chunks_with(0..moves.len().div_ceil(chunk), 1, |r| {
            // The whole pointer wrapper, not its field, is what the closure shares.
            let part = local;
            for c in r {
                for &(from, pos, len) in &moves[c * chunk..((c + 1) * chunk).min(moves.len())] {
                    // SAFETY: the pieces are disjoint ranges of this locale's part (the pass
                    // gives each record its own global position) and of the landing buffer
                    // (each source's records after those of lower sources), each copied by the
                    // one task that takes its chunk of moves; both live until the pass's end.
                    unsafe {
                        std::ptr::copy_nonoverlapping(landed.as_ptr().add(from), part.0.add(pos), len);
                    }
                }
            }
        });
    }
}
