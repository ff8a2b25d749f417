//! A pool of large zeroed buffers for the lazy heap parts of symmetric allocations
//! (`Ctx::alloc_symmetric_lazy_for`: `DistArray::zeros_lazy`, which makes the results of most
//! operations and every array of the Python package, and a sort's buffers): a freed part of
//! at least [`THRESHOLD`] bytes is kept and handed, zeroed again, to a later allocation of the
//! same locale that it fits, instead of going back to the kernel. (Eager allocations keep
//! fresh pages, first touched by each sublocale's threads for NUMA placement.)
//!
//! Why: the first write to fresh memory costs a page fault per page, and on a 2-vCPU KVM
//! guest far more. Memory that a process frees goes back to the hypervisor within about a second
//! (free page reporting), and writing it again then ran at 0.4-0.8 GB/s, against 7-8 GB/s for
//! pages the guest still held and ~25 GB/s for a `memset` of memory already mapped
//! (`crates/atoll-bench/probes/first_touch.c`). A distributed argsort of 2^26 keys allocates
//! ~1 GiB of buffers and output: their first touch took 1-2 s of its 2.3-2.9 s, and decided
//! whether the sort or the one-core reference that ran after it looked fast
//! (measured on a 2-vCPU guest).
//!
//! Policy: idle buffers are kept per locale and reused only by it (the pages stay where that
//! locale's threads first touched them). An allocation takes the smallest idle buffer of its
//! locale that holds it and is at most an eighth larger, else a fresh one; the bytes it asks
//! for are zeroed before it gets them, unless it overwrites them all before reading any
//! (`Ctx::alloc_symmetric_for_overwrite`: result arrays, a sort's buffers), which saves a
//! write of the whole part. Idle bytes are capped ([`cap`]: `ATOLL_HEAP_KEEP`, default a
//! quarter of physical memory up to 8 GiB; `0` turns the pool off); a buffer that does not fit
//! under the cap is freed. [`trim`] frees every idle buffer (at the end of every `run`).
//! Pooled memory is outside the memory budget's reservations: it is held, not in use.

use crate::memory::hugepages::THRESHOLD;
use crate::sync::lock;
use crate::sync::{AtomicUsize, Ordering};
use crate::sync::{Mutex, OnceLock};
use std::ptr::NonNull;

/// The alignment the pool serves (its buffers are page aligned).
pub(crate) const ALIGN: usize = 4096;

/// One anonymous mapping of `bytes` bytes (page aligned), owned (unmapped on drop). Mapped
/// outside the global allocator, so that the tracking allocator counts a buffer only while a
/// locale holds it: [`take`] notes it as mapped for the calling thread's locale,
/// [`give_back`] as unmapped (`atoll_mem::note_mapped`), and idle buffers count for no one
/// (neither in `Ctx::memory_used` nor against a memory budget).
pub(crate) struct PoolBuf {
    ptr: NonNull<u8>,
    bytes: usize,
}

// SAFETY: a `PoolBuf` owns its mapping exclusively (as a `Box<[u8]>` owns its memory); moving
// it to another thread moves that ownership.
unsafe impl Send for PoolBuf {}
// SAFETY: `&PoolBuf` only exposes the address.
unsafe impl Sync for PoolBuf {}

impl PoolBuf {
    /// A fresh zeroed mapping of `bytes` (> 0) bytes, advised for huge pages (untouched pages
    /// from the kernel). `None` when the kernel refuses it.
    #[cfg(unix)]
    fn fresh(bytes: usize) -> Option<PoolBuf> {
        if bytes == 0 {
            return None;
        }
        // SAFETY: a new private anonymous mapping: no existing memory is affected; the result
        // is checked against MAP_FAILED.
        let p = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                bytes,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if p == libc::MAP_FAILED {
            return None;
        }
        let ptr = NonNull::new(p.cast::<u8>())?;
        crate::memory::hugepages::advise_bytes(ptr.as_ptr(), bytes);
        Some(PoolBuf { ptr, bytes })
    }

