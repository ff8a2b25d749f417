//! List columns (Arkouda's SegArray): Parquet LIST columns of numbers or strings.
//!
//! A list column is `segments` (Block-distributed like the other columns: row `i` starts at
//! value `segments[i]`) and `values` (Block-distributed by value). A Parquet file holds whole
//! rows, so a locale writing its rows first fetches the values of its rows (one `alltoallv`),
//! and a locale reading its rows decodes their values and then moves them to the Block layout
//! of the values (one `alltoallv`). Files are written as
//! `required group name (LIST) { repeated group list { required T element } }`; files of other
//! writers (pyarrow's optional lists and elements) are read with null lists as empty lists and
//! null elements as NaN (floats), 0, `false` or `""`.

use crate::column::{Col, Column, DType, IoDType, ValuesRef};
use crate::meta::{corrupt, file_err, guarded, open, FileSummary, Source};
use crate::posfile::PosFile;
use atoll_array::{dist, DistArray};
use atoll_error::{invalid_arg, Error, FileErrorKind, Result};
use atoll_runtime::Ctx;
use atoll_strings::{DistStrings, LocalStrings};
use parquet::column::reader::{get_typed_column_reader, ColumnReader};
use parquet::data_type::{BoolType, DataType, DoubleType, FloatType, Int32Type, Int64Type};
use parquet::file::reader::{FileReader, SerializedFileReader};
use std::collections::BTreeMap;
use std::ops::Range;
use std::path::{Path, PathBuf};

/// Records decoded per call into the decoder.
const BATCH: usize = 1 << 13;

/// One locale's values of a list column, in row order.
pub(crate) enum LocalVals {
    I(Vec<i64>),
    U(Vec<u64>),
    F(Vec<f64>),
    B(Vec<bool>),
    S(LocalStrings),
}

impl LocalVals {
    fn new(t: IoDType) -> LocalVals {
        match t.elem() {
            IoDType::Num(DType::I64) => LocalVals::I(Vec::new()),
            // Parquet's unsigned integers read widened to uint64.
            IoDType::Num(DType::U64 | DType::U8) => LocalVals::U(Vec::new()),
            IoDType::Num(DType::F64) => LocalVals::F(Vec::new()),
            IoDType::Num(DType::Bool) => LocalVals::B(Vec::new()),
            _ => LocalVals::S(LocalStrings::new()),
        }
    }

    pub(crate) fn len(&self) -> usize {
        match self {
            LocalVals::I(v) => v.len(),
            LocalVals::U(v) => v.len(),
            LocalVals::F(v) => v.len(),
            LocalVals::B(v) => v.len(),
            LocalVals::S(s) => s.len(),
        }
    }
}

/// One locale's rows of a list column: each row's length, and the values of the rows.
pub(crate) struct LocalList {
    pub(crate) lens: Vec<u64>,
    pub(crate) vals: LocalVals,
}

/// The values `want[d]` (a global range, ascending in `d` and not overlapping) of a sequence
/// of which this locale holds `have` (`local`), gathered on each locale `d`: returns this
/// locale's `want[me]`. **Collective** (one `alltoallv`).
fn move_ranges<T: atoll_runtime::Pod>(
    ctx: &Ctx,
    local: &[T],
    have: Range<usize>,
    want: &[Range<usize>],
) -> Result<Vec<T>> {
    let out: Vec<Vec<T>> = want
        .iter()
        .map(|w| {
            let (a, b) = (w.start.max(have.start), w.end.min(have.end));
            if a < b {
                local[a - have.start..b - have.start].to_vec()
            } else {
                Vec::new()
            }
        })
        .collect();
    let got: Vec<T> = ctx.alltoallv(out)?.concat();
    let me = &want[ctx.id()];
    if got.len() != me.len() {
        return Err(Error::Comm {
            locale: ctx.id(),
            message: format!("list values: {} values arrived for the range {me:?}", got.len()),
        });
    }
    Ok(got)
}

