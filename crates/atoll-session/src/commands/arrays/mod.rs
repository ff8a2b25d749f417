//! Arrays: creation by formula, copies between the driver's buffers and the locales,
//! evaluation and assignment of expressions, reductions and scans, element access and bulk
//! indexing, sorting, the locales' memory budgets, arrays over shared files, and the
//! evaluator's settings. One file per kind:
//!
//! | file | commands |
//! |---|---|
//! | `create.rs` | creation by formula (`full`, `arange`, `linspace`, `randint`, `uniform`, `standard_normal`) |
//! | `transfer.rs` | copies between the driver's buffers and the locales |
//! | `elementwise.rs` | evaluating an expression into a new array, assigning one into (a selection of) an array |
//! | `reduce.rs` | reductions and scans |
//! | `reduce_axis.rs` | reductions along axes of N-d arrays (the middle axis of (outer, n, inner)) |
//! | `index.rs` | element access, gather, scatter, compress |
//! | `matmul.rs` | matrix products of row-major blocks |
//! | `sort.rs` | argsort |
//! | `strided.rs` | strided copies (the N-d views: transposes, broadcasts, selections with steps) |
//! | `free.rs` | freeing arrays |
//! | `memory.rs` | the locales' memory budgets |
//! | `share.rs` | arrays whose blocks are shared files, C functions called on them |
//! | `tuning.rs` | the evaluator's settings (streaming-store threshold, fused kernels) |
//!
//! This file holds what the array commands (and the other areas) share: binding an
//! expression to each locale's data (`with_bound`), the chunked owner-computes loop,
//! materializing an expression, and operands of bulk commands (`Operand`).

commands! {
    modules {
        mod create;
        mod elementwise;
        mod free;
        mod index;
        mod matmul;
        mod memory;
        mod reduce;
        mod reduce_axis;
        pub mod share;
        mod sort;
        mod strided;
        mod transfer;
        pub mod tuning;
    }
}

pub use create::{arange, full, linspace, randint, random_word, standard_normal, uniform, Fill};
pub use elementwise::{assign, evaluate};
pub use index::{compress, gather, get, scatter, set};
pub use matmul::matmul;
pub use memory::mem_status;
pub(crate) use free::FREE;
pub use reduce::{reduce, scan, ScanOp};
pub use reduce_axis::{reduce_axis, AxisOp};
pub use sort::argsort;
pub use strided::{strided, strided_positions};
pub use transfer::{from_slice, to_slice};

use crate::eval::{eval_store, Access, BNode, Flags, Src, CHUNK};
use crate::registry::{lock, Col, Registry};
use crate::types::{ArrRef, Node};
use atoll::array::with_col;
use atoll::array::{dist, stream_store, DistArray, Elem, StridedRange};
use atoll::runtime::Ctx;
use atoll::util::sync::into_inner;
use atoll::{Error, Result};
use std::ops::Range;
use std::sync::{Arc, Mutex};

/// This locale's global positions of a Block array of `n` elements.
pub(crate) fn local_range(ctx: &Ctx, n: usize) -> Result<Range<usize>> {
    let d = dist::block(ctx, [n])?;
    let dom = d.local_domain(ctx.id())?;
    let r = &dom.dims()[0];
    if r.is_empty() {
        return Ok(0..0);
    }
    let lo = r.lo() as usize;
    Ok(lo..lo + r.len())
}

fn src(c: &Col) -> Src<'_> {
    match c {
        Col::I(a) => Src::I(a.local()),
        Col::U(a) => Src::U(a.local()),
        Col::F(a) => Src::F(a.local()),
        Col::B(a) => Src::B(a.local()),
        Col::U8(a) => Src::U8(a.local()),
    }
}