    #[cfg(not(unix))]
    fn fresh(_bytes: usize) -> Option<PoolBuf> {
        None
    }

    /// The first byte.
    pub(crate) fn as_ptr(&self) -> *mut u8 {
        self.ptr.as_ptr()
    }
}

impl Drop for PoolBuf {
    fn drop(&mut self) {
        #[cfg(unix)]
        // SAFETY: `ptr..ptr + bytes` is the mapping `fresh` made, owned by this value and
        // unmapped once, here (no reference into it outlives its owner).
        unsafe {
            libc::munmap(self.ptr.as_ptr().cast(), self.bytes);
        }
    }
}

struct Idle {
    bufs: Vec<(usize, PoolBuf)>,
    bytes: usize,
}

static IDLE: Mutex<Idle> = Mutex::new(Idle { bufs: Vec::new(), bytes: 0 });

fn idle() -> crate::sync::MutexGuard<'static, Idle> {
    lock(&IDLE)
}

/// The cap set by the last job to start (`usize::MAX`: none yet).
static CAP: AtomicUsize = AtomicUsize::new(usize::MAX);

/// The cap for `keep` bytes ([`Config::heap_keep`](crate::Config::heap_keep)): those, else a
/// quarter of physical memory, at most 8 GiB.
fn cap_of(keep: Option<u64>) -> usize {
    match keep {
        Some(b) => usize::try_from(b).unwrap_or(usize::MAX - 1).min(usize::MAX - 1),
        None => {
            static DEFAULT: OnceLock<usize> = OnceLock::new();
            *DEFAULT.get_or_init(|| (atoll_mem::physical_memory().unwrap_or(0) / 4).min(8 << 30) as usize)
        }
    }
}

/// The most idle bytes the pool keeps: [`Config::heap_keep`](crate::Config::heap_keep) of the
/// job that started last, else of the environment (`ATOLL_HEAP_KEEP`, a byte size such as
/// `2GiB`; `0` turns the pool off), by default a quarter of physical memory, at most 8 GiB.
pub fn cap() -> usize {
    match CAP.load(Ordering::Relaxed) {
        usize::MAX => cap_of(crate::config::from_env_once().heap_keep),
        c => c,
    }
}

/// Sets [`cap`] for buffers freed from now on (a job does it when it starts; the buffers idle
/// above a lower cap go at the next [`trim`], which every job runs at its end).
pub(crate) fn set_cap(keep: Option<u64>) {
    CAP.store(cap_of(keep), Ordering::Relaxed);
}

/// A buffer for `bytes` bytes of locale `locale`: an idle one when one fits, else a fresh one
/// (zero). With `zero`, its first `bytes` bytes are zero (an idle one is zeroed here); without,
/// an idle one keeps what its last holder wrote (every byte initialized: buffers are mapped
/// zeroed and their holders store plain values), for a part that is overwritten before it is
/// read. `None` below [`THRESHOLD`] bytes, with the pool off, or when the allocator refuses
/// (the caller allocates otherwise).
pub(crate) fn take(locale: usize, bytes: usize, zero: bool) -> Option<PoolBuf> {
    if bytes < THRESHOLD || cap() == 0 {
        return None;
    }
    let reused = {
        let mut idle = idle();
        // At most an eighth larger: the holder is counted for the whole buffer (memory it
        // holds), so the count stays within an eighth of what its reservation committed.
        let fits = |b: &PoolBuf| b.bytes >= bytes && b.bytes - bytes <= bytes / 8;
        let best = idle
            .bufs
            .iter()
            .enumerate()
            .filter(|(_, (l, b))| *l == locale && fits(b))
            .min_by_key(|(_, (_, b))| b.bytes)
            .map(|(i, _)| i);
        match best {
            Some(i) => {
                let (_, b) = idle.bufs.swap_remove(i);
                idle.bytes -= b.bytes;
                Some(b)
            }
            None => None,
        }
    };
    let buf = match reused {
        Some(b) => {
            if zero {
                // SAFETY: `bytes <= b.bytes`: the buffer's own memory, not shared (taken out of
                // the pool under its lock).
                unsafe { std::ptr::write_bytes(b.as_ptr(), 0, bytes) };
            }
            b
        }
        None => PoolBuf::fresh(bytes)?,
    };
    atoll_mem::note_mapped(buf.as_ptr() as usize, buf.bytes);
    Some(buf)
}

