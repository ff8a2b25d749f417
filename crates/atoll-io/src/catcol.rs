//! Reading string columns straight into categorical codes: each locale maps the strings of its
//! rows to small per-task codes (a hash table of the distinct values, which a dictionary-encoded
//! column keeps small), the locales' distinct values are allgathered and merged into the sorted
//! categories, and each locale remaps its codes through a table. No string of a row is copied
//! and no row is sorted.

use crate::column::IoDType;
use crate::meta::{corrupt, file_err, guarded, open, FileSummary};
use crate::posfile::PosFile;
use crate::read::{agree_dtypes, gather_summaries, local_rows, plan_tasks, row_groups, Task};
use atoll_array::{dist, DistArray};
use atoll_error::{invalid_arg, FileErrorKind, Result};
use atoll_runtime::Ctx;
use atoll_strings::DistStrings;
use atoll_util::sync::{into_inner, lock};
use parquet::column::reader::get_typed_column_reader;
use parquet::data_type::{ByteArray, ByteArrayType};
use parquet::file::reader::{FileReader, SerializedFileReader};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Values decoded per call into the decoder.
const BATCH: usize = 1 << 14;

/// A string column read as a categorical: int64 `codes` (Block, one per row) into the
/// `categories` (the distinct strings sorted by code point, then the missing-value label when
/// no string equals it). A null's code is the missing-value label's.
pub struct CatColumn {
    /// One code per row.
    pub codes: DistArray<i64, 1>,
    /// The distinct strings, sorted, then the missing-value label (unless present).
    pub categories: DistStrings,
}

/// A hash of machine words, multiplicative, then mixed (the strings hashed are short labels;
/// the table is private to one task, so no resistance to chosen keys is needed).
#[derive(Default, Clone, Copy)]
struct WordHash(u64);

