"""The set functions of the Array API namespace: the distinct values of an Array (of its
flattened elements), with the positions of their first occurrences, the inverse (each element's
distinct value, in the Array's shape) and the counts, from one grouping of the values (Atoll's
``GroupBy``)."""

from typing import NamedTuple

import atoll as ak

from .array_object import Array, _unwrap, _wrap

__all__ = ["unique_all", "unique_counts", "unique_inverse", "unique_values"]


class UniqueAllResult(NamedTuple):
    values: Array
    indices: Array
    inverse_indices: Array
    counts: Array


class UniqueCountsResult(NamedTuple):
    values: Array
    counts: Array


class UniqueInverseResult(NamedTuple):
    values: Array
    inverse_indices: Array


def _groups(x):
    a = _unwrap(x)
    flat = a.reshape((a.size,)) if a.ndim != 1 else a
    return a, ak.GroupBy(flat)


def unique_all(x, /):
    """The sorted distinct values, the flat position of each one's first occurrence, the
    inverse (in ``x``'s shape) and the counts."""
    a, g = _groups(x)
    first = g.min(ak.arange(a.size))[1]
    inverse = g.broadcast(ak.arange(g.ngroups), permute=True)
    counts = g.size()[1]
    return UniqueAllResult(_wrap(g.unique_keys), _wrap(first), _wrap(inverse.reshape(a.shape)), _wrap(counts))


def unique_counts(x, /):
    """The sorted distinct values and the number of occurrences of each."""
    _, g = _groups(x)
    keys, counts = g.size()
    return UniqueCountsResult(_wrap(keys), _wrap(counts))


def unique_inverse(x, /):
    """The sorted distinct values and the inverse: for each element (in ``x``'s shape), the
    position of its value among them."""
    a, g = _groups(x)
    inverse = g.broadcast(ak.arange(g.ngroups), permute=True)
    return UniqueInverseResult(_wrap(g.unique_keys), _wrap(inverse.reshape(a.shape)))


def unique_values(x, /):
    """The sorted distinct values."""
    a = _unwrap(x)
    return _wrap(ak.unique(a.reshape((a.size,)) if a.ndim != 1 else a))
