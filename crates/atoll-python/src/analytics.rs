//! Bindings of the analytics (issue 16): multi-key sort, GroupBy's grouping and its
//! segmented aggregations, on `atoll-ops`. The Python layer (`python/atoll/sorting.py`,
//! `setops.py`, `groupby.py`) builds Arkouda's functions on these and on the other commands.

use crate::commands::{materialize, Operand};
use crate::errors::value_err;
use crate::registry::{lock, Col, Registry};
use crate::session::{exec, next_id};
use crate::types::{DType, Node};
use crate::{new_arr, Arr, Ex};
use atoll::array::DistArray;
use atoll::ops::{Agg, AggResult, SortColumn};
use atoll::runtime::{Ctx, Handler};
use atoll::{Error, Result};
use pyo3::prelude::*;

/// Materializes the key expressions (int64, uint64 or float64), runs `f` on them as sort
/// columns, frees them. **Collective.**
fn with_keys<R>(ctx: &Ctx, keys: &[Node], n: usize, f: impl FnOnce(&[&dyn SortColumn]) -> Result<R>) -> Result<R> {
    let mut cols = Vec::with_capacity(keys.len());
    for k in keys {
        match materialize(ctx, k, n) {
            Ok(c) => cols.push(c),
            Err(e) => {
                cols.into_iter().try_for_each(Col::free)?;
                return Err(e);
            }
        }
    }
    let r = {
        let refs: Result<Vec<&dyn SortColumn>> = cols
            .iter()
            .map(|c| match c {
                Col::I(a) => Ok(a as &dyn SortColumn),
                Col::U(a) => Ok(a as &dyn SortColumn),
                Col::F(a) => Ok(a as &dyn SortColumn),
                Col::B(_) => Err(Error::InvalidArgument("internal: bool sort key (cast to int64 first)".into())),
            })
            .collect();
        refs.and_then(|r| f(&r))
    };
    cols.into_iter().try_for_each(Col::free)?;
    r
}

fn coargsort_cmd(ctx: &Ctx, (id, keys, n): (u64, Vec<Node>, usize)) -> Result<()> {
    let perm = with_keys(ctx, &keys, n, atoll::ops::coargsort)?;
    Registry::of(ctx).insert(id, Col::I(perm));
    Ok(())
}
/// A new int64 array `id`: the permutation that sorts the rows of the key expressions.
pub static COARGSORT: Handler<(u64, Vec<Node>, usize), ()> = Handler::new("atoll-python::coargsort", coargsort_cmd);

fn groupby_cmd(ctx: &Ctx, ((perm, flags, segs), keys, n): ((u64, u64, u64), Vec<Node>, usize)) -> Result<u64> {
    let perm_a = with_keys(ctx, &keys, n, atoll::ops::coargsort_positions)?;
    let flags_a = with_keys(ctx, &keys, n, |k| atoll::ops::group_flags(k, &perm_a))?;
    let segs_a = atoll::ops::segment_starts(&flags_a)?;
    let groups = segs_a.len() as u64;
    let reg = Registry::of(ctx);
    reg.insert(perm, Col::I(perm_a));
    reg.insert(flags, Col::B(flags_a));
    reg.insert(segs, Col::I(segs_a));
    Ok(groups)
}
/// Groups the rows of the keys: registers the permutation, the group-start flags (over the
/// sorted rows) and the segments; returns the number of groups.
pub static GROUPBY: Handler<((u64, u64, u64), Vec<Node>, usize), u64> =
    Handler::new("atoll-python::groupby", groupby_cmd);

fn agg_col<T: atoll::ops::AggValue>(
    v: &DistArray<T, 1>,
    flags: &DistArray<bool, 1>,
    agg: Agg,
    wrap: fn(DistArray<T, 1>) -> Col,
) -> Result<Col> {
    Ok(match atoll::ops::aggregate(v, flags, agg)? {
        AggResult::Same(a) => wrap(a),
        AggResult::I64(a) => Col::I(a),
        AggResult::F64(a) => Col::F(a),
        AggResult::Bool(a) => Col::B(a),
    })
}

