//! The collective commands of the Python session: each one a [`Handler`] that every locale
//! runs on its part of the arrays (driver mode, locale 0 being the Python thread).

use crate::eval::{combine, combine_tree, eval, eval_store, fold, Access, BNode, Flags, Part, RedOp, Src, CHUNK};
use crate::par::Disjoint;
use crate::registry::{lock, Col, Registry};
use crate::types::{ArrRef, DType, Node, Scal};
use crate::with_col;
use atoll::array::{dist, stream_store, DistArray, Elem, StridedRange};
use atoll::runtime::{Ctx, GlobalPtr, Handler};
use atoll::{Error, Result};
use serde::{Deserialize, Serialize};
use std::ops::Range;
use std::sync::{Arc, Mutex};

/// Bulk data moving between Python and locale 0 outside the command's wire format (one copy).
#[allow(missing_docs)]
pub enum Data {
    I(Vec<i64>),
    U(Vec<u64>),
    F(Vec<f64>),
    B(Vec<bool>),
}

/// Data handed from the driver to locale 0's handler (same process on both backends).
pub static INBOX: Mutex<Option<Data>> = Mutex::new(None);
/// Data handed from locale 0's handler to the driver.
pub static OUTBOX: Mutex<Option<Data>> = Mutex::new(None);

fn take(m: &Mutex<Option<Data>>) -> Option<Data> {
    m.lock().unwrap_or_else(|p| p.into_inner()).take()
}

/// This locale's global positions of a Block array of `n` elements.
fn local_range(ctx: &Ctx, n: usize) -> Result<Range<usize>> {
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
    Ok(match base {
        Col::I(a) => Col::I(copy_view_t(ctx, a, r)?),
        Col::U(a) => Col::U(copy_view_t(ctx, a, r)?),
        Col::F(a) => Col::F(copy_view_t(ctx, a, r)?),
        Col::B(a) => Col::B(copy_view_t(ctx, a, r)?),
    })
}