/// Strings `want[d]` of a sequence of which this locale holds `have` (`local`), gathered on
/// each locale `d` (see [`move_ranges`]). **Collective** (two `alltoallv`).
fn move_string_ranges(
    ctx: &Ctx,
    local: &LocalStrings,
    have: Range<usize>,
    want: &[Range<usize>],
) -> Result<LocalStrings> {
    let off = local.offsets();
    let mut lens = Vec::with_capacity(want.len());
    let mut bytes = Vec::with_capacity(want.len());
    for w in want {
        let (a, b) = (w.start.max(have.start), w.end.min(have.end));
        if a < b {
            let (a, b) = (a - have.start, b - have.start);
            lens.push((a..b).map(|i| off[i + 1] - off[i]).collect::<Vec<u64>>());
            bytes.push(local.bytes()[off[a] as usize..off[b] as usize].to_vec());
        } else {
            lens.push(Vec::new());
            bytes.push(Vec::new());
        }
    }
    let lens = ctx.alltoallv(lens)?.concat();
    let bytes = ctx.alltoallv(bytes)?.concat();
    let me = &want[ctx.id()];
    let total: u64 = lens.iter().sum();
    if lens.len() != me.len() || total as usize != bytes.len() {
        return Err(Error::Comm { locale: ctx.id(), message: "list values: the strings arrived short".into() });
    }
    let mut out = LocalStrings::with_capacity(lens.len(), bytes.len());
    let mut at = 0usize;
    for l in lens {
        let s = &bytes[at..at + l as usize];
        // Whole strings of valid strings: still UTF-8.
        out.push(std::str::from_utf8(s).map_err(|e| Error::Comm { locale: ctx.id(), message: e.to_string() })?);
        at += l as usize;
    }
    Ok(out)
}

/// This locale's global range of a 1-D Block array.
fn local_range<T: atoll_array::Elem>(a: &DistArray<T, 1>, me: usize) -> Result<Range<usize>> {
    let dom = a.dist().local_domain(me)?;
    let r = &dom.dims()[0];
    Ok(if r.is_empty() { 0..0 } else { r.lo() as usize..r.lo() as usize + r.len() })
}

/// This locale's rows of the list column (`segments`, `values`): each row's length and their
/// values, fetched from the locales that hold them. **Collective.**
///
/// # Errors
/// `InvalidArgument` on every locale when the segments do not ascend within `0..=values.len()`.
pub(crate) fn local_rows(ctx: &Ctx, segments: &DistArray<i64, 1>, values: ValuesRef<'_>) -> Result<LocalList> {
    let me = ctx.id();
    let nv = values.len();
    let segs = segments.local();
    let first = segs.first().copied();
    let firsts: Vec<Option<i64>> = ctx.allgather(&first)?;
    // Locale l's values: from its first segment to the next locale's (with rows) first one.
    let p = firsts.len();
    let mut want = vec![0..0; p];
    let mut end = nv as i64;
    let mut ok = true;
    for l in (0..p).rev() {
        if let Some(s) = firsts[l] {
            ok &= 0 <= s && s <= end;
            want[l] = s.max(0) as usize..end.max(0) as usize;
            end = s;
        } else {
            want[l] = end.max(0) as usize..end.max(0) as usize;
        }
    }
    // Ascending here, and not past the next locale's first segment (or the values' end).
    let mine_ok =
        segs.windows(2).all(|w| w[0] <= w[1]) && segs.last().is_none_or(|&l| l >= 0 && l as usize <= want[me].end);
    let checked = if ok && mine_ok {
        Ok(())
    } else {
        Err(invalid_arg!("write_parquet: a SegArray's segments must ascend within 0..={nv}"))
    };
    ctx.agree(checked)?;
    let w = &want[me];
    let mut lens = Vec::with_capacity(segs.len());
    for (i, &s) in segs.iter().enumerate() {
        let next = segs.get(i + 1).map_or(w.end as i64, |&n| n);
        lens.push((next - s) as u64);
    }
    let vals = match values {
        ValuesRef::Num(Col::I(a)) => LocalVals::I(move_ranges(ctx, a.local(), local_range(a, me)?, &want)?),
        ValuesRef::Num(Col::U(a)) => LocalVals::U(move_ranges(ctx, a.local(), local_range(a, me)?, &want)?),
        ValuesRef::Num(Col::U8(a)) => {
            let got = move_ranges(ctx, a.local(), local_range(a, me)?, &want)?;
            LocalVals::U(got.into_iter().map(u64::from).collect())
        }
        ValuesRef::Num(Col::F(a)) => LocalVals::F(move_ranges(ctx, a.local(), local_range(a, me)?, &want)?),
        ValuesRef::Num(Col::B(a)) => {
            let bytes: Vec<u8> = a.local().iter().map(|&b| b as u8).collect();
            let got = move_ranges(ctx, &bytes, local_range(a, me)?, &want)?;
            LocalVals::B(got.into_iter().map(|b| b != 0).collect())
        }
        ValuesRef::Str(s) => {
            let lo = s.lo();
            LocalVals::S(move_string_ranges(ctx, s.local(), lo..lo + s.local().len(), &want)?)
        }
    };
    Ok(LocalList { lens, vals })
}

