//! HDF5 IO of the Python session (`ak.to_hdf`, `ak.read_hdf`, `ak.load`, ...) over
//! `atoll_io::hdf5`: collective commands that create files and groups, write an array or
//! strings (each locale its part), read a dataset or strings (each locale its part), remove
//! and repack; plus the listing of one file's objects. `python/atoll/hdf5.py` composes
//! Arkouda's layout of every object kind from these.

use crate::errors::{value_err, IntoPy};
use crate::registry::{lock, Col, Registry};
use crate::session::{driver, exec, next_id};
use crate::strings::StrArr;
use crate::types::DType;
use crate::Arr;
use atoll::runtime::{Ctx, Handler};
use atoll::Result;
use atoll_io::hdf5::{self as h5, AttrVal};
use atoll_io::Column;
use pyo3::prelude::*;
use std::path::PathBuf;

fn paths(files: Vec<String>) -> Vec<PathBuf> {
    files.into_iter().map(PathBuf::from).collect()
}

fn create_cmd(ctx: &Ctx, (files, truncate): (Vec<String>, bool)) -> Result<()> {
    h5::h5_create(ctx, &paths(files), truncate)
}
/// Creates (or, appending, opens) the files.
pub static H5_CREATE: Handler<(Vec<String>, bool), ()> = Handler::new("atoll-python::h5_create", create_cmd);

fn group_cmd(ctx: &Ctx, (files, path, attrs): (Vec<String>, String, Vec<(String, AttrVal)>)) -> Result<()> {
    h5::h5_group(ctx, &paths(files), &path, &attrs)
}
/// Creates a group with attributes in every file.
pub static H5_GROUP: Handler<(Vec<String>, String, Vec<(String, AttrVal)>), ()> =
    Handler::new("atoll-python::h5_group", group_cmd);

fn delete_cmd(ctx: &Ctx, (files, path): (Vec<String>, String)) -> Result<()> {
    h5::h5_delete(ctx, &paths(files), &path)
}
/// Removes an object from every file.
pub static H5_DELETE: Handler<(Vec<String>, String), ()> = Handler::new("atoll-python::h5_delete", delete_cmd);

fn repack_cmd(ctx: &Ctx, files: Vec<String>) -> Result<()> {
    h5::h5_repack(ctx, &paths(files))
}
/// Rewrites every file compactly.
pub static H5_REPACK: Handler<Vec<String>, ()> = Handler::new("atoll-python::h5_repack", repack_cmd);

type WriteArgs = (Vec<String>, String, u64, bool, Vec<(String, AttrVal)>);

fn write_cmd(ctx: &Ctx, (files, path, id, is_str, attrs): WriteArgs) -> Result<()> {
    let files = paths(files);
    if is_str {
        let s = crate::strings::get(ctx, id)?;
        return h5::h5_write_strings(ctx, &files, &path, &s, true, &attrs);
    }
    let a = Registry::of(ctx).get(id)?;
    let g = lock(&a);
    match &*g {
        Col::I(x) => h5::h5_write_array(ctx, &files, &path, x, &attrs),
        Col::U(x) => h5::h5_write_array(ctx, &files, &path, x, &attrs),
        Col::F(x) => h5::h5_write_array(ctx, &files, &path, x, &attrs),
        Col::B(x) => h5::h5_write_array(ctx, &files, &path, x, &attrs),
    }
}
/// Writes an array (or strings, as a group) as `path`.
pub static H5_WRITE: Handler<WriteArgs, ()> = Handler::new("atoll-python::h5_write", write_cmd);

fn write_strings_cmd(
    ctx: &Ctx,
    (files, path, id, offsets, attrs): (Vec<String>, String, u64, bool, Vec<(String, AttrVal)>),
) -> Result<()> {
    let s = crate::strings::get(ctx, id)?;
    h5::h5_write_strings(ctx, &paths(files), &path, &s, offsets, &attrs)
}
/// Writes strings, with or without their offsets.
pub static H5_WRITE_STRINGS: Handler<(Vec<String>, String, u64, bool, Vec<(String, AttrVal)>), ()> =
    Handler::new("atoll-python::h5_write_strings", write_strings_cmd);

fn read_cmd(ctx: &Ctx, (files, path, id, strict): (Vec<String>, String, u64, bool)) -> Result<(DType, u64)> {
    let c = h5::h5_read_array(ctx, &paths(files), &path, strict)?;
    let len = c.len() as u64;
    let (dt, col) = match c {
        Column::I64(a) => (DType::I64, Col::I(a)),
        Column::U64(a) => (DType::U64, Col::U(a)),
        Column::F64(a) => (DType::F64, Col::F(a)),
        Column::Bool(a) => (DType::Bool, Col::B(a)),
        Column::Str(_) => return Err(atoll::Error::InvalidArgument("internal: strings read as an array".into())),
    };
    Registry::of(ctx).insert(id, col);
    Ok((dt, len))
}
/// Reads a dataset of every file into a new array.
pub static H5_READ: Handler<(Vec<String>, String, u64, bool), (DType, u64)> =
    Handler::new("atoll-python::h5_read", read_cmd);

