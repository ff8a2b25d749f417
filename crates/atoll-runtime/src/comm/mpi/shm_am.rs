//! Active messages between MPI ranks of one node through shared memory: requests,
//! replies and the control messages (wake-up, abort, end of job) between node peers travel
//! through byte rings in node-shared memory instead of `MPI_Send` / `MPI_Improbe`, so a
//! sender takes no MPI lock (MPICH serializes `MPI_THREAD_MULTIPLE` calls, and the receiving
//! rank's progress thread is in `MPI_Improbe` most of the time) and a receiver polls a few
//! words per peer.
//!
//! - **Where.** Between ranks that share a node when node sharing works (`shm.rs`); ranks on
//!   other nodes, and every rank with `ATOLL_MPI_SHM_AM=0`, use MPI as before. The choice is
//!   per pair and symmetric, so each pair uses one transport for everything it sends, and
//!   messages of a pair arrive in the order they were sent, as MPI's non-overtaking rule
//!   promised (the end-of-job protocol in `mod.rs` relies on it).
//! - **Layout.** Each rank owns one *inbox* segment (a `memfd` made and mapped by `shm.rs`,
//!   mapped by its node peers at start) holding one ring per rank of the node, indexed by
//!   the sender's position among the node's ranks. A ring is a header (the consumer's `head`
//!   and the producer's `tail` on cache lines of their own, and a `closed` word) and
//!   [`RING`] data bytes. `head` and `tail` count bytes since the start, so
//!   `tail - head` bytes are unread and the ring is full at [`RING`]. The fourth header line
//!   of the inbox's first ring holds the inbox's **doorbell** (below).
//! - **Protocol** (one producer, one consumer per ring). A message is a 16-byte frame (tag,
//!   length) and its payload, written as one byte stream: the producer copies as much as
//!   fits, publishes `tail` (release) and waits for space for the rest, so a message of any
//!   size passes through; the sending rank's threads take a per-target lock for the whole
//!   message, so messages never interleave. The consumer (the rank's progress thread, or a
//!   thread of the rank waiting for a reply or idle in its handler pool, one at a time under
//!   the inbox's lock: `mod.rs`, `wait_poll`) reads what `tail` (acquire) covers, keeps a partial message per ring, and publishes `head`
//!   (release) as it copies, freeing space for the producer. It never waits on a ring.
//! - **Doorbell.** An idle consumer does not poll: it sets the doorbell word to 1, looks at
//!   every ring once more, and sleeps on the word (a futex, `shm_futex.rs`) for at most the
//!   given timeout. A producer that has published `tail` swaps the word to 0 and, if it was 1,
//!   wakes the consumer. A sequentially consistent fence on each side between its store and
//!   its load (Dekker's pattern) means that either the consumer sees the new `tail` or the
//!   producer sees the 1; a wake that comes before the sleep finds the word already 0, and
//!   the futex does not sleep. So a sleeping progress thread costs no core and a message
//!   wakes it within a futex wake-up, where polling hot took a share of a core that the
//!   computing threads needed (measured on a 2-vCPU guest).
//! - **Ending.** A rank whose progress thread has stopped marks its rings `closed`; a producer
//!   waiting for space in a closed ring, or in the ring of a rank whose process is gone, gets
//!   a `Comm` error instead of waiting forever.
//!
//! The ring's protocol (producer, consumer, doorbell) is `comm/byte_ring.rs`, apart from the
//! memory it lives in, so that it is tested without MPI and model-checked with loom; this
//! module lays the rings out in the inboxes and connects them to MPI ranks.
//!
//! Every `unsafe` block is a load, store or copy inside a ring of a segment mapped by
//! `shm.rs`, at offsets inside the fixed layout.

use super::raw;
use super::shm::{Mapping, NodeShm};
use super::shm_futex;
use crate::comm::byte_ring::{self, Bell, Inbound, RingMem};
use crate::config::Config;
use crate::sync::model::{AtomicU32, AtomicU64};
use crate::sync::Arc;
use crate::sync::{lock, Backoff, Mutex, Ordering};
use atoll_error::{Error, Result};
use std::time::{Duration, Instant};

/// Data bytes of one ring.
pub(crate) const RING: usize = 256 << 10;
/// Header bytes of a ring: `head`, `tail` and `closed` each on a cache line of its own.
const HEADER: usize = 256;
/// Bytes from one ring to the next in an inbox.
const STRIDE: usize = HEADER + RING;
/// How often a producer waiting for space checks that the consumer's process is alive.
const LIVENESS_EVERY: Duration = Duration::from_millis(100);

/// One ring in memory that two processes (or, in tests, two threads) map.
struct Ring {
    base: *mut u8,
    cap: usize,
}

