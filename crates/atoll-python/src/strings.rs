//! `ak.Strings`: the `StrArr` handle and the bindings of the session's strings commands.

use crate::arrays::Arr;
use crate::errors::value_err;
use crate::run;
use atoll_session::str_extra::{self as sx, StrMap, StrTest};
use atoll_session::str_groupby::categorical_codes;
use atoll_session::strings::{self as st, StrOp, Strs, ValOp};
use pyo3::prelude::*;

/// Distributed strings' handle: freed on every locale when the last reference goes.
#[pyclass(module = "atoll._atoll", frozen)]
pub struct StrArr(pub(crate) Strs);

impl Drop for StrArr {
    fn drop(&mut self) {
        let s = self.0;
        Python::with_gil(|py| py.allow_threads(|| s.release()));
    }
}

#[pymethods]
impl StrArr {
    /// The number of strings.
    #[getter]
    fn size(&self) -> usize {
        self.0.len
    }
}

/// Strings from a list of `str` (on the driver).
#[pyfunction]
fn str_from_list(py: Python<'_>, mut v: Vec<String>) -> PyResult<StrArr> {
    run(py, |s| st::from_list(s, &mut v)).map(StrArr)
}

/// Every string, on the driver.
#[pyfunction]
fn str_to_list(py: Python<'_>, s: &StrArr) -> PyResult<Vec<String>> {
    run(py, |ss| st::to_list(ss, &s.0))
}

/// `random_strings_uniform`.
#[pyfunction]
fn str_random_uniform(
    py: Python<'_>,
    minlen: usize,
    maxlen: usize,
    n: usize,
    characters: String,
    seed: u64,
) -> PyResult<StrArr> {
    run(py, |s| st::random_uniform(s, minlen, maxlen, n, &characters, seed)).map(StrArr)
}

/// An operation giving strings: `op` names it, `a`/`b`/`k`/`other`/`idx` are its arguments.
#[pyfunction]
#[pyo3(signature = (s, op, a=None, b=None, k=0, other=None, idx=None))]
#[allow(clippy::too_many_arguments)]
fn str_op_py(
    py: Python<'_>,
    s: &StrArr,
    op: &str,
    a: Option<String>,
    b: Option<String>,
    k: usize,
    other: Option<&StrArr>,
    idx: Option<&Arr>,
) -> PyResult<StrArr> {
    let (o, len) =
        crate::errors::IntoPy::py(StrOp::of_name(op, s.0.len, a, b, k, other.map(|o| &o.0), idx.map(|i| &i.0)))?;
    run(py, |ss| st::transform(ss, &s.0, o, len)).map(StrArr)
}

/// An operation giving pdarrays (int64 or bool) per string: one, or three for a regex search.
#[pyfunction]
#[pyo3(signature = (s, op, a=None, regex=false, other=None, flags=0))]
fn str_val_py(
    py: Python<'_>,
    s: &StrArr,
    op: &str,
    a: Option<String>,
    regex: bool,
    other: Option<&StrArr>,
    flags: u8,
) -> PyResult<Vec<Arr>> {
    let (o, dtype, outs) = crate::errors::IntoPy::py(ValOp::of_name(op, a, regex, other.map(|o| &o.0), flags))?;
    Ok(run(py, |ss| st::values(ss, &s.0, o, dtype, outs))?.into_iter().map(Arr).collect())
}

/// `split` (or `findall` when `findall`): the pieces and the segments.
#[pyfunction]
#[pyo3(signature = (s, sep, regex=false, maxsplit=None, findall=false))]
fn str_split_py(
    py: Python<'_>,
    s: &StrArr,
    sep: String,
    regex: bool,
    maxsplit: Option<usize>,
    findall: bool,
) -> PyResult<(StrArr, Arr)> {
    let (p, g) = run(py, |ss| st::split(ss, &s.0, &sep, regex, maxsplit, findall))?;
    Ok((StrArr(p), Arr(g)))
}

