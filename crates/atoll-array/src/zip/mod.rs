//! The zip engine: owner-computes iteration over a leader, with followers that fetch the
//! matching elements (see the crate's README for the design).
//!
//! The leader's elements on this locale are listed as *tiles* (one per combination of the
//! per-dimension pieces that [`Distribution::runs`] returns), and tiles are cut into *segments*
//! of at most [`SEG`] iterations along the last dimension. Consecutive rows of one tile plane
//! (the same columns, next positions in the second-to-last dimension) form a *group* of at most
//! [`GROUP`] iterations: the unit of work for the task pool, and the chunk that a follower
//! fetches at once (so a column halo of a Block array is one strided transfer per group, not one
//! per row). Every operand turns each segment into a [`Row`] of values: a borrowed slice of local
//! storage when it is aligned with the leader (same distribution and domain) and contiguous, the
//! segment's row of the group it fetched otherwise (`follow/mod.rs`).
//!
//! Beside this file, the folder holds what every loop over a plan shares:
//! - `strided_row.rs`: [`StridedRow`](crate::StridedRow), a row read in place at a fixed stride;
//! - `local_only.rs`: the barrier rule of collective loops (aligned loops skip the leading one);
//! - `local_order.rs`: 1-D leaders run as flat segments in storage order;
//! - `sublocales.rs`: leaders whose pieces target sublocales, each run on its sublocale's pool.

use atoll_dist::{Distribution, Domain, Piece, StridedRange};
use atoll_error::{invalid_arg, Error, Result};
use atoll_runtime::Ctx;
use atoll_util::sync::{into_inner, lock};
use std::any::Any;
use std::sync::Mutex;

pub(crate) mod local_only;
mod local_order;
pub(crate) mod strided_row;
mod sublocales;

/// The largest number of iterations in one segment (the rows of scratch buffers).
pub const SEG: usize = 8192;

/// The largest number of iterations in one group of segments (the chunk a follower fetches at
/// once). It depends only on the tile's shape, never on the threads, so message counts are the
/// same on every backend.
pub const GROUP: usize = 1 << 15;

/// A run of iterations: iteration positions `pos` with the last coordinate advancing by
/// `step`, for `len` iterations; the leader's elements are at local offsets
/// `off + j * off_step`. When `flat` is set the run may cross rows and `pos`/`step` are not
/// meaningful: only operands aligned with the leader are asked for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seg<const D: usize> {
    /// The iteration position (per dimension) of the first iteration.
    pub pos: [usize; D],
    /// The step of the last coordinate.
    pub step: usize,
    /// The number of iterations.
    pub len: usize,
    /// The leader's local offset of the first iteration.
    pub off: usize,
    /// The leader's local-offset step.
    pub off_step: usize,
    /// Whether the run crosses rows (only aligned operands are used then).
    pub flat: bool,
    /// This segment's row in its group (`0..rows`).
    pub row: usize,
    /// The rows (segments) of its group: consecutive positions of the second-to-last dimension,
    /// the same positions in the others. 1 for flat segments and 1-D loops.
    pub rows: usize,
    /// The position step of the second-to-last dimension between the rows of the group.
    pub row_step: usize,
}

impl<const D: usize> Seg<D> {
    /// The positions of this (non-flat) segment as a domain of positions.
    pub(crate) fn positions(&self) -> Domain<D> {
        let dims = std::array::from_fn(|d| {
            if d + 1 == D {
                StridedRange::from_parts(self.pos[d] as i64, self.step.max(1) as u64, self.len)
                    .unwrap_or_else(|_| StridedRange::empty())
            } else {
                StridedRange::new(self.pos[d] as i64, self.pos[d] as i64 + 1)
            }
        });
        Domain::new(dims).unwrap_or_else(|_| unreachable_domain())
    }

