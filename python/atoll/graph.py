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
import os

import numpy as np
import numpy.typing as npt

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
    """A graph held by the locales (freed when the last reference goes).

    Made by ``from_edges``, ``read_matrix_market``, ``kronecker`` or ``fe_banded``.

    Parameters
    ----------
    g : atoll._atoll.Graph
        The native graph.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.graph.from_edges(ak.array([0, 1]), ak.array([1, 2]))
    Graph(num_vertices=3, num_edges=2)
    """

    __slots__ = ("_g",)

    def __init__(self, g: _atoll.Graph) -> None:
        self._g = g

    @property
    def num_vertices(self) -> int:
        """The number of vertices."""
        return self._g.num_vertices

    @property
    def num_edges(self) -> int:
        """The number of stored (directed) entries; an undirected edge counts twice."""
        return self._g.num_entries

    def __repr__(self) -> str:
        return f"Graph(num_vertices={self.num_vertices}, num_edges={self.num_edges})"


def _graph(g: Graph, name: str = "g") -> _atoll.Graph:
    if not isinstance(g, Graph):
        raise TypeError(f"{name}: expected an ak.graph.Graph, got {type(g).__name__}")
    return g._g


def _count(v: object, name: str, minimum: int = 0) -> int:
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
        raise TypeError(f"{name}: expected an integer, got {type(v).__name__}")
    v = builtins.int(v)
    if v < minimum:
        raise ValueError(f"{name}: must be at least {minimum}, got {v}")
    return v


def read_matrix_market(path: str | os.PathLike[str]) -> Graph:
    r"""A graph from a Matrix Market coordinate file, read in parallel by the locales.

    Parameters
    ----------
    path : str or path
        The file: real, integer or pattern entries; general or symmetric.

    Returns
    -------
    Graph
        Its entries as edges (both directions of a symmetric file's).

    Raises
    ------
    ValueError
        The file is malformed (the message names the line).
    OSError
        The file is missing or unreadable.

    Examples
    --------
    >>> import atoll as ak
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "path.mtx")
    >>> with open(path, "w") as f:
    ...     _ = f.write("%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\n3 2\n")
    >>> ak.graph.read_matrix_market(path)
    Graph(num_vertices=3, num_edges=4)
    """
    return Graph(_atoll.graph_read_matrix_market(os.fspath(path)))


def kronecker(scale: int, edge_factor: int = 16, seed: int = 1) -> Graph:
    """The undirected Kronecker graph (R-MAT, Graph500 parameters).

    The same seed gives the same graph on any number of locales.

    Parameters
    ----------
    scale : int
        The graph has ``2**scale`` vertices.
    edge_factor : int, default 16
        ``edge_factor * 2**scale`` edges are generated (self loops and duplicates dropped).
    seed : int, default 1
        The generator's seed.

    Returns
    -------
    Graph
        The graph, each edge stored in both directions.

    Raises
    ------
    TypeError
        An argument is not an integer.
    ValueError
        An argument is negative.

    Examples
    --------
    >>> import atoll as ak
    >>> g = ak.graph.kronecker(4, seed=1)
    >>> g.num_vertices
    16
    >>> g.num_edges == ak.graph.kronecker(4, seed=1).num_edges
    True
    """
    return Graph(
        _atoll.graph_kronecker(_count(scale, "scale"), _count(edge_factor, "edge_factor"), _count(seed, "seed"))
    )


def fe_banded(nx: int, ny: int, nz: int, dof: int = 1) -> Graph:
    """A 3-D finite-element-like stiffness pattern.

    ``nx*ny*nz`` nodes with ``dof`` unknowns each, every node coupled to the 27 nodes around
    it (itself included); ``fe_banded(6, 11, 106, 2)`` is bcsstk29-sized.

    Parameters
    ----------
    nx, ny, nz : int
        The grid's nodes along each axis, at least 1.
    dof : int, default 1
        The unknowns per node, at least 1.

    Returns
    -------
    Graph
        ``nx*ny*nz*dof`` vertices.

    Raises
    ------
    TypeError
        An argument is not an integer.
    ValueError
        An argument is below 1.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.graph.fe_banded(2, 2, 2)
    Graph(num_vertices=8, num_edges=64)
    """
    return Graph(
        _atoll.graph_fe_banded(_count(nx, "nx", 1), _count(ny, "ny", 1), _count(nz, "nz", 1), _count(dof, "dof", 1))
    )


def from_edges(src: pdarray, dst: pdarray, num_vertices: int | None = None, symmetric: bool = False) -> Graph:
    """A graph with the edges ``src[k] -> dst[k]``.

    Parameters
    ----------
    src, dst : pdarray
        The edges' ends (int64 or uint64), of one length.
    num_vertices : int, optional
        One past the largest vertex id; by default one past the largest id given.
    symmetric : bool, default False
        Add the reverse of each edge (an undirected graph).

    Returns
    -------
    Graph
        The graph.

    Raises
    ------
    TypeError
        ``src`` or ``dst`` is not an integer pdarray.
    ValueError
        They differ in length.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.graph.from_edges(ak.array([0, 1]), ak.array([1, 2]), symmetric=True)
    Graph(num_vertices=3, num_edges=4)
    >>> ak.graph.from_edges(ak.array([0]), ak.array([1]), num_vertices=10).num_vertices
    10
    """
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


