//! The session: one driver per Python process, started lazily (`Driver::start`), and the
//! helper through which every binding runs a command with the GIL released.

use crate::commands::register_all;
use crate::errors::IntoPy;
use atoll::runtime::{BackendKind, Config, Driver, Handler};
use pyo3::prelude::*;
use serde::{de::DeserializeOwned, Serialize};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

struct Session {
    driver: Arc<Driver>,
    generation: u64,
}

static SESSION: Mutex<Option<Session>> = Mutex::new(None);
static GENERATION: AtomicU64 = AtomicU64::new(0);
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// Small arrays dropped since the last batch: freeing is a collective command, so small
/// arrays (temporaries of short expressions) are freed in batches.
pub static DEFERRED_FREES: Mutex<Vec<u64>> = Mutex::new(Vec::new());

fn session() -> std::sync::MutexGuard<'static, Option<Session>> {
    SESSION.lock().unwrap_or_else(|p| p.into_inner())
}

/// A fresh array id.
pub fn next_id() -> u64 {
    NEXT_ID.fetch_add(1, Ordering::Relaxed)
}

/// Starts the job (stopping a running one first). Under MPI, ranks other than 0 serve
/// commands inside this call and leave the process when the driver shuts down.
pub fn start(py: Python<'_>, locales: Option<usize>, backend: Option<&str>) -> PyResult<()> {
    stop(py)?;
    let mut config = Config::from_env().py()?;
    if let Some(b) = backend {
        config.backend = match b {
            "local" => BackendKind::Local,
            "mpi" => BackendKind::Mpi,
            other => {
                return Err(crate::errors::value_err("backend", format!("expected 'local' or 'mpi', got {other:?}")))
            }
        };
    }
    if let Some(n) = locales {
        if config.backend == BackendKind::Mpi {
            return Err(crate::errors::value_err("locales", "the MPI backend takes its locale count from mpiexec -n"));
        }
        if n == 0 {
            return Err(crate::errors::value_err("locales", "must be at least 1"));
        }
        config.locales = n;
    }
    register_all();
    crate::graph::register_all();
    let d = py.allow_threads(|| Driver::start(config)).py()?;
    let generation = GENERATION.fetch_add(1, Ordering::Relaxed) + 1;
    *session() = Some(Session { driver: Arc::new(d), generation });
    Ok(())
}

/// Stops the job, if one runs. Arrays of the session become invalid.
pub fn stop(py: Python<'_>) -> PyResult<()> {
    DEFERRED_FREES.lock().unwrap_or_else(|p| p.into_inner()).clear();
    let s = session().take();
    if let Some(s) = s {
        if let Ok(d) = Arc::try_unwrap(s.driver) {
            py.allow_threads(|| d.shutdown()).py()?;
        }
    }
    Ok(())
}

/// True while a job runs.
pub fn running() -> bool {
    session().is_some()
}

/// The running driver and its generation, starting the job from the environment first.
pub fn driver(py: Python<'_>) -> PyResult<(Arc<Driver>, u64)> {
    if let Some(s) = session().as_ref() {
        return Ok((s.driver.clone(), s.generation));
    }
    start(py, None, None)?;
    let g = session();
    let s = g.as_ref().ok_or_else(|| pyo3::exceptions::PyRuntimeError::new_err("atoll: the session did not start"))?;
    Ok((s.driver.clone(), s.generation))
}

/// The generation of the running session (0 when none runs).
pub fn generation() -> u64 {
    session().as_ref().map_or(0, |s| s.generation)
}

/// Runs command `h(args)` on every locale with the GIL released; returns locale 0's result.
pub fn exec<A, R>(py: Python<'_>, h: &'static Handler<A, R>, args: A) -> PyResult<R>
where
    A: Serialize + DeserializeOwned + Send + 'static,
    R: Serialize + DeserializeOwned + Send + 'static,
{
    Ok(exec_all(py, h, args)?.swap_remove(0))
}

/// Like [`exec`], every locale's result.
pub fn exec_all<A, R>(py: Python<'_>, h: &'static Handler<A, R>, args: A) -> PyResult<Vec<R>>
where
    A: Serialize + DeserializeOwned + Send + 'static,
    R: Serialize + DeserializeOwned + Send + 'static,
{
    let (d, _) = driver(py)?;
    py.allow_threads(|| d.exec(h, args)).py()
}
