//! Collectives between MPI ranks that share one node, through shared memory:
//! barrier, allgather, broadcast and gather of small payloads cost a few cache-line transfers
//! instead of MPI's message protocol (MPICH's `MPI_Ibarrier` / `MPI_Iallgather` polled with
//! `MPI_Test` cost 5-30 us per collective between two ranks of one host on a loaded 2-vCPU
//! guest, which dominated programs that issue thousands of tiny operations, such as polybench at
//! scale 1).
//!
//! - **Where.** Used only when every rank of the job is on this node (`NodeShm` found them
//!   all as peers) and node sharing works; otherwise, and with `ATOLL_MPI_SHM_COLL=0`, every
//!   collective goes through MPI as before. (Jobs spanning several nodes: a hierarchical
//!   version, shared memory within nodes and MPI across, is not built yet.)
//! - **Layout.** Each rank owns one control segment (a `memfd` made and mapped by `shm.rs`,
//!   mapped by every peer at start): an *arrival* word on a cache line of its own, then two
//!   payload slots (length word, the rank's collective note, then [`SLOT`] bytes).
//! - **Order check.** Each rank publishes its note of the current collective
//!   (`coll_note.rs`: sequence number and kind) with its payload; after the round every rank
//!   compares them with rank 0's, and a difference is a `CollectiveMismatch` on the spot, as
//!   on the local backend (MPI collectives can only report a stall after 5 s).
//! - **Protocol.** Collectives are numbered by tickets `t = 1, 2, ...` (the same sequence on
//!   every rank, since every rank calls its collectives in the same order). For collective
//!   `t` a rank writes its payload into slot `t % 2`, stores `t` into its arrival word
//!   (release), then waits until every peer's arrival word is `>= t` (acquire) and reads the
//!   peers' slots `t % 2`. A peer cannot overwrite that slot before this rank is done: it
//!   writes slot `t % 2` again only for collective `t + 2`, which it enters after completing
//!   `t + 1`, which needs this rank's arrival at `t + 1`, which comes after this rank's reads.
//! - **Large payloads.** A payload over [`SLOT`] bytes is announced with the length
//!   [`TOO_BIG`]; every rank sees every announcement, so every rank then makes the same choice
//!   and runs the MPI collective for it (after the shared-memory round, which stays a
//!   synchronization).
//! - **Waiting** is polite: a short spin (30 us; yields instead when the node's ranks
//!   outnumber its cores), yields up to 200 us, then the waiter sleeps on the awaited rank's
//!   futex word
//!   (`shm_futex.rs`), which that rank's arrival wakes, so 4 ranks on 2 cores do not starve
//!   each other and no wake-up waits for a timer. While it waits a rank
//!   checks whether its driver command was abandoned (`abandon.rs`: it then gives up with
//!   `CommandFailed`, like the MPI collectives), reports a stall after 5 s like them, and
//!   checks every ~100 ms that the peers it waits for are still alive (a peer that exited is
//!   a `Comm` error rather than a hang, should the launcher not end the job first).
//! - **Not inside driver commands.** A command abandoned by one rank's failure leaves the
//!   others at different points of their collectives, and a rank that gave up may go on to
//!   later rounds without the double-buffering guarantee above (tried: a 4-rank
//!   `driver_failures` run then read a peer's slot of another round). Inside a command
//!   (`abandon.rs`'s `in_command`, the same at the same collective on every rank) the MPI
//!   collectives run, whose communicator is swapped at the command boundary; the command
//!   broadcasts between commands, and SPMD programs, use the shared rounds. As a safety net
//!   [`NodeColl::resync`] still moves every rank to a common ticket at that boundary.
//!
//! Every `unsafe` block is a load, store or copy within a control segment mapped by
//! `shm.rs`, at offsets inside the segment's fixed layout.

