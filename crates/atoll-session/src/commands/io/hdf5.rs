//! HDF5 IO of the session (`ak.to_hdf`, `ak.read_hdf`, `ak.load`, ...) over
//! `atoll_io::hdf5`: collective commands that create files and groups, write an array or
//! strings (each locale its part), read a dataset or strings (each locale its part), remove
//! and repack; plus the listing of one file's objects. `python/atoll/hdf5.py` composes
//! Arkouda's layout of every object kind from these.

use crate::commands::io::Dataset;
use crate::commands::strings::Strs;
use crate::handles::{next_ids, Array, Session};
use crate::registry::{lock, Registry};
use crate::types::DType;
use atoll::runtime::{Ctx, Handler};
use atoll::Result;
use atoll_io::hdf5::{self as h5, AttrVal};
use atoll_io::Column;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

fn paths(files: Vec<String>) -> Vec<PathBuf> {
    files.into_iter().map(PathBuf::from).collect()
}

/// The `files` created (or checked, with `truncate` false).
#[derive(Serialize, Deserialize)]
pub struct H5Create {
    /// The files (one, or one per locale).
    pub files: Vec<String>,
    /// Whether existing files are emptied.
    pub truncate: bool,
}

fn create_cmd(ctx: &Ctx, H5Create { files, truncate }: H5Create) -> Result<()> {
    h5::h5_create(ctx, &paths(files), truncate)
}

/// The group `path` made in every file of `files`, with `attrs`.
#[derive(Serialize, Deserialize)]
pub struct H5Group {
    /// The files.
    pub files: Vec<String>,
    /// The group's path.
    pub path: String,
    /// The group's attributes.
    pub attrs: Vec<(String, AttrVal)>,
}

fn group_cmd(ctx: &Ctx, H5Group { files, path, attrs }: H5Group) -> Result<()> {
    h5::h5_group(ctx, &paths(files), &path, &attrs)
}

/// The object `path` removed from every file.
#[derive(Serialize, Deserialize)]
pub struct H5Delete {
    /// The files.
    pub files: Vec<String>,
    /// The object's path.
    pub path: String,
}

fn delete_cmd(ctx: &Ctx, H5Delete { files, path }: H5Delete) -> Result<()> {
    h5::h5_delete(ctx, &paths(files), &path)
}

fn repack_cmd(ctx: &Ctx, files: Vec<String>) -> Result<()> {
    h5::h5_repack(ctx, &paths(files))
}
/// An array (or strings, as a group with their segments) `id` written as `path` of `files`
/// (each locale its part), with `attrs`.
#[derive(Serialize, Deserialize)]
pub struct H5Write {
    /// The files (one per locale).
    pub files: Vec<String>,
    /// The dataset's (or group's) path.
    pub path: String,
    /// The array (or strings).
    pub id: u64,
    /// Whether `id` is strings.
    pub is_str: bool,
    /// The attributes.
    pub attrs: Vec<(String, AttrVal)>,
    /// The array's shape when its rank is not 1 (its values are the C-order flattening):
    /// the dataset then has that shape.
    #[serde(default)]
    pub shape: Option<Vec<usize>>,
}

fn write_cmd(ctx: &Ctx, H5Write { files, path, id, is_str, attrs, shape }: H5Write) -> Result<()> {
    let files = paths(files);
    if is_str {
        let s = crate::commands::strings::get(ctx, id)?;
        return h5::h5_write_strings(ctx, &files, &path, &s, true, &attrs);
    }
    let a = Registry::of(ctx).get(id)?;
    let g = lock(&a);
    if let Some(shape) = shape {
        return atoll::array::with_col!(&*g, x => h5::h5_write_array_shaped(ctx, &files, &path, x, &shape, &attrs));
    }
    atoll::array::with_col!(&*g, x => h5::h5_write_array(ctx, &files, &path, x, &attrs))
}

/// Strings `id` written as dataset `path` of `files` (each locale its part), with `attrs`.
#[derive(Serialize, Deserialize)]
pub struct H5WriteStrings {
    /// The files (one per locale).
    pub files: Vec<String>,
    /// The group's path.
    pub path: String,
    /// The strings.
    pub id: u64,
    /// Whether the segments are written too.
    pub offsets: bool,
    /// The group's attributes.
    pub attrs: Vec<(String, AttrVal)>,
}

fn write_strings_cmd(ctx: &Ctx, H5WriteStrings { files, path, id, offsets, attrs }: H5WriteStrings) -> Result<()> {
    let s = crate::commands::strings::get(ctx, id)?;
    h5::h5_write_strings(ctx, &paths(files), &path, &s, offsets, &attrs)
}

/// Dataset `path` of `files` read into a new array `id`.
#[derive(Serialize, Deserialize)]
pub struct H5Read {
    /// The files, concatenated.
    pub files: Vec<String>,
    /// The dataset's path.
    pub path: String,
    /// The new array's id.
    pub id: u64,
    /// Whether every file must store the same type.
    pub strict: bool,
}

