//! NPB's pseudo-random generator (`randlc`/`vranlc`): the linear congruential sequence
//! `x_{k+1} = a x_k mod 2^46` with `a = 5^13`, each value returned as `x_k 2^-46`. NPB computes
//! it in double precision by splitting the operands in 23-bit halves, which is exact; the same
//! sequence in 128-bit integers is the same to the bit.
//!
//! FT's initial field is the sequence in the grid's Fortran order (x fastest, then y, then z):
//! the complex element at linear position `L` (`x + nx (y + ny z)`) is `(r_{2L+1}, r_{2L+2})`,
//! where `r_k = (seed a^k mod 2^46) 2^-46` and `seed = 314159265`. Any part of the grid can be
//! filled independently by jumping ahead with [`pow46`].

use num_complex::Complex64;

/// The multiplier `5^13`.
pub const A: u64 = 1_220_703_125;
/// FT's seed.
pub const SEED: u64 = 314_159_265;
const MASK: u64 = (1 << 46) - 1;
const R46: f64 = 1.0 / (1u64 << 46) as f64;

/// `a x mod 2^46`.
#[inline]
fn mul46(a: u64, x: u64) -> u64 {
    ((u128::from(a) * u128::from(x)) as u64) & MASK
}

/// `a^n mod 2^46`.
pub fn pow46(a: u64, mut n: u64) -> u64 {
    let (mut r, mut q) = (1u64, a & MASK);
    while n > 0 {
        if n & 1 == 1 {
            r = mul46(r, q);
        }
        q = mul46(q, q);
        n >>= 1;
    }
    r
}

/// Fills `out` with the initial field's elements from linear position `first` on.
pub fn fill(out: &mut [Complex64], first: u64) {
    let mut x = mul46(SEED, pow46(A, 2 * first));
    for c in out {
        x = mul46(A, x);
        let re = x as f64 * R46;
        x = mul46(A, x);
        *c = Complex64::new(re, x as f64 * R46);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// NPB's `randlc` as it computes it, in doubles (the reference for the integer version).
    fn randlc(x: &mut f64, a: f64) -> f64 {
        let (r23, t23) = (0.5f64.powi(23), 2f64.powi(23));
        let (r46, t46) = (r23 * r23, t23 * t23);
        let a1 = (r23 * a).trunc();
        let a2 = a - t23 * a1;
        let x1 = (r23 * *x).trunc();
        let x2 = *x - t23 * x1;
        let t1 = a1 * x2 + a2 * x1;
        let t2 = (r23 * t1).trunc();
        let z = t1 - t23 * t2;
        let t3 = t23 * z + a2 * x2;
        let t4 = (r46 * t3).trunc();
        *x = t3 - t46 * t4;
        r46 * *x
    }

    #[test]
    fn the_integer_sequence_is_npbs_double_one() {
        let mut x = SEED as f64;
        let mut want = Vec::new();
        for _ in 0..2000 {
            want.push(randlc(&mut x, A as f64));
        }
        let mut got = vec![Complex64::new(0.0, 0.0); 1000];
        fill(&mut got, 0);
        for (k, c) in got.iter().enumerate() {
            assert_eq!((c.re, c.im), (want[2 * k], want[2 * k + 1]), "element {k}");
        }
        // A jump lands where stepping does.
        let mut tail = vec![Complex64::new(0.0, 0.0); 10];
        fill(&mut tail, 990);
        assert_eq!(&tail[..], &got[990..]);
    }

    #[test]
    fn pow46_is_repeated_multiplication() {
        let mut x = 1u64;
        for n in 0..100u64 {
            assert_eq!(pow46(A, n), x);
            x = mul46(A, x);
        }
    }
}
