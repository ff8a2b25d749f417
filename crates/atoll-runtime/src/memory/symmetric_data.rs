//! The storage of a [`crate::Symmetric`]: a heap vector, node-shared memory that the
//! backend mapped for node peers (MPI ranks of one host; see `comm/mpi/shm.rs`), or an
//! external block that something else owns (a memory-mapped file of `atoll-share`).

use crate::memory::external::ExternalBlock;
use crate::memory::shared_alloc::SharedAlloc;
use crate::sync::{AtomicU8, Ordering};
use bytemuck::Pod;
use std::marker::PhantomData;

/// What a new symmetric part holds, and who first touches its pages.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PartInit {
    /// Zeros, written now by the locale's own threads (each sublocale its share: NUMA
    /// placement).
    Eager,
    /// Zeros; fresh pages are left untouched until first written.
    Lazy,
    /// As `Lazy`, except that a reused part (page pool, kept MPI segment) keeps what its last
    /// holder wrote instead of being zeroed: values of plain types, for a part that its
    /// holder overwrites before reading.
    Overwrite,
}

/// The byte that fills every new part made to be overwritten
/// (`Ctx::alloc_symmetric_for_overwrite`) when [`poison_overwrites`] is on.
pub const POISON: u8 = 0xA5;

/// 0: not set yet; 1: on; 2: off.
static POISON_STATE: AtomicU8 = AtomicU8::new(0);

/// Whether parts made to be overwritten are filled with [`POISON`] when made, so that an
/// operation that reads an element before writing it shows in the results:
/// [`Config::poison_overwrite`](crate::Config::poison_overwrite) of the job that started last,
/// else of the environment (`ATOLL_POISON_OVERWRITE`; `make test` sets it).
pub fn poison_overwrites() -> bool {
    match POISON_STATE.load(Ordering::Relaxed) {
        1 => true,
        2 => false,
        _ => crate::config::from_env_once().poison_overwrite,
    }
}

/// Sets [`poison_overwrites`] for parts made from now on (a job does it when it starts).
pub(crate) fn set_poison_overwrites(on: bool) {
    POISON_STATE.store(if on { 1 } else { 2 }, Ordering::Relaxed);
}

/// `len` elements of `T`, in a `Vec` or in shared memory.
pub(crate) enum SymData<T: Pod> {
    /// Ordinary process memory.
    Heap(Vec<T>),
    /// A shared mapping of at least `len * size_of::<T>()` bytes.
    Shared { mem: SharedAlloc, len: usize, _t: PhantomData<T> },
    /// `len` elements at `ptr`, inside `_block` (which keeps them mapped).
    External { ptr: *mut T, len: usize, _block: ExternalBlock },
    /// A buffer of the page pool (`memory/page_pool.rs`), given back when dropped.
    Pooled(Pooled<T>),
}

/// `len` elements in a buffer of the page pool that locale `locale` took, given back to the
/// pool when dropped.
pub(crate) struct Pooled<T> {
    buf: Option<crate::memory::page_pool::PoolBuf>,
    locale: usize,
    len: usize,
    _t: PhantomData<T>,
}

impl<T: Pod> Pooled<T> {
    /// `len` elements for locale `locale` from the pool, zeroed unless `init` is
    /// [`PartInit::Overwrite`]; `None` when the pool does not serve this size or type (see
    /// `page_pool::take`).
    pub(crate) fn new(locale: usize, len: usize, init: PartInit) -> Option<Self> {
        if std::mem::align_of::<T>() > crate::memory::page_pool::ALIGN || std::mem::size_of::<T>() == 0 {
            return None;
        }
        let buf = crate::memory::page_pool::take(
            locale,
            len.checked_mul(std::mem::size_of::<T>())?,
            init != PartInit::Overwrite,
        )?;
        Some(Pooled { buf: Some(buf), locale, len, _t: PhantomData })
    }

    fn ptr(&self) -> *mut T {
        self.buf.as_ref().map_or(std::ptr::NonNull::dangling().as_ptr(), |b| b.as_ptr().cast())
    }
}

impl<T> Drop for Pooled<T> {
    fn drop(&mut self) {
        if let Some(b) = self.buf.take() {
            crate::memory::page_pool::give_back(self.locale, b);
        }
    }
}

// SAFETY: `External`'s pointer is into the block that the value owns (ExternalBlock is Send +
// Sync); the other variants are Send + Sync already; `T` values are Pod (Send + Sync).
unsafe impl<T: Pod> Send for SymData<T> {}
// SAFETY: as above; concurrent access follows the PGAS contract of `Symmetric`.
unsafe impl<T: Pod> Sync for SymData<T> {}

