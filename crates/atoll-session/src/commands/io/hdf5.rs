//! HDF5 IO of the session (`ak.to_hdf`, `ak.read_hdf`, `ak.load`, ...) over
//! `atoll_io::hdf5`: collective commands that create files and groups, write an array or
//! strings (each locale its part), read a dataset or strings (each locale its part), remove
//! and repack; plus the listing of one file's objects. `python/atoll/hdf5.py` composes
//! Arkouda's layout of every object kind from these.

use crate::commands::io::Dataset;
use crate::commands::strings::Strs;
use crate::handles::{next_ids, Array, Session};
use crate::registry::{lock, Col, Registry};
use crate::types::DType;
use atoll::runtime::{Ctx, Handler};
use atoll::Result;
use atoll_io::hdf5::{self as h5, AttrVal};
use atoll_io::Column;
use std::path::PathBuf;

fn paths(files: Vec<String>) -> Vec<PathBuf> {
    files.into_iter().map(PathBuf::from).collect()
}

fn create_cmd(ctx: &Ctx, (files, truncate): (Vec<String>, bool)) -> Result<()> {
    h5::h5_create(ctx, &paths(files), truncate)
}
/// Creates (or, appending, opens) the files.
pub static H5_CREATE: Handler<(Vec<String>, bool), ()> = Handler::new("atoll-session::h5_create", create_cmd);

fn group_cmd(ctx: &Ctx, (files, path, attrs): (Vec<String>, String, Vec<(String, AttrVal)>)) -> Result<()> {
    h5::h5_group(ctx, &paths(files), &path, &attrs)
}
/// Creates a group with attributes in every file.
pub static H5_GROUP: Handler<(Vec<String>, String, Vec<(String, AttrVal)>), ()> =
    Handler::new("atoll-session::h5_group", group_cmd);

fn delete_cmd(ctx: &Ctx, (files, path): (Vec<String>, String)) -> Result<()> {
    h5::h5_delete(ctx, &paths(files), &path)
}
/// Removes an object from every file.
pub static H5_DELETE: Handler<(Vec<String>, String), ()> = Handler::new("atoll-session::h5_delete", delete_cmd);

fn repack_cmd(ctx: &Ctx, files: Vec<String>) -> Result<()> {
    h5::h5_repack(ctx, &paths(files))
}
/// Rewrites every file compactly.
pub static H5_REPACK: Handler<Vec<String>, ()> = Handler::new("atoll-session::h5_repack", repack_cmd);

type WriteArgs = (Vec<String>, String, u64, bool, Vec<(String, AttrVal)>);

fn write_cmd(ctx: &Ctx, (files, path, id, is_str, attrs): WriteArgs) -> Result<()> {
    let files = paths(files);
    if is_str {
        let s = crate::commands::strings::get(ctx, id)?;
        return h5::h5_write_strings(ctx, &files, &path, &s, true, &attrs);
    }
    let a = Registry::of(ctx).get(id)?;
    let g = lock(&a);
    match &*g {
        Col::I(x) => h5::h5_write_array(ctx, &files, &path, x, &attrs),
        Col::U(x) => h5::h5_write_array(ctx, &files, &path, x, &attrs),
        Col::F(x) => h5::h5_write_array(ctx, &files, &path, x, &attrs),
        Col::B(x) => h5::h5_write_array(ctx, &files, &path, x, &attrs),
        Col::U8(x) => h5::h5_write_array(ctx, &files, &path, x, &attrs),
    }
}
/// Writes an array (or strings, as a group) as `path`.
pub static H5_WRITE: Handler<WriteArgs, ()> = Handler::new("atoll-session::h5_write", write_cmd);

fn write_strings_cmd(
    ctx: &Ctx,
    (files, path, id, offsets, attrs): (Vec<String>, String, u64, bool, Vec<(String, AttrVal)>),
) -> Result<()> {
    let s = crate::commands::strings::get(ctx, id)?;
    h5::h5_write_strings(ctx, &paths(files), &path, &s, offsets, &attrs)
}
/// Writes strings, with or without their offsets.
pub static H5_WRITE_STRINGS: Handler<(Vec<String>, String, u64, bool, Vec<(String, AttrVal)>), ()> =
    Handler::new("atoll-session::h5_write_strings", write_strings_cmd);

