//! The array session behind Atoll's Python package (`import atoll`): distributed 1-D arrays
//! and strings kept on every locale between commands, and the typed collective commands that
//! make, combine and read them, with NumPy's semantics. The Python extension
//! (`atoll-python`) is a thin binding over this crate; this crate has no Python in it, so its
//! semantics are tested with `cargo test`.
//!
//! - [`session`], [`handles`], [`registry`], [`handoff`]: one job per process, started lazily;
//!   [`Array`] and [`strings::Strs`] are the driver's handles of registered data, kept in each
//!   locale's registry; driver memory a command reads or writes in place (each command carries
//!   its own reference: concurrent callers never share a buffer).
//! - [`types`], [`scalar`], [`values`], [`eval`]: elementwise work is an expression tree
//!   ([`types::Node`]) checked at once ([`types::Node::validate`]) and evaluated chunk by chunk
//!   over each locale's part of the output, in one owner-computes pass (`eval/`: the
//!   evaluator, NumPy's semantics per dtype, the ufuncs, the fused float64 kernels).
//!   `atoll-array` has its own expression templates (`a.assign_expr(&b + 3.0 * &c)`), typed at
//!   compile time for Rust programs; trees here are built at run time from Python values, hence
//!   a second evaluator.
//! - [`commands`]: the collective commands, in folders by area (`arrays`, `strings`,
//!   `groupby`, `frames`, `io`, `graph`).

pub mod commands;
pub mod eval;
pub mod handles;
pub mod handoff;
pub mod registry;
pub mod scalar;
pub mod session;
pub mod types;
pub mod values;

// The paths of the modules before they moved into `commands/` and `eval/` (the Python
// binding names them).
pub use commands::arrays::share;
pub use commands::arrays::tuning as streaming;
pub use commands::frames as pandas_ops;
pub use commands::graph;
pub use commands::graph::share as graph_share;
pub use commands::groupby as analytics;
pub use commands::groupby::dense as dense_agg;
pub use commands::io;
pub use commands::io::hdf5 as hdf5_io;
pub use commands::strings;
pub use commands::strings::categorical as str_groupby;
pub use commands::strings::extra as str_extra;
pub use eval::{kernels, ufuncs};
/// The fused kernels' setting (its command is in [`commands::arrays::tuning`]).
pub mod fused {
    pub use crate::commands::arrays::tuning::set_fused_kernels;
}

pub use session::{Array, Session};
pub use types::{ArrRef, BinOp, DType, Node, Scal, UnOp};
