//! The MPI backend: one locale per rank.
//!
//! - **RMA**: one dynamic window (`MPI_Win_create_dynamic`) per job, in a passive-target epoch
//!   (`MPI_Win_lock_all`) for its whole life; registered regions are attached once
//!   (`MPI_Win_attach`, through the registration table) and addressed by their absolute
//!   addresses. Strided transfers are one `MPI_Get`/`MPI_Put` with a nested hvector datatype.
//! - **Atomics**: `MPI_Fetch_and_op` and `MPI_Compare_and_swap` on 64-bit words.
//! - **Active messages**: between node peers through byte rings in shared memory
//!   (`shm_am.rs`; `ATOLL_MPI_SHM_AM=0` turns it off), else two-sided messages on their own
//!   communicator. A **progress thread** polls the rings and receives the MPI ones
//!   (`MPI_Improbe` + `MPI_Mrecv`) and hands requests to the locale's handler
//!   threads; replies are routed to the waiting caller by request id. Where every rank is a
//!   node peer, a thread waiting for a reply and an idle handler thread also take messages
//!   from the inbox themselves (`wait_poll`), saving the hand-offs through the progress
//!   thread. The same polling also
//!   drives MPI's progress for RMA that targets this rank (MPICH implements RMA on dynamic
//!   windows with messages the target must progress). The thread is *hot* (polls, yielding
//!   the core between polls) for `progress_hot_ms` after any message, and *cold* otherwise
//!   (sleeps with growing pauses up to 1 ms), so an idle rank costs almost nothing. Origins
//!   send a tiny wake-up message before a burst of requests to a cold target (at most once per
//!   half hot period), which keeps the targets of active communication hot. When every rank
//!   is a node peer, every message arrives through the inbox, whose doorbell wakes a sleeping
//!   thread: the thread then polls only briefly after a message ([`LINGER`]) and sleeps on its
//!   inbox (at most [`PARK`]), and is hot only when a wake-up or a request to a rank off the
//!   node needs MPI polled. Polling hot after every node-peer message took 30-60% of a core
//!   on 2 cores with 2 ranks, slowing the computing threads (measured on a 2-vCPU guest).
//! - **Collectives**: non-blocking MPI collectives on their own communicator, waited for with
//!   polite polling (no busy core while waiting).
//! - **Failed driver commands** (`abandon.rs`): a rank whose part fails sends `TAG_ABORT` to
//!   every rank; their collectives of the command give up with `CommandFailed` (leaving the
//!   requests pending), and at the command boundary every rank moves its collectives to a
//!   fresh duplicate of a control communicator that collectives never use.
//! - **Failures**: a failing rank prints its message and calls `MPI_Abort`; `mpiexec` ends the
//!   other ranks. A rank that dies is detected by `mpiexec`, which ends the job. A rank or
//!   host that becomes unreachable (a crashed host, a cut link) is detected by the peer watch
//!   (`watch.rs`: heartbeats on TCP links of its own, no MPI), which ends the job after
//!   `Config::peer_timeout`, naming the rank, its host and what this rank was waiting for;
//!   the same thread reports waits that stall (collectives, RMA flushes, sends).
//! - **Exit**: a process that exits while its job runs ends with `_exit` (`raw::at_exit`):
//!   MPI is not finalized under threads that may be inside it.

mod abandon;
#[cfg(feature = "bench")]
pub mod baseline;

// The loom models (`make loom`) replace the primitives of the byte ring, which this backend
// maps onto shared memory with std's atomics: they run without MPI.
#[cfg(loom)]
compile_error!("the loom models run without the `mpi` feature");
mod raw;
mod shm;
mod shm_am;
mod shm_coll;
mod shm_futex;
mod shm_pool;
mod watch;

use super::wire::{decode, decode_result, encode, encode_result_into, handler_id};
use super::ServedLocale;
use super::{
    memcopy, ActiveMessages, Atomics, Backend, Collectives, CommandAbandonment, PendingReply, Registration, Rma,
    SharedAlloc, Strided,
};
use crate::config::Config;
use crate::locale::topology::Machine;
use crate::sync::{lock, Arc, AtomicBool, AtomicU64, Backoff, Mutex, Ordering, Weak};
use atoll_error::{Error, Result};
use std::collections::HashMap;
use std::sync::mpsc::Sender;
use std::sync::OnceLock;
use std::time::Instant;

