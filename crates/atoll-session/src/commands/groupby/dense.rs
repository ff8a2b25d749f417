//! `atoll_ops::dense_aggregate`: GroupBy's sum, count, mean, min, max
//! (and `unique` with counts) of one int64 key array of small range in one pass, no sort; and
//! of `atoll_ops::dense_unique` (`unique` without counts: one presence bit per key).
//! The Python layer falls back to the sort when the keys span more than the limit.

use crate::commands::Operand;
use crate::handles::{next_id, Array, Session};
use crate::registry::{Col, Registry};
use crate::types::{DType, Node};
use atoll::array::DistArray;
use atoll::ops::{Agg, AggResult, AggValue, DenseGroups};
use atoll::runtime::{Ctx, Handler};
use atoll::{Error, Result};
use serde::{Deserialize, Serialize};

fn keys_col(c: &Col) -> Result<&DistArray<i64, 1>> {
    match c {
        Col::I(a) => Ok(a),
        _ => Err(Error::InvalidArgument("internal: dense keys must be int64".into())),
    }
}

fn result_col<T: AggValue>(r: AggResult<T>, same: fn(DistArray<T, 1>) -> Col) -> Col {
    match r {
        AggResult::Same(a) => same(a),
        AggResult::I64(a) => Col::I(a),
        AggResult::F64(a) => Col::F(a),
        AggResult::Bool(a) => Col::B(a),
    }
}

#[allow(clippy::type_complexity)]
fn split<T: AggValue>(
    g: Option<DenseGroups<T>>,
    same: fn(DistArray<T, 1>) -> Col,
) -> Option<(DistArray<i64, 1>, Option<DistArray<i64, 1>>, Option<Col>)> {
    g.map(|g| (g.keys, g.rows, g.values.map(|v| result_col(v, same))))
}

type Ids = (u64, u64, u64);

/// GroupBy's `agg` of `vals` by int64 `keys` of a range under `limit`, in one pass (`rows`: with the counts of rows).
#[derive(Serialize, Deserialize)]
pub struct DenseAggregate {
    /// The new arrays' ids: keys, numbers of rows, aggregated values.
    pub ids: Ids,
    /// The int64 keys.
    pub keys: Node,
    /// The values, if any.
    pub vals: Option<Node>,
    /// The number of keys.
    pub n: usize,
    /// The largest span of keys taken.
    pub limit: usize,
    /// The aggregation.
    pub agg: Agg,
    /// Whether the numbers of rows are wanted.
    pub rows: bool,
}

fn dense_aggregate_cmd(
    ctx: &Ctx,
    DenseAggregate { ids, keys, vals, n, limit, agg, rows }: DenseAggregate,
) -> Result<Option<u64>> {
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
        None => k.with(|kc| Ok(split(atoll::ops::dense_aggregate::<i64>(keys_col(kc)?, None, limit)?, Col::I))),
        // Without `rows`, the rows per key are computed only when `agg` needs them.
        Some(v) => k.with2(v, |kc, vc| {
            let ka = keys_col(kc)?;
            match vc {
                Col::I(a) if rows => Ok(split(atoll::ops::dense_aggregate(ka, Some((a, agg)), limit)?, Col::I)),
                Col::U(a) if rows => Ok(split(atoll::ops::dense_aggregate(ka, Some((a, agg)), limit)?, Col::U)),
                Col::F(a) if rows => Ok(split(atoll::ops::dense_aggregate(ka, Some((a, agg)), limit)?, Col::F)),
                Col::I(a) => Ok(split(atoll::ops::dense_aggregate_values(ka, (a, agg), limit)?, Col::I)),
                Col::U(a) => Ok(split(atoll::ops::dense_aggregate_values(ka, (a, agg), limit)?, Col::U)),
                Col::F(a) => Ok(split(atoll::ops::dense_aggregate_values(ka, (a, agg), limit)?, Col::F)),
                Col::B(_) | Col::U8(_) => Err(Error::InvalidArgument(
                    "internal: bool and uint8 values are aggregated as int64 and uint64".into(),
                )),
            }
        }),
    };
    k.free()?;
    if let Some(v) = v {
        v.free()?;
    }
    let Some((uk, counts, out)) = r? else { return Ok(None) };
    let groups = uk.len() as u64;
    let reg = Registry::of(ctx);
    reg.insert(ids.0, Col::I(uk));
    if let Some(c) = counts {
        reg.insert(ids.1, Col::I(c));
    }
    if let Some(o) = out {
        reg.insert(ids.2, o);
    }
    Ok(Some(groups))
}

