"""Arkouda's ``arkouda.numpy.alignment`` (the parts about sorted key arrays)."""

from __future__ import annotations

import builtins
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..pandas._align import find as _find
from ..pandas._concat import generic_concat
from ..pandas.categorical import Categorical
from ..pandas.groupbyclass import GroupBy
from .dtypes import bigint, float64, int64, uint64
from .numeric import where
from .pdarrayclass import cumsum, pdarray
from .pdarraycreation import arange, full, zeros
from .pdarraysetops import NonUniqueError
from .segarray import SegArray
from .sorting import coargsort
from .strings import Strings


def is_cosorted(arrays: Sequence[pdarray]) -> bool:
    """Whether the rows of ``arrays`` are in lexicographic order.

    Parameters
    ----------
    arrays : list of pdarray
        Arrays of one length, the first most significant.

    Returns
    -------
    bool
        True when the rows are sorted.

    Raises
    ------
    TypeError
        ``arrays`` is not a list of pdarrays.
    ValueError
        The arrays differ in length.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.numpy.alignment import is_cosorted
    >>> is_cosorted([ak.array([0, 0, 1]), ak.array([2, 5, 1])]), is_cosorted([ak.array([0, 0]), ak.array([5, 2])])
    (True, False)
    """
    if not isinstance(arrays, (list, tuple)) or not builtins.all(isinstance(a, pdarray) for a in arrays):
        raise TypeError("Input must be a list-like of pdarrays")
    if len({a.size for a in arrays}) > 1:
        raise ValueError("Arrays must all be same length")
    if not arrays or not builtins.bool(arrays[0].is_sorted()):
        return False
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


def find(
    query: Any,  # noqa: ANN401 (an array, or a list of arrays)
    space: Any,  # noqa: ANN401 (an array, or a list of arrays)
    all_occurrences: bool = False,
    remove_missing: bool = False,
) -> Any:  # noqa: ANN401 (a pdarray or a SegArray)
    """For each item of ``query``, the index of its first occurrence in ``space``.

    **Collective.**

    Parameters
    ----------
    query : pdarray, Strings, Categorical, or a list of them
        The items (the rows of a list).
    space : pdarray, Strings, Categorical, or a list of them
        Where they are looked for, of ``query``'s kind.
    all_occurrences : bool, default False
        When ``space`` has duplicates: every index of each item in ``space``, increasing, as
        a SegArray (an empty segment for a missing item).
    remove_missing : bool, default False
        Leave out the missing items.

    Returns
    -------
    pdarray or SegArray
        The int64 indices, -1 where an item has none.

    Raises
    ------
    TypeError
        ``query`` and ``space`` are of different kinds.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.numpy.alignment.find(ak.array([3, 7, 1]), ak.array([1, 2, 3])).tolist()
    [2, -1, 0]
    """
    q, s = _align_args(query, space)
    if all_occurrences:
        found = _find_all(q, s)
        if found is not None:
            return found
    else:
        _warn_duplicates(s)
    idx = _find(s, q)
    return idx[idx != -1] if remove_missing else idx


def _align_args(query: Any, space: Any) -> tuple[Any, Any]:  # noqa: ANN401 (arrays, or lists of them)
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


def _find_all(query: Any, space: Any) -> SegArray | None:  # noqa: ANN401 (arrays of one kind)
    """Every index of each query item in ``space`` (in increasing order), as a SegArray.

    None when ``space`` has no duplicates.
    """
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
    out: SegArray = sa[grp]
    return out


def _warn_duplicates(space: Any) -> None:  # noqa: ANN401 (an array, or a list of arrays)
    """A UserWarning (Arkouda's) when ``space`` holds a term twice.

    ``space`` is an array or a list of arrays whose rows are the terms: only the first index
    of each query term is reported.
    """
    n = (space[0] if isinstance(space, list) else space).size
    if n < 2:
        return
    if GroupBy(space, dropna=False).segments.size < n:
        warnings.warn(
            "Duplicate terms present in search space. Only first instance of each query term will be "
            "reported. To return all occurrences, set all_occurrences=True.",
            UserWarning,
            stacklevel=3,
        )


def _cumsum_exclusive(x: pdarray) -> pdarray:
    c = cumsum(x)
    out: pdarray = c - x
    return out


def _at(values: Any, idx: pdarray) -> Any:  # noqa: ANN401 (an array of any kind, and its gather)
    """``values[idx]``."""
    return values[idx]


