//! The stored element types (dtypes) of Atoll's columns, and the numeric column: a 1-D Block
//! [`DistArray`] of one of them. Every crate above names dtypes through this module: the
//! session's commands (`atoll-session`), the file formats (`atoll-io`), the Python binding,
//! and the C ABI's codes of shared arrays (`atoll-share`, `include/atoll.h`).
//!
//! Code that works on any dtype is one generic function called through [`with_dtype!`]
//! (binds the Rust element type of a [`DType`]), [`with_col!`] (binds the typed array inside
//! a [`Col`]) or [`map_col!`] (the same, wrapping the typed result back into a [`Col`]).
//!
//! [`with_dtype!`]: crate::with_dtype
//! [`with_col!`]: crate::with_col
//! [`map_col!`]: crate::map_col

use crate::{dist, Block, DistArray, Elem};
use atoll_error::Result;
use atoll_runtime::Ctx;
use serde::{Deserialize, Serialize};

/// A stored element type of a column (NumPy's dtype of a `pdarray`).
#[derive(Serialize, Deserialize, Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum DType {
    /// `int64`
    I64,
    /// `uint64`
    U64,
    /// `float64`
    F64,
    /// `bool`
    Bool,
    /// `uint8` (one byte per element)
    U8,
}

impl DType {
    /// Every dtype.
    pub const ALL: [DType; 5] = [DType::I64, DType::U64, DType::F64, DType::Bool, DType::U8];

    /// NumPy's name of the dtype.
    pub fn name(self) -> &'static str {
        match self {
            DType::I64 => "int64",
            DType::U64 => "uint64",
            DType::F64 => "float64",
            DType::Bool => "bool",
            DType::U8 => "uint8",
        }
    }

    /// The dtype of a NumPy name (`int64`, `uint64`, `float64`, `bool`, `uint8`).
    pub fn parse(s: &str) -> Option<DType> {
        DType::ALL.into_iter().find(|d| d.name() == s)
    }

    /// Bytes per element.
    pub fn size(self) -> usize {
        crate::with_dtype!(self, T => std::mem::size_of::<T>())
    }

    /// True for the integer dtypes (`bool` is not one).
    pub fn is_integer(self) -> bool {
        matches!(self, DType::I64 | DType::U64 | DType::U8)
    }

    /// The C element type of the same values (shared arrays' [`CType`]), `None` for `bool`
    /// (C has no one-byte boolean of a fixed representation in the ABI).
    pub fn c_type(self) -> Option<CType> {
        match self {
            DType::I64 => Some(CType::I64),
            DType::U8 => Some(CType::U8),
            DType::U64 => Some(CType::U64),
            DType::F64 => Some(CType::F64),
            DType::Bool => None,
        }
    }
}

/// An element type of a shared array as the C ABI numbers it (`atoll_dtype` in
/// `include/atoll.h`; the numbers are the ABI's and never change). Shared arrays hold these
/// fixed-width C types; the stored dtypes among them are [`DType::c_type`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[repr(u32)]
pub enum CType {
    /// `int8_t`
    I8 = 1,
    /// `int16_t`
    I16 = 2,
    /// `int32_t`
    I32 = 3,
    /// `int64_t`
    I64 = 4,
    /// `uint8_t`
    U8 = 5,
    /// `uint16_t`
    U16 = 6,
    /// `uint32_t`
    U32 = 7,
    /// `uint64_t`
    U64 = 8,
    /// `float`
    F32 = 9,
    /// `double`
    F64 = 10,
}

impl CType {
    /// Every C element type.
    pub const ALL: [CType; 10] = [
        CType::I8,
        CType::I16,
        CType::I32,
        CType::I64,
        CType::U8,
        CType::U16,
        CType::U32,
        CType::U64,
        CType::F32,
        CType::F64,
    ];

    /// The type of ABI code `c`, if any.
    pub fn from_code(c: u32) -> Option<CType> {
        CType::ALL.into_iter().find(|d| d.code() == c)
    }

    /// The ABI code.
    pub fn code(self) -> u32 {
        self as u32
    }

    /// Bytes per element.
    pub fn size(self) -> usize {
        use CType::*;
        match self {
            I8 | U8 => 1,
            I16 | U16 => 2,
            I32 | U32 | F32 => 4,
            I64 | U64 | F64 => 8,
        }
    }

    /// The Rust name (`f64`).
    pub fn name(self) -> &'static str {
        use CType::*;
        match self {
            I8 => "i8",
            I16 => "i16",
            I32 => "i32",
            I64 => "i64",
            U8 => "u8",
            U16 => "u16",
            U32 => "u32",
            U64 => "u64",
            F32 => "f32",
            F64 => "f64",
        }
    }

    /// The stored dtype of the same values, if it is one.
    pub fn dtype(self) -> Option<DType> {
        DType::ALL.into_iter().find(|d| d.c_type() == Some(self))
    }
}

/// A Rust element type that columns store: the type of one [`DType`].
pub trait Stored: Elem {
    /// Its dtype.
    const DTYPE: DType;
    /// The column holding `a`.
    fn into_col(a: DistArray<Self, 1>) -> Col;
    /// The typed array inside `c`, when `c` holds this type.
    fn of_col(c: &Col) -> Option<&DistArray<Self, 1>>;
}