const TAG_REQ: i32 = 1;
const TAG_REPLY: i32 = 2;
const TAG_WAKE: i32 = 3;
const TAG_FIN: i32 = 4;
const TAG_ABORT: i32 = 5;

/// The id of the handler that finds a target's registered region (`super::LOOKUP_REGION`).
const LOOKUP: u64 = handler_id(super::LOOKUP_REGION);

pub(crate) struct Inner {
    rank: usize,
    size: usize,
    /// The communicator of collectives; replaced at the end of an abandoned command.
    coll: Mutex<Arc<raw::Comm>>,
    /// Used only to duplicate `coll` from (and for start-up): never holds abandoned requests.
    ctl: raw::Comm,
    abort: Arc<abandon::CommandAbort>,
    am: raw::Comm,
    win: raw::Win,
    pending: Mutex<HashMap<u64, Sender<Result<Vec<u8>>>>>,
    next_req: AtomicU64,
    hot_until: AtomicU64,
    hot_ms: u64,
    epoch: Instant,
    shutdown: AtomicBool,
    fins: AtomicU64,
    /// The locale this rank serves, once built.
    state: OnceLock<Weak<dyn ServedLocale>>,
    /// Node-shared memory with the ranks of this host (`shm.rs`); `None` when off or unusable.
    shm: Option<shm::NodeShm>,
    /// Shared-memory collectives when every rank is on this node (`shm_coll.rs`).
    node_coll: Option<shm_coll::NodeColl>,
    /// Active messages to and from node peers through shared memory (`shm_am.rs`).
    node_am: Option<shm_am::NodeAm>,
    /// Heartbeats with every peer, stall reports, the end of the job when a peer is gone
    /// (`watch.rs`).
    watch: watch::Watch,
}

impl Inner {
    fn now_ms(&self) -> u64 {
        self.epoch.elapsed().as_millis() as u64
    }

    /// Makes the progress thread poll MPI for `hot_ms` (waking it if it sleeps on its inbox).
    fn heat(&self) {
        self.hot_until.store(self.now_ms() + self.hot_ms, Ordering::Relaxed);
        if let Some(am) = &self.node_am {
            am.ring();
        }
    }

    /// Whether `target`'s messages, and its replies to this rank, travel through the node's
    /// shared memory (which wakes the progress thread by itself, `shm_am.rs`).
    fn by_inbox(&self, target: usize) -> bool {
        self.node_am.as_ref().is_some_and(|am| am.reaches(target))
    }

    /// The shared-memory inbox, when every message to this rank arrives through it (every
    /// rank is a node peer): its doorbell then wakes a sleeping progress thread, and threads
    /// other than the progress thread may take messages from it ([`wait_poll`]).
    fn sole_inbox(&self) -> Option<&shm_am::NodeAm> {
        self.node_am.as_ref().filter(|am| am.reaches_everyone())
    }

    /// Where `addr..addr+len` of `target` is mapped in this process (node-shared memory).
    #[inline]
    fn direct(&self, target: usize, addr: u64, len: usize) -> Option<u64> {
        self.shm.as_ref()?.local(target, addr, len).map(|a| a as u64)
    }

    /// The shared-memory collectives, where they apply now: every rank on this node, and
    /// outside driver commands (a command abandoned by one rank's failure leaves the others
    /// at different points of their collectives; MPI's communicator swap at the command
    /// boundary handles that, and commands are coarse-grained enough not to need the shared
    /// rounds).
    fn node_coll(&self) -> Option<&shm_coll::NodeColl> {
        self.node_coll.as_ref().filter(|_| !self.abort.in_command())
    }

    /// The current communicator of collectives.
    fn coll(&self) -> Arc<raw::Comm> {
        Arc::clone(&lock(&self.coll))
    }

