//! Active messages between MPI ranks of one node through shared memory (issue 15): requests,
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
//!   computing threads needed (docs/BENCHMARKS.md, session 16).
//! - **Ending.** A rank whose progress thread has stopped marks its rings `closed`; a producer
//!   waiting for space in a closed ring, or in the ring of a rank whose process is gone, gets
//!   a `Comm` error instead of waiting forever.
//!
//! Every `unsafe` block is a load, store or copy inside a ring of a segment mapped by
//! `shm.rs`, at offsets inside the fixed layout.

use super::raw;
use super::shm::{Mapping, NodeShm};
use super::shm_futex;
use crate::config::Config;
use crate::sync::Arc;
use crate::sync::AtomicU32;
use crate::sync::{lock, AtomicU64, Backoff, Mutex, Ordering};
use atoll_error::{Error, Result};
use std::time::{Duration, Instant};

/// Data bytes of one ring.
pub(crate) const RING: usize = 256 << 10;
/// Header bytes of a ring: `head`, `tail` and `closed` each on a cache line of its own.
const HEADER: usize = 256;
/// Bytes from one ring to the next in an inbox.
const STRIDE: usize = HEADER + RING;
/// Bytes of a message's frame: the tag (4 bytes, then 4 unused) and the payload length.
const FRAME: usize = 16;
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

    fn head(&self) -> &AtomicU64 {
        self.word(0)
    }

    fn tail(&self) -> &AtomicU64 {
        self.word(1)
    }

    fn closed(&self) -> &AtomicU64 {
        self.word(2)
    }

    /// The inbox's doorbell, when this is the inbox's first ring (see the module docs).
    fn bell(&self) -> &AtomicU32 {
        // SAFETY: a 4-aligned word at the start of the fourth header line (`3 * 64 < HEADER`),
        // inside the mapping (see `new`); every party accesses it atomically.
        unsafe { AtomicU32::from_ptr(self.base.add(3 * 64).cast::<u32>()) }
    }

    /// Copies `src` into the ring from stream position `pos` on, wrapping.
    ///
    /// # Safety
    /// The bytes `pos..pos + src.len()` are free (the consumer's `head` is at least
    /// `pos + src.len() - cap`) and only this producer writes them.
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

    /// Copies the bytes from stream position `pos` on into `dst`, wrapping.
    ///
    /// # Safety
    /// The bytes `pos..pos + dst.len()` were published (`tail` seen with acquire ordering at
    /// or past their end) and not yet released (`head` not past `pos`).
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
        let mut frame = [0u8; FRAME];
        frame[..4].copy_from_slice(&tag.to_le_bytes());
        frame[8..].copy_from_slice(&(payload.len() as u64).to_le_bytes());
        let _guard = lock(&self.lock);
        produce(&self.ring, self.first.bell(), [&frame, payload], || self.check(target))
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

/// Wakes the consumer sleeping on `bell`, if it is (see the module docs: the caller has just
/// published a `tail`).
fn ring_bell(bell: &AtomicU32) {
    crate::sync::fence(Ordering::SeqCst);
    if bell.load(Ordering::Relaxed) != 0 && bell.swap(0, Ordering::SeqCst) != 0 {
        shm_futex::wake_all(bell);
    }
}

/// The consumer's side of the doorbell: announces the sleep on `bell`, then sleeps for at
/// most `timeout` unless `waiting` (whether a ring has unread bytes) says a message already
/// came (see the module docs).
fn park_on(bell: &AtomicU32, waiting: impl Fn() -> bool, timeout: Duration) {
    bell.store(1, Ordering::Relaxed);
    crate::sync::fence(Ordering::SeqCst);
    if !waiting() {
        shm_futex::wait(bell, 1, timeout);
    }
    bell.store(0, Ordering::Relaxed);
}

