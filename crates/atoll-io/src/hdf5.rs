//! HDF5 files in Arkouda's layout, through the `hdf5-metno` binding of libhdf5.
//!
//! A 1-D array is a dataset; an array of another rank is a dataset of its shape (its flat
//! values in C order): in a single file the whole array; with one file per locale, file `k`
//! holds the rows `ceil(k R / N)..ceil((k+1) R / N)` of axis 0 (R rows, N locales), a
//! dataset of shape `(rows, shape[1..])`, so the files concatenate along axis 0 into the
//! array. Strings, SegArray, Categorical, GroupBy, DataFrame and Index are
//! groups of component datasets (the Python layer, `python/atoll/hdf5.py`, decides the names
//! and attributes, as Arkouda's server does). Every component is written by its own Block
//! distribution: with one file per locale (`<prefix>_LOCALE####`), locale `k` writes its part
//! of each component into file `k`; in single-file mode the locales write their parts into one
//! file in turn. Strings are written as Arkouda writes them: `values` holds each string's
//! UTF-8 bytes and a NUL, `segments` the file-local offset of each string.
//!
//! Reading concatenates a component's pieces over the files in order: every locale reads the
//! hyperslabs of the files that overlap its Block part (numbers) or its part of the strings,
//! straight into its part, so no data passes through one locale. Integer, unsigned and float
//! datasets of any width read widened (int64, uint64, float64); a uint8 dataset with an
//! `isBool` attribute reads as bool.
//!
//! Everything here is **collective** (except [`h5_list`], which reads one file's metadata)
//! and fails the same way on every locale: a missing file is [`FileErrorKind::NotFound`], a
//! file that is not HDF5 (or is truncated) [`FileErrorKind::Corrupt`], a missing dataset
//! [`FileErrorKind::MissingDataset`], an unreadable type [`FileErrorKind::WrongType`], each
//! naming the file.

use crate::column::{Col, Column, DType};
use crate::meta::file_err;
use atoll_array::{dist, DistArray};
use atoll_error::{Error, FileErrorKind, Result};
use atoll_runtime::Ctx;
use atoll_strings::{DistStrings, LocalStrings};
use hdf5::types::{FloatSize, IntSize, TypeDescriptor, VarLenUnicode};
use hdf5::{File, Group, Location, LocationType};
use hdf5::{Hyperslab, SliceOrIndex};
use ndarray::{ArrayView, IxDyn};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::ops::Range;
use std::path::{Path, PathBuf};

/// An attribute value (Arkouda writes int64 metadata, a float32 file version, a string).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum AttrVal {
    /// A 64-bit integer.
    I64(i64),
    /// A 32-bit float.
    F32(f32),
    /// A string.
    Str(String),
}

/// One object of a file, as [`h5_list`] reports it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct H5Item {
    /// The path from the root, without the leading `/`.
    pub path: String,
    /// True for a group, false for a dataset.
    pub is_group: bool,
    /// A dataset's element type: "int8".."int64", "uint8".."uint64", "float32", "float64",
    /// "bool", or a description of another type; `None` for a group.
    pub dtype: Option<String>,
    /// A dataset's number of elements (its dimensions multiplied); 0 for a group.
    pub len: u64,
    /// The attributes that are numbers or strings.
    pub attrs: Vec<(String, AttrVal)>,
}

fn h5err(kind: FileErrorKind, path: &Path, e: impl std::fmt::Display) -> Error {
    file_err(kind, path, e.to_string())
}

/// Opens an HDF5 file for reading, telling a missing file from one that is not HDF5.
fn open_read(path: &Path) -> Result<File> {
    match std::fs::metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(file_err(FileErrorKind::NotFound, path, "no such file"))
        }
        Err(e) => return Err(h5err(FileErrorKind::Io, path, e)),
        Ok(m) if m.is_dir() => return Err(file_err(FileErrorKind::Io, path, "is a directory")),
        Ok(_) => {}
    }
    hdf5::silence_errors(true);
    File::open(path).map_err(|e| h5err(FileErrorKind::Corrupt, path, format!("not a readable HDF5 file ({e})")))
}

fn open_rw(path: &Path) -> Result<File> {
    hdf5::silence_errors(true);
    if !path.exists() {
        return Err(file_err(FileErrorKind::NotFound, path, "no such file (create it first)"));
    }
    File::open_rw(path).map_err(|e| h5err(FileErrorKind::Corrupt, path, format!("cannot open for writing ({e})")))
}

fn type_name(d: &TypeDescriptor) -> String {
    match d {
        TypeDescriptor::Integer(s) => format!("int{}", int_bits(*s)),
        TypeDescriptor::Unsigned(s) => format!("uint{}", int_bits(*s)),
        TypeDescriptor::Float(FloatSize::U4) => "float32".into(),
        TypeDescriptor::Float(FloatSize::U8) => "float64".into(),
        TypeDescriptor::Boolean => "bool".into(),
        other => format!("{other}"),
    }
}

fn int_bits(s: IntSize) -> u32 {
    match s {
        IntSize::U1 => 8,
        IntSize::U2 => 16,
        IntSize::U4 => 32,
        IntSize::U8 => 64,
    }
}

fn read_attrs(loc: &Location) -> Vec<(String, AttrVal)> {
    let mut out = Vec::new();
    let Ok(names) = loc.attr_names() else { return out };
    for n in names {
        let Ok(a) = loc.attr(&n) else { continue };
        let Ok(desc) = a.dtype().and_then(|t| t.to_descriptor()) else { continue };
        let v = match desc {
            TypeDescriptor::Integer(_) | TypeDescriptor::Unsigned(_) | TypeDescriptor::Boolean => {
                a.read_scalar::<i64>().ok().map(AttrVal::I64)
            }
            TypeDescriptor::Float(_) => a.read_scalar::<f32>().ok().map(AttrVal::F32),
            TypeDescriptor::VarLenUnicode | TypeDescriptor::VarLenAscii => {
                a.read_scalar::<VarLenUnicode>().ok().map(|s| AttrVal::Str(s.as_str().to_string()))
            }
            TypeDescriptor::FixedAscii(_) | TypeDescriptor::FixedUnicode(_) => {
                // Arkouda's version string: fixed-length, NUL-terminated.
                a.read_raw::<u8>().ok().map(|b| {
                    let end = b.iter().position(|&c| c == 0).unwrap_or(b.len());
                    AttrVal::Str(String::from_utf8_lossy(&b[..end]).into_owned())
                })
            }
            _ => None,
        };
        if let Some(v) = v {
            out.push((n, v));
        }
    }
    out
}

