//! `ak.graph.share_edges` (issues 18 and 19, the seed's approach 2): a graph's edge list written
//! into shared arrays (`atoll_graph::SharedEdges`) that another process (e.g.
//! `examples/c/hitting_consumer`) attaches to by name; the three arrays come back as pdarrays
//! whose blocks are the files (removed with the pdarrays unless `keep`).

use crate::graph::{graph, Graph};
use crate::registry::{Col, Registry};
use crate::session::{exec, next_id};
use crate::types::DType;
use crate::Arr;
use atoll::runtime::{Ctx, Handler};
use atoll::Result;
use atoll_graph::SharedEdges;
use atoll_share::ShareOptions;
use pyo3::prelude::*;

type Args = (u64, [u64; 3], String, String, bool, bool);

fn share_edges(ctx: &Ctx, (gid, ids, prefix, dir, unit, keep): Args) -> Result<u64> {
    let m = graph(ctx, gid)?;
    let s = SharedEdges::from_csr(ctx, &prefix, &m, unit, ShareOptions::in_dir(dir).keep(keep))?;
    let nnz = s.num_entries() as u64;
    let SharedEdges { rows, cols, vals, .. } = s;
    let reg = Registry::of(ctx);
    reg.insert(ids[0], Col::I(rows.into_array()));
    reg.insert(ids[1], Col::I(cols.into_array()));
    reg.insert(ids[2], Col::F(vals.into_array()));
    Ok(nnz)
}

/// The command (registered with the graph commands).
pub static SHARE_EDGES: Handler<Args, u64> = Handler::new("atoll-python::graph_share_edges", share_edges);

/// Writes graph `g`'s entries into the shared arrays `prefix-rows`, `prefix-cols` (int64) and
/// `prefix-vals` (float64; all 1 with `unit_weights`) in `dir`: the three pdarrays.
#[pyfunction]
pub fn graph_share_edges(
    py: Python<'_>,
    g: &Graph,
    prefix: String,
    dir: String,
    unit_weights: bool,
    keep: bool,
) -> PyResult<(Arr, Arr, Arr)> {
    let (_, generation) = crate::session::driver(py)?;
    let ids = [next_id(), next_id(), next_id()];
    let len = exec(py, &SHARE_EDGES, (g.id, ids, prefix, dir, unit_weights, keep))? as usize;
    debug_assert_eq!(len as u64, g.nnz);
    let arr = |id, dtype| Arr { id, dtype, len, generation };
    Ok((arr(ids[0], DType::I64), arr(ids[1], DType::I64), arr(ids[2], DType::F64)))
}