fn aggregate_cmd(ctx: &Ctx, (id, vals, flags, n, agg): (u64, Node, u64, usize, Agg)) -> Result<()> {
    let v = Operand::of(ctx, &vals, n)?;
    let f = Registry::of(ctx).get(flags)?;
    let out = v.with(|v| {
        let g = lock(&f);
        match (v, &*g) {
            (Col::I(a), Col::B(fl)) => agg_col(a, fl, agg, Col::I),
            (Col::U(a), Col::B(fl)) => agg_col(a, fl, agg, Col::U),
            (Col::F(a), Col::B(fl)) => agg_col(a, fl, agg, Col::F),
            _ => Err(Error::InvalidArgument("internal: aggregate of bool values or non-bool flags".into())),
        }
    });
    v.free()?;
    Registry::of(ctx).insert(id, out?);
    Ok(())
}
/// A new array `id`: the aggregation of the (sorted) values per group of the flags.
pub static AGGREGATE: Handler<(u64, Node, u64, usize, Agg), ()> =
    Handler::new("atoll-python::aggregate", aggregate_cmd);

/// Registers the commands of this module.
pub fn register_commands() {
    COARGSORT.register();
    GROUPBY.register();
    AGGREGATE.register();
    DENSE_GROUPS.register();
    DENSE_IN1D.register();
}

/// The permutation (int64) that sorts the rows of several key expressions of `n` elements
/// (int64, uint64 or float64), the first most significant.
#[pyfunction]
pub fn coargsort(py: Python<'_>, keys: Vec<PyRef<'_, Ex>>, n: usize) -> PyResult<Arr> {
    let nodes: Vec<Node> = keys.iter().map(|k| k.node.clone()).collect();
    new_arr(py, DType::I64, n, |id| exec(py, &COARGSORT, (id, nodes, n)))
}

/// Groups `n` rows of key expressions: (permutation, group-start flags, segments).
#[pyfunction]
pub fn groupby(py: Python<'_>, keys: Vec<PyRef<'_, Ex>>, n: usize) -> PyResult<(Arr, Arr, Arr)> {
    let nodes: Vec<Node> = keys.iter().map(|k| k.node.clone()).collect();
    let (_, generation) = crate::session::driver(py)?;
    let ids = (next_id(), next_id(), next_id());
    let groups = exec(py, &GROUPBY, (ids, nodes, n))? as usize;
    Ok((
        Arr { id: ids.0, dtype: DType::I64, len: n, generation },
        Arr { id: ids.1, dtype: DType::Bool, len: n, generation },
        Arr { id: ids.2, dtype: DType::I64, len: groups, generation },
    ))
}

/// `op` of the values (an expression of `n` elements, in the order of the sorted rows; int64,
/// uint64 or float64) per group of `flags`: sum, prod, min, max, count, mean, var, std,
/// argmin, argmax (ranks of the sorted rows), any, all, first.
#[pyfunction]
#[pyo3(signature = (values, flags, n, groups, op, ddof=0))]
pub fn aggregate(
    py: Python<'_>,
    values: &Ex,
    flags: &Arr,
    n: usize,
    groups: usize,
    op: &str,
    ddof: u32,
) -> PyResult<Arr> {
    let agg = match op {
        "sum" => Agg::Sum,
        "prod" => Agg::Prod,
        "min" => Agg::Min,
        "max" => Agg::Max,
        "count" => Agg::Count,
        "mean" => Agg::Mean,
        "var" => Agg::Var(ddof),
        "std" => Agg::Std(ddof),
        "argmin" => Agg::ArgMin,
        "argmax" => Agg::ArgMax,
        "any" => Agg::Any,
        "all" => Agg::All,
        "first" => Agg::First,
        other => return Err(value_err("operator", format!("unsupported aggregation {other:?}"))),
    };
    let vt = values.node.dtype();
    if vt == DType::Bool {
        return Err(value_err("values", "bool values are aggregated as int64 (cast first)"));
    }
    let out = match agg {
        Agg::Count | Agg::ArgMin | Agg::ArgMax => DType::I64,
        Agg::Mean | Agg::Var(_) | Agg::Std(_) => DType::F64,
        Agg::Any | Agg::All => DType::Bool,
        _ => vt,
    };
    new_arr(py, out, groups, |id| exec(py, &AGGREGATE, (id, values.node.clone(), flags.id, n, agg)))
}

/// Adds this module's functions.
pub fn add(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(coargsort, m)?)?;
    m.add_function(wrap_pyfunction!(groupby, m)?)?;
    m.add_function(wrap_pyfunction!(aggregate, m)?)?;
    m.add_function(wrap_pyfunction!(dense_groups, m)?)?;
    m.add_function(wrap_pyfunction!(dense_in1d, m)?)?;
    Ok(())
}

fn int_col(c: &Col) -> Result<&DistArray<i64, 1>> {
    match c {
        Col::I(a) => Ok(a),
        _ => Err(Error::InvalidArgument("internal: dense keys must be int64".into())),
    }
}