/// Copies `parts` into `ring` as one stream, publishing `tail` (and ringing `bell`) whenever
/// the ring fills and at the end; while it is full, backs off politely and runs `check` about
/// every [`LIVENESS_EVERY`]. The caller is the ring's only producer.
fn produce(ring: &Ring, bell: &AtomicU32, parts: [&[u8]; 2], check: impl Fn() -> Result<()>) -> Result<()> {
    let mut tail = ring.tail().load(Ordering::Relaxed);
    let mut backoff = Backoff::new();
    let mut next_check = Instant::now() + LIVENESS_EVERY;
    for mut bytes in parts {
        while !bytes.is_empty() {
            let head = ring.head().load(Ordering::Acquire);
            let free = ring.cap - (tail - head) as usize;
            if free == 0 {
                ring.tail().store(tail, Ordering::Release);
                ring_bell(bell);
                backoff.snooze();
                if Instant::now() >= next_check {
                    next_check = Instant::now() + LIVENESS_EVERY;
                    check()?;
                }
                continue;
            }
            backoff.reset();
            let n = free.min(bytes.len());
            // SAFETY: `n <= free` bytes from `tail` on are free (the consumer released them:
            // `head` seen with acquire ordering), and this is the ring's only producer.
            unsafe { ring.write_at(tail, &bytes[..n]) };
            tail += n as u64;
            bytes = &bytes[n..];
        }
    }
    ring.tail().store(tail, Ordering::Release);
    ring_bell(bell);
    Ok(())
}

/// The consumer's end of a ring (one node peer's messages to this rank).
struct Inbound {
    ring: Ring,
    src: usize,
    /// Bytes consumed (published as the ring's `head`).
    head: u64,
    /// The frame being read, and how many of its bytes have arrived.
    frame: [u8; FRAME],
    frame_have: usize,
    /// The message being read: its tag, its length and the payload so far.
    partial: Option<(u32, usize, Vec<u8>)>,
}

impl Inbound {
    fn new(ring: Ring, src: usize) -> Inbound {
        let head = ring.head().load(Ordering::Relaxed);
        Inbound { ring, src, head, frame: [0; FRAME], frame_have: 0, partial: None }
    }

    /// Reads what has arrived; a whole message when one is complete. Never waits.
    fn poll(&mut self) -> Option<(u32, Vec<u8>)> {
        let tail = self.ring.tail().load(Ordering::Acquire);
        let mut done = None;
        while self.head < tail && done.is_none() {
            let avail = (tail - self.head) as usize;
            match &mut self.partial {
                None => {
                    let n = (FRAME - self.frame_have).min(avail);
                    // SAFETY: `n <= avail` bytes from `head` on are published (`tail` loaded
                    // with acquire ordering) and not yet released.
                    unsafe { self.ring.read_at(self.head, &mut self.frame[self.frame_have..self.frame_have + n]) };
                    self.head += n as u64;
                    self.frame_have += n;
                    if self.frame_have == FRAME {
                        self.frame_have = 0;
                        let tag = u32::from_le_bytes(self.frame[..4].try_into().expect("4 bytes"));
                        let len = u64::from_le_bytes(self.frame[8..].try_into().expect("8 bytes")) as usize;
                        if len == 0 {
                            done = Some((tag, Vec::new()));
                        } else {
                            self.partial = Some((tag, len, Vec::with_capacity(len)));
                        }
                    }
                }
                Some((tag, len, buf)) => {
                    let n = (*len - buf.len()).min(avail);
                    let old = buf.len();
                    buf.resize(old + n, 0);
                    // SAFETY: as above.
                    unsafe { self.ring.read_at(self.head, &mut buf[old..]) };
                    self.head += n as u64;
                    if buf.len() == *len {
                        let (tag, buf) = (*tag, std::mem::take(buf));
                        self.partial = None;
                        done = Some((tag, buf));
                    }
                }
            }
        }
        // Frees what was read for the producer.
        self.ring.head().store(self.head, Ordering::Release);
        done
    }
}

/// The shared-memory active messages of this rank (see the module docs).
pub(crate) struct NodeAm {
    /// By target rank: the ring into that node peer's inbox (`None`: not a node peer, or
    /// this rank itself).
    out: Vec<Option<Outbound>>,
    /// The rings of this rank's inbox that node peers write, and where to start the next
    /// poll (round robin, so that a busy peer does not starve the others).
    inbox: Mutex<(Vec<Inbound>, usize)>,
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
            .map(|(i, &r)| Inbound::new(unsafe { Ring::new(mine.ptr().add(i * STRIDE), RING) }, r))
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
            if let Some((tag, buf)) = rings[j].poll() {
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
        park_on(
            self.first.bell(),
            || lock(&self.inbox).0.iter().any(|r| r.ring.tail().load(Ordering::Relaxed) != r.head),
            timeout,
        );
    }

