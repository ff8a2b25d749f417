//! Hashing strings: two `u64` per string (128 bits), as Arkouda's `Strings.hash()`.

use crate::strings::DistStrings;
use atoll_array::DistArray;
use atoll_error::Result;

const K1: u64 = 0x9E37_79B9_7F4A_7C15;
const K2: u64 = 0xC2B2_AE3D_27D4_EB4F;

#[inline(always)]
fn fmix(mut z: u64) -> u64 {
    z = (z ^ (z >> 33)).wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    z = (z ^ (z >> 33)).wrapping_mul(0xC4CE_B9FE_1A85_EC53);
    z ^ (z >> 33)
}

#[inline(always)]
fn mum(a: u64, b: u64) -> u64 {
    let r = a as u128 * b as u128;
    (r as u64) ^ ((r >> 64) as u64)
}

/// The 128-bit hash of `s` as two words: a multiply-mix over its 8-byte words with two
/// independent lanes, the length folded in (so `"a"` and `"a\0"` differ), each lane finished
/// with MurmurHash3's `fmix64`. Not cryptographic; stable across runs, locales and machines
/// (little-endian reads of the bytes).
#[inline]
pub fn hash128(s: &[u8]) -> (u64, u64) {
    let (mut a, mut b) = (K1 ^ s.len() as u64, K2.wrapping_add(s.len() as u64));
    let mut chunks = s.chunks_exact(8);
    for c in &mut chunks {
        let w = u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]);
        a = mum(a ^ w, K2).rotate_left(23);
        b = mum(b ^ w.rotate_left(32), K1).wrapping_add(a);
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let mut t = [0u8; 8];
        t[..rest.len()].copy_from_slice(rest);
        let w = u64::from_le_bytes(t);
        a = mum(a ^ w, K2).rotate_left(23);
        b = mum(b ^ w.rotate_left(32), K1).wrapping_add(a);
    }
    (fmix(a ^ (b >> 7)), fmix(b ^ a.rotate_left(17)))
}

impl DistStrings {
    /// Two `u64` hashes per string ([`hash128`]), aligned with the strings: equal strings
    /// have equal hashes. **Collective** (no communication besides the arrays' allocation).
    pub fn hash(&self) -> Result<(DistArray<u64, 1>, DistArray<u64, 1>)> {
        let l = self.local();
        let ctx = self.ctx();
        let mut h1 = DistArray::<u64, 1>::zeros_lazy(ctx, self.dist().clone())?;
        let mut h2 = DistArray::<u64, 1>::zeros_lazy(ctx, self.dist().clone())?;
        // Both arrays written in one pass over the strings.
        let mut pairs: Vec<(&mut u64, &mut u64)> = h1.local_mut().iter_mut().zip(h2.local_mut().iter_mut()).collect();
        crate::par::fill_with(ctx, &mut pairs, |i, (a, b)| (**a, **b) = hash128(l.get(i)));
        drop(pairs);
        ctx.barrier()?;
        Ok((h1, h2))
    }
}