fn dense_groups_cmd(
    ctx: &Ctx,
    ((kid, cid, sid), keys, vals, n, lo, range): ((u64, u64, u64), Node, Option<Node>, usize, i64, usize),
) -> Result<u64> {
    // Whole registered arrays are read in place (no copy).
    let k = Operand::of(ctx, &keys, n)?;
    let v = match vals.map(|v| Operand::of(ctx, &v, n)).transpose() {
        Ok(v) => v,
        Err(e) => {
            k.free()?;
            return Err(e);
        }
    };
    let r = match &v {
        None => k.with(|kc| atoll::ops::dense_groups(int_col(kc)?, None, lo, range)),
        Some(v) => k.with2(v, |kc, vc| match vc {
            Col::F(a) => atoll::ops::dense_groups(int_col(kc)?, Some(a), lo, range),
            _ => Err(Error::InvalidArgument("internal: dense sums need float64 values".into())),
        }),
    };
    k.free()?;
    if let Some(v) = v {
        v.free()?;
    }
    let (uk, c, s) = r?;
    let groups = uk.len() as u64;
    let reg = Registry::of(ctx);
    reg.insert(kid, Col::I(uk));
    reg.insert(cid, Col::I(c));
    if let Some(s) = s {
        reg.insert(sid, Col::F(s));
    }
    Ok(groups)
}
/// Distinct int64 keys in `lo..lo + range` with counts (and float64 sums): see `atoll_ops::dense_groups`.
pub static DENSE_GROUPS: Handler<((u64, u64, u64), Node, Option<Node>, usize, i64, usize), u64> =
    Handler::new("atoll-python::dense_groups", dense_groups_cmd);

fn dense_in1d_cmd(ctx: &Ctx, (id, a, na, b, nb, lo, range): (u64, Node, usize, Node, usize, i64, usize)) -> Result<()> {
    let x = Operand::of(ctx, &a, na)?;
    if let (Node::Leaf(ra, _), Node::Leaf(rb, _)) = (&a, &b) {
        if ra.is_whole() && rb.is_whole() && ra.id == rb.id {
            // One array on both sides: one lock.
            let r = x.with(|xc| int_col(xc).and_then(|xa| atoll::ops::dense_in1d(xa, xa, lo, range)));
            x.free()?;
            Registry::of(ctx).insert(id, Col::B(r?));
            return Ok(());
        }
    }
    let y = match Operand::of(ctx, &b, nb) {
        Ok(y) => y,
        Err(e) => {
            x.free()?;
            return Err(e);
        }
    };
    let r = x.with2(&y, |xc, yc| atoll::ops::dense_in1d(int_col(xc)?, int_col(yc)?, lo, range));
    x.free()?;
    y.free()?;
    Registry::of(ctx).insert(id, Col::B(r?));
    Ok(())
}
/// Membership of int64 `a` in `b` (elements in `lo..lo + range`): see `atoll_ops::dense_in1d`.
pub static DENSE_IN1D: Handler<(u64, Node, usize, Node, usize, i64, usize), ()> =
    Handler::new("atoll-python::dense_in1d", dense_in1d_cmd);

/// Distinct int64 keys (an expression of `n` elements, all in `lo..lo + range`) in order,
/// their counts and, with float64 `values`, their sums: `(keys, counts, sums or None)`.
#[pyfunction]
#[pyo3(signature = (keys, n, lo, range, values=None))]
pub fn dense_groups(
    py: Python<'_>,
    keys: &Ex,
    n: usize,
    lo: i64,
    range: usize,
    values: Option<&Ex>,
) -> PyResult<(Arr, Arr, Option<Arr>)> {
    let (_, generation) = crate::session::driver(py)?;
    let ids = (next_id(), next_id(), next_id());
    let groups =
        exec(py, &DENSE_GROUPS, (ids, keys.node.clone(), values.map(|v| v.node.clone()), n, lo, range))? as usize;
    Ok((
        Arr { id: ids.0, dtype: DType::I64, len: groups, generation },
        Arr { id: ids.1, dtype: DType::I64, len: groups, generation },
        values.map(|_| Arr { id: ids.2, dtype: DType::F64, len: groups, generation }),
    ))
}

/// Whether each element of int64 `a` (`na` elements) is in `b` (`nb`, all in `lo..lo + range`).
#[pyfunction]
pub fn dense_in1d(py: Python<'_>, a: &Ex, na: usize, b: &Ex, nb: usize, lo: i64, range: usize) -> PyResult<Arr> {
    new_arr(py, DType::Bool, na, |id| exec(py, &DENSE_IN1D, (id, a.node.clone(), na, b.node.clone(), nb, lo, range)))
}