def label_propagation(g: Graph, max_iters: int = 100, return_info: bool = False) -> pdarray | tuple[pdarray, int, bool]:
    """Synchronous label propagation.

    Each vertex starts with its own id as its label and takes, in each round, the most
    frequent label among its neighbours (ties to the smallest; self loops do not vote), until
    no label changes or ``max_iters`` rounds.

    Parameters
    ----------
    g : Graph
        The graph.
    max_iters : int, default 100
        The most rounds.
    return_info : bool, default False
        Also give the rounds run and whether the labels settled.

    Returns
    -------
    pdarray or tuple
        The labels (int64), or ``(labels, iters, converged)`` with ``return_info``.

    Raises
    ------
    TypeError
        ``g`` is not a Graph.

    Examples
    --------
    Two triangles:

    >>> import atoll as ak

    >>> g = ak.graph.from_edges(ak.array([0, 1, 2, 3, 4, 5]), ak.array([1, 2, 0, 4, 5, 3]), symmetric=True)
    >>> labels, iters, converged = ak.graph.label_propagation(g, return_info=True)
    >>> labels, converged
    (array([0 0 0 3 3 3]), True)
    """
    a, it, conv = _atoll.graph_label_propagation(_graph(g), _count(max_iters, "max_iters"))
    return (pdarray(a), it, conv) if return_info else pdarray(a)


def connected_components(g: Graph) -> pdarray:
    """The connected components of an undirected graph.

    Parameters
    ----------
    g : Graph
        The graph, each edge in both directions.

    Returns
    -------
    pdarray
        Each vertex's label: the smallest vertex id of its component (int64).

    Raises
    ------
    TypeError
        ``g`` is not a Graph.

    Examples
    --------
    >>> import atoll as ak
    >>> g = ak.graph.from_edges(ak.array([0, 1, 3]), ak.array([1, 2, 4]), symmetric=True)
    >>> ak.graph.connected_components(g)
    array([0 0 0 3 3])
    """
    a, _ = _atoll.graph_connected_components(_graph(g))
    return pdarray(a)


def bfs(g: Graph, source: int) -> pdarray:
    """Breadth-first levels from ``source``.

    Parameters
    ----------
    g : Graph
        The graph.
    source : int
        The vertex to start from.

    Returns
    -------
    pdarray
        Each vertex's distance in edges from ``source`` (int64; -1 where unreachable).

    Raises
    ------
    TypeError
        ``g`` is not a Graph, or ``source`` not an integer.

    Examples
    --------
    >>> import atoll as ak
    >>> g = ak.graph.from_edges(ak.array([0, 1, 3]), ak.array([1, 2, 4]), symmetric=True)
    >>> ak.graph.bfs(g, 0)
    array([ 0  1  2 -1 -1])
    """
    a, _ = _atoll.graph_bfs(_graph(g), _count(source, "source"))
    return pdarray(a)


def hitting_times(
    g: Graph,
    targets: pdarray | npt.ArrayLike,
    tol: float = 1e-8,
    max_iters: int = 10_000,
    method: str = "cg",
    return_residuals: bool = False,
) -> pdarray | tuple[pdarray, list[float], bool]:
    """The expected steps of a random walk from each vertex to reach ``targets``.

    Solved iteratively with sparse matrix-vector products: conjugate gradients preconditioned
    by the degrees (``method="cg"``, undirected graphs) or the fixed-point iteration
    (``"jacobi"``).

    Parameters
    ----------
    g : Graph
        The graph.
    targets : pdarray or array_like of int
        The target vertices.
    tol : float, default 1e-8
        The residual at which the iteration stops.
    max_iters : int, default 10000
        The most iterations.
    method : {'cg', 'jacobi'}, default 'cg'
        The solver.
    return_residuals : bool, default False
        Also give each iteration's residual and whether the solver converged.

    Returns
    -------
    pdarray or tuple
        The times (float64; 0 on targets, ``inf`` where no target is reachable), or
        ``(times, residuals, converged)`` with ``return_residuals``.

    Raises
    ------
    ValueError
        ``method`` is neither ``'cg'`` nor ``'jacobi'``.
    TypeError
        The targets are not integers.
    IndexError
        A target is negative.

    Examples
    --------
    >>> import atoll as ak
    >>> g = ak.graph.from_edges(ak.array([0, 1, 3]), ak.array([1, 2, 4]), symmetric=True)
    >>> ak.graph.hitting_times(g, targets=[2])
    array([ 4.  3.  0. inf inf])
    """
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


def pagerank(g: Graph, damping: float = 0.85, tol: float = 1e-10, max_iters: int = 1000) -> pdarray:
    """PageRank by power iteration.

    Row ``i``'s entries are ``i``'s out-links; vertices without out-links spread their rank
    evenly.

    Parameters
    ----------
    g : Graph
        The graph.
    damping : float, default 0.85
        The probability of following a link, in [0, 1).
    tol : float, default 1e-10
        The change of the ranks (1-norm) at which the iteration stops.
    max_iters : int, default 1000
        The most iterations.

    Returns
    -------
    pdarray
        The ranks (float64), summing to 1.

    Raises
    ------
    ValueError
        ``damping`` is outside [0, 1).

    Examples
    --------
    >>> import atoll as ak
    >>> import numpy as np
    >>> g = ak.graph.from_edges(ak.array([0, 1, 2]), ak.array([1, 2, 0]))
    >>> r = ak.graph.pagerank(g)
    >>> bool(np.allclose(r.to_ndarray(), 1 / 3))
    True
    """
    d = builtins.float(damping)
    if not 0.0 <= d < 1.0:
        raise ValueError(f"damping: must be in [0, 1), got {d}")
    a, _, _ = _atoll.graph_pagerank(_graph(g), d, builtins.float(tol), _count(max_iters, "max_iters"))
    return pdarray(a)
