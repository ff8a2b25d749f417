//! Parquet IO of the session (`ak.read_parquet`, `ak.to_parquet`) over `atoll-io`:
//! every locale reads the rows of its part and writes its own file (one per locale). String
//! columns are `ak.Strings` (kept in the strings' registry, [`crate::commands::strings`]); list columns
//! are SegArrays: an int64 array of segments and an array or strings of values.

use crate::commands::strings::Strs;
use crate::handles::{next_ids, Array, Session};
use crate::registry::{lock, Col, Registry};
use crate::types::DType;
use atoll::runtime::{Ctx, Handler};
use atoll::{Error, Result};
use atoll_io::{Column, ColumnRef, Compression, ValuesRef, WriteOptions};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// What a read registered under an id: an array (dtype, length) or strings (length).
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub enum Got {
    /// An array.
    Array(DType, u64),
    /// Strings.
    Strings(u64),
}

/// Registers the column `c` (not a list) as `id`.
fn register_column(ctx: &Ctx, reg: &Registry, id: u64, c: Column) -> Result<Got> {
    let len = c.len() as u64;
    let col = match c {
        Column::Num(col) => col,
        Column::Str(s) => {
            crate::commands::strings::put(ctx, id, s);
            return Ok(Got::Strings(len));
        }
        Column::List { .. } => return Err(Error::InvalidArgument("internal: a list of lists".into())),
    };
    let dtype = col.dtype();
    reg.insert(id, col);
    Ok(Got::Array(dtype, len))
}

/// Columns `datasets` of Parquet `paths` read into new arrays or strings `ids`.
#[derive(Serialize, Deserialize)]
pub struct ReadParquet {
    /// The files, concatenated.
    pub paths: Vec<String>,
    /// The columns.
    pub datasets: Vec<String>,
    /// The first new id of each column.
    pub ids: Vec<u64>,
}

/// Reads `datasets` of `paths`, registering dataset `k` as `ids[k]` (a list column: its
/// segments as `ids[k]`, its values as `ids[k] + 1`); returns what each became (a list: its
/// segments', then its values').
fn read(ctx: &Ctx, ReadParquet { paths, datasets, ids }: ReadParquet) -> Result<Vec<(Got, Option<Got>)>> {
    let paths: Vec<PathBuf> = paths.into_iter().map(PathBuf::from).collect();
    let cols = atoll_io::read_parquet(ctx, &paths, Some(&datasets))?;
    let reg = Registry::of(ctx);
    let mut out = Vec::with_capacity(cols.len());
    for ((_, c), id) in cols.into_iter().zip(ids) {
        out.push(match c {
            Column::List { segments, values } => {
                let s = register_column(ctx, &reg, id, Column::Num(Col::I(segments)))?;
                (s, Some(register_column(ctx, &reg, id + 1, *values)?))
            }
            c => (register_column(ctx, &reg, id, c)?, None),
        });
    }
    Ok(out)
}

/// String columns `datasets` of Parquet `paths` read as Categoricals (codes and categories as `ids`).
#[derive(Serialize, Deserialize)]
pub struct ReadParquetCategorical {
    /// The files, concatenated.
    pub paths: Vec<String>,
    /// The string columns.
    pub datasets: Vec<String>,
    /// The new ids (codes, categories), two per column.
    pub ids: Vec<u64>,
    /// The category of missing values.
    pub na_value: String,
}

/// Reads the string `datasets` of `paths` as categoricals, registering dataset `k`'s codes
/// as `ids[k]` (int64) and its categories as `ids[k] + 1` (strings); returns each one's
/// (rows, categories).
fn read_cat(
    ctx: &Ctx,
    ReadParquetCategorical { paths, datasets, ids, na_value }: ReadParquetCategorical,
) -> Result<Vec<(u64, u64)>> {
    let paths: Vec<PathBuf> = paths.into_iter().map(PathBuf::from).collect();
    let cols = atoll_io::read_parquet_categorical(ctx, &paths, &datasets, &na_value)?;
    let reg = Registry::of(ctx);
    let mut out = Vec::with_capacity(cols.len());
    for ((_, c), id) in cols.into_iter().zip(ids) {
        let (n, k) = (c.codes.len() as u64, c.categories.len() as u64);
        reg.insert(id, Col::I(c.codes));
        crate::commands::strings::put(ctx, id + 1, c.categories);
        out.push((n, k));
    }
    Ok(out)
}