// SAFETY: the ring is shared memory accessed through atomics and the single-producer,
// single-consumer protocol of the module docs; the pointer is only an address.
unsafe impl Send for Ring {}
// SAFETY: as above.
unsafe impl Sync for Ring {}

impl Ring {
    /// # Safety
    /// `base` is 64-byte aligned and `HEADER + cap` bytes from it are mapped, writable and
    /// zeroed when the ring is first used, for as long as the `Ring` lives.
    unsafe fn new(base: *mut u8, cap: usize) -> Ring {
        Ring { base, cap }
    }

    fn word(&self, line: usize) -> &AtomicU64 {
        // SAFETY: `line < 3`: an 8-aligned word at the start of a header cache line, inside
        // the mapping (see `new`); every party accesses it atomically.
        unsafe { AtomicU64::from_ptr(self.base.add(line * 64).cast::<u64>()) }
    }

    fn closed(&self) -> &AtomicU64 {
        self.word(2)
    }

    /// The inbox's doorbell, when this is the inbox's first ring (see the module docs).
    fn bell(&self) -> FutexBell<'_> {
        // SAFETY: a 4-aligned word at the start of the fourth header line (`3 * 64 < HEADER`),
        // inside the mapping (see `new`); every party accesses it atomically.
        FutexBell(unsafe { AtomicU32::from_ptr(self.base.add(3 * 64).cast::<u32>()) })
    }
}

impl RingMem for Ring {
    fn head(&self) -> &AtomicU64 {
        self.word(0)
    }

    fn tail(&self) -> &AtomicU64 {
        self.word(1)
    }

    fn cap(&self) -> usize {
        self.cap
    }

    unsafe fn write_at(&self, pos: u64, src: &[u8]) {
        let at = (pos % self.cap as u64) as usize;
        let first = src.len().min(self.cap - at);
        // SAFETY: both ranges lie in the data area (`at + first <= cap`,
        // `src.len() - first <= cap`); the caller guarantees no one reads them now.
        unsafe {
            let data = self.base.add(HEADER);
            std::ptr::copy_nonoverlapping(src.as_ptr(), data.add(at), first);
            std::ptr::copy_nonoverlapping(src.as_ptr().add(first), data, src.len() - first);
        }
    }

    unsafe fn read_at(&self, pos: u64, dst: &mut [u8]) {
        let at = (pos % self.cap as u64) as usize;
        let first = dst.len().min(self.cap - at);
        // SAFETY: as in `write_at`, with the roles swapped.
        unsafe {
            let data = self.base.add(HEADER);
            std::ptr::copy_nonoverlapping(data.add(at), dst.as_mut_ptr(), first);
            std::ptr::copy_nonoverlapping(data, dst.as_mut_ptr().add(first), dst.len() - first);
        }
    }
}

/// An inbox's doorbell: a futex word in its first ring's header, shared by processes.
struct FutexBell<'a>(&'a AtomicU32);

impl Bell for FutexBell<'_> {
    fn word(&self) -> &AtomicU32 {
        self.0
    }

    fn sleep(&self, expected: u32, timeout: Duration) {
        shm_futex::wait(self.0, expected, timeout);
    }

    fn wake_all(&self) {
        shm_futex::wake_all(self.0);
    }
}

/// The producer's end of a ring (this rank's messages to one node peer).
struct Outbound {
    ring: Ring,
    /// The first ring of the peer's inbox, whose header holds the inbox's doorbell.
    first: Ring,
    /// The peer's process id (0: unknown), checked while waiting for space.
    pid: u32,
    /// Held for a whole message, so that messages of this rank's threads never interleave.
    lock: Mutex<()>,
    /// Keeps the peer's inbox mapped.
    _map: Arc<Mapping>,
}

impl Outbound {
    /// Writes one message (frame and payload). Waits while the ring is full.
    fn send(&self, target: usize, tag: u32, payload: &[u8]) -> Result<()> {
        let frame = byte_ring::frame(tag, payload.len());
        let _guard = lock(&self.lock);
        // While the ring is full: back off politely, and check about every LIVENESS_EVERY
        // that the consumer still reads.
        let mut backoff = Backoff::new();
        let mut next_check = Instant::now() + LIVENESS_EVERY;
        byte_ring::produce(&self.ring, &self.first.bell(), [&frame, payload], || {
            backoff.snooze();
            if Instant::now() >= next_check {
                next_check = Instant::now() + LIVENESS_EVERY;
                self.check(target)?;
            }
            Ok(())
        })
    }

    /// An error if the peer stopped reading or its process is gone.
    fn check(&self, target: usize) -> Result<()> {
        if self.ring.closed().load(Ordering::Acquire) != 0 {
            return Err(Error::Comm {
                locale: target,
                message: format!("locale {target} has ended its job; an active message to it cannot be delivered"),
            });
        }
        if super::shm::process_exited(self.pid) {
            return Err(Error::Comm {
                locale: target,
                message: format!("locale {target} (pid {}) exited with active messages to it unread", self.pid),
            });
        }
        Ok(())
    }
}

