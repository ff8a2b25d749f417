//! Starting and ending jobs: the SPMD entry point [`run`].

use crate::comm::local::{LocalComm, LocalWorld};
use crate::comm::{Backend, ServedLocale};
use crate::config::{BackendKind, Config};
use crate::ctx::{Ctx, LocaleInfo, LocaleState};
use crate::diagnostics::Diagnostics;
use crate::handler::call::panic_message;
use crate::locale::attribution;
use crate::locale::executor::Executor;
use crate::locale::pool::{Locale, Sublocale};
use crate::locale::topology::{split_threads, Machine};
use crate::memory::registration::{RegionTable, RemoteCache};
use crate::sync::OnceLock;
use crate::sync::{Arc, AtomicU64, Weak};
use atoll_error::{Error, Result};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Instant;

/// Applies the settings of the process (huge pages, the page pool's cap, poisoning, the
/// sorts' profile) when a job starts with `config`.
pub(crate) fn apply_to_process(config: &Config) {
    crate::memory::hugepages::set_enabled(config.hugepages);
    crate::memory::page_pool::set_cap(config.heap_keep);
    crate::memory::symmetric_data::set_poison_overwrites(config.poison_overwrite);
    crate::diagnostics::phase_profile::set_enabled(config.sort_profile);
}

/// Builds one locale: its sublocales and their pinned pools, handler threads and tables, and
/// its memory budget (`locales_on_node` locales share the host's memory).
#[allow(clippy::too_many_arguments)]
pub(crate) fn build_locale(
    id: usize,
    n: usize,
    config: &Config,
    backend: Box<dyn Backend>,
    regions: Arc<RegionTable>,
    cores: Vec<usize>,
    machine: &Machine,
    needs_wake: bool,
    locales_on_node: usize,
) -> Result<Arc<LocaleState>> {
    crate::aggregate::register_handlers();
    let budget = atoll_mem::Budget::from_limit(attribution::mem_index(id), &config.mem_limit()?, locales_on_node)?;
    let groups = machine.sublocales(&cores, config.sublocales);
    let sizes: Vec<usize> = groups.iter().map(Vec::len).collect();
    let threads = split_threads(config.threads_per_locale.unwrap_or(cores.len()), &sizes);
    let children = groups
        .into_iter()
        .zip(threads)
        .enumerate()
        .map(|(i, (c, t))| Sublocale::new(id, i, c, t, config.pin))
        .collect::<Result<Vec<_>>>()?;
    let name = format!("locale-{id}@{}", crate::locale::topology::hostname());
    let pin_cores = cores.clone();
    let pin = config.pin;
    let exec = Executor::new(format!("atoll-l{id}-am"), move || {
        if pin {
            let _ = crate::locale::affinity::pin_current_thread(&pin_cores);
        }
        attribution::set_thread_locale(id);
    });
    Ok(Arc::new(LocaleState {
        id,
        n,
        config: config.clone(),
        backend,
        diag: Diagnostics::new(id, config.verbose_comm),
        regions,
        remote: RemoteCache::new(n),
        here: Locale::new(id, name, cores, children),
        exec,
        coll_seq: AtomicU64::new(0),
        ext: Default::default(),
        infos: OnceLock::new(),
        needs_wake,
        last_wake: (0..n).map(|_| AtomicU64::new(0)).collect(),
        epoch: Instant::now(),
        budget,
    }))
}

/// The collective start of every locale: exchanges names and shapes.
pub(crate) fn startup(ctx: &Ctx) -> Result<()> {
    let me = LocaleInfo {
        id: ctx.id(),
        name: ctx.here().name().to_string(),
        sublocales: ctx.here().children().len(),
        threads: ctx.here().num_threads(),
    };
    let all = ctx.allgather(&me)?;
    let host = |name: &str| name.split_once('@').map(|(_, h)| h.to_string());
    let mine = host(&me.name);
    ctx.st.diag.set_far(all.iter().map(|l| host(&l.name) != mine).collect());
    let _ = ctx.st.infos.set(all);
    Ok(())
}

/// How one locale's part of a job ended.
pub(crate) enum Outcome<R> {
    Done(R),
    Failed(Error),
}