fn list_group(g: &Group, prefix: &str, path: &Path, out: &mut Vec<H5Item>) -> Result<()> {
    let names = g.member_names().map_err(|e| h5err(FileErrorKind::Corrupt, path, e))?;
    for n in names {
        let full = if prefix.is_empty() { n.clone() } else { format!("{prefix}/{n}") };
        match g.loc_type_by_name(&n) {
            Ok(LocationType::Group) => {
                let sub = g.group(&n).map_err(|e| h5err(FileErrorKind::Corrupt, path, e))?;
                out.push(H5Item { path: full.clone(), is_group: true, dtype: None, len: 0, attrs: read_attrs(&sub) });
                list_group(&sub, &full, path, out)?;
            }
            Ok(LocationType::Dataset) => {
                let ds = g.dataset(&n).map_err(|e| h5err(FileErrorKind::Corrupt, path, e))?;
                let dtype = ds.dtype().and_then(|t| t.to_descriptor()).map(|d| type_name(&d)).ok();
                out.push(H5Item { path: full, is_group: false, dtype, len: ds.size() as u64, attrs: read_attrs(&ds) });
            }
            _ => {}
        }
    }
    Ok(())
}

/// Every group and dataset of the file `path` (depth first, in the file's order), and the
/// file's own attributes (as the item of path ""). Not collective: one locale reads it.
///
/// # Errors
/// [`FileErrorKind::NotFound`], [`FileErrorKind::Corrupt`] (not HDF5), naming the file.
pub fn h5_list(path: &Path) -> Result<Vec<H5Item>> {
    let f = open_read(path)?;
    let mut out = vec![H5Item { path: String::new(), is_group: true, dtype: None, len: 0, attrs: read_attrs(&f) }];
    list_group(&f, "", path, &mut out)?;
    Ok(out)
}

/// The locale writing file `f` of `n_files`: file `k` by locale `k` (one file per locale), or
/// the one file by every locale in turn.
fn writer_of(ctx: &Ctx, n_files: usize) -> Result<()> {
    if n_files != 1 && n_files != ctx.num_locales() {
        return Err(atoll_error::invalid_arg!(
            "hdf5: {} files for {} locales (one per locale, or a single file)",
            n_files,
            ctx.num_locales()
        ));
    }
    Ok(())
}

fn write_attr(loc: &Location, path: &Path, name: &str, v: &AttrVal) -> Result<()> {
    let io = |e: hdf5::Error| h5err(FileErrorKind::Io, path, format!("attribute {name}: {e}"));
    if loc.attr(name).is_ok() {
        loc.delete_attr(name).map_err(io)?;
    }
    match v {
        AttrVal::I64(x) => loc.new_attr::<i64>().create(name).and_then(|a| a.write_scalar(x)).map_err(io),
        AttrVal::F32(x) => loc.new_attr::<f32>().create(name).and_then(|a| a.write_scalar(x)).map_err(io),
        AttrVal::Str(s) => {
            let u: VarLenUnicode =
                s.parse().map_err(|e| h5err(FileErrorKind::Io, path, format!("attribute {name}: {e}")))?;
            loc.new_attr::<VarLenUnicode>().create(name).and_then(|a| a.write_scalar(&u)).map_err(io)
        }
    }
}

/// The group at `path` in `f` (created with its parents when missing).
fn ensure_group(f: &File, path: &str, file: &Path) -> Result<Group> {
    let mut g: Group = (**f).clone();
    for part in path.split('/').filter(|p| !p.is_empty()) {
        g = if g.link_exists(part) {
            g.group(part).map_err(|e| h5err(FileErrorKind::Corrupt, file, format!("{path}: {e}")))?
        } else {
            g.create_group(part).map_err(|e| h5err(FileErrorKind::Io, file, format!("{path}: {e}")))?
        };
    }
    Ok(g)
}

fn split_parent(path: &str) -> (&str, &str) {
    match path.rsplit_once('/') {
        Some((p, n)) => (p, n),
        None => ("", path),
    }
}

/// Creates (truncating) or checks the files: locale `k` creates file `k` (locale 0 the single
/// file), with the root attribute `File_Format` (0 single file, 1 one file per locale), as
/// Arkouda does. With `truncate` false, files that exist are kept (append mode) and missing
/// ones are created. **Collective.**
///
/// # Errors
/// [`FileErrorKind::Io`] when a file cannot be created (a missing directory, permissions).
pub fn h5_create(ctx: &Ctx, files: &[PathBuf], truncate: bool) -> Result<()> {
    writer_of(ctx, files.len())?;
    let me = ctx.id();
    let r = if me < files.len() {
        let p = &files[me];
        (|| -> Result<()> {
            hdf5::silence_errors(true);
            if !truncate && p.exists() {
                open_rw(p)?;
                return Ok(());
            }
            let f = File::create(p).map_err(|e| h5err(FileErrorKind::Io, p, format!("cannot create ({e})")))?;
            let fmt = if files.len() == 1 { 0 } else { 1 };
            write_attr(&f, p, "File_Format", &AttrVal::I64(fmt))
        })()
    } else {
        Ok(())
    };
    ctx.agree(r)
}

