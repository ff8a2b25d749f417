//! Element types of shared arrays: the C ABI's types ([`CType`], `atoll-array`'s table of
//! their codes in the metadata file and `include/atoll.h`) and the Rust types that hold them.

pub use atoll_array::dtype::CType;
use atoll_array::Elem;

/// An element type that shared arrays hold: the numeric [`Elem`]s (every bit pattern valid,
/// so bytes written by another process are always a value).
pub trait ShareElem: Elem + atoll_runtime::Pod {
    /// Its C element type.
    const CTYPE: CType;
}

macro_rules! share_elem {
    ($($t:ty => $d:ident),*) => {$(impl ShareElem for $t { const CTYPE: CType = CType::$d; })*};
}
share_elem!(i8 => I8, i16 => I16, i32 => I32, i64 => I64, u8 => U8, u16 => U16, u32 => U32, u64 => U64, f32 => F32, f64 => F64);
