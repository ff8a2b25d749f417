//! Shared arrays from Python: open one by name in any process and see its blocks as
//! NumPy arrays over the mappings (zero copy: `python/atoll/share.py` builds them from the
//! addresses given here and keeps this handle alive with them), plus its signals.

use crate::arrays::Arr;
use crate::errors::IntoPy;
use atoll_share::{Access, CType, SharedFile};
use pyo3::prelude::*;
use std::time::Duration;

/// An open shared array (`atoll_share::SharedFile`): its blocks stay mapped while it lives.
#[pyclass(module = "atoll._atoll", frozen)]
pub struct SharedHandle {
    file: SharedFile,
}

#[pymethods]
impl SharedHandle {
    /// Opens array `name` in `dir`, writable (shared) or not (private copy-on-write).
    #[new]
    fn new(py: Python<'_>, name: String, dir: String, writable: bool) -> PyResult<Self> {
        let access = if writable { Access::ReadWrite } else { Access::ReadOnly };
        let file = py.allow_threads(|| SharedFile::open(&name, &dir, access)).py()?;
        Ok(SharedHandle { file })
    }

    /// Creates array `name` in `dir` from this process (no job): `nblocks` zeroed blocks laid
    /// out as a Block distribution over that many locales, mapped read-write; the files are
    /// removed when the handle goes, unless `keep`.
    #[staticmethod]
    fn create(
        py: Python<'_>,
        name: String,
        dir: String,
        dtype: &str,
        shape: Vec<u64>,
        nblocks: usize,
        keep: bool,
    ) -> PyResult<Self> {
        let dt = CType::ALL.into_iter().find(|d| d.name() == dtype).ok_or_else(|| {
            crate::errors::value_err("dtype", format!("{dtype:?} is not one of i8..i64, u8..u64, f32, f64"))
        })?;
        let file = py.allow_threads(|| SharedFile::create(&name, &dir, dt, &shape, nblocks, keep)).py()?;
        Ok(SharedHandle { file })
    }

    /// The element type's name (`f64`, `i64`, ...).
    #[getter]
    fn dtype(&self) -> &'static str {
        self.file.dtype().name()
    }

    /// The global shape.
    #[getter]
    fn shape(&self) -> Vec<u64> {
        self.file.shape().to_vec()
    }

    /// Whether stores reach the files.
    #[getter]
    fn writable(&self) -> bool {
        self.file.access() == Access::ReadWrite
    }

    /// The number of blocks.
    #[getter]
    fn nblocks(&self) -> usize {
        self.file.nblocks()
    }

    /// Block `b`: `(lo, hi, address, nbytes)`, its global box per dimension and its memory.
    fn block(&self, b: usize) -> PyResult<(Vec<u64>, Vec<u64>, usize, usize)> {
        let (ptr, bytes) = self.file.block_raw(b).py()?;
        let info = &self.file.meta().blocks[b];
        Ok((info.lo.clone(), info.hi.clone(), ptr as usize, bytes))
    }

    /// Adds `n` to signal `k`, waking up to `n` waiters in any process.
    fn signal_post(&self, k: usize, n: u32) -> PyResult<()> {
        self.file.signal(k).and_then(|s| s.post(n)).py()
    }

    /// Takes one post of signal `k`, waiting at most `timeout` seconds (the GIL released).
    fn signal_wait(&self, py: Python<'_>, k: usize, timeout: f64) -> PyResult<()> {
        if !(timeout >= 0.0 && timeout.is_finite()) {
            return Err(crate::errors::value_err("timeout", "must be a finite number of seconds >= 0"));
        }
        py.allow_threads(|| self.file.signal(k).and_then(|s| s.wait(Duration::from_secs_f64(timeout)))).py()
    }

    /// Posts of signal `k` not yet taken.
    fn signal_value(&self, k: usize) -> PyResult<u32> {
        self.file.signal(k).map(|s| s.value()).py()
    }

    /// The generation counter.
    #[getter]
    fn generation(&self) -> u64 {
        self.file.generation()
    }

    /// Adds one to the generation counter; returns the new value.
    fn bump_generation(&self) -> u64 {
        self.file.bump_generation()
    }
}

// ----- shared pdarrays and C calls ---------------------------------------------------------

/// A pdarray of `n` zeros whose every locale's block is a memory-mapped file of shared array
/// `name` in `dir` (removed with the array unless `keep`): other processes attach it by name.
#[pyfunction]
fn make_shared_arr(py: Python<'_>, name: String, dir: String, dtype: &str, n: usize, keep: bool) -> PyResult<Arr> {
    let dt = crate::arrays::dtype_arg(dtype)?;
    crate::run(py, |s| atoll_session::share::make_shared(s, name, dir, dt, n, keep)).map(Arr)
}

/// Every locale loads `library` and calls `symbol(locale, nlocales, data, len, first, user)`
/// on its block of `arr`, all at once.
#[pyfunction]
fn share_call_c(py: Python<'_>, arr: &Arr, library: String, symbol: String, user: u64) -> PyResult<()> {
    // SAFETY: `atoll.share.call_c` documents the C signature its caller must give, as any
    // ctypes call does; like ctypes, nothing can check it.
    crate::run(py, |s| unsafe { atoll_session::share::call_c(s, &arr.0, library, symbol, user) })
}

/// Adds the shared arrays' class and functions to the module.
pub(crate) fn add(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<SharedHandle>()?;
    m.add_function(wrap_pyfunction!(make_shared_arr, m)?)?;
    m.add_function(wrap_pyfunction!(share_call_c, m)?)?;
    Ok(())
}
