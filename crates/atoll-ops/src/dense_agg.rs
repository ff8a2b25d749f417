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
    /// The number of rows of each key.
    pub rows: DistArray<i64, 1>,
    /// The aggregation of the values per key (`None` without values).
    pub values: Option<AggResult<T>>,
}

/// The first table a task allocates (slots), before it grows.
const FIRST_TABLE: usize = 1 << 12;

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
    fn finish(&self, _: &()) -> i64 { 0 }
}

struct Sum;
impl<T: AggValue> Fold<T> for Sum {
    type A = T;
    type Out = T;
    fn init(&self) -> T { T::zero() }
    #[inline]
    fn step(&self, a: &mut T, v: T) {
        // A select, not a branch: NaN rows add zero.
        *a = a.add(if v.nan() { T::zero() } else { v });
    }
    fn merge(&self, a: &mut T, b: &T) { *a = a.add(*b) }
    fn finish(&self, a: &T) -> T { *a }
}

struct Count;
impl<T: AggValue> Fold<T> for Count {
    type A = i64;
    type Out = i64;
    fn init(&self) -> i64 { 0 }
    #[inline]
    fn step(&self, a: &mut i64, v: T) { *a += i64::from(!v.nan()) }
    fn merge(&self, a: &mut i64, b: &i64) { *a += b }
    fn finish(&self, a: &i64) -> i64 { *a }
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
    fn init(&self) -> MeanAcc { MeanAcc { sum: 0.0, n: 0 } }
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
    fn finish(&self, a: &MeanAcc) -> f64 { if a.n == 0 { f64::NAN } else { a.sum / a.n as f64 } }
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
    fn merge(&self, a: &mut T, b: &T) { self.step(a, *b) }
    fn finish(&self, a: &T) -> T { *a }
}

/// One key's rows and accumulator.
#[derive(Clone, Copy)]
struct Slot<A> {
    rows: i64,
    acc: A,
}

/// A task's table: keys `lo..lo + slots.len()`.
struct Table<A> {
    lo: i64,
    slots: Vec<Slot<A>>,
}

impl<A: Copy> Table<A> {
    /// Moves or grows the table to hold key `k` (at most `limit` slots); `false` when the
    /// keys would span more than `limit`.
    fn grow(&mut self, k: i64, limit: usize, init: A) -> bool {
        let (lo, cap) = (self.lo as i128, self.slots.len() as i128);
        let k128 = k as i128;
        // The keys seen so far (not the table's extent, which may be wider).
        let seen = self.span().map(|(a, b)| (a as i128, b as i128));
        let (kmin, kmax) = seen.map_or((k128, k128), |(a, b)| (a.min(k128), b.max(k128)));
        let span = kmax - kmin + 1;
        if span > limit as i128 {
            return false;
        }
        // Keep the size while the keys fill at most 3/4 of it (the table only moves), else at
        // least double it, to twice the keys' span: O(log) moves for keys in random order.
        let cap2 = if 4 * span <= 3 * cap { cap } else { (2 * span).max(2 * cap).max(FIRST_TABLE as i128).min(limit as i128) };
        // The keys centred: room on both sides.
        let lo2 = (kmin - (cap2 - span) / 2).max(i64::MIN as i128);
        let mut slots = vec![Slot { rows: 0, acc: init }; cap2 as usize];
        if let Some((a, b)) = seen {
            let (from, to, at) = ((a - lo) as usize, (b - lo) as usize + 1, (a - lo2) as usize);
            slots[at..at + (to - from)].copy_from_slice(&self.slots[from..to]);
        }
        self.lo = lo2 as i64;
        self.slots = slots;
        true
    }

    /// The smallest and largest key with rows.
    fn span(&self) -> Option<(i64, i64)> {
        let first = self.slots.iter().position(|s| s.rows > 0)?;
        let last = self.slots.iter().rposition(|s| s.rows > 0)?;
        Some((self.lo.wrapping_add(first as i64), self.lo.wrapping_add(last as i64)))
    }
}

/// Folds the rows `r` of this locale into a table; `None` when they span more than `limit`.
fn fold_rows<T: AggValue, F: Fold<T>>(f: &F, ks: &[i64], vs: Option<&[T]>, r: std::ops::Range<usize>, limit: usize) -> Option<Table<F::A>> {
    let init = f.init();
    let mut t = Table { lo: 0, slots: Vec::new() };
    for i in r {
        let k = ks[i];
        let mut j = k.wrapping_sub(t.lo) as u64 as usize;
        if j >= t.slots.len() {
            if !t.grow(k, limit, init) {
                return None;
            }
            j = k.wrapping_sub(t.lo) as u64 as usize;
        }
        let s = &mut t.slots[j];
        s.rows += 1;
        if let Some(vs) = vs {
            f.step(&mut s.acc, vs[i]);
        }
    }
    Some(t)
}

/// Distinct keys, their rows, and the folded values per key.
type Parts<O> = (DistArray<i64, 1>, DistArray<i64, 1>, Option<DistArray<O, 1>>);

