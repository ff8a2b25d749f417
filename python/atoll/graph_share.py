"""``ak.graph.share_edges``: approach 2 of the Chapel-Grafiki talk. Atoll writes a graph's
edge list into shared arrays that a separate process (Rust, Python, or C/C++ through
``include/atoll.h``, e.g. ``examples/c/hitting_consumer``) attaches to by name and computes on
in place::

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

from . import _atoll, share
from .graph import _graph
from .numpy.pdarrayclass import pdarray
from .numpy.pdarraycreation import array

__all__ = ["SharedEdges", "share_edges"]


class SharedEdges:
    """A graph's edge list in shared arrays: ``rows``, ``cols`` (int64) and ``vals`` (float64)
    pdarrays whose blocks are the files ``PREFIX-rows``, ``PREFIX-cols`` and ``PREFIX-vals``,
    and ``targets`` (int64, ``PREFIX-targets``) or ``None``. The files go with the pdarrays
    unless kept (the frees of small pdarrays are batched: ``ak.get_mem_used()`` runs them)."""

    __slots__ = ("prefix", "dir", "rows", "cols", "vals", "targets")

    def __init__(self, prefix, dir, rows, cols, vals, targets):
        self.prefix, self.dir = prefix, dir
        self.rows, self.cols, self.vals, self.targets = rows, cols, vals, targets

    @property
    def names(self):
        """The shared arrays' names (rows, cols, vals[, targets])."""
        n = [f"{self.prefix}-rows", f"{self.prefix}-cols", f"{self.prefix}-vals"]
        return n + ([f"{self.prefix}-targets"] if self.targets is not None else [])

    def __repr__(self):
        return f"SharedEdges(prefix={self.prefix!r}, dir={self.dir!r}, num_entries={self.rows.size})"


def share_edges(g, prefix, targets=None, dir="/dev/shm", unit_weights=False, keep=False) -> SharedEdges:
    """Writes graph ``g``'s entries (each direction of an undirected edge, as stored) into the
    shared arrays ``PREFIX-rows``, ``PREFIX-cols`` (int64) and ``PREFIX-vals`` (float64: the
    graph's weights, or 1 everywhere with ``unit_weights``, the pattern as an unweighted graph)
    in ``dir``, and ``targets`` (vertex ids) into ``PREFIX-targets``. Existing files of those
    names raise ``OSError``; a bad prefix ``ValueError``; ids outside the graph
    ``IndexError``."""

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
