//! Allocation sites: captured cheaply as raw return addresses, interned, and symbolized only
//! when a report asks.
//!
//! A site is the list of up to [`DEPTH`] return addresses of the allocating call stack. Sites
//! are interned in [`SHARDS`] independently locked tables (keyed by a hash of the addresses),
//! so a `full`-mode entry stores a 32-bit site id. Interned sites are never removed: their
//! number is bounded by the program's distinct allocating call stacks.

use crate::raw::{self, SpinGuard, SpinLock, SysBuf};
use crate::records::{Site, DEPTH};
use crate::table::SysVec;

const SHARDS: usize = 16;

struct Shard {
    sites: SysVec<Site>,
    /// Open-addressing index: site index + 1, 0 = empty.
    index: Option<SysBuf<u32>>,
}

static TABLE: [SpinLock<Shard>; SHARDS] =
    [const { SpinLock::new(Shard { sites: SysVec::new(), index: None }) }; SHARDS];

fn lock(i: usize) -> SpinGuard<'static, Shard> {
    TABLE[i % SHARDS].lock()
}

fn hash_frames(frames: &[usize]) -> u64 {
    // FNV-1a over the addresses, then a final mix.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &f in frames {
        h ^= f as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^ (h >> 33)
}

impl Shard {
    fn rebuild_index(&mut self, cap: usize) -> bool {
        let Some(mut fresh) = SysBuf::<u32>::zeroed(cap) else { return false };
        let slots = fresh.as_mut_slice();
        let mask = cap - 1;
        for (i, s) in self.sites.as_slice().iter().enumerate() {
            let mut j = (s.hash >> 4) as usize & mask;
            while slots[j] != 0 {
                j = (j + 1) & mask;
            }
            slots[j] = i as u32 + 1;
        }
        self.index = Some(fresh);
        true
    }

    /// The index (0-based) of `frames` in this shard, adding it if new.
    fn intern(&mut self, frames: &[usize], h: u64) -> Option<usize> {
        if let Some(index) = &self.index {
            let slots = index.as_slice();
            let mask = slots.len() - 1;
            let mut j = (h >> 4) as usize & mask;
            loop {
                let v = slots[j];
                if v == 0 {
                    break;
                }
                let s = &self.sites.as_slice()[v as usize - 1];
                if s.hash == h && &s.frames[..s.len] == frames {
                    return Some(v as usize - 1);
                }
                j = (j + 1) & mask;
            }
        }
        let n = self.sites.as_slice().len();
        if n >= (u32::MAX as usize) / (SHARDS * 2) {
            return None;
        }
        let cap = self.index.as_ref().map_or(0, SysBuf::capacity);
        if (n + 1) * 2 > cap && !self.rebuild_index((cap * 2).max(64)) {
            return None;
        }
        let mut site = Site { hash: h, len: frames.len(), frames: [0; DEPTH] };
        site.frames[..frames.len()].copy_from_slice(frames);
        if !self.sites.push(site) {
            return None;
        }
        let slots = self.index.as_mut()?.as_mut_slice();
        let mask = slots.len() - 1;
        let mut j = (h >> 4) as usize & mask;
        while slots[j] != 0 {
            j = (j + 1) & mask;
        }
        slots[j] = n as u32 + 1;
        Some(n)
    }
}

/// Captures the calling stack and returns its site id (0 if it could not be recorded). Does not
/// allocate through the global allocator.
pub(crate) fn capture() -> u32 {
    let mut frames = [0usize; DEPTH];
    let n = raw::capture_frames(&mut frames);
    intern(&frames[..n])
}

/// The id of the site with these frames (0 if it could not be recorded).
pub(crate) fn intern(frames: &[usize]) -> u32 {
    if frames.is_empty() {
        return 0;
    }
    let h = hash_frames(frames);
    let shard = h as usize % SHARDS;
    match lock(shard).intern(frames, h) {
        Some(i) => (i * SHARDS + shard + 1) as u32,
        None => 0,
    }
}

/// The frames of site `id`, copied out (empty for 0 or an unknown id).
pub(crate) fn frames(id: u32) -> Vec<usize> {
    if id == 0 {
        return Vec::new();
    }
    let v = id as usize - 1;
    let (shard, index) = (v % SHARDS, v / SHARDS);
    let mut out = [0usize; DEPTH];
    let n = {
        let g = lock(shard);
        match g.sites.as_slice().get(index) {
            Some(s) => {
                out[..s.len].copy_from_slice(&s.frames[..s.len]);
                s.len
            }
            None => 0,
        }
    };
    out[..n].to_vec()
}

