//! `ak.graph.share_edges`: a graph's edge list written
//! into shared arrays (`atoll_graph::SharedEdges`) that another process (e.g.
//! `examples/c/hitting_consumer`) attaches to by name; the three arrays come back as pdarrays
//! whose blocks are the files (removed with the pdarrays unless `keep`).

use crate::commands::graph::{graph, GraphRef};
use crate::handles::{next_ids, Array, Session};
use crate::registry::{Col, Registry};
use crate::types::DType;
use atoll::runtime::{Ctx, Handler};
use atoll::Result;
use atoll_graph::SharedEdges;
use atoll_share::ShareOptions;

type Args = (u64, [u64; 3], String, String, bool, bool);

fn share_edges_cmd(ctx: &Ctx, (gid, ids, prefix, dir, unit, keep): Args) -> Result<u64> {
    let m = graph(ctx, gid)?;
    let s = SharedEdges::from_csr(ctx, &prefix, &m, unit, ShareOptions::in_dir(dir).keep(keep))?;
    let nnz = s.num_entries() as u64;
    let SharedEdges { rows, cols, vals, .. } = s;
    let reg = Registry::of(ctx);
    // Their storage is the shared files: written in place, never replaced.
    reg.insert_pinned(ids[0], Col::I(rows.into_array()));
    reg.insert_pinned(ids[1], Col::I(cols.into_array()));
    reg.insert_pinned(ids[2], Col::F(vals.into_array()));
    Ok(nnz)
}

/// Writes graph `g`'s entries into the shared arrays `prefix-rows`, `prefix-cols` (int64) and
/// `prefix-vals` (float64; all 1 with `unit_weights`) in `dir`: the three arrays, whose blocks
/// are the files. **Collective.**
pub fn share_edges(
    s: &Session,
    g: &GraphRef,
    prefix: String,
    dir: String,
    unit_weights: bool,
    keep: bool,
) -> Result<(Array, Array, Array)> {
    let i = next_ids(3);
    let len = s.exec(&SHARE_EDGES, (g.id, [i, i + 1, i + 2], prefix, dir, unit_weights, keep))? as usize;
    let arr = |id, dtype| Array { id, dtype, len, generation: s.generation() };
    Ok((arr(i, DType::I64), arr(i + 1, DType::I64), arr(i + 2, DType::F64)))
}

commands! {
    /// The command (registered with the graph commands).
    pub static SHARE_EDGES: Handler<Args, u64> = Handler::new("atoll-session::graph_share_edges", share_edges_cmd);
}
