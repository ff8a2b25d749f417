//! Strided copies: the N-d views of the Python front end (transposes, broadcasts, selections
//! with steps) made as new Block arrays.
//!
//! Output element `i` (in the C order of `shape`) is source element
//! `offset + sum_k idx_k(i) * strides_k`. Each locale walks its own output part with an
//! odometer (no divisions per element) and reads the source positions it needs: when they lie
//! in an interval not much longer than their count (a broadcast, a block of rows, a stencil's
//! shifted slice, a transpose on a few locales) the interval is fetched with one bulk get per
//! owner and the output filled from it; otherwise the positions go through the general
//! distributed gather.

use super::local_range;
use crate::handles::{Array, Session};
use crate::registry::{lock, Col, Registry};
use atoll::array::{dist, DistArray, Elem};
use atoll::runtime::{Ctx, GlobalPtr, Handler, Pod};
use atoll::{Error, Result};
use serde::{Deserialize, Serialize};
use std::ops::Range;

/// A new array `id` of `shape`'s size: the strided view of array `src`.
#[derive(Serialize, Deserialize)]
pub struct Strided {
    /// The new array's id.
    pub id: u64,
    /// The array read.
    pub src: u64,
    /// The source position of the first element.
    pub offset: i64,
    /// The view's shape (C order).
    pub shape: Vec<usize>,
    /// The source step of each axis, in elements (0 for a broadcast axis, negative to reverse).
    pub strides: Vec<i64>,
}

/// The source positions of output elements `lo..hi` of the view, in order.
pub fn strided_positions(offset: i64, shape: &[usize], strides: &[i64], lo: usize, hi: usize) -> Vec<i64> {
    let mut out = Vec::with_capacity(hi - lo);
    if lo >= hi {
        return out;
    }
    let nd = shape.len();
    if nd == 0 {
        out.push(offset);
        return out;
    }
    let mut idx = vec![0usize; nd];
    let mut rem = lo;
    for k in (0..nd).rev() {
        idx[k] = rem % shape[k];
        rem /= shape[k];
    }
    let mut p = offset + idx.iter().zip(strides).map(|(&i, &s)| i as i64 * s).sum::<i64>();
    let last = nd - 1;
    let (nl, sl) = (shape[last], strides[last]);
    let mut i = lo;
    while i < hi {
        let run = (nl - idx[last]).min(hi - i);
        out.extend((0..run as i64).map(|t| p + t * sl));
        i += run;
        p += run as i64 * sl;
        idx[last] += run;
        if idx[last] == nl {
            p -= nl as i64 * sl;
            idx[last] = 0;
            let mut k = last;
            while k > 0 {
                k -= 1;
                idx[k] += 1;
                p += strides[k];
                if idx[k] < shape[k] {
                    break;
                }
                p -= shape[k] as i64 * strides[k];
                idx[k] = 0;
            }
        }
    }
    out
}

/// The Block ranges of the `nl` locales over `n` elements.
pub(super) fn block_ranges(ctx: &Ctx, n: usize) -> Result<Vec<Range<usize>>> {
    let d = dist::block(ctx, [n])?;
    (0..ctx.num_locales())
        .map(|l| {
            let dom = d.local_domain(l)?;
            let r = &dom.dims()[0];
            Ok(if r.is_empty() { 0..0 } else { r.lo() as usize..r.lo() as usize + r.len() })
        })
        .collect()
}

/// Source elements `lo..hi` (global positions) read from their owners' parts, whose starts
/// are `ptrs` and ranges `parts`: one bulk get per owner.
pub(super) fn fetch<W: Pod>(ctx: &Ctx, ptrs: &[GlobalPtr<W>], parts: &[Range<usize>], lo: usize, hi: usize) -> Result<Vec<W>> {
    let mut buf = vec![W::zeroed(); hi - lo];
    for (ptr, r) in ptrs.iter().zip(parts) {
        let a = r.start.max(lo);
        let b = r.end.min(hi);
        if a < b {
            ctx.get(ptr.add(a - r.start), &mut buf[a - lo..b - lo])?;
        }
    }
    Ok(buf)
}

/// Elements `lo..hi` (global positions) of the Block array `x`, one bulk get per owner.
pub(super) fn read_range<T: Elem + Pod>(ctx: &Ctx, x: &DistArray<T, 1>, lo: usize, hi: usize) -> Result<Vec<T>> {
    let parts = block_ranges(ctx, x.len())?;
    let ptrs: Vec<GlobalPtr<T>> = (0..ctx.num_locales()).map(|l| x.part_ptr(l)).collect::<Result<_>>()?;
    fetch(ctx, &ptrs, &parts, lo, hi)
}

/// The interval of `pos` when it is dense enough to fetch whole (its length at most four
/// times the count, plus a slack for small views); None otherwise.
fn dense_span(pos: &[i64]) -> Option<(usize, usize)> {
    let (&first, rest) = pos.split_first()?;
    let (lo, hi) = rest.iter().fold((first, first), |(a, b), &p| (a.min(p), b.max(p)));
    let span = (hi - lo + 1) as usize;
    (span <= 4 * pos.len() + (1 << 16)).then_some((lo as usize, hi as usize + 1))
}

