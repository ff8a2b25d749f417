"""Arkouda's ``arkouda.scipy``: statistics of pdarrays, SciPy's special functions, sparse matrices.

The submodules: ``_stats_py`` (``chisquare``, ``power_divergence``), ``special`` (``xlogy``),
``stats`` (SciPy's ``chi2``), ``sparrayclass`` (``sparray``) and ``sparsematrix`` (creation and
products of sparse matrices).
"""

from __future__ import annotations

from . import special, stats
from ._stats_py import Power_divergenceResult, chisquare, power_divergence
from .sparrayclass import create_sparray, sparray
from .sparsematrix import create_sparse_matrix, random_sparse_matrix, sparse_matrix_matrix_mult

__all__ = [
    "chisquare",
    "power_divergence",
    "Power_divergenceResult",
    "create_sparray",
    "sparray",
    "create_sparse_matrix",
    "random_sparse_matrix",
    "sparse_matrix_matrix_mult",
    "special",
    "stats",
]
