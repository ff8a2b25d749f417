//! Atoll's graph analytics: Matrix Market reading (in parallel, byte ranges split at
//! line ends) and writing, a row-Block-distributed CSR matrix and an edge-list operator behind
//! one [`RowMatrix`] trait, whose SpMV fetches remote vector entries with a cached plan (one
//! message per remote locale per product), Kronecker/R-MAT and 3-D finite-element-like
//! generators, and the algorithms: synchronous label propagation, connected components,
//! random-walk hitting times, PageRank and BFS.
//!
//! Every function that takes a `&Ctx` and builds or computes something distributed is
//! **collective**: each locale calls it with its own handle.

#![forbid(unsafe_code)]

pub mod algo;
mod csr;
mod csr_ops;
mod edge_list;
mod entries;
mod gen_fe;
mod gen_kron;
mod halo;
mod mm_header;
mod mm_read;
mod mm_write;
mod operator;
mod partition;
mod shared_edges;

pub use algo::bfs::bfs;
pub use algo::cc::connected_components;
pub use algo::hitting::{hitting_times, HittingMethod, HittingTimes};
pub use algo::lp::{label_propagation, Labels};
pub use algo::pagerank::pagerank;
pub use csr::CsrMatrix;
pub use edge_list::{DistEdges, EdgeListMatrix, EdgeSource};
pub use entries::LocalEntries;
pub use gen_fe::{bcsstk29_like, fe_banded, fe_entries, BCSSTK29_LIKE};
pub use gen_kron::{kronecker, kronecker_edge, kronecker_edges, scramble, RMAT_ABC};
pub use halo::Halo;
pub use mm_header::{parse_header, MmField, MmHeader, MmSymmetry};
pub use mm_read::{read_local, MmLocal};
pub use mm_write::write_matrix_market;
pub use operator::RowMatrix;
pub use partition::Partition;
pub use shared_edges::{share_targets, shared_edge_names, SharedEdges};

use atoll_error::Result;
use atoll_runtime::Ctx;
use std::path::Path;

/// Reads a Matrix Market file into a [`CsrMatrix`] (a symmetric file's mirror entries added).
/// **Collective.**
///
/// # Errors
/// As [`read_local`] and [`CsrMatrix::from_entries`]; nothing distributed is built on error.
pub fn read_matrix_market(ctx: &Ctx, path: impl AsRef<Path>) -> Result<CsrMatrix> {
    let MmLocal { header, mut entries } = read_local(ctx, path)?;
    if header.symmetry == MmSymmetry::Symmetric {
        entries.mirror_off_diagonal();
    }
    CsrMatrix::from_entries(ctx, header.rows, header.cols, entries)
}

/// Reads a Matrix Market file into a distributed edge list (Block arrays over the entries, a
/// symmetric file's mirror entries added) and its header. **Collective.**
///
/// # Errors
/// As [`read_local`] and [`DistEdges::from_entries`].
pub fn read_matrix_market_edges(ctx: &Ctx, path: impl AsRef<Path>) -> Result<(MmHeader, DistEdges)> {
    let MmLocal { header, mut entries } = read_local(ctx, path)?;
    if header.symmetry == MmSymmetry::Symmetric {
        entries.mirror_off_diagonal();
    }
    Ok((header, DistEdges::from_entries(ctx, &entries)?))
}
