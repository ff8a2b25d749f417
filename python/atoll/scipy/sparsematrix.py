"""Arkouda's sparse matrix operations (``arkouda.scipy.sparsematrix``).

The matrices are ``sparray`` (``atoll.scipy.sparrayclass``): entries with 1-based indices, kept
as distributed pdarrays. Every operation here is made of whole-array operations (sorts,
gathers, scans, GroupBy), so it runs distributed at any locale count.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..numpy.dtypes import int64
from ..numpy.numeric import cast as _cast
from ..numpy.pdarrayclass import cumsum, pdarray, sum as _sum
from ..numpy.pdarraycreation import arange, uniform, zeros
from ..numpy.sorting import coargsort, searchsorted
from ..pandas.groupbyclass import GroupBy, broadcast
from .sparrayclass import check_dtype, check_layout, create_sparray, sparray

__all__ = ["random_sparse_matrix", "sparse_matrix_matrix_mult", "create_sparse_matrix"]


def random_sparse_matrix(size: int, density: float, layout: str, dtype: Any = int64) -> sparray:  # noqa: ANN401 (a dtype-like)
    """A ``size`` by ``size`` matrix in which each entry is stored with probability ``density``.

    The stored entries hold zeros (``sparray.fill_vals`` sets them).

    Parameters
    ----------
    size : int
        The number of rows and of columns.
    density : float
        The probability, in [0, 1], that an entry is stored.
    layout : str
        ``"CSR"`` or ``"CSC"``.
    dtype : type or str, default int64
        The value type: int64, uint64, float64 or bool.

    Returns
    -------
    sparray
        The matrix.

    Raises
    ------
    ValueError
        ``density`` is out of [0, 1], ``size`` is negative, or ``layout`` is neither layout.
    TypeError
        ``dtype`` is another type.

    Examples
    --------
    >>> from atoll.scipy import random_sparse_matrix
    >>> m = random_sparse_matrix(3, 1.0, "CSR")
    >>> m.nnz, m.layout
    (9, 'CSR')
    >>> m.to_pdarray()[:2]
    [array([1 1 1 2 2 2 3 3 3]), array([1 2 3 1 2 3 1 2 3])]
    >>> random_sparse_matrix(100, 0.0, "CSC").nnz
    0
    """
    if not 0.0 <= density <= 1.0:
        raise ValueError("density must be in the range [0,1]")
    check_layout(layout)
    dt = check_dtype(dtype)
    n = int(size)
    if n < 0:
        raise ValueError(f"size must not be negative, got {size}")
    # One draw per entry, in the layout's order (flat index major * n + minor), so the stored
    # entries come out sorted.
    if density >= 1.0:
        flat = arange(n * n)
    else:
        flat = arange(n * n)[uniform(n * n) < density]
    major, minor = flat // n + 1, flat % n + 1
    rows, cols = (major, minor) if layout == "CSR" else (minor, major)
    return sparray(rows, cols, zeros(flat.size, dt), (n, n), layout)


def sparse_matrix_matrix_mult(A: sparray, B: sparray) -> sparray:
    """The matrix product ``A @ B``, in the CSR layout.

    Each stored entry ``(i, k)`` of ``A`` meets each stored entry ``(k, j)`` of ``B``; the
    nonzero products are summed per ``(i, j)``, and the pairs with a nonzero product are the
    stored entries of the result.

    Parameters
    ----------
    A : sparray
        The left matrix.
    B : sparray
        The right matrix, of A's dtype, with as many rows as A has columns.

    Returns
    -------
    sparray
        The product, CSR.

    Raises
    ------
    TypeError
        ``A`` or ``B`` is not a sparray.
    ValueError
        Their dtypes differ, or their shapes do not chain.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.scipy import create_sparse_matrix, sparse_matrix_matrix_mult
    >>> a = create_sparse_matrix(2, ak.array([1, 2]), ak.array([2, 1]), ak.array([3, 4]), "CSC")
    >>> b = create_sparse_matrix(2, ak.array([1, 2, 2]), ak.array([1, 1, 2]), ak.array([5, 6, 7]), "CSR")
    >>> sparse_matrix_matrix_mult(a, b).to_pdarray()
    [array([1 1 2]), array([1 2 1]), array([18 21 20])]
    """
    if not (isinstance(A, sparray) and isinstance(B, sparray)):
        raise TypeError("A and B must be sparrays for sparse_matrix_matrix_mult")
    if A.dtype != B.dtype:
        raise ValueError("A and B must have the same dtype for sparse matrix multiplication")
    if A.shape[1] != B.shape[0]:
        raise ValueError(f"shapes {A.shape} and {B.shape} not aligned: {A.shape[1]} (dim 1) != {B.shape[0]} (dim 0)")
    nr, k, nc = A.shape[0], A.shape[1], B.shape[1]
    ra, ca, va = A._rows, A._cols, A._vals
    # B's entries by row: the entries of row r are rb[start[r]:start[r + 1]].
    if B.layout == "CSR":
        rb, cb, vb = B._rows, B._cols, B._vals
    else:
        perm = coargsort([B._rows, B._cols])
        rb, cb, vb = B._rows[perm], B._cols[perm], B._vals[perm]
    start = searchsorted(rb, arange(k + 2))
    count = start[1:] - start[:-1]
    # One product per pair (entry of A, entry of B in the row of A's column).
    per_a = count[ca]
    total = int(_sum(per_a)) if per_a.size else 0
    if total == 0:
        return _empty(nr, nc, A.dtype)
    first = cumsum(per_a) - per_a
    has = per_a > 0
    which_a = broadcast(first[has], arange(ra.size)[has], total)
    which_b = start[ca][which_a] + (arange(total) - first[which_a])
    prod = va[which_a] * vb[which_b] if A.dtype != np.bool_ else va[which_a] & vb[which_b]
    kept = prod != 0
    if not bool(kept.any()):
        return _empty(nr, nc, A.dtype)
    pr, pc, pv = ra[which_a][kept], cb[which_b][kept], prod[kept]
    # Sum per (row, column): one int64 key, row-major, so the distinct keys come out in CSR order.
    key = (pr - 1) * nc + (pc - 1)
    ukey, sums = GroupBy(key).sum(pv)
    if A.dtype == np.bool_:
        sums = sums != 0
    elif np.dtype(sums.dtype) != A.dtype:
        sums = _cast(sums, A.dtype)
    return sparray(ukey // nc + 1, ukey % nc + 1, sums, (nr, nc), "CSR")


def _empty(nr: int, nc: int, dt: np.dtype[Any]) -> sparray:
    """A CSR matrix of shape ``(nr, nc)`` with no stored entry."""
    return sparray(zeros(0, int64), zeros(0, int64), zeros(0, dt), (nr, nc), "CSR")


def create_sparse_matrix(size: int, rows: pdarray, cols: pdarray, vals: pdarray, layout: str) -> sparray:
    """A ``size`` by ``size`` matrix with the given entries (1-based indices).

    The entries may come in any order: the matrix keeps them in its layout's order.

    Parameters
    ----------
    size : int
        The number of rows and of columns.
    rows : pdarray
        The row index of each entry, int64 in ``1..size``.
    cols : pdarray
        The column index of each entry, int64 in ``1..size``.
    vals : pdarray
        The value of each entry: int64, uint64, float64 or bool.
    layout : str
        ``"CSR"`` or ``"CSC"``.

    Returns
    -------
    sparray
        The matrix.

    Raises
    ------
    TypeError
        An argument is not a pdarray, or ``vals`` is of another dtype.
    ValueError
        The arrays are not 1-D or differ in size, the indices are not int64 or are out of
        ``1..size``, an index pair repeats, or ``layout`` is neither layout.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.scipy import create_sparse_matrix
    >>> m = create_sparse_matrix(4, ak.array([3, 1, 3]), ak.array([2, 4, 1]), ak.array([7, 8, 9]), "CSR")
    >>> m.to_pdarray()
    [array([1 3 3]), array([4 1 2]), array([8 9 7])]
    """
    return create_sparray(rows, cols, vals, (int(size), int(size)), layout)
