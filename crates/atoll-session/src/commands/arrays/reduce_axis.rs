//! Reductions along axes of N-d pdarrays: the array's C-order values seen as
//! (`outer`, `n`, `inner`) and reduced over the middle axis into an (`outer`, `inner`) Block
//! array, in one pass over each locale's part and one exchange of partial results.
//!
//! Each locale folds its own part into partial results for the output positions its rows touch
//! (a row of `inner` values at a time, combined element-wise into the partial row of its
//! `outer` index: a streaming, vectorizable loop; with `inner == 1`, each run of a lane folded
//! to one value). A part covers a contiguous range of `outer` indices, so each locale's partial
//! results are one contiguous range of output positions; `alltoallv` sends each owner of the
//! output the slice of that range it owns, and the owner combines the slices of every locale
//! (all but the edges of a part reach one owner). A locale's reads are its own part only.

use super::local_range;
use super::strided::block_ranges;
use crate::handles::{Array, Session};
use crate::registry::{lock, Col, Registry};
use atoll::array::{dist, DistArray, Elem};
use atoll::runtime::{Ctx, Handler, Pod};
use atoll::{Error, Result};
use serde::{Deserialize, Serialize};
use std::ops::Range;

/// The reductions along an axis.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub enum AxisOp {
    /// The sum (integers wrap).
    Sum,
    /// The product (integers wrap).
    Prod,
    /// The smallest value (NaN when a float lane holds one).
    Min,
    /// The largest value (NaN when a float lane holds one).
    Max,
}

/// A new array `id` of `outer * inner` elements: `op` of array `src` (of `outer * n * inner`
/// elements) over its middle axis.
#[derive(Serialize, Deserialize)]
pub struct ReduceAxis {
    /// The new array's id.
    pub id: u64,
    /// The array reduced.
    pub src: u64,
    /// The product of the axes before the reduced ones.
    pub outer: usize,
    /// The product of the reduced axes.
    pub n: usize,
    /// The product of the axes after the reduced ones.
    pub inner: usize,
    /// The reduction.
    pub op: AxisOp,
}

/// The element operations of one dtype.
trait Fold: Elem + Pod {
    fn identity(op: AxisOp) -> Self;
    fn combine(op: AxisOp, a: Self, b: Self) -> Self;
}

impl Fold for f64 {
    fn identity(op: AxisOp) -> Self {
        match op {
            AxisOp::Sum => 0.0,
            AxisOp::Prod => 1.0,
            AxisOp::Min => f64::INFINITY,
            AxisOp::Max => f64::NEG_INFINITY,
        }
    }
    #[inline(always)]
    fn combine(op: AxisOp, a: Self, b: Self) -> Self {
        match op {
            AxisOp::Sum => a + b,
            AxisOp::Prod => a * b,
            // NaN wins, as NumPy's minimum and maximum.
            AxisOp::Min => {
                if a < b || a.is_nan() {
                    a
                } else {
                    b
                }
            }
            AxisOp::Max => {
                if a > b || a.is_nan() {
                    a
                } else {
                    b
                }
            }
        }
    }
}

macro_rules! int_fold {
    ($t:ty) => {
        impl Fold for $t {
            fn identity(op: AxisOp) -> Self {
                match op {
                    AxisOp::Sum => 0,
                    AxisOp::Prod => 1,
                    AxisOp::Min => <$t>::MAX,
                    AxisOp::Max => <$t>::MIN,
                }
            }
            #[inline(always)]
            fn combine(op: AxisOp, a: Self, b: Self) -> Self {
                match op {
                    AxisOp::Sum => a.wrapping_add(b),
                    AxisOp::Prod => a.wrapping_mul(b),
                    AxisOp::Min => a.min(b),
                    AxisOp::Max => a.max(b),
                }
            }
        }
    };
}
int_fold!(i64);
int_fold!(u64);

/// `acc[k] = op(acc[k], x[k])`, one loop per operation so that each vectorizes.
#[inline]
fn combine_rows<T: Fold>(op: AxisOp, acc: &mut [T], x: &[T]) {
    match op {
        AxisOp::Sum => acc.iter_mut().zip(x).for_each(|(a, &v)| *a = T::combine(AxisOp::Sum, *a, v)),
        AxisOp::Prod => acc.iter_mut().zip(x).for_each(|(a, &v)| *a = T::combine(AxisOp::Prod, *a, v)),
        AxisOp::Min => acc.iter_mut().zip(x).for_each(|(a, &v)| *a = T::combine(AxisOp::Min, *a, v)),
        AxisOp::Max => acc.iter_mut().zip(x).for_each(|(a, &v)| *a = T::combine(AxisOp::Max, *a, v)),
    }
}