/// Reads the list column `k` of the files: this locale decodes its rows `here` (global
/// positions; `groups` as in `read_parquet`), then the values move to their Block layout.
/// **Collective.**
pub(crate) fn read_list(
    ctx: &Ctx,
    paths: &[PathBuf],
    summaries: &[FileSummary],
    groups: &[(usize, usize, usize, usize)],
    here: Range<usize>,
    k: usize,
    dtype: IoDType,
) -> Result<Column> {
    // The rows of every file (the row groups tile them in order).
    let total = groups.iter().map(|g| g.2 + g.3).max().unwrap_or(0);
    let decoded = decode_list(paths, summaries, groups, here, k, dtype);
    let LocalList { lens, vals } = ctx.agree(decoded)?;
    let nloc = vals.len();
    let base = ctx.exscan(nloc as u64, 0, |a, b| a + b)?;
    let nv = ctx.allreduce(nloc as u64, |a, b| a + b)? as usize;
    let d = dist::block(ctx, [total])?;
    let mut segments = DistArray::<i64, 1>::zeros_lazy(ctx, d)?;
    let mut at = base as i64;
    for (o, l) in segments.local_mut().iter_mut().zip(&lens) {
        *o = at;
        at += *l as i64;
    }
    let have = base as usize..base as usize + nloc;
    let dv = dist::block(ctx, [nv])?;
    let want: Vec<Range<usize>> = (0..ctx.num_locales())
        .map(|l| {
            let dom = dv.local_domain(l)?;
            let r = &dom.dims()[0];
            Ok(if r.is_empty() { 0..0 } else { r.lo() as usize..r.lo() as usize + r.len() })
        })
        .collect::<Result<_>>()?;
    macro_rules! numeric {
        ($v:expr, $var:ident) => {{
            let got = move_ranges(ctx, &$v, have.clone(), &want)?;
            let mut a = DistArray::zeros_lazy(ctx, dv.clone())?;
            a.local_mut().copy_from_slice(&got);
            Column::Num(Col::$var(a))
        }};
    }
    let values = match vals {
        LocalVals::I(v) => numeric!(v, I),
        LocalVals::U(v) => numeric!(v, U),
        LocalVals::F(v) => numeric!(v, F),
        LocalVals::B(v) => {
            let bytes: Vec<u8> = v.iter().map(|&b| b as u8).collect();
            let got = move_ranges(ctx, &bytes, have.clone(), &want)?;
            let mut a = DistArray::zeros_lazy(ctx, dv.clone())?;
            for (o, b) in a.local_mut().iter_mut().zip(got) {
                *o = b != 0;
            }
            Column::Num(Col::B(a))
        }
        LocalVals::S(s) => Column::Str(DistStrings::from_local_parts(ctx, s, "read_parquet")?),
    };
    Ok(Column::List { segments, values: Box::new(values) })
}

