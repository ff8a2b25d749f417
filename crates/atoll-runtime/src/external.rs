//! Memory that a [`Symmetric`](crate::Symmetric) uses instead of allocating its own: a block
//! that something else owns, such as a memory-mapped file shared with other processes
//! (`atoll-share`). [`Ctx::alloc_symmetric_external_for`](crate::Ctx::alloc_symmetric_external_for)
//! registers it and keeps the memory budget's accounting as for an allocation.

use std::any::Any;
use std::ops::{Deref, DerefMut};

/// A block of memory owned by `owner` (dropped when the [`Symmetric`](crate::Symmetric) made
/// from it is freed): the storage of one locale's part of a shared array.
pub struct ExternalBlock {
    ptr: *mut u8,
    bytes: usize,
    _owner: Box<dyn Any + Send + Sync>,
}

// SAFETY: the block is plain memory owned through `owner` (Send + Sync); `new`'s contract makes
// it valid from any thread.
unsafe impl Send for ExternalBlock {}
// SAFETY: as above; concurrent access follows the PGAS contract of `Symmetric`.
unsafe impl Sync for ExternalBlock {}

impl ExternalBlock {
    /// The `bytes` bytes at `ptr`, kept valid by `owner`.
    ///
    /// # Safety
    /// `ptr..ptr + bytes` must be readable, writable and initialized memory that stays valid
    /// (mapped, not moved) until `owner` is dropped, and that nothing else in this process
    /// reads or writes through references while the block lives (other processes may: the
    /// PGAS contract of `Symmetric` extends to them). With `bytes == 0` the pointer is unused.
    pub unsafe fn new(ptr: *mut u8, bytes: usize, owner: Box<dyn Any + Send + Sync>) -> Self {
        ExternalBlock { ptr, bytes, _owner: owner }
    }

    /// The block's size in bytes.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// The block's address.
    pub fn addr(&self) -> usize {
        self.ptr as usize
    }
}

/// The data of a `Symmetric`: its own vector, or an external block seen as `T`s.
pub(crate) enum SymBuf<T> {
    Owned(Vec<T>),
    External { ptr: *mut T, len: usize, _block: ExternalBlock },
}

// SAFETY: the pointer is into the block that this value owns; `T` values are Send + Sync.
unsafe impl<T: Send> Send for SymBuf<T> {}
// SAFETY: as above.
unsafe impl<T: Sync> Sync for SymBuf<T> {}

impl<T: bytemuck::Pod> SymBuf<T> {
    /// `block` as `T`s: `Err` with a message when its address or size does not fit `T`.
    pub(crate) fn check(block: &ExternalBlock, len: usize) -> Result<(), String> {
        let size = std::mem::size_of::<T>();
        if Some(block.bytes) != len.checked_mul(size) {
            return Err(format!("an external block of {} bytes cannot hold {len} elements of {size} bytes", block.bytes));
        }
        if block.bytes > 0 && block.addr() % std::mem::align_of::<T>() != 0 {
            return Err(format!("an external block at {:#x} is not aligned for {}", block.addr(), std::any::type_name::<T>()));
        }
        Ok(())
    }

    /// Wraps a block that [`SymBuf::check`] accepted for `len` elements.
    pub(crate) fn external(block: ExternalBlock, len: usize) -> Self {
        let ptr = if len == 0 { std::ptr::NonNull::<T>::dangling().as_ptr() } else { block.ptr.cast::<T>() };
        SymBuf::External { ptr, len, _block: block }
    }
}

impl<T> Default for SymBuf<T> {
    fn default() -> Self {
        SymBuf::Owned(Vec::new())
    }
}

impl<T> Deref for SymBuf<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        match self {
            SymBuf::Owned(v) => v,
            // SAFETY: `ptr..ptr+len` is the checked, aligned, initialized block owned by this
            // value (dangling and empty for len 0); every bit pattern is a valid `Pod` value.
            SymBuf::External { ptr, len, .. } => unsafe { std::slice::from_raw_parts(*ptr, *len) },
        }
    }
}

impl<T> DerefMut for SymBuf<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        match self {
            SymBuf::Owned(v) => v,
            // SAFETY: as in `deref`; `&mut self` makes the slice exclusive in this process.
            SymBuf::External { ptr, len, .. } => unsafe { std::slice::from_raw_parts_mut(*ptr, *len) },
        }
    }
}
