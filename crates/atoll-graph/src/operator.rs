//! The `RowMatrix` operator trait (the Chapel-Grafiki talk's abstraction): a distributed linear operator whose
//! rows and columns are Block-partitioned over the locales. Vectors are a locale's local part
//! (the local part of a Block `DistArray<f64, 1>` of the same length).

use atoll_array::{Block, DistArray};
use atoll_error::{Error, Result};
use atoll_runtime::Ctx;
use std::ops::Range;

/// A distributed sparse operator. Implemented by [`CsrMatrix`](crate::CsrMatrix), by
/// [`EdgeListMatrix`](crate::EdgeListMatrix) and by user types.
pub trait RowMatrix {
    /// (rows, columns).
    fn shape(&self) -> (usize, usize);
    /// This locale's rows (its part of `y = A x`).
    fn local_rows(&self) -> Range<usize>;
    /// This locale's columns (its part of `x`).
    fn local_cols(&self) -> Range<usize>;
    /// `y = A x` on local parts. **Collective.**
    ///
    /// # Errors
    /// Lengths other than this locale's columns / rows; communication failures.
    fn spmv(&self, ctx: &Ctx, x: &[f64], y: &mut [f64]) -> Result<()>;
    /// `y = A^T x` (`x` over rows, `y` over columns). **Collective.**
    ///
    /// # Errors
    /// As [`spmv`](Self::spmv).
    fn spmv_transpose(&self, ctx: &Ctx, x: &[f64], y: &mut [f64]) -> Result<()>;
    /// The diagonal entries of this locale's rows (summed; 0 where absent). **Collective.**
    ///
    /// # Errors
    /// Communication failures.
    fn diagonal(&self, ctx: &Ctx) -> Result<Vec<f64>>;
    /// `sum |a_ij|` of each local row. **Collective.**
    ///
    /// # Errors
    /// Communication failures.
    fn abs_row_sums(&self, ctx: &Ctx) -> Result<Vec<f64>>;
    /// `sum |a_ij|` of each local column. **Collective.**
    ///
    /// # Errors
    /// Communication failures.
    fn abs_col_sums(&self, ctx: &Ctx) -> Result<Vec<f64>>;
    /// `sum a_ij^2` of what this locale stores. **Collective.**
    ///
    /// # Errors
    /// Communication failures.
    fn local_sum_squares(&self, ctx: &Ctx) -> Result<f64>;

    /// The Frobenius norm. **Collective.**
    ///
    /// # Errors
    /// Communication failures.
    fn norm_frobenius(&self, ctx: &Ctx) -> Result<f64> {
        let s = self.local_sum_squares(ctx)?;
        Ok(ctx.allreduce(s, |a, b| a + b)?.sqrt())
    }

    /// The infinity norm (largest absolute row sum). **Collective.**
    ///
    /// # Errors
    /// Communication failures.
    fn norm_inf(&self, ctx: &Ctx) -> Result<f64> {
        let m = self.abs_row_sums(ctx)?.into_iter().fold(0.0, f64::max);
        ctx.allreduce(m, f64::max)
    }

    /// The 1-norm (largest absolute column sum). **Collective.**
    ///
    /// # Errors
    /// Communication failures.
    fn norm_1(&self, ctx: &Ctx) -> Result<f64> {
        let m = self.abs_col_sums(ctx)?.into_iter().fold(0.0, f64::max);
        ctx.allreduce(m, f64::max)
    }

    /// `y = A x` on Block-distributed arrays (`x` of the column count, `y` of the row count).
    /// **Collective.**
    ///
    /// # Errors
    /// [`Error::ShapeMismatch`] when an array's local part is not this locale's range.
    fn spmv_arrays(
        &self,
        ctx: &Ctx,
        x: &DistArray<f64, 1, Block<1>>,
        y: &mut DistArray<f64, 1, Block<1>>,
    ) -> Result<()> {
        check_part("RowMatrix::spmv_arrays (x)", x.len(), x.local().len(), self.shape().1, self.local_cols())?;
        check_part("RowMatrix::spmv_arrays (y)", y.len(), y.local().len(), self.shape().0, self.local_rows())?;
        self.spmv(ctx, x.local(), y.local_mut())
    }
}

/// Checks that a vector's local part is `want` of a length-`n` Block partition.
pub(crate) fn check_part(what: &str, len: usize, local: usize, n: usize, want: Range<usize>) -> Result<()> {
    if len != n || local != want.len() {
        return Err(Error::ShapeMismatch {
            context: what.into(),
            left: format!("a vector of {len} entries with {local} here"),
            right: format!("{n} entries with {} here (Block)", want.len()),
        });
    }
    Ok(())
}
