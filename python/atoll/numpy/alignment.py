"""Arkouda's ``arkouda.numpy.alignment`` (the parts about sorted key arrays)."""

import builtins

from ..pandas._align import find as _find
from ..pandas._concat import generic_concat
from ..pandas.categorical import Categorical
from ..pandas.groupbyclass import GroupBy
from .numeric import where
from .pdarrayclass import cumsum, pdarray
from .pdarraycreation import arange, full
from .pdarraysetops import NonUniqueError
from .segarray import SegArray
from .strings import Strings


def is_cosorted(arrays):
    """True when the rows of ``arrays`` (pdarrays of one length, the first most significant)
    are in lexicographic order."""
    if not isinstance(arrays, (list, tuple)) or not builtins.all(isinstance(a, pdarray) for a in arrays):
        raise TypeError("Input must be a list-like of pdarrays")
    if len({a.size for a in arrays}) > 1:
        raise ValueError("Arrays must all be same length")
    if not arrays or not builtins.bool(arrays[0].is_sorted()):
        return bool(arrays)
    n = arrays[0].size
    if n < 2:
        return True
    boundary = arrays[0][: n - 1] != arrays[0][1:]
    for a in arrays[1:]:
        left, right = a[: n - 1], a[1:]
        if not builtins.bool(((left <= right) | boundary).all()):
            return False
        boundary = (boundary | (left != right))._materialize()
    return True


def find(query, space, all_occurrences=False, remove_missing=False):
    """For each item of ``query`` (an array, or a list of arrays whose rows are the items),
    the index of its first occurrence in ``space``, -1 where it has none (left out with
    ``remove_missing``). ``all_occurrences`` when ``space`` has duplicates: every index of
    each item in ``space``, increasing, as a SegArray (an empty segment for a missing item).
    **Collective.**"""

    q, s = _align_args(query, space)
    if all_occurrences:
        found = _find_all(q, s)
        if found is not None:
            return found
    idx = _find(s, q)
    return idx[idx != -1] if remove_missing else idx


def _align_args(query, space):
    """``query`` and ``space`` checked to be of one kind (Arkouda's TypeErrors)."""
    if isinstance(query, (list, tuple)):
        if not isinstance(space, (list, tuple)) or len(query) != len(space):
            raise TypeError("Multi-array arguments must have same number of arrays")
        if len({a.size for a in query}) > 1 or len({a.size for a in space}) > 1:
            raise TypeError("Multi-array arguments must be non-empty and have equal-length arrays")
        for a, b in zip(query, space):
            if type(a) is not type(b) or getattr(a, "dtype", None) != getattr(b, "dtype", None):
                raise TypeError("Array dtypes of arguments must match")
        return list(query), list(space)
    if type(query) is not type(space):
        raise TypeError("Arguments must have same type")
    return query, space


def _find_all(query, space):
    """Every index of each query item in ``space`` (in increasing order), as a SegArray; None
    when ``space`` has no duplicates."""

    if isinstance(query, list):
        raise TypeError("finding all_occurrences is not yet supported on sequences of arrays")
    ns, nq = space.size, query.size
    g = GroupBy(generic_concat([space, query]), dropna=False)
    i = arange(ns + nq)
    perm_i = i[g.permutation]
    _, mult = g.sum(i < ns)
    if not builtins.bool((mult > 1).any()):
        return None
    starts = _cumsum_exclusive(mult)
    grp = g.broadcast(arange(g.segments.size), permute=True)[ns:]
    sa = SegArray(starts, perm_i[perm_i < ns])
    return sa[grp]


def _cumsum_exclusive(x):
    c = cumsum(x)
    return c - x


def lookup(keys, values, arguments, fillvalue=-1):
    """The function ``keys -> values`` applied to ``arguments``: for each argument, the value
    of the equal key, ``fillvalue`` where there is none (a Categorical of values: its missing
    value there). Keys (and arguments) are an array or a list of arrays whose rows are the
    entries; keys must be unique. **Collective.**"""

    if isinstance(values, Categorical):
        codes = lookup(keys, values.codes, arguments, fillvalue=values._NAcode)
        return Categorical.from_codes(codes, values.categories, na_value=values.na_value)
    idx = _find(keys, arguments)
    found = (idx >= 0)._materialize()
    if isinstance(values, Strings):
        # Strings values: the fill is a string (``str(fillvalue)`` for another scalar).
        fill = fillvalue if isinstance(fillvalue, str) else str(fillvalue)
        if values.size == 0:
            return full(idx.size, fill)
        return where(found, values[where(found, idx, 0)._materialize()], fill)
    if values.size == 0:
        return full(idx.size, fillvalue, dtype=values.dtype)
    got = values[where(found, idx, 0)._materialize()]
    return where(found, got, full(idx.size, fillvalue, dtype=values.dtype))._materialize()


__all__ = ["NonUniqueError", "find", "is_cosorted", "lookup"]
