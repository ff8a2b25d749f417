//! Writing columns to Parquet, one file per locale (Arkouda's layout).

use crate::column::{Col, ColumnRef, DType, ValuesRef};
use crate::list::{local_rows, LocalList, LocalVals};
use crate::meta::file_err;
use crate::names::locale_filename;
use atoll_error::{invalid_arg, Error, FileErrorKind, Result};
use atoll_runtime::Ctx;
use atoll_strings::LocalStrings;
use parquet::basic::{LogicalType, Repetition, Type as PhysicalType};
use parquet::data_type::{BoolType, ByteArray, ByteArrayType, DataType, DoubleType, Int32Type, Int64Type};
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::file::writer::{SerializedFileWriter, SerializedRowGroupWriter};
use parquet::schema::types::Type;
use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Rows per row group of the files written by default (readers split work by row group).
pub const DEFAULT_ROW_GROUP: usize = 1 << 20;
/// Values handed to the encoder per call.
const BATCH: usize = 1 << 16;

/// The codec of the files written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Compression {
    /// No compression (Arkouda's default).
    #[default]
    None,
    /// Snappy (pandas' default).
    Snappy,
    /// Zstandard at its default level (polars' default).
    Zstd,
    /// Gzip at its default level.
    Gzip,
    /// Brotli at its default level.
    Brotli,
    /// LZ4 (the raw LZ4 codec of the Parquet format).
    Lz4,
}

impl Compression {
    /// The codec named `name` (`None`/"none"/"uncompressed", "snappy", "zstd", "gzip",
    /// "brotli", "lz4"), as Arkouda's `compression` argument names them.
    pub fn parse(name: Option<&str>) -> Result<Compression> {
        match name.map(|s| s.to_ascii_lowercase()).as_deref() {
            None | Some("none") | Some("uncompressed") => Ok(Compression::None),
            Some("snappy") => Ok(Compression::Snappy),
            Some("zstd") => Ok(Compression::Zstd),
            Some("gzip") => Ok(Compression::Gzip),
            Some("brotli") => Ok(Compression::Brotli),
            Some("lz4") => Ok(Compression::Lz4),
            Some(other) => Err(invalid_arg!(
                "compression {other:?} is not supported (None, 'snappy', 'zstd', 'gzip', 'brotli' or 'lz4')"
            )),
        }
    }
}

/// Options of [`write_parquet`].
#[derive(Debug, Clone, Copy)]
pub struct WriteOptions {
    /// The codec.
    pub compression: Compression,
    /// Rows per row group (at least 1; [`DEFAULT_ROW_GROUP`] by default).
    pub row_group_size: usize,
}

impl Default for WriteOptions {
    fn default() -> Self {
        WriteOptions { compression: Compression::None, row_group_size: DEFAULT_ROW_GROUP }
    }
}

