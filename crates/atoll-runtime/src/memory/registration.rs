//! Registration tracking: which memory of this locale is remotely accessible, and a cache of
//! what other locales have registered.
//!
//! A network (or an MPI dynamic window) needs memory registered before remote access, and
//! registering is expensive, so it must happen once per region, not once per transfer (the
//! InfiniBand talk's "registration tracking"). Two structures do this:
//!
//! - [`RegionTable`], per locale: the registered regions, keyed by start address, with a
//!   reference count. Registering a region that lies inside a registered one is a hit (no
//!   backend call); a new region is attached through the backend once; the backend detaches it
//!   when its count drops to zero. Lookup by address is a `BTreeMap` range query: O(log n).
//! - [`RemoteCache`], per locale: the regions of each other locale that this one has learned
//!   about. Every remote access is checked against it; a miss asks the target once (the
//!   backend's [`crate::comm::Registration::lookup_remote`]), so repeated accesses to one array
//!   cost one lookup in total, and an access to unregistered memory is a clear error instead of
//!   undefined behaviour on the target.

use crate::sync::{lock, AtomicU64, Mutex, Ordering, RwLock};
use crate::sync::{read, write};
use atoll_error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Debug, Clone, Copy)]
struct Region {
    len: usize,
    refs: usize,
}

/// Hit and miss counts of the registration structures of one locale.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RegistrationStats {
    /// Registrations satisfied by an already registered region.
    pub local_hits: u64,
    /// Registrations that attached a new region.
    pub local_misses: u64,
    /// Remote accesses whose target region was already known.
    pub remote_hits: u64,
    /// Remote accesses that had to ask the target.
    pub remote_misses: u64,
}

impl RegistrationStats {
    /// Fraction of remote accesses resolved from the cache (1.0 when there were none).
    pub fn remote_hit_rate(&self) -> f64 {
        let t = self.remote_hits + self.remote_misses;
        if t == 0 {
            1.0
        } else {
            self.remote_hits as f64 / t as f64
        }
    }
}

/// The registered regions of one locale.
pub(crate) struct RegionTable {
    locale: usize,
    regions: Mutex<BTreeMap<u64, Region>>,
    hits: AtomicU64,
    misses: AtomicU64,
}

impl RegionTable {
    pub(crate) fn new(locale: usize) -> Self {
        RegionTable { locale, regions: Mutex::new(BTreeMap::new()), hits: AtomicU64::new(0), misses: AtomicU64::new(0) }
    }

    /// Registers `addr..addr+len`, calling `attach` only for a region not yet covered.
    pub(crate) fn register(&self, addr: u64, len: usize, attach: impl FnOnce(u64, usize) -> Result<()>) -> Result<()> {
        if len == 0 {
            return Ok(());
        }
        let end = addr.checked_add(len as u64).ok_or(Error::NotRegistered { locale: self.locale, addr, len })?;
        let mut map = lock(&self.regions);
        if let Some((&s, r)) = map.range_mut(..=addr).next_back() {
            if s + r.len as u64 >= end {
                r.refs += 1;
                self.hits.fetch_add(1, Ordering::Relaxed);
                return Ok(());
            }
            if s + r.len as u64 > addr {
                return Err(overlap(self.locale, addr, len, s, r.len));
            }
        }
        if let Some((&s, r)) = map.range(addr..end).next() {
            return Err(overlap(self.locale, addr, len, s, r.len));
        }
        attach(addr, len)?;
        map.insert(addr, Region { len, refs: 1 });
        self.misses.fetch_add(1, Ordering::Relaxed);
        Ok(())
    }

