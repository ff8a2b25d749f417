//! Atoll's file IO: Parquet columns read and written in parallel by every locale.
//!
//! - [`read_parquet`] reads numeric columns (int64, uint64, float64, bool; int8-32 and uint8-32
//!   widened to int64/uint64, float32 to float64) and UTF-8 string columns (into
//!   [`DistStrings`](atoll_strings::DistStrings); a null reads as the empty string, as in
//!   Arkouda), decimals (as float64) and LIST columns of numbers or strings (into
//!   [`Column::List`], Arkouda's SegArray) of one or many files into Block [`DistArray`](atoll_array::DistArray)s. The files' rows, in file order, form one sequence;
//!   each locale decodes the row groups that overlap its Block part, straight into its part
//!   (no communication beyond the metadata), in parallel on its task pool.
//! - [`read_parquet_categorical`] reads string columns as categoricals (codes and sorted
//!   categories), mapping each row through a small table of the distinct values instead of
//!   building the strings of the rows.
//! - [`write_parquet`] writes one file per locale, `<prefix>_LOCALE0000.parquet` as Arkouda names
//!   them ([`locale_filename`]), each holding that locale's rows; pyarrow, pandas and polars
//!   read them.
//!
//! Both are **collective**, and fail the same way on every locale: a missing file, a corrupt or
//! truncated one, a missing dataset or one of an unsupported type is an
//! [`Error::File`](atoll_error::Error::File) (see [`FileErrorKind`]) returned by every locale
//! before anything is allocated (or after freeing what was), so a driver session goes on.
//!
//! The `parquet` crate is used through its column API, without Arrow (compile time); codecs:
//! none, snappy (pandas' and pyarrow's default) and zstd (polars' default).

mod catcol;
mod column;
pub mod hdf5;
mod list;
mod meta;
mod names;
mod posfile;
mod read;
mod strcol;
mod write;

pub use atoll_error::FileErrorKind;
pub use catcol::{read_parquet_categorical, CatColumn};
pub use column::{Col, Column, ColumnRef, DType, IoDType, ValuesRef};
pub use meta::{parquet_datasets, DatasetInfo};
pub use names::locale_filename;
pub use read::read_parquet;
pub use write::{write_parquet, Compression, WriteOptions, DEFAULT_ROW_GROUP};
