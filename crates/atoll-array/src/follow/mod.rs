//! How a follower that is not aligned with the leader reads (and writes back) its values:
//! static message aggregation.
//!
//! Its elements for one *group* of segments (consecutive rows of one leader tile, see
//! `zip/mod.rs`) form a strided sub-domain `sub` of its array: a *chunk*, fetched at the group's
//! first row and served row by row. The local fast path: when this locale owns all of `sub`
//! with contiguous rows, each row is a borrowed slice of local storage. Otherwise the chunk is
//! assembled in the task's [`FollowBuf`]: the elements this locale owns are copied, and for each
//! other locale `t`, [`Distribution::runs`] gives the *patches* it owns of `sub`: strided boxes
//! with a fixed stride in `t`'s buffer (on Cyclic and BlockCyclic data, the residue classes of
//! the paper's modulo unrolling; on Block data, halo rows and columns). Then, by
//! [`Aggregation`] mode:
//!
//! - `off`: one get per remote element (Chapel's original follower, the baseline);
//! - `static`: one strided get per patch into a packed buffer, unpacked into the chunk; when the
//!   patches of `t` together fill most of their hull in `t`'s buffer (BlockCyclic rows: the
//!   blocks of a locale are stored one after the other), one strided get of the hull;
//! - `auto`: as `static` for patches of at least [`crate::aggregation::threshold`] elements, element
//!   gets below.
//!
//! Writing back (a follower the loop wrote, or a destination that is not the leader) is the
//! inverse, after the group's last row: one strided put per patch (of the hull only when the
//! patches fill it exactly, so no other element is overwritten), and only the patches whose
//! values changed when the caller gives the values it fetched.
//!
//! Beside this file: `shift.rs` (1-D followers shifted by a constant from the leader, read in
//! the leader's storage order) and `aggregation.rs` (public as [`crate::aggregation`]: the
//! per-locale mode, the calibrated `auto` threshold, the follower statistics).

pub mod aggregation;
pub(crate) mod shift;

use self::aggregation::{Aggregation, LocaleAgg};
use crate::array::Inner;
use crate::elem::Elem;
use crate::storage::Storage;
use crate::zip::strided_row::StridedRow;
use crate::zip::Seg;
use atoll_dist::{Distribution, Domain, Patch, Piece, Runs};
use atoll_error::Result;
use atoll_runtime::Ctx;
use std::sync::Arc;

/// A follower's scratch buffers for one task: the assembled chunk (or row), the packed buffer of
/// strided transfers, the values as fetched (to find what a loop changed), the copies of a
/// shifted read, and which group's chunk is held.
pub struct FollowBuf<T> {
    pub(crate) row: Vec<T>,
    pub(crate) packed: Vec<T>,
    pub(crate) orig: Vec<T>,
    /// The copies of a shifted read (`follow/shift.rs`), kept between segments.
    pub(crate) moves: Vec<atoll_dist::ShiftMove>,
    held: Option<Held>,
}

impl<T> FollowBuf<T> {
    /// Forgets the held chunk (before `row` is reused for something else).
    pub(crate) fn forget(&mut self) {
        self.held = None;
    }
}

impl<T> Default for FollowBuf<T> {
    fn default() -> Self {
        FollowBuf { row: Vec::new(), packed: Vec::new(), orig: Vec::new(), moves: Vec::new(), held: None }
    }
}

/// The group whose chunk a [`FollowBuf`] holds, and where its rows are.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Held {
    /// The group's first position (padded to 3 dimensions), row length, rows and steps.
    key: ([usize; 3], usize, usize, usize, usize),
    /// `Some(borrowed)`: rows read in place (this locale's storage, or the owner's memory read
    /// through [`Ctx::direct_ptr`]); `None`: rows of `row`.
    local: Option<Borrowed>,
}

/// A chunk read in place: the address of its first element, and the element strides between
/// its rows and along a row.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Borrowed {
    addr: usize,
    row_stride: usize,
    elem_stride: usize,
}

