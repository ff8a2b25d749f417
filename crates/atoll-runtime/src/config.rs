//! Every knob of the runtime, in one documented struct.

use crate::Aggregation;
use atoll_error::{Error, Result};

/// The most locales the local backend runs (each is a group of threads of one process).
pub const MAX_LOCAL_LOCALES: usize = 4096;

/// Which communication backend places the locales.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BackendKind {
    /// N locales as groups of threads in this process (the default; no launcher).
    Local,
    /// One locale per MPI rank (`mpiexec -n N prog`); needs the `mpi` cargo feature.
    Mpi,
}

/// How each locale is divided into sublocales.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SublocaleMode {
    /// One sublocale per NUMA domain of the locale's cores (the default).
    Numa,
    /// One sublocale per core.
    Core,
    /// A single sublocale with all the locale's cores.
    None,
}

/// The runtime's configuration: every `ATOLL_*` variable of the runtime and the libraries
/// above it is a field, in this one table. [`Config::from_env`] reads the variables; the
/// builder methods override them.
///
/// | field | variable | default |
/// |---|---|---|
/// | `backend` | `ATOLL_BACKEND=local\|mpi` | `mpi` when launched by `mpiexec` and built with MPI, else `local` |
/// | `locales` | `ATOLL_LOCALES` | 4 (local backend; MPI uses the rank count) |
/// | `sublocales` | `ATOLL_SUBLOCALES=numa\|core\|none` | `numa` |
/// | `pin` | `ATOLL_PIN=0\|1` | 1: pin task-pool threads to their sublocale's cores (and each locale's main thread to its cores; under MPI the thread that starts the rank) |
/// | `threads_per_locale` | `ATOLL_THREADS_PER_LOCALE` | the locale's share of the cores |
/// | `verbose_comm` | `ATOLL_VERBOSE_COMM=0\|1` | 0 |
/// | `check_collectives` | `ATOLL_CHECK_COLLECTIVES=0\|1` | 1 in debug builds, 0 in release |
/// | `progress_hot_ms` | `ATOLL_PROGRESS_HOT_MS` | 50: how long an MPI progress thread stays responsive after a request |
/// | `mem_max` | `ATOLL_MEM_MAX` | `None`: 90% of physical memory, shared by the locales of a node (see [`Config::mem_limit`]) |
/// | `agg_buffer` | `ATOLL_AGG_BUFFER` | 8192: elements per destination buffer of the dynamic aggregators ([`crate::aggregate`]) |
/// | `aggregation` | `ATOLL_AGGREGATION=off\|static\|auto` | `auto`: how the array layer's loops fetch remote elements ([`Aggregation`]) |
/// | `agg_threshold` | `ATOLL_AGG_THRESHOLD` | `None`: the calibrated `auto` threshold; a number of elements fixes it |
/// | `hugepages` | `ATOLL_HUGEPAGES=0\|1` | 1: heap buffers of 4 MiB or more are advised for transparent huge pages ([`crate::memory::hugepages`]) |
/// | `heap_keep` | `ATOLL_HEAP_KEEP` (bytes: `2GiB`, `0`) | `None`: a quarter of physical memory, at most 8 GiB, of idle buffers kept by the page pool ([`crate::memory::page_pool`]); 0 turns the pool off |
/// | `poison_overwrite` | `ATOLL_POISON_OVERWRITE=0\|1` | 0; 1 fills every part made to be overwritten with [`POISON`](crate::POISON) (`make test` sets it) |
/// | `sort_profile` | `ATOLL_SORT_PROFILE=0\|1` | 0; 1 prints per-phase timings of the sorts and dense aggregations ([`crate::diagnostics::phase_profile`]) |
/// | `mpi_shm` | `ATOLL_MPI_SHM=0\|1` | 1: MPI ranks of one host map each other's symmetric memory |
/// | `mpi_shm_keep` | `ATOLL_MPI_SHM_KEEP` (bytes) | 2 GiB of freed node-shared segments kept per rank for reuse |
/// | `mpi_shm_coll` | `ATOLL_MPI_SHM_COLL=0\|1` | 1: collectives between node peers in shared memory |
/// | `mpi_shm_am` | `ATOLL_MPI_SHM_AM=0\|1` | 1: active messages between node peers through shared-memory rings |
/// | `mpi_shm_quiet` | `ATOLL_MPI_SHM_QUIET=0\|1` | 0: rank 0 says so when node-shared memory is unavailable |
/// | `eager` | `ATOLL_EAGER=0\|1` | 0: the Python front end keeps elementwise results lazy (evaluated when used, fused); 1 evaluates each at the line that builds it, as Arkouda does (timings of single operations, Arkouda-exact behaviour) |
/// | `peer_timeout` | `ATOLL_PEER_TIMEOUT` | 60 s: an MPI rank not heard from for this long (its host down, a link cut) ends the job, naming it |
///
/// An empty variable counts as unset. `hugepages`, `heap_keep`, `poison_overwrite` and
/// `sort_profile` are settings of the process: a job applies its values when it starts (until
/// one does, the environment's hold).
///
/// Read elsewhere, because they must be known before anything runs: the tracking allocator's
/// own variables (`ATOLL_MEM_TRACK`, `ATOLL_MEM_THRESHOLD`, `ATOLL_MEM_TRACK_SITES`,
/// `ATOLL_MEM_STATS`, `ATOLL_MEM_LEAKS`), read by `atoll-mem` at its first allocation (see its
/// README; a bad value among them makes [`run`](crate::run) refuse to start with the
/// [`Error::Config`] that `atoll_mem::config_error` reports). `ATOLL_MPIEXEC` names the
/// launcher of the MPI tests (the Makefile sets it), not a runtime setting.
///
/// **Which variables are checked.** [`Config::from_env`] reads and checks every variable above.
/// [`Config::local`] and [`Config::mpi`] never fail (they return a `Config`): a bad variable
/// leaves its default and its [`Error::Config`] is kept for [`run`](crate::run) (and
/// [`crate::Driver::start`]) to return, *unless the caller's explicit settings make the
/// variable unused*: `Config::local(n)` ignores `ATOLL_BACKEND`, `ATOLL_LOCALES` and
/// the MPI settings (`ATOLL_PROGRESS_HOT_MS`, `ATOLL_MPI_SHM*`), `Config::mpi()` ignores `ATOLL_BACKEND` and
/// `ATOLL_LOCALES`, and each `with_*` builder drops the error of the variable it overrides
/// (`with_pin` that of `ATOLL_PIN`, ...). Assigning a public field directly does not.
///
/// ```
/// use atoll_runtime::{BackendKind, Config};
/// let c = Config::local(3);
/// assert_eq!(c.locales, 3);
/// assert_eq!(c.backend, BackendKind::Local);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    /// The backend.
    pub backend: BackendKind,
    /// Number of locales for the local backend.
    pub locales: usize,
    /// Sublocale layout.
    pub sublocales: SublocaleMode,
    /// Pin task-pool threads to their cores.
    pub pin: bool,
    /// Threads per locale (None: the locale's share of the cores).
    pub threads_per_locale: Option<usize>,
    /// Print every communication operation with its caller's source location.
    pub verbose_comm: bool,
    /// Check that all locales reach the same collectives in the same order.
    pub check_collectives: bool,
    /// Milliseconds an MPI progress thread stays responsive after a request.
    pub progress_hot_ms: u64,
    /// Each locale's memory limit, as `ATOLL_MEM_MAX` gives it: bytes (`12345`, `512MiB`,
    /// `8G`), the same for every locale, or a percentage of physical memory (`90%`), split
    /// evenly among the locales sharing a node. `None`: 90%. See [`Config::mem_limit`].
    pub mem_max: Option<String>,
    /// Elements per destination buffer of the dynamic aggregators ([`crate::aggregate`]): a
    /// buffer is sent as one message when it holds this many elements. At least 1.
    pub agg_buffer: usize,
    /// How the array layer's zippered loops fetch remote elements (`ATOLL_AGGREGATION`).
    pub aggregation: Aggregation,
    /// A fixed `auto` aggregation threshold in elements (`ATOLL_AGG_THRESHOLD`); `None`: the
    /// calibrated one.
    pub agg_threshold: Option<usize>,
    /// Advise heap buffers of 4 MiB or more for transparent huge pages (`ATOLL_HUGEPAGES`).
    pub hugepages: bool,
    /// Bytes of idle buffers the page pool keeps (`ATOLL_HEAP_KEEP`); `None`: a quarter of
    /// physical memory, at most 8 GiB; 0: no pool.
    pub heap_keep: Option<u64>,
    /// Fill every part made to be overwritten with [`POISON`](crate::POISON)
    /// (`ATOLL_POISON_OVERWRITE`), so that a read before the write shows in results.
    pub poison_overwrite: bool,
    /// Print per-phase timings of the sorts and dense aggregations (`ATOLL_SORT_PROFILE`).
    pub sort_profile: bool,
    /// MPI: ranks of one host map each other's symmetric memory (`ATOLL_MPI_SHM`).
    pub mpi_shm: bool,
    /// MPI: bytes of freed node-shared segments each rank keeps for reuse
    /// (`ATOLL_MPI_SHM_KEEP`).
    pub mpi_shm_keep: u64,
    /// MPI: collectives between node peers in shared memory (`ATOLL_MPI_SHM_COLL`).
    pub mpi_shm_coll: bool,
    /// MPI: active messages between node peers through shared-memory rings
    /// (`ATOLL_MPI_SHM_AM`).
    pub mpi_shm_am: bool,
    /// MPI: no note from rank 0 when node-shared memory is unavailable
    /// (`ATOLL_MPI_SHM_QUIET`).
    pub mpi_shm_quiet: bool,
    /// Evaluate every elementwise result of the Python front end at the line that builds it
    /// instead of lazily (`ATOLL_EAGER`; `ak.set_eager` changes it at run time).
    pub eager: bool,
    /// How long an MPI rank may go unheard (no heartbeat of its peer watch, `comm/mpi/watch.rs`:
    /// its host is down or unreachable) before the job ends with a message naming it and what
    /// this rank was waiting for (`ATOLL_PEER_TIMEOUT`, seconds). An outage shorter than this
    /// is waited out. At least 1 s.
    pub peer_timeout: std::time::Duration,
    /// The errors of invalid `ATOLL_*` variables met by [`Config::local`] or [`Config::mpi`]
    /// (which return a `Config`, not a `Result`), by variable: [`run`](crate::run) returns the
    /// first one still relevant (see the table's notes).
    env_errors: Vec<(&'static str, Error)>,
}

