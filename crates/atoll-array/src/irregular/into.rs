//! Gather into a preallocated output: [`DistArray::take_into`], the non-allocating form of
//! [`DistArray::take`] (the same aggregated reads, the output given).

use super::{check_indices, resolve, IndexElem, IrregularOptions};
use crate::array::DistArray;
use crate::elem::Elem;
use atoll_dist::Distribution;
use atoll_error::{Error, Result};

impl<T: Elem, M: Distribution<1> + 'static> DistArray<T, 1, M> {
    /// [`take`](Self::take) into `out`, an array distributed like `idx` (same
    /// distribution and domain): `out[j] = self[idx[j]]`, aggregated. **Collective.**
    ///
    /// ```
    /// use atoll_array::{dist, DistArray};
    /// use atoll_runtime::{run, Config};
    /// run(Config::local(2), |ctx| {
    ///     let a = DistArray::from_fn(ctx, dist::block(ctx, [100])?, |[i]| i as u64 * 2)?;
    ///     let idx = DistArray::from_fn(ctx, dist::block(ctx, [100])?, |[j]| 99 - j)?;
    ///     let mut out = DistArray::<u64, 1>::zeros(ctx, dist::block(ctx, [100])?)?;
    ///     a.take_into(&idx, &mut out)?;
    ///     assert_eq!(out.get([0])?, 198);
    ///     Ok(())
    /// }).unwrap();
    /// ```
    ///
    /// # Errors
    /// [`Error::ShapeMismatch`] when `out` is not distributed like `idx`; otherwise as
    /// [`take_with`](Self::take_with).
    pub fn take_into<I: IndexElem, MI: Distribution<1> + 'static>(
        &self,
        idx: &DistArray<I, 1, MI>,
        out: &mut DistArray<T, 1, MI>,
    ) -> Result<()> {
        let ctx = self.ctx();
        if out.dist() != idx.dist() || out.domain() != idx.domain() {
            return Err(Error::ShapeMismatch {
                context: "DistArray::take_into (output and indices)".into(),
                left: format!("an output over {}", out.domain()),
                right: format!("indices over {}", idx.domain()),
            });
        }
        let opts = IrregularOptions::default();
        let resolved = resolve(ctx, &opts)?;
        check_indices(ctx, idx, self.domain(), "a gather")?;
        self.take_checked(idx, out, &opts, resolved, "DistArray::take_into (exchange or aggregation buffers)")
    }
}
