//! GroupBy aggregations of dense integer keys in **one pass, no sort and no range pass**:
//! [`dense_aggregate`] folds each row into a table indexed by `key - lo` whose range each
//! task discovers (and grows) as it reads its rows, then combines the tables like
//! [`dense_groups`](crate::dense_groups): one all-to-all of the Block parts of the key range.
//! When the keys span more than the caller's `limit` it returns `None` on every locale (the
//! caller sorts instead), having read at most the rows up to the first key that overflows.
//!
//! Folds (NaN rules of [`Agg`]): `Sum` (of the value type, NaNs skipped), `Count` (non-NaN
//! values), `Mean` (`f64`; NaN for a group of NaNs), `Min` and `Max` (NaN for a group of NaNs
//! only). The rows of each task are folded in row order, the tasks' tables in chunk order,
//! the locales' in locale order: `Min`/`Max` keep the first of equal values as the sort path
//! does; float sums are rounded in another order than the sort path's.

use crate::aggregate::{Agg, AggResult, AggValue};
use crate::dense::per_task;
use crate::dense_fold::{fold_presence, fold_sum_f64, fold_table, touched, NEG_ZERO};
use crate::layout::Layout;
use crate::runs::block_from_runs;
use crate::segments::check_block;
use atoll_array::{DistArray, Elem};
use atoll_error::{invalid_arg, Error, Result};
use atoll_runtime::{Ctx, Pod};
use bytemuck::Zeroable;

/// The distinct keys (in order), the rows of each, and the aggregation per key when values
/// were given: the result of [`dense_aggregate`], Block over `0..groups`.
pub struct DenseGroups<T: Elem> {
    /// The distinct keys, increasing.
    pub keys: DistArray<i64, 1>,
    /// The number of rows of each key (`None` from [`dense_aggregate_values`] when the
    /// aggregation did not need them).
    pub rows: Option<DistArray<i64, 1>>,
    /// The aggregation of the values per key (`None` without values).
    pub values: Option<AggResult<T>>,
}

/// A fold of one value per row into an accumulator per key.
trait Fold<T>: Sync {
    type A: Pod + Send + Sync;
    type Out: Elem + Pod;
    fn init(&self) -> Self::A;
    fn step(&self, a: &mut Self::A, v: T);
    /// `b` folds rows after `a`'s.
    fn merge(&self, a: &mut Self::A, b: &Self::A);
    fn finish(&self, a: &Self::A) -> Self::Out;
}

/// No values: only the rows (unique, counts).
struct Rows;
impl<T: AggValue> Fold<T> for Rows {
    type A = ();
    type Out = i64;
    fn init(&self) {}
    #[inline]
    fn step(&self, _: &mut (), _: T) {}
    fn merge(&self, _: &mut (), _: &()) {}
    fn finish(&self, _: &()) -> i64 {
        0
    }
}

struct Sum;
impl<T: AggValue> Fold<T> for Sum {
    type A = T;
    type Out = T;
    fn init(&self) -> T {
        T::zero()
    }
    #[inline]
    fn step(&self, a: &mut T, v: T) {
        // A select, not a branch: NaN rows add zero.
        *a = a.add(if v.nan() { T::zero() } else { v });
    }
    fn merge(&self, a: &mut T, b: &T) {
        *a = a.add(*b)
    }
    fn finish(&self, a: &T) -> T {
        *a
    }
}

struct Count;
impl<T: AggValue> Fold<T> for Count {
    type A = i64;
    type Out = i64;
    fn init(&self) -> i64 {
        0
    }
    #[inline]
    fn step(&self, a: &mut i64, v: T) {
        *a += i64::from(!v.nan())
    }
    fn merge(&self, a: &mut i64, b: &i64) {
        *a += b
    }
    fn finish(&self, a: &i64) -> i64 {
        *a
    }
}

