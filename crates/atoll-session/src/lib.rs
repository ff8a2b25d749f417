//! The array session behind Atoll's Python package (`import atoll`): distributed 1-D arrays
//! and strings kept on every locale between commands, and the typed collective commands that
//! make, combine and read them, with NumPy's semantics. The Python extension
//! (`atoll-python`) is a thin binding over this crate; this crate has no Python in it, so its
//! semantics are tested with `cargo test`.
//!
//! - [`session`]: one job per process, started lazily; [`Array`] and [`strings::Strs`] are the
//!   driver's handles of registered data.
//! - [`types`], [`eval`], [`kernels`], [`fused`]: elementwise work is an expression tree
//!   ([`types::Node`]) checked at once ([`types::Node::validate`]) and evaluated chunk by chunk
//!   over each locale's part of the output, in one owner-computes pass. `atoll-array` has its
//!   own expression templates (`a.assign_expr(&b + 3.0 * &c)`), typed at compile time for Rust
//!   programs; trees here are built at run time from Python values, hence a second evaluator.
//! - [`commands`]: creation, transfers to and from the driver's buffers, evaluation and
//!   assignment, reductions and scans, indexing, sorting, memory.
//! - [`analytics`], [`dense_agg`]: sorting by several keys, GroupBy and its aggregations.
//! - [`strings`], [`str_groupby`], [`io`], [`graph`], [`graph_share`], [`share`]: the other
//!   kinds of data and their operations.
//! - [`handoff`]: driver memory a command reads or writes in place (each command carries its
//!   own reference: concurrent callers never share a buffer).

// A command's handler takes its arguments as one tuple (what the driver serializes), so
// handler types are long tuples by design.
#![allow(clippy::type_complexity)]

pub mod analytics;
pub mod commands;
pub mod dense_agg;
pub mod eval;
pub mod fused;
pub mod graph;
pub mod graph_share;
pub mod handles;
pub mod handoff;
pub mod hdf5_io;
pub mod io;
pub mod kernels;
pub mod pandas_ops;
pub mod registry;
pub mod scalar;
pub mod session;
pub mod share;
pub mod str_extra;
pub mod str_groupby;
pub mod streaming;
pub mod strings;
mod sum_lockstep;
pub mod types;
pub mod ufuncs;
pub mod values;

pub use session::{Array, Session};
pub use types::{ArrRef, BinOp, DType, Node, Scal, UnOp};
