//! Reuse of freed node-shared segments: a symmetric allocation freed collectively
//! keeps its segment, and its node peers keep their mappings of it, so that the next
//! allocation of about the same size (the next sort's buffers, the next result array) needs
//! no new `memfd`, no `mmap` on every peer and, above all, no page fault per page.
//!
//! Shared memory gets no transparent huge pages by fault where `shmem_enabled` is `never` (as
//! on a 2-vCPU KVM guest): there a fresh segment faulted every 4 KiB page at first touch, by its
//! owner and again by every peer that writes it; on that guest first-touching a fresh 256 MiB
//! segment took 0.64 s against 0.08 s for huge-page anonymous memory, and a peer's own faults
//! on it 0.24 s more, while zeroing a kept segment took 0.02 s. Large segments are now
//! collapsed into huge pages when made (`memory/shared_huge.rs`), which costs about a huge-page
//! fault per 2 MiB; a kept segment keeps them.
//!
//! The rules, the same on every rank of the node for every owner (so that an owner and its
//! peers keep and drop the same segments without a message):
//! - **Kept at free.** A freed segment of at least [`MIN_KEPT`] bytes goes to the end of its
//!   owner's list (on the owner: the mapping and its descriptor; on each peer: its mapping);
//!   the oldest leave the list (and are unmapped, the owner's descriptor closed) while the
//!   list holds more than the cap (`Config::mpi_shm_keep`, `ATOLL_MPI_SHM_KEEP` bytes per
//!   rank; default 2 GiB; `0`: nothing kept).
//! - **Taken at allocation.** The owner takes the oldest kept segment whose size is between
//!   the page-rounded request and 1/8 more, **zeroes it** (symmetric allocations promise
//!   zeros, except those made to be overwritten: `Ctx::alloc_symmetric_for_overwrite`) and
//!   announces it with its old token (same sequence number and descriptor); a peer
//!   that finds that sequence number in its list for the owner takes its mapping back instead
//!   of mapping the segment again.
//! - **Nothing leaks.** Kept segments are memfd memory like live ones: freed by the kernel
//!   when the rank ends, whatever way it ends, and unmapped when the job's `NodeShm` goes.
//!   They leave the rank's tracked memory while kept (`atoll_mem::note_unmapped`) and return
//!   to it when taken. A peer whose list differs from the owner's (a mapping that failed)
//!   only maps again, through the owner's still open descriptor; what it keeps is bounded by
//!   the same cap.

use std::collections::VecDeque;
use std::sync::Arc;

/// Segments smaller than this are not kept (their faults cost little).
pub(crate) const MIN_KEPT: usize = 64 << 10;

/// One kept segment of an owner: its sequence number, its size and the mapping `M` (`shm.rs`'s
/// `Mapping`: the owner's own, with its descriptor, or a peer's).
pub(crate) struct Kept<M> {
    pub(crate) seq: u64,
    pub(crate) len: usize,
    pub(crate) map: Arc<M>,
}

/// The kept segments of every rank of the job, oldest first (empty lists for ranks off this
/// node), and the cap.
pub(crate) struct Pools<M> {
    cap: usize,
    lists: Vec<VecDeque<Kept<M>>>,
}

impl<M> Pools<M> {
    /// Empty lists for `ranks` ranks, keeping at most `cap` bytes per rank.
    pub(crate) fn new(ranks: usize, cap: usize) -> Self {
        Pools { cap, lists: (0..ranks).map(|_| VecDeque::new()).collect() }
    }

    /// Keeps `owner`'s freed segment `seq` of `len` bytes at the end of its list, or not (too
    /// small, or over the cap alone). Returns what leaves the list (the caller drops it after
    /// releasing the lock: dropping unmaps).
    pub(crate) fn keep(&mut self, owner: usize, k: Kept<M>) -> Vec<Kept<M>> {
        let cap = self.cap;
        let Some(list) = self.lists.get_mut(owner) else { return vec![k] };
        if k.len < MIN_KEPT || k.len > cap {
            return vec![k];
        }
        list.push_back(k);
        let mut out = Vec::new();
        let mut total: usize = list.iter().map(|k| k.len).sum();
        while total > cap {
            let Some(old) = list.pop_front() else { break };
            total -= old.len;
            out.push(old);
        }
        out
    }

    /// The owner's side: takes the oldest kept segment of `owner` of `len..=len + len / 8`
    /// bytes (`len` page rounded).
    pub(crate) fn take_fit(&mut self, owner: usize, len: usize) -> Option<Kept<M>> {
        let list = self.lists.get_mut(owner)?;
        let i = list.iter().position(|k| k.len >= len && k.len <= len + len / 8)?;
        list.remove(i)
    }

    /// A peer's side: takes `owner`'s kept segment number `seq`, if kept here.
    pub(crate) fn take_seq(&mut self, owner: usize, seq: u64) -> Option<Kept<M>> {
        let list = self.lists.get_mut(owner)?;
        let i = list.iter().position(|k| k.seq == seq)?;
        list.remove(i)
    }

    /// Bytes kept for `owner` (tests, diagnostics).
    #[allow(dead_code)]
    pub(crate) fn kept_bytes(&self, owner: usize) -> usize {
        self.lists.get(owner).map_or(0, |l| l.iter().map(|k| k.len).sum())
    }
}
