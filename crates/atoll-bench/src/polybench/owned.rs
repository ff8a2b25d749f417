//! Owner-computes building blocks of the linear-algebra kernels: matrices distributed by rows
//! (a `locales x 1` grid, see [`Dists::make_rows`]) whose owners update their rows with plain
//! loops over local storage, and the few collective operations that bring them the rows they
//! read: a whole matrix replicated on every locale through a zippered loop ([`Replica`]: its
//! remote reads are follower fetches, so `off`/`static`/`auto` still decide how they travel),
//! and a panel of consecutive rows copied onto every locale the same way
//! ([`Replica::fill_rows`]).
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
        self.fill_rows(src, 0, src.shape()[0])
    }

    /// Copies rows `lo..hi` of `src` (at most `r` rows) onto every locale, into the first
    /// `hi - lo` rows of its copy, as [`fill`](Self::fill) does. **Collective.**
    ///
    /// # Errors
    /// [`Error::ShapeMismatch`] when `src` has not `c` columns; [`Error::InvalidArgument`] for
    /// more than `r` rows; communication errors.
    pub fn fill_rows<M: Distribution<2> + 'static>(&mut self, src: &DistArray<f64, 2, M>, lo: usize, hi: usize) -> Result<()> {
        if hi < lo || hi - lo > self.r {
            return Err(Error::InvalidArgument(format!("Replica::fill_rows: rows {lo}..{hi} in a copy of {} rows", self.r)));
        }
        let (r, c, h) = (self.r as i64, self.arr.shape()[1] as i64, (hi - lo) as i64);
        let rows = src.slice([lo as i64..hi as i64, 0..c])?;
        for l in 0..self.arr.ctx().num_locales() as i64 {
            self.arr.slice_mut([l * r..l * r + h, 0..c])?.zip_apply(rows, |d, s| *d = s)?;
        }
        Ok(())
    }

    /// Copies `a` into this replica and `b` into `other` (of the same shape) in the same
    /// zippered loops: half the loops of two [`fill`](Self::fill)s. **Collective.**
    ///
    /// # Errors
    /// [`Error::ShapeMismatch`] when the shapes differ; communication errors.
    pub fn fill_pair<M: Distribution<2> + 'static>(&mut self, other: &mut Replica, a: &DistArray<f64, 2, M>, b: &DistArray<f64, 2, M>) -> Result<()> {
        if self.arr.shape() != other.arr.shape() {
            return Err(Error::ShapeMismatch {
                context: "Replica::fill_pair: two replicas of different shapes".into(),
                left: format!("{:?}", self.arr.shape()),
                right: format!("{:?}", other.arr.shape()),
            });
        }
        let (r, c) = (self.r as i64, self.arr.shape()[1] as i64);
        for l in 0..self.arr.ctx().num_locales() as i64 {
            let plane = [l * r..(l + 1) * r, 0..c];
            self.arr.slice_mut(plane.clone())?.zip_apply_with_mut(&mut other.arr.slice_mut(plane)?, (a.view(), b.view()), |x, y, (av, bv)| {
                *x = av;
                *y = bv;
            })?;
        }
        Ok(())
    }

    /// This locale's copy, row-major.
    pub fn get(&self) -> &[f64] {
        self.arr.local()
    }

    /// This locale's copy, row-major, to work on in place (the next fill overwrites it).
    pub fn get_mut(&mut self) -> &mut [f64] {
        self.arr.local_mut()
    }
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
