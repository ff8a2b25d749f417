//! Driver mode: one program on locale 0 issues collective commands that every locale runs.
//!
//! This is the global view of Chapel and Arkouda: the user writes one sequential program, and
//! each command (a registered [`Handler`]) runs on all locales together. The other locales
//! serve a command loop: with the local backend they are threads of this process; with MPI,
//! ranks 1..N-1 enter the loop inside [`Driver::start`] and leave the process when the driver
//! shuts down. The Python front end runs on this.
//!
//! A command's handler runs on every locale and may use collectives.
//!
//! # Errors and panics
//!
//! [`Driver::exec`] never panics because a handler did, and returns one error for the
//! command: that of the lowest locale whose part failed. A panic comes back as
//! [`Error::HandlerPanicked`] (naming the locale, the handler and the panic message), an
//! unregistered handler as [`Error::HandlerNotRegistered`] (on 1 locale too), and a handler's
//! own error as it is. A locale that waited for the failed one in a collective of the command
//! gets [`Error::CommandFailed`] from that collective (on both backends; see `ctx/command.rs`),
//! and the session stays usable: the next command runs normally.
//!
//! Only a job-wide failure ends the session ([`Error::LocaleFailed`], a communication error):
//! then `exec` returns that error, later commands return it too, and [`Driver::shutdown`]
//! ends the job.

use crate::comm::wire::{decode, encode};
use crate::ctx::command::{command_start, end_command};
use crate::ctx::{run_handler, Ctx};
use crate::handler::Handler;
use crate::job::run::{locale_main, startup, LocalJob, Outcome};
use crate::locale::attribution;
use crate::sync::{lock, Mutex};
use crate::{BackendKind, Config};
use atoll_error::{Error, Result};
use serde::{de::DeserializeOwned, Deserialize, Serialize};

#[derive(Serialize, Deserialize)]
enum Command {
    Exec { handler: u64, payload: Vec<u8> },
    Stop,
}

/// The command loop of locales 1..N-1.
fn serve(ctx: &Ctx) -> Result<()> {
    loop {
        // Waiting for the next command may take as long as the driver's program likes.
        match crate::comm::coll_note::quiet(|| ctx.broadcast::<Command>(0, None))? {
            Command::Exec { handler, payload } => {
                let start = command_start(ctx);
                let r = run_handler(ctx, handler, None, &payload);
                end_command(ctx, start, r)?;
            }
            Command::Stop => return Ok(()),
        }
    }
}

enum Kind {
    Local {
        job: LocalJob,
        workers: Vec<std::thread::JoinHandle<()>>,
    },
    #[cfg(feature = "mpi")]
    Mpi {
        job: crate::job::run::MpiLocale,
    },
}

/// A running job driven from locale 0.
///
/// ```
/// use atoll_runtime::{Config, Ctx, Driver, Handler, Result};
///
/// // A collective command: every locale contributes its id squared; all get the sum.
/// fn sum_sq(ctx: &Ctx, scale: u64) -> Result<u64> {
///     let v = scale * (ctx.id() as u64).pow(2);
///     ctx.allreduce(v, |a, b| a + b)
/// }
/// static SUM_SQ: Handler<u64, u64> = Handler::new("doc::sum_sq", sum_sq);
/// SUM_SQ.register();
///
/// let d = Driver::start(Config::local(3)).unwrap();
/// assert_eq!(d.exec(&SUM_SQ, 2).unwrap(), vec![10, 10, 10]);
/// assert_eq!(d.num_locales(), 3);
/// d.shutdown().unwrap();
/// ```
pub struct Driver {
    ctx: Ctx,
    kind: Option<Kind>,
    lock: Mutex<()>,
}

impl Driver {
    /// Starts a job and returns its driver on locale 0. **Collective** over the job's
    /// processes: under MPI, ranks other than 0 serve commands inside this call and exit the
    /// process when the driver shuts down (with status 0, or 1 if the job failed).
    pub fn start(config: Config) -> Result<Driver> {
        config.validate()?;
        crate::job::run::apply_to_process(&config);
        match config.backend {
            BackendKind::Local => Self::start_local(&config),
            BackendKind::Mpi => Self::start_mpi(&config),
        }
    }

    fn start_local(config: &Config) -> Result<Driver> {
        let job = LocalJob::new(config)?;
        let mut workers = Vec::new();
        for ctx in &job.ctxs[1..] {
            let ctx = ctx.clone();
            let world = crate::sync::Arc::clone(&job.world);
            let h = std::thread::Builder::new().name(format!("atoll-l{}-main", ctx.id())).spawn(move || {
                if ctx.config().pin {
                    let _ = crate::locale::affinity::pin_current_thread(ctx.here().cores());
                }
                if let Outcome::Failed(e) = locale_main(&ctx, serve) {
                    world.fail(ctx.id(), &e);
                }
            });
            match h {
                Ok(h) => workers.push(h),
                Err(e) => {
                    let e = Error::Io(format!("cannot start a locale thread: {e}"));
                    job.fail(0, &e);
                    return Err(e);
                }
            }
        }
        let ctx = job.ctxs[0].clone();
        let d = Driver { ctx, kind: Some(Kind::Local { job, workers }), lock: Mutex::new(()) };
        attribution::as_locale(0, || startup(&d.ctx)).inspect_err(|e| d.fail(e))?;
        Ok(d)
    }

