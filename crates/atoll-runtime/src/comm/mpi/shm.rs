//! Node-shared memory between MPI ranks of one host: gets, puts, strided transfers
//! and atomics between node peers become loads and stores, the way GASNet's PSHM and
//! OpenSHMEM's `shmem_ptr` work.
//!
//! - **Segments.** Every symmetric allocation of a rank (`Ctx::alloc_symmetric*`, hence every
//!   distributed array) comes from its own anonymous shared-memory file
//!   (`memfd_create("atoll.<rank>.<seq>")`, mapped `MAP_SHARED`); it is still attached to the
//!   dynamic window, so ranks on other nodes reach it with MPI RMA as before. Growth is one
//!   segment per allocation, at any time, within the memory budget (which the allocation
//!   reserved before asking for the segment).
//! - **Publication.** The allocation's exchange of addresses carries a token (the owner's
//!   file descriptor and sequence number); each node peer opens `/proc/<owner pid>/fd/<fd>`
//!   (checking that it names the expected `memfd:atoll.<rank>.<seq>`, so a reused descriptor
//!   is never mapped), maps it, and closes its descriptor at once. A peer's table maps the
//!   owner's address range to its own mapping; `direct_addr` and the transfers translate
//!   through it.
//! - **Nothing leaks.** A memfd has no name in any file system: the kernel frees its pages
//!   when the last mapping and descriptor go, which includes every way a rank can end (exit,
//!   crash, `MPI_Abort`, kill). There is nothing to unlink and nothing to clean at the next
//!   start. The collective free unmaps every peer's mapping and the owner's.
//! - **Start-up check.** At start every rank makes a one-page probe segment with a known
//!   value and every node peer maps and reads it; only if every rank succeeded everywhere is
//!   node sharing used (for the whole job), otherwise every transfer goes through MPI as
//!   before (`/proc` access refused by a hardened kernel, no memfd). `ATOLL_MPI_SHM=0` turns
//!   it off.
//! - **Accounting.** A rank's own segments count in its tracked memory
//!   (`atoll_mem::note_mapped`), as the heap blocks they replace did; peers' mappings do not.
//! - **Atomics.** Node peers use the CPU's atomic instructions on mapped words, as the owner
//!   itself does for its own words (`Ctx::fetch_add` on one's own locale); ranks on other
//!   nodes use MPI atomics, as before.
//!
//! Every `unsafe` block of the module is a libc call on memory this module maps, or a copy
//! within a mapping whose bounds the caller's range was checked against.

use super::raw;
use super::shm_pool::{self, Kept, Pools};
use crate::comm::SharedAlloc;
use crate::config::Config;
use crate::memory::shared_huge;
use crate::memory::symmetric_data::PartInit;
use crate::sync::{lock, read, write};
use crate::sync::{AtomicBool, AtomicU64, Ordering, RwLock};
use atoll_error::{Error, Result};
use std::collections::BTreeMap;
use std::ffi::CString;
use std::os::raw::c_int;
use std::sync::{Arc, Mutex, Weak};

/// A mapping made by this module, unmapped on drop (and its descriptor closed, if kept).
pub(crate) struct Mapping {
    ptr: *mut u8,
    len: usize,
    fd: c_int,
    /// Whether it counts in this rank's tracked memory now (its own segment, not kept for
    /// reuse: see `shm_pool.rs`).
    counted: AtomicBool,
}

// SAFETY: a mapping is plain shared memory; the handle only unmaps it on drop.
unsafe impl Send for Mapping {}
// SAFETY: as above.
unsafe impl Sync for Mapping {}

impl Mapping {
    /// The start of the mapping in this process.
    pub(crate) fn ptr(&self) -> *mut u8 {
        self.ptr
    }

    /// Its length in bytes.
    pub(crate) fn len(&self) -> usize {
        self.len
    }
}

