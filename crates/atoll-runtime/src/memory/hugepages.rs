//! Transparent huge pages for large allocations: the one small `unsafe` shim that asks the
//! kernel (`madvise(MADV_HUGEPAGE)`) to back big anonymous buffers with 2 MiB pages.
//!
//! Random access over arrays of gigabytes (gather, scatter, a sort's scatter passes) misses
//! the TLB on nearly every element with 4 KiB pages; a page walk per access then limits the
//! cache misses in flight, and every 4 KiB of a fresh buffer costs a page fault. Where the
//! kernel's transparent huge pages are in `madvise` mode (`/sys/kernel/mm/transparent_hugepage/
//! enabled`), only memory advised with `MADV_HUGEPAGE` gets them: on a 2-vCPU KVM guest a
//! one-core gather of 2^27 `u64` took 1.22 s instead of 2.1 s, and the first touch of 1 GiB
//! 0.1 s instead of 0.36-0.69 s. In `always` mode the advice changes nothing; in `never` mode
//! it is ignored.
//!
//! Which allocations: the heap storage of symmetric allocations ([`crate::Ctx::alloc_symmetric_for`]
//! and its lazy form: every `DistArray`'s local part on the `local` backend, `zeros_lazy`,
//! the symmetric buffers of the radix sort) of at least [`THRESHOLD`] bytes. Only the 2 MiB
//! aligned interior of a buffer can be huge pages (a `Vec`'s buffer is not 2 MiB aligned; the
//! head and tail, under 2 MiB each, keep 4 KiB pages). MPI node-shared segments (memfd
//! mappings, `comm/mpi/shm.rs`) are shared memory, which the kernel backs with huge pages
//! only when `shmem_enabled` allows it (`advise`, `within_size`, `always`; `never` on many
//! KVM guests): `comm/mpi/shm.rs` advises large ones too, effective only there.
//!
//! Switch: `ATOLL_HUGEPAGES=0` (or `off`, `false`) turns the advice off for the process (read
//! once); [`set_enabled`] overrides it (tests comparing both).

use crate::sync::{AtomicU8, Ordering};

/// Buffers of at least this many bytes are advised (4 MiB: at least one whole huge page).
pub const THRESHOLD: usize = 4 << 20;

/// The huge-page size of x86-64 and aarch64 (4 KiB base pages).
pub(crate) const HUGE_PAGE: usize = 2 << 20;

/// 0: not read yet; 1: on; 2: off.
static STATE: AtomicU8 = AtomicU8::new(0);

/// Whether large allocations are advised: [`Config::hugepages`](crate::Config::hugepages) of
/// the job that started last (or [`set_enabled`]), else of the environment (`ATOLL_HUGEPAGES`,
/// default on).
pub fn enabled() -> bool {
    match STATE.load(Ordering::Relaxed) {
        1 => true,
        2 => false,
        _ => {
            let on = crate::config::from_env_once().hugepages;
            // A concurrent `set_enabled` wins over the environment.
            let _ = STATE.compare_exchange(0, if on { 1 } else { 2 }, Ordering::Relaxed, Ordering::Relaxed);
            STATE.load(Ordering::Relaxed) == 1
        }
    }
}

/// Turns the advice on or off for allocations made from now on (process-wide; a job does it
/// when it starts, from its `Config`).
pub fn set_enabled(on: bool) {
    STATE.store(if on { 1 } else { 2 }, Ordering::Relaxed);
}

/// Advises the 2 MiB aligned interior of the `bytes` bytes at `ptr` for huge pages when they are
/// at least [`THRESHOLD`] and the advice is [`enabled`]: whether the kernel accepted it.
/// Contents are unchanged; pages already touched stay as they are (khugepaged may merge them
/// later), so advise a buffer before its first write.
pub(crate) fn advise_bytes(ptr: *const u8, bytes: usize) -> bool {
    if bytes < THRESHOLD || !enabled() {
        return false;
    }
    let start = (ptr as usize).next_multiple_of(HUGE_PAGE);
    let end = (ptr as usize).saturating_add(bytes) / HUGE_PAGE * HUGE_PAGE;
    if end <= start {
        return false;
    }
    madvise_huge(start, end - start)
}

