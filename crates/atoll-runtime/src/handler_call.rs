//! Running a handler: the same checks and the same errors wherever it runs.
//!
//! A handler can run on the locale that asked for it (`ctx.on(ctx.id(), ..)`, the caller's part
//! of `coforall_locales`, locale 0's part of a driver command) or on another locale (an active
//! message). Both paths look the handler up in the registry (an unregistered handler is
//! [`Error::HandlerNotRegistered`] on 1 locale as on 2) and catch its panics as
//! [`Error::HandlerPanicked`] (the locale and the job go on), so a program behaves the same
//! whichever locale is the target.

use crate::ctx::{panic_message, Ctx};
use crate::handler::{is_registered, Handler};
use atoll_error::{Error, Result};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Runs `f`, turning a panic into [`Error::HandlerPanicked`] naming `locale` and `handler`.
pub(crate) fn catch_handler<R>(locale: usize, handler: &str, f: impl FnOnce() -> Result<R>) -> Result<R> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|p| {
        Err(Error::HandlerPanicked { locale, handler: handler.to_string(), message: panic_message(&*p) })
    })
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
