//! Software prefetch for the reductions' sequential reads (NumPy's pairwise sum prefetches
//! 512 bytes ahead the same way): a hint that never faults, whatever the address.

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