/// Sum and count of the non-NaN values.
#[derive(Clone, Copy, Pod, Zeroable)]
#[repr(C)]
struct MeanAcc {
    sum: f64,
    n: i64,
}
struct Mean;
impl<T: AggValue> Fold<T> for Mean {
    type A = MeanAcc;
    type Out = f64;
    fn init(&self) -> MeanAcc {
        MeanAcc { sum: 0.0, n: 0 }
    }
    #[inline]
    fn step(&self, a: &mut MeanAcc, v: T) {
        if !v.nan() {
            a.sum += v.f64();
            a.n += 1;
        }
    }
    fn merge(&self, a: &mut MeanAcc, b: &MeanAcc) {
        a.sum += b.sum;
        a.n += b.n;
    }
    fn finish(&self, a: &MeanAcc) -> f64 {
        if a.n == 0 {
            f64::NAN
        } else {
            a.sum / a.n as f64
        }
    }
}

/// Min (`false`) or max (`true`) of the non-NaN values; the first of equal values.
struct Extreme(bool);
impl<T: AggValue> Fold<T> for Extreme {
    type A = T;
    type Out = T;
    /// NaN for `f64` (no value yet), else the type's largest (min) or smallest (max) value,
    /// which every group's first value replaces or equals.
    fn init(&self) -> T {
        if T::missing().nan() {
            T::missing()
        } else if self.0 {
            T::lowest()
        } else {
            T::highest()
        }
    }
    #[inline]
    fn step(&self, a: &mut T, v: T) {
        if !v.nan() && (a.nan() || if self.0 { v > *a } else { v < *a }) {
            *a = v;
        }
    }
    fn merge(&self, a: &mut T, b: &T) {
        self.step(a, *b)
    }
    fn finish(&self, a: &T) -> T {
        *a
    }
}

/// Distinct keys, their rows, and the folded values per key.
type Parts<O> = (DistArray<i64, 1>, Option<DistArray<i64, 1>>, Option<DistArray<O, 1>>);

/// The generic dense aggregation; `None` (on every locale) when the keys span more than
/// `limit`.
fn run<T: AggValue, F: Fold<T>>(
    ctx: &Ctx,
    f: &F,
    ks: &[i64],
    vs: Option<&[T]>,
    limit: usize,
) -> Result<Option<Parts<F::Out>>> {
    let slot = (std::mem::size_of::<i64>() + std::mem::size_of::<F::A>()) as u64;
    let tasks = ctx.here().num_threads().max(1) as u64;
    // Every table this may hold at once: the tasks', the locale's and the exchanged parts.
    let reservation = match ctx.reserve("atoll_ops::dense_aggregate (tables)", limit as u64 * slot * (tasks + 2)) {
        Ok(r) => r,
        Err(Error::OutOfMemory { .. }) => return Ok(None),
        Err(e) => return Err(e),
    };
    let valued = vs.is_some() && std::mem::size_of::<F::A>() > 0;
    let init = f.init();
    crate::profile::start();
    let tables = per_task(ctx, ks.len(), |r| match vs {
        Some(vs) if valued => fold_table(ks, r, limit, init, true, true, |a, i| f.step(a, vs[i])),
        _ => fold_table(ks, r, limit, init, true, false, |_, _| {}),
    });
    crate::profile::mark(|| "fold".into());
    let (tables, found) = common_range(ctx, tables, |t| t.seen, limit)?;
    let _held = reservation.commit();
    let Some((lo, range)) = found else { return Ok(None) };
    // This locale's table over lo..lo + range, tasks merged in chunk order.
    let mut all_rows = vec![0i64; range];
    let mut all_acc = vec![init; if valued { range } else { 0 }];
    for t in &tables {
        let Some(s) = t.seen_slots() else { continue };
        let at = t.seen.map_or(0, |(a, _)| a.wrapping_sub(lo) as usize);
        all_rows[at..at + s.len()].iter_mut().zip(&t.rows[s.clone()]).for_each(|(d, s)| *d += s);
        if valued {
            all_acc[at..at + s.len()].iter_mut().zip(&t.acc[s]).for_each(|(d, s)| f.merge(d, s));
        }
    }
    drop(tables);
    crate::profile::mark(|| "merge_tasks".into());
    // Block d of the key range goes to locale d, merged there in locale order.
    let kr = Layout::new(ctx, range)?;
    let got_rows: Vec<Vec<i64>> = ctx.alltoallv(parts(&kr, &all_rows))?;
    let got_acc: Vec<Vec<F::A>> = if valued { ctx.alltoallv(parts(&kr, &all_acc))? } else { Vec::new() };
    drop((all_rows, all_acc));
    crate::profile::mark(|| "alltoallv".into());
    let mine = kr.len_here();
    let mut rows = vec![0i64; mine];
    let mut acc = vec![init; if valued { mine } else { 0 }];
    for (l, g) in got_rows.iter().enumerate() {
        rows.iter_mut().zip(g).for_each(|(a, b)| *a += b);
        if let Some(ga) = got_acc.get(l) {
            acc.iter_mut().zip(ga).for_each(|(a, b)| f.merge(a, b));
        }
    }
    let base = lo.wrapping_add(kr.lo() as i64);
    let present: Vec<usize> = (0..mine).filter(|&j| rows[j] > 0).collect();
    let uc: Vec<i64> = present.iter().map(|&j| rows[j]).collect();
    let ov: Option<Vec<F::Out>> =
        vs.map(|_| present.iter().map(|&j| if valued { f.finish(&acc[j]) } else { f.finish(&init) }).collect());
    crate::profile::mark(|| "merge_locales".into());
    let r = output(ctx, base, &present, Some(uc), ov);
    crate::profile::mark(|| "output".into());
    crate::profile::report("dense", ctx.id());
    r
}