fn read_strings_cmd(ctx: &Ctx, (files, path, id, calc): (Vec<String>, String, u64, bool)) -> Result<u64> {
    let s = h5::h5_read_strings(ctx, &paths(files), &path, calc)?;
    let n = s.len() as u64;
    crate::strings::put(ctx, id, s);
    Ok(n)
}
/// Reads strings of every file into new strings.
pub static H5_READ_STRINGS: Handler<(Vec<String>, String, u64, bool), u64> =
    Handler::new("atoll-python::h5_read_strings", read_strings_cmd);

/// Registers the HDF5 commands.
pub fn register_commands() {
    H5_CREATE.register();
    H5_GROUP.register();
    H5_DELETE.register();
    H5_REPACK.register();
    H5_WRITE.register();
    H5_WRITE_STRINGS.register();
    H5_READ.register();
    H5_READ_STRINGS.register();
}

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
pub fn h5_list(py: Python<'_>, path: &str) -> PyResult<Vec<(String, bool, Option<String>, u64, PyObject)>> {
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
pub fn h5_create(py: Python<'_>, files: Vec<String>, truncate: bool) -> PyResult<()> {
    exec(py, &H5_CREATE, (files, truncate))
}

/// Creates the group `path` with `attrs` in every file.
#[pyfunction]
pub fn h5_group(
    py: Python<'_>,
    files: Vec<String>,
    path: String,
    attrs: Vec<(String, Bound<'_, PyAny>)>,
) -> PyResult<()> {
    let a = attrs_of(attrs)?;
    exec(py, &H5_GROUP, (files, path, a))
}

/// Removes the object `path` from every file.
#[pyfunction]
pub fn h5_delete(py: Python<'_>, files: Vec<String>, path: String) -> PyResult<()> {
    exec(py, &H5_DELETE, (files, path))
}

/// Rewrites every file compactly.
#[pyfunction]
pub fn h5_repack(py: Python<'_>, files: Vec<String>) -> PyResult<()> {
    exec(py, &H5_REPACK, files)
}

/// Writes an array (`Arr`) as the dataset `path`, or strings (`StrArr`) as the group `path`
/// (`offsets`: with their `segments`), with `attrs`.
#[pyfunction]
#[pyo3(signature = (files, path, array, attrs, offsets=true))]
pub fn h5_write(
    py: Python<'_>,
    files: Vec<String>,
    path: String,
    array: &Bound<'_, PyAny>,
    attrs: Vec<(String, Bound<'_, PyAny>)>,
    offsets: bool,
) -> PyResult<()> {
    let a = attrs_of(attrs)?;
    if let Ok(x) = array.downcast::<Arr>() {
        let id = x.get().id;
        return exec(py, &H5_WRITE, (files, path, id, false, a));
    }
    if let Ok(s) = array.downcast::<StrArr>() {
        let id = s.get().id;
        return exec(py, &H5_WRITE_STRINGS, (files, path, id, offsets, a));
    }
    Err(value_err("array", "expected an array or strings"))
}

/// Reads the dataset `path` of every file (concatenated) into a new array.
#[pyfunction]
pub fn h5_read(py: Python<'_>, files: Vec<String>, path: String, strict: bool) -> PyResult<Arr> {
    let (_, generation) = driver(py)?;
    let id = next_id();
    let (dtype, len) = exec(py, &H5_READ, (files, path, id, strict))?;
    Ok(Arr { id, dtype, len: len as usize, generation })
}

/// Reads the strings group `path` of every file (concatenated) into new strings.
#[pyfunction]
pub fn h5_read_strings(py: Python<'_>, files: Vec<String>, path: String, calc_offsets: bool) -> PyResult<StrArr> {
    let (_, generation) = driver(py)?;
    let id = next_id();
    let len = exec(py, &H5_READ_STRINGS, (files, path, id, calc_offsets))?;
    Ok(StrArr { id, len: len as usize, generation })
}

/// Adds this module's functions.
pub fn add(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(h5_list, m)?)?;
    m.add_function(wrap_pyfunction!(h5_create, m)?)?;
    m.add_function(wrap_pyfunction!(h5_group, m)?)?;
    m.add_function(wrap_pyfunction!(h5_delete, m)?)?;
    m.add_function(wrap_pyfunction!(h5_repack, m)?)?;
    m.add_function(wrap_pyfunction!(h5_write, m)?)?;
    m.add_function(wrap_pyfunction!(h5_read, m)?)?;
    m.add_function(wrap_pyfunction!(h5_read_strings, m)?)?;
    Ok(())
}