/// Creates the group `path` (and its parents) in every file, with the attributes `attrs`.
/// **Collective.**
pub fn h5_group(ctx: &Ctx, files: &[PathBuf], path: &str, attrs: &[(String, AttrVal)]) -> Result<()> {
    writer_of(ctx, files.len())?;
    let me = ctx.id();
    let r = if me < files.len() {
        let p = &files[me];
        (|| -> Result<()> {
            let f = open_rw(p)?;
            let g = ensure_group(&f, path, p)?;
            for (n, v) in attrs {
                write_attr(&g, p, n, v)?;
            }
            Ok(())
        })()
    } else {
        Ok(())
    };
    ctx.agree(r)
}

/// Removes the object `path` (a dataset or a group) from every file where it exists
/// (`update_hdf`); the space is reclaimed by [`h5_repack`]. **Collective.**
pub fn h5_delete(ctx: &Ctx, files: &[PathBuf], path: &str) -> Result<()> {
    let me = ctx.id();
    let r = if me < files.len() {
        let p = &files[me];
        (|| -> Result<()> {
            let f = open_rw(p)?;
            let (parent, name) = split_parent(path);
            let g: Group = if parent.is_empty() {
                (*f).clone()
            } else {
                match f.group(parent) {
                    Ok(g) => g,
                    Err(_) => return Ok(()),
                }
            };
            if g.link_exists(name) {
                g.unlink(name).map_err(|e| h5err(FileErrorKind::Io, p, format!("{path}: {e}")))?;
            }
            Ok(())
        })()
    } else {
        Ok(())
    };
    ctx.agree(r)
}

/// Rewrites every file without the space of removed objects (HDF5 does not reclaim it): the
/// objects are copied into a new file that then replaces the old one. **Collective.**
pub fn h5_repack(ctx: &Ctx, files: &[PathBuf]) -> Result<()> {
    let me = ctx.id();
    let r = if me < files.len() {
        let p = &files[me];
        (|| -> Result<()> {
            let tmp = p.with_extension("atoll-repack.tmp");
            {
                let src = open_read(p)?;
                let dst = File::create(&tmp).map_err(|e| h5err(FileErrorKind::Io, &tmp, e))?;
                for (n, v) in read_attrs(&src) {
                    write_attr(&dst, &tmp, &n, &v)?;
                }
                for n in src.member_names().map_err(|e| h5err(FileErrorKind::Corrupt, p, e))? {
                    let obj: Location = match src.loc_type_by_name(&n) {
                        Ok(LocationType::Group) => {
                            (*src.group(&n).map_err(|e| h5err(FileErrorKind::Corrupt, p, e))?).clone()
                        }
                        _ => (**src.dataset(&n).map_err(|e| h5err(FileErrorKind::Corrupt, p, e))?).clone(),
                    };
                    obj.copy_to(&dst, &n).map_err(|e| h5err(FileErrorKind::Io, &tmp, format!("{n}: {e}")))?;
                }
            }
            std::fs::rename(&tmp, p).map_err(|e| h5err(FileErrorKind::Io, p, e))
        })()
    } else {
        Ok(())
    };
    ctx.agree(r)
}

/// An element type written to HDF5, and how a locale's part becomes its buffer.
pub trait H5Elem: Copy + Send + Sync + 'static {
    /// The stored type.
    type Stored: hdf5::H5Type + Copy;
    /// The stored value.
    fn stored(self) -> Self::Stored;
    /// The stored values of a slice: borrowed where the stored type is the element type.
    fn stored_slice(s: &[Self]) -> Cow<'_, [Self::Stored]> {
        Cow::Owned(s.iter().map(|&x| x.stored()).collect())
    }
    /// Whether the dataset gets Arkouda's `isBool` attribute.
    const IS_BOOL: bool = false;
}
impl H5Elem for i64 {
    type Stored = i64;
    fn stored(self) -> i64 {
        self
    }
    fn stored_slice(s: &[i64]) -> Cow<'_, [i64]> {
        Cow::Borrowed(s)
    }
}
impl H5Elem for u64 {
    type Stored = u64;
    fn stored(self) -> u64 {
        self
    }
    fn stored_slice(s: &[u64]) -> Cow<'_, [u64]> {
        Cow::Borrowed(s)
    }
}
impl H5Elem for f64 {
    type Stored = f64;
    fn stored(self) -> f64 {
        self
    }
    fn stored_slice(s: &[f64]) -> Cow<'_, [f64]> {
        Cow::Borrowed(s)
    }
}
impl H5Elem for bool {
    type Stored = u8;
    fn stored(self) -> u8 {
        u8::from(self)
    }
    const IS_BOOL: bool = true;
}
impl H5Elem for u8 {
    type Stored = u8;
    fn stored(self) -> u8 {
        self
    }
    fn stored_slice(s: &[u8]) -> Cow<'_, [u8]> {
        Cow::Borrowed(s)
    }
}

/// Writes a dataset of `total` elements at `path` of an open file from `data` placed at
/// `at` (the whole dataset when the file is one locale's): created by the first writer,
/// then filled by hyperslabs.
#[allow(clippy::too_many_arguments)] // one call per element type, from one generic writer
fn write_part<S: hdf5::H5Type + Copy>(
    f: &File,
    file: &Path,
    path: &str,
    total: usize,
    at: usize,
    data: &[S],
    create: bool,
    attrs: &[(String, AttrVal)],
) -> Result<()> {
    let io = |e: hdf5::Error| h5err(FileErrorKind::Io, file, format!("{path}: {e}"));
    let (parent, name) = split_parent(path);
    let g = ensure_group(f, parent, file)?;
    let ds = if create {
        if g.link_exists(name) {
            return Err(file_err(FileErrorKind::Io, file, format!("{path}: the dataset exists already")));
        }
        let ds = g.new_dataset::<S>().shape([total]).create(name).map_err(io)?;
        for (n, v) in attrs {
            write_attr(&ds, file, n, v)?;
        }
        ds
    } else {
        g.dataset(name).map_err(io)?
    };
    if !data.is_empty() {
        ds.write_slice(data, at..at + data.len()).map_err(io)?;
    }
    Ok(())
}

