//! Bulk data between the driver's buffers and the locales: `ak.array` of a NumPy array and
//! `to_ndarray`. Locales in the driver's process (all of them on the local backend) copy their
//! parts straight from or into the buffer, in parallel on their task pools; when some locale
//! lives elsewhere (MPI), locale 0 distributes or gathers the whole array instead.

use super::{local_range, Operand};
use crate::handles::{Array, Session};
use crate::handoff::DriverSlice;
use crate::registry::{Col, Registry};
use crate::types::{DType, Node};
use atoll::array::{dist, DistArray, Elem};
use atoll::runtime::{Ctx, Handler};
use atoll::Result;
use serde::{Deserialize, Serialize};

/// Elements per task of the copies.
const TASK: usize = 1 << 16;

/// Whether every locale lives in the driver's process. **Collective.**
fn all_here(ctx: &Ctx, buf: &DriverSlice) -> Result<bool> {
    ctx.allreduce(buf.is_here(), |a, b| a && b)
}

/// Copies `buf[lo..lo + local.len()]` into `local`, converting each element with `f`.
fn copy_in<S: Copy + Sync, T: Send>(
    ctx: &Ctx,
    buf: &DriverSlice,
    lo: usize,
    local: &mut [T],
    f: impl Fn(S) -> T + Sync,
) {
    ctx.forall_chunks_mut_with(local, TASK, |r, dst| {
        // SAFETY: the binding holds the buffer (`n` elements of S) for the whole command and
        // nothing writes it.
        let src = unsafe { buf.slice::<S>(lo + r.start..lo + r.end) };
        dst.iter_mut().zip(src).for_each(|(d, &s)| *d = f(s));
    });
}

/// Copies `local` into `buf[lo..lo + local.len()]`, converting each element with `f`.
fn copy_out<T: Copy + Sync, S>(ctx: &Ctx, buf: &DriverSlice, lo: usize, local: &[T], f: impl Fn(T) -> S + Sync) {
    ctx.forall_chunks_with(0..local.len(), TASK, |r| {
        // SAFETY: the binding holds the writable output buffer (`n` elements of S) for the whole
        // command; every locale writes its own positions `lo..`, in disjoint chunks.
        let dst = unsafe { buf.slice_mut::<S>(lo + r.start..lo + r.end) };
        dst.iter_mut().zip(&local[r]).for_each(|(d, &s)| *d = f(s));
    });
}

/// A new Block array of the driver's buffer, every locale copying its part in place.
fn pull<S: Copy + Sync, T: Elem + Send>(
    ctx: &Ctx,
    buf: &DriverSlice,
    n: usize,
    f: impl Fn(S) -> T + Sync,
) -> Result<DistArray<T, 1>> {
    let d = dist::block(ctx, [n])?;
    if all_here(ctx, buf)? {
        // Every element is copied in below.
        let mut a = DistArray::for_overwrite(ctx, d)?;
        let lo = local_range(ctx, n)?.start;
        copy_in(ctx, buf, lo, a.local_mut(), f);
        return Ok(a);
    }
    // SAFETY: locale 0 lives in the driver's process; the binding holds the buffer.
    let data = (ctx.id() == 0).then(|| unsafe { buf.slice::<S>(0..n) }.iter().map(|&s| f(s)).collect());
    DistArray::from_vec(ctx, d, 0, data)
}

/// A new array `id` of `n` elements of `dtype` copied from the driver's buffer `buf`.
#[derive(Serialize, Deserialize)]
pub struct FromBuffer {
    /// The new array's id.
    pub id: u64,
    /// The element type.
    pub dtype: DType,
    /// The number of elements.
    pub n: usize,
    /// The driver's buffer.
    pub buf: DriverSlice,
}

fn from_buffer(ctx: &Ctx, FromBuffer { id, dtype, n, buf }: FromBuffer) -> Result<()> {
    let col = match dtype {
        DType::I64 => Col::I(pull(ctx, &buf, n, |x: i64| x)?),
        DType::U64 => Col::U(pull(ctx, &buf, n, |x: u64| x)?),
        DType::F64 => Col::F(pull(ctx, &buf, n, |x: f64| x)?),
        // NumPy's bools are bytes; any nonzero byte is true.
        DType::Bool => Col::B(pull(ctx, &buf, n, |x: u8| x != 0)?),
        DType::U8 => Col::U8(pull(ctx, &buf, n, |x: u8| x)?),
    };
    Registry::of(ctx).insert(id, col);
    Ok(())
}

/// Writes `a`'s values into the driver's buffer, in place where every locale can reach it.
fn push<T: Elem + Copy + Sync, S>(
    ctx: &Ctx,
    a: &DistArray<T, 1>,
    buf: &DriverSlice,
    f: impl Fn(T) -> S + Sync,
) -> Result<()> {
    if all_here(ctx, buf)? {
        let lo = local_range(ctx, a.len())?.start;
        copy_out(ctx, buf, lo, a.local(), f);
        return ctx.barrier();
    }
    if let Some(v) = a.gather(0)? {
        copy_out(ctx, buf, 0, &v, f);
    }
    Ok(())
}

/// An expression of `n` elements copied into the driver's buffer `buf`.
#[derive(Serialize, Deserialize)]
pub struct ToBuffer {
    /// The values.
    pub node: Node,
    /// Their number.
    pub n: usize,
    /// The driver's buffer, of `n` elements.
    pub buf: DriverSlice,
}

fn to_buffer(ctx: &Ctx, ToBuffer { node, n, buf }: ToBuffer) -> Result<()> {
    let op = Operand::of(ctx, &node, n)?;
    let r = op.with(|c| match c {
        Col::I(a) => push(ctx, a, &buf, |x| x),
        Col::U(a) => push(ctx, a, &buf, |x| x),
        Col::F(a) => push(ctx, a, &buf, |x| x),
        Col::B(a) => push(ctx, a, &buf, u8::from),
        Col::U8(a) => push(ctx, a, &buf, |x| x),
    });
    op.free()?;
    r
}

/// A new array of `buf`'s elements (of `dtype`; bool as bytes, any nonzero byte true).
/// **Collective.** The caller holds the buffer until this returns (see `handoff`).
pub fn from_slice(s: &Session, dtype: DType, buf: DriverSlice) -> Result<Array> {
    let n = buf.len();
    s.new_array(dtype, n, |id| s.exec(&FROM_BUFFER, FromBuffer { id, dtype, n, buf }))
}

/// Writes an expression's value (`n` elements) into `out`, a writable driver buffer of `n`
/// elements of its dtype (bool as bytes). **Collective.** The caller holds the buffer until
/// this returns.
pub fn to_slice(s: &Session, node: &Node, n: usize, out: DriverSlice) -> Result<()> {
    if out.len() != n {
        return Err(atoll::Error::InvalidArgument(format!("out: expected {n} elements, got {}", out.len())));
    }
    s.exec(&TO_BUFFER, ToBuffer { node: node.clone(), n, buf: out })
}

commands! {
    /// A new array `id` of `n` elements of `dtype` copied from a driver buffer.
    pub static FROM_BUFFER: Handler<FromBuffer, ()> =
        Handler::new("atoll-session::from_buffer", from_buffer);

    /// Writes an expression's value (`n` elements) into a writable driver buffer.
    pub static TO_BUFFER: Handler<ToBuffer, ()> = Handler::new("atoll-session::to_buffer", to_buffer);
}
