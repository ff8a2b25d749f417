//! Every raw MPI call of Atoll, behind safe wrappers. Nothing outside this file touches
//! `mpi::ffi`.
//!
//! Communicators and windows are set to `MPI_ERRORS_RETURN`, so a failing call becomes an
//! [`Error::Comm`] with MPI's own message. Waiting for a non-blocking operation polls
//! `MPI_Test` with [`Backoff`]: spinning briefly, then yielding (for as long as a transfer of the
//! wait's size could take: MPI moves it one piece per progress call), then sleeping, so waiting
//! ranks leave the cores to working ones (4 ranks on 2 cores stay usable). Every blocking wait
//! is entered in the registry of waits (`comm/waits.rs`) for the peer watch's stall reports.

use crate::comm::{waits, Strided};
use crate::sync::{AtomicUsize, Backoff, Mutex, Ordering};
use atoll_error::{Error, Result};
use mpi::ffi;
use std::os::raw::{c_int, c_void};

/// This process's rank, for error messages.
static RANK: AtomicUsize = AtomicUsize::new(usize::MAX);

/// The MPI environment of this process (initialized once, finalized at exit).
static UNIVERSE: Mutex<Option<mpi::environment::Universe>> = Mutex::new(None);

fn err(what: &str, rc: c_int) -> Error {
    let mut buf = vec![0u8; ffi::MPI_MAX_ERROR_STRING as usize + 1];
    let mut len: c_int = 0;
    // SAFETY: the buffer has MPI_MAX_ERROR_STRING bytes plus one, as MPI_Error_string requires.
    let ok = unsafe { ffi::MPI_Error_string(rc, buf.as_mut_ptr().cast(), &mut len) } == 0;
    let msg =
        if ok { String::from_utf8_lossy(&buf[..len.max(0) as usize]).into_owned() } else { format!("error code {rc}") };
    Error::Comm { locale: RANK.load(Ordering::Relaxed), message: format!("{what}: {msg}") }
}

fn check(what: &str, rc: c_int) -> Result<()> {
    if rc == 0 {
        Ok(())
    } else {
        Err(err(what, rc))
    }
}

fn byte() -> ffi::MPI_Datatype {
    // SAFETY: reading an MPI predefined handle, initialized by the MPI library at load time.
    unsafe { ffi::RSMPI_UINT8_T }
}

/// A null request handle, to be filled by a non-blocking call.
fn null_request() -> ffi::MPI_Request {
    // SAFETY: reading an MPI predefined handle, initialized by the MPI library at load time.
    unsafe { ffi::RSMPI_REQUEST_NULL }
}

fn count(n: usize) -> Result<ffi::MPI_Count> {
    ffi::MPI_Count::try_from(n).map_err(|_| atoll_error::invalid_arg!("transfer of {n} bytes is too large for MPI"))
}

/// Initializes MPI with `MPI_THREAD_MULTIPLE` once per process; later calls reuse it. MPI is
/// finalized when the process exits ([`at_exit`]).
pub(crate) fn init() -> Result<(usize, usize)> {
    let mut u = crate::sync::lock(&UNIVERSE);
    if u.is_none() {
        leave_liveness_to_the_watch();
        let (universe, level) = mpi::initialize_with_threading(mpi::Threading::Multiple).ok_or_else(|| {
            Error::BackendUnavailable { backend: "mpi".into(), reason: "MPI was initialized by someone else".into() }
        })?;
        if level != mpi::Threading::Multiple {
            return Err(Error::BackendUnavailable {
                backend: "mpi".into(),
                reason: format!("the MPI library offers {level:?} threading, Atoll needs Multiple"),
            });
        }
        *u = Some(universe);
        // SAFETY: registering a plain extern "C" function and a null argument it ignores.
        unsafe { on_exit(at_exit, std::ptr::null_mut()) };
    }
    let mut rank: c_int = 0;
    let mut size: c_int = 0;
    // SAFETY: MPI is initialized (above); the out-pointers are valid locals.
    unsafe {
        check("MPI_Comm_rank", ffi::MPI_Comm_rank(ffi::RSMPI_COMM_WORLD, &mut rank))?;
        check("MPI_Comm_size", ffi::MPI_Comm_size(ffi::RSMPI_COMM_WORLD, &mut size))?;
    }
    RANK.store(rank as usize, Ordering::Relaxed);
    Ok((rank as usize, size as usize))
}

/// UCX (MPICH's netmod) declares a silent peer dead after its keep-alive checks (about 20 s
/// without an answer), and MPICH's UCX netmod then crashed (a segfault in `MPI_Isend` some
/// seconds after a 20 s network outage ended, `tools/cluster` tests). The peer watch
/// (`watch.rs`, `Config::peer_timeout`) decides when a peer is gone instead: UCX's
/// keep-alive is turned off unless the environment sets it. Read by UCX at `MPI_Init`.
fn leave_liveness_to_the_watch() {
    for (k, v) in [("UCX_KEEPALIVE_INTERVAL", "inf"), ("UCX_TCP_KEEPIDLE", "inf")] {
        if std::env::var_os(k).is_none() {
            std::env::set_var(k, v);
        }
    }
}

