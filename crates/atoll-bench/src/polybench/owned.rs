//! Owner-computes building blocks of the linear-algebra kernels: matrices distributed by rows
//! (a `locales x 1` grid, see [`Dists::make_rows`]) whose owners update their rows with plain
//! loops over local storage, and the few collective operations that bring them the rows they
//! read: a whole matrix replicated on every locale through a zippered loop ([`Replica`]: its
//! remote reads are follower fetches, so `off`/`static`/`auto` still decide how they travel),
//! and a panel of consecutive rows gathered on every locale ([`panel`], one collective).
//!
//! This replaces one collective operation per row (or per element) of an outer loop with one
//! per matrix or per panel of rows: what a careful Chapel user writes with `coforall loc in
//! Locales do on loc { for i in A.localSubdomain().dim(0) ... }`.

use super::Dists;
use atoll::array::DistArray;
use atoll::prelude::*;

/// A matrix distributed by rows.
pub type RowMat<X> = DistArray<f64, 2, <X as Dists>::M<2>>;

/// An `r x c` matrix distributed by rows (`f(i, j)` its initial values).
///
/// # Errors
/// Bad sizes; communication errors.
pub fn row_mat<X: Dists>(ctx: &Ctx, x: &X, r: usize, c: usize, f: impl Fn(usize, usize) -> f64 + Sync) -> Result<RowMat<X>> {
    DistArray::from_fn(ctx, x.make_rows(ctx, [r, c])?, |[i, j]| f(i as usize, j as usize))
}

/// The rows this locale owns, in the order of its local storage (which holds them whole,
/// row-major): `local()[l * c..(l + 1) * c]` is row `rows[l]`.
///
/// # Errors
/// [`Error::InvalidArgument`] when the matrix is not distributed by whole rows.
pub fn owned_rows<M: Distribution<2>>(ctx: &Ctx, arr: &DistArray<f64, 2, M>) -> Result<Vec<usize>> {
    let dist = arr.dist();
    let me = ctx.id();
    if !dist.grid().contains(me) {
        return Ok(Vec::new());
    }
    let [lr, lc] = dist.local_shape(me)?;
    let c = arr.shape()[1];
    if lc != c && lr > 0 {
        return Err(Error::InvalidArgument(format!("owned_rows: locale {me} owns {lc} of {c} columns (not distributed by rows)")));
    }
    (0..lr).map(|l| Ok(dist.global_index(me, l * c)?[0] as usize)).collect()
}

/// A full copy of an `r x c` matrix on every locale: a Block array of `locales * r` rows, each
/// locale owning one copy.
pub struct Replica {
    arr: DistArray<f64, 2, Block<2>>,
    r: usize,
}

impl Replica {
    /// Room for a copy of an `r x c` matrix on every locale. **Collective.**
    ///
    /// # Errors
    /// Bad sizes; communication errors.
    pub fn new(ctx: &Ctx, r: usize, c: usize) -> Result<Replica> {
        let l = ctx.num_locales();
        let grid = LocaleGrid::new(0..l, [l, 1])?;
        let arr = DistArray::zeros(ctx, Block::new(Domain::from_shape([l * r, c])?, grid))?;
        Ok(Replica { arr, r })
    }

    /// Copies `src` onto every locale: one zippered loop per locale whose leader is that
    /// locale's copy and whose follower is `src` (remote rows are follower fetches, one per
    /// element with aggregation `off`, strided transfers otherwise). **Collective.**
    ///
    /// # Errors
    /// [`Error::ShapeMismatch`] when `src` is not `r x c`; communication errors.
    pub fn fill<M: Distribution<2> + 'static>(&mut self, src: &DistArray<f64, 2, M>) -> Result<()> {
        let (r, c) = (self.r as i64, self.arr.shape()[1] as i64);
        for l in 0..self.arr.ctx().num_locales() as i64 {
            self.arr.slice_mut([l * r..(l + 1) * r, 0..c])?.zip_apply(src.view(), |d, s| *d = s)?;
        }
        Ok(())
    }

    /// This locale's copy, row-major.
    pub fn get(&self) -> &[f64] {
        self.arr.local()
    }
}

/// Rows `lo..hi` of a row-distributed matrix, row-major, on every locale: each locale sends
/// the rows of the panel it owns, in one allgather. **Collective.**
///
/// # Errors
/// Communication errors; a matrix not distributed by rows.
pub fn panel<M: Distribution<2>>(ctx: &Ctx, arr: &DistArray<f64, 2, M>, rows: &[usize], lo: usize, hi: usize) -> Result<Vec<f64>> {
    let c = arr.shape()[1];
    let local = arr.local();
    let mine: Vec<(u64, Vec<f64>)> =
        rows.iter().enumerate().filter(|(_, &i)| (lo..hi).contains(&i)).map(|(l, &i)| (i as u64, local[l * c..(l + 1) * c].to_vec())).collect();
    let mut out = vec![0.0; (hi - lo) * c];
    let mut seen = 0;
    for part in ctx.allgather(&mine)? {
        for (i, row) in part {
            let i = i as usize - lo;
            out[i * c..(i + 1) * c].copy_from_slice(&row);
            seen += 1;
        }
    }
    if seen != hi - lo {
        return Err(Error::InvalidArgument(format!("panel {lo}..{hi}: {seen} rows owned (not distributed by rows)")));
    }
    Ok(out)
}

/// `y += s * x` (the inner loop of every row update).
#[inline]
pub fn axpy(y: &mut [f64], s: f64, x: &[f64]) {
    for (y, x) in y.iter_mut().zip(x) {
        *y += s * x;
    }
}

/// `x - sum(a[k] * b[k])`, subtracting term by term in order (PolyBench's inner loop).
#[inline]
pub fn sub_dot(mut x: f64, a: &[f64], b: &[f64]) -> f64 {
    for (a, b) in a.iter().zip(b) {
        x -= a * b;
    }
    x
}

/// `sum(a[k] * b[k])`, in order.
#[inline]
pub fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(a, b)| a * b).sum()
}
