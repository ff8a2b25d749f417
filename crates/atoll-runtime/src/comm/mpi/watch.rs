//! The peer watch: every rank of an MPI job keeps a TCP link to every other rank, apart from
//! MPI, and a thread (`atoll-lN-watch`) that sends a heartbeat byte on each link every
//! [`Shared::beat`] and reads theirs. It makes no MPI call, so it goes on when MPI is stuck
//! (a flush waiting for a host that is gone) or would crash (MPICH's UCX netmod on a broken
//! connection).
//!
//! - **A peer unreachable for `Config::peer_timeout`** (`ATOLL_PEER_TIMEOUT`, default 60 s:
//!   no heartbeat; its host is down or cut off), or **whose process has ended** without
//!   saying goodbye (its link closed), ends the job: this rank prints one line naming the
//!   peer's rank and host and the operation this rank was waiting in, tells its peers it is
//!   ending the job, calls `MPI_Abort` and, if that has not ended the process 2 s later
//!   (the launcher is unreachable too), exits. Both sides of a partition do so, so no rank
//!   is left behind. A link closed by a process that died is reported after a grace of 1 s
//!   (the launcher, which sees the death too, usually ends the job first, naming the host).
//! - **Stall reports.** Every blocking wait of the MPI backend (collectives, RMA flushes,
//!   sends, `comm/waits.rs`) that lasts [`STALL_WARN`] is reported with its call site, and
//!   again at every doubling. The hint that collectives may have been called in different
//!   orders comes only when every peer has answered within the last few heartbeats; when
//!   one has not, the report names it instead.
//! - **The end of the job**: each rank sends a goodbye on every link when it has finished
//!   (after the job's last collective) or when it ends the job because of its own failure
//!   (its message is already printed), so that its peers do not report its link closing.
//!
//! Links are made at start-up: every rank listens on an ephemeral TCP port of every address,
//! the ranks exchange (host name, addresses, port) in one allgather, and each rank connects
//! to the ranks above it (a hello with the job's token and both ranks checks each link).

use super::raw;
use crate::comm::coll_note::STALL_WARN;
use crate::comm::waits;
use crate::comm::wire::{decode, encode};
use crate::sync::{lock, Arc, AtomicBool, AtomicU64, AtomicU8, Mutex, Ordering};
use atoll_error::{Error, Result};
use std::io::{Read, Write};
use std::net::{Ipv4Addr, SocketAddr, SocketAddrV4, TcpListener, TcpStream};
use std::os::fd::AsRawFd;
use std::time::{Duration, Instant};

/// Bytes on a link.
const HEARTBEAT: u8 = b'H';
/// The sender has finished its part of the job (links close next).
const BYE: u8 = b'B';
/// The sender is ending the job because of a failure it has reported itself.
const ENDING: u8 = b'A';
const MAGIC: &[u8; 4] = b"ATWL";

/// A peer's state.
const LIVE: u8 = 0;
const FINISHED: u8 = 1;
const PEER_ENDING: u8 = 2;

/// How long a link closed without a goodbye waits before it is reported.
const CLOSED_GRACE: Duration = Duration::from_secs(1);
/// How long `MPI_Abort` may take before the rank exits by itself.
const ABORT_GRACE: Duration = Duration::from_secs(2);

struct Peer {
    host: String,
    /// Milliseconds since [`Shared::epoch`] when the peer was last heard from.
    last: AtomicU64,
    state: AtomicU8,
}

/// What the watch thread and the rest of the backend share.
pub(crate) struct Shared {
    rank: usize,
    timeout: Duration,
    beat: Duration,
    epoch: Instant,
    peers: Vec<Peer>,
    stop: AtomicBool,
    /// This rank is ending the job (a failure reported): no more reports.
    ending: AtomicBool,
    /// Links, by rank (`None`: not made yet, or closed).
    links: Mutex<Vec<Option<TcpStream>>>,
    /// When a peer was last seen silent (`now_ms`; `u64::MAX`: never): a wait that began
    /// before then may still be the network's doing, even once every peer answers again.
    troubled_at: AtomicU64,
}

/// The watch of one rank.
pub(crate) struct Watch {
    shared: Arc<Shared>,
    thread: Mutex<Option<std::thread::JoinHandle<()>>>,
}

