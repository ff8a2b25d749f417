//! Communication: one contract split by capability, one module per backend.
//!
//! A backend moves bytes between locales. It implements five small traits:
//!
//! | trait | what it does |
//! |---|---|
//! | [`Rma`] | one-sided get and put, strided (1-3 dimensions) and non-blocking with flush |
//! | [`Atomics`] | 64-bit fetch-add and compare-exchange on remote memory |
//! | [`ActiveMessages`] | send a request to a handler on another locale and get its reply |
//! | [`Collectives`] | barrier, broadcast, allgather, gather, alltoallv over bytes |
//! | [`Registration`] | make a region of local memory remotely accessible |
//!
//! and [`Backend`] is their sum. Backends see raw addresses and byte buffers only: typing,
//! counting ([`crate::CommCounts`]), tracing, the registration cache and the shortcut for
//! accesses to one's own locale live once, above them, in [`crate::Ctx`], so every backend
//! counts the same program identically.
//!
//! A remote address is the target's own virtual address (a `u64`). The in-process backend
//! copies to and from it directly; the MPI backend passes it as the displacement of a dynamic
//! window (`MPI_Win_create_dynamic`), where displacements are absolute addresses.

use crate::locale::executor::Executor;
use crate::sync::Arc;
use atoll_error::{invalid_arg, Error, Result};

#[cfg(any(feature = "mpi", test))]
pub(crate) mod byte_ring;
pub(crate) mod coll_note;
pub(crate) mod combine;
pub(crate) mod local;
pub(crate) mod local_copy;
pub(crate) mod memcopy;
pub(crate) mod waits;
pub(crate) mod wire;
pub use crate::memory::shared_alloc::SharedAlloc;
#[cfg(feature = "mpi")]
pub(crate) mod mpi;

/// The shape of a strided transfer: up to three dimensions of elements on the remote side,
/// packed contiguously (in the same row-major order) on the local side.
///
/// Element `(i0, i1, i2)` lives at `addr + i0*strides[0] + i1*strides[1] + i2*strides[2]`
/// (strides in bytes) on the remote locale, and at position `(i0*counts[1] + i1)*counts[2] + i2`
/// (in elements) of the local buffer.
///
/// ```
/// use atoll_runtime::Strided;
/// // 100 doubles, every 4th one.
/// let s = Strided::elems_1d(8, 100, 4).unwrap();
/// assert_eq!(s.total_bytes(), 800);
/// assert_eq!(s.extent_bytes(), 99 * 32 + 8);
/// // A 3x5 block of a row-major 10x20 matrix of f32.
/// let s = Strided::elems(4, &[3, 5], &[20, 1]).unwrap();
/// assert_eq!(s.num_elems(), 15);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Strided {
    /// Bytes per element.
    pub elem_size: usize,
    /// Number of dimensions used (1 to 3): the first `dims` entries of the arrays below.
    pub dims: usize,
    /// Elements along each dimension, outermost first.
    pub counts: [usize; 3],
    /// Remote stride of each dimension in bytes, outermost first.
    pub strides: [usize; 3],
}

impl Strided {
    /// A strided shape with strides given in bytes.
    ///
    /// Errors if `dims` is not 1 to 3, if the slices' lengths differ, or if the element size is
    /// zero.
    pub fn bytes(elem_size: usize, counts: &[usize], byte_strides: &[usize]) -> Result<Self> {
        let dims = counts.len();
        if !(1..=3).contains(&dims) || byte_strides.len() != dims {
            return Err(invalid_arg!(
                "a strided transfer has 1 to 3 dimensions with one stride each, got {} counts and {} strides",
                counts.len(),
                byte_strides.len()
            ));
        }
        if elem_size == 0 {
            return Err(invalid_arg!("a strided transfer needs a non-zero element size"));
        }
        let mut c = [1usize; 3];
        let mut s = [0usize; 3];
        c[..dims].copy_from_slice(counts);
        s[..dims].copy_from_slice(byte_strides);
        let me = Strided { elem_size, dims, counts: c, strides: s };
        me.total_bytes_checked()?;
        me.extent_checked()?;
        Ok(me)
    }

