//! Shared arrays from Python (issue 18): open one by name in any process and see its blocks as
//! NumPy arrays over the mappings (zero copy: `python/atoll/share.py` builds them from the
//! addresses given here and keeps this handle alive with them), plus its signals.

use crate::errors::IntoPy;
use atoll_share::{Access, DType, SharedFile};
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
        let dt = (1..=10).filter_map(DType::from_code).find(|d| d.name() == dtype).ok_or_else(|| {
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

// ----- shared pdarrays ----------------------------------------------------------------------

use crate::registry::{Col, Registry};
use crate::types::DType as PyDType;
use atoll::runtime::{Ctx, Handler};
use atoll_share::{ShareOptions, SharedArray};

fn make_shared(
    ctx: &Ctx,
    (id, name, dir, dtype, n, keep): (u64, String, String, PyDType, usize, bool),
) -> atoll::Result<()> {
    let opts = ShareOptions::in_dir(dir).keep(keep);
    let col = match dtype {
        PyDType::I64 => Col::I(SharedArray::<i64, 1>::create(ctx, &name, [n], opts)?.into_array()),
        PyDType::U64 => Col::U(SharedArray::<u64, 1>::create(ctx, &name, [n], opts)?.into_array()),
        PyDType::F64 => Col::F(SharedArray::<f64, 1>::create(ctx, &name, [n], opts)?.into_array()),
        PyDType::Bool => {
            return Err(atoll::Error::InvalidArgument("shared pdarrays hold int64, uint64 or float64, not bool".into()))
        }
    };
    Registry::of(ctx).insert_pinned(id, col);
    Ok(())
}

/// A new zeroed array `id` whose locales' blocks are the files of shared array `name`.
pub static MAKE_SHARED: Handler<(u64, String, String, PyDType, usize, bool), ()> =
    Handler::new("atoll-python::make_shared", make_shared);

/// A pdarray of `n` zeros whose every locale's block is a memory-mapped file of shared array
/// `name` in `dir` (removed with the array unless `keep`): other processes attach it by name.
#[pyfunction]
pub fn make_shared_arr(
    py: Python<'_>,
    name: String,
    dir: String,
    dtype: &str,
    n: usize,
    keep: bool,
) -> PyResult<crate::Arr> {
    let dt = crate::dtype_arg(dtype)?;
    if dt == PyDType::Bool {
        return Err(crate::errors::value_err("dtype", "shared pdarrays hold int64, uint64 or float64"));
    }
    crate::new_arr(py, dt, n, |id| crate::session::exec(py, &MAKE_SHARED, (id, name, dir, dt, n, keep)))
}

// ----- approach 1: every locale calls a C function with its block --------------------------

fn call_c(ctx: &Ctx, (id, library, symbol, user): (u64, String, String, u64)) -> atoll::Result<()> {
    let col = Registry::of(ctx).get(id)?;
    let mut g = crate::registry::lock(&col);
    // SAFETY: the Python caller names a function of the documented CBlockFn signature
    // (`atoll.share.call_c`), as with any ctypes call; nothing can check it from here.
    unsafe {
        match &mut *g {
            Col::I(a) => atoll_share::call_c_symbol_per_locale(a, &library, &symbol, user),
            Col::U(a) => atoll_share::call_c_symbol_per_locale(a, &library, &symbol, user),
            Col::F(a) => atoll_share::call_c_symbol_per_locale(a, &library, &symbol, user),
            Col::B(_) => Err(atoll::Error::InvalidArgument("call_c: bool arrays have no C element type".into())),
        }
    }
}

/// Every locale calls `symbol` of `library` with its block.
pub static CALL_C: Handler<(u64, String, String, u64), ()> = Handler::new("atoll-python::call_c", call_c);

/// Every locale loads `library` and calls `symbol(locale, nlocales, data, len, first, user)`
/// on its block of `arr`, all at once (the seed's approach 1).
#[pyfunction]
pub fn share_call_c(py: Python<'_>, arr: Py<crate::Arr>, library: String, symbol: String, user: u64) -> PyResult<()> {
    let id = arr.get().id;
    crate::session::exec(py, &CALL_C, (id, library, symbol, user))
}
