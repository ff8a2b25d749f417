//! Elementwise semantics of each dtype, as NumPy defines them (wrapping integer arithmetic,
//! floor division and modulo with the divisor's sign, division by zero giving 0 for integers).

use crate::scalar::{BinOp, Scal};

/// One element type's operations.
pub trait Num: Copy + Send + Sync + PartialOrd + Default + 'static {
    /// The scalar of a value.
    fn scal(self) -> Scal;
    /// The value of a scalar of this type (`None` for another type).
    fn of(s: Scal) -> Option<Self>;
    /// True when `op` is defined on this type.
    fn supports(op: BinOp) -> bool;
    /// The binary operation (only called when `supports(op)`; comparisons are separate).
    fn bin(op: BinOp, a: Self, b: Self) -> Self;
    /// True for a NaN.
    fn is_nan(self) -> bool {
        false
    }
    /// The value as f64 / i64 / u64 / bool (NumPy's `astype`).
    fn to_f64(self) -> f64;
    /// See [`Num::to_f64`].
    fn to_i64(self) -> i64;
    /// See [`Num::to_f64`].
    fn to_u64(self) -> u64;
    /// See [`Num::to_f64`].
    fn to_bool(self) -> bool;
    /// See [`Num::to_f64`] (integers wrap to their low byte, as NumPy's `astype(uint8)`).
    fn to_u8(self) -> u8;
    /// The additive / multiplicative identities.
    fn zero() -> Self;
    /// See [`Num::zero`].
    fn one() -> Self;
}

/// `a ** e` wrapping at 64 bits for any exponent (NumPy's integer power: square and
/// multiply over every bit of `e`, not a 32-bit exponent).
fn wrapping_pow_u64(mut a: u64, mut e: u64) -> u64 {
    let mut r: u64 = 1;
    while e > 0 {
        if e & 1 == 1 {
            r = r.wrapping_mul(a);
        }
        a = a.wrapping_mul(a);
        e >>= 1;
    }
    r
}

fn shl_i(a: i64, b: i64) -> i64 {
    if (0..64).contains(&b) {
        a.wrapping_shl(b as u32)
    } else {
        0
    }
}
fn shr_i(a: i64, b: i64) -> i64 {
    if (0..64).contains(&b) {
        a >> b
    } else if a < 0 {
        -1
    } else {
        0
    }
}

impl Num for i64 {
    fn scal(self) -> Scal {
        Scal::I(self)
    }
    fn of(s: Scal) -> Option<Self> {
        if let Scal::I(v) = s {
            Some(v)
        } else {
            None
        }
    }
    fn supports(op: BinOp) -> bool {
        op != BinOp::Div
    }
    #[inline]
    fn bin(op: BinOp, a: i64, b: i64) -> i64 {
        use BinOp::*;
        match op {
            Add => a.wrapping_add(b),
            Sub => a.wrapping_sub(b),
            Mul => a.wrapping_mul(b),
            FloorDiv => {
                if b == 0 {
                    return 0;
                }
                let q = a.wrapping_div(b);
                if (a.wrapping_rem(b) != 0) && ((a < 0) != (b < 0)) {
                    q - 1
                } else {
                    q
                }
            }
            Mod => {
                if b == 0 {
                    return 0;
                }
                let r = a.wrapping_rem(b);
                if r != 0 && ((r < 0) != (b < 0)) {
                    r + b
                } else {
                    r
                }
            }
            Pow => {
                if b < 0 {
                    0
                } else {
                    wrapping_pow_u64(a as u64, b as u64) as i64
                }
            }
            And => a & b,
            Or => a | b,
            Xor => a ^ b,
            Shl => shl_i(a, b),
            Shr => shr_i(a, b),
            Minimum => a.min(b),
            Maximum => a.max(b),
            _ => 0,
        }
    }
    fn to_f64(self) -> f64 {
        self as f64
    }
    fn to_i64(self) -> i64 {
        self
    }
    fn to_u64(self) -> u64 {
        self as u64
    }
    fn to_bool(self) -> bool {
        self != 0
    }
    fn to_u8(self) -> u8 {
        self as u8
    }
    fn zero() -> Self {
        0
    }
    fn one() -> Self {
        1
    }
}

/// `Num` for an unsigned integer type whose scalar is `Scal::$scal`: NumPy's wrapping
/// arithmetic, division and remainder by zero give 0, a shift by the width or more gives 0,
/// and the power is the low bits of the 64-bit wrapping power (the power modulo 2^width).
macro_rules! unsigned_num {
    ($t:ty, $scal:ident) => {
        impl Num for $t {
            fn scal(self) -> Scal {
                Scal::$scal(self)
            }
            fn of(s: Scal) -> Option<Self> {
                if let Scal::$scal(v) = s {
                    Some(v)
                } else {
                    None
                }
            }
            fn supports(op: BinOp) -> bool {
                op != BinOp::Div
            }
            #[inline]
            fn bin(op: BinOp, a: $t, b: $t) -> $t {
                use BinOp::*;
                match op {
                    Add => a.wrapping_add(b),
                    Sub => a.wrapping_sub(b),
                    Mul => a.wrapping_mul(b),
                    FloorDiv => a.checked_div(b).unwrap_or(0),
                    Mod => a.checked_rem(b).unwrap_or(0),
                    Pow => wrapping_pow_u64(u64::from(a), u64::from(b)) as $t,
                    And => a & b,
                    Or => a | b,
                    Xor => a ^ b,
                    Shl => u32::try_from(b).ok().and_then(|b| a.checked_shl(b)).unwrap_or(0),
                    Shr => u32::try_from(b).ok().and_then(|b| a.checked_shr(b)).unwrap_or(0),
                    Minimum => a.min(b),
                    Maximum => a.max(b),
                    _ => 0,
                }
            }
            fn to_f64(self) -> f64 {
                self as f64
            }
            fn to_i64(self) -> i64 {
                self as i64
            }
            fn to_u64(self) -> u64 {
                u64::from(self)
            }
            fn to_bool(self) -> bool {
                self != 0
            }
            fn to_u8(self) -> u8 {
                self as u8
            }
            fn zero() -> Self {
                0
            }
            fn one() -> Self {
                1
            }
        }
    };
}
unsigned_num!(u64, U);
unsigned_num!(u8, U8);

