//! Memory below the context: the buffers of symmetric allocations and where they come from.
//!
//! - `symmetric_data`: the storage of a [`Symmetric`](crate::Symmetric) (heap, node-shared
//!   or external) and how its parts are initialized ([`PartInit`](crate::PartInit));
//! - `page_pool`: the pool of large zeroed buffers for lazy heap parts;
//! - `shared_alloc`: memory that the locales of one node can all map, made by a backend;
//! - `hugepages` and `shared_huge`: transparent huge pages for heap buffers and node-shared
//!   segments (two small `unsafe` shims);
//! - `external`: blocks owned by something else ([`ExternalBlock`](crate::ExternalBlock));
//! - `registration`: which memory of a locale is remotely accessible, and the cache of
//!   other locales' regions.

pub(crate) mod external;
pub mod hugepages;
pub mod page_pool;
pub(crate) mod registration;
pub(crate) mod shared_alloc;
pub(crate) mod shared_huge;
pub(crate) mod symmetric_data;