/// The default of [`Config::agg_buffer`] (`ATOLL_AGG_BUFFER`).
pub const DEFAULT_AGG_BUFFER: usize = 8192;

/// The default of [`Config::mpi_shm_keep`] (`ATOLL_MPI_SHM_KEEP`): 2 GiB per rank (a 2^26-key
/// coargsort on 2 ranks frees 1.75 GiB per rank).
pub const DEFAULT_MPI_SHM_KEEP: u64 = 2 << 30;

/// The MPI settings, which a job on the local backend ignores.
const MPI_KEYS: [&str; 7] = [
    "ATOLL_PROGRESS_HOT_MS",
    "ATOLL_PEER_TIMEOUT",
    "ATOLL_MPI_SHM",
    "ATOLL_MPI_SHM_KEEP",
    "ATOLL_MPI_SHM_COLL",
    "ATOLL_MPI_SHM_AM",
    "ATOLL_MPI_SHM_QUIET",
];
/// The default of [`Config::peer_timeout`] (`ATOLL_PEER_TIMEOUT`).
pub const DEFAULT_PEER_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(60);

impl Default for Config {
    fn default() -> Self {
        Config {
            backend: BackendKind::Local,
            locales: 4,
            sublocales: SublocaleMode::Numa,
            pin: true,
            threads_per_locale: None,
            verbose_comm: false,
            check_collectives: cfg!(debug_assertions),
            progress_hot_ms: 50,
            mem_max: None,
            agg_buffer: DEFAULT_AGG_BUFFER,
            aggregation: Aggregation::Auto,
            agg_threshold: None,
            hugepages: true,
            heap_keep: None,
            poison_overwrite: false,
            sort_profile: false,
            mpi_shm: true,
            mpi_shm_keep: DEFAULT_MPI_SHM_KEEP,
            mpi_shm_coll: true,
            mpi_shm_am: true,
            mpi_shm_quiet: false,
            eager: false,
            peer_timeout: DEFAULT_PEER_TIMEOUT,
            env_errors: Vec::new(),
        }
    }
}

