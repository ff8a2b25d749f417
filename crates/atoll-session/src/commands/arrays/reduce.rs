//! Reductions and scans of expressions.

use super::{local_range, materialize, sub_chunks, with_bound, TASK};
use crate::eval::{combine, combine_tree, eval, fold, Access, Flags, Part, RedOp, CHUNK};
use crate::handles::{Array, Session};
use crate::registry::{lock, Col, Registry};
use crate::types::{DType, Node, Scal};
use atoll::runtime::{Ctx, Handler};
use atoll::util::sync::into_inner;
use atoll::{Error, Result};
use serde::{Deserialize, Serialize};
use std::sync::Mutex;

/// Runs `step` on each locale in turn, in locale order, handing each the previous locale's
/// result (`init` for locale 0), and returns the last locale's result everywhere: a loop over
/// the whole array in global order, one locale after another. Floating-point products are
/// computed this way (NumPy's order: the result does not depend on the locale count, and an
/// overflow followed by an underflow gives what one loop gives). **Collective** (one
/// broadcast per locale).
fn chain<T: Serialize + serde::de::DeserializeOwned + Clone>(
    ctx: &Ctx,
    init: T,
    mut step: impl FnMut(T) -> Result<T>,
) -> Result<T> {
    let mut acc: std::result::Result<T, Error> = Ok(init);
    for l in 0..ctx.num_locales() {
        let mine = (ctx.id() == l).then(|| acc.clone().and_then(&mut step));
        acc = ctx.broadcast(l, mine)?;
    }
    acc
}

/// The product of a float64 tree in global order ([`chain`]).
fn prod_in_order(ctx: &Ctx, node: &Node, n: usize) -> Result<Part> {
    let flags = Flags::default();
    let len = local_range(ctx, n)?.len();
    let total = with_bound(ctx, node, |b| {
        chain(ctx, 1.0f64, |mut acc| {
            for r in sub_chunks(0..len) {
                let v = eval(b, &r, &flags)?;
                match f64::arg(&v).ok_or_else(|| Error::InvalidArgument("internal: a float64 product".into()))? {
                    crate::eval::Arg::S(s) => s.iter().for_each(|&x| acc *= x),
                    crate::eval::Arg::C(c) => (0..r.len()).for_each(|_| acc *= c),
                }
            }
            Ok(acc)
        })
    })?;
    Ok(if n == 0 { Part::Empty } else { Part::Val(Scal::F(total)) })
}

/// This locale's part of the reduction `op` of an expression of `n` elements.
#[derive(Serialize, Deserialize)]
pub struct Reduce {
    /// The values.
    pub node: Node,
    /// Their number.
    pub n: usize,
    /// The reduction.
    pub op: RedOp,
}

fn reduce_cmd(ctx: &Ctx, Reduce { node, n, op }: Reduce) -> Result<Part> {
    let dtype = node.dtype();
    if op == RedOp::Prod && dtype == DType::F64 {
        return prod_in_order(ctx, &node, n);
    }
    let base = local_range(ctx, n)?.start as u64;
    let flags = Flags::default();
    let mine = with_bound(ctx, &node, |b| {
        let len = local_range(ctx, n)?.len();
        let parts = Mutex::new(Vec::new());
        let err = Mutex::new(None);
        ctx.forall_chunks_with(0..len, TASK, |t| {
            let start = t.start;
            if op == RedOp::Sum {
                // An array's sum: its chunks' pairwise sums several at a time (same values).
                if let Some(chunks) = crate::eval::sum_lockstep::leaf_chunk_parts(b, &t) {
                    let acc = combine_tree(op, dtype, chunks);
                    lock(&parts).push((start, acc));
                    return;
                }
            }
            let mut chunks = Vec::with_capacity(t.len().div_ceil(CHUNK));
            for r in sub_chunks(t) {
                match eval(b, &r, &flags).and_then(|v| fold(op, &v, r.len(), base + r.start as u64)) {
                    Ok(p) => chunks.push(p),
                    Err(e) => {
                        *lock(&err) = Some(e);
                        return;
                    }
                }
            }
            let acc = combine_tree(op, dtype, chunks);
            lock(&parts).push((start, acc));
        });
        if let Some(e) = into_inner(err) {
            return Err(e);
        }
        let mut parts = into_inner(parts);
        parts.sort_by_key(|p| p.0);
        Ok(combine_tree(op, dtype, parts.into_iter().map(|(_, p)| p).collect()))
    })?;
    ctx.allreduce(mine, |a, b| combine(op, dtype, a, b))
}