/// MPI jobs of this process that have started and not finished (`MpiJob`): their progress
/// and handler threads may be inside MPI at any moment.
pub(crate) static LIVE_JOBS: AtomicUsize = AtomicUsize::new(0);

#[cfg(target_env = "gnu")]
extern "C" {
    /// glibc's `on_exit`: like `atexit`, with the exit status.
    fn on_exit(f: extern "C" fn(c_int, *mut c_void), arg: *mut c_void) -> c_int;
}

/// `on_exit` where glibc is not there: an `atexit` handler, which cannot know the status.
#[cfg(not(target_env = "gnu"))]
unsafe fn on_exit(f: extern "C" fn(c_int, *mut c_void), _arg: *mut c_void) -> c_int {
    extern "C" fn plain() {
        at_exit(1, std::ptr::null_mut())
    }
    let _ = f;
    // SAFETY: registering a plain extern "C" function with no arguments.
    unsafe { libc::atexit(plain) }
}

/// At the process's exit. After every job of the process has finished, MPI is finalized
/// (dropping the universe calls `MPI_Finalize`). A process that exits while a job still runs
/// (`std::process::exit` from some thread, a Python `sys.exit` on a rank) has threads that
/// may be inside MPI and UCX at this moment: finalizing MPI, or letting the libraries'
/// destructors run under them, crashed (segfaults in UCX's progress). It ends at once with
/// its status instead, and the launcher ends the job, naming the rank's exit code.
extern "C" fn at_exit(status: c_int, _arg: *mut c_void) {
    if LIVE_JOBS.load(Ordering::SeqCst) > 0 {
        // SAFETY: _exit ends the process at once; stdio was flushed by the exit in progress.
        unsafe { libc::_exit(status) };
    }
    if let Ok(mut g) = UNIVERSE.try_lock() {
        g.take();
    }
}

/// How long a rank that ends the job waits between printing why and `MPI_Abort`: its line
/// travels to `mpiexec` through the launcher's proxy (and, across hosts, its connection), and
/// the abort, taking another path, would otherwise let the launcher kill every rank first.
pub(crate) const FORWARD_GRACE: std::time::Duration = std::time::Duration::from_millis(500);

/// Prints `text` in one write (a formatted `eprintln!` makes several, and the launcher may
/// kill this rank between them when another rank aborts first), gives the launcher
/// [`FORWARD_GRACE`] to forward it, then ends the job.
pub(crate) fn abort_saying(text: &str) -> ! {
    let _ = std::io::Write::write_all(&mut std::io::stderr(), text.as_bytes());
    std::thread::sleep(FORWARD_GRACE);
    abort(1)
}

/// Ends every process of the job with `code` (MPI_Abort on the world communicator).
pub(crate) fn abort(code: i32) -> ! {
    // SAFETY: MPI_Abort may be called from any thread once MPI is initialized.
    unsafe { ffi::MPI_Abort(ffi::RSMPI_COMM_WORLD, code) };
    std::process::exit(code)
}

/// Waits for a request that moves `bytes` (this process's sent and received bytes, 0 when
/// small) with polite polling ([`Backoff::for_bytes`]). The wait is entered in the registry
/// of waits (`comm/waits.rs`) as `kind`, so that the peer watch reports it when it stalls.
fn wait(
    mut req: ffi::MPI_Request,
    what: &'static str,
    kind: waits::Kind,
    target: Option<usize>,
    bytes: usize,
) -> Result<()> {
    let mut b = Backoff::for_bytes(bytes);
    let _w = waits::enter(what, kind, target);
    loop {
        let mut flag: c_int = 0;
        // SAFETY: `req` is a live request handle owned here; status is ignored.
        check(what, unsafe { ffi::MPI_Test(&mut req, &mut flag, ffi::RSMPI_STATUS_IGNORE) })?;
        if flag != 0 {
            return Ok(());
        }
        b.snooze();
    }
}

/// Says whether the driver command that this rank's collectives belong to was abandoned (a
/// rank failed in it): `Err(Error::CommandFailed)` then. Set on the communicator of command
/// collectives (`comm/mpi/abandon.rs`).
pub(crate) trait Abandon: Send + Sync {
    fn check(&self) -> Result<()>;
}