#[derive(serde::Serialize, serde::Deserialize)]
struct Card {
    token: u64,
    host: String,
    port: u16,
    addrs: Vec<[u8; 4]>,
}

impl Watch {
    /// Opens this rank's listener, exchanges every rank's card over `comm` and starts the
    /// watch thread, which makes the links. **Collective** over `comm`.
    pub(crate) fn start(comm: &raw::Comm, rank: usize, size: usize, timeout: Duration) -> Result<Watch> {
        let host = crate::locale::topology::hostname();
        let io =
            |what: &str, e: std::io::Error| Error::Comm { locale: rank, message: format!("peer watch: {what}: {e}") };
        let listener = TcpListener::bind(SocketAddr::from((Ipv4Addr::UNSPECIFIED, 0))).map_err(|e| io("listen", e))?;
        let port = listener.local_addr().map_err(|e| io("listen", e))?.port();
        listener.set_nonblocking(true).map_err(|e| io("listen", e))?;
        let token = {
            let t = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
            (t.as_nanos() as u64) ^ ((std::process::id() as u64) << 32) ^ 0x9e37_79b9_7f4a_7c15
        };
        let card = Card { token, host: host.clone(), port, addrs: local_addrs() };
        let cards: Vec<Card> =
            comm.allgather(&encode(&card)?)?.iter().map(|b| decode::<Card>(b)).collect::<Result<_>>()?;
        let token = cards[0].token;
        let beat = (timeout / 10).clamp(Duration::from_millis(100), Duration::from_secs(1));
        let shared = Arc::new(Shared {
            rank,
            timeout,
            beat,
            epoch: Instant::now(),
            peers: cards
                .iter()
                .map(|c| Peer { host: c.host.clone(), last: AtomicU64::new(0), state: AtomicU8::new(LIVE) })
                .collect(),
            stop: AtomicBool::new(false),
            ending: AtomicBool::new(false),
            links: Mutex::new((0..size).map(|_| None).collect()),
            troubled_at: AtomicU64::new(u64::MAX),
        });
        // Where to reach each rank above this one: its own host by loopback first.
        let targets: Vec<(usize, Vec<SocketAddrV4>)> = (rank + 1..size)
            .map(|r| {
                let c = &cards[r];
                let mut addrs: Vec<Ipv4Addr> = c.addrs.iter().map(|a| Ipv4Addr::from(*a)).collect();
                if c.host == host {
                    addrs.sort_by_key(|a| !a.is_loopback());
                } else {
                    addrs.retain(|a| !a.is_loopback());
                }
                (r, addrs.into_iter().map(|a| SocketAddrV4::new(a, c.port)).collect())
            })
            .collect();
        let me = Arc::clone(&shared);
        let thread = std::thread::Builder::new()
            .name(format!("atoll-l{rank}-watch"))
            .spawn(move || watch_loop(me, listener, token, targets))
            .map_err(|e| io("thread", e))?;
        Ok(Watch { shared, thread: Mutex::new(Some(thread)) })
    }

    /// This rank has finished its part (after the job's last collective): says goodbye on
    /// every link and stops the thread.
    pub(crate) fn finish(&self) {
        self.shared.say(BYE);
        self.shared.stop.store(true, Ordering::SeqCst);
        if let Some(t) = lock(&self.thread).take() {
            let _ = t.join();
        }
    }

    /// This rank ends the job because of its own failure (already reported): its peers are
    /// told not to report its links closing.
    pub(crate) fn ending(&self) {
        self.shared.ending.store(true, Ordering::SeqCst);
        self.shared.say(ENDING);
    }
}

impl Shared {
    fn now_ms(&self) -> u64 {
        self.epoch.elapsed().as_millis() as u64
    }

    /// Sends `byte` on every link (best effort: a full or broken link is the peer's problem).
    fn say(&self, byte: u8) {
        for s in lock(&self.links).iter_mut().flatten() {
            let _ = s.write(&[byte]);
        }
    }