    /// Sends an active message (or a control message) to `target`: through shared memory to
    /// a node peer (`shm_am.rs`), else on the AM communicator. Each pair of ranks uses one of
    /// the two for everything, so a pair's messages stay in order.
    fn send(&self, target: usize, tag: i32, data: &[u8]) -> Result<()> {
        match &self.node_am {
            Some(am) if am.reaches(target) => am.send(target, tag, data),
            _ => self.am.send(target, tag, data),
        }
    }

    /// The next message from a node peer's ring or from the AM communicator.
    fn try_recv(&self) -> Result<Option<(usize, i32, Vec<u8>)>> {
        if let Some(m) = self.node_am.as_ref().and_then(|am| am.try_recv()) {
            return Ok(Some(m));
        }
        // Also drives MPI's progress for RMA that targets this rank.
        self.am.try_recv()
    }
}

/// One rank's end of the MPI backend.
pub(crate) struct MpiComm {
    inner: Arc<Inner>,
}

/// How long the progress thread keeps polling (yielding between polls) after a message from
/// a node peer before it sleeps on its inbox: the next message of a burst (an aggregator's
/// flushes, a request after its reply) is then taken without a futex wake-up.
const LINGER: std::time::Duration = std::time::Duration::from_micros(50);

/// The longest sleep on the inbox: MPI is still polled this often (`MPI_Improbe` also drives
/// MPI's progress), as in the cold state.
const PARK: std::time::Duration = std::time::Duration::from_millis(1);

fn progress_loop(inner: Arc<Inner>) {
    let mut backoff = Backoff::new();
    // When every rank is a node peer, every message arrives in the inbox and rings its
    // doorbell: the thread then sleeps on it instead of polling hot, unless something needs
    // MPI polled (a wake-up for an access through MPI, a request to a rank off the node).
    let inbox = inner.sole_inbox();
    let mut last_message = Instant::now();
    loop {
        match inner.try_recv() {
            Ok(Some((src, tag, buf))) => {
                backoff.reset();
                last_message = Instant::now();
                if inbox.is_none() || tag == TAG_WAKE {
                    inner.heat();
                }
                handle(&inner, src, tag, buf);
            }
            Ok(None) => {
                if inner.shutdown.load(Ordering::SeqCst) && inner.fins.load(Ordering::SeqCst) + 1 >= inner.size as u64 {
                    return;
                }
                if inner.now_ms() < inner.hot_until.load(Ordering::Relaxed) {
                    std::thread::yield_now();
                } else if let Some(am) = inbox {
                    if last_message.elapsed() < LINGER {
                        std::thread::yield_now();
                    } else {
                        am.park(PARK);
                    }
                } else {
                    backoff.snooze();
                }
            }
            Err(e) => {
                inner.watch.ending();
                raw::abort_saying(&format!("atoll: locale {} progress thread failed: {e}\n", inner.rank));
            }
        }
    }
}

/// Acts on one message, whoever took it (the progress thread, or a thread waiting for a
/// reply or an idle handler thread: [`wait_poll`]).
fn handle(inner: &Arc<Inner>, src: usize, tag: i32, buf: Vec<u8>) {
    match tag {
        TAG_REQ => serve_request(inner, src, buf),
        TAG_REPLY => route_reply(inner, buf),
        TAG_FIN => {
            inner.fins.fetch_add(1, Ordering::SeqCst);
        }
        TAG_ABORT if buf.len() >= 16 => {
            let word = |i: usize| u64::from_le_bytes(buf[i * 8..i * 8 + 8].try_into().expect("8 bytes"));
            let message = String::from_utf8_lossy(&buf[16..]).into_owned();
            inner.abort.raise(word(0), src, word(1), message);
        }
        _ => {}
    }
}

/// What a thread waiting for a reply from a node peer, or an idle handler thread, does at each
/// poll: takes the next message of the inbox, if one has come, and handles it as the progress
/// thread would. A reply then reaches its waiter without two hand-offs (to the progress
/// thread, and from it through the reply channel), and a request is run by the handler thread
/// that took it (it queues the job and takes it next), without the hand-off from the progress
/// thread: each hand-off is a wait for the threads sharing a core to yield. Only where every
/// message arrives through the inbox (MPI itself is polled by the progress thread alone).
/// Messages are still taken in the order each peer sent them (under the inbox's lock); several
/// threads may act on consecutive ones at once, as handler jobs already ran concurrently with
/// the progress thread.
fn wait_poll(inner: &Arc<Inner>) {
    let Some(am) = inner.sole_inbox() else { return };
    if let Some((src, tag, buf)) = am.try_recv() {
        if tag == TAG_WAKE {
            inner.heat();
        }
        handle(inner, src, tag, buf);
    }
}

