//! Integer helpers shared by the index maps: gcd, modular inverse, ceiling division, and
//! arithmetic progressions with exact intersection (the CRT step of strided-range algebra).
//!
//! Everything works in 128-bit arithmetic so that no intermediate value of the 64-bit index
//! math can overflow: indices are `i64`, positions are below `2^64`, strides of progressions with
//! two or more elements are below `2^64` (they span part of a 64-bit range), so products of two
//! of them fit in `u128`.

/// Greatest common divisor (`gcd(0, b) = b`).
pub(crate) fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// `a % m` (`m > 0`), in 64-bit arithmetic when both fit (a 128-bit remainder is a library
/// call several times slower).
#[inline]
pub(crate) fn rem(a: u128, m: u128) -> u128 {
    if (a | m) >> 64 == 0 {
        ((a as u64) % (m as u64)) as u128
    } else {
        a % m
    }
}

/// `ceil(a / b)` for `b > 0`.
pub(crate) fn div_ceil(a: u128, b: u128) -> u128 {
    debug_assert!(b > 0);
    a / b + u128::from(a % b != 0)
}

/// The inverse of `a` modulo `m`, in `0..m`, for `gcd(a, m) == 1` and `1 <= m < 2^126`
/// (`0` when `m == 1`).
pub(crate) fn mod_inverse(a: u128, m: u128) -> u128 {
    debug_assert!((1..(1 << 126)).contains(&m));
    if m == 1 {
        return 0;
    }
    // Extended Euclid; the Bezout coefficients stay within (-m, m), so i128 is enough.
    let m_i = m as i128;
    let (mut old_r, mut r) = ((a % m) as i128, m_i);
    let (mut old_s, mut s) = (1i128, 0i128);
    while r != 0 {
        let q = old_r / r;
        (old_r, r) = (r, old_r - q * r);
        (old_s, s) = (s, old_s - q * s);
    }
    debug_assert_eq!(old_r, 1, "mod_inverse needs coprime arguments");
    old_s.rem_euclid(m_i) as u128
}

/// A finite arithmetic progression `first, first + stride, ..., first + (len - 1) * stride`.
///
/// The stride of a progression with fewer than two elements carries no information; every
/// operation treats it as 1, so such strides may be arbitrarily large.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Ap {
    pub first: i128,
    pub stride: u128,
    pub len: u128,
}

impl Ap {
    /// The progression with the given parts (`stride >= 1`).
    pub(crate) fn new(first: i128, stride: u128, len: u128) -> Ap {
        debug_assert!(stride >= 1);
        Ap { first, stride, len }
    }

    /// The empty progression, anchored at `at`.
    pub(crate) fn empty(at: i128) -> Ap {
        Ap { first: at, stride: 1, len: 0 }
    }

    /// The stride that matters: 1 for fewer than two elements.
    pub(crate) fn step(&self) -> u128 {
        if self.len <= 1 {
            1
        } else {
            self.stride
        }
    }

    /// The `k`-th element (`k < len`).
    pub(crate) fn at(&self, k: u128) -> i128 {
        debug_assert!(k < self.len);
        self.first + (self.step() * k) as i128
    }

    /// The last element (`len >= 1`).
    pub(crate) fn last(&self) -> i128 {
        self.at(self.len - 1)
    }

    /// The elements `x` with `lo <= x < hi`.
    pub(crate) fn clip(&self, lo: i128, hi: i128) -> Ap {
        if self.len == 0 || lo >= hi {
            return Ap::empty(lo);
        }
        let s = self.step();
        let j_lo = if lo <= self.first { 0 } else { div_ceil((lo - self.first) as u128, s) };
        let j_hi = if hi <= self.first { 0 } else { div_ceil((hi - self.first) as u128, s).min(self.len) };
        if j_lo >= j_hi {
            return Ap::empty(lo);
        }
        Ap::new(self.at(j_lo), self.stride, j_hi - j_lo)
    }

    /// The common elements of two progressions: again a progression, whose stride is the lcm
    /// of the two strides (Chinese remainder theorem). The strides that matter must be below
    /// `2^64`.
    pub(crate) fn intersect(&self, other: &Ap) -> Ap {
        let lower = self.first.max(other.first);
        if self.len == 0 || other.len == 0 {
            return Ap::empty(lower);
        }
        let upper = self.last().min(other.last());
        if lower > upper {
            return Ap::empty(lower);
        }
        let (s1, s2) = (self.step(), other.step());
        debug_assert!(s1 < (1 << 64) && s2 < (1 << 64));
        // lower + r ≡ first (mod s), smallest r >= 0.
        let r1 = (s1 - rem((lower - self.first) as u128, s1)) % s1;
        let r2 = (s2 - rem((lower - other.first) as u128, s2)) % s2;
        let span = (upper - lower) as u128;
        // The common cases without the CRT step (every zippered loop over a unit-stride view
        // and a Cyclic dimension meets them): one stride is 1, or both are equal.
        if s1 == 1 || s2 == 1 || s1 == s2 {
            if s1 == s2 && r1 != r2 {
                return Ap::empty(lower);
            }
            let (y, s) = if s1 == 1 { (r2, s2) } else { (r1, s1) };
            if y > span {
                return Ap::empty(lower);
            }
            return Ap::new(lower + y as i128, s, (span - y) / s + 1);
        }
        let g = gcd(s1, s2);
        if r1 % g != r2 % g {
            return Ap::empty(lower);
        }
        let m2 = s2 / g;
        let lcm = s1 * m2;
        // y = r1 + s1 * t with s1 * t ≡ r2 - r1 (mod s2), i.e. (s1/g) t ≡ (r2 - r1)/g (mod m2).
        let d = ((r2 + s2 - r1 % s2) % s2) / g;
        let t = (d % m2) * mod_inverse((s1 / g) % m2, m2) % m2;
        let y = r1 + s1 * t;
        if y > span {
            return Ap::empty(lower);
        }
        Ap::new(lower + y as i128, lcm, (span - y) / lcm + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn elems(a: &Ap) -> Vec<i128> {
        (0..a.len).map(|k| a.at(k)).collect()
    }

    #[test]
    fn inverse_and_gcd() {
        assert_eq!(gcd(12, 18), 6);
        assert_eq!(gcd(0, 5), 5);
        for m in 1..40u128 {
            for a in 0..m {
                if gcd(a, m) == 1 {
                    assert_eq!(a * mod_inverse(a, m) % m, 1 % m, "a={a} m={m}");
                }
            }
        }
    }

    #[test]
    fn intersect_matches_brute_force() {
        for f1 in -6..6i128 {
            for s1 in 1..6u128 {
                for l1 in 0..6u128 {
                    for f2 in -6..6i128 {
                        for s2 in 1..6u128 {
                            for l2 in [0u128, 1, 3, 7] {
                                let a = Ap::new(f1, s1, l1);
                                let b = Ap::new(f2, s2, l2);
                                let eb = elems(&b);
                                let want: Vec<i128> = elems(&a).into_iter().filter(|x| eb.contains(x)).collect();
                                assert_eq!(elems(&a.intersect(&b)), want, "{a:?} ∩ {b:?}");
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn clip_matches_brute_force() {
        for f in -4..4i128 {
            for s in 1..4u128 {
                for l in 0..6u128 {
                    let a = Ap::new(f, s, l);
                    for lo in -6..12i128 {
                        for hi in -6..12i128 {
                            let want: Vec<i128> = elems(&a).into_iter().filter(|x| (lo..hi).contains(x)).collect();
                            assert_eq!(elems(&a.clip(lo, hi)), want);
                        }
                    }
                }
            }
        }
    }
}