    /// A strided shape with strides given in elements.
    pub fn elems(elem_size: usize, counts: &[usize], elem_strides: &[usize]) -> Result<Self> {
        let mut bs = [0usize; 3];
        for (d, &st) in elem_strides.iter().enumerate().take(3) {
            bs[d] = st.checked_mul(elem_size).ok_or_else(|| invalid_arg!("stride overflows"))?;
        }
        Self::bytes(elem_size, counts, &bs[..elem_strides.len().min(3)])
    }

    /// One dimension: `count` elements, `stride` elements apart.
    pub fn elems_1d(elem_size: usize, count: usize, stride: usize) -> Result<Self> {
        Self::elems(elem_size, &[count], &[stride])
    }

    /// Number of elements moved.
    pub fn num_elems(&self) -> usize {
        self.counts[..self.dims].iter().product()
    }

    /// Bytes moved (the length of the local buffer).
    pub fn total_bytes(&self) -> usize {
        self.num_elems() * self.elem_size
    }

    fn total_bytes_checked(&self) -> Result<usize> {
        self.counts[..self.dims]
            .iter()
            .try_fold(self.elem_size, |a, &c| a.checked_mul(c))
            .ok_or_else(|| invalid_arg!("strided transfer size overflows"))
    }

    /// Bytes spanned on the remote side, from the first element's start to the last one's end
    /// (0 when no element moves).
    pub fn extent_bytes(&self) -> usize {
        self.extent_checked().unwrap_or(usize::MAX)
    }

    fn extent_checked(&self) -> Result<usize> {
        if self.num_elems() == 0 {
            return Ok(0);
        }
        let mut e = self.elem_size;
        for d in 0..self.dims {
            let span = (self.counts[d] - 1)
                .checked_mul(self.strides[d])
                .ok_or_else(|| invalid_arg!("strided extent overflows"))?;
            e = e.checked_add(span).ok_or_else(|| invalid_arg!("strided extent overflows"))?;
        }
        Ok(e)
    }

    /// Calls `f(remote_byte_offset, local_byte_offset)` for every element, in local order.
    pub fn for_each_elem(&self, mut f: impl FnMut(usize, usize)) {
        let [c0, c1, c2] = self.counts;
        let [s0, s1, s2] = self.strides;
        let mut local = 0;
        for i0 in 0..c0 {
            for i1 in 0..c1 {
                let base = i0 * s0 + i1 * s1;
                for i2 in 0..c2 {
                    f(base + i2 * s2, local);
                    local += self.elem_size;
                }
            }
        }
    }
}

/// One-sided remote memory access.
///
/// Blocking calls have completed at both ends when they return. Non-blocking calls
/// (`*_nb`) complete at the next [`Rma::flush`] of their target or [`Rma::flush_all`].
pub trait Rma {
    /// Copies `dst.len()` bytes from `addr` on `target` into `dst`.
    fn get(&self, target: usize, addr: u64, dst: &mut [u8]) -> Result<()>;
    /// Copies `src` to `addr` on `target`.
    fn put(&self, target: usize, addr: u64, src: &[u8]) -> Result<()>;
    /// Gathers the elements described by `shape` from `addr` on `target` into `dst`
    /// (`shape.total_bytes()` long), in one operation.
    fn get_strided(&self, target: usize, addr: u64, shape: &Strided, dst: &mut [u8]) -> Result<()>;
    /// Scatters `src` (`shape.total_bytes()` long) to the elements described by `shape` at
    /// `addr` on `target`, in one operation.
    fn put_strided(&self, target: usize, addr: u64, shape: &Strided, src: &[u8]) -> Result<()>;
    /// Starts a get into `dst..dst+len` that completes at the next flush.
    ///
    /// # Safety
    /// `dst..dst+len` must be valid for writes and not be read or written by anyone else until
    /// the transfer has been flushed.
    unsafe fn get_nb(&self, target: usize, addr: u64, dst: *mut u8, len: usize) -> Result<()>;
    /// Starts a put from `src..src+len` that completes at the next flush.
    ///
    /// # Safety
    /// `src..src+len` must be valid for reads and not be written until the transfer has been
    /// flushed.
    unsafe fn put_nb(&self, target: usize, addr: u64, src: *const u8, len: usize) -> Result<()>;
    /// Completes every non-blocking transfer to `target`.
    fn flush(&self, target: usize) -> Result<()>;
    /// Completes every non-blocking transfer.
    fn flush_all(&self) -> Result<()>;
    /// The address at which this process may load and store `addr` of `target` directly, when
    /// the backend's locales share an address space (the local backend) or `addr` lies in
    /// memory of a node peer that this process has mapped (MPI ranks of one host); `None`
    /// where it is reached only through transfers. `addr` was resolved as registered memory
    /// of `target` by the caller.
    fn direct_addr(&self, _target: usize, _addr: u64) -> Option<usize> {
        None
    }
    /// Whether a put is a plain copy by the calling thread (every locale's memory is in this
    /// process), so that a bulk transfer is best split among the caller's tasks rather than
    /// issued as non-blocking operations and flushed together.
    fn puts_are_copies(&self) -> bool {
        false
    }
}