impl Drop for Mapping {
    fn drop(&mut self) {
        if self.fd >= 0 && self.counted.load(Ordering::Relaxed) {
            // This rank's own segment: counted as its memory while it exists (see `create`).
            atoll_mem::note_unmapped(self.ptr as usize, self.len);
        }
        // SAFETY: `ptr..ptr+len` was mapped by this module and is unmapped once, here; `fd`
        // (if not -1) is a descriptor this module opened and still owns.
        unsafe {
            libc::munmap(self.ptr.cast(), self.len);
            if self.fd >= 0 {
                libc::close(self.fd);
            }
        }
    }
}

fn os_err(what: &str) -> Error {
    Error::Io(format!("node shared memory: {what}: {}", std::io::Error::last_os_error()))
}

fn page() -> usize {
    // SAFETY: sysconf has no memory-safety preconditions.
    let p = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    if p > 0 {
        p as usize
    } else {
        4096
    }
}

fn name_of(rank: usize, seq: u64) -> String {
    format!("atoll.{rank}.{seq}")
}

/// Creates and maps a zeroed segment of at least `bytes`, keeping its descriptor for peers.
/// Also returns whether its pages are all present (populated, or collapsed into huge pages:
/// `memory/shared_huge.rs`).
fn create(rank: usize, seq: u64, bytes: usize, populate: bool) -> Result<(Mapping, bool)> {
    let len = shared_huge::segment_len(bytes, page());
    let name = CString::new(name_of(rank, seq)).map_err(|_| Error::Io("segment name".into()))?;
    // SAFETY: `name` is a valid NUL-terminated string.
    let fd = unsafe { libc::memfd_create(name.as_ptr(), libc::MFD_CLOEXEC) };
    if fd < 0 {
        return Err(os_err("memfd_create"));
    }
    // SAFETY: `fd` is the descriptor just created.
    if unsafe { libc::ftruncate(fd, len as libc::off_t) } != 0 {
        let e = os_err("ftruncate");
        // SAFETY: closing the descriptor made above, once.
        unsafe { libc::close(fd) };
        return Err(e);
    }
    // A fresh shared mapping of the whole file (2 MiB aligned when large).
    let ptr = shared_huge::map_shared(fd, len, false);
    if ptr == libc::MAP_FAILED {
        let e = os_err("mmap");
        // SAFETY: as above.
        unsafe { libc::close(fd) };
        return Err(e);
    }
    let m = Mapping { ptr: ptr.cast(), len, fd, counted: AtomicBool::new(true) };
    advise_huge(&m);
    // The memory tracker counts it for this rank like the heap block it replaces.
    atoll_mem::note_mapped(m.ptr as usize, len);
    // SAFETY: the fresh mapping made above, not yet announced to any peer.
    if unsafe { shared_huge::collapse(m.ptr, len) } {
        return Ok((m, true));
    }
    if populate {
        // Fault the pages in now (one kernel call instead of a fault per page later); a kernel
        // without MADV_POPULATE_WRITE (before 5.14) just faults them on first touch.
        // SAFETY: advice on the mapping made above.
        unsafe { libc::madvise(m.ptr.cast(), len, libc::MADV_POPULATE_WRITE) };
    }
    Ok((m, populate))
}