/// Waits for a collective's request like [`wait`], but gives up when the communicator's
/// command is abandoned meanwhile, returning that error. `keep` holds every buffer (and count
/// array) the request was given; it is returned when the request completes.
fn wait_coll<T>(comm: &Comm, mut req: ffi::MPI_Request, what: &'static str, keep: T, bytes: usize) -> Result<T> {
    if let Some(a) = &comm.abandon {
        if let Err(e) = a.check() {
            // The request has been started: same as below.
            std::mem::forget(keep);
            return Err(e);
        }
    }
    let mut b = Backoff::for_bytes(bytes);
    let _w = waits::enter(what, waits::Kind::Collective, None);
    loop {
        let mut flag: c_int = 0;
        // SAFETY: `req` is a live request handle owned here; status is ignored.
        check(what, unsafe { ffi::MPI_Test(&mut req, &mut flag, ffi::RSMPI_STATUS_IGNORE) })?;
        if flag != 0 {
            return Ok(keep);
        }
        if let Some(Err(e)) = comm.abandon.as_ref().map(|a| a.check()) {
            // Lifetime: the request never completes (the failed rank does not join it) and an
            // MPI collective can be neither cancelled nor freed, so MPI may still read or
            // write the buffers it was given for as long as the process lives. Leak them
            // (the communicator is abandoned too, see `Comm::leak`): a bounded cost per failed
            // command, instead of memory reused under MPI's feet.
            std::mem::forget(keep);
            return Err(e);
        }
        b.snooze();
    }
}

/// A duplicate of `MPI_COMM_WORLD` (or of another communicator), freed on drop.
pub(crate) struct Comm {
    raw: ffi::MPI_Comm,
    abandon: Option<std::sync::Arc<dyn Abandon>>,
}

// SAFETY: MPI is initialized with MPI_THREAD_MULTIPLE, so a communicator handle may be used
// from any thread.
unsafe impl Send for Comm {}
// SAFETY: as above.
unsafe impl Sync for Comm {}

impl Comm {
    pub(crate) fn dup_world() -> Result<Comm> {
        // SAFETY: reading a predefined handle after initialization.
        let world = unsafe { ffi::RSMPI_COMM_WORLD };
        // SAFETY: reading the predefined null handle, overwritten by the call below.
        let mut raw = unsafe { ffi::RSMPI_COMM_NULL };
        // SAFETY: MPI is initialized; `raw` is a valid out-pointer.
        unsafe {
            check("MPI_Comm_dup", ffi::MPI_Comm_dup(world, &mut raw))?;
            check("MPI_Comm_set_errhandler", ffi::MPI_Comm_set_errhandler(raw, ffi::RSMPI_ERRORS_RETURN))?;
        }
        Ok(Comm { raw, abandon: None })
    }

    /// A duplicate of this communicator (`MPI_Comm_idup`, waited for with polite polling)
    /// whose collectives give up when `abandon` says so. **Collective** over this
    /// communicator.
    pub(crate) fn dup_abandonable(&self, abandon: std::sync::Arc<dyn Abandon>) -> Result<Comm> {
        // SAFETY: reading the predefined null handle, overwritten by the call below.
        let mut raw = unsafe { ffi::RSMPI_COMM_NULL };
        let mut req = null_request();
        // SAFETY: live communicator; `raw` is a local that outlives the request, which `wait`
        // completes before `raw` is read.
        check("MPI_Comm_idup", unsafe { ffi::MPI_Comm_idup(self.raw, &mut raw, &mut req) })?;
        wait(req, "MPI_Comm_idup", waits::Kind::Collective, None, 0)?;
        // SAFETY: `raw` is the new communicator, completed above.
        check("MPI_Comm_set_errhandler", unsafe { ffi::MPI_Comm_set_errhandler(raw, ffi::RSMPI_ERRORS_RETURN) })?;
        Ok(Comm { raw, abandon: Some(abandon) })
    }

    /// Gives this communicator up without freeing it: collectives abandoned on it may still
    /// be pending (they never complete), and MPI keeps their state; freeing would wait for
    /// them. Costs one MPI context id per call (MPICH has a few thousand).
    pub(crate) fn leak(self) {
        std::mem::forget(self);
    }

    /// (rank, size) among the processes of this node.
    pub(crate) fn node_rank_size(&self) -> Result<(usize, usize)> {
        // SAFETY: reading the predefined null handle, overwritten by the call below.
        let mut node = unsafe { ffi::RSMPI_COMM_NULL };
        let (mut r, mut s): (c_int, c_int) = (0, 0);
        // SAFETY: `self.raw` is a live communicator; out-pointers are valid locals; the split
        // communicator is freed before returning.
        unsafe {
            check(
                "MPI_Comm_split_type",
                ffi::MPI_Comm_split_type(
                    self.raw,
                    ffi::RSMPI_COMM_TYPE_SHARED as c_int,
                    0,
                    ffi::RSMPI_INFO_NULL,
                    &mut node,
                ),
            )?;
            check("MPI_Comm_rank", ffi::MPI_Comm_rank(node, &mut r))?;
            check("MPI_Comm_size", ffi::MPI_Comm_size(node, &mut s))?;
            check("MPI_Comm_free", ffi::MPI_Comm_free(&mut node))?;
        }
        Ok((r as usize, s as usize))
    }