/// The boxes (per-axis start and count) of a C-order array of shape `dims` that together
/// hold its flat elements `lo..hi`, in flat order: at most two partial boxes per axis and
/// one of whole rows, so any flat range is a few hyperslabs. A scalar (`dims` empty) is one
/// box of no axes.
fn flat_boxes(dims: &[usize], lo: usize, hi: usize) -> Vec<(Vec<usize>, Vec<usize>)> {
    let mut out = Vec::new();
    if lo < hi {
        if dims.is_empty() {
            out.push((vec![], vec![]));
        } else {
            boxes_rec(dims, lo, hi, &mut Vec::new(), &mut out);
        }
    }
    out
}

fn boxes_rec(dims: &[usize], lo: usize, hi: usize, prefix: &mut Vec<usize>, out: &mut Vec<(Vec<usize>, Vec<usize>)>) {
    let inner: usize = dims[1..].iter().product();
    let whole = |prefix: &[usize], first: usize, rows: usize| {
        let mut start = prefix.to_vec();
        start.push(first);
        start.extend(std::iter::repeat_n(0, dims.len() - 1));
        let mut count = vec![1; prefix.len()];
        count.push(rows);
        count.extend_from_slice(&dims[1..]);
        (start, count)
    };
    if dims.len() == 1 {
        out.push(whole(prefix, lo, hi - lo));
        return;
    }
    let (r0, o0) = (lo / inner, lo % inner);
    let (r1, o1) = (hi / inner, hi % inner);
    let sub = |row: usize, a: usize, b: usize, prefix: &mut Vec<usize>, out: &mut Vec<_>| {
        prefix.push(row);
        boxes_rec(&dims[1..], a, b, prefix, out);
        prefix.pop();
    };
    if r0 == r1 {
        sub(r0, o0, o1, prefix, out);
        return;
    }
    let mut first = r0;
    if o0 != 0 {
        sub(r0, o0, inner, prefix, out);
        first += 1;
    }
    if r1 > first {
        out.push(whole(prefix, first, r1 - first));
    }
    if o1 != 0 {
        sub(r1, 0, o1, prefix, out);
    }
}

fn hyperslab(start: &[usize], count: &[usize]) -> Hyperslab {
    Hyperslab::from(
        start
            .iter()
            .zip(count)
            .map(|(&start, &count)| SliceOrIndex::SliceCount { start, step: 1, count, block: 1 })
            .collect::<Vec<_>>(),
    )
}

/// Writes `data` as the flat elements `at..at + data.len()` of the dataset `path` of shape
/// `dims` (created, with `attrs`, when `create`).
#[allow(clippy::too_many_arguments)] // one call per element type, from one generic writer
fn write_part_nd<S: hdf5::H5Type + Copy>(
    f: &File,
    file: &Path,
    path: &str,
    dims: &[usize],
    at: usize,
    data: &[S],
    create: bool,
    attrs: &[(String, AttrVal)],
) -> Result<()> {
    let io = |e: hdf5::Error| h5err(FileErrorKind::Io, file, format!("{path}: {e}"));
    let (parent, name) = split_parent(path);
    let g = ensure_group(f, parent, file)?;
    let ds = if create {
        if g.link_exists(name) {
            return Err(file_err(FileErrorKind::Io, file, format!("{path}: the dataset exists already")));
        }
        let ds = g.new_dataset::<S>().shape(dims.to_vec()).create(name).map_err(io)?;
        for (n, v) in attrs {
            write_attr(&ds, file, n, v)?;
        }
        ds
    } else {
        g.dataset(name).map_err(io)?
    };
    if dims.is_empty() {
        if let Some(x) = data.first() {
            ds.write_scalar(x).map_err(io)?;
        }
        return Ok(());
    }
    let mut off = 0;
    for (start, count) in flat_boxes(dims, at, at + data.len()) {
        let n: usize = count.iter().product();
        let view = ArrayView::from_shape(IxDyn(&count), &data[off..off + n])
            .map_err(|e| h5err(FileErrorKind::Io, file, format!("{path}: {e}")))?;
        ds.write_slice(view, hyperslab(&start, &count)).map_err(io)?;
        off += n;
    }
    Ok(())
}

/// The rows of axis 0 that file `k` of `n` holds (Block rows: `ceil(k R / n)..`).
fn file_rows(rows: usize, k: usize, n: usize) -> Range<usize> {
    let start = |k: usize| ((k as u128 * rows as u128).div_ceil(n as u128)) as usize;
    start(k)..start(k + 1)
}