    /// The live peers not heard from for at least `quiet`, with their silence.
    fn silent(&self, quiet: Duration) -> Vec<(usize, Duration)> {
        let now = self.now_ms();
        (0..self.peers.len())
            .filter(|&r| r != self.rank && self.peers[r].state.load(Ordering::Relaxed) == LIVE)
            .filter_map(|r| {
                let d = Duration::from_millis(now.saturating_sub(self.peers[r].last.load(Ordering::Relaxed)));
                (d >= quiet).then_some((r, d))
            })
            .collect()
    }

    fn name(&self, r: usize) -> String {
        format!("rank {r} (host {})", self.peers[r].host)
    }

    /// Why a stalled wait may be stalled: `None` when every peer has answered within the
    /// last three heartbeats (then a stall is this job's own doing), else the silent peers.
    fn trouble(&self) -> Option<String> {
        let silent = self.silent(self.beat * 3 + Duration::from_millis(500));
        if silent.is_empty() {
            return None;
        }
        self.troubled_at.store(self.now_ms(), Ordering::Relaxed);
        let who: Vec<String> = silent
            .iter()
            .take(4)
            .map(|(r, d)| format!("{} has not answered for {:.0} s", self.name(*r), d.as_secs_f64()))
            .collect();
        Some(format!(
            "{}{}: the network or that host may be down (the job ends if it stays silent for {} s, ATOLL_PEER_TIMEOUT)",
            who.join(", "),
            if silent.len() > 4 { format!(" and {} more", silent.len() - 4) } else { String::new() },
            self.timeout.as_secs()
        ))
    }

    /// Ends the job because of `culprits` (rank, what happened): one line, the goodbye,
    /// `MPI_Abort`, and an exit if that does not end the process.
    fn fail(&self, culprits: &[(usize, String)]) -> ! {
        self.ending.store(true, Ordering::SeqCst);
        let me = self.name(self.rank);
        let waits = waits::snapshot();
        let doing = match waits.first() {
            Some(w) => format!("waited {:.0} s in {}", w.waited().as_secs_f64(), w.describe()),
            None => "was not waiting in communication".to_string(),
        };
        let who: Vec<String> = culprits.iter().map(|(r, what)| format!("{} {what}", self.name(*r))).collect();
        let text = format!("atoll: {me} ends the job: {} while {me} {doing}\n", who.join("; "));
        let _ = std::io::stderr().write_all(text.as_bytes());
        self.say(ENDING);
        // The line reaches `mpiexec` before the abort does (see `raw::FORWARD_GRACE`).
        std::thread::sleep(raw::FORWARD_GRACE);
        std::thread::spawn(|| raw::abort(1));
        std::thread::sleep(ABORT_GRACE);
        // The launcher is out of reach too (this rank is cut off): end here.
        // SAFETY: _exit ends the process at once; nothing runs after it.
        unsafe { libc::_exit(1) }
    }
}

/// This host's IPv4 addresses (loopback included, last).
fn local_addrs() -> Vec<[u8; 4]> {
    let mut out = Vec::new();
    let mut ifa: *mut libc::ifaddrs = std::ptr::null_mut();
    // SAFETY: getifaddrs fills a list that freeifaddrs releases below; each entry is read only
    // while the list lives, and `ifa_addr` is checked for null and for its family before the
    // cast to sockaddr_in.
    unsafe {
        if libc::getifaddrs(&mut ifa) == 0 {
            let mut p = ifa;
            while !p.is_null() {
                let a = (*p).ifa_addr;
                if !a.is_null() && i32::from((*a).sa_family) == libc::AF_INET {
                    let sin = &*(a as *const libc::sockaddr_in);
                    out.push(u32::from_be(sin.sin_addr.s_addr).to_be_bytes());
                }
                p = (*p).ifa_next;
            }
            libc::freeifaddrs(ifa);
        }
    }
    out.sort_by_key(|a| Ipv4Addr::from(*a).is_loopback());
    out.dedup();
    if out.is_empty() {
        out.push([127, 0, 0, 1]);
    }
    out
}

