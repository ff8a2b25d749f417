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
    /// Lists of `i64` (a Parquet LIST column), as [`Column::List`].
    ListI64,
    /// Lists of `u64`.
    ListU64,
    /// Lists of `f64`.
    ListF64,
    /// Lists of `bool`.
    ListBool,
    /// Lists of UTF-8 strings.
    ListStr,
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
            IoDType::ListI64 => "list[int64]",
            IoDType::ListU64 => "list[uint64]",
            IoDType::ListF64 => "list[float64]",
            IoDType::ListBool => "list[bool]",
            IoDType::ListStr => "list[str]",
        }
    }

    /// True for the list dtypes.
    pub fn is_list(self) -> bool {
        self.elem() != self
    }

    /// The dtype of a list's elements (the dtype itself when it is not a list).
    pub fn elem(self) -> IoDType {
        match self {
            IoDType::ListI64 => IoDType::I64,
            IoDType::ListU64 => IoDType::U64,
            IoDType::ListF64 => IoDType::F64,
            IoDType::ListBool => IoDType::Bool,
            IoDType::ListStr => IoDType::Str,
            t => t,
        }
    }

    /// The list dtype of elements of `self` (itself when it is a list already).
    pub fn list_of(self) -> IoDType {
        match self {
            IoDType::I64 => IoDType::ListI64,
            IoDType::U64 => IoDType::ListU64,
            IoDType::F64 => IoDType::ListF64,
            IoDType::Bool => IoDType::ListBool,
            IoDType::Str => IoDType::ListStr,
            t => t,
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
    /// A list column (Arkouda's SegArray): row `i` is `values[segments[i]..segments[i + 1]]`
    /// (the last row ends at `values.len()`); `segments` is Block-distributed like the other
    /// columns, `values` (a numeric or string column) by its own Block distribution.
    List {
        segments: DistArray<i64, 1>,
        values: Box<Column>,
    },
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
            Column::List { values, .. } => values.dtype().list_of(),
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
            Column::List { segments, values } => ColumnRef::List { segments, values: values.values_ref() },
        }
    }

    /// The borrowed values of a list column (`self` must not be a list).
    fn values_ref(&self) -> ValuesRef<'_> {
        match self {
            Column::I64(a) => ValuesRef::I64(a),
            Column::U64(a) => ValuesRef::U64(a),
            Column::F64(a) => ValuesRef::F64(a),
            Column::Bool(a) => ValuesRef::Bool(a),
            Column::Str(s) => ValuesRef::Str(s),
            Column::U8(a) => ValuesRef::U8(a),
            // Lists of lists are not built by the reader.
            Column::List { values, .. } => values.values_ref(),
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
            Column::List { segments, values } => {
                segments.free()?;
                values.free()
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
    /// A list column: see [`Column::List`].
    List {
        segments: &'a DistArray<i64, 1>,
        values: ValuesRef<'a>,
    },
}

/// The borrowed values of a list column.
#[allow(missing_docs)]
#[derive(Clone, Copy)]
pub enum ValuesRef<'a> {
    I64(&'a DistArray<i64, 1>),
    U64(&'a DistArray<u64, 1>),
    F64(&'a DistArray<f64, 1>),
    Bool(&'a DistArray<bool, 1>),
    Str(&'a DistStrings),
    /// Written widened to `u64` (as Parquet's readers widen 8-bit integers).
    U8(&'a DistArray<u8, 1>),
}

impl ValuesRef<'_> {
    /// The dtype of the values.
    pub fn dtype(&self) -> IoDType {
        match self {
            ValuesRef::I64(_) => IoDType::I64,
            ValuesRef::U64(_) => IoDType::U64,
            ValuesRef::F64(_) => IoDType::F64,
            ValuesRef::Bool(_) => IoDType::Bool,
            ValuesRef::Str(_) => IoDType::Str,
            ValuesRef::U8(_) => IoDType::U64, // written widened
        }
    }

    /// The number of values.
    pub fn len(&self) -> usize {
        match self {
            ValuesRef::I64(a) => a.len(),
            ValuesRef::U64(a) => a.len(),
            ValuesRef::F64(a) => a.len(),
            ValuesRef::Bool(a) => a.len(),
            ValuesRef::Str(s) => s.len(),
            ValuesRef::U8(a) => a.len(),
        }
    }

    /// True when there are no values.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
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
            ColumnRef::List { values, .. } => values.dtype().list_of(),
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
            ColumnRef::List { segments, .. } => segments.len(),
        }
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