fn serve_request(inner: &Arc<Inner>, src: usize, buf: Vec<u8>) {
    if buf.len() < 24 {
        return;
    }
    let word = |i: usize| u64::from_le_bytes(buf[i * 8..i * 8 + 8].try_into().expect("8 bytes"));
    let (handler, req, sub) = (word(0), word(1), word(2));
    let sub = (sub != u64::MAX).then_some(sub as usize);
    let Some(st) = inner.state.get().and_then(Weak::upgrade) else { return };
    let me = Arc::clone(inner);
    let target = Arc::clone(&st);
    st.executor().spawn(move || {
        let result = target.run_handler(handler, sub, &buf[24..]);
        let mut reply = req.to_le_bytes().to_vec();
        if let Err(e) = encode_result_into(&mut reply, &result) {
            reply.truncate(8);
            encode_result_into(&mut reply, &Err(e)).unwrap_or_default();
        }
        if let Err(e) = me.send(src, TAG_REPLY, &reply) {
            me.watch.ending();
            raw::abort_saying(&format!("atoll: locale {} cannot reply to locale {src}: {e}\n", me.rank));
        }
    });
}

fn route_reply(inner: &Inner, buf: Vec<u8>) {
    if buf.len() < 8 {
        return;
    }
    let req = u64::from_le_bytes(buf[..8].try_into().expect("8 bytes"));
    let result: Result<Vec<u8>> = decode_result(&buf[8..]).and_then(|r| r);
    if let Some(tx) = lock(&inner.pending).remove(&req) {
        let _ = tx.send(result);
    }
}

impl CommandAbandonment for MpiComm {
    fn begin_command(&self) {
        self.inner.abort.begin_command();
    }

    fn mismatch_found(&self, e: &Error) {
        if self.inner.abort.in_command() {
            let _ = self.abandon_command(e);
        }
    }

    fn is_abandoned(&self) -> bool {
        self.inner.abort.is_aborted()
    }

    fn end_command(&self) {
        self.inner.abort.end_command();
    }

    /// Tells every other rank, whose collectives of the command then give up with
    /// [`Error::CommandFailed`]. Not needed when `e` is itself that `CommandFailed`.
    fn abandon_command(&self, e: &Error) -> Result<()> {
        let inner = &self.inner;
        if matches!(e, Error::CommandFailed { .. }) && inner.abort.is_aborted() {
            return Ok(());
        }
        let generation = inner.abort.generation();
        let seq = inner.abort.coll_seq();
        let message = e.to_string();
        inner.abort.raise(generation, inner.rank, seq, message.clone());
        let mut msg = generation.to_le_bytes().to_vec();
        msg.extend_from_slice(&seq.to_le_bytes());
        msg.extend_from_slice(message.as_bytes());
        for r in (0..inner.size).filter(|&r| r != inner.rank) {
            inner.send(r, TAG_ABORT, &msg)?;
        }
        Ok(())
    }

    /// Moves the collectives to a fresh communicator and gathers every rank's error on
    /// locale 0 (an empty vector elsewhere).
    fn end_abandoned_command(&self, mine: &Error) -> Result<Vec<(usize, Error)>> {
        let inner = &self.inner;
        inner.abort.end_command();
        // The duplicate is the rendezvous: it completes once every rank has arrived.
        let fresh = Arc::new(inner.ctl.dup_abandonable(Arc::clone(&inner.abort) as Arc<dyn raw::Abandon>)?);
        let old = std::mem::replace(&mut *lock(&inner.coll), Arc::clone(&fresh));
        // Abandoned requests may still be pending on the old communicator: never free it.
        match Arc::try_unwrap(old) {
            Ok(c) => c.leak(),
            Err(shared) => std::mem::forget(shared),
        }
        if let Some(nc) = &inner.node_coll {
            // Ranks left the abandoned shared-memory collective at different points: every
            // rank moves on from the largest ticket taken (see `shm_coll.rs`).
            let tickets = fresh.allgather(&nc.ticket().to_le_bytes())?;
            let base =
                tickets.iter().filter_map(|b| b.as_slice().try_into().ok().map(u64::from_le_bytes)).max().unwrap_or(0);
            nc.resync(base);
        }
        let all = fresh.gather(0, &encode(mine)?, inner.rank)?;
        all.iter().enumerate().map(|(l, b)| Ok((l, decode::<Error>(b)?))).collect()
    }
}

