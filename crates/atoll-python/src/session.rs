//! The session: one driver per Python process, started lazily (`Driver::start`), and the
//! helper through which every binding runs a command with the GIL released.
//!
//! Python threads may call in concurrently: starting and stopping are serialized (the GIL is
//! released while waiting, so a thread that holds it never blocks one that is starting), and
//! `Driver::exec` runs one command at a time.

use crate::commands::register_all;
use crate::errors::IntoPy;
use atoll::runtime::{BackendKind, Config, Driver, Handler};
use pyo3::prelude::*;
use serde::{de::DeserializeOwned, Serialize};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

struct Session {
    driver: Arc<Driver>,
    generation: u64,
}

static SESSION: Mutex<Option<Session>> = Mutex::new(None);
/// Held while a job starts or stops.
static LIFECYCLE: Mutex<()> = Mutex::new(());
/// Set when an MPI job has ended: the other ranks have left, so no job can start again.
static MPI_ENDED: AtomicBool = AtomicBool::new(false);
static GENERATION: AtomicU64 = AtomicU64::new(0);
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// Small arrays dropped since the last batch: freeing is a collective command, so small
/// arrays (temporaries of short expressions) are freed in batches.
pub static DEFERRED_FREES: Mutex<Vec<u64>> = Mutex::new(Vec::new());

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

fn current() -> Option<(Arc<Driver>, u64)> {
    lock(&SESSION).as_ref().map(|s| (s.driver.clone(), s.generation))
}

/// A fresh array id.
pub fn next_id() -> u64 {
    NEXT_ID.fetch_add(1, Ordering::Relaxed)
}

fn mpi_ended() -> PyErr {
    pyo3::exceptions::PyRuntimeError::new_err(
        "atoll: the MPI job has ended (ak.shutdown() was called, or the job failed); \
         a new one cannot start in this process",
    )
}

/// The configuration of a new job: the environment's, with `locales` and `backend` applied.
fn config_for(locales: Option<usize>, backend: Option<&str>) -> PyResult<Config> {
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
        if n > atoll::runtime::MAX_LOCAL_LOCALES {
            return Err(crate::errors::value_err(
                "locales",
                format!(
                    "{n} is more than the local backend can run in one process (at most {})",
                    atoll::runtime::MAX_LOCAL_LOCALES
                ),
            ));
        }
        config.locales = n;
    }
    Ok(config)
}

/// Starts a job with `config` (none may be running). Called with `LIFECYCLE` held.
fn start_locked(config: Config) -> atoll::Result<()> {
    register_all();
    crate::graph::register_all();
    let d = Driver::start(config)?;
    let generation = GENERATION.fetch_add(1, Ordering::Relaxed) + 1;
    *lock(&SESSION) = Some(Session { driver: Arc::new(d), generation });
    Ok(())
}

/// Stops the running job, if any. Called with `LIFECYCLE` held.
fn stop_locked() -> atoll::Result<()> {
    lock(&DEFERRED_FREES).clear();
    let s = lock(&SESSION).take();
    if let Some(s) = s {
        if s.driver.ctx().backend_name() == "mpi" {
            MPI_ENDED.store(true, Ordering::SeqCst);
        }
        if let Ok(d) = Arc::try_unwrap(s.driver) {
            d.shutdown()?;
        }
    }
    Ok(())
}

/// Starts (or restarts) the job. The arguments are checked before a running job is stopped.
/// Under MPI, ranks other than 0 serve commands inside this call and leave the process when
/// the driver shuts down; a running MPI job is kept when the request asks for nothing else.
pub fn start(py: Python<'_>, locales: Option<usize>, backend: Option<&str>) -> PyResult<()> {
    let config = config_for(locales, backend)?;
    let wants_mpi = config.backend == BackendKind::Mpi;
    py.allow_threads(|| {
        let _g = lock(&LIFECYCLE);
        if let Some((d, _)) = current() {
            if wants_mpi && d.ctx().backend_name() == "mpi" {
                return Ok(());
            }
        }
        if MPI_ENDED.load(Ordering::SeqCst) {
            return Err(mpi_ended());
        }
        stop_locked().py()?;
        start_locked(config).py()
    })
}

/// Stops the job, if one runs. Arrays of the session become invalid.
pub fn stop(py: Python<'_>) -> PyResult<()> {
    py.allow_threads(|| {
        let _g = lock(&LIFECYCLE);
        stop_locked().py()
    })
}

/// True while a job runs.
pub fn running() -> bool {
    lock(&SESSION).is_some()
}

/// The running driver and its generation, starting the job from the environment first (one
/// thread starts it; others wait for it).
pub fn driver(py: Python<'_>) -> PyResult<(Arc<Driver>, u64)> {
    if let Some(s) = current() {
        return Ok(s);
    }
    py.allow_threads(|| {
        let _g = lock(&LIFECYCLE);
        if let Some(s) = current() {
            return Ok(s);
        }
        if MPI_ENDED.load(Ordering::SeqCst) {
            return Err(mpi_ended());
        }
        start_locked(config_for(None, None)?).py()?;
        current().ok_or_else(|| pyo3::exceptions::PyRuntimeError::new_err("atoll: the session did not start"))
    })
}

/// The generation of the running session (0 when none runs).
pub fn generation() -> u64 {
    lock(&SESSION).as_ref().map_or(0, |s| s.generation)
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
