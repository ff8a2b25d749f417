//! The session: one driver per process, started lazily ([`Session::current`]), with every
//! command registered first. The handles the commands use (the session's, the arrays') are in
//! `handles.rs`, re-exported here.
//!
//! Several threads may call in at once: starting and stopping are serialized, and
//! `Driver::exec` runs one command at a time.

pub use crate::handles::{generation, next_id, next_ids, running, Array, Session};

use crate::handles::{DEFERRED_FREES, SESSION};
use atoll::runtime::{BackendKind, Config, Driver};
use atoll::util::sync::lock;
use atoll::{Error, Result};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// Held while a job starts or stops.
static LIFECYCLE: Mutex<()> = Mutex::new(());
/// Set when an MPI job has ended: the other ranks have left, so no job can start again.
static MPI_ENDED: AtomicBool = AtomicBool::new(false);
static GENERATION: AtomicU64 = AtomicU64::new(0);

fn mpi_ended() -> Error {
    Error::InvalidArgument(
        "the MPI job has ended (ak.shutdown() was called, or the job failed); a new one cannot start in this process"
            .into(),
    )
}

/// The Python front end's switch for eager evaluation: a setting of the front end, read here
/// (the runtime never reads it) with the runtime's boolean words ([`Config::env_flag`]).
pub const EAGER_VAR: &str = "ATOLL_EAGER";

/// Whether the environment asks for eager evaluation of the Python front end's elementwise
/// results ([`EAGER_VAR`]). An invalid value counts as unset here; the job's start then
/// reports it ([`config_for`]).
pub fn eager_by_default() -> bool {
    Config::env_flag(EAGER_VAR).ok().flatten().unwrap_or(false)
}

/// The configuration of a new job: the environment's, with `locales` and `backend` applied.
///
/// # Errors
/// [`Error::InvalidArgument`] for an unknown backend, a locale count under MPI (it comes from
/// `mpiexec -n`), zero or more than [`atoll::runtime::MAX_LOCAL_LOCALES`] locales;
/// [`Error::Config`] for a bad `ATOLL_*` variable (the runtime's, or [`EAGER_VAR`]).
pub fn config_for(locales: Option<usize>, backend: Option<&str>) -> Result<Config> {
    let mut config = Config::from_env()?;
    Config::env_flag(EAGER_VAR)?;
    if let Some(b) = backend {
        config.backend = match b {
            "local" => BackendKind::Local,
            "mpi" => BackendKind::Mpi,
            other => return Err(Error::InvalidArgument(format!("backend: expected 'local' or 'mpi', got {other:?}"))),
        };
    }
    if let Some(n) = locales {
        if config.backend == BackendKind::Mpi {
            return Err(Error::InvalidArgument(
                "locales: the MPI backend takes its locale count from mpiexec -n".into(),
            ));
        }
        if n == 0 {
            return Err(Error::InvalidArgument("locales: must be at least 1".into()));
        }
        if n > atoll::runtime::MAX_LOCAL_LOCALES {
            return Err(Error::InvalidArgument(format!(
                "locales: {n} is more than the local backend can run in one process (at most {})",
                atoll::runtime::MAX_LOCAL_LOCALES
            )));
        }
        config.locales = n;
    }
    Ok(config)
}

/// Starts a job with `config` (none may be running). Called with `LIFECYCLE` held.
fn start_locked(config: Config) -> Result<Session> {
    crate::commands::register();
    let d = Driver::start(config)?;
    let generation = GENERATION.fetch_add(1, Ordering::Relaxed) + 1;
    let s = Session { driver: Arc::new(d), generation };
    *lock(&SESSION) = Some(s.clone());
    Ok(s)
}

/// Stops the running job, if any. Called with `LIFECYCLE` held.
fn stop_locked() -> Result<()> {
    lock(&DEFERRED_FREES).clear();
    let s = lock(&SESSION).take();
    if let Some(s) = s {
        if s.driver.ctx().config().backend == BackendKind::Mpi {
            MPI_ENDED.store(true, Ordering::SeqCst);
        }
        // The last handle shuts the driver down (a command running on another thread keeps
        // its own until it ends).
        if let Ok(d) = Arc::try_unwrap(s.driver) {
            d.shutdown()?;
        }
    }
    Ok(())
}

/// Starts (or restarts) the job. The arguments are checked before a running job is stopped.
/// Under MPI, ranks other than 0 serve commands inside this call and leave the process when
/// the driver shuts down; a running MPI job is kept when the request asks for nothing else.
pub fn start(locales: Option<usize>, backend: Option<&str>) -> Result<()> {
    let config = config_for(locales, backend)?;
    let _g = lock(&LIFECYCLE);
    if let Some(s) = lock(&SESSION).as_ref() {
        if config.backend == BackendKind::Mpi && s.driver.ctx().config().backend == BackendKind::Mpi {
            return Ok(());
        }
    }
    if MPI_ENDED.load(Ordering::SeqCst) {
        return Err(mpi_ended());
    }
    stop_locked()?;
    start_locked(config).map(drop)
}

/// Stops the job, if one runs. Arrays of the session become invalid.
pub fn stop() -> Result<()> {
    let _g = lock(&LIFECYCLE);
    stop_locked()
}

impl Session {
    /// The running session, starting the job from the environment first (one thread starts
    /// it; others wait for it).
    ///
    /// # Errors
    /// The configuration's or the start's, and [`Error::InvalidArgument`] once an MPI job has
    /// ended in this process.
    pub fn current() -> Result<Session> {
        if let Some(s) = lock(&SESSION).as_ref() {
            return Ok(s.clone());
        }
        let _g = lock(&LIFECYCLE);
        if let Some(s) = lock(&SESSION).as_ref() {
            return Ok(s.clone());
        }
        if MPI_ENDED.load(Ordering::SeqCst) {
            return Err(mpi_ended());
        }
        start_locked(config_for(None, None)?)
    }
}