impl Rma for MpiComm {
    fn get(&self, target: usize, addr: u64, dst: &mut [u8]) -> Result<()> {
        if let Some(a) = self.inner.direct(target, addr, dst.len()) {
            // SAFETY: `a..a+len` lies in a live mapping of `target`'s registered segment.
            unsafe { memcopy::read(a, dst) };
            return Ok(());
        }
        // SAFETY: `dst` is borrowed until the flush below completes the get; `Ctx` resolved the
        // target range as registered (attached) on `target`.
        unsafe { self.inner.win.get_nb(target, addr, dst.as_mut_ptr(), dst.len())? };
        self.inner.win.flush(target)
    }

    fn put(&self, target: usize, addr: u64, src: &[u8]) -> Result<()> {
        if let Some(a) = self.inner.direct(target, addr, src.len()) {
            // SAFETY: as in `get`.
            unsafe { memcopy::write(a, src) };
            return Ok(());
        }
        // SAFETY: as in `get`, for a put from `src`.
        unsafe { self.inner.win.put_nb(target, addr, src.as_ptr(), src.len())? };
        self.inner.win.flush(target)
    }

    fn get_strided(&self, target: usize, addr: u64, shape: &Strided, dst: &mut [u8]) -> Result<()> {
        if let Some(a) = self.inner.direct(target, addr, shape.extent_bytes()) {
            // SAFETY: the whole extent lies in a live mapping; `Ctx` sized `dst` to the shape.
            unsafe { memcopy::read_strided(a, shape, dst) };
            return Ok(());
        }
        // SAFETY: `Ctx` resolved the extent as registered and sized `dst` to the shape.
        unsafe { self.inner.win.get_strided(target, addr, shape, dst) }
    }

    fn put_strided(&self, target: usize, addr: u64, shape: &Strided, src: &[u8]) -> Result<()> {
        if let Some(a) = self.inner.direct(target, addr, shape.extent_bytes()) {
            // SAFETY: as in `get_strided`.
            unsafe { memcopy::write_strided(a, shape, src) };
            return Ok(());
        }
        // SAFETY: as in `get_strided`.
        unsafe { self.inner.win.put_strided(target, addr, shape, src) }
    }

    unsafe fn get_nb(&self, target: usize, addr: u64, dst: *mut u8, len: usize) -> Result<()> {
        if let Some(a) = self.inner.direct(target, addr, len) {
            // SAFETY: the caller guarantees `dst..dst+len` is writable and unaliased; the
            // source lies in a live mapping. Done now: complete before any flush.
            unsafe { memcopy::read(a, std::slice::from_raw_parts_mut(dst, len)) };
            return Ok(());
        }
        // SAFETY: forwarded guarantees of the caller (buffer) and of `Ctx` (target range).
        unsafe { self.inner.win.get_nb(target, addr, dst, len) }
    }

    unsafe fn put_nb(&self, target: usize, addr: u64, src: *const u8, len: usize) -> Result<()> {
        if let Some(a) = self.inner.direct(target, addr, len) {
            // SAFETY: as in the direct `get_nb`, for a readable `src`.
            unsafe { memcopy::write(a, std::slice::from_raw_parts(src, len)) };
            return Ok(());
        }
        // SAFETY: as in `get_nb`.
        unsafe { self.inner.win.put_nb(target, addr, src, len) }
    }

    fn flush(&self, target: usize) -> Result<()> {
        self.inner.win.flush(target)
    }

    fn flush_all(&self) -> Result<()> {
        self.inner.win.flush_all()
    }

