//! Sorting by several keys, GroupBy and its aggregations, and the dense-key paths of
//! `unique`, `in1d` and GroupBy: bindings of the session's analytics commands.

use crate::arrays::{Arr, Ex};
use crate::errors::value_err;
use crate::errors::IntoPy;
use crate::run;
use atoll_session::pandas_ops::{self as po, BitOp};
use atoll_session::{analytics as an, dense_agg as da, Node};
use pyo3::prelude::*;

fn nodes(keys: &[PyRef<'_, Ex>]) -> Vec<Node> {
    keys.iter().map(|k| k.node.clone()).collect()
}

/// The permutation (int64) that sorts the rows of several key expressions of `n` elements.
#[pyfunction]
fn coargsort(py: Python<'_>, keys: Vec<PyRef<'_, Ex>>, n: usize) -> PyResult<Arr> {
    let k = nodes(&keys);
    run(py, |s| an::coargsort(s, &k, n)).map(Arr)
}

/// Groups `n` rows of key expressions: (permutation, group-start flags, segments).
#[pyfunction]
fn groupby(py: Python<'_>, keys: Vec<PyRef<'_, Ex>>, n: usize) -> PyResult<(Arr, Arr, Arr)> {
    let k = nodes(&keys);
    let (p, f, g) = run(py, |s| an::groupby(s, &k, n))?;
    Ok((Arr(p), Arr(f), Arr(g)))
}

/// `op` of the values (an expression of `n` elements, in the order of the sorted rows) per
/// group of `flags`: sum, prod, min, max, count, mean, var, std, argmin, argmax, any, all, first.
#[pyfunction]
#[pyo3(signature = (values, flags, n, groups, op, ddof=0))]
fn aggregate(py: Python<'_>, values: &Ex, flags: &Arr, n: usize, groups: usize, op: &str, ddof: u32) -> PyResult<Arr> {
    let agg = an::agg_of(op, ddof).py()?;
    run(py, |s| an::aggregate(s, &values.node, &flags.0, n, groups, agg)).map(Arr)
}

/// Distinct int64 keys in `lo..lo + range` with counts (and float64 sums).
#[pyfunction]
#[pyo3(signature = (keys, n, lo, range, values=None))]
fn dense_groups(
    py: Python<'_>,
    keys: &Ex,
    n: usize,
    lo: i64,
    range: usize,
    values: Option<&Ex>,
) -> PyResult<(Arr, Arr, Option<Arr>)> {
    let (k, c, v) = run(py, |s| an::dense_groups(s, &keys.node, n, lo, range, values.map(|v| &v.node)))?;
    Ok((Arr(k), Arr(c), v.map(Arr)))
}

/// Whether each element of int64 `a` (`na` elements) is in `b` (`nb`, all in `lo..lo + range`).
#[pyfunction]
fn dense_in1d(py: Python<'_>, a: &Ex, na: usize, b: &Ex, nb: usize, lo: i64, range: usize) -> PyResult<Arr> {
    run(py, |s| an::dense_in1d(s, &a.node, na, &b.node, nb, lo, range)).map(Arr)
}

/// Distinct int64 keys with their rows and `op` of `values` in one pass, or `None` when the
/// keys span more than `limit` values.
#[pyfunction]
#[pyo3(signature = (keys, n, limit, values=None, op="sum", rows=true))]
#[allow(clippy::type_complexity)]
fn dense_aggregate(
    py: Python<'_>,
    keys: &Ex,
    n: usize,
    limit: usize,
    values: Option<&Ex>,
    op: &str,
    rows: bool,
) -> PyResult<Option<(Arr, Option<Arr>, Option<Arr>)>> {
    let r = run(py, |s| da::dense_aggregate(s, &keys.node, n, limit, values.map(|v| &v.node), op, rows))?;
    Ok(r.map(|(k, c, v)| (Arr(k), c.map(Arr), v.map(Arr))))
}

/// The distinct int64 keys in order, or `None` when they span more than `limit` values.
#[pyfunction]
fn dense_unique(py: Python<'_>, keys: &Ex, n: usize, limit: usize) -> PyResult<Option<Arr>> {
    Ok(run(py, |s| da::dense_unique(s, &keys.node, n, limit))?.map(Arr))
}

/// Bitwise `op` ("or", "and", "xor") of the values (an int64 or uint64 expression of `n`
/// elements, in grouped order) per group of `flags`.
#[pyfunction]
fn seg_bitwise(py: Python<'_>, values: &Ex, flags: &Arr, n: usize, groups: usize, op: &str) -> PyResult<Arr> {
    let o = BitOp::parse(op).ok_or_else(|| value_err("op", format!("unsupported bitwise reduction {op:?}")))?;
    run(py, |s| po::seg_bitwise(s, &values.node, &flags.0, n, groups, o)).map(Arr)
}

/// The bits of each float64 value as uint64 (for hashing).
#[pyfunction]
fn f64_bits(py: Python<'_>, values: &Ex, n: usize) -> PyResult<Arr> {
    run(py, |s| po::f64_bits(s, &values.node, n)).map(Arr)
}

/// Checks that every locale can take `bytes` more before an operation allocates them.
#[pyfunction]
fn reserve_check(py: Python<'_>, operation: &str, bytes: u64) -> PyResult<()> {
    run(py, |s| po::reserve_check(s, operation, bytes))
}

/// Adds this module's functions.
pub(crate) fn add(m: &Bound<'_, PyModule>) -> PyResult<()> {
    for f in [
        wrap_pyfunction!(coargsort, m)?,
        wrap_pyfunction!(groupby, m)?,
        wrap_pyfunction!(aggregate, m)?,
        wrap_pyfunction!(dense_groups, m)?,
        wrap_pyfunction!(dense_in1d, m)?,
        wrap_pyfunction!(dense_aggregate, m)?,
        wrap_pyfunction!(dense_unique, m)?,
        wrap_pyfunction!(seg_bitwise, m)?,
        wrap_pyfunction!(f64_bits, m)?,
        wrap_pyfunction!(reserve_check, m)?,
    ] {
        m.add_function(f)?;
    }
    Ok(())
}