/// Writes the columns (same length, distinct non-empty names) to one Parquet file per locale,
/// [`locale_filename`]`(prefix, locale)`, each holding that locale's rows of every column
/// (REQUIRED columns: int64, uint64 as INT64 `UINT_64`, float64 as DOUBLE, bool as BOOLEAN,
/// strings ([`ColumnRef::Str`]) as BYTE_ARRAY `String`, list columns ([`ColumnRef::List`]) as
/// REQUIRED LIST groups of REQUIRED elements, each locale's file holding the lists of its rows; row
/// groups of [`WriteOptions::row_group_size`] rows; no dictionary). Reading the files in locale order gives the columns
/// back. Existing files of those names are replaced, and the files of the same prefix for
/// locales beyond the locale count (from an earlier write with more locales) are removed, so
/// the prefix then names exactly the new dataset. Returns this locale's file name.
///
/// Each locale writes to a temporary name, and the files are renamed into place only when
/// every locale succeeded: a failed write leaves the files that were there before.
///
/// **Collective.**
///
/// # Errors
/// On every locale: `InvalidArgument` for no columns, a bad name or lengths that differ;
/// [`Error::File`] ([`FileErrorKind::Io`]) when a file cannot be written (a missing directory,
/// permissions, a full disk).
pub fn write_parquet(
    ctx: &Ctx,
    prefix: impl AsRef<Path>,
    columns: &[(&str, ColumnRef<'_>)],
    opts: &WriteOptions,
) -> Result<PathBuf> {
    if columns.is_empty() {
        return Err(invalid_arg!("write_parquet: no columns to write"));
    }
    if opts.row_group_size == 0 {
        return Err(invalid_arg!("write_parquet: row_group_size must be at least 1"));
    }
    for (i, (name, c)) in columns.iter().enumerate() {
        if name.is_empty() {
            return Err(invalid_arg!("write_parquet: a dataset name is empty"));
        }
        if columns[..i].iter().any(|(n, _)| n == name) {
            return Err(invalid_arg!("write_parquet: dataset {name:?} is named twice"));
        }
        if c.len() != columns[0].1.len() {
            return Err(Error::ShapeMismatch {
                context: "write_parquet (every column has the same length)".into(),
                left: format!("{} ({})", columns[0].0, columns[0].1.len()),
                right: format!("{name} ({})", c.len()),
            });
        }
    }
    // Each list column's rows of this locale, with their values fetched (collective).
    let mut lists: Vec<Option<LocalList>> = Vec::with_capacity(columns.len());
    for (_, c) in columns {
        lists.push(match c {
            ColumnRef::List { segments, values } => Some(local_rows(ctx, segments, *values)?),
            _ => None,
        });
    }
    let path = locale_filename(prefix.as_ref(), ctx.id());
    let mut tmp = path.clone().into_os_string();
    tmp.push(".atoll-tmp");
    let tmp = PathBuf::from(tmp);
    let written = write_file(&tmp, columns, &lists, opts);
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    if let Err(e) = ctx.agree(written) {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    let renamed = std::fs::rename(&tmp, &path).map_err(|e| file_err(FileErrorKind::Io, &path, e.to_string()));
    if renamed.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    ctx.agree(renamed)?;
    // The dataset is exactly the new files: those of more locales, from an earlier write of the
    // same prefix, go (each locale removes what it sees; another may have removed it first).
    let stale = crate::names::stale_locale_files(prefix.as_ref(), ctx.num_locales()).and_then(|v| {
        v.iter().try_for_each(|p| match std::fs::remove_file(p) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
            _ => Ok(()),
        })
    });
    ctx.agree(
        stale.map_err(|e| file_err(FileErrorKind::Io, &path, format!("removing an earlier write's files: {e}"))),
    )?;
    Ok(path)
}

fn io_err(path: &Path) -> impl Fn(parquet::errors::ParquetError) -> Error + '_ {
    move |e| file_err(FileErrorKind::Io, path, e.to_string())
}

/// The Parquet type of a numeric column of dtype `d` (`uint8` as INT32 `UINT_8`).
fn num_type(name: &str, d: DType) -> parquet::schema::types::PrimitiveTypeBuilder<'_> {
    match d {
        DType::I64 => Type::primitive_type_builder(name, PhysicalType::INT64)
            .with_logical_type(Some(LogicalType::integer(64, true))),
        DType::U64 => Type::primitive_type_builder(name, PhysicalType::INT64)
            .with_logical_type(Some(LogicalType::integer(64, false))),
        DType::F64 => Type::primitive_type_builder(name, PhysicalType::DOUBLE),
        DType::Bool => Type::primitive_type_builder(name, PhysicalType::BOOLEAN),
        DType::U8 => Type::primitive_type_builder(name, PhysicalType::INT32)
            .with_logical_type(Some(LogicalType::integer(8, false))),
    }
}