/// The distinct values of `n` int64 `keys` of a range under `limit`, as a new array `id`.
#[derive(Serialize, Deserialize)]
pub struct DenseUnique {
    /// The new array's id.
    pub id: u64,
    /// The int64 keys.
    pub keys: Node,
    /// The number of keys.
    pub n: usize,
    /// The largest span of keys taken.
    pub limit: usize,
}

fn dense_unique_cmd(ctx: &Ctx, DenseUnique { id, keys, n, limit }: DenseUnique) -> Result<Option<u64>> {
    let k = Operand::of(ctx, &keys, n)?;
    let r = k.with(|kc| atoll::ops::dense_unique(keys_col(kc)?, limit));
    k.free()?;
    let Some(uk) = r? else { return Ok(None) };
    let groups = uk.len() as u64;
    Registry::of(ctx).insert(id, Col::I(uk));
    Ok(Some(groups))
}

commands! {
    /// The dense aggregation: registers the distinct keys, their rows (with `rows`, or when the
    /// aggregation needs them) and the aggregation; returns the number of groups, or `None`
    /// when the keys span more than the limit.
    pub static DENSE_AGGREGATE: Handler<DenseAggregate, Option<u64>> =
        Handler::new("atoll-session::dense_aggregate", dense_aggregate_cmd);

    /// The distinct keys only (a presence bitmap per task, `atoll_ops::dense_unique`): registers
    /// them and returns how many, or `None` when the keys span more than the limit.
    pub static DENSE_UNIQUE: Handler<DenseUnique, Option<u64>> =
        Handler::new("atoll-session::dense_unique", dense_unique_cmd);
}

/// Distinct int64 keys (an expression of `n` elements) in order with their numbers of rows
/// and, with `values` (int64, uint64 or float64), their `op` (sum, count, mean, min, max;
/// NaNs skipped): `(keys, rows, aggregated or None)`, or `None` when the keys span more than
/// `limit` values (sort instead). With `rows` false and values, `rows` is `None` when the
/// aggregation did not need them (a float64 sum: one float per key, the fastest).
/// **Collective.**
#[allow(clippy::type_complexity)]
pub fn dense_aggregate(
    s: &Session,
    keys: &Node,
    n: usize,
    limit: usize,
    values: Option<&Node>,
    op: &str,
    rows: bool,
) -> Result<Option<(Array, Option<Array>, Option<Array>)>> {
    let (agg, out) = match op {
        "sum" => (Agg::Sum, None),
        "count" => (Agg::Count, Some(DType::I64)),
        "mean" => (Agg::Mean, Some(DType::F64)),
        "min" => (Agg::Min, None),
        "max" => (Agg::Max, None),
        other => {
            return Err(Error::InvalidArgument(format!("op: no dense path for {other:?} (sum, count, mean, min, max)")))
        }
    };
    if keys.dtype() != DType::I64 {
        return Err(Error::InvalidArgument("keys: dense keys must be int64".into()));
    }
    let vt = values.map(Node::dtype);
    if vt == Some(DType::Bool) {
        return Err(Error::InvalidArgument("values: bool values are aggregated as int64 (cast first)".into()));
    }
    let ids = (next_id(), next_id(), next_id());
    let rows = rows || values.is_none();
    // The only aggregation without rows (atoll_ops::dense_aggregate_values).
    let counted = rows || !(agg == Agg::Sum && vt == Some(DType::F64));
    let cmd = DenseAggregate { ids, keys: keys.clone(), vals: values.cloned(), n, limit, agg, rows };
    let Some(groups) = s.exec(&DENSE_AGGREGATE, cmd)? else { return Ok(None) };
    let (groups, g) = (groups as usize, s.generation());
    Ok(Some((
        Array { id: ids.0, dtype: DType::I64, len: groups, generation: g },
        counted.then_some(Array { id: ids.1, dtype: DType::I64, len: groups, generation: g }),
        vt.map(|t| Array { id: ids.2, dtype: out.unwrap_or(t), len: groups, generation: g }),
    )))
}

/// The distinct int64 keys (an expression of `n` elements) in order, without counts, or
/// `None` when they span more than `limit` values (sort instead). **Collective.**
pub fn dense_unique(s: &Session, keys: &Node, n: usize, limit: usize) -> Result<Option<Array>> {
    if keys.dtype() != DType::I64 {
        return Err(Error::InvalidArgument("keys: dense keys must be int64".into()));
    }
    let id = next_id();
    let groups = s.exec(&DENSE_UNIQUE, DenseUnique { id, keys: keys.clone(), n, limit })?;
    Ok(groups.map(|g| Array { id, dtype: DType::I64, len: g as usize, generation: s.generation() }))
}
