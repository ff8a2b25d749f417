"""The sorting functions of the Array API namespace: along one axis, by moving it last and
sorting each row (Atoll's ``sort``/``argsort`` of the last axis).

``descending=True`` gives the ascending result reversed along the axis (Arkouda's order: equal
elements come last-first)."""

import atoll as ak
from atoll.numpy._nd import normalize_axis

from .array_object import _unwrap, _wrap

__all__ = ["argsort", "sort"]


def _along(fn, x, axis, descending):
    a = _unwrap(x)
    if a.ndim == 0:
        return _wrap(fn(a.reshape((1,))).reshape(()))
    axis = normalize_axis(axis, a.ndim)
    last = a.ndim - 1
    order = None
    if axis != last:
        order = list(range(a.ndim))
        order[axis], order[last] = last, axis
        a = ak.transpose(a, tuple(order))
    r = fn(a)
    if descending:
        r = ak.flip(r, axis=last) if r.ndim > 1 else ak.flip(r)
    if order is not None:
        r = ak.transpose(r, tuple(order))
    return _wrap(r)


def argsort(x, /, *, axis=-1, descending=False, stable=True):
    """The positions along ``axis`` that sort ``x`` along it (a stable sort)."""
    return _along(ak.argsort, x, axis, descending)


def sort(x, /, *, axis=-1, descending=False, stable=True):
    """``x`` sorted along ``axis``."""
    return _along(ak.sort, x, axis, descending)