/// 64-bit atomic operations on remote memory (8-byte aligned addresses).
///
/// They are atomic with respect to each other, on every backend; plain loads and stores of the
/// same word are not ordered with them (as with MPI accumulate operations).
pub trait Atomics {
    /// Adds `value` (wrapping) to the word at `addr` on `target`; returns its previous value.
    fn fetch_add_u64(&self, target: usize, addr: u64, value: u64) -> Result<u64>;
    /// Replaces the word at `addr` on `target` with `new` if it equals `current`; returns the
    /// previous value either way (success when it equals `current`).
    fn compare_exchange_u64(&self, target: usize, addr: u64, current: u64, new: u64) -> Result<u64>;
}

/// Requests to handlers on other locales, with replies.
pub trait ActiveMessages {
    /// Sends `payload` to the handler `handler` (optionally to run on sublocale `sub`) on
    /// `target`; returns a pending reply.
    fn request(&self, target: usize, handler: u64, sub: Option<usize>, payload: Vec<u8>) -> Result<PendingReply>;

    /// Sends a request and waits for its reply. Backends whose locales share memory may run
    /// the handler directly on the calling thread (with the target's context).
    fn request_blocking(&self, target: usize, handler: u64, sub: Option<usize>, payload: Vec<u8>) -> Result<Vec<u8>> {
        self.request(target, handler, sub, payload)?.wait()
    }

    /// Whether [`ActiveMessages::request_blocking`] runs the handler on the calling thread (no
    /// message, no hand-off): then a blocking request costs about a function call, and
    /// keeping requests in flight gains nothing.
    fn blocking_requests_run_inline(&self) -> bool {
        false
    }
}

/// Collective operations over bytes; every locale calls them in the same order.
pub trait Collectives {
    /// Waits until every locale has reached the barrier.
    fn barrier(&self) -> Result<()>;
    /// Returns `data` of `root` on every locale (`data` is ignored elsewhere).
    fn broadcast(&self, root: usize, data: Vec<u8>) -> Result<Vec<u8>>;
    /// Returns every locale's `data`, in locale order.
    fn allgather(&self, data: &[u8]) -> Result<Vec<Vec<u8>>>;
    /// Returns every locale's `data` on `root` (empty elsewhere).
    fn gather(&self, root: usize, data: &[u8]) -> Result<Vec<Vec<u8>>>;
    /// Sends `out[d]` to locale `d`; returns what each locale sent here, in locale order.
    fn alltoallv(&self, out: Vec<Vec<u8>>) -> Result<Vec<Vec<u8>>>;
    /// As [`Collectives::allgather`], but hands each locale's bytes to `visit` in locale order
    /// instead of returning copies (the local backend reads them in place).
    fn allgather_visit(&self, data: &[u8], visit: &mut dyn FnMut(&[u8]) -> Result<()>) -> Result<()> {
        for b in self.allgather(data)? {
            visit(&b)?;
        }
        Ok(())
    }
    /// Notes the collective this locale enters next (`Ctx`'s sequence number, its kind and
    /// call site), so that collectives called in different orders are reported rather than
    /// hang (see `coll_note.rs`). Called only while collective checking is off.
    fn note_collective(&self, seq: u64, kind: &'static str, at: &'static std::panic::Location<'static>) {
        crate::comm::coll_note::CURRENT.set(seq, kind, at);
    }
}