    /// The positions of this segment's whole group (its rows in order), as a domain.
    pub(crate) fn group_positions(&self) -> Domain<D> {
        let mut dom = self.positions();
        if self.rows > 1 && D >= 2 {
            let rd = D.saturating_sub(2);
            let mut dims = *dom.dims();
            let first = self.pos[rd] - self.row * self.row_step;
            dims[rd] = StridedRange::from_parts(first as i64, self.row_step.max(1) as u64, self.rows)
                .unwrap_or_else(|_| StridedRange::empty());
            dom = Domain::new(dims).unwrap_or_else(|_| unreachable_domain());
        }
        dom
    }

    /// The number of iterations of the whole group (`rows * len`).
    pub(crate) fn group_len(&self) -> usize {
        self.rows * self.len
    }
}

fn unreachable_domain<const D: usize>() -> Domain<D> {
    // Ranks 1..=3 are checked when arrays are made, and the sizes here are bounded by them.
    Domain::new([StridedRange::empty(); D]).expect("rank checked at array creation")
}

/// A D-dimensional box of the leader's local elements: iteration positions
/// `pos0[d] + t[d] * pos_step[d]`, local offsets `off0 + sum(t[d] * off_step[d])`.
#[derive(Clone, Copy, Debug)]
struct Tile<const D: usize> {
    pos0: [usize; D],
    pos_step: [usize; D],
    off0: usize,
    off_step: [usize; D],
    shape: [usize; D],
    flat: bool,
    /// The rows of one group (1: every segment is its own group).
    group_rows: usize,
}

impl<const D: usize> Tile<D> {
    fn len(&self) -> usize {
        self.shape.iter().product()
    }

    /// Whether the tile is one contiguous run of local offsets in row-major order.
    fn contiguous(&self) -> bool {
        let mut expect = 1usize;
        for d in (0..D).rev() {
            if self.shape[d] > 1 && self.off_step[d] != expect {
                return false;
            }
            expect = expect.saturating_mul(self.shape[d]);
        }
        true
    }

    fn num_segs(&self) -> usize {
        if self.flat {
            self.len().div_ceil(SEG)
        } else {
            let rows: usize = self.shape[..D - 1].iter().product();
            rows * self.shape[D - 1].div_ceil(SEG)
        }
    }

    /// Chooses the rows per group: consecutive rows of a plane when each row is one segment.
    fn set_groups(&mut self) {
        let last = self.shape[D - 1];
        self.group_rows = if self.flat || D < 2 || last == 0 || last > SEG {
            1
        } else {
            (GROUP / last).clamp(1, self.shape[D.saturating_sub(2)].max(1))
        };
    }

    fn num_groups(&self) -> usize {
        if self.group_rows == 1 {
            return self.num_segs();
        }
        let rd = D.saturating_sub(2);
        let plane = self.shape[rd];
        let planes: usize = self.shape[..rd].iter().product();
        planes * plane.div_ceil(self.group_rows)
    }

    /// Group `g`: its first segment and its number of segments (one segment per row).
    fn group(&self, g: usize) -> (usize, usize) {
        if self.group_rows == 1 {
            return (g, 1);
        }
        let plane = self.shape[D.saturating_sub(2)];
        let per_plane = plane.div_ceil(self.group_rows);
        let (p, i) = (g / per_plane, g % per_plane);
        let first = i * self.group_rows;
        (p * plane + first, self.group_rows.min(plane - first))
    }

    fn seg(&self, k: usize) -> Seg<D> {
        if self.flat {
            let start = k * SEG;
            return Seg {
                pos: [0; D],
                step: 1,
                len: SEG.min(self.len() - start),
                off: self.off0 + start,
                off_step: 1,
                flat: true,
                row: 0,
                rows: 1,
                row_step: 0,
            };
        }
        let last = self.shape[D - 1];
        let cpr = last.div_ceil(SEG);
        let (mut row, c) = (k / cpr, k % cpr);
        let mut pos = [0usize; D];
        let mut off = self.off0;
        for d in (0..D - 1).rev() {
            let t = row % self.shape[d];
            row /= self.shape[d];
            pos[d] = self.pos0[d] + t * self.pos_step[d];
            off += t * self.off_step[d];
        }
        let j0 = c * SEG;
        pos[D - 1] = self.pos0[D - 1] + j0 * self.pos_step[D - 1];
        Seg {
            pos,
            step: self.pos_step[D - 1],
            len: SEG.min(last - j0),
            off: off + j0 * self.off_step[D - 1],
            off_step: self.off_step[D - 1],
            flat: false,
            row: 0,
            rows: 1,
            row_step: if D >= 2 { self.pos_step[D.saturating_sub(2)] } else { 0 },
        }
    }
}

