//! NumPy's element-wise functions: every function of one operand ([`UnOp`], the unary
//! operators and the ufuncs: logarithms, exponentials, trigonometric and hyperbolic functions
//! and their inverses, rounding, sign, NaN and infinity tests, bit counts), evaluated by
//! [`eval1`], and the functions of two operands beyond the binary operators ([`F2`]:
//! `arctan2`, `hypot`, `fmod`, `nextafter`, bit rotations), evaluated by [`eval2`]. Nodes
//! [`crate::types::Node::Un`] and [`crate::types::Node::Fn2`] of the fused expressions; the
//! Python layer converts the operands to the dtype a function takes (float64 for the
//! transcendental ones) before it builds the node, and [`UnOp::result`]/[`F2::accepts`]
//! refuse the others when the node is built.

use crate::types::{DType, UnOp};
use crate::values::{Access, Arg, Val};
use atoll::{Error, Result};
use serde::{Deserialize, Serialize};

/// A function of two operands of one dtype.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum F2 {
    Arctan2,
    Hypot,
    Fmod,
    Nextafter,
    Rotl,
    Rotr,
}

impl F2 {
    /// The function of a name used by the Python layer.
    pub fn parse(s: &str) -> Option<F2> {
        use F2::*;
        Some(match s {
            "arctan2" => Arctan2,
            "hypot" => Hypot,
            "fmod" => Fmod,
            "nextafter" => Nextafter,
            "rotl" => Rotl,
            "rotr" => Rotr,
            _ => return None,
        })
    }

    /// True when the function is defined on operands of dtype `t`.
    pub fn accepts(self, t: DType) -> bool {
        match self {
            F2::Fmod => t != DType::Bool,
            F2::Rotl | F2::Rotr => matches!(t, DType::I64 | DType::U64),
            _ => t == DType::F64,
        }
    }

    /// The dtype of the value for operands of dtype `t`.
    pub fn out(self, t: DType) -> DType {
        t
    }
}

fn map<A: Copy, O: Clone>(x: &Arg<A>, n: usize, f: impl Fn(A) -> O) -> Vec<O> {
    match x {
        Arg::S(a) => a.iter().map(|&a| f(a)).collect(),
        Arg::C(a) => vec![f(*a); n],
    }
}

fn zip<A: Copy, O: Clone>(x: &Arg<A>, y: &Arg<A>, n: usize, f: impl Fn(A, A) -> O) -> Vec<O> {
    match (x, y) {
        (Arg::S(a), Arg::S(b)) => a.iter().zip(b.iter()).map(|(&a, &b)| f(a, b)).collect(),
        (Arg::S(a), Arg::C(b)) => a.iter().map(|&a| f(a, *b)).collect(),
        (Arg::C(a), Arg::S(b)) => b.iter().map(|&b| f(*a, b)).collect(),
        (Arg::C(a), Arg::C(b)) => vec![f(*a, *b); n],
    }
}

fn bad(what: &str, t: DType) -> Error {
    Error::InvalidArgument(format!("{what} is not defined for dtype {}", t.name()))
}

fn arg<'b, T: Access>(v: &'b Val<'_>, what: &str) -> Result<Arg<'b, T>> {
    T::arg(v).ok_or_else(|| bad(what, T::DTYPE))
}

/// NumPy's `sign` of a float: -1, 0 or 1 (NaN stays NaN, -0.0 gives 0.0).
/// `asinh` without the overflow of `x + sqrt(x^2 + 1)` for |x| near `f64::MAX`: beyond 1e300
/// the sum is `2|x|` to the last bit (the `1/(4x^2)` term is below it), so `ln|x| + ln 2`.
fn asinh_f(x: f64) -> f64 {
    let a = x.abs();
    if a > 1e300 {
        (a.ln() + std::f64::consts::LN_2).copysign(x)
    } else {
        x.asinh()
    }
}

/// `acosh` with the large-argument form of [`asinh_f`] (`ln x + ln 2` beyond 1e300).
fn acosh_f(x: f64) -> f64 {
    if x > 1e300 {
        x.ln() + std::f64::consts::LN_2
    } else {
        x.acosh()
    }
}

fn sign_f(a: f64) -> f64 {
    if a > 0.0 {
        1.0
    } else if a < 0.0 {
        -1.0
    } else if a.is_nan() {
        a
    } else {
        0.0
    }
}

/// C's `nextafter`: the float after `a` in the direction of `b`.
fn nextafter(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        return f64::NAN;
    }
    if a == b {
        return b;
    }
    if a == 0.0 {
        let tiny = f64::from_bits(1);
        return if b > 0.0 { tiny } else { -tiny };
    }
    let bits = a.to_bits();
    let up = (b > a) == (a > 0.0);
    f64::from_bits(if up { bits + 1 } else { bits - 1 })
}