impl WordHash {
    #[inline]
    fn add(&mut self, w: u64) {
        self.0 = (self.0.rotate_left(5) ^ w).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for WordHash {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut b = [0u8; 8];
            b[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(b));
        }
    }
    #[inline]
    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }
    /// The state through a full-avalanche mix: the table's buckets come from the low bits,
    /// which a multiplication alone leaves depending only on the low bits of the words (labels
    /// such as "id0000000001" differ only in their last bytes).
    #[inline]
    fn finish(&self) -> u64 {
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

type Hashed = BuildHasherDefault<WordHash>;

/// A task's codes of the strings seen: a string of at most 15 bytes is keyed by its bytes
/// and length packed in one word pair (no pointer to follow, no byte comparison), a longer
/// one by its bytes.
#[derive(Default)]
struct Table {
    short: HashMap<u128, i64, Hashed>,
    long: HashMap<Vec<u8>, i64, Hashed>,
}

impl Table {
    #[inline]
    fn pack(b: &[u8]) -> Option<u128> {
        if b.len() > 15 {
            return None;
        }
        let mut w = [0u8; 16];
        w[..b.len()].copy_from_slice(b);
        w[15] = b.len() as u8;
        Some(u128::from_le_bytes(w))
    }

    #[inline]
    fn get(&self, b: &[u8]) -> Option<i64> {
        match Self::pack(b) {
            Some(k) => self.short.get(&k).copied(),
            None => self.long.get(b).copied(),
        }
    }

    fn insert(&mut self, b: &[u8], code: i64) {
        match Self::pack(b) {
            Some(k) => self.short.insert(k, code),
            None => self.long.insert(b.to_vec(), code),
        };
    }
}

/// Reads the string columns `datasets` of the Parquet files `paths` (their rows in order form
/// one sequence) as categoricals: codes from each row's string, categories the distinct strings
/// of every file sorted by code point, then `na_value` appended unless a string equals it;
/// a null's code is `na_value`'s. Dictionary-encoded columns (as pyarrow, pandas and polars
/// write strings) keep the work per row to one lookup in a small table.
///
/// **Collective**: every locale passes the same arguments and gets the same outcome.
///
/// # Errors
/// As [`read_parquet`](crate::read_parquet), and [`FileErrorKind::WrongType`] for a dataset
/// that is not a string column; `InvalidArgument` for no paths or no datasets.
pub fn read_parquet_categorical(
    ctx: &Ctx,
    paths: &[PathBuf],
    datasets: &[String],
    na_value: &str,
) -> Result<Vec<(String, CatColumn)>> {
    if paths.is_empty() {
        return Err(invalid_arg!("read_parquet: no files given"));
    }
    if datasets.is_empty() {
        return Err(invalid_arg!("read_parquet: no datasets to read"));
    }
    for (i, n) in datasets.iter().enumerate() {
        if datasets[..i].contains(n) {
            return Err(invalid_arg!("read_parquet: dataset {n:?} is named twice"));
        }
    }
    let summaries = gather_summaries(ctx, paths, datasets)?;
    let dtypes = agree_dtypes(paths, datasets, &summaries)?;
    for (name, t) in datasets.iter().zip(&dtypes) {
        if *t != IoDType::Str {
            return Err(file_err(
                FileErrorKind::WrongType,
                &paths[0],
                format!("dataset {name:?} reads as {}: only string columns read as categoricals", t.name()),
            ));
        }
    }
    let (groups, total) = row_groups(paths, &summaries)?;
    let d = dist::block(ctx, [total])?;
    let mut codes: Vec<DistArray<i64, 1>> = Vec::with_capacity(datasets.len());
    for _ in datasets {
        match DistArray::zeros_lazy(ctx, d.clone()) {
            Ok(a) => codes.push(a),
            Err(e) => {
                free(codes)?;
                return Err(e);
            }
        }
    }
    let here = local_rows(&d, ctx.id())?;
    let tasks = plan_tasks(&groups, here.clone());
    // Each task's distinct strings of each column (task-local codes index them).
    let decoded = tasks.and_then(|tasks| {
        let dicts = decode(paths, &summaries, &tasks, ctx, &mut codes)?;
        Ok((tasks, dicts))
    });
    let (tasks, dicts) = match ctx.agree(decoded) {
        Ok(x) => x,
        Err(e) => {
            free(codes)?;
            return Err(e);
        }
    };
    // This locale's distinct strings of each column, allgathered and merged (sorted).
    let ncols = datasets.len();
    let mine: Vec<Vec<String>> = (0..ncols)
        .map(|c| {
            let set: HashSet<&str, Hashed> = dicts.iter().flat_map(|t| t[c].iter().map(String::as_str)).collect();
            set.into_iter().map(str::to_string).collect()
        })
        .collect();
    let all = match ctx.allgather(&mine) {
        Ok(a) => a,
        Err(e) => {
            free(codes)?;
            return Err(e);
        }
    };
    drop(mine);
    let mut cats: Vec<Vec<String>> = Vec::with_capacity(ncols);
    for c in 0..ncols {
        let mut v: Vec<String> = all.iter().flat_map(|l| l[c].iter().cloned()).collect();
        v.sort_unstable();
        v.dedup();
        cats.push(v);
    }
    drop(all);
    // Each task's table (task code -> category).
    let index: Vec<HashMap<&str, i64, Hashed>> =
        cats.iter().map(|v| v.iter().enumerate().map(|(k, s)| (s.as_str(), k as i64)).collect()).collect();
    let tables: Vec<Vec<Vec<i64>>> = dicts
        .iter()
        .map(|t| {
            t.iter()
                .zip(&index)
                .map(|(strs, ix)| strs.iter().map(|s| ix.get(s.as_str()).copied().unwrap_or(-1)).collect())
                .collect()
        })
        .collect();
    drop(index);
    // The missing-value label: its place among the strings, or appended after them.
    let mut na_codes: Vec<i64> = Vec::with_capacity(ncols);
    for v in cats.iter_mut() {
        let na = match v.binary_search_by(|s| s.as_str().cmp(na_value)) {
            Ok(k) => k,
            Err(_) => {
                v.push(na_value.to_string());
                v.len() - 1
            }
        };
        na_codes.push(na as i64);
    }
    remap(ctx, &tasks, &tables, &na_codes, &mut codes);
    let mut out = Vec::with_capacity(ncols);
    let mut codes = codes.into_iter();
    for (name, cat) in datasets.iter().zip(cats) {
        let Some(a) = codes.next() else {
            return Err(invalid_arg!("read_parquet: a column was not built"));
        };
        match DistStrings::from_vec(ctx, &cat) {
            Ok(s) => out.push((name.clone(), CatColumn { codes: a, categories: s })),
            Err(e) => {
                free(std::iter::once(a).chain(codes).collect())?;
                for (_, c) in out {
                    c.codes.free()?;
                    // Strings release their budget when dropped.
                    drop(c.categories);
                }
                return Err(e);
            }
        }
    }
    Ok(out)
}

/// Frees the code arrays. **Collective.**
fn free(codes: Vec<DistArray<i64, 1>>) -> Result<()> {
    for a in codes {
        a.free()?;
    }
    Ok(())
}

/// Cuts each task's destination (its rows of each column's local part), in task order.
fn cut<'a>(tasks: &[Task], codes: &'a mut [DistArray<i64, 1>]) -> Vec<Mutex<Vec<&'a mut [i64]>>> {
    let mut dests: Vec<Vec<&mut [i64]>> = tasks.iter().map(|_| Vec::with_capacity(codes.len())).collect();
    for a in codes.iter_mut() {
        let mut rest: &mut [i64] = a.local_mut();
        for (k, t) in tasks.iter().enumerate() {
            let (head, tail) = std::mem::take(&mut rest).split_at_mut(t.len);
            dests[k].push(head);
            rest = tail;
        }
    }
    dests.into_iter().map(Mutex::new).collect()
}