/// The consumer's end of a ring (one node peer's messages to this rank).
struct Peer {
    inbound: Inbound<Ring>,
    /// The sending rank.
    src: usize,
}

/// The shared-memory active messages of this rank (see the module docs).
pub(crate) struct NodeAm {
    /// By target rank: the ring into that node peer's inbox (`None`: not a node peer, or
    /// this rank itself).
    out: Vec<Option<Outbound>>,
    /// The rings of this rank's inbox that node peers write, and where to start the next
    /// poll (round robin, so that a busy peer does not starve the others).
    inbox: Mutex<(Vec<Peer>, usize)>,
    /// Keeps this rank's inbox mapped.
    mine: Arc<Mapping>,
    /// The first ring of this rank's inbox, whose header holds its doorbell.
    first: Ring,
    members: usize,
    /// Whether every other rank of the job is a node peer (then no message comes through MPI).
    everyone: bool,
}

impl NodeAm {
    /// Sets up the inboxes of this node's ranks. **Collective** over `ctl`; `None` (on every
    /// rank alike) when off (`ATOLL_MPI_SHM_AM=0`), without node sharing, or when a rank
    /// could not map a peer's inbox.
    pub(crate) fn start(
        ctl: &raw::Comm,
        shm: Option<&NodeShm>,
        rank: usize,
        size: usize,
        config: &Config,
    ) -> Result<Option<NodeAm>> {
        let off = !config.mpi_shm_am;
        // `shm` is decided job-wide and `off` comes from the launcher's environment: the same
        // branch on every rank.
        let Some(shm) = shm else { return Ok(None) };
        if off || size < 2 {
            return Ok(None);
        }
        // The ranks of this node in rank order (the same list on each of them): a ring's
        // index in an inbox is its sender's position here.
        let members: Vec<usize> = (0..size).filter(|&r| r == rank || shm.is_peer(r)).collect();
        let slot = |r: usize| members.iter().position(|&m| m == r);
        let bytes = members.len() * STRIDE;
        let mine = shm.control_segment(bytes);
        let token = mine.as_ref().map_or(0, |(_, t)| *t);
        let all = ctl.allgather(&token.to_le_bytes())?;
        // A short inbox (never expected) counts as a failure to set up, decided with the rest.
        let mut ok = mine.as_ref().is_ok_and(|(m, _)| m.len() >= bytes);
        let mut out: Vec<Option<Outbound>> = (0..size).map(|_| None).collect();
        let my_slot = slot(rank).unwrap_or(0);
        for (r, b) in all.iter().enumerate() {
            if !ok || r == rank || !shm.is_peer(r) {
                continue;
            }
            let t = b.as_slice().try_into().map(u64::from_le_bytes).unwrap_or(0);
            match (t != 0).then(|| shm.map_control(r, t, bytes)) {
                Some(Ok(map)) if map.len() >= bytes => {
                    // SAFETY: the ring of this rank's slot lies inside the peer's inbox
                    // (`my_slot < members.len()`), page-aligned plus a multiple of STRIDE
                    // (64-aligned), zeroed at creation, mapped while `_map` lives.
                    let ring = unsafe { Ring::new(map.ptr().add(my_slot * STRIDE), RING) };
                    // SAFETY: the inbox's first ring, at the start of the same mapping.
                    let first = unsafe { Ring::new(map.ptr(), RING) };
                    let pid = shm.pids().get(r).copied().unwrap_or(0);
                    out[r] = Some(Outbound { ring, first, pid, lock: Mutex::new(()), _map: map });
                }
                _ => ok = false,
            }
        }
        let verdicts = ctl.allgather(&[ok as u8])?;
        if !verdicts.iter().all(|v| v.first() == Some(&1)) {
            return Ok(None);
        }
        // Every rank's verdict was `ok`, so this rank's inbox exists and is long enough.
        let Ok((mine, _)) = mine else { return Ok(None) };
        let inbox = members
            .iter()
            .enumerate()
            .filter(|&(_, &r)| r != rank)
            // SAFETY: slot `i < members.len()` of this rank's own inbox, as above.
            .map(|(i, &r)| Peer {
                inbound: Inbound::new(unsafe { Ring::new(mine.ptr().add(i * STRIDE), RING) }),
                src: r,
            })
            .collect();
        // SAFETY: slot 0 of this rank's own inbox, as above.
        let first = unsafe { Ring::new(mine.ptr(), RING) };
        let everyone = members.len() == size;
        Ok(Some(NodeAm { out, inbox: Mutex::new((inbox, 0)), mine, first, members: members.len(), everyone }))
    }

    /// Whether messages to `target` go through shared memory.
    #[inline]
    pub(crate) fn reaches(&self, target: usize) -> bool {
        matches!(self.out.get(target), Some(Some(_)))
    }

