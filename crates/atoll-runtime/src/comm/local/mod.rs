//! The in-process backend: N locales as groups of threads of one process.
//!
//! Remote memory access is a copy into or out of another locale's registered memory (through
//! the same registration checks and counters as a real message). Active messages are queued to
//! the target locale's handler threads. Collectives meet at a shared barrier: each locale
//! leaves its contribution in a slot, waits for the others, then reads theirs. Slots alternate
//! between two sets by the parity of the collective's sequence number, so a slot is rewritten
//! only after everyone has passed the next barrier, hence finished reading it.
//!
//! The barrier itself is `comm/local/barrier.rs` (spins briefly, then parks). A failure of any
//! locale sets a flag that every waiting locale sees promptly (it is woken); they return
//! [`Error::LocaleFailed`] instead of waiting forever. Each rendezvous also compares the
//! locales' notes of their current collective (`coll_note.rs`), so collectives called in
//! different orders give [`Error::CollectiveMismatch`] instead of wrong data or a hang.

pub(crate) mod barrier;
pub(crate) mod fence;

use self::barrier::{FastBarrier, Padded};
use self::fence::CommandFence;
use super::coll_note::{self, Note};
use super::memcopy;
use super::{
    ActiveMessages, Atomics, Backend, Collectives, CommandAbandonment, PendingReply, Registration, Rma, ServedLocale,
    Strided,
};
use crate::memory::registration::RegionTable;
use crate::sync::OnceLock;
use crate::sync::{lock, Arc, AtomicBool, AtomicU64, Mutex, Ordering, Weak};
use atoll_error::{Error, Result};

/// Contributions up to this many bytes stay inline in the slot (no allocation).
const SMALL: usize = 56;

#[derive(Default)]
enum Slot {
    #[default]
    Empty,
    Small(u8, [u8; SMALL]),
    Data(Vec<u8>),
    Out(Vec<Vec<u8>>),
}

impl Slot {
    fn bytes(data: &[u8]) -> Slot {
        if data.len() <= SMALL {
            let mut b = [0u8; SMALL];
            b[..data.len()].copy_from_slice(data);
            Slot::Small(data.len() as u8, b)
        } else {
            Slot::Data(data.to_vec())
        }
    }

    fn as_bytes(&self) -> &[u8] {
        match self {
            Slot::Small(n, b) => &b[..*n as usize],
            Slot::Data(d) => d,
            _ => &[],
        }
    }
}

/// What the locales of one in-process job share.
pub(crate) struct LocalWorld {
    n: usize,
    bar: FastBarrier,
    /// Each locale's note of its current collective, by parity (as the slots).
    notes: [Vec<Padded<Note>>; 2],
    slots: [Vec<Padded<Mutex<Slot>>>; 2],
    failed: AtomicBool,
    failure: Mutex<Option<(usize, Error)>>,
    /// Abandoning one driver command (see `local_fence`).
    pub(crate) fence: CommandFence,
    locales: OnceLock<Vec<Weak<dyn ServedLocale>>>,
    regions: Vec<Arc<RegionTable>>,
}

impl LocalWorld {
    pub(crate) fn new(regions: Vec<Arc<RegionTable>>) -> Arc<Self> {
        let n = regions.len();
        Arc::new(LocalWorld {
            n,
            bar: FastBarrier::new(n),
            notes: [(0..n).map(|_| Padded::default()).collect(), (0..n).map(|_| Padded::default()).collect()],
            slots: [
                (0..n).map(|_| Padded(Mutex::new(Slot::Empty))).collect(),
                (0..n).map(|_| Padded(Mutex::new(Slot::Empty))).collect(),
            ],
            failed: AtomicBool::new(false),
            failure: Mutex::new(None),
            fence: CommandFence::new(n),
            locales: OnceLock::new(),
            regions,
        })
    }

    pub(crate) fn set_locales(&self, locales: Vec<Weak<dyn ServedLocale>>) {
        let _ = self.locales.set(locales);
    }

    /// The first failure, as the failing locale saw it.
    pub(crate) fn first_failure(&self) -> Option<Error> {
        lock(&self.failure).as_ref().map(|(_, e)| e.clone())
    }

    /// Records that `locale` failed with `e` (the first failure is kept) and wakes every
    /// waiting locale.
    pub(crate) fn fail(&self, locale: usize, e: &Error) {
        {
            let mut f = lock(&self.failure);
            if f.is_none() {
                *f = Some((locale, e.clone()));
            }
        }
        self.failed.store(true, Ordering::SeqCst);
        self.bar.wake_all();
    }

