//! Element access, gather, scatter and compress.

use super::{local_range, materialize, Operand};
use crate::handles::{Array, Session};
use crate::registry::{lock, Col, Registry};
use crate::types::{Node, Scal};
use atoll::array::with_col;
use atoll::array::{dist, DistArray, Elem};
use atoll::runtime::{Ctx, GlobalPtr, Handler};
use atoll::{Error, Result};
use serde::{Deserialize, Serialize};

fn get_t<T: Elem + crate::eval::kernels::Num>(a: &DistArray<T, 1>, lo: usize, pos: usize) -> Scal {
    a.local()[pos - lo].scal()
}

/// Element `pos` of array `id` (from the locale that holds it).
#[derive(Serialize, Deserialize)]
pub struct Get {
    /// The array.
    pub id: u64,
    /// The global position.
    pub pos: usize,
}

fn get_cmd(ctx: &Ctx, Get { id, pos }: Get) -> Result<Option<Scal>> {
    let c = Registry::of(ctx).get(id)?;
    let g = lock(&c);
    let r = local_range(ctx, g.len())?;
    if !r.contains(&pos) {
        return Ok(None);
    }
    Ok(Some(with_col!(&*g, a => get_t(a, r.start, pos))))
}

/// Element `pos` of array `id` set to `v`.
#[derive(Serialize, Deserialize)]
pub struct Set {
    /// The array.
    pub id: u64,
    /// The global position.
    pub pos: usize,
    /// The value, of the array's dtype.
    pub v: Scal,
}

fn set_cmd(ctx: &Ctx, Set { id, pos, v }: Set) -> Result<()> {
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
            (Col::U8(a), Scal::U8(x)) => a.local_mut()[k] = x,
            _ => return Err(Error::InvalidArgument("internal: scalar of another dtype".into())),
        }
    }
    Ok(())
}

fn gather_t<T: Elem>(src: &DistArray<T, 1>, idx: &Col) -> Result<DistArray<T, 1>> {
    match idx {
        Col::I(i) => src.take(i),
        _ => Err(Error::InvalidArgument("internal: gather indices must be int64".into())),
    }
}

/// `out = src[idx]`: a new array `id` gathered from array `src` at `n` int64 indices.
#[derive(Serialize, Deserialize)]
pub struct Gather {
    /// The new array's id.
    pub id: u64,
    /// The array read.
    pub src: u64,
    /// The int64 indices.
    pub idx: Node,
    /// The number of indices.
    pub n: usize,
}

fn gather_cmd(ctx: &Ctx, Gather { id, src, idx, n }: Gather) -> Result<()> {
    let idx = Operand::of_apart_from(ctx, &idx, n, src)?;
    let s = Registry::of(ctx).get(src)?;
    let out = idx.with(|idx| {
        let g = lock(&s);
        atoll::array::map_col!(&*g, a => gather_t(a, idx))
    });
    idx.free()?;
    Registry::of(ctx).insert(id, out?);
    Ok(())
}

/// `dst[idx] = vals`: `n` indices and values written into array `dst`.
#[derive(Serialize, Deserialize)]
pub struct Scatter {
    /// The array written.
    pub dst: u64,
    /// The int64 indices.
    pub idx: Node,
    /// The values, of `dst`'s dtype.
    pub vals: Node,
    /// The number of indices and values.
    pub n: usize,
}

