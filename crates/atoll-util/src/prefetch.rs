//! Software prefetch: a hint that never faults, whatever the address (NumPy's pairwise sum
//! prefetches its sequential reads the same way; the aggregation handlers prefetch the
//! targets of their random accesses).

/// Asks for the cache line holding `p` to be brought into the caches for reading. `p` may point
/// anywhere, even past the end of an allocation: it is never dereferenced.
#[inline(always)]
pub fn read<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `prefetcht0` is a hint: it does not fault on any address and changes no
    // architectural state; SSE is part of the x86_64 baseline.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p.cast::<i8>())
    };
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// Asks for the cache line holding `p` to be brought into the caches for a coming write:
/// `prefetchw` where the build targets it (`-C target-feature=+prfchw`), else the read hint of
/// [`read`] (which the baseline x86_64 build emits). `p` may point anywhere: it is never
/// dereferenced.
#[inline(always)]
pub fn write<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: as `read`: a hint (`prefetchw` or `prefetcht0`) that does not fault on any
    // address and changes no architectural state.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_ET0 }>(p.cast::<i8>())
    };
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}