/// Runs `f` with `node` bound to this locale's data (`n` elements in all): unaligned
/// operands are first copied. **Collective.**
fn with_bound<R>(ctx: &Ctx, node: &Node, f: impl FnOnce(&BNode<'_>) -> Result<R>) -> Result<R> {
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
    let fail = |e| *err.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
    let len = out.len();
    let stream = stream_store::worth_it::<T>(len);
    let out = Disjoint::new(out);
    ctx.forall_chunks_with(0..len, TASK, |t| {
        if stream {
            let mut buf = vec![T::default(); CHUNK.min(t.len())];
            stream_store::with_streaming(|s| {
                for r in sub_chunks(t) {
                    let tmp = &mut buf[..r.len()];
                    if let Err(e) = eval_store(b, &r, flags, tmp) {
                        return fail(e);
                    }
                    // SAFETY: the chunks of one loop are disjoint, and so are their sub-chunks.
                    s.copy(unsafe { out.chunk(r) }, tmp);
                }
            });
            return;
        }
        for r in sub_chunks(t) {
            // SAFETY: the chunks of one loop are disjoint, and so are their sub-chunks.
            let o = unsafe { out.chunk(r.clone()) };
            if let Err(e) = eval_store(b, &r, flags, o) {
                return fail(e);
            }
        }
    });
    match err.into_inner().unwrap_or_else(|p| p.into_inner()) {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// `out = node` for a whole aligned `out` that the tree does not read. **Collective.**
fn eval_into(ctx: &Ctx, node: &Node, out: &mut Col) -> Result<()> {
    let flags = Flags::default();
    with_bound(ctx, node, |b| {
        // Small float64 arithmetic trees (the triad): one pass, no per-operation chunk passes.
        if let (Col::F(a), Some(f)) = (&mut *out, crate::fused::Fused::of(b)) {
            crate::fused::run_loop(ctx, &f, a.local_mut());
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

// ----- the commands ----------------------------------------------------------------------

fn free(ctx: &Ctx, ids: Vec<u64>) -> Result<()> {
    let reg = Registry::of(ctx);
    let mut r = Ok(());
    for id in ids {
        if let Some(c) = reg.remove(id) {
            r = r.and(c.free());
        }
    }
    r
}
/// Frees arrays.
pub static FREE: Handler<Vec<u64>, ()> = Handler::new("atoll-python::free", free);

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

    pub(crate) fn with<R>(&self, f: impl FnOnce(&Col) -> R) -> R {
        match self {
            Operand::Registered(a) => f(&lock(a)),
            Operand::Temp(c) => f(c),
        }
    }

    pub(crate) fn free(self) -> Result<()> {
        match self {
            Operand::Registered(_) => Ok(()),
            Operand::Temp(c) => c.free(),
        }
    }
}

fn from_inbox(ctx: &Ctx, (id, dtype, n): (u64, DType, usize)) -> Result<()> {
    let data = if ctx.id() == 0 { take(&INBOX) } else { None };
    let d = dist::block(ctx, [n])?;
    let col = match dtype {
        DType::I64 => {
            Col::I(DistArray::from_vec(ctx, d, 0, data.and_then(|x| if let Data::I(v) = x { Some(v) } else { None }))?)
        }
        DType::U64 => {
            Col::U(DistArray::from_vec(ctx, d, 0, data.and_then(|x| if let Data::U(v) = x { Some(v) } else { None }))?)
        }
        DType::F64 => {
            Col::F(DistArray::from_vec(ctx, d, 0, data.and_then(|x| if let Data::F(v) = x { Some(v) } else { None }))?)
        }
        DType::Bool => {
            Col::B(DistArray::from_vec(ctx, d, 0, data.and_then(|x| if let Data::B(v) = x { Some(v) } else { None }))?)
        }
    };
    Registry::of(ctx).insert(id, col);
    Ok(())
}
fn copy_in<T: Copy + Send + Sync>(ctx: &Ctx, buf: crate::raw::RawBuf, lo: usize, local: &mut [T]) {
    let len = local.len();
    let out = Disjoint::new(local);
    ctx.forall_chunks_with(0..len, 1 << 16, |r| {
        // SAFETY: the binding holds the buffer (n elements of T) for the whole command and
        // nothing writes it; the chunks are disjoint.
        let (src, dst) = unsafe { (buf.slice::<T>(lo + r.start..lo + r.end), out.chunk(r)) };
        dst.copy_from_slice(src);
    });
}

fn from_raw(ctx: &Ctx, (id, dtype, n): (u64, DType, usize)) -> Result<()> {
    let buf = crate::raw::current().ok_or_else(|| Error::InvalidArgument("internal: no shared buffer".into()))?;
    let lo = local_range(ctx, n)?.start;
    // Every element is copied in below.
    let mut col = Col::for_overwrite(ctx, dtype, n)?;
    match &mut col {
        Col::I(a) => copy_in(ctx, buf, lo, a.local_mut()),
        Col::U(a) => copy_in(ctx, buf, lo, a.local_mut()),
        Col::F(a) => copy_in(ctx, buf, lo, a.local_mut()),
        Col::B(a) => {
            let len = a.local().len();
            let out = Disjoint::new(a.local_mut());
            ctx.forall_chunks_with(0..len, 1 << 16, |r| {
                // SAFETY: as in `copy_in`, the buffer holding n bytes (NumPy bools).
                let (src, dst) = unsafe { (buf.slice::<u8>(lo + r.start..lo + r.end), out.chunk(r)) };
                dst.iter_mut().zip(src).for_each(|(d, &s)| *d = s != 0);
            });
        }
    }
    Registry::of(ctx).insert(id, col);
    Ok(())
}
/// A new array copied from the driver's buffer ([`crate::raw::RAW`], local backend).
pub static FROM_RAW: Handler<(u64, DType, usize), ()> = Handler::new("atoll-python::from_raw", from_raw);

fn copy_out<T: Copy + Send + Sync>(ctx: &Ctx, buf: crate::raw::RawBuf, lo: usize, local: &[T]) {
    ctx.forall_chunks_with(0..local.len(), 1 << 16, |r| {
        // SAFETY: the binding holds the output buffer (n elements) for the whole command;
        // every locale writes its own positions lo.., in disjoint chunks.
        let dst = unsafe { buf.slice_mut::<T>(lo + r.start..lo + r.end) };
        dst.copy_from_slice(&local[r]);
    });
}

fn to_raw(ctx: &Ctx, (node, n): (Node, usize)) -> Result<()> {
    let buf = crate::raw::current().ok_or_else(|| Error::InvalidArgument("internal: no shared buffer".into()))?;
    let lo = local_range(ctx, n)?.start;
    let op = Operand::of(ctx, &node, n)?;
    op.with(|c| match c {
        Col::I(a) => copy_out(ctx, buf, lo, a.local()),
        Col::U(a) => copy_out(ctx, buf, lo, a.local()),
        Col::F(a) => copy_out(ctx, buf, lo, a.local()),
        Col::B(a) => copy_out(ctx, buf, lo, bytemuck_bools(a.local())),
    });
    op.free()
}

/// NumPy's bools are bytes 0/1, as Rust's.
fn bytemuck_bools(b: &[bool]) -> &[u8] {
    // SAFETY: bool has size and alignment 1 and its valid values are the bytes 0 and 1.
    unsafe { std::slice::from_raw_parts(b.as_ptr().cast::<u8>(), b.len()) }
}
/// Copies an expression's value into the driver's buffer ([`crate::raw::RAW`], local backend).
pub static TO_RAW: Handler<(Node, usize), ()> = Handler::new("atoll-python::to_raw", to_raw);

/// A new array from the data in [`INBOX`].
pub static FROM_INBOX: Handler<(u64, DType, usize), ()> = Handler::new("atoll-python::from_inbox", from_inbox);

fn gather_col(c: &Col) -> Result<Option<Data>> {
    Ok(match c {
        Col::I(a) => a.gather(0)?.map(Data::I),
        Col::U(a) => a.gather(0)?.map(Data::U),
        Col::F(a) => a.gather(0)?.map(Data::F),
        Col::B(a) => a.gather(0)?.map(Data::B),
    })
}

fn to_outbox(ctx: &Ctx, (node, n): (Node, usize)) -> Result<()> {
    let data = match &node {
        Node::Leaf(r, _) if r.is_whole() => gather_col(&lock(&*Registry::of(ctx).get(r.id)?))?,
        _ => {
            let c = materialize(ctx, &node, n)?;
            let d = gather_col(&c);
            c.free()?;
            d?
        }
    };
    if ctx.id() == 0 {
        *OUTBOX.lock().unwrap_or_else(|p| p.into_inner()) = data;
    }
    Ok(())
}
/// Gathers an array (or a selection) into [`OUTBOX`] on locale 0.
pub static TO_OUTBOX: Handler<(Node, usize), ()> = Handler::new("atoll-python::to_outbox", to_outbox);

fn evaluate(ctx: &Ctx, (id, node, n): (u64, Node, usize)) -> Result<()> {
    let col = materialize(ctx, &node, n)?;
    Registry::of(ctx).insert(id, col);
    Ok(())
}
/// A new array `id` holding an expression's value.
pub static EVALUATE: Handler<(u64, Node, usize), ()> = Handler::new("atoll-python::evaluate", evaluate);

fn assign_t<T: Elem>(dst: &mut DistArray<T, 1>, r: &ArrRef, src: &DistArray<T, 1>) -> Result<()> {
    let dom = StridedRange::from_parts(r.start, r.step as u64, r.len)?;
    dst.slice_mut(dom)?.assign(&src.view())
}

fn assign(ctx: &Ctx, (dst, node): (ArrRef, Node)) -> Result<()> {
    let reg = Registry::of(ctx);
    let mut refs = Vec::new();
    node.leaves(&mut refs);
    let aliased = refs.iter().any(|r| r.id == dst.id);
    if dst.is_whole() && !aliased {
        let target = reg.get(dst.id)?;
        let mut g = lock(&target);
        return eval_into(ctx, &node, &mut g);
    }
    let val = materialize(ctx, &node, dst.len)?;
    if dst.is_whole() {
        // The tree read the target: the new value replaces it.
        let target = reg.get(dst.id)?;
        let old = std::mem::replace(&mut *lock(&target), val);
        return old.free();
    }
    let target = reg.get(dst.id)?;
    let r = {
        let mut g = lock(&target);
        match (&mut *g, &val) {
            (Col::I(d), Col::I(s)) => assign_t(d, &dst, s),
            (Col::U(d), Col::U(s)) => assign_t(d, &dst, s),
            (Col::F(d), Col::F(s)) => assign_t(d, &dst, s),
            (Col::B(d), Col::B(s)) => assign_t(d, &dst, s),
            _ => Err(Error::InvalidArgument("internal: assignment between dtypes".into())),
        }
    };
    val.free()?;
    r
}
/// `dst = node` (a whole array or a positive-step selection).
pub static ASSIGN: Handler<(ArrRef, Node), ()> = Handler::new("atoll-python::assign", assign);

fn reduce(ctx: &Ctx, (node, n, op): (Node, usize, RedOp)) -> Result<Part> {
    let dtype = node.dtype();
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
                if let Some(chunks) = crate::sum_lockstep::leaf_chunk_parts(b, &t) {
                    let acc = combine_tree(op, dtype, chunks);
                    parts.lock().unwrap_or_else(|p| p.into_inner()).push((start, acc));
                    return;
                }
            }
            let mut chunks = Vec::with_capacity(t.len().div_ceil(CHUNK));
            for r in sub_chunks(t) {
                match eval(b, &r, &flags).and_then(|v| fold(op, &v, r.len(), base + r.start as u64)) {
                    Ok(p) => chunks.push(p),
                    Err(e) => {
                        *err.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
                        return;
                    }
                }
            }
            let acc = combine_tree(op, dtype, chunks);
            parts.lock().unwrap_or_else(|p| p.into_inner()).push((start, acc));
        });
        if let Some(e) = err.into_inner().unwrap_or_else(|p| p.into_inner()) {
            return Err(e);
        }
        let mut parts = parts.into_inner().unwrap_or_else(|p| p.into_inner());
        parts.sort_by_key(|p| p.0);
        Ok(combine_tree(op, dtype, parts.into_iter().map(|(_, p)| p).collect()))
    })?;
    ctx.allreduce(mine, |a, b| combine(op, dtype, a, b))
}
/// Reduces an expression of `n` elements.
pub static REDUCE: Handler<(Node, usize, RedOp), Part> = Handler::new("atoll-python::reduce", reduce);

/// The scans.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScanOp {
    /// cumsum
    Sum,
    /// cumprod
    Prod,
}