    /// The ranks (in this communicator) of the processes that share this node
    /// (`MPI_Comm_split_type(MPI_COMM_TYPE_SHARED)`), in rank order. **Collective.**
    pub(crate) fn node_members(&self) -> Result<Vec<usize>> {
        // SAFETY: reading the predefined null handle, overwritten by the call below.
        let mut node = unsafe { ffi::RSMPI_COMM_NULL };
        let mut me: c_int = 0;
        // SAFETY: `self.raw` is a live communicator; out-pointers are valid locals.
        unsafe {
            check("MPI_Comm_rank", ffi::MPI_Comm_rank(self.raw, &mut me))?;
            check(
                "MPI_Comm_split_type",
                ffi::MPI_Comm_split_type(
                    self.raw,
                    ffi::RSMPI_COMM_TYPE_SHARED as c_int,
                    0,
                    ffi::RSMPI_INFO_NULL,
                    &mut node,
                ),
            )?;
        }
        // Owned (freed on drop) from here on.
        let node = Comm { raw: node, abandon: None };
        let members = node.allgather_u64(me as u64)?;
        Ok(members.into_iter().map(|r| r as usize).collect())
    }

    pub(crate) fn barrier(&self) -> Result<()> {
        let mut req = null_request();
        // SAFETY: live communicator, valid out-pointer.
        check("MPI_Ibarrier", unsafe { ffi::MPI_Ibarrier(self.raw, &mut req) })?;
        wait_coll(self, req, "MPI_Ibarrier", (), 0)
    }

    /// Broadcasts `buf` (owned, so that an abandoned request can keep it).
    fn bcast_bytes(&self, root: usize, mut buf: Vec<u8>) -> Result<Vec<u8>> {
        let mut req = null_request();
        // SAFETY: `buf` is owned by `wait_coll` until the request completes (or leaked).
        check("MPI_Ibcast", unsafe {
            ffi::MPI_Ibcast_c(buf.as_mut_ptr().cast(), count(buf.len())?, byte(), root as c_int, self.raw, &mut req)
        })?;
        let bytes = buf.len();
        wait_coll(self, req, "MPI_Ibcast", buf, bytes)
    }

    pub(crate) fn broadcast(&self, root: usize, mut data: Vec<u8>) -> Result<Vec<u8>> {
        let len = self.bcast_bytes(root, (data.len() as u64).to_le_bytes().to_vec())?;
        let len: [u8; 8] = len.as_slice().try_into().map_err(|_| Error::Comm {
            locale: RANK.load(Ordering::Relaxed),
            message: "MPI_Ibcast: a length of other than 8 bytes".into(),
        })?;
        data.resize(u64::from_le_bytes(len) as usize, 0);
        self.bcast_bytes(root, data)
    }

    fn size(&self) -> usize {
        let mut s: c_int = 0;
        // SAFETY: live communicator, valid out-pointer.
        unsafe { ffi::MPI_Comm_size(self.raw, &mut s) };
        s as usize
    }

    /// Every rank's `u64`, in rank order.
    fn allgather_u64(&self, v: u64) -> Result<Vec<u64>> {
        let mut out = vec![0u64; self.size()];
        let v = Box::new(v);
        let mut req = null_request();
        // SAFETY: `v` and `out` are owned by `wait_coll` until the request completes (or are
        // leaked); `out` holds one u64 per rank.
        check("MPI_Iallgather", unsafe {
            ffi::MPI_Iallgather(
                (&*v as *const u64).cast(),
                1,
                ffi::RSMPI_UINT64_T,
                out.as_mut_ptr().cast(),
                1,
                ffi::RSMPI_UINT64_T,
                self.raw,
                &mut req,
            )
        })?;
        let (_, out) = wait_coll(self, req, "MPI_Iallgather", (v, out), 0)?;
        Ok(out)
    }

    fn split_flat(flat: Vec<u8>, lens: &[u64]) -> Vec<Vec<u8>> {
        let mut out = Vec::with_capacity(lens.len());
        let mut off = 0usize;
        for &l in lens {
            out.push(flat[off..off + l as usize].to_vec());
            off += l as usize;
        }
        out
    }

    fn displs(lens: &[u64]) -> Result<(Vec<ffi::MPI_Count>, Vec<ffi::MPI_Aint>, usize)> {
        let counts: Vec<ffi::MPI_Count> = lens.iter().map(|&l| count(l as usize)).collect::<Result<_>>()?;
        let mut displs = Vec::with_capacity(lens.len());
        let mut total = 0usize;
        for &l in lens {
            displs.push(total as ffi::MPI_Aint);
            total += l as usize;
        }
        Ok((counts, displs, total))
    }

