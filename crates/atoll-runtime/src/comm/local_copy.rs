//! Accesses a locale makes to its own registered memory through global addresses: checked
//! against its region table, then plain copies (no communication, not counted).

use super::memcopy;
use super::Strided;
use crate::memory::registration::RegionTable;
use atoll_error::{Error, Result};

fn check(t: &RegionTable, locale: usize, addr: u64, len: usize) -> Result<()> {
    t.find(addr, len).map(|_| ()).ok_or(Error::NotRegistered { locale, addr, len })
}

/// Copies from own registered memory at `addr` into `dst`.
pub(crate) fn read(t: &RegionTable, locale: usize, addr: u64, dst: &mut [u8]) -> Result<()> {
    check(t, locale, addr, dst.len())?;
    // SAFETY: checked just above: the range lies in memory registered on this locale.
    unsafe { memcopy::read(addr, dst) };
    Ok(())
}

/// Copies `src` to own registered memory at `addr`.
pub(crate) fn write(t: &RegionTable, locale: usize, addr: u64, src: &[u8]) -> Result<()> {
    check(t, locale, addr, src.len())?;
    // SAFETY: checked just above.
    unsafe { memcopy::write(addr, src) };
    Ok(())
}

/// Strided read from own registered memory (`dst` sized to the shape by the caller's check).
pub(crate) fn read_strided(t: &RegionTable, locale: usize, addr: u64, shape: &Strided, dst: &mut [u8]) -> Result<()> {
    check(t, locale, addr, shape.extent_bytes())?;
    if dst.len() != shape.total_bytes() {
        return Err(atoll_error::invalid_arg!("strided buffer size mismatch"));
    }
    // SAFETY: the extent was checked as registered and `dst` has the shape's size.
    unsafe { memcopy::read_strided(addr, shape, dst) };
    Ok(())
}

/// Strided write to own registered memory.
pub(crate) fn write_strided(t: &RegionTable, locale: usize, addr: u64, shape: &Strided, src: &[u8]) -> Result<()> {
    check(t, locale, addr, shape.extent_bytes())?;
    if src.len() != shape.total_bytes() {
        return Err(atoll_error::invalid_arg!("strided buffer size mismatch"));
    }
    // SAFETY: as in `read_strided`.
    unsafe { memcopy::write_strided(addr, shape, src) };
    Ok(())
}

fn check_word(t: &RegionTable, locale: usize, addr: u64) -> Result<()> {
    if addr % 8 != 0 {
        return Err(Error::Misaligned { locale, addr });
    }
    check(t, locale, addr, 8)
}

/// Atomic fetch-add on an own registered word.
pub(crate) fn fetch_add(t: &RegionTable, locale: usize, addr: u64, v: u64) -> Result<u64> {
    check_word(t, locale, addr)?;
    // SAFETY: aligned and registered, checked just above.
    Ok(unsafe { memcopy::atomic(addr) }.fetch_add(v, memcopy::ATOMIC_ORDER))
}

/// Atomic compare-exchange on an own registered word; returns the previous value.
pub(crate) fn compare_exchange(t: &RegionTable, locale: usize, addr: u64, current: u64, new: u64) -> Result<u64> {
    check_word(t, locale, addr)?;
    // SAFETY: aligned and registered, checked just above.
    let a = unsafe { memcopy::atomic(addr) };
    Ok(match a.compare_exchange(current, new, memcopy::ATOMIC_ORDER, memcopy::ATOMIC_ORDER) {
        Ok(v) | Err(v) => v,
    })
}