use super::raw::{self, Abandon};
use super::shm::{Mapping, NodeShm};
use super::shm_futex;
use crate::comm::{coll_note, waits};
use crate::config::Config;
use crate::sync::{AtomicU64, Ordering};
use atoll_error::{Error, Result};
use std::sync::atomic::AtomicU32;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Payload bytes per slot; larger payloads go through MPI.
pub(crate) const SLOT: usize = 16 << 10;
/// The length announced for a payload over [`SLOT`] bytes.
const TOO_BIG: u64 = u64::MAX;
/// Offset of the first slot (the arrival word has the first cache lines to itself).
const SLOTS_AT: usize = 256;
/// Bytes from one slot to the next: a cache line for the length and the note word, then the
/// payload.
const SLOT_STRIDE: usize = 128 + SLOT;
/// Bytes of a control segment.
pub(crate) const SEGMENT: usize = SLOTS_AT + 2 * SLOT_STRIDE;
/// How long a waiter spins (when the node's ranks do not outnumber its cores).
const SPIN: Duration = Duration::from_micros(30);
/// How long a waiter polls (spinning, then yielding) before it sleeps on the awaited rank's
/// futex word: on a loaded VM waking a sleeper costs tens of microseconds (measured: an
/// allreduce of 50 us with sleeping after 30 us, against 9 us for MPI's yielding waits).
const POLL: Duration = Duration::from_micros(200);
/// How long a sleeping waiter sleeps before it re-checks the command state and liveness.
const PARK_SLICE: Duration = Duration::from_millis(10);
/// How often a waiter checks that the peers it waits for are alive.
const LIVENESS_EVERY: Duration = Duration::from_millis(100);

/// A rank's control segment as seen from this process.
struct Ctl {
    base: *mut u8,
    /// Keeps the mapping alive.
    _map: Arc<Mapping>,
}

impl Ctl {
    fn new(map: Arc<Mapping>) -> Result<Ctl> {
        if map.len() < SEGMENT {
            return Err(Error::Io(format!(
                "node collectives: a control segment of {} bytes (need {SEGMENT})",
                map.len()
            )));
        }
        Ok(Ctl { base: map.ptr(), _map: map })
    }

    fn arrival(&self) -> &AtomicU64 {
        // SAFETY: offset 0 of a live, page-aligned mapping of at least SEGMENT bytes; every
        // party accesses the word only atomically.
        unsafe { AtomicU64::from_ptr(self.base.cast::<u64>()) }
    }

    /// The low 32 bits of the arrival, for sleepers to park on (`shm_futex.rs`).
    fn futex(&self) -> &AtomicU32 {
        // SAFETY: offset 64 of the mapping (4-aligned), inside the header; atomic access only.
        unsafe { AtomicU32::from_ptr(self.base.add(64).cast::<u32>()) }
    }

    /// How many peers sleep (or are about to) on [`Ctl::futex`].
    fn sleepers(&self) -> &AtomicU32 {
        // SAFETY: offset 128 of the mapping (4-aligned), inside the header; atomic access only.
        unsafe { AtomicU32::from_ptr(self.base.add(128).cast::<u32>()) }
    }

    /// Publishes arrival at collective `t` and wakes the peers sleeping on it.
    fn arrive(&self, t: u64) {
        self.arrival().store(t, Ordering::SeqCst);
        self.futex().store(t as u32, Ordering::SeqCst);
        // Pairs with the sleeper's increment then re-check (both SeqCst): either it sees
        // the arrival, or this load sees it counted.
        if self.sleepers().load(Ordering::SeqCst) != 0 {
            shm_futex::wake_all(self.futex());
        }
    }

    fn slot(&self, t: u64) -> *mut u8 {
        // SAFETY: `SLOTS_AT + (t % 2) * SLOT_STRIDE + SLOT_STRIDE <= SEGMENT`, within the mapping.
        unsafe { self.base.add(SLOTS_AT + (t % 2) as usize * SLOT_STRIDE) }
    }

    fn len_word(&self, t: u64) -> &AtomicU64 {
        // SAFETY: the first (8-aligned) word of a slot, inside the mapping; accessed
        // atomically by every party.
        unsafe { AtomicU64::from_ptr(self.slot(t).cast::<u64>()) }
    }

    /// The owner's note of its current collective (`coll_note.rs`) for round `t`.
    fn note_word(&self, t: u64) -> &AtomicU64 {
        // SAFETY: the second word of a slot, inside the mapping; accessed atomically.
        unsafe { AtomicU64::from_ptr(self.slot(t).cast::<u64>().add(1)) }
    }

    /// The payload of collective `t` (announced length `len <= SLOT`).
    ///
    /// # Safety
    /// The owner's arrival word was seen `>= t` with acquire ordering (so the payload is
    /// written), and this rank has not yet arrived at `t + 1` (so it is not being rewritten).
    unsafe fn payload(&self, t: u64, len: usize) -> &[u8] {
        // SAFETY: `len <= SLOT`, so the bytes lie in the slot; the caller's guarantees make
        // them stable for the borrow.
        unsafe { std::slice::from_raw_parts(self.slot(t).add(128), len.min(SLOT)) }
    }
}