#[cfg(target_os = "linux")]
fn madvise_huge(start: usize, len: usize) -> bool {
    // SAFETY: `start..start + len` lies inside one live allocation of the caller (the buffer of
    // a `Vec` it owns, see `advise_bytes`), page aligned. MADV_HUGEPAGE only sets a flag on the
    // mapping: it changes no byte, no protection and no address, so no reference to the
    // memory is invalidated; on a range the kernel cannot advise it fails with an error code.
    unsafe { libc::madvise(start as *mut libc::c_void, len, libc::MADV_HUGEPAGE) == 0 }
}

#[cfg(not(target_os = "linux"))]
fn madvise_huge(_start: usize, _len: usize) -> bool {
    false
}

/// An empty `Vec` with room for `len` elements, its buffer advised for huge pages (see the
/// module docs) before anything is written to it.
pub fn vec_with_capacity<T>(len: usize) -> Vec<T> {
    let v: Vec<T> = Vec::with_capacity(len);
    advise_bytes(v.as_ptr().cast::<u8>(), len.saturating_mul(size_of::<T>()));
    v
}

/// `len` zeroed elements, advised for huge pages. A large zeroed allocation comes from the
/// kernel untouched, so the advice still applies to every page.
pub fn zeroed_vec<T: bytemuck::Zeroable + Clone>(len: usize) -> Vec<T> {
    let v: Vec<T> = bytemuck::zeroed_vec(len);
    advise_bytes(v.as_ptr().cast::<u8>(), len.saturating_mul(size_of::<T>()));
    v
}

/// Whether the huge-page advice is set on the mapping that holds `ptr` (Linux: the `hg` flag
/// in `/proc/self/smaps`); `None` where that cannot be read. For tests and diagnostics.
pub fn is_advised(ptr: *const u8) -> Option<bool> {
    let entry = smaps_entry(ptr)?;
    let flags = entry.iter().find_map(|l| l.strip_prefix("VmFlags:"))?;
    Some(flags.split_whitespace().any(|f| f == "hg"))
}

/// KiB of the mapping that holds `ptr` mapped with huge pages (`AnonHugePages`,
/// `ShmemPmdMapped` and `FilePmdMapped` of `/proc/self/smaps`); `None` where that cannot be
/// read. For tests and diagnostics.
pub fn huge_kib(ptr: *const u8) -> Option<u64> {
    let entry = smaps_entry(ptr)?;
    let kib = |key: &str| {
        entry
            .iter()
            .find_map(|l| l.strip_prefix(key))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            .unwrap_or(0)
    };
    Some(kib("AnonHugePages:") + kib("ShmemPmdMapped:") + kib("FilePmdMapped:"))
}

/// The lines of `/proc/self/smaps` that describe the mapping holding `ptr` (after its
/// address line).
fn smaps_entry(ptr: *const u8) -> Option<Vec<String>> {
    let smaps = std::fs::read_to_string("/proc/self/smaps").ok()?;
    let addr = ptr as usize;
    let mut entry: Option<Vec<String>> = None;
    for line in smaps.lines() {
        let first = line.split_whitespace().next().unwrap_or("");
        if let Some((lo, hi)) = first.split_once('-') {
            if let (Ok(lo), Ok(hi)) = (usize::from_str_radix(lo, 16), usize::from_str_radix(hi, 16)) {
                if entry.is_some() {
                    break;
                }
                if (lo..hi).contains(&addr) {
                    entry = Some(Vec::new());
                }
                continue;
            }
        }
        if let Some(e) = entry.as_mut() {
            e.push(line.to_string());
        }
    }
    entry
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_buffers_are_left_alone() {
        assert!(!advise_bytes(std::ptr::null(), THRESHOLD - 1));
    }
}
