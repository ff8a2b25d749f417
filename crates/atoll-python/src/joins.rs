//! The joins' kernels: bindings of the session's `pandas_ops::joins` commands.

use crate::arrays::{Arr, Ex};
use crate::run;
use crate::strings::StrArr;
use atoll_session::pandas_ops::joins as jn;
use atoll_session::strings::Strs;
use pyo3::prelude::*;

/// The strings of each column (all of one length) at the positions `idx` (an int64
/// expression of `n` elements), gathered with one exchange of requests.
#[pyfunction]
fn take_strings(py: Python<'_>, cols: Vec<PyRef<'_, StrArr>>, idx: &Ex, n: usize) -> PyResult<Vec<StrArr>> {
    let cs: Vec<Strs> = cols.iter().map(|c| c.0).collect();
    Ok(run(py, |s| jn::take_strings(s, &cs, &idx.node, n))?.into_iter().map(StrArr).collect())
}

/// The rows of each array (1-D, all of one length, any dtypes) at the positions `idx` (an
/// int64 expression of `n` elements), with one routing of the positions.
#[pyfunction]
fn gather_many(py: Python<'_>, arrs: Vec<PyRef<'_, Arr>>, idx: &Ex, n: usize) -> PyResult<Vec<Arr>> {
    let xs: Vec<_> = arrs.iter().map(|a| a.0).collect();
    Ok(run(py, |s| jn::gather_many(s, &xs, &idx.node, n))?.into_iter().map(Arr).collect())
}

/// The stable permutation that sorts `n` int64 codes in `0..u` (a counting sort).
#[pyfunction]
fn codes_argsort(py: Python<'_>, codes: &Ex, n: usize, u: usize) -> PyResult<Arr> {
    run(py, |s| jn::codes_argsort(s, &codes.node, n, u)).map(Arr)
}

/// Each string of `big`: its index in `keys` (distinct strings), -1 where it is none of them.
#[pyfunction]
fn strings_lookup(py: Python<'_>, big: &StrArr, keys: Vec<String>) -> PyResult<Arr> {
    run(py, |s| jn::strings_lookup(s, &big.0, keys)).map(Arr)
}

/// Adds this module's functions.
pub(crate) fn add(m: &Bound<'_, PyModule>) -> PyResult<()> {
    for f in [
        wrap_pyfunction!(take_strings, m)?,
        wrap_pyfunction!(gather_many, m)?,
        wrap_pyfunction!(codes_argsort, m)?,
        wrap_pyfunction!(strings_lookup, m)?,
    ] {
        m.add_function(f)?;
    }
    Ok(())
}