    fn direct_addr(&self, target: usize, addr: u64) -> Option<usize> {
        self.inner.direct(target, addr, 0).map(|a| a as usize)
    }
}

impl Atomics for MpiComm {
    fn fetch_add_u64(&self, target: usize, addr: u64, value: u64) -> Result<u64> {
        if let Some(a) = self.inner.direct(target, addr, 8) {
            // SAFETY: `Ctx` checked 8-byte alignment (the mapping is page aligned, so the
            // mapped word is too); the word lies in a live mapping.
            return Ok(unsafe { memcopy::atomic(a) }.fetch_add(value, memcopy::ATOMIC_ORDER));
        }
        // SAFETY: `Ctx` checked alignment and resolved the word as registered on `target`.
        unsafe { self.inner.win.fetch_add(target, addr, value) }
    }

    fn compare_exchange_u64(&self, target: usize, addr: u64, current: u64, new: u64) -> Result<u64> {
        if let Some(a) = self.inner.direct(target, addr, 8) {
            // SAFETY: as in `fetch_add_u64`.
            let w = unsafe { memcopy::atomic(a) };
            return Ok(match w.compare_exchange(current, new, memcopy::ATOMIC_ORDER, memcopy::ATOMIC_ORDER) {
                Ok(v) | Err(v) => v,
            });
        }
        // SAFETY: as in `fetch_add_u64`.
        unsafe { self.inner.win.compare_and_swap(target, addr, current, new) }
    }
}

impl ActiveMessages for MpiComm {
    fn request_blocking(&self, target: usize, handler: u64, sub: Option<usize>, payload: Vec<u8>) -> Result<Vec<u8>> {
        let reply = self.request(target, handler, sub, payload)?;
        // Entered in the registry of waits: a reply that does not come is reported.
        let _w = crate::comm::waits::enter(
            "the reply to an active message",
            crate::comm::waits::Kind::Message,
            Some(target),
        );
        reply.wait()
    }

    fn request(&self, target: usize, handler: u64, sub: Option<usize>, payload: Vec<u8>) -> Result<PendingReply> {
        let inner = &self.inner;
        let req = inner.next_req.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = std::sync::mpsc::channel();
        lock(&inner.pending).insert(req, tx);
        let mut msg = Vec::with_capacity(24 + payload.len());
        msg.extend_from_slice(&handler.to_le_bytes());
        msg.extend_from_slice(&req.to_le_bytes());
        msg.extend_from_slice(&sub.map(|s| s as u64).unwrap_or(u64::MAX).to_le_bytes());
        msg.extend_from_slice(&payload);
        // Our own progress thread must be responsive to receive the reply (a reply through the
        // inbox wakes it by itself).
        if !inner.by_inbox(target) {
            inner.heat();
        }
        if let Err(e) = inner.send(target, TAG_REQ, &msg) {
            lock(&inner.pending).remove(&req);
            return Err(e);
        }
        let reply = PendingReply::new(rx, None);
        if inner.sole_inbox().is_some() {
            // Weak: a pending reply kept past the end of the job does not keep the backend.
            let me = Arc::downgrade(inner);
            return Ok(reply.with_poll(Box::new(move || {
                if let Some(inner) = me.upgrade() {
                    wait_poll(&inner);
                }
            })));
        }
        Ok(reply)
    }
}

impl Collectives for MpiComm {
    fn barrier(&self) -> Result<()> {
        if let Some(nc) = self.inner.node_coll() {
            nc.round(&[], &*self.inner.abort)?;
            return Ok(());
        }
        self.inner.coll().barrier()
    }

    fn broadcast(&self, root: usize, data: Vec<u8>) -> Result<Vec<u8>> {
        if let Some(nc) = self.inner.node_coll() {
            let mine: &[u8] = if self.inner.rank == root { &data } else { &[] };
            if let shm_coll::Round::Small(all) = nc.round(mine, &*self.inner.abort)? {
                return Ok(all.get(root).map(|b| b.to_vec()).unwrap_or_default());
            }
        }
        self.inner.coll().broadcast(root, data)
    }