/// One dimension's piece of the leader's part, as a tile dimension: `len` positions
/// `sub_start + t * sub_stride` at local positions `local_start + t * local_stride`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Run1 {
    pub(crate) sub_start: usize,
    pub(crate) sub_stride: usize,
    pub(crate) local_start: usize,
    pub(crate) local_stride: usize,
    pub(crate) len: usize,
}

impl Run1 {
    fn of(p: &Piece) -> Run1 {
        Run1 {
            sub_start: p.sub_start,
            sub_stride: p.sub_stride,
            local_start: p.local_start,
            local_stride: p.local_stride,
            len: p.len(),
        }
    }

    /// The pieces of one dimension as tile dimensions: one run when together they are one
    /// progression of sub-domain positions at one progression of local positions (the residue
    /// classes of a BlockCyclic dimension that a single grid coordinate owns whole, whose
    /// blocks follow each other in the buffer), so the leader's tiles are long runs rather than
    /// one per residue class at the block's stride; else one run per piece.
    pub(crate) fn merged(ps: &[Piece]) -> Vec<Run1> {
        let runs: Vec<Run1> = ps.iter().map(Run1::of).collect();
        match Run1::merge(&runs) {
            Some(m) if runs.len() > 1 => vec![m],
            _ => runs,
        }
    }

    fn merge(rs: &[Run1]) -> Option<Run1> {
        let total: usize = rs.iter().map(|r| r.len).sum();
        let first = rs.iter().min_by_key(|r| r.sub_start)?;
        let (s0, l0) = (first.sub_start, first.local_start);
        if total == 1 {
            return Some(*first);
        }
        // The second position: the first one's next element or another run's first.
        let mut second = if first.len >= 2 { Some((s0 + first.sub_stride, l0 + first.local_stride)) } else { None };
        for r in rs {
            if r.sub_start > s0 && second.is_none_or(|(s, _)| r.sub_start < s) {
                second = Some((r.sub_start, r.local_start));
            }
        }
        let (s1, l1) = second?;
        let (ss, lstep) = (s1.checked_sub(s0)?, l1.checked_sub(l0)?);
        if ss == 0 || lstep == 0 {
            return None;
        }
        let last = s0.checked_add((total - 1).checked_mul(ss)?)?;
        // Every run is a sub-progression of the line `(s0 + k ss, l0 + k lstep)` inside its
        // first `total` points; disjoint runs with `total` elements in all then cover it.
        let fits = |r: &Run1| {
            let k0 = (r.sub_start - s0) / ss;
            if (r.sub_start - s0) % ss != 0
                || Some(r.local_start) != k0.checked_mul(lstep).and_then(|x| x.checked_add(l0))
            {
                return false;
            }
            if r.len < 2 {
                return r.sub_start <= last;
            }
            let m = r.sub_stride / ss;
            r.sub_stride % ss == 0
                && m >= 1
                && m.checked_mul(lstep) == Some(r.local_stride)
                && (r.len - 1)
                    .checked_mul(r.sub_stride)
                    .and_then(|x| x.checked_add(r.sub_start))
                    .is_some_and(|e| e <= last)
        };
        rs.iter().all(fits).then_some(Run1 {
            sub_start: s0,
            sub_stride: ss,
            local_start: l0,
            local_stride: lstep,
            len: total,
        })
    }
}

