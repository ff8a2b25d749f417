//! Parquet IO of the Python session (`ak.read_parquet`, `ak.to_parquet`) over `atoll-io`:
//! every locale reads the rows of its part and writes its own file (one per locale). String
//! columns are `ak.Strings` (kept in the strings' registry, [`crate::strings`]).

use crate::errors::{value_err, IntoPy};
use crate::registry::{lock, Col, Registry};
use crate::session::{driver, exec, next_id};
use crate::strings::StrArr;
use crate::types::DType;
use crate::Arr;
use atoll::runtime::{Ctx, Handler};
use atoll::Result;
use atoll_io::{Column, ColumnRef, Compression, IoDType, WriteOptions};
use pyo3::prelude::*;
use std::path::PathBuf;

/// The array dtype of a column; `None` for strings.
fn dtype_of(t: IoDType) -> Option<DType> {
    match t {
        IoDType::I64 => Some(DType::I64),
        IoDType::U64 => Some(DType::U64),
        IoDType::F64 => Some(DType::F64),
        IoDType::Bool => Some(DType::Bool),
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
    Handler::new("atoll-python::read_parquet", read);

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
            }
        };
        cols.push((name.as_str(), c));
    }
    let p = atoll_io::write_parquet(ctx, &prefix, &cols, &opts)?;
    Ok(p.display().to_string())
}
/// Writes arrays to Parquet files, one per locale.
pub static WRITE_PARQUET: Handler<(Vec<(u64, bool)>, Vec<String>, String, Option<String>), String> =
    Handler::new("atoll-python::write_parquet", write);

/// Registers the IO commands.
pub fn register() {
    READ_PARQUET.register();
    WRITE_PARQUET.register();
}

/// The datasets of a Parquet file: (name, dtype name or None when unreadable, Parquet type).
#[pyfunction]
pub fn parquet_datasets(py: Python<'_>, path: &str) -> PyResult<Vec<(String, Option<&'static str>, String)>> {
    let infos = py.allow_threads(|| atoll_io::parquet_datasets(path)).py()?;
    Ok(infos.into_iter().map(|i| (i.name, i.dtype.map(|t| t.name()), i.parquet_type)).collect())
}

/// Reads `datasets` of the Parquet files `paths` (in order) into new arrays (`Arr`) and
/// strings (`StrArr`).
#[pyfunction]
pub fn read_parquet(py: Python<'_>, paths: Vec<String>, datasets: Vec<String>) -> PyResult<Vec<PyObject>> {
    let (_, generation) = driver(py)?;
    let ids: Vec<u64> = datasets.iter().map(|_| next_id()).collect();
    let got = exec(py, &READ_PARQUET, (paths, datasets, ids.clone()))?;
    ids.into_iter()
        .zip(got)
        .map(|(id, (dtype, len))| match dtype {
            Some(dtype) => Ok(Py::new(py, Arr { id, dtype, len: len as usize, generation })?.into_any()),
            None => Ok(Py::new(py, StrArr { id, len: len as usize, generation })?.into_any()),
        })
        .collect()
}

/// Writes `arrays` (`Arr` or `StrArr`) as datasets `names` to one Parquet file per locale;
/// locale 0's file name.
#[pyfunction]
#[pyo3(signature = (arrays, names, prefix, compression=None))]
pub fn write_parquet(
    py: Python<'_>,
    arrays: Vec<Bound<'_, PyAny>>,
    names: Vec<String>,
    prefix: String,
    compression: Option<String>,
) -> PyResult<String> {
    if arrays.len() != names.len() {
        return Err(value_err("names", format!("{} names for {} arrays", names.len(), arrays.len())));
    }
    let mut ids: Vec<(u64, bool)> = Vec::with_capacity(arrays.len());
    for a in &arrays {
        if let Ok(a) = a.downcast::<Arr>() {
            ids.push((a.get().id, false));
        } else if let Ok(s) = a.downcast::<StrArr>() {
            ids.push((s.get().id, true));
        } else {
            return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                "write_parquet: expected arrays or strings, got {}",
                a.get_type().name()?
            )));
        }
    }
    drop(arrays);
    exec(py, &WRITE_PARQUET, (ids, names, prefix, compression))
}

/// The Python exception of a file error (called from [`crate::errors::to_py`]).
pub fn file_error(kind: atoll_io::FileErrorKind, msg: String) -> PyErr {
    use atoll_io::FileErrorKind as K;
    use pyo3::exceptions::{PyFileNotFoundError, PyOSError, PyTypeError, PyValueError};
    match kind {
        K::NotFound => PyFileNotFoundError::new_err(msg),
        K::WrongType => PyTypeError::new_err(msg),
        K::MissingDataset | K::Corrupt => PyValueError::new_err(msg),
        _ => PyOSError::new_err(msg),
    }
}