    fn allgather(&self, data: &[u8]) -> Result<Vec<Vec<u8>>> {
        if let Some(nc) = self.inner.node_coll() {
            if let shm_coll::Round::Small(all) = nc.round(data, &*self.inner.abort)? {
                return Ok(all.into_iter().map(|b| b.to_vec()).collect());
            }
        }
        self.inner.coll().allgather(data)
    }

    fn allgather_visit(&self, data: &[u8], visit: &mut dyn FnMut(&[u8]) -> Result<()>) -> Result<()> {
        if let Some(nc) = self.inner.node_coll() {
            if let shm_coll::Round::Small(all) = nc.round(data, &*self.inner.abort)? {
                return all.into_iter().try_for_each(visit);
            }
        }
        for b in self.inner.coll().allgather(data)? {
            visit(&b)?;
        }
        Ok(())
    }

    fn gather(&self, root: usize, data: &[u8]) -> Result<Vec<Vec<u8>>> {
        if let Some(nc) = self.inner.node_coll() {
            if let shm_coll::Round::Small(all) = nc.round(data, &*self.inner.abort)? {
                let mine = self.inner.rank == root;
                return Ok(if mine { all.into_iter().map(|b| b.to_vec()).collect() } else { Vec::new() });
            }
        }
        self.inner.coll().gather(root, data, self.inner.rank)
    }

    fn alltoallv(&self, out: Vec<Vec<u8>>) -> Result<Vec<Vec<u8>>> {
        self.inner.coll().alltoallv(out)
    }
}

impl Registration for MpiComm {
    fn attach(&self, addr: u64, len: usize) -> Result<()> {
        // SAFETY: called only by the registration table on behalf of `Ctx::register` (an unsafe
        // fn whose caller keeps the memory alive until deregistration) or of `Symmetric`, which
        // owns its memory and deregisters before freeing.
        unsafe { self.inner.win.attach(addr, len) }
    }

    fn detach(&self, addr: u64) -> Result<()> {
        self.inner.win.detach(addr)
    }

    fn lookup_remote(&self, target: usize, addr: u64, len: usize) -> Result<Option<(u64, usize)>> {
        let reply = self.request(target, LOOKUP, None, encode(&(addr, len))?)?.wait()?;
        decode(&reply)
    }

    fn alloc_shared(&self, bytes: usize, init: crate::memory::symmetric_data::PartInit) -> Option<SharedAlloc> {
        self.inner.shm.as_ref()?.alloc(bytes, init)
    }

    fn map_shared(&self, parts: &[(u64, usize, u64)]) {
        if let Some(s) = &self.inner.shm {
            s.map(parts);
        }
    }

    fn unmap_shared(&self, target: usize, addr: u64) {
        if let Some(s) = &self.inner.shm {
            s.unmap(target, addr);
        }
    }
}

impl Backend for MpiComm {
    fn name(&self) -> &'static str {
        "mpi"
    }

    fn wake(&self, target: usize) {
        // A hint: if it cannot be sent, the request that follows reports the error.
        let _ = self.inner.send(target, TAG_WAKE, &[]);
    }

    fn abort(&self, message: &str) {
        // The peers' watches take this rank's end for what it is (reported here).
        self.inner.watch.ending();
        raw::abort_saying(&format!("atoll: locale {} failed: {message}\n", self.inner.rank));
    }
}

/// MPI started on this rank and its communication set up, its locale not built yet: what the
/// job's start-up needs to build the locale, which [`MpiStart::serve`] then hands over.
pub(crate) struct MpiStart {
    inner: Arc<Inner>,
    /// This rank and the number of ranks.
    pub(crate) rank: usize,
    pub(crate) size: usize,
    /// The number of ranks on this host.
    pub(crate) node_size: usize,
    pub(crate) machine: Machine,
    /// This rank's share of the host's cores.
    pub(crate) cores: Vec<usize>,
}

