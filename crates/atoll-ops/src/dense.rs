//! Dense integer keys: when the keys of a grouping are `i64`s in a small range `lo..lo +
//! range`, counting (and summing) into a table indexed by `key - lo` replaces the sort.
//! [`dense_groups`] gives the distinct keys in order with their counts and value sums (what
//! `unique` with counts and a GroupBy sum need); [`dense_in1d`] tests membership against a
//! bitmap of the second array. Both read their inputs once.
//!
//! Each locale counts its rows into tables (one per task, merged); the tables are split by
//! the Block distribution of `0..range` and exchanged with one all-to-all, so each locale
//! owns the totals of one block of the key range and writes its present keys, in order,
//! into the Block results.

use crate::layout::Layout;
use crate::runs::block_from_runs;
use crate::segments::check_block;
use atoll_array::DistArray;
use atoll_error::{invalid_arg, Error, Result};
use atoll_runtime::Ctx;
use atoll_util::sync::{into_inner, lock};
use std::sync::Mutex;

/// The largest key range the dense paths take (tables of 16 bytes per key and task).
pub const DENSE_MAX_RANGE: usize = 1 << 24;

fn check_range(range: usize) -> Result<()> {
    if range == 0 || range > DENSE_MAX_RANGE {
        return Err(invalid_arg!("dense keys: a key range of {range} (expected 1..={DENSE_MAX_RANGE})"));
    }
    Ok(())
}

/// `f(chunk)` over about one chunk of `0..m` per thread of this locale, the results in chunk
/// order.
pub(crate) fn per_task<R: Send>(ctx: &Ctx, m: usize, f: impl Fn(std::ops::Range<usize>) -> R + Sync) -> Vec<R> {
    let tasks = ctx.here().num_threads().max(1);
    let chunk = m.div_ceil(tasks).max(1 << 14);
    let out = Mutex::new(Vec::new());
    ctx.forall_chunks_with(0..m, chunk, |r| {
        let start = r.start;
        let v = f(r);
        lock(&out).push((start, v));
    });
    let mut v = into_inner(out);
    v.sort_by_key(|x| x.0);
    v.into_iter().map(|x| x.1).collect()
}

/// The distinct keys of `keys` (all in `lo..lo + range`), in increasing order, with the
/// number of rows of each and, when `values` is given (one per row), the sum of their
/// non-NaN values (GroupBy's `sum` with `skipna`): `(keys, counts, sums)`, Block over
/// `0..groups`. **Collective.**
///
/// ```
/// use atoll_array::{dist, DistArray};
/// use atoll_runtime::{run, Config};
/// run(Config::local(2), |ctx| {
///     let k = [5i64, 3, 5, 9, 3, 5];
///     let keys = DistArray::from_fn(ctx, dist::block(ctx, [6])?, |[i]| k[i as usize])?;
///     let vals = DistArray::from_fn(ctx, dist::block(ctx, [6])?, |[i]| i as f64)?;
///     let (u, c, s) = atoll_ops::dense_groups(&keys, Some(&vals), 3, 7)?;
///     assert_eq!(u.to_vec()?, vec![3, 5, 9]);
///     assert_eq!(c.to_vec()?, vec![2, 3, 1]);
///     assert_eq!(s.unwrap().to_vec()?, vec![5.0, 7.0, 3.0]);
///     Ok(())
/// }).unwrap();
/// ```
///
/// # Errors
/// On every locale: [`Error::InvalidArgument`] for a range outside `1..=`[`DENSE_MAX_RANGE`],
/// an input that is not a Block array, or a key outside the range; [`Error::ShapeMismatch`]
/// when `values` has another length; [`Error::OutOfMemory`] when the tables do not fit.
#[allow(clippy::type_complexity)]
pub fn dense_groups(
    keys: &DistArray<i64, 1>,
    values: Option<&DistArray<f64, 1>>,
    lo: i64,
    range: usize,
) -> Result<(DistArray<i64, 1>, DistArray<i64, 1>, Option<DistArray<f64, 1>>)> {
    let ctx = keys.ctx();
    check_range(range)?;
    check_block(ctx, keys, "dense_groups (keys)")?;
    if let Some(v) = values {
        if v.len() != keys.len() {
            return Err(Error::ShapeMismatch {
                context: "dense_groups".into(),
                left: format!("{} keys", keys.len()),
                right: format!("{} values", v.len()),
            });
        }
        check_block(ctx, v, "dense_groups (values)")?;
    }
    let ks = keys.local();
    let vs = values.map(|v| v.local());
    let tasks = ctx.here().num_threads().max(1) as u64;
    let bytes = range as u64 * if vs.is_some() { 16 } else { 8 } * (tasks + 1);
    let reservation = ctx.reserve("atoll_ops::dense_groups (tables)", bytes)?;
    let tables = per_task(ctx, ks.len(), |r| {
        let mut counts = vec![0i64; range];
        let mut sums = vec![0f64; if vs.is_some() { range } else { 0 }];
        let mut bad = false;
        for i in r {
            let j = ks[i].wrapping_sub(lo) as u64 as usize;
            if j >= range {
                bad = true;
                continue;
            }
            counts[j] += 1;
            if let Some(v) = vs {
                if !v[i].is_nan() {
                    sums[j] += v[i];
                }
            }
        }
        (counts, sums, bad)
    });
    let bad = ctx.allreduce(tables.iter().any(|t| t.2), |a, b| a || b)?;
    if bad {
        return Err(invalid_arg!("dense_groups: a key outside {lo}..{}", lo as i128 + range as i128));
    }
    let _held = reservation.commit();
    let mut it = tables.into_iter();
    let (mut counts, mut sums, _) =
        it.next().unwrap_or_else(|| (vec![0; range], vec![0.0; if vs.is_some() { range } else { 0 }], false));
    for (c, s, _) in it {
        counts.iter_mut().zip(&c).for_each(|(a, b)| *a += b);
        sums.iter_mut().zip(&s).for_each(|(a, b)| *a += b);
    }
    // Block d of the key range goes to locale d.
    let kr = Layout::new(ctx, range)?;
    let split = |t: &[i64]| -> Vec<Vec<i64>> {
        (0..kr.locales()).map(|d| t[kr.bounds[d]..kr.bounds[d + 1]].to_vec()).collect()
    };
    let got_c = ctx.alltoallv(split(&counts))?;
    drop(counts);
    let mine = kr.len_here();
    let mut tc = vec![0i64; mine];
    for g in &got_c {
        tc.iter_mut().zip(g).for_each(|(a, b)| *a += b);
    }
    let ts = if vs.is_some() {
        let parts: Vec<Vec<f64>> = (0..kr.locales()).map(|d| sums[kr.bounds[d]..kr.bounds[d + 1]].to_vec()).collect();
        let got = ctx.alltoallv(parts)?;
        let mut t = vec![0f64; mine];
        for g in &got {
            t.iter_mut().zip(g).for_each(|(a, b)| *a += b);
        }
        Some(t)
    } else {
        None
    };
    drop(sums);
    let base = lo.wrapping_add(kr.lo() as i64);
    let present: Vec<usize> = (0..mine).filter(|&j| tc[j] > 0).collect();
    let uk: Vec<i64> = present.iter().map(|&j| base.wrapping_add(j as i64)).collect();
    let uc: Vec<i64> = present.iter().map(|&j| tc[j]).collect();
    let off = ctx.exscan(uk.len(), 0, |a, b| a + b)?;
    let total = ctx.allreduce(uk.len(), |a, b| a + b)?;
    let out_k = block_from_runs(ctx, total, off, &uk)?;
    let out_c = block_from_runs(ctx, total, off, &uc)?;
    let out_s = match ts {
        Some(t) => {
            let us: Vec<f64> = present.iter().map(|&j| t[j]).collect();
            Some(block_from_runs(ctx, total, off, &us)?)
        }
        None => None,
    };
    Ok((out_k, out_c, out_s))
}