    /// Releases one registration of `addr..addr+len`, calling `detach(start)` when the
    /// containing region's last registration goes.
    pub(crate) fn deregister(&self, addr: u64, len: usize, detach: impl FnOnce(u64) -> Result<()>) -> Result<()> {
        if len == 0 {
            return Ok(());
        }
        let mut map = lock(&self.regions);
        let found = map.range_mut(..=addr).next_back().filter(|(&s, r)| s + r.len as u64 >= addr + len as u64).map(
            |(&s, r)| {
                r.refs -= 1;
                (s, r.refs)
            },
        );
        match found {
            Some((s, 0)) => {
                map.remove(&s);
                drop(map);
                detach(s)
            }
            Some(_) => Ok(()),
            None => Err(Error::NotRegistered { locale: self.locale, addr, len }),
        }
    }

    /// The registered region containing `addr..addr+len`: (start, length).
    pub(crate) fn find(&self, addr: u64, len: usize) -> Option<(u64, usize)> {
        let map = lock(&self.regions);
        let (&s, r) = map.range(..=addr).next_back()?;
        (s + r.len as u64 >= addr.checked_add(len as u64)?).then_some((s, r.len))
    }

    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        lock(&self.regions).len()
    }

    pub(crate) fn stats(&self) -> (u64, u64) {
        (self.hits.load(Ordering::Relaxed), self.misses.load(Ordering::Relaxed))
    }
}

fn overlap(locale: usize, addr: u64, len: usize, existing: u64, existing_len: usize) -> Error {
    Error::RegistrationOverlap { locale, addr, len, existing, existing_len }
}

/// What one locale knows of the other locales' registered regions.
pub(crate) struct RemoteCache {
    per_target: Vec<RwLock<BTreeMap<u64, usize>>>,
    hits: AtomicU64,
    misses: AtomicU64,
}

impl RemoteCache {
    pub(crate) fn new(num_locales: usize) -> Self {
        RemoteCache {
            per_target: (0..num_locales).map(|_| RwLock::new(BTreeMap::new())).collect(),
            hits: AtomicU64::new(0),
            misses: AtomicU64::new(0),
        }
    }

    /// Checks that `addr..addr+len` on `target` is registered, asking `lookup` on a miss.
    #[inline]
    pub(crate) fn resolve(
        &self,
        target: usize,
        addr: u64,
        len: usize,
        lookup: impl FnOnce() -> Result<Option<(u64, usize)>>,
    ) -> Result<()> {
        let end = addr.checked_add(len as u64).ok_or(Error::NotRegistered { locale: target, addr, len })?;
        {
            let map = read(&self.per_target[target]);
            if let Some((&s, &l)) = map.range(..=addr).next_back() {
                if s + l as u64 >= end {
                    self.hits.fetch_add(1, Ordering::Relaxed);
                    return Ok(());
                }
            }
        }
        self.misses.fetch_add(1, Ordering::Relaxed);
        match lookup()? {
            Some((s, l)) if s <= addr && s + l as u64 >= end => {
                self.learn(target, s, l);
                Ok(())
            }
            _ => Err(Error::NotRegistered { locale: target, addr, len }),
        }
    }

    /// Records that `start..start + len` on `target` is registered, replacing the regions
    /// learned earlier that start inside it (re-registered memory): after a lookup, or
    /// without one for the parts whose addresses a symmetric allocation exchanged.
    pub(crate) fn learn(&self, target: usize, start: u64, len: usize) {
        let mut map = write(&self.per_target[target]);
        let stale: Vec<u64> = map.range(start..start.saturating_add(len as u64)).map(|(&k, _)| k).collect();
        for k in stale {
            map.remove(&k);
        }
        map.insert(start, len);
    }

    /// Forgets what is known of the region starting at `start` on `target`.
    pub(crate) fn forget(&self, target: usize, start: u64) {
        write(&self.per_target[target]).remove(&start);
    }

