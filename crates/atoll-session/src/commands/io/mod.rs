//! Files: Parquet (`parquet.rs`, re-exported here) and HDF5 (`hdf5.rs`).

pub use parquet::*;

commands! {
    modules {
        pub mod hdf5;
        mod parquet;
    }
}
