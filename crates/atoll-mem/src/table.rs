//! `full` mode's table of live blocks: [`SHARDS`] independently locked open-addressing hash
//! tables keyed by address, each behind a [`SpinLock`](crate::raw::SpinLock).
//!
//! The shard of a block is a hash of its address, so concurrent threads rarely meet on a lock,
//! and there is no global lock. Each shard is a linear-probing table with backward-shift
//! deletion (no tombstones), kept at most 70% full; its storage comes from
//! [`SysBuf`](crate::raw::SysBuf), i.e. from the system allocator directly, so growing it
//! inside the global allocator does not recurse into tracking. Nothing here allocates through
//! the global allocator while a shard lock is held.

use crate::raw::{SpinGuard, SpinLock, SysBuf, Zeroable};
pub(crate) use crate::records::Entry;

/// The number of independently locked shards.
pub(crate) const SHARDS: usize = 64;
/// The site of blocks marked permanent (interned site ids stay far below it).
pub(crate) const PERMANENT_SITE: u32 = u32::MAX;
const INITIAL_CAPACITY: usize = 64;

struct Inner {
    slots: Option<SysBuf<Entry>>,
    len: usize,
    /// The length at which the table grows (70% of its capacity).
    grow_at: usize,
}

#[repr(align(128))]
struct Shard {
    inner: SpinLock<Inner>,
}

static TABLE: [Shard; SHARDS] =
    [const { Shard { inner: SpinLock::new(Inner { slots: None, len: 0, grow_at: 0 }) } }; SHARDS];

/// Fibonacci hashing of an address (blocks are at least 16-byte aligned): one multiplication,
/// whose high bits are well mixed. The shard is taken from the top 6 bits, the home slot from
/// the bits below them.
#[inline(always)]
fn hash(addr: usize) -> u64 {
    ((addr as u64) >> 4).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

#[inline(always)]
fn lock(index: usize) -> SpinGuard<'static, Inner> {
    TABLE[index % SHARDS].inner.lock()
}

/// The home slot of `h` in a table of `mask + 1` slots (the top bits chose the shard).
#[inline(always)]
fn home(h: u64, mask: usize) -> usize {
    (h >> 20) as usize & mask
}

/// The shard of `h`.
#[inline(always)]
fn shard_of(h: u64) -> usize {
    (h >> 58) as usize
}

impl Inner {
    fn find(&self, addr: usize, h: u64) -> Option<usize> {
        let slots = self.slots.as_ref()?.as_slice();
        let mask = slots.len() - 1;
        let mut i = home(h, mask);
        loop {
            let a = slots[i].addr;
            if a == addr {
                return Some(i);
            }
            if a == 0 {
                return None;
            }
            i = (i + 1) & mask;
        }
    }

    /// Makes room for one more entry; false when the system is out of memory.
    fn reserve_one(&mut self) -> bool {
        if self.len < self.grow_at {
            return true;
        }
        let cap = self.slots.as_ref().map_or(0, SysBuf::capacity);
        let new_cap = if cap == 0 { INITIAL_CAPACITY } else { cap * 2 };
        let Some(mut fresh) = SysBuf::<Entry>::zeroed(new_cap) else { return false };
        if let Some(old) = &self.slots {
            let mask = new_cap - 1;
            let dst = fresh.as_mut_slice();
            for e in old.as_slice().iter().filter(|e| e.addr != 0) {
                let mut i = home(hash(e.addr), mask);
                while dst[i].addr != 0 {
                    i = (i + 1) & mask;
                }
                dst[i] = *e;
            }
        }
        self.slots = Some(fresh);
        self.grow_at = new_cap / 10 * 7;
        true
    }

    /// Inserts or replaces; returns the replaced entry. `Err` when out of memory.
    fn insert(&mut self, e: Entry, h: u64) -> Result<Option<Entry>, ()> {
        if !self.reserve_one() {
            // Full and cannot grow: the entry may still be present to replace.
            return match self.find(e.addr, h) {
                Some(i) => match &mut self.slots {
                    Some(b) => Ok(Some(std::mem::replace(&mut b.as_mut_slice()[i], e))),
                    None => Err(()),
                },
                None => Err(()),
            };
        }
        let slots = self.slots.as_mut().ok_or(())?.as_mut_slice();
        let mask = slots.len() - 1;
        let mut i = home(h, mask);
        // One probe: stop at the address (replace) or at the first empty slot (insert).
        loop {
            let a = slots[i].addr;
            if a == e.addr {
                return Ok(Some(std::mem::replace(&mut slots[i], e)));
            }
            if a == 0 {
                slots[i] = e;
                self.len += 1;
                return Ok(None);
            }
            i = (i + 1) & mask;
        }
    }

    fn remove(&mut self, addr: usize, h: u64) -> Option<Entry> {
        let mut hole = self.find(addr, h)?;
        let slots = self.slots.as_mut()?.as_mut_slice();
        let mask = slots.len() - 1;
        let removed = slots[hole];
        // Backward-shift deletion: pull later members of the probe run into the hole.
        let mut j = hole;
        loop {
            j = (j + 1) & mask;
            let a = slots[j].addr;
            if a == 0 {
                break;
            }
            let k = home(hash(a), mask);
            // Entry j may move to `hole` unless its home lies cyclically in (hole, j].
            let stays = if hole <= j { hole < k && k <= j } else { hole < k || k <= j };
            if !stays {
                slots[hole] = slots[j];
                hole = j;
            }
        }
        slots[hole] = Entry { addr: 0, size: 0, site: 0, locale: 0 };
        self.len -= 1;
        Some(removed)
    }
}