/// For each element of `a` (a Block array), whether it occurs in `b`, whose elements all lie
/// in `lo..lo + range` (elements of `a` outside it are not in `b`). Block like `a`.
/// **Collective.**
///
/// # Errors
/// On every locale: [`Error::InvalidArgument`] for a range outside `1..=`[`DENSE_MAX_RANGE`],
/// an input that is not a Block array or an element of `b` outside the range;
/// [`Error::OutOfMemory`] when the bitmaps do not fit.
pub fn dense_in1d(a: &DistArray<i64, 1>, b: &DistArray<i64, 1>, lo: i64, range: usize) -> Result<DistArray<bool, 1>> {
    let ctx = a.ctx();
    check_range(range)?;
    let la = check_block(ctx, a, "dense_in1d (a)")?;
    check_block(ctx, b, "dense_in1d (b)")?;
    let words = range.div_ceil(64);
    let reservation = ctx.reserve("atoll_ops::dense_in1d (bitmaps)", (words * 8 * (ctx.num_locales() + 1)) as u64)?;
    let mut bits = vec![0u64; words];
    let mut bad = false;
    for &x in b.local() {
        let j = x.wrapping_sub(lo) as u64 as usize;
        if j >= range {
            bad = true;
            continue;
        }
        bits[j / 64] |= 1 << (j % 64);
    }
    if ctx.allreduce(bad, |x, y| x || y)? {
        return Err(invalid_arg!("dense_in1d: an element of b outside {lo}..{}", lo as i128 + range as i128));
    }
    let _held = reservation.commit();
    let got = ctx.alltoallv(vec![bits; ctx.num_locales()])?;
    let mut all = vec![0u64; words];
    for g in &got {
        all.iter_mut().zip(g).for_each(|(x, y)| *x |= y);
    }
    drop(got);
    let mut out = DistArray::<bool, 1>::zeros_lazy(ctx, la.dist.clone())?;
    let xs = a.local();
    for (d, &x) in out.local_mut().iter_mut().zip(xs) {
        let j = x.wrapping_sub(lo) as u64 as usize;
        *d = j < range && all[j / 64] >> (j % 64) & 1 == 1;
    }
    Ok(out)
}