/// A column to write, by id: an array, strings, or a list (segments' id, values' id, values
/// are strings).
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub enum Put {
    /// An array.
    Array(u64),
    /// Strings.
    Strings(u64),
    /// A list column.
    List(u64, u64, bool),
}

/// Columns `ids` named `names` written to Parquet files `prefix` (one per locale).
#[derive(Serialize, Deserialize)]
pub struct WriteParquet {
    /// The columns.
    pub ids: Vec<Put>,
    /// Their names.
    pub names: Vec<String>,
    /// The files' path prefix.
    pub prefix: String,
    /// The codec, if any.
    pub compression: Option<String>,
}

/// Writes arrays and strings `ids` (`(id, is_strings)`) as datasets `names` to
/// `<prefix>_LOCALE####` files; locale 0's file.
fn write(ctx: &Ctx, WriteParquet { ids, names, prefix, compression }: WriteParquet) -> Result<String> {
    let opts = WriteOptions { compression: Compression::parse(compression.as_deref())?, ..Default::default() };
    let reg = Registry::of(ctx);
    // Each array locked once (an array may be written under two names, or be a SegArray's
    // segments and another column).
    let mut uniq: Vec<u64> = Vec::with_capacity(ids.len());
    let mut str_ids: Vec<u64> = Vec::new();
    for p in &ids {
        match *p {
            Put::Array(id) => uniq.push(id),
            Put::Strings(id) => str_ids.push(id),
            Put::List(s, v, vs) => {
                uniq.push(s);
                if vs {
                    str_ids.push(v)
                } else {
                    uniq.push(v)
                }
            }
        }
    }
    uniq.sort_unstable();
    uniq.dedup();
    let arcs = uniq.iter().map(|&id| reg.get(id)).collect::<Result<Vec<_>>>()?;
    let guards: Vec<_> = arcs.iter().map(|a| lock(a)).collect();
    // Strings are immutable once made: shared, not locked.
    str_ids.sort_unstable();
    str_ids.dedup();
    let strs = str_ids.iter().map(|&id| crate::commands::strings::get(ctx, id)).collect::<Result<Vec<_>>>()?;
    let array = |id: u64| -> Result<&Col> {
        let k = uniq.binary_search(&id).map_err(|_| Error::InvalidArgument("internal: arrays miscounted".into()))?;
        Ok(&*guards[k])
    };
    let string = |id: u64| -> Result<&atoll::strings::DistStrings> {
        let k =
            str_ids.binary_search(&id).map_err(|_| Error::InvalidArgument("internal: strings miscounted".into()))?;
        Ok(&*strs[k])
    };
    let mut cols: Vec<(&str, ColumnRef<'_>)> = Vec::with_capacity(ids.len());
    for (p, name) in ids.iter().zip(&names) {
        let c = match *p {
            Put::Strings(id) => ColumnRef::Str(string(id)?),
            Put::Array(id) => ColumnRef::Num(array(id)?),
            Put::List(s, v, vs) => {
                let Col::I(segments) = array(s)? else {
                    return Err(Error::InvalidArgument("write_parquet: a SegArray's segments must be int64".into()));
                };
                let values = if vs {
                    ValuesRef::Str(string(v)?)
                } else {
                    ValuesRef::Num(array(v)?)
                };
                ColumnRef::List { segments, values }
            }
        };
        cols.push((name.as_str(), c));
    }
    let p = atoll_io::write_parquet(ctx, &prefix, &cols, &opts)?;
    Ok(p.display().to_string())
}

commands! {
    /// Reads Parquet datasets into new arrays.
    pub static READ_PARQUET: Handler<ReadParquet, Vec<(Got, Option<Got>)>> =
        Handler::new("atoll-session::read_parquet", read);

    /// Reads Parquet string datasets as categoricals (codes, categories).
    pub static READ_PARQUET_CATEGORICAL: Handler<ReadParquetCategorical, Vec<(u64, u64)>> =
        Handler::new("atoll-session::read_parquet_categorical", read_cat);

    /// Writes arrays to Parquet files, one per locale.
    pub static WRITE_PARQUET: Handler<WriteParquet, String> =
        Handler::new("atoll-session::write_parquet", write);
}

/// A column read from, or written to, a file: an array, strings, or a list column
/// (Arkouda's SegArray: int64 segments and values).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dataset {
    /// An array.
    Array(Array),
    /// Strings.
    Strings(Strs),
    /// A list column of numbers: segments, values.
    List(Array, Array),
    /// A list column of strings: segments, values.
    ListStrings(Array, Strs),
}