/// Maps `bytes` of the segment `fd` of process `pid` (`rank`'s segment number `seq`).
/// With `populate`, the page tables are filled now (the owner touched every page already):
/// no page fault per page on the first accesses.
fn open_peer(pid: u32, rank: usize, seq: u64, fd: u32, bytes: usize, populate: bool) -> Result<Mapping> {
    let path = format!("/proc/{pid}/fd/{fd}");
    // The descriptor must still name the segment announced (not a reused number).
    let target = std::fs::read_link(&path).map_err(|e| Error::Io(format!("node shared memory: {path}: {e}")))?;
    let expected = format!("/memfd:{} ", name_of(rank, seq));
    if !target.to_string_lossy().starts_with(&expected) {
        return Err(Error::Io(format!("node shared memory: {path} is {target:?}, not {expected:?}")));
    }
    let cpath = CString::new(path.clone()).map_err(|_| Error::Io("segment path".into()))?;
    // SAFETY: `cpath` is a valid NUL-terminated path.
    let own = unsafe { libc::open(cpath.as_ptr(), libc::O_RDWR | libc::O_CLOEXEC) };
    if own < 0 {
        return Err(os_err(&format!("open {path}")));
    }
    // SAFETY: `stat` is plain old data, valid when zeroed.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    // SAFETY: `st` is a valid out-pointer; `own` is the descriptor opened above.
    let ok = unsafe { libc::fstat(own, &mut st) } == 0 && st.st_size as u64 >= bytes as u64;
    let len = (st.st_size.max(0) as usize).max(1);
    // The whole (size-checked) file, shared, 2 MiB aligned when large (so that the owner's
    // huge pages map as such here too).
    let ptr = if ok { shared_huge::map_shared(own, len, populate) } else { libc::MAP_FAILED };
    let e = os_err(&format!("map {path} ({bytes} bytes)"));
    // SAFETY: the mapping (if any) keeps the segment alive; the descriptor is closed once.
    unsafe { libc::close(own) };
    if ptr == libc::MAP_FAILED {
        return Err(e);
    }
    let m = Mapping { ptr: ptr.cast(), len, fd: -1, counted: AtomicBool::new(false) };
    advise_huge(&m);
    Ok(m)
}

/// Asks for transparent huge pages on a large segment mapping (before its pages are touched):
/// only effective where the kernel gives shared memory huge pages on advice
/// (`/sys/kernel/mm/transparent_hugepage/shmem_enabled` is `advise`, `within_size` or
/// `always`); where it is `never` (as on many KVM guests) the flag is set and changes nothing.
/// Off with `ATOLL_HUGEPAGES=0`, like the heap's advice (`memory/hugepages.rs`).
fn advise_huge(m: &Mapping) {
    if m.len >= crate::memory::hugepages::THRESHOLD && crate::memory::hugepages::enabled() {
        // SAFETY: advice on a whole mapping made by this module; MADV_HUGEPAGE changes no
        // byte, protection or address.
        unsafe { libc::madvise(m.ptr.cast(), m.len, libc::MADV_HUGEPAGE) };
    }
}

/// A peer's segment mapped here: (bytes used, sequence number, mapping).
type Mapped = (usize, u64, Arc<Mapping>);

/// This rank's view of its node: which ranks share it, and its mappings of their segments.
pub(crate) struct NodeShm {
    rank: usize,
    pids: Vec<u32>,
    /// Whether each rank (not this one) shares this node.
    peer: Vec<bool>,
    /// Per rank: mapped segments by the owner's start address: (bytes, sequence number,
    /// mapping).
    maps: Vec<RwLock<BTreeMap<u64, Mapped>>>,
    /// Freed segments kept for reuse, per owner rank (`shm_pool.rs`).
    pools: Arc<Mutex<Pools<Mapping>>>,
    seq: AtomicU64,
    /// This table's identity in the per-thread lookup cache (several jobs may run in turn).
    id: u64,
}

/// Bumped by every change of any table (mapping added, removed, table dropped): a thread's
/// cached lookup is used only while the generation it was made in is current.
static GENERATION: AtomicU64 = AtomicU64::new(1);
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// The last segment a thread found, so that a run of accesses to one array (the common case)
/// costs a thread-local read and one atomic load instead of a lock and a tree search.
#[derive(Clone, Copy)]
struct Hit {
    generation: u64,
    id: u64,
    target: usize,
    start: u64,
    len: usize,
    local: usize,
}

thread_local! {
    static LAST: std::cell::Cell<Hit> =
        const { std::cell::Cell::new(Hit { generation: 0, id: 0, target: 0, start: 0, len: 0, local: 0 }) };
}

impl Drop for NodeShm {
    fn drop(&mut self) {
        GENERATION.fetch_add(1, Ordering::AcqRel);
    }
}

const PROBE: u64 = 0x000A_7011_5EED;
/// The descriptor's bits in a token (descriptors are below 2^31).
const POPULATED_FD_MASK: u32 = (1 << 31) - 1;