fn read_cmd(ctx: &Ctx, (files, path, id, strict): (Vec<String>, String, u64, bool)) -> Result<(DType, u64)> {
    let c = h5::h5_read_array(ctx, &paths(files), &path, strict)?;
    let len = c.len() as u64;
    let (dt, col) = match c {
        Column::I64(a) => (DType::I64, Col::I(a)),
        Column::U64(a) => (DType::U64, Col::U(a)),
        Column::F64(a) => (DType::F64, Col::F(a)),
        Column::Bool(a) => (DType::Bool, Col::B(a)),
        Column::U8(a) => (DType::U8, Col::U8(a)),
        Column::Str(_) | Column::List { .. } => {
            return Err(atoll::Error::InvalidArgument("internal: strings or lists read as an array".into()))
        }
    };
    Registry::of(ctx).insert(id, col);
    Ok((dt, len))
}
/// Reads a dataset of every file into a new array.
pub static H5_READ: Handler<(Vec<String>, String, u64, bool), (DType, u64)> =
    Handler::new("atoll-session::h5_read", read_cmd);

fn read_strings_cmd(ctx: &Ctx, (files, path, id, calc): (Vec<String>, String, u64, bool)) -> Result<u64> {
    let s = h5::h5_read_strings(ctx, &paths(files), &path, calc)?;
    let n = s.len() as u64;
    crate::commands::strings::put(ctx, id, s);
    Ok(n)
}
/// Reads strings of every file into new strings.
pub static H5_READ_STRINGS: Handler<(Vec<String>, String, u64, bool), u64> =
    Handler::new("atoll-session::h5_read_strings", read_strings_cmd);

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

/// Creates the files (truncating), or opens them (appending; missing ones created).
/// **Collective.**
pub fn create(s: &Session, files: Vec<String>, truncate: bool) -> Result<()> {
    s.exec(&H5_CREATE, (files, truncate))
}

/// Creates the group `path` with `attrs` in every file. **Collective.**
pub fn group(s: &Session, files: Vec<String>, path: String, attrs: Vec<(String, AttrVal)>) -> Result<()> {
    s.exec(&H5_GROUP, (files, path, attrs))
}

/// Removes the object `path` from every file. **Collective.**
pub fn delete(s: &Session, files: Vec<String>, path: String) -> Result<()> {
    s.exec(&H5_DELETE, (files, path))
}

/// Rewrites every file compactly. **Collective.**
pub fn repack(s: &Session, files: Vec<String>) -> Result<()> {
    s.exec(&H5_REPACK, files)
}

/// Writes an array as the dataset `path`, or strings as the group `path` (`offsets`: with
/// their `segments`), with `attrs`; every locale writes its part. **Collective.**
pub fn write(
    s: &Session,
    files: Vec<String>,
    path: String,
    data: Dataset,
    attrs: Vec<(String, AttrVal)>,
    offsets: bool,
) -> Result<()> {
    match data {
        Dataset::Array(a) => s.exec(&H5_WRITE, (files, path, a.id, false, attrs)),
        Dataset::Strings(x) => s.exec(&H5_WRITE_STRINGS, (files, path, x.id, offsets, attrs)),
        // A SegArray goes to HDF5 as a group of its segments and values (hdf5.py).
        Dataset::List(..) | Dataset::ListStrings(..) => {
            Err(atoll::Error::InvalidArgument("h5 write: a list column is written as its segments and values".into()))
        }
    }
}

/// Reads the dataset `path` of every file (concatenated) into a new array. **Collective.**
pub fn read(s: &Session, files: Vec<String>, path: String, strict: bool) -> Result<Array> {
    let id = next_ids(1);
    let (dtype, len) = s.exec(&H5_READ, (files, path, id, strict))?;
    Ok(Array { id, dtype, len: len as usize, generation: s.generation() })
}

/// Reads the strings group `path` of every file (concatenated) into new strings.
/// **Collective.**
pub fn read_strings(s: &Session, files: Vec<String>, path: String, calc_offsets: bool) -> Result<Strs> {
    let id = next_ids(1);
    let len = s.exec(&H5_READ_STRINGS, (files, path, id, calc_offsets))?;
    Ok(Strs { id, len: len as usize, generation: s.generation() })
}