/// Writes the Block array `a` (the C-order flat values of an array of shape `shape`, of any
/// rank) as the dataset `path` of that shape: in a single file the whole array, written by
/// the locales in turn; with one file per locale, file `k` the rows of axis 0 that
/// `file_rows` gives it (a dataset of shape `(rows, shape[1..])`), each locale writing the
/// part of its values that falls in each file, one file per locale at a time. A rank-0
/// array with one file per locale is file 0's scalar, the other files' datasets of shape
/// `(0,)`. With attributes `attrs` (and `isBool` for bool arrays). **Collective.**
///
/// # Errors
/// [`atoll_error::Error::InvalidArgument`] when `shape` does not hold `a`'s length;
/// [`FileErrorKind::Io`] when a file cannot be written.
pub fn h5_write_array_shaped<T: H5Elem + atoll_array::Elem>(
    ctx: &Ctx,
    files: &[PathBuf],
    path: &str,
    a: &DistArray<T, 1>,
    shape: &[usize],
    attrs: &[(String, AttrVal)],
) -> Result<()> {
    writer_of(ctx, files.len())?;
    let local = T::stored_slice(a.local());
    let lens: Vec<usize> = ctx.allgather(&local.len())?;
    let total: usize = lens.iter().sum();
    if shape.iter().product::<usize>() != total {
        return Err(atoll_error::invalid_arg!("hdf5: shape {:?} does not hold {} elements", shape, total));
    }
    let mut attrs = attrs.to_vec();
    if T::IS_BOOL {
        attrs.push(("isBool".into(), AttrVal::I64(1)));
    }
    let me = ctx.id();
    let mine = {
        let at: usize = lens[..me].iter().sum();
        at..at + local.len()
    };
    if files.len() == 1 {
        return in_turn(ctx, files, local.len(), |p, at, _, create| {
            let f = open_rw(p)?;
            write_part_nd(&f, p, path, shape, at, &local, create, &attrs)
        });
    }
    let nl = ctx.num_locales();
    // File k's dataset: its rows (a scalar's is file 0's, the rest empty), and the flat range
    // of the array it holds.
    let piece = |k: usize| -> (Vec<usize>, Range<usize>) {
        if shape.is_empty() {
            return if k == 0 { (vec![], 0..1) } else { (vec![0], 1..1) };
        }
        let inner: usize = shape[1..].iter().product();
        let rows = file_rows(shape[0], k, nl);
        let mut dims = vec![rows.len()];
        dims.extend_from_slice(&shape[1..]);
        (dims, rows.start * inner..rows.end * inner)
    };
    let r = (|| {
        let f = open_rw(&files[me])?;
        write_part_nd::<T::Stored>(&f, &files[me], path, &piece(me).0, 0, &[], true, &attrs)
    })();
    ctx.agree(r)?;
    // Round r: locale j writes into file (j + r) mod N, so each file has one writer at a time.
    for round in 0..nl {
        let k = (me + round) % nl;
        let (dims, range) = piece(k);
        let lo = range.start.max(mine.start);
        let hi = range.end.min(mine.end);
        let r = if lo < hi {
            (|| {
                let f = open_rw(&files[k])?;
                let data = &local[lo - mine.start..hi - mine.start];
                write_part_nd(&f, &files[k], path, &dims, lo - range.start, data, false, &attrs)
            })()
        } else {
            Ok(())
        };
        ctx.agree(r)?;
    }
    Ok(())
}

/// Runs `write(part_start, total)` on every locale: in one file per locale each writes its
/// own file at once; into a single file, in turn (locale 0 first creates the dataset).
fn in_turn(
    ctx: &Ctx,
    files: &[PathBuf],
    my_len: usize,
    write: impl Fn(&Path, usize, usize, bool) -> Result<()>,
) -> Result<()> {
    writer_of(ctx, files.len())?;
    let me = ctx.id();
    if files.len() == 1 {
        let lens: Vec<usize> = ctx.allgather(&my_len)?;
        let total: usize = lens.iter().sum();
        let at: usize = lens[..me].iter().sum();
        let mut outcome = Ok(());
        for k in 0..ctx.num_locales() {
            if k == me {
                outcome = write(&files[0], at, total, k == 0);
            }
            outcome = ctx.agree(outcome);
            outcome.clone()?;
        }
        outcome
    } else {
        let r = write(&files[me], 0, my_len, true);
        ctx.agree(r)
    }
}

/// Writes the Block array `a` as the dataset `path` (one file per locale: each its part; a
/// single file: all of it), with the attributes `attrs` (and `isBool` for bool arrays).
/// **Collective.**
pub fn h5_write_array<T: H5Elem + atoll_array::Elem>(
    ctx: &Ctx,
    files: &[PathBuf],
    path: &str,
    a: &DistArray<T, 1>,
    attrs: &[(String, AttrVal)],
) -> Result<()> {
    let local = T::stored_slice(a.local());
    let mut attrs = attrs.to_vec();
    if T::IS_BOOL {
        attrs.push(("isBool".into(), AttrVal::I64(1)));
    }
    in_turn(ctx, files, local.len(), |p, at, total, create| {
        let f = open_rw(p)?;
        write_part(&f, p, path, total, at, &local, create, &attrs)
    })
}

/// Writes strings as Arkouda does: the group `path` with `values` (UTF-8 bytes, each string
/// followed by a NUL) and, when `offsets`, `segments` (int64 offsets of the strings in the
/// file's values); both with `ObjType` 1 (pdarray), the group with `attrs`. **Collective.**
pub fn h5_write_strings(
    ctx: &Ctx,
    files: &[PathBuf],
    path: &str,
    s: &DistStrings,
    offsets: bool,
    attrs: &[(String, AttrVal)],
) -> Result<()> {
    let local = s.local();
    let mut vals: Vec<u8> = Vec::with_capacity(local.bytes().len() + local.len());
    let mut segs: Vec<i64> = Vec::with_capacity(local.len());
    for x in local.iter() {
        segs.push(vals.len() as i64);
        vals.extend_from_slice(x);
        vals.push(0);
    }
    let comp = [("ObjType".to_string(), AttrVal::I64(1))];
    // In a single file the offsets continue from the earlier locales' bytes.
    let byte_lens: Vec<usize> = if files.len() == 1 { ctx.allgather(&vals.len())? } else { vec![] };
    let base: i64 = byte_lens[..byte_lens.len().min(ctx.id())].iter().sum::<usize>() as i64;
    let segs: Vec<i64> = segs.into_iter().map(|o| o + base).collect();
    h5_group(ctx, files, path, attrs)?;
    in_turn(ctx, files, vals.len(), |p, at, total, create| {
        let f = open_rw(p)?;
        write_part(&f, p, &format!("{path}/values"), total, at, &vals, create, &comp)
    })?;
    if offsets {
        in_turn(ctx, files, segs.len(), |p, at, total, create| {
            let f = open_rw(p)?;
            write_part(&f, p, &format!("{path}/segments"), total, at, &segs, create, &comp)
        })?;
    }
    Ok(())
}

