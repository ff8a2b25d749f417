//! The per-locale context: what a locale's code uses to reach the others.
//!
//! The methods of [`Ctx`] are split by capability, one submodule each:
//! - `alloc`: registration and symmetric allocation ([`Symmetric`]).
//! - `rma`: one-sided gets, puts and atomics on [`GlobalPtr`]s.
//! - `nonblocking`: gets and puts started without waiting ([`NbScope`]).
//! - `active`: active messages ([`Pending`]) and the running of handlers.
//! - `tasks`: tasks and parallel loops on this locale.
//! - `collectives`: barrier, broadcast, gathers, reductions, scan, all-to-all.
//! - `diagnostics`: communication counters and tracing.
//! - `sublocale_loop`: loops with a static split among the sublocales.
//! - `direct_count`: loads through [`Ctx::direct_ptr`] counted as the gets they replace.
//! - `memory`: memory budgets, reservations and figures.
//! - `command`: how a driver command ends on each locale, failed or not.
//! - `current`: the locale context of the calling thread ([`Ctx::current`]).

mod active;
mod alloc;
mod collectives;
pub(crate) mod command;
pub(crate) mod current;
mod diagnostics;
mod direct_count;
mod memory;
mod nonblocking;
mod rma;
mod sublocale_loop;
mod tasks;

pub(crate) use active::run_handler;
pub use active::Pending;
pub use alloc::Symmetric;
pub use nonblocking::NbScope;

use crate::comm::Backend;
use crate::config::Config;
use crate::diagnostics::Diagnostics;
use crate::locale::executor::Executor;
use crate::locale::pool::Locale;
use crate::memory::registration::{RegionTable, RegistrationStats, RemoteCache};
use crate::sync::OnceLock;
use crate::sync::{Arc, AtomicU64};
use atoll_error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::marker::PhantomData;
use std::time::Instant;

/// What every locale knows of every other: its id, name and shape.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LocaleInfo {
    /// The locale id.
    pub id: usize,
    /// Its name (`locale-<id>@<host>`).
    pub name: String,
    /// Its number of sublocales.
    pub sublocales: usize,
    /// Its number of task-pool threads.
    pub threads: usize,
}

/// A typed address in another locale's registered memory.
///
/// It is a plain value (locale id and address) that can be sent anywhere; it is only
/// dereferenced through [`Ctx`] operations, which check that the memory is registered.
#[derive(Serialize, Deserialize)]
#[serde(bound = "")]
pub struct GlobalPtr<T> {
    locale: usize,
    addr: u64,
    #[serde(skip)]
    _p: PhantomData<fn() -> T>,
}

impl<T> Clone for GlobalPtr<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for GlobalPtr<T> {}
impl<T> PartialEq for GlobalPtr<T> {
    fn eq(&self, o: &Self) -> bool {
        self.locale == o.locale && self.addr == o.addr
    }
}
impl<T> Eq for GlobalPtr<T> {}
impl<T> std::fmt::Debug for GlobalPtr<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "GlobalPtr(locale {}, {:#x})", self.locale, self.addr)
    }
}

impl<T> GlobalPtr<T> {
    /// A pointer to `addr` on `locale`.
    pub fn new(locale: usize, addr: u64) -> Self {
        GlobalPtr { locale, addr, _p: PhantomData }
    }

    /// The locale it points into.
    pub fn locale(&self) -> usize {
        self.locale
    }

    /// The address on that locale.
    pub fn addr(&self) -> u64 {
        self.addr
    }

    /// The pointer `n` elements further (as `pointer::add`).
    #[allow(clippy::should_implement_trait)]
    pub fn add(self, n: usize) -> Self {
        GlobalPtr::new(self.locale, self.addr + (n * std::mem::size_of::<T>()) as u64)
    }
}