/// Decodes this locale's tasks in parallel: each row's task-local code (-1 for a null) into
/// the code arrays; returns each task's distinct strings of each column. **One-sided.**
fn decode(
    paths: &[PathBuf],
    summaries: &[FileSummary],
    tasks: &[Task],
    ctx: &Ctx,
    codes: &mut [DistArray<i64, 1>],
) -> Result<Vec<Vec<Vec<String>>>> {
    let ncols = codes.len();
    if tasks.is_empty() {
        return Ok(Vec::new());
    }
    let mut readers: BTreeMap<usize, SerializedFileReader<PosFile>> = BTreeMap::new();
    for t in tasks {
        if let std::collections::btree_map::Entry::Vacant(v) = readers.entry(t.file) {
            let r = open(&paths[t.file])?;
            if r.metadata().num_row_groups() != summaries[t.file].groups.len() {
                return Err(file_err(FileErrorKind::Corrupt, &paths[t.file], "the file changed while it was read"));
            }
            v.insert(r);
        }
    }
    let work = cut(tasks, codes);
    let dicts: Vec<Mutex<Vec<Vec<String>>>> = tasks.iter().map(|_| Mutex::new(Vec::new())).collect();
    let err: Mutex<Option<atoll_error::Error>> = Mutex::new(None);
    ctx.forall_chunks_with(0..tasks.len(), 1, |r| {
        for k in r {
            let t = &tasks[k];
            let path = &paths[t.file];
            let mut d = lock(&work[k]);
            let res = guarded(path, || {
                let rg = readers[&t.file].get_row_group(t.group).map_err(|e| corrupt(path, e))?;
                let mut out = Vec::with_capacity(ncols);
                for ((leaf, _, _), dest) in summaries[t.file].cols.iter().zip(d.iter_mut()) {
                    let cr = rg.get_column_reader(*leaf).map_err(|e| corrupt(path, e))?;
                    let max_def = rg.metadata().column(*leaf).column_descr().max_def_level();
                    out.push(read_codes(cr, path, t.skip, max_def, dest)?);
                }
                Ok(out)
            });
            match res {
                Ok(v) => *lock(&dicts[k]) = v,
                Err(e) => {
                    lock(&err).get_or_insert(e);
                }
            }
        }
    });
    match into_inner(err) {
        Some(e) => Err(e),
        None => Ok(dicts.into_iter().map(into_inner).collect()),
    }
}

