//! Per-locale memory budgets: [`MemoryLimit`] (from `ATOLL_MEM_MAX`), [`Budget`],
//! [`Reservation`] and [`Commitment`].
//!
//! # Accounting
//!
//! A budget knows three quantities for its locale:
//!
//! * `tracked`: [`memory_used_by`](crate::memory_used_by) the locale, when the tracking
//!   allocator is installed and not `off`; otherwise 0;
//! * `reserved`: bytes held by live [`Reservation`]s: memory an operation is about to allocate;
//! * `committed`: bytes held by live [`Commitment`]s: memory that was allocated under a
//!   reservation and is still alive.
//!
//! and counts `in_use = max(tracked, committed) + reserved`.
//!
//! Allocated memory is counted once: when tracking is on, a committed block is also in
//! `tracked` and the `max` counts it once; when tracking is off, `tracked` is 0 and `committed`
//! stands for it. A reservation should be converted ([`Reservation::commit`]) right after its
//! memory is allocated: between the allocation and the commit the bytes are counted twice
//! (tracked and reserved), which can only make a concurrent reservation fail early, never let
//! the locale exceed its limit. With a threshold, blocks below it are invisible to `tracked`;
//! committed blocks are still counted through `committed`.

use std::sync::atomic::{AtomicU64, Ordering::*};
use std::sync::Arc;

use atoll_error::{Error, Result};
use serde::{Deserialize, Serialize};

use crate::config::{parse_bytes, split_percent, trim, ParseFail, ENV_MAX};
use crate::stats::check_locale;

/// A per-locale memory limit, as `ATOLL_MEM_MAX` gives it.
///
/// ```
/// use atoll_mem::MemoryLimit;
/// assert_eq!(MemoryLimit::parse("12345").unwrap(), MemoryLimit::Bytes(12345));
/// assert_eq!(MemoryLimit::parse("8G").unwrap(), MemoryLimit::Bytes(8 << 30));
/// assert_eq!(MemoryLimit::parse("90%").unwrap(), MemoryLimit::PercentOfPhysical(90.0));
/// assert_eq!(MemoryLimit::PercentOfPhysical(50.0).resolve(1 << 30), 1 << 29);
/// assert!(MemoryLimit::parse("150%").is_err());
/// assert!(MemoryLimit::parse("lots").is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum MemoryLimit {
    /// A fixed number of bytes per locale.
    Bytes(u64),
    /// A percentage (greater than 0, at most 100) of the node's physical memory, shared evenly
    /// by the locales of that node (see [`MemoryLimit::bytes_per_locale`]).
    PercentOfPhysical(f64),
}

impl Default for MemoryLimit {
    /// 90% of physical memory.
    fn default() -> Self {
        MemoryLimit::PercentOfPhysical(90.0)
    }
}

impl MemoryLimit {
    /// Parses a byte count (`12345`, `512MiB`, `8G`; suffixes `K/M/G/T`, with or without
    /// `B`/`iB`, all binary) or a percentage of physical memory (`90%`, `12.5%`).
    ///
    /// # Errors
    ///
    /// [`Error::Config`] (key `ATOLL_MEM_MAX`) for anything else, a zero limit, or a
    /// percentage outside (0, 100].
    pub fn parse(value: &str) -> Result<MemoryLimit> {
        parse_limit(value.as_bytes()).map_err(|fail| fail.into_error(ENV_MAX, value))
    }

    /// Reads `ATOLL_MEM_MAX`; unset or blank means the default, 90%.
    ///
    /// # Errors
    ///
    /// As [`MemoryLimit::parse`], and for a value that is not Unicode.
    pub fn from_env() -> Result<MemoryLimit> {
        match std::env::var_os(ENV_MAX) {
            None => Ok(MemoryLimit::default()),
            Some(v) => match v.to_str() {
                Some(s) if s.trim().is_empty() => Ok(MemoryLimit::default()),
                Some(s) => MemoryLimit::parse(s),
                None => Err(ParseFail::Limit.into_error(ENV_MAX, &v.to_string_lossy())),
            },
        }
    }

    /// The limit in bytes given the node's physical memory.
    pub fn resolve(&self, physical: u64) -> u64 {
        match *self {
            MemoryLimit::Bytes(b) => b,
            MemoryLimit::PercentOfPhysical(p) => ((physical as f64) * p / 100.0).floor() as u64,
        }
    }

