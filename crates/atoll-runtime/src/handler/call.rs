//! Running a handler: the same errors wherever it runs.
//!
//! A handler can run on the locale that asked for it (`ctx.on(ctx.id(), ..)`, the caller's part
//! of `coforall_locales`, locale 0's part of a driver command: `Ctx::call_here` in
//! `ctx/active.rs`) or on another locale (an active message: `run_handler`, there too). Both
//! paths look the handler up in the registry (an unregistered handler is
//! [`Error::HandlerNotRegistered`] on 1 locale as on 2) and catch its panics here as
//! [`Error::HandlerPanicked`] (the locale and the job go on), so a program behaves the same
//! whichever locale is the target.

use atoll_error::{Error, Result};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Runs `f`, turning a panic into [`Error::HandlerPanicked`] naming `locale` and `handler`.
pub(crate) fn catch_handler<R>(locale: usize, handler: &str, f: impl FnOnce() -> Result<R>) -> Result<R> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|p| {
        Err(Error::HandlerPanicked { locale, handler: handler.to_string(), message: panic_message(&*p) })
    })
}

/// The text of a panic payload.
pub(crate) fn panic_message(p: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic with a non-string payload".to_string()
    }
}
