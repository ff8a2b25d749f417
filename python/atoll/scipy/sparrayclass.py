"""Arkouda's sparse matrices (``arkouda.scipy.sparrayclass``): the class ``sparray``.

A sparray is a square 2-D matrix of which only the stored entries are kept, as three
distributed pdarrays: the row indices, the column indices and the values of its entries, in
the order of its layout: ``"CSR"`` is row-major (by row, then column), ``"CSC"`` column-major
(by column, then row). Indices are 1-based, as Arkouda's: a matrix of size ``n`` has rows and
columns ``1..n``. An entry stays stored when its value is zero.
"""

from __future__ import annotations

import builtins
import itertools
from typing import Any

import numpy as np

from ..numpy.dtypes import ak_dtype, int64
from ..numpy.numeric import cast as _cast
from ..numpy.pdarrayclass import any as _any, pdarray
from ..numpy.sorting import coargsort

__all__ = ["sparray", "create_sparray", "LAYOUTS"]

# The layouts of a sparray: row-major and column-major order of its entries.
LAYOUTS = ("CSR", "CSC")

# The element types a sparray holds.
_DTYPES = (np.dtype(np.int64), np.dtype(np.uint64), np.dtype(np.float64), np.dtype(np.bool_))

_names = itertools.count()


def check_layout(layout: object) -> str:
    """``layout`` when it is ``"CSR"`` or ``"CSC"``.

    Parameters
    ----------
    layout : object
        The layout to check.

    Returns
    -------
    str
        ``layout``.

    Raises
    ------
    ValueError
        ``layout`` is neither.

    Examples
    --------
    >>> from atoll.scipy.sparrayclass import check_layout
    >>> check_layout("CSC")
    'CSC'
    """
    if not isinstance(layout, str) or layout not in LAYOUTS:
        raise ValueError(f"layout must be 'CSR' or 'CSC', got {layout!r}")
    return layout


def check_dtype(dt: object) -> np.dtype[Any]:
    """The element type ``dt`` names, when a sparray can hold it.

    Parameters
    ----------
    dt : type, str or numpy.dtype
        The element type: int64, uint64, float64 or bool.

    Returns
    -------
    numpy.dtype
        Its NumPy dtype.

    Raises
    ------
    TypeError
        ``dt`` is another type.

    Examples
    --------
    >>> from atoll.scipy.sparrayclass import check_dtype
    >>> check_dtype("float64")
    dtype('float64')
    """
    try:
        d = ak_dtype(dt)
    except (TypeError, ValueError) as e:
        raise TypeError(f"unsupported dtype {dt!r}") from e
    if not isinstance(d, np.dtype) or d not in _DTYPES:
        raise TypeError(f"unsupported dtype {dt!r}: a sparse matrix holds int64, uint64, float64 or bool")
    return d


