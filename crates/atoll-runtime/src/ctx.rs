//! The per-locale context: what a locale's code uses to reach the others.

use crate::attribution;
use crate::comm::{local_copy, Backend, PendingReply, Strided};
use crate::config::Config;
use crate::diagnostics::{CommCounts, CommTable, Diagnostics, Op};
use crate::executor::Executor;
use crate::external::ExternalBlock;
use crate::handler::{decode, encode, Handler};
use crate::pool::Locale;
use crate::registration::{RegionTable, RegistrationStats, RemoteCache};
use crate::symmetric_data::SymData;
use crate::sync::{Arc, AtomicU64, Ordering};
use atoll_error::{invalid_arg, Error, Result};
use bytemuck::Pod;
use serde::{de::DeserializeOwned, Deserialize, Serialize};
use std::marker::PhantomData;
use std::ops::Range;
use std::panic::Location;
use std::sync::OnceLock;
use std::time::Instant;

/// What every locale knows of every other: its id, name and shape.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LocaleInfo {
    /// The locale id.
    pub id: usize,
    /// Its name (`locale-<id>@<host>`).
    pub name: String,
    /// Its number of sublocales.
    pub sublocales: usize,
    /// Its number of task-pool threads.
    pub threads: usize,
}

/// A typed address in another locale's registered memory.
///
/// It is a plain value (locale id and address) that can be sent anywhere; it is only
/// dereferenced through [`Ctx`] operations, which check that the memory is registered.
#[derive(Serialize, Deserialize)]
#[serde(bound = "")]
pub struct GlobalPtr<T> {
    locale: usize,
    addr: u64,
    #[serde(skip)]
    _p: PhantomData<fn() -> T>,
}

impl<T> Clone for GlobalPtr<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for GlobalPtr<T> {}
impl<T> PartialEq for GlobalPtr<T> {
    fn eq(&self, o: &Self) -> bool {
        self.locale == o.locale && self.addr == o.addr
    }
}
impl<T> Eq for GlobalPtr<T> {}
impl<T> std::fmt::Debug for GlobalPtr<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "GlobalPtr(locale {}, {:#x})", self.locale, self.addr)
    }
}

impl<T> GlobalPtr<T> {
    /// A pointer to `addr` on `locale`.
    pub fn new(locale: usize, addr: u64) -> Self {
        GlobalPtr { locale, addr, _p: PhantomData }
    }

    /// The locale it points into.
    pub fn locale(&self) -> usize {
        self.locale
    }

    /// The address on that locale.
    pub fn addr(&self) -> u64 {
        self.addr
    }

    /// The pointer `n` elements further (as `pointer::add`).
    #[allow(clippy::should_implement_trait)]
    pub fn add(self, n: usize) -> Self {
        GlobalPtr::new(self.locale, self.addr + (n * std::mem::size_of::<T>()) as u64)
    }
}

pub(crate) struct LocaleState {
    pub(crate) id: usize,
    pub(crate) n: usize,
    pub(crate) config: Config,
    pub(crate) backend: Box<dyn Backend>,
    pub(crate) diag: Diagnostics,
    pub(crate) regions: Arc<RegionTable>,
    pub(crate) remote: RemoteCache,
    pub(crate) here: Locale,
    pub(crate) exec: Executor,
    pub(crate) coll_seq: AtomicU64,
    pub(crate) infos: OnceLock<Vec<LocaleInfo>>,
    /// Whether remote targets need a wake-up hint before requests (MPI progress threads).
    pub(crate) needs_wake: bool,
    /// Per target: when this locale last sent it a wake-up (ms since `epoch`).
    pub(crate) last_wake: Vec<AtomicU64>,
    pub(crate) epoch: Instant,
    /// This locale's memory budget (its `atoll-mem` index is `budget.locale()`).
    pub(crate) budget: atoll_mem::Budget,
    /// Per-locale state of the layers above, by type (see [`Ctx::locale_ext`]).
    pub(crate) ext: std::sync::Mutex<Vec<std::sync::Arc<dyn std::any::Any + Send + Sync>>>,
}

/// One locale's handle on the job: its identity, its sublocales and task pools, and every
/// operation that reaches other locales.
///
/// A `Ctx` is cheap to clone and can be shared between the locale's threads. Operations marked
/// **Collective** must be called by every locale, in the same order (one thread per locale).
/// Operations marked **One-sided** involve only the caller.
#[derive(Clone)]
pub struct Ctx {
    pub(crate) st: Arc<LocaleState>,
}

impl std::fmt::Debug for Ctx {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Ctx(locale {} of {}, {})", self.st.id, self.st.n, self.st.backend.name())
    }
}

/// Runs handler `id` on `ctx`, turning a panic into an error reply and attributing the work
/// to the target locale.
pub(crate) fn run_handler(ctx: &Ctx, id: u64, sub: Option<usize>, payload: &[u8]) -> Result<Vec<u8>> {
    attribution::as_locale(ctx.id(), || crate::current::with_current(ctx, || {
        let name = crate::handler::name_of(id);
        crate::handler_call::catch_handler(ctx.id(), &name, || crate::handler::dispatch(ctx, id, sub, payload, &name))
    }))
}

/// The text of a panic payload.
pub(crate) fn panic_message(p: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic with a non-string payload".to_string()
    }
}

/// A reply of a typed active message, to wait for.
#[must_use = "a pending reply must be waited for"]
pub struct Pending<R> {
    reply: Option<PendingReply>,
    ready: Option<Result<R>>,
    ctx: Ctx,
    name: &'static str,
}

impl<R: DeserializeOwned> Pending<R> {
    /// Waits for the reply.
    pub fn wait(self) -> Result<R> {
        if let Some(r) = self.ready {
            return r;
        }
        let bytes = match self.reply {
            Some(p) => p.wait(),
            None => Err(invalid_arg!("empty pending reply")),
        };
        self.ctx.finish_reply(bytes, self.name)
    }
}

impl Ctx {
    pub(crate) fn from_state(st: Arc<LocaleState>) -> Ctx {
        Ctx { st }
    }

    /// This locale's id, in `0..num_locales()`.
    pub fn id(&self) -> usize {
        self.st.id
    }

    /// The number of locales in the job.
    pub fn num_locales(&self) -> usize {
        self.st.n
    }

    /// This locale: its name, cores and sublocales.
    pub fn here(&self) -> &Locale {
        &self.st.here
    }

    /// Every locale's id, name and shape, in id order.
    pub fn locales(&self) -> &[LocaleInfo] {
        self.st.infos.get().map(Vec::as_slice).unwrap_or(&[])
    }

    /// The configuration the job runs with.
    pub fn config(&self) -> &Config {
        &self.st.config
    }

