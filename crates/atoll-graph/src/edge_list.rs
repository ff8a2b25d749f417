//! A distributed edge list held in plain 1-D `DistArray`s `(row, col[, val])`, and
//! [`EdgeListMatrix`], the [`RowMatrix`] over any [`EdgeSource`]: the operator only reads each
//! locale's local parts, so the arrays can live anywhere that gives local slices (Block arrays
//! here; shared arrays later).

use crate::entries::LocalEntries;
use crate::halo::Halo;
use crate::operator::{check_part, RowMatrix};
use crate::partition::Partition;
use atoll_array::{dist, Block, DistArray};
use atoll_error::{Error, Result};
use atoll_runtime::Ctx;
use std::ops::Range;

/// Where an edge list's arrays live: each locale's local parts.
pub trait EdgeSource {
    /// Row indices of this locale's entries.
    fn local_rows(&self) -> &[i64];
    /// Column indices of this locale's entries.
    fn local_cols(&self) -> &[i64];
    /// Values (`None`: every value 1).
    fn local_vals(&self) -> Option<&[f64]>;
}

/// Edges in Block-distributed `DistArray`s over `0..nnz`.
pub struct DistEdges {
    /// Row of each entry.
    pub rows: DistArray<i64, 1, Block<1>>,
    /// Column of each entry.
    pub cols: DistArray<i64, 1, Block<1>>,
    /// Value of each entry, or `None` for a pattern.
    pub vals: Option<DistArray<f64, 1, Block<1>>>,
}

impl EdgeSource for DistEdges {
    fn local_rows(&self) -> &[i64] {
        self.rows.local()
    }
    fn local_cols(&self) -> &[i64] {
        self.cols.local()
    }
    fn local_vals(&self) -> Option<&[f64]> {
        self.vals.as_ref().map(|v| v.local())
    }
}

pub(crate) fn spread<T: atoll_runtime::Pod + Default>(
    ctx: &Ctx,
    part: &Partition,
    first: usize,
    v: &[T],
    out: &mut [T],
) -> Result<()> {
    let p = ctx.num_locales();
    let mut send: Vec<Vec<T>> = vec![Vec::new(); p];
    let mut k = 0;
    while k < v.len() {
        let q = part.owner(first + k);
        let end = (part.range(q).end - first).min(v.len());
        send[q].extend_from_slice(&v[k..end]);
        k = end;
    }
    let got = ctx.alltoallv(send)?.concat();
    if got.len() != out.len() {
        return Err(Error::Comm {
            locale: ctx.id(),
            message: format!("DistEdges: received {} entries for a part of {}", got.len(), out.len()),
        });
    }
    out.copy_from_slice(&got);
    Ok(())
}

impl DistEdges {
    /// Every locale's entries, in locale order, as Block arrays over `0..nnz`. **Collective.**
    ///
    /// # Errors
    /// Out of memory (nothing is left allocated) and communication failures.
    pub fn from_entries(ctx: &Ctx, e: &LocalEntries) -> Result<Self> {
        let first = ctx.exscan(e.len() as u64, 0u64, |a, b| a + b)? as usize;
        let total = ctx.allreduce(e.len() as u64, |a, b| a + b)? as usize;
        let pattern = ctx.allreduce(e.vals.is_none(), |a, b| a && b)?;
        let part = Partition::new(total, ctx.num_locales());
        let d = dist::block(ctx, [total])?;
        let mut rows = DistArray::<i64, 1, Block<1>>::zeros(ctx, d.clone())?;
        let mut cols = DistArray::<i64, 1, Block<1>>::zeros(ctx, d.clone())?;
        let mut vals = if pattern { None } else { Some(DistArray::<f64, 1, Block<1>>::zeros(ctx, d)?) };
        let r: Vec<i64> = e.rows.iter().map(|&x| x as i64).collect();
        spread(ctx, &part, first, &r, rows.local_mut())?;
        let c: Vec<i64> = e.cols.iter().map(|&x| x as i64).collect();
        spread(ctx, &part, first, &c, cols.local_mut())?;
        if let Some(va) = &mut vals {
            let v: Vec<f64> = (0..e.len()).map(|k| e.val(k)).collect();
            spread(ctx, &part, first, &v, va.local_mut())?;
        }
        ctx.barrier()?;
        Ok(DistEdges { rows, cols, vals })
    }
}