/// Connects to rank `r` at one of `addrs` and checks the hello both ways.
fn connect(addrs: &[SocketAddrV4], token: u64, me: usize, r: usize) -> Option<TcpStream> {
    for a in addrs {
        let Ok(mut s) = TcpStream::connect_timeout(&SocketAddr::V4(*a), Duration::from_secs(2)) else { continue };
        let _ = s.set_nodelay(true);
        let _ = s.set_read_timeout(Some(Duration::from_secs(5)));
        if s.write_all(&hello(token, me, r)).is_err() {
            continue;
        }
        let mut back = [0u8; 20];
        if s.read_exact(&mut back).is_ok() && back == hello(token, r, me) && s.set_nonblocking(true).is_ok() {
            return Some(s);
        }
    }
    None
}

fn hello(token: u64, from: usize, to: usize) -> [u8; 20] {
    let mut h = [0u8; 20];
    h[..4].copy_from_slice(MAGIC);
    h[4..12].copy_from_slice(&token.to_le_bytes());
    h[12..16].copy_from_slice(&(from as u32).to_le_bytes());
    h[16..20].copy_from_slice(&(to as u32).to_le_bytes());
    h
}

/// Accepts one link (a rank below this one) and answers its hello.
fn accept(listener: &TcpListener, token: u64, me: usize, size: usize) -> Option<(usize, TcpStream)> {
    let (mut s, _) = listener.accept().ok()?;
    let _ = s.set_nonblocking(false);
    let _ = s.set_read_timeout(Some(Duration::from_secs(5)));
    let mut h = [0u8; 20];
    s.read_exact(&mut h).ok()?;
    let from = u32::from_le_bytes(h[12..16].try_into().ok()?) as usize;
    if from >= me || from >= size || h != hello(token, from, me) {
        return None;
    }
    let _ = s.set_nodelay(true);
    s.write_all(&hello(token, me, from)).ok()?;
    s.set_nonblocking(true).ok()?;
    Some((from, s))
}