// SAFETY: the control segments are shared memory accessed through atomics and the protocol
// above; the raw base pointer is only an address.
unsafe impl Send for Ctl {}
// SAFETY: as above.
unsafe impl Sync for Ctl {}

/// The shared-memory collectives of this rank (see the module docs).
pub(crate) struct NodeColl {
    rank: usize,
    /// Every rank's control segment (this rank's own mapping included), by rank.
    ctls: Vec<Ctl>,
    pids: Vec<u32>,
    /// The last ticket taken.
    ticket: AtomicU64,
    /// Whether this node's ranks outnumber its cores (waiters then yield rather than spin).
    oversubscribed: bool,
}

/// The outcome of one shared-memory round.
pub(crate) enum Round<'a> {
    /// Every payload fitted: the ranks' payloads, in rank order (valid until this rank's next
    /// collective, which the borrow of the `NodeColl` ensures is not started meanwhile).
    Small(Vec<&'a [u8]>),
    /// Some payload was too big: every rank runs the MPI collective instead.
    Big,
}

impl NodeColl {
    /// Sets up the control segments when every rank is a node peer of this one. **Collective**
    /// over `ctl`; `None` (on every rank alike) when off, when the job spans several nodes, or
    /// when a rank could not map a peer's segment.
    pub(crate) fn start(
        ctl: &raw::Comm,
        shm: Option<&NodeShm>,
        rank: usize,
        size: usize,
        config: &Config,
    ) -> Result<Option<NodeColl>> {
        let off = !config.mpi_shm_coll;
        // The same answer on every rank: node sharing is decided job-wide, and "all ranks on
        // one node" is the same fact everywhere. `off` comes from the launcher's environment.
        let Some(shm) = shm else { return Ok(None) };
        if off || size < 2 || (0..size).any(|r| r != rank && !shm.is_peer(r)) {
            return Ok(None);
        }
        let mine = shm.control_segment(SEGMENT);
        let token = mine.as_ref().map_or(0, |(_, t)| *t);
        let all = ctl.allgather(&token.to_le_bytes())?;
        let mut ctls = Vec::with_capacity(size);
        let mut ok = mine.is_ok();
        let mut mine = mine.ok().map(|(m, _)| m);
        for (r, b) in all.iter().enumerate() {
            if !ok {
                break;
            }
            let t = b.as_slice().try_into().map(u64::from_le_bytes).unwrap_or(0);
            let map = if r == rank { mine.take().map(Ok) } else { (t != 0).then(|| shm.map_control(r, t, SEGMENT)) };
            match map.map(|m| m.and_then(Ctl::new)) {
                Some(Ok(c)) => ctls.push(c),
                _ => ok = false,
            }
        }
        let verdicts = ctl.allgather(&[ok as u8])?;
        if !verdicts.iter().all(|v| v.first() == Some(&1)) {
            return Ok(None);
        }
        let cores = std::thread::available_parallelism().map(|c| c.get()).unwrap_or(1);
        Ok(Some(NodeColl {
            rank,
            ctls,
            pids: shm.pids().to_vec(),
            ticket: AtomicU64::new(0),
            oversubscribed: size > cores,
        }))
    }

