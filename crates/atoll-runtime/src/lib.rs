//! Atoll's runtime core: locales and sublocales, task pools, communication backends
//! (in-process and MPI), active messages, collectives, and communication diagnostics.
//!
//! A job runs on N **locales** (units of memory and compute). [`run`] calls a closure once per
//! locale (SPMD) with that locale's [`Ctx`]; [`Driver`] runs one program on locale 0 that
//! issues collective commands to all (global view). The `local` backend places N locales as
//! thread groups of one process; the `mpi` backend (cargo feature `mpi`) places one per MPI
//! rank.
//!
//! ```
//! use atoll_runtime::{run, Config};
//!
//! let n = run(Config::local(4), |ctx| {
//!     // Every locale runs this. Allocate 8 registered words per locale...
//!     let mut a = ctx.alloc_symmetric::<u64>(8)?;
//!     a.local_mut().fill(ctx.id() as u64);
//!     ctx.barrier()?;
//!     // ...and read the next locale's first word with a one-sided get.
//!     let next = (ctx.id() + 1) % ctx.num_locales();
//!     assert_eq!(ctx.get_value(a.ptr(next))?, next as u64);
//!     a.free()?;
//!     Ok(ctx.num_locales())
//! }).unwrap();
//! assert_eq!(n, 4);
//! ```
//!
//! Memory: every locale has a budget ([`Ctx::budget`], limit `ATOLL_MEM_MAX`); collective
//! allocations such as [`Ctx::alloc_symmetric`] reserve their bytes on every locale first
//! ([`Ctx::reserve`]) and fail with the same [`Error::OutOfMemory`] everywhere, before
//! allocating, when a locale would exceed its limit. Programs that install `atoll-mem`'s
//! tracking allocator (`atoll_mem::track_memory!()`) also get per-locale figures
//! ([`Ctx::memory_used`], [`Ctx::memory_used_all`], [`MemStats`]).
//!
//! Design notes: `README.md` beside this file.

pub mod aggregate;
mod aggregation_mode;
pub mod comm;
mod config;
mod ctx;
mod diagnostics;
mod handler;
mod job;
mod locale;
mod memory;
mod sync;

pub use aggregate::{DstAggregator, SrcAggregator};
pub use aggregation_mode::Aggregation;
pub use diagnostics::phase_profile;
pub use locale::affinity::current_cpu;
#[cfg(feature = "bench")]
pub use locale::affinity::with_every_cpu;
pub use locale::topology;
pub use memory::{hugepages, page_pool};

pub use atoll_error::{bail, ensure, Error, Result};
/// The memory layer (`atoll-mem`): tracking allocator, figures, reports and budgets.
pub use atoll_mem;
pub use atoll_mem::{Budget, Commitment, LeakReport, MemStats, MemoryLimit, Reservation};
pub use bytemuck;
pub use bytemuck::{Pod, Zeroable};
/// Plain MPI for benchmark baselines outside a job (the MPI backend's `baseline.rs`; feature
/// `bench`).
#[cfg(all(feature = "mpi", feature = "bench"))]
pub use comm::mpi::baseline::PlainMpi;
pub use comm::wire::handler_id;
pub use comm::Strided;
pub use config::{
    launched_by_mpiexec, BackendKind, Config, SublocaleMode, DEFAULT_AGG_BUFFER, DEFAULT_MPI_SHM_KEEP,
    MAX_LOCAL_LOCALES,
};
pub use ctx::{Ctx, GlobalPtr, LocaleInfo, NbScope, Pending, Symmetric};
#[cfg(feature = "bench")]
pub use diagnostics::quiet::quiet_waits;
pub use diagnostics::{CommCounts, CommTable};
pub use handler::{is_registered, Handler};
pub use job::driver::{run_driver, Driver};
pub use job::run::run;
pub use locale::attribution::thread_locale;
pub use locale::pool::{current_sublocale, Locale, Sublocale};
pub use memory::external::ExternalBlock;
pub use memory::registration::RegistrationStats;
pub use memory::symmetric_data::{poison_overwrites, PartInit, POISON};
