//! The columns that IO reads and writes: the numeric column of `atoll-array` ([`Col`], a 1-D
//! Block array of one of the stored dtypes), strings, and lists of either.

pub use atoll_array::dtype::{Col, DType};
use atoll_array::{DistArray, Stored};
use atoll_error::Result;
use atoll_strings::DistStrings;
use serde::{Deserialize, Serialize};

/// The dtypes of columns: a stored numeric [`DType`], strings, or lists of either.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum IoDType {
    /// A numeric column ([`Column::Num`]): Parquet INT64 reads as `int64` (signed INT32/16/8
    /// widened), INT64 `UINT_64` as `uint64` (unsigned 32/16/8 widened), DOUBLE as `float64`
    /// (FLOAT widened), BOOLEAN as `bool`; `uint8` (HDF5 8-bit unsigned integers) is written
    /// to Parquet as INT32 `UINT_8`, which Parquet reads widen to `uint64` as the other narrow
    /// integers.
    Num(DType),
    /// UTF-8 strings (Parquet BYTE_ARRAY annotated `String`/`UTF8`), as [`DistStrings`].
    Str,
    /// Lists of a numeric dtype (a Parquet LIST column), as [`Column::List`].
    ListNum(DType),
    /// Lists of UTF-8 strings.
    ListStr,
}

impl IoDType {
    /// NumPy's name of the dtype (`list[...]` for the lists).
    pub fn name(self) -> String {
        match self {
            IoDType::Num(d) => d.name().to_string(),
            IoDType::Str => "str".to_string(),
            IoDType::ListNum(d) => format!("list[{}]", d.name()),
            IoDType::ListStr => "list[str]".to_string(),
        }
    }

    /// True for the list dtypes.
    pub fn is_list(self) -> bool {
        self.elem() != self
    }

    /// The dtype of a list's elements (the dtype itself when it is not a list).
    pub fn elem(self) -> IoDType {
        match self {
            IoDType::ListNum(d) => IoDType::Num(d),
            IoDType::ListStr => IoDType::Str,
            t => t,
        }
    }

    /// The list dtype of elements of `self` (itself when it is a list already).
    pub fn list_of(self) -> IoDType {
        match self {
            IoDType::Num(d) => IoDType::ListNum(d),
            IoDType::Str => IoDType::ListStr,
            t => t,
        }
    }
}

#[allow(clippy::large_enum_variant)] // a handful of columns per read: no box needed
/// A column read from files: a 1-D Block array of one of the dtypes, Block-distributed
/// strings, or a list column.
pub enum Column {
    /// A numeric column.
    Num(Col),
    /// Strings.
    Str(DistStrings),
    /// A list column (Arkouda's SegArray): row `i` is `values[segments[i]..segments[i + 1]]`
    /// (the last row ends at `values.len()`); `segments` is Block-distributed like the other
    /// columns, `values` (a numeric or string column) by its own Block distribution.
    List {
        /// The first value of each row.
        segments: DistArray<i64, 1>,
        /// The values of every row, one after the other.
        values: Box<Column>,
    },
}

impl Column {
    /// The dtype.
    pub fn dtype(&self) -> IoDType {
        self.as_ref().dtype()
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
            Column::Num(c) => ColumnRef::Num(c),
            Column::Str(s) => ColumnRef::Str(s),
            Column::List { segments, values } => ColumnRef::List { segments, values: values.values_ref() },
        }
    }

    /// The borrowed values of a list column (`self` must not be a list).
    fn values_ref(&self) -> ValuesRef<'_> {
        match self {
            Column::Num(c) => ValuesRef::Num(c),
            Column::Str(s) => ValuesRef::Str(s),
            // Lists of lists are not built by the reader.
            Column::List { values, .. } => values.values_ref(),
        }
    }

    /// Frees the storage. **Collective.**
    pub fn free(self) -> Result<()> {
        match self {
            Column::Num(c) => c.free(),
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

impl<T: Stored> From<DistArray<T, 1>> for Column {
    fn from(a: DistArray<T, 1>) -> Column {
        Column::Num(T::into_col(a))
    }
}

/// A borrowed column to write.
#[derive(Clone, Copy)]
pub enum ColumnRef<'a> {
    /// A numeric column.
    Num(&'a Col),
    /// Strings.
    Str(&'a DistStrings),
    /// A list column: see [`Column::List`].
    List {
        /// The first value of each row.
        segments: &'a DistArray<i64, 1>,
        /// The values.
        values: ValuesRef<'a>,
    },
}

/// The borrowed values of a list column.
#[derive(Clone, Copy)]
pub enum ValuesRef<'a> {
    /// Numeric values (`uint8` ones are written widened to `uint64`, as Parquet's readers
    /// widen 8-bit integers).
    Num(&'a Col),
    /// Strings.
    Str(&'a DistStrings),
}

impl ValuesRef<'_> {
    /// The dtype of the values as written.
    pub fn dtype(&self) -> IoDType {
        match self {
            ValuesRef::Num(c) if c.dtype() == DType::U8 => IoDType::Num(DType::U64), // written widened
            ValuesRef::Num(c) => IoDType::Num(c.dtype()),
            ValuesRef::Str(_) => IoDType::Str,
        }
    }

    /// The number of values.
    pub fn len(&self) -> usize {
        match self {
            ValuesRef::Num(c) => c.len(),
            ValuesRef::Str(s) => s.len(),
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
            ColumnRef::Num(c) => IoDType::Num(c.dtype()),
            ColumnRef::Str(_) => IoDType::Str,
            ColumnRef::List { values, .. } => values.dtype().list_of(),
        }
    }

    /// The length.
    pub fn len(&self) -> usize {
        match self {
            ColumnRef::Num(c) => c.len(),
            ColumnRef::Str(s) => s.len(),
            ColumnRef::List { segments, .. } => segments.len(),
        }
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
