//! Arrays whose local parts live in memory that something else owns: the hook through which
//! `atoll-share` places each locale's block of an array in a memory-mapped file. Everything
//! else about such an array (views, zips, expressions, sorts) is the ordinary code path.

use crate::array::DistArray;
use crate::elem::Elem;
use crate::storage::Storage;
use atoll_dist::Distribution;
use atoll_error::Result;
use atoll_runtime::{Ctx, ExternalBlock};

impl<T: Elem, const D: usize, M: Distribution<D> + 'static> DistArray<T, D, M> {
    /// An array over `dist` whose local part is the memory of the block that `block` makes
    /// from this locale's length in elements (`Err` on a locale that could not make it).
    /// The block's bytes are counted in the locale's memory budget as an allocation would be,
    /// and it is dropped (unmapped) when the array is freed. The block's current contents
    /// are the array's values. **Collective.**
    ///
    /// ```
    /// use atoll_array::{dist, DistArray, ExprReduce};
    /// use atoll_runtime::{run, Config, ExternalBlock};
    /// run(Config::local(2), |ctx| {
    ///     let a = DistArray::<u32, 1>::from_external(ctx, dist::block(ctx, [6])?, "demo", |len| {
    ///         let v: &'static mut [u32] = Box::leak(vec![7u32; len].into_boxed_slice());
    ///         // SAFETY: a leaked (never freed) vector, used only through this block.
    ///         Ok(unsafe { ExternalBlock::new(v.as_mut_ptr().cast(), len * 4, Box::new(())) })
    ///     })?;
    ///     assert_eq!(a.view().sum()?, 42);
    ///     Ok(())
    /// }).unwrap();
    /// ```
    ///
    /// # Errors
    /// On every locale, the lowest failing locale's error: the one `block` returned, an
    /// [`atoll_error::Error::InvalidArgument`] for a block whose size is not the local length
    /// or whose address is misaligned, or an out-of-memory refusal of the budget.
    pub fn from_external(
        ctx: &Ctx,
        dist: M,
        operation: &str,
        block: impl FnOnce(usize) -> Result<ExternalBlock>,
    ) -> Result<Self> {
        Self::create_from(ctx, dist, |len| Storage::external(ctx, operation, len, block(len)))
    }
}