    /// The limit in bytes on the host this process runs on.
    ///
    /// # Errors
    ///
    /// [`Error::Io`] when a percentage is given and physical memory cannot be determined.
    pub fn bytes(&self) -> Result<u64> {
        match self {
            MemoryLimit::Bytes(b) => Ok(*b),
            MemoryLimit::PercentOfPhysical(_) => Ok(self.resolve(physical_memory()?)),
        }
    }

    /// Each locale's limit when `locales_on_node` locales share the host: a byte count
    /// applies to each locale as given; a percentage of physical memory is split evenly.
    ///
    /// # Errors
    ///
    /// [`Error::ZeroLocales`] for zero locales, and as [`MemoryLimit::bytes`].
    pub fn bytes_per_locale(&self, locales_on_node: usize) -> Result<u64> {
        if locales_on_node == 0 {
            return Err(Error::ZeroLocales);
        }
        match self {
            MemoryLimit::Bytes(b) => Ok(*b),
            MemoryLimit::PercentOfPhysical(_) => Ok(self.bytes()? / locales_on_node as u64),
        }
    }
}

fn parse_limit(b: &[u8]) -> std::result::Result<MemoryLimit, ParseFail> {
    let b = trim(b);
    if let Some(number) = b.strip_suffix(b"%") {
        let p = split_percent(trim(number)).ok_or(ParseFail::Limit)?;
        if !(p > 0.0 && p <= 100.0) {
            return Err(ParseFail::Percent);
        }
        return Ok(MemoryLimit::PercentOfPhysical(p));
    }
    match parse_bytes(b) {
        Ok(0) => Err(ParseFail::ZeroLimit),
        Ok(n) => Ok(MemoryLimit::Bytes(n)),
        Err(ParseFail::Overflow) => Err(ParseFail::Overflow),
        Err(_) => Err(ParseFail::Limit),
    }
}

/// The machine's physical memory in bytes (`sysconf`, else `/proc/meminfo`).
///
/// # Errors
///
/// [`Error::Io`] when neither source is available.
pub fn physical_memory() -> Result<u64> {
    if let Some(b) = crate::raw::physical_memory_sysconf() {
        return Ok(b);
    }
    let text = std::fs::read_to_string("/proc/meminfo")
        .map_err(|e| Error::Io(format!("cannot determine physical memory: sysconf failed and /proc/meminfo: {e}")))?;
    meminfo_total(&text)
        .ok_or_else(|| Error::Io("cannot determine physical memory: no MemTotal in /proc/meminfo".into()))
}

/// `MemTotal` from the text of `/proc/meminfo`, in bytes.
fn meminfo_total(text: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let mut parts = line["MemTotal:".len()..].split_whitespace();
    let value: u64 = parts.next()?.parse().ok()?;
    let mult = match parts.next() {
        None | Some("B") => 1,
        Some("kB") | Some("KB") | Some("KiB") => 1024,
        Some("mB") | Some("MB") | Some("MiB") => 1 << 20,
        Some(_) => return None,
    };
    value.checked_mul(mult)
}

/// Whether `requested` more bytes fit next to `in_use` under `limit`
/// (`in_use + requested <= limit`, without overflow). A request of 0 bytes always fits.
///
/// ```
/// assert!(atoll_mem::check(10, 90, 100));
/// assert!(!atoll_mem::check(11, 90, 100));
/// assert!(atoll_mem::check(0, 200, 100));
/// assert!(!atoll_mem::check(u64::MAX, 1, u64::MAX));
/// ```
pub fn check(requested: u64, in_use: u64, limit: u64) -> bool {
    requested == 0 || in_use.checked_add(requested).is_some_and(|total| total <= limit)
}

#[derive(Debug)]
struct Inner {
    locale: usize,
    limit: u64,
    reserved: AtomicU64,
    committed: AtomicU64,
}