class sparray:
    """A sparse square matrix: the indices and values of its stored entries as pdarrays.

    Made by ``create_sparse_matrix``, ``random_sparse_matrix``, ``sparse_matrix_matrix_mult``
    or ``create_sparray``, not by calling the class.

    Parameters
    ----------
    rows : pdarray
        The 1-based row index of each entry (int64), in the layout's order.
    cols : pdarray
        The 1-based column index of each entry (int64), in the layout's order.
    vals : pdarray
        The value of each entry.
    shape : tuple of int
        The numbers of rows and columns.
    layout : str
        ``"CSR"`` (entries by row, then column) or ``"CSC"`` (by column, then row).

    Attributes
    ----------
    name : str
        An identifier of the matrix.
    dtype : numpy.dtype
        The type of its values.
    size : int
        The number of rows.
    nnz : int
        The number of stored entries.
    ndim : int
        2.
    shape : tuple of int
        The numbers of rows and columns.
    layout : str
        ``"CSR"`` or ``"CSC"``.
    itemsize : int
        The size of a value in bytes.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.scipy import create_sparse_matrix
    >>> m = create_sparse_matrix(3, ak.array([2, 1]), ak.array([1, 3]), ak.array([5, 7]), "CSR")
    >>> m
    sparray(shape=(3, 3), layout='CSR', nnz=2, dtype=int64)
    >>> m.to_pdarray()
    [array([1 2]), array([3 1]), array([7 5])]
    """

    name: str
    dtype: np.dtype[Any]
    size: int
    nnz: int
    ndim: int
    shape: tuple[int, int]
    layout: str
    itemsize: int
    # The entries' pdarrays (pdarray's indexing is attached to the class, out of mypy's view).
    _rows: Any
    _cols: Any
    _vals: Any

    def __init__(self, rows: pdarray, cols: pdarray, vals: pdarray, shape: tuple[int, int], layout: str) -> None:
        self._rows = rows
        self._cols = cols
        self._vals = vals
        self.name = f"sparray_{next(_names)}"
        self.dtype = np.dtype(vals.dtype)
        self.shape = (int(shape[0]), int(shape[1]))
        self.size = self.shape[0]
        self.nnz = int(vals.size)
        self.ndim = 2
        self.layout = layout
        self.itemsize = self.dtype.itemsize

    def __repr__(self) -> str:
        """The matrix's shape, layout, number of entries and value type.

        Returns
        -------
        str
            ``sparray(shape=..., layout=..., nnz=..., dtype=...)``.

        Examples
        --------
        >>> from atoll.scipy import random_sparse_matrix
        >>> random_sparse_matrix(4, 1.0, "CSC")
        sparray(shape=(4, 4), layout='CSC', nnz=16, dtype=int64)
        """
        return f"sparray(shape={self.shape}, layout={self.layout!r}, nnz={self.nnz}, dtype={self.dtype})"

    __str__ = __repr__

    def __len__(self) -> int:
        """The number of stored entries.

        Returns
        -------
        int
            ``nnz``.

        Examples
        --------
        >>> from atoll.scipy import random_sparse_matrix
        >>> len(random_sparse_matrix(3, 1.0, "CSR"))
        9
        """
        return self.nnz

    def __bool__(self) -> builtins.bool:
        """The truth of a 1-by-1 matrix's entry.

        Returns
        -------
        bool
            Whether its one stored value is nonzero (False when none is stored).

        Raises
        ------
        ValueError
            The matrix has more than one row.

        Examples
        --------
        >>> import atoll as ak
        >>> from atoll.scipy import create_sparse_matrix
        >>> bool(create_sparse_matrix(1, ak.array([1]), ak.array([1]), ak.array([4]), "CSR"))
        True
        """
        if self.size != 1:
            raise ValueError(
                "The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()"
            )
        return self.nnz > 0 and builtins.bool(_any(self._vals != 0))

    def __getitem__(self, key: object) -> None:
        """Not supported: a sparray is read whole with ``to_pdarray``.

        Parameters
        ----------
        key : object
            Any key.

        Raises
        ------
        NotImplementedError
            Always.

        Examples
        --------
        >>> from atoll.scipy import random_sparse_matrix
        >>> random_sparse_matrix(2, 1.0, "CSR")[0]
        Traceback (most recent call last):
        ...
        NotImplementedError: sparray does not support __getitem__
        """
        raise NotImplementedError("sparray does not support __getitem__")

    def to_pdarray(self) -> list[pdarray]:
        """The row indices, column indices and values of the stored entries, in the layout's order.

        Returns
        -------
        list of pdarray
            ``[rows, cols, vals]``, new arrays (1-based int64 indices).

        Examples
        --------
        >>> from atoll.scipy import random_sparse_matrix
        >>> random_sparse_matrix(2, 1.0, "CSC").to_pdarray()
        [array([1 2 1 2]), array([1 1 2 2]), array([0 0 0 0])]
        """
        return [self._rows.copy(), self._cols.copy(), self._vals.copy()]

    def fill_vals(self, a: pdarray) -> None:
        """Set the values of the stored entries, in the layout's order.

        Parameters
        ----------
        a : pdarray
            1-D, of the matrix's dtype, one value per stored entry.

        Raises
        ------
        TypeError
            ``a`` is not a pdarray.
        ValueError
            ``a`` is not 1-D, not of the matrix's dtype, or not of ``nnz`` elements.

        Examples
        --------
        >>> import atoll as ak
        >>> from atoll.scipy import random_sparse_matrix
        >>> m = random_sparse_matrix(2, 1.0, "CSR")
        >>> m.fill_vals(ak.array([1, 2, 3, 4]))
        >>> m.to_pdarray()[2]
        array([1 2 3 4])
        """
        if not isinstance(a, pdarray):
            raise TypeError(f"fill_vals: expected a pdarray, got {type(a).__name__}")
        if np.dtype(a.dtype) != self.dtype:
            raise ValueError("sparray and pdarray must have the same dtype for fill_vals")
        if a.ndim != 1:
            raise ValueError("pdarray must be 1D for fill_vals")
        if a.size != self.nnz:
            raise ValueError(f"fill_vals needs one value per stored entry: got {a.size} values, expected {self.nnz}")
        self._vals = a.copy()


