//! The storage of a [`crate::Symmetric`]: a heap vector, or node-shared memory that the
//! backend mapped for node peers (MPI ranks of one host; see `comm/mpi/shm.rs`).

use crate::comm::shared_alloc::SharedAlloc;
use bytemuck::Pod;
use std::marker::PhantomData;

/// `len` elements of `T`, in a `Vec` or in shared memory.
pub(crate) enum SymData<T: Pod> {
    /// Ordinary process memory.
    Heap(Vec<T>),
    /// A shared mapping of at least `len * size_of::<T>()` bytes.
    Shared { mem: SharedAlloc, len: usize, _t: PhantomData<T> },
}

impl<T: Pod> SymData<T> {
    /// `len` elements in `mem`, which must hold at least `len * size_of::<T>()` zeroed bytes
    /// (a page-aligned mapping: aligned for any `T`). `None` (and `mem` dropped) otherwise.
    pub(crate) fn shared(mem: SharedAlloc, len: usize) -> Option<Self> {
        let bytes = len.checked_mul(std::mem::size_of::<T>())?;
        let aligned = (mem.ptr() as usize) % std::mem::align_of::<T>() == 0;
        (bytes <= mem.len() && aligned && !mem.ptr().is_null()).then_some(SymData::Shared { mem, len, _t: PhantomData })
    }

    /// The token node peers map this memory with; 0 for heap memory.
    pub(crate) fn token(&self) -> u64 {
        match self {
            SymData::Heap(_) => 0,
            SymData::Shared { mem, .. } => mem.token(),
        }
    }

    pub(crate) fn as_slice(&self) -> &[T] {
        match self {
            SymData::Heap(v) => v,
            // SAFETY: `shared` checked that the mapping holds `len` aligned elements; it is
            // zero-initialized (valid for a Pod type) and lives as long as `mem`, borrowed here.
            SymData::Shared { mem, len, .. } => unsafe { std::slice::from_raw_parts(mem.ptr() as *const T, *len) },
        }
    }

    pub(crate) fn as_mut_slice(&mut self) -> &mut [T] {
        match self {
            SymData::Heap(v) => v,
            // SAFETY: as in `as_slice`, with `mem` borrowed exclusively (writes by node peers
            // are the PGAS program's own synchronization, as for remote puts into a Vec).
            SymData::Shared { mem, len, .. } => unsafe { std::slice::from_raw_parts_mut(mem.ptr() as *mut T, *len) },
        }
    }
}

impl<T: Pod> Default for SymData<T> {
    fn default() -> Self {
        SymData::Heap(Vec::new())
    }
}