def lookup(
    keys: Any,  # noqa: ANN401 (an array, or a list of arrays)
    values: Any,  # noqa: ANN401 (a pdarray, Strings or Categorical)
    arguments: Any,  # noqa: ANN401 (an array, or a list of arrays)
    fillvalue: object = -1,
) -> Any:  # noqa: ANN401 (values' kind)
    """The function ``keys -> values`` applied to ``arguments``.

    Keys should be unique: with duplicates, the first equal key's value is taken and a
    UserWarning says so, as Arkouda's. **Collective.**

    Parameters
    ----------
    keys : pdarray, Strings, Categorical, or a list of them
        The function's domain (the rows of a list).
    values : pdarray, Strings or Categorical
        The value of each key.
    arguments : pdarray, Strings, Categorical, or a list of them
        What the function is applied to, of ``keys``' kind.
    fillvalue : scalar, default -1
        The value where an argument has no key (a Categorical of values: its missing value
        there; Strings values: ``str(fillvalue)``).

    Returns
    -------
    pdarray, Strings or Categorical
        For each argument, the value of the equal key.

    Raises
    ------
    TypeError
        ``keys`` and ``arguments`` are of different kinds.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.numpy.alignment.lookup(ak.array([1, 5]), ak.array([10.0, 50.0]), ak.array([5, 2, 1])).tolist()
    [50.0, -1.0, 10.0]
    """
    if isinstance(values, Categorical):
        codes = lookup(keys, values.codes, arguments, fillvalue=values._NAcode)
        return Categorical.from_codes(codes, values.categories, na_value=values.na_value)
    _warn_duplicates(list(keys) if isinstance(keys, (list, tuple)) else keys)
    idx = _find(keys, arguments)
    found = (idx >= 0)._materialize()
    if isinstance(values, Strings):
        # Strings values: the fill is a string (``str(fillvalue)`` for another scalar).
        fill = fillvalue if isinstance(fillvalue, str) else str(fillvalue)
        if values.size == 0:
            return full(idx.size, fill)
        return where(found, _at(values, where(found, idx, 0)._materialize()), fill)
    if values.size == 0:
        return full(idx.size, fillvalue, dtype=values.dtype)
    got = _at(values, where(found, idx, 0)._materialize())
    return where(found, got, full(idx.size, fillvalue, dtype=values.dtype))._materialize()


def _lex_le(a: list[Any], b: list[Any]) -> Any:  # noqa: ANN401 (a bool pdarray)
    """Elementwise: whether the row of ``a`` is lexicographically <= the row of ``b``.

    Lists of levels, arrays or scalars, the first most significant.
    """
    le = a[-1] <= b[-1]
    for x, y in zip(reversed(a[:-1]), reversed(b[:-1])):
        le = (x < y) | ((x == y) & le)
    return le


def _limbs(a: Any, n: int) -> list[pdarray]:  # noqa: ANN401 (a bigint pdarray)
    """A bigint array's uint64 limbs (most significant first), left-padded to ``n``."""
    lv = list(a.bigint_to_uint_arrays())
    return [zeros(a.size, dtype=uint64) for _ in range(n - len(lv))] + lv


