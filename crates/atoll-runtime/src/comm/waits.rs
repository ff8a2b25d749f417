//! What this process's threads wait for in communication: the MPI backend's blocking waits
//! (collectives, RMA flushes, sends) enter here while they last, so that the peer watch
//! (`comm/mpi/watch.rs`) can report a wait that stalls, and name the operation that was
//! waiting when a peer becomes unreachable, without touching the waiting thread.
//!
//! Each thread also remembers the source location of its last remote access (set by `Ctx`,
//! one thread-local store), which a flush names as the operation it completes.
#![cfg_attr(not(feature = "mpi"), allow(dead_code))]

use crate::sync::{lock, AtomicU64, Mutex, Ordering};
use std::cell::Cell;
use std::panic::Location;
use std::time::{Duration, Instant};

thread_local! {
    static SITE: Cell<Option<&'static Location<'static>>> = const { Cell::new(None) };
}

/// Notes the call site of this thread's latest remote access.
#[inline]
pub(crate) fn note_site(at: &'static Location<'static>) {
    SITE.set(Some(at));
}

/// What kind of wait.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A collective: described by this process's collective note (`coll_note::CURRENT`).
    Collective,
    /// An MPI call that completes one-sided operations (`MPI_Win_flush*`).
    Flush,
    /// A point-to-point send, or a reply awaited from a target.
    Message,
}

/// One wait in progress.
#[derive(Clone, Debug)]
pub(crate) struct Wait {
    id: u64,
    /// The MPI call or operation.
    pub(crate) what: &'static str,
    pub(crate) kind: Kind,
    /// The rank waited for, when there is one.
    pub(crate) target: Option<usize>,
    /// The source location of the thread's latest remote access when the wait began.
    pub(crate) site: Option<&'static Location<'static>>,
    pub(crate) since: Instant,
    /// A wait that is long by design (`coll_note::quiet`): not reported as a stall.
    pub(crate) quiet: bool,
}

impl Wait {
    /// The wait in words: the operation, its target and where it comes from.
    pub(crate) fn describe(&self) -> String {
        let mut s = match self.kind {
            Kind::Collective => crate::comm::coll_note::CURRENT.describe(),
            _ => self.what.to_string(),
        };
        if let Some(t) = self.target {
            s.push_str(&format!(" to rank {t}"));
        }
        if self.kind != Kind::Collective {
            if let Some(at) = self.site {
                s.push_str(&format!(" (after the access at {}:{}:{})", at.file(), at.line(), at.column()));
            }
        }
        s
    }

    /// How long it has lasted.
    pub(crate) fn waited(&self) -> Duration {
        self.since.elapsed()
    }
}

static WAITS: Mutex<Vec<Wait>> = Mutex::new(Vec::new());
static NEXT: AtomicU64 = AtomicU64::new(0);

/// A wait in progress; it ends when dropped.
pub(crate) struct Guard(u64);

impl Drop for Guard {
    fn drop(&mut self) {
        let mut w = lock(&WAITS);
        if let Some(i) = w.iter().position(|x| x.id == self.0) {
            w.swap_remove(i);
        }
    }
}

/// Starts a wait of this thread (ended when the guard drops).
pub(crate) fn enter(what: &'static str, kind: Kind, target: Option<usize>) -> Guard {
    let id = NEXT.fetch_add(1, Ordering::Relaxed);
    let w = Wait {
        id,
        what,
        kind,
        target,
        site: SITE.get(),
        since: Instant::now(),
        quiet: crate::comm::coll_note::is_quiet(),
    };
    lock(&WAITS).push(w);
    Guard(id)
}

/// Every wait in progress, the longest first.
pub(crate) fn snapshot() -> Vec<Wait> {
    let mut v = lock(&WAITS).clone();
    v.sort_by_key(|w| w.since);
    v
}

/// Whether the wait `id` still lasts (for reports made once per wait and doubling).
pub(crate) fn id(w: &Wait) -> u64 {
    w.id
}