/// The identity of `seg`'s group: its first position and shape.
fn group_key<const D: usize>(seg: &Seg<D>) -> ([usize; 3], usize, usize, usize, usize) {
    let mut first = [0usize; 3];
    first[..D].copy_from_slice(&seg.pos);
    if D >= 2 {
        first[D.saturating_sub(2)] -= seg.row * seg.row_step;
    }
    (first, seg.len, seg.rows, seg.step, seg.row_step)
}

/// The aggregation settings of one bound follower, read once per loop.
pub(crate) struct Follow {
    mode: Aggregation,
    agg: Arc<LocaleAgg>,
}

impl Follow {
    /// This locale's settings now.
    ///
    /// # Errors
    /// None today (the aggregation settings are checked when the job starts).
    pub(crate) fn new(ctx: &Ctx) -> Result<Follow> {
        let agg = LocaleAgg::of(ctx);
        let mode = agg.mode()?;
        Ok(Follow { mode, agg })
    }

    /// Records the remote transfers of one chunk in the follower statistics.
    pub(crate) fn record(&self, remote: usize, strided: u64, element: u64) {
        self.agg.record(remote, strided, element);
    }

    /// The smallest patch (elements) moved with one strided transfer; `usize::MAX` for `off`.
    pub(crate) fn threshold<T: Elem, const D: usize, M: Distribution<D>>(
        &self,
        arr: &Inner<T, D, M>,
        t: usize,
    ) -> usize {
        match self.mode {
            Aggregation::Off => usize::MAX,
            Aggregation::Static => 2,
            Aggregation::Auto => {
                self.agg.threshold_for(&arr.ctx, size_of::<T>(), &|k, stride| probe(arr, t, k, stride))
            }
        }
    }
}

/// One timed transfer for the calibration: `k` elements at `stride` from `t` (`k == 1`: a
/// plain get). Returns false when `t`'s part is too small.
fn probe<T: Elem, const D: usize, M: Distribution<D>>(
    arr: &Inner<T, D, M>,
    t: usize,
    k: usize,
    stride: usize,
) -> Result<bool> {
    let avail = arr.dist.local_len(t)?;
    if k == 0 || (k - 1) * stride >= avail {
        return Ok(false);
    }
    let mut buf = vec![T::default(); k];
    if k == 1 {
        arr.store.get(&arr.ctx, t, 0, &mut buf)?;
    } else {
        arr.store.get_strided(&arr.ctx, t, 0, &[k], &[stride], &mut buf)?;
    }
    Ok(true)
}

/// Transfers made for one chunk.
#[derive(Default)]
struct Tally {
    remote: usize,
    strided: u64,
    element: u64,
}

impl Tally {
    fn commit(&self, agg: &LocaleAgg) {
        if self.remote > 0 {
            agg.record(self.remote, self.strided, self.element);
        }
    }
}

/// The values of a follower view over `dom` for segment `seg`, in iteration order. The chunk of
/// `seg`'s group is fetched when `buf` does not hold it yet (at the group's first row).
pub(crate) fn fetch<'s, T: Elem, const D: usize, M: Distribution<D>>(
    arr: &'s Inner<T, D, M>,
    dom: &Domain<D>,
    seg: &Seg<D>,
    follow: &Follow,
    buf: &'s mut FollowBuf<T>,
) -> Result<StridedRow<'s, T>> {
    let key = group_key(seg);
    let held = match buf.held {
        Some(h) if h.key == key => h,
        _ => {
            buf.held = None;
            let sub = dom.slice_positions(&seg.group_positions())?;
            let h = Held { key, local: fetch_group(arr, &sub, seg, follow, buf)? };
            buf.held = Some(h);
            h
        }
    };
    match held.local {
        // SAFETY: the elements of a chunk that one locale owns as one strided box are inside
        // its part (address and strides from its runs of the chunk, `seg.row < seg.rows`; the
        // whole extent was checked to be registered memory of that locale by `direct_ptr`, or
        // is this locale's storage), which stays allocated while the array is borrowed;
        // followers are read-only during a loop, and the loop's leading barrier orders it after
        // earlier writes (the PGAS contract of `storage/mod.rs`).
        Some(b) => Ok(unsafe {
            StridedRow::from_raw((b.addr as *const T).add(seg.row * b.row_stride), b.elem_stride, seg.len)
        }),
        None => Ok(StridedRow::from_slice(&buf.row[seg.row * seg.len..(seg.row + 1) * seg.len])),
    }
}

