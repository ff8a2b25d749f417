//! Parquet footers: which row groups a file has, and how its columns map to Atoll's dtypes.

use crate::column::{DType, IoDType};
use crate::posfile::PosFile;
use atoll_error::{Error, FileErrorKind, Result};
use parquet::basic::Repetition;
use parquet::basic::{ConvertedType, LogicalType, Type as PhysicalType};
use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::schema::types::{ColumnDescriptor, Type};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// A file error of `kind`.
pub(crate) fn file_err(kind: FileErrorKind, path: &Path, message: impl Into<String>) -> Error {
    Error::File { kind, path: path.display().to_string(), message: message.into() }
}

/// Runs `f`, turning a panic inside the `parquet` crate (which a corrupt file may cause) into
/// a [`FileErrorKind::Corrupt`] error.
pub(crate) fn guarded<T>(path: &Path, f: impl FnOnce() -> Result<T>) -> Result<T> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(p) => {
            let msg = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "the decoder failed".into());
            Err(file_err(FileErrorKind::Corrupt, path, msg))
        }
    }
}

/// A Parquet error met while decoding `path`.
pub(crate) fn corrupt(path: &Path, e: parquet::errors::ParquetError) -> Error {
    file_err(FileErrorKind::Corrupt, path, e.to_string())
}

/// Opens a Parquet file and parses its footer.
pub(crate) fn open(path: &Path) -> Result<SerializedFileReader<PosFile>> {
    let file = std::fs::File::open(path).map_err(|e| {
        let kind = if e.kind() == std::io::ErrorKind::NotFound { FileErrorKind::NotFound } else { FileErrorKind::Io };
        file_err(kind, path, e.to_string())
    })?;
    if file.metadata().map(|m| m.is_dir()).unwrap_or(false) {
        return Err(file_err(FileErrorKind::Io, path, "is a directory"));
    }
    let pf = PosFile::new(file).map_err(|e| file_err(FileErrorKind::Io, path, e.to_string()))?;
    guarded(path, || SerializedFileReader::new(pf).map_err(|e| corrupt(path, e)))
}

/// How a column's values are stored: the physical type to decode and the dtype they become.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum Source {
    Bool,
    I32,
    U32,
    I64,
    U64,
    F32,
    F64,
    /// BYTE_ARRAY annotated as UTF-8 text (`String`/`UTF8`, also `Enum`/`JSON`).
    Utf8,
    /// A decimal of this scale stored as INT32, read as float64.
    DecI32(i32),
    /// A decimal of this scale stored as INT64, read as float64.
    DecI64(i32),
    /// A decimal of this scale stored as big-endian two's complement bytes (FIXED_LEN_BYTE_ARRAY
    /// or BYTE_ARRAY, at most 16 bytes), read as float64.
    DecBytes(i32),
}

impl Source {
    pub(crate) fn dtype(self) -> IoDType {
        match self {
            Source::Bool => IoDType::Num(DType::Bool),
            Source::I32 | Source::I64 => IoDType::Num(DType::I64),
            Source::U32 | Source::U64 => IoDType::Num(DType::U64),
            Source::F32 | Source::F64 | Source::DecI32(_) | Source::DecI64(_) | Source::DecBytes(_) => {
                IoDType::Num(DType::F64)
            }
            Source::Utf8 => IoDType::Str,
        }
    }
}

/// The definition level of the repeated field on the path `parts` of `root`: a leaf whose
/// definition level is below it belongs to an empty (or null) list. An error when no field on
/// the path is repeated, or when the repeated field holds more than one leaf (a list of
/// structs, a map).
fn repeated_def_level(root: &Type, parts: &[String]) -> std::result::Result<i16, String> {
    let mut t = root;
    let mut def = 0;
    let mut repeated = None;
    for p in parts {
        if !t.is_group() {
            break;
        }
        if repeated.is_some() && t.get_fields().len() != 1 {
            return Err("a list of structs or a map".into());
        }
        let Some(f) = t.get_fields().iter().find(|f| f.name() == p) else { break };
        t = f;
        let info = t.get_basic_info();
        if info.has_repetition() {
            match info.repetition() {
                Repetition::OPTIONAL => def += 1,
                Repetition::REPEATED => {
                    def += 1;
                    repeated.get_or_insert(def);
                }
                Repetition::REQUIRED => {}
            }
        }
    }
    repeated.ok_or_else(|| "a repeated column of an unknown layout".into())
}