    pub(crate) fn allgather(&self, data: &[u8]) -> Result<Vec<Vec<u8>>> {
        let lens = self.allgather_u64(data.len() as u64)?;
        let (counts, displs, total) = Self::displs(&lens)?;
        let mut flat = vec![0u8; total];
        // Owned, so that an abandoned request can keep it (see `wait_coll`).
        let data = data.to_vec();
        let mut req = null_request();
        // SAFETY: `data`, `flat`, `counts` and `displs` are owned by `wait_coll` until the
        // request completes (or are leaked); `flat` holds the sum of all counts, with each
        // rank's part at its displacement.
        check("MPI_Iallgatherv", unsafe {
            ffi::MPI_Iallgatherv_c(
                data.as_ptr().cast(),
                count(data.len())?,
                byte(),
                flat.as_mut_ptr().cast(),
                counts.as_ptr(),
                displs.as_ptr(),
                byte(),
                self.raw,
                &mut req,
            )
        })?;
        let (_, flat, _, _) = wait_coll(self, req, "MPI_Iallgatherv", (data, flat, counts, displs), total)?;
        Ok(Self::split_flat(flat, &lens))
    }

    pub(crate) fn gather(&self, root: usize, data: &[u8], me: usize) -> Result<Vec<Vec<u8>>> {
        // The lengths go everywhere (cheap), so every rank knows the layout.
        let lens = self.allgather_u64(data.len() as u64)?;
        let (counts, displs, total) = Self::displs(&lens)?;
        let mut flat = vec![0u8; if me == root { total } else { 0 }];
        let moved = data.len() + flat.len();
        let data = data.to_vec();
        let mut req = null_request();
        // SAFETY: as in `allgather`; receive arguments are only read on the root, where `flat`
        // holds the sum of the counts.
        check("MPI_Igatherv", unsafe {
            ffi::MPI_Igatherv_c(
                data.as_ptr().cast(),
                count(data.len())?,
                byte(),
                flat.as_mut_ptr().cast(),
                counts.as_ptr(),
                displs.as_ptr(),
                byte(),
                root as c_int,
                self.raw,
                &mut req,
            )
        })?;
        let (_, flat, _, _) = wait_coll(self, req, "MPI_Igatherv", (data, flat, counts, displs), moved)?;
        Ok(if me == root { Self::split_flat(flat, &lens) } else { Vec::new() })
    }

    pub(crate) fn alltoallv(&self, out: Vec<Vec<u8>>) -> Result<Vec<Vec<u8>>> {
        let n = self.size();
        let send_lens: Vec<u64> = out.iter().map(|v| v.len() as u64).collect();
        let mut recv_lens = vec![0u64; n];
        let mut req = null_request();
        // SAFETY: both arrays hold one u64 per rank and are owned by `wait_coll` until the
        // request completes (or are leaked).
        check("MPI_Ialltoall", unsafe {
            ffi::MPI_Ialltoall(
                send_lens.as_ptr().cast(),
                1,
                ffi::RSMPI_UINT64_T,
                recv_lens.as_mut_ptr().cast(),
                1,
                ffi::RSMPI_UINT64_T,
                self.raw,
                &mut req,
            )
        })?;
        let (send_lens, recv_lens) = wait_coll(self, req, "MPI_Ialltoall", (send_lens, recv_lens), 0)?;
        let (scounts, sdispls, stotal) = Self::displs(&send_lens)?;
        let (rcounts, rdispls, rtotal) = Self::displs(&recv_lens)?;
        let mut sflat = Vec::with_capacity(stotal);
        for v in &out {
            sflat.extend_from_slice(v);
        }
        drop(out);
        let mut rflat = vec![0u8; rtotal];
        let mut req = null_request();
        // SAFETY: the flat buffers match the counts and displacements; all are owned by
        // `wait_coll` until the request completes (or are leaked).
        check("MPI_Ialltoallv", unsafe {
            ffi::MPI_Ialltoallv_c(
                sflat.as_ptr().cast(),
                scounts.as_ptr(),
                sdispls.as_ptr(),
                byte(),
                rflat.as_mut_ptr().cast(),
                rcounts.as_ptr(),
                rdispls.as_ptr(),
                byte(),
                self.raw,
                &mut req,
            )
        })?;
        let keep = wait_coll(
            self,
            req,
            "MPI_Ialltoallv",
            (sflat, rflat, scounts, sdispls, rcounts, rdispls),
            stotal + rtotal,
        )?;
        Ok(Self::split_flat(keep.1, &recv_lens))
    }

    /// Blocking `MPI_Barrier` (busy-polls inside MPI: for baselines only).
    #[cfg(feature = "bench")]
    pub(crate) fn blocking_barrier(&self) -> Result<()> {
        // SAFETY: live communicator.
        check("MPI_Barrier", unsafe { ffi::MPI_Barrier(self.raw) })
    }

    /// Blocking `MPI_Alltoall` of one word per rank (for baselines): `send[r]` goes to rank
    /// `r`, the result's `r` came from rank `r`.
    #[cfg(feature = "bench")]
    pub(crate) fn blocking_alltoall_u64(&self, send: &[u64]) -> Result<Vec<u64>> {
        let mut recv = vec![0u64; self.size()];
        if send.len() != recv.len() {
            return Err(atoll_error::invalid_arg!("alltoall: {} words for {} ranks", send.len(), recv.len()));
        }
        // SAFETY: both arrays hold one u64 per rank for the duration of the blocking call.
        check("MPI_Alltoall", unsafe {
            ffi::MPI_Alltoall(
                send.as_ptr().cast(),
                1,
                ffi::RSMPI_UINT64_T,
                recv.as_mut_ptr().cast(),
                1,
                ffi::RSMPI_UINT64_T,
                self.raw,
            )
        })?;
        Ok(recv)
    }

