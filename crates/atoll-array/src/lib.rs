//! Atoll's distributed arrays: [`DistArray`] over a Block, Cyclic or BlockCyclic
//! [`Distribution`] of 1 to 3 dimensions, [`View`]s (slices) that cost nothing, zippered
//! owner-computes loops, bulk assignment, fused promoted expressions, reductions and scans.
//!
//! See `README.md` in this crate for the design (the zip engine, leaders and followers, the
//! aliasing contract).
//!
//! ```
//! use atoll_array::{dist, DistArray, ExprReduce};
//! use atoll_runtime::{run, Config};
//! run(Config::local(4), |ctx| {
//!     let n = 1 << 12;
//!     let b = DistArray::<f64, 1>::filled(ctx, dist::block(ctx, [n])?, 1.0)?;
//!     let c = DistArray::<f64, 1>::filled(ctx, dist::block(ctx, [n])?, 2.0)?;
//!     let mut a = DistArray::<f64, 1>::zeros(ctx, dist::block(ctx, [n])?)?;
//!     ctx.reset_comm_diagnostics()?;
//!     ctx.start_comm_diagnostics()?;
//!     a.assign_expr(&b + 3.0 * &c)?;            // STREAM triad, fused, owner computes
//!     ctx.stop_comm_diagnostics()?;
//!     assert_eq!(ctx.comm_counts().total_ops(), 0); // aligned operands: no message
//!     assert_eq!(a.view().sum()?, 7.0 * n as f64);
//!     Ok(())
//! }).unwrap();
//! ```

mod array;
pub mod dist;
pub mod dtype;
mod elem;
pub mod expr;
mod follow;
pub mod irregular;
mod reduce;
mod scan;
mod storage;
mod util;
mod zip;

pub use follow::aggregation;
pub use storage::stream_store;

pub use aggregation::{
    aggregation, comm_model, follower_stats, reset_follower_stats, set_aggregation, Aggregation, CommModel,
    FollowerStats,
};
pub use array::sublocales::Targets;
pub use array::{DistArray, IntoDomain, PinnedView, SharedView, View, ViewBound, ViewMut};
pub use atoll_dist::SublocaleBlock;
pub use atoll_dist::{Block, BlockCyclic, Cyclic, DistKind, Distribution, Domain, LocaleGrid, StridedRange};
pub use dtype::{CType, Col, DType, Stored};
pub use elem::Elem;
pub use expr::{Bound, Expr, ExprExt, IntoExpr, Operand, Scalar};
pub use follow::FollowBuf;
pub use irregular::{IndexElem, IrregularOptions, Transfer};
pub use reduce::{num_one::One, ExprReduce};
pub use zip::strided_row::StridedRow;
pub use zip::{Plan, Row, Seg, GROUP, SEG};

impl<T: Elem, const D: usize, M: Distribution<D> + 'static> DistArray<T, D, M> {
    /// The global address of `locale`'s part of the array (its element at local offset 0;
    /// offset `k` is `.add(k)`), for one-sided puts and gets of whole runs straight into the
    /// array's registered storage (how `atoll-ops` lands a sort's last pass in its result).
    /// Writing elements that another locale reads or writes without a collective in between
    /// breaks the PGAS contract (see the crate README). **One-sided**, no message.
    ///
    /// # Errors
    /// [`atoll_error::Error::InvalidLocale`] when `locale` is not a locale of the job.
    pub fn part_ptr(&self, locale: usize) -> atoll_error::Result<atoll_runtime::GlobalPtr<T>> {
        let inner = self.view().inner();
        inner.ctx.check_locale(locale)?;
        Ok(atoll_runtime::GlobalPtr::new(locale, inner.store.base_addr(locale)))
    }
}

impl<'a, T: Elem, const D: usize, M: Distribution<D> + 'static> View<'a, T, D, M> {
    /// This locale's part of the viewed **array** (every element this locale owns, not only
    /// those of the view), in the distribution's local order: with
    /// [`Distribution::runs`]`(here, view.domain())` it gives the view's local elements without
    /// a copy (how `atoll-ops` reads sort keys in place). **One-sided**, no message.
    pub fn array_local(&self) -> &'a [T] {
        self.inner().store.local()
    }
}

/// `(a, b, ...)`: zips operands (a tuple of expressions is an expression of tuples).
pub fn zip<const D: usize, E: Expr<D>>(operands: E) -> E {
    operands
}
