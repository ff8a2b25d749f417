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

/// Murmur3's 64-bit finalizer (another bijection of `u64` with full avalanche, independent
/// of [`mix`]'s constants): derives a stream's step from its key.
#[inline]
const fn fmix64(z: u64) -> u64 {
    let mut z = z;
    z = (z ^ (z >> 33)).wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    z = (z ^ (z >> 33)).wrapping_mul(0xC4CE_B9FE_1A85_EC53);
    z ^ (z >> 33)
}

/// splitmix64's finalizer alone (`mix(z)` is `finalize(z + GOLDEN_GAMMA)`).
#[inline]
const fn finalize(z: u64) -> u64 {
    mix(z.wrapping_sub(GOLDEN_GAMMA))
}

/// The random stream of element `index` of a draw seeded with `seed`: the one derivation
/// every seeded generator uses, so that a seed gives the same values on any number of
/// locales (an element's words depend on `(seed, index)` alone) and the elements' streams
/// are independent.
///
/// * The key is `mix(mix(seed) + index * GOLDEN_GAMMA)`: distinct indices of one seed give
///   distinct keys (`mix` is a bijection), and hashing the seed first scatters related seeds
///   (`s`, `s + 1`, `s + GOLDEN_GAMMA`) to unrelated places.
/// * The step is a second hash of the key (odd, with many bit changes, as Java's
///   `SplittableRandom` chooses its gammas), so two elements walk different sequences: one
///   element's later words are never another's first ones, as they would be if every stream
///   stepped by the same constant from nearby states.
/// * Word `j` (from 0) is splitmix64's finalizer of `key + (j + 1) * step`.
///
/// ```
/// use atoll_util::Stream;
/// let mut a = Stream::new(42, 7);
/// let mut b = Stream::new(42, 7);
/// assert_eq!(a.next_u64(), b.next_u64());
/// assert!(Stream::new(42, 8).below(10) < 10);
/// let u = Stream::new(0, 0).unit();
/// assert!((0.0..1.0).contains(&u));
/// ```
#[derive(Debug, Clone)]
pub struct Stream {
    state: u64,
    step: u64,
}

impl Stream {
    /// The stream of element `index` of the draw seeded with `seed`.
    #[inline]
    pub const fn new(seed: u64, index: u64) -> Stream {
        let key = mix(mix(seed).wrapping_add(index.wrapping_mul(GOLDEN_GAMMA)));
        let mut step = fmix64(key ^ 0x6A09_E667_F3BC_C909) | 1;
        // Few 01/10 transitions make a weak step (SplittableRandom's test and fix).
        if (step ^ (step >> 1)).count_ones() < 24 {
            step ^= 0xAAAA_AAAA_AAAA_AAAA;
        }
        Stream { state: key, step }
    }

    /// The next 64-bit word.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(self.step);
        finalize(self.state)
    }

    /// Uniform in `0..k` by multiply-shift (`k > 0`; `k == 0` gives 0).
    #[inline]
    pub fn below(&mut self, k: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(k)) >> 64) as u64
    }

    /// Uniform in `[0, 1)`: a multiple of `2^-53`.
    #[inline]
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// A standard normal draw (Box-Muller on two words).
    #[inline]
    pub fn normal(&mut self) -> f64 {
        let u1 = 1.0 - self.unit(); // in (0, 1]: its logarithm is finite
        let u2 = self.unit();
        (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
    }
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

    #[test]
    fn finalize_is_mix_without_the_step() {
        let mut s = 99;
        for _ in 0..100 {
            let want = reference(&mut s);
            assert_eq!(finalize(s), want);
        }
    }

    /// Neighbouring elements' streams share no words: element `i`'s words `1..` are never
    /// element `i + 1`'s first ones (what a common step from nearby states gives).
    #[test]
    fn neighbouring_streams_do_not_overlap() {
        for seed in [0u64, 1, 2, 42, u64::MAX] {
            let words = |i: u64| {
                let mut g = Stream::new(seed, i);
                (0..16).map(|_| g.next_u64()).collect::<Vec<_>>()
            };
            let mut all = std::collections::HashSet::new();
            for i in 0..2000 {
                for w in words(i) {
                    assert!(all.insert(w), "seed {seed}: a word repeats across streams");
                }
            }
        }
    }

    /// Related seeds give unrelated streams (the seed is hashed before the index is added).
    #[test]
    fn related_seeds_do_not_shift_streams() {
        for s in [0u64, 5, 1 << 40] {
            for other in [s.wrapping_add(1), s.wrapping_add(GOLDEN_GAMMA), s ^ 1] {
                let a: Vec<u64> = (0..64).map(|i| Stream::new(s, i).next_u64()).collect();
                let b: Vec<u64> = (0..64).map(|i| Stream::new(other, i).next_u64()).collect();
                assert!(a.iter().all(|w| !b.contains(w)));
            }
        }
    }

    #[test]
    fn below_and_unit_stay_in_range_and_spread() {
        let mut counts = [0u32; 10];
        for i in 0..10_000 {
            let mut g = Stream::new(3, i);
            let k = g.below(10);
            counts[k as usize] += 1;
            let u = g.unit();
            assert!((0.0..1.0).contains(&u));
            assert!(g.normal().is_finite());
        }
        // Each digit near 1000 (a loose bound: 6 standard deviations).
        assert!(counts.iter().all(|&c| (820..1180).contains(&c)), "{counts:?}");
    }
}
