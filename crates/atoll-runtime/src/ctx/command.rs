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

use crate::ctx::Ctx;
use crate::sync::Ordering;
use atoll_error::{Error, Result};

/// The collective count at the start of a command, to restore if the command is abandoned.
pub(crate) fn command_start(ctx: &Ctx) -> u64 {
    ctx.st.backend.begin_command();
    ctx.st.coll_seq.load(Ordering::Relaxed)
}

/// Abandons the current driver command, if this locale is inside one, when its collectives
/// were found in different orders (`e` a [`Error::CollectiveMismatch`]): every locale sees the
/// mismatch at the same collective, and every later collective of the command then gives up
/// at once, whatever each locale's error path does, so the next command starts in step.
pub(crate) fn abandon_on_mismatch(ctx: &Ctx, e: &Error) {
    if matches!(e, Error::CollectiveMismatch { .. }) {
        ctx.st.backend.mismatch_found(e);
    }
}

/// Ends a command on this locale, whose own part gave `mine` (started at collective count
/// `start`). **Collective** (the command's closing gather). Returns every locale's result on
/// locale 0 (an empty vector elsewhere).
///
/// # Errors
/// Only a job-wide failure (a locale ended, the backend failed): the session cannot go on.
pub(crate) fn end_command(ctx: &Ctx, start: u64, mine: Result<Vec<u8>>) -> Result<Vec<Result<Vec<u8>>>> {
    let backend = &*ctx.st.backend;
    let failed = match mine {
        Err(e) => {
            backend.abandon_command(&e)?;
            e
        }
        Ok(_) => match ctx.gather(0, &mine) {
            Err(e @ Error::CommandFailed { .. }) => e,
            // Locales in different collectives (`mismatch_found` abandoned the command).
            Err(e @ Error::CollectiveMismatch { .. }) if backend.is_abandoned() => e,
            other => {
                backend.end_command();
                return other;
            }
        },
    };
    // The command was abandoned: meet every locale at its boundary and start again in step.
    let failures = backend.end_abandoned_command(&failed)?;
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
