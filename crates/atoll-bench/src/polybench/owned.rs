//! Owner-computes building blocks of the linear-algebra kernels: matrices distributed by rows
//! (a `locales x 1` grid, see [`Dists::make_rows`]) whose owners update their rows with plain
//! loops over local storage, and the few collective operations that bring them the rows they
//! read: a whole matrix replicated on every locale ([`Replica`]) and a panel of consecutive
//! rows copied onto every locale the same way ([`Replica::fill_rows`]).
//!
//! With aggregation `static` or `auto`, a replica is filled as a careful PGAS user replicates a
//! row-distributed matrix, all locales at the same time: each locale writes the rows it owns
//! into its own copy (symmetric memory), a barrier, then reads every other locale's rows from
//! that locale's copy with one get per run of consecutive rows, straight into place, and a
//! barrier. With `off` it stays the paper's unaggregated baseline: one zippered loop per locale
//! whose follower fetches remote elements one by one (the locales take turns: only the owner
//! of the copy works). On a 2-vCPU guest the zippered copy of trmm's two 128 x 128 matrices took
//! ~400 us on 2 local locales against ~50 us for the bulk path (the kernel itself ~120-150 us).
//!
//! This replaces one collective operation per row (or per element) of an outer loop with one
//! per matrix or per panel of rows: what a careful Chapel user writes with `coforall loc in
//! Locales do on loc { for i in A.localSubdomain().dim(0) ... }`.

use super::Dists;
use atoll::array::{aggregation, Aggregation, DistArray};
use atoll::prelude::*;

/// A matrix distributed by rows.
pub type RowMat<X> = DistArray<f64, 2, <X as Dists>::M<2>>;

/// An `r x c` matrix distributed by rows (`f(i, j)` its initial values).
///
/// # Errors
/// Bad sizes; communication errors.
pub fn row_mat<X: Dists>(
    ctx: &Ctx,
    x: &X,
    r: usize,
    c: usize,
    f: impl Fn(usize, usize) -> f64 + Sync,
) -> Result<RowMat<X>> {
    DistArray::from_fn(ctx, x.make_rows(ctx, [r, c])?, |[i, j]| f(i as usize, j as usize))
}

/// The rows this locale owns, in the order of its local storage (which holds them whole,
/// row-major): `local()[l * c..(l + 1) * c]` is row `rows[l]`.
///
/// # Errors
/// [`Error::InvalidArgument`] when the matrix is not distributed by whole rows.
pub fn owned_rows<M: Distribution<2>>(ctx: &Ctx, arr: &DistArray<f64, 2, M>) -> Result<Vec<usize>> {
    rows_of(arr, ctx.id())
}

/// The rows locale `me` owns, in the order of its local storage (see [`owned_rows`]).
///
/// # Errors
/// As [`owned_rows`]; the distribution's error for a bad `me`.
pub fn rows_of<M: Distribution<2>>(arr: &DistArray<f64, 2, M>, me: usize) -> Result<Vec<usize>> {
    let dist = arr.dist();
    if !dist.grid().contains(me) {
        return Ok(Vec::new());
    }
    let [lr, lc] = dist.local_shape(me)?;
    let c = arr.shape()[1];
    if lc != c && lr > 0 {
        return Err(Error::InvalidArgument(format!(
            "owned_rows: locale {me} owns {lc} of {c} columns (not distributed by rows)"
        )));
    }
    (0..lr).map(|l| Ok(dist.global_index(me, l * c)?[0] as usize)).collect()
}

