//! The barrier rule of collective loops.
//!
//! A collective operation that reads or writes other locales' memory starts with a barrier
//! (every locale's earlier writes to its own part are done before anyone reads them) and ends
//! with one (nobody writes its part again, locally or remotely, while others still read or
//! write it). An operation whose operands are all aligned with its leader touches only the
//! elements each locale owns, so among collective operations it needs no barrier: any
//! operation before or after it that reaches other locales' memory brings its own.
//!
//! Aligned loops that write still end with a barrier, so that a collective operation's results
//! are visible to every locale when it returns (`a.assign_expr(..)?; a.get(i)` reads the new
//! value on any locale, as the crate's examples do); they skip the leading one. Aligned
//! reductions skip it too and end with their combine, itself a rendezvous. What a skipped
//! leading barrier changes: one-sided accesses (`get`, `set`, `Ctx::put`) of other locales'
//! elements made since the last collective operation are ordered with the next aligned loop
//! only by an explicit `ctx.barrier()` (as MPI RMA epochs are closed), see `storage/mod.rs`.

use atoll_error::Result;
use atoll_runtime::Ctx;

/// Runs `f` between two barriers (an operation that reaches other locales' memory).
/// **Collective.**
pub(crate) fn fenced<R>(ctx: &Ctx, f: impl FnOnce() -> Result<R>) -> Result<R> {
    ctx.barrier()?;
    let r = f();
    ctx.barrier()?;
    r
}

/// Runs `f` followed by a barrier when `local` (every locale decides the same: alignment
/// depends only on distributions and domains), else between two barriers. **Collective.**
pub(crate) fn fenced_unless<R>(ctx: &Ctx, local: bool, f: impl FnOnce() -> Result<R>) -> Result<R> {
    if local {
        let r = f();
        ctx.barrier()?;
        r
    } else {
        fenced(ctx, f)
    }
}