    #[cfg(feature = "mpi")]
    fn start_mpi(config: &Config) -> Result<Driver> {
        let job = crate::job::run::MpiLocale::start(config)?;
        if job.ctx.id() != 0 {
            let id = job.ctx.id();
            let code = match locale_main(&job.ctx, serve) {
                Outcome::Done(()) => match job.finish() {
                    Ok(()) => 0,
                    Err(e) => {
                        eprintln!("atoll: locale {id} failed at shutdown: {e}");
                        1
                    }
                },
                Outcome::Failed(e) => {
                    job.ctx.st.backend.abort(&e.to_string());
                    1
                }
            };
            std::process::exit(code);
        }
        let ctx = job.ctx.clone();
        startup(&ctx).inspect_err(|e| ctx.st.backend.abort(&e.to_string()))?;
        Ok(Driver { ctx, kind: Some(Kind::Mpi { job }), lock: Mutex::new(()) })
    }

    #[cfg(not(feature = "mpi"))]
    fn start_mpi(_config: &Config) -> Result<Driver> {
        Err(Error::BackendUnavailable {
            backend: "mpi".into(),
            reason: "this build has no MPI support: rebuild with the `mpi` cargo feature (make build)".into(),
        })
    }

    /// Locale 0's context, for one-sided operations from the driver.
    pub fn ctx(&self) -> &Ctx {
        &self.ctx
    }

    /// The number of locales.
    pub fn num_locales(&self) -> usize {
        self.ctx.num_locales()
    }

    fn fail(&self, e: &Error) {
        match &self.kind {
            Some(Kind::Local { job, .. }) => job.fail(0, e),
            #[cfg(feature = "mpi")]
            Some(Kind::Mpi { .. }) => self.ctx.st.backend.abort(&e.to_string()),
            None => {}
        }
    }

    /// Runs `h(args)` on every locale together and returns the results in locale order.
    /// Commands from several threads run one at a time.
    ///
    /// # Errors
    /// The error of the lowest locale whose part failed: [`Error::HandlerPanicked`] for a
    /// panic, [`Error::HandlerNotRegistered`], or the handler's own error (see the module
    /// documentation); the session goes on. A job-wide failure ([`Error::LocaleFailed`])
    /// ends the session.
    pub fn exec<A, R>(&self, h: &'static Handler<A, R>, args: A) -> Result<Vec<R>>
    where
        A: Serialize + DeserializeOwned + 'static,
        R: Serialize + DeserializeOwned + 'static,
    {
        let _one_at_a_time = lock(&self.lock);
        attribution::as_locale(0, || {
            crate::ctx::current::with_current(&self.ctx, || {
                let payload = encode(&args)?;
                let cmd = Command::Exec { handler: h.id(), payload };
                self.ctx.broadcast(0, Some(cmd))?;
                let start = command_start(&self.ctx);
                // Locale 0 runs the command like the others: the same registry check, panics
                // caught the same way.
                let mine = self.ctx.call_here(h, args).and_then(|r| encode(&r));
                let all: Vec<Result<Vec<u8>>> = end_command(&self.ctx, start, mine)?;
                all.into_iter()
                    .map(|r| match r {
                        Ok(b) => decode(&b),
                        Err(Error::HandlerNotRegistered { id, locale, .. }) => {
                            Err(Error::HandlerNotRegistered { name: h.name().to_string(), id, locale })
                        }
                        Err(e) => Err(e),
                    })
                    .collect()
            })
        })
    }

    /// Stops the command loops and ends the job. **Collective** (with the serving locales).
    pub fn shutdown(mut self) -> Result<()> {
        self.stop()
    }

    fn stop(&mut self) -> Result<()> {
        let Some(kind) = self.kind.take() else { return Ok(()) };
        let ctx = self.ctx.clone();
        let end = attribution::as_locale(0, || -> Result<()> {
            ctx.broadcast(0, Some(Command::Stop))?;
            ctx.coll_enter("the end of the job")?;
            ctx.st.backend.barrier()
        });
        match kind {
            Kind::Local { job, workers } => {
                if let Err(e) = &end {
                    job.fail(0, e);
                }
                for w in workers {
                    let _ = w.join();
                }
                job.shutdown();
                match job.world.first_failure() {
                    Some(e) => Err(e),
                    None => end,
                }
            }
            #[cfg(feature = "mpi")]
            Kind::Mpi { job } => match end {
                Ok(()) => job.finish(),
                Err(e) => {
                    ctx.st.backend.abort(&e.to_string());
                    Err(e)
                }
            },
        }
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.stop();
    }
}

/// Starts a driver, runs `f` with it on locale 0, and shuts the job down.
///
/// Under MPI, ranks other than 0 serve commands and exit inside this call.
pub fn run_driver<R>(config: Config, f: impl FnOnce(&Driver) -> Result<R>) -> Result<R> {
    let d = Driver::start(config)?;
    let r = f(&d);
    let s = d.shutdown();
    let r = r?;
    s?;
    Ok(r)
}