/// `peel` / `rpeel`.
#[pyfunction]
fn str_peel_py(
    py: Python<'_>,
    s: &StrArr,
    delimiter: String,
    times: usize,
    include_delimiter: bool,
    keep_partial: bool,
    from_right: bool,
) -> PyResult<(StrArr, StrArr)> {
    let (l, r) = run(py, |ss| st::peel(ss, &s.0, &delimiter, times, include_delimiter, keep_partial, from_right))?;
    Ok((StrArr(l), StrArr(r)))
}

/// `hash`: two uint64 pdarrays.
#[pyfunction]
fn str_hash_py(py: Python<'_>, s: &StrArr) -> PyResult<(Arr, Arr)> {
    let (a, b) = run(py, |ss| st::hash(ss, &s.0))?;
    Ok((Arr(a), Arr(b)))
}

/// Group-by by string keys: (permutation, segments, unique keys, counts).
#[pyfunction]
fn str_groupby_py(py: Python<'_>, s: &StrArr) -> PyResult<(Arr, Arr, StrArr, Arr)> {
    let (p, g, k, c) = run(py, |ss| st::groupby(ss, &s.0))?;
    Ok((Arr(p), Arr(g), StrArr(k), Arr(c)))
}

/// `ak.concatenate` of Strings.
#[pyfunction]
fn str_concatenate_py(py: Python<'_>, all: Vec<PyRef<'_, StrArr>>) -> PyResult<StrArr> {
    let xs: Vec<Strs> = all.iter().map(|s| s.0).collect();
    run(py, |s| st::concatenate(s, &xs)).map(StrArr)
}

/// `(codes, categories)` of `s`: the int64 codes (ranks among the distinct strings) and the
/// distinct strings, sorted.
#[pyfunction]
fn str_categorical_py(py: Python<'_>, s: &StrArr) -> PyResult<(Arr, StrArr)> {
    let (c, k) = run(py, |ss| categorical_codes(ss, &s.0))?;
    Ok((Arr(c), StrArr(k)))
}

/// A bool array: `test` ("isalpha", "isdigit", ...) of each string.
#[pyfunction]
fn str_test_py(py: Python<'_>, s: &StrArr, test: &str) -> PyResult<Arr> {
    let t = StrTest::parse(test).ok_or_else(|| value_err("test", format!("unknown test {test:?}")))?;
    run(py, |ss| sx::test(ss, &s.0, t)).map(Arr)
}

/// New strings: `op` ("capitalize", "swapcase") of each string.
#[pyfunction]
fn str_map_py(py: Python<'_>, s: &StrArr, op: &str) -> PyResult<StrArr> {
    let m = match op {
        "capitalize" => StrMap::Capitalize,
        "swapcase" => StrMap::Swapcase,
        _ => return Err(value_err("op", format!("unknown map {op:?}"))),
    };
    run(py, |ss| sx::map(ss, &s.0, m)).map(StrArr)
}

/// `random_strings_lognormal`.
#[pyfunction]
fn str_random_lognormal(
    py: Python<'_>,
    logmean: f64,
    logstd: f64,
    n: usize,
    characters: String,
    seed: u64,
) -> PyResult<StrArr> {
    run(py, |s| sx::random_lognormal(s, logmean, logstd, n, &characters, seed)).map(StrArr)
}

/// Adds the strings' class and functions to the module.
pub(crate) fn add(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<StrArr>()?;
    for f in [
        wrap_pyfunction!(str_from_list, m)?,
        wrap_pyfunction!(str_to_list, m)?,
        wrap_pyfunction!(str_random_uniform, m)?,
        wrap_pyfunction!(str_op_py, m)?,
        wrap_pyfunction!(str_val_py, m)?,
        wrap_pyfunction!(str_split_py, m)?,
        wrap_pyfunction!(str_peel_py, m)?,
        wrap_pyfunction!(str_hash_py, m)?,
        wrap_pyfunction!(str_groupby_py, m)?,
        wrap_pyfunction!(str_concatenate_py, m)?,
        wrap_pyfunction!(str_categorical_py, m)?,
        wrap_pyfunction!(str_test_py, m)?,
        wrap_pyfunction!(str_map_py, m)?,
        wrap_pyfunction!(str_random_lognormal, m)?,
    ] {
        m.add_function(f)?;
    }
    Ok(())
}