impl MpiStart {
    /// Initializes MPI (once per process) and this rank's communicators, node-shared memory and
    /// peer watch. **Collective.**
    pub(crate) fn connect(config: &Config) -> Result<MpiStart> {
        let (rank, size) = raw::init()?;
        let ctl = raw::Comm::dup_world()?;
        let abort = Arc::new(abandon::CommandAbort::new());
        let coll = ctl.dup_abandonable(Arc::clone(&abort) as Arc<dyn raw::Abandon>)?;
        let am = raw::Comm::dup_world()?;
        let win = raw::Win::create_dynamic(&ctl)?;
        let watch = watch::Watch::start(&ctl, rank, size, config.peer_timeout)?;
        let (node_rank, node_size) = ctl.node_rank_size()?;
        let shm = shm::NodeShm::start(&ctl, rank, size, config)?;
        let node_coll = shm_coll::NodeColl::start(&ctl, shm.as_ref(), rank, size, config)?;
        let node_am = shm_am::NodeAm::start(&ctl, shm.as_ref(), rank, size, config)?;
        let inner = Arc::new(Inner {
            rank,
            size,
            coll: Mutex::new(Arc::new(coll)),
            ctl,
            abort,
            am,
            win,
            pending: Mutex::new(HashMap::new()),
            next_req: AtomicU64::new(0),
            hot_until: AtomicU64::new(0),
            hot_ms: config.progress_hot_ms,
            epoch: Instant::now(),
            shutdown: AtomicBool::new(false),
            fins: AtomicU64::new(0),
            state: OnceLock::new(),
            shm,
            node_coll,
            node_am,
            watch,
        });
        let machine = Machine::detect();
        let cores = machine.share(node_rank, node_size);
        Ok(MpiStart { inner, rank, size, node_size, machine, cores })
    }

    /// The backend of this rank's locale.
    pub(crate) fn backend(&self) -> Box<dyn Backend> {
        Box::new(MpiComm { inner: Arc::clone(&self.inner) })
    }

    /// Serves `locale` (built with [`MpiStart::backend`]): requests from other ranks run there,
    /// and the progress thread starts (pinned to this rank's cores if `pin`).
    pub(crate) fn serve(self, locale: Arc<dyn ServedLocale>, pin: bool) -> Result<MpiJob> {
        let MpiStart { inner, rank, cores, .. } = self;
        let _ = inner.state.set(Arc::downgrade(&locale));
        inner.abort.set_state(Arc::downgrade(&locale));
        // Idle handler threads take requests from the inbox themselves (see `wait_poll`).
        let weak = Arc::downgrade(&inner);
        locale.executor().set_idle_poll(Box::new(move || {
            if let Some(inner) = weak.upgrade() {
                wait_poll(&inner);
            }
        }));
        let me = Arc::clone(&inner);
        let progress = std::thread::Builder::new()
            .name(format!("atoll-l{rank}-progress"))
            .spawn(move || {
                if pin {
                    let _ = crate::locale::affinity::pin_current_thread(&cores);
                }
                progress_loop(me)
            })
            .map_err(|e| Error::Io(format!("cannot start the MPI progress thread: {e}")))?;
        raw::LIVE_JOBS.fetch_add(1, Ordering::SeqCst);
        Ok(MpiJob { locale, inner, progress: Some(progress) })
    }
}

/// A running MPI job on this rank: the backend's side of it.
pub(crate) struct MpiJob {
    locale: Arc<dyn ServedLocale>,
    inner: Arc<Inner>,
    progress: Option<std::thread::JoinHandle<()>>,
}

impl MpiJob {
    /// Ends the job on this rank after every rank has finished. **Collective.**
    pub(crate) fn finish(mut self) -> Result<()> {
        let inner = Arc::clone(&self.inner);
        // Everything any rank sent on the AM communicator before its FIN arrives before it
        // (MPI's non-overtaking rule), so once all FINs are in, no message is left in flight.
        for r in 0..inner.size {
            if r != inner.rank {
                inner.send(r, TAG_FIN, &[])?;
            }
        }
        inner.shutdown.store(true, Ordering::SeqCst);
        inner.heat();
        if let Some(p) = self.progress.take() {
            let _ = p.join();
        }
        if let Some(am) = &inner.node_am {
            am.close();
        }
        self.locale.executor().shutdown();
        inner.coll().barrier()?;
        inner.win.free()?;
        // Every rank has passed the job's last collective: links may close.
        inner.watch.finish();
        raw::LIVE_JOBS.fetch_sub(1, Ordering::SeqCst);
        Ok(())
    }
}