/// Runs `f` on `ctx` between the collective start and end, catching panics.
pub(crate) fn locale_main<R>(ctx: &Ctx, f: impl FnOnce(&Ctx) -> Result<R>) -> Outcome<R> {
    attribution::set_thread_locale(ctx.id());
    let r = catch_unwind(AssertUnwindSafe(|| -> Result<R> {
        startup(ctx)?;
        let v = crate::ctx::current::with_current(ctx, || f(ctx))?;
        ctx.coll_enter("the end of the job")?;
        // Locales that finish early wait here for the others, by design (no stall report).
        crate::comm::coll_note::quiet(|| ctx.st.backend.barrier())?;
        Ok(v)
    }));
    match r {
        Ok(Ok(v)) => Outcome::Done(v),
        Ok(Err(e)) => Outcome::Failed(e),
        Err(p) => Outcome::Failed(Error::LocaleFailed {
            locale: ctx.id(),
            message: format!("panicked: {}", panic_message(&*p)),
        }),
    }
}

/// Runs `f` once on every locale (SPMD) and returns locale 0's result (under MPI, each
/// process returns its own rank's result).
///
/// With the local backend, `config.locales` locales run as thread groups of this process.
/// With the MPI backend, each process launched by `mpiexec` is one locale.
///
/// If any locale returns an error or panics, the whole job ends: with the local backend the
/// other locales' pending and later communication fails with [`Error::LocaleFailed`] and `run`
/// returns the first failure; with MPI, the failing rank prints the message and aborts the job.
///
/// ```
/// use atoll_runtime::{run, Config};
/// let total = run(Config::local(4), |ctx| {
///     ctx.allreduce(ctx.id() * 10, |a, b| a + b)
/// }).unwrap();
/// assert_eq!(total, 60);
///
/// let err = run(Config::local(2), |ctx| {
///     if ctx.id() == 1 { panic!("boom"); }
///     ctx.barrier()
/// }).unwrap_err();
/// assert!(err.to_string().contains("boom"));
/// ```
pub fn run<R, F>(config: Config, f: F) -> Result<R>
where
    R: Send,
    F: Fn(&Ctx) -> Result<R> + Sync,
{
    config.validate()?;
    apply_to_process(&config);
    match config.backend {
        BackendKind::Local => run_local(config, f),
        BackendKind::Mpi => run_mpi(config, f),
    }
}

/// The locales of an in-process job, built but not yet running.
pub(crate) struct LocalJob {
    pub(crate) world: Arc<LocalWorld>,
    pub(crate) ctxs: Vec<Ctx>,
}

impl LocalJob {
    pub(crate) fn new(config: &Config) -> Result<LocalJob> {
        let n = config.locales;
        if n == 0 {
            return Err(Error::ZeroLocales);
        }
        let machine = Machine::detect();
        let regions: Vec<Arc<RegionTable>> = (0..n).map(|i| Arc::new(RegionTable::new(i))).collect();
        let world = LocalWorld::new(regions.clone());
        let states = (0..n)
            .map(|i| {
                let comm = LocalComm::new(i, Arc::clone(&world));
                build_locale(
                    i,
                    n,
                    config,
                    Box::new(comm),
                    Arc::clone(&regions[i]),
                    machine.share(i, n),
                    &machine,
                    false,
                    n,
                )
            })
            .collect::<Result<Vec<_>>>()?;
        world.set_locales(states.iter().map(|s| Arc::downgrade(s) as Weak<dyn ServedLocale>).collect());
        Ok(LocalJob { world, ctxs: states.into_iter().map(Ctx::from_state).collect() })
    }

    /// Records a locale's failure (the first one is kept) and wakes every waiting locale.
    pub(crate) fn fail(&self, locale: usize, e: &Error) {
        self.world.fail(locale, e);
    }

    /// Stops the handler threads.
    pub(crate) fn shutdown(&self) {
        for c in &self.ctxs {
            c.st.exec.shutdown();
        }
    }
}