    /// Blocking `MPI_Alltoallv` of bytes (for baselines): rank `r`'s part of `send` is the
    /// `send_lens[r]` bytes after those of lower ranks, and likewise in `recv`.
    #[cfg(feature = "bench")]
    pub(crate) fn blocking_alltoallv(
        &self,
        send: &[u8],
        send_lens: &[u64],
        recv: &mut [u8],
        recv_lens: &[u64],
    ) -> Result<()> {
        let (scounts, sdispls, stotal) = Self::displs(send_lens)?;
        let (rcounts, rdispls, rtotal) = Self::displs(recv_lens)?;
        if send_lens.len() != self.size()
            || recv_lens.len() != self.size()
            || stotal != send.len()
            || rtotal != recv.len()
        {
            return Err(atoll_error::invalid_arg!("alltoallv: the lengths do not match the buffers or the ranks"));
        }
        // SAFETY: the buffers hold exactly the sums of their counts, each rank's part at its
        // displacement, for the duration of the blocking call.
        check("MPI_Alltoallv", unsafe {
            ffi::MPI_Alltoallv_c(
                send.as_ptr().cast(),
                scounts.as_ptr(),
                sdispls.as_ptr(),
                byte(),
                recv.as_mut_ptr().cast(),
                rcounts.as_ptr(),
                rdispls.as_ptr(),
                byte(),
                self.raw,
            )
        })
    }

    /// Blocking `MPI_Send` (for baselines).
    #[cfg(feature = "bench")]
    pub(crate) fn blocking_send(&self, dest: usize, tag: i32, data: &[u8]) -> Result<()> {
        // SAFETY: `data` is valid for the duration of the blocking call.
        check("MPI_Send", unsafe {
            ffi::MPI_Send_c(data.as_ptr().cast(), count(data.len())?, byte(), dest as c_int, tag, self.raw)
        })
    }

    /// Blocking `MPI_Recv` of exactly `buf.len()` bytes from `src` (for baselines).
    #[cfg(feature = "bench")]
    pub(crate) fn blocking_recv(&self, src: usize, tag: i32, buf: &mut [u8]) -> Result<()> {
        // SAFETY: `buf` is valid and exclusively borrowed for the duration of the blocking call.
        check("MPI_Recv", unsafe {
            ffi::MPI_Recv_c(
                buf.as_mut_ptr().cast(),
                count(buf.len())?,
                byte(),
                src as c_int,
                tag,
                self.raw,
                ffi::RSMPI_STATUS_IGNORE,
            )
        })
    }

    /// Sends `data` to `dest` with `tag` and waits until the buffer may be reused.
    pub(crate) fn send(&self, dest: usize, tag: i32, data: &[u8]) -> Result<()> {
        let mut req = null_request();
        // SAFETY: `data` stays borrowed until the request completes in `wait`.
        check("MPI_Isend", unsafe {
            ffi::MPI_Isend_c(data.as_ptr().cast(), count(data.len())?, byte(), dest as c_int, tag, self.raw, &mut req)
        })?;
        wait(req, "MPI_Isend", waits::Kind::Message, Some(dest), data.len())
    }

    /// Receives a pending message from anyone, if there is one: (source, tag, bytes).
    pub(crate) fn try_recv(&self) -> Result<Option<(usize, i32, Vec<u8>)>> {
        let mut flag: c_int = 0;
        // SAFETY: reading the predefined null message handle, overwritten by the probe.
        let mut msg = unsafe { ffi::RSMPI_MESSAGE_NULL };
        // SAFETY: MPI_Status is plain old data; zeroed is a valid initial value.
        let mut status: ffi::MPI_Status = unsafe { std::mem::zeroed() };
        // SAFETY: live communicator and valid out-pointers.
        check("MPI_Improbe", unsafe {
            ffi::MPI_Improbe(ffi::RSMPI_ANY_SOURCE, ffi::RSMPI_ANY_TAG, self.raw, &mut flag, &mut msg, &mut status)
        })?;
        if flag == 0 {
            return Ok(None);
        }
        let mut n: ffi::MPI_Count = 0;
        // SAFETY: `status` was filled by the successful probe above.
        check("MPI_Get_count", unsafe { ffi::MPI_Get_count_c(&status, byte(), &mut n) })?;
        let mut buf = vec![0u8; n as usize];
        // SAFETY: `msg` is the matched message from the probe; `buf` holds exactly its size.
        check("MPI_Mrecv", unsafe { ffi::MPI_Mrecv_c(buf.as_mut_ptr().cast(), n, byte(), &mut msg, &mut status) })?;
        Ok(Some((status.MPI_SOURCE as usize, status.MPI_TAG, buf)))
    }
}

