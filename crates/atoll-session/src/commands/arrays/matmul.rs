//! Matrix products of N-d pdarrays: `C = A B` of a row-major (`n` x `k`) and a (`k` x `m`)
//! array, both Block over their C-order values, into a Block (`n` x `m`) array.
//!
//! Each locale computes the rows of `C` its part covers (whole rows; a part edge inside a row
//! computes that row on both sides and keeps its own elements): it fetches those rows of `A`
//! (mostly its own part) and all of `B` with one bulk get per owner, multiplies them with the
//! local kernel (`atoll::ops::gemm`), and writes its part. `B` is read whole by every locale:
//! `k * m` elements each, the cost of this layout.

use super::local_range;
use super::strided::read_range;
use crate::handles::{Array, Session};
use crate::registry::{lock, Col, Registry};
use atoll::array::{dist, DistArray};
use atoll::ops::gemm;
use atoll::runtime::{Ctx, Handler, Pod};
use atoll::{Error, Result};
use serde::{Deserialize, Serialize};

/// A new array `id = a @ b` of `n * m` elements.
#[derive(Serialize, Deserialize)]
pub struct Matmul {
    /// The new array's id.
    pub id: u64,
    /// The left array: `n * k` values, row-major.
    pub a: u64,
    /// The right array: `k * m` values, row-major.
    pub b: u64,
    /// Rows of `a`.
    pub n: usize,
    /// Columns of `a`, rows of `b`.
    pub k: usize,
    /// Columns of `b`.
    pub m: usize,
}

/// A local product kernel: `(n, k, m, a, b, c)` computes `c = a b` (`atoll::ops::gemm`).
type Kernel<T> = fn(usize, usize, usize, &[T], &[T], &mut [T]) -> Result<()>;

fn product<T: atoll::array::Elem + Pod>(
    ctx: &Ctx,
    a: &DistArray<T, 1>,
    b: &DistArray<T, 1>,
    (n, k, m): (usize, usize, usize),
    kernel: Kernel<T>,
) -> Result<DistArray<T, 1>> {
    let r = local_range(ctx, n * m)?;
    let mut out = DistArray::<T, 1>::for_overwrite(ctx, dist::block(ctx, [n * m])?)?;
    let mine = if r.is_empty() {
        Ok(())
    } else {
        (|| {
            let (r0, r1) = (r.start / m, r.end.div_ceil(m));
            let rows = read_range(ctx, a, r0 * k, r1 * k)?;
            let whole_b = read_range(ctx, b, 0, k * m)?;
            let mut c = vec![T::zeroed(); (r1 - r0) * m];
            kernel(r1 - r0, k, m, &rows, &whole_b, &mut c)?;
            out.local_mut().copy_from_slice(&c[r.start - r0 * m..r.end - r0 * m]);
            Ok(())
        })()
    };
    // Every locale reaches the barrier, so that a failure on one does not leave others
    // waiting; the error is then returned.
    let b = ctx.barrier();
    mine.and(b)?;
    Ok(out)
}

fn matmul_cmd(ctx: &Ctx, Matmul { id, a, b, n, k, m }: Matmul) -> Result<()> {
    let ca = Registry::of(ctx).get(a)?;
    let cb = Registry::of(ctx).get(b)?;
    let out = {
        let ga = lock(&ca);
        let gb_own;
        let gb = if a == b {
            &*ga
        } else {
            gb_own = lock(&cb);
            &*gb_own
        };
        if ga.len() != n * k || gb.len() != k * m {
            return Err(Error::InvalidArgument(format!(
                "matmul: arrays of {} and {} elements for an ({n} x {k}) by ({k} x {m}) product",
                ga.len(),
                gb.len()
            )));
        }
        match (&*ga, gb) {
            (Col::F(x), Col::F(y)) => product(ctx, x, y, (n, k, m), gemm::gemm_f64).map(Col::F),
            (Col::I(x), Col::I(y)) => product(ctx, x, y, (n, k, m), gemm::gemm_i64).map(Col::I),
            _ => Err(Error::InvalidArgument("internal: matmul takes two float64 or two int64 arrays".into())),
        }?
    };
    Registry::of(ctx).insert(id, out);
    Ok(())
}

/// `a @ b` for a row-major (`n` x `k`) array `a` and a (`k` x `m`) array `b` of one dtype
/// (float64 or int64), as a new (`n` x `m`) array. **Collective.**
pub fn matmul(s: &Session, a: &Array, b: &Array, n: usize, k: usize, m: usize) -> Result<Array> {
    s.new_array(a.dtype, n * m, |id| s.exec(&MATMUL, Matmul { id, a: a.id, b: b.id, n, k, m }))
}

commands! {
    /// A new array `id = a @ b` (row-major blocks of float64 or int64).
    pub static MATMUL: Handler<Matmul, ()> = Handler::new("atoll-session::matmul", matmul_cmd);
}
