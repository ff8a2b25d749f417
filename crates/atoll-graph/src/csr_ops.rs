//! [`RowMatrix`] for [`CsrMatrix`]: SpMV pulls the ghosts of `x` with the cached plan (one put
//! per remote locale and a barrier), then runs the rows on the locale's task pool; the
//! transpose computes ghost contributions locally and sends them back along the same plan.

use crate::csr::CsrMatrix;
use crate::operator::{check_part, RowMatrix};
use atoll_error::Result;
use atoll_runtime::Ctx;
use std::ops::Range;

impl CsrMatrix {
    /// `y = A x` with `xg` = local x followed by the ghosts (no communication).
    pub fn spmv_gathered(&self, ctx: &Ctx, xg: &[f64], y: &mut [f64]) {
        let (rp, col) = (&self.row_ptr, &self.col);
        match &self.val {
            Some(val) => ctx.forall_chunks_mut(y, |r, ys| {
                for (i, yi) in r.zip(ys) {
                    let mut s = 0.0;
                    for k in rp[i]..rp[i + 1] {
                        s += val[k] * xg[col[k] as usize];
                    }
                    *yi = s;
                }
            }),
            None => ctx.forall_chunks_mut(y, |r, ys| {
                for (i, yi) in r.zip(ys) {
                    let mut s = 0.0;
                    for k in rp[i]..rp[i + 1] {
                        s += xg[col[k] as usize];
                    }
                    *yi = s;
                }
            }),
        }
    }

    fn col_sums_with(&self, ctx: &Ctx, x: Option<&[f64]>, f: impl Fn(f64) -> f64, y: &mut [f64]) -> Result<()> {
        let nl = self.local_cols().len();
        let mut acc = vec![0.0; nl + self.halo.ghosts().len()];
        for i in 0..self.row_ptr.len() - 1 {
            let xi = x.map_or(1.0, |x| x[i]);
            let (cs, vs) = self.row(i);
            for (k, &c) in cs.iter().enumerate() {
                acc[c as usize] += f(vs.map_or(1.0, |v| v[k])) * xi;
            }
        }
        y.copy_from_slice(&acc[..nl]);
        self.halo.scatter_add(ctx, &acc[nl..], y)
    }
}

impl RowMatrix for CsrMatrix {
    fn shape(&self) -> (usize, usize) {
        (self.nrows, self.ncols)
    }
    fn local_rows(&self) -> Range<usize> {
        CsrMatrix::local_rows(self)
    }
    fn local_cols(&self) -> Range<usize> {
        CsrMatrix::local_cols(self)
    }
    fn spmv(&self, ctx: &Ctx, x: &[f64], y: &mut [f64]) -> Result<()> {
        check_part("CsrMatrix::spmv (x)", self.ncols, x.len(), self.ncols, self.local_cols())?;
        check_part("CsrMatrix::spmv (y)", self.nrows, y.len(), self.nrows, self.local_rows())?;
        let mut xg = Vec::new();
        self.halo.gather(ctx, x, &mut xg)?;
        self.spmv_gathered(ctx, &xg, y);
        Ok(())
    }
    fn spmv_transpose(&self, ctx: &Ctx, x: &[f64], y: &mut [f64]) -> Result<()> {
        check_part("CsrMatrix::spmv_transpose (x)", self.nrows, x.len(), self.nrows, self.local_rows())?;
        check_part("CsrMatrix::spmv_transpose (y)", self.ncols, y.len(), self.ncols, self.local_cols())?;
        self.col_sums_with(ctx, Some(x), |a| a, y)
    }
    fn diagonal(&self, _ctx: &Ctx) -> Result<Vec<f64>> {
        let start = self.local_rows().start as u64;
        Ok((0..self.row_ptr.len() - 1)
            .map(|i| {
                let (cs, vs) = self.row(i);
                cs.iter()
                    .enumerate()
                    .filter(|(_, &c)| self.global_col(c) == start + i as u64)
                    .map(|(k, _)| vs.map_or(1.0, |v| v[k]))
                    .sum()
            })
            .collect())
    }
    fn abs_row_sums(&self, _ctx: &Ctx) -> Result<Vec<f64>> {
        Ok((0..self.row_ptr.len() - 1)
            .map(|i| {
                let (cs, vs) = self.row(i);
                vs.map_or(cs.len() as f64, |v| v.iter().map(|a| a.abs()).sum())
            })
            .collect())
    }
    fn abs_col_sums(&self, ctx: &Ctx) -> Result<Vec<f64>> {
        let mut y = vec![0.0; self.local_cols().len()];
        self.col_sums_with(ctx, None, f64::abs, &mut y)?;
        Ok(y)
    }
    fn local_sum_squares(&self, _ctx: &Ctx) -> Result<f64> {
        Ok(self.val.as_ref().map_or(self.col.len() as f64, |v| v.iter().map(|a| a * a).sum()))
    }
}
