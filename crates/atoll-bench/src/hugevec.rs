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

/// Buffers a one-core reference keeps between calls, by element type: what a careful
/// single-core program does with its scratch and output buffers, so that only the first call
/// pays for fresh pages (on a 2-vCPU KVM guest, memory freed more than about a second ago is
/// written again at 0.4-0.8 GB/s: `probes/first_touch.c`). Atoll's runtime pools large
/// buffers the same way (`atoll_runtime::page_pool`).
#[derive(Default)]
pub struct Keep {
    bufs: Vec<Box<dyn std::any::Any>>,
}

impl Keep {
    /// A buffer of `len` elements: a kept one of that length (its old contents: callers
    /// overwrite it), else a zeroed fresh one (`zeroed`).
    pub fn take<T: bytemuck::Zeroable + Clone + 'static>(&mut self, len: usize, huge: bool) -> Vec<T> {
        let at = self.bufs.iter().position(|b| b.downcast_ref::<Vec<T>>().is_some_and(|v| v.len() == len));
        match at.map(|i| self.bufs.swap_remove(i).downcast::<Vec<T>>()) {
            Some(Ok(v)) => *v,
            _ => zeroed(len, huge),
        }
    }

    /// Keeps `v` for a later [`Keep::take`] (empty vectors are dropped).
    pub fn give<T: 'static>(&mut self, v: Vec<T>) {
        if !v.is_empty() {
            self.bufs.push(Box::new(v));
        }
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

/// The chosen value of a transparent-huge-page setting of this host
/// (`/sys/kernel/mm/transparent_hugepage/<name>`, the word in brackets), or `"unknown"`.
/// Reported beside figures that depend on it: node-shared memory under MPI gets huge pages only
/// where `shmem_enabled` is `advise`, `within_size` or `always`, and `defrag` decides whether a
/// huge-page fault may stall for compaction.
pub fn thp_setting(name: &str) -> String {
    let text = std::fs::read_to_string(format!("/sys/kernel/mm/transparent_hugepage/{name}")).unwrap_or_default();
    chosen(&text).unwrap_or("unknown").to_string()
}

/// The bracketed word of a sysfs choice list (`"always [madvise] never"` -> `madvise`).
fn chosen(text: &str) -> Option<&str> {
    let start = text.find('[')? + 1;
    let len = text[start..].find(']')?;
    Some(&text[start..start + len])
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_bracketed_choice_is_read() {
        assert_eq!(super::chosen("always within_size advise [never] deny force\n"), Some("never"));
        assert_eq!(super::chosen("[always] madvise never"), Some("always"));
        assert_eq!(super::chosen("no brackets"), None);
        assert_eq!(super::chosen(""), None);
    }
}
