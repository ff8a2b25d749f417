//! Graphs (`ak.graph`): kept on every locale between commands (a per-locale map from the id
//! the driver's handle holds to the locale's `CsrMatrix`), built from a Matrix Market file, a
//! generator or two arrays of edges, and the algorithms of `atoll-graph`, whose results become
//! arrays (Block, aligned with the vertices).

use crate::handles::{self, next_ids, Array, Session};
use crate::registry::{lock, Col, Registry};
use crate::types::DType;
use atoll::array::{dist, DistArray};
use atoll::runtime::{Ctx, Handler};
use atoll::{Error, Result};
use atoll_graph::{CsrMatrix, HittingMethod, LocalEntries};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// One locale's graphs.
#[derive(Default)]
struct Graphs(Mutex<HashMap<u64, Arc<CsrMatrix>>>);

fn graphs(ctx: &Ctx) -> Arc<Graphs> {
    ctx.locale_ext::<Graphs>()
}

pub(crate) fn graph(ctx: &Ctx, id: u64) -> Result<Arc<CsrMatrix>> {
    let g = graphs(ctx);
    let m = lock(&g.0);
    m.get(&id).cloned().ok_or_else(|| {
        Error::InvalidArgument(format!("no graph with id {id} (it was freed, or belongs to an earlier session)"))
    })
}

/// Where a graph comes from.
#[derive(Serialize, Deserialize)]
#[allow(missing_docs)]
pub enum Source {
    Mm(String),
    Kron { scale: u32, edge_factor: u64, seed: u64 },
    Fe { nx: usize, ny: usize, nz: usize, dof: usize },
    Edges { src: u64, dst: u64, n: usize, symmetric: bool },
}

fn edges_of(ctx: &Ctx, id: u64, what: &str) -> Result<Vec<u64>> {
    let c = Registry::of(ctx).get(id)?;
    let g = lock(&c);
    let v: Vec<i64> = match &*g {
        Col::I(a) => a.local().to_vec(),
        Col::U(a) => a.local().iter().map(|&x| x.min(i64::MAX as u64) as i64).collect(),
        _ => return Err(Error::InvalidArgument(format!("{what}: expected an int64 or uint64 pdarray"))),
    };
    let bad = v.iter().find(|&&x| x < 0).map(|&x| Error::IndexOutOfBounds {
        index: x.to_string(),
        bounds: format!("0.. ({what}: vertex ids are non-negative)"),
    });
    if let Some(e) = ctx.allgather(&bad)?.into_iter().flatten().next() {
        return Err(e);
    }
    Ok(v.into_iter().map(|x| x as u64).collect())
}

/// A new graph `id` from `src`.
#[derive(Serialize, Deserialize)]
pub struct BuildGraph {
    /// The new graph's id.
    pub id: u64,
    /// Where the graph comes from.
    pub src: Source,
}

fn build_cmd(ctx: &Ctx, BuildGraph { id, src }: BuildGraph) -> Result<(usize, u64)> {
    let m = match src {
        Source::Mm(path) => atoll_graph::read_matrix_market(ctx, path)?,
        Source::Kron { scale, edge_factor, seed } => atoll_graph::kronecker(ctx, scale, edge_factor, seed)?,
        Source::Fe { nx, ny, nz, dof } => atoll_graph::fe_banded(ctx, nx, ny, nz, dof)?,
        Source::Edges { src, dst, n, symmetric } => {
            let (s, d) = (edges_of(ctx, src, "src")?, edges_of(ctx, dst, "dst")?);
            let mut e = LocalEntries { rows: s, cols: d, vals: None };
            if symmetric {
                e.mirror_off_diagonal();
            }
            CsrMatrix::from_entries(ctx, n, n, e)?
        }
    };
    let nnz = m.nnz(ctx)?;
    let n = m.shape().0;
    if m.shape().0 != m.shape().1 {
        return Err(Error::ShapeMismatch {
            context: "ak.graph".into(),
            left: format!("a {} x {} matrix", m.shape().0, m.shape().1),
            right: "a square matrix (a graph)".into(),
        });
    }
    lock(&graphs(ctx).0).insert(id, Arc::new(m));
    Ok((n, nnz))
}

fn free_cmd(ctx: &Ctx, id: u64) -> Result<()> {
    lock(&graphs(ctx).0).remove(&id);
    Ok(())
}

/// An algorithm and its parameters.
#[derive(Serialize, Deserialize)]
#[allow(missing_docs)]
pub enum Algo {
    Lp { max_iters: usize },
    Cc,
    Bfs { source: u64 },
    Hitting { targets: Vec<u64>, tol: f64, max_iters: usize, jacobi: bool },
    PageRank { damping: f64, tol: f64, max_iters: usize },
}

/// (iterations, converged, residuals).
pub type Info = (usize, bool, Vec<f64>);

fn store_i64(ctx: &Ctx, out: u64, n: usize, v: Vec<i64>) -> Result<()> {
    let mut a = DistArray::<i64, 1>::zeros(ctx, dist::block(ctx, [n])?)?;
    a.local_mut().copy_from_slice(&v);
    ctx.barrier()?;
    Registry::of(ctx).insert(out, Col::I(a));
    Ok(())
}

