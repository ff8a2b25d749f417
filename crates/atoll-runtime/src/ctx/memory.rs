//! Memory budgets and figures on [`Ctx`]: collective reservations that refuse an operation on
//! every locale before anything is allocated, and the tracked memory of locales.
//!
//! Each locale owns an [`atoll_mem::Budget`] whose limit comes from [`Config::mem_max`]
//! (`ATOLL_MEM_MAX`; default 90% of physical memory, split evenly among the locales that share
//! a node: all locales of a local-backend job, the ranks of one host under MPI). An operation
//! that allocates distributed data reserves its bytes with [`Ctx::reserve`] (or through
//! [`Ctx::alloc_symmetric_for`]) first; see `crates/atoll-runtime/README.md`.
//!
//! [`Config::mem_max`]: crate::Config::mem_max

use crate::ctx::Ctx;
use atoll_error::{Error, Result};
use atoll_mem::{Budget, Reservation};

impl Ctx {
    /// Reserves `bytes` in this locale's memory budget for `operation`, if every locale's
    /// request fits its own budget. **Collective**: every locale calls it, each with its own
    /// `bytes` (they may differ; 0 always fits).
    ///
    /// Each locale tries its budget, then the outcomes are exchanged (one allgather). If all
    /// succeeded, each locale holds its [`Reservation`]: allocate, then
    /// [`commit`](Reservation::commit) it and keep the commitment next to the memory. If any
    /// failed, every locale gives back what it reserved and returns the same error.
    ///
    /// ```
    /// use atoll_runtime::{run, Config, Error};
    /// run(Config::local(3).with_mem_max("10MiB"), |ctx| {
    ///     let r = ctx.reserve("stage", 4 << 20)?;      // 4 MiB on every locale: fits
    ///     let buffer = vec![0u8; 4 << 20];
    ///     let held = r.commit();
    ///     // Locale 2 asks for 8 MiB more: over its limit, so every locale is refused.
    ///     let more = if ctx.id() == 2 { 8 << 20 } else { 1 };
    ///     let e = ctx.reserve("stage more", more).unwrap_err();
    ///     assert!(matches!(e, Error::OutOfMemory { locale: 2, requested, .. } if requested == 8 << 20));
    ///     assert_eq!(ctx.budget().reserved(), 0); // locales 0 and 1 gave their byte back
    ///     drop((buffer, held));
    ///     Ok(())
    /// }).unwrap();
    /// ```
    ///
    /// # Errors
    ///
    /// On every locale, the error of the lowest failing locale: [`Error::OutOfMemory`] naming
    /// `operation`, that locale, its request, the bytes in use or reserved there and its
    /// limit. Nothing stays reserved anywhere, and the job goes on.
    pub fn reserve(&self, operation: &str, bytes: u64) -> Result<Reservation> {
        self.coll_enter("reserve")?;
        self.reserve_raw(operation, Ok(bytes))
    }

    /// The body of [`Ctx::reserve`], inside another collective. `request` is this locale's
    /// need, or the error it must report (an impossible size): it takes part in the exchange
    /// like a refused reservation.
    pub(crate) fn reserve_raw(&self, operation: &str, request: Result<u64>) -> Result<Reservation> {
        let mine = request.and_then(|bytes| {
            self.st.budget.try_reserve(bytes, operation).map_err(|e| match e {
                // The budget names its atoll-mem index (0 for every MPI rank); report the locale.
                Error::OutOfMemory { operation, requested, in_use, limit, .. } => {
                    Error::OutOfMemory { operation, locale: self.id(), requested, in_use, limit }
                }
                other => other,
            })
        });
        let failure: Option<Error> = mine.as_ref().err().cloned();
        let outcomes: Vec<Option<Error>> = self.allgather_raw(&failure)?;
        match outcomes.into_iter().flatten().next() {
            // `mine` (a reservation, if this locale got one) is dropped here: released.
            Some(first) => Err(first),
            None => mine,
        }
    }

    /// This locale's memory budget: its limit, and what is reserved and committed in it.
    /// **One-sided.**
    pub fn budget(&self) -> &Budget {
        &self.st.budget
    }

    /// Bytes this locale uses, as the tracking allocator counts them (`atoll-mem`); 0 when the
    /// program did not install it (`atoll_mem::track_memory!()`) or tracking is `off`.
    /// **One-sided.**
    ///
    /// On the local backend each locale has its own counter (threads are attributed to the
    /// locale they work for). Under MPI every thread of the process counts for its locale.
    /// `atoll-mem` counters belong to the process: two jobs running at the same time in one
    /// process share them.
    pub fn memory_used(&self) -> u64 {
        self.st.budget.tracked()
    }

    /// The sum of [`Ctx::memory_used`] over all locales. **Collective.**
    pub fn memory_used_all(&self) -> Result<u64> {
        self.coll_enter("memory_used_all")?;
        let all: Vec<u64> = self.allgather_raw(&self.memory_used())?;
        Ok(all.into_iter().fold(0u64, u64::saturating_add))
    }
}