/// Making local memory remotely accessible.
pub trait Registration {
    /// Makes `addr..addr+len` of this locale accessible to RMA and atomics from others.
    fn attach(&self, addr: u64, len: usize) -> Result<()>;
    /// Reverses [`Registration::attach`] of the region starting at `addr`.
    fn detach(&self, addr: u64) -> Result<()>;
    /// Asks `target` which registered region contains `addr..addr+len` (start and length), for
    /// the registration cache; `None` if none does.
    fn lookup_remote(&self, target: usize, addr: u64, len: usize) -> Result<Option<(u64, usize)>>;
    /// Memory of at least `bytes` for a symmetric allocation of this locale that the locales
    /// sharing its node can map (MPI ranks of one host): zeroed, touched now for
    /// [`PartInit::Eager`](crate::memory::symmetric_data::PartInit), and for `Overwrite` a reused
    /// segment may keep its old bytes; `None` where the backend has no such memory (the local
    /// backend, whose locales share the process anyway) or cannot make it now (the caller then
    /// uses heap memory).
    fn alloc_shared(&self, _bytes: usize, _init: crate::memory::symmetric_data::PartInit) -> Option<SharedAlloc> {
        None
    }
    /// Maps the node-shared parts of a symmetric allocation: `parts[l]` is locale `l`'s
    /// (address, bytes, token), token 0 for a part in heap memory. Called by every locale
    /// after the allocation's exchange of addresses; a part that cannot be mapped stays
    /// reachable through transfers.
    fn map_shared(&self, _parts: &[(u64, usize, u64)]) {}
    /// Drops the mapping (if any) of `target`'s part that starts at `addr`; called by every
    /// locale when a symmetric allocation is freed, after the barrier of the free.
    fn unmap_shared(&self, _target: usize, _addr: u64) {}
}

/// Abandoning a driver command whose part failed on some locales while others wait for it in
/// the command's collectives (`ctx/command.rs`; the protocol is in the crate README): the
/// backend's side. The local backend carries it through shared flags, MPI through messages
/// and a fresh communicator.
pub trait CommandAbandonment {
    /// A driver command starts on this locale (after its broadcast): only collectives inside
    /// one are abandoned.
    fn begin_command(&self) {}
    /// The command ended on this locale without failing (after its closing gather).
    fn end_command(&self) {}
    /// Collectives were found in different orders (`e`, an `Error::CollectiveMismatch` that
    /// every locale sees at the same collective): inside a driver command, abandons it, so
    /// every later collective of the command gives up at once whatever each locale's error
    /// path does, and the next command starts in step. Outside one, nothing.
    fn mismatch_found(&self, _e: &Error) {}
    /// Whether the current driver command was abandoned.
    fn is_abandoned(&self) -> bool {
        false
    }
    /// This locale's part of the command failed with `error`: every collective of the command
    /// gives up with `Error::CommandFailed` on every locale from now on.
    fn abandon_command(&self, error: &Error) -> Result<()>;
    /// Meets every locale at the boundary of an abandoned command (**collective**, whichever
    /// collectives each locale gave up) and starts the collectives again in step. Returns the
    /// failures of the locales, each as (locale, error), on locale 0; `mine` is this
    /// locale's (its own error, or the `CommandFailed` it got while waiting).
    fn end_abandoned_command(&self, mine: &Error) -> Result<Vec<(usize, Error)>>;
}

