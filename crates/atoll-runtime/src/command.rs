//! How a driver command ends on each locale, failed or not.
//!
//! A command's handler runs on every locale (locale 0 inside [`crate::Driver::exec`], the
//! others in their command loop); its panics are caught as [`Error::HandlerPanicked`]. Then
//! every locale sends its result to locale 0 in one gather.
//!
//! That gather is only safe when every locale made the same collectives in the command. When a
//! locale's part fails (a panic or an error) where the others wait for it in a collective, it
//! would otherwise meet their collective with its gather and desynchronize the job. So with
//! the local backend, a failing locale does not join the gather: it *abandons the command*
//! (`comm::local_fence`), which makes every collective of the command return
//! [`Error::CommandFailed`] on every locale, meets the others at the command boundary, and
//! resets the collective sequence numbers there. Locale 0 then reports the failure of the
//! lowest locale that failed (not the `CommandFailed` of those that only waited), and the next
//! command runs normally.
//!
//! With MPI the protocol is the same, carried by messages (`comm/mpi/abandon.rs`): a failing
//! rank tells every other rank, whose collectives of the command give up with
//! [`Error::CommandFailed`]; every rank then meets at the boundary, which moves the
//! collectives to a fresh communicator (the abandoned requests stay pending on the old one)
//! and gathers each rank's error on locale 0.

use crate::comm::local::LocalComm;
use crate::ctx::Ctx;
use crate::sync::Ordering;
use atoll_error::{Error, Result};

/// This locale's end of the in-process backend, if that is the backend.
fn local_comm(ctx: &Ctx) -> Option<&LocalComm> {
    ctx.st.backend.as_any().downcast_ref::<LocalComm>()
}

/// The collective count at the start of a command, to restore if the command is abandoned.
pub(crate) fn command_start(ctx: &Ctx) -> u64 {
    #[cfg(feature = "mpi")]
    if let Some(mpi) = ctx.st.backend.as_any().downcast_ref::<crate::comm::mpi::MpiComm>() {
        mpi.begin_command();
    }
    if let Some(lc) = local_comm(ctx) {
        lc.set_in_command(true);
    }
    ctx.st.coll_seq.load(Ordering::Relaxed)
}

/// Abandons the current driver command, if this locale is inside one, when its collectives
/// were found in different orders (`e` a [`Error::CollectiveMismatch`]): every locale sees the
/// mismatch at the same collective, and every later collective of the command then gives up
/// at once, whatever each locale's error path does, so the next command starts in step.
pub(crate) fn abandon_on_mismatch(ctx: &Ctx, e: &Error) {
    if !matches!(e, Error::CollectiveMismatch { .. }) {
        return;
    }
    #[cfg(feature = "mpi")]
    if let Some(mpi) = ctx.st.backend.as_any().downcast_ref::<crate::comm::mpi::MpiComm>() {
        if mpi.in_command() {
            let _ = mpi.abandon_command(e);
        }
        return;
    }
    if let Some(lc) = local_comm(ctx) {
        lc.abandon_on_mismatch(e);
    }
}

/// Ends a command on this locale, whose own part gave `mine` (started at collective count
/// `start`). **Collective** (the command's closing gather). Returns every locale's result on
/// locale 0 (an empty vector elsewhere).
///
/// # Errors
/// Only a job-wide failure (a locale ended, the backend failed): the session cannot go on.
pub(crate) fn end_command(ctx: &Ctx, start: u64, mine: Result<Vec<u8>>) -> Result<Vec<Result<Vec<u8>>>> {
    #[cfg(feature = "mpi")]
    if let Some(mpi) = ctx.st.backend.as_any().downcast_ref::<crate::comm::mpi::MpiComm>() {
        return end_command_mpi(ctx, mpi, start, mine);
    }
    let Some(lc) = local_comm(ctx) else {
        return ctx.gather(0, &mine);
    };
    let r = end_command_local(ctx, lc, start, mine);
    lc.set_in_command(false);
    r
}

/// [`end_command`] on the in-process backend.
fn end_command_local(ctx: &Ctx, lc: &LocalComm, start: u64, mine: Result<Vec<u8>>) -> Result<Vec<Result<Vec<u8>>>> {
    match mine {
        Err(e) => lc.world().abort_command(ctx.id(), e),
        Ok(_) => match ctx.gather(0, &mine) {
            Err(Error::CommandFailed { .. }) => {}
            // Locales in different collectives (`LocalComm::meet` abandoned the command).
            Err(Error::CollectiveMismatch { .. }) if lc.world().fence.is_aborted() => {}
            other => return other,
        },
    }
    // The command was abandoned: meet every locale at its boundary and start again in step.
    let failures = lc.world().end_failed_command()?;
    lc.reset_parity();
    ctx.st.coll_seq.store(start, Ordering::Relaxed);
    if ctx.id() != 0 {
        return Ok(Vec::new());
    }
    Ok(vec![Err(first_failure(failures))])
}

/// [`end_command`] under MPI.
#[cfg(feature = "mpi")]
fn end_command_mpi(
    ctx: &Ctx,
    mpi: &crate::comm::mpi::MpiComm,
    start: u64,
    mine: Result<Vec<u8>>,
) -> Result<Vec<Result<Vec<u8>>>> {
    let failed = match mine {
        Err(e) => {
            mpi.abandon_command(&e)?;
            e
        }
        Ok(_) => match ctx.gather(0, &mine) {
            Err(e @ Error::CommandFailed { .. }) => e,
            Err(e @ Error::CollectiveMismatch { .. }) if mpi.is_aborted() => e,
            other => {
                mpi.end_command();
                return other;
            }
        },
    };
    // The command was abandoned: meet every rank at its boundary and start again in step.
    let failures = mpi.end_abandoned_command(&failed)?;
    ctx.st.coll_seq.store(start, Ordering::Relaxed);
    if ctx.id() != 0 {
        return Ok(Vec::new());
    }
    Ok(vec![Err(first_failure(failures))])
}

/// The failure to report for an abandoned command: the lowest locale's own failure (a
/// [`Error::CommandFailed`] only says that a locale waited for another).
fn first_failure(mut failures: Vec<(usize, Error)>) -> Error {
    failures.sort_by_key(|(l, _)| *l);
    let own = failures.iter().position(|(_, e)| !matches!(e, Error::CommandFailed { .. }));
    match own.or(if failures.is_empty() { None } else { Some(0) }) {
        Some(i) => failures.swap_remove(i).1,
        None => Error::CommandFailed { locale: usize::MAX, message: "no failure was recorded".into() },
    }
}
