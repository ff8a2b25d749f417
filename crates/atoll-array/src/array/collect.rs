//! Collecting a whole array or view on every locale: [`View::to_vec`], [`DistArray::to_vec`].
//!
//! Atoll has three operations that read many elements at once; their names say which:
//!
//! | operation | result | where |
//! |---|---|---|
//! | [`gather(root)`](View::gather) | every element, row-major, as a `Vec` | on locale `root` only (`None` elsewhere), MPI's *gather* |
//! | [`to_vec()`](View::to_vec) | every element, row-major, as a `Vec` | on every locale, MPI's *allgather* |
//! | [`take(&idx)`](DistArray::take) | `a[idx]`: the elements at the indices in `idx` | a new distributed array, distributed like `idx` (NumPy's `take`) |

use crate::array::{DistArray, View};
use crate::elem::Elem;
use atoll_dist::Distribution;
use atoll_error::Result;

impl<T: Elem, const D: usize, M: Distribution<D> + 'static> View<'_, T, D, M> {
    /// Every element of the view, in row-major order, on **every** locale: each locale reads
    /// the view with one strided get per patch that another locale owns. For one locale's copy
    /// use [`gather`](Self::gather); for an indexed read, [`DistArray::take`]. **Collective.**
    ///
    /// ```
    /// use atoll_array::{dist, DistArray};
    /// use atoll_runtime::{run, Config};
    /// run(Config::local(3), |ctx| {
    ///     let a = DistArray::from_fn(ctx, dist::cyclic(ctx, [7])?, |[i]| i * 10)?;
    ///     assert_eq!(a.to_vec()?, vec![0, 10, 20, 30, 40, 50, 60]); // on every locale
    ///     assert_eq!(a.slice(atoll_array::StridedRange::with_stride(1, 7, 3)?)?.to_vec()?, vec![10, 40]);
    ///     Ok(())
    /// }).unwrap();
    /// ```
    ///
    /// # Errors
    /// A communication error.
    pub fn to_vec(&self) -> Result<Vec<T>> {
        let ctx = self.ctx();
        ctx.barrier()?;
        let r = self.gather_here();
        ctx.barrier()?;
        r
    }
}

impl<T: Elem, const D: usize, M: Distribution<D> + 'static> DistArray<T, D, M> {
    /// Every element, in row-major order, on every locale (see [`View::to_vec`]).
    /// **Collective.**
    ///
    /// # Errors
    /// A communication error.
    pub fn to_vec(&self) -> Result<Vec<T>> {
        self.view().to_vec()
    }
}