/// Whether every locale's positions are dense (a collective vote, so all take one path).
fn all_dense(ctx: &Ctx, mine: bool) -> Result<bool> {
    ctx.allreduce(mine, |a, b| a && b)
}

fn strided_pod<T: Elem + Pod>(ctx: &Ctx, src: &DistArray<T, 1>, pos: &[i64], n: usize) -> Result<DistArray<T, 1>> {
    let span = dense_span(pos);
    if !all_dense(ctx, span.is_some() || pos.is_empty())? {
        return gather_general(ctx, src, pos, n);
    }
    let mut out = DistArray::<T, 1>::for_overwrite(ctx, dist::block(ctx, [n])?)?;
    if let Some((lo, hi)) = span {
        let buf = read_range(ctx, src, lo, hi)?;
        for (o, &p) in out.local_mut().iter_mut().zip(pos) {
            *o = buf[p as usize - lo];
        }
    }
    ctx.barrier()?;
    Ok(out)
}

fn strided_bool(ctx: &Ctx, src: &DistArray<bool, 1>, pos: &[i64], n: usize) -> Result<DistArray<bool, 1>> {
    let span = dense_span(pos);
    if !all_dense(ctx, span.is_some() || pos.is_empty())? {
        return gather_general(ctx, src, pos, n);
    }
    let mut out = DistArray::<bool, 1>::for_overwrite(ctx, dist::block(ctx, [n])?)?;
    if let Some((lo, hi)) = span {
        let parts = block_ranges(ctx, src.len())?;
        // A bool is stored as one byte, 0 or 1: the parts are read as bytes.
        let ptrs: Vec<GlobalPtr<u8>> = (0..ctx.num_locales())
            .map(|l| src.part_ptr(l).map(|p| GlobalPtr::<u8>::new(l, p.addr())))
            .collect::<Result<_>>()?;
        let buf = fetch(ctx, &ptrs, &parts, lo, hi)?;
        for (o, &p) in out.local_mut().iter_mut().zip(pos) {
            *o = buf[p as usize - lo] != 0;
        }
    }
    ctx.barrier()?;
    Ok(out)
}

/// The general path: the positions as a Block index array, one distributed gather.
fn gather_general<T: Elem>(ctx: &Ctx, src: &DistArray<T, 1>, pos: &[i64], n: usize) -> Result<DistArray<T, 1>> {
    let mut idx = DistArray::<i64, 1>::for_overwrite(ctx, dist::block(ctx, [n])?)?;
    idx.local_mut().copy_from_slice(pos);
    ctx.barrier()?;
    src.take(&idx)
}

fn strided_cmd(ctx: &Ctx, Strided { id, src, offset, shape, strides }: Strided) -> Result<()> {
    if shape.len() != strides.len() {
        return Err(Error::InvalidArgument("strided: shape and strides differ in length".into()));
    }
    let n: usize = shape.iter().product();
    let s = Registry::of(ctx).get(src)?;
    let g = lock(&s);
    let len = g.len() as i64;
    // The view's extreme positions, checked against the source before anything is read.
    if n > 0 {
        let (mut lo, mut hi) = (offset, offset);
        for (&m, &st) in shape.iter().zip(&strides) {
            let d = (m as i64 - 1) * st;
            if d < 0 {
                lo += d;
            } else {
                hi += d;
            }
        }
        if lo < 0 || hi >= len {
            return Err(Error::IndexOutOfBounds {
                index: format!("{lo}..={hi}"),
                bounds: format!("an array of size {len}"),
            });
        }
    }
    let r = local_range(ctx, n)?;
    let pos = strided_positions(offset, &shape, &strides, r.start, r.end);
    let out = match &*g {
        Col::I(a) => strided_pod(ctx, a, &pos, n).map(Col::I),
        Col::U(a) => strided_pod(ctx, a, &pos, n).map(Col::U),
        Col::F(a) => strided_pod(ctx, a, &pos, n).map(Col::F),
        Col::U8(a) => strided_pod(ctx, a, &pos, n).map(Col::U8),
        Col::B(a) => strided_bool(ctx, a, &pos, n).map(Col::B),
    }?;
    drop(g);
    Registry::of(ctx).insert(id, out);
    Ok(())
}

/// The strided view of `a` (`offset`, per-axis `strides` in elements, `shape`, C order) as a
/// new array; an `IndexOutOfBounds` error when the view reaches outside `a`. **Collective.**
pub fn strided(s: &Session, a: &Array, offset: i64, shape: &[usize], strides: &[i64]) -> Result<Array> {
    let n = shape.iter().product();
    let cmd = Strided { id: 0, src: a.id, offset, shape: shape.to_vec(), strides: strides.to_vec() };
    s.new_array(a.dtype, n, |id| s.exec(&STRIDED, Strided { id, ..cmd }))
}

commands! {
    /// A new array `id`: the strided view (offset, shape, strides) of array `src`.
    pub static STRIDED: Handler<Strided, ()> = Handler::new("atoll-session::strided", strided_cmd);
}
