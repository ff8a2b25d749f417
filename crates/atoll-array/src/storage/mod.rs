//! The registered per-locale storage of an array, and every raw access to it.
//!
//! Each locale's part is one [`Symmetric`] allocation (registered for remote access, first
//! touched by the locale's sublocales). Arrays, views and the zip engine read and write it
//! only through this module. The contract is PGAS memory's, as in MPI RMA: an element written
//! by one task (or a remote put) while another task reads or writes it, with no barrier in
//! between, gives unspecified values. Atoll's own operations never do that: a `forall` writes
//! each element from one task only, collective operations that reach other locales' memory
//! start and end with a barrier, and every collective loop that writes ends with one. Loops
//! whose operands are all aligned touch only the caller's own elements and skip the leading
//! barrier (`zip/local_only.rs`): one-sided accesses (`get`, `set`) of other locales' elements are
//! ordered with a later collective loop by an explicit `ctx.barrier()`.
//!
//! `stream_store.rs` (public as [`crate::stream_store`]): the streaming (non-temporal) stores
//! with which large assignments write this storage.

pub mod stream_store;

use crate::elem::{as_bytes, as_bytes_mut, store_ptr, Elem};
use atoll_error::Result;
use atoll_runtime::{Ctx, ExternalBlock, GlobalPtr, Symmetric};

/// One locale's part of an array and the global address of every locale's part.
pub(crate) struct Storage<T: Elem> {
    sym: Symmetric<T::Store>,
    base: *mut T,
    len: usize,
}

// SAFETY: `base` points into `sym`'s buffer, which this struct owns; concurrent access follows
// the PGAS contract of the module docs, and the element types are `Send + Sync` values.
unsafe impl<T: Elem> Send for Storage<T> {}
// SAFETY: as above.
unsafe impl<T: Elem> Sync for Storage<T> {}

impl<T: Elem> Storage<T> {
    /// Allocates `len` zeroed elements here, registered. **Collective.**
    pub(crate) fn alloc(ctx: &Ctx, operation: &str, len: usize) -> Result<Self> {
        Self::wrap(ctx.alloc_symmetric_for::<T::Store>(operation, len)?)
    }

    /// [`alloc`](Self::alloc) with pages left untouched until first written
    /// ([`Ctx::alloc_symmetric_lazy_for`]). **Collective.**
    pub(crate) fn alloc_lazy(ctx: &Ctx, operation: &str, len: usize) -> Result<Self> {
        Self::wrap(ctx.alloc_symmetric_lazy_for::<T::Store>(operation, len)?)
    }

    /// [`alloc_lazy`](Self::alloc_lazy) for a part that the caller overwrites entirely before
    /// any element is read: a reused part (page pool, kept MPI segment) keeps an earlier
    /// array's bytes instead of being zeroed ([`Ctx::alloc_symmetric_for_overwrite`]), for the
    /// element types whose every bit pattern is valid (`bool`'s part is zeroed). **Collective.**
    pub(crate) fn alloc_for_overwrite(ctx: &Ctx, operation: &str, len: usize) -> Result<Self> {
        if T::ANY_BITS {
            Self::wrap(ctx.alloc_symmetric_for_overwrite::<T::Store>(operation, len)?)
        } else {
            Self::alloc_lazy(ctx, operation, len)
        }
    }

    /// `len` elements here in memory that `block` owns (a mapped file), registered and
    /// counted in the memory budget ([`Ctx::alloc_symmetric_external_for`]). **Collective.**
    pub(crate) fn external(ctx: &Ctx, operation: &str, len: usize, block: Result<ExternalBlock>) -> Result<Self> {
        Self::wrap(ctx.alloc_symmetric_external_for::<T::Store>(operation, len, block)?)
    }

    fn wrap(mut sym: Symmetric<T::Store>) -> Result<Self> {
        let base = store_ptr::<T>(sym.local_mut().as_mut_ptr());
        let len = sym.local().len();
        Ok(Storage { sym, base, len })
    }

    /// The local part.
    pub(crate) fn local(&self) -> &[T] {
        // SAFETY: `base..base+len` is the live buffer of `sym`, initialized: zeroed (0 is
        // `false`), or for `ANY_BITS` types possibly an earlier part's bytes
        // (`alloc_for_overwrite`), valid for every such type; writes store valid elements and
        // follow the module's PGAS contract.
        unsafe { std::slice::from_raw_parts(self.base, self.len) }
    }

    /// The local part, writable.
    ///
    /// # Safety
    /// No other reference to the local part (from this storage or a view of its array) may be
    /// used while the returned slice lives.
    #[allow(clippy::mut_from_ref)]
    pub(crate) unsafe fn local_mut(&self) -> &mut [T] {
        // SAFETY: `base..base+len` is the live buffer of `sym`, initialized; the caller
        // guarantees exclusivity. The slice is made from the raw pointer, never from `&self`.
        unsafe { std::slice::from_raw_parts_mut(self.base, self.len) }
    }

    /// Reads local element `off`.
    ///
    /// # Safety
    /// `off < len()`.
    #[inline]
    pub(crate) unsafe fn read(&self, off: usize) -> T {
        debug_assert!(off < self.len);
        // SAFETY: in bounds by the caller's contract; PGAS contract for concurrency.
        unsafe { self.base.add(off).read() }
    }

