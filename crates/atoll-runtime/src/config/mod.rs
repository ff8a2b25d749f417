//! Every knob of the runtime, in one documented struct: each setting is one row of the
//! [`settings!`](table) table below (field, type, default, variable, scope, parser, values and
//! default in words, doc lines), which generates the struct, its `Default`, the reading of the
//! variables and the listing that the guide's table is checked against (`docs/guide/configuration.md`).
//! Settings of the layers above the runtime are read by those layers, not here.

mod parse;
mod table;

pub(crate) use parse::config_err;
use table::{settings, Scope, Setting};

use crate::Aggregation;
use atoll_error::{Error, Result};
use std::time::Duration;

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

settings! {
    /// The runtime's configuration: every `ATOLL_*` variable of the runtime is a field,
    /// declared once (field, type, default, variable, values) in the table of
    /// `config/mod.rs`, from which the struct, its `Default`, the reading of the variables
    /// ([`Config::from_env`]) and this listing are generated. The builder methods override
    /// the variables.
    @table
    /// An empty variable counts as unset. Booleans also take `true`/`false`, `yes`/`no`,
    /// `on`/`off`. `hugepages`, `heap_keep`, `poison_overwrite` and `sort_profile` are
    /// settings of the process: a job applies its values when it starts (until one does, the
    /// environment's hold).
    ///
    /// Read elsewhere: the tracking allocator's own variables (`ATOLL_MEM_TRACK`,
    /// `ATOLL_MEM_THRESHOLD`, `ATOLL_MEM_TRACK_SITES`, `ATOLL_MEM_STATS`, `ATOLL_MEM_LEAKS`),
    /// read by `atoll-mem` at its first allocation, because they must be known before anything
    /// runs (a bad value among them makes [`run`](crate::run) refuse to start with the
    /// [`Error::Config`] that `atoll_mem::config_error` reports), and the settings of the
    /// layers above the runtime, read by those layers (the Python front end's `ATOLL_EAGER`
    /// and `ATOLL_PROGRESS`). `docs/guide/configuration.md` lists every variable.
    ///
    /// **Which variables are checked.** [`Config::from_env`] reads and checks every variable above.
    /// [`Config::local`] and [`Config::mpi`] never fail (they return a `Config`): a bad variable
    /// leaves its default and its [`Error::Config`] is kept for [`run`](crate::run) (and
    /// [`crate::Driver::start`]) to return, *unless the caller's explicit settings make the
    /// variable unused*: `Config::local(n)` ignores `ATOLL_BACKEND`, `ATOLL_LOCALES` and
    /// the MPI settings (`ATOLL_PROGRESS_HOT_MS`, `ATOLL_PEER_TIMEOUT`, `ATOLL_MPI_SHM*`),
    /// `Config::mpi()` ignores `ATOLL_BACKEND` and `ATOLL_LOCALES`, and each `with_*` builder
    /// drops the error of the variable it overrides (`with_pin` that of `ATOLL_PIN`, ...).
    /// Assigning a public field directly does not.
    ///
    /// ```
    /// use atoll_runtime::{BackendKind, Config};
    /// let c = Config::local(3);
    /// assert_eq!(c.locales, 3);
    /// assert_eq!(c.backend, BackendKind::Local);
    /// ```
    pub struct Config {
        /// The backend (the default reads the launcher's variables: see [`Config::from_env`]).
        backend: BackendKind = BackendKind::Local, "ATOLL_BACKEND", Job, parse::backend,
            "`local`, `mpi`", "`mpi` when started by `mpiexec` (and built with MPI), else `local`";
        /// Number of locales for the local backend.
        locales: usize = 4, "ATOLL_LOCALES", Job, parse::locales,
            "a positive integer", "4 (local backend; under MPI the rank count decides)";
        /// Sublocale layout.
        sublocales: SublocaleMode = SublocaleMode::Numa, "ATOLL_SUBLOCALES", Job, parse::sublocales,
            "`numa`, `core`, `none`", "`numa`: one sublocale per NUMA domain of the locale's cores";
        /// Pin task-pool threads to their cores.
        pin: bool = true, "ATOLL_PIN", Job, parse::parse_bool,
            "`0`, `1`",
            "`1`: task-pool threads pinned to their sublocale's cores, and each locale's main thread to its cores";
        /// Threads per locale (None: the locale's share of the cores).
        threads_per_locale: Option<usize> = None, "ATOLL_THREADS_PER_LOCALE", Job, parse::threads,
            "a positive integer", "the locale's share of the cores";
        /// Print every communication operation with its caller's source location.
        verbose_comm: bool = false, "ATOLL_VERBOSE_COMM", Job, parse::parse_bool,
            "`0`, `1`", "`0`; `1` prints every communication operation with its source location";
        /// Check that all locales reach the same collectives in the same order.
        check_collectives: bool = cfg!(debug_assertions), "ATOLL_CHECK_COLLECTIVES", Job, parse::parse_bool,
            "`0`, `1`",
            "`1` in debug builds, `0` in release: every collective first checks that all locales called the same one";
        /// Milliseconds an MPI progress thread stays responsive after a request.
        progress_hot_ms: u64 = 50, "ATOLL_PROGRESS_HOT_MS", Mpi, parse::millis,
            "milliseconds", "50: how long an MPI progress thread stays responsive after a request";
        /// Each locale's memory limit, as `ATOLL_MEM_MAX` gives it: bytes (`12345`, `512MiB`,
        /// `8G`), the same for every locale, or a percentage of physical memory (`90%`), split
        /// evenly among the locales sharing a node. `None`: 90%. See [`Config::mem_limit`].
        mem_max: Option<String> = None, "ATOLL_MEM_MAX", Job, parse::mem_max,
            "bytes (`12345`, `512MiB`, `8G`) or a percentage (`90%`)",
            "90% of physical memory, split among the locales of a machine";
        /// Elements per destination buffer of the dynamic aggregators ([`crate::aggregate`]): a
        /// buffer is sent as one message when it holds this many elements. At least 1.
        agg_buffer: usize = DEFAULT_AGG_BUFFER, "ATOLL_AGG_BUFFER", Job, parse::agg_buffer,
            "a positive number of elements", "8192: elements per destination buffer of the dynamic aggregators";
        /// How the array layer's zippered loops fetch remote elements (`ATOLL_AGGREGATION`).
        aggregation: Aggregation = Aggregation::Auto, "ATOLL_AGGREGATION", Job, parse::aggregation,
            "`off`, `static`, `auto`", "`auto`: how the array layer's loops fetch remote elements";
        /// A fixed `auto` aggregation threshold in elements (`ATOLL_AGG_THRESHOLD`); `None`: the
        /// calibrated one.
        agg_threshold: Option<usize> = None, "ATOLL_AGG_THRESHOLD", Job, parse::agg_threshold,
            "a number of elements", "unset: the calibrated `auto` threshold";
        /// Advise heap buffers of 4 MiB or more for transparent huge pages (`ATOLL_HUGEPAGES`).
        hugepages: bool = true, "ATOLL_HUGEPAGES", Process, parse::parse_bool,
            "`0`, `1`", "`1`: large allocations (4 MiB or more) are advised for transparent huge pages";
        /// Bytes of idle buffers the page pool keeps (`ATOLL_HEAP_KEEP`); `None`: a quarter of
        /// physical memory, at most 8 GiB; 0: no pool.
        heap_keep: Option<u64> = None, "ATOLL_HEAP_KEEP", Process, parse::some_bytes,
            "bytes (`2GiB`); `0` turns the pool off",
            "a quarter of physical memory, at most 8 GiB, of idle buffers kept by the page pool";
        /// Fill every part made to be overwritten with [`POISON`](crate::POISON)
        /// (`ATOLL_POISON_OVERWRITE`), so that a read before the write shows in results.
        poison_overwrite: bool = false, "ATOLL_POISON_OVERWRITE", Process, parse::parse_bool,
            "`0`, `1`",
            "`0`; `1` fills results made to be overwritten (`DistArray::for_overwrite`) with `0xA5`, so a read before the write shows (`make test` sets it)";
        /// Print per-phase timings of the sorts and dense aggregations (`ATOLL_SORT_PROFILE`).
        sort_profile: bool = false, "ATOLL_SORT_PROFILE", Process, parse::parse_bool,
            "`0`, `1`", "`0`; `1`: every locale prints one `[sort-profile]` line of phase times per sort";
        /// MPI: ranks of one host map each other's symmetric memory (`ATOLL_MPI_SHM`).
        mpi_shm: bool = true, "ATOLL_MPI_SHM", Mpi, parse::parse_bool,
            "`0`, `1`", "`1`: MPI ranks of one host map each other's memory (`0`: MPI RMA instead)";
        /// MPI: bytes of freed node-shared segments each rank keeps for reuse
        /// (`ATOLL_MPI_SHM_KEEP`).
        mpi_shm_keep: u64 = DEFAULT_MPI_SHM_KEEP, "ATOLL_MPI_SHM_KEEP", Mpi, parse::bytes,
            "bytes per rank (`512M`, `0`)", "2 GiB of freed shared segments kept for reuse";
        /// MPI: collectives between node peers in shared memory (`ATOLL_MPI_SHM_COLL`).
        mpi_shm_coll: bool = true, "ATOLL_MPI_SHM_COLL", Mpi, parse::parse_bool,
            "`0`, `1`", "`1`: collectives between ranks of one host in shared memory";
        /// MPI: active messages between node peers through shared-memory rings
        /// (`ATOLL_MPI_SHM_AM`).
        mpi_shm_am: bool = true, "ATOLL_MPI_SHM_AM", Mpi, parse::parse_bool,
            "`0`, `1`", "`1`: active messages between ranks of one host through shared-memory rings";
        /// MPI: no note from rank 0 when node-shared memory is unavailable
        /// (`ATOLL_MPI_SHM_QUIET`).
        mpi_shm_quiet: bool = false, "ATOLL_MPI_SHM_QUIET", Mpi, parse::parse_bool,
            "`0`, `1`", "`0`: rank 0 says so when shared memory between ranks is unavailable";
        /// How long an MPI rank may go unheard (no heartbeat of its peer watch, `comm/mpi/watch.rs`:
        /// its host is down or unreachable) before the job ends with a message naming it and what
        /// this rank was waiting for (`ATOLL_PEER_TIMEOUT`, seconds). An outage shorter than this
        /// is waited out. At least 1 s.
        peer_timeout: Duration = DEFAULT_PEER_TIMEOUT, "ATOLL_PEER_TIMEOUT", Mpi, parse::seconds,
            "whole seconds, at least 1",
            "60: an MPI rank not heard from for this long (its host down, a link cut) ends the job, naming it";
    }
}