    /// The backend's name: `local` or `mpi`.
    pub fn backend_name(&self) -> &'static str {
        self.st.backend.name()
    }

    /// An error unless `locale` is a valid locale id.
    pub fn check_locale(&self, locale: usize) -> Result<()> {
        if locale < self.st.n {
            Ok(())
        } else {
            Err(Error::InvalidLocale { locale, num_locales: self.st.n })
        }
    }

    // ----- registration -----------------------------------------------------------------

    /// Registers `data` for remote access and returns its global address.
    ///
    /// Registering memory that lies inside an already registered region costs no backend call
    /// (the registration cache). Prefer [`Ctx::alloc_symmetric`], which owns its memory and
    /// needs no `unsafe`.
    ///
    /// # Safety
    /// `data` must stay allocated until it is deregistered with [`Ctx::deregister`], and no
    /// locale may access it remotely after that.
    pub unsafe fn register<T: Pod>(&self, data: &[T]) -> Result<GlobalPtr<T>> {
        let addr = data.as_ptr() as u64;
        let len = std::mem::size_of_val(data);
        let b = &self.st.backend;
        self.st.regions.register(addr, len, |a, l| b.attach(a, l))?;
        Ok(GlobalPtr::new(self.st.id, addr))
    }

    /// Releases a registration made by [`Ctx::register`].
    ///
    /// # Safety
    /// No locale may access the memory remotely after this call (unless it is registered again).
    pub unsafe fn deregister<T: Pod>(&self, data: &[T]) -> Result<()> {
        let b = &self.st.backend;
        self.st.regions.deregister(data.as_ptr() as u64, std::mem::size_of_val(data), |a| b.detach(a))
    }

    /// Hit and miss counts of this locale's registration table and remote-region cache.
    pub fn registration_stats(&self) -> RegistrationStats {
        let (local_hits, local_misses) = self.st.regions.stats();
        let (remote_hits, remote_misses) = self.st.remote.stats();
        RegistrationStats { local_hits, local_misses, remote_hits, remote_misses }
    }

    /// Allocates `len` elements of `T` (zeroed) on this locale, registered, with the global
    /// addresses of every locale's part. **Collective**: every locale calls it (`len` may
    /// differ between locales).
    ///
    /// The memory is reserved in every locale's budget before anything is allocated (operation
    /// name `alloc_symmetric`; see [`Ctx::alloc_symmetric_for`]): if one locale would exceed its
    /// limit, every locale returns the same [`Error::OutOfMemory`] and the job goes on.
    ///
    /// ```
    /// use atoll_runtime::{run, Config};
    /// run(Config::local(2), |ctx| {
    ///     let mut a = ctx.alloc_symmetric::<u64>(4)?;
    ///     a.local_mut().fill(10 * ctx.id() as u64);
    ///     ctx.barrier()?;
    ///     let other = (ctx.id() + 1) % 2;
    ///     let mut x = [0u64; 4];
    ///     ctx.get(a.ptr(other), &mut x)?;
    ///     assert_eq!(x, [10 * other as u64; 4]);
    ///     a.free()
    /// }).unwrap();
    /// ```
    pub fn alloc_symmetric<T: Pod + Send + Sync>(&self, len: usize) -> Result<Symmetric<T>> {
        self.alloc_symmetric_for("alloc_symmetric", len)
    }

    /// [`Ctx::alloc_symmetric`] on behalf of `operation` (the name an out-of-memory error
    /// carries, e.g. `DistArray::zeros`). **Collective** (`len` may differ between locales).
    ///
    /// Every locale first reserves `len * size_of::<T>()` bytes in its budget
    /// ([`Ctx::reserve`]); only if every locale succeeded does any of them allocate. The
    /// reservation then becomes a commitment held by the [`Symmetric`] and released when it is
    /// freed or dropped.
    ///
    /// # Errors
    ///
    /// On every locale, the same error, that of the lowest locale that failed:
    /// [`Error::OutOfMemory`] (naming `operation`, that locale, its request, its use and its
    /// limit) when a locale's request does not fit its budget, or [`Error::InvalidArgument`]
    /// when `len * size_of::<T>()` overflows or exceeds `isize::MAX` bytes. Nothing is
    /// allocated then, and later collectives work as usual.
    ///
    /// ```
    /// use atoll_runtime::{run, Config, Error};
    /// run(Config::local(2).with_mem_max("1MiB"), |ctx| {
    ///     // Locale 1 asks for 2 MiB, over its 1 MiB limit: both locales get its error.
    ///     let len = if ctx.id() == 1 { 1 << 18 } else { 16 };
    ///     match ctx.alloc_symmetric_for::<u64>("demo::zeros", len) {
    ///         Err(Error::OutOfMemory { operation, locale, requested, .. }) => {
    ///             assert_eq!((operation.as_str(), locale, requested), ("demo::zeros", 1, 2 << 20));
    ///         }
    ///         other => panic!("expected out of memory, got {:?}", other.map(|_| ())),
    ///     }
    ///     let small = ctx.alloc_symmetric_for::<u64>("demo::zeros", 16)?; // the job goes on
    ///     small.free()
    /// }).unwrap();
    /// ```
    pub fn alloc_symmetric_for<T: Pod + Send + Sync>(&self, operation: &str, len: usize) -> Result<Symmetric<T>> {
        self.alloc_symmetric_with(operation, len, false)
    }

    /// [`Ctx::alloc_symmetric_for`] without the first-touch pass: the zeroed pages come from
    /// the OS untouched, and each is placed (on a NUMA machine) where the thread that first
    /// writes it runs, like NumPy's `zeros`. For buffers that a parallel pass overwrites at
    /// once (a sort's output): it saves one write of the whole buffer. **Collective.**
    ///
    /// # Errors
    /// As [`Ctx::alloc_symmetric_for`].
    pub fn alloc_symmetric_lazy_for<T: Pod + Send + Sync>(&self, operation: &str, len: usize) -> Result<Symmetric<T>> {
        self.alloc_symmetric_with(operation, len, true)
    }

    fn alloc_symmetric_with<T: Pod + Send + Sync>(&self, operation: &str, len: usize, lazy: bool) -> Result<Symmetric<T>> {
        let bytes = symmetric_bytes::<T>(operation, len);
        self.alloc_symmetric_from(operation, bytes, || {
            // Node-shared memory where the backend has it (MPI ranks of one host map each
            // other's parts), else the heap. `bytes` fitted the budget, so it is a valid size.
            let nbytes = len * std::mem::size_of::<T>();
            let shared = if nbytes > 0 { self.st.backend.alloc_shared(nbytes, !lazy) } else { None };
            // Large lazy heap parts come from the page pool: a freed part of this locale of a
            // similar size, zeroed, instead of fresh pages (`page_pool.rs`; fresh ones are
            // advised for huge pages). Eager ones keep `alloc_filled`, whose threads first-touch
            // each sublocale's share (NUMA placement).
            let pooled = || if lazy { crate::symmetric_data::Pooled::zeroed(self.id(), len).map(SymData::Pooled) } else { None };
            match shared.and_then(|m| SymData::shared(m, len)).or_else(pooled) {
                Some(d) => d,
                // Large heap parts get huge pages (`hugepages.rs`; `alloc_filled` advises too).
                None if lazy => SymData::Heap(crate::hugepages::zeroed_vec::<T>(len)),
                None => SymData::Heap(self.here().alloc_filled(len, T::zeroed())),
            }
        })
    }

    /// [`Ctx::alloc_symmetric_for`] over memory that `block` owns (a memory-mapped file of
    /// `atoll-share`) instead of a new allocation: `len` elements, registered, counted in the
    /// memory budget like an allocation. `block` is `Err` on a locale that could not make its
    /// block: every locale then returns that error (the lowest failing locale's), as for a
    /// refused reservation, and nothing is registered. **Collective.**
    ///
    /// # Errors
    /// As [`Ctx::alloc_symmetric_for`], `block`'s own error, and [`Error::InvalidArgument`]
    /// when the block's size is not `len` elements or its address is misaligned for `T`.
    pub fn alloc_symmetric_external_for<T: Pod + Send + Sync>(&self, operation: &str, len: usize, block: Result<ExternalBlock>) -> Result<Symmetric<T>> {
        let bytes = block.as_ref().map_err(Clone::clone).and_then(|b| {
            SymData::<T>::check_external(b, len).map_err(|m| invalid_arg!("{operation}: {m}"))?;
            symmetric_bytes::<T>(operation, len)
        });
        let mut block = Some(block);
        self.alloc_symmetric_from(operation, bytes, || match block.take() {
            Some(Ok(b)) => SymData::external(b, len),
            _ => unreachable!("the reservation fails when the block is an error"),
        })
    }

    /// The body of the symmetric allocations: reserve `bytes` (or report its error), make the
    /// data, register it and exchange addresses.
    fn alloc_symmetric_from<T: Pod + Send + Sync>(&self, operation: &str, bytes: Result<u64>, make: impl FnOnce() -> SymData<T>) -> Result<Symmetric<T>> {
        self.coll_enter("alloc_symmetric")?;
        let reservation = self.reserve_raw(operation, bytes)?;
        let data = make();
        let len = data.as_slice().len();
        let held = reservation.commit();
        // SAFETY: `data` is owned by the Symmetric built below, which deregisters it (after a
        // barrier, so no locale still accesses it) before freeing it.
        let me = unsafe { self.register(data.as_slice())? };
        let ptrs: Vec<(u64, usize, u64)> = self.allgather_raw(&(me.addr(), len, data.token()))?;
        let size = std::mem::size_of::<T>();
        let parts: Vec<(u64, usize, u64)> = ptrs.iter().map(|&(a, n, t)| (a, n * size, t)).collect();
        self.st.backend.map_shared(&parts);
        // Every part was registered before the exchange: the remote cache learns them now, so
        // the first access to each needs no lookup (under MPI a request to the owner's
        // progress thread). `release` forgets them.
        for (l, &(a, bytes, _)) in parts.iter().enumerate() {
            if l != self.id() && bytes > 0 {
                self.st.remote.learn(l, a, bytes);
            }
        }
        Ok(Symmetric {
            ctx: self.clone(),
            data,
            ptrs: ptrs.iter().enumerate().map(|(l, &(a, _, _))| GlobalPtr::new(l, a)).collect(),
            lens: ptrs.iter().map(|&(_, n, _)| n).collect(),
            freed: false,
            held: Some(held),
        })
    }

    // ----- one-sided communication ------------------------------------------------------

    /// Checks that `addr..addr+len` on a remote `target` is registered (registration cache).
    #[inline]
    fn resolve(&self, target: usize, addr: u64, len: usize) -> Result<()> {
        self.check_locale(target)?;
        let b = &self.st.backend;
        self.st.remote.resolve(target, addr, len, || b.lookup_remote(target, addr, len))
    }

    /// What every remote access does before the backend moves bytes: check the target range
    /// against the registration cache, count the operation, and wake the target if needed.
    #[inline]
    fn remote_access(&self, op: Op, target: usize, addr: u64, span: usize, bytes: usize, at: &Location<'_>) -> Result<()> {
        self.resolve(target, addr, span)?;
        self.st.diag.record(op, target, bytes, at);
        // Memory this process maps (a node peer's, under MPI) needs no progress on the target:
        // waking it would only keep its progress thread polling on a core the caller needs.
        if self.st.needs_wake && self.st.backend.direct_addr(target, addr).is_none() {
            self.wake(target);
        }
        Ok(())
    }

    /// A pointer through which this process may load and store the `len` elements at `ptr`
    /// directly: `Some` for this locale's own memory, on the `local` backend for every
    /// locale's (they share the process), and under MPI for the symmetric allocations of ranks
    /// on this node (node-shared memory, see `comm/mpi/shm.rs`); `None` for other MPI ranks'
    /// memory, reached only with gets and puts. The range is checked to be registered memory of `ptr`'s locale first.
    /// **One-sided**, no message.
    ///
    /// Loads and stores through the pointer are not messages (the communication diagnostics do
    /// not count them) and follow the PGAS contract of gets and puts: an element written
    /// through it must not be read or written by another locale without a barrier or
    /// collective operation in between. Dereferencing the pointer is `unsafe`; it is valid
    /// while the memory stays registered.
    ///
    /// ```
    /// use atoll_runtime::{run, Config};
    /// run(Config::local(2), |ctx| {
    ///     let mut a = ctx.alloc_symmetric::<u64>(4)?;
    ///     let other = a.ptr(1 - ctx.id());
    ///     let p = ctx.direct_ptr(other, 4)?.expect("locales of the local backend share memory");
    ///     // SAFETY: 4 registered elements of the other locale; each locale writes only
    ///     // element `id` of the other's part until the barrier.
    ///     unsafe { p.add(ctx.id()).write(10 + ctx.id() as u64) };
    ///     ctx.barrier()?;
    ///     assert_eq!(a.local()[1 - ctx.id()], 11 - ctx.id() as u64);
    ///     ctx.barrier()?;
    ///     a.free()
    /// }).unwrap();
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidLocale`] for a locale outside the job; [`Error::NotRegistered`] when
    /// the range is not inside one registered region of that locale; [`Error::InvalidArgument`]
    /// when `len` elements overflow.
    pub fn direct_ptr<T: Pod>(&self, ptr: GlobalPtr<T>, len: usize) -> Result<Option<*mut T>> {
        let (target, addr) = (ptr.locale, ptr.addr);
        let bytes = len
            .checked_mul(std::mem::size_of::<T>())
            .ok_or_else(|| Error::InvalidArgument(format!("direct_ptr: {len} elements overflow")))?;
        if target == self.st.id {
            self.check_locale(target)?;
            if bytes > 0 && self.st.regions.find(addr, bytes).is_none() {
                return Err(Error::NotRegistered { locale: target, addr, len: bytes });
            }
            return Ok(Some(addr as usize as *mut T));
        }
        if bytes > 0 {
            self.resolve(target, addr, bytes)?;
        } else {
            self.check_locale(target)?;
        }
        Ok(self.st.backend.direct_addr(target, addr).map(|a| a as *mut T))
    }

    /// Counts one put of `len` elements to `dst` that the caller made with stores through
    /// [`Ctx::direct_ptr`], so that an algorithm which moves a run of data to another locale
    /// by direct stores on one backend and by a put on another shows the same communication
    /// diagnostics on both. Nothing is transferred; own-locale runs are not counted (as with
    /// [`Ctx::put`]). **One-sided**, no message.
    #[track_caller]
    pub fn count_direct_put<T>(&self, dst: GlobalPtr<T>, len: usize) {
        if dst.locale != self.st.id && len > 0 {
            self.st.diag.record(Op::Put, dst.locale, len * std::mem::size_of::<T>(), Location::caller());
        }
    }

    /// Whether this locale already knows `addr..addr+len` on `target` as registered.
    #[cfg_attr(not(feature = "mpi"), allow(dead_code))]
    pub(crate) fn knows_registered(&self, target: usize, addr: u64, len: usize) -> bool {
        self.st.remote.knows(target, addr, len)
    }

    #[inline]
    fn wake(&self, target: usize) {
        if self.st.needs_wake {
            let now = self.st.epoch.elapsed().as_millis() as u64 + 1;
            let last = self.st.last_wake[target].load(Ordering::Relaxed);
            let half = (self.st.config.progress_hot_ms / 2).max(1);
            if now >= last + half
                && self.st.last_wake[target].compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed).is_ok()
            {
                self.st.backend.wake(target);
            }
        }
    }

    /// Copies `dst.len()` elements from `src` into `dst`. **One-sided.**
    ///
    /// An access to this locale's own memory is a plain copy and is not counted.
    #[track_caller]
    pub fn get<T: Pod>(&self, src: GlobalPtr<T>, dst: &mut [T]) -> Result<()> {
        let bytes: &mut [u8] = bytemuck::cast_slice_mut(dst);
        self.get_bytes(src.locale, src.addr, bytes, Location::caller())
    }

    /// Reads one element. **One-sided.**
    #[track_caller]
    pub fn get_value<T: Pod>(&self, src: GlobalPtr<T>) -> Result<T> {
        let mut v = [T::zeroed()];
        self.get_bytes(src.locale, src.addr, bytemuck::cast_slice_mut(&mut v), Location::caller())?;
        Ok(v[0])
    }

    /// Copies `src` to `dst`. **One-sided.**
    #[track_caller]
    pub fn put<T: Pod>(&self, dst: GlobalPtr<T>, src: &[T]) -> Result<()> {
        self.put_bytes(dst.locale, dst.addr, bytemuck::cast_slice(src), Location::caller())
    }

    /// Writes one element. **One-sided.**
    #[track_caller]
    pub fn put_value<T: Pod>(&self, dst: GlobalPtr<T>, v: T) -> Result<()> {
        self.put_bytes(dst.locale, dst.addr, bytemuck::bytes_of(&v), Location::caller())
    }

    fn get_bytes(&self, target: usize, addr: u64, dst: &mut [u8], at: &Location<'_>) -> Result<()> {
        if dst.is_empty() {
            return self.check_locale(target);
        }
        if target == self.st.id {
            // Own memory: a plain checked copy, uncounted.
            return local_copy::read(&self.st.regions, target, addr, dst);
        }
        self.remote_access(Op::Get, target, addr, dst.len(), dst.len(), at)?;
        self.st.backend.get(target, addr, dst)
    }

    fn put_bytes(&self, target: usize, addr: u64, src: &[u8], at: &Location<'_>) -> Result<()> {
        if src.is_empty() {
            return self.check_locale(target);
        }
        if target == self.st.id {
            return local_copy::write(&self.st.regions, target, addr, src);
        }
        self.remote_access(Op::Put, target, addr, src.len(), src.len(), at)?;
        self.st.backend.put(target, addr, src)
    }

    /// Gathers a strided block of up to 3 dimensions from `src` into `dst` in one operation.
    /// `counts` and `strides` (in elements) are outermost first; `dst` receives the elements
    /// packed in row-major order and must hold exactly their number. **One-sided.**
    ///
    /// ```
    /// use atoll_runtime::{run, Config};
    /// run(Config::local(2), |ctx| {
    ///     let mut a = ctx.alloc_symmetric::<f64>(100)?;
    ///     for (i, x) in a.local_mut().iter_mut().enumerate() { *x = i as f64; }
    ///     ctx.barrier()?;
    ///     let mut every_fourth = vec![0.0; 25];
    ///     ctx.get_strided(a.ptr(1 - ctx.id()), &[25], &[4], &mut every_fourth)?;
    ///     assert_eq!(every_fourth[3], 12.0);
    ///     a.free()
    /// }).unwrap();
    /// ```
    #[track_caller]
    pub fn get_strided<T: Pod>(&self, src: GlobalPtr<T>, counts: &[usize], strides: &[usize], dst: &mut [T]) -> Result<()> {
        let shape = Strided::elems(std::mem::size_of::<T>(), counts, strides)?;
        self.get_strided_bytes(src.locale, src.addr, &shape, bytemuck::cast_slice_mut(dst), Location::caller())
    }

    /// Scatters `src` (packed, row-major) to a strided block at `dst` in one operation.
    /// **One-sided.**
    #[track_caller]
    pub fn put_strided<T: Pod>(&self, dst: GlobalPtr<T>, counts: &[usize], strides: &[usize], src: &[T]) -> Result<()> {
        let shape = Strided::elems(std::mem::size_of::<T>(), counts, strides)?;
        self.put_strided_bytes(dst.locale, dst.addr, &shape, bytemuck::cast_slice(src), Location::caller())
    }

    /// Byte-level strided get with an explicit shape. **One-sided.**
    #[track_caller]
    pub fn get_strided_raw(&self, target: usize, addr: u64, shape: &Strided, dst: &mut [u8]) -> Result<()> {
        self.get_strided_bytes(target, addr, shape, dst, Location::caller())
    }

    /// Byte-level strided put with an explicit shape. **One-sided.**
    #[track_caller]
    pub fn put_strided_raw(&self, target: usize, addr: u64, shape: &Strided, src: &[u8]) -> Result<()> {
        self.put_strided_bytes(target, addr, shape, src, Location::caller())
    }

    fn check_shape(shape: &Strided, buf: usize) -> Result<()> {
        if shape.total_bytes() != buf {
            return Err(Error::ShapeMismatch {
                context: "strided transfer".into(),
                left: format!("{} bytes described by {:?}", shape.total_bytes(), &shape.counts[..shape.dims]),
                right: format!("a buffer of {buf} bytes"),
            });
        }
        Ok(())
    }

    fn get_strided_bytes(&self, target: usize, addr: u64, shape: &Strided, dst: &mut [u8], at: &Location<'_>) -> Result<()> {
        Self::check_shape(shape, dst.len())?;
        if dst.is_empty() {
            return self.check_locale(target);
        }
        if target == self.st.id {
            return local_copy::read_strided(&self.st.regions, target, addr, shape, dst);
        }
        self.remote_access(Op::StridedGet, target, addr, shape.extent_bytes(), dst.len(), at)?;
        self.st.backend.get_strided(target, addr, shape, dst)
    }

    fn put_strided_bytes(&self, target: usize, addr: u64, shape: &Strided, src: &[u8], at: &Location<'_>) -> Result<()> {
        Self::check_shape(shape, src.len())?;
        if src.is_empty() {
            return self.check_locale(target);
        }
        if target == self.st.id {
            return local_copy::write_strided(&self.st.regions, target, addr, shape, src);
        }
        self.remote_access(Op::StridedPut, target, addr, shape.extent_bytes(), src.len(), at)?;
        self.st.backend.put_strided(target, addr, shape, src)
    }

    /// Runs `f` with a scope in which gets and puts are started without waiting; they all
    /// complete (are flushed) before this returns, and buffers lent to them stay borrowed until
    /// then. **One-sided.**
    ///
    /// ```
    /// use atoll_runtime::{run, Config};
    /// run(Config::local(3), |ctx| {
    ///     let mut a = ctx.alloc_symmetric::<u32>(1)?;
    ///     a.local_mut()[0] = ctx.id() as u32 + 100;
    ///     ctx.barrier()?;
    ///     let mut got = vec![[0u32; 1]; ctx.num_locales()];
    ///     ctx.nonblocking(|nb| {
    ///         for (l, slot) in got.iter_mut().enumerate() {
    ///             nb.get(a.ptr(l), slot)?;
    ///         }
    ///         Ok(())
    ///     })?;
    ///     assert_eq!(got, vec![[100], [101], [102]]);
    ///     a.free()
    /// }).unwrap();
    /// ```
    pub fn nonblocking<'buf, R>(&self, f: impl FnOnce(&NbScope<'buf, '_>) -> Result<R>) -> Result<R> {
        let scope = NbScope { ctx: self, _buf: PhantomData };
        let r = f(&scope);
        let flushed = self.st.backend.flush_all();
        let r = r?;
        flushed?;
        Ok(r)
    }

    // ----- atomics ----------------------------------------------------------------------

    fn atomic_target(&self, p: GlobalPtr<u64>, at: &Location<'_>) -> Result<()> {
        self.check_locale(p.locale)?;
        if p.addr % 8 != 0 {
            return Err(Error::Misaligned { locale: p.locale, addr: p.addr });
        }
        self.remote_access(Op::Atomic, p.locale, p.addr, 8, 8, at)
    }

    /// Atomically adds `v` (wrapping) to the word at `p`; returns the previous value.
    /// **One-sided.** Atomic with respect to every other Atoll atomic on that word, whichever
    /// locale issues it (including the owner, which goes through the same path).
    #[track_caller]
    pub fn fetch_add(&self, p: GlobalPtr<u64>, v: u64) -> Result<u64> {
        if p.locale == self.st.id {
            return local_copy::fetch_add(&self.st.regions, p.locale, p.addr, v);
        }
        self.atomic_target(p, Location::caller())?;
        self.st.backend.fetch_add_u64(p.locale, p.addr, v)
    }

    /// Atomically replaces the word at `p` with `new` if it equals `current`; returns the
    /// previous value (the exchange happened if it equals `current`). **One-sided.**
    #[track_caller]
    pub fn compare_exchange(&self, p: GlobalPtr<u64>, current: u64, new: u64) -> Result<u64> {
        if p.locale == self.st.id {
            return local_copy::compare_exchange(&self.st.regions, p.locale, p.addr, current, new);
        }
        self.atomic_target(p, Location::caller())?;
        self.st.backend.compare_exchange_u64(p.locale, p.addr, current, new)
    }

    // ----- active messages --------------------------------------------------------------

    /// Runs handler `h` with `args` on locale `target` and returns its result. **One-sided**
    /// (the target's handler threads serve it without the target's code taking part).
    ///
    /// On this locale it is a direct call (no serialization) with the same checks as a remote
    /// one: the handler must be registered, and a panic comes back as
    /// [`Error::HandlerPanicked`] whichever locale is the target. The arguments and the result
    /// are serialized when they travel; errors raised by the handler come back as they are.
    #[track_caller]
    pub fn on<A, R>(&self, target: usize, h: &'static Handler<A, R>, args: A) -> Result<R>
    where
        A: Serialize + DeserializeOwned + Send + 'static,
        R: Serialize + DeserializeOwned + Send + 'static,
    {
        self.check_locale(target)?;
        if target == self.st.id {
            return self.call_here(h, args);
        }
        self.on_blocking(target, None, h, args, Location::caller())
    }

    fn on_blocking<A, R>(&self, target: usize, sub: Option<usize>, h: &'static Handler<A, R>, args: A, at: &Location<'_>) -> Result<R>
    where
        A: Serialize + DeserializeOwned + Send + 'static,
        R: Serialize + DeserializeOwned + Send + 'static,
    {
        let payload = encode(&args)?;
        self.st.diag.record(Op::Am, target, payload.len(), at);
        self.wake(target);
        let reply = self.st.backend.request_blocking(target, h.id(), sub, payload);
        self.finish_reply(reply, h.name())
    }

    /// Like [`Ctx::on`], returning at once with a reply to wait for. **One-sided.**
    #[track_caller]
    pub fn on_async<A, R>(&self, target: usize, h: &'static Handler<A, R>, args: A) -> Result<Pending<R>>
    where
        A: Serialize + DeserializeOwned + Send + 'static,
        R: Serialize + DeserializeOwned + Send + 'static,
    {
        self.on_async_at(target, None, h, args, Location::caller())
    }

    /// Runs handler `h` on sublocale `sub` of locale `target` (on that sublocale's pinned task
    /// pool). **One-sided.**
    #[track_caller]
    pub fn on_sublocale<A, R>(&self, target: usize, sub: usize, h: &'static Handler<A, R>, args: A) -> Result<R>
    where
        A: Serialize + DeserializeOwned + Send + 'static,
        R: Serialize + DeserializeOwned + Send + 'static,
    {
        self.check_locale(target)?;
        if target == self.st.id {
            return self.call_here_on(h, sub, args);
        }
        self.on_blocking(target, Some(sub), h, args, Location::caller())
    }

    fn on_async_at<A, R>(
        &self,
        target: usize,
        sub: Option<usize>,
        h: &'static Handler<A, R>,
        args: A,
        at: &Location<'_>,
    ) -> Result<Pending<R>>
    where
        A: Serialize + DeserializeOwned + Send + 'static,
        R: Serialize + DeserializeOwned + Send + 'static,
    {
        self.check_locale(target)?;
        if target == self.st.id {
            let r = match sub {
                None => self.call_here(h, args),
                Some(s) => self.call_here_on(h, s, args),
            };
            return Ok(Pending { reply: None, ready: Some(r), ctx: self.clone(), name: h.name() });
        }
        let payload = encode(&args)?;
        self.st.diag.record(Op::Am, target, payload.len(), at);
        self.wake(target);
        let reply = self.st.backend.request(target, h.id(), sub, payload)?;
        Ok(Pending { reply: Some(reply), ready: None, ctx: self.clone(), name: h.name() })
    }

    fn finish_reply<R: DeserializeOwned>(&self, bytes: Result<Vec<u8>>, name: &str) -> Result<R> {
        match bytes {
            Ok(b) => {
                self.st.diag.record_bytes(b.len());
                decode(&b)
            }
            Err(Error::HandlerNotRegistered { id, locale, .. }) => {
                Err(Error::HandlerNotRegistered { name: name.to_string(), id, locale })
            }
            Err(e) => Err(e),
        }
    }

    /// Runs `h(args)` on every locale at once (this one included) and returns the results in
    /// locale order: Chapel's `coforall loc in Locales do on loc`. **One-sided**: only the
    /// caller takes part; the handlers run on the locales' handler threads.
    ///
    /// ```
    /// use atoll_runtime::{run, Config, Ctx, Handler, Result};
    /// fn whoami(ctx: &Ctx, base: usize) -> Result<usize> { Ok(base + ctx.id()) }
    /// static WHO: Handler<usize, usize> = Handler::new("doc::whoami", whoami);
    /// WHO.register();
    /// let ids = run(Config::local(3), |ctx| {
    ///     if ctx.id() == 0 { ctx.coforall_locales(&WHO, 10) } else { Ok(vec![]) }
    /// }).unwrap();
    /// assert_eq!(ids, vec![10, 11, 12]);
    /// ```
    #[track_caller]
    pub fn coforall_locales<A, R>(&self, h: &'static Handler<A, R>, args: A) -> Result<Vec<R>>
    where
        A: Serialize + DeserializeOwned + Clone + Send + 'static,
        R: Serialize + DeserializeOwned + Send + 'static,
    {
        let at = Location::caller();
        let pending: Vec<Option<Pending<R>>> = (0..self.st.n)
            .map(|l| if l == self.st.id { Ok(None) } else { self.on_async_at(l, None, h, args.clone(), at).map(Some) })
            .collect::<Result<_>>()?;
        let mut mine = Some(self.call_here(h, args));
        pending.into_iter().map(|p| match p { Some(p) => p.wait(), None => mine.take().expect("own result") }).collect()
    }

    // ----- tasks ------------------------------------------------------------------------

    /// Runs `f(task)` for `task` in `0..n` as `n` concurrent tasks on this locale (each on its
    /// own thread, so tasks may wait for each other) and returns their results in order:
    /// Chapel's `coforall`. **One-sided.**
    pub fn coforall_tasks<R: Send>(&self, n: usize, f: impl Fn(usize) -> R + Sync) -> Vec<R> {
        let me = self.st.id;
        let cores = self.here().cores().to_vec();
        let pin = self.st.config.pin;
        std::thread::scope(|s| {
            let hs: Vec<_> = (0..n)
                .map(|t| {
                    let f = &f;
                    let cores = &cores;
                    s.spawn(move || {
                        if pin {
                            let _ = crate::affinity::pin_current_thread(cores);
                        }
                        attribution::as_locale(me, || f(t))
                    })
                })
                .collect();
            hs.into_iter().map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p))).collect()
        })
    }

    /// Runs `f(i)` for every `i` in `range` on this locale's task pools (dynamic chunking).
    /// **One-sided.**
    ///
    /// ```
    /// use atoll_runtime::{run, Config};
    /// use std::sync::atomic::{AtomicU64, Ordering};
    /// run(Config::local(2), |ctx| {
    ///     let sum = AtomicU64::new(0);
    ///     ctx.forall(0..1000, |i| { sum.fetch_add(i as u64, Ordering::Relaxed); });
    ///     assert_eq!(sum.into_inner(), 499_500);
    ///     Ok(())
    /// }).unwrap();
    /// ```
    pub fn forall(&self, range: Range<usize>, f: impl Fn(usize) + Sync) {
        self.forall_chunks(range, |r| r.for_each(&f));
    }

    /// Runs `f(sub_range)` over chunks of `range` on this locale's task pools (dynamic
    /// chunking, about 16 chunks per thread). When `range` is a single chunk, it runs on the
    /// calling thread: the hand-off to a pool thread and back costs microseconds, more than
    /// a small loop. **One-sided.**
    pub fn forall_chunks(&self, range: Range<usize>, f: impl Fn(Range<usize>) + Sync) {
        let chunk = self.here().default_chunk(range.len());
        self.forall_chunks_with(range, chunk, f);
    }

    /// Like [`Ctx::forall_chunks`] with an explicit chunk size.
    pub fn forall_chunks_with(&self, range: Range<usize>, chunk: usize, f: impl Fn(Range<usize>) + Sync) {
        self.here().for_chunks(range, chunk, &|_, r| f(r));
    }

    /// Reduces `fold(acc, i)` over `range` on this locale's task pools, starting each chunk
    /// from `identity` and combining the chunks' results with `combine` in chunk order (so the
    /// result does not depend on the schedule). **One-sided.**
    ///
    /// ```
    /// use atoll_runtime::{run, Config};
    /// run(Config::local(1), |ctx| {
    ///     let s = ctx.forall_reduce(0..10_000, 0.0f64, |a, i| a + i as f64, |a, b| a + b);
    ///     assert_eq!(s, 49_995_000.0);
    ///     let m = ctx.forall_reduce(0..10_000, u64::MAX, |a, i| a.min((i as u64 * 7919) % 10_007), u64::min);
    ///     assert_eq!(m, 0);
    ///     Ok(())
    /// }).unwrap();
    /// ```
    pub fn forall_reduce<T: Send + Sync + Clone>(
        &self,
        range: Range<usize>,
        identity: T,
        fold: impl Fn(T, usize) -> T + Sync,
        combine: impl Fn(T, T) -> T,
    ) -> T {
        let chunk = self.here().default_chunk(range.len());
        let partials = std::sync::Mutex::new(Vec::new());
        let n = self.here().for_chunks(range, chunk, &|c, r| {
            let v = r.fold(identity.clone(), &fold);
            crate::sync::lock(&partials).push((c, v));
        });
        let mut parts = partials.into_inner().unwrap_or_else(|e| e.into_inner());
        debug_assert_eq!(parts.len(), n);
        parts.sort_by_key(|(c, _)| *c);
        parts.into_iter().fold(identity, |a, (_, v)| combine(a, v))
    }

    // ----- collectives ------------------------------------------------------------------

    /// Starts a collective: numbers it and, when checking is on, verifies that every locale
    /// reached the same one; when it is off, notes the collective for the backend's cheap
    /// order check (`comm/coll_note.rs`).
    #[track_caller]
    pub(crate) fn coll_enter(&self, kind: &'static str) -> Result<()> {
        let seq = self.st.coll_seq.fetch_add(1, Ordering::Relaxed);
        if !self.st.config.check_collectives {
            self.st.backend.note_collective(seq, kind, std::panic::Location::caller());
            return Ok(());
        }
        let all = self.st.backend.allgather(&encode(&(seq, kind))?)?;
        let mut first: Option<(u64, String)> = None;
        for (l, h) in all.iter().enumerate() {
            let (s, k): (u64, String) = decode(h)?;
            match &first {
                None => first = Some((s, k)),
                Some((s0, k0)) if *s0 != s || *k0 != k => {
                    return Err(Error::CollectiveMismatch {
                        locale: l,
                        seq: *s0,
                        expected: format!("{k0} (#{s0})"),
                        found: format!("{k} (#{s})"),
                    })
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// Waits until every locale has reached the barrier. **Collective.**
    #[track_caller]
    pub fn barrier(&self) -> Result<()> {
        self.coll_enter("barrier")?;
        self.st.backend.barrier()
    }

    /// Returns `value` of locale `root` on every locale. **Collective.** Locale `root` passes
    /// `Some(value)`; the others' argument is ignored (pass `None`).
    ///
    /// ```
    /// use atoll_runtime::{run, Config};
    /// run(Config::local(3), |ctx| {
    ///     let v = ctx.broadcast(2, (ctx.id() == 2).then(|| "from two".to_string()))?;
    ///     assert_eq!(v, "from two");
    ///     Ok(())
    /// }).unwrap();
    /// ```
    #[track_caller]
    pub fn broadcast<T: Serialize + DeserializeOwned>(&self, root: usize, value: Option<T>) -> Result<T> {
        self.check_locale(root)?;
        self.coll_enter("broadcast")?;
        let mine = if self.st.id == root { encode(&value)? } else { Vec::new() };
        let got: Option<T> = decode(&self.st.backend.broadcast(root, mine)?)?;
        got.ok_or_else(|| invalid_arg!("broadcast: the root locale {root} passed no value"))
    }

    /// Every locale's `value`, in locale order. **Collective.**
    #[track_caller]
    pub fn allgather<T: Serialize + DeserializeOwned>(&self, value: &T) -> Result<Vec<T>> {
        self.coll_enter("allgather")?;
        self.allgather_raw(value)
    }

    pub(crate) fn allgather_raw<T: Serialize + DeserializeOwned>(&self, value: &T) -> Result<Vec<T>> {
        let mut out = Vec::with_capacity(self.st.n);
        self.st.backend.allgather_visit(&encode(value)?, &mut |b| {
            out.push(decode(b)?);
            Ok(())
        })?;
        Ok(out)
    }

    /// Every locale's `value` on `root`, in locale order; an empty vector elsewhere.
    /// **Collective.**
    #[track_caller]
    pub fn gather<T: Serialize + DeserializeOwned>(&self, root: usize, value: &T) -> Result<Vec<T>> {
        self.check_locale(root)?;
        self.coll_enter("gather")?;
        self.st.backend.gather(root, &encode(value)?)?.iter().map(|b| decode(b)).collect()
    }

    /// Combines every locale's `value` with `op`, in locale order, and returns the result on
    /// every locale (the same bits everywhere, floating point included). **Collective.**
    ///
    /// ```
    /// use atoll_runtime::{run, Config};
    /// run(Config::local(4), |ctx| {
    ///     let s = ctx.allreduce(ctx.id() as u64 + 1, |a, b| a + b)?;
    ///     assert_eq!(s, 10);
    ///     let m = ctx.allreduce(ctx.id() as f64, f64::max)?;
    ///     assert_eq!(m, 3.0);
    ///     Ok(())
    /// }).unwrap();
    /// ```
    #[track_caller]
    pub fn allreduce<T: Serialize + DeserializeOwned>(&self, value: T, op: impl Fn(T, T) -> T) -> Result<T> {
        self.coll_enter("allreduce")?;
        crate::comm::combine::allreduce(&*self.st.backend, value, op)
    }

    /// The combination with `op` of the values of the locales before this one (`identity` on
    /// locale 0): an exclusive scan. **Collective.**
    ///
    /// ```
    /// use atoll_runtime::{run, Config};
    /// run(Config::local(4), |ctx| {
    ///     let offset = ctx.exscan(10u64, 0, |a, b| a + b)?;
    ///     assert_eq!(offset, 10 * ctx.id() as u64);
    ///     Ok(())
    /// }).unwrap();
    /// ```
    #[track_caller]
    pub fn exscan<T: Serialize + DeserializeOwned>(&self, value: T, identity: T, op: impl Fn(T, T) -> T) -> Result<T> {
        self.coll_enter("exscan")?;
        crate::comm::combine::exscan(&*self.st.backend, self.st.id, value, identity, op)
    }

    /// Sends `out[d]` to locale `d` and returns what every locale sent here, in locale order.
    /// **Collective.** `out` must have one entry per locale.
    ///
    /// ```
    /// use atoll_runtime::{run, Config};
    /// run(Config::local(3), |ctx| {
    ///     let me = ctx.id() as u64;
    ///     let out: Vec<Vec<u64>> = (0..3).map(|d| vec![me * 10 + d; d as usize + 1]).collect();
    ///     let got = ctx.alltoallv(out)?;
    ///     for (src, v) in got.iter().enumerate() {
    ///         assert_eq!(v, &vec![src as u64 * 10 + me; ctx.id() + 1]);
    ///     }
    ///     Ok(())
    /// }).unwrap();
    /// ```
    #[track_caller]
    pub fn alltoallv<T: Pod>(&self, out: Vec<Vec<T>>) -> Result<Vec<Vec<T>>> {
        if out.len() != self.st.n {
            return Err(Error::ShapeMismatch {
                context: "alltoallv".into(),
                left: format!("{} outgoing buffers", out.len()),
                right: format!("{} locales", self.st.n),
            });
        }
        self.coll_enter("alltoallv")?;
        let bytes: Vec<Vec<u8>> = out.iter().map(|v| bytemuck::cast_slice::<T, u8>(v).to_vec()).collect();
        drop(out);
        let got = self.st.backend.alltoallv(bytes)?;
        let es = std::mem::size_of::<T>().max(1);
        got.into_iter()
            .map(|b| {
                if b.len() % es != 0 {
                    return Err(Error::Comm { locale: self.st.id, message: "alltoallv: a torn element arrived".into() });
                }
                Ok(bytemuck::pod_collect_to_vec::<u8, T>(&b))
            })
            .collect()
    }

    // ----- diagnostics ------------------------------------------------------------------

    /// Starts counting communication on every locale. **Collective.**
    pub fn start_comm_diagnostics(&self) -> Result<()> {
        self.coll_enter("start_comm_diagnostics")?;
        self.st.diag.set_enabled(true);
        self.st.backend.barrier()
    }

    /// Stops counting (after every locale has reached this point). **Collective.**
    pub fn stop_comm_diagnostics(&self) -> Result<()> {
        self.coll_enter("stop_comm_diagnostics")?;
        self.st.backend.barrier()?;
        self.st.diag.set_enabled(false);
        Ok(())
    }

    /// Sets every locale's counters to zero. **Collective.**
    pub fn reset_comm_diagnostics(&self) -> Result<()> {
        self.coll_enter("reset_comm_diagnostics")?;
        self.st.backend.barrier()?;
        self.st.diag.reset();
        self.st.backend.barrier()
    }

    /// This locale's counters now. **One-sided** (reads local state only).
    pub fn comm_counts(&self) -> CommCounts {
        self.st.diag.counts()
    }

    /// Every locale's counters, in locale order. **Collective.**
    pub fn comm_diagnostics(&self) -> Result<Vec<CommCounts>> {
        self.coll_enter("comm_diagnostics")?;
        self.allgather_raw(&self.st.diag.counts())
    }

    /// Prints the per-locale table of counters on locale 0 (Chapel's
    /// `printCommDiagnosticsTable`) and returns it. **Collective.**
    pub fn print_comm_diagnostics_table(&self) -> Result<String> {
        let t = CommTable(self.comm_diagnostics()?).to_string();
        if self.st.id == 0 {
            print!("{t}");
        }
        Ok(t)
    }

    /// Turns printing of every communication operation of this locale on or off.
    pub fn set_verbose_comm(&self, on: bool) {
        self.st.diag.set_verbose(on);
    }

    /// Runs `f` with the operations *this thread* makes left out of the communication
    /// counters and the trace (the other threads of the locale are still counted): for
    /// measurements the library makes for itself, such as calibrating a cost model, which
    /// must not show in a program's counts. **Local.**
    pub fn uncounted<R>(&self, f: impl FnOnce() -> R) -> R {
        crate::diagnostics::uncounted(f)
    }
}

/// The bytes of `len` elements of `T`, or the error every locale will report if that is not
/// a possible allocation.
fn symmetric_bytes<T>(operation: &str, len: usize) -> Result<u64> {
    let size = std::mem::size_of::<T>();
    match len.checked_mul(size) {
        Some(b) if b <= isize::MAX as usize => Ok(b as u64),
        _ => Err(invalid_arg!(
            "{operation}: {len} elements of {size} bytes ({}) exceed the largest possible allocation ({} bytes)",
            std::any::type_name::<T>(),
            isize::MAX
        )),
    }
}

/// A scope for non-blocking transfers; see [`Ctx::nonblocking`].
pub struct NbScope<'buf, 'c> {
    ctx: &'c Ctx,
    _buf: PhantomData<std::cell::Cell<&'buf mut ()>>,
}

impl<'buf> NbScope<'buf, '_> {
    /// Starts a get into `dst`, complete when the scope ends. **One-sided.**
    #[track_caller]
    pub fn get<T: Pod>(&self, src: GlobalPtr<T>, dst: &'buf mut [T]) -> Result<()> {
        let ctx = self.ctx;
        let bytes: &mut [u8] = bytemuck::cast_slice_mut(dst);
        if bytes.is_empty() {
            return ctx.check_locale(src.locale);
        }
        if src.locale == ctx.st.id {
            return local_copy::read(&ctx.st.regions, src.locale, src.addr, bytes);
        }
        ctx.remote_access(Op::Get, src.locale, src.addr, bytes.len(), bytes.len(), Location::caller())?;
        // SAFETY: `dst` is mutably borrowed for 'buf, which outlives the enclosing
        // `Ctx::nonblocking` call, and that call flushes every transfer before returning; so
        // the buffer is valid and unaliased until completion.
        unsafe { ctx.st.backend.get_nb(src.locale, src.addr, bytes.as_mut_ptr(), bytes.len()) }
    }

    /// Starts a put from `src`, complete when the scope ends. **One-sided.**
    #[track_caller]
    pub fn put<T: Pod>(&self, dst: GlobalPtr<T>, src: &'buf [T]) -> Result<()> {
        let ctx = self.ctx;
        let bytes: &[u8] = bytemuck::cast_slice(src);
        if bytes.is_empty() {
            return ctx.check_locale(dst.locale);
        }
        if dst.locale == ctx.st.id {
            return local_copy::write(&ctx.st.regions, dst.locale, dst.addr, bytes);
        }
        ctx.remote_access(Op::Put, dst.locale, dst.addr, bytes.len(), bytes.len(), Location::caller())?;
        // SAFETY: `src` is borrowed for 'buf, beyond the flush at the end of the scope.
        unsafe { ctx.st.backend.put_nb(dst.locale, dst.addr, bytes.as_ptr(), bytes.len()) }
    }

    /// Completes every transfer started so far in this scope.
    pub fn flush(&self) -> Result<()> {
        self.ctx.st.backend.flush_all()
    }
}

/// Registered memory allocated collectively: this locale's part, and the global address of
/// every locale's part. Made by [`Ctx::alloc_symmetric`] or [`Ctx::alloc_symmetric_for`]; it
/// holds its bytes' commitment in this locale's memory budget until it is freed or dropped.
pub struct Symmetric<T: Pod> {
    ctx: Ctx,
    data: SymData<T>,
    ptrs: Vec<GlobalPtr<T>>,
    lens: Vec<usize>,
    freed: bool,
    /// This locale's bytes in its memory budget, released with the memory.
    held: Option<atoll_mem::Commitment>,
}

impl<T: Pod> Symmetric<T> {
    /// This locale's part.
    pub fn local(&self) -> &[T] {
        self.data.as_slice()
    }

    /// This locale's part, writable. Remote puts may also write it: synchronize (a barrier)
    /// between remote writes and local reads, as with any PGAS memory.
    pub fn local_mut(&mut self) -> &mut [T] {
        self.data.as_mut_slice()
    }

    /// The global address of locale `l`'s part.
    ///
    /// Never panics: for `l >= num_locales` it is a pointer to locale `l` that every operation
    /// refuses with [`Error::InvalidLocale`] (use [`Symmetric::try_ptr`] to get that error
    /// here).
    pub fn ptr(&self, l: usize) -> GlobalPtr<T> {
        self.ptrs.get(l).copied().unwrap_or(GlobalPtr::new(l, 0))
    }

    /// The global address of locale `l`'s part, or [`Error::InvalidLocale`].
    pub fn try_ptr(&self, l: usize) -> Result<GlobalPtr<T>> {
        self.ctx.check_locale(l)?;
        Ok(self.ptrs[l])
    }

    /// The length of locale `l`'s part: 0 for `l >= num_locales` (no locale there holds
    /// anything; [`Symmetric::try_len_on`] gives [`Error::InvalidLocale`] instead).
    pub fn len_on(&self, l: usize) -> usize {
        self.lens.get(l).copied().unwrap_or(0)
    }

    /// The length of locale `l`'s part, or [`Error::InvalidLocale`].
    pub fn try_len_on(&self, l: usize) -> Result<usize> {
        self.ctx.check_locale(l)?;
        Ok(self.lens[l])
    }

    /// The bytes of this locale's part counted in its memory budget (`len * size_of::<T>()`;
    /// 0 once freed).
    pub fn committed_bytes(&self) -> u64 {
        self.held.as_ref().map_or(0, atoll_mem::Commitment::bytes)
    }

    /// Deregisters and frees the memory once every locale is done with it. **Collective.**
    pub fn free(mut self) -> Result<()> {
        self.release()
    }

    fn release(&mut self) -> Result<()> {
        if self.freed {
            return Ok(());
        }
        self.freed = true;
        let r = self.ctx.barrier();
        // SAFETY: the barrier above means no locale still accesses this memory through the
        // Symmetric (the program's contract for collective frees); remote caches forget it.
        let d = unsafe { self.ctx.deregister(self.data.as_slice()) };
        for (l, p) in self.ptrs.iter().enumerate() {
            if l != self.ctx.id() {
                self.ctx.st.remote.forget(l, p.addr());
                self.ctx.st.backend.unmap_shared(l, p.addr());
            }
        }
        // Free the memory, then give its bytes back to the budget.
        drop(std::mem::take(&mut self.data));
        self.held = None;
        r.and(d)
    }
}

impl<T: Pod> Drop for Symmetric<T> {
    fn drop(&mut self) {
        // A Symmetric dropped without `free` is still freed collectively (every locale drops
        // its part at the same point of the program); errors can only be ignored here.
        let _ = self.release();
    }
}