/// Keeps `buf` (freed by locale `locale`) for reuse, or frees it when the idle bytes would
/// exceed [`cap`].
pub(crate) fn give_back(locale: usize, buf: PoolBuf) {
    atoll_mem::note_unmapped(buf.as_ptr() as usize, buf.bytes);
    let mut idle = idle();
    if idle.bytes + buf.bytes <= cap() {
        idle.bytes += buf.bytes;
        idle.bufs.push((locale, buf));
    } else {
        drop(idle);
        drop(buf);
    }
}

/// Frees every idle buffer (the memory goes back to the kernel).
pub fn trim() {
    let bufs = {
        let mut idle = idle();
        idle.bytes = 0;
        std::mem::take(&mut idle.bufs)
    };
    drop(bufs);
}

/// The bytes of the idle buffers (diagnostics and tests).
pub fn idle_bytes() -> usize {
    idle().bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A freed buffer comes back zeroed to the next allocation of its locale that it fits,
    /// only to one it fits, and as it was to one that overwrites it.
    #[test]
    fn a_freed_buffer_is_reused_zeroed_or_as_it_was_and_only_where_it_fits() {
        if cap() < 4 * THRESHOLD {
            return;
        }
        // A locale number no other test uses, so concurrent tests do not take its buffer.
        let locale = 90_210;
        // An odd size that no other test allocates (they could take the buffer meanwhile).
        let bytes = 3 * THRESHOLD + 12_345;
        let b = take(locale, bytes, true).expect("a fresh buffer");
        let addr = b.as_ptr() as usize;
        // SAFETY: the buffer's own bytes.
        unsafe { std::ptr::write_bytes(b.as_ptr(), 0xAB, b.bytes) };
        give_back(locale, b);
        // Too large for it (more than its size) and too small (it would be over an eighth
        // larger): fresh buffers.
        let big = take(locale, bytes + 1, true).expect("a fresh buffer");
        assert_ne!(big.as_ptr() as usize, addr);
        let small = take(locale, bytes * 7 / 8 - 4096, true).expect("a fresh buffer");
        assert_ne!(small.as_ptr() as usize, addr);
        assert!(take(locale, 100, true).is_none(), "below the threshold the caller allocates");
        let other = take(locale + 1, bytes, true).expect("a fresh buffer");
        assert_ne!(other.as_ptr() as usize, addr, "another locale's idle buffer is not reused");
        let again = take(locale, bytes - 8, true).expect("the freed buffer");
        assert_eq!(again.as_ptr() as usize, addr);
        // SAFETY: the buffer's own bytes, `bytes - 8` of them zeroed by `take`.
        let s = unsafe { std::slice::from_raw_parts(again.as_ptr(), bytes - 8) };
        assert!(s.iter().all(|&x| x == 0));
        // Taken for overwriting, it keeps what its last holder wrote (no write of its bytes).
        // SAFETY: the buffer's own bytes.
        unsafe { std::ptr::write_bytes(again.as_ptr(), 0xCD, bytes - 8) };
        give_back(locale, again);
        let stale = take(locale, bytes - 16, false).expect("the freed buffer");
        assert_eq!(stale.as_ptr() as usize, addr);
        // SAFETY: the buffer's own bytes, written above.
        let s = unsafe { std::slice::from_raw_parts(stale.as_ptr(), bytes - 8) };
        assert!(s.iter().all(|&x| x == 0xCD));
        give_back(locale, big);
        give_back(locale + 1, other);
        give_back(locale, small);
        give_back(locale, stale);
    }
}
