//! Atoll's distributions: pure index math, no communication.
//!
//! A distributed array stores, on each target (a locale, a sublocale, or any other id), the
//! elements it owns densely in a local buffer. This crate maps global indices to
//! (owner, local offset) and back, and enumerates what each target owns of any strided
//! sub-domain, as a few strided pieces, for owner-computes loops and aggregated transfers.
//!
//! - [`StridedRange`]: Chapel's `lo..hi by stride` with an exclusive `hi`; intersection
//!   (CRT), sub-ranges by positions (views of views).
//! - [`Domain`]: the product of `D` ranges (rank 1 to 3), row-major.
//! - [`LocaleGrid`]: the targets arranged in a `D`-dimensional grid, given or as square as
//!   possible.
//! - [`Distribution`]: the trait, with [`Block`], [`Cyclic`] and [`BlockCyclic`], each a
//!   product of per-dimension maps ([`DimMap`]: [`BlockDim`], [`CyclicDim`],
//!   [`BlockCyclicDim`]) over the grid.
//! - [`Runs`], [`Piece`], [`Patch`]: what a target owns of a sub-domain.
//!
//! All value types are `Clone + Debug + PartialEq + Send + Sync` and serde-serializable
//! (deserializing validates, like the constructors). Bad input is an [`Error`], never a
//! panic. Design notes: the crate's `README.md`.
//!
//! ```
//! use atoll_dist::{BlockCyclic, Distribution, Domain, LocaleGrid, StridedRange};
//!
//! let dist = BlockCyclic::new(Domain::from_shape([1000])?, LocaleGrid::auto(0..4)?, [8])?;
//! assert_eq!(dist.owner([17]), 2); // block 2 of 8 positions
//! let (target, local) = dist.locate([17]);
//! assert_eq!(dist.global_index(target, local)?, [17]);
//!
//! // What target 1 owns of 3..1000 by 5: a few strided pieces, not 200 elements.
//! let sub = Domain::new([StridedRange::with_stride(3, 1000, 5)?])?;
//! let runs = dist.runs(1, &sub)?;
//! assert_eq!(runs.count(), 50);
//! assert!(runs.pieces()[0].len() <= 8);
//! for (idx, local, pos) in runs.elements() {
//!     assert_eq!(dist.locate(idx), (1, local));
//!     assert_eq!(sub.index(pos)?, idx);
//! }
//! # Ok::<(), atoll_dist::Error>(())
//! ```

#![forbid(unsafe_code)]

#[cfg(not(target_pointer_width = "64"))]
compile_error!("atoll-dist requires a 64-bit target (positions and lengths are 64-bit)");

mod block;
mod block_cyclic;
mod cyclic;
mod dim_map;
mod dist;
mod domain;
mod grid;
mod math;
mod piece;
mod range;
mod serde_array;
mod shift;
mod sublocale_block;

pub use atoll_error::{Error, Result};
pub use block::{Block, BlockDim};
pub use block_cyclic::{BlockCyclic, BlockCyclicDim};
pub use cyclic::{Cyclic, CyclicDim};
pub use dim_map::DimMap;
pub use dist::{DistKind, Distribution};
pub use domain::{Domain, DomainIter, MAX_RANK, MIN_RANK};
pub use grid::LocaleGrid;
pub use piece::{Patch, PatchIter, Patches, Piece, Runs};
pub use range::{RangeIter, StridedRange};
pub use shift::ShiftMove;
pub use sublocale_block::SublocaleBlock;
