//! [`SortKey`]: the key types of the sorts (`i64`, `u64`, `f64`, `u8`) and their order-preserving
//! maps to `u64`, on which the radix passes work.

use atoll_array::Elem;

mod private {
    /// Seals [`super::SortKey`].
    pub trait Sealed {}
    impl Sealed for i64 {}
    impl Sealed for u64 {}
    impl Sealed for f64 {}
    impl Sealed for u8 {}
}

/// A key type of the radix sorts: `i64`, `u64`, `f64` or `u8` (sealed).
///
/// Each key maps to a `u64` that orders the same way ([`to_ordered`](Self::to_ordered)): the
/// sorts compare those. For `f64` the order is total: `-inf < ... < -0.0 < +0.0 < ... < +inf <
/// NaN`, with every NaN (whatever its sign or payload) equal to the others and last.
///
/// ```
/// use atoll_ops::SortKey;
/// let xs = [f64::NEG_INFINITY, -1.5, -0.0, 0.0, 2.0, f64::INFINITY, f64::NAN, -f64::NAN];
/// let m: Vec<u64> = xs.iter().map(|x| x.to_ordered()).collect();
/// assert!(m.windows(2).take(5).all(|w| w[0] < w[1]));
/// assert_eq!(m[6], m[7]);                       // every NaN is the same key, after +inf
/// assert!(m[5] < m[6]);
/// assert!(i64::MIN.to_ordered() < (-1i64).to_ordered() && (-1i64).to_ordered() < 0i64.to_ordered());
/// assert_eq!(f64::from_ordered(2.0f64.to_ordered()), 2.0);
/// ```
pub trait SortKey: Elem + atoll_runtime::Pod + private::Sealed {
    /// The order-preserving image of the key: `a < b` (in the key's total order) exactly when
    /// `a.to_ordered() < b.to_ordered()`.
    fn to_ordered(self) -> u64;
    /// The key whose image is `u` (for `f64`, every NaN image gives the canonical `f64::NAN`).
    fn from_ordered(u: u64) -> Self;
}

const SIGN: u64 = 1 << 63;

impl SortKey for u64 {
    #[inline(always)]
    fn to_ordered(self) -> u64 {
        self
    }
    #[inline(always)]
    fn from_ordered(u: u64) -> Self {
        u
    }
}

impl SortKey for u8 {
    #[inline(always)]
    fn to_ordered(self) -> u64 {
        self as u64
    }
    #[inline(always)]
    fn from_ordered(u: u64) -> Self {
        u as u8
    }
}

impl SortKey for i64 {
    #[inline(always)]
    fn to_ordered(self) -> u64 {
        (self as u64) ^ SIGN
    }
    #[inline(always)]
    fn from_ordered(u: u64) -> Self {
        (u ^ SIGN) as i64
    }
}

/// The image of every NaN: the largest `u64`, after `+inf` (whose image is `0xfff0...0`).
const NAN_IMAGE: u64 = u64::MAX;

impl SortKey for f64 {
    #[inline(always)]
    fn to_ordered(self) -> u64 {
        if self.is_nan() {
            return NAN_IMAGE;
        }
        let b = self.to_bits();
        // Negative numbers: flip every bit (larger magnitudes become smaller); others: set the
        // sign bit (so they follow every negative number). -0.0 maps just below +0.0.
        if b & SIGN != 0 {
            !b
        } else {
            b | SIGN
        }
    }
    #[inline(always)]
    fn from_ordered(u: u64) -> Self {
        if u == NAN_IMAGE {
            return f64::NAN;
        }
        let b = if u & SIGN != 0 { u & !SIGN } else { !u };
        f64::from_bits(b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float_images_follow_the_total_order() {
        let xs = [
            f64::NEG_INFINITY,
            -f64::MAX,
            -1.0,
            -f64::MIN_POSITIVE,
            -5e-324,
            -0.0,
            0.0,
            5e-324,
            1.0,
            f64::MAX,
            f64::INFINITY,
        ];
        for w in xs.windows(2) {
            assert!(w[0].to_ordered() < w[1].to_ordered(), "{} < {}", w[0], w[1]);
        }
        for &x in &xs {
            assert_eq!(f64::from_ordered(x.to_ordered()).to_bits(), x.to_bits());
        }
        let nan_neg = f64::from_bits(f64::NAN.to_bits() | SIGN);
        assert_eq!(nan_neg.to_ordered(), NAN_IMAGE);
        assert!(f64::from_ordered(NAN_IMAGE).is_nan());
    }

    #[test]
    fn integer_images_round_trip_and_order() {
        let xs = [i64::MIN, -2, -1, 0, 1, i64::MAX];
        for w in xs.windows(2) {
            assert!(w[0].to_ordered() < w[1].to_ordered());
        }
        for &x in &xs {
            assert_eq!(i64::from_ordered(x.to_ordered()), x);
        }
        assert_eq!(u64::from_ordered(u64::MAX.to_ordered()), u64::MAX);
    }
}