/// The value of `f` on `v` (`n` elements).
pub fn eval1<'a>(f: UnOp, v: &Val<'_>, n: usize) -> Result<Val<'a>> {
    use UnOp::*;
    let what = f.name();
    let t = v.dtype();
    if f.result(t).is_none() {
        return Err(bad(what, t));
    }
    Ok(match t {
        DType::F64 => {
            let x = arg::<f64>(v, what)?;
            let g: fn(f64) -> f64 = match f {
                Neg => |a| -a,
                Abs => f64::abs,
                Log => f64::ln,
                Exp => f64::exp,
                Sqrt => f64::sqrt,
                Sin => f64::sin,
                Cos => f64::cos,
                Floor => f64::floor,
                Ceil => f64::ceil,
                Round => f64::round_ties_even,
                Trunc => f64::trunc,
                Tan => f64::tan,
                Sinh => f64::sinh,
                Cosh => f64::cosh,
                Tanh => f64::tanh,
                Arcsin => f64::asin,
                Arccos => f64::acos,
                Arctan => f64::atan,
                Arcsinh => asinh_f,
                Arccosh => acosh_f,
                Arctanh => f64::atanh,
                Log2 => f64::log2,
                Log10 => f64::log10,
                Log1p => f64::ln_1p,
                Expm1 => f64::exp_m1,
                Sign => sign_f,
                Square => |a| a * a,
                Rad2deg => f64::to_degrees,
                Deg2rad => f64::to_radians,
                IsNan => return Ok(Val::B(map(&x, n, f64::is_nan))),
                IsInf => return Ok(Val::B(map(&x, n, f64::is_infinite))),
                IsFinite => return Ok(Val::B(map(&x, n, f64::is_finite))),
                Invert | Popcount | Parity | Clz | Ctz => return Err(bad(what, t)),
            };
            Val::F(map(&x, n, g))
        }
        DType::I64 => {
            let x = arg::<i64>(v, what)?;
            match f {
                Neg => Val::I(map(&x, n, i64::wrapping_neg)),
                Abs => Val::I(map(&x, n, i64::wrapping_abs)),
                Invert => Val::I(map(&x, n, |a| !a)),
                Floor | Ceil | Round | Trunc => Val::I(map(&x, n, |a| a)),
                Sign => Val::I(map(&x, n, i64::signum)),
                Square => Val::I(map(&x, n, |a| a.wrapping_mul(a))),
                Popcount => Val::I(map(&x, n, |a| a.count_ones() as i64)),
                Parity => Val::I(map(&x, n, |a| (a.count_ones() & 1) as i64)),
                Clz => Val::I(map(&x, n, |a| a.leading_zeros() as i64)),
                Ctz => Val::I(map(&x, n, |a| if a == 0 { 0 } else { a.trailing_zeros() as i64 })),
                IsNan | IsInf => Val::B(vec![false; n]),
                IsFinite => Val::B(vec![true; n]),
                _ => return Err(bad(what, t)),
            }
        }
        DType::U64 => {
            let x = arg::<u64>(v, what)?;
            match f {
                Neg => Val::U(map(&x, n, u64::wrapping_neg)),
                Abs | Floor | Ceil | Round | Trunc => Val::U(map(&x, n, |a| a)),
                Invert => Val::U(map(&x, n, |a| !a)),
                Sign => Val::U(map(&x, n, |a| (a != 0) as u64)),
                Square => Val::U(map(&x, n, |a| a.wrapping_mul(a))),
                Popcount => Val::U(map(&x, n, |a| a.count_ones() as u64)),
                Parity => Val::U(map(&x, n, |a| (a.count_ones() & 1) as u64)),
                Clz => Val::U(map(&x, n, |a| a.leading_zeros() as u64)),
                Ctz => Val::U(map(&x, n, |a| if a == 0 { 0 } else { a.trailing_zeros() as u64 })),
                IsNan | IsInf => Val::B(vec![false; n]),
                IsFinite => Val::B(vec![true; n]),
                _ => return Err(bad(what, t)),
            }
        }
        DType::U8 => {
            let x = arg::<u8>(v, what)?;
            match f {
                Neg => Val::U8(map(&x, n, u8::wrapping_neg)),
                Abs | Floor | Ceil | Round | Trunc => Val::U8(map(&x, n, |a| a)),
                Invert => Val::U8(map(&x, n, |a| !a)),
                Sign => Val::U8(map(&x, n, |a| (a != 0) as u8)),
                Square => Val::U8(map(&x, n, |a| a.wrapping_mul(a))),
                IsNan | IsInf => Val::B(vec![false; n]),
                IsFinite => Val::B(vec![true; n]),
                _ => return Err(bad(what, t)),
            }
        }
        DType::Bool => {
            let x = arg::<bool>(v, what)?;
            match f {
                Invert => Val::B(map(&x, n, |a| !a)),
                Abs | Floor | Ceil | Trunc => Val::B(map(&x, n, |a| a)),
                IsNan | IsInf => Val::B(vec![false; n]),
                IsFinite => Val::B(vec![true; n]),
                _ => return Err(bad(what, t)),
            }
        }
    })
}

