//! Memory that the locales of one node can all map: the storage a backend may give
//! [`crate::Symmetric`] allocations so that node peers reach them with loads and stores.
//!
//! The backend makes it ([`crate::comm::Registration::alloc_shared`]), hands out a token that
//! its peers use to map it ([`crate::comm::Registration::map_shared`]), and unmaps it when the
//! [`SharedAlloc`] is dropped (its keeper's `Drop`).

/// A mapping of shared memory owned by this locale: `len` bytes at `ptr`, zeroed when made.
pub struct SharedAlloc {
    ptr: *mut u8,
    len: usize,
    token: u64,
    /// Unmaps (and closes whatever the backend holds) when dropped.
    _keeper: Box<dyn Send + Sync>,
}

// SAFETY: the mapping is plain memory owned by this value (the keeper releases it on drop);
// access to it follows the same rules as a `Vec<u8>`'s through `&`/`&mut` of its owner.
unsafe impl Send for SharedAlloc {}
// SAFETY: as above; shared references only read.
unsafe impl Sync for SharedAlloc {}

impl SharedAlloc {
    /// Wraps a mapping of `len` zeroed bytes at `ptr` (page aligned), valid until `keeper` is
    /// dropped; `token` (non-zero) tells node peers how to map it. Only the MPI backend maps
    /// node-shared memory.
    #[cfg_attr(not(feature = "mpi"), allow(dead_code))]
    pub(crate) fn new(ptr: *mut u8, len: usize, token: u64, keeper: Box<dyn Send + Sync>) -> Self {
        SharedAlloc { ptr, len, token, _keeper: keeper }
    }

    /// The start of the mapping (page aligned).
    pub(crate) fn ptr(&self) -> *mut u8 {
        self.ptr
    }

    /// Bytes mapped.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// What node peers need to map it (never 0).
    pub(crate) fn token(&self) -> u64 {
        self.token
    }
}
