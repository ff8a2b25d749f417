//! A locale's resources on the machine.
//!
//! - `topology`: the machine's cores and NUMA domains, and their shares per locale;
//! - `affinity`: pinning threads to cores;
//! - `pool`: locales, sublocales and their pinned task pools;
//! - `executor`: the threads that run a locale's incoming active messages;
//! - `attribution`: which locale the calling thread works for (memory attribution).

pub(crate) mod affinity;
pub(crate) mod attribution;
pub(crate) mod executor;
pub(crate) mod pool;
pub mod topology;
