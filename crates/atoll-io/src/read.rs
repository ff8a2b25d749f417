//! Reading Parquet columns into Block arrays, every locale decoding the rows of its own part.

use crate::column::{Col as NumCol, Column, DType, IoDType};
use crate::meta::{all_names, col_dtype, corrupt, file_err, guarded, open, summarize, FileSummary, Source};
use crate::posfile::PosFile;
use crate::strcol::read_strings;
use atoll_array::dist;
use atoll_error::{invalid_arg, FileErrorKind, Result};
use atoll_runtime::Ctx;
use atoll_strings::{DistStrings, LocalStrings};
use atoll_util::sync::{into_inner, lock};
use parquet::column::reader::{get_typed_column_reader, ColumnReader};
use parquet::data_type::{
    BoolType, ByteArrayType, DataType, DoubleType, FixedLenByteArrayType, FloatType, Int32Type, Int64Type,
};
use parquet::file::reader::{FileReader, SerializedFileReader};
use std::collections::BTreeMap;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Rows per task: a row group larger than this is decoded in pieces by several threads.
const PIECE: usize = 1 << 20;
/// Rows decoded per call into the decoder.
const BATCH: usize = 1 << 15;

/// Reads the columns `datasets` (every column of the first file when `None`) of the Parquet
/// files `paths` into Block arrays: the files' rows in order form one sequence of rows.
/// Returns `(name, column)` pairs in the order asked for (schema order for `None`).
///
/// The footers are read by the locales in turn (file `i` by locale `i % N`) and allgathered;
/// then each locale decodes the row groups (or the parts of them) that overlap its Block part
/// straight into it, in parallel on its task pool. int8-32 columns read as int64, uint8-32 as
/// uint64, float32 as float64; nulls read as NaN in float columns and are an error in others.
/// String columns (BYTE_ARRAY annotated as UTF-8) read as [`Column::Str`]: each locale decodes
/// the strings of its Block part (plain or dictionary pages), a null reads as the empty string
/// (as in Arkouda), bytes that are not UTF-8 are a [`FileErrorKind::Corrupt`] error. Decimal
/// columns read as float64. LIST columns (one level) read as [`Column::List`]: each locale
/// decodes the lists of its rows, then their values move to their own Block layout (see
/// `list.rs`).
///
/// **Collective**: every locale passes the same arguments and gets the same outcome.
///
/// # Errors
/// The same error on every locale, with nothing left allocated:
/// [`Error::File`](atoll_error::Error::File) with [`FileErrorKind::NotFound`] (a missing file),
/// [`FileErrorKind::Corrupt`] (not Parquet, truncated, undecodable),
/// [`FileErrorKind::MissingDataset`], [`FileErrorKind::WrongType`] (a binary column, a list
/// of lists, a dtype that differs between files, nulls in a non-float, non-string column);
/// `InvalidArgument` for no paths or no datasets; `OutOfMemory` from the allocation.
pub fn read_parquet(ctx: &Ctx, paths: &[PathBuf], datasets: Option<&[String]>) -> Result<Vec<(String, Column)>> {
    if paths.is_empty() {
        return Err(invalid_arg!("read_parquet: no files given"));
    }
    // The dataset names: given, or every column of the first file (each locale reads that
    // footer itself: the outcome is the same everywhere).
    let names: Vec<String> = match datasets {
        Some(d) => d.to_vec(),
        None => ctx.agree(all_names(&paths[0]))?,
    };
    if names.is_empty() {
        return Err(invalid_arg!("read_parquet: no datasets to read"));
    }
    for (i, n) in names.iter().enumerate() {
        if names[..i].contains(n) {
            return Err(invalid_arg!("read_parquet: dataset {n:?} is named twice"));
        }
    }
    let all_summaries = gather_summaries(ctx, paths, &names)?;
    let all_dtypes = agree_dtypes(paths, &names, &all_summaries)?;
    // List columns are read on their own (`crate::list`); the others together here.
    let flat: Vec<usize> = (0..names.len()).filter(|&k| !all_dtypes[k].is_list()).collect();
    let summaries: Vec<FileSummary> = all_summaries
        .iter()
        .map(|s| FileSummary { groups: s.groups.clone(), cols: flat.iter().map(|&k| s.cols[k]).collect() })
        .collect();
    let dtypes: Vec<IoDType> = flat.iter().map(|&k| all_dtypes[k]).collect();

    let (groups, total) = row_groups(paths, &summaries)?;

    // Allocate the numeric columns (collective; an out-of-memory outcome is the same
    // everywhere). String columns (`None` here) are built from what the locales decode.
    let d = dist::block(ctx, [total])?;
    let mut cols: Vec<Option<Column>> = Vec::with_capacity(names.len());
    for &t in &dtypes {
        let c = match t {
            // Parquet's 8-bit integers are read widened (`meta`'s sources): never asked for.
            IoDType::Num(DType::U8) => Err(invalid_arg!("read_parquet: uint8 columns are read as uint64")),
            IoDType::Num(t) => NumCol::zeros(ctx, t, total).map(Column::Num),
            IoDType::Str => {
                cols.push(None);
                continue;
            }
            t => Err(invalid_arg!("read_parquet: internal: a list column ({}) among the flat ones", t.name())),
        };
        match c {
            Ok(c) => cols.push(Some(c)),
            Err(e) => {
                free_cols(cols)?;
                return Err(e);
            }
        }
    }

    let here = local_rows(&d, ctx.id())?;
    let decoded = decode_local(ctx, paths, &summaries, &groups, here.clone(), &mut cols);
    let strs = match ctx.agree(decoded) {
        Ok(s) => s,
        Err(e) => {
            free_cols(cols)?;
            return Err(e);
        }
    };
    // The string columns, in order on every locale (each locale's strings are its Block part
    // already: no data moves, only the budget's reservation, agreed).
    let mut strs = strs.into_iter();
    for slot in cols.iter_mut().filter(|c| c.is_none()) {
        let local = strs.next().unwrap_or_default();
        match DistStrings::from_local_parts(ctx, local, "read_parquet") {
            Ok(s) => *slot = Some(Column::Str(s)),
            Err(e) => {
                free_cols(cols)?;
                return Err(e);
            }
        }
    }
    let cols: Vec<Column> = cols.into_iter().flatten().collect();
    if cols.len() != flat.len() {
        return Err(invalid_arg!("read_parquet: a column was not built"));
    }
    let mut flat_cols = cols.into_iter();
    let mut out: Vec<Column> = Vec::with_capacity(names.len());
    for (k, &t) in all_dtypes.iter().enumerate() {
        let c = if t.is_list() {
            crate::list::read_list(ctx, paths, &all_summaries, &groups, here.clone(), k, t)
        } else {
            flat_cols.next().ok_or_else(|| invalid_arg!("read_parquet: a column was not built"))
        };
        match c {
            Ok(c) => out.push(c),
            Err(e) => {
                free_cols(out.into_iter().map(Some).chain(flat_cols.map(Some)).collect())?;
                return Err(e);
            }
        }
    }
    Ok(names.into_iter().zip(out).collect())
}