/// The Parquet schema of the columns.
fn schema(columns: &[(&str, ColumnRef<'_>)]) -> parquet::errors::Result<Type> {
    let mut fields = Vec::with_capacity(columns.len());
    for (name, c) in columns {
        let b = match c {
            ColumnRef::Num(c) => num_type(name, c.dtype()),
            ColumnRef::Str(_) => Type::primitive_type_builder(name, PhysicalType::BYTE_ARRAY)
                .with_logical_type(Some(LogicalType::String)),
            ColumnRef::List { values, .. } => {
                let elem = match values {
                    // uint8 values are written widened to uint64 (the reader's rule for them).
                    ValuesRef::Num(c) if c.dtype() == DType::U8 => num_type("element", DType::U64),
                    ValuesRef::Num(c) => num_type("element", c.dtype()),
                    ValuesRef::Str(_) => Type::primitive_type_builder("element", PhysicalType::BYTE_ARRAY)
                        .with_logical_type(Some(LogicalType::String)),
                };
                let elem = elem.with_repetition(Repetition::REQUIRED).build()?;
                let list = Type::group_type_builder("list")
                    .with_repetition(Repetition::REPEATED)
                    .with_fields(vec![Arc::new(elem)])
                    .build()?;
                let outer = Type::group_type_builder(name)
                    .with_repetition(Repetition::REQUIRED)
                    .with_logical_type(Some(LogicalType::List))
                    .with_fields(vec![Arc::new(list)])
                    .build()?;
                fields.push(Arc::new(outer));
                continue;
            }
        };
        fields.push(Arc::new(b.with_repetition(Repetition::REQUIRED).build()?));
    }
    Type::group_type_builder("schema").with_fields(fields).build()
}

/// Writes this locale's parts of `columns` to `path`. **One-sided.**
fn write_file(
    path: &Path,
    columns: &[(&str, ColumnRef<'_>)],
    lists: &[Option<LocalList>],
    opts: &WriteOptions,
) -> Result<()> {
    let e = io_err(path);
    let codec = match opts.compression {
        Compression::None => parquet::basic::Compression::UNCOMPRESSED,
        Compression::Snappy => parquet::basic::Compression::SNAPPY,
        Compression::Zstd => parquet::basic::Compression::ZSTD(Default::default()),
        Compression::Gzip => parquet::basic::Compression::GZIP(Default::default()),
        Compression::Brotli => parquet::basic::Compression::BROTLI(Default::default()),
        Compression::Lz4 => parquet::basic::Compression::LZ4_RAW,
    };
    let props = WriterProperties::builder()
        .set_compression(codec)
        .set_dictionary_enabled(false)
        .set_statistics_enabled(EnabledStatistics::Chunk)
        .set_max_row_group_row_count(Some(opts.row_group_size))
        .set_created_by("atoll-io (parquet-rs)".into())
        .build();
    let file = File::create(path).map_err(|err| file_err(FileErrorKind::Io, path, err.to_string()))?;
    let mut w = SerializedFileWriter::new(
        BufWriter::with_capacity(1 << 20, file),
        Arc::new(schema(columns).map_err(&e)?),
        Arc::new(props),
    )
    .map_err(&e)?;
    let n = match columns[0].1 {
        ColumnRef::Num(c) => atoll_array::with_col!(c, a => a.local().len()),
        ColumnRef::Str(s) => s.local().len(),
        ColumnRef::List { segments, .. } => segments.local().len(),
    };
    // Each list column's first value of each row group.
    let mut list_at: Vec<usize> = vec![0; columns.len()];
    let mut start = 0;
    while start < n {
        let end = (start + opts.row_group_size).min(n);
        let mut rg = w.next_row_group().map_err(&e)?;
        for (k, (_, c)) in columns.iter().enumerate() {
            match c {
                ColumnRef::Num(Col::I(a)) => put::<Int64Type, _>(&mut rg, &a.local()[start..end], |v| *v, &e)?,
                ColumnRef::Num(Col::U(a)) => put::<Int64Type, _>(&mut rg, &a.local()[start..end], |v| *v as i64, &e)?,
                ColumnRef::Num(Col::F(a)) => put::<DoubleType, _>(&mut rg, &a.local()[start..end], |v| *v, &e)?,
                ColumnRef::Num(Col::B(a)) => put::<BoolType, _>(&mut rg, &a.local()[start..end], |v| *v, &e)?,
                ColumnRef::Num(Col::U8(a)) => put::<Int32Type, _>(&mut rg, &a.local()[start..end], |v| *v as i32, &e)?,
                ColumnRef::Str(s) => put_strings(&mut rg, s.local(), start..end, &e)?,
                ColumnRef::List { .. } => {
                    let l = lists[k]
                        .as_ref()
                        .ok_or_else(|| invalid_arg!("write_parquet: a list column's rows are missing"))?;
                    list_at[k] = put_list(&mut rg, l, start..end, list_at[k], &e)?;
                }
            }
        }
        rg.close().map_err(&e)?;
        start = end;
    }
    let buf = w.into_inner().map_err(&e)?;
    // Flushed to the OS, not synced to disk (as pyarrow, pandas and polars do).
    buf.into_inner().map_err(|err| file_err(FileErrorKind::Io, path, err.to_string()))?;
    Ok(())
}

/// Writes the next column of the row group from `vals` (converted with `conv`).
fn put<T: DataType, V>(
    rg: &mut SerializedRowGroupWriter<'_, BufWriter<File>>,
    vals: &[V],
    conv: impl Fn(&V) -> T::T,
    e: &impl Fn(parquet::errors::ParquetError) -> Error,
) -> Result<()> {
    let mut col = rg
        .next_column()
        .map_err(e)?
        .ok_or_else(|| invalid_arg!("write_parquet: the schema has fewer columns than the data"))?;
    let mut buf: Vec<T::T> = Vec::with_capacity(BATCH.min(vals.len()));
    for chunk in vals.chunks(BATCH) {
        buf.clear();
        buf.extend(chunk.iter().map(&conv));
        col.typed::<T>().write_batch(&buf, None, None).map_err(e)?;
    }
    col.close().map_err(e)?;
    Ok(())
}

/// Writes the rows `rows` of the list column `l` (whose values start at `first`) as the next
/// column of the row group; returns the first value of the next rows.
fn put_list(
    rg: &mut SerializedRowGroupWriter<'_, BufWriter<File>>,
    l: &LocalList,
    rows: std::ops::Range<usize>,
    first: usize,
    e: &impl Fn(parquet::errors::ParquetError) -> Error,
) -> Result<usize> {
    let mut col = rg
        .next_column()
        .map_err(e)?
        .ok_or_else(|| invalid_arg!("write_parquet: the schema has fewer columns than the data"))?;
    let mut defs: Vec<i16> = Vec::new();
    let mut reps: Vec<i16> = Vec::new();
    let mut at = first;
    let mut i = rows.start;
    while i < rows.end {
        let j = (i + BATCH).min(rows.end);
        defs.clear();
        reps.clear();
        let lo = at;
        for &n in &l.lens[i..j] {
            if n == 0 {
                // An empty list: one level, no value.
                defs.push(0);
                reps.push(0);
            } else {
                defs.extend(std::iter::repeat_n(1, n as usize));
                reps.push(0);
                reps.extend(std::iter::repeat_n(1, n as usize - 1));
            }
            at += n as usize;
        }
        let (d, r) = (Some(&defs[..]), Some(&reps[..]));
        match &l.vals {
            LocalVals::I(v) => col.typed::<Int64Type>().write_batch(&v[lo..at], d, r),
            LocalVals::U(v) => {
                let b: Vec<i64> = v[lo..at].iter().map(|&x| x as i64).collect();
                col.typed::<Int64Type>().write_batch(&b, d, r)
            }
            LocalVals::F(v) => col.typed::<DoubleType>().write_batch(&v[lo..at], d, r),
            LocalVals::B(v) => col.typed::<BoolType>().write_batch(&v[lo..at], d, r),
            LocalVals::S(s) => {
                let b: Vec<ByteArray> = (lo..at).map(|k| ByteArray::from(s.get(k).to_vec())).collect();
                col.typed::<ByteArrayType>().write_batch(&b, d, r)
            }
        }
        .map_err(e)?;
        i = j;
    }
    col.close().map_err(e)?;
    Ok(at)
}

/// Writes the strings `rows` of `local` as the next column of the row group: one copy of their
/// bytes, each value a slice of it.
fn put_strings(
    rg: &mut SerializedRowGroupWriter<'_, BufWriter<File>>,
    local: &LocalStrings,
    rows: std::ops::Range<usize>,
    e: &impl Fn(parquet::errors::ParquetError) -> Error,
) -> Result<()> {
    let mut col = rg
        .next_column()
        .map_err(e)?
        .ok_or_else(|| invalid_arg!("write_parquet: the schema has fewer columns than the data"))?;
    let off = local.offsets();
    let base = off[rows.start] as usize;
    let bytes = bytes::Bytes::copy_from_slice(&local.bytes()[base..off[rows.end] as usize]);
    let mut buf: Vec<ByteArray> = Vec::with_capacity(BATCH.min(rows.len()));
    let mut i = rows.start;
    while i < rows.end {
        let j = (i + BATCH).min(rows.end);
        buf.clear();
        buf.extend((i..j).map(|k| ByteArray::from(bytes.slice(off[k] as usize - base..off[k + 1] as usize - base))));
        col.typed::<ByteArrayType>().write_batch(&buf, None, None).map_err(e)?;
        i = j;
    }
    col.close().map_err(e)?;
    Ok(())
}