/// `op` of the values of `x` (eight interleaved accumulators, combined at the end).
fn fold_slice<T: Fold>(op: AxisOp, x: &[T]) -> T {
    let mut acc = [T::identity(op); 8];
    let mut chunks = x.chunks_exact(8);
    for c in &mut chunks {
        combine_rows(op, &mut acc, c);
    }
    let mut r = T::identity(op);
    for &v in acc.iter().chain(chunks.remainder()) {
        r = T::combine(op, r, v);
    }
    r
}

/// The output positions that the flat input range `part` touches (whole `outer` slabs).
fn touched(part: &Range<usize>, n: usize, inner: usize) -> Range<usize> {
    if part.is_empty() {
        return 0..0;
    }
    let slab = n * inner;
    (part.start / slab) * inner..((part.end - 1) / slab + 1) * inner
}

/// This locale's partial results over the output positions `touched(part)`.
fn partial<T: Fold>(op: AxisOp, x: &[T], part: &Range<usize>, n: usize, inner: usize) -> Vec<T> {
    let t = touched(part, n, inner);
    let mut acc = vec![T::identity(op); t.len()];
    let slab = n * inner;
    let mut p = part.start;
    while p < part.end {
        let o = p / slab;
        let base = (o * inner) - t.start;
        if inner == 1 {
            let end = part.end.min((o + 1) * slab);
            acc[base] = T::combine(op, acc[base], fold_slice(op, &x[p - part.start..end - part.start]));
            p = end;
        } else {
            let i = p % inner;
            let run = (inner - i).min(part.end - p);
            combine_rows(op, &mut acc[base + i..base + i + run], &x[p - part.start..p - part.start + run]);
            p += run;
        }
    }
    acc
}

fn reduce_t<T: Fold>(ctx: &Ctx, src: &DistArray<T, 1>, r: &ReduceAxis) -> Result<DistArray<T, 1>> {
    let (n, inner, op) = (r.n, r.inner, r.op);
    let total = r.outer * inner;
    let in_parts = block_ranges(ctx, src.len())?;
    let out_parts = block_ranges(ctx, total)?;
    let me = ctx.id();
    let mine = partial(op, src.local(), &in_parts[me], n, inner);
    let t = touched(&in_parts[me], n, inner);
    let sends: Vec<Vec<T>> = out_parts
        .iter()
        .map(|q| {
            let (a, b) = (t.start.max(q.start), t.end.min(q.end));
            if a < b {
                mine[a - t.start..b - t.start].to_vec()
            } else {
                Vec::new()
            }
        })
        .collect();
    let got = ctx.alltoallv(sends)?;
    let mut out = DistArray::<T, 1>::for_overwrite(ctx, dist::block(ctx, [total])?)?;
    let own = local_range(ctx, total)?;
    let local = out.local_mut();
    local.fill(T::identity(op));
    for (s, piece) in got.iter().enumerate() {
        let ts = touched(&in_parts[s], n, inner);
        let a = ts.start.max(own.start);
        if piece.is_empty() {
            continue;
        }
        combine_rows(op, &mut local[a - own.start..a - own.start + piece.len()], piece);
    }
    ctx.barrier()?;
    Ok(out)
}

fn reduce_axis_cmd(ctx: &Ctx, r: ReduceAxis) -> Result<()> {
    let s = Registry::of(ctx).get(r.src)?;
    let out = {
        let g = lock(&s);
        if g.len() != r.outer * r.n * r.inner {
            return Err(Error::InvalidArgument(format!(
                "reduce_axis: an array of {} elements seen as ({}, {}, {})",
                g.len(),
                r.outer,
                r.n,
                r.inner
            )));
        }
        if r.n == 0 && matches!(r.op, AxisOp::Min | AxisOp::Max) {
            return Err(Error::InvalidArgument("zero-size array to reduction operation which has no identity".into()));
        }
        match &*g {
            Col::F(a) => reduce_t(ctx, a, &r).map(Col::F),
            Col::I(a) => reduce_t(ctx, a, &r).map(Col::I),
            Col::U(a) => reduce_t(ctx, a, &r).map(Col::U),
            _ => Err(Error::InvalidArgument("internal: reduce_axis takes float64, int64 or uint64".into())),
        }?
    };
    Registry::of(ctx).insert(r.id, out);
    Ok(())
}

/// `op` of `a` (its values seen as (`outer`, `n`, `inner`)) over the middle axis, as a new
/// array of `outer * inner` elements (float64, int64 or uint64). **Collective.**
pub fn reduce_axis(s: &Session, a: &Array, outer: usize, n: usize, inner: usize, op: AxisOp) -> Result<Array> {
    s.new_array(a.dtype, outer * inner, |id| {
        s.exec(&REDUCE_AXIS, ReduceAxis { id, src: a.id, outer, n, inner, op })
    })
}

commands! {
    /// A new array `id`: `op` of array `src` over the middle axis of (outer, n, inner).
    pub static REDUCE_AXIS: Handler<ReduceAxis, ()> = Handler::new("atoll-session::reduce_axis", reduce_axis_cmd);
}
