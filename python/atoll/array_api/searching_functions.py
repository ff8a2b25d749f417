"""The searching functions of the Array API namespace."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from atoll.numpy import numeric, pdarrayclass, sorting
from atoll.numpy.pdarrayclass import pdarray
from atoll.numpy.pdarraycreation import arange, array, full

from .array_object import Array, _operands, _unwrap, _wrap

__all__ = ["argmax", "argmin", "nonzero", "searchsorted", "where"]

_argmax = pdarrayclass.argmax
_argmin = pdarrayclass.argmin


def _arg(fn: Callable[..., Any], x: Array, axis: int | None, keepdims: bool) -> Array:
    a = _unwrap(x)
    r = fn(a, axis=axis, keepdims=keepdims)
    if axis is None and keepdims and not isinstance(r, pdarray):
        return _wrap(full((1,) * a.ndim, r, dtype=np.int64))
    return _wrap(r)


def argmax(x: Array, /, *, axis: int | None = None, keepdims: bool = False) -> Array:
    """The position of the first largest element (of the flattened ``x``, or along ``axis``).

    Parameters
    ----------
    x : Array
        The values.
    axis : int, optional
        The axis to search along (None: the flattened ``x``).
    keepdims : bool, default False
        Whether to keep the reduced axes with length 1.

    Returns
    -------
    Array
        The positions (int64; 0-d over all axes).

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> x = xp.asarray([[3, 1], [2, 5]])
    >>> xp.argmax(x).item(), xp.argmax(x, axis=0).tolist()
    (3, [0, 1])
    """
    return _arg(_argmax, x, axis, keepdims)


def argmin(x: Array, /, *, axis: int | None = None, keepdims: bool = False) -> Array:
    """The position of the first smallest element (of the flattened ``x``, or along ``axis``).

    Parameters
    ----------
    x : Array
        The values.
    axis : int, optional
        The axis to search along (None: the flattened ``x``).
    keepdims : bool, default False
        Whether to keep the reduced axes with length 1.

    Returns
    -------
    Array
        The positions (int64; 0-d over all axes).

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> xp.argmin(xp.asarray([[3, 1], [2, 5]]), axis=1).tolist()
    [1, 0]
    """
    return _arg(_argmin, x, axis, keepdims)


def nonzero(x: Array, /) -> tuple[Array, ...]:
    """The indices of the nonzero elements, one Array per axis, in C order.

    Parameters
    ----------
    x : Array
        An Array of at least one dimension.

    Returns
    -------
    tuple of Array
        The indices along each axis.

    Raises
    ------
    ValueError
        If ``x`` is 0-d.

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> rows, cols = xp.nonzero(xp.asarray([[0, 1], [2, 0]]))
    >>> rows.tolist(), cols.tolist()
    ([0, 1], [1, 0])
    """
    a = _unwrap(x)
    if a.ndim == 0:
        raise ValueError("nonzero is not defined for 0-d arrays")
    flat = a.reshape((a.size,))
    pos = arange(a.size)[flat != 0] if a.dtype != np.bool_ else arange(a.size)[flat]
    out = []
    for n in reversed(a.shape):
        out.append(pos % n)
        pos = pos // n
    return tuple(_wrap(p) for p in reversed(out))


def where(condition: Array, x1: object, x2: object, /) -> Array:
    """``x1`` where ``condition`` is true, else ``x2`` (all three broadcast together).

    Parameters
    ----------
    condition : Array
        The choice (nonzero: true).
    x1, x2 : Array or scalar
        The values chosen where ``condition`` is true and where it is false.

    Returns
    -------
    Array
        The chosen values.

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> xp.where(xp.asarray([True, False, True]), xp.asarray([1, 2, 3]), 0).tolist()
    [1, 0, 3]
    """
    c, a, b = _operands(condition, x1, x2)
    if isinstance(c, pdarray) and c.dtype != np.bool_:
        c = c != 0
    return _wrap(numeric.where(c, a, b))


def searchsorted(x1: Array, x2: object, /, *, side: str = "left", sorter: Array | None = None) -> Array:
    """The positions at which the values ``x2`` would be inserted into the 1-D ``x1`` to keep it sorted.

    Parameters
    ----------
    x1 : Array
        A 1-D Array, sorted ascending (or put in order by ``sorter``).
    x2 : Array or scalar
        The values to place.
    side : {"left", "right"}, default "left"
        Before (left) or after (right) equal elements.
    sorter : Array, optional
        The positions that sort ``x1``.

    Returns
    -------
    Array
        The positions, in ``x2``'s shape.

    Raises
    ------
    ValueError
        If ``x1`` is not 1-D.

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> xp.searchsorted(xp.asarray([1, 3, 5]), xp.asarray([2, 5]), side="right").tolist()
    [1, 3]
    """
    a = _unwrap(x1)
    if a.ndim != 1:
        raise ValueError("searchsorted: x1 must be 1-D")
    if sorter is not None:
        a = a[_unwrap(sorter)]
    v = _unwrap(x2)
    if not isinstance(v, pdarray):
        return _wrap(sorting.searchsorted(a, array(np.asarray([v])), side=side)[0])
    r = sorting.searchsorted(a, v.reshape((v.size,)), side=side)
    return _wrap(r.reshape(v.shape) if v.ndim != 1 else r)
