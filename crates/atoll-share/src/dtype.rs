//! Element types of shared arrays and their codes in the metadata file (and the C ABI).

use atoll_array::Elem;

/// The element type of a shared array, as the metadata file and `atoll.h` number it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[repr(u32)]
pub enum DType {
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

impl DType {
    /// The type of code `c`, if any.
    pub fn from_code(c: u32) -> Option<DType> {
        use DType::*;
        [I8, I16, I32, I64, U8, U16, U32, U64, F32, F64].into_iter().find(|d| *d as u32 == c)
    }

    /// Bytes per element.
    pub fn size(self) -> usize {
        use DType::*;
        match self {
            I8 | U8 => 1,
            I16 | U16 => 2,
            I32 | U32 | F32 => 4,
            I64 | U64 | F64 => 8,
        }
    }

    /// The Rust name (`f64`).
    pub fn name(self) -> &'static str {
        use DType::*;
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
}

/// An element type that shared arrays hold: the numeric [`Elem`]s (every bit pattern valid,
/// so bytes written by another process are always a value).
pub trait ShareElem: Elem + atoll_runtime::Pod {
    /// Its code.
    const DTYPE: DType;
}

macro_rules! share_elem {
    ($($t:ty => $d:ident),*) => {$(impl ShareElem for $t { const DTYPE: DType = DType::$d; })*};
}
share_elem!(i8 => I8, i16 => I16, i32 => I32, i64 => I64, u8 => U8, u16 => U16, u32 => U32, u64 => U64, f32 => F32, f64 => F64);
