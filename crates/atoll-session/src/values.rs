//! A chunk's operands and results as the evaluator ([`crate::eval`]) and the functions
//! ([`crate::eval::ufuncs`]) see them: a slice in place ([`Src`]), a computed buffer or a scalar
//! ([`Val`]), and typed access to them ([`Access`]).

use crate::eval::kernels::Num;
use crate::scalar::{DType, Scal};
use atoll::array::Stored;

/// A locale's part of an operand, in place.
#[derive(Clone, Copy)]
#[allow(missing_docs)]
pub enum Src<'a> {
    I(&'a [i64]),
    U(&'a [u64]),
    F(&'a [f64]),
    B(&'a [bool]),
    U8(&'a [u8]),
}

/// A chunk's value: a slice of an operand, a computed buffer, or a scalar.
pub enum Val<'a> {
    /// A scalar (not expanded).
    S(Scal),
    /// In place.
    R(Src<'a>),
    /// Computed.
    I(Vec<i64>),
    #[allow(missing_docs)]
    U(Vec<u64>),
    #[allow(missing_docs)]
    F(Vec<f64>),
    #[allow(missing_docs)]
    B(Vec<bool>),
    #[allow(missing_docs)]
    U8(Vec<u8>),
}

/// A typed argument: a slice or a constant.
pub enum Arg<'b, T> {
    /// A slice.
    S(&'b [T]),
    /// A constant.
    C(T),
}

impl Src<'_> {
    pub(crate) fn dtype(&self) -> DType {
        match self {
            Src::I(_) => DType::I64,
            Src::U(_) => DType::U64,
            Src::F(_) => DType::F64,
            Src::B(_) => DType::Bool,
            Src::U8(_) => DType::U8,
        }
    }
}

/// Typed access to a [`Val`] (the dtype of `Self` is [`Stored::DTYPE`]).
pub trait Access: Num + Stored {
    /// The argument, or `None` for another dtype.
    fn arg<'b>(v: &'b Val<'_>) -> Option<Arg<'b, Self>>;
    /// A computed buffer.
    fn wrap<'a>(v: Vec<Self>) -> Val<'a>;
}

macro_rules! access {
    ($t:ty, $v:ident, $s:ident) => {
        impl Access for $t {
            fn arg<'b>(v: &'b Val<'_>) -> Option<Arg<'b, Self>> {
                match v {
                    Val::$v(x) => Some(Arg::S(x)),
                    Val::R(Src::$v(x)) => Some(Arg::S(x)),
                    Val::S(Scal::$s(c)) => Some(Arg::C(*c)),
                    _ => None,
                }
            }
            fn wrap<'a>(v: Vec<Self>) -> Val<'a> {
                Val::$v(v)
            }
        }
    };
}
access!(i64, I, I);
access!(u64, U, U);
access!(f64, F, F);
access!(bool, B, B);
access!(u8, U8, U8);

impl Val<'_> {
    pub(crate) fn dtype(&self) -> DType {
        match self {
            Val::S(s) => s.dtype(),
            Val::R(Src::I(_)) | Val::I(_) => DType::I64,
            Val::R(Src::U(_)) | Val::U(_) => DType::U64,
            Val::R(Src::F(_)) | Val::F(_) => DType::F64,
            Val::R(Src::B(_)) | Val::B(_) => DType::Bool,
            Val::R(Src::U8(_)) | Val::U8(_) => DType::U8,
        }
    }
}
