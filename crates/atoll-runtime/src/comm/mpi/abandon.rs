//! Abandoning a driver command under MPI: the per-process "command aborted" state.
//!
//! A rank whose part of a driver command fails tells every other rank (a `TAG_ABORT` message
//! on the active-message communicator, read by their progress threads) and goes to the command
//! boundary. Commands are numbered (the *generation*, stepped by every rank as it starts
//! one), and an abort message names its command: one for a later command (a rank may run
//! ahead) waits for it, a late one for an earlier command is ignored. Each rank's collectives of the command poll [`CommandAbort::check`] while they
//! wait (`raw::wait_coll`) and give up with [`Error::CommandFailed`], unless the failed rank
//! had joined the collective they wait in (the abort message carries how many collectives it
//! entered, `coll_seq`): that one completes, as it would have without the failure. At the boundary every
//! rank moves its command collectives to a fresh communicator (the old one may still hold the
//! abandoned requests).

use super::raw::Abandon;
use crate::comm::ServedLocale;
use crate::sync::{lock, AtomicBool, AtomicU64, Mutex, Ordering, Weak};
use atoll_error::{Error, Result};
use std::sync::OnceLock;

/// The failures raised for one generation.
struct Failures {
    generation: u64,
    /// The lowest failed locale and its message.
    first: (usize, String),
    /// The fewest collectives a failed locale entered (its `coll_seq` when it failed).
    min_seq: u64,
}

/// This rank's view of whether the current command was abandoned.
pub(crate) struct CommandAbort {
    /// Whether this rank is inside a driver command (between the command's broadcast and its
    /// end). Only then do collectives give up: the broadcast of the command itself must
    /// complete on every rank, even one that learns of the abort before receiving it.
    in_command: AtomicBool,
    /// The number of driver commands started so far (the same sequence on every rank).
    generation: AtomicU64,
    /// One more than the latest generation an abort was raised for (0: none).
    aborted: AtomicU64,
    failures: Mutex<Option<Failures>>,
    /// This rank's locale, for its collective count.
    state: OnceLock<Weak<dyn ServedLocale>>,
}

impl CommandAbort {
    pub(crate) fn new() -> CommandAbort {
        CommandAbort {
            in_command: AtomicBool::new(false),
            generation: AtomicU64::new(0),
            aborted: AtomicU64::new(0),
            failures: Mutex::new(None),
            state: OnceLock::new(),
        }
    }

    /// Names this rank's locale (once it is built).
    pub(crate) fn set_state(&self, st: Weak<dyn ServedLocale>) {
        let _ = self.state.set(st);
    }

    /// This rank's collective count: the number of collectives it entered.
    pub(crate) fn coll_seq(&self) -> u64 {
        self.state.get().and_then(Weak::upgrade).map_or(0, |st| st.coll_seq())
    }

    /// The current generation (sent in abort messages).
    pub(crate) fn generation(&self) -> u64 {
        self.generation.load(Ordering::SeqCst)
    }

    /// Records that `locale` failed with `message` in the command of `generation`, after
    /// entering `seq` collectives.
    pub(crate) fn raise(&self, generation: u64, locale: usize, seq: u64, message: String) {
        {
            let mut f = lock(&self.failures);
            match &mut *f {
                Some(old) if old.generation == generation => {
                    if locale < old.first.0 {
                        old.first = (locale, message);
                    }
                    old.min_seq = old.min_seq.min(seq);
                }
                Some(old) if old.generation > generation => {}
                _ => *f = Some(Failures { generation, first: (locale, message), min_seq: seq }),
            }
        }
        self.aborted.fetch_max(generation + 1, Ordering::SeqCst);
    }

    /// Whether the current command was abandoned.
    pub(crate) fn is_aborted(&self) -> bool {
        self.aborted.load(Ordering::SeqCst) == self.generation() + 1
    }

    /// Starts the next driver command on this rank (after its broadcast).
    pub(crate) fn begin_command(&self) {
        self.generation.fetch_add(1, Ordering::SeqCst);
        self.in_command.store(true, Ordering::SeqCst);
    }

    /// Whether this rank is inside a driver command (the same answer at the same collective
    /// on every rank: commands start and end at the same points of every rank's sequence).
    pub(crate) fn in_command(&self) -> bool {
        self.in_command.load(Ordering::SeqCst)
    }

    /// Marks this rank as outside any driver command (its closing gather or boundary).
    pub(crate) fn end_command(&self) {
        self.in_command.store(false, Ordering::SeqCst);
    }
}

impl Abandon for CommandAbort {
    fn check(&self) -> Result<()> {
        if !self.in_command.load(Ordering::SeqCst) || !self.is_aborted() {
            return Ok(());
        }
        // The collective waited in is number `coll_seq - 1` (counted when entered): a failed
        // rank that entered more than that many joined it, so it completes.
        let current = self.coll_seq().saturating_sub(1);
        let g = self.generation();
        match &*lock(&self.failures) {
            Some(f) if f.generation == g && f.min_seq > current => Ok(()),
            Some(f) if f.generation == g => Err(Error::CommandFailed { locale: f.first.0, message: f.first.1.clone() }),
            _ => Err(Error::CommandFailed { locale: usize::MAX, message: "a locale failed".into() }),
        }
    }
}