/// The dtype a dataset of HDF5 type `d` reads as: integers of any width as int64 or uint64,
/// floats as float64, 8-bit unsigned integers as uint8, or as bool where Arkouda's `isBool`
/// attribute marks them (or HDF5's enum bool).
fn kind_of(d: &TypeDescriptor, is_bool: bool) -> Option<DType> {
    match d {
        TypeDescriptor::Unsigned(IntSize::U1) if is_bool => Some(DType::Bool),
        TypeDescriptor::Integer(IntSize::U1) if is_bool => Some(DType::Bool),
        TypeDescriptor::Boolean => Some(DType::Bool),
        TypeDescriptor::Unsigned(IntSize::U1) => Some(DType::U8),
        TypeDescriptor::Integer(_) => Some(DType::I64),
        TypeDescriptor::Unsigned(_) => Some(DType::U64),
        TypeDescriptor::Float(_) => Some(DType::F64),
        _ => None,
    }
}

/// The length and dtype (as read) of dataset `path` in file `p`.
fn dataset_info(p: &Path, path: &str) -> Result<(usize, DType)> {
    let f = open_read(p)?;
    let ds = f.dataset(path).map_err(|_| file_err(FileErrorKind::MissingDataset, p, format!("no dataset {path:?}")))?;
    let d = ds.dtype().and_then(|t| t.to_descriptor()).map_err(|e| h5err(FileErrorKind::WrongType, p, e))?;
    let is_bool = ds.attr("isBool").and_then(|a| a.read_scalar::<i64>()).map(|v| v != 0).unwrap_or(false);
    let k = kind_of(&d, is_bool).ok_or_else(|| {
        file_err(FileErrorKind::WrongType, p, format!("{path}: elements of type {} cannot be read", type_name(&d)))
    })?;
    Ok((ds.size(), k))
}

/// The shape of dataset `path` in each of `files` (an empty shape for a scalar). Not
/// collective: one locale reads the files' metadata.
///
/// # Errors
/// [`FileErrorKind::NotFound`], [`FileErrorKind::Corrupt`], or
/// [`FileErrorKind::MissingDataset`], naming the file.
pub fn h5_dims(files: &[PathBuf], path: &str) -> Result<Vec<Vec<usize>>> {
    files
        .iter()
        .map(|p| {
            let f = open_read(p)?;
            let ds = f
                .dataset(path)
                .map_err(|_| file_err(FileErrorKind::MissingDataset, p, format!("no dataset {path:?}")))?;
            Ok(ds.shape())
        })
        .collect()
}

/// The flat elements `range` (in C order) of the dataset `ds`, of any rank.
fn read_flat<T: hdf5::H5Type + Copy>(ds: &hdf5::Dataset, range: Range<usize>) -> hdf5::Result<Vec<T>> {
    let dims = ds.shape();
    if dims.len() == 1 {
        let v = ds.read_slice_1d::<T, _>(range)?;
        return Ok(v.iter().copied().collect());
    }
    if dims.is_empty() {
        return Ok(if range.is_empty() { vec![] } else { vec![ds.read_scalar::<T>()?] });
    }
    let mut out = Vec::with_capacity(range.len());
    for (start, count) in flat_boxes(&dims, range.start, range.end) {
        let v = ds.read_slice::<T, _, IxDyn>(hyperslab(&start, &count))?;
        out.extend(v.iter().copied());
    }
    Ok(out)
}

/// The pieces of the files that overlap `want` (a range of the concatenated elements):
/// (file, range within it, range within `want`).
fn overlaps(lens: &[usize], want: Range<usize>) -> Vec<(usize, Range<usize>, Range<usize>)> {
    let mut out = Vec::new();
    let mut start = 0;
    for (f, &n) in lens.iter().enumerate() {
        let end = start + n;
        let lo = want.start.max(start);
        let hi = want.end.min(end);
        if lo < hi {
            out.push((f, lo - start..hi - start, lo - want.start..hi - want.start));
        }
        start = end;
    }
    out
}

/// This locale's part of `0..n` in a Block distribution: `ceil(k n / N)..ceil((k+1) n / N)`
/// (the arrays of `dist::block` own these ranges).
fn block_range(ctx: &Ctx, n: usize) -> Range<usize> {
    let parts = ctx.num_locales() as u128;
    let start = |k: u128| ((k * n as u128).div_ceil(parts)) as usize;
    let k = ctx.id() as u128;
    start(k)..start(k + 1)
}

fn read_into<T: hdf5::H5Type + Copy, U: Copy>(
    files: &[PathBuf],
    path: &str,
    lens: &[usize],
    here: Range<usize>,
    out: &mut [U],
    conv: impl Fn(T) -> U,
) -> Result<()> {
    for (f, src, dst) in overlaps(lens, here) {
        let p = &files[f];
        let file = open_read(p)?;
        let ds = file
            .dataset(path)
            .map_err(|_| file_err(FileErrorKind::MissingDataset, p, format!("no dataset {path:?}")))?;
        let v =
            read_flat::<T>(&ds, src.clone()).map_err(|e| h5err(FileErrorKind::Corrupt, p, format!("{path}: {e}")))?;
        for (o, &x) in out[dst].iter_mut().zip(&v) {
            *o = conv(x);
        }
    }
    Ok(())
}