/// Records a live block. Returns the entry it replaced, if the address was already present
/// (a block freed without the table seeing it), or `Err(())` when the table cannot grow.
pub(crate) fn insert(e: Entry) -> Result<Option<Entry>, ()> {
    let h = hash(e.addr);
    lock(shard_of(h)).insert(e, h)
}

/// Forgets a block; returns its entry if it was recorded.
pub(crate) fn remove(addr: usize) -> Option<Entry> {
    let h = hash(addr);
    lock(shard_of(h)).remove(addr, h)
}

/// Forgets every block and returns the storage to the system.
pub(crate) fn clear() {
    for index in 0..SHARDS {
        let old = {
            let mut g = lock(index);
            g.len = 0;
            g.grow_at = 0;
            g.slots.take()
        };
        drop(old);
    }
}

/// Marks every recorded block permanent; returns how many were not already.
pub(crate) fn mark_all_permanent() -> u64 {
    let mut marked = 0;
    for index in 0..SHARDS {
        let mut g = lock(index);
        if let Some(slots) = g.slots.as_mut() {
            for e in slots.as_mut_slice().iter_mut().filter(|e| e.addr != 0 && e.site != PERMANENT_SITE) {
                e.site = PERMANENT_SITE;
                marked += 1;
            }
        }
    }
    marked
}

/// The number of recorded blocks.
pub(crate) fn len() -> usize {
    (0..SHARDS).map(|i| lock(i).len).sum()
}

/// Copies every recorded entry into `out` (storage from the system allocator, so no global
/// allocation happens under a lock). Returns false if `out` could not grow.
pub(crate) fn snapshot(out: &mut SysVec<Entry>) -> bool {
    for index in 0..SHARDS {
        let g = lock(index);
        if let Some(slots) = &g.slots {
            for e in slots.as_slice().iter().filter(|e| e.addr != 0) {
                if !out.push(*e) {
                    return false;
                }
            }
        }
    }
    true
}

/// A growable array whose storage comes from the system allocator.
pub(crate) struct SysVec<T: Zeroable> {
    buf: Option<SysBuf<T>>,
    len: usize,
}

impl<T: Zeroable> SysVec<T> {
    /// An empty vector (allocates nothing).
    pub(crate) const fn new() -> Self {
        SysVec { buf: None, len: 0 }
    }

    /// Appends `v`; false when the system is out of memory.
    pub(crate) fn push(&mut self, v: T) -> bool {
        let cap = self.buf.as_ref().map_or(0, SysBuf::capacity);
        if self.len == cap {
            let new_cap = if cap == 0 { 16 } else { cap * 2 };
            let Some(mut fresh) = SysBuf::<T>::zeroed(new_cap) else { return false };
            if let Some(old) = &self.buf {
                fresh.as_mut_slice()[..self.len].copy_from_slice(&old.as_slice()[..self.len]);
            }
            self.buf = Some(fresh);
        }
        match &mut self.buf {
            Some(b) => {
                b.as_mut_slice()[self.len] = v;
                self.len += 1;
                true
            }
            None => false,
        }
    }

    /// The elements.
    pub(crate) fn as_slice(&self) -> &[T] {
        match &self.buf {
            Some(b) => &b.as_slice()[..self.len],
            None => &[],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn entry(addr: usize, size: usize) -> Entry {
        Entry { addr, size, site: 0, locale: 1 }
    }

    #[test]
    fn shard_behaves_like_a_map() {
        // A model check against HashMap with a deterministic pseudo-random sequence, dense
        // enough to exercise growth, wrap-around and backward shifting.
        let mut t = Inner { slots: None, len: 0, grow_at: 0 };
        let mut model: HashMap<usize, usize> = HashMap::new();
        let mut x: u64 = 0x1234_5678;
        for step in 0..200_000usize {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let addr = 16 * (1 + (x % 5000) as usize);
            let h = hash(addr);
            if x % 3 == 0 {
                let got = t.remove(addr, h).map(|e| e.size);
                assert_eq!(got, model.remove(&addr), "step {step}");
            } else {
                let old = t.insert(entry(addr, step), h).unwrap().map(|e| e.size);
                assert_eq!(old, model.insert(addr, step), "step {step}");
            }
            assert_eq!(t.len, model.len());
        }
        for (&addr, &size) in &model {
            let i = t.find(addr, hash(addr)).expect("present");
            assert_eq!(t.slots.as_ref().unwrap().as_slice()[i].size, size);
        }
    }

    #[test]
    fn sysvec_grows() {
        let mut v = SysVec::<usize>::new();
        assert!(v.as_slice().is_empty());
        for i in 0..1000 {
            assert!(v.push(i));
        }
        assert_eq!(v.as_slice().len(), 1000);
        assert!(v.as_slice().iter().copied().eq(0..1000));
    }

    #[test]
    fn global_table_round_trip() {
        // Addresses far from anything malloc returns in this test binary; the global table is
        // only used by this test here (the allocator is not installed in unit tests).
        let base = usize::MAX - (1 << 20);
        for i in 0..500 {
            assert_eq!(insert(entry(base + 16 * i, i)), Ok(None));
        }
        assert_eq!(insert(entry(base, 77)), Ok(Some(entry(base, 0))));
        let mut snap = SysVec::new();
        assert!(snapshot(&mut snap));
        assert!(snap.as_slice().iter().filter(|e| e.addr >= base).count() == 500);
        for i in 0..500 {
            assert!(remove(base + 16 * i).is_some());
        }
        assert_eq!(remove(base), None);
    }
}