/// The dataset name of a column: its top-level field for a list column (pyarrow's
/// `name.list.element`), else its dotted path.
pub(crate) fn dataset_name(c: &ColumnDescriptor) -> String {
    if c.max_rep_level() > 0 {
        c.path().parts()[0].clone()
    } else {
        c.path().string()
    }
}

/// A column's source and, for a list column (one level of repetition), the definition level
/// of its repeated field; or why it cannot be read.
fn classify(root: &Type, c: &ColumnDescriptor) -> std::result::Result<(Source, Option<i16>), String> {
    let list = match c.max_rep_level() {
        0 => None,
        1 => Some(repeated_def_level(root, c.path().parts())?),
        _ => return Err("a list of lists (nested repetition)".into()),
    };
    let source = classify_leaf(c)?;
    if list.is_some() && matches!(source, Source::DecI32(_) | Source::DecI64(_) | Source::DecBytes(_)) {
        return Err("a list of decimals".into());
    }
    Ok((source, list))
}

/// The source of a leaf's values.
fn classify_leaf(c: &ColumnDescriptor) -> std::result::Result<Source, String> {
    let unsigned = matches!(c.logical_type_ref(), Some(LogicalType::Integer(t)) if !t.is_signed)
        || matches!(
            c.converted_type(),
            ConvertedType::UINT_8 | ConvertedType::UINT_16 | ConvertedType::UINT_32 | ConvertedType::UINT_64
        );
    let decimal = matches!(c.logical_type_ref(), Some(LogicalType::Decimal { .. }))
        || c.converted_type() == ConvertedType::DECIMAL;
    let what = || {
        let l = c.logical_type_ref().map(|l| format!(" ({l:?})")).unwrap_or_default();
        format!("{}{l}", c.physical_type())
    };
    if decimal {
        let scale = c.type_scale();
        return match c.physical_type() {
            PhysicalType::INT32 => Ok(Source::DecI32(scale)),
            PhysicalType::INT64 => Ok(Source::DecI64(scale)),
            PhysicalType::FIXED_LEN_BYTE_ARRAY if c.type_length() <= 16 => Ok(Source::DecBytes(scale)),
            PhysicalType::BYTE_ARRAY if c.type_precision() <= 38 => Ok(Source::DecBytes(scale)),
            _ => Err(format!("{} is a decimal wider than 128 bits", what())),
        };
    }
    let text = matches!(c.logical_type_ref(), Some(LogicalType::String | LogicalType::Enum | LogicalType::Json))
        || matches!(c.converted_type(), ConvertedType::UTF8 | ConvertedType::ENUM | ConvertedType::JSON);
    Ok(match c.physical_type() {
        PhysicalType::BOOLEAN => Source::Bool,
        PhysicalType::INT32 if unsigned => Source::U32,
        PhysicalType::INT32 => Source::I32,
        PhysicalType::INT64 if unsigned => Source::U64,
        PhysicalType::INT64 => Source::I64,
        PhysicalType::FLOAT => Source::F32,
        PhysicalType::DOUBLE => Source::F64,
        PhysicalType::BYTE_ARRAY if text => Source::Utf8,
        PhysicalType::BYTE_ARRAY => return Err(format!("{} (binary, not annotated as UTF-8 text)", what())),
        _ => return Err(what()),
    })
}

/// A dataset (column) of a Parquet file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DatasetInfo {
    /// The column's name (its dotted path for nested schemas).
    pub name: String,
    /// The dtype it reads as, or `None` when it cannot be read (binary, decimals, nested lists).
    pub dtype: Option<IoDType>,
    /// The Parquet type, for messages.
    pub parquet_type: String,
}

