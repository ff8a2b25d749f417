//! HDF5 IO: bindings of the session's HDF5 commands (`python/atoll/hdf5.py` composes
//! Arkouda's layout of every object kind from these), and the listing of one file's objects.

use crate::arrays::Arr;
use crate::errors::{value_err, IntoPy};
use crate::run;
use crate::strings::StrArr;
use atoll_io::hdf5::{self as h5, AttrVal};
use atoll_session::hdf5_io as sh;
use atoll_session::io::Dataset;
use pyo3::prelude::*;
use std::path::PathBuf;

fn attr_of(v: &Bound<'_, PyAny>) -> PyResult<AttrVal> {
    if let Ok(s) = v.extract::<String>() {
        return Ok(AttrVal::Str(s));
    }
    if v.is_instance_of::<pyo3::types::PyFloat>() {
        return Ok(AttrVal::F32(v.extract::<f64>()? as f32));
    }
    Ok(AttrVal::I64(v.extract::<i64>()?))
}

fn attrs_of(attrs: Vec<(String, Bound<'_, PyAny>)>) -> PyResult<Vec<(String, AttrVal)>> {
    attrs.into_iter().map(|(k, v)| Ok((k, attr_of(&v)?))).collect()
}

fn attr_py(py: Python<'_>, v: AttrVal) -> PyObject {
    match v {
        AttrVal::I64(x) => x.into_pyobject(py).map(|o| o.into_any().unbind()).unwrap_or_else(|e| match e {}),
        AttrVal::F32(x) => (x as f64).into_pyobject(py).map(|o| o.into_any().unbind()).unwrap_or_else(|e| match e {}),
        AttrVal::Str(s) => s.into_pyobject(py).map(|o| o.into_any().unbind()).unwrap_or_else(|e| match e {}),
    }
}

/// The objects of one HDF5 file: (path, is_group, dtype or None, length, {attribute: value}).
#[pyfunction]
#[allow(clippy::type_complexity)]
fn h5_list(py: Python<'_>, path: &str) -> PyResult<Vec<(String, bool, Option<String>, u64, PyObject)>> {
    let p = PathBuf::from(path);
    let items = py.allow_threads(|| h5::h5_list(&p)).py()?;
    items
        .into_iter()
        .map(|it| {
            let d = pyo3::types::PyDict::new(py);
            for (k, v) in it.attrs {
                d.set_item(k, attr_py(py, v))?;
            }
            Ok((it.path, it.is_group, it.dtype, it.len, d.into_any().unbind()))
        })
        .collect()
}

/// Creates the files (truncating), or opens them (appending; missing ones created).
#[pyfunction]
fn h5_create(py: Python<'_>, files: Vec<String>, truncate: bool) -> PyResult<()> {
    run(py, |s| sh::create(s, files, truncate))
}

/// Creates the group `path` with `attrs` in every file.
#[pyfunction]
fn h5_group(py: Python<'_>, files: Vec<String>, path: String, attrs: Vec<(String, Bound<'_, PyAny>)>) -> PyResult<()> {
    let a = attrs_of(attrs)?;
    run(py, |s| sh::group(s, files, path, a))
}

/// Removes the object `path` from every file.
#[pyfunction]
fn h5_delete(py: Python<'_>, files: Vec<String>, path: String) -> PyResult<()> {
    run(py, |s| sh::delete(s, files, path))
}

/// Rewrites every file compactly.
#[pyfunction]
fn h5_repack(py: Python<'_>, files: Vec<String>) -> PyResult<()> {
    run(py, |s| sh::repack(s, files))
}

/// Writes an array (`Arr`) as the dataset `path`, or strings (`StrArr`) as the group `path`
/// (`offsets`: with their `segments`), with `attrs`. With `shape` (an array's, of a rank
/// other than 1: its values are the C-order flattening) the dataset has that shape.
#[pyfunction]
#[pyo3(signature = (files, path, array, attrs, offsets=true, shape=None))]
fn h5_write(
    py: Python<'_>,
    files: Vec<String>,
    path: String,
    array: &Bound<'_, PyAny>,
    attrs: Vec<(String, Bound<'_, PyAny>)>,
    offsets: bool,
    shape: Option<Vec<usize>>,
) -> PyResult<()> {
    let a = attrs_of(attrs)?;
    if let Some(shape) = shape {
        let x = array.downcast::<Arr>().map_err(|_| value_err("array", "a shape is for arrays only"))?;
        let arr = x.get().0;
        return run(py, |s| sh::write_shaped(s, files, path, &arr, shape, a));
    }
    let data = if let Ok(x) = array.downcast::<Arr>() {
        Dataset::Array(x.get().0)
    } else if let Ok(x) = array.downcast::<StrArr>() {
        Dataset::Strings(x.get().0)
    } else {
        return Err(value_err("array", "expected an array or strings"));
    };
    // The handle stays alive (`array`) until the command ends.
    run(py, |s| sh::write(s, files, path, data, a, offsets))
}

/// Reads the dataset `path` of every file (concatenated) into a new array.
#[pyfunction]
fn h5_read(py: Python<'_>, files: Vec<String>, path: String, strict: bool) -> PyResult<Arr> {
    run(py, |s| sh::read(s, files, path, strict)).map(Arr)
}

/// The shape of dataset `path` in each file (an empty list for a scalar). Not collective.
#[pyfunction]
fn h5_dims(py: Python<'_>, files: Vec<String>, path: String) -> PyResult<Vec<Vec<usize>>> {
    let files: Vec<PathBuf> = files.into_iter().map(PathBuf::from).collect();
    py.allow_threads(|| h5::h5_dims(&files, &path)).py()
}

/// Reads the strings group `path` of every file (concatenated) into new strings.
#[pyfunction]
fn h5_read_strings(py: Python<'_>, files: Vec<String>, path: String, calc_offsets: bool) -> PyResult<StrArr> {
    run(py, |s| sh::read_strings(s, files, path, calc_offsets)).map(StrArr)
}

/// Adds this module's functions.
pub(crate) fn add(m: &Bound<'_, PyModule>) -> PyResult<()> {
    for f in [
        wrap_pyfunction!(h5_list, m)?,
        wrap_pyfunction!(h5_create, m)?,
        wrap_pyfunction!(h5_group, m)?,
        wrap_pyfunction!(h5_delete, m)?,
        wrap_pyfunction!(h5_repack, m)?,
        wrap_pyfunction!(h5_write, m)?,
        wrap_pyfunction!(h5_read, m)?,
        wrap_pyfunction!(h5_read_strings, m)?,
        wrap_pyfunction!(h5_dims, m)?,
    ] {
        m.add_function(f)?;
    }
    Ok(())
}
