//! `ak.graph` (issue 19): graphs kept on every locale between commands (a per-locale map from
//! the id the Python `Graph` holds to the locale's `CsrMatrix`), built from a Matrix Market
//! file, a generator or two pdarrays of edges, and the algorithms of `atoll-graph`, whose
//! results become pdarrays (Block, aligned with the vertices).

use crate::registry::{lock, Col, Registry};
use crate::session::{exec, next_id};
use crate::types::DType;
use crate::{new_arr, Arr};
use atoll::array::{dist, DistArray};
use atoll::runtime::{Ctx, Handler};
use atoll::{Error, Result};
use atoll_graph::{CsrMatrix, HittingMethod, LocalEntries};
use pyo3::prelude::*;
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
    let m = g.0.lock().unwrap_or_else(|p| p.into_inner());
    m.get(&id).cloned().ok_or_else(|| {
        Error::InvalidArgument(format!("no graph with id {id} (it was freed, or belongs to an earlier session)"))
    })
}

/// Where a graph comes from.
#[derive(Serialize, Deserialize)]
enum Source {
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

fn build(ctx: &Ctx, (id, src): (u64, Source)) -> Result<(usize, u64)> {
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
    graphs(ctx).0.lock().unwrap_or_else(|p| p.into_inner()).insert(id, Arc::new(m));
    Ok((n, nnz))
}
static BUILD: Handler<(u64, Source), (usize, u64)> = Handler::new("atoll-python::graph_build", build);

fn free(ctx: &Ctx, id: u64) -> Result<()> {
    graphs(ctx).0.lock().unwrap_or_else(|p| p.into_inner()).remove(&id);
    Ok(())
}
static FREE: Handler<u64, ()> = Handler::new("atoll-python::graph_free", free);

/// An algorithm and its parameters.
#[derive(Serialize, Deserialize)]
enum Algo {
    Lp { max_iters: usize },
    Cc,
    Bfs { source: u64 },
    Hitting { targets: Vec<u64>, tol: f64, max_iters: usize, jacobi: bool },
    PageRank { damping: f64, tol: f64, max_iters: usize },
}

/// (iterations, converged, residuals).
type Info = (usize, bool, Vec<f64>);

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

fn run_algo(ctx: &Ctx, (id, out, algo): (u64, u64, Algo)) -> Result<Info> {
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
static RUN: Handler<(u64, u64, Algo), Info> = Handler::new("atoll-python::graph_run", run_algo);

/// Registers the graph commands (on every process, before the job starts).
pub fn register_all() {
    crate::graph_share::SHARE_EDGES.register();
    BUILD.register();
    FREE.register();
    RUN.register();
}

/// A graph held by the locales: freed on every locale when the last reference goes.
#[pyclass(module = "atoll._atoll", frozen)]
pub struct Graph {
    pub(crate) id: u64,
    n: usize,
    pub(crate) nnz: u64,
    generation: u64,
}

impl Drop for Graph {
    fn drop(&mut self) {
        if self.generation != crate::session::generation() {
            return;
        }
        Python::with_gil(|py| {
            let _ = exec(py, &FREE, self.id);
        });
    }
}

#[pymethods]
impl Graph {
    /// The number of vertices.
    #[getter]
    fn num_vertices(&self) -> usize {
        self.n
    }
    /// The number of stored entries (directed edges; an undirected edge counts twice).
    #[getter]
    fn num_entries(&self) -> u64 {
        self.nnz
    }
}

fn new_graph(py: Python<'_>, src: Source) -> PyResult<Graph> {
    let (_, generation) = crate::session::driver(py)?;
    let id = next_id();
    let (n, nnz) = exec(py, &BUILD, (id, src))?;
    Ok(Graph { id, n, nnz, generation })
}

/// A graph from a Matrix Market file (read in parallel by the locales).
#[pyfunction]
pub fn graph_read_matrix_market(py: Python<'_>, path: &str) -> PyResult<Graph> {
    new_graph(py, Source::Mm(path.to_string()))
}

/// The Kronecker (R-MAT, Graph500 parameters) graph.
#[pyfunction]
pub fn graph_kronecker(py: Python<'_>, scale: u32, edge_factor: u64, seed: u64) -> PyResult<Graph> {
    new_graph(py, Source::Kron { scale, edge_factor, seed })
}

/// The 3-D finite-element-like banded pattern.
#[pyfunction]
pub fn graph_fe_banded(py: Python<'_>, nx: usize, ny: usize, nz: usize, dof: usize) -> PyResult<Graph> {
    new_graph(py, Source::Fe { nx, ny, nz, dof })
}

/// A graph of `n` vertices with edges `src[k] -> dst[k]` (and back when `symmetric`).
#[pyfunction]
pub fn graph_from_edges(py: Python<'_>, src: &Arr, dst: &Arr, n: usize, symmetric: bool) -> PyResult<Graph> {
    if src.len != dst.len {
        return Err(crate::errors::value_err(
            "dst",
            format!("src and dst differ in length ({} vs {})", src.len, dst.len),
        ));
    }
    new_graph(py, Source::Edges { src: src.id, dst: dst.id, n, symmetric })
}

fn run_graph(py: Python<'_>, g: &Graph, algo: Algo, dtype: DType) -> PyResult<(Arr, usize, bool, Vec<f64>)> {
    let mut info = None;
    let arr = new_arr(py, dtype, g.n, |out| {
        info = Some(exec(py, &RUN, (g.id, out, algo))?);
        Ok(())
    })?;
    let (it, conv, res) = info.unwrap_or((0, false, vec![]));
    Ok((arr, it, conv, res))
}

/// Label propagation: (labels, iterations, converged).
#[pyfunction]
pub fn graph_label_propagation(py: Python<'_>, g: &Graph, max_iters: usize) -> PyResult<(Arr, usize, bool)> {
    let (a, it, c, _) = run_graph(py, g, Algo::Lp { max_iters }, DType::I64)?;
    Ok((a, it, c))
}

/// Connected components: (labels, rounds).
#[pyfunction]
pub fn graph_connected_components(py: Python<'_>, g: &Graph) -> PyResult<(Arr, usize)> {
    let (a, it, _, _) = run_graph(py, g, Algo::Cc, DType::I64)?;
    Ok((a, it))
}

/// BFS levels (-1 unreachable): (levels, number of levels).
#[pyfunction]
pub fn graph_bfs(py: Python<'_>, g: &Graph, source: u64) -> PyResult<(Arr, usize)> {
    let (a, it, _, _) = run_graph(py, g, Algo::Bfs { source }, DType::I64)?;
    Ok((a, it))
}

/// Hitting times: (times, residuals, converged).
#[pyfunction]
pub fn graph_hitting_times(
    py: Python<'_>,
    g: &Graph,
    targets: Vec<u64>,
    tol: f64,
    max_iters: usize,
    jacobi: bool,
) -> PyResult<(Arr, Vec<f64>, bool)> {
    let (a, _, c, r) = run_graph(py, g, Algo::Hitting { targets, tol, max_iters, jacobi }, DType::F64)?;
    Ok((a, r, c))
}

/// PageRank: (ranks, iterations, converged).
#[pyfunction]
pub fn graph_pagerank(
    py: Python<'_>,
    g: &Graph,
    damping: f64,
    tol: f64,
    max_iters: usize,
) -> PyResult<(Arr, usize, bool)> {
    let (a, it, c, _) = run_graph(py, g, Algo::PageRank { damping, tol, max_iters }, DType::F64)?;
    Ok((a, it, c))
}

/// Adds the graph class and functions to the module.
pub fn add_to(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Graph>()?;
    m.add_function(wrap_pyfunction!(graph_read_matrix_market, m)?)?;
    m.add_function(wrap_pyfunction!(graph_kronecker, m)?)?;
    m.add_function(wrap_pyfunction!(graph_fe_banded, m)?)?;
    m.add_function(wrap_pyfunction!(graph_from_edges, m)?)?;
    m.add_function(wrap_pyfunction!(graph_label_propagation, m)?)?;
    m.add_function(wrap_pyfunction!(graph_connected_components, m)?)?;
    m.add_function(wrap_pyfunction!(graph_bfs, m)?)?;
    m.add_function(wrap_pyfunction!(graph_hitting_times, m)?)?;
    m.add_function(wrap_pyfunction!(graph_pagerank, m)?)?;
    m.add_function(wrap_pyfunction!(crate::graph_share::graph_share_edges, m)?)?;
    Ok(())
}