/// The operator of an edge list: `A = sum over entries of val * e_row e_col^T` (duplicates
/// add up in products; the norms and absolute sums take entries one by one, so they are those
/// of `A` only when no position is listed twice). SpMV reads `x`'s ghosts with one cached plan and sends the products of remote rows
/// to their owners with another: at most two puts per remote locale per product.
pub struct EdgeListMatrix<S: EdgeSource> {
    source: S,
    nrows: usize,
    ncols: usize,
    rows: Partition,
    cols: Partition,
    me: usize,
    /// Per entry: offset into (local x, then column ghosts).
    xi: Vec<u32>,
    /// Per entry: offset into (local y, then row ghosts).
    yi: Vec<u32>,
    col_halo: Halo,
    row_halo: Halo,
}

fn local_numbering(idx: &[i64], part: Partition, me: usize) -> Result<(Vec<u32>, Vec<u64>)> {
    let mine = part.range(me);
    let inside = |g: u64| (mine.start as u64..mine.end as u64).contains(&g);
    let mut ghosts: Vec<u64> = idx.iter().map(|&g| g as u64).filter(|&g| !inside(g)).collect();
    ghosts.sort_unstable();
    ghosts.dedup();
    if mine.len() + ghosts.len() > u32::MAX as usize {
        return Err(Error::InvalidArgument("a locale would hold more than u32::MAX entries and ghosts".into()));
    }
    let off = idx
        .iter()
        .map(|&g| {
            let g = g as u64;
            if inside(g) {
                (g as usize - mine.start) as u32
            } else {
                (mine.len() + ghosts.binary_search(&g).unwrap_or(0)) as u32
            }
        })
        .collect();
    Ok((off, ghosts))
}

impl<S: EdgeSource> EdgeListMatrix<S> {
    /// The `nrows x ncols` operator of `source`'s entries. **Collective.**
    ///
    /// # Errors
    /// The same on every locale: [`Error::IndexOutOfBounds`] for an entry outside the shape,
    /// [`Error::ShapeMismatch`] for arrays of different local lengths; communication failures.
    pub fn new(ctx: &Ctx, nrows: usize, ncols: usize, source: S) -> Result<Self> {
        let (r, c) = (source.local_rows(), source.local_cols());
        let mut bad: Option<Error> = None;
        if r.len() != c.len() || source.local_vals().is_some_and(|v| v.len() != r.len()) {
            bad = Some(Error::ShapeMismatch {
                context: "EdgeListMatrix::new".into(),
                left: format!("{} rows here", r.len()),
                right: format!("{} columns / values here", c.len()),
            });
        } else if let Some(k) =
            (0..r.len()).find(|&k| r[k] < 0 || c[k] < 0 || r[k] as u64 >= nrows as u64 || c[k] as u64 >= ncols as u64)
        {
            bad = Some(Error::IndexOutOfBounds {
                index: format!("({}, {})", r[k], c[k]),
                bounds: format!("of a {nrows} x {ncols} matrix"),
            });
        }
        if let Some(e) = ctx.allgather(&bad)?.into_iter().flatten().next() {
            return Err(e);
        }
        let p = ctx.num_locales();
        let me = ctx.id();
        let (rows, cols) = (Partition::new(nrows, p), Partition::new(ncols, p));
        let (xi, cg) = local_numbering(c, cols, me)?;
        let (yi, rg) = local_numbering(r, rows, me)?;
        let col_halo = Halo::new(ctx, cols, cg)?;
        let row_halo = Halo::new(ctx, rows, rg)?;
        Ok(EdgeListMatrix { source, nrows, ncols, rows, cols, me, xi, yi, col_halo, row_halo })
    }

    /// The arrays.
    pub fn source(&self) -> &S {
        &self.source
    }