/// The tables that stayed within the limit, and the keys `lo..lo + range` of all locales.
type InRange<X> = (Vec<X>, Option<(i64, usize)>);

/// The tasks' tables (each `None` when its keys spanned more than `limit`) without the
/// `None`s, and the keys `lo..lo + range` that all locales' rows span ([`key_range`]: `None`
/// on every locale when any task's or all the keys span more than `limit`). `seen` is a
/// table's smallest and largest key. **Collective** (one allreduce).
fn common_range<X>(
    ctx: &Ctx,
    tables: Vec<Option<X>>,
    seen: impl Fn(&X) -> Option<(i64, i64)>,
    limit: usize,
) -> Result<InRange<X>> {
    let wide = tables.iter().any(Option::is_none);
    let tables: Vec<X> = tables.into_iter().flatten().collect();
    let span = tables.iter().filter_map(&seen).reduce(|a, b| (a.0.min(b.0), a.1.max(b.1)));
    let (wide, span) = ctx.allreduce((wide, span), |a, b| (a.0 || b.0, join(a.1, b.1)))?;
    crate::profile::mark(|| "span_allreduce".into());
    Ok((tables, key_range(wide, span, limit)))
}

/// The keys `lo..lo + range` that every locale's rows span, or `None` (sort instead) when a
/// task's keys or all of them span more than `limit`.
fn key_range(wide: bool, span: Option<(i64, i64)>, limit: usize) -> Option<(i64, usize)> {
    match span {
        _ if wide => None,
        None => Some((0, 0)),
        Some((lo, hi)) => {
            let r = hi as i128 - lo as i128 + 1;
            (r <= limit as i128).then_some((lo, r as usize))
        }
    }
}

/// The union of two key spans.
fn join(a: Option<(i64, i64)>, b: Option<(i64, i64)>) -> Option<(i64, i64)> {
    match (a, b) {
        (Some(x), Some(y)) => Some((x.0.min(y.0), x.1.max(y.1))),
        (x, y) => x.or(y),
    }
}

/// Block `d` of the key range, for locale `d`.
fn parts<X: Copy>(kr: &Layout, all: &[X]) -> Vec<Vec<X>> {
    (0..kr.locales()).map(|d| all[kr.bounds[d]..kr.bounds[d + 1]].to_vec()).collect()
}