/// The `len` local elements of `store` at offsets `off + j * step`, read in place (an operand
/// aligned with the leader).
///
/// # Errors
/// [`atoll_error::Error::IndexOutOfBounds`] when the offsets leave the local part (never
/// for offsets from the leader's plan).
#[inline]
pub(crate) fn local_row<T: Elem>(store: &Storage<T>, off: usize, step: usize, len: usize) -> Result<StridedRow<'_, T>> {
    let local = store.local();
    let step = if len <= 1 { 1 } else { step };
    let last = (len.max(1) - 1).checked_mul(step).and_then(|x| x.checked_add(off));
    if len > 0 && last.is_none_or(|l| l >= local.len()) {
        return Err(atoll_error::Error::IndexOutOfBounds {
            index: format!("local offset {off} + {len} x {step}"),
            bounds: format!("0..{}", local.len()),
        });
    }
    if step == 1 {
        // SAFETY: `off..off + len` is in bounds (checked above); operands are read-only during
        // the loop (PGAS contract).
        return Ok(StridedRow::from_slice(unsafe { store.row(off, len) }));
    }
    // SAFETY: every offset `off + j * step` (`j < len`) is below `local.len()` (checked above),
    // in this locale's live part; operands are read-only during the loop (PGAS contract).
    Ok(unsafe { StridedRow::from_raw(local.as_ptr().wrapping_add(off), step, len) })
}

/// Fetches the chunk `sub` of `seg`'s group: `Some((offset, row stride))` when this locale owns
/// all of it with contiguous rows (nothing is copied), else assembled in `buf.row`.
fn fetch_group<T: Elem, const D: usize, M: Distribution<D>>(
    arr: &Inner<T, D, M>,
    sub: &Domain<D>,
    seg: &Seg<D>,
    follow: &Follow,
    buf: &mut FollowBuf<T>,
) -> Result<Option<Borrowed>> {
    let (ctx, dist) = (&arr.ctx, &arr.dist);
    let here = ctx.id();
    let mut here_runs = None;
    if dist.grid().contains(here) {
        let runs = dist.runs(here, sub)?;
        if let Some(b) = single_box(&runs, seg.rows, seg.len) {
            return Ok(Some(Borrowed { addr: arr.store.local().as_ptr().wrapping_add(b.addr) as usize, ..b }));
        }
        here_runs = Some(runs);
    }
    if follow.mode != Aggregation::Off && here_runs.as_ref().is_none_or(Runs::is_empty) {
        if let Some(borrowed) = borrow_remote(arr, sub, seg, follow)? {
            return Ok(Some(borrowed));
        }
    }
    assemble(arr, sub, seg.group_len(), follow, buf, here_runs)?;
    Ok(None)
}

/// `Some(borrowed)` when one other locale owns all of the chunk `sub` as one strided box (see
/// [`single_box`]) and its memory is directly addressable ([`Storage::direct`]): the rows are
/// read in place, and counted as the transfers that [`get_remote`] would have made for them
/// (the same hull, strided or element gets: [`count_gets`]), so the diagnostics are those of a
/// backend that moves them with gets. `None`: assemble a copy. (A Cyclic array read through a
/// view shifted by one: each chunk is a contiguous run of the neighbour's part; a BlockCyclic
/// residue tile shifted by one, or a strided view: an evenly strided run.)
fn borrow_remote<T: Elem, const D: usize, M: Distribution<D>>(
    arr: &Inner<T, D, M>,
    sub: &Domain<D>,
    seg: &Seg<D>,
    follow: &Follow,
) -> Result<Option<Borrowed>> {
    let (ctx, dist, here) = (&arr.ctx, &arr.dist, arr.ctx.id());
    for &t in dist.grid().targets() {
        if t == here {
            continue;
        }
        let runs = dist.runs(t, sub)?;
        if runs.is_empty() {
            continue;
        }
        // The first owner found decides: it owns all of the chunk or the chunk is assembled.
        let Some(b) = single_box(&runs, seg.rows, seg.len) else { return Ok(None) };
        let off = b.addr;
        let extent = (seg.rows - 1) * b.row_stride + (seg.len - 1) * b.elem_stride + 1;
        let Some(p) = arr.store.direct(ctx, t, off, extent)? else { return Ok(None) };
        let threshold = follow.threshold(arr, t);
        let mut tally = Tally { remote: runs.count(), ..Tally::default() };
        count_gets(arr, t, &runs, threshold, &mut tally);
        tally.commit(&follow.agg);
        return Ok(Some(Borrowed { addr: p as usize, ..b }));
    }
    Ok(None)
}

