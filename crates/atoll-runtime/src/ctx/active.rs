//! Active messages: running handlers on other locales, and replies to wait for.

use super::{Ctx, LocaleState};
use crate::comm::wire::{decode, encode};
use crate::comm::{PendingReply, ServedLocale};
use crate::diagnostics::Op;
use crate::handler::call::catch_handler;
use crate::handler::{is_registered, Handler};
use crate::locale::attribution;
use crate::locale::executor::Executor;
use crate::sync::Arc;
use atoll_error::{invalid_arg, Error, Result};
use serde::{de::DeserializeOwned, Serialize};
use std::panic::Location;

/// Runs handler `id` on `ctx`, turning a panic into an error reply and attributing the work
/// to the target locale.
pub(crate) fn run_handler(ctx: &Ctx, id: u64, sub: Option<usize>, payload: &[u8]) -> Result<Vec<u8>> {
    attribution::as_locale(ctx.id(), || {
        crate::ctx::current::with_current(ctx, || {
            let name = crate::handler::name_of(id);
            catch_handler(ctx.id(), &name, || crate::handler::dispatch(ctx, id, sub, payload, &name))
        })
    })
}

/// What the backends need of a locale (`comm::ServedLocale`): they run other locales'
/// requests through it without naming `Ctx` or `LocaleState`.
impl ServedLocale for LocaleState {
    fn run_handler(self: Arc<Self>, handler: u64, sub: Option<usize>, payload: &[u8]) -> Result<Vec<u8>> {
        run_handler(&Ctx::from_state(self), handler, sub, payload)
    }

    fn executor(&self) -> &Executor {
        &self.exec
    }

    #[cfg(feature = "mpi")]
    fn coll_seq(&self) -> u64 {
        self.coll_seq.load(crate::sync::Ordering::Relaxed)
    }
}

/// A reply of a typed active message, to wait for.
#[must_use = "a pending reply must be waited for"]
pub struct Pending<R> {
    reply: Option<PendingReply>,
    ready: Option<Result<R>>,
    ctx: Ctx,
    name: &'static str,
    target: usize,
}

impl<R: DeserializeOwned> Pending<R> {
    /// Waits for the reply.
    pub fn wait(self) -> Result<R> {
        if let Some(r) = self.ready {
            return r;
        }
        let bytes = match self.reply {
            Some(p) => p.wait(),
            None => Err(invalid_arg!("empty pending reply")),
        };
        self.ctx.finish_reply(bytes, self.name, self.target)
    }
}