/// The Block arrays of the keys `base + j` for `j` in `present` (this locale's part, in
/// order), their rows and values.
fn output<O: Elem + Pod>(
    ctx: &Ctx,
    base: i64,
    present: &[usize],
    rows: Option<Vec<i64>>,
    vals: Option<Vec<O>>,
) -> Result<Option<Parts<O>>> {
    let uk: Vec<i64> = present.iter().map(|&j| base.wrapping_add(j as i64)).collect();
    let off = ctx.exscan(uk.len(), 0, |a, b| a + b)?;
    let total = ctx.allreduce(uk.len(), |a, b| a + b)?;
    let out_k = block_from_runs(ctx, total, off, &uk)?;
    let out_c = rows.map(|c| block_from_runs(ctx, total, off, &c)).transpose()?;
    let out_v = vals.map(|v| block_from_runs(ctx, total, off, &v)).transpose()?;
    Ok(Some((out_k, out_c, out_v)))
}

/// The uncounted `f64` sum (see [`crate::dense_fold`]): no rows per key, the keys with rows
/// being those whose sum is not `-0.0`. Same result as [`run`] with [`Sum`] less the rows.
fn run_sum_f64<T: AggValue>(ctx: &Ctx, ks: &[i64], vs: &[f64], limit: usize) -> Result<Option<Parts<T>>> {
    let tasks = ctx.here().num_threads().max(1) as u64;
    // The tasks' tables, the locale's and the exchanged parts.
    let reservation = match ctx.reserve("atoll_ops::dense_aggregate (sums)", limit as u64 * 8 * (tasks + 2)) {
        Ok(r) => r,
        Err(Error::OutOfMemory { .. }) => return Ok(None),
        Err(e) => return Err(e),
    };
    let tables = per_task(ctx, ks.len(), |r| fold_sum_f64(ks, vs, r, limit));
    let (tables, found) = common_range(ctx, tables, |t| t.seen, limit)?;
    let _held = reservation.commit();
    let Some((lo, range)) = found else { return Ok(None) };
    let mut all = vec![NEG_ZERO; range];
    for t in &tables {
        let Some(s) = t.seen_slots() else { continue };
        let at = t.seen.map_or(0, |(a, _)| a.wrapping_sub(lo) as usize);
        all[at..at + s.len()].iter_mut().zip(&t.acc[s]).for_each(|(d, x)| *d += x);
    }
    drop(tables);
    let kr = Layout::new(ctx, range)?;
    let got: Vec<Vec<f64>> = ctx.alltoallv(parts(&kr, &all))?;
    drop(all);
    let mine = kr.len_here();
    let mut acc = vec![NEG_ZERO; mine];
    for g in &got {
        acc.iter_mut().zip(g).for_each(|(a, b)| *a += b);
    }
    let present: Vec<usize> = (0..mine).filter(|&j| touched(&acc[j])).collect();
    let ov: Vec<f64> = present.iter().map(|&j| acc[j]).collect();
    // `T` is `f64` (the caller checked): the same bits.
    let ov: Vec<T> = bytemuck::cast_slice(&ov).to_vec();
    output(ctx, lo.wrapping_add(kr.lo() as i64), &present, None, Some(ov))
}