/// Reads the dataset `path` of every file, concatenated, as a Block array (int64, uint64,
/// float64 or bool, from any width). With `strict`, every file must store the same type.
/// **Collective.**
pub fn h5_read_array(ctx: &Ctx, files: &[PathBuf], path: &str, strict: bool) -> Result<Column> {
    if files.is_empty() {
        return Err(atoll_error::invalid_arg!("read_hdf: no files given"));
    }
    // Every locale reads the (small) metadata itself: the outcome is the same everywhere.
    let infos: Result<Vec<(usize, DType, String)>> = files
        .iter()
        .map(|p| {
            let (n, k) = dataset_info(p, path)?;
            let f = open_read(p)?;
            let t = f.dataset(path).and_then(|d| d.dtype()).and_then(|t| t.to_descriptor()).map(|d| type_name(&d));
            Ok((n, k, t.unwrap_or_default()))
        })
        .collect();
    let infos = ctx.agree(infos)?;
    // Without `strict`, integers of either sign read together as int64 (Arkouda's rule).
    let mixed_ints =
        infos.iter().any(|x| x.1 == DType::I64) && infos.iter().any(|x| matches!(x.1, DType::U64 | DType::U8));
    // uint8 stays uint8 when every file's dataset is; with wider unsigned ones, uint64.
    let wide_u = infos.iter().any(|x| x.1 == DType::U64) && infos.iter().any(|x| x.1 == DType::U8);
    let kind = if !strict && mixed_ints {
        DType::I64
    } else if wide_u {
        DType::U64
    } else {
        infos[0].1
    };
    let same = |k: DType| {
        k == kind
            || (!strict && kind == DType::I64 && matches!(k, DType::U64 | DType::U8))
            || (kind == DType::U64 && k == DType::U8)
    };
    for (i, (_, k, t)) in infos.iter().enumerate() {
        if !same(*k) || (strict && *t != infos[0].2) {
            return Err(file_err(
                FileErrorKind::WrongType,
                &files[i],
                format!("{path}: type {t} differs from {} in {}", infos[0].2, files[0].display()),
            ));
        }
    }
    let lens: Vec<usize> = infos.iter().map(|x| x.0).collect();
    let total: usize = lens.iter().sum();
    let d = dist::block(ctx, [total])?;
    let here = block_range(ctx, total);
    macro_rules! read_as {
        ($t:ty, $wrap:path, $read:ty, $conv:expr) => {{
            let mut a = DistArray::<$t, 1>::for_overwrite(ctx, d.clone())?;
            let r = read_into::<$read, $t>(files, path, &lens, here.clone(), a.local_mut(), $conv);
            match ctx.agree(r) {
                Ok(()) => Ok(Column::Num($wrap(a))),
                Err(e) => {
                    drop(a);
                    Err(e)
                }
            }
        }};
    }
    match kind {
        DType::I64 => read_as!(i64, Col::I, i64, |x| x),
        DType::U64 => read_as!(u64, Col::U, u64, |x| x),
        DType::F64 => read_as!(f64, Col::F, f64, |x| x),
        DType::Bool => read_as!(bool, Col::B, u8, |x: u8| x != 0),
        DType::U8 => read_as!(u8, Col::U8, u8, |x| x),
    }
}

