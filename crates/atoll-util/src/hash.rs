//! The splitmix64 mix: counter-based pseudo-random words.

/// The increment of splitmix64's state (`2^64` divided by the golden ratio, odd): the
/// sequence `mix(s), mix(s + GOLDEN_GAMMA), mix(s + 2 * GOLDEN_GAMMA), ...` is splitmix64's
/// output from state `s`.
pub const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// splitmix64's output for state `z`: `z + GOLDEN_GAMMA` through its finalizer (a bijection of
/// `u64` whose output bits each depend on every input bit). Computable from an index alone, so
/// element `i` of a random array is `mix(seed ^ i)` or `mix(seed + i * GOLDEN_GAMMA)` on every
/// locale, in every locale count, and in a test's sequential reference.
///
/// ```
/// use atoll_util::{mix, GOLDEN_GAMMA};
/// // splitmix64 from state 0: its well-known first outputs.
/// assert_eq!(mix(0), 0xE220_A839_7B1D_CDAF);
/// assert_eq!(mix(GOLDEN_GAMMA), 0x6E78_9E6A_A1B9_65F4);
/// ```
#[inline]
pub const fn mix(z: u64) -> u64 {
    let mut z = z.wrapping_add(GOLDEN_GAMMA);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// splitmix64 as its reference writes it: a state advanced by the gamma, then finalized.
    fn reference(state: &mut u64) -> u64 {
        *state = state.wrapping_add(GOLDEN_GAMMA);
        let mut z = *state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    #[test]
    fn mix_is_splitmix64() {
        let mut s = 1234567;
        for k in 0..1000u64 {
            assert_eq!(mix(1234567u64.wrapping_add(k.wrapping_mul(GOLDEN_GAMMA))), reference(&mut s));
        }
    }
}