/// Whether a symbol belongs to the allocator, the standard library or the unwinder rather than
/// to the program that allocated.
pub(crate) fn is_internal(name: &str) -> bool {
    const EXACT: [&str; 5] = ["clone", "clone3", "__clone", "__clone3", "start_thread"];
    const PREFIXES: [&str; 11] = [
        "atoll_mem::",
        "backtrace::",
        "alloc::",
        "core::",
        "std::",
        "__rust",
        "_Unwind",
        "rust_begin_unwind",
        "__libc",
        "_start",
        "__GI_",
    ];
    let n = name.trim_start_matches('<');
    if EXACT.contains(&n) || PREFIXES.iter().any(|p| n.starts_with(p)) {
        return true;
    }
    // `<T as alloc::string::ToString>::to_string`, `<i32 as core::fmt::Display>::fmt`: std
    // trait impls on generic parameters, primitives, references, slices and tuples.
    if let Some((ty, rest)) = n.split_once(" as ") {
        const PRIMS: [&str; 17] = [
            "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64", "u128", "usize", "f32", "f64",
            "bool", "char", "str",
        ];
        let std_trait = ["alloc::", "core::", "std::"].iter().any(|p| rest.starts_with(p));
        let ty = ty.trim_start_matches(['&', '*']).trim_start_matches("mut ").trim_start_matches("const ");
        let generic_or_prim = (ty.len() == 1 && ty.chars().all(|c| c.is_ascii_uppercase()))
            || PRIMS.contains(&ty)
            || ty.starts_with('[')
            || ty.starts_with('(');
        if std_trait && generic_or_prim {
            return true;
        }
    }
    false
}

/// A symbolized site: the first frame that belongs to the program, and every frame.
#[derive(Debug, Clone, Default)]
pub(crate) struct Described {
    pub site: String,
    pub frames: Vec<String>,
}

/// Symbolizes the frames of site `id` (slow: reads debug information).
pub(crate) fn describe(id: u32) -> Described {
    let mut out = Described::default();
    let mut first_user: Option<String> = None;
    for ip in frames(id) {
        let mut resolved = false;
        backtrace::resolve(ip as *mut std::ffi::c_void, |sym| {
            resolved = true;
            let name = sym.name().map(|n| format!("{n:#}")).unwrap_or_else(|| format!("{ip:#x}"));
            let location = match (sym.filename(), sym.lineno()) {
                (Some(file), Some(line)) => format!(" ({}:{line})", file.display()),
                _ => String::new(),
            };
            let text = format!("{name}{location}");
            if first_user.is_none() && !is_internal(&name) {
                first_user = Some(text.clone());
            }
            out.frames.push(text);
        });
        if !resolved {
            out.frames.push(format!("{ip:#x}"));
        }
    }
    out.site = first_user.or_else(|| out.frames.first().cloned()).unwrap_or_else(|| "<unknown site>".to_string());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[inline(never)]
    fn capture_here() -> u32 {
        capture()
    }

    #[test]
    fn same_stack_same_site() {
        let ids: Vec<u32> = (0..3).map(|_| capture_here()).collect();
        assert_ne!(ids[0], 0);
        assert!(ids.iter().all(|&i| i == ids[0]), "{ids:?}");
        let other = capture();
        assert_ne!(other, ids[0]);
        assert!(!frames(ids[0]).is_empty());
        let d = describe(ids[0]);
        assert!(d.site.contains("capture_here") || d.frames.iter().any(|f| f.contains("capture_here")), "{d:?}");
    }

    #[test]
    fn many_sites_intern_distinctly() {
        let mut ids = Vec::new();
        for i in 1..=2000usize {
            ids.push(intern(&[i, i + 1, 0xdead]));
        }
        for (k, &id) in ids.iter().enumerate() {
            let i = k + 1;
            assert_eq!(frames(id), vec![i, i + 1, 0xdead]);
            assert_eq!(intern(&[i, i + 1, 0xdead]), id);
        }
        assert_eq!(intern(&[]), 0);
        assert!(frames(0).is_empty());
    }

    #[test]
    fn internal_frames() {
        assert!(is_internal("alloc::alloc::exchange_malloc"));
        assert!(is_internal("<alloc::string::String as core::fmt::Write>::write_str"));
        assert!(is_internal("<T as alloc::string::ToString>::to_string"));
        assert!(is_internal("<i32 as core::fmt::Display>::fmt"));
        assert!(is_internal("atoll_mem::allocator::full_alloc"));
        assert!(is_internal("__rust_alloc"));
        assert!(!is_internal("my_app::main"));
        assert!(!is_internal("<my_app::Grid as core::clone::Clone>::clone"));
        assert!(!is_internal("full_mode::leak_boxes"));
    }
}