fn run_local<R: Send, F: Fn(&Ctx) -> Result<R> + Sync>(config: Config, f: F) -> Result<R> {
    let job = LocalJob::new(&config)?;
    let f = &f;
    let outcomes: Vec<Outcome<R>> = std::thread::scope(|s| {
        let handles = job
            .ctxs
            .iter()
            .map(|ctx| {
                let job = &job;
                std::thread::Builder::new().name(format!("atoll-l{}-main", ctx.id())).spawn_scoped(s, move || {
                    if ctx.config().pin {
                        let _ = crate::locale::affinity::pin_current_thread(ctx.here().cores());
                    }
                    let o = locale_main(ctx, f);
                    if let Outcome::Failed(e) = &o {
                        job.fail(ctx.id(), e);
                    }
                    o
                })
            })
            .collect::<std::io::Result<Vec<_>>>()
            .map_err(|e| Error::Io(format!("cannot start a locale thread: {e}")));
        match handles {
            Ok(hs) => hs
                .into_iter()
                .enumerate()
                .map(|(l, h)| {
                    h.join().unwrap_or_else(|p| {
                        Outcome::Failed(Error::LocaleFailed { locale: l, message: panic_message(&*p) })
                    })
                })
                .collect(),
            Err(e) => {
                job.fail(0, &e);
                vec![Outcome::Failed(e)]
            }
        }
    });
    job.shutdown();
    // The job's idle pooled buffers go back to the kernel (`memory/page_pool.rs`).
    crate::memory::page_pool::trim();
    if let Some(e) = job.world.first_failure() {
        return Err(e);
    }
    match outcomes.into_iter().next() {
        Some(Outcome::Done(v)) => Ok(v),
        Some(Outcome::Failed(e)) => Err(e),
        None => Err(Error::ZeroLocales),
    }
}

/// Built-in handler of the MPI backend's `lookup_remote`: which registered region of this
/// locale contains (addr, len)?
#[cfg(feature = "mpi")]
fn lookup_region(ctx: &Ctx, (addr, len): (u64, usize)) -> Result<Option<(u64, usize)>> {
    Ok(ctx.st.regions.find(addr, len))
}
#[cfg(feature = "mpi")]
static LOOKUP: crate::handler::Handler<(u64, usize), Option<(u64, usize)>> =
    crate::handler::Handler::new(crate::comm::LOOKUP_REGION, lookup_region);

/// This rank's locale in an MPI job, and the backend's side of the job.
#[cfg(feature = "mpi")]
pub(crate) struct MpiLocale {
    pub(crate) ctx: Ctx,
    job: crate::comm::mpi::MpiJob,
}

#[cfg(feature = "mpi")]
impl MpiLocale {
    /// Initializes MPI (once per process) and builds this rank's locale. **Collective.**
    pub(crate) fn start(config: &Config) -> Result<MpiLocale> {
        LOOKUP.register();
        // This process is one locale: atoll-mem charges all its threads to index 0.
        attribution::set_one_locale_per_process();
        let start = crate::comm::mpi::MpiStart::connect(config)?;
        // The calling thread is the locale's main thread: it runs the loops of a locale with
        // one worker inline and waits in collectives, like a local locale's main thread, which
        // is pinned. Unpinned, a wake-up could place it on a node peer's core until the
        // scheduler moved it again: small polybench kernels took 0.1-0.3 ms more under MPI
        // (measured on a 2-vCPU guest).
        if config.pin {
            let _ = crate::locale::affinity::pin_current_thread(&start.cores);
        }
        let st = build_locale(
            start.rank,
            start.size,
            config,
            start.backend(),
            Arc::new(RegionTable::new(start.rank)),
            start.cores.clone(),
            &start.machine,
            true,
            start.node_size,
        )?;
        let job = start.serve(Arc::clone(&st) as Arc<dyn ServedLocale>, config.pin)?;
        Ok(MpiLocale { ctx: Ctx::from_state(st), job })
    }

    /// Ends the job on this rank after every rank has finished. **Collective.**
    pub(crate) fn finish(self) -> Result<()> {
        self.job.finish()
    }
}

#[cfg(feature = "mpi")]
fn run_mpi<R: Send, F: Fn(&Ctx) -> Result<R> + Sync>(config: Config, f: F) -> Result<R> {
    let job = MpiLocale::start(&config)?;
    let outcome = locale_main(&job.ctx, |c| f(c));
    // Idle pooled heap parts go back to the kernel (`memory/page_pool.rs`).
    crate::memory::page_pool::trim();
    match outcome {
        Outcome::Done(v) => {
            job.finish()?;
            Ok(v)
        }
        Outcome::Failed(e) => {
            // Ends every rank: the others may be waiting for this one.
            job.ctx.st.backend.abort(&e.to_string());
            Err(e)
        }
    }
}

#[cfg(not(feature = "mpi"))]
fn run_mpi<R: Send, F: Fn(&Ctx) -> Result<R> + Sync>(_config: Config, _f: F) -> Result<R> {
    Err(Error::BackendUnavailable {
        backend: "mpi".into(),
        reason: "this build has no MPI support: rebuild with the `mpi` cargo feature (make build)".into(),
    })
}
