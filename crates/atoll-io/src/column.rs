//! The columns that IO reads and writes: 1-D Block arrays of the numeric dtypes, and strings.

use atoll_array::DistArray;
use atoll_error::Result;
use atoll_strings::DistStrings;
use serde::{Deserialize, Serialize};

/// The dtypes of columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum IoDType {
    /// `i64` (Parquet INT64, and signed INT32/16/8 widened).
    I64,
    /// `u64` (Parquet INT64 `UINT_64`, and unsigned 32/16/8 widened).
    U64,
    /// `f64` (Parquet DOUBLE, and FLOAT widened).
    F64,
    /// `bool` (Parquet BOOLEAN).
    Bool,
    /// UTF-8 strings (Parquet BYTE_ARRAY annotated `String`/`UTF8`), as [`DistStrings`].
    Str,
    /// `u8` (HDF5 8-bit unsigned integers; written to Parquet as INT32 `UINT_8`, which
    /// Parquet reads widen to `u64` as the other narrow integers).
    U8,
}

impl IoDType {
    /// NumPy's name of the dtype.
    pub fn name(self) -> &'static str {
        match self {
            IoDType::I64 => "int64",
            IoDType::U64 => "uint64",
            IoDType::F64 => "float64",
            IoDType::Bool => "bool",
            IoDType::Str => "str",
            IoDType::U8 => "uint8",
        }
    }
}

#[allow(clippy::large_enum_variant)] // a handful of columns per read: no box needed
/// A column read from files: a 1-D Block array of one of the dtypes, or Block-distributed
/// strings.
#[allow(missing_docs)]
pub enum Column {
    I64(DistArray<i64, 1>),
    U64(DistArray<u64, 1>),
    F64(DistArray<f64, 1>),
    Bool(DistArray<bool, 1>),
    Str(DistStrings),
    U8(DistArray<u8, 1>),
}

impl Column {
    /// The dtype.
    pub fn dtype(&self) -> IoDType {
        match self {
            Column::I64(_) => IoDType::I64,
            Column::U64(_) => IoDType::U64,
            Column::F64(_) => IoDType::F64,
            Column::Bool(_) => IoDType::Bool,
            Column::Str(_) => IoDType::Str,
            Column::U8(_) => IoDType::U8,
        }
    }

    /// The length.
    pub fn len(&self) -> usize {
        self.as_ref().len()
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// A borrowed view for [`write_parquet`](crate::write_parquet).
    pub fn as_ref(&self) -> ColumnRef<'_> {
        match self {
            Column::I64(a) => ColumnRef::I64(a),
            Column::U64(a) => ColumnRef::U64(a),
            Column::F64(a) => ColumnRef::F64(a),
            Column::Bool(a) => ColumnRef::Bool(a),
            Column::Str(s) => ColumnRef::Str(s),
            Column::U8(a) => ColumnRef::U8(a),
        }
    }

    /// Frees the storage. **Collective.**
    pub fn free(self) -> Result<()> {
        match self {
            Column::I64(a) => a.free(),
            Column::U64(a) => a.free(),
            Column::F64(a) => a.free(),
            Column::Bool(a) => a.free(),
            Column::U8(a) => a.free(),
            // Strings release their budget when dropped (no collective step).
            Column::Str(s) => {
                drop(s);
                Ok(())
            }
        }
    }
}

/// A borrowed column to write.
#[allow(missing_docs)]
#[derive(Clone, Copy)]
pub enum ColumnRef<'a> {
    I64(&'a DistArray<i64, 1>),
    U64(&'a DistArray<u64, 1>),
    F64(&'a DistArray<f64, 1>),
    Bool(&'a DistArray<bool, 1>),
    Str(&'a DistStrings),
    U8(&'a DistArray<u8, 1>),
}

impl ColumnRef<'_> {
    /// The dtype.
    pub fn dtype(&self) -> IoDType {
        match self {
            ColumnRef::I64(_) => IoDType::I64,
            ColumnRef::U64(_) => IoDType::U64,
            ColumnRef::F64(_) => IoDType::F64,
            ColumnRef::Bool(_) => IoDType::Bool,
            ColumnRef::Str(_) => IoDType::Str,
            ColumnRef::U8(_) => IoDType::U8,
        }
    }

    /// The length.
    pub fn len(&self) -> usize {
        match self {
            ColumnRef::I64(a) => a.len(),
            ColumnRef::U64(a) => a.len(),
            ColumnRef::F64(a) => a.len(),
            ColumnRef::Bool(a) => a.len(),
            ColumnRef::Str(s) => s.len(),
            ColumnRef::U8(a) => a.len(),
        }
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