    /// Sends one message to node peer `target` (see [`NodeAm::reaches`]).
    pub(crate) fn send(&self, target: usize, tag: i32, payload: &[u8]) -> Result<()> {
        match self.out.get(target) {
            Some(Some(o)) => o.send(target, tag as u32, payload),
            _ => Err(Error::Comm { locale: target, message: format!("locale {target} is not a node peer") }),
        }
    }

    /// The next complete message from any node peer: (source rank, tag, payload). Never waits.
    /// Called by the progress thread, and by threads waiting for a reply and idle handler
    /// threads (`mod.rs`, `wait_poll`); the inbox's lock makes them one consumer, taking each
    /// peer's messages in order.
    pub(crate) fn try_recv(&self) -> Option<(usize, i32, Vec<u8>)> {
        let mut g = lock(&self.inbox);
        let (rings, next) = &mut *g;
        let k = rings.len();
        for i in 0..k {
            let j = (*next + i) % k;
            if let Some((tag, buf)) = rings[j].inbound.poll() {
                *next = (j + 1) % k;
                return Some((rings[j].src, tag as i32, buf));
            }
        }
        None
    }

    /// Whether every other rank of the job is a node peer, so that every message to this rank
    /// comes through its inbox (and rings its doorbell).
    pub(crate) fn reaches_everyone(&self) -> bool {
        self.everyone
    }

    /// Sleeps until a node peer's message arrives (or [`NodeAm::ring`] is called), for at
    /// most `timeout`; returns at once if a message is already waiting. Called by the
    /// progress thread only (see the module docs for why no message is missed).
    pub(crate) fn park(&self, timeout: Duration) {
        byte_ring::park_on(&self.first.bell(), || lock(&self.inbox).0.iter().any(|p| p.inbound.has_unread()), timeout);
    }

    /// Wakes this rank's progress thread if it sleeps in [`NodeAm::park`] (its own rank has
    /// something for it: the end of the job, a reason to poll MPI).
    pub(crate) fn ring(&self) {
        byte_ring::ring_bell(&self.first.bell());
    }

    /// Marks this rank's rings closed: producers waiting for space give up with an error.
    /// Called once the progress thread has stopped reading.
    pub(crate) fn close(&self) {
        for i in 0..self.members {
            // SAFETY: slot `i` of this rank's own inbox, mapped while `self.mine` lives.
            let ring = unsafe { Ring::new(self.mine.ptr().add(i * STRIDE), RING) };
            ring.closed().store(1, Ordering::Release);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rings of an inbox laid out as in shared memory (heap here): messages of any size
    /// pass in order, the doorbell lives in the first ring's header, and a producer facing a
    /// closed full ring gets an error. The protocol itself is tested in `byte_ring.rs`.
    #[test]
    fn rings_in_an_inbox_layout_carry_messages_and_report_closed_peers() {
        let cap = 100;
        let mut mem = vec![0u64; (2 * (HEADER + cap)).div_ceil(8) + 8];
        let base = mem.as_mut_ptr() as *mut u8;
        let base = base.wrapping_add(base.align_offset(64));
        // SAFETY: two rings (64-aligned, HEADER + cap bytes each, zeroed) inside `mem`, which
        // outlives them.
        let (first, prod, cons) = unsafe {
            (Ring::new(base, cap), Ring::new(base.add(HEADER + cap), cap), Ring::new(base.add(HEADER + cap), cap))
        };
        let mut inb = Inbound::new(cons);
        std::thread::scope(|s| {
            s.spawn(|| {
                for i in 0..50u32 {
                    let payload: Vec<u8> = (0..i * 7).map(|k| k as u8).collect();
                    let f = byte_ring::frame(i, payload.len());
                    byte_ring::produce(&prod, &first.bell(), [&f, &payload], || {
                        std::thread::yield_now();
                        Ok(())
                    })
                    .unwrap();
                }
            });
            let mut got = 0u32;
            while got < 50 {
                if let Some((tag, buf)) = inb.poll() {
                    assert_eq!((tag, buf.len()), (got, got as usize * 7));
                    assert!(buf.iter().enumerate().all(|(k, &b)| b == k as u8));
                    got += 1;
                }
            }
        });
        assert_eq!(first.bell().word().load(Ordering::Relaxed), 0);
        inb.ring().closed().store(1, Ordering::Release);
        let check = || {
            if prod.closed().load(Ordering::Acquire) != 0 {
                Err(Error::Comm { locale: 1, message: "closed".into() })
            } else {
                Ok(())
            }
        };
        let e = byte_ring::produce(&prod, &first.bell(), [&[], &[7u8; 1000]], check).unwrap_err();
        assert!(matches!(e, Error::Comm { .. }), "{e}");
        drop(mem);
    }
}