impl NodeShm {
    /// Finds this rank's node peers and checks that they can map each other's memory.
    /// **Collective** over `ctl`. `None` when node sharing is off or cannot work on this
    /// system (the same answer on every rank).
    pub(crate) fn start(ctl: &raw::Comm, rank: usize, size: usize, config: &Config) -> Result<Option<NodeShm>> {
        let off = !config.mpi_shm;
        let members = ctl.node_members()?;
        let mut peer = vec![false; size];
        for &m in &members {
            if m != rank && m < size {
                peer[m] = true;
            }
        }
        let shm = NodeShm {
            rank,
            pids: vec![0; size],
            peer,
            maps: (0..size).map(|_| RwLock::new(BTreeMap::new())).collect(),
            seq: AtomicU64::new(0),
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            pools: Arc::new(Mutex::new(Pools::new(size, usize::try_from(config.mpi_shm_keep).unwrap_or(usize::MAX)))),
        };
        // The probe: every rank's first segment holds PROBE + rank.
        let probe = if off { None } else { shm.alloc(8, PartInit::Eager) };
        if let Some(p) = &probe {
            // SAFETY: the probe mapping holds at least one page, page aligned.
            unsafe { (p.ptr() as *mut u64).write_volatile(PROBE + rank as u64) };
        }
        let mine = (std::process::id(), probe.as_ref().map_or(0, |p| p.token()));
        let mut words = mine.0.to_le_bytes().to_vec();
        words.extend_from_slice(&mine.1.to_le_bytes());
        let all = ctl.allgather(&words)?;
        let mut pids = vec![0u32; size];
        let mut tokens = vec![0u64; size];
        for (r, b) in all.iter().enumerate().take(size) {
            if b.len() == 12 {
                pids[r] = u32::from_le_bytes(b[..4].try_into().expect("4 bytes"));
                tokens[r] = u64::from_le_bytes(b[4..12].try_into().expect("8 bytes"));
            }
        }
        let mut shm = shm;
        shm.pids = pids;
        let mut ok = probe.is_some();
        for (r, &token) in tokens.iter().enumerate() {
            if ok && shm.peer[r] {
                ok = match shm.map_one(r, token, 8) {
                    // SAFETY: the mapping holds at least 8 bytes, page aligned.
                    Ok(m) => (unsafe { (m.ptr as *const u64).read_volatile() }) == PROBE + r as u64,
                    Err(_) => false,
                };
            }
        }
        let verdicts = ctl.allgather(&[ok as u8])?;
        drop(probe);
        let everywhere = verdicts.iter().all(|v| v.first() == Some(&1));
        if !everywhere && !off && !config.mpi_shm_quiet && rank == 0 && members.len() > 1 {
            eprintln!("atoll: node shared memory is unavailable (a rank could not map a node peer's probe segment); MPI RMA is used between node peers");
        }
        if !everywhere {
            return Ok(None);
        }
        Ok(Some(shm))
    }

    /// Whether `target` shares this node.
    #[inline]
    pub(crate) fn is_peer(&self, target: usize) -> bool {
        self.peer.get(target).copied().unwrap_or(false)
    }

    /// A segment of this rank for `bytes` of a symmetric allocation, kept or fresh, zeroed
    /// unless `init` is [`PartInit::Overwrite`] (a kept one then holds its last holder's
    /// bytes) and populated now for `Eager`; `None` if the system refuses one (the allocation
    /// then uses the heap and transfers).
    pub(crate) fn alloc(&self, bytes: usize, init: PartInit) -> Option<SharedAlloc> {
        let want = shared_huge::segment_len(bytes, page());
        let kept = lock(&self.pools).take_fit(self.rank, want);
        if let Some(k) = kept {
            if let Some(a) = self.reuse(k, init != PartInit::Overwrite) {
                return Some(a);
            }
        }
        let populate = init == PartInit::Eager;
        let seq = self.seq.fetch_add(1, Ordering::Relaxed);
        if seq >= u32::MAX as u64 - 1 {
            return None;
        }
        let (m, populate) = create(self.rank, seq, bytes, populate).ok()?;
        // Bits 32..: the sequence number + 1; bit 31: populated; bits 0..31: the descriptor.
        let token = ((seq + 1) << 32) | (u64::from(populate) << 31) | (m.fd as u32 & POPULATED_FD_MASK) as u64;
        Some(self.hand_out(m, seq, token))
    }