/// A full copy of an `r x c` matrix on every locale: a Block array of `locales * r` rows, each
/// locale owning one copy (filled with aggregation `off`), and symmetric memory of `r x c` on
/// every locale (filled in bulk otherwise).
pub struct Replica {
    /// The copies filled by zippered loops (aggregation `off`).
    arr: DistArray<f64, 2, Block<2>>,
    r: usize,
    /// The copies filled in bulk (aggregation `static`, `auto`): `r x c` on every locale,
    /// where each locale publishes its own rows and reads the others' rows from their owners.
    bulk: Symmetric<f64>,
    /// Whether the last fill went to `bulk` (else to `arr`).
    in_bulk: bool,
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
        let bulk = ctx.alloc_symmetric(r * c)?;
        Ok(Replica { arr, r, bulk, in_bulk: false })
    }

    /// Copies `src` onto every locale: with aggregation `off`, one zippered loop per locale
    /// whose leader is that locale's copy and whose follower is `src` (one get per remote
    /// element); otherwise every locale publishes its rows and reads the others' at once (see
    /// the module's documentation). **Collective.**
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
    pub fn fill_rows<M: Distribution<2> + 'static>(
        &mut self,
        src: &DistArray<f64, 2, M>,
        lo: usize,
        hi: usize,
    ) -> Result<()> {
        if hi < lo || hi - lo > self.r {
            return Err(Error::InvalidArgument(format!(
                "Replica::fill_rows: rows {lo}..{hi} in a copy of {} rows",
                self.r
            )));
        }
        let (r, c, h) = (self.r as i64, self.arr.shape()[1] as i64, (hi - lo) as i64);
        let rows = src.slice([lo as i64..hi as i64, 0..c])?;
        if self.bulk_mode()? {
            if src.shape()[1] != c as usize {
                return Err(Error::ShapeMismatch {
                    context: "Replica::fill_rows: columns of the source and of the copy".into(),
                    left: format!("{}", src.shape()[1]),
                    right: format!("{c}"),
                });
            }
            bulk_fill(&mut [(&mut self.bulk, src)], lo, hi)?;
            self.in_bulk = true;
            return Ok(());
        }
        self.in_bulk = false;
        for l in 0..self.arr.ctx().num_locales() as i64 {
            self.arr.slice_mut([l * r..l * r + h, 0..c])?.zip_apply(rows, |d, s| *d = s)?;
        }
        Ok(())
    }

    /// Copies `a` into this replica and `b` into `other` (of the same shape) in the same
    /// zippered loops (`off`) or the same bulk exchange: half the loops or barriers of two
    /// [`fill`](Self::fill)s. **Collective.**
    ///
    /// # Errors
    /// [`Error::ShapeMismatch`] when the shapes differ; communication errors.
    pub fn fill_pair<M: Distribution<2> + 'static>(
        &mut self,
        other: &mut Replica,
        a: &DistArray<f64, 2, M>,
        b: &DistArray<f64, 2, M>,
    ) -> Result<()> {
        if self.arr.shape() != other.arr.shape() {
            return Err(Error::ShapeMismatch {
                context: "Replica::fill_pair: two replicas of different shapes".into(),
                left: format!("{:?}", self.arr.shape()),
                right: format!("{:?}", other.arr.shape()),
            });
        }
        if a.shape() != b.shape() || a.shape()[1] != self.arr.shape()[1] || a.shape()[0] != self.r {
            return Err(Error::ShapeMismatch {
                context: "Replica::fill_pair: sources and copies of different shapes".into(),
                left: format!("{:?} and {:?}", a.shape(), b.shape()),
                right: format!("{} x {}", self.r, self.arr.shape()[1]),
            });
        }
        if self.bulk_mode()? {
            bulk_fill(&mut [(&mut self.bulk, a), (&mut other.bulk, b)], 0, self.r)?;
            (self.in_bulk, other.in_bulk) = (true, true);
            return Ok(());
        }
        (self.in_bulk, other.in_bulk) = (false, false);
        let (r, c) = (self.r as i64, self.arr.shape()[1] as i64);
        for l in 0..self.arr.ctx().num_locales() as i64 {
            let plane = [l * r..(l + 1) * r, 0..c];
            self.arr.slice_mut(plane.clone())?.zip_apply_with_mut(
                &mut other.arr.slice_mut(plane)?,
                (a.view(), b.view()),
                |x, y, (av, bv)| {
                    *x = av;
                    *y = bv;
                },
            )?;
        }
        Ok(())
    }

    /// Whether fills go in bulk: aggregation other than `off` on this locale (the modes are set
    /// on every locale alike, so every locale takes the same path).
    fn bulk_mode(&self) -> Result<bool> {
        Ok(aggregation(self.arr.ctx())? != Aggregation::Off)
    }

    /// This locale's copy, row-major (the rows of the last fill first).
    pub fn get(&self) -> &[f64] {
        if self.in_bulk {
            self.bulk.local()
        } else {
            self.arr.local()
        }
    }

    /// This locale's copy, row-major, to work on in place (the next fill overwrites it).
    pub fn get_mut(&mut self) -> &mut [f64] {
        if self.in_bulk {
            self.bulk.local_mut()
        } else {
            self.arr.local_mut()
        }
    }
}

