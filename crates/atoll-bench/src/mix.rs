//! The pseudo-random numbers of the benchmarks and the demo: splitmix64's finalizer, so every
//! value is computable from its index alone (the same on every locale and in the references).

/// splitmix64's finalizer: a good 64-bit mix of `z`.
#[inline]
pub fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
