"""The indexing functions of the Array API namespace."""

from __future__ import annotations

from atoll import stats
from atoll.numpy._nd import normalize_axis

from .array_object import Array, _unwrap, _wrap

__all__ = ["take"]


def take(x: Array, indices: Array, /, *, axis: int | None = None) -> Array:
    """The elements of ``x`` at the integer positions ``indices`` along ``axis``.

    Parameters
    ----------
    x : Array
        The values.
    indices : Array
        Integer positions (1-D).
    axis : int, optional
        The axis to take along (optional for a 1-D ``x``).

    Returns
    -------
    Array
        The elements taken.

    Raises
    ------
    ValueError
        If ``axis`` is None for an ``x`` of more than one dimension.

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> x = xp.asarray([[1, 2, 3], [4, 5, 6]])
    >>> xp.take(x, xp.asarray([2, 0]), axis=1).tolist()
    [[3, 1], [6, 4]]
    """
    a = _unwrap(x)
    if axis is None and a.ndim > 1:
        raise ValueError("take: axis is required for an array of more than one dimension")
    idx = _unwrap(indices)
    if axis is None or a.ndim == 1:
        if axis is not None:
            normalize_axis(axis, a.ndim)
        return _wrap(stats.take(a, idx))
    axis = normalize_axis(axis, a.ndim)
    return _wrap(a[(slice(None),) * axis + (idx,)])
