//! Files: Parquet (`parquet.rs`, re-exported here) and HDF5 (`hdf5.rs`).

pub mod hdf5;
mod parquet;

pub use parquet::*;