/// Rows `lo..hi` of each source matrix (row-distributed, `c` columns each) into the first
/// `hi - lo` rows of its symmetric copy, on every locale: each locale writes the rows it owns
/// into its own copy, a barrier, then each locale reads every other locale's rows from that
/// locale's copy (one get per run of consecutive rows, straight into place), and a barrier so
/// that no copy is overwritten (next fill, work in place) while another locale reads it.
/// **Collective.**
///
/// # Errors
/// [`Error::InvalidArgument`] when a matrix is not distributed by rows or does not fit its
/// copy; communication errors.
fn bulk_fill<M: Distribution<2> + 'static>(
    pairs: &mut [(&mut Symmetric<f64>, &DistArray<f64, 2, M>)],
    lo: usize,
    hi: usize,
) -> Result<()> {
    let Some(ctx) = pairs.first().map(|(_, s)| s.ctx().clone()) else { return Ok(()) };
    let (me, l) = (ctx.id(), ctx.num_locales());
    // Every locale's rows in lo..hi, per source, as (local row index, global row).
    let mut owners = Vec::with_capacity(pairs.len());
    for (copy, src) in pairs.iter_mut() {
        let [r, c] = src.shape();
        if hi < lo || hi > r || (hi - lo) * c > copy.local().len() {
            return Err(Error::InvalidArgument(format!(
                "bulk_fill: rows {lo}..{hi} of a {r} x {c} matrix into a copy of {} values",
                copy.local().len()
            )));
        }
        let rows: Vec<Vec<usize>> = (0..l).map(|t| rows_of(src, t)).collect::<Result<_>>()?;
        let out = copy.local_mut();
        for (k, &i) in rows[me].iter().enumerate() {
            if (lo..hi).contains(&i) {
                out[(i - lo) * c..(i - lo + 1) * c].copy_from_slice(&src.local()[k * c..(k + 1) * c]);
            }
        }
        owners.push(rows);
    }
    ctx.barrier()?;
    for ((copy, src), rows) in pairs.iter_mut().zip(&owners) {
        let c = src.shape()[1];
        for (t, rows) in rows.iter().enumerate().filter(|&(t, _)| t != me) {
            let mut wanted = rows.iter().copied().filter(|i| (lo..hi).contains(i)).peekable();
            while let Some(first) = wanted.next() {
                let mut last = first;
                while wanted.peek() == Some(&(last + 1)) {
                    last += 1;
                    wanted.next();
                }
                let (from, to) = ((first - lo) * c, (last + 1 - lo) * c);
                let at = copy.ptr(t).add(from);
                ctx.get(at, &mut copy.local_mut()[from..to])?;
            }
        }
    }
    ctx.barrier()
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

#[cfg(test)]
mod tests {
    use super::super::{BlockCyclicDists, CyclicDists};
    use super::*;
    use atoll::array::{set_aggregation, Aggregation};

    fn value(i: usize, j: usize) -> f64 {
        (i * 1000 + j) as f64
    }

    /// Every fill path (zippered `off`, bulk exchange `static`/`auto`) gives every locale the
    /// same copy as a sequential construction, for whole matrices, pairs and panels of rows,
    /// with row counts that do not divide evenly and a block that does not divide them.
    fn check_fills<X: Dists>(ctx: &Ctx, x: &X) -> Result<()> {
        let (r, c) = (11, 5);
        let a = row_mat(ctx, x, r, c, value)?;
        let b = row_mat(ctx, x, r, c, |i, j| -value(i, j))?;
        let want = |f: &dyn Fn(usize, usize) -> f64, lo: usize, hi: usize| {
            (lo..hi).flat_map(|i| (0..c).map(move |j| (i, j))).map(|(i, j)| f(i, j)).collect::<Vec<f64>>()
        };
        for mode in [Aggregation::Off, Aggregation::Static, Aggregation::Auto] {
            set_aggregation(ctx, mode);
            let (mut ra, mut rb) = (Replica::new(ctx, r, c)?, Replica::new(ctx, r, c)?);
            ra.fill(&a)?;
            assert_eq!(&ra.get()[..r * c], &want(&value, 0, r)[..], "{mode:?} fill");
            ra.get_mut()[0] = -1.0; // scribbled on: the next fill overwrites it
            ra.fill_pair(&mut rb, &a, &b)?;
            assert_eq!(&ra.get()[..r * c], &want(&value, 0, r)[..], "{mode:?} fill_pair first");
            assert_eq!(&rb.get()[..r * c], &want(&|i, j| -value(i, j), 0, r)[..], "{mode:?} fill_pair second");
            let mut pan = Replica::new(ctx, 4, c)?;
            for (lo, hi) in [(0, 4), (3, 7), (8, 11), (10, 10)] {
                pan.fill_rows(&a, lo, hi)?;
                assert_eq!(&pan.get()[..(hi - lo) * c], &want(&value, lo, hi)[..], "{mode:?} rows {lo}..{hi}");
            }
            assert!(matches!(pan.fill_rows(&a, 2, 7), Err(Error::InvalidArgument(_))), "5 rows into a panel of 4");
            let wide = row_mat(ctx, x, r, c + 1, value)?;
            assert!(ra.fill_pair(&mut rb, &wide, &wide).is_err(), "{mode:?}: a source of another shape");
        }
        set_aggregation(ctx, Aggregation::Auto);
        Ok(())
    }

    #[test]
    fn replica_fills_agree_with_a_sequential_copy() {
        for locales in 1..=4 {
            run(Config::local(locales), |ctx| {
                check_fills(ctx, &CyclicDists)?;
                check_fills(ctx, &BlockCyclicDists { block: 3 })
            })
            .unwrap();
        }
    }
}