fn scan_t<T: crate::kernels::Num + Serialize + serde::de::DeserializeOwned>(
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
        let len = local.len();
        let out = Disjoint::new(local);
        ctx.forall_chunks_with(0..len, CHUNK, |r| {
            // SAFETY: the chunks of one loop are disjoint.
            for x in unsafe { out.chunk(r) } {
                *x = f(off, *x);
            }
        });
    }
    Ok(())
}

fn scan(ctx: &Ctx, (id, node, n, op): (u64, Node, usize, ScanOp)) -> Result<()> {
    let mut col = materialize(ctx, &node, n)?;
    let r = match &mut col {
        Col::I(a) => scan_t(ctx, a.local_mut(), op),
        Col::U(a) => scan_t(ctx, a.local_mut(), op),
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
/// A new array `id`: the inclusive scan of an expression.
pub static SCAN: Handler<(u64, Node, usize, ScanOp), ()> = Handler::new("atoll-python::scan", scan);

fn get_t<T: Elem + crate::kernels::Num>(a: &DistArray<T, 1>, lo: usize, pos: usize) -> Scal {
    a.local()[pos - lo].scal()
}

fn get(ctx: &Ctx, (id, pos): (u64, usize)) -> Result<Option<Scal>> {
    let c = Registry::of(ctx).get(id)?;
    let g = lock(&c);
    let r = local_range(ctx, g.len())?;
    if !r.contains(&pos) {
        return Ok(None);
    }
    Ok(Some(with_col!(&*g, a => get_t(a, r.start, pos))))
}
/// Element `pos` of array `id` (from its owner).
pub static GET: Handler<(u64, usize), Option<Scal>> = Handler::new("atoll-python::get", get);

fn set(ctx: &Ctx, (id, pos, v): (u64, usize, Scal)) -> Result<()> {
    let c = Registry::of(ctx).get(id)?;
    let mut g = lock(&c);
    let r = local_range(ctx, g.len())?;
    if r.contains(&pos) {
        let k = pos - r.start;
        match (&mut *g, v) {
            (Col::I(a), Scal::I(x)) => a.local_mut()[k] = x,
            (Col::U(a), Scal::U(x)) => a.local_mut()[k] = x,
            (Col::F(a), Scal::F(x)) => a.local_mut()[k] = x,
            (Col::B(a), Scal::B(x)) => a.local_mut()[k] = x,
            _ => return Err(Error::InvalidArgument("internal: scalar of another dtype".into())),
        }
    }
    Ok(())
}
/// Sets element `pos` of array `id` (on its owner).
pub static SET: Handler<(u64, usize, Scal), ()> = Handler::new("atoll-python::set", set);

fn gather_t<T: Elem>(src: &DistArray<T, 1>, idx: &Col) -> Result<DistArray<T, 1>> {
    match idx {
        Col::I(i) => src.take(i),
        _ => Err(Error::InvalidArgument("internal: gather indices must be int64".into())),
    }
}

fn gather(ctx: &Ctx, (id, src, idx, n): (u64, u64, Node, usize)) -> Result<()> {
    let idx = Operand::of(ctx, &idx, n)?;
    let s = Registry::of(ctx).get(src)?;
    let out = idx.with(|idx| {
        let g = lock(&s);
        match &*g {
            Col::I(a) => gather_t(a, idx).map(Col::I),
            Col::U(a) => gather_t(a, idx).map(Col::U),
            Col::F(a) => gather_t(a, idx).map(Col::F),
            Col::B(a) => gather_t(a, idx).map(Col::B),
        }
    });
    idx.free()?;
    Registry::of(ctx).insert(id, out?);
    Ok(())
}
/// A new array `id = src[idx]` (whole `src`, int64 indices in range).
pub static GATHER: Handler<(u64, u64, Node, usize), ()> = Handler::new("atoll-python::gather", gather);

fn scatter(ctx: &Ctx, (dst, idx, vals, n): (u64, Node, Node, usize)) -> Result<()> {
    let idx = Operand::of(ctx, &idx, n)?;
    let vals = match Operand::of(ctx, &vals, n) {
        Ok(v) => v,
        Err(e) => {
            idx.free()?;
            return Err(e);
        }
    };
    let d = Registry::of(ctx).get(dst)?;
    let r = idx.with(|idx| {
        vals.with(|vals| {
            let mut g = lock(&d);
            match (&mut *g, idx, vals) {
                (Col::I(a), Col::I(i), Col::I(v)) => a.scatter_at(i, v),
                (Col::U(a), Col::I(i), Col::U(v)) => a.scatter_at(i, v),
                (Col::F(a), Col::I(i), Col::F(v)) => a.scatter_at(i, v),
                (Col::B(a), Col::I(i), Col::B(v)) => a.scatter_at(i, v),
                _ => Err(Error::InvalidArgument("internal: scatter dtypes".into())),
            }
        })
    });
    idx.free()?;
    vals.free()?;
    r
}
/// `dst[idx] = vals` (whole `dst`, int64 indices in range).
pub static SCATTER: Handler<(u64, Node, Node, usize), ()> = Handler::new("atoll-python::scatter", scatter);

/// Puts `vals` at global positions `off..` of the Block array whose parts start at `ptrs`.
fn put_runs<P: atoll::runtime::Pod>(ctx: &Ctx, n: usize, ptrs: &[u64], off: usize, vals: &[P]) -> Result<()> {
    let mut done = 0;
    for (l, &addr) in ptrs.iter().enumerate() {
        let r = {
            let d = dist::block(ctx, [n])?;
            let dom = d.local_domain(l)?;
            let r = &dom.dims()[0];
            if r.is_empty() {
                0..0
            } else {
                r.lo() as usize..r.lo() as usize + r.len()
            }
        };
        let lo = r.start.max(off + done);
        let hi = r.end.min(off + vals.len());
        if lo < hi {
            ctx.put(GlobalPtr::<P>::new(l, addr).add(lo - r.start), &vals[lo - off..hi - off])?;
            done = hi - off;
        }
    }
    Ok(())
}

fn compress_t<T: Elem + atoll::runtime::Pod>(ctx: &Ctx, src: &[T], mask: &[bool]) -> Result<(Vec<T>, usize, usize)> {
    let kept: Vec<T> = src.iter().zip(mask).filter(|(_, &m)| m).map(|(&v, _)| v).collect();
    let off = ctx.exscan(kept.len(), 0, |a, b| a + b)?;
    let total = ctx.allreduce(kept.len(), |a, b| a + b)?;
    Ok((kept, off, total))
}

fn compress_into<T: Elem + atoll::runtime::Pod>(
    ctx: &Ctx,
    kept: &[T],
    off: usize,
    total: usize,
) -> Result<DistArray<T, 1>> {
    let out = DistArray::<T, 1>::zeros_lazy(ctx, dist::block(ctx, [total])?)?;
    let ptrs: Vec<u64> = (0..ctx.num_locales()).map(|l| out.part_ptr(l).map(|p| p.addr())).collect::<Result<_>>()?;
    let r = put_runs(ctx, total, &ptrs, off, kept);
    let b = ctx.barrier();
    r.and(b)?;
    Ok(out)
}

fn compress(ctx: &Ctx, (id, src, mask, n): (u64, Node, Node, usize)) -> Result<u64> {
    let s = materialize(ctx, &src, n)?;
    let m = match materialize(ctx, &mask, n) {
        Ok(m) => m,
        Err(e) => {
            s.free()?;
            return Err(e);
        }
    };
    let out = {
        let mk = match &m {
            Col::B(b) => b.local(),
            _ => return Err(Error::InvalidArgument("internal: mask must be bool".into())),
        };
        match &s {
            Col::I(a) => compress_t(ctx, a.local(), mk).and_then(|(k, o, t)| compress_into(ctx, &k, o, t)).map(Col::I),
            Col::U(a) => compress_t(ctx, a.local(), mk).and_then(|(k, o, t)| compress_into(ctx, &k, o, t)).map(Col::U),
            Col::F(a) => compress_t(ctx, a.local(), mk).and_then(|(k, o, t)| compress_into(ctx, &k, o, t)).map(Col::F),
            Col::B(a) => {
                let bytes: Vec<u8> = a.local().iter().map(|&b| b as u8).collect();
                compress_t(ctx, &bytes, mk)
                    .and_then(|(k, o, t)| {
                        let out = DistArray::<bool, 1>::zeros_lazy(ctx, dist::block(ctx, [t])?)?;
                        let ptrs: Vec<u64> =
                            (0..ctx.num_locales()).map(|l| out.part_ptr(l).map(|p| p.addr())).collect::<Result<_>>()?;
                        let r = put_runs(ctx, t, &ptrs, o, &k);
                        let b = ctx.barrier();
                        r.and(b)?;
                        Ok(out)
                    })
                    .map(Col::B)
            }
        }
    };
    s.free()?;
    m.free()?;
    let out = out?;
    let len = out.len() as u64;
    Registry::of(ctx).insert(id, out);
    Ok(len)
}
/// A new array `id = src[mask]`; returns its length.
pub static COMPRESS: Handler<(u64, Node, Node, usize), u64> = Handler::new("atoll-python::compress", compress);

fn argsort(ctx: &Ctx, (id, src, n): (u64, Node, usize)) -> Result<()> {
    let s = materialize(ctx, &src, n)?;
    let r = match &s {
        Col::I(a) => atoll::ops::argsort(&a.view()),
        Col::U(a) => atoll::ops::argsort(&a.view()),
        Col::F(a) => atoll::ops::argsort(&a.view()),
        Col::B(_) => Err(Error::InvalidArgument("internal: argsort of bool".into())),
    };
    s.free()?;
    Registry::of(ctx).insert(id, Col::I(r?));
    Ok(())
}
/// A new int64 array `id`: the permutation that sorts an expression's value.
pub static ARGSORT: Handler<(u64, Node, usize), ()> = Handler::new("atoll-python::argsort", argsort);

/// Creation by formula.
#[derive(Serialize, Deserialize, Clone, Copy, Debug)]
pub enum Fill {
    /// Every element the scalar.
    Full(Scal),
    /// `start + i * step` (int64).
    Arange(i64, i64),
    /// `start + i * step`, the last element `stop` when `endpoint`.
    Linspace(f64, f64, f64, bool),
    /// Uniform integers in `[lo, hi)` from a seed.
    RandInt(i64, i64, u64),
    /// Uniform floats in `[lo, hi)` from a seed.
    Uniform(f64, f64, u64),
    /// Standard normal floats from a seed.
    Normal(u64),
}

/// SplitMix64's finalizer: the i-th random word of a seed is `mix(seed, i)` (counter-based,
/// so every locale count gives the same array).
pub fn mix(seed: u64, i: u64) -> u64 {
    let mut z = seed.wrapping_add(i.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn unit(w: u64) -> f64 {
    (w >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

fn create(ctx: &Ctx, (id, n, fill): (u64, usize, Fill)) -> Result<()> {
    let d = dist::block(ctx, [n])?;
    let last = n.saturating_sub(1) as i64;
    let col = match fill {
        Fill::Full(Scal::I(v)) => Col::I(DistArray::filled(ctx, d, v)?),
        Fill::Full(Scal::U(v)) => Col::U(DistArray::filled(ctx, d, v)?),
        Fill::Full(Scal::F(v)) => Col::F(DistArray::filled(ctx, d, v)?),
        Fill::Full(Scal::B(v)) => Col::B(DistArray::filled(ctx, d, v)?),
        Fill::Arange(s, st) => Col::I(DistArray::from_fn(ctx, d, move |[i]| s.wrapping_add(i.wrapping_mul(st)))?),
        Fill::Linspace(s, st, stop, end) => {
            Col::F(DistArray::from_fn(
                ctx,
                d,
                move |[i]| if end && i == last && last > 0 { stop } else { s + i as f64 * st },
            )?)
        }
        Fill::RandInt(lo, hi, seed) => {
            let span = hi.wrapping_sub(lo) as u64;
            Col::I(DistArray::from_fn(ctx, d, move |[i]| {
                lo.wrapping_add(((mix(seed, i as u64) as u128 * span as u128) >> 64) as i64)
            })?)
        }
        Fill::Uniform(lo, hi, seed) => {
            Col::F(DistArray::from_fn(ctx, d, move |[i]| lo + (hi - lo) * unit(mix(seed, i as u64)))?)
        }
        Fill::Normal(seed) => Col::F(DistArray::from_fn(ctx, d, move |[i]| {
            // Box-Muller on two independent words of index i.
            let u1 = 1.0 - unit(mix(seed, 2 * i as u64));
            let u2 = unit(mix(seed, 2 * i as u64 + 1));
            (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
        })?),
    };
    Registry::of(ctx).insert(id, col);
    Ok(())
}
/// A new array `id` of `n` elements by formula.
pub static CREATE: Handler<(u64, usize, Fill), ()> = Handler::new("atoll-python::create", create);

fn mem(ctx: &Ctx, _: ()) -> Result<(u64, u64, u64)> {
    let b = ctx.budget();
    Ok((b.in_use(), b.available(), b.limit()))
}
/// Each locale's (bytes in use, bytes available, limit).
pub static MEM: Handler<(), (u64, u64, u64)> = Handler::new("atoll-python::mem", mem);

/// Registers every command (on every process, before the job starts).
pub fn register_all() {
    crate::share::MAKE_SHARED.register();
    crate::share::CALL_C.register();
    FREE.register();
    FROM_INBOX.register();
    FROM_RAW.register();
    TO_RAW.register();
    TO_OUTBOX.register();
    EVALUATE.register();
    ASSIGN.register();
    REDUCE.register();
    SCAN.register();
    GET.register();
    SET.register();
    GATHER.register();
    SCATTER.register();
    COMPRESS.register();
    ARGSORT.register();
    CREATE.register();
    MEM.register();
    crate::strings::register();
    crate::str_groupby::register();
    crate::analytics::register_commands();
    crate::dense_agg::register_commands();
    crate::pandas_ops::register_commands();
    crate::hdf5_io::register_commands();
    crate::io::register();
    crate::streaming::register();
    crate::fused::register();
}
