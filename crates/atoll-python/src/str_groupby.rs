//! Bindings of strings as group keys (issue 17): `ak.Categorical(strings)` and the keys of
//! `ak.GroupBy` over Strings mixed with pdarrays. Each string's code is its rank among the
//! distinct strings (sorted), so codes sort and compare as the strings do: a GroupBy by
//! `[strings, numbers]` groups by `[codes, numbers]` and reads the keys back at the segments.

use crate::registry::{Col, Registry};
use crate::session::{self, exec, next_id};
use crate::strings::{get, put, StrArr};
use crate::types::DType;
use crate::Arr;
use atoll::runtime::{Ctx, Handler};
use atoll::strings::Categorical;
use atoll::Result;
use pyo3::prelude::*;

/// The codes (into `codes`) and sorted distinct strings (into `cats`) of strings `id`;
/// returns the number of categories.
fn categorical(ctx: &Ctx, (codes, cats, id): (u64, u64, u64)) -> Result<usize> {
    let c = Categorical::new(&*get(ctx, id)?)?;
    let k = c.categories.len();
    Registry::of(ctx).insert(codes, Col::I(c.codes));
    put(ctx, cats, c.categories);
    Ok(k)
}
static CATEGORICAL: Handler<(u64, u64, u64), usize> = Handler::new("atoll-python::str_categorical", categorical);

/// Registers the commands (called by `commands::register_all`).
pub fn register() {
    CATEGORICAL.register();
}

/// `(codes, categories)` of `s`: an int64 pdarray aligned with `s` (each string's rank among
/// the distinct strings) and the distinct strings, sorted by code point.
#[pyfunction]
fn str_categorical_py(py: Python<'_>, s: &StrArr) -> PyResult<(Arr, StrArr)> {
    let (_, generation) = session::driver(py)?;
    let (codes, cats) = (next_id(), next_id());
    let k = exec(py, &CATEGORICAL, (codes, cats, s.id))?;
    Ok((Arr { id: codes, dtype: DType::I64, len: s.len, generation }, StrArr { id: cats, len: k, generation }))
}

/// Adds the functions to the module.
pub fn add(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(str_categorical_py, m)?)?;
    Ok(())
}