/// Assembles the values of `sub` in `buf.row` (always a copy, even when all are local).
pub(crate) fn fetch_into<T: Elem, const D: usize, M: Distribution<D>>(
    arr: &Inner<T, D, M>,
    sub: &Domain<D>,
    len: usize,
    follow: &Follow,
    buf: &mut FollowBuf<T>,
) -> Result<()> {
    assemble(arr, sub, len, follow, buf, None)
}

/// [`fetch_into`], given this locale's runs of `sub` when already computed.
fn assemble<T: Elem, const D: usize, M: Distribution<D>>(
    arr: &Inner<T, D, M>,
    sub: &Domain<D>,
    len: usize,
    follow: &Follow,
    buf: &mut FollowBuf<T>,
    here_runs: Option<Runs<D>>,
) -> Result<()> {
    let store = &arr.store;
    buf.row.clear();
    buf.row.resize(len, T::default());
    let FollowBuf { row, packed, .. } = buf;
    by_owner(arr, sub, follow, here_runs, |t, runs, remote| match remote {
        None => {
            for p in runs.patches() {
                // SAFETY: local offsets from this locale's runs are in bounds; followers are
                // read-only during the loop.
                for_each_elem(&p, |_, loc, pos| row[pos] = unsafe { store.read(loc) });
            }
            Ok(())
        }
        Some((threshold, tally)) => get_remote(arr, t, runs, threshold, row, packed, tally),
    })
}

/// Writes `values` (the elements of `sub` in row-major order) to their owners. With `orig`
/// (the values as fetched), only the patches where something changed are sent.
pub(crate) fn store<T: Elem, const D: usize, M: Distribution<D>>(
    arr: &Inner<T, D, M>,
    sub: &Domain<D>,
    values: &[T],
    orig: Option<&[T]>,
    follow: &Follow,
    packed: &mut Vec<T>,
) -> Result<()> {
    let store = &arr.store;
    by_owner(arr, sub, follow, None, |t, runs, remote| match remote {
        None => {
            for p in runs.patches() {
                // SAFETY: local offsets from this locale's runs are in bounds; each element of
                // the destination is written by the one iteration that owns it.
                for_each_elem(&p, |_, loc, pos| unsafe { store.write(loc, values[pos]) });
            }
            Ok(())
        }
        Some((threshold, tally)) => put_remote(arr, t, runs, threshold, values, orig, packed, tally),
    })
}

/// Calls `f(t, runs, None)` with this locale's part of `sub` (`here_runs` when given) and
/// `f(t, runs, Some((threshold, tally)))` with each other owner's, then records the chunk's
/// remote transfers in the follower statistics.
fn by_owner<T: Elem, const D: usize, M: Distribution<D>>(
    arr: &Inner<T, D, M>,
    sub: &Domain<D>,
    follow: &Follow,
    mut here_runs: Option<Runs<D>>,
    mut f: impl FnMut(usize, &Runs<D>, Option<(usize, &mut Tally)>) -> Result<()>,
) -> Result<()> {
    let (dist, here) = (&arr.dist, arr.ctx.id());
    let mut tally = Tally::default();
    for &t in dist.grid().targets() {
        let runs = match here_runs.take() {
            Some(r) if t == here => r,
            kept => {
                here_runs = kept;
                dist.runs(t, sub)?
            }
        };
        if runs.is_empty() {
            continue;
        }
        if t == here {
            f(t, &runs, None)?;
        } else {
            tally.remote += runs.count();
            f(t, &runs, Some((follow.threshold(arr, t), &mut tally)))?;
        }
    }
    tally.commit(&follow.agg);
    Ok(())
}

