"""The indexing functions of the Array API namespace."""

import atoll as ak
from atoll.numpy._nd import normalize_axis

from .array_object import _unwrap, _wrap

__all__ = ["take"]


def take(x, indices, /, *, axis=None):
    """The elements of ``x`` at the integer positions ``indices`` along ``axis`` (a 1-D ``x``
    needs no axis)."""
    a = _unwrap(x)
    if axis is None and a.ndim > 1:
        raise ValueError("take: axis is required for an array of more than one dimension")
    idx = _unwrap(indices)
    if axis is None or a.ndim == 1:
        if axis is not None:
            normalize_axis(axis, a.ndim)
        return _wrap(ak.take(a, idx))
    axis = normalize_axis(axis, a.ndim)
    return _wrap(a[(slice(None),) * axis + (idx,)])
