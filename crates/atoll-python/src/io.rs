//! Parquet IO: bindings of the session's `read_parquet` / `write_parquet`.

use crate::arrays::Arr;
use crate::errors::IntoPy;
use crate::run;
use crate::strings::StrArr;
use atoll_session::io::{self as sio, Dataset};
use pyo3::prelude::*;

/// The datasets of a Parquet file: (name, dtype name or None when unreadable, Parquet type).
#[pyfunction]
fn parquet_datasets(py: Python<'_>, path: &str) -> PyResult<Vec<(String, Option<String>, String)>> {
    let infos = py.allow_threads(|| atoll_io::parquet_datasets(path)).py()?;
    Ok(infos.into_iter().map(|i| (i.name, i.dtype.map(|t| t.name()), i.parquet_type)).collect())
}

/// Reads `datasets` of the Parquet files `paths` (in order) into new arrays (`Arr`),
/// strings (`StrArr`) and list columns (a tuple: segments `Arr`, values `Arr` or `StrArr`).
#[pyfunction]
fn read_parquet(py: Python<'_>, paths: Vec<String>, datasets: Vec<String>) -> PyResult<Vec<PyObject>> {
    run(py, |s| sio::read_parquet(s, paths, datasets))?
        .into_iter()
        .map(|d| match d {
            Dataset::Array(a) => Ok(Py::new(py, Arr(a))?.into_any()),
            Dataset::Strings(x) => Ok(Py::new(py, StrArr(x))?.into_any()),
            Dataset::List(s, v) => {
                Ok((Py::new(py, Arr(s))?, Py::new(py, Arr(v))?).into_pyobject(py)?.into_any().unbind())
            }
            Dataset::ListStrings(s, v) => {
                Ok((Py::new(py, Arr(s))?, Py::new(py, StrArr(v))?).into_pyobject(py)?.into_any().unbind())
            }
        })
        .collect()
}

/// Reads the string `datasets` of the Parquet files `paths` (in order) as categoricals: a
/// list of (codes `Arr`, categories `StrArr`), the categories sorted by code point, then
/// `na_value` unless a string equals it (a null's code is `na_value`'s).
#[pyfunction]
#[pyo3(signature = (paths, datasets, na_value="N/A".to_string()))]
fn read_parquet_categorical(
    py: Python<'_>,
    paths: Vec<String>,
    datasets: Vec<String>,
    na_value: String,
) -> PyResult<Vec<(Py<Arr>, Py<StrArr>)>> {
    run(py, |s| sio::read_parquet_categorical(s, paths, datasets, na_value))?
        .into_iter()
        .map(|(c, k)| Ok((Py::new(py, Arr(c))?, Py::new(py, StrArr(k))?)))
        .collect()
}

/// One column to write: `Arr`, `StrArr`, or a tuple (segments `Arr`, values `Arr`/`StrArr`).
fn dataset(a: &Bound<'_, PyAny>) -> PyResult<Dataset> {
    if let Ok(a) = a.downcast::<Arr>() {
        return Ok(Dataset::Array(a.get().0));
    }
    if let Ok(x) = a.downcast::<StrArr>() {
        return Ok(Dataset::Strings(x.get().0));
    }
    if let Ok((s, v)) = a.extract::<(Bound<'_, PyAny>, Bound<'_, PyAny>)>() {
        if let Ok(s) = s.downcast::<Arr>() {
            if let Ok(v) = v.downcast::<Arr>() {
                return Ok(Dataset::List(s.get().0, v.get().0));
            }
            if let Ok(v) = v.downcast::<StrArr>() {
                return Ok(Dataset::ListStrings(s.get().0, v.get().0));
            }
        }
    }
    Err(pyo3::exceptions::PyTypeError::new_err(format!(
        "write_parquet: expected arrays, strings or (segments, values), got {}",
        a.get_type().name()?
    )))
}

/// Writes `arrays` (`Arr` or `StrArr`) as datasets `names` to one Parquet file per locale;
/// locale 0's file name.
#[pyfunction]
#[pyo3(signature = (arrays, names, prefix, compression=None))]
fn write_parquet(
    py: Python<'_>,
    arrays: Vec<Bound<'_, PyAny>>,
    names: Vec<String>,
    prefix: String,
    compression: Option<String>,
) -> PyResult<String> {
    let cols = arrays.iter().map(dataset).collect::<PyResult<Vec<_>>>()?;
    // The handles stay alive (in `arrays`) until the command ends.
    run(py, |s| sio::write_parquet(s, &cols, names, prefix, compression))
}

/// Adds this module's functions.
pub(crate) fn add(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(parquet_datasets, m)?)?;
    m.add_function(wrap_pyfunction!(read_parquet, m)?)?;
    m.add_function(wrap_pyfunction!(read_parquet_categorical, m)?)?;
    m.add_function(wrap_pyfunction!(write_parquet, m)?)?;
    Ok(())
}