/// The chunk `sub` (`rows` rows of `len` elements) read in place from its owner: `Some` when
/// the owner of `runs` owns all of it and its elements, in row-major order of the chunk, sit
/// at `off + r * row_stride + j * elem_stride` in the owner's buffer (`addr` holds `off`). The
/// pieces of each dimension may be several (the residue classes of BlockCyclic data): they
/// qualify when together they are one progression of local positions.
fn single_box<const D: usize>(runs: &Runs<D>, rows: usize, len: usize) -> Option<Borrowed> {
    if len == 0 || rows == 0 || runs.count() != rows * len {
        return None;
    }
    let ls = runs.local_strides();
    let rd = D.saturating_sub(2);
    let mut off = 0usize;
    let (mut row_stride, mut elem_stride) = (0usize, 1usize);
    for (d, ps) in runs.pieces().iter().enumerate() {
        // The chunk's extent in dimension d: `len` along the last, `rows` along the one
        // before (when there is one), 1 elsewhere.
        let n = if d + 1 == D {
            len
        } else if d == rd {
            rows
        } else {
            1
        };
        let (l0, step) = merged_dim(ps, n)?;
        off = off.checked_add(l0.checked_mul(ls[d])?)?;
        if d + 1 == D {
            elem_stride = if n > 1 { step.checked_mul(ls[d])? } else { 1 };
        } else if d == rd && n > 1 {
            row_stride = step.checked_mul(ls[d])?;
        }
    }
    Some(Borrowed { addr: off, row_stride, elem_stride })
}

/// `(local position of sub position 0, local step per sub position)` when the pieces `ps` of
/// one dimension are exactly the sub positions `0..n`, at local positions in one arithmetic
/// progression with a positive step (0 when `n == 1`).
fn merged_dim(ps: &[Piece], n: usize) -> Option<(usize, usize)> {
    if ps.iter().map(Piece::len).sum::<usize>() != n {
        return None;
    }
    let local_of = |q: usize| {
        ps.iter().find_map(|p| {
            let k = q.checked_sub(p.sub_start)?;
            (k % p.sub_stride == 0 && k / p.sub_stride < p.len())
                .then(|| p.local_start + k / p.sub_stride * p.local_stride)
        })
    };
    let l0 = local_of(0)?;
    if n == 1 {
        return Some((l0, 0));
    }
    let step = local_of(1)?.checked_sub(l0).filter(|&s| s > 0)?;
    // Disjoint pieces (a distribution's runs) with `n` elements in all, each on the line
    // `l0 + q * step` with the matching stride, are exactly the positions 0..n on that line.
    let on_line = |p: &Piece| {
        p.sub_start < n
            && p.sub_start.checked_mul(step).and_then(|x| x.checked_add(l0)) == Some(p.local_start)
            && (p.len() < 2 || p.sub_stride.checked_mul(step) == Some(p.local_stride))
    };
    ps.iter().all(on_line).then_some((l0, step))
}

/// Counts, as [`get_remote`] would make them, the transfers that read the elements `runs`
/// describes from `t` (the hull, one strided get per patch, or element gets), for a backend
/// that reads them in place: diagnostics and follower statistics are the same on every
/// backend.
fn count_gets<T: Elem, const D: usize, M: Distribution<D>>(
    arr: &Inner<T, D, M>,
    t: usize,
    runs: &Runs<D>,
    threshold: usize,
    tally: &mut Tally,
) {
    let (ctx, store) = (&arr.ctx, &arr.store);
    let count = runs.count();
    if let Some((lo, _, n)) = hull(runs) {
        if runs.num_patches() > 1 && count >= threshold && n <= 2 * count {
            store.count_direct(ctx, t, lo, n, true);
            tally.strided += 1;
            return;
        }
    }
    for p in runs.patches() {
        let n = p.len();
        if n >= threshold && n >= 2 {
            store.count_direct(ctx, t, p.local_offset, n, true);
            tally.strided += 1;
        } else {
            for_each_elem(&p, |_, loc, _| store.count_direct(ctx, t, loc, 1, false));
            tally.element += n as u64;
        }
    }
}

