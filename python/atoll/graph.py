"""``ak.graph``: graph analytics on distributed sparse matrices.

Graphs live on the locales (a row-Block-distributed CSR matrix; vertex ``i``'s neighbours are
the columns of row ``i``); results are pdarrays aligned with the vertices::

    import atoll as ak
    g = ak.graph.kronecker(scale=10, seed=1)          # or ak.graph.read_matrix_market(path)
    labels = ak.graph.connected_components(g)
    h = ak.graph.hitting_times(g, targets=[0])
"""

from __future__ import annotations

import builtins

import numpy as np

from . import _atoll
from .numpy.pdarrayclass import pdarray

__all__ = [
    "Graph",
    "read_matrix_market",
    "kronecker",
    "fe_banded",
    "from_edges",
    "label_propagation",
    "connected_components",
    "hitting_times",
    "pagerank",
    "bfs",
    "share_edges",  # noqa: F822  (atoll.graph_share builds on this module; the root sets both)
    "SharedEdges",  # noqa: F822
]


class Graph:
    """A graph held by the locales (freed when the last reference goes)."""

    __slots__ = ("_g",)

    def __init__(self, g):
        self._g = g

    @property
    def num_vertices(self) -> int:
        """The number of vertices."""
        return self._g.num_vertices

    @property
    def num_edges(self) -> int:
        """The number of stored (directed) entries; an undirected edge counts twice."""
        return self._g.num_entries

    def __repr__(self):
        return f"Graph(num_vertices={self.num_vertices}, num_edges={self.num_edges})"


def _graph(g, name="g"):
    if not isinstance(g, Graph):
        raise TypeError(f"{name}: expected an ak.graph.Graph, got {type(g).__name__}")
    return g._g


def _count(v, name, minimum=0):
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
        raise TypeError(f"{name}: expected an integer, got {type(v).__name__}")
    v = builtins.int(v)
    if v < minimum:
        raise ValueError(f"{name}: must be at least {minimum}, got {v}")
    return v


def read_matrix_market(path) -> Graph:
    """A graph from a Matrix Market coordinate file (real, integer or pattern; general or
    symmetric), read in parallel by the locales. A malformed file raises ``ValueError`` naming
    the line; a missing one ``OSError``."""
    import os

    return Graph(_atoll.graph_read_matrix_market(os.fspath(path)))


def kronecker(scale, edge_factor=16, seed=1) -> Graph:
    """The undirected Kronecker (R-MAT, Graph500 parameters) graph of ``2**scale`` vertices and
    ``edge_factor * 2**scale`` generated edges (self loops and duplicates dropped). The same
    seed gives the same graph on any number of locales."""
    return Graph(
        _atoll.graph_kronecker(_count(scale, "scale"), _count(edge_factor, "edge_factor"), _count(seed, "seed"))
    )


def fe_banded(nx, ny, nz, dof=1) -> Graph:
    """A 3-D finite-element-like stiffness pattern: ``nx*ny*nz`` nodes with ``dof`` unknowns,
    each coupled to the 27 nodes around it (``fe_banded(6, 11, 106, 2)`` is bcsstk29-sized)."""
    return Graph(
        _atoll.graph_fe_banded(_count(nx, "nx", 1), _count(ny, "ny", 1), _count(nz, "nz", 1), _count(dof, "dof", 1))
    )


def from_edges(src, dst, num_vertices=None, symmetric=False) -> Graph:
    """A graph with edges ``src[k] -> dst[k]`` (int64 pdarrays; ``symmetric`` adds the reverse
    edges). ``num_vertices`` defaults to one past the largest id."""
    for name, a in (("src", src), ("dst", dst)):
        if not isinstance(a, pdarray):
            raise TypeError(f"{name}: expected a pdarray, got {type(a).__name__}")
        if a.dtype not in (np.dtype("int64"), np.dtype("uint64")):
            raise TypeError(f"{name}: expected an int64 or uint64 pdarray, got {a.dtype}")
    if src.size != dst.size:
        raise ValueError(f"dst: src and dst differ in length ({src.size} vs {dst.size})")
    if num_vertices is None:
        num_vertices = 0 if src.size == 0 else builtins.int(builtins.max(src.max(), dst.max())) + 1
    return Graph(
        _atoll.graph_from_edges(
            src._whole(), dst._whole(), _count(num_vertices, "num_vertices"), builtins.bool(symmetric)
        )
    )


def label_propagation(g, max_iters=100, return_info=False):
    """Synchronous label propagation: each vertex takes the most frequent label among its
    neighbours (ties to the smallest; self loops do not vote), starting from its own id, until
    no label changes or ``max_iters``. Returns the labels (int64), or ``(labels, iters,
    converged)`` with ``return_info``."""
    a, it, conv = _atoll.graph_label_propagation(_graph(g), _count(max_iters, "max_iters"))
    return (pdarray(a), it, conv) if return_info else pdarray(a)


def connected_components(g):
    """Connected components of an undirected graph: each vertex's label is the smallest vertex
    id of its component (int64)."""
    a, _ = _atoll.graph_connected_components(_graph(g))
    return pdarray(a)


def bfs(g, source):
    """Breadth-first levels from ``source`` (int64; -1 where unreachable)."""
    a, _ = _atoll.graph_bfs(_graph(g), _count(source, "source"))
    return pdarray(a)


def hitting_times(g, targets, tol=1e-8, max_iters=10_000, method="cg", return_residuals=False):
    """Expected steps of a random walk to reach ``targets`` (0 on targets, ``inf`` where no
    target is reachable), solved iteratively with sparse matrix-vector products: conjugate
    gradients preconditioned by the degrees (``method="cg"``, undirected graphs) or the
    fixed-point iteration (``"jacobi"``). With ``return_residuals``: ``(times, residuals,
    converged)``."""
    if method not in ("cg", "jacobi"):
        raise ValueError(f"method: expected 'cg' or 'jacobi', got {method!r}")
    t = np.atleast_1d(np.asarray(targets.to_ndarray() if isinstance(targets, pdarray) else targets))
    if t.size and t.dtype.kind not in "iu":
        raise TypeError(f"targets: expected integer vertex ids, got {t.dtype}")
    if t.size and (t < 0).any():
        raise IndexError(f"targets: vertex ids are non-negative, got {t.min()}")
    a, res, conv = _atoll.graph_hitting_times(
        _graph(g), [builtins.int(x) for x in t], builtins.float(tol), _count(max_iters, "max_iters"), method == "jacobi"
    )
    return (pdarray(a), res, conv) if return_residuals else pdarray(a)


def pagerank(g, damping=0.85, tol=1e-10, max_iters=1000):
    """PageRank by power iteration (row ``i``'s entries are ``i``'s out-links; vertices without
    out-links spread their rank evenly); the ranks sum to 1 (float64)."""
    d = builtins.float(damping)
    if not 0.0 <= d < 1.0:
        raise ValueError(f"damping: must be in [0, 1), got {d}")
    a, _, _ = _atoll.graph_pagerank(_graph(g), d, builtins.float(tol), _count(max_iters, "max_iters"))
    return pdarray(a)
