//! The analytics: multi-key sort, GroupBy's grouping and its segmented aggregations, and the
//! dense-key paths of `unique`/`in1d`, on `atoll-ops`. The Python layer builds Arkouda's
//! sorting, set and GroupBy functions on these and on the other commands.

use crate::commands::{materialize, Operand};
use crate::handles::{next_id, Array, Session};
use crate::registry::{lock, Col, Registry};
use crate::types::{DType, Node};
use atoll::array::DistArray;
use atoll::ops::{Agg, AggResult, SortColumn};
use atoll::runtime::{Ctx, Handler};
use atoll::{Error, Result};
use serde::{Deserialize, Serialize};

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
                Col::U8(a) => Ok(a as &dyn SortColumn),
                Col::B(_) => Err(Error::InvalidArgument("internal: bool sort key (cast to int64 first)".into())),
            })
            .collect();
        refs.and_then(|r| f(&r))
    };
    cols.into_iter().try_for_each(Col::free)?;
    r
}

/// The permutation that sorts the rows of several keys, as a new array `id`.
#[derive(Serialize, Deserialize)]
pub struct Coargsort {
    /// The new array's id.
    pub id: u64,
    /// The keys, the first most significant.
    pub keys: Vec<Node>,
    /// The number of rows.
    pub n: usize,
}

fn coargsort_cmd(ctx: &Ctx, Coargsort { id, keys, n }: Coargsort) -> Result<()> {
    let perm = with_keys(ctx, &keys, n, atoll::ops::coargsort)?;
    Registry::of(ctx).insert(id, Col::I(perm));
    Ok(())
}

/// GroupBy's grouping of `n` rows by `keys`: the permutation, the segment flags and the segments as new arrays.
#[derive(Serialize, Deserialize)]
pub struct GroupBy {
    /// The permutation's new id.
    pub perm: u64,
    /// The new segment flags' id.
    pub flags: u64,
    /// The segments' new id.
    pub segs: u64,
    /// The keys, the first most significant.
    pub keys: Vec<Node>,
    /// The number of rows.
    pub n: usize,
}