/// A row group: `(file, group, global start, rows)`.
pub(crate) type Group = (usize, usize, usize, usize);

/// The row groups of the files, in order, and the number of rows in all.
pub(crate) fn row_groups(paths: &[PathBuf], summaries: &[FileSummary]) -> Result<(Vec<Group>, usize)> {
    let mut total = 0usize;
    let mut groups = Vec::new();
    for (f, s) in summaries.iter().enumerate() {
        for (g, &n) in s.groups.iter().enumerate() {
            let n = usize::try_from(n).map_err(|_| file_err(FileErrorKind::Corrupt, &paths[f], "too many rows"))?;
            groups.push((f, g, total, n));
            total = total.checked_add(n).ok_or_else(|| file_err(FileErrorKind::Corrupt, &paths[f], "too many rows"))?;
        }
    }
    Ok((groups, total))
}

/// The global rows of locale `me`'s Block part of `d`.
pub(crate) fn local_rows(d: &atoll_array::Block<1>, me: usize) -> Result<Range<usize>> {
    let dom = d.local_domain(me)?;
    let r = &dom.dims()[0];
    Ok(if r.is_empty() { 0..0 } else { r.lo() as usize..r.lo() as usize + r.len() })
}

/// The tasks that decode the rows `here` (global positions): the parts of the row groups that
/// overlap them, cut in pieces of at most [`PIECE`] rows; they tile `here` in order.
pub(crate) fn plan_tasks(groups: &[Group], here: Range<usize>) -> Result<Vec<Task>> {
    let mut tasks = Vec::new();
    for &(file, group, start, rows) in groups {
        let lo = start.max(here.start);
        let hi = (start + rows).min(here.end);
        let mut p = lo;
        while p < hi {
            let len = PIECE.min(hi - p);
            tasks.push(Task { file, group, skip: p - start, dest: p - here.start, len });
            p += len;
        }
    }
    let mut at = 0;
    for t in &tasks {
        if t.dest != at {
            return Err(invalid_arg!("read_parquet: the row groups do not tile this locale's rows"));
        }
        at += t.len;
    }
    if at != here.len() {
        return Err(invalid_arg!("read_parquet: the row groups do not cover this locale's rows"));
    }
    Ok(tasks)
}