/// The value of `f` on `a` and `b` (`n` elements, one dtype).
pub fn eval2<'a>(f: F2, a: &Val<'_>, b: &Val<'_>, n: usize) -> Result<Val<'a>> {
    use F2::*;
    let what = format!("{f:?}");
    if let (Some(x), Some(y)) = (f64::arg(a), f64::arg(b)) {
        let g: fn(f64, f64) -> f64 = match f {
            Arctan2 => f64::atan2,
            Hypot => f64::hypot,
            // C's fmod: the remainder with the dividend's sign (NaN for a zero divisor).
            Fmod => |a, b| a % b,
            Nextafter => nextafter,
            Rotl | Rotr => return Err(bad(&what, DType::F64)),
        };
        return Ok(Val::F(zip(&x, &y, n, g)));
    }
    if let (Some(x), Some(y)) = (i64::arg(a), i64::arg(b)) {
        return Ok(Val::I(match f {
            // NumPy's fmod of integers: truncated remainder, 0 for a zero divisor.
            Fmod => zip(&x, &y, n, |a, b| if b == 0 { 0 } else { a.wrapping_rem(b) }),
            Rotl => zip(&x, &y, n, |a, b| a.rotate_left(b.rem_euclid(64) as u32)),
            Rotr => zip(&x, &y, n, |a, b| a.rotate_right(b.rem_euclid(64) as u32)),
            _ => return Err(bad(&what, DType::I64)),
        }));
    }
    if let (Some(x), Some(y)) = (u64::arg(a), u64::arg(b)) {
        return Ok(Val::U(match f {
            Fmod => zip(&x, &y, n, |a, b| if b == 0 { 0 } else { a % b }),
            Rotl => zip(&x, &y, n, |a, b| a.rotate_left((b % 64) as u32)),
            Rotr => zip(&x, &y, n, |a, b| a.rotate_right((b % 64) as u32)),
            _ => return Err(bad(&what, DType::U64)),
        }));
    }
    if let (Some(x), Some(y)) = (u8::arg(a), u8::arg(b)) {
        return Ok(Val::U8(match f {
            Fmod => zip(&x, &y, n, |a, b| a.checked_rem(b).unwrap_or(0)),
            _ => return Err(bad(&what, DType::U8)),
        }));
    }
    Err(Error::InvalidArgument(format!("{what}: operands of one supported dtype expected")))
}

#[cfg(test)]
mod large_argument_tests {
    use super::{acosh_f, asinh_f};

    /// Against the exact `ln(2x)` (no rounding of `2x` involved: `ln x + ln 2` is its value)
    /// for arguments near `f64::MAX`, and against std's own functions where those do not
    /// overflow.
    #[test]
    fn asinh_and_acosh_of_huge_arguments_are_finite() {
        for x in [1e300_f64, 1.5e305, 8.9e307, 1e308, f64::MAX] {
            let want = x.ln() + std::f64::consts::LN_2;
            assert!((asinh_f(x) - want).abs() <= 1e-12 * want, "asinh({x})");
            assert!((asinh_f(-x) + want).abs() <= 1e-12 * want, "asinh(-{x})");
            assert!((acosh_f(x) - want).abs() <= 1e-12 * want, "acosh({x})");
        }
        for x in [0.0_f64, 0.5, 1.0, 2.0, 1e10, 1e150, 9.9e299] {
            assert_eq!(asinh_f(x), x.asinh());
            assert_eq!(asinh_f(-x), (-x).asinh());
        }
        for x in [1.0_f64, 1.5, 1e10, 1e150, 9.9e299] {
            assert_eq!(acosh_f(x), x.acosh());
        }
        assert!(acosh_f(0.5).is_nan() && asinh_f(f64::NAN).is_nan() && acosh_f(f64::NAN).is_nan());
        assert_eq!(asinh_f(f64::INFINITY), f64::INFINITY);
        assert_eq!(asinh_f(f64::NEG_INFINITY), f64::NEG_INFINITY);
        assert_eq!(acosh_f(f64::INFINITY), f64::INFINITY);
    }
}