fn read_cmd(ctx: &Ctx, H5Read { files, path, id, strict }: H5Read) -> Result<(DType, u64)> {
    let c = h5::h5_read_array(ctx, &paths(files), &path, strict)?;
    let len = c.len() as u64;
    let col = match c {
        Column::Num(col) => col,
        Column::Str(_) | Column::List { .. } => {
            return Err(atoll::Error::InvalidArgument("internal: strings or lists read as an array".into()))
        }
    };
    let dt = col.dtype();
    Registry::of(ctx).insert(id, col);
    Ok((dt, len))
}

/// Strings dataset `path` of `files` read into new strings `id`.
#[derive(Serialize, Deserialize)]
pub struct H5ReadStrings {
    /// The files, concatenated.
    pub files: Vec<String>,
    /// The group's path.
    pub path: String,
    /// The new strings' id.
    pub id: u64,
    /// Whether the strings are found from the NULs rather than the segments.
    pub calc: bool,
}

fn read_strings_cmd(ctx: &Ctx, H5ReadStrings { files, path, id, calc }: H5ReadStrings) -> Result<u64> {
    let s = h5::h5_read_strings(ctx, &paths(files), &path, calc)?;
    let n = s.len() as u64;
    crate::commands::strings::put(ctx, id, s);
    Ok(n)
}

commands! {
    /// Creates (or, appending, opens) the files.
    pub static H5_CREATE: Handler<H5Create, ()> = Handler::new("atoll-session::h5_create", create_cmd);

    /// Creates a group with attributes in every file.
    pub static H5_GROUP: Handler<H5Group, ()> =
        Handler::new("atoll-session::h5_group", group_cmd);

    /// Removes an object from every file.
    pub static H5_DELETE: Handler<H5Delete, ()> = Handler::new("atoll-session::h5_delete", delete_cmd);

    /// Rewrites every file compactly.
    pub static H5_REPACK: Handler<Vec<String>, ()> = Handler::new("atoll-session::h5_repack", repack_cmd);

    /// Writes an array (or strings, as a group) as `path`.
    pub static H5_WRITE: Handler<H5Write, ()> = Handler::new("atoll-session::h5_write", write_cmd);

    /// Writes strings, with or without their offsets.
    pub static H5_WRITE_STRINGS: Handler<H5WriteStrings, ()> =
        Handler::new("atoll-session::h5_write_strings", write_strings_cmd);

    /// Reads a dataset of every file into a new array.
    pub static H5_READ: Handler<H5Read, (DType, u64)> =
        Handler::new("atoll-session::h5_read", read_cmd);

    /// Reads strings of every file into new strings.
    pub static H5_READ_STRINGS: Handler<H5ReadStrings, u64> =
        Handler::new("atoll-session::h5_read_strings", read_strings_cmd);
}

/// Creates the files (truncating), or opens them (appending; missing ones created).
/// **Collective.**
pub fn create(s: &Session, files: Vec<String>, truncate: bool) -> Result<()> {
    s.exec(&H5_CREATE, H5Create { files, truncate })
}

/// Creates the group `path` with `attrs` in every file. **Collective.**
pub fn group(s: &Session, files: Vec<String>, path: String, attrs: Vec<(String, AttrVal)>) -> Result<()> {
    s.exec(&H5_GROUP, H5Group { files, path, attrs })
}

/// Removes the object `path` from every file. **Collective.**
pub fn delete(s: &Session, files: Vec<String>, path: String) -> Result<()> {
    s.exec(&H5_DELETE, H5Delete { files, path })
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
        Dataset::Array(a) => s.exec(&H5_WRITE, H5Write { files, path, id: a.id, is_str: false, attrs, shape: None }),
        Dataset::Strings(x) => s.exec(&H5_WRITE_STRINGS, H5WriteStrings { files, path, id: x.id, offsets, attrs }),
        // A SegArray goes to HDF5 as a group of its segments and values (hdf5.py).
        Dataset::List(..) | Dataset::ListStrings(..) => {
            Err(atoll::Error::InvalidArgument("h5 write: a list column is written as its segments and values".into()))
        }
    }
}

/// Writes the array `a`, the C-order values of an array of shape `shape` (any rank), as the
/// dataset `path` of that shape (one file per locale: each file its rows of axis 0), with
/// `attrs`. **Collective.**
pub fn write_shaped(
    s: &Session,
    files: Vec<String>,
    path: String,
    a: &Array,
    shape: Vec<usize>,
    attrs: Vec<(String, AttrVal)>,
) -> Result<()> {
    s.exec(&H5_WRITE, H5Write { files, path, id: a.id, is_str: false, attrs, shape: Some(shape) })
}

/// Reads the dataset `path` of every file (concatenated) into a new array. **Collective.**
pub fn read(s: &Session, files: Vec<String>, path: String, strict: bool) -> Result<Array> {
    let id = next_ids(1);
    let (dtype, len) = s.exec(&H5_READ, H5Read { files, path, id, strict })?;
    Ok(Array { id, dtype, len: len as usize, generation: s.generation() })
}

/// Reads the strings group `path` of every file (concatenated) into new strings.
/// **Collective.**
pub fn read_strings(s: &Session, files: Vec<String>, path: String, calc_offsets: bool) -> Result<Strs> {
    let id = next_ids(1);
    let len = s.exec(&H5_READ_STRINGS, H5ReadStrings { files, path, id, calc: calc_offsets })?;
    Ok(Strs { id, len: len as usize, generation: s.generation() })
}