/// Frees the columns built so far. **Collective.**
fn free_cols(cols: Vec<Option<Column>>) -> Result<()> {
    for c in cols.into_iter().flatten() {
        c.free()?;
    }
    Ok(())
}

/// Every file's summary on every locale (file `i` read by locale `i % N`). **Collective.**
pub(crate) fn gather_summaries(ctx: &Ctx, paths: &[PathBuf], names: &[String]) -> Result<Vec<FileSummary>> {
    let (me, n) = (ctx.id(), ctx.num_locales());
    let mine: Vec<usize> = (me..paths.len()).step_by(n).collect();
    let slots: Vec<Mutex<Option<Result<FileSummary>>>> = mine.iter().map(|_| Mutex::new(None)).collect();
    ctx.forall_chunks_with(0..mine.len(), 1, |r| {
        for k in r {
            let s = summarize(&paths[mine[k]], names);
            *lock(&slots[k]) = Some(s);
        }
    });
    let mut local = Vec::with_capacity(mine.len());
    let mut first_err = None;
    for s in slots {
        match into_inner(s) {
            Some(Ok(s)) => local.push(s),
            Some(Err(e)) => {
                first_err.get_or_insert(e);
            }
            None => {
                first_err.get_or_insert(invalid_arg!("read_parquet: a footer was not read"));
            }
        }
    }
    let local = ctx.agree(first_err.map_or(Ok(local), Err))?;
    let all = ctx.allgather(&local)?;
    let mut out: Vec<Option<FileSummary>> = vec![None; paths.len()];
    for (l, v) in all.into_iter().enumerate() {
        for (k, s) in v.into_iter().enumerate() {
            out[l + k * n] = Some(s);
        }
    }
    out.into_iter().map(|s| s.ok_or_else(|| invalid_arg!("read_parquet: a footer is missing"))).collect()
}

/// The dtype of each dataset, which must be the same in every file.
pub(crate) fn agree_dtypes(paths: &[PathBuf], names: &[String], s: &[FileSummary]) -> Result<Vec<IoDType>> {
    let first: Vec<IoDType> = s[0].cols.iter().map(col_dtype).collect();
    for (f, sf) in s.iter().enumerate().skip(1) {
        for (k, c) in sf.cols.iter().enumerate() {
            if col_dtype(c) != first[k] {
                return Err(file_err(
                    FileErrorKind::WrongType,
                    &paths[f],
                    format!(
                        "dataset {:?} reads as {} here but as {} in {}",
                        names[k],
                        c.1.dtype().name(),
                        first[k].name(),
                        paths[0].display()
                    ),
                ));
            }
        }
    }
    Ok(first)
}

/// A piece of work: rows `skip..skip + len` of row group `group` of file `file`, stored at
/// `dest..dest + len` of the local part.
pub(crate) struct Task {
    pub(crate) file: usize,
    pub(crate) group: usize,
    pub(crate) skip: usize,
    pub(crate) dest: usize,
    pub(crate) len: usize,
}

