"""The sorting functions of the Array API namespace.

Along one axis, by moving it last and sorting each row (Atoll's ``sort``/``argsort`` of the last
axis). ``descending=True`` gives the ascending result reversed along the axis (Arkouda's order:
equal elements come last-first).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from atoll.numpy import manipulation_functions as manip, numeric, sorting
from atoll.numpy._nd import normalize_axis

from .array_object import Array, _unwrap, _wrap

__all__ = ["argsort", "sort"]


def _along(fn: Callable[[Any], Any], x: Array, axis: int, descending: bool) -> Array:
    a = _unwrap(x)
    if a.ndim == 0:
        return _wrap(fn(a.reshape((1,))).reshape(()))
    axis = normalize_axis(axis, a.ndim)
    last = a.ndim - 1
    order = None
    if axis != last:
        order = list(range(a.ndim))
        order[axis], order[last] = last, axis
        a = numeric.transpose(a, tuple(order))
    r = fn(a)
    if descending:
        r = manip.flip(r, axis=last) if r.ndim > 1 else manip.flip(r)
    if order is not None:
        r = numeric.transpose(r, tuple(order))
    return _wrap(r)


def argsort(x: Array, /, *, axis: int = -1, descending: bool = False, stable: bool = True) -> Array:
    """The positions along ``axis`` that sort ``x`` along it (a stable sort).

    Parameters
    ----------
    x : Array
        The values.
    axis : int, default -1
        The axis to sort along.
    descending : bool, default False
        Whether to give the descending order (the ascending one reversed).
    stable : bool, default True
        The standard's argument (the sort is always stable).

    Returns
    -------
    Array
        The positions (int64), in ``x``'s shape.

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> xp.argsort(xp.asarray([3, 1, 2])).tolist()
    [1, 2, 0]
    """
    return _along(sorting.argsort, x, axis, descending)


def sort(x: Array, /, *, axis: int = -1, descending: bool = False, stable: bool = True) -> Array:
    """``x`` sorted along ``axis``.

    Parameters
    ----------
    x : Array
        The values.
    axis : int, default -1
        The axis to sort along.
    descending : bool, default False
        Whether to sort largest first.
    stable : bool, default True
        The standard's argument (the sort is always stable).

    Returns
    -------
    Array
        The sorted values.

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> xp.sort(xp.asarray([[3, 1, 2], [0, 5, 4]]), axis=0, descending=True).tolist()
    [[3, 5, 4], [0, 1, 2]]
    """
    return _along(sorting.sort, x, axis, descending)
