//! The one place where Atoll's errors become Python exceptions (the polars habit).

use atoll::Error;
use pyo3::exceptions::{PyIndexError, PyMemoryError, PyOSError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::{create_exception, PyErr};

create_exception!(
    atoll,
    OutOfMemoryError,
    PyMemoryError,
    "An operation would exceed a locale's memory budget; nothing was allocated and the session goes on."
);
create_exception!(
    atoll,
    AtollError,
    PyRuntimeError,
    "A failure of the Atoll runtime (communication, a failed locale)."
);

/// The Python exception of an Atoll error.
pub fn to_py(e: Error) -> PyErr {
    let msg = e.to_string();
    match e {
        Error::OutOfMemory { .. } => OutOfMemoryError::new_err(msg),
        Error::IndexOutOfBounds { .. } => PyIndexError::new_err(msg),
        Error::Io(_) => PyOSError::new_err(msg),
        Error::Timeout { .. } => pyo3::exceptions::PyTimeoutError::new_err(msg),
        Error::SharedFile { .. } => PyOSError::new_err(msg),
        Error::ShapeMismatch { .. }
        | Error::InvalidArgument(_)
        | Error::Config { .. }
        | Error::ZeroLocales
        | Error::Parse { .. } => PyValueError::new_err(msg),
        Error::File { kind, .. } => file_error(kind, msg),
        _ => AtollError::new_err(msg),
    }
}

/// A `TypeError` naming the argument.
pub fn type_err(arg: &str, what: impl std::fmt::Display) -> PyErr {
    PyTypeError::new_err(format!("{arg}: {what}"))
}

/// A `ValueError` naming the argument.
pub fn value_err(arg: &str, what: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(format!("{arg}: {what}"))
}

/// Maps a result's error.
pub trait IntoPy<T> {
    /// The value, or the Python exception of the error.
    fn py(self) -> Result<T, PyErr>;
}

impl<T> IntoPy<T> for atoll::Result<T> {
    fn py(self) -> Result<T, PyErr> {
        self.map_err(to_py)
    }
}

/// The Python exception of a file error.
fn file_error(kind: atoll_io::FileErrorKind, msg: String) -> PyErr {
    use atoll_io::FileErrorKind as K;
    use pyo3::exceptions::PyFileNotFoundError;
    match kind {
        K::NotFound => PyFileNotFoundError::new_err(msg),
        K::WrongType => PyTypeError::new_err(msg),
        K::MissingDataset | K::Corrupt => PyValueError::new_err(msg),
        _ => PyOSError::new_err(msg),
    }
}

/// Adds the exception classes to the module.
pub(crate) fn add(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("OutOfMemoryError", m.py().get_type::<OutOfMemoryError>())?;
    m.add("AtollError", m.py().get_type::<AtollError>())?;
    Ok(())
}