/// A task's destination in one column.
enum Dest<'a> {
    I(&'a mut [i64]),
    U(&'a mut [u64]),
    F(&'a mut [f64]),
    B(&'a mut [bool]),
    S(&'a mut LocalStrings),
}

/// Decodes this locale's rows `here` (global positions) into its parts of the numeric `cols`;
/// returns its strings of each string column (the `None`s of `cols`, in order). **One-sided.**
fn decode_local(
    ctx: &Ctx,
    paths: &[PathBuf],
    summaries: &[FileSummary],
    groups: &[(usize, usize, usize, usize)],
    here: Range<usize>,
    cols: &mut [Option<Column>],
) -> Result<Vec<LocalStrings>> {
    let nstr = cols.iter().filter(|c| c.is_none()).count();
    let tasks = plan_tasks(groups, here)?;
    if tasks.is_empty() {
        return Ok((0..nstr).map(|_| LocalStrings::new()).collect());
    }
    // The files this locale reads, opened once (footer parsed once) and shared by its threads.
    let mut readers: BTreeMap<usize, SerializedFileReader<PosFile>> = BTreeMap::new();
    for t in &tasks {
        if let std::collections::btree_map::Entry::Vacant(v) = readers.entry(t.file) {
            let r = open(&paths[t.file])?;
            if r.metadata().num_row_groups() != summaries[t.file].groups.len() {
                return Err(file_err(FileErrorKind::Corrupt, &paths[t.file], "the file changed while it was read"));
            }
            v.insert(r);
        }
    }
    // Each task's destination slices, cut in order from the local parts (tasks tile them);
    // string columns: one block of strings per task, concatenated afterwards.
    let mut str_parts: Vec<Vec<LocalStrings>> =
        (0..nstr).map(|_| tasks.iter().map(|_| LocalStrings::new()).collect()).collect();
    let mut str_iter = str_parts.iter_mut();
    let mut dests: Vec<Vec<Dest<'_>>> = tasks.iter().map(|_| Vec::with_capacity(cols.len())).collect();
    for c in cols.iter_mut() {
        macro_rules! cut {
            ($a:expr, $v:ident) => {{
                let mut rest: &mut [_] = $a.local_mut();
                for (k, t) in tasks.iter().enumerate() {
                    let (head, tail) = std::mem::take(&mut rest).split_at_mut(t.len);
                    dests[k].push(Dest::$v(head));
                    rest = tail;
                }
            }};
        }
        match c {
            Some(Column::Num(NumCol::I(a))) => cut!(a, I),
            Some(Column::Num(NumCol::U(a))) => cut!(a, U),
            Some(Column::Num(NumCol::F(a))) => cut!(a, F),
            Some(Column::Num(NumCol::B(a))) => cut!(a, B),
            Some(Column::Str(_) | Column::Num(NumCol::U8(_)) | Column::List { .. }) => {
                return Err(invalid_arg!("read_parquet: a string, uint8 or list column was allocated before decoding"))
            }
            None => {
                let parts = str_iter.next().ok_or_else(|| invalid_arg!("read_parquet: string columns miscounted"))?;
                for (k, p) in parts.iter_mut().enumerate() {
                    dests[k].push(Dest::S(p));
                }
            }
        }
    }
    let work: Vec<Mutex<Vec<Dest<'_>>>> = dests.into_iter().map(Mutex::new).collect();
    let err: Mutex<Option<atoll_error::Error>> = Mutex::new(None);
    ctx.forall_chunks_with(0..tasks.len(), 1, |r| {
        for k in r {
            let t = &tasks[k];
            let path = &paths[t.file];
            let mut d = lock(&work[k]);
            let res = guarded(path, || run_task(&readers[&t.file], path, &summaries[t.file], t, &mut d));
            if let Err(e) = res {
                lock(&err).get_or_insert(e);
            }
        }
    });
    drop(work);
    match into_inner(err) {
        Some(e) => Err(e),
        None => Ok(str_parts.into_iter().map(LocalStrings::concat).collect()),
    }
}

fn run_task(
    reader: &SerializedFileReader<PosFile>,
    path: &Path,
    s: &FileSummary,
    t: &Task,
    dests: &mut [Dest<'_>],
) -> Result<()> {
    let rg = reader.get_row_group(t.group).map_err(|e| corrupt(path, e))?;
    for ((leaf, source, _), dest) in s.cols.iter().zip(dests.iter_mut()) {
        let cr = rg.get_column_reader(*leaf).map_err(|e| corrupt(path, e))?;
        let max_def = rg.metadata().column(*leaf).column_descr().max_def_level();
        let c = Col { path, skip: t.skip, max_def };
        match (source, dest) {
            (Source::Bool, Dest::B(o)) => c.read::<BoolType, _>(cr, o, |v| *v, None)?,
            (Source::I32, Dest::I(o)) => c.read::<Int32Type, _>(cr, o, |v| *v as i64, None)?,
            (Source::U32, Dest::U(o)) => c.read::<Int32Type, _>(cr, o, |v| *v as u32 as u64, None)?,
            (Source::I64, Dest::I(o)) => c.read::<Int64Type, _>(cr, o, |v| *v, None)?,
            (Source::U64, Dest::U(o)) => c.read::<Int64Type, _>(cr, o, |v| *v as u64, None)?,
            (Source::F32, Dest::F(o)) => c.read::<FloatType, _>(cr, o, |v| *v as f64, Some(f64::NAN))?,
            (Source::F64, Dest::F(o)) => c.read::<DoubleType, _>(cr, o, |v| *v, Some(f64::NAN))?,
            (Source::Utf8, Dest::S(o)) => read_strings(cr, path, t.skip, t.len, max_def, o)?,
            (Source::DecI32(sc), Dest::F(o)) => {
                c.read::<Int32Type, _>(cr, o, |v| *v as f64 / 10f64.powi(*sc), Some(f64::NAN))?
            }
            (Source::DecI64(sc), Dest::F(o)) => {
                c.read::<Int64Type, _>(cr, o, |v| *v as f64 / 10f64.powi(*sc), Some(f64::NAN))?
            }
            (Source::DecBytes(sc), Dest::F(o)) => {
                if rg.metadata().column(*leaf).column_descr().physical_type() == parquet::basic::Type::BYTE_ARRAY {
                    c.read::<ByteArrayType, _>(cr, o, |v| decimal_bytes(v.data(), *sc), Some(f64::NAN))?
                } else {
                    c.read::<FixedLenByteArrayType, _>(cr, o, |v| decimal_bytes(v.data(), *sc), Some(f64::NAN))?
                }
            }
            _ => return Err(invalid_arg!("read_parquet: a column's source and destination differ")),
        }
    }
    Ok(())
}

/// The value of a decimal of scale `scale` stored as big-endian two's complement `bytes` (at
/// most 16), as the nearest float64 (NaN for more than 16 bytes, which the footer check
/// excludes).
fn decimal_bytes(bytes: &[u8], scale: i32) -> f64 {
    if bytes.len() > 16 {
        return f64::NAN;
    }
    let neg = bytes.first().is_some_and(|b| b & 0x80 != 0);
    let mut buf = if neg { [0xffu8; 16] } else { [0u8; 16] };
    buf[16 - bytes.len()..].copy_from_slice(bytes);
    i128::from_be_bytes(buf) as f64 / 10f64.powi(scale)
}

/// One column chunk's read.
struct Col<'p> {
    path: &'p Path,
    skip: usize,
    max_def: i16,
}

impl Col<'_> {
    /// Reads `out.len()` values after skipping `self.skip` rows, converting each with `conv`;
    /// nulls become `null` (an error when `None`).
    fn read<T: DataType, U: Copy>(
        &self,
        cr: ColumnReader,
        out: &mut [U],
        conv: impl Fn(&T::T) -> U,
        null: Option<U>,
    ) -> Result<()> {
        let path = self.path;
        let short = || file_err(FileErrorKind::Corrupt, path, "a column chunk holds fewer rows than its row group");
        let mut r = get_typed_column_reader::<T>(cr);
        if self.skip > 0 && r.skip_records(self.skip).map_err(|e| corrupt(path, e))? != self.skip {
            return Err(short());
        }
        let mut vals: Vec<T::T> = Vec::with_capacity(BATCH.min(out.len()));
        let mut defs: Vec<i16> = Vec::new();
        let mut pos = 0;
        while pos < out.len() {
            let want = BATCH.min(out.len() - pos);
            vals.clear();
            defs.clear();
            let levels = if self.max_def > 0 { Some(&mut defs) } else { None };
            let (recs, nvals, _) = r.read_records(want, levels, None, &mut vals).map_err(|e| corrupt(path, e))?;
            if recs == 0 || recs > want || nvals > recs || vals.len() != nvals {
                return Err(short());
            }
            let o = &mut out[pos..pos + recs];
            if nvals == recs {
                for (o, v) in o.iter_mut().zip(&vals) {
                    *o = conv(v);
                }
            } else {
                let Some(nv) = null else {
                    return Err(file_err(
                        FileErrorKind::WrongType,
                        path,
                        "a column holds null values (only float columns may: they read as NaN)",
                    ));
                };
                if defs.len() != recs {
                    return Err(short());
                }
                let mut k = 0;
                for (o, &dl) in o.iter_mut().zip(&defs) {
                    if dl == self.max_def {
                        *o = conv(vals.get(k).ok_or_else(short)?);
                        k += 1;
                    } else {
                        *o = nv;
                    }
                }
            }
            pos += recs;
        }
        Ok(())
    }
}