/// Reads `datasets` of the Parquet files `paths` (in order) into new arrays and strings.
/// **Collective.**
pub fn read_parquet(s: &Session, paths: Vec<String>, datasets: Vec<String>) -> Result<Vec<Dataset>> {
    // Two ids per dataset: a list column's values take the second.
    let first = next_ids(2 * datasets.len() as u64);
    let ids: Vec<u64> = (0..datasets.len() as u64).map(|k| first + 2 * k).collect();
    let got = s.exec(&READ_PARQUET, ReadParquet { paths, datasets, ids: ids.clone() })?;
    let g = s.generation();
    let one = |id: u64, got: Got| match got {
        Got::Array(dtype, len) => Dataset::Array(Array { id, dtype, len: len as usize, generation: g }),
        Got::Strings(len) => Dataset::Strings(Strs { id, len: len as usize, generation: g }),
    };
    ids.into_iter()
        .zip(got)
        .map(|(id, (a, b))| match (one(id, a), b.map(|b| one(id + 1, b))) {
            (d, None) => Ok(d),
            (Dataset::Array(s), Some(Dataset::Array(v))) => Ok(Dataset::List(s, v)),
            (Dataset::Array(s), Some(Dataset::Strings(v))) => Ok(Dataset::ListStrings(s, v)),
            _ => Err(Error::InvalidArgument("internal: a list column read wrong".into())),
        })
        .collect()
}

/// Reads the string `datasets` of the Parquet files `paths` (in order) as categoricals: for
/// each, int64 codes (one per row) and the categories (the distinct strings sorted by code
/// point, then `na_value` unless a string equals it; a null's code is `na_value`'s).
/// **Collective.**
pub fn read_parquet_categorical(
    s: &Session,
    paths: Vec<String>,
    datasets: Vec<String>,
    na_value: String,
) -> Result<Vec<(Array, Strs)>> {
    let first = next_ids(2 * datasets.len() as u64);
    let ids: Vec<u64> = (0..datasets.len() as u64).map(|k| first + 2 * k).collect();
    let args = ReadParquetCategorical { paths, datasets, ids: ids.clone(), na_value };
    let got = s.exec(&READ_PARQUET_CATEGORICAL, args)?;
    let g = s.generation();
    Ok(ids
        .into_iter()
        .zip(got)
        .map(|(id, (n, k))| {
            (
                Array { id, dtype: DType::I64, len: n as usize, generation: g },
                Strs { id: id + 1, len: k as usize, generation: g },
            )
        })
        .collect())
}

/// Writes `columns` as datasets `names` to one Parquet file per locale (the files of an
/// earlier write with more locales go); returns locale 0's file name. **Collective.**
pub fn write_parquet(
    s: &Session,
    columns: &[Dataset],
    names: Vec<String>,
    prefix: String,
    compression: Option<String>,
) -> Result<String> {
    if columns.len() != names.len() {
        return Err(Error::InvalidArgument(format!("names: {} names for {} arrays", names.len(), columns.len())));
    }
    let ids: Vec<Put> = columns
        .iter()
        .map(|c| match c {
            Dataset::Array(a) => Put::Array(a.id),
            Dataset::Strings(x) => Put::Strings(x.id),
            Dataset::List(s, v) => Put::List(s.id, v.id, false),
            Dataset::ListStrings(s, v) => Put::List(s.id, v.id, true),
        })
        .collect();
    s.exec(&WRITE_PARQUET, WriteParquet { ids, names, prefix, compression })
}