def _check_intervals(
    vals: object, intervals: object, tiebreak: object, hierarchical: bool
) -> tuple[list[Any], list[Any], list[Any], bool]:
    """``vals``, the lower and upper bounds as lists of levels, and whether they are hierarchical.

    Hierarchical: one dimension compared lexicographically. After Arkouda's checks.
    """
    if not isinstance(intervals, (list, tuple)) or len(intervals) != 2:
        raise ValueError("intervals must be a 2-tuple of (lower bounds, upper bounds), both inclusive")
    low, high = intervals
    nlow = low.size if isinstance(low, pdarray) else (low[0].size if isinstance(low, (list, tuple)) and low else 0)
    if tiebreak is not None and (not isinstance(tiebreak, pdarray) or tiebreak.size != nlow):
        raise TypeError("tiebreak must be a pdarray with one value per interval")
    if isinstance(vals, pdarray):
        if vals.dtype not in (int64, uint64, float64, bigint):
            raise TypeError("arguments must be numeric arrays")
        if not isinstance(low, pdarray) or not isinstance(high, pdarray):
            raise TypeError("intervals must be of the kind of vals (pdarrays)")
        if vals.dtype != low.dtype or vals.dtype != high.dtype:
            raise TypeError(
                f"vals and intervals must all have the same dtype; found {low.dtype}, {high.dtype} and {vals.dtype}"
            )
        if low.size != high.size:
            raise ValueError("Lower and upper bound arrays must be the same size")
        if vals.dtype == bigint:
            n = builtins.max(len(_limbs(x, 0)) for x in (vals, low, high))  # each one's own limbs
            return _limbs(vals, n), _limbs(low, n), _limbs(high, n), True
        return [vals], [low], [high], True
    if not isinstance(vals, (list, tuple)):
        raise TypeError("arguments must be numeric arrays")
    if not isinstance(low, (list, tuple)) or not isinstance(high, (list, tuple)):
        raise TypeError("intervals must be of the kind of vals (sequences of pdarrays)")
    if len({len(low), len(high), len(vals)}) != 1 or not vals:
        raise TypeError("Multi-array arguments must have the same number of arrays")
    if not builtins.all(isinstance(x, pdarray) for x in (*vals, *low, *high)):
        raise TypeError("All elements of multi-array arguments must be pdarrays")
    if builtins.any(len({x.size for x in group}) != 1 for group in (vals, low, high)):
        raise TypeError("Multi-array arguments must have equal-length arrays")
    for v, lo, hi in zip(vals, low, high):
        if v.dtype != lo.dtype or v.dtype != hi.dtype:
            raise TypeError("Values and intervals must have matching dtypes")
        if v.dtype not in (int64, uint64, float64):
            raise TypeError("arguments must be numeric arrays")
    if low[0].size != high[0].size:
        raise ValueError("Lower and upper bound arrays must be the same size")
    return list(vals), list(low), list(high), builtins.bool(hierarchical)


def search_intervals(
    vals: pdarray | Sequence[pdarray],
    intervals: tuple[Any, Any],
    tiebreak: pdarray | None = None,
    hierarchical: bool = True,
) -> pdarray:
    """For each value, the index of the interval that contains it, -1 where none does.

    Disjoint one-dimensional intervals take one sort of the bounds and the values together;
    overlapping intervals or boxes take one pass over the values per interval.

    Parameters
    ----------
    vals : pdarray or list of pdarray
        A pdarray (int64, uint64, float64 or bigint), or pdarrays whose rows are the values.
    intervals : tuple
        ``(lower_bounds, upper_bounds)``, both inclusive, of the kind and dtypes of ``vals``,
        the intervals sorted by lower bound.
    tiebreak : pdarray, optional
        One value per interval: where several intervals contain a value, the one of least
        ``tiebreak`` is chosen (else the first).
    hierarchical : bool, default True
        With several arrays, they are the levels of one dimension compared lexicographically
        (as the limbs of a bigint); False: each array is a dimension of its own and an
        interval is a box.

    Returns
    -------
    pdarray
        The int64 interval indices.

    Raises
    ------
    TypeError
        Arguments of the wrong kinds or dtypes (as Arkouda's).
    ValueError
        Bounds of different sizes, upper bounds below lower ones, or unsorted intervals.

    Examples
    --------
    >>> import atoll as ak
    >>> bounds = (ak.array([0, 10, 50]), ak.array([9, 49, 59]))
    >>> ak.numpy.alignment.search_intervals(ak.array([22, 51, 1, 60]), bounds)
    array([ 1  2  0 -1])
    """
    v, lo, hi, hier = _check_intervals(vals, intervals, tiebreak, hierarchical)
    m, n = lo[0].size, v[0].size
    if hier:
        if not builtins.bool(_lex_le(lo, hi).all()):
            raise ValueError("Upper bounds must be greater than lower bounds")
        if not is_cosorted(lo):
            raise ValueError("Intervals must be sorted in ascending order")
    elif not builtins.all(builtins.bool((h >= l).all()) for l, h in zip(lo, hi)):
        raise ValueError("Upper bounds must be greater than lower bounds")
    if n == 0 or m == 0:
        none: pdarray = full(n, -1, dtype=int64)
        return none
    if hier:
        disjoint = m == 1 or builtins.bool((~_lex_le([x[1:] for x in lo], [x[: m - 1] for x in hi])).all())
        if disjoint:
            return _search_disjoint(v, lo, hi)
    return _search_each(v, lo, hi, hier, tiebreak)


