//! The session: one driver per process, started lazily ([`Session::current`]), the ids of the
//! arrays it registers, and the handles that free them.
//!
//! Several threads may call in at once: starting and stopping are serialized, and
//! `Driver::exec` runs one command at a time.

use crate::types::DType;
use atoll::runtime::{BackendKind, Config, Driver, Handler};
use atoll::util::sync::lock;
use atoll::{Error, Result};
use serde::{de::DeserializeOwned, Serialize};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// A running job, as the commands see it: its driver and its generation (arrays of an earlier
/// session of the process are not this one's).
#[derive(Clone)]
pub struct Session {
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
static DEFERRED_FREES: Mutex<Vec<u64>> = Mutex::new(Vec::new());
/// Arrays freed one by one: from this size up (bytes), the memory goes back at once.
const SMALL_BYTES: usize = 1 << 20;
/// Small arrays freed together.
const FREE_BATCH: usize = 64;

fn mpi_ended() -> Error {
    Error::InvalidArgument(
        "the MPI job has ended (ak.shutdown() was called, or the job failed); a new one cannot start in this process"
            .into(),
    )
}

/// The configuration of a new job: the environment's, with `locales` and `backend` applied.
///
/// # Errors
/// [`Error::InvalidArgument`] for an unknown backend, a locale count under MPI (it comes from
/// `mpiexec -n`), zero or more than [`atoll::runtime::MAX_LOCAL_LOCALES`] locales.
pub fn config_for(locales: Option<usize>, backend: Option<&str>) -> Result<Config> {
    let mut config = Config::from_env()?;
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
    crate::commands::register_all();
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

/// True while a job runs.
pub fn running() -> bool {
    lock(&SESSION).is_some()
}

/// The generation of the running session (0 when none runs).
pub fn generation() -> u64 {
    lock(&SESSION).as_ref().map_or(0, |s| s.generation)
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

    /// The driver.
    pub fn driver(&self) -> &Driver {
        &self.driver
    }

    /// The session's generation.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// The number of locales.
    pub fn num_locales(&self) -> usize {
        self.driver.num_locales()
    }

    /// Runs command `h(args)` on every locale; returns locale 0's result. **Collective.**
    pub fn exec<A, R>(&self, h: &'static Handler<A, R>, args: A) -> Result<R>
    where
        A: Serialize + DeserializeOwned + Send + 'static,
        R: Serialize + DeserializeOwned + Send + 'static,
    {
        Ok(self.exec_all(h, args)?.swap_remove(0))
    }

    /// Like [`Session::exec`], every locale's result.
    pub fn exec_all<A, R>(&self, h: &'static Handler<A, R>, args: A) -> Result<Vec<R>>
    where
        A: Serialize + DeserializeOwned + Send + 'static,
        R: Serialize + DeserializeOwned + Send + 'static,
    {
        self.driver.exec(h, args)
    }

    /// A new array of `len` elements registered as the id that `make` is given (it runs the
    /// command that registers it).
    pub fn new_array(&self, dtype: DType, len: usize, make: impl FnOnce(u64) -> Result<()>) -> Result<Array> {
        let id = next_id();
        make(id)?;
        Ok(Array { id, dtype, len, generation: self.generation })
    }

    /// As [`Session::new_array`], the command telling the length.
    pub fn new_array_len(&self, dtype: DType, make: impl FnOnce(u64) -> Result<u64>) -> Result<Array> {
        let id = next_id();
        let len = make(id)? as usize;
        Ok(Array { id, dtype, len, generation: self.generation })
    }

    /// Frees the arrays dropped since the last batch. **Collective** (a command).
    pub fn flush_frees(&self) -> Result<()> {
        let ids = std::mem::take(&mut *lock(&DEFERRED_FREES));
        if ids.is_empty() {
            return Ok(());
        }
        self.exec(&crate::commands::FREE, ids)
    }
}

/// A fresh array id.
pub fn next_id() -> u64 {
    NEXT_ID.fetch_add(1, Ordering::Relaxed)
}

/// The first of `k` consecutive fresh ids (commands that register several results).
pub fn next_ids(k: u64) -> u64 {
    NEXT_ID.fetch_add(k, Ordering::Relaxed)
}

/// A registered array: its id on every locale, dtype, length and session.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Array {
    /// The id in every locale's registry.
    pub id: u64,
    /// The element type.
    pub dtype: DType,
    /// The number of elements.
    pub len: usize,
    /// The session that registered it.
    pub generation: u64,
}

impl Array {
    /// Frees the array on every locale (small ones in batches), unless its session has ended.
    /// **Collective** (a command, when a batch is due). Errors are dropped: this is what a
    /// handle's `Drop` calls.
    pub fn release(&self) {
        if self.generation != generation() {
            return;
        }
        let ids = {
            let mut d = lock(&DEFERRED_FREES);
            d.push(self.id);
            if self.len.saturating_mul(8) < SMALL_BYTES && d.len() < FREE_BATCH {
                return;
            }
            std::mem::take(&mut *d)
        };
        if let Ok(s) = Session::current() {
            let _ = s.exec(&crate::commands::FREE, ids);
        }
    }
}