/// The datasets (columns) of the Parquet file `path`, in schema order. **One-sided.**
///
/// # Errors
/// [`Error::File`] when the file is missing ([`FileErrorKind::NotFound`]) or not a valid Parquet
/// file ([`FileErrorKind::Corrupt`]).
pub fn parquet_datasets(path: impl AsRef<Path>) -> Result<Vec<DatasetInfo>> {
    let path = path.as_ref();
    let r = open(path)?;
    let schema = r.metadata().file_metadata().schema_descr_ptr();
    let root = schema.root_schema();
    let mut out: Vec<DatasetInfo> = Vec::with_capacity(schema.num_columns());
    for c in schema.columns() {
        let name = dataset_name(c);
        // A list of structs has several leaves under one name: the first one names it.
        if c.max_rep_level() > 0 && out.iter().any(|d| d.name == name) {
            continue;
        }
        let l = c.logical_type_ref().map(|l| format!(" ({l:?})")).unwrap_or_default();
        let kind = classify(root, c).ok();
        let list = if c.max_rep_level() > 0 { "LIST of " } else { "" };
        out.push(DatasetInfo {
            name,
            dtype: kind.map(|(s, lst)| if lst.is_some() { s.dtype().list_of() } else { s.dtype() }),
            parquet_type: format!("{list}{}{l}", c.physical_type()),
        });
    }
    Ok(out)
}

/// What a reader needs of one file: its row groups' row counts and each requested column's
/// leaf index, source and, for a list column, the definition level of its repeated field.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct FileSummary {
    pub(crate) groups: Vec<u64>,
    pub(crate) cols: Vec<(usize, Source, Option<i16>)>,
}

/// The dtype a summarized column reads as.
pub(crate) fn col_dtype(c: &(usize, Source, Option<i16>)) -> IoDType {
    if c.2.is_some() {
        c.1.dtype().list_of()
    } else {
        c.1.dtype()
    }
}

/// The summary of `path` for the columns `names` (all of its columns when `None`, in schema
/// order; they must all be readable then).
pub(crate) fn summarize(path: &Path, names: &[String]) -> Result<FileSummary> {
    let r = open(path)?;
    let md = r.metadata();
    let schema = md.file_metadata().schema_descr_ptr();
    let mut cols = Vec::with_capacity(names.len());
    for name in names {
        let found = schema.columns().iter().position(|c| c.path().string() == *name || dataset_name(c) == *name);
        let Some(leaf) = found else {
            let have: Vec<String> = schema.columns().iter().map(|c| c.path().string()).collect();
            return Err(file_err(
                FileErrorKind::MissingDataset,
                path,
                format!("no dataset {name:?} (the file has {have:?})"),
            ));
        };
        let (source, list) = classify(schema.root_schema(), &schema.columns()[leaf]).map_err(|why| {
            file_err(
                FileErrorKind::WrongType,
                path,
                format!(
                    "Parquet dataset {name:?} is {why}; readable types: int8-64, uint8-64, float32/64, bool, \
                     UTF-8 strings, and lists of them"
                ),
            )
        })?;
        cols.push((leaf, source, list));
    }
    let mut groups = Vec::with_capacity(md.num_row_groups());
    for g in md.row_groups() {
        let n = u64::try_from(g.num_rows())
            .map_err(|_| file_err(FileErrorKind::Corrupt, path, format!("a row group has {} rows", g.num_rows())))?;
        groups.push(n);
    }
    Ok(FileSummary { groups, cols })
}

/// The names of every column of `path` (for a read of all datasets), checking that each can
/// be read.
pub(crate) fn all_names(path: &Path) -> Result<Vec<String>> {
    let infos = parquet_datasets(path)?;
    for i in &infos {
        if i.dtype.is_none() {
            return Err(file_err(
                FileErrorKind::WrongType,
                path,
                format!("dataset {:?} is {}, which cannot be read; name the datasets to read", i.name, i.parquet_type),
            ));
        }
    }
    Ok(infos.into_iter().map(|i| i.name).collect())
}