macro_rules! stored {
    ($($t:ty => $d:ident, $v:ident);*) => {$(
        impl Stored for $t {
            const DTYPE: DType = DType::$d;
            fn into_col(a: DistArray<$t, 1>) -> Col {
                Col::$v(a)
            }
            fn of_col(c: &Col) -> Option<&DistArray<$t, 1>> {
                match c {
                    Col::$v(a) => Some(a),
                    _ => None,
                }
            }
        }
    )*};
}
stored!(i64 => I64, I; u64 => U64, U; f64 => F64, F; bool => Bool, B; u8 => U8, U8);

/// Runs `$body` with `$t` an alias of the element type of dtype `$d` (`i64`, `u64`, `f64`,
/// `bool`, `u8`): one generic call serves every dtype.
#[macro_export]
macro_rules! with_dtype {
    ($d:expr, $t:ident => $body:expr) => {
        match $d {
            $crate::dtype::DType::I64 => {
                type $t = i64;
                $body
            }
            $crate::dtype::DType::U64 => {
                type $t = u64;
                $body
            }
            $crate::dtype::DType::F64 => {
                type $t = f64;
                $body
            }
            $crate::dtype::DType::Bool => {
                type $t = bool;
                $body
            }
            $crate::dtype::DType::U8 => {
                type $t = u8;
                $body
            }
        }
    };
}

/// A 1-D Block array of one of the dtypes (a numeric column).
#[allow(missing_docs)]
pub enum Col {
    I(DistArray<i64, 1>),
    U(DistArray<u64, 1>),
    F(DistArray<f64, 1>),
    B(DistArray<bool, 1>),
    U8(DistArray<u8, 1>),
}

/// Runs `$body` with `$a` bound to the typed array inside a [`Col`] (by value, or by
/// reference when `$col` is a reference).
#[macro_export]
macro_rules! with_col {
    ($col:expr, $a:ident => $body:expr) => {
        match $col {
            $crate::dtype::Col::I($a) => $body,
            $crate::dtype::Col::U($a) => $body,
            $crate::dtype::Col::F($a) => $body,
            $crate::dtype::Col::B($a) => $body,
            $crate::dtype::Col::U8($a) => $body,
        }
    };
}

/// `$body`, a `Result` of a typed array made from `$a` (the typed array inside a [`Col`]), as
/// a `Result` of a [`Col`] of the same dtype.
#[macro_export]
macro_rules! map_col {
    ($col:expr, $a:ident => $body:expr) => {
        match $col {
            $crate::dtype::Col::I($a) => $body.map($crate::dtype::Col::I),
            $crate::dtype::Col::U($a) => $body.map($crate::dtype::Col::U),
            $crate::dtype::Col::F($a) => $body.map($crate::dtype::Col::F),
            $crate::dtype::Col::B($a) => $body.map($crate::dtype::Col::B),
            $crate::dtype::Col::U8($a) => $body.map($crate::dtype::Col::U8),
        }
    };
}

impl Col {
    /// A zeroed array of `n` elements. **Collective.**
    pub fn zeros(ctx: &Ctx, dtype: DType, n: usize) -> Result<Col> {
        Self::make(ctx, dtype, n, false)
    }

    /// An array of `n` elements for a command that writes every one of them before anything
    /// reads it ([`DistArray::for_overwrite`]: a reused part is not zeroed first).
    /// **Collective.**
    pub fn for_overwrite(ctx: &Ctx, dtype: DType, n: usize) -> Result<Col> {
        Self::make(ctx, dtype, n, true)
    }

    fn make(ctx: &Ctx, dtype: DType, n: usize, overwrite: bool) -> Result<Col> {
        fn one<T: Stored>(ctx: &Ctx, d: Block<1>, overwrite: bool) -> Result<Col> {
            let a = if overwrite {
                DistArray::<T, 1>::for_overwrite(ctx, d)?
            } else {
                DistArray::<T, 1>::zeros_lazy(ctx, d)?
            };
            Ok(T::into_col(a))
        }
        let d = dist::block(ctx, [n])?;
        crate::with_dtype!(dtype, T => one::<T>(ctx, d, overwrite))
    }

    /// The dtype.
    pub fn dtype(&self) -> DType {
        match self {
            Col::I(_) => DType::I64,
            Col::U(_) => DType::U64,
            Col::F(_) => DType::F64,
            Col::B(_) => DType::Bool,
            Col::U8(_) => DType::U8,
        }
    }

    /// The length.
    pub fn len(&self) -> usize {
        crate::with_col!(self, a => a.len())
    }

    /// Whether the column has no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Frees the storage. **Collective.**
    pub fn free(self) -> Result<()> {
        crate::with_col!(self, a => a.free())
    }
}

impl<T: Stored> From<DistArray<T, 1>> for Col {
    fn from(a: DistArray<T, 1>) -> Col {
        T::into_col(a)
    }
}

#[cfg(test)]
mod tests {
    use super::{CType, DType};

    #[test]
    fn names_and_c_codes_round_trip() {
        for d in DType::ALL {
            assert_eq!(DType::parse(d.name()), Some(d));
            if let Some(c) = d.c_type() {
                assert_eq!(c.dtype(), Some(d));
                assert_eq!(c.size(), d.size());
            }
        }
        for c in CType::ALL {
            assert_eq!(CType::from_code(c.code()), Some(c));
        }
        assert_eq!(DType::parse("int32"), None);
        assert_eq!(CType::I8.dtype(), None);
        assert_eq!(CType::from_code(0), None);
        assert_eq!([DType::I64.size(), DType::U8.size(), DType::Bool.size()], [8, 1, 1]);
    }
}