/// The default of [`Config::agg_buffer`] (`ATOLL_AGG_BUFFER`).
pub const DEFAULT_AGG_BUFFER: usize = 8192;

/// The default of [`Config::mpi_shm_keep`] (`ATOLL_MPI_SHM_KEEP`): 2 GiB per rank (a 2^26-key
/// coargsort on 2 ranks frees 1.75 GiB per rank).
pub const DEFAULT_MPI_SHM_KEEP: u64 = 2 << 30;

/// The default of [`Config::peer_timeout`] (`ATOLL_PEER_TIMEOUT`).
pub const DEFAULT_PEER_TIMEOUT: Duration = Duration::from_secs(60);

/// The variables of `scope`'s settings.
fn vars_of(scope: Scope) -> impl Iterator<Item = &'static str> {
    SETTINGS.iter().filter(move |s| s.scope == scope).map(|s| s.var)
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
        read_vars(&mut c, &get, &mut errs);
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
        c.overridden(&["ATOLL_BACKEND", "ATOLL_LOCALES"]).overridden(&vars_of(Scope::Mpi).collect::<Vec<_>>())
    }

    /// The MPI backend, other fields from the environment (an invalid variable: as
    /// [`Config::local`]; `ATOLL_BACKEND` and `ATOLL_LOCALES` are unused here).
    pub fn mpi() -> Self {
        let mut c = Self::from_vars_lenient(|k| std::env::var(k).ok());
        c.backend = BackendKind::Mpi;
        c.overridden(&["ATOLL_BACKEND", "ATOLL_LOCALES"])
    }

    /// Every setting as a Markdown table (`| field | variable | values | default |`, one row per
    /// field, in declaration order): the listing of this struct's documentation, generated from
    /// the same declaration as the fields, which `docs/guide/configuration.md` shows.
    ///
    /// ```
    /// let table = atoll_runtime::Config::settings_table();
    /// assert!(table.lines().any(|row| row.starts_with("| `locales` | `ATOLL_LOCALES` |")));
    /// ```
    pub fn settings_table() -> String {
        let mut out = String::from("| field | variable | values | default |\n|---|---|---|---|\n");
        for s in SETTINGS {
            out.push_str(&s.markdown_row());
            out.push('\n');
        }
        out
    }

    /// A boolean switch of a layer above the runtime (the Python front end's `ATOLL_EAGER`),
    /// read from the environment with the runtime's words: unset or empty is `None`;
    /// `1`/`true`/`yes`/`on` and `0`/`false`/`no`/`off` (any case) are its value.
    ///
    /// ```
    /// use atoll_runtime::Config;
    /// assert_eq!(Config::env_flag("ATOLL_DOCTEST_SURELY_UNSET"), Ok(None));
    /// ```
    ///
    /// # Errors
    /// [`Error::Config`] naming `key` and the value for anything else.
    pub fn env_flag(key: &str) -> Result<Option<bool>> {
        match std::env::var(key) {
            Ok(v) if !v.trim().is_empty() => parse::parse_bool(key, &v).map(Some),
            _ => Ok(None),
        }
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
    pub fn with_peer_timeout(mut self, t: Duration) -> Self {
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
        if self.peer_timeout < Duration::from_secs(1) {
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
        ]))
        .unwrap();
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
        assert!(bad_mpi.overridden(&vars_of(Scope::Mpi).collect::<Vec<_>>()).validate().is_ok());
        let e = Config::local(1).with_agg_buffer(0).validate().unwrap_err();
        assert!(matches!(&e, Error::Config { key, .. } if key == "ATOLL_AGG_BUFFER"), "{e}");
        // A bad limit set directly on the Config is refused when a job starts.
        let e = Config::local(1).with_mem_max("a lot").validate().unwrap_err();
        assert!(matches!(&e, Error::Config { key, .. } if key == "ATOLL_MEM_MAX"), "{e}");
    }

    /// The field names of `Config`'s derived `Debug`, which lists every field of the struct.
    fn debug_fields() -> Vec<String> {
        let text = format!("{:?}", Config::default());
        let body = &text[text.find('{').unwrap() + 1..];
        let mut names = Vec::new();
        let mut depth = 0i32;
        let mut start = 0;
        for (i, ch) in body.char_indices() {
            match ch {
                '{' | '[' | '(' => depth += 1,
                '}' | ']' | ')' => depth -= 1,
                ':' if depth == 0 => {
                    let name = body[start..i].trim().trim_start_matches(',').trim();
                    names.push(name.to_string());
                }
                ',' if depth == 0 => start = i + 1,
                _ => {}
            }
        }
        names
    }

    #[test]
    fn the_listing_covers_every_field() {
        let mut fields = debug_fields();
        assert_eq!(fields.pop().as_deref(), Some("env_errors"), "{fields:?}");
        let listed: Vec<&str> = SETTINGS.iter().map(|s| s.field).collect();
        assert_eq!(fields, listed);
        let mut vars: Vec<&str> = SETTINGS.iter().map(|s| s.var).collect();
        assert!(vars.iter().all(|v| v.starts_with("ATOLL_")), "{vars:?}");
        vars.sort_unstable();
        vars.dedup();
        assert_eq!(vars.len(), SETTINGS.len(), "a variable is listed twice");
        assert!(SETTINGS.iter().any(|s| s.var == atoll_mem::ENV_MAX));
        assert_eq!(
            vars_of(Scope::Mpi).collect::<Vec<_>>(),
            [
                "ATOLL_PROGRESS_HOT_MS",
                "ATOLL_MPI_SHM",
                "ATOLL_MPI_SHM_KEEP",
                "ATOLL_MPI_SHM_COLL",
                "ATOLL_MPI_SHM_AM",
                "ATOLL_MPI_SHM_QUIET",
                "ATOLL_PEER_TIMEOUT"
            ]
        );
    }

    #[test]
    fn every_listed_variable_is_read_and_checked() {
        for s in SETTINGS {
            let e = Config::from_vars(|k| (k == s.var).then(|| "x?bad".to_string())).unwrap_err();
            assert!(matches!(&e, Error::Config { key, value, .. } if key == s.var && value == "x?bad"), "{e}");
            assert!(Config::from_vars(|k| (k == s.var).then(|| " ".to_string())).is_ok(), "{}: blank", s.var);
        }
    }

    #[test]
    fn the_guide_lists_every_setting() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/guide/configuration.md");
        let guide = std::fs::read_to_string(path).unwrap();
        // The guide's table: the lines from its header to the first line that is not a row.
        let rows: Vec<&str> = guide
            .lines()
            .map(str::trim_end)
            .skip_while(|l| *l != "| field | variable | values | default |")
            .take_while(|l| l.starts_with('|'))
            .collect();
        let table = Config::settings_table();
        let want: Vec<&str> = table.lines().collect();
        assert!(
            rows == want,
            "the table of docs/guide/configuration.md differs from the settings' declaration; it should read:\n{table}"
        );
    }
}