/// Calls `f(k, local offset, row position)` for the elements of `p`, `k` counting in row-major
/// order (the order of a packed strided transfer).
#[inline]
fn for_each_elem<const D: usize>(p: &Patch<D>, mut f: impl FnMut(usize, usize, usize)) {
    let shape = p.global.shape();
    let (ls, ss) = (p.local_strides, p.sub_strides);
    let last = shape[D - 1];
    let rows: usize = shape[..D - 1].iter().product();
    let mut idx = [0usize; D];
    let mut k = 0;
    for _ in 0..rows {
        let (mut loc, mut pos) = (p.local_offset, p.sub_offset);
        for d in 0..D - 1 {
            loc += idx[d] * ls[d];
            pos += idx[d] * ss[d];
        }
        for j in 0..last {
            f(k, loc + j * ls[D - 1], pos + j * ss[D - 1]);
            k += 1;
        }
        for d in (0..D - 1).rev() {
            idx[d] += 1;
            if idx[d] < shape[d] {
                break;
            }
            idx[d] = 0;
        }
    }
}

/// The strided hull of every patch of `runs` in the owner's buffer: `(first offset, stride,
/// elements)`, the stride being the gcd of every step between owned elements.
fn hull<const D: usize>(runs: &Runs<D>) -> Option<(usize, usize, usize)> {
    let mut lo = usize::MAX;
    let mut hi = 0usize;
    for p in runs.patches() {
        let shape = p.global.shape();
        let end = p.local_offset + (0..D).map(|d| (shape[d] - 1) * p.local_strides[d]).sum::<usize>();
        lo = lo.min(p.local_offset);
        hi = hi.max(end);
    }
    if lo == usize::MAX {
        return None;
    }
    let mut g = 0usize;
    for p in runs.patches() {
        g = gcd(g, p.local_offset - lo);
        for (n, stride) in p.global.shape().into_iter().zip(p.local_strides) {
            if n > 1 {
                g = gcd(g, stride);
            }
        }
    }
    let g = g.max(1);
    Some((lo, g, (hi - lo) / g + 1))
}