    /// `acc[to[k]] += f(val_k) * xg[from[k]]`, then the ghosts of `acc` sent to their owners.
    #[allow(clippy::too_many_arguments)]
    fn product(
        &self,
        ctx: &Ctx,
        gather: &Halo,
        scatter: &Halo,
        from: &[u32],
        to: &[u32],
        x: &[f64],
        y: &mut [f64],
        f: impl Fn(f64) -> f64,
    ) -> Result<()> {
        let mut xg = Vec::new();
        gather.gather(ctx, x, &mut xg)?;
        let nl = y.len();
        let mut acc = vec![0.0; nl + scatter.ghosts().len()];
        let vals = self.source.local_vals();
        for k in 0..from.len() {
            acc[to[k] as usize] += f(vals.map_or(1.0, |v| v[k])) * xg[from[k] as usize];
        }
        y.copy_from_slice(&acc[..nl]);
        scatter.scatter_add(ctx, &acc[nl..], y)
    }
}

impl<S: EdgeSource> RowMatrix for EdgeListMatrix<S> {
    fn shape(&self) -> (usize, usize) {
        (self.nrows, self.ncols)
    }
    fn local_rows(&self) -> Range<usize> {
        self.rows.range(self.me)
    }
    fn local_cols(&self) -> Range<usize> {
        self.cols.range(self.me)
    }
    fn spmv(&self, ctx: &Ctx, x: &[f64], y: &mut [f64]) -> Result<()> {
        check_part("EdgeListMatrix::spmv (x)", self.ncols, x.len(), self.ncols, self.local_cols())?;
        check_part("EdgeListMatrix::spmv (y)", self.nrows, y.len(), self.nrows, self.local_rows())?;
        self.product(ctx, &self.col_halo, &self.row_halo, &self.xi, &self.yi, x, y, |a| a)
    }
    fn spmv_transpose(&self, ctx: &Ctx, x: &[f64], y: &mut [f64]) -> Result<()> {
        check_part("EdgeListMatrix::spmv_transpose (x)", self.nrows, x.len(), self.nrows, self.local_rows())?;
        check_part("EdgeListMatrix::spmv_transpose (y)", self.ncols, y.len(), self.ncols, self.local_cols())?;
        self.product(ctx, &self.row_halo, &self.col_halo, &self.yi, &self.xi, x, y, |a| a)
    }
    fn diagonal(&self, ctx: &Ctx) -> Result<Vec<f64>> {
        let (r, c) = (self.source.local_rows(), self.source.local_cols());
        let vals = self.source.local_vals();
        let nl = self.local_rows().len();
        let mut acc = vec![0.0; nl + self.row_halo.ghosts().len()];
        for k in 0..r.len() {
            if r[k] == c[k] {
                acc[self.yi[k] as usize] += vals.map_or(1.0, |v| v[k]);
            }
        }
        let mut y = acc[..nl].to_vec();
        self.row_halo.scatter_add(ctx, &acc[nl..], &mut y)?;
        Ok(y)
    }
    fn abs_row_sums(&self, ctx: &Ctx) -> Result<Vec<f64>> {
        let ones = vec![1.0; self.local_cols().len()];
        let mut y = vec![0.0; self.local_rows().len()];
        self.product(ctx, &self.col_halo, &self.row_halo, &self.xi, &self.yi, &ones, &mut y, f64::abs)?;
        Ok(y)
    }
    fn abs_col_sums(&self, ctx: &Ctx) -> Result<Vec<f64>> {
        let ones = vec![1.0; self.local_rows().len()];
        let mut y = vec![0.0; self.local_cols().len()];
        self.product(ctx, &self.row_halo, &self.col_halo, &self.yi, &self.xi, &ones, &mut y, f64::abs)?;
        Ok(y)
    }
    fn local_sum_squares(&self, _ctx: &Ctx) -> Result<f64> {
        // Duplicates add up before squaring: sum per (row, col) here, then square. Entries of
        // one position on different locales are not combined (documented limitation).
        let (r, c) = (self.source.local_rows(), self.source.local_cols());
        let vals = self.source.local_vals();
        let mut m: std::collections::HashMap<(i64, i64), f64> = std::collections::HashMap::new();
        for k in 0..r.len() {
            *m.entry((r[k], c[k])).or_insert(0.0) += vals.map_or(1.0, |v| v[k]);
        }
        Ok(m.values().map(|v| v * v).sum())
    }
}