    /// A kept segment of this rank, zeroed when `zero`, as a new allocation under its old
    /// token (its pages are all present now: peers that map it afresh populate their mapping).
    fn reuse(&self, k: Kept<Mapping>, zero: bool) -> Option<SharedAlloc> {
        let m = Arc::try_unwrap(k.map).ok()?;
        if zero {
            // SAFETY: `m` is this rank's own mapping of `len` writable bytes, unshared (the
            // allocation that used it was freed collectively: no rank reads it any more).
            unsafe { std::ptr::write_bytes(m.ptr, 0, m.len) };
        }
        atoll_mem::note_mapped(m.ptr as usize, m.len);
        m.counted.store(true, Ordering::Relaxed);
        let token = ((k.seq + 1) << 32) | (1 << 31) | (m.fd as u32 & POPULATED_FD_MASK) as u64;
        Some(self.hand_out(m, k.seq, token))
    }

    /// Wraps this rank's segment `seq` for a symmetric allocation: its drop keeps it for
    /// reuse (`shm_pool.rs`) while this table lives.
    fn hand_out(&self, m: Mapping, seq: u64, token: u64) -> SharedAlloc {
        let (ptr, len) = (m.ptr, m.len);
        let keeper = Owned { map: Some(m), seq, rank: self.rank, pools: Arc::downgrade(&self.pools) };
        SharedAlloc::new(ptr, len, token, Box::new(keeper))
    }

    fn map_one(&self, target: usize, token: u64, bytes: usize) -> Result<Arc<Mapping>> {
        let (seq, fd, populated) = ((token >> 32) - 1, token as u32 & POPULATED_FD_MASK, token & (1 << 31) != 0);
        Ok(Arc::new(open_peer(self.pids[target], target, seq, fd, bytes, populated)?))
    }

    /// The process ids of every rank (0 for ranks on other nodes).
    pub(crate) fn pids(&self) -> &[u32] {
        &self.pids
    }

    /// A fresh, populated segment of this rank outside the symmetric allocations (the
    /// control segment of `shm_coll.rs`), and the token peers map it with.
    pub(crate) fn control_segment(&self, bytes: usize) -> Result<(Arc<Mapping>, u64)> {
        let seq = self.seq.fetch_add(1, Ordering::Relaxed);
        let (m, _) = create(self.rank, seq, bytes, true)?;
        let token = ((seq + 1) << 32) | (1 << 31) | (m.fd as u32 & POPULATED_FD_MASK) as u64;
        Ok((Arc::new(m), token))
    }

    /// Maps node peer `target`'s segment of `token` (at least `bytes`), outside the tables of
    /// symmetric allocations (for `shm_coll.rs`).
    pub(crate) fn map_control(&self, target: usize, token: u64, bytes: usize) -> Result<Arc<Mapping>> {
        if !self.is_peer(target) || token >> 32 == 0 {
            return Err(Error::Io(format!("node shared memory: no segment of locale {target} to map")));
        }
        self.map_one(target, token, bytes)
    }

