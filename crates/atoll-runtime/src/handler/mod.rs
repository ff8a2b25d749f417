//! Active-message handlers: functions identified by a stable id, run on a target locale with
//! serialized arguments.
//!
//! Every process of a job runs the same binary, so a handler is named by a 64-bit hash of its
//! name (FNV-1a), the same everywhere whatever the order of registration. A handler must be
//! registered (with [`Handler::register`]) in every process before it is called; a request for
//! an id the target does not know comes back as [`Error::HandlerNotRegistered`].

pub(crate) mod call;

use crate::comm::wire::{decode, encode, handler_id};
use crate::ctx::Ctx;
use crate::sync::OnceLock;
use crate::sync::RwLock;
use crate::sync::{read, write};
use atoll_error::{Error, Result};
use serde::{de::DeserializeOwned, Serialize};
use std::collections::HashMap;
use std::marker::PhantomData;

/// A function that other locales can run here: `fn(&Ctx, A) -> Result<R>`, with `A` and `R`
/// serialized on the way.
///
/// ```
/// use atoll_runtime::{run, Config, Ctx, Handler, Result};
///
/// fn square(_ctx: &Ctx, x: u64) -> Result<u64> { Ok(x * x) }
/// static SQUARE: Handler<u64, u64> = Handler::new("doc::square", square);
///
/// SQUARE.register();
/// let r = run(Config::local(2), |ctx| {
///     // Locale 0 asks locale 1 to square 7.
///     if ctx.id() == 0 { ctx.on(1, &SQUARE, 7) } else { Ok(0) }
/// }).unwrap();
/// assert_eq!(r, 49);
/// ```
pub struct Handler<A, R> {
    name: &'static str,
    id: u64,
    f: fn(&Ctx, A) -> Result<R>,
    _p: PhantomData<fn(A) -> R>,
}

impl<A, R> Handler<A, R> {
    /// A handler named `name` (unique in the program; a path such as `"mycrate::op"`).
    pub const fn new(name: &'static str, f: fn(&Ctx, A) -> Result<R>) -> Self {
        Handler { name, id: handler_id(name), f, _p: PhantomData }
    }

    /// The handler's name.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The handler's stable id (a hash of its name).
    pub fn id(&self) -> u64 {
        self.id
    }

    pub(crate) fn call(&self, ctx: &Ctx, a: A) -> Result<R> {
        (self.f)(ctx, a)
    }
}

impl<A: Serialize + DeserializeOwned + 'static, R: Serialize + DeserializeOwned + 'static> Handler<A, R> {
    /// Makes this handler callable in this process (idempotent). Every process of an MPI job
    /// registers the same handlers, usually at the start of `main`.
    ///
    /// The registry lives as long as the process: its memory is marked permanent for
    /// `atoll-mem`'s leak report.
    pub fn register(&'static self) {
        let f = self.f;
        atoll_mem::permanent(|| {
            let erased: Erased = crate::sync::Arc::new(move |ctx: &Ctx, bytes: &[u8]| {
                let a: A = decode(bytes)?;
                encode(&f(ctx, a)?)
            });
            let mut reg = write(registry());
            reg.entry(self.id).or_insert((self.name, erased));
        });
    }
}

/// Shared, so that a call clones it out of the registry and runs without holding the
/// registry's lock (a handler may wait for a long time, for example in a collective of a
/// driver command, while another thread registers a handler).
type Erased = crate::sync::Arc<dyn Fn(&Ctx, &[u8]) -> Result<Vec<u8>> + Send + Sync>;

fn registry() -> &'static RwLock<HashMap<u64, (&'static str, Erased)>> {
    static REG: OnceLock<RwLock<HashMap<u64, (&'static str, Erased)>>> = OnceLock::new();
    REG.get_or_init(|| RwLock::new(HashMap::new()))
}

/// Whether a handler id is registered in this process.
pub fn is_registered(id: u64) -> bool {
    read(registry()).contains_key(&id)
}

/// Runs handler `id` with serialized arguments on `ctx` (the target locale), on sublocale
/// `sub` if given. Called by the backends when a request arrives.
pub(crate) fn dispatch(ctx: &Ctx, id: u64, sub: Option<usize>, payload: &[u8], name_hint: &str) -> Result<Vec<u8>> {
    let run = || {
        let f = read(registry()).get(&id).map(|(_, f)| crate::sync::Arc::clone(f));
        match f {
            Some(f) => f(ctx, payload),
            None => Err(Error::HandlerNotRegistered { name: name_hint.to_string(), id, locale: ctx.id() }),
        }
    };
    match sub {
        None => run(),
        Some(s) => ctx.here().child(s)?.run(run),
    }
}

/// The name of a registered handler, for error messages.
pub(crate) fn name_of(id: u64) -> String {
    read(registry()).get(&id).map(|(n, _)| n.to_string()).unwrap_or_else(|| format!("{id:#018x}"))
}
