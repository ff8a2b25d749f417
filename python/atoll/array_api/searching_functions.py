"""The searching functions of the Array API namespace."""

import numpy as np

import atoll as ak

from .array_object import _operands, _unwrap, _wrap

__all__ = ["argmax", "argmin", "nonzero", "searchsorted", "where"]


def _arg(fn, x, axis, keepdims):
    a = _unwrap(x)
    r = fn(a, axis=axis, keepdims=keepdims)
    if axis is None and keepdims and not isinstance(r, ak.pdarray):
        return _wrap(ak.full((1,) * a.ndim, r, dtype=np.int64))
    return _wrap(r)


def argmax(x, /, *, axis=None, keepdims=False):
    """The position of the first largest element (of the flattened ``x``, or along ``axis``)."""
    return _arg(ak.argmax, x, axis, keepdims)


def argmin(x, /, *, axis=None, keepdims=False):
    """The position of the first smallest element (of the flattened ``x``, or along ``axis``)."""
    return _arg(ak.argmin, x, axis, keepdims)


def nonzero(x, /):
    """The indices of the nonzero elements, one Array per axis, in C order."""
    a = _unwrap(x)
    if a.ndim == 0:
        raise ValueError("nonzero is not defined for 0-d arrays")
    flat = a.reshape((a.size,))
    pos = ak.arange(a.size)[flat != 0] if a.dtype != np.bool_ else ak.arange(a.size)[flat]
    out = []
    for n in reversed(a.shape):
        out.append(pos % n)
        pos = pos // n
    return tuple(_wrap(p) for p in reversed(out))


def where(condition, x1, x2, /):
    """``x1`` where ``condition`` is true, else ``x2`` (all three broadcast together)."""
    c, a, b = _operands(condition, x1, x2)
    if isinstance(c, ak.pdarray) and c.dtype != np.bool_:
        c = c != 0
    return _wrap(ak.where(c, a, b))


def searchsorted(x1, x2, /, *, side="left", sorter=None):
    """The positions at which the values ``x2`` would be inserted into the 1-D ``x1`` (sorted
    ascending, or put in order by the positions ``sorter``) to keep it sorted; the result has
    ``x2``'s shape."""
    a = _unwrap(x1)
    if a.ndim != 1:
        raise ValueError("searchsorted: x1 must be 1-D")
    if sorter is not None:
        a = a[_unwrap(sorter)]
    v = _unwrap(x2)
    if not isinstance(v, ak.pdarray):
        return _wrap(ak.searchsorted(a, ak.array(np.asarray([v])), side=side)[0])
    r = ak.searchsorted(a, v.reshape((v.size,)), side=side)
    return _wrap(r.reshape(v.shape) if v.ndim != 1 else r)
