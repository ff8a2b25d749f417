//! Dynamic aggregation: many small remote writes or reads, buffered per locale and sent as
//! one message per buffer ([`DstAggregator`], [`SrcAggregator`]).
//!
//! Irregular access (`a[idx] = v`, `out = a[idx]` with random `idx`) costs one message per
//! element when done with plain puts and gets: latency-bound, a few hundred thousand elements
//! per second. An aggregator collects the accesses of one task per target locale in a buffer of
//! `ATOLL_AGG_BUFFER` elements (default 8192) and sends a full buffer as one active message
//! carrying `(address, value)` records (puts) or addresses (gets, the reply carries the
//! values); the target checks the addresses against its registered memory and applies them.
//! Arkouda's aggregators took its scatter from 0.5 MB/s to 250 MB/s per node this way.
//!
//! ```
//! use atoll_runtime::{run, Config, DstAggregator, SrcAggregator};
//! run(Config::local(2), |ctx| {
//!     let n = 1000;
//!     let mut a = ctx.alloc_symmetric::<f64>(n)?;
//!     ctx.barrier()?;
//!     let other = 1 - ctx.id();
//!     ctx.reset_comm_diagnostics()?;
//!     ctx.start_comm_diagnostics()?;
//!     let mut put = DstAggregator::with_capacity(ctx, 256)?;
//!     for i in 0..n {
//!         put.put(a.ptr(other).add((i * 7) % n), i as f64)?; // a permutation
//!     }
//!     put.flush()?;
//!     ctx.barrier()?;
//!     let mut back = vec![0.0; n];
//!     let mut get = SrcAggregator::with_capacity(ctx, 256)?;
//!     for (i, slot) in back.iter_mut().enumerate() {
//!         get.get(a.ptr(other).add((i * 7) % n), slot)?;
//!     }
//!     get.finish()?;
//!     ctx.stop_comm_diagnostics()?;
//!     assert!(back.iter().enumerate().all(|(i, &x)| x == i as f64));
//!     assert_eq!(ctx.comm_counts().ams, 2 * 4); // ceil(1000 / 256) messages each way
//!     ctx.barrier()?;
//!     a.free()
//! }).unwrap();
//! ```
//!
//! Design notes: `README.md` beside this file.

mod apply;
mod budget;
mod destination;
mod flight;
mod source;
mod wire;

pub use destination::DstAggregator;
pub use source::SrcAggregator;

/// Registers the aggregation handlers in this process (every locale is built with them).
pub(crate) fn register_handlers() {
    apply::PUT.register();
    apply::GET.register();
}
