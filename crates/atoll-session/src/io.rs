//! Parquet IO of the session (`ak.read_parquet`, `ak.to_parquet`) over `atoll-io`:
//! every locale reads the rows of its part and writes its own file (one per locale). String
//! columns are `ak.Strings` (kept in the strings' registry, [`crate::strings`]).

use crate::handles::{next_ids, Array, Session};
use crate::registry::{lock, Col, Registry};
use crate::strings::Strs;
use crate::types::DType;
use atoll::runtime::{Ctx, Handler};
use atoll::{Error, Result};
use atoll_io::{Column, ColumnRef, Compression, IoDType, WriteOptions};
use std::path::PathBuf;

/// The array dtype of a column; `None` for strings.
fn dtype_of(t: IoDType) -> Option<DType> {
    match t {
        IoDType::I64 => Some(DType::I64),
        IoDType::U64 => Some(DType::U64),
        IoDType::F64 => Some(DType::F64),
        IoDType::Bool => Some(DType::Bool),
        IoDType::U8 => Some(DType::U8),
        IoDType::Str => None,
    }
}

/// Reads `datasets` of `paths`, registering them as `ids`; returns (dtype, length) of each
/// (dtype `None`: strings, registered with the strings).
fn read(ctx: &Ctx, (paths, datasets, ids): (Vec<String>, Vec<String>, Vec<u64>)) -> Result<Vec<(Option<DType>, u64)>> {
    let paths: Vec<PathBuf> = paths.into_iter().map(PathBuf::from).collect();
    let cols = atoll_io::read_parquet(ctx, &paths, Some(&datasets))?;
    let reg = Registry::of(ctx);
    let mut out = Vec::with_capacity(cols.len());
    for ((_, c), id) in cols.into_iter().zip(ids) {
        out.push((dtype_of(c.dtype()), c.len() as u64));
        let col = match c {
            Column::I64(a) => Col::I(a),
            Column::U64(a) => Col::U(a),
            Column::F64(a) => Col::F(a),
            Column::Bool(a) => Col::B(a),
            Column::U8(a) => Col::U8(a),
            Column::Str(s) => {
                crate::strings::put(ctx, id, s);
                continue;
            }
        };
        reg.insert(id, col);
    }
    Ok(out)
}
/// Reads Parquet datasets into new arrays.
pub static READ_PARQUET: Handler<(Vec<String>, Vec<String>, Vec<u64>), Vec<(Option<DType>, u64)>> =
    Handler::new("atoll-session::read_parquet", read);

/// Writes arrays and strings `ids` (`(id, is_strings)`) as datasets `names` to
/// `<prefix>_LOCALE####` files; locale 0's file.
fn write(
    ctx: &Ctx,
    (ids, names, prefix, compression): (Vec<(u64, bool)>, Vec<String>, String, Option<String>),
) -> Result<String> {
    let opts = WriteOptions { compression: Compression::parse(compression.as_deref())?, ..Default::default() };
    let reg = Registry::of(ctx);
    // Each array locked once (an array may be written under two names).
    let mut uniq: Vec<u64> = ids.iter().filter(|c| !c.1).map(|c| c.0).collect();
    uniq.sort_unstable();
    uniq.dedup();
    let arcs = uniq.iter().map(|&id| reg.get(id)).collect::<Result<Vec<_>>>()?;
    let guards: Vec<_> = arcs.iter().map(|a| lock(a)).collect();
    // Strings are immutable once made: shared, not locked.
    let strs = ids.iter().filter(|c| c.1).map(|c| crate::strings::get(ctx, c.0)).collect::<Result<Vec<_>>>()?;
    let mut strs_iter = strs.iter();
    let mut cols: Vec<(&str, ColumnRef<'_>)> = Vec::with_capacity(ids.len());
    for (&(id, is_str), name) in ids.iter().zip(&names) {
        let c = if is_str {
            ColumnRef::Str(
                strs_iter.next().ok_or_else(|| atoll::Error::InvalidArgument("internal: strings miscounted".into()))?,
            )
        } else {
            match &*guards[uniq.binary_search(&id).unwrap_or(0)] {
                Col::I(a) => ColumnRef::I64(a),
                Col::U(a) => ColumnRef::U64(a),
                Col::F(a) => ColumnRef::F64(a),
                Col::B(a) => ColumnRef::Bool(a),
                Col::U8(a) => ColumnRef::U8(a),
            }
        };
        cols.push((name.as_str(), c));
    }
    let p = atoll_io::write_parquet(ctx, &prefix, &cols, &opts)?;
    Ok(p.display().to_string())
}
/// Writes arrays to Parquet files, one per locale.
pub static WRITE_PARQUET: Handler<(Vec<(u64, bool)>, Vec<String>, String, Option<String>), String> =
    Handler::new("atoll-session::write_parquet", write);

/// Registers the IO commands.
pub fn register() {
    READ_PARQUET.register();
    WRITE_PARQUET.register();
}

/// A column read from, or written to, a file: an array or strings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dataset {
    /// An array.
    Array(Array),
    /// Strings.
    Strings(Strs),
}

/// Reads `datasets` of the Parquet files `paths` (in order) into new arrays and strings.
/// **Collective.**
pub fn read_parquet(s: &Session, paths: Vec<String>, datasets: Vec<String>) -> Result<Vec<Dataset>> {
    let first = next_ids(datasets.len() as u64);
    let ids: Vec<u64> = (first..first + datasets.len() as u64).collect();
    let got = s.exec(&READ_PARQUET, (paths, datasets, ids.clone()))?;
    let g = s.generation();
    Ok(ids
        .into_iter()
        .zip(got)
        .map(|(id, (dtype, len))| match dtype {
            Some(dtype) => Dataset::Array(Array { id, dtype, len: len as usize, generation: g }),
            None => Dataset::Strings(Strs { id, len: len as usize, generation: g }),
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
    let ids: Vec<(u64, bool)> = columns
        .iter()
        .map(|c| match c {
            Dataset::Array(a) => (a.id, false),
            Dataset::Strings(x) => (x.id, true),
        })
        .collect();
    s.exec(&WRITE_PARQUET, (ids, names, prefix, compression))
}