impl Ctx {
    /// Runs handler `h` with `args` on locale `target` and returns its result. **One-sided**
    /// (the target's handler threads serve it without the target's code taking part).
    ///
    /// On this locale it is a direct call (no serialization) with the same checks as a remote
    /// one: the handler must be registered, and a panic comes back as
    /// [`Error::HandlerPanicked`] whichever locale is the target. The arguments and the result
    /// are serialized when they travel; errors raised by the handler come back as they are.
    #[track_caller]
    pub fn on<A, R>(&self, target: usize, h: &'static Handler<A, R>, args: A) -> Result<R>
    where
        A: Serialize + DeserializeOwned + Send + 'static,
        R: Serialize + DeserializeOwned + Send + 'static,
    {
        self.check_locale(target)?;
        if target == self.st.id {
            return self.call_here(h, args);
        }
        self.on_blocking(target, None, h, args, Location::caller())
    }

    fn on_blocking<A, R>(
        &self,
        target: usize,
        sub: Option<usize>,
        h: &'static Handler<A, R>,
        args: A,
        at: &'static Location<'static>,
    ) -> Result<R>
    where
        A: Serialize + DeserializeOwned + Send + 'static,
        R: Serialize + DeserializeOwned + Send + 'static,
    {
        let payload = encode(&args)?;
        self.st.diag.record(Op::Am, target, payload.len(), at);
        self.wake(target);
        let reply = self.st.backend.request_blocking(target, h.id(), sub, payload);
        self.finish_reply(reply, h.name(), target)
    }

    /// Like [`Ctx::on`], returning at once with a reply to wait for. **One-sided.**
    #[track_caller]
    pub fn on_async<A, R>(&self, target: usize, h: &'static Handler<A, R>, args: A) -> Result<Pending<R>>
    where
        A: Serialize + DeserializeOwned + Send + 'static,
        R: Serialize + DeserializeOwned + Send + 'static,
    {
        self.on_async_at(target, None, h, args, Location::caller())
    }

    /// Runs handler `h` on sublocale `sub` of locale `target` (on that sublocale's pinned task
    /// pool). **One-sided.**
    #[track_caller]
    pub fn on_sublocale<A, R>(&self, target: usize, sub: usize, h: &'static Handler<A, R>, args: A) -> Result<R>
    where
        A: Serialize + DeserializeOwned + Send + 'static,
        R: Serialize + DeserializeOwned + Send + 'static,
    {
        self.check_locale(target)?;
        if target == self.st.id {
            return self.call_here_on(h, sub, args);
        }
        self.on_blocking(target, Some(sub), h, args, Location::caller())
    }

    fn on_async_at<A, R>(
        &self,
        target: usize,
        sub: Option<usize>,
        h: &'static Handler<A, R>,
        args: A,
        at: &'static Location<'static>,
    ) -> Result<Pending<R>>
    where
        A: Serialize + DeserializeOwned + Send + 'static,
        R: Serialize + DeserializeOwned + Send + 'static,
    {
        self.check_locale(target)?;
        if target == self.st.id {
            let r = match sub {
                None => self.call_here(h, args),
                Some(s) => self.call_here_on(h, s, args),
            };
            return Ok(Pending { reply: None, ready: Some(r), ctx: self.clone(), name: h.name(), target });
        }
        let payload = encode(&args)?;
        self.st.diag.record(Op::Am, target, payload.len(), at);
        self.wake(target);
        let reply = self.st.backend.request(target, h.id(), sub, payload)?;
        Ok(Pending { reply: Some(reply), ready: None, ctx: self.clone(), name: h.name(), target })
    }

    fn finish_reply<R: DeserializeOwned>(&self, bytes: Result<Vec<u8>>, name: &str, target: usize) -> Result<R> {
        match bytes {
            Ok(b) => {
                self.st.diag.record_bytes(target, b.len());
                decode(&b)
            }
            Err(Error::HandlerNotRegistered { id, locale, .. }) => {
                Err(Error::HandlerNotRegistered { name: name.to_string(), id, locale })
            }
            Err(e) => Err(e),
        }
    }

    /// Runs `h(args)` on every locale at once (this one included) and returns the results in
    /// locale order: Chapel's `coforall loc in Locales do on loc`. **One-sided**: only the
    /// caller takes part; the handlers run on the locales' handler threads.
    ///
    /// ```
    /// use atoll_runtime::{run, Config, Ctx, Handler, Result};
    /// fn whoami(ctx: &Ctx, base: usize) -> Result<usize> { Ok(base + ctx.id()) }
    /// static WHO: Handler<usize, usize> = Handler::new("doc::whoami", whoami);
    /// WHO.register();
    /// let ids = run(Config::local(3), |ctx| {
    ///     if ctx.id() == 0 { ctx.coforall_locales(&WHO, 10) } else { Ok(vec![]) }
    /// }).unwrap();
    /// assert_eq!(ids, vec![10, 11, 12]);
    /// ```
    #[track_caller]
    pub fn coforall_locales<A, R>(&self, h: &'static Handler<A, R>, args: A) -> Result<Vec<R>>
    where
        A: Serialize + DeserializeOwned + Clone + Send + 'static,
        R: Serialize + DeserializeOwned + Send + 'static,
    {
        let at = Location::caller();
        let pending: Vec<Option<Pending<R>>> = (0..self.st.n)
            .map(|l| if l == self.st.id { Ok(None) } else { self.on_async_at(l, None, h, args.clone(), at).map(Some) })
            .collect::<Result<_>>()?;
        let mut mine = Some(self.call_here(h, args));
        pending
            .into_iter()
            .map(|p| match p {
                Some(p) => p.wait(),
                None => mine.take().expect("own result"),
            })
            .collect()
    }
}

impl Ctx {
    /// Runs `h(args)` on this locale as an active message from another locale would: the
    /// handler must be registered, and a panic comes back as [`Error::HandlerPanicked`]. The
    /// arguments are not serialized (they stay in this process).
    pub(crate) fn call_here<A, R>(&self, h: &'static Handler<A, R>, args: A) -> Result<R> {
        self.check_registered(h)?;
        catch_handler(self.id(), h.name(), || h.call(self, args))
    }

    /// [`Ctx::call_here`] on sublocale `sub` of this locale (on its task pool).
    pub(crate) fn call_here_on<A: Send, R: Send>(&self, h: &'static Handler<A, R>, sub: usize, args: A) -> Result<R> {
        self.check_registered(h)?;
        let child = self.here().child(sub)?;
        child.run(move || catch_handler(self.id(), h.name(), || h.call(self, args)))
    }

    fn check_registered<A, R>(&self, h: &'static Handler<A, R>) -> Result<()> {
        if is_registered(h.id()) {
            Ok(())
        } else {
            Err(Error::HandlerNotRegistered { name: h.name().to_string(), id: h.id(), locale: self.id() })
        }
    }
}