/// Reads strings in Arkouda's layout (the group `path` with `values` and `segments`) of every
/// file, concatenated. Without `segments` (written with `save_offsets=False`) or with
/// `calc_offsets`, the strings are found from the NULs: each locale then reads whole files.
/// **Collective.**
pub fn h5_read_strings(ctx: &Ctx, files: &[PathBuf], path: &str, calc_offsets: bool) -> Result<DistStrings> {
    if files.is_empty() {
        return Err(atoll_error::invalid_arg!("read_hdf: no files given"));
    }
    let vpath = format!("{path}/values");
    let spath = format!("{path}/segments");
    let meta: Result<Vec<(usize, Option<usize>)>> = files
        .iter()
        .map(|p| {
            let f = open_read(p)?;
            let v = f
                .dataset(&vpath)
                .map_err(|_| file_err(FileErrorKind::MissingDataset, p, format!("no strings dataset {path:?}")))?;
            let s = if calc_offsets { None } else { f.dataset(&spath).ok().map(|d| d.size()) };
            Ok((v.size(), s))
        })
        .collect();
    let meta = ctx.agree(meta)?;
    let me = ctx.id();
    let nl = ctx.num_locales();
    let local: Result<LocalStrings> = if meta.iter().all(|m| m.1.is_some()) {
        // Each locale reads the strings of its Block part of the string indices.
        let counts: Vec<usize> = meta.iter().map(|m| m.1.unwrap_or(0)).collect();
        let total: usize = counts.iter().sum();
        let here = block_range(ctx, total);
        (|| {
            let mut out = LocalStrings::new();
            for (f, src, _) in overlaps(&counts, here) {
                let p = &files[f];
                let file = open_read(p)?;
                let seg = file.dataset(&spath).map_err(|e| h5err(FileErrorKind::Corrupt, p, e))?;
                let vals = file.dataset(&vpath).map_err(|e| h5err(FileErrorKind::Corrupt, p, e))?;
                let hi = (src.end + 1).min(counts[f]);
                let s = seg.read_slice_1d::<i64, _>(src.start..hi).map_err(|e| h5err(FileErrorKind::Corrupt, p, e))?;
                let s = s.as_slice().unwrap_or(&[]).to_vec();
                let vlen = meta[f].0;
                let b0 = usize::try_from(s[0]).map_err(|_| file_err(FileErrorKind::Corrupt, p, "negative offset"))?;
                let b1 = if hi > src.end { s[src.len()] as usize } else { vlen };
                if b0 > b1 || b1 > vlen {
                    return Err(file_err(FileErrorKind::Corrupt, p, format!("{spath}: offsets out of order")));
                }
                let bytes = vals.read_slice_1d::<u8, _>(b0..b1).map_err(|e| h5err(FileErrorKind::Corrupt, p, e))?;
                let bytes = bytes.as_slice().unwrap_or(&[]);
                for k in 0..src.len() {
                    let a = s[k] as usize - b0;
                    let e = if k + 1 < s.len() { s[k + 1] as usize - b0 } else { bytes.len() };
                    if a > e || e > bytes.len() {
                        return Err(file_err(FileErrorKind::Corrupt, p, format!("{spath}: offsets out of order")));
                    }
                    let mut x = &bytes[a..e];
                    if let Some((&0, rest)) = x.split_last() {
                        x = rest;
                    }
                    let st = std::str::from_utf8(x).map_err(|_| {
                        file_err(FileErrorKind::Corrupt, p, format!("{vpath}: bytes that are not UTF-8"))
                    })?;
                    out.push(st);
                }
            }
            Ok(out)
        })()
    } else {
        // Whole files per locale, contiguous (file order is string order).
        let nf = files.len();
        let mine = (me * nf / nl)..((me + 1) * nf / nl);
        (|| {
            let mut out = LocalStrings::new();
            for f in mine {
                let p = &files[f];
                let file = open_read(p)?;
                let vals = file.dataset(&vpath).map_err(|e| h5err(FileErrorKind::Corrupt, p, e))?;
                let b = vals.read_raw::<u8>().map_err(|e| h5err(FileErrorKind::Corrupt, p, e))?;
                let body = b.strip_suffix(&[0]).unwrap_or(&b);
                if b.is_empty() {
                    continue;
                }
                for x in body.split(|&c| c == 0) {
                    let st = std::str::from_utf8(x).map_err(|_| {
                        file_err(FileErrorKind::Corrupt, p, format!("{vpath}: bytes that are not UTF-8"))
                    })?;
                    out.push(st);
                }
            }
            Ok(out)
        })()
    };
    let local = ctx.agree(local)?;
    DistStrings::from_local_parts(ctx, local, "read_hdf")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_ranges_match_the_block_distribution() {
        atoll_runtime::run(atoll_runtime::Config::local(3), |ctx| {
            use atoll_array::DistArray;
            for n in [0usize, 1, 2, 7, 100] {
                let a = DistArray::<i64, 1>::zeros(ctx, dist::block(ctx, [n])?)?;
                assert_eq!(a.local().len(), block_range(ctx, n).len());
            }
            Ok(())
        })
        .unwrap();
    }

    /// Every flat range of a few shapes: the boxes hold its elements, in order.
    #[test]
    fn flat_boxes_cover_flat_ranges_in_order() {
        for dims in [vec![5usize], vec![3, 4], vec![2, 3, 4], vec![2, 1, 3, 2], vec![3, 0, 2], vec![]] {
            let n: usize = dims.iter().product();
            let strides: Vec<usize> = (0..dims.len()).map(|k| dims[k + 1..].iter().product()).collect();
            for lo in 0..=n {
                for hi in lo..=n {
                    let mut got = Vec::new();
                    for (start, count) in flat_boxes(&dims, lo, hi) {
                        let m: usize = count.iter().product();
                        for i in 0..m {
                            // The i-th element of the box in C order, as a flat index.
                            let mut rem = i;
                            let mut flat = 0;
                            for k in (0..dims.len()).rev() {
                                flat += (start[k] + rem % count[k]) * strides[k];
                                rem /= count[k];
                            }
                            got.push(flat);
                        }
                    }
                    assert_eq!(got, (lo..hi).collect::<Vec<_>>(), "{dims:?} {lo}..{hi}");
                    assert!(flat_boxes(&dims, lo, hi).len() <= 2 * dims.len().max(1) + 1);
                }
            }
        }
    }

    /// Arrays of several shapes written (one file per locale, and one file) and read back:
    /// the datasets have the shape (file k: its rows), the values come back in C order.
    #[test]
    fn shaped_arrays_round_trip() {
        let dir = std::env::temp_dir().join(format!("atoll_h5_nd_{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for nl in [1usize, 2, 3] {
            for shape in [vec![2usize, 3], vec![5, 2, 2], vec![1, 7], vec![0, 3], vec![4, 0], vec![]] {
                let n: usize = shape.iter().product();
                for single in [false, true] {
                    let tag =
                        format!("{nl}_{}_{single}", shape.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("x"));
                    let files: Vec<PathBuf> = if single {
                        vec![dir.join(format!("s_{tag}.h5"))]
                    } else {
                        (0..nl).map(|k| dir.join(format!("d_{tag}_{k}.h5"))).collect()
                    };
                    let (shape2, files2) = (shape.clone(), files.clone());
                    atoll_runtime::run(atoll_runtime::Config::local(nl), move |ctx| {
                        let d = dist::block(ctx, [n])?;
                        let mut a = DistArray::<i64, 1>::zeros(ctx, d)?;
                        let r = block_range(ctx, n);
                        for (o, i) in a.local_mut().iter_mut().zip(r) {
                            *o = i as i64 * 10 + 1;
                        }
                        h5_create(ctx, &files2, true)?;
                        h5_write_array_shaped(ctx, &files2, "x", &a, &shape2, &[])?;
                        let back = h5_read_array(ctx, &files2, "x", true)?;
                        let Column::Num(Col::I(b)) = back else { panic!("not int64") };
                        assert_eq!(b.local(), a.local());
                        Ok(())
                    })
                    .unwrap();
                    let dims = h5_dims(&files, "x").unwrap();
                    if single || shape.is_empty() && nl == 1 {
                        assert_eq!(dims, vec![shape.clone()]);
                    } else if shape.is_empty() {
                        assert_eq!(dims[0], Vec::<usize>::new());
                        assert!(dims[1..].iter().all(|d| d == &vec![0]));
                    } else {
                        let rows: Vec<usize> = (0..nl).map(|k| file_rows(shape[0], k, nl).len()).collect();
                        let want: Vec<Vec<usize>> = rows
                            .iter()
                            .map(|&r| std::iter::once(r).chain(shape[1..].iter().copied()).collect())
                            .collect();
                        assert_eq!(dims, want);
                    }
                }
            }
        }
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn overlap_pieces() {
        let o = overlaps(&[3, 0, 4], 2..6);
        assert_eq!(o, vec![(0, 2..3, 0..1), (2, 0..3, 1..4)]);
        assert!(overlaps(&[3], 3..3).is_empty());
    }
}
