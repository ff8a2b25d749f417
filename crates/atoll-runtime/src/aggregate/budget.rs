//! Charging aggregation buffers to the locale's memory budget.
//!
//! Aggregators are per task and not collective, so a buffer is charged with a one-sided
//! [`Budget::try_reserve`](atoll_mem::Budget::try_reserve) (no exchange between locales) when
//! it is allocated, and the commitment lives as long as the buffer (or the message it became,
//! while in flight). A refusal is this locale's [`Error::OutOfMemory`]; collective operations
//! built on aggregators (gather and scatter of `atoll-array`) reserve collectively first, so
//! that every locale refuses alike before anything is written.

use crate::ctx::Ctx;
use atoll_error::{Error, Result};
use atoll_mem::Commitment;

/// Reserves and commits `bytes` for `operation` in `ctx`'s budget, for memory about to be
/// allocated (a buffer that is allocated right after the call).
pub(crate) fn charge(ctx: &Ctx, bytes: u64, operation: &str) -> Result<Commitment> {
    let r = ctx.budget().try_reserve(bytes, operation).map_err(|e| match e {
        // The budget names its atoll-mem index (0 for every MPI rank); report the locale.
        Error::OutOfMemory { operation, requested, in_use, limit, .. } => {
            Error::OutOfMemory { operation, locale: ctx.id(), requested, in_use, limit }
        }
        other => other,
    })?;
    Ok(r.commit())
}
