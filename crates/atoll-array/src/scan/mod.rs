//! Scans (prefix combinations) of 1-D views: [`View::scan`] and [`View::cumsum`] make a new
//! Block array over the view's indices, [`View::scan_into`] and [`View::cumsum_into`] write a
//! given one.
//!
//! Every scan ends in [`View::scan_into`] (`into.rs`), which picks one of three paths:
//!
//! - `wavefront.rs`: a view of a large Block array scanned into a Block array over the same
//!   indices, where every locale's parts are directly addressable: one pass over memory across
//!   locales (cache-sized chunks in global order, each waiting for its predecessor's prefix);
//! - `one_pass.rs`: the same aligned case otherwise: each locale's base first (the totals of
//!   the parts before it), then one pass over its part with a chained look-back between tasks;
//! - any other view: an assignment into the output's Block layout, then two passes (chunk
//!   totals, one exclusive scan of the locales' totals, the rescan).
//!
//! The combination order depends on the part boundaries only, never on the schedule, so
//! floating-point results are the same from run to run.

mod into;
pub(crate) mod one_pass;
pub(crate) mod wavefront;

use crate::array::{DistArray, View};
use crate::elem::Elem;
use atoll_dist::{Block, Distribution};
use atoll_error::Result;

impl<'v, T: Elem, M: Distribution<1> + 'static> View<'v, T, 1, M> {
    /// The inclusive (`inclusive = true`) or exclusive scan of the view with `op` (associative,
    /// `identity` its identity), as a new Block array over **the view's indices** (its
    /// domain, offset or strided as it is): the element at index `i` combines the view's
    /// elements up to and including index `i` (inclusive) or before it (exclusive), so
    /// `s.get([i])` and `s.slice(..)` use the same indices as the view. **Collective.**
    ///
    /// Each locale scans its block with its task pool (two passes), and the locales' totals are
    /// combined with an exclusive scan in locale order.
    ///
    /// ```
    /// use atoll_array::{dist, DistArray};
    /// use atoll_runtime::{run, Config};
    /// run(Config::local(3), |ctx| {
    ///     let a = DistArray::from_fn(ctx, dist::cyclic(ctx, [10])?, |[i]| i as u64)?;
    ///     let s = a.view().scan(|x, y| x + y, 0, true)?;
    ///     assert_eq!(s.gather(0)?.map(|v| v[9]), (ctx.id() == 0).then_some(45));
    ///     let e = a.view().scan(|x, y| x + y, 0, false)?;
    ///     assert_eq!(e.get([9])?, 36);
    ///     // A view over 4..10: the scan keeps its indices.
    ///     let c = a.slice(4..10)?.cumsum()?;
    ///     assert_eq!((c.domain(), c.get([4])?, c.get([9])?), (a.slice(4..10)?.domain(), 4, 39));
    ///     Ok(())
    /// }).unwrap();
    /// ```
    ///
    /// # Errors
    /// As array creation and assignment.
    pub fn scan(
        &self,
        op: impl Fn(T, T) -> T + Sync + Copy,
        identity: T,
        inclusive: bool,
    ) -> Result<DistArray<T, 1, Block<1>>> {
        let ctx = self.ctx();
        // The view's own indices, Block-distributed over all locales in locale order.
        let dist = Block::new(*self.domain(), atoll_dist::LocaleGrid::auto(0..ctx.num_locales())?);
        // Untouched (or reused, unzeroed) pages: the scan below writes every element.
        let mut out = DistArray::<T, 1, Block<1>>::for_overwrite(ctx, dist)?;
        self.scan_into(&mut out, op, identity, inclusive)?;
        Ok(out)
    }

    /// The inclusive prefix sums (NumPy's `cumsum`), over the view's indices (see
    /// [`scan`](Self::scan)). **Collective.**
    ///
    /// # Errors
    /// As [`scan`](Self::scan).
    pub fn cumsum(&self) -> Result<DistArray<T, 1, Block<1>>>
    where
        T: std::ops::Add<Output = T>,
    {
        self.scan(|a, b| a + b, T::default(), true)
    }
}