    /// Whether waiting locales must stop waiting: a locale has failed, or the current driver
    /// command was abandoned (`abort_command` then wakes them).
    fn interrupted(&self) -> bool {
        self.failed.load(Ordering::Relaxed) || self.fence.is_aborted()
    }

    /// An error if a locale has failed: the others learn which one and why.
    pub(crate) fn check(&self) -> Result<()> {
        if self.failed.load(Ordering::SeqCst) {
            let f = lock(&self.failure).clone();
            return Err(match f {
                Some((_, e @ Error::LocaleFailed { .. })) => e,
                Some((locale, e)) => Error::LocaleFailed { locale, message: e.to_string() },
                None => Error::LocaleFailed { locale: 0, message: "unknown failure".into() },
            });
        }
        Ok(())
    }

    /// Abandons the current driver command: records `locale`'s failure and wakes every
    /// locale waiting in a barrier, which leaves with [`Error::CommandFailed`].
    pub(crate) fn abort_command(&self, locale: usize, e: Error) {
        self.fence.abort(locale, e);
        self.bar.wake_all();
    }

    /// The command boundary after [`LocalWorld::abort_command`] (see `local_fence`): the last
    /// locale to arrive forgets the interrupted barrier round's arrivals.
    pub(crate) fn end_failed_command(&self) -> Result<Vec<(usize, Error)>> {
        self.fence.meet(|| self.bar.reset(), || self.check())
    }

    /// The rendezvous of collective parity `p`: waits for every locale, then checks that all
    /// noted the same collective. A locale entering after its command was abandoned never
    /// counts itself in; one waiting when it is abandoned leaves (its arrival is forgotten at
    /// the command boundary).
    fn barrier(&self, p: usize) -> Result<()> {
        self.check()?;
        if self.fence.is_aborted() {
            return Err(self.fence.error());
        }
        if self.bar.wait(|| self.interrupted()).is_err() {
            self.check()?;
            if self.fence.is_aborted() {
                return Err(self.fence.error());
            }
            return Err(Error::LocaleFailed { locale: 0, message: "a barrier was interrupted".into() });
        }
        coll_note::compare(&self.notes[p])
    }
}

/// One locale's end of the in-process backend.
pub(crate) struct LocalComm {
    me: usize,
    world: Arc<LocalWorld>,
    seq: AtomicU64,
    /// The collective this locale is entering (see `note_collective`).
    note: Note,
    /// Whether this locale is inside a driver command (where a failure abandons the command).
    in_command: AtomicBool,
}

impl LocalComm {
    pub(crate) fn new(me: usize, world: Arc<LocalWorld>) -> Self {
        LocalComm { me, world, seq: AtomicU64::new(0), note: Note::default(), in_command: AtomicBool::new(false) }
    }

    /// The rendezvous of collective parity `p`. Collectives found in different orders inside
    /// a driver command abandon the command (every locale sees the mismatch at the same
    /// rendezvous): every later collective of the command then gives up at once, whatever
    /// each locale's error path does, and the next command starts in step.
    fn meet(&self, p: usize) -> Result<()> {
        self.world.barrier(p).inspect_err(|e| {
            if matches!(e, Error::CollectiveMismatch { .. }) {
                self.mismatch_found(e)
            }
        })
    }

    /// Restarts the slot parity at 0 (every locale does it at a command boundary, when no
    /// collective is in flight).
    pub(crate) fn reset_parity(&self) {
        self.seq.store(0, Ordering::Relaxed);
    }

    /// Starts a collective: its slot parity, or the abandoned command's error before any slot
    /// is written (a collective that fails must not overwrite a slot that others may still
    /// read; the first one after an abort may race with it, which the parity alternation
    /// absorbs: one write ahead is safe, two are not).
    fn begin(&self) -> Result<usize> {
        if self.world.fence.is_aborted() {
            return Err(self.world.fence.error());
        }
        Ok(self.parity())
    }

    /// Numbers a collective (its parity picks the slots) and publishes this locale's note of it.
    fn parity(&self) -> usize {
        let p = (self.seq.fetch_add(1, Ordering::Relaxed) & 1) as usize;
        self.world.notes[p][self.me].0.copy_from(&self.note);
        p
    }