    /// One round: publishes `mine` (or announces it as too big) and waits for every rank's.
    /// **Collective.** `abandon` is the command state (`abandon.rs`).
    pub(crate) fn round(&self, mine: &[u8], abandon: &dyn Abandon) -> Result<Round<'_>> {
        let t = self.ticket.fetch_add(1, Ordering::Relaxed) + 1;
        let me = &self.ctls[self.rank];
        if mine.len() <= SLOT {
            // SAFETY: the slot holds SLOT payload bytes after its 128-byte length line; no peer
            // reads slot `t % 2` of this rank before the arrival below (and none still reads
            // it from collective `t - 2`: see the module docs).
            unsafe { std::ptr::copy_nonoverlapping(mine.as_ptr(), me.slot(t).add(128), mine.len()) };
            me.len_word(t).store(mine.len() as u64, Ordering::Relaxed);
        } else {
            me.len_word(t).store(TOO_BIG, Ordering::Relaxed);
        }
        let note = coll_note::CURRENT.word();
        me.note_word(t).store(note, Ordering::Relaxed);
        me.arrive(t);
        self.wait_all(t, abandon)?;
        // Collectives called in different orders (checking off): every rank noted its own;
        // the first that differs from rank 0's is an error, as on the local backend. The
        // round itself completed, so later collectives stay in step.
        let first = self.ctls[0].note_word(t).load(Ordering::Relaxed);
        if let Some((l, w)) =
            self.ctls.iter().map(|c| c.note_word(t).load(Ordering::Relaxed)).enumerate().find(|&(_, w)| w != first)
        {
            let say = |r: usize, w: u64| {
                if r == self.rank {
                    coll_note::CURRENT.describe()
                } else {
                    coll_note::describe_word(w)
                }
            };
            return Err(Error::CollectiveMismatch {
                locale: l,
                seq: first & ((1 << coll_note::SEQ_BITS) - 1),
                expected: say(0, first),
                found: say(l, w),
            });
        }
        let mut out = Vec::with_capacity(self.ctls.len());
        for c in &self.ctls {
            let len = c.len_word(t).load(Ordering::Relaxed);
            if len == TOO_BIG {
                return Ok(Round::Big);
            }
            // SAFETY: `wait_all` saw this rank's arrival `>= t` (acquire); this rank arrives
            // at `t + 1` only in its next collective, which the returned borrow precedes.
            out.push(unsafe { c.payload(t, len as usize) });
        }
        Ok(Round::Small(out))
    }

    /// Waits until every rank has arrived at collective `t`: spins briefly (yields when the
    /// node's ranks outnumber its cores), yields a while, then sleeps on the awaited rank's futex word until
    /// it arrives, waking every [`PARK_SLICE`] to check for an abandoned command, and the
    /// rank's death.
    fn wait_all(&self, t: u64, abandon: &dyn Abandon) -> Result<()> {
        // Entered in the registry of waits (stall reports) only once the wait sleeps: the
        // registry's lock would cost a short collective a tenth of its time.
        let mut stall = None;
        let mut next_alive_check = Instant::now() + LIVENESS_EVERY;
        for (r, c) in self.ctls.iter().enumerate() {
            if c.arrival().load(Ordering::Acquire) >= t {
                continue;
            }
            // The arrival is checked after every pause: a pause takes ~65 cycles on AMD Zen,
            // so the 64 pauses between checks this loop used to make put ~1.4 us between an
            // arrival and its discovery (a barrier after a little work cost ~1.2 us against the
            // local backend's 0.35). While spinning, the clock and the command state are read
            // every 64 checks; while yielding (a system call anyway), at every check.
            let start = Instant::now();
            let mut k = 0u32;
            let mut yielding = self.oversubscribed;
            while c.arrival().load(Ordering::Acquire) < t {
                if yielding {
                    std::thread::yield_now();
                } else {
                    std::hint::spin_loop();
                }
                k = k.wrapping_add(1);
                if yielding || k % 64 == 0 {
                    let waited = start.elapsed();
                    if waited >= POLL {
                        break;
                    }
                    yielding |= waited >= SPIN;
                    if k % 256 == 0 {
                        abandon.check()?;
                    }
                }
            }
            while c.arrival().load(Ordering::Acquire) < t {
                stall.get_or_insert_with(|| waits::enter("a collective", waits::Kind::Collective, None));
                c.sleepers().fetch_add(1, Ordering::SeqCst);
                let seen = c.futex().load(Ordering::SeqCst);
                if c.arrival().load(Ordering::SeqCst) < t {
                    shm_futex::wait(c.futex(), seen, PARK_SLICE);
                }
                c.sleepers().fetch_sub(1, Ordering::SeqCst);
                // Collectives that another rank's failure abandoned give up (its arrival may
                // never come).
                abandon.check()?;
                if Instant::now() >= next_alive_check {
                    next_alive_check = Instant::now() + LIVENESS_EVERY;
                    self.check_alive(r)?;
                }
            }
        }
        Ok(())
    }

    /// An error if rank `r`'s process is gone (it cannot arrive any more).
    fn check_alive(&self, r: usize) -> Result<()> {
        let pid = self.pids.get(r).copied().unwrap_or(0);
        if super::shm::process_exited(pid) {
            return Err(Error::Comm {
                locale: self.rank,
                message: format!("node collective: locale {r} (pid {pid}) exited while this locale waited for it"),
            });
        }
        Ok(())
    }

    /// This rank's last ticket (for [`NodeColl::resync`]).
    pub(crate) fn ticket(&self) -> u64 {
        self.ticket.load(Ordering::Relaxed)
    }

    /// Moves this rank to ticket `base`, which every rank must pass alike after an abandoned
    /// command: the largest ticket any rank had taken (every arrival published so far is at
    /// most that, so none satisfies a wait for a later collective). Only at the command
    /// boundary, while no collective of this rank is running.
    pub(crate) fn resync(&self, base: u64) {
        self.ticket.store(base, Ordering::Relaxed);
    }
}
