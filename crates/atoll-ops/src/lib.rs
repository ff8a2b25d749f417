//! Atoll's distributed algorithms over arrays (layered above `atoll-array`): distributed,
//! stable LSD radix [`argsort`], [`sort`] and multi-key [`coargsort`] of `i64`, `u64` and `f64`
//! keys held in 1-D arrays or views of any distribution (Block, Cyclic, BlockCyclic).
//!
//! Results are Block-distributed over all locales, over ranks `0..len`. Permutations hold
//! **indices** of the input's index space ([`argsort`], [`coargsort`]: `a.take(&perm)` reads
//! the sorted elements whatever `a`'s domain), or **positions** `0..len` in the input view
//! ([`argsort_positions`], [`coargsort_positions`]); see `indices.rs`. Every function is **collective**: each
//! locale calls it with its own handle of the same arrays. See `README.md` in this crate for
//! the algorithm and its costs. [`gemm`] holds the local matrix products under the N-d
//! `matmul`.
//!
//! ```
//! use atoll_array::{dist, DistArray};
//! use atoll_runtime::{run, Config};
//! run(Config::local(4), |ctx| {
//!     let n = 10_000;
//!     // Pseudo-random keys on a Cyclic array.
//!     let keys = DistArray::from_fn(ctx, dist::cyclic(ctx, [n])?, |[i]| {
//!         ((i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 20) as i64 - (1 << 42)
//!     })?;
//!     let perm = atoll_ops::argsort(&keys.view())?;            // Block, indices of keys
//!     let sorted = atoll_ops::sort(&keys.view())?;
//!     if let (Some(p), Some(s), Some(k)) = (perm.gather(0)?, sorted.gather(0)?, keys.gather(0)?) {
//!         assert!(s.windows(2).all(|w| w[0] <= w[1]));
//!         assert!(p.iter().zip(&s).all(|(&i, &x)| k[i as usize] == x));
//!     }
//!     Ok(())
//! }).unwrap();
//! ```

mod aggregate;
mod argsort;
mod coargsort;
mod column;
mod dense;
mod dense_agg;
mod dense_fold;
pub mod gemm;
mod groupby;
mod indices;
mod key;
mod layout;
// The per-phase timings of the sorts (a runtime diagnostic, `Config::sort_profile`).
use atoll_runtime::phase_profile as profile;
mod radix;
mod raw;
mod runs;
mod segments;
mod segreduce;

pub use aggregate::{aggregate, Agg, AggResult, AggValue};
pub use argsort::{argsort, argsort_positions, sort};
pub use coargsort::{coargsort, coargsort_positions, MAX_COARGSORT_KEYS};
pub use column::SortColumn;
pub use dense::{dense_groups, dense_in1d, DENSE_MAX_RANGE};
pub use dense_agg::{dense_aggregate, dense_aggregate_values, dense_unique, DenseGroups};
pub use groupby::GroupBy;
pub use key::SortKey;
pub use segments::{group_flags, segment_starts};
pub use segreduce::{segmented_fold, SegFold};