fn scatter_cmd(ctx: &Ctx, Scatter { dst, idx, vals, n }: Scatter) -> Result<()> {
    let idx = Operand::of_apart_from(ctx, &idx, n, dst)?;
    let vals = match Operand::of_apart_from(ctx, &vals, n, dst) {
        Ok(v) => v,
        Err(e) => {
            idx.free()?;
            return Err(e);
        }
    };
    let d = Registry::of(ctx).get(dst)?;
    let r = idx.with2(&vals, |idx, vals| {
        let mut g = lock(&d);
        match (&mut *g, idx, vals) {
            (Col::I(a), Col::I(i), Col::I(v)) => a.scatter_at(i, v),
            (Col::U(a), Col::I(i), Col::U(v)) => a.scatter_at(i, v),
            (Col::F(a), Col::I(i), Col::F(v)) => a.scatter_at(i, v),
            (Col::B(a), Col::I(i), Col::B(v)) => a.scatter_at(i, v),
            (Col::U8(a), Col::I(i), Col::U8(v)) => a.scatter_at(i, v),
            _ => Err(Error::InvalidArgument("internal: scatter dtypes".into())),
        }
    });
    idx.free()?;
    vals.free()?;
    r
}

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

/// `src[mask]` of expressions of `n` elements as a new array `id`.
#[derive(Serialize, Deserialize)]
pub struct Compress {
    /// The new array's id.
    pub id: u64,
    /// The values.
    pub src: Node,
    /// The bool mask.
    pub mask: Node,
    /// The number of elements of both.
    pub n: usize,
}

fn compress_cmd(ctx: &Ctx, Compress { id, src, mask, n }: Compress) -> Result<u64> {
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
            Col::U8(a) => {
                compress_t(ctx, a.local(), mk).and_then(|(k, o, t)| compress_into(ctx, &k, o, t)).map(Col::U8)
            }
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

/// Element `pos` of array `a`; an `IndexOutOfBounds` error past its end. **Collective.**
pub fn get(s: &Session, a: &Array, pos: usize) -> Result<Scal> {
    let all = s.exec_all(&GET, Get { id: a.id, pos })?;
    all.into_iter().flatten().next().ok_or_else(|| Error::IndexOutOfBounds {
        index: pos.to_string(),
        bounds: format!("an array of size {}", a.len),
    })
}

/// Sets element `pos` of array `a` to `v` (of `a`'s dtype). **Collective.**
pub fn set(s: &Session, a: &Array, pos: usize, v: Scal) -> Result<()> {
    s.exec(&SET, Set { id: a.id, pos, v })
}

/// `a[idx]` for an int64 expression of `n` indices in range. **Collective.**
pub fn gather(s: &Session, a: &Array, idx: &Node, n: usize) -> Result<Array> {
    s.new_array(a.dtype, n, |id| s.exec(&GATHER, Gather { id, src: a.id, idx: idx.clone(), n }))
}

/// `a[idx] = vals` for `n` int64 indices in range and values of `a`'s dtype. **Collective.**
pub fn scatter(s: &Session, a: &Array, idx: &Node, vals: &Node, n: usize) -> Result<()> {
    s.exec(&SCATTER, Scatter { dst: a.id, idx: idx.clone(), vals: vals.clone(), n })
}

/// `x[mask]` for expressions of `n` elements. **Collective.**
pub fn compress(s: &Session, x: &Node, mask: &Node, n: usize) -> Result<Array> {
    s.new_array_len(x.dtype(), |id| s.exec(&COMPRESS, Compress { id, src: x.clone(), mask: mask.clone(), n }))
}

commands! {
    /// Element `pos` of array `id` (from its owner).
    pub static GET: Handler<Get, Option<Scal>> = Handler::new("atoll-session::get", get_cmd);

    /// Sets element `pos` of array `id` (on its owner).
    pub static SET: Handler<Set, ()> = Handler::new("atoll-session::set", set_cmd);

    /// A new array `id = src[idx]` (whole `src`, int64 indices in range).
    pub static GATHER: Handler<Gather, ()> = Handler::new("atoll-session::gather", gather_cmd);

    /// `dst[idx] = vals` (whole `dst`, int64 indices in range).
    pub static SCATTER: Handler<Scatter, ()> = Handler::new("atoll-session::scatter", scatter_cmd);

    /// A new array `id = src[mask]`; returns its length.
    pub static COMPRESS: Handler<Compress, u64> = Handler::new("atoll-session::compress", compress_cmd);
}
