//! Atoll: global-view distributed computing without hand-written MPI.
//!
//! This facade re-exports the layers of Atoll, bottom to top:
//!
//! | crate | what it owns |
//! |---|---|
//! | [`atoll_error`] | the one [`Error`] type |
//! | [`mem`] (`atoll-mem`) | the tracking global allocator (`atoll::mem::track_memory!()`), memory figures and leak reports, per-locale budgets |
//! | [`runtime`] (`atoll-runtime`) | locales and sublocales, task pools, communication backends, active messages, collectives, diagnostics |
//! | [`dist`] (`atoll-dist`) | distributions: Block, Cyclic, BlockCyclic over 1-3 dimensional domains (pure index math) |
//! | [`array`](mod@array) (`atoll-array`) | distributed arrays, views, zippered forall, bulk assignment, fused expressions, reductions, scans |
//! | [`ops`] (`atoll-ops`) | distributed algorithms: radix argsort, sort, coargsort |
//! | [`util`] (`atoll-util`) | the small shared primitives: the poison-tolerant lock, disjoint writes by parallel tasks, the splitmix64 mix, software prefetch |
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
//!
//! Distributed arrays, views and zippered loops:
//!
//! ```
//! use atoll::prelude::*;
//!
//! run(Config::local(4), |ctx| {
//!     let n = 1 << 16;
//!     let b = DistArray::from_fn(ctx, dists::block(ctx, [n])?, |[i]| i as f64)?;
//!     let c = DistArray::from_fn(ctx, dists::cyclic(ctx, [n])?, |[i]| 2.0 * i as f64)?;
//!     let mut a = DistArray::<f64, 1>::zeros(ctx, dists::block(ctx, [n])?)?;
//!     a.zip_apply((b.view(), c.view()), |x, (y, z)| *x = y + z)?; // Block leader, Cyclic follower
//!     assert_eq!(a.view().sum()?, 3.0 * (n * (n - 1) / 2) as f64);
//!     let inner = a.slice([1..n as i64 - 1])?; // a view: O(1), no message
//!     assert_eq!(inner.min()?, 3.0);
//!     Ok(())
//! }).unwrap();
//! ```

/// Distributed arrays (re-exported `atoll-array`).
pub use atoll_array as array;
/// Distributions (re-exported `atoll-dist`).
pub use atoll_dist as dist;
pub use atoll_error::{bail, ensure, invalid_arg, Error, Result};
/// The memory layer (re-exported `atoll-mem`).
pub use atoll_mem as mem;
/// Distributed algorithms: sorts (re-exported `atoll-ops`).
pub use atoll_ops as ops;
/// The runtime core (re-exported `atoll-runtime`).
pub use atoll_runtime as runtime;
pub use atoll_strings as strings;
/// Small shared primitives: the poison-tolerant lock, disjoint writes by parallel tasks, the
/// splitmix64 mix, software prefetch (re-exported `atoll-util`).
pub use atoll_util as util;

/// The README's and the user guide's Rust examples (`docs/guide/`), run as doctests.
#[cfg(doctest)]
pub mod guide {
    #[doc = include_str!("../../../README.md")]
    pub mod readme {}
    #[doc = include_str!("../../../docs/guide/rust.md")]
    pub mod rust {}
    #[doc = include_str!("../../../docs/guide/configuration.md")]
    pub mod configuration {}
    #[doc = include_str!("../../../docs/guide/sharing.md")]
    pub mod sharing {}
}

/// The names most programs use.
pub mod prelude {
    /// Distribution shorthands over all locales: `dists::block(ctx, [n])`.
    pub use atoll_array::dist as dists;
    pub use atoll_array::{
        Block, BlockCyclic, Cyclic, DistArray, Distribution, Domain, ExprExt, ExprReduce, LocaleGrid, SharedView,
        StridedRange, View, ViewMut,
    };
    pub use atoll_error::{bail, ensure, Error, Result};
    pub use atoll_runtime::{
        run, run_driver, BackendKind, CommCounts, Config, Ctx, Driver, GlobalPtr, Handler, Pod, SublocaleMode,
        Symmetric,
    };
}