    /// Wakes this rank's progress thread if it sleeps in [`NodeAm::park`] (its own rank has
    /// something for it: the end of the job, a reason to poll MPI).
    pub(crate) fn ring(&self) {
        ring_bell(self.first.bell());
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

    /// A ring of `cap` data bytes on the heap (64-byte aligned, zeroed).
    fn heap_ring(cap: usize) -> (Vec<u64>, Ring, Ring) {
        let mut mem = vec![0u64; (HEADER + cap).div_ceil(8) + 8];
        let base = mem.as_mut_ptr() as *mut u8;
        let base = base.wrapping_add(base.align_offset(64));
        // SAFETY: aligned to 64 inside `mem` (8 spare words), HEADER + cap bytes, zeroed;
        // `mem` outlives both rings in each test (returned with them, dropped last).
        let (a, b) = unsafe { (Ring::new(base, cap), Ring::new(base, cap)) };
        (mem, a, b)
    }

    fn message(i: usize) -> (u32, Vec<u8>) {
        let len = match i % 5 {
            0 => 0,
            1 => 1,
            2 => 13,
            3 => 200,
            _ => 1000 + i * 7,
        };
        ((i % 7) as u32, (0..len).map(|k| (k * 31 + i) as u8).collect())
    }

    #[test]
    fn messages_of_any_size_pass_a_small_ring_in_order() {
        for cap in [64usize, 100, 4096] {
            let (_mem, prod, cons) = heap_ring(cap);
            let n = 300;
            let bell = AtomicU32::new(0);
            std::thread::scope(|s| {
                s.spawn(|| {
                    for i in 0..n {
                        let (tag, p) = message(i);
                        let mut frame = [0u8; FRAME];
                        frame[..4].copy_from_slice(&tag.to_le_bytes());
                        frame[8..].copy_from_slice(&(p.len() as u64).to_le_bytes());
                        produce(&prod, &bell, [&frame, &p], || Ok(())).unwrap();
                    }
                });
                let mut inb = Inbound::new(cons, 1);
                let mut got = 0;
                while got < n {
                    if let Some((tag, buf)) = inb.poll() {
                        assert_eq!((tag, buf), message(got), "cap {cap}, message {got}");
                        got += 1;
                    }
                }
                assert!(inb.poll().is_none());
            });
        }
    }

    /// A consumer sleeping on the doorbell (with a timeout far longer than the test) wakes
    /// when a message is published, and does not sleep when one is already there: the bound
    /// below is only reached if a wake-up is lost.
    #[test]
    fn the_doorbell_wakes_a_parked_consumer_and_misses_no_message() {
        const LONG: Duration = Duration::from_secs(60);
        for round in 0..50 {
            let (_mem, prod, cons) = heap_ring(4096);
            let bell = AtomicU32::new(0);
            let start = Instant::now();
            std::thread::scope(|s| {
                s.spawn(|| {
                    // Sometimes before the consumer parks, sometimes after.
                    if round % 2 == 1 {
                        std::thread::sleep(Duration::from_millis(2));
                    }
                    produce(&prod, &bell, [&[1u8; FRAME], &[]], || Ok(())).unwrap();
                });
                let inb = Inbound::new(cons, 1);
                while inb.ring.tail().load(Ordering::Acquire) == inb.head {
                    park_on(&bell, || inb.ring.tail().load(Ordering::Relaxed) != inb.head, LONG);
                }
            });
            assert!(start.elapsed() < LONG / 2, "round {round}: the consumer slept through a message");
            assert_eq!(bell.load(Ordering::Relaxed), 0);
        }
    }

    #[test]
    fn a_producer_facing_a_closed_full_ring_gets_an_error() {
        let (_mem, prod, cons) = heap_ring(64);
        cons.closed().store(1, Ordering::Release);
        let check = || {
            if prod.closed().load(Ordering::Acquire) != 0 {
                Err(Error::Comm { locale: 1, message: "closed".into() })
            } else {
                Ok(())
            }
        };
        let big = vec![7u8; 1000];
        let e = produce(&prod, &AtomicU32::new(0), [&[], &big], check).unwrap_err();
        assert!(matches!(e, Error::Comm { .. }), "{e}");
    }
}