impl Drop for Comm {
    fn drop(&mut self) {
        if finalized() {
            return;
        }
        // SAFETY: the handle is live (MPI not finalized) and owned by this value.
        unsafe { ffi::MPI_Comm_free(&mut self.raw) };
    }
}

fn finalized() -> bool {
    let mut f: c_int = 0;
    // SAFETY: MPI_Finalized may be called at any time.
    unsafe { ffi::MPI_Finalized(&mut f) };
    f != 0
}

/// A dynamic window in a passive-target epoch (`lock_all`) for its whole life.
pub(crate) struct Win {
    raw: ffi::MPI_Win,
}

// SAFETY: MPI_THREAD_MULTIPLE makes window handles usable from any thread.
unsafe impl Send for Win {}
// SAFETY: as above.
unsafe impl Sync for Win {}

/// A committed MPI datatype, freed on drop.
struct Datatype(ffi::MPI_Datatype);

impl Drop for Datatype {
    fn drop(&mut self) {
        // SAFETY: the type was committed by `strided_type` and is owned here.
        unsafe { ffi::MPI_Type_free(&mut self.0) };
    }
}

/// The remote layout of a strided transfer as one MPI datatype (nested byte-strided vectors).
fn strided_type(shape: &Strided) -> Result<Datatype> {
    // SAFETY: reading the predefined null datatype handle, overwritten below.
    let mut t = unsafe { ffi::RSMPI_DATATYPE_NULL };
    // SAFETY: building derived datatypes from valid handles; intermediate types are freed once
    // the outer type is built (MPI keeps what it needs).
    unsafe {
        check("MPI_Type_contiguous", ffi::MPI_Type_contiguous_c(count(shape.elem_size)?, byte(), &mut t))?;
        for d in (0..shape.dims).rev() {
            let mut outer = ffi::RSMPI_DATATYPE_NULL;
            check(
                "MPI_Type_create_hvector",
                ffi::MPI_Type_create_hvector_c(
                    count(shape.counts[d])?,
                    1,
                    shape.strides[d] as ffi::MPI_Count,
                    t,
                    &mut outer,
                ),
            )?;
            check("MPI_Type_free", ffi::MPI_Type_free(&mut t))?;
            t = outer;
        }
        check("MPI_Type_commit", ffi::MPI_Type_commit(&mut t))?;
    }
    Ok(Datatype(t))
}

impl Win {
    pub(crate) fn create_dynamic(comm: &Comm) -> Result<Win> {
        // SAFETY: reading the predefined null handle, overwritten by the call below.
        let mut raw = unsafe { ffi::RSMPI_WIN_NULL };
        // SAFETY: live communicator; the window is freed in `free`.
        unsafe {
            check("MPI_Win_create_dynamic", ffi::MPI_Win_create_dynamic(ffi::RSMPI_INFO_NULL, comm.raw, &mut raw))?;
            check("MPI_Win_set_errhandler", ffi::MPI_Win_set_errhandler(raw, ffi::RSMPI_ERRORS_RETURN))?;
            check("MPI_Win_lock_all", ffi::MPI_Win_lock_all(ffi::MPI_MODE_NOCHECK as c_int, raw))?;
        }
        Ok(Win { raw })
    }

    /// Ends the epoch and frees the window. **Collective.** Called once, at the end of the
    /// job, after every rank's last access.
    pub(crate) fn free(&self) -> Result<()> {
        let mut h = self.raw;
        // SAFETY: the window is live and in the lock_all epoch opened at creation; the job ends
        // right after, so the handle is not used again.
        unsafe {
            check("MPI_Win_unlock_all", ffi::MPI_Win_unlock_all(h))?;
            check("MPI_Win_free", ffi::MPI_Win_free(&mut h))
        }
    }

    /// Attaches local memory to the window.
    ///
    /// # Safety
    /// `addr..addr+len` must stay allocated until it is detached.
    pub(crate) unsafe fn attach(&self, addr: u64, len: usize) -> Result<()> {
        // SAFETY: the caller keeps the memory alive while attached.
        check("MPI_Win_attach", unsafe { ffi::MPI_Win_attach(self.raw, addr as *mut c_void, len as ffi::MPI_Aint) })
    }

    pub(crate) fn detach(&self, addr: u64) -> Result<()> {
        // SAFETY: detaching only unregisters; MPI checks that the address was attached.
        check("MPI_Win_detach", unsafe { ffi::MPI_Win_detach(self.raw, addr as *const c_void) })
    }

    /// Starts a get of `len` bytes into `dst`; completes at the next flush.
    ///
    /// # Safety
    /// `dst..dst+len` must be writable and unaliased until flushed; the target range must be
    /// attached on `target`.
    pub(crate) unsafe fn get_nb(&self, target: usize, addr: u64, dst: *mut u8, len: usize) -> Result<()> {
        let n = count(len)?;
        // SAFETY: the caller's guarantees cover the origin buffer and the target range.
        check("MPI_Get", unsafe {
            ffi::MPI_Get_c(dst.cast(), n, byte(), target as c_int, addr as ffi::MPI_Aint, n, byte(), self.raw)
        })
    }