    fn put_slot(&self, p: usize, s: Slot) {
        *lock(&self.world.slots[p][self.me].0) = s;
    }

    fn read_slot(&self, p: usize, from: usize) -> Vec<u8> {
        lock(&self.world.slots[p][from].0).as_bytes().to_vec()
    }
}

impl Rma for LocalComm {
    fn puts_are_copies(&self) -> bool {
        true
    }

    fn direct_addr(&self, _target: usize, addr: u64) -> Option<usize> {
        // Every locale of this backend lives in this process: a registered address is a
        // pointer here.
        Some(addr as usize)
    }

    fn get(&self, _target: usize, addr: u64, dst: &mut [u8]) -> Result<()> {
        // SAFETY: `Ctx` resolved addr..addr+len against the target's registered regions before
        // calling, and regions stay allocated while registered.
        unsafe { memcopy::read(addr, dst) };
        Ok(())
    }

    fn put(&self, _target: usize, addr: u64, src: &[u8]) -> Result<()> {
        // SAFETY: as in `get`: the range was resolved as registered memory of the target.
        unsafe { memcopy::write(addr, src) };
        Ok(())
    }

    fn get_strided(&self, _target: usize, addr: u64, shape: &Strided, dst: &mut [u8]) -> Result<()> {
        // SAFETY: `Ctx` resolved addr..addr+extent as registered and sized `dst` to the shape.
        unsafe { memcopy::read_strided(addr, shape, dst) };
        Ok(())
    }

    fn put_strided(&self, _target: usize, addr: u64, shape: &Strided, src: &[u8]) -> Result<()> {
        // SAFETY: as in `get_strided`.
        unsafe { memcopy::write_strided(addr, shape, src) };
        Ok(())
    }

    unsafe fn get_nb(&self, _target: usize, addr: u64, dst: *mut u8, len: usize) -> Result<()> {
        // SAFETY: the caller guarantees dst..dst+len is writable and unaliased until the flush;
        // the source range was resolved as registered.
        unsafe { memcopy::read(addr, std::slice::from_raw_parts_mut(dst, len)) };
        Ok(())
    }

    unsafe fn put_nb(&self, _target: usize, addr: u64, src: *const u8, len: usize) -> Result<()> {
        // SAFETY: the caller guarantees src..src+len is readable until the flush; the
        // destination range was resolved as registered.
        unsafe { memcopy::write(addr, std::slice::from_raw_parts(src, len)) };
        Ok(())
    }

    fn flush(&self, _target: usize) -> Result<()> {
        Ok(())
    }

    fn flush_all(&self) -> Result<()> {
        Ok(())
    }
}

impl Atomics for LocalComm {
    fn fetch_add_u64(&self, _target: usize, addr: u64, value: u64) -> Result<u64> {
        // SAFETY: `Ctx` checked alignment and resolved the word as registered memory.
        Ok(unsafe { memcopy::atomic(addr) }.fetch_add(value, memcopy::ATOMIC_ORDER))
    }

    fn compare_exchange_u64(&self, _target: usize, addr: u64, current: u64, new: u64) -> Result<u64> {
        // SAFETY: as in `fetch_add_u64`.
        let a = unsafe { memcopy::atomic(addr) };
        Ok(match a.compare_exchange(current, new, memcopy::ATOMIC_ORDER, memcopy::ATOMIC_ORDER) {
            Ok(v) | Err(v) => v,
        })
    }
}

impl LocalComm {
    fn target_state(&self, target: usize) -> Result<Arc<dyn ServedLocale>> {
        self.world.check()?;
        self.world
            .locales
            .get()
            .and_then(|l| l.get(target))
            .and_then(Weak::upgrade)
            .ok_or(Error::LocaleFailed { locale: target, message: "the locale has shut down".into() })
    }
}

impl ActiveMessages for LocalComm {
    fn blocking_requests_run_inline(&self) -> bool {
        true
    }

    /// Runs the handler on the calling thread with the target's context (memory is shared,
    /// so this is as good a place as the target's own threads, and saves two thread hand-offs);
    /// work for a sublocale still goes to that sublocale's pool.
    fn request_blocking(&self, target: usize, handler: u64, sub: Option<usize>, payload: Vec<u8>) -> Result<Vec<u8>> {
        self.target_state(target)?.run_handler(handler, sub, &payload)
    }