fn store_f64(ctx: &Ctx, out: u64, n: usize, v: Vec<f64>) -> Result<()> {
    let mut a = DistArray::<f64, 1>::zeros(ctx, dist::block(ctx, [n])?)?;
    a.local_mut().copy_from_slice(&v);
    ctx.barrier()?;
    Registry::of(ctx).insert(out, Col::F(a));
    Ok(())
}

/// Algorithm `algo` on graph `id`, its result a new array `out`.
#[derive(Serialize, Deserialize)]
pub struct RunAlgo {
    /// The graph.
    pub id: u64,
    /// The new array's id.
    pub out: u64,
    /// The algorithm.
    pub algo: Algo,
}

fn run_algo_cmd(ctx: &Ctx, RunAlgo { id, out, algo }: RunAlgo) -> Result<Info> {
    let m = graph(ctx, id)?;
    let n = m.shape().0;
    Ok(match algo {
        Algo::Lp { max_iters } => {
            let l = atoll_graph::label_propagation(ctx, &m, None, max_iters)?;
            store_i64(ctx, out, n, l.labels.iter().map(|&x| x as i64).collect())?;
            (l.iters, l.converged, vec![])
        }
        Algo::Cc => {
            let l = atoll_graph::connected_components(ctx, &m)?;
            store_i64(ctx, out, n, l.labels.iter().map(|&x| x as i64).collect())?;
            (l.iters, l.converged, vec![])
        }
        Algo::Bfs { source } => {
            let (lv, k) = atoll_graph::bfs(ctx, &m, source)?;
            store_i64(ctx, out, n, lv)?;
            (k, true, vec![])
        }
        Algo::Hitting { targets, tol, max_iters, jacobi } => {
            let method = if jacobi { HittingMethod::Jacobi } else { HittingMethod::ConjugateGradient };
            let h = atoll_graph::hitting_times(ctx, &m, &targets, method, tol, max_iters)?;
            store_f64(ctx, out, n, h.times)?;
            (h.residuals.len(), h.converged, h.residuals)
        }
        Algo::PageRank { damping, tol, max_iters } => {
            let (x, it, conv) = atoll_graph::pagerank(ctx, &*m, damping, tol, max_iters)?;
            store_f64(ctx, out, n, x)?;
            (it, conv, vec![])
        }
    })
}

commands! {
    modules {
        pub mod share;
    }

    static BUILD: Handler<BuildGraph, (usize, u64)> = Handler::new("atoll-session::graph_build", build_cmd);

    static FREE: Handler<u64, ()> = Handler::new("atoll-session::graph_free", free_cmd);

    static RUN: Handler<RunAlgo, Info> = Handler::new("atoll-session::graph_run", run_algo_cmd);
}

/// A graph held by the locales.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GraphRef {
    /// The id in every locale's graph map.
    pub id: u64,
    /// The number of vertices.
    pub n: usize,
    /// The number of stored entries (directed edges; an undirected edge counts twice).
    pub nnz: u64,
    /// The session that built it.
    pub generation: u64,
}

impl GraphRef {
    /// Frees the graph on every locale, unless its session has ended. **Collective** (a
    /// command). Errors are dropped: this is what a handle's `Drop` calls.
    pub fn release(&self) {
        if self.generation != handles::generation() {
            return;
        }
        if let Some(s) = Session::running() {
            let _ = s.exec(&FREE, self.id);
        }
    }
}

/// Builds a graph. **Collective.**
///
/// # Errors
/// [`Error::InvalidArgument`] for edge arrays of different lengths, and the build's.
pub fn build(s: &Session, src: Source) -> Result<GraphRef> {
    let id = next_ids(1);
    let (n, nnz) = s.exec(&BUILD, BuildGraph { id, src })?;
    Ok(GraphRef { id, n, nnz, generation: s.generation() })
}

/// A graph of `n` vertices with edges `src[k] -> dst[k]` (and back when `symmetric`).
/// **Collective.**
pub fn from_edges(s: &Session, src: &Array, dst: &Array, n: usize, symmetric: bool) -> Result<GraphRef> {
    if src.len != dst.len {
        return Err(Error::InvalidArgument(format!("dst: src and dst differ in length ({} vs {})", src.len, dst.len)));
    }
    build(s, Source::Edges { src: src.id, dst: dst.id, n, symmetric })
}

/// Runs `algo` on `g`: its per-vertex result (of `dtype`) and (iterations, converged,
/// residuals). **Collective.**
pub fn run(s: &Session, g: &GraphRef, algo: Algo, dtype: DType) -> Result<(Array, Info)> {
    let mut info = None;
    let a = s.new_array(dtype, g.n, |out| {
        info = Some(s.exec(&RUN, RunAlgo { id: g.id, out, algo })?);
        Ok(())
    })?;
    Ok((a, info.unwrap_or((0, false, vec![]))))
}
