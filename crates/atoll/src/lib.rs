//! Atoll: global-view distributed computing without hand-written MPI.
//!
//! This facade re-exports the layers of Atoll, bottom to top:
//!
//! | crate | what it owns |
//! |---|---|
//! | [`atoll_error`] | the one [`Error`] type |
//! | [`runtime`] (`atoll-runtime`) | locales and sublocales, task pools, communication backends, active messages, collectives, diagnostics |
//! | [`dist`] (`atoll-dist`) | distributions: Block, Cyclic, BlockCyclic over 1-3 dimensional domains (pure index math) |
//! | [`array`] (`atoll-array`) | distributed arrays, views, zippered forall, bulk assignment, fused expressions, reductions, scans |
//!
//! Most programs need only the prelude:
//!
//! ```
//! use atoll::prelude::*;
//!
//! let sum = run(Config::local(4), |ctx| {
//!     ctx.allreduce(ctx.id() as u64, |a, b| a + b)
//! }).unwrap();
//! assert_eq!(sum, 6);
//! ```

pub use atoll_error::{bail, ensure, invalid_arg, Error, Result};
/// The runtime core (re-exported `atoll-runtime`).
pub use atoll_runtime as runtime;
/// Distributions (re-exported `atoll-dist`).
pub use atoll_dist as dist;
/// Distributed arrays (re-exported `atoll-array`).
pub use atoll_array as array;

/// The names most programs use.
pub mod prelude {
    pub use atoll_error::{bail, ensure, Error, Result};
    pub use atoll_array::{
        Block, BlockCyclic, Cyclic, DistArray, Distribution, Domain, ExprExt, ExprReduce, LocaleGrid, SharedView,
        StridedRange, View, ViewMut,
    };
    pub use atoll_runtime::{
        run, run_driver, BackendKind, CommCounts, Config, Ctx, Driver, GlobalPtr, Handler, Pod, SublocaleMode, Symmetric,
    };
    /// Distribution shorthands over all locales: `dists::block(ctx, [n])`.
    pub use atoll_array::dist as dists;
}