impl<T: Pod> SymData<T> {
    /// `len` elements in `mem`, which must hold at least `len * size_of::<T>()` zeroed bytes
    /// (a page-aligned mapping: aligned for any `T`). `None` (and `mem` dropped) otherwise.
    pub(crate) fn shared(mem: SharedAlloc, len: usize) -> Option<Self> {
        let bytes = len.checked_mul(std::mem::size_of::<T>())?;
        let aligned = (mem.ptr() as usize) % std::mem::align_of::<T>() == 0;
        (bytes <= mem.len() && aligned && !mem.ptr().is_null()).then_some(SymData::Shared { mem, len, _t: PhantomData })
    }

    /// `Err` with a message when `block`'s address or size does not fit `len` elements of `T`.
    pub(crate) fn check_external(block: &ExternalBlock, len: usize) -> Result<(), String> {
        let size = std::mem::size_of::<T>();
        if Some(block.bytes) != len.checked_mul(size) {
            return Err(format!(
                "an external block of {} bytes cannot hold {len} elements of {size} bytes",
                block.bytes
            ));
        }
        if block.bytes > 0 && block.addr() % std::mem::align_of::<T>() != 0 {
            return Err(format!(
                "an external block at {:#x} is not aligned for {}",
                block.addr(),
                std::any::type_name::<T>()
            ));
        }
        Ok(())
    }

    /// Wraps a block that [`SymData::check_external`] accepted for `len` elements.
    pub(crate) fn external(block: ExternalBlock, len: usize) -> Self {
        let ptr = if len == 0 { std::ptr::NonNull::<T>::dangling().as_ptr() } else { block.ptr.cast::<T>() };
        SymData::External { ptr, len, _block: block }
    }

    /// The token node peers map this memory with; 0 for heap memory and external blocks
    /// (reached by node peers through the backend's transfers).
    pub(crate) fn token(&self) -> u64 {
        match self {
            SymData::Heap(_) | SymData::External { .. } | SymData::Pooled(_) => 0,
            SymData::Shared { mem, .. } => mem.token(),
        }
    }

    pub(crate) fn as_slice(&self) -> &[T] {
        match self {
            SymData::Heap(v) => v,
            // SAFETY: `shared` checked that the mapping holds `len` aligned elements; every
            // byte is initialized (zero-filled when mapped, since written only with the bytes
            // of `Pod` values: valid for a Pod type) and lives as long as `mem`, borrowed here.
            SymData::Shared { mem, len, .. } => unsafe { std::slice::from_raw_parts(mem.ptr() as *const T, *len) },
            // SAFETY: `ptr..ptr+len` is the checked, aligned, initialized block owned by this
            // value (dangling and empty for len 0); every bit pattern is a valid `Pod` value.
            SymData::External { ptr, len, .. } => unsafe { std::slice::from_raw_parts(*ptr, *len) },
            // SAFETY: the pooled buffer holds at least `len * size_of::<T>()` bytes (asked for
            // in `Pooled::new`), page aligned (>= `align_of::<T>()`, checked there), every byte
            // initialized (mapped zeroed, then zeroed again or written with the bytes of `Pod`
            // values by its holders; every bit pattern is a valid `Pod` value), owned by this
            // value and borrowed here.
            SymData::Pooled(p) => unsafe { std::slice::from_raw_parts(p.ptr(), p.len) },
        }
    }

    pub(crate) fn as_mut_slice(&mut self) -> &mut [T] {
        match self {
            SymData::Heap(v) => v,
            // SAFETY: as in `as_slice`, with `mem` borrowed exclusively (writes by node peers
            // are the PGAS program's own synchronization, as for remote puts into a Vec).
            SymData::Shared { mem, len, .. } => unsafe { std::slice::from_raw_parts_mut(mem.ptr() as *mut T, *len) },
            // SAFETY: as in `as_slice`; `&mut self` makes the slice exclusive in this process.
            SymData::External { ptr, len, .. } => unsafe { std::slice::from_raw_parts_mut(*ptr, *len) },
            // SAFETY: as in `as_slice`; `&mut self` makes the slice exclusive in this process.
            SymData::Pooled(p) => unsafe { std::slice::from_raw_parts_mut(p.ptr(), p.len) },
        }
    }
}

impl<T: Pod> Default for SymData<T> {
    fn default() -> Self {
        SymData::Heap(Vec::new())
    }
}