fn parse_bool(key: &str, v: &str) -> Result<bool> {
    match v.trim().to_ascii_lowercase().as_str() {
        "1" | "true" | "yes" | "on" => Ok(true),
        "0" | "false" | "no" | "off" | "" => Ok(false),
        _ => Err(config_err(key, v, "expected 0 or 1")),
    }
}

fn parse_usize(key: &str, v: &str) -> Result<usize> {
    v.trim().parse::<usize>().map_err(|_| config_err(key, v, "expected a non-negative integer"))
}

/// `ATOLL_AGG_BUFFER`: a positive number of elements.
fn parse_agg_buffer(v: &str) -> Result<usize> {
    match v.trim().parse::<usize>() {
        Ok(0) => Err(config_err("ATOLL_AGG_BUFFER", v, "the aggregation buffer needs at least 1 element")),
        Ok(n) => Ok(n),
        Err(_) => Err(config_err("ATOLL_AGG_BUFFER", v, "expected a positive number of elements (default 8192)")),
    }
}

/// `ATOLL_PEER_TIMEOUT`: whole seconds, at least 1.
fn parse_peer_timeout(v: &str) -> Result<std::time::Duration> {
    match v.trim().parse::<u64>() {
        Ok(s) if s >= 1 => Ok(std::time::Duration::from_secs(s)),
        _ => Err(config_err("ATOLL_PEER_TIMEOUT", v, "expected whole seconds, at least 1 (default 60)")),
    }
}

pub(crate) fn config_err(key: &str, value: &str, reason: &str) -> Error {
    Error::Config { key: key.into(), value: value.into(), reason: reason.into() }
}

/// The configuration of the environment (read once, lenient: a bad variable keeps its
/// default), whose process settings hold until a job applies its own.
pub(crate) fn from_env_once() -> &'static Config {
    static C: crate::sync::OnceLock<Config> = crate::sync::OnceLock::new();
    C.get_or_init(|| Config::from_vars_lenient(|k| std::env::var(k).ok()))
}