fn groupby_cmd(ctx: &Ctx, GroupBy { perm, flags, segs, keys, n }: GroupBy) -> Result<u64> {
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

/// The segmented aggregation `agg` of `n` values over the segments that `flags` starts, as a new array `id`.
#[derive(Serialize, Deserialize)]
pub struct Aggregate {
    /// The new array's id.
    pub id: u64,
    /// The values, in group order.
    pub vals: Node,
    /// The bool array that starts each segment.
    pub flags: u64,
    /// The number of values.
    pub n: usize,
    /// The aggregation.
    pub agg: Agg,
}

fn aggregate_cmd(ctx: &Ctx, Aggregate { id, vals, flags, n, agg }: Aggregate) -> Result<()> {
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

commands! {
    modules {
        pub mod dense;
    }

    /// A new int64 array `id`: the permutation that sorts the rows of the key expressions.
    pub static COARGSORT: Handler<Coargsort, ()> =
        Handler::new("atoll-session::coargsort", coargsort_cmd);

    /// Groups the rows of the keys: registers the permutation, the group-start flags (over the
    /// sorted rows) and the segments; returns the number of groups.
    pub static GROUPBY: Handler<GroupBy, u64> =
        Handler::new("atoll-session::groupby", groupby_cmd);

    /// A new array `id`: the aggregation of the (sorted) values per group of the flags.
    pub static AGGREGATE: Handler<Aggregate, ()> =
        Handler::new("atoll-session::aggregate", aggregate_cmd);

    /// Distinct int64 keys in `lo..lo + range` with counts (and float64 sums): see `atoll_ops::dense_groups`.
    pub static DENSE_GROUPS: Handler<DenseGroups, u64> =
        Handler::new("atoll-session::dense_groups", dense_groups_cmd);

    /// Membership of int64 `a` in `b` (elements in `lo..lo + range`): see `atoll_ops::dense_in1d`.
    pub static DENSE_IN1D: Handler<DenseIn1d, ()> =
        Handler::new("atoll-session::dense_in1d", dense_in1d_cmd);
}

/// The permutation (int64) that sorts the rows of several key expressions of `n` elements
/// (int64, uint64 or float64), the first most significant. **Collective.**
pub fn coargsort(s: &Session, keys: &[Node], n: usize) -> Result<Array> {
    s.new_array(DType::I64, n, |id| s.exec(&COARGSORT, Coargsort { id, keys: keys.to_vec(), n }))
}

/// Groups `n` rows of key expressions: (permutation, group-start flags over the sorted rows,
/// segments). **Collective.**
pub fn groupby(s: &Session, keys: &[Node], n: usize) -> Result<(Array, Array, Array)> {
    let ids = (next_id(), next_id(), next_id());
    let groups = s.exec(&GROUPBY, GroupBy { perm: ids.0, flags: ids.1, segs: ids.2, keys: keys.to_vec(), n })? as usize;
    let g = s.generation();
    Ok((
        Array { id: ids.0, dtype: DType::I64, len: n, generation: g },
        Array { id: ids.1, dtype: DType::Bool, len: n, generation: g },
        Array { id: ids.2, dtype: DType::I64, len: groups, generation: g },
    ))
}

/// The aggregation of a name: sum, prod, min, max, count, mean, var, std (with `ddof`),
/// argmin, argmax, any, all, first.
///
/// # Errors
/// [`Error::InvalidArgument`] for another name.
pub fn agg_of(op: &str, ddof: u32) -> Result<Agg> {
    Ok(match op {
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
        other => return Err(Error::InvalidArgument(format!("operator: unsupported aggregation {other:?}"))),
    })
}

/// The dtype of `agg`'s result on values of dtype `values`.
pub fn agg_dtype(agg: Agg, values: DType) -> DType {
    match agg {
        Agg::Count | Agg::ArgMin | Agg::ArgMax => DType::I64,
        Agg::Mean | Agg::Var(_) | Agg::Std(_) => DType::F64,
        Agg::Any | Agg::All => DType::Bool,
        _ => values,
    }
}

/// `agg` of the values (an expression of `n` elements, in the order of the sorted rows; int64,
/// uint64 or float64) per group of `flags` (`groups` groups); argmin/argmax give ranks of the
/// sorted rows. **Collective.**
pub fn aggregate(s: &Session, values: &Node, flags: &Array, n: usize, groups: usize, agg: Agg) -> Result<Array> {
    let vt = values.dtype();
    if vt == DType::Bool {
        return Err(Error::InvalidArgument("values: bool values are aggregated as int64 (cast first)".into()));
    }
    s.new_array(agg_dtype(agg, vt), groups, |id| {
        s.exec(&AGGREGATE, Aggregate { id, vals: values.clone(), flags: flags.id, n, agg })
    })
}

fn int_col(c: &Col) -> Result<&DistArray<i64, 1>> {
    match c {
        Col::I(a) => Ok(a),
        _ => Err(Error::InvalidArgument("internal: dense keys must be int64".into())),
    }
}

/// The groups of `n` int64 `keys` in `[lo, lo + range)`: keys, counts and segments as new arrays.
#[derive(Serialize, Deserialize)]
pub struct DenseGroups {
    /// The new keys' id.
    pub kid: u64,
    /// The new counts' id.
    pub cid: u64,
    /// The new sums' id.
    pub sid: u64,
    /// The int64 keys.
    pub keys: Node,
    /// The float64 values, if any.
    pub vals: Option<Node>,
    /// The number of keys.
    pub n: usize,
    /// The smallest key.
    pub lo: i64,
    /// The number of possible keys.
    pub range: usize,
}

fn dense_groups_cmd(ctx: &Ctx, DenseGroups { kid, cid, sid, keys, vals, n, lo, range }: DenseGroups) -> Result<u64> {
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

/// Whether each of the `na` values of `a` is among the `nb` values of `b` (int64 in
/// `[lo, lo + range)`), as a new array `id`.
#[derive(Serialize, Deserialize)]
pub struct DenseIn1d {
    /// The new array's id.
    pub id: u64,
    /// The values tested.
    pub a: Node,
    /// Their number.
    pub na: usize,
    /// The values looked for.
    pub b: Node,
    /// Their number.
    pub nb: usize,
    /// The smallest value.
    pub lo: i64,
    /// The number of possible values.
    pub range: usize,
}

fn dense_in1d_cmd(ctx: &Ctx, DenseIn1d { id, a, na, b, nb, lo, range }: DenseIn1d) -> Result<()> {
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

/// Distinct int64 keys (an expression of `n` elements, all in `lo..lo + range`) in order,
/// their counts and, with float64 `values`, their sums: `(keys, counts, sums or None)`.
/// **Collective.**
pub fn dense_groups(
    s: &Session,
    keys: &Node,
    n: usize,
    lo: i64,
    range: usize,
    values: Option<&Node>,
) -> Result<(Array, Array, Option<Array>)> {
    let ids = (next_id(), next_id(), next_id());
    let groups = s.exec(
        &DENSE_GROUPS,
        DenseGroups { kid: ids.0, cid: ids.1, sid: ids.2, keys: keys.clone(), vals: values.cloned(), n, lo, range },
    )? as usize;
    let g = s.generation();
    Ok((
        Array { id: ids.0, dtype: DType::I64, len: groups, generation: g },
        Array { id: ids.1, dtype: DType::I64, len: groups, generation: g },
        values.map(|_| Array { id: ids.2, dtype: DType::F64, len: groups, generation: g }),
    ))
}

/// Whether each element of int64 `a` (`na` elements) is in `b` (`nb`, all in
/// `lo..lo + range`). **Collective.**
pub fn dense_in1d(s: &Session, a: &Node, na: usize, b: &Node, nb: usize, lo: i64, range: usize) -> Result<Array> {
    s.new_array(DType::Bool, na, |id| {
        s.exec(&DENSE_IN1D, DenseIn1d { id, a: a.clone(), na, b: b.clone(), nb, lo, range })
    })
}