/// The generic dense aggregation; `None` (on every locale) when the keys span more than
/// `limit`.
fn run<T: AggValue, F: Fold<T>>(
    ctx: &Ctx,
    f: &F,
    ks: &[i64],
    vs: Option<&[T]>,
    limit: usize,
) -> Result<Option<Parts<F::Out>>> {
    let slot = std::mem::size_of::<Slot<F::A>>() as u64;
    let tasks = ctx.here().num_threads().max(1) as u64;
    // Every table this may hold at once: the tasks', the locale's and the exchanged parts.
    let reservation = match ctx.reserve("atoll_ops::dense_aggregate (tables)", limit as u64 * slot * (tasks + 2)) {
        Ok(r) => r,
        Err(Error::OutOfMemory { .. }) => return Ok(None),
        Err(e) => return Err(e),
    };
    let tables = per_task(ctx, ks.len(), |r| fold_rows(f, ks, vs, r, limit));
    let wide = tables.iter().any(Option::is_none);
    let tables: Vec<Table<F::A>> = tables.into_iter().flatten().collect();
    let span = tables.iter().filter_map(Table::span).reduce(|a, b| (a.0.min(b.0), a.1.max(b.1)));
    let (wide, span) = ctx.allreduce((wide, span), |a, b| {
        let s = match (a.1, b.1) {
            (Some(x), Some(y)) => Some((x.0.min(y.0), x.1.max(y.1))),
            (x, y) => x.or(y),
        };
        (a.0 || b.0, s)
    })?;
    let _held = reservation.commit();
    let (lo, range) = match span {
        _ if wide => return Ok(None),
        None => (0, 0),
        Some((lo, hi)) => {
            let r = hi as i128 - lo as i128 + 1;
            if r > limit as i128 {
                return Ok(None);
            }
            (lo, r as usize)
        }
    };
    // This locale's table over lo..lo + range, tasks merged in chunk order.
    let init = f.init();
    let mut all = vec![Slot { rows: 0, acc: init }; range];
    for t in &tables {
        let Some((a, b)) = t.span() else { continue };
        let (from, to) = ((a.wrapping_sub(t.lo)) as usize, (b.wrapping_sub(t.lo)) as usize + 1);
        let at = a.wrapping_sub(lo) as usize;
        for (d, s) in all[at..at + (to - from)].iter_mut().zip(&t.slots[from..to]) {
            d.rows += s.rows;
            f.merge(&mut d.acc, &s.acc);
        }
    }
    drop(tables);
    // Block d of the key range goes to locale d, merged there in locale order.
    let kr = Layout::new(ctx, range)?;
    let part = |d: usize| &all[kr.bounds[d]..kr.bounds[d + 1]];
    let got_rows: Vec<Vec<i64>> = ctx.alltoallv((0..kr.locales()).map(|d| part(d).iter().map(|s| s.rows).collect()).collect())?;
    let got_acc: Vec<Vec<F::A>> = if vs.is_some() && std::mem::size_of::<F::A>() > 0 {
        ctx.alltoallv((0..kr.locales()).map(|d| part(d).iter().map(|s| s.acc).collect()).collect())?
    } else {
        Vec::new()
    };
    drop(all);
    let mine = kr.len_here();
    let mut rows = vec![0i64; mine];
    let mut acc = vec![init; if vs.is_some() { mine } else { 0 }];
    for (l, g) in got_rows.iter().enumerate() {
        rows.iter_mut().zip(g).for_each(|(a, b)| *a += b);
        if let Some(ga) = got_acc.get(l) {
            acc.iter_mut().zip(ga).for_each(|(a, b)| f.merge(a, b));
        }
    }
    let base = lo.wrapping_add(kr.lo() as i64);
    let present: Vec<usize> = (0..mine).filter(|&j| rows[j] > 0).collect();
    let uk: Vec<i64> = present.iter().map(|&j| base.wrapping_add(j as i64)).collect();
    let uc: Vec<i64> = present.iter().map(|&j| rows[j]).collect();
    let off = ctx.exscan(uk.len(), 0, |a, b| a + b)?;
    let total = ctx.allreduce(uk.len(), |a, b| a + b)?;
    let out_k = block_from_runs(ctx, total, off, &uk)?;
    let out_c = block_from_runs(ctx, total, off, &uc)?;
    let out_v = match vs {
        Some(_) => {
            let ov: Vec<F::Out> = present.iter().map(|&j| f.finish(&acc[j])).collect();
            Some(block_from_runs(ctx, total, off, &ov)?)
        }
        None => None,
    };
    Ok(Some((out_k, out_c, out_v)))
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
///     assert_eq!(g.rows.to_vec()?, vec![2, 3, 1]);
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
    let ctx = keys.ctx();
    if limit == 0 || limit > crate::DENSE_MAX_RANGE {
        return Err(invalid_arg!("dense_aggregate: a limit of {limit} (expected 1..={})", crate::DENSE_MAX_RANGE));
    }
    check_block(ctx, keys, "dense_aggregate (keys)")?;
    let ks = keys.local();
    let Some((v, agg)) = values else {
        return Ok(run::<T, Rows>(ctx, &Rows, ks, None, limit)?.map(|(keys, rows, _)| DenseGroups { keys, rows, values: None }));
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