/// One locale's memory budget: refuses operations that would take the locale over its limit,
/// before they allocate.
///
/// Cloning gives another handle to the same budget. See the [module notes](self) for how
/// `in_use` is computed.
///
/// ```
/// use atoll_error::Error;
/// use atoll_mem::Budget;
///
/// let budget = Budget::new(2, 1000).unwrap();
/// let r = budget.try_reserve(600, "zeros").unwrap();
/// assert_eq!(budget.reserved(), 600);
/// let err = budget.try_reserve(500, "ones").unwrap_err();
/// assert_eq!(
///     err,
///     Error::OutOfMemory { operation: "ones".into(), locale: 2, requested: 500, in_use: 600, limit: 1000 }
/// );
/// assert_eq!(budget.reserved(), 600); // the failed request reserved nothing
/// let buffer = vec![0u8; 600];        // the operation allocates...
/// let held = r.commit();              // ...and converts its reservation
/// assert_eq!(budget.reserved(), 0);
/// assert_eq!(budget.committed(), 600);
/// drop((buffer, held));
/// assert_eq!(budget.in_use(), 0);
/// ```
#[derive(Debug, Clone)]
pub struct Budget {
    inner: Arc<Inner>,
}

impl Budget {
    /// A budget of `limit` bytes for `locale`.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidLocale`] for `locale >= MAX_LOCALES`.
    pub fn new(locale: usize, limit: u64) -> Result<Budget> {
        check_locale(locale)?;
        Ok(Budget {
            inner: Arc::new(Inner { locale, limit, reserved: AtomicU64::new(0), committed: AtomicU64::new(0) }),
        })
    }

    /// A budget for `locale` from a [`MemoryLimit`], `locales_on_node` locales sharing the
    /// machine.
    ///
    /// # Errors
    ///
    /// As [`Budget::new`] and [`MemoryLimit::bytes_per_locale`].
    pub fn from_limit(locale: usize, limit: &MemoryLimit, locales_on_node: usize) -> Result<Budget> {
        Budget::new(locale, limit.bytes_per_locale(locales_on_node)?)
    }

    /// A budget for `locale` from `ATOLL_MEM_MAX` (default 90% of physical memory).
    ///
    /// # Errors
    ///
    /// As [`MemoryLimit::from_env`] and [`Budget::from_limit`].
    pub fn from_env(locale: usize, locales_on_node: usize) -> Result<Budget> {
        Budget::from_limit(locale, &MemoryLimit::from_env()?, locales_on_node)
    }

    /// The locale this budget belongs to.
    pub fn locale(&self) -> usize {
        self.inner.locale
    }

    /// The limit in bytes.
    pub fn limit(&self) -> u64 {
        self.inner.limit
    }

    /// Bytes held by live reservations.
    pub fn reserved(&self) -> u64 {
        self.inner.reserved.load(Acquire)
    }

    /// Bytes held by live commitments.
    pub fn committed(&self) -> u64 {
        self.inner.committed.load(Acquire)
    }

    /// The locale's tracked use: [`memory_used_by`](crate::memory_used_by) when tracking is
    /// active ([`tracking_active`](crate::tracking_active)), else 0.
    pub fn tracked(&self) -> u64 {
        if crate::tracking_active() {
            crate::memory_used_by(self.inner.locale).unwrap_or(0)
        } else {
            0
        }
    }

    /// `max(tracked, committed) + reserved`.
    pub fn in_use(&self) -> u64 {
        self.in_use_with(self.tracked(), self.reserved())
    }

    fn in_use_with(&self, tracked: u64, reserved: u64) -> u64 {
        tracked.max(self.committed()).saturating_add(reserved)
    }

    /// Bytes that can still be reserved now.
    pub fn available(&self) -> u64 {
        self.inner.limit.saturating_sub(self.in_use())
    }

    /// Reserves `bytes` for `operation` if they fit under the limit.
    ///
    /// # Errors
    ///
    /// [`Error::OutOfMemory`] naming `operation`, the locale, `bytes`, the bytes in use
    /// (`max(tracked, committed) + reserved`) and the limit; nothing is reserved then.
    pub fn try_reserve(&self, bytes: u64, operation: &str) -> Result<Reservation> {
        let inner = &self.inner;
        let tracked = self.tracked();
        let mut reserved = inner.reserved.load(Acquire);
        loop {
            let in_use = self.in_use_with(tracked, reserved);
            if !check(bytes, in_use, inner.limit) {
                return Err(Error::OutOfMemory {
                    operation: operation.to_string(),
                    locale: inner.locale,
                    requested: bytes,
                    in_use,
                    limit: inner.limit,
                });
            }
            match inner.reserved.compare_exchange_weak(reserved, reserved + bytes, AcqRel, Acquire) {
                Ok(_) => return Ok(Reservation { budget: self.clone(), bytes }),
                Err(now) => reserved = now,
            }
        }
    }
}