    fn request(&self, target: usize, handler: u64, sub: Option<usize>, payload: Vec<u8>) -> Result<PendingReply> {
        let st = self.target_state(target)?;
        let (tx, rx) = crate::sync::mpsc::channel();
        let target_st = Arc::clone(&st);
        st.executor().spawn(move || {
            let _ = tx.send(target_st.run_handler(handler, sub, &payload));
        });
        let world = Arc::clone(&self.world);
        Ok(PendingReply::new(rx, Some(Box::new(move || world.check()))))
    }
}

impl Collectives for LocalComm {
    fn barrier(&self) -> Result<()> {
        let p = self.begin()?;
        self.meet(p)
    }

    fn broadcast(&self, root: usize, data: Vec<u8>) -> Result<Vec<u8>> {
        let p = self.begin()?;
        if self.me == root {
            self.put_slot(p, if data.len() <= SMALL { Slot::bytes(&data) } else { Slot::Data(data) });
        }
        self.meet(p)?;
        Ok(self.read_slot(p, root))
    }

    fn allgather_visit(&self, data: &[u8], visit: &mut dyn FnMut(&[u8]) -> Result<()>) -> Result<()> {
        let p = self.begin()?;
        self.put_slot(p, Slot::bytes(data));
        self.meet(p)?;
        for s in &self.world.slots[p] {
            visit(lock(&s.0).as_bytes())?;
        }
        Ok(())
    }

    fn allgather(&self, data: &[u8]) -> Result<Vec<Vec<u8>>> {
        let p = self.begin()?;
        self.put_slot(p, Slot::bytes(data));
        self.meet(p)?;
        Ok((0..self.world.n).map(|s| self.read_slot(p, s)).collect())
    }

    fn gather(&self, root: usize, data: &[u8]) -> Result<Vec<Vec<u8>>> {
        let p = self.begin()?;
        self.put_slot(p, Slot::bytes(data));
        self.meet(p)?;
        Ok(if self.me == root { (0..self.world.n).map(|s| self.read_slot(p, s)).collect() } else { Vec::new() })
    }

    fn note_collective(&self, seq: u64, kind: &'static str, at: &'static std::panic::Location<'static>) {
        self.note.set(seq, kind, at);
    }

    fn alltoallv(&self, out: Vec<Vec<u8>>) -> Result<Vec<Vec<u8>>> {
        let p = self.begin()?;
        self.put_slot(p, Slot::Out(out));
        self.meet(p)?;
        Ok((0..self.world.n)
            .map(|s| match &mut *lock(&self.world.slots[p][s].0) {
                Slot::Out(v) => v.get_mut(self.me).map(std::mem::take).unwrap_or_default(),
                _ => Vec::new(),
            })
            .collect())
    }
}

impl Registration for LocalComm {
    fn attach(&self, _addr: u64, _len: usize) -> Result<()> {
        Ok(())
    }

    fn detach(&self, _addr: u64) -> Result<()> {
        Ok(())
    }

    fn lookup_remote(&self, target: usize, addr: u64, len: usize) -> Result<Option<(u64, usize)>> {
        Ok(self.world.regions[target].find(addr, len))
    }
}

impl CommandAbandonment for LocalComm {
    fn begin_command(&self) {
        self.in_command.store(true, Ordering::Relaxed);
    }

    fn end_command(&self) {
        self.in_command.store(false, Ordering::Relaxed);
    }

    fn mismatch_found(&self, e: &Error) {
        if self.in_command.load(Ordering::Relaxed) {
            self.world.abort_command(self.me, e.clone());
        }
    }

    fn is_abandoned(&self) -> bool {
        self.world.fence.is_aborted()
    }

    fn abandon_command(&self, error: &Error) -> Result<()> {
        self.world.abort_command(self.me, error.clone());
        Ok(())
    }

    fn end_abandoned_command(&self, _mine: &Error) -> Result<Vec<(usize, Error)>> {
        // The world recorded every locale's failure (`abort_command`, and the waiters' own).
        let failures = self.world.end_failed_command()?;
        self.reset_parity();
        self.in_command.store(false, Ordering::Relaxed);
        Ok(failures)
    }
}

impl Backend for LocalComm {
    fn name(&self) -> &'static str {
        "local"
    }

    fn wake(&self, _target: usize) {}

    fn locales_share_process(&self) -> bool {
        true
    }

    fn abort(&self, message: &str) {
        self.world.fail(self.me, &Error::LocaleFailed { locale: self.me, message: message.to_string() });
    }
}
