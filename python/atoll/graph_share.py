"""``ak.graph.share_edges``: approach 2 of the Chapel-Grafiki talk.

Atoll writes a graph's edge list into shared arrays that a separate process (Rust, Python, or
C/C++ through ``include/atoll.h``, e.g. ``examples/c/hitting_consumer``) attaches to by name
and computes on in place::

    import atoll as ak
    from atoll import share
    g = ak.graph.kronecker(scale=12, seed=1)
    e = ak.graph.share_edges(g, "g", targets=[0])      # g-rows, g-cols, g-vals, g-targets
    h = share.make("h", g.num_vertices, "float64")     # the consumer's output
    # run: hitting_consumer --edges g --targets g-targets --out h
    out = share.attach("h", writable=True)
    out.signal_post(0); out.signal_wait(1, timeout=60)  # go ... done: h holds the times
"""

from __future__ import annotations

import builtins
import os

import numpy as np
import numpy.typing as npt

from . import _atoll, share
from .graph import Graph, _graph
from .numpy.pdarrayclass import pdarray
from .numpy.pdarraycreation import array

__all__ = ["SharedEdges", "share_edges"]


class SharedEdges:
    """A graph's edge list in shared arrays, as ``share_edges`` makes it.

    The files go with the pdarrays unless kept (the frees of small pdarrays are batched:
    ``ak.get_mem_used()`` runs them).

    Parameters
    ----------
    prefix : str
        The shared arrays' names' prefix.
    dir : str
        The folder of their files.
    rows, cols : pdarray
        The entries' rows and columns (int64), blocks of the files ``PREFIX-rows`` and
        ``PREFIX-cols``.
    vals : pdarray
        The entries' weights (float64), ``PREFIX-vals``.
    targets : pdarray or None
        The target vertices (int64, ``PREFIX-targets``), if any.

    Examples
    --------
    >>> import atoll as ak
    >>> import os
    >>> g = ak.graph.from_edges(ak.array([0, 1]), ak.array([1, 2]), symmetric=True)
    >>> e = ak.graph.share_edges(g, f"doc-se-{os.getpid()}", targets=[2])
    >>> e.rows.size, e.targets.to_ndarray()
    (4, array([2]))
    """

    __slots__ = ("prefix", "dir", "rows", "cols", "vals", "targets")

    def __init__(
        self, prefix: str, dir: str, rows: pdarray, cols: pdarray, vals: pdarray, targets: pdarray | None
    ) -> None:
        self.prefix, self.dir = prefix, dir
        self.rows, self.cols, self.vals, self.targets = rows, cols, vals, targets

    @property
    def names(self) -> list[str]:
        """The shared arrays' names (rows, cols, vals[, targets])."""
        n = [f"{self.prefix}-rows", f"{self.prefix}-cols", f"{self.prefix}-vals"]
        return n + ([f"{self.prefix}-targets"] if self.targets is not None else [])

    def __repr__(self) -> str:
        return f"SharedEdges(prefix={self.prefix!r}, dir={self.dir!r}, num_entries={self.rows.size})"


def share_edges(
    g: Graph,
    prefix: str,
    targets: pdarray | npt.ArrayLike | None = None,
    dir: str | os.PathLike[str] = "/dev/shm",
    unit_weights: bool = False,
    keep: bool = False,
) -> SharedEdges:
    """Write graph ``g``'s entries into shared arrays that another process attaches by name.

    Each direction of an undirected edge is an entry, as stored.

    Parameters
    ----------
    g : Graph
        The graph.
    prefix : str
        The shared arrays' names are ``PREFIX-rows``, ``PREFIX-cols`` (int64), ``PREFIX-vals``
        (float64) and ``PREFIX-targets`` (int64).
    targets : pdarray or array_like of int, optional
        Vertex ids to write into ``PREFIX-targets``.
    dir : str or path, default '/dev/shm'
        The folder of the files.
    unit_weights : bool, default False
        Write 1 as every weight (the pattern as an unweighted graph) instead of the graph's.
    keep : bool, default False
        Keep the files when the pdarrays go.

    Returns
    -------
    SharedEdges
        The shared arrays as pdarrays.

    Raises
    ------
    OSError
        A file of those names exists.
    ValueError
        The prefix is not a valid name, or ``targets`` is empty.
    TypeError
        ``g`` is not a Graph, or the targets are not integers.
    IndexError
        A target is outside the graph.

    Examples
    --------
    >>> import atoll as ak
    >>> import os
    >>> from atoll import share
    >>> g = ak.graph.from_edges(ak.array([0, 1]), ak.array([1, 2]))
    >>> e = ak.graph.share_edges(g, f"doc-sh-{os.getpid()}", unit_weights=True)
    >>> e.names == [f"doc-sh-{os.getpid()}-{s}" for s in ("rows", "cols", "vals")]
    True
    >>> share.attach(e.names[2]).to_numpy()
    array([1., 1.])
    >>> ak.graph.share_edges(g, f"doc-sh2-{os.getpid()}", targets=[7])
    Traceback (most recent call last):
    ...
    IndexError: targets: vertex ids are in 0..3, got 7..7
    """
    gg = _graph(g)
    prefix, dir = str(prefix), os.fspath(dir)
    t = None
    if targets is not None:
        t = np.atleast_1d(np.asarray(targets.to_ndarray() if isinstance(targets, pdarray) else targets))
        if t.size == 0:
            raise ValueError("targets: the target set is empty")
        if t.dtype.kind not in "iu":
            raise TypeError(f"targets: expected integer vertex ids, got {t.dtype}")
        if (t < 0).any() or (t >= gg.num_vertices).any():
            raise IndexError(f"targets: vertex ids are in 0..{gg.num_vertices}, got {t.min()}..{t.max()}")
    r, c, v = _atoll.graph_share_edges(gg, prefix, dir, builtins.bool(unit_weights), builtins.bool(keep))
    rows, cols, vals = pdarray(r), pdarray(c), pdarray(v)
    tp = None
    if t is not None:
        tp = share.make(f"{prefix}-targets", builtins.int(t.size), "int64", dir=dir, keep=keep)
        tp[:] = array(t.astype(np.int64))
    return SharedEdges(prefix, dir, rows, cols, vals, tp)