/// Everything a communication backend provides.
pub trait Backend:
    Rma + Atomics + ActiveMessages + Collectives + Registration + CommandAbandonment + Send + Sync
{
    /// The backend's name (`local` or `mpi`).
    fn name(&self) -> &'static str;
    /// Tells `target` that requests are coming, so a target that progresses communication in
    /// the background can keep doing so promptly (a hint; a no-op where not needed).
    fn wake(&self, target: usize);
    /// Ends the job on every locale because this locale failed with `message`.
    fn abort(&self, message: &str);
    /// Whether every locale runs in this process, so that any memory of the process (not
    /// only registered memory) can be read by every locale's threads.
    fn locales_share_process(&self) -> bool {
        false
    }
}

/// The locale a backend serves, as the backend sees it: what a backend needs of the locale's
/// state (which lives above the backends and implements this, in `ctx/`), so that no backend
/// names `Ctx` or the state. The context depends on the backends, not the reverse.
pub(crate) trait ServedLocale: Send + Sync {
    /// Runs handler `handler` here (on sublocale `sub` if given) as for a request from another
    /// locale: its serialized reply, or the error to send back (a panic included).
    fn run_handler(self: Arc<Self>, handler: u64, sub: Option<usize>, payload: &[u8]) -> Result<Vec<u8>>;
    /// The locale's handler threads, which run the requests of other locales.
    fn executor(&self) -> &Executor;
    /// The number of collectives the locale has entered (the MPI backend's command
    /// abandonment).
    #[cfg(feature = "mpi")]
    fn coll_seq(&self) -> u64;
}

/// The name of the handler with which the MPI backend asks a target which of its registered
/// regions holds an address ([`Registration::lookup_remote`]); the job's start-up registers it.
#[cfg(feature = "mpi")]
pub(crate) const LOOKUP_REGION: &str = "atoll::lookup_region";

/// A reply that will arrive later.
#[must_use = "a pending reply must be waited for"]
pub struct PendingReply {
    rx: crate::sync::mpsc::Receiver<Result<Vec<u8>>>,
    waiter: Option<Box<dyn Fn() -> Result<()> + Send + Sync>>,
    /// Called while the waiting thread polls: takes and handles a message that has arrived
    /// (the MPI backend's inbox), so a reply reaches its waiter without a hand-off through the
    /// progress thread.
    poll: Option<Box<dyn Fn() + Send + Sync>>,
}

impl PendingReply {
    pub(crate) fn new(
        rx: crate::sync::mpsc::Receiver<Result<Vec<u8>>>,
        waiter: Option<Box<dyn Fn() -> Result<()> + Send + Sync>>,
    ) -> Self {
        PendingReply { rx, waiter, poll: None }
    }

    /// With `poll` called at every check while the waiting thread polls (see the field).
    #[cfg_attr(not(feature = "mpi"), allow(dead_code))]
    pub(crate) fn with_poll(mut self, poll: Box<dyn Fn() + Send + Sync>) -> Self {
        self.poll = Some(poll);
        self
    }

    /// Blocks until the reply arrives (or the job is aborted).
    pub fn wait(self) -> Result<Vec<u8>> {
        use crate::sync::mpsc::{RecvTimeoutError, TryRecvError};
        // Polls (yielding the core) for a moment first: a reply that comes within it needs
        // no wake-up of this thread.
        let start = std::time::Instant::now();
        while start.elapsed() < std::time::Duration::from_micros(50) {
            if let Some(p) = &self.poll {
                p();
            }
            match self.rx.try_recv() {
                Ok(r) => return r,
                Err(TryRecvError::Empty) => std::thread::yield_now(),
                Err(TryRecvError::Disconnected) => break,
            }
        }
        loop {
            match self.rx.recv_timeout(std::time::Duration::from_millis(20)) {
                Ok(r) => return r,
                Err(RecvTimeoutError::Timeout) => {
                    if let Some(w) = &self.waiter {
                        w()?;
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    if let Some(w) = &self.waiter {
                        w()?;
                    }
                    return Err(atoll_error::Error::Comm {
                        locale: usize::MAX,
                        message: "the reply channel closed before a reply came".into(),
                    });
                }
            }
        }
    }
}