fn gcd(mut a: usize, mut b: usize) -> usize {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// One strided transfer shape: `k` elements at `stride` (a plain transfer when contiguous).
fn strided_get<T: Elem>(
    store: &Storage<T>,
    ctx: &Ctx,
    t: usize,
    off: usize,
    k: usize,
    stride: usize,
    dst: &mut [T],
) -> Result<()> {
    store.get_strided(ctx, t, off, &[k], &[stride], dst)
}

/// Reads the elements `runs` describes from remote locale `t` into `row`.
fn get_remote<T: Elem, const D: usize, M: Distribution<D>>(
    arr: &Inner<T, D, M>,
    t: usize,
    runs: &Runs<D>,
    threshold: usize,
    row: &mut [T],
    packed: &mut Vec<T>,
    tally: &mut Tally,
) -> Result<()> {
    let (ctx, store) = (&arr.ctx, &arr.store);
    let count = runs.count();
    let Some((lo, g, n)) = hull(runs) else { return Ok(()) };
    if let Some(base) = store.direct(ctx, t, lo, (n - 1) * g + 1)? {
        return get_direct(arr, t, runs, threshold, base.cast_const(), lo, row, tally);
    }
    if runs.num_patches() > 1 && count >= threshold && n <= 2 * count {
        packed.clear();
        packed.resize(n, T::default());
        strided_get(store, ctx, t, lo, n, g, packed)?;
        tally.strided += 1;
        for p in runs.patches() {
            for_each_elem(&p, |_, loc, pos| row[pos] = packed[(loc - lo) / g]);
        }
        return Ok(());
    }
    for p in runs.patches() {
        let n = p.len();
        if n >= threshold && n >= 2 {
            packed.clear();
            packed.resize(n, T::default());
            store.get_strided(ctx, t, p.local_offset, &p.global.shape(), &p.local_strides, packed)?;
            tally.strided += 1;
            for_each_elem(&p, |k, _, pos| row[pos] = packed[k]);
        } else {
            let mut err = Ok(());
            for_each_elem(&p, |_, loc, pos| {
                if err.is_ok() {
                    err = store.get(ctx, t, loc, &mut row[pos..pos + 1]);
                }
            });
            err?;
            tally.element += n as u64;
        }
    }
    Ok(())
}

/// [`get_remote`] when `t`'s memory from offset `lo` on is addressable at `base`: every element
/// is loaded in place, and the transfers that `get_remote` would have made are counted (the
/// hull, one strided get per patch, or element gets), so diagnostics and follower statistics
/// are the same on every backend.
#[allow(clippy::too_many_arguments)]
fn get_direct<T: Elem, const D: usize, M: Distribution<D>>(
    arr: &Inner<T, D, M>,
    t: usize,
    runs: &Runs<D>,
    threshold: usize,
    base: *const T,
    lo: usize,
    row: &mut [T],
    tally: &mut Tally,
) -> Result<()> {
    count_gets(arr, t, runs, threshold, tally);
    for p in runs.patches() {
        // SAFETY: `base` addresses `t`'s part from offset `lo` to the end of the hull of
        // `runs` (checked registered by `direct_ptr`), and every element of a patch lies in it
        // (`loc >= lo`); the PGAS contract orders these loads as it orders gets.
        for_each_elem(&p, |_, loc, pos| row[pos] = unsafe { base.add(loc - lo).read() });
    }
    Ok(())
}

/// Writes the elements `runs` describes from `values` to remote locale `t`.
#[allow(clippy::too_many_arguments)]
fn put_remote<T: Elem, const D: usize, M: Distribution<D>>(
    arr: &Inner<T, D, M>,
    t: usize,
    runs: &Runs<D>,
    threshold: usize,
    values: &[T],
    orig: Option<&[T]>,
    packed: &mut Vec<T>,
    tally: &mut Tally,
) -> Result<()> {
    let (ctx, store) = (&arr.ctx, &arr.store);
    let changed = |p: &Patch<D>| match orig {
        None => true,
        Some(o) => {
            let mut any = false;
            for_each_elem(p, |_, _, pos| any |= !same(&values[pos], &o[pos]));
            any
        }
    };
    let count = runs.count();
    if runs.num_patches() > 1 && count >= threshold {
        if let Some((lo, g, n)) = hull(runs) {
            // Only when the patches fill the hull: no other element is overwritten.
            if n == count {
                if runs.patches().any(|p| changed(&p)) {
                    packed.clear();
                    packed.resize(n, T::default());
                    for p in runs.patches() {
                        for_each_elem(&p, |_, loc, pos| packed[(loc - lo) / g] = values[pos]);
                    }
                    store.put_strided(ctx, t, lo, &[n], &[g], packed)?;
                    tally.strided += 1;
                }
                return Ok(());
            }
        }
    }
    for p in runs.patches() {
        if !changed(&p) {
            continue;
        }
        let n = p.len();
        if n >= threshold && n >= 2 {
            packed.clear();
            packed.resize(n, T::default());
            for_each_elem(&p, |k, _, pos| packed[k] = values[pos]);
            store.put_strided(ctx, t, p.local_offset, &p.global.shape(), &p.local_strides, packed)?;
            tally.strided += 1;
        } else {
            let mut err = Ok(());
            for_each_elem(&p, |_, loc, pos| {
                if err.is_ok() && orig.is_none_or(|o| !same(&values[pos], &o[pos])) {
                    err = store.put(ctx, t, loc, &values[pos..pos + 1]);
                    tally.element += 1;
                }
            });
            err?;
        }
    }
    Ok(())
}

/// Bitwise equality (so a NaN written over a NaN is "unchanged", and -0.0 over 0.0 is a change).
#[inline]
fn same<T: Elem>(a: &T, b: &T) -> bool {
    crate::elem::as_bytes(std::slice::from_ref(a)) == crate::elem::as_bytes(std::slice::from_ref(b))
}
