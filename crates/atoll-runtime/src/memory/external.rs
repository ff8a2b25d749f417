//! Memory that a [`Symmetric`](crate::Symmetric) uses instead of allocating its own: a block
//! that something else owns, such as a memory-mapped file shared with other processes
//! (`atoll-share`). [`Ctx::alloc_symmetric_external_for`](crate::Ctx::alloc_symmetric_external_for)
//! registers it and keeps the memory budget's accounting as for an allocation.

use std::any::Any;

/// A block of memory owned by `owner` (dropped when the [`Symmetric`](crate::Symmetric) made
/// from it is freed): the storage of one locale's part of a shared array.
pub struct ExternalBlock {
    pub(crate) ptr: *mut u8,
    pub(crate) bytes: usize,
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
