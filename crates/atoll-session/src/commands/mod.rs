//! The collective commands of the session, in folders by area: each command a
//! [`Handler`](atoll::runtime::Handler) that every locale runs on its part of the data (driver
//! mode, locale 0 being the driver's thread), with the typed function that the driver calls.
//!
//! | area | what |
//! |---|---|
//! | [`arrays`] | creation, transfers, evaluation and assignment, reductions and scans, indexing, sorting, memory, shared-file arrays, settings |
//! | [`strings`] | distributed strings: transfers, transforms, splits, tests, hashes, grouping, categorical codes |
//! | [`groupby`] | multi-key sort, GroupBy's grouping and aggregations, the dense-key paths |
//! | [`frames`] | the pandas layer's commands: bitwise segmented reductions, float bits, memory checks |
//! | [`io`] | Parquet and HDF5 |
//! | [`graph`] | graphs and their algorithms, edge lists in shared files |

pub mod arrays;
pub mod frames;
pub mod graph;
pub mod groupby;
pub mod io;
pub mod strings;

pub use arrays::*;
pub(crate) use arrays::{materialize, Operand};
