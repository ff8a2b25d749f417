"""The set functions of the Array API namespace.

The distinct values of an Array (of its flattened elements), with the positions of their first
occurrences, the inverse (each element's distinct value, in the Array's shape) and the counts,
from one grouping of the values (Atoll's ``GroupBy``).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from atoll.numpy.pdarraycreation import arange
from atoll.numpy.pdarraysetops import unique
from atoll.pandas.groupbyclass import GroupBy

from .array_object import Array, _unwrap, _wrap

__all__ = ["unique_all", "unique_counts", "unique_inverse", "unique_values"]


class UniqueAllResult(NamedTuple):
    """What ``unique_all`` gives: the distinct values, first positions, inverse and counts."""

    values: Array
    indices: Array
    inverse_indices: Array
    counts: Array


class UniqueCountsResult(NamedTuple):
    """What ``unique_counts`` gives: the distinct values and their counts."""

    values: Array
    counts: Array


class UniqueInverseResult(NamedTuple):
    """What ``unique_inverse`` gives: the distinct values and the inverse."""

    values: Array
    inverse_indices: Array


def _groups(x: Array) -> tuple[Any, GroupBy]:
    """``x``'s pdarray and the grouping of its flattened values."""
    a = _unwrap(x)
    flat = a.reshape((a.size,)) if a.ndim != 1 else a
    return a, GroupBy(flat)


def unique_all(x: Array, /) -> UniqueAllResult:
    """The sorted distinct values, the flat position of each one's first occurrence, the inverse and the counts.

    Parameters
    ----------
    x : Array
        The values.

    Returns
    -------
    UniqueAllResult
        ``values``, ``indices`` (first occurrences), ``inverse_indices`` (in ``x``'s shape)
        and ``counts``.

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> r = xp.unique_all(xp.asarray([3, 1, 3, 2]))
    >>> r.values.tolist(), r.indices.tolist(), r.inverse_indices.tolist(), r.counts.tolist()
    ([1, 2, 3], [1, 3, 0], [2, 0, 2, 1], [1, 1, 2])
    """
    a, g = _groups(x)
    first = g.min(arange(a.size))[1]
    inverse = g.broadcast(arange(g.ngroups), permute=True)
    counts = g.size()[1]
    return UniqueAllResult(_wrap(g.unique_keys), _wrap(first), _wrap(inverse.reshape(a.shape)), _wrap(counts))


def unique_counts(x: Array, /) -> UniqueCountsResult:
    """The sorted distinct values and the number of occurrences of each.

    Parameters
    ----------
    x : Array
        The values.

    Returns
    -------
    UniqueCountsResult
        ``values`` and ``counts``.

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> r = xp.unique_counts(xp.asarray([3, 1, 3]))
    >>> r.values.tolist(), r.counts.tolist()
    ([1, 3], [1, 2])
    """
    _, g = _groups(x)
    keys, counts = g.size()
    return UniqueCountsResult(_wrap(keys), _wrap(counts))


def unique_inverse(x: Array, /) -> UniqueInverseResult:
    """The sorted distinct values and the inverse: the position of each element's value among them.

    Parameters
    ----------
    x : Array
        The values.

    Returns
    -------
    UniqueInverseResult
        ``values`` and ``inverse_indices`` (in ``x``'s shape).

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> r = xp.unique_inverse(xp.asarray([[3, 1], [3, 3]]))
    >>> r.values.tolist(), r.inverse_indices.tolist()
    ([1, 3], [[1, 0], [1, 1]])
    """
    a, g = _groups(x)
    inverse = g.broadcast(arange(g.ngroups), permute=True)
    return UniqueInverseResult(_wrap(g.unique_keys), _wrap(inverse.reshape(a.shape)))


def unique_values(x: Array, /) -> Array:
    """The sorted distinct values.

    Parameters
    ----------
    x : Array
        The values.

    Returns
    -------
    Array
        The distinct values (1-D).

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> xp.unique_values(xp.asarray([[2, 1], [2, 2]])).tolist()
    [1, 2]
    """
    a = _unwrap(x)
    return _wrap(unique(a.reshape((a.size,)) if a.ndim != 1 else a))
