"""The statistical functions of the Array API namespace: Atoll's reductions over all axes or
along ``axis`` (an int or a tuple), ``keepdims`` keeping the reduced axes with length 1."""

import numpy as np

import atoll as ak
from atoll.numpy._nd import normalize_axis

from .array_object import _unwrap, _wrap

__all__ = ["cumulative_prod", "cumulative_sum", "max", "mean", "min", "prod", "std", "sum", "var"]


def _ddof(correction):
    """``correction`` as NumPy's integer ``ddof`` (a float must be integral)."""
    c = float(correction)
    if not c.is_integer() or c < 0:
        raise ValueError(f"correction: expected a nonnegative integral value, got {correction!r}")
    return int(c)


def _reduce(fn, x, axis, keepdims, dtype=None, **kw):
    a = _unwrap(x)
    if dtype is not None:
        a = a.astype(dtype)
    r = fn(a, axis=axis, keepdims=keepdims, **kw)
    if axis is None and keepdims and not isinstance(r, ak.pdarray):
        return _wrap(ak.full((1,) * a.ndim, r, dtype=np.asarray(r).dtype))
    return _wrap(r)


def max(x, /, *, axis=None, keepdims=False):
    """The largest element (over all axes or along ``axis``)."""
    return _reduce(ak.max, x, axis, keepdims)


def min(x, /, *, axis=None, keepdims=False):
    """The smallest element (over all axes or along ``axis``)."""
    return _reduce(ak.min, x, axis, keepdims)


def mean(x, /, *, axis=None, keepdims=False):
    """The arithmetic mean (over all axes or along ``axis``)."""
    return _reduce(ak.mean, x, axis, keepdims)


def prod(x, /, *, axis=None, dtype=None, keepdims=False):
    """The product of the elements (over all axes or along ``axis``), in ``dtype`` if given."""
    return _reduce(ak.prod, x, axis, keepdims, dtype)


def sum(x, /, *, axis=None, dtype=None, keepdims=False):
    """The sum of the elements (over all axes or along ``axis``), in ``dtype`` if given."""
    return _reduce(ak.sum, x, axis, keepdims, dtype)


def std(x, /, *, axis=None, correction=0.0, keepdims=False):
    """The standard deviation, ``correction`` being the degrees of freedom subtracted from the
    number of elements (NumPy's ``ddof``)."""
    return _reduce(ak.std, x, axis, keepdims, ddof=_ddof(correction))


def var(x, /, *, axis=None, correction=0.0, keepdims=False):
    """The variance, ``correction`` being the degrees of freedom subtracted from the number of
    elements (NumPy's ``ddof``)."""
    return _reduce(ak.var, x, axis, keepdims, ddof=_ddof(correction))


def _cumulative(fn, identity, x, axis, dtype, include_initial):
    a = _unwrap(x)
    if axis is None:
        if a.ndim > 1:
            raise ValueError("axis must be given for an array of more than one dimension")
        axis = 0
    axis = normalize_axis(axis, a.ndim)
    if dtype is not None:
        a = a.astype(dtype)
    r = fn(a) if a.ndim == 1 else fn(a, axis=axis)
    if include_initial:
        shape = list(r.shape)
        shape[axis] = 1
        first = ak.full(tuple(shape), identity, dtype=r.dtype)
        r = ak.concatenate([first, r]) if r.ndim == 1 else ak.concatenate([first, r], axis=axis)
    return _wrap(r)


def cumulative_sum(x, /, *, axis=None, dtype=None, include_initial=False):
    """The running sums along ``axis`` (optional for 1-D); ``include_initial`` puts a 0 first."""
    return _cumulative(ak.cumsum, 0, x, axis, dtype, include_initial)


def cumulative_prod(x, /, *, axis=None, dtype=None, include_initial=False):
    """The running products along ``axis`` (optional for 1-D); ``include_initial`` puts a 1 first."""
    return _cumulative(ak.cumprod, 1, x, axis, dtype, include_initial)