/// Writes the task-local code of each of `out.len()` rows of the column chunk `cr` after its
/// first `skip` rows (-1 for a null); returns the distinct strings, in code order.
fn read_codes(
    cr: parquet::column::reader::ColumnReader,
    path: &Path,
    skip: usize,
    max_def: i16,
    out: &mut [i64],
) -> Result<Vec<String>> {
    let short = || file_err(FileErrorKind::Corrupt, path, "a column chunk holds fewer rows than its row group");
    let mut r = get_typed_column_reader::<ByteArrayType>(cr);
    if skip > 0 && r.skip_records(skip).map_err(|e| corrupt(path, e))? != skip {
        return Err(short());
    }
    let mut table = Table::default();
    let mut strs: Vec<String> = Vec::new();
    let mut code = |v: &ByteArray, row: usize| -> Result<i64> {
        if let Some(c) = table.get(v.data()) {
            return Ok(c);
        }
        let s = std::str::from_utf8(v.data()).map_err(|_| {
            file_err(
                FileErrorKind::Corrupt,
                path,
                format!("a string column holds bytes that are not UTF-8 (row {row} of its row group)"),
            )
        })?;
        let c = strs.len() as i64;
        strs.push(s.to_string());
        table.insert(v.data(), c);
        Ok(c)
    };
    let mut vals: Vec<ByteArray> = Vec::with_capacity(BATCH.min(out.len()));
    let mut defs: Vec<i16> = Vec::new();
    let mut pos = 0;
    while pos < out.len() {
        let want = BATCH.min(out.len() - pos);
        vals.clear();
        defs.clear();
        let levels = if max_def > 0 { Some(&mut defs) } else { None };
        let (recs, nvals, _) = r.read_records(want, levels, None, &mut vals).map_err(|e| corrupt(path, e))?;
        if recs == 0 || recs > want || nvals > recs || vals.len() != nvals {
            return Err(short());
        }
        let o = &mut out[pos..pos + recs];
        let row0 = skip + pos;
        if nvals == recs {
            for (j, (o, v)) in o.iter_mut().zip(&vals).enumerate() {
                *o = code(v, row0 + j)?;
            }
        } else {
            if defs.len() != recs {
                return Err(short());
            }
            let mut k = 0;
            for (j, (o, &dl)) in o.iter_mut().zip(&defs).enumerate() {
                if dl == max_def {
                    *o = code(vals.get(k).ok_or_else(short)?, row0 + j)?;
                    k += 1;
                } else {
                    *o = -1;
                }
            }
        }
        pos += recs;
    }
    Ok(strs)
}

/// Replaces each task-local code by its category (`tables[task][column]`), a null's (-1) by
/// the column's missing-value code. **One-sided.**
fn remap(ctx: &Ctx, tasks: &[Task], tables: &[Vec<Vec<i64>>], na: &[i64], codes: &mut [DistArray<i64, 1>]) {
    let work = cut(tasks, codes);
    ctx.forall_chunks_with(0..tasks.len(), 1, |r| {
        for k in r {
            let mut d = lock(&work[k]);
            for ((dest, table), &na) in d.iter_mut().zip(&tables[k]).zip(na) {
                for c in dest.iter_mut() {
                    *c = if *c < 0 { na } else { table.get(*c as usize).copied().unwrap_or(na) };
                }
            }
        }
    });
}