/// Bytes reserved in a [`Budget`] for an operation that is about to allocate. Dropping it
/// releases what is left; [`commit`](Reservation::commit) converts it once the memory exists.
#[must_use = "a reservation is released when dropped"]
#[derive(Debug)]
pub struct Reservation {
    budget: Budget,
    bytes: u64,
}

impl Reservation {
    /// The bytes still reserved.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// The budget it belongs to.
    pub fn budget(&self) -> &Budget {
        &self.budget
    }

    /// Gives back `bytes` of the reservation (at most what is left), when the operation turns
    /// out to need less. Returns the bytes given back.
    pub fn shrink(&mut self, bytes: u64) -> u64 {
        let n = bytes.min(self.bytes);
        self.budget.inner.reserved.fetch_sub(n, AcqRel);
        self.bytes -= n;
        n
    }

    /// Converts `bytes` of the reservation into a [`Commitment`], once they are allocated.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] if fewer than `bytes` are reserved; nothing changes then.
    pub fn commit_part(&mut self, bytes: u64) -> Result<Commitment> {
        if bytes > self.bytes {
            return Err(Error::InvalidArgument(format!(
                "cannot commit {bytes} bytes of a reservation that holds {} on locale {}",
                self.bytes, self.budget.inner.locale
            )));
        }
        let inner = &self.budget.inner;
        // Committed first, so that in_use never dips below the truth in between.
        inner.committed.fetch_add(bytes, AcqRel);
        inner.reserved.fetch_sub(bytes, AcqRel);
        self.bytes -= bytes;
        Ok(Commitment { budget: self.budget.clone(), bytes })
    }

    /// Converts the whole reservation into a [`Commitment`], once its memory is allocated.
    pub fn commit(mut self) -> Commitment {
        let bytes = self.bytes;
        match self.commit_part(bytes) {
            Ok(c) => c,
            // `bytes` is exactly what is reserved, so `commit_part` cannot refuse.
            Err(_) => Commitment { budget: self.budget.clone(), bytes: 0 },
        }
    }
}

impl Drop for Reservation {
    fn drop(&mut self) {
        if self.bytes != 0 {
            self.budget.inner.reserved.fetch_sub(self.bytes, AcqRel);
        }
    }
}

/// Memory allocated under a [`Reservation`] and still alive; counted by its budget until
/// dropped (keep it next to the memory, e.g. in the array that owns it).
#[must_use = "a commitment stops counting when dropped"]
#[derive(Debug)]
pub struct Commitment {
    budget: Budget,
    bytes: u64,
}

impl Commitment {
    /// The bytes it holds.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// Gives back `bytes` (at most what it holds), when part of the memory is freed. Returns
    /// the bytes given back.
    pub fn shrink(&mut self, bytes: u64) -> u64 {
        let n = bytes.min(self.bytes);
        self.budget.inner.committed.fetch_sub(n, AcqRel);
        self.bytes -= n;
        n
    }
}