/// Decodes this locale's rows `here` of the list column `k`. **One-sided.**
fn decode_list(
    paths: &[PathBuf],
    summaries: &[FileSummary],
    groups: &[(usize, usize, usize, usize)],
    here: Range<usize>,
    k: usize,
    dtype: IoDType,
) -> Result<LocalList> {
    let mut out = LocalList { lens: Vec::with_capacity(here.len()), vals: LocalVals::new(dtype) };
    let mut readers: BTreeMap<usize, SerializedFileReader<PosFile>> = BTreeMap::new();
    for &(file, group, start, rows) in groups {
        let (lo, hi) = (start.max(here.start), (start + rows).min(here.end));
        if lo >= hi {
            continue;
        }
        let path = &paths[file];
        if let std::collections::btree_map::Entry::Vacant(v) = readers.entry(file) {
            v.insert(open(path)?);
        }
        let reader = &readers[&file];
        let (leaf, source, rdef) = summaries[file].cols[k];
        let rdef = rdef.ok_or_else(|| invalid_arg!("read_parquet: a list column without list levels"))?;
        guarded(path, || {
            let rg = reader.get_row_group(group).map_err(|e| corrupt(path, e))?;
            let cr = rg.get_column_reader(leaf).map_err(|e| corrupt(path, e))?;
            let max_def = rg.metadata().column(leaf).column_descr().max_def_level();
            let c = ListChunk { path, skip: lo - start, len: hi - lo, max_def, rdef };
            let LocalList { lens, vals } = &mut out;
            match (source, vals) {
                (Source::Bool, LocalVals::B(o)) => {
                    c.read::<BoolType>(cr, lens, |v| o.push(v.copied().unwrap_or(false)))
                }
                (Source::I32, LocalVals::I(o)) => c.read::<Int32Type>(cr, lens, |v| o.push(v.map_or(0, |x| *x as i64))),
                (Source::U32, LocalVals::U(o)) => {
                    c.read::<Int32Type>(cr, lens, |v| o.push(v.map_or(0, |x| *x as u32 as u64)))
                }
                (Source::I64, LocalVals::I(o)) => c.read::<Int64Type>(cr, lens, |v| o.push(v.copied().unwrap_or(0))),
                (Source::U64, LocalVals::U(o)) => c.read::<Int64Type>(cr, lens, |v| o.push(v.map_or(0, |x| *x as u64))),
                (Source::F32, LocalVals::F(o)) => {
                    c.read::<FloatType>(cr, lens, |v| o.push(v.map_or(f64::NAN, |x| *x as f64)))
                }
                (Source::F64, LocalVals::F(o)) => {
                    c.read::<DoubleType>(cr, lens, |v| o.push(v.copied().unwrap_or(f64::NAN)))
                }
                (Source::Utf8, LocalVals::S(o)) => {
                    let mut bad = false;
                    c.read::<parquet::data_type::ByteArrayType>(cr, lens, |v| match v {
                        Some(b) => match std::str::from_utf8(b.data()) {
                            Ok(s) => o.push(s),
                            Err(_) => bad = true,
                        },
                        None => o.push(""),
                    })?;
                    if bad {
                        return Err(file_err(
                            FileErrorKind::Corrupt,
                            path,
                            "a list of strings holds bytes that are not UTF-8",
                        ));
                    }
                    Ok(())
                }
                _ => Err(invalid_arg!("read_parquet: a list column's source and destination differ")),
            }
        })?;
    }
    if out.lens.len() != here.len() {
        return Err(invalid_arg!("read_parquet: the row groups do not cover this locale's rows"));
    }
    Ok(out)
}

/// One list column chunk's read: rows `skip..skip + len` of its row group.
struct ListChunk<'p> {
    path: &'p Path,
    skip: usize,
    len: usize,
    max_def: i16,
    rdef: i16,
}

impl ListChunk<'_> {
    /// Appends each row's length to `lens` and hands each element to `push` (`None`: null).
    fn read<T: DataType>(
        &self,
        cr: ColumnReader,
        lens: &mut Vec<u64>,
        mut push: impl FnMut(Option<&T::T>),
    ) -> Result<()> {
        let path = self.path;
        let short = || file_err(FileErrorKind::Corrupt, path, "a column chunk holds fewer rows than its row group");
        let mut r = get_typed_column_reader::<T>(cr);
        if self.skip > 0 && r.skip_records(self.skip).map_err(|e| corrupt(path, e))? != self.skip {
            return Err(short());
        }
        let mut vals: Vec<T::T> = Vec::new();
        let mut defs: Vec<i16> = Vec::new();
        let mut reps: Vec<i16> = Vec::new();
        let mut pos = 0;
        while pos < self.len {
            let want = BATCH.min(self.len - pos);
            vals.clear();
            defs.clear();
            reps.clear();
            let (recs, nvals, nlev) =
                r.read_records(want, Some(&mut defs), Some(&mut reps), &mut vals).map_err(|e| corrupt(path, e))?;
            if recs == 0 || recs > want || vals.len() != nvals || defs.len() != nlev || reps.len() != nlev {
                return Err(short());
            }
            let rows0 = lens.len();
            let mut k = 0;
            for (&d, &rp) in defs.iter().zip(&reps) {
                if rp == 0 {
                    lens.push(0);
                }
                if d >= self.rdef {
                    if lens.len() == rows0 {
                        return Err(short());
                    }
                    if let Some(l) = lens.last_mut() {
                        *l += 1;
                    }
                    if d == self.max_def {
                        push(Some(vals.get(k).ok_or_else(short)?));
                        k += 1;
                    } else {
                        push(None);
                    }
                }
            }
            if lens.len() - rows0 != recs {
                return Err(short());
            }
            pos += recs;
        }
        Ok(())
    }
}
