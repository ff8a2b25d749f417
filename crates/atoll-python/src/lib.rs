//! `atoll._atoll`: the Python bindings of the array session (`atoll-session`). Each binding
//! converts its Python arguments, runs one typed session function with the GIL released
//! (`run`) and wraps the result; errors become Python exceptions in one place
//! (`errors.rs`). The Python layer (`python/atoll/`) normalises arguments and implements
//! Arkouda's `pdarray` on top.

mod analytics;
mod arrays;
mod errors;
mod graph;
mod hdf5;
mod io;
mod joins;
mod share;
mod strings;

use atoll_session::Session;
use errors::IntoPy;
use pyo3::prelude::*;

/// Runs `f` on the session (started on first use) with the GIL released; its error becomes
/// the Python exception of [`errors::to_py`].
pub(crate) fn run<T: Send>(py: Python<'_>, f: impl FnOnce(&Session) -> atoll::Result<T> + Send) -> PyResult<T> {
    py.allow_threads(|| Session::current().and_then(|s| f(&s))).py()
}

/// The module.
#[pymodule]
fn _atoll(m: &Bound<'_, PyModule>) -> PyResult<()> {
    errors::add(m)?;
    arrays::add(m)?;
    strings::add(m)?;
    analytics::add(m)?;
    io::add(m)?;
    hdf5::add(m)?;
    graph::add(m)?;
    share::add(m)?;
    joins::add(m)?;
    Ok(())
}