fn watch_loop(sh: Arc<Shared>, listener: TcpListener, token: u64, targets: Vec<(usize, Vec<SocketAddrV4>)>) {
    let (me, size) = (sh.rank, sh.peers.len());
    for (r, addrs) in targets {
        if let Some(s) = connect(&addrs, token, me, r) {
            lock(&sh.links)[r] = Some(s);
        }
    }
    let mut closed_at: Vec<Option<Instant>> = vec![None; size];
    let mut last_beat = Instant::now();
    // Stall reports: (wait id, next report threshold).
    let mut reported: Vec<(u64, Duration)> = Vec::new();
    let mut buf = [0u8; 256];
    let tick = (sh.beat / 2).min(Duration::from_millis(250));
    // When this thread last went round, and the last time it found it had not run for much
    // longer than a tick (this process stopped, or starved of a core): (when seen, how long).
    let mut last_round = Instant::now();
    let mut self_paused: Option<(Instant, Duration)> = None;
    while !sh.stop.load(Ordering::SeqCst) {
        let gap = last_round.elapsed();
        last_round = Instant::now();
        if gap > tick + sh.beat * 3 {
            self_paused = Some((last_round, gap));
        }
        // Wait for input on the listener or any link, at most one tick.
        let mut fds = vec![libc::pollfd { fd: listener.as_raw_fd(), events: libc::POLLIN, revents: 0 }];
        let mut who = vec![usize::MAX];
        for (r, s) in lock(&sh.links).iter().enumerate() {
            if let Some(s) = s {
                fds.push(libc::pollfd { fd: s.as_raw_fd(), events: libc::POLLIN, revents: 0 });
                who.push(r);
            }
        }
        // SAFETY: `fds` is a valid array of pollfd of the given length, alive for the call.
        unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, tick.as_millis() as libc::c_int) };
        if fds[0].revents != 0 {
            while let Some((r, s)) = accept(&listener, token, me, size) {
                sh.peers[r].last.store(sh.now_ms(), Ordering::Relaxed);
                lock(&sh.links)[r] = Some(s);
            }
        }
        let now_ms = sh.now_ms();
        {
            let mut links = lock(&sh.links);
            for (f, &r) in fds.iter().zip(&who).skip(1) {
                if f.revents == 0 {
                    continue;
                }
                let Some(s) = links[r].as_mut() else { continue };
                let eof = loop {
                    match s.read(&mut buf) {
                        Ok(0) => break true,
                        Ok(k) => {
                            sh.peers[r].last.store(now_ms, Ordering::Relaxed);
                            for &b in &buf[..k] {
                                match b {
                                    BYE => sh.peers[r].state.store(FINISHED, Ordering::Relaxed),
                                    ENDING => sh.peers[r].state.store(PEER_ENDING, Ordering::Relaxed),
                                    _ => {}
                                }
                            }
                        }
                        Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => break false,
                        Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                        Err(_) => break true,
                    }
                };
                if eof {
                    links[r] = None;
                    closed_at[r] = Some(Instant::now());
                }
            }
            if last_beat.elapsed() >= sh.beat {
                last_beat = Instant::now();
                for (r, l) in links.iter_mut().enumerate() {
                    if let Some(s) = l {
                        match s.write(&[HEARTBEAT]) {
                            Ok(_) => {}
                            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
                            Err(_) => {
                                *l = None;
                                closed_at[r] = Some(Instant::now());
                            }
                        }
                    }
                }
            }
        }
        if sh.stop.load(Ordering::SeqCst) || sh.ending.load(Ordering::SeqCst) {
            break;
        }
        // Peers gone or silent for too long.
        let mut culprits = Vec::new();
        for r in (0..size).filter(|&r| r != me) {
            if sh.peers[r].state.load(Ordering::Relaxed) != LIVE {
                continue;
            }
            if let Some(t) = closed_at[r] {
                if t.elapsed() >= CLOSED_GRACE {
                    culprits
                        .push((r, "has ended without finishing the job (its link to this rank closed)".to_string()));
                }
            }
        }
        for (r, d) in sh.silent(sh.timeout) {
            if closed_at[r].is_none() {
                culprits.push((
                    r,
                    format!(
                        "has not answered for {:.0} s (its host is down or unreachable; ATOLL_PEER_TIMEOUT={} s)",
                        d.as_secs_f64(),
                        sh.timeout.as_secs()
                    ),
                ));
            }
        }
        if !culprits.is_empty() {
            culprits.sort_by_key(|c| c.0);
            sh.fail(&culprits);
        }
        // Stall reports, at STALL_WARN and every doubling of each wait.
        let trouble = sh.trouble();
        let live = waits::snapshot();
        reported.retain(|(id, _)| live.iter().any(|w| waits::id(w) == *id));
        for w in live.iter().filter(|w| !w.quiet) {
            let id = waits::id(w);
            let next = reported.iter().find(|(i, _)| *i == id).map_or(STALL_WARN, |(_, n)| *n);
            let waited = w.waited();
            if waited < next {
                continue;
            }
            // Peers silent within this wait (plus three heartbeats, the silence threshold)
            // make it the network's doing until the wait ends, even once they answer again.
            let troubled_at = sh.troubled_at.load(Ordering::Relaxed);
            let recovering = troubled_at != u64::MAX
                && sh.now_ms().saturating_sub(troubled_at) <= (waited + sh.beat * 3).as_millis() as u64;
            let paused = self_paused.filter(|(at, _)| at.elapsed() <= waited + sh.beat * 3);
            let why = match (trouble.clone(), w.kind) {
                (Some(t), _) => format!("; {t}"),
                (None, _) if paused.is_some() => format!(
                    " (this rank itself did not run for {:.0} s during this wait: its process was stopped, \
                    or its host gave it no core)",
                    paused.map_or(0.0, |(_, d)| d.as_secs_f64())
                ),
                (None, _) if recovering => {
                    " (every rank answers its heartbeats again; some were silent during this wait, \
                    so the network may still be recovering)"
                        .to_string()
                }
                (None, waits::Kind::Collective) => {
                    " (every rank answers its heartbeats: with collective checking off, \
                    this is what a collective called in a different order on another rank looks like; \
                    ATOLL_CHECK_COLLECTIVES=1 reports it as an error)"
                        .to_string()
                }
                (None, _) => " (every rank answers its heartbeats)".to_string(),
            };
            eprintln!("atoll: rank {me} has waited {:.0} s in {}{why}", waited.as_secs_f64(), w.describe());
            reported.retain(|(i, _)| *i != id);
            reported.push((id, next * 2));
        }
    }
    // Stopped: the links close with the thread's state (the goodbye was sent by `finish`).
    lock(&sh.links).iter_mut().for_each(|l| *l = None);
}