    /// Maps the node peers' parts of a symmetric allocation (see `Registration::map_shared`).
    pub(crate) fn map(&self, parts: &[(u64, usize, u64)]) {
        for (target, &(addr, bytes, token)) in parts.iter().enumerate() {
            if !self.is_peer(target) || token == 0 || bytes == 0 {
                continue;
            }
            let seq = (token >> 32) - 1;
            // A segment kept here since its last use (the owner reuses it under its token).
            let kept = lock(&self.pools).take_seq(target, seq).filter(|k| k.len >= bytes);
            let m = match kept {
                Some(k) => k.map,
                None => match self.map_one(target, token, bytes) {
                    Ok(m) => m,
                    // Reachable through MPI RMA as before.
                    Err(_) => continue,
                },
            };
            let mut map = write(&self.maps[target]);
            // Mappings of freed memory that overlaps this part (a part not freed collectively).
            let end = addr.saturating_add(bytes as u64);
            let stale: Vec<u64> =
                map.range(..end).filter(|(&s, &(l, _, _))| s + l as u64 > addr).map(|(&s, _)| s).collect();
            for s in stale {
                map.remove(&s);
            }
            map.insert(addr, (bytes, seq, m));
            GENERATION.fetch_add(1, Ordering::AcqRel);
        }
    }

    /// Drops the mapping of `target`'s part at `addr`, if any (the collective free of a
    /// symmetric allocation): kept for reuse by the rules of `shm_pool.rs`.
    pub(crate) fn unmap(&self, target: usize, addr: u64) {
        if let Some(m) = self.maps.get(target) {
            // Invalidate cached lookups before the mapping leaves the table.
            GENERATION.fetch_add(1, Ordering::AcqRel);
            let gone = write(m).remove(&addr);
            if let Some((_, seq, map)) = gone {
                let len = map.len;
                let out = lock(&self.pools).keep(target, Kept { seq, len, map });
                drop(out);
            }
        }
    }

    /// The address in this process of `addr..addr+len` of `target`, if that range lies in a
    /// segment of `target` mapped here.
    #[inline]
    pub(crate) fn local(&self, target: usize, addr: u64, len: usize) -> Option<usize> {
        if !self.is_peer(target) {
            return None;
        }
        let generation = GENERATION.load(Ordering::Acquire);
        let h = LAST.with(|c| c.get());
        if h.generation == generation && h.id == self.id && h.target == target && addr >= h.start {
            let off = (addr - h.start) as usize;
            if off.checked_add(len).is_some_and(|e| e <= h.len) {
                return Some(h.local + off);
            }
        }
        let map = read(&self.maps[target]);
        let (&start, (l, _, m)) = map.range(..=addr).next_back()?;
        let off = (addr - start) as usize;
        if off.checked_add(len)? > *l {
            return None;
        }
        let local = m.ptr as usize;
        LAST.with(|c| c.set(Hit { generation, id: self.id, target, start, len: *l, local }));
        Some(local + off)
    }
}

/// The keeper of this rank's segment while a symmetric allocation uses it: on drop (the
/// allocation's collective free), the segment goes to this rank's kept list (`shm_pool.rs`),
/// or is unmapped if the job's table is gone.
struct Owned {
    map: Option<Mapping>,
    seq: u64,
    rank: usize,
    pools: Weak<Mutex<Pools<Mapping>>>,
}

impl Drop for Owned {
    fn drop(&mut self) {
        let (Some(m), Some(pools)) = (self.map.take(), self.pools.upgrade()) else { return };
        if m.len < shm_pool::MIN_KEPT {
            return;
        }
        // Kept memory leaves the rank's tracked memory until it is taken again.
        atoll_mem::note_unmapped(m.ptr as usize, m.len);
        m.counted.store(false, Ordering::Relaxed);
        let len = m.len;
        let out = lock(&pools).keep(self.rank, Kept { seq: self.seq, len, map: Arc::new(m) });
        drop(out);
    }
}

/// Whether process `pid` has exited (`false` for 0, the id of ranks on other nodes): the node
/// peers waiting on each other in shared memory (`shm_coll.rs`, `shm_am.rs`) check it so that a
/// dead peer is an error rather than a hang.
pub(crate) fn process_exited(pid: u32) -> bool {
    if pid == 0 {
        return false;
    }
    // SAFETY: kill with signal 0 only checks that the process exists; it sends nothing.
    let rc = unsafe { libc::kill(pid as libc::pid_t, 0) };
    rc != 0 && std::io::Error::last_os_error().raw_os_error() == Some(libc::ESRCH)
}