    /// Writes local element `off`.
    ///
    /// # Safety
    /// `off < len()`, and no other task accesses element `off` concurrently.
    #[inline]
    pub(crate) unsafe fn write(&self, off: usize, v: T) {
        debug_assert!(off < self.len);
        // SAFETY: in bounds and unshared by the caller's contract.
        unsafe { self.base.add(off).write(v) }
    }

    /// The local elements `off..off + len`.
    ///
    /// # Safety
    /// The range is in bounds and no task writes it while the slice lives.
    #[inline]
    pub(crate) unsafe fn row(&self, off: usize, len: usize) -> &[T] {
        debug_assert!(off + len <= self.len);
        // SAFETY: by the caller's contract.
        unsafe { std::slice::from_raw_parts(self.base.add(off), len) }
    }

    /// The local elements `off..off + len`, writable.
    ///
    /// # Safety
    /// The range is in bounds and no other task accesses it while the slice lives.
    #[inline]
    #[allow(clippy::mut_from_ref)]
    pub(crate) unsafe fn row_mut(&self, off: usize, len: usize) -> &mut [T] {
        debug_assert!(off + len <= self.len);
        // SAFETY: by the caller's contract.
        unsafe { std::slice::from_raw_parts_mut(self.base.add(off), len) }
    }

    /// The address of `locale`'s part (its element 0) on that locale: with the element size,
    /// the global address of any of its elements (irregular access, `irregular/mod.rs`).
    pub(crate) fn base_addr(&self, locale: usize) -> u64 {
        self.sym.ptr(locale).addr()
    }

    /// The global address of element `off` of `locale`'s part, as bytes.
    fn gptr(&self, locale: usize, off: usize) -> GlobalPtr<u8> {
        let p = self.sym.ptr(locale);
        GlobalPtr::new(locale, p.addr() + (off * size_of::<T>()) as u64)
    }

    /// A pointer to elements `off..off + len` of `locale`'s part through which this process may
    /// load them in place ([`Ctx::direct_ptr`]): `Some` for this locale, for every locale of the
    /// local backend and for node peers whose memory the backend maps; `None` where only gets
    /// reach it. **One-sided**, no message.
    pub(crate) fn direct(&self, ctx: &Ctx, locale: usize, off: usize, len: usize) -> Result<Option<*mut T>> {
        Ok(ctx.direct_ptr(self.gptr(locale, off), len * size_of::<T>())?.map(|p| p.cast::<T>()))
    }

    /// Counts the loads of `len` elements of `locale`'s part at `off` made through
    /// [`Storage::direct`] as the transfer they replace: one strided get (`strided`) or one get.
    #[track_caller]
    pub(crate) fn count_direct(&self, ctx: &Ctx, locale: usize, off: usize, len: usize, strided: bool) {
        let (p, bytes) = (self.gptr(locale, off), len * size_of::<T>());
        if strided {
            ctx.count_direct_strided_get(p, bytes);
        } else {
            ctx.count_direct_get(p, bytes);
        }
    }

    /// Counts the stores of `len` elements into `locale`'s part at `off` made through
    /// [`Storage::direct`] as the put they replace.
    #[track_caller]
    pub(crate) fn count_direct_put(&self, ctx: &Ctx, locale: usize, off: usize, len: usize) {
        ctx.count_direct_put(self.gptr(locale, off), len * size_of::<T>());
    }

    /// Copies `dst.len()` elements from `locale`'s part at `off`. **One-sided.**
    #[track_caller]
    pub(crate) fn get(&self, ctx: &Ctx, locale: usize, off: usize, dst: &mut [T]) -> Result<()> {
        // SAFETY: the bytes come from `locale`'s storage of `T` values.
        ctx.get(self.gptr(locale, off), unsafe { as_bytes_mut(dst) })
    }

    /// Copies `src` into `locale`'s part at `off`. **One-sided.**
    #[track_caller]
    pub(crate) fn put(&self, ctx: &Ctx, locale: usize, off: usize, src: &[T]) -> Result<()> {
        ctx.put(self.gptr(locale, off), as_bytes(src))
    }

    /// One strided get from `locale`'s part: `counts`/`strides` in elements, outermost first;
    /// `dst` receives the elements packed row-major. **One-sided.**
    #[track_caller]
    pub(crate) fn get_strided(
        &self,
        ctx: &Ctx,
        locale: usize,
        off: usize,
        counts: &[usize],
        strides: &[usize],
        dst: &mut [T],
    ) -> Result<()> {
        let shape = atoll_runtime::Strided::elems(size_of::<T>(), counts, strides)?;
        let p = self.gptr(locale, off);
        // SAFETY: the bytes come from `locale`'s storage of `T` values.
        ctx.get_strided_raw(locale, p.addr(), &shape, unsafe { as_bytes_mut(dst) })
    }

    /// One strided put into `locale`'s part (the inverse of [`Storage::get_strided`]).
    /// **One-sided.** (For followers written in a loop: static aggregation.)
    #[track_caller]
    #[allow(dead_code)]
    pub(crate) fn put_strided(
        &self,
        ctx: &Ctx,
        locale: usize,
        off: usize,
        counts: &[usize],
        strides: &[usize],
        src: &[T],
    ) -> Result<()> {
        let shape = atoll_runtime::Strided::elems(size_of::<T>(), counts, strides)?;
        let p = self.gptr(locale, off);
        ctx.put_strided_raw(locale, p.addr(), &shape, as_bytes(src))
    }

    /// Frees the storage. **Collective.**
    pub(crate) fn free(self) -> Result<()> {
        self.sym.free()
    }
}
