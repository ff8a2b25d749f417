//! Cheap detection of collectives called in different orders (with collective checking off):
//! each locale notes its current collective (sequence number, kind, call site) before it
//! meets the others.
//!
//! - The local backend publishes the note in a per-locale slot of the rendezvous and, once the
//!   barrier has completed, compares every locale's with locale 0's: a difference is an
//!   [`Error::CollectiveMismatch`] naming both call sites (a few loads per collective).
//! - The MPI backend cannot see the other ranks' notes without a message, so a rank that has
//!   waited in one collective for [`STALL_WARN`] prints its note (and again at every doubling
//!   of the wait; the peer watch, `comm/mpi/watch.rs`, makes the report): every stuck rank
//!   names its own call site on stderr, never a silent hang.

use crate::sync::{AtomicPtr, AtomicU64, Ordering};
use atoll_error::Error;
use std::panic::Location;
use std::time::Duration;

/// How long an MPI rank waits in one collective before it says where it is.
#[cfg_attr(not(feature = "mpi"), allow(dead_code))]
pub(crate) const STALL_WARN: Duration = Duration::from_secs(5);

/// The kinds `Ctx::coll_enter` uses, by code (index + 1); other kinds share one code.
const KINDS: &[&str] = &[
    "barrier",
    "broadcast",
    "allgather",
    "gather",
    "allreduce",
    "exscan",
    "alltoallv",
    "reserve",
    "memory_used_all",
    "the end of the job",
    "alloc_symmetric",
    "comm_diagnostics",
    "reset_comm_diagnostics",
    "start_comm_diagnostics",
    "stop_comm_diagnostics",
];
const OTHER: u64 = 0xffff;
pub(crate) const SEQ_BITS: u32 = 48;

/// Packs a collective's sequence number and kind into one word.
pub(crate) fn word(seq: u64, kind: &str) -> u64 {
    let code = KINDS.iter().position(|k| *k == kind).map_or(OTHER, |i| i as u64 + 1);
    (code << SEQ_BITS) | (seq & ((1 << SEQ_BITS) - 1))
}

fn describe(word: u64, at: Option<&'static Location<'static>>) -> String {
    let code = word >> SEQ_BITS;
    let kind = match code {
        0 => "a collective the runtime did not note",
        OTHER => "a collective",
        c => KINDS.get(c as usize - 1).copied().unwrap_or("a collective"),
    };
    let seq = word & ((1 << SEQ_BITS) - 1);
    match at {
        Some(l) => format!("{kind} (#{seq}) at {}:{}:{}", l.file(), l.line(), l.column()),
        None => format!("{kind} (#{seq})"),
    }
}

/// A packed word in words (kind and sequence number; the call site is known only in the
/// process that noted it): for MPI ranks comparing notes through shared memory.
#[cfg_attr(not(feature = "mpi"), allow(dead_code))]
pub(crate) fn describe_word(word: u64) -> String {
    describe(word, None)
}

/// One locale's current collective: a packed word and its call site.
#[derive(Default)]
pub(crate) struct Note {
    word: AtomicU64,
    at: AtomicPtr<Location<'static>>,
}

impl Note {
    /// Records collective `seq` of kind `kind`, called at `at`.
    pub(crate) fn set(&self, seq: u64, kind: &str, at: &'static Location<'static>) {
        self.word.store(word(seq, kind), Ordering::Relaxed);
        self.at.store(std::ptr::from_ref(at).cast_mut(), Ordering::Relaxed);
    }

    /// Copies `other` (a locale's current note) into this slot.
    pub(crate) fn copy_from(&self, other: &Note) {
        self.word.store(other.word.load(Ordering::Relaxed), Ordering::Relaxed);
        self.at.store(other.at.load(Ordering::Relaxed), Ordering::Relaxed);
    }

    pub(crate) fn word(&self) -> u64 {
        self.word.load(Ordering::Relaxed)
    }

    fn location(&self) -> Option<&'static Location<'static>> {
        let p = self.at.load(Ordering::Relaxed);
        // SAFETY: the only pointers stored (in `set`) come from `&'static Location<'static>`,
        // so a non-null one is valid for the whole program.
        (!p.is_null()).then(|| unsafe { &*p })
    }

    /// This note in words (kind, sequence number, call site).
    pub(crate) fn describe(&self) -> String {
        describe(self.word(), self.location())
    }
}

/// Compares every locale's note of one rendezvous with locale 0's (the slots are stable until
/// every locale has passed the next barrier): the first difference as an error.
pub(crate) fn compare(notes: &[crate::comm::local::barrier::Padded<Note>]) -> Result<(), Error> {
    let Some(first) = notes.first() else { return Ok(()) };
    let w0 = first.0.word();
    for (l, n) in notes.iter().enumerate().skip(1) {
        if n.0.word() != w0 {
            return Err(Error::CollectiveMismatch {
                locale: l,
                seq: w0 & ((1 << SEQ_BITS) - 1),
                expected: first.0.describe(),
                found: n.0.describe(),
            });
        }
    }
    Ok(())
}

/// This process's current collective (MPI: one locale per process), for the stall warning.
pub(crate) static CURRENT: Note = Note { word: AtomicU64::new(0), at: AtomicPtr::new(std::ptr::null_mut()) };

thread_local! {
    static QUIET: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f` with the stall report off on this thread, for waits that are long by design: a
/// serving rank waiting for the driver's next command (while the driver's program computes),
/// a rank that has finished its part waiting at the end of the job.
pub(crate) fn quiet<R>(f: impl FnOnce() -> R) -> R {
    let old = QUIET.replace(true);
    let r = f();
    QUIET.set(old);
    r
}

/// Whether this thread's waits are quiet (see [`quiet`]).
#[cfg_attr(not(feature = "mpi"), allow(dead_code))]
pub(crate) fn is_quiet() -> bool {
    QUIET.get()
}