def create_sparray(rows: pdarray, cols: pdarray, vals: pdarray, shape: tuple[int, int], layout: str) -> sparray:
    """A sparray of the given entries, put in the layout's order.

    Parameters
    ----------
    rows : pdarray
        The 1-based row index of each entry (int64, 1-D).
    cols : pdarray
        The 1-based column index of each entry (int64, 1-D).
    vals : pdarray
        The value of each entry (int64, uint64, float64 or bool, 1-D).
    shape : tuple of int
        The numbers of rows and columns.
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
        ``1..shape``, an index pair repeats, or ``layout`` is neither layout.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.scipy.sparrayclass import create_sparray
    >>> m = create_sparray(ak.array([2, 1, 2]), ak.array([1, 2, 2]), ak.array([1.5, 2.5, 3.5]), (2, 3), "CSC")
    >>> m.to_pdarray()
    [array([2 1 2]), array([1 2 2]), array([1.5 2.5 3.5])]
    """
    if not (isinstance(rows, pdarray) and isinstance(cols, pdarray) and isinstance(vals, pdarray)):
        raise TypeError("rows, cols, and vals must be pdarrays for create_sparse_matrix")
    if not (rows.ndim == 1 and cols.ndim == 1 and vals.ndim == 1):
        raise ValueError("rows, cols, and vals must be 1D for create_sparse_matrix")
    if not (rows.size == cols.size == vals.size):
        raise ValueError("rows, cols, and vals must have the same size for create_sparse_matrix")
    if rows.dtype != int64 or cols.dtype != int64:
        raise ValueError("rows and cols must have dtype int64 for create_sparse_matrix")
    check_layout(layout)
    check_dtype(vals.dtype)
    nr, nc = int(shape[0]), int(shape[1])
    if nr < 0 or nc < 0:
        raise ValueError(f"shape must not be negative, got {shape}")
    if rows.size and (int(rows.min()) < 1 or int(cols.min()) < 1 or int(rows.max()) > nr or int(cols.max()) > nc):
        raise ValueError(
            f"sparse matrix indices run from 1 to the shape {(nr, nc)}; got rows in "
            f"{int(rows.min())}..{int(rows.max())} and columns in {int(cols.min())}..{int(cols.max())}"
        )
    major, minor = (rows, cols) if layout == "CSR" else (cols, rows)
    perm = coargsort([major, minor])
    entries: tuple[Any, Any, Any] = (rows, cols, vals)
    r, c, v = (e[perm] for e in entries)
    if r.size > 1:
        same = (r[1:] == r[:-1]) & (c[1:] == c[:-1])
        if builtins.bool(_any(same)):
            i = int(_cast(same, np.int64).argmax())
            raise ValueError(f"Duplicate index ({int(r[i])}, {int(c[i])}) in sparse matrix")
    return sparray(r, c, v, (nr, nc), layout)