    pub(crate) fn stats(&self) -> (u64, u64) {
        (self.hits.load(Ordering::Relaxed), self.misses.load(Ordering::Relaxed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    #[test]
    fn register_attaches_once_and_counts_references() {
        let t = RegionTable::new(0);
        let attaches = Cell::new(0);
        let attach = |_, _| {
            attaches.set(attaches.get() + 1);
            Ok(())
        };
        t.register(1000, 100, attach).unwrap();
        t.register(1000, 100, attach).unwrap();
        t.register(1010, 10, attach).unwrap();
        assert_eq!(attaches.get(), 1);
        assert_eq!(t.stats(), (2, 1));
        assert_eq!(t.find(1050, 50), Some((1000, 100)));
        assert_eq!(t.find(1050, 51), None);
        assert_eq!(t.find(999, 1), None);
        let detached = Cell::new(0u64);
        for _ in 0..2 {
            t.deregister(1000, 100, |s| {
                detached.set(s);
                Ok(())
            })
            .unwrap();
            assert_eq!(detached.get(), 0);
        }
        t.deregister(1010, 10, |s| {
            detached.set(s);
            Ok(())
        })
        .unwrap();
        assert_eq!(detached.get(), 1000);
        assert_eq!(t.len(), 0);
        assert!(matches!(t.deregister(1000, 1, |_| Ok(())), Err(Error::NotRegistered { .. })));
    }

    #[test]
    fn partial_overlaps_are_refused() {
        let t = RegionTable::new(3);
        t.register(1000, 100, |_, _| Ok(())).unwrap();
        for (a, l) in [(950u64, 100usize), (1050, 100), (900, 300)] {
            let e = t.register(a, l, |_, _| Ok(())).unwrap_err();
            assert!(matches!(e, Error::RegistrationOverlap { locale: 3, existing: 1000, .. }), "{e}");
        }
        t.register(1100, 10, |_, _| Ok(())).unwrap();
        assert_eq!(t.len(), 2);
    }

    #[test]
    fn remote_cache_asks_once_per_region() {
        let c = RemoteCache::new(2);
        let asked = Cell::new(0);
        for i in 0..100u64 {
            c.resolve(1, 5000 + i * 8, 8, || {
                asked.set(asked.get() + 1);
                Ok(Some((5000, 800)))
            })
            .unwrap();
        }
        assert_eq!(asked.get(), 1);
        assert_eq!(c.stats(), (99, 1));
        let e = c.resolve(1, 9000, 8, || Ok(None)).unwrap_err();
        assert_eq!(e, Error::NotRegistered { locale: 1, addr: 9000, len: 8 });
        c.forget(1, 5000);
        c.resolve(1, 5000, 8, || Ok(Some((5000, 800)))).unwrap();
        assert_eq!(c.stats().1, 3);
    }

    impl RemoteCache {
        /// Whether `addr..addr+len` on `target` lies in a region already known.
        fn knows(&self, target: usize, addr: u64, len: usize) -> bool {
            let map = read(&self.per_target[target]);
            map.range(..=addr).next_back().is_some_and(|(&s, &l)| s + l as u64 >= addr.saturating_add(len as u64))
        }
    }

    #[test]
    fn a_learned_region_needs_no_lookup_and_replaces_the_regions_inside_it() {
        let c = RemoteCache::new(3);
        let never = || -> Result<Option<(u64, usize)>> { panic!("looked up a learned region") };
        c.learn(2, 4096, 64);
        c.learn(2, 8192, 64);
        c.resolve(2, 4096, 64, never).unwrap();
        c.resolve(2, 8200, 8, never).unwrap();
        assert_eq!(c.stats(), (2, 0));
        // One region over both (memory registered again, larger): the old entries go.
        c.learn(2, 4096, 8192);
        assert!(c.knows(2, 4096, 8192) && !c.knows(1, 4096, 8));
        c.forget(2, 4096);
        assert!(!c.knows(2, 8192, 8), "the region at 8192 was replaced by the one forgotten");
        let e = c.resolve(2, 8192, 8, || Ok(None)).unwrap_err();
        assert_eq!(e, Error::NotRegistered { locale: 2, addr: 8192, len: 8 });
    }
}
