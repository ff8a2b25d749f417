//! Atoll's small shared primitives, each written once and used by every crate (the bottom of
//! the crate graph, beside `atoll-error`; no dependencies).
//!
//! | idea | here |
//! |---|---|
//! | a lock that survives a panicking holder | [`sync::lock`] (and [`sync::read`], [`sync::write`], [`sync::wait`], ...) |
//! | tasks of one parallel loop writing disjoint parts of one buffer | [`Disjoint`] (a slice), [`SyncPtr`] (raw memory); the safe loop is `atoll_runtime::Ctx::forall_chunks_mut` |
//! | a counter-based pseudo-random word, the same for an index on every locale | [`mix`] |
//! | the random stream of element `i` of a seeded draw (every seeded generator) | [`Stream`] |
//! | a software prefetch (a hint that never faults) | [`prefetch::read`], [`prefetch::write`] |
//!
//! Streaming (non-temporal) stores live in `atoll_array::stream_store`, the lowest crate that
//! writes large outputs.
//!
//! ```
//! use atoll_util::{mix, sync::lock};
//! use std::sync::Mutex;
//!
//! let m = Mutex::new(Vec::new());
//! lock(&m).push(mix(7));
//! assert_eq!(lock(&m)[0], mix(7));
//! ```

mod disjoint;
mod hash;
pub mod prefetch;
pub mod sync;

pub use disjoint::{Disjoint, SyncPtr};
pub use hash::{mix, Stream, GOLDEN_GAMMA};
