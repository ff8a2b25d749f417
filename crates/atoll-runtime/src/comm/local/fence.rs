//! The command fence of the in-process backend: abandoning one driver command without ending
//! the job.
//!
//! When a locale's part of a [`crate::Driver`] command fails (its handler panicked or returned
//! an error), the other locales may be waiting for it in a collective of that command, and it
//! will never arrive there. The failing locale *aborts the command*: it records its error here
//! and raises the `aborted` flag, which every barrier of the world checks (on entry, and while
//! waiting). A locale waiting in, or entering, a collective then withdraws from the barrier and
//! gets [`Error::CommandFailed`] instead of the collective's result. Every locale then ends up
//! at the *command boundary* ([`CommandFence::meet`], a rendezvous that ignores the flag); the
//! last to arrive, when nobody is inside a collective any more, lowers the flag and hands the
//! recorded errors over. Each locale then resets its collective sequence numbers (slot parity,
//! [`crate::Ctx`]'s count) to a common value, and the next command starts clean.
//!
//! The flag is raised only inside a driver command (between its broadcast and its closing
//! gather), so SPMD jobs ([`crate::run`]) never see it.

use crate::sync::wait_timeout;
use crate::sync::{lock, AtomicBool, Condvar, Mutex, Ordering};
use atoll_error::{Error, Result};
use std::time::Duration;

/// See the module documentation.
pub(crate) struct CommandFence {
    n: usize,
    aborted: AtomicBool,
    /// The failures recorded for the current command: (locale, error).
    errors: Mutex<Vec<(usize, Error)>>,
    /// Those of the last abandoned command, handed over at its boundary.
    last: Mutex<Vec<(usize, Error)>>,
    /// The boundary rendezvous: (arrived, generation).
    meet: Mutex<(usize, u64)>,
    meet_cv: Condvar,
}

impl CommandFence {
    pub(crate) fn new(n: usize) -> Self {
        CommandFence {
            n,
            aborted: AtomicBool::new(false),
            errors: Mutex::new(Vec::new()),
            last: Mutex::new(Vec::new()),
            meet: Mutex::new((0, 0)),
            meet_cv: Condvar::new(),
        }
    }

    /// Whether the current command has been abandoned.
    #[inline]
    pub(crate) fn is_aborted(&self) -> bool {
        self.aborted.load(Ordering::SeqCst)
    }

    /// Records `locale`'s failure and raises the flag (the caller then wakes the barrier's
    /// waiters).
    pub(crate) fn abort(&self, locale: usize, e: Error) {
        lock(&self.errors).push((locale, e));
        self.aborted.store(true, Ordering::SeqCst);
    }

    /// The error a locale gets from a collective of an abandoned command: the first failure
    /// recorded that is not itself a [`Error::CommandFailed`].
    pub(crate) fn error(&self) -> Error {
        let errs = lock(&self.errors);
        let first = errs.iter().find(|(_, e)| !matches!(e, Error::CommandFailed { .. })).or(errs.first());
        match first {
            Some((_, e @ Error::CommandFailed { .. })) => e.clone(),
            Some((l, e)) => Error::CommandFailed { locale: *l, message: e.to_string() },
            None => Error::CommandFailed { locale: usize::MAX, message: "unknown failure".into() },
        }
    }

    /// The command boundary after an abort: waits until every locale has arrived (they have
    /// all left the command's collectives then), lowers the flag, and returns the failures the
    /// command recorded. `reset` runs once, by the last locale to arrive, before anyone leaves
    /// (it resets the barrier). `check` reports a job-wide failure, which ends the wait.
    pub(crate) fn meet(&self, reset: impl FnOnce(), check: impl Fn() -> Result<()>) -> Result<Vec<(usize, Error)>> {
        let mut g = lock(&self.meet);
        let gen = g.1;
        g.0 += 1;
        if g.0 == self.n {
            g.0 = 0;
            g.1 += 1;
            reset();
            *lock(&self.last) = std::mem::take(&mut *lock(&self.errors));
            self.aborted.store(false, Ordering::SeqCst);
            self.meet_cv.notify_all();
        } else {
            while g.1 == gen {
                if let Err(e) = check() {
                    g.0 -= 1;
                    return Err(e);
                }
                g = wait_timeout(&self.meet_cv, g, Duration::from_millis(20)).0;
            }
        }
        drop(g);
        Ok(lock(&self.last).clone())
    }
}