/// The leader of a zip on this locale: the iteration shape, the leader's distribution and
/// domain (so followers can tell whether they are aligned), and its local tiles.
pub struct Plan<'a, const D: usize> {
    pub(crate) ctx: &'a Ctx,
    pub(crate) shape: [usize; D],
    pub(crate) dist: &'a (dyn Any + Send + Sync),
    pub(crate) dom: Domain<D>,
    tiles: Vec<Tile<D>>,
    prefix: Vec<usize>,
    /// Whether the leader is index-ordered (see `reduce/ordered.rs`), for its distribution type.
    index_ordered: fn(&Plan<'_, D>) -> Result<bool>,
    /// For a leader whose pieces target sublocales: the first tile of each sublocale (and the
    /// tile count last); its groups run on that sublocale's pool (`zip/sublocales.rs`).
    sub_tiles: Option<Vec<usize>>,
}

impl<'a, const D: usize> Plan<'a, D> {
    /// The plan of a leader with distribution `dist` over the (sub-)domain `dom`.
    pub(crate) fn new<M: Distribution<D> + 'static>(ctx: &'a Ctx, dist: &'a M, dom: Domain<D>) -> Result<Self> {
        let mut tiles = Vec::new();
        if dist.grid().contains(ctx.id()) && !dom.is_empty() {
            let runs = dist.runs(ctx.id(), &dom)?;
            let ls = runs.local_strides();
            let pieces: [Vec<Run1>; D] = std::array::from_fn(|d| Run1::merged(&runs.pieces()[d]));
            let counts: Vec<usize> = pieces.iter().map(Vec::len).collect();
            let total: usize = counts.iter().product();
            for mut k in 0..total {
                let mut tile = Tile {
                    pos0: [0; D],
                    pos_step: [0; D],
                    off0: 0,
                    off_step: [0; D],
                    shape: [0; D],
                    flat: false,
                    group_rows: 1,
                };
                for d in (0..D).rev() {
                    let p = &pieces[d][k % counts[d]];
                    k /= counts[d];
                    tile.pos0[d] = p.sub_start;
                    tile.pos_step[d] = p.sub_stride;
                    tile.off0 += p.local_start * ls[d];
                    tile.off_step[d] = p.local_stride * ls[d];
                    tile.shape[d] = p.len;
                }
                tiles.push(tile);
            }
        }
        let index_ordered = plan_index_ordered::<M, D>;
        let mut plan =
            Plan { ctx, shape: dom.shape(), dist, dom, tiles, prefix: Vec::new(), index_ordered, sub_tiles: None };
        plan.index();
        Ok(plan)
    }

    /// Whether each locale's elements are one run of row-major positions, in locale order
    /// (see `reduce/ordered.rs`): then folding in segment order and combining in locale order is
    /// index order. Pure index math.
    pub(crate) fn index_ordered(&self) -> Result<bool> {
        (self.index_ordered)(self)
    }

    /// Numbers the groups of every tile (`prefix[t]`: the first group of tile `t`).
    fn index(&mut self) {
        self.prefix.clear();
        let mut n = 0;
        for t in &mut self.tiles {
            t.set_groups();
            self.prefix.push(n);
            n += t.num_groups();
        }
        self.prefix.push(n);
    }

    /// Lets contiguous tiles run as flat segments (when every operand is aligned and the loop
    /// does not need positions).
    pub(crate) fn flatten(&mut self) {
        for t in &mut self.tiles {
            t.flat = t.contiguous();
        }
        self.index();
    }

    /// The number of groups on this locale.
    fn num_groups(&self) -> usize {
        self.prefix.last().copied().unwrap_or(0)
    }

    /// The segments of group `g`, in order.
    fn group(&self, g: usize) -> impl Iterator<Item = Seg<D>> + '_ {
        let t = self.prefix.partition_point(|&p| p <= g) - 1;
        let tile = &self.tiles[t];
        let (first, rows) = tile.group(g - self.prefix[t]);
        (0..rows).map(move |row| Seg { row, rows, ..tile.seg(first + row) })
    }

    /// The segments of groups `r`, in order.
    fn segs(&self, r: std::ops::Range<usize>) -> impl Iterator<Item = Seg<D>> + '_ {
        r.flat_map(|g| self.group(g))
    }

    /// The number of iterations this locale runs.
    pub fn local_iterations(&self) -> usize {
        self.tiles.iter().map(Tile::len).sum()
    }

    /// Whether a follower with distribution `dist` over `dom` is aligned with the leader:
    /// the same distribution and the same domain, so the same local offsets.
    pub(crate) fn is_aligned<M: Distribution<D> + 'static>(&self, dist: &M, dom: &Domain<D>) -> bool {
        *dom == self.dom && self.dist.downcast_ref::<M>().is_some_and(|m| m == dist)
    }

    /// An error unless `shape` is the iteration shape. `what` describes the operand; it is
    /// only formatted for the error (binding an operand runs once per loop, so a matching shape
    /// allocates nothing).
    pub(crate) fn check_shape(&self, shape: [usize; D], what: impl FnOnce() -> String) -> Result<()> {
        if shape == self.shape {
            Ok(())
        } else {
            Err(Error::ShapeMismatch {
                context: format!("zipping {} with a leader over {}", what(), self.dom),
                left: format!("{:?}", self.shape),
                right: format!("{shape:?}"),
            })
        }
    }

    /// Runs `f(range of groups)` over this locale's groups on its task pools, in dynamic chunks;
    /// a loop of at most [`SEG`] iterations is one chunk, which runs on the calling thread (a
    /// hand-off to the pool would cost more than the loop).
    fn chunks(&self, f: impl Fn(std::ops::Range<usize>) + Sync) -> Result<()> {
        let n = self.num_groups();
        if let Some(parts) = self.sublocale_groups() {
            return self.ctx.forall_chunks_on_sublocales(&parts, 0, |_, r| f(r));
        }
        if self.local_iterations() <= SEG {
            self.ctx.forall_chunks_with(0..n, n, f);
        } else {
            self.ctx.forall_chunks(0..n, f);
        }
        Ok(())
    }

    /// Runs `f(segment, scratch)` over every segment on this locale's task pools, with one
    /// scratch value per chunk of groups; the segments of a group run in order, on one task.
    /// Returns the first error.
    pub(crate) fn for_each<S: Default>(&self, f: impl Fn(&Seg<D>, &mut S) -> Result<()> + Sync) -> Result<()> {
        let err: Mutex<Option<Error>> = Mutex::new(None);
        self.chunks(|r| {
            let mut s = S::default();
            for seg in self.segs(r) {
                if let Err(e) = f(&seg, &mut s) {
                    let mut g = lock(&err);
                    g.get_or_insert(e);
                    return;
                }
            }
        })?;
        match into_inner(err) {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// Folds `f(acc, segment, scratch)` over every segment on this locale's task pools (the
    /// segments of a group in order, on one task) and combines the chunks' results in segment
    /// order (deterministic). Returns the first error.
    pub(crate) fn fold<A: Send + Sync + Clone, S: Default>(
        &self,
        identity: A,
        f: impl Fn(A, &Seg<D>, &mut S) -> Result<A> + Sync,
        combine: impl Fn(A, A) -> A,
    ) -> Result<A> {
        let parts: Mutex<Vec<(usize, Result<A>)>> = Mutex::new(Vec::new());
        self.chunks(|r| {
            let mut s = S::default();
            let first = r.start;
            let mut acc = Ok(identity.clone());
            for seg in self.segs(r) {
                acc = acc.and_then(|a| f(a, &seg, &mut s));
                if acc.is_err() {
                    break;
                }
            }
            lock(&parts).push((first, acc));
        })?;
        let mut parts = into_inner(parts);
        parts.sort_by_key(|(k, _)| *k);
        let mut acc = identity;
        for (_, p) in parts {
            acc = combine(acc, p?);
        }
        Ok(acc)
    }
}

/// A row of values for one segment: `at(j)` for `j < seg.len`.
pub trait Row {
    /// The value type.
    type Item;
    /// The value of iteration `j` of the segment.
    fn at(&self, j: usize) -> Self::Item;
    /// The same row with every part contiguous, as slices (so loops over it vectorize as
    /// loops over slices do).
    type Unit<'r>: Row<Item = Self::Item>
    where
        Self: 'r;
    /// `Some` when every part of the row reads contiguous memory (no
    /// [`crate::StridedRow`] at a stride other than 1).
    fn unit(&self) -> Option<Self::Unit<'_>>;
}

/// Runs `$body` with `$r` bound to the row `$row`, in two versions: with `$r` the row's
/// contiguous form ([`Row::unit`]) when it has one (vectorizable loads), else the row itself.
macro_rules! unit_versioned {
    ($row:expr, |$r:ident| $body:expr) => {{
        let row_ = &$row;
        let unit_ = $crate::zip::Row::unit(row_);
        let out_ = match unit_ {
            Some($r) => $body,
            None => {
                let $r = row_;
                $body
            }
        };
        out_
    }};
}
pub(crate) use unit_versioned;

impl<R: Row> Row for &R {
    type Item = R::Item;
    #[inline(always)]
    fn at(&self, j: usize) -> R::Item {
        (**self).at(j)
    }
    type Unit<'r>
        = R::Unit<'r>
    where
        Self: 'r;
    #[inline(always)]
    fn unit(&self) -> Option<R::Unit<'_>> {
        (**self).unit()
    }
}