/// NumPy's `divmod` of floats (`npy_divmod`): the floor quotient and the modulo with the
/// divisor's sign.
fn divmod_f(a: f64, b: f64) -> (f64, f64) {
    if b == 0.0 {
        return (a / b, f64::NAN);
    }
    let mut m = a % b;
    let mut div = (a - m) / b;
    if m != 0.0 {
        if (b < 0.0) != (m < 0.0) {
            m += b;
            div -= 1.0;
        }
    } else {
        m = 0.0f64.copysign(b);
    }
    let q = if div != 0.0 {
        let f = div.floor();
        if div - f > 0.5 {
            f + 1.0
        } else {
            f
        }
    } else {
        0.0f64.copysign(a / b)
    };
    (q, m)
}

impl Num for f64 {
    fn scal(self) -> Scal {
        Scal::F(self)
    }
    fn of(s: Scal) -> Option<Self> {
        if let Scal::F(v) = s {
            Some(v)
        } else {
            None
        }
    }
    fn supports(op: BinOp) -> bool {
        !matches!(op, BinOp::And | BinOp::Or | BinOp::Xor | BinOp::Shl | BinOp::Shr)
    }
    #[inline]
    fn bin(op: BinOp, a: f64, b: f64) -> f64 {
        use BinOp::*;
        match op {
            Add => a + b,
            Sub => a - b,
            Mul => a * b,
            Div => a / b,
            FloorDiv => divmod_f(a, b).0,
            Mod => divmod_f(a, b).1,
            Pow => a.powf(b),
            // NumPy's minimum/maximum propagate NaN.
            Minimum => {
                if a.is_nan() || b.is_nan() {
                    f64::NAN
                } else {
                    a.min(b)
                }
            }
            Maximum => {
                if a.is_nan() || b.is_nan() {
                    f64::NAN
                } else {
                    a.max(b)
                }
            }
            _ => 0.0,
        }
    }
    fn is_nan(self) -> bool {
        f64::is_nan(self)
    }
    fn to_f64(self) -> f64 {
        self
    }
    fn to_i64(self) -> i64 {
        self as i64
    }
    fn to_u64(self) -> u64 {
        if self < 0.0 {
            (self as i64) as u64
        } else {
            self as u64
        }
    }
    fn to_bool(self) -> bool {
        self != 0.0
    }
    fn to_u8(self) -> u8 {
        // Through int64, as NumPy's cast on x86-64: -1.0 gives 255, 300.0 gives 44, NaN 0.
        (self as i64) as u8
    }
    fn zero() -> Self {
        0.0
    }
    fn one() -> Self {
        1.0
    }
}

impl Num for bool {
    fn scal(self) -> Scal {
        Scal::B(self)
    }
    fn of(s: Scal) -> Option<Self> {
        if let Scal::B(v) = s {
            Some(v)
        } else {
            None
        }
    }
    fn supports(op: BinOp) -> bool {
        matches!(op, BinOp::Add | BinOp::Mul | BinOp::And | BinOp::Or | BinOp::Xor | BinOp::Minimum | BinOp::Maximum)
    }
    #[inline]
    fn bin(op: BinOp, a: bool, b: bool) -> bool {
        use BinOp::*;
        match op {
            Add | Or | Maximum => a | b,
            Mul | And | Minimum => a & b,
            Xor => a ^ b,
            _ => false,
        }
    }
    fn to_f64(self) -> f64 {
        self as u8 as f64
    }
    fn to_i64(self) -> i64 {
        self as i64
    }
    fn to_u64(self) -> u64 {
        self as u64
    }
    fn to_bool(self) -> bool {
        self
    }
    fn to_u8(self) -> u8 {
        self as u8
    }
    fn zero() -> Self {
        false
    }
    fn one() -> Self {
        true
    }
}

/// NaN-propagating minimum (NumPy's `min`): a NaN wins, then the smaller, then `a`.
#[inline]
pub fn min_of<T: Num>(a: T, b: T) -> T {
    if a.is_nan() {
        a
    } else if b.is_nan() || b < a {
        b
    } else {
        a
    }
}

/// NaN-propagating maximum (NumPy's `max`).
#[inline]
pub fn max_of<T: Num>(a: T, b: T) -> T {
    if a.is_nan() {
        a
    } else if b.is_nan() || b > a {
        b
    } else {
        a
    }
}

/// True when binary operation `op` is defined on dtype `t` (comparisons are on every dtype).
pub fn supports(t: crate::scalar::DType, op: BinOp) -> bool {
    atoll::array::with_dtype!(t, T => <T as Num>::supports(op))
}