/// True when this process was started by an MPI launcher (Hydra, or another PMI launcher).
pub fn launched_by_mpiexec() -> bool {
    ["PMI_RANK", "PMI_SIZE", "PMIX_RANK", "OMPI_COMM_WORLD_SIZE", "MPI_LOCALNRANKS"]
        .iter()
        .any(|k| std::env::var_os(k).is_some())
}

impl Config {
    /// The defaults, then the `ATOLL_*` environment variables.
    ///
    /// Errors name the variable and the bad value.
    pub fn from_env() -> Result<Self> {
        Self::from_vars(|k| std::env::var(k).ok())
    }

    /// Like [`Config::from_env`], reading variables through `get` (for tests).
    pub fn from_vars(get: impl Fn(&str) -> Option<String>) -> Result<Self> {
        let mut c = Self::from_vars_lenient(get);
        let errs = std::mem::take(&mut c.env_errors);
        match errs.into_iter().next() {
            Some((_, e)) => Err(e),
            None => Ok(c),
        }
    }

    /// Every variable read and checked; a bad one leaves its default and its error is kept,
    /// by variable, in `env_errors`.
    fn from_vars_lenient(get: impl Fn(&str) -> Option<String>) -> Self {
        let mut c = Config {
            backend: if launched_by_mpiexec() && cfg!(feature = "mpi") { BackendKind::Mpi } else { BackendKind::Local },
            ..Config::default()
        };
        let mut errs: Vec<(&'static str, Error)> = Vec::new();
        let mut var = |key: &'static str, set: &mut dyn FnMut(&str) -> Result<()>| {
            if let Some(v) = get(key) {
                if let Err(e) = set(&v) {
                    errs.push((key, e));
                }
            }
        };
        var("ATOLL_BACKEND", &mut |v| {
            c.backend = match v.trim().to_ascii_lowercase().as_str() {
                "local" => BackendKind::Local,
                "mpi" => BackendKind::Mpi,
                _ => return Err(config_err("ATOLL_BACKEND", v, "expected local or mpi")),
            };
            Ok(())
        });
        var("ATOLL_LOCALES", &mut |v| {
            match parse_usize("ATOLL_LOCALES", v)? {
                0 => return Err(Error::ZeroLocales),
                n => c.locales = n,
            }
            Ok(())
        });
        var("ATOLL_SUBLOCALES", &mut |v| {
            c.sublocales = match v.trim().to_ascii_lowercase().as_str() {
                "numa" => SublocaleMode::Numa,
                "core" => SublocaleMode::Core,
                "none" => SublocaleMode::None,
                _ => return Err(config_err("ATOLL_SUBLOCALES", v, "expected numa, core or none")),
            };
            Ok(())
        });
        var("ATOLL_PIN", &mut |v| {
            c.pin = parse_bool("ATOLL_PIN", v)?;
            Ok(())
        });
        var("ATOLL_THREADS_PER_LOCALE", &mut |v| {
            match parse_usize("ATOLL_THREADS_PER_LOCALE", v)? {
                0 => return Err(config_err("ATOLL_THREADS_PER_LOCALE", v, "must be at least 1")),
                t => c.threads_per_locale = Some(t),
            }
            Ok(())
        });
        var("ATOLL_VERBOSE_COMM", &mut |v| {
            c.verbose_comm = parse_bool("ATOLL_VERBOSE_COMM", v)?;
            Ok(())
        });
        var("ATOLL_CHECK_COLLECTIVES", &mut |v| {
            c.check_collectives = parse_bool("ATOLL_CHECK_COLLECTIVES", v)?;
            Ok(())
        });
        var("ATOLL_PROGRESS_HOT_MS", &mut |v| {
            c.progress_hot_ms = parse_usize("ATOLL_PROGRESS_HOT_MS", v)? as u64;
            Ok(())
        });
        var("ATOLL_AGG_BUFFER", &mut |v| {
            c.agg_buffer = parse_agg_buffer(v)?;
            Ok(())
        });
        var("ATOLL_AGGREGATION", &mut |v| {
            if !v.trim().is_empty() {
                c.aggregation = v
                    .parse()
                    .map_err(|_| config_err("ATOLL_AGGREGATION", v, "expected off, static or auto (default auto)"))?;
            }
            Ok(())
        });
        var("ATOLL_AGG_THRESHOLD", &mut |v| {
            if !v.trim().is_empty() {
                let k = v.trim().parse::<usize>().map_err(|_| {
                    config_err(
                        "ATOLL_AGG_THRESHOLD",
                        v,
                        "expected a number of elements (unset: the calibrated threshold)",
                    )
                })?;
                c.agg_threshold = Some(k);
            }
            Ok(())
        });
        // Settings where an empty value counts as unset.
        let mut flag = |key: &'static str, set: &mut dyn FnMut(bool)| {
            var(key, &mut |v| {
                if !v.trim().is_empty() {
                    set(parse_bool(key, v)?);
                }
                Ok(())
            })
        };
        flag("ATOLL_HUGEPAGES", &mut |b| c.hugepages = b);
        flag("ATOLL_POISON_OVERWRITE", &mut |b| c.poison_overwrite = b);
        flag("ATOLL_SORT_PROFILE", &mut |b| c.sort_profile = b);
        flag("ATOLL_MPI_SHM", &mut |b| c.mpi_shm = b);
        flag("ATOLL_MPI_SHM_COLL", &mut |b| c.mpi_shm_coll = b);
        flag("ATOLL_MPI_SHM_AM", &mut |b| c.mpi_shm_am = b);
        flag("ATOLL_MPI_SHM_QUIET", &mut |b| c.mpi_shm_quiet = b);
        flag("ATOLL_EAGER", &mut |b| c.eager = b);
        var("ATOLL_HEAP_KEEP", &mut |v| {
            if !v.trim().is_empty() {
                c.heap_keep = Some(atoll_mem::parse_byte_size("ATOLL_HEAP_KEEP", v)?);
            }
            Ok(())
        });
        var("ATOLL_MPI_SHM_KEEP", &mut |v| {
            if !v.trim().is_empty() {
                c.mpi_shm_keep = atoll_mem::parse_byte_size("ATOLL_MPI_SHM_KEEP", v)?;
            }
            Ok(())
        });
        var("ATOLL_PEER_TIMEOUT", &mut |v| {
            c.peer_timeout = parse_peer_timeout(v)?;
            Ok(())
        });
        var(atoll_mem::ENV_MAX, &mut |v| {
            if !v.trim().is_empty() {
                atoll_mem::MemoryLimit::parse(v)?;
                c.mem_max = Some(v.to_string());
            }
            Ok(())
        });
        c.env_errors = errs;
        c
    }

    /// The local backend with `n` locales, other fields from the environment. An invalid
    /// `ATOLL_*` variable leaves its default, and [`run`](crate::run) then returns its
    /// [`Error::Config`] (naming the variable and the value) instead of starting, unless the
    /// variable is unused here (`ATOLL_BACKEND`, `ATOLL_LOCALES`, the MPI settings) or a
    /// `with_*` builder overrides it.
    pub fn local(n: usize) -> Self {
        let mut c = Self::from_vars_lenient(|k| std::env::var(k).ok());
        c.backend = BackendKind::Local;
        c.locales = n;
        c.overridden(&["ATOLL_BACKEND", "ATOLL_LOCALES"]).overridden(&MPI_KEYS)
    }

    /// The MPI backend, other fields from the environment (an invalid variable: as
    /// [`Config::local`]; `ATOLL_BACKEND` and `ATOLL_LOCALES` are unused here).
    pub fn mpi() -> Self {
        let mut c = Self::from_vars_lenient(|k| std::env::var(k).ok());
        c.backend = BackendKind::Mpi;
        c.overridden(&["ATOLL_BACKEND", "ATOLL_LOCALES"])
    }

    /// Forgets the errors of `keys`: explicit settings replaced those variables.
    fn overridden(mut self, keys: &[&str]) -> Self {
        self.env_errors.retain(|(k, _)| !keys.contains(k));
        self
    }

    /// Sets the number of locales (local backend).
    pub fn with_locales(mut self, n: usize) -> Self {
        self.locales = n;
        self.overridden(&["ATOLL_LOCALES"])
    }

    /// Sets the sublocale layout.
    pub fn with_sublocales(mut self, mode: SublocaleMode) -> Self {
        self.sublocales = mode;
        self.overridden(&["ATOLL_SUBLOCALES"])
    }

    /// Turns thread pinning on or off.
    pub fn with_pin(mut self, pin: bool) -> Self {
        self.pin = pin;
        self.overridden(&["ATOLL_PIN"])
    }

    /// Sets the number of threads per locale.
    pub fn with_threads_per_locale(mut self, t: usize) -> Self {
        self.threads_per_locale = Some(t);
        self.overridden(&["ATOLL_THREADS_PER_LOCALE"])
    }

    /// Turns collective-order checking on or off.
    pub fn with_check_collectives(mut self, on: bool) -> Self {
        self.check_collectives = on;
        self.overridden(&["ATOLL_CHECK_COLLECTIVES"])
    }

    /// Turns per-operation communication tracing on or off.
    pub fn with_verbose_comm(mut self, on: bool) -> Self {
        self.verbose_comm = on;
        self.overridden(&["ATOLL_VERBOSE_COMM"])
    }

    /// Sets each locale's memory limit (the syntax of `ATOLL_MEM_MAX`: `64MiB`, `50%`).
    ///
    /// ```
    /// use atoll_runtime::Config;
    /// let c = Config::local(2).with_mem_max("64MiB");
    /// assert_eq!(c.mem_limit().unwrap(), atoll_runtime::MemoryLimit::Bytes(64 << 20));
    /// ```
    pub fn with_mem_max(mut self, limit: impl Into<String>) -> Self {
        self.mem_max = Some(limit.into());
        self.overridden(&[atoll_mem::ENV_MAX])
    }

    /// The memory limit of each locale: `mem_max` parsed, or 90% of physical memory when it
    /// is `None`.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] (key `ATOLL_MEM_MAX`) for a value `atoll_mem::MemoryLimit::parse`
    /// refuses.
    pub fn mem_limit(&self) -> Result<atoll_mem::MemoryLimit> {
        match &self.mem_max {
            Some(v) if !v.trim().is_empty() => atoll_mem::MemoryLimit::parse(v),
            _ => Ok(atoll_mem::MemoryLimit::default()),
        }
    }

    /// Sets the elements per destination buffer of the dynamic aggregators
    /// (`ATOLL_AGG_BUFFER`); [`run`](crate::run) refuses 0 with an [`Error::Config`].
    pub fn with_agg_buffer(mut self, elems: usize) -> Self {
        self.agg_buffer = elems;
        self.overridden(&["ATOLL_AGG_BUFFER"])
    }

    /// Sets how the array layer's loops fetch remote elements (`ATOLL_AGGREGATION`).
    pub fn with_aggregation(mut self, mode: Aggregation) -> Self {
        self.aggregation = mode;
        self.overridden(&["ATOLL_AGGREGATION"])
    }

    /// Fixes the `auto` aggregation threshold in elements (`ATOLL_AGG_THRESHOLD`); `None`
    /// restores the calibrated one.
    pub fn with_agg_threshold(mut self, elems: Option<usize>) -> Self {
        self.agg_threshold = elems;
        self.overridden(&["ATOLL_AGG_THRESHOLD"])
    }

    /// Turns the huge-page advice on or off (`ATOLL_HUGEPAGES`).
    pub fn with_hugepages(mut self, on: bool) -> Self {
        self.hugepages = on;
        self.overridden(&["ATOLL_HUGEPAGES"])
    }

    /// Sets the bytes of idle buffers the page pool keeps (`ATOLL_HEAP_KEEP`; `None`: the
    /// default, a quarter of physical memory up to 8 GiB).
    pub fn with_heap_keep(mut self, bytes: Option<u64>) -> Self {
        self.heap_keep = bytes;
        self.overridden(&["ATOLL_HEAP_KEEP"])
    }

    /// Turns the poisoning of parts made to be overwritten on or off
    /// (`ATOLL_POISON_OVERWRITE`).
    pub fn with_poison_overwrite(mut self, on: bool) -> Self {
        self.poison_overwrite = on;
        self.overridden(&["ATOLL_POISON_OVERWRITE"])
    }

    /// Turns the sorts' per-phase timings on or off (`ATOLL_SORT_PROFILE`).
    pub fn with_sort_profile(mut self, on: bool) -> Self {
        self.sort_profile = on;
        self.overridden(&["ATOLL_SORT_PROFILE"])
    }

    /// Turns node-shared memory between MPI ranks of one host on or off (`ATOLL_MPI_SHM`).
    pub fn with_mpi_shm(mut self, on: bool) -> Self {
        self.mpi_shm = on;
        self.overridden(&["ATOLL_MPI_SHM"])
    }

    /// Sets how long an MPI rank may go unheard before the job ends (`ATOLL_PEER_TIMEOUT`);
    /// [`run`](crate::run) refuses less than a second with an [`Error::Config`].
    pub fn with_peer_timeout(mut self, t: std::time::Duration) -> Self {
        self.peer_timeout = t;
        self.overridden(&["ATOLL_PEER_TIMEOUT"])
    }

    /// Checks every field before anything is started or allocated: an impossible setting is an
    /// error, never an abort.
    pub(crate) fn validate(&self) -> Result<()> {
        if let Some((_, e)) = self.env_errors.first() {
            return Err(e.clone());
        }
        if self.agg_buffer == 0 {
            return Err(config_err("ATOLL_AGG_BUFFER", "0", "the aggregation buffer needs at least 1 element"));
        }
        if self.peer_timeout < std::time::Duration::from_secs(1) {
            return Err(config_err(
                "ATOLL_PEER_TIMEOUT",
                &format!("{:?}", self.peer_timeout),
                "the peer timeout is at least 1 s",
            ));
        }
        if self.backend == BackendKind::Local && self.locales == 0 {
            return Err(Error::ZeroLocales);
        }
        if self.backend == BackendKind::Local && self.locales > MAX_LOCAL_LOCALES {
            return Err(config_err(
                "ATOLL_LOCALES",
                &self.locales.to_string(),
                &format!("the local backend runs each locale as threads of this process: at most {MAX_LOCAL_LOCALES}"),
            ));
        }
        if self.threads_per_locale == Some(0) {
            return Err(config_err("threads_per_locale", "0", "must be at least 1"));
        }
        self.mem_limit()?;
        if let Some(e) = atoll_mem::config_error() {
            return Err(e);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(list: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<String> {
        move |k| list.iter().find(|(n, _)| *n == k).map(|(_, v)| v.to_string())
    }

    #[test]
    fn an_invalid_variable_is_kept_for_run() {
        let c = Config::from_vars_lenient(vars(&[("ATOLL_PIN", "maybe")]));
        let e = c.validate().unwrap_err();
        assert!(matches!(&e, Error::Config { key, value, .. } if key == "ATOLL_PIN" && value == "maybe"), "{e}");
        assert!(Config::from_vars_lenient(vars(&[("ATOLL_PIN", "0")])).validate().is_ok());
        // An explicit setting wins over the bad variable.
        assert!(c.with_pin(false).validate().is_ok());
    }

    #[test]
    fn only_the_variables_in_use_are_checked() {
        let bad = vars(&[("ATOLL_LOCALES", "lots"), ("ATOLL_BACKEND", "shmem"), ("ATOLL_PROGRESS_HOT_MS", "soon")]);
        let c = Config::from_vars_lenient(&bad);
        assert!(matches!(c.validate(), Err(Error::Config { .. })));
        // What Config::local(n) does: backend, locales (and the MPI-only setting) are its own.
        let local = c.clone().overridden(&["ATOLL_BACKEND", "ATOLL_LOCALES", "ATOLL_PROGRESS_HOT_MS"]);
        assert!(local.validate().is_ok());
        // A variable the configuration uses is still checked, until a builder overrides it.
        let c = Config::from_vars_lenient(vars(&[("ATOLL_LOCALES", "0"), ("ATOLL_AGGREGATION", "x")]));
        let c = c.overridden(&["ATOLL_LOCALES"]);
        assert!(matches!(c.validate(), Err(Error::Config { ref key, .. }) if key == "ATOLL_AGGREGATION"));
        assert!(c.with_aggregation(Aggregation::Off).validate().is_ok());
        let c = Config::from_vars_lenient(vars(&[("ATOLL_LOCALES", "0")]));
        assert_eq!(c.validate(), Err(Error::ZeroLocales));
        assert!(c.with_locales(2).validate().is_ok());
    }

    #[test]
    fn reads_every_variable() {
        let c = Config::from_vars(vars(&[
            ("ATOLL_BACKEND", "local"),
            ("ATOLL_LOCALES", "3"),
            ("ATOLL_SUBLOCALES", "core"),
            ("ATOLL_PIN", "0"),
            ("ATOLL_THREADS_PER_LOCALE", "2"),
            ("ATOLL_VERBOSE_COMM", "1"),
            ("ATOLL_CHECK_COLLECTIVES", "1"),
            ("ATOLL_PROGRESS_HOT_MS", "7"),
            ("ATOLL_MEM_MAX", "3GiB"),
            ("ATOLL_AGG_BUFFER", "64"),
            ("ATOLL_AGGREGATION", "Static"),
            ("ATOLL_AGG_THRESHOLD", "12"),
            ("ATOLL_HUGEPAGES", "0"),
            ("ATOLL_HEAP_KEEP", "3MiB"),
            ("ATOLL_POISON_OVERWRITE", "1"),
            ("ATOLL_SORT_PROFILE", "yes"),
            ("ATOLL_MPI_SHM", "off"),
            ("ATOLL_MPI_SHM_KEEP", "8388608"),
            ("ATOLL_MPI_SHM_COLL", "0"),
            ("ATOLL_MPI_SHM_AM", "false"),
            ("ATOLL_MPI_SHM_QUIET", "1"),
            ("ATOLL_PEER_TIMEOUT", "25"),
            ("ATOLL_EAGER", "on"),
        ]))
        .unwrap();
        assert!(c.eager && !Config::default().eager);
        assert!(!c.hugepages && c.poison_overwrite && c.sort_profile && c.mpi_shm_quiet);
        assert!(!c.mpi_shm && !c.mpi_shm_coll && !c.mpi_shm_am);
        assert_eq!((c.heap_keep, c.mpi_shm_keep), (Some(3 << 20), 8 << 20));
        let d = Config::from_vars(vars(&[("ATOLL_HUGEPAGES", " "), ("ATOLL_HEAP_KEEP", "")])).unwrap();
        assert!(d.hugepages && d.heap_keep.is_none(), "an empty variable counts as unset");
        assert!(d.mpi_shm && d.mpi_shm_coll && d.mpi_shm_am && !d.poison_overwrite && !d.sort_profile);
        assert_eq!(d.mpi_shm_keep, DEFAULT_MPI_SHM_KEEP);
        assert_eq!(c.locales, 3);
        assert_eq!(c.sublocales, SublocaleMode::Core);
        assert!(!c.pin && c.verbose_comm && c.check_collectives);
        assert_eq!(c.threads_per_locale, Some(2));
        assert_eq!(c.progress_hot_ms, 7);
        assert_eq!(c.mem_max.as_deref(), Some("3GiB"));
        assert_eq!(c.agg_buffer, 64);
        assert_eq!(c.peer_timeout, std::time::Duration::from_secs(25));
        assert_eq!(Config::default().peer_timeout, DEFAULT_PEER_TIMEOUT);
        assert_eq!((c.aggregation, c.agg_threshold), (Aggregation::Static, Some(12)));
        assert_eq!((Config::default().aggregation, Config::default().agg_threshold), (Aggregation::Auto, None));
        assert_eq!(Config::default().agg_buffer, DEFAULT_AGG_BUFFER);
        assert_eq!(c.mem_limit(), Ok(atoll_mem::MemoryLimit::Bytes(3 << 30)));
        assert_eq!(Config::default().mem_limit(), Ok(atoll_mem::MemoryLimit::PercentOfPhysical(90.0)));
    }

    #[test]
    fn bad_values_are_typed_errors() {
        assert_eq!(Config::from_vars(vars(&[("ATOLL_LOCALES", "0")])), Err(Error::ZeroLocales));
        let e = Config::from_vars(vars(&[("ATOLL_LOCALES", "four")])).unwrap_err();
        assert!(matches!(e, Error::Config { ref key, .. } if key == "ATOLL_LOCALES"), "{e}");
        let e = Config::from_vars(vars(&[("ATOLL_SUBLOCALES", "socket")])).unwrap_err();
        assert!(e.to_string().contains("numa, core or none"), "{e}");
        let e = Config::from_vars(vars(&[("ATOLL_BACKEND", "shmem")])).unwrap_err();
        assert!(e.to_string().contains("ATOLL_BACKEND"), "{e}");
        for bad in ["lots", "0", "150%"] {
            let e = Config::from_vars(move |k| (k == "ATOLL_MEM_MAX").then(|| bad.to_string())).unwrap_err();
            assert!(matches!(&e, Error::Config { key, value, .. } if key == "ATOLL_MEM_MAX" && value == bad), "{e}");
        }
        for bad in ["lots", "0", "-3", "8k"] {
            let e = Config::from_vars(move |k| (k == "ATOLL_AGG_BUFFER").then(|| bad.to_string())).unwrap_err();
            assert!(matches!(&e, Error::Config { key, value, .. } if key == "ATOLL_AGG_BUFFER" && value == bad), "{e}");
        }
        for (key, bad) in [
            ("ATOLL_AGGREGATION", "sometimes"),
            ("ATOLL_AGG_THRESHOLD", "many"),
            ("ATOLL_AGG_THRESHOLD", "-1"),
            ("ATOLL_PEER_TIMEOUT", "0"),
            ("ATOLL_PEER_TIMEOUT", "1.5"),
            ("ATOLL_PEER_TIMEOUT", "soon"),
        ] {
            let e = Config::from_vars(move |k| (k == key).then(|| bad.to_string())).unwrap_err();
            assert!(matches!(&e, Error::Config { key: k, value, .. } if k == key && value == bad), "{e}");
            let e = Config::from_vars_lenient(move |k| (k == key).then(|| bad.to_string())).validate().unwrap_err();
            assert!(matches!(&e, Error::Config { key: k, .. } if k == key), "{e}");
        }
        for (key, bad) in
            [("ATOLL_HUGEPAGES", "maybe"), ("ATOLL_HEAP_KEEP", "lots"), ("ATOLL_MPI_SHM_KEEP", "2 apples")]
        {
            let e = Config::from_vars(move |k| (k == key).then(|| bad.to_string())).unwrap_err();
            assert!(matches!(&e, Error::Config { key: k, value, .. } if k == key && value == bad), "{e}");
        }
        // A local job ignores the MPI settings, bad or not.
        let bad_mpi = Config::from_vars_lenient(vars(&[("ATOLL_MPI_SHM_KEEP", "lots"), ("ATOLL_MPI_SHM", "x")]));
        assert!(bad_mpi.validate().is_err());
        assert!(bad_mpi.overridden(&MPI_KEYS).validate().is_ok());
        let e = Config::local(1).with_agg_buffer(0).validate().unwrap_err();
        assert!(matches!(&e, Error::Config { key, .. } if key == "ATOLL_AGG_BUFFER"), "{e}");
        // A bad limit set directly on the Config is refused when a job starts.
        let e = Config::local(1).with_mem_max("a lot").validate().unwrap_err();
        assert!(matches!(&e, Error::Config { key, .. } if key == "ATOLL_MEM_MAX"), "{e}");
    }
}