impl<T: Copy> Row for &[T] {
    type Item = T;
    #[inline(always)]
    fn at(&self, j: usize) -> T {
        self[j]
    }
    type Unit<'r>
        = &'r [T]
    where
        Self: 'r;
    #[inline(always)]
    fn unit(&self) -> Option<&[T]> {
        Some(self)
    }
}

/// Whether the leader `dist` over `dom` is index-ordered (see `reduce/ordered.rs`): pure index
/// math, the same answer on every locale.
pub(crate) fn index_ordered<M: Distribution<D>, const D: usize>(dist: &M, dom: &Domain<D>) -> Result<bool> {
    if dom.is_empty() {
        return Ok(true);
    }
    let shape = dom.shape();
    let strides = dom.row_major_strides();
    let mut next = 0usize;
    let mut targets = dist.grid().targets().to_vec();
    targets.sort_unstable();
    for t in targets {
        let runs = dist.runs(t, dom)?;
        let pieces = runs.pieces();
        if pieces.iter().any(Vec::is_empty) {
            continue;
        }
        if pieces.iter().any(|p| p.len() != 1) {
            return Ok(false);
        }
        let p: [atoll_dist::Piece; D] = std::array::from_fn(|d| pieces[d][0]);
        let full =
            |d: usize| p[d].sub_start == 0 && p[d].len() == shape[d] && (p[d].len() == 1 || p[d].sub_stride == 1);
        // The dimensions after k are whole, k is one run of positions, the ones before are single.
        let mut k = D - 1;
        while k > 0 && full(k) {
            k -= 1;
        }
        if !(p[k].len() == 1 || p[k].sub_stride == 1) || (0..k).any(|d| p[d].len() != 1) {
            return Ok(false);
        }
        let start: usize = (0..D).map(|d| p[d].sub_start * strides[d]).sum();
        let len: usize = p.iter().map(atoll_dist::Piece::len).product();
        if start != next {
            return Ok(false);
        }
        next = start + len;
    }
    Ok(next == dom.size())
}

/// The type-erased [`index_ordered`] a [`Plan`] keeps for its leader.
pub(crate) fn plan_index_ordered<M: Distribution<D> + 'static, const D: usize>(plan: &Plan<'_, D>) -> Result<bool> {
    let dist = plan
        .dist
        .downcast_ref::<M>()
        .ok_or_else(|| invalid_arg!("a plan's distribution has another type than its leader's"))?;
    index_ordered(dist, &plan.dom)
}