pub(crate) struct LocaleState {
    pub(crate) id: usize,
    pub(crate) n: usize,
    pub(crate) config: Config,
    pub(crate) backend: Box<dyn Backend>,
    pub(crate) diag: Diagnostics,
    pub(crate) regions: Arc<RegionTable>,
    pub(crate) remote: RemoteCache,
    pub(crate) here: Locale,
    pub(crate) exec: Executor,
    pub(crate) coll_seq: AtomicU64,
    pub(crate) infos: OnceLock<Vec<LocaleInfo>>,
    /// Whether remote targets need a wake-up hint before requests (MPI progress threads).
    pub(crate) needs_wake: bool,
    /// Per target: when this locale last sent it a wake-up (ms since `epoch`).
    pub(crate) last_wake: Vec<AtomicU64>,
    pub(crate) epoch: Instant,
    /// This locale's memory budget (its `atoll-mem` index is `budget.locale()`).
    pub(crate) budget: atoll_mem::Budget,
    /// Per-locale state of the layers above, by type (see [`Ctx::locale_ext`]).
    pub(crate) ext: crate::sync::Mutex<Vec<crate::sync::Arc<dyn std::any::Any + Send + Sync>>>,
}

/// One locale's handle on the job: its identity, its sublocales and task pools, and every
/// operation that reaches other locales.
///
/// A `Ctx` is cheap to clone and can be shared between the locale's threads. Operations marked
/// **Collective** must be called by every locale, in the same order (one thread per locale).
/// Operations marked **One-sided** involve only the caller.
#[derive(Clone)]
pub struct Ctx {
    pub(crate) st: Arc<LocaleState>,
}

impl std::fmt::Debug for Ctx {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Ctx(locale {} of {}, {})", self.st.id, self.st.n, self.st.backend.name())
    }
}

impl Ctx {
    pub(crate) fn from_state(st: Arc<LocaleState>) -> Ctx {
        Ctx { st }
    }

    /// This locale's id, in `0..num_locales()`.
    pub fn id(&self) -> usize {
        self.st.id
    }

    /// The number of locales in the job.
    pub fn num_locales(&self) -> usize {
        self.st.n
    }

    /// This locale: its name, cores and sublocales.
    pub fn here(&self) -> &Locale {
        &self.st.here
    }

    /// Every locale's id, name and shape, in id order.
    pub fn locales(&self) -> &[LocaleInfo] {
        self.st.infos.get().map(Vec::as_slice).unwrap_or(&[])
    }

    /// The configuration the job runs with.
    pub fn config(&self) -> &Config {
        &self.st.config
    }

    /// The backend's name: `local` or `mpi`, for reports. Code that depends on what the
    /// backend can do asks for that capability instead ([`Ctx::puts_are_copies`],
    /// [`Ctx::locales_share_process`], [`Ctx::direct_ptr`]).
    pub fn backend_name(&self) -> &'static str {
        self.st.backend.name()
    }

    /// Whether a put is a plain copy by the calling thread (every locale's memory is in this
    /// process): a bulk transfer is then best split among this locale's tasks rather than
    /// issued as non-blocking operations and flushed together.
    pub fn puts_are_copies(&self) -> bool {
        self.st.backend.puts_are_copies()
    }

    /// Whether every locale of the job runs in this process, so that any memory of the
    /// process (a caller's buffer, not only registered memory) is readable by every locale's
    /// threads (the local backend).
    pub fn locales_share_process(&self) -> bool {
        self.st.backend.locales_share_process()
    }

    /// Whether a blocking request runs its handler on the calling thread (no message, no
    /// hand-off), so that keeping requests in flight gains nothing.
    pub(crate) fn blocking_requests_run_inline(&self) -> bool {
        self.st.backend.blocking_requests_run_inline()
    }

    /// An error unless `locale` is a valid locale id.
    pub fn check_locale(&self, locale: usize) -> Result<()> {
        if locale < self.st.n {
            Ok(())
        } else {
            Err(Error::InvalidLocale { locale, num_locales: self.st.n })
        }
    }

    /// Hit and miss counts of this locale's registration table and remote-region cache.
    pub fn registration_stats(&self) -> RegistrationStats {
        let (local_hits, local_misses) = self.st.regions.stats();
        let (remote_hits, remote_misses) = self.st.remote.stats();
        RegistrationStats { local_hits, local_misses, remote_hits, remote_misses }
    }
}