/// The distinct keys of `keys` in increasing order, the number of rows of each and, with
/// `values` (one per row), their aggregation per key, `agg` being [`Agg::Sum`],
/// [`Agg::Count`], [`Agg::Mean`], [`Agg::Min`] or [`Agg::Max`] (NaN rules of [`Agg`]); no
/// sort, one read of the rows. `Ok(None)` on every locale when the keys span more than
/// `limit` values (at most [`DENSE_MAX_RANGE`](crate::DENSE_MAX_RANGE)), or when the tables
/// would not fit in the memory budget: the caller sorts instead. **Collective.**
///
/// ```
/// use atoll_array::{dist, DistArray};
/// use atoll_ops::{dense_aggregate, Agg, AggResult};
/// use atoll_runtime::{run, Config};
/// run(Config::local(2), |ctx| {
///     let k = [5i64, 3, 5, 9, 3, 5];
///     let keys = DistArray::from_fn(ctx, dist::block(ctx, [6])?, |[i]| k[i as usize])?;
///     let vals = DistArray::from_fn(ctx, dist::block(ctx, [6])?, |[i]| i as f64)?;
///     let g = dense_aggregate(&keys, Some((&vals, Agg::Max)), 1 << 10)?.unwrap();
///     assert_eq!(g.keys.to_vec()?, vec![3, 5, 9]);
///     assert_eq!(g.rows.unwrap().to_vec()?, vec![2, 3, 1]);
///     let Some(AggResult::Same(m)) = g.values else { panic!() };
///     assert_eq!(m.to_vec()?, vec![4.0, 5.0, 3.0]);
///     assert!(dense_aggregate(&keys, Some((&vals, Agg::Sum)), 4)?.is_none()); // 3..=9 spans 7
///     Ok(())
/// }).unwrap();
/// ```
///
/// # Errors
/// On every locale: [`Error::InvalidArgument`] for another aggregation, a `limit` outside
/// `1..=DENSE_MAX_RANGE` or inputs that are not Block arrays; [`Error::ShapeMismatch`] when
/// `values` has another length.
pub fn dense_aggregate<T: AggValue>(
    keys: &DistArray<i64, 1>,
    values: Option<(&DistArray<T, 1>, Agg)>,
    limit: usize,
) -> Result<Option<DenseGroups<T>>> {
    dense(keys, values, limit, true)
}

/// [`dense_aggregate`] of `values` where the rows per key are computed only when the
/// aggregation needs them: `rows` is `None` for [`Agg::Sum`] of `f64` values, which then
/// folds into one `f64` per key and nothing else (the fastest dense `GroupBy.sum`); the same
/// keys and values otherwise. **Collective.**
///
/// # Errors
/// As [`dense_aggregate`].
pub fn dense_aggregate_values<T: AggValue>(
    keys: &DistArray<i64, 1>,
    values: (&DistArray<T, 1>, Agg),
    limit: usize,
) -> Result<Option<DenseGroups<T>>> {
    dense(keys, Some(values), limit, false)
}

/// The distinct keys of `keys` in increasing order, Block over `0..distinct`: what
/// [`dense_aggregate`] returns as `keys` without values, but folded into one presence bit per
/// key instead of a row count (a table that stays in cache), and exchanged as one byte per key.
/// `Ok(None)` on every locale when the keys span more than `limit` values, or when the bitmaps
/// would not fit in the memory budget: the caller sorts instead. **Collective.**
///
/// ```
/// use atoll_array::{dist, DistArray};
/// use atoll_runtime::{run, Config};
/// run(Config::local(2), |ctx| {
///     let k = [5i64, 3, 5, 9, 3, 5];
///     let keys = DistArray::from_fn(ctx, dist::block(ctx, [6])?, |[i]| k[i as usize])?;
///     assert_eq!(atoll_ops::dense_unique(&keys, 1 << 10)?.unwrap().to_vec()?, vec![3, 5, 9]);
///     assert!(atoll_ops::dense_unique(&keys, 6)?.is_none()); // 3..=9 spans 7
///     Ok(())
/// }).unwrap();
/// ```
///
/// # Errors
/// On every locale: [`Error::InvalidArgument`] for a `limit` outside `1..=DENSE_MAX_RANGE` or
/// keys that are not a Block array.
pub fn dense_unique(keys: &DistArray<i64, 1>, limit: usize) -> Result<Option<DistArray<i64, 1>>> {
    let ctx = keys.ctx();
    if limit == 0 || limit > crate::DENSE_MAX_RANGE {
        return Err(invalid_arg!("dense_unique: a limit of {limit} (expected 1..={})", crate::DENSE_MAX_RANGE));
    }
    check_block(ctx, keys, "dense_unique (keys)")?;
    let ks = keys.local();
    let tasks = ctx.here().num_threads().max(1) as u64;
    // The tasks' bitmaps, the locale's flags and the exchanged parts.
    let reservation =
        match ctx.reserve("atoll_ops::dense_unique (bitmaps)", (limit as u64 / 8 + 16) * tasks + 2 * limit as u64) {
            Ok(r) => r,
            Err(Error::OutOfMemory { .. }) => return Ok(None),
            Err(e) => return Err(e),
        };
    crate::profile::start();
    let tables = per_task(ctx, ks.len(), |r| fold_presence(ks, r, limit));
    crate::profile::mark(|| "fold".into());
    let (tables, found) = common_range(ctx, tables, |t| t.seen, limit)?;
    let _held = reservation.commit();
    let Some((lo, range)) = found else { return Ok(None) };
    // One byte per key of lo..lo + range: whether this locale has rows of it.
    let mut all = vec![0u8; range];
    for t in &tables {
        t.for_each_key(|k| all[k.wrapping_sub(lo) as usize] = 1);
    }
    drop(tables);
    crate::profile::mark(|| "merge_tasks".into());
    let kr = Layout::new(ctx, range)?;
    let got: Vec<Vec<u8>> = ctx.alltoallv(parts(&kr, &all))?;
    drop(all);
    crate::profile::mark(|| "alltoallv".into());
    let mine = kr.len_here();
    let mut flags = vec![0u8; mine];
    for g in &got {
        flags.iter_mut().zip(g).for_each(|(a, b)| *a |= b);
    }
    let present: Vec<usize> = (0..mine).filter(|&j| flags[j] != 0).collect();
    crate::profile::mark(|| "merge_locales".into());
    let r = output::<i64>(ctx, lo.wrapping_add(kr.lo() as i64), &present, None, None).map(|o| o.map(|(k, _, _)| k));
    crate::profile::mark(|| "output".into());
    crate::profile::report("dense_unique", ctx.id());
    r
}

