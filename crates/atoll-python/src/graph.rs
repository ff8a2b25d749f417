//! `ak.graph`: the `Graph` handle and the bindings of the session's graph commands.

use crate::arrays::Arr;
use crate::run;
use atoll_session::graph::{self as g, Algo, GraphRef, Source};
use atoll_session::DType;
use pyo3::prelude::*;

/// A graph held by the locales: freed on every locale when the last reference goes.
#[pyclass(module = "atoll._atoll", frozen)]
pub struct Graph(GraphRef);

impl Drop for Graph {
    fn drop(&mut self) {
        let r = self.0;
        Python::with_gil(|py| py.allow_threads(|| r.release()));
    }
}

#[pymethods]
impl Graph {
    /// The number of vertices.
    #[getter]
    fn num_vertices(&self) -> usize {
        self.0.n
    }
    /// The number of stored entries (directed edges; an undirected edge counts twice).
    #[getter]
    fn num_entries(&self) -> u64 {
        self.0.nnz
    }
}

/// A graph from a Matrix Market file (read in parallel by the locales).
#[pyfunction]
fn graph_read_matrix_market(py: Python<'_>, path: &str) -> PyResult<Graph> {
    run(py, |s| g::build(s, Source::Mm(path.to_string()))).map(Graph)
}

/// The Kronecker (R-MAT, Graph500 parameters) graph.
#[pyfunction]
fn graph_kronecker(py: Python<'_>, scale: u32, edge_factor: u64, seed: u64) -> PyResult<Graph> {
    run(py, |s| g::build(s, Source::Kron { scale, edge_factor, seed })).map(Graph)
}

/// The 3-D finite-element-like banded pattern.
#[pyfunction]
fn graph_fe_banded(py: Python<'_>, nx: usize, ny: usize, nz: usize, dof: usize) -> PyResult<Graph> {
    run(py, |s| g::build(s, Source::Fe { nx, ny, nz, dof })).map(Graph)
}

/// A graph of `n` vertices with edges `src[k] -> dst[k]` (and back when `symmetric`).
#[pyfunction]
fn graph_from_edges(py: Python<'_>, src: &Arr, dst: &Arr, n: usize, symmetric: bool) -> PyResult<Graph> {
    run(py, |s| g::from_edges(s, &src.0, &dst.0, n, symmetric)).map(Graph)
}

/// Label propagation: (labels, iterations, converged).
#[pyfunction]
fn graph_label_propagation(py: Python<'_>, gr: &Graph, max_iters: usize) -> PyResult<(Arr, usize, bool)> {
    let (a, (it, c, _)) = run(py, |s| g::run(s, &gr.0, Algo::Lp { max_iters }, DType::I64))?;
    Ok((Arr(a), it, c))
}

/// Connected components: (labels, rounds).
#[pyfunction]
fn graph_connected_components(py: Python<'_>, gr: &Graph) -> PyResult<(Arr, usize)> {
    let (a, (it, _, _)) = run(py, |s| g::run(s, &gr.0, Algo::Cc, DType::I64))?;
    Ok((Arr(a), it))
}

/// BFS levels (-1 unreachable): (levels, number of levels).
#[pyfunction]
fn graph_bfs(py: Python<'_>, gr: &Graph, source: u64) -> PyResult<(Arr, usize)> {
    let (a, (it, _, _)) = run(py, |s| g::run(s, &gr.0, Algo::Bfs { source }, DType::I64))?;
    Ok((Arr(a), it))
}

/// Hitting times: (times, residuals, converged).
#[pyfunction]
fn graph_hitting_times(
    py: Python<'_>,
    gr: &Graph,
    targets: Vec<u64>,
    tol: f64,
    max_iters: usize,
    jacobi: bool,
) -> PyResult<(Arr, Vec<f64>, bool)> {
    let algo = Algo::Hitting { targets, tol, max_iters, jacobi };
    let (a, (_, c, r)) = run(py, |s| g::run(s, &gr.0, algo, DType::F64))?;
    Ok((Arr(a), r, c))
}

/// PageRank: (ranks, iterations, converged).
#[pyfunction]
fn graph_pagerank(
    py: Python<'_>,
    gr: &Graph,
    damping: f64,
    tol: f64,
    max_iters: usize,
) -> PyResult<(Arr, usize, bool)> {
    let (a, (it, c, _)) = run(py, |s| g::run(s, &gr.0, Algo::PageRank { damping, tol, max_iters }, DType::F64))?;
    Ok((Arr(a), it, c))
}

/// Writes graph `gr`'s entries into the shared arrays `prefix-rows`, `prefix-cols` (int64) and
/// `prefix-vals` (float64; all 1 with `unit_weights`) in `dir`: the three pdarrays.
#[pyfunction]
fn graph_share_edges(
    py: Python<'_>,
    gr: &Graph,
    prefix: String,
    dir: String,
    unit_weights: bool,
    keep: bool,
) -> PyResult<(Arr, Arr, Arr)> {
    let (r, c, v) = run(py, |s| atoll_session::graph_share::share_edges(s, &gr.0, prefix, dir, unit_weights, keep))?;
    Ok((Arr(r), Arr(c), Arr(v)))
}

/// Adds the graph class and functions to the module.
pub(crate) fn add(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Graph>()?;
    for f in [
        wrap_pyfunction!(graph_read_matrix_market, m)?,
        wrap_pyfunction!(graph_kronecker, m)?,
        wrap_pyfunction!(graph_fe_banded, m)?,
        wrap_pyfunction!(graph_from_edges, m)?,
        wrap_pyfunction!(graph_label_propagation, m)?,
        wrap_pyfunction!(graph_connected_components, m)?,
        wrap_pyfunction!(graph_bfs, m)?,
        wrap_pyfunction!(graph_hitting_times, m)?,
        wrap_pyfunction!(graph_pagerank, m)?,
        wrap_pyfunction!(graph_share_edges, m)?,
    ] {
        m.add_function(f)?;
    }
    Ok(())
}