    /// Starts a put of `len` bytes from `src`; completes at the next flush.
    ///
    /// # Safety
    /// `src..src+len` must stay readable and unmodified until flushed; the target range must
    /// be attached on `target`.
    pub(crate) unsafe fn put_nb(&self, target: usize, addr: u64, src: *const u8, len: usize) -> Result<()> {
        let n = count(len)?;
        // SAFETY: the caller's guarantees cover the origin buffer and the target range.
        check("MPI_Put", unsafe {
            ffi::MPI_Put_c(src.cast(), n, byte(), target as c_int, addr as ffi::MPI_Aint, n, byte(), self.raw)
        })
    }

    /// Strided get in one operation (flushed before returning).
    ///
    /// # Safety
    /// The target extent must be attached on `target`; `dst.len() == shape.total_bytes()`.
    pub(crate) unsafe fn get_strided(&self, target: usize, addr: u64, shape: &Strided, dst: &mut [u8]) -> Result<()> {
        let t = strided_type(shape)?;
        // SAFETY: `dst` has the shape's total size and is flushed before the borrow ends; the
        // caller guarantees the target extent is attached.
        unsafe {
            check(
                "MPI_Get",
                ffi::MPI_Get_c(
                    dst.as_mut_ptr().cast(),
                    count(dst.len())?,
                    byte(),
                    target as c_int,
                    addr as ffi::MPI_Aint,
                    1,
                    t.0,
                    self.raw,
                ),
            )?;
        }
        self.flush(target)
    }

    /// Strided put in one operation (flushed before returning).
    ///
    /// # Safety
    /// The target extent must be attached on `target`; `src.len() == shape.total_bytes()`.
    pub(crate) unsafe fn put_strided(&self, target: usize, addr: u64, shape: &Strided, src: &[u8]) -> Result<()> {
        let t = strided_type(shape)?;
        // SAFETY: as in `get_strided`.
        unsafe {
            check(
                "MPI_Put",
                ffi::MPI_Put_c(
                    src.as_ptr().cast(),
                    count(src.len())?,
                    byte(),
                    target as c_int,
                    addr as ffi::MPI_Aint,
                    1,
                    t.0,
                    self.raw,
                ),
            )?;
        }
        self.flush(target)
    }

    /// Atomic fetch-and-add of a u64 (flushed).
    ///
    /// # Safety
    /// The target word must be attached on `target`.
    pub(crate) unsafe fn fetch_add(&self, target: usize, addr: u64, v: u64) -> Result<u64> {
        let mut old = 0u64;
        // SAFETY: origin and result are valid locals completed by the flush; the target word is
        // attached (caller).
        unsafe {
            check(
                "MPI_Fetch_and_op",
                ffi::MPI_Fetch_and_op(
                    (&v as *const u64).cast(),
                    (&mut old as *mut u64).cast(),
                    ffi::RSMPI_UINT64_T,
                    target as c_int,
                    addr as ffi::MPI_Aint,
                    ffi::RSMPI_SUM,
                    self.raw,
                ),
            )?;
        }
        self.flush(target)?;
        Ok(old)
    }

    /// Atomic compare-and-swap of a u64 (flushed); returns the previous value.
    ///
    /// # Safety
    /// The target word must be attached on `target`.
    pub(crate) unsafe fn compare_and_swap(&self, target: usize, addr: u64, current: u64, new: u64) -> Result<u64> {
        let mut old = 0u64;
        // SAFETY: as in `fetch_add`.
        unsafe {
            check(
                "MPI_Compare_and_swap",
                ffi::MPI_Compare_and_swap(
                    (&new as *const u64).cast(),
                    (&current as *const u64).cast(),
                    (&mut old as *mut u64).cast(),
                    ffi::RSMPI_UINT64_T,
                    target as c_int,
                    addr as ffi::MPI_Aint,
                    self.raw,
                ),
            )?;
        }
        self.flush(target)?;
        Ok(old)
    }

    /// Completes this rank's operations to `target` (blocking inside MPI: entered in the
    /// registry of waits, so that a flush that stalls is reported like a collective).
    pub(crate) fn flush(&self, target: usize) -> Result<()> {
        let _w = waits::enter("MPI_Win_flush", waits::Kind::Flush, Some(target));
        // SAFETY: the window is live and in its lock_all epoch.
        check("MPI_Win_flush", unsafe { ffi::MPI_Win_flush(target as c_int, self.raw) })
    }

    /// Completes this rank's operations to every rank (as `flush`).
    pub(crate) fn flush_all(&self) -> Result<()> {
        let _w = waits::enter("MPI_Win_flush_all", waits::Kind::Flush, None);
        // SAFETY: as in `flush`.
        check("MPI_Win_flush_all", unsafe { ffi::MPI_Win_flush_all(self.raw) })
    }
}