impl Drop for Commitment {
    fn drop(&mut self) {
        if self.bytes != 0 {
            self.budget.inner.committed.fetch_sub(self.bytes, AcqRel);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_parse() {
        assert_eq!(MemoryLimit::parse("1K").unwrap(), MemoryLimit::Bytes(1024));
        assert_eq!(MemoryLimit::parse("64 MiB").unwrap(), MemoryLimit::Bytes(64 << 20));
        assert_eq!(MemoryLimit::parse(" 12.5 % ").unwrap(), MemoryLimit::PercentOfPhysical(12.5));
        assert_eq!(MemoryLimit::parse("100%").unwrap(), MemoryLimit::PercentOfPhysical(100.0));
        for bad in ["", "%", "0", "0%", "101%", "-5%", "abc", "1.2.3%", "5 parsecs", "99999999999999999999"] {
            let e = MemoryLimit::parse(bad).unwrap_err();
            assert!(
                matches!(&e, Error::Config { key, value, .. } if key == "ATOLL_MEM_MAX" && value == bad),
                "{bad}: {e}"
            );
        }
    }

    #[test]
    fn limits_resolve() {
        assert_eq!(MemoryLimit::Bytes(7).resolve(1 << 40), 7);
        assert_eq!(MemoryLimit::PercentOfPhysical(90.0).resolve(1000), 900);
        assert_eq!(MemoryLimit::default(), MemoryLimit::PercentOfPhysical(90.0));
        assert_eq!(MemoryLimit::Bytes(10).bytes_per_locale(4).unwrap(), 10);
        assert_eq!(MemoryLimit::Bytes(10).bytes_per_locale(0), Err(Error::ZeroLocales));
        let phys = physical_memory().unwrap();
        assert!(phys > 1 << 20);
        let all = MemoryLimit::PercentOfPhysical(100.0).bytes().unwrap();
        assert_eq!(all, phys);
        assert_eq!(MemoryLimit::PercentOfPhysical(100.0).bytes_per_locale(4).unwrap(), phys / 4);
    }

    #[test]
    fn meminfo() {
        assert_eq!(meminfo_total("MemTotal:       16384 kB\nMemFree: 1 kB\n"), Some(16384 * 1024));
        assert_eq!(meminfo_total("MemFree: 1 kB\n"), None);
        assert_eq!(meminfo_total("MemTotal: lots kB\n"), None);
    }

    #[test]
    fn checks() {
        assert!(check(0, 0, 0));
        assert!(check(100, 0, 100));
        assert!(!check(101, 0, 100));
        assert!(!check(1, u64::MAX, u64::MAX));
    }

    #[test]
    fn reservations_account_and_release() {
        // The allocator is not installed in unit tests: in_use = max(0, committed) + reserved.
        let b = Budget::new(3, 1000).unwrap();
        assert!(Budget::new(64, 1).is_err());
        let mut r1 = b.try_reserve(400, "a").unwrap();
        let r2 = b.try_reserve(600, "b").unwrap();
        assert_eq!((b.reserved(), b.in_use(), b.available()), (1000, 1000, 0));
        let e = b.try_reserve(1, "c").unwrap_err();
        assert_eq!(e, Error::OutOfMemory { operation: "c".into(), locale: 3, requested: 1, in_use: 1000, limit: 1000 });
        assert_eq!(b.reserved(), 1000);
        assert_eq!(r1.shrink(150), 150);
        assert_eq!(r1.bytes(), 250);
        assert_eq!(r1.shrink(1000), 250);
        assert_eq!(b.reserved(), 600);
        let c = r2.commit();
        assert_eq!((b.reserved(), b.committed(), b.in_use()), (0, 600, 600));
        assert!(r1.commit_part(1).is_err());
        drop(r1);
        let mut r3 = b.try_reserve(400, "d").unwrap();
        let part = r3.commit_part(100).unwrap();
        assert_eq!((b.reserved(), b.committed()), (300, 700));
        drop(r3);
        assert_eq!((b.reserved(), b.committed()), (0, 700));
        drop(c);
        drop(part);
        assert_eq!(b.in_use(), 0);
    }

    #[test]
    fn concurrent_reservations_never_exceed_the_limit() {
        let b = Budget::new(4, 10_000).unwrap();
        let granted = std::sync::Arc::new(AtomicU64::new(0));
        let done = std::sync::Arc::new(std::sync::Barrier::new(4));
        std::thread::scope(|s| {
            for _ in 0..4 {
                let (b, granted, done) = (b.clone(), granted.clone(), done.clone());
                s.spawn(move || {
                    let mut held = Vec::new();
                    for _ in 0..1000 {
                        if let Ok(r) = b.try_reserve(7, "race") {
                            granted.fetch_add(7, Relaxed);
                            held.push(r);
                        }
                        assert!(b.reserved() <= 10_000);
                    }
                    // Hold every reservation until all threads are done asking.
                    done.wait();
                    drop(held);
                });
            }
        });
        // Exactly as many 7-byte reservations fit as the limit allows; all are released now.
        assert_eq!(b.reserved(), 0);
        assert_eq!(granted.load(Relaxed), 10_000 / 7 * 7);
    }
}
