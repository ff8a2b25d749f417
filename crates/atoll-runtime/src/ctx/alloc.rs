//! Registration and symmetric allocation: memory that other locales reach.

use super::{Ctx, GlobalPtr};
use crate::memory::external::ExternalBlock;
use crate::memory::symmetric_data::{poison_overwrites, PartInit, SymData, POISON};
#[cfg(doc)]
use atoll_error::Error;
use atoll_error::{invalid_arg, Result};
use bytemuck::Pod;

impl Ctx {
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
        self.alloc_symmetric_with(operation, len, PartInit::Eager)
    }

    /// [`Ctx::alloc_symmetric_for`] without the first-touch pass: the zeroed pages come from
    /// the OS untouched, and each is placed (on a NUMA machine) where the thread that first
    /// writes it runs, like NumPy's `zeros`. For buffers that a parallel pass overwrites at
    /// once (a sort's output): it saves one write of the whole buffer. **Collective.**
    ///
    /// # Errors
    /// As [`Ctx::alloc_symmetric_for`].
    pub fn alloc_symmetric_lazy_for<T: Pod + Send + Sync>(&self, operation: &str, len: usize) -> Result<Symmetric<T>> {
        self.alloc_symmetric_with(operation, len, PartInit::Lazy)
    }

    /// [`Ctx::alloc_symmetric_lazy_for`] for a buffer that its holder overwrites entirely
    /// before reading any of it (a result array, a sort's buffers), like NumPy's `empty`: a
    /// part reused from the page pool or a kept MPI segment is not zeroed and holds values an
    /// earlier allocation of this process wrote (fresh pages are zero). It saves a write of
    /// the whole part (~25 GB/s) when the pool serves it. Under `ATOLL_POISON_OVERWRITE`
    /// every byte of the new part is [`POISON`] instead ([`poison_overwrites`]: the test
    /// suites run so, to catch an element read before it is written). **Collective.**
    ///
    /// # Errors
    /// As [`Ctx::alloc_symmetric_for`].
    pub fn alloc_symmetric_for_overwrite<T: Pod + Send + Sync>(
        &self,
        operation: &str,
        len: usize,
    ) -> Result<Symmetric<T>> {
        let mut s = self.alloc_symmetric_with(operation, len, PartInit::Overwrite)?;
        if poison_overwrites() {
            bytemuck::cast_slice_mut::<T, u8>(s.local_mut()).fill(POISON);
        }
        Ok(s)
    }

    fn alloc_symmetric_with<T: Pod + Send + Sync>(
        &self,
        operation: &str,
        len: usize,
        init: PartInit,
    ) -> Result<Symmetric<T>> {
        let bytes = symmetric_bytes::<T>(operation, len);
        let lazy = init != PartInit::Eager;
        self.alloc_symmetric_from(operation, bytes, || {
            // Node-shared memory where the backend has it (MPI ranks of one host map each
            // other's parts), else the heap. `bytes` fitted the budget, so it is a valid size.
            let nbytes = len * std::mem::size_of::<T>();
            let shared = if nbytes > 0 { self.st.backend.alloc_shared(nbytes, init) } else { None };
            // Large lazy heap parts come from the page pool: a freed part of this locale of a
            // similar size (zeroed unless made to be overwritten) instead of fresh pages
            // (`memory/page_pool.rs`; fresh ones are advised for huge pages). Eager ones keep
            // `alloc_filled`, whose threads first-touch each sublocale's share (NUMA placement).
            let pooled = || {
                if lazy {
                    crate::memory::symmetric_data::Pooled::new(self.id(), len, init).map(SymData::Pooled)
                } else {
                    None
                }
            };
            match shared.and_then(|m| SymData::shared(m, len)).or_else(pooled) {
                Some(d) => d,
                // Large heap parts get huge pages (`memory/hugepages.rs`; `alloc_filled` advises too).
                None if lazy => SymData::Heap(crate::memory::hugepages::zeroed_vec::<T>(len)),
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
    pub fn alloc_symmetric_external_for<T: Pod + Send + Sync>(
        &self,
        operation: &str,
        len: usize,
        block: Result<ExternalBlock>,
    ) -> Result<Symmetric<T>> {
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
    fn alloc_symmetric_from<T: Pod + Send + Sync>(
        &self,
        operation: &str,
        bytes: Result<u64>,
        make: impl FnOnce() -> SymData<T>,
    ) -> Result<Symmetric<T>> {
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
