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

mod affinity;
pub mod aggregate;
mod aggregation_mode;
pub use affinity::current_cpu;
pub use aggregate::{DstAggregator, SrcAggregator};
pub use aggregation_mode::Aggregation;
mod attribution;
pub mod comm;
mod command;
mod config;
mod ctx;
mod current;
mod diagnostics;
mod direct_count;
mod driver;
mod executor;
mod external;
mod handler;
mod handler_call;
pub mod hugepages;
mod memory;
pub mod page_pool;
pub mod phase_profile;
mod pool;
#[cfg(feature = "bench")]
mod quiet;
mod registration;
mod run;
mod shared_huge;
mod sublocale_loop;
mod symmetric_data;
mod sync;
pub mod topology;

pub use atoll_error::{bail, ensure, Error, Result};
/// The memory layer (`atoll-mem`): tracking allocator, figures, reports and budgets.
pub use atoll_mem;
pub use atoll_mem::{Budget, Commitment, LeakReport, MemStats, MemoryLimit, Reservation};
pub use attribution::thread_locale;
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
pub use diagnostics::{CommCounts, CommTable};
pub use driver::{run_driver, Driver};
pub use external::ExternalBlock;
pub use handler::{is_registered, Handler};
pub use pool::{current_sublocale, Locale, Sublocale};
#[cfg(feature = "bench")]
pub use quiet::quiet_waits;
pub use registration::RegistrationStats;
pub use run::run;
pub use symmetric_data::{poison_overwrites, PartInit, POISON};
