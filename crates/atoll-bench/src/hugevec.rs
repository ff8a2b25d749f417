//! Buffers of the one-core references, on the same pages as Atoll's arrays: with
//! `huge` (and `ATOLL_HUGEPAGES` not 0), a large buffer is advised for transparent huge pages
//! before its first write, as Atoll's array storage is (`atoll_runtime::hugepages`), so that a
//! speedup measures parallelism, not page size; without, a plain `Vec` (4 KiB pages), the
//! `one_core_4k_seconds` figures.

use atoll::runtime::{bytemuck, hugepages};

/// `len` zeroed elements (untouched pages from the kernel when large).
pub fn zeroed<T: bytemuck::Zeroable + Clone>(len: usize, huge: bool) -> Vec<T> {
    if huge {
        hugepages::zeroed_vec(len)
    } else {
        bytemuck::zeroed_vec(len)
    }
}

/// The items of `it`, collected into a buffer allocated (and advised) first for the length
/// its size hint gives (exact for ranges and slices, mapped).
pub fn collect<T>(it: impl Iterator<Item = T>, huge: bool) -> Vec<T> {
    let len = it.size_hint().0;
    let mut v = if huge { hugepages::vec_with_capacity(len) } else { Vec::with_capacity(len) };
    v.extend(it);
    v
}

/// `len` copies of `x`.
pub fn filled<T: Clone>(len: usize, x: T, huge: bool) -> Vec<T> {
    collect(std::iter::repeat_n(x, len), huge)
}