fn copy_view_t<T: Elem>(ctx: &Ctx, a: &DistArray<T, 1>, r: &ArrRef) -> Result<DistArray<T, 1>> {
    if r.step > 0 {
        let mut out = DistArray::zeros_lazy(ctx, dist::block(ctx, [r.len])?)?;
        let v = a.slice(StridedRange::from_parts(r.start, r.step as u64, r.len)?)?;
        out.assign(&v)?;
        Ok(out)
    } else {
        let (s, st) = (r.start, r.step);
        let idx = DistArray::<i64, 1>::from_fn(ctx, dist::block(ctx, [r.len])?, move |[k]| s + k * st)?;
        let out = a.take(&idx);
        idx.free()?;
        out
    }
}

/// A copy of the selection `r` as a new aligned array. **Collective.**
fn copy_view(ctx: &Ctx, base: &Col, r: &ArrRef) -> Result<Col> {
    atoll::array::map_col!(base, a => copy_view_t(ctx, a, r))
}

/// Runs `f` with `node` bound to this locale's data (`n` elements in all): unaligned
/// operands are first copied. **Collective.**
fn with_bound<R>(ctx: &Ctx, node: &Node, f: impl FnOnce(&BNode<'_>) -> Result<R>) -> Result<R> {
    // A bad tree fails here on every locale alike (locales without data evaluate nothing).
    node.validate().map_err(Error::InvalidArgument)?;
    let reg = Registry::of(ctx);
    let mut refs = Vec::new();
    node.leaves(&mut refs);
    // Copies of the selections that are not whole arrays, then the whole arrays, locked once.
    let mut temps: Vec<Option<Col>> = Vec::with_capacity(refs.len());
    for r in &refs {
        temps.push(if r.is_whole() { None } else { Some(copy_view(ctx, &lock(&*reg.get(r.id)?), r)?) });
    }
    let mut ids: Vec<u64> = refs.iter().zip(&temps).filter(|(_, t)| t.is_none()).map(|(r, _)| r.id).collect();
    ids.sort_unstable();
    ids.dedup();
    let arcs: Vec<Arc<Mutex<Col>>> = ids.iter().map(|&id| reg.get(id)).collect::<Result<_>>()?;
    let result = {
        let guards: Vec<_> = arcs.iter().map(|a| lock(a)).collect();
        let mut k = 0;
        let mut next = || {
            let s = match &temps[k] {
                Some(t) => src(t),
                None => src(&guards[ids.binary_search(&refs[k].id).unwrap_or(0)]),
            };
            k += 1;
            s
        };
        let b = BNode::bind(node, &mut next);
        f(&b)
    };
    for t in temps.into_iter().flatten() {
        t.free()?;
    }
    result
}

/// Elements per task of the locale's pool (each task evaluates [`CHUNK`]-element pieces):
/// enough work per hand-off that the pool's scheduling does not show.
const TASK: usize = 1 << 16;

/// The [`CHUNK`]-element pieces of a task's range.
fn sub_chunks(t: Range<usize>) -> impl Iterator<Item = Range<usize>> {
    (t.start..t.end).step_by(CHUNK).map(move |s| s..(s + CHUNK).min(t.end))
}

/// `out = b` on this locale's task pool, [`CHUNK`] elements at a time. A large output (at
/// least `atoll::array::stream_store::streaming_store_threshold()` bytes on this locale, the
/// rule of the Rust `assign_expr`) is written with streaming stores: each chunk is computed
/// into a small buffer that stays in L1 and streamed out, one store fence per task.
fn run_loop<T: Access>(ctx: &Ctx, b: &BNode<'_>, out: &mut [T], flags: &Flags) -> Result<()> {
    let err = Mutex::new(None);
    let fail = |e| *lock(&err) = Some(e);
    let stream = stream_store::worth_it::<T>(out.len());
    ctx.forall_chunks_mut_with(out, TASK, |t, part| {
        if stream {
            let mut buf = vec![T::default(); CHUNK.min(t.len())];
            stream_store::with_streaming(|s| {
                for (r, o) in sub_chunks(t).zip(part.chunks_mut(CHUNK)) {
                    let tmp = &mut buf[..r.len()];
                    if let Err(e) = eval_store(b, &r, flags, tmp) {
                        return fail(e);
                    }
                    s.copy(o, tmp);
                }
            });
            return;
        }
        for (r, o) in sub_chunks(t).zip(part.chunks_mut(CHUNK)) {
            if let Err(e) = eval_store(b, &r, flags, o) {
                return fail(e);
            }
        }
    });
    match into_inner(err) {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// `out = node` for a whole aligned `out` that the tree does not read. **Collective.**
fn eval_into(ctx: &Ctx, node: &Node, out: &mut Col) -> Result<()> {
    let flags = Flags::default();
    with_bound(ctx, node, |b| {
        // Small float64 arithmetic trees (the triad): one pass, no per-operation chunk passes.
        if let (Col::F(a), Some(f)) = (&mut *out, crate::eval::fused::Fused::of(b)) {
            crate::eval::fused::run_loop(ctx, &f, a.local_mut());
            return Ok(());
        }
        with_col!(out, a => run_loop(ctx, b, a.local_mut(), &flags))
    })?;
    if node.has_int_pow() {
        let bad = ctx.allreduce(flags.neg_pow.load(std::sync::atomic::Ordering::Relaxed), |a, b| a || b)?;
        if bad {
            return Err(Error::InvalidArgument("Integers to negative integer powers are not allowed.".into()));
        }
    }
    Ok(())
}

/// A new array holding `node`'s value (`n` elements). **Collective.**
pub(crate) fn materialize(ctx: &Ctx, node: &Node, n: usize) -> Result<Col> {
    // The evaluation writes every element.
    let mut out = Col::for_overwrite(ctx, node.dtype(), n)?;
    match eval_into(ctx, node, &mut out) {
        Ok(()) => Ok(out),
        Err(e) => {
            out.free()?;
            Err(e)
        }
    }
}

// ----- operands -----------------------------------------------------------

/// An operand of a bulk command: a registered whole array, read in place, or a temporary.
pub(crate) enum Operand {
    Registered(Arc<Mutex<Col>>),
    Temp(Col),
}

impl Operand {
    /// `node`'s value (`n` elements): the array itself when `node` is a whole array of `dtype`.
    pub(crate) fn of(ctx: &Ctx, node: &Node, n: usize) -> Result<Operand> {
        match node {
            Node::Leaf(r, _) if r.is_whole() => Ok(Operand::Registered(Registry::of(ctx).get(r.id)?)),
            _ => Ok(Operand::Temp(materialize(ctx, node, n)?)),
        }
    }

    /// As [`Operand::of`], but a copy whenever `node` reads array `target`, which the command
    /// then locks (to write it, or to read it while this operand is locked too): the operand
    /// keeps the value it had before the command, and no array is locked twice.
    pub(crate) fn of_apart_from(ctx: &Ctx, node: &Node, n: usize, target: u64) -> Result<Operand> {
        if node.reads(target) {
            return Ok(Operand::Temp(materialize(ctx, node, n)?));
        }
        Self::of(ctx, node, n)
    }

    pub(crate) fn with<R>(&self, f: impl FnOnce(&Col) -> R) -> R {
        match self {
            Operand::Registered(a) => f(&lock(a)),
            Operand::Temp(c) => f(c),
        }
    }

    /// Runs `f` with both operands' columns, locking an array that both read only once.
    pub(crate) fn with2<R>(&self, other: &Operand, f: impl FnOnce(&Col, &Col) -> R) -> R {
        if let (Operand::Registered(a), Operand::Registered(b)) = (self, other) {
            if Arc::ptr_eq(a, b) {
                let g = lock(a);
                return f(&g, &g);
            }
        }
        self.with(|x| other.with(|y| f(x, y)))
    }

    pub(crate) fn free(self) -> Result<()> {
        match self {
            Operand::Registered(_) => Ok(()),
            Operand::Temp(c) => c.free(),
        }
    }
}