fn dense<T: AggValue>(
    keys: &DistArray<i64, 1>,
    values: Option<(&DistArray<T, 1>, Agg)>,
    limit: usize,
    with_rows: bool,
) -> Result<Option<DenseGroups<T>>> {
    let ctx = keys.ctx();
    if limit == 0 || limit > crate::DENSE_MAX_RANGE {
        return Err(invalid_arg!("dense_aggregate: a limit of {limit} (expected 1..={})", crate::DENSE_MAX_RANGE));
    }
    check_block(ctx, keys, "dense_aggregate (keys)")?;
    let ks = keys.local();
    let Some((v, agg)) = values else {
        return Ok(run::<T, Rows>(ctx, &Rows, ks, None, limit)?.map(|(keys, rows, _)| DenseGroups {
            keys,
            rows,
            values: None,
        }));
    };
    if v.len() != keys.len() {
        return Err(Error::ShapeMismatch {
            context: "dense_aggregate".into(),
            left: format!("{} keys", keys.len()),
            right: format!("{} values", v.len()),
        });
    }
    check_block(ctx, v, "dense_aggregate (values)")?;
    let vs = Some(v.local());
    // `f64` is the only type with a NaN.
    if !with_rows && agg == Agg::Sum && T::missing().nan() {
        let v64: &[f64] = bytemuck::cast_slice(v.local());
        return Ok(run_sum_f64::<T>(ctx, ks, v64, limit)?.map(|(keys, rows, v)| DenseGroups {
            keys,
            rows,
            values: v.map(AggResult::Same),
        }));
    }
    fn wrap<O: Elem, T: Elem>(r: Option<Parts<O>>, w: fn(DistArray<O, 1>) -> AggResult<T>) -> Option<DenseGroups<T>> {
        r.map(|(keys, rows, v)| DenseGroups { keys, rows, values: v.map(w) })
    }
    Ok(match agg {
        Agg::Sum => wrap(run(ctx, &Sum, ks, vs, limit)?, AggResult::Same),
        Agg::Min => wrap(run(ctx, &Extreme(false), ks, vs, limit)?, AggResult::Same),
        Agg::Max => wrap(run(ctx, &Extreme(true), ks, vs, limit)?, AggResult::Same),
        Agg::Count => wrap(run(ctx, &Count, ks, vs, limit)?, AggResult::I64),
        Agg::Mean => wrap(run(ctx, &Mean, ks, vs, limit)?, AggResult::F64),
        other => return Err(invalid_arg!("dense_aggregate: {other:?} has no dense path (sum, count, mean, min, max)")),
    })
}