/// The scans.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScanOp {
    /// cumsum
    Sum,
    /// cumprod
    Prod,
}

impl ScanOp {
    /// The scan of a name: sum (cumsum) or prod (cumprod).
    pub fn parse(s: &str) -> Option<ScanOp> {
        match s {
            "sum" => Some(ScanOp::Sum),
            "prod" => Some(ScanOp::Prod),
            _ => None,
        }
    }
}

fn scan_t<T: crate::eval::kernels::Num + Serialize + serde::de::DeserializeOwned>(
    ctx: &Ctx,
    local: &mut [T],
    op: ScanOp,
) -> Result<()> {
    let f =
        |a: T, b: T| T::bin(if op == ScanOp::Sum { crate::types::BinOp::Add } else { crate::types::BinOp::Mul }, a, b);
    let id = if op == ScanOp::Sum { T::zero() } else { T::one() };
    let mut acc = id;
    for x in local.iter_mut() {
        acc = f(acc, *x);
        *x = acc;
    }
    let has = !local.is_empty();
    let before = ctx.exscan((has, acc), (false, id), |(ha, a), (hb, b)| (ha || hb, if hb { f(a, b) } else { a }))?;
    if before.0 {
        let off = before.1;
        ctx.forall_chunks_mut_with(local, CHUNK, |_, part| {
            for x in part {
                *x = f(off, *x);
            }
        });
    }
    Ok(())
}

/// The inclusive scan `op` of an expression of `n` elements, as a new array `id`.
#[derive(Serialize, Deserialize)]
pub struct Scan {
    /// The new array's id.
    pub id: u64,
    /// The values.
    pub node: Node,
    /// The number of values.
    pub n: usize,
    /// The scan.
    pub op: ScanOp,
}

fn scan_cmd(ctx: &Ctx, Scan { id, node, n, op }: Scan) -> Result<()> {
    let mut col = materialize(ctx, &node, n)?;
    let r = match &mut col {
        Col::I(a) => scan_t(ctx, a.local_mut(), op),
        Col::U(a) => scan_t(ctx, a.local_mut(), op),
        Col::U8(a) => scan_t(ctx, a.local_mut(), op),
        // Products of floats in global order, as for `prod` (see `chain`).
        Col::F(a) if op == ScanOp::Prod => chain(ctx, 1.0f64, |mut acc| {
            for x in a.local_mut() {
                acc *= *x;
                *x = acc;
            }
            Ok(acc)
        })
        .map(drop),
        Col::F(a) => scan_t(ctx, a.local_mut(), op),
        Col::B(_) => Err(Error::InvalidArgument("internal: scan of bool".into())),
    };
    match r {
        Ok(()) => {
            Registry::of(ctx).insert(id, col);
            Ok(())
        }
        Err(e) => {
            col.free()?;
            Err(e)
        }
    }
}

/// The reduction `op` of an expression of `n` elements: `None` for an empty input, an
/// element's index for argmin/argmax, a count for count_nonzero, whether the elements are in
/// order for is_sorted. **Collective.**
pub fn reduce(s: &Session, node: &Node, n: usize, op: RedOp) -> Result<Option<Scal>> {
    Ok(match s.exec(&REDUCE, Reduce { node: node.clone(), n, op })? {
        Part::Empty => None,
        Part::Val(v) => Some(v),
        Part::Arg(_, i) => Some(Scal::I(i as i64)),
        Part::Count(c) => Some(Scal::I(c as i64)),
        Part::Sorted(_, _, ok) => Some(Scal::B(ok)),
    })
}

/// The inclusive scan `op` of an expression of `n` elements, as a new array. **Collective.**
pub fn scan(s: &Session, node: &Node, n: usize, op: ScanOp) -> Result<Array> {
    s.new_array(node.dtype(), n, |id| s.exec(&SCAN, Scan { id, node: node.clone(), n, op }))
}

commands! {
    /// Reduces an expression of `n` elements.
    pub static REDUCE: Handler<Reduce, Part> = Handler::new("atoll-session::reduce", reduce_cmd);

    /// A new array `id`: the inclusive scan of an expression.
    pub static SCAN: Handler<Scan, ()> = Handler::new("atoll-session::scan", scan_cmd);
}
