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

    /// The dtype's code in the C ABI of shared arrays (`atoll_dtype` in `include/atoll.h`:
    /// `ATOLL_INT64` 4, `ATOLL_UINT8` 5, `ATOLL_UINT64` 8, `ATOLL_DOUBLE` 10), `None` for
    /// `bool` (C has no one-byte boolean of a fixed representation there).
    pub fn c_code(self) -> Option<u32> {
        match self {
            DType::I64 => Some(4),
            DType::U8 => Some(5),
            DType::U64 => Some(8),
            DType::F64 => Some(10),
            DType::Bool => None,
        }
    }

    /// The dtype of C ABI code `c` ([`DType::c_code`]), if it is one of the stored dtypes.
    pub fn from_c_code(c: u32) -> Option<DType> {
        DType::ALL.into_iter().find(|d| d.c_code() == Some(c))
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
    use super::DType;

    #[test]
    fn names_and_c_codes_round_trip() {
        for d in DType::ALL {
            assert_eq!(DType::parse(d.name()), Some(d));
            if let Some(c) = d.c_code() {
                assert_eq!(DType::from_c_code(c), Some(d));
            }
        }
        assert_eq!(DType::parse("int32"), None);
        assert_eq!(DType::from_c_code(1), None);
        assert_eq!([DType::I64.size(), DType::U8.size(), DType::Bool.size()], [8, 1, 1]);
    }
}