def _search_disjoint(v: list[Any], lo: list[Any], hi: list[Any]) -> pdarray:
    """``search_intervals`` of disjoint sorted intervals.

    The bounds and the values sorted together (a lower bound before an equal value); the
    count of lower bounds up to a value names the only interval that can hold it.
    """
    m, n = lo[0].size, v[0].size
    tag = generic_concat([zeros(m, dtype=int64), full(n, 1, dtype=int64)])
    perm = coargsort([generic_concat([a, b]) for a, b in zip(lo, v)] + [tag])
    is_val = (perm >= m)._materialize()
    last_low = (cumsum((~is_val).astype(int64)) - 1)[is_val]
    cand = full(n, -1, dtype=int64)
    cand[perm[is_val] - m] = last_low
    found = (cand >= 0)._materialize()
    safe = where(found, cand, 0)._materialize()
    inside = found & _lex_le(v, [h[safe] for h in hi])
    out: pdarray = where(inside, cand, -1)._materialize()
    return out


def _search_each(v: list[Any], lo: list[Any], hi: list[Any], hier: bool, tiebreak: pdarray | None) -> pdarray:
    """``search_intervals`` by one pass over the values per interval: overlapping intervals and boxes.

    The bounds are read on the driver.
    """
    los = [x.to_ndarray() for x in lo]
    his = [x.to_ndarray() for x in hi]
    tbs = None if tiebreak is None else tiebreak.to_ndarray()
    n = v[0].size
    best: pdarray = full(n, -1, dtype=int64)
    best_tb = None if tbs is None else full(n, np.inf, dtype=float64)
    for j in range(len(los[0])):
        lj = [x[j] for x in los]
        hj = [x[j] for x in his]
        inside: Any = None
        if hier:
            inside = _lex_le(lj, v) & _lex_le(v, hj)
        else:
            for x, a, b in zip(v, lj, hj):
                c = (x >= a) & (x <= b)
                inside = c if inside is None else inside & c
        if best_tb is None or tbs is None:
            take = inside & (best < 0)
        else:
            take = inside & ((best < 0) | (best_tb > builtins.float(tbs[j])))
            best_tb = where(take, builtins.float(tbs[j]), best_tb)._materialize()
        best = where(take, j, best)._materialize()
    return best


def interval_lookup(
    keys: tuple[Any, Any],
    values: Any,  # noqa: ANN401 (a pdarray or Strings)
    arguments: pdarray | Sequence[pdarray],
    fillvalue: object = -1,
    tiebreak: pdarray | None = None,
    hierarchical: bool = False,
) -> Any:  # noqa: ANN401 (values' kind)
    """The function from intervals to values applied to ``arguments``.

    Parameters
    ----------
    keys : tuple
        ``(lower_bounds, upper_bounds)``, inclusive, as :func:`search_intervals` reads them.
    values : pdarray or Strings
        The value of each interval.
    arguments : pdarray or list of pdarray
        The values looked up.
    fillvalue : scalar, default -1
        The value where no interval holds an argument (``str(fillvalue)`` for Strings).
    tiebreak : pdarray, optional
        As :func:`search_intervals`.
    hierarchical : bool, default False
        As :func:`search_intervals`.

    Returns
    -------
    pdarray or Strings
        For each argument, the value of the interval that holds it.

    Raises
    ------
    TypeError
        Arguments of the wrong kinds or dtypes (as :func:`search_intervals`).
    ValueError
        Bad bounds (as :func:`search_intervals`).

    Examples
    --------
    >>> import atoll as ak
    >>> keys = (ak.array([0, 10]), ak.array([9, 19]))
    >>> ak.numpy.alignment.interval_lookup(keys, ak.array(["lo", "hi"]), ak.array([15, 3, 40])).tolist()
    ['hi', 'lo', '-1']
    """
    idx = search_intervals(arguments, keys, tiebreak=tiebreak, hierarchical=hierarchical)
    found = (idx >= 0)._materialize()
    safe = where(found, idx, 0)._materialize()
    if isinstance(values, Strings):
        fill = fillvalue if isinstance(fillvalue, str) else str(fillvalue)
        if values.size == 0:
            return full(idx.size, fill)
        return where(found, _at(values, safe), fill)
    if values.size == 0:
        return full(idx.size, fillvalue, dtype=values.dtype)
    return where(found, _at(values, safe), full(idx.size, fillvalue, dtype=values.dtype))._materialize()


__all__ = ["NonUniqueError", "find", "interval_lookup", "is_cosorted", "lookup", "search_intervals"]
