"""Arkouda's set operations on one key array or on rows of several (a list of pdarrays).

``unique``, ``value_counts``, ``in1d``, ``union1d``, ``intersect1d``, ``setdiff1d``,
``setxor1d``. All sort-based (one distributed radix sort of the keys); results sorted, as
NumPy's. Equality is NumPy's (``-0.0 == 0.0``); NaN: ``unique`` keeps one NaN (as
``numpy.unique``), ``in1d`` finds no NaN (NaN equals nothing, as ``numpy.isin``).
"""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from typing import Any

import numpy as np

from .. import _atoll
from .._keys import dense_key, dense_keys_out, dense_limit, dense_range, key_expr, key_list
from ..categorical import Categorical
from ..groupby import GroupBy
from ..str_groupby import is_str_key
from ._bigint import BigIntArray, to_bigint
from .dtypes import bool_, float64, int64
from .numeric import isnan
from .pdarrayclass import cumsum, pdarray, sum as _sum
from .pdarraycreation import arange, array, zeros
from .pdarraymanipulation import concatenate
from .sorting import argsort, coargsort, group_keys, searchsorted
from .strings import Strings, concatenate as sconcat


def _group(ks: list[Any]) -> tuple[pdarray, pdarray, pdarray]:
    """(permutation, flags, segments) of the rows of the key arrays ``ks`` (every NaN one key)."""
    n = ks[0].size
    if n == 0:
        return zeros(0, int64), zeros(0, bool_), zeros(0, int64)
    return group_keys([key_expr(k) for k in ks], ks, n)


def _rows(x: list[Any], seq: bool) -> Any:  # noqa: ANN401 (the list, or its one array)
    return list(x) if seq else x[0]


def unique(
    pda: Any,  # noqa: ANN401 (a pdarray, Strings, Categorical, bigint array, or a list of them)
    return_groups: bool = False,
    assume_sorted: bool = False,
    return_indices: bool = False,
    return_counts: bool = False,
) -> Any:  # noqa: ANN401 (the unique keys, or a tuple with them)
    """The sorted distinct values of ``pda`` (or distinct rows of a list of pdarrays).

    Parameters
    ----------
    pda : pdarray, Strings, Categorical, bigint pdarray, or a list of them
        The keys; a list: its rows.
    return_groups : bool, default False
        Give ``(unique, permutation, segments, nkeys)`` (Arkouda's order of arguments).
    assume_sorted : bool, default False
        Equal rows are already next to each other (the permutation is the identity).
    return_indices : bool, default False
        With ``return_groups``, also the index of each unique key's first occurrence.
    return_counts : bool, default False
        Also the number of occurrences of each.

    Returns
    -------
    pdarray, Strings, Categorical, tuple
        The unique keys (a tuple of arrays for rows), with what the flags ask for.

    Raises
    ------
    TypeError
        ``pda`` is not an array or a list of arrays.
    ValueError
        The arrays of a list differ in length.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.unique(ak.array([3, 1, 3, 2])).tolist()
    [1, 2, 3]
    >>> u, c = ak.unique(ak.array([2.0, 1.0, 2.0]), return_counts=True)
    >>> u.tolist(), c.tolist()
    ([1.0, 2.0], [1, 2])
    """
    if return_groups and (assume_sorted or _has_str_key(pda)):
        perm, segs = _sorted_groups(pda) if assume_sorted else _groupby_groups(pda)
        uki = perm[segs] if segs.size else zeros(0, int64)
        seq = isinstance(pda, (list, tuple))
        u = tuple(k[uki] for k in pda) if seq else pda[uki]
        nkeys = len(pda) if seq else 1
        return (u, perm, segs, nkeys, uki) if return_indices else (u, perm, segs, nkeys)
    if hasattr(pda, "_limbs") and not return_groups and not return_counts:  # bigint
        return _sorted_rows([pda[_unique_idx([pda])]], False)
    if is_str_key(pda) and not return_groups:  # Strings / Categorical: their own sort
        if return_counts:
            return GroupBy(pda).size()
        return pda.unique()
    ks, seq = key_list(pda, "pda")
    n = ks[0].size
    limit = None if (seq or return_groups) else dense_limit(ks[0])
    if limit is not None and not return_counts:  # one pass into a presence bitmap, no sort
        uk = _atoll.dense_unique(dense_key(ks[0]), n, limit)
        if uk is not None:  # None: the keys span more than the limit
            return dense_keys_out(uk, ks[0])
        limit = None
    r = None if limit is None else _atoll.dense_aggregate(dense_key(ks[0]), n, limit)
    if r is not None:  # one pass, no sort (None: the keys span more than the limit)
        keys, c, _ = r
        dense_uk = dense_keys_out(keys, ks[0])
        return (dense_uk, pdarray(c)) if return_counts else dense_uk
    perm, _, segs = _group(ks)
    uki = perm[segs] if segs.size else zeros(0, int64)
    uniq = [k[uki] for k in ks]
    u = tuple(uniq) if seq else uniq[0]
    if return_groups:
        return (u, perm, segs, len(ks), uki) if return_indices else (u, perm, segs, len(ks))
    if return_counts:
        ends = concatenate([segs[1:], array(np.array([n], dtype=np.int64))]) if segs.size else segs
        return u, (ends - segs)._materialize()
    return u


def _has_str_key(pda: object) -> bool:
    return builtins.any(is_str_key(k) for k in (pda if isinstance(pda, (list, tuple)) else [pda]))


def _groupby_groups(pda: object) -> tuple[pdarray, pdarray]:
    """(permutation, segments) of a GroupBy of ``pda`` (any groupable keys)."""
    g = GroupBy(pda)
    return g.permutation, g.segments


def _sorted_groups(pda: Any) -> tuple[pdarray, pdarray]:  # noqa: ANN401 (keys, or a list of them)
    """(identity permutation, segments) of keys whose equal rows are already adjacent."""
    ks = list(pda) if isinstance(pda, (list, tuple)) else [pda]
    n = ks[0].size
    if n == 0:
        return zeros(0, int64), zeros(0, int64)
    step = zeros(n - 1, bool_)
    for k in ks:
        step = step | (k[1:] != k[: n - 1])
    starts = arange(1, n)[step]
    return arange(n), concatenate([zeros(1, int64), starts])


def value_counts(pda: Any) -> Any:  # noqa: ANN401 (any keys; a pair)
    """The distinct values and the number of occurrences of each.

    Parameters
    ----------
    pda : pdarray, Strings, Categorical, or a list of them
        The keys.

    Returns
    -------
    tuple
        ``(unique values, counts)``, the values sorted.

    Examples
    --------
    >>> import atoll as ak
    >>> u, c = ak.value_counts(ak.array([5, 7, 5]))
    >>> u.tolist(), c.tolist()
    ([5, 7], [2, 1])
    """
    return unique(pda, return_counts=True)


def _concat_rows(a: list[Any], b: list[Any]) -> list[Any]:
    return [concatenate([x, y]) for x, y in zip(a, b)]


def _pair(a: object, b: object) -> tuple[list[Any], list[Any], bool]:
    ka, sa = key_list(a, "pda1")
    kb, sb = key_list(b, "pda2")
    if len(ka) != len(kb):
        raise ValueError(f"pda1 and pda2 must have the same number of key arrays, got {len(ka)} and {len(kb)}")
    return ka, kb, sa


class NonUniqueError(ValueError):
    """Keys that must be unique are not (Arkouda's ``arkouda.numpy.alignment.NonUniqueError``)."""

    __module__ = "atoll.numpy.alignment"  # where Arkouda's scripts name it


def in1d(
    pda1: Any,  # noqa: ANN401 (a pdarray, Strings, Categorical, bigint array, or a list of them)
    pda2: Any,  # noqa: ANN401 (a pdarray, Strings, Categorical, bigint array, or a list of them)
    assume_unique: bool = False,
    invert: bool = False,
    symmetric: bool = False,
) -> Any:  # noqa: ANN401 (a pdarray, or a pair)
    """For each element (row) of ``pda1``, whether it occurs in ``pda2`` (``numpy.isin``).

    Parameters
    ----------
    pda1, pda2 : pdarray, Strings, Categorical, bigint pdarray, or a list of them
        The keys (rows of a list); strings compare with strings only.
    assume_unique : bool, default False
        The rows of each side are distinct (checked for lists).
    invert : bool, default False
        Whether it does not occur instead.
    symmetric : bool, default False
        Also the same for ``pda2`` in ``pda1`` (a pair).

    Returns
    -------
    pdarray or tuple of pdarray
        A bool pdarray of ``pda1``'s length (and one of ``pda2``'s).

    Raises
    ------
    TypeError
        Strings against numbers.
    ValueError
        Lists of different numbers of arrays.
    NonUniqueError
        ``assume_unique`` and the rows of a list are not distinct.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.in1d(ak.array([1, 2, 3]), ak.array([3, 1])).tolist()
    [True, False, True]
    >>> ak.in1d(ak.array(["a", "b"]), ak.array(["b"]), invert=True).tolist()
    [True, False]
    """
    if symmetric:
        return in1d(pda1, pda2, invert=invert), in1d(pda2, pda1, invert=invert)

    for a, b in ((pda1, pda2), (pda2, pda1)):  # Arkouda's rule: strings against strings only
        if is_str_key(a) and not is_str_key(b) and not isinstance(b, (list, tuple)):
            raise TypeError("Arguments must have compatible types, Strings/Categorical")
    if is_str_key(pda1) and is_str_key(pda2):  # exact string comparison, by hash partitioning
        r = pda1.in1d(pda2 if hasattr(pda2, "_s") else pda2.to_strings())
        return (~r)._materialize() if invert else r
    if assume_unique and isinstance(pda1, (list, tuple)):
        for side in (pda1, pda2):
            if side and side[0].size and _unique_idx(list(side)).size != side[0].size:
                raise NonUniqueError("assume_unique=True, but the rows are not unique")
    if _any_special(pda1, pda2):
        a, _ = _cols(pda1)
        b, _ = _cols(pda2)
        if len(a) != len(b):
            raise ValueError(f"pda1 and pda2 must have the same number of key arrays, got {len(a)} and {len(b)}")
        r = _in_rows(a, b)
        return (~r)._materialize() if invert else r
    ka, kb, _ = _pair(pda1, pda2)
    na, nb = ka[0].size, kb[0].size
    if na == 0:
        return zeros(0, bool_)
    if nb == 0:
        return zeros(na, bool_) | invert
    if len(ka) == 1 and ka[0].dtype == int64:
        dense = dense_range(kb[0], rows=64 * (na + nb))  # a bitmap: range / 8 bytes
        if dense is not None:
            m = pdarray(_atoll.dense_in1d(ka[0]._ex(), na, kb[0]._ex(), nb, dense[0], dense[1]))
            return (~m)._materialize() if invert else m
    c = _concat_rows(ka, kb)
    perm, flags, segs = _group(c)
    # A group holds a row of pda2 when its largest index is >= na (perm holds indices of c).
    last = pdarray(_atoll.aggregate(perm._ex(), flags._arr, na + nb, segs.size, "max", 0))
    # Back to the rows: the group of each rank, then unpermute.
    seg = (cumsum(flags.astype(int64)) - 1)._materialize()
    hit_sorted = (last >= na)[seg]
    hit = zeros(na + nb, bool_)
    hit[perm] = hit_sorted
    res = hit[:na]
    for k in ka:
        if k.dtype == float64:
            res = res & ~isnan(k)
    return (~res)._materialize() if invert else res._materialize()


# ----- Strings, Categoricals and bigint arrays (alone or among the columns of rows) ----------


def _special(x: object) -> bool:
    """True for a column that is not one of the four numeric dtypes' pdarrays."""
    return isinstance(x, (Strings, Categorical)) or hasattr(x, "_limbs")


def _any_special(*args: object) -> bool:
    return builtins.any(
        builtins.any(_special(c) for c in a) if isinstance(a, (list, tuple)) else _special(a) for a in args
    )


def _cols(x: object) -> tuple[list[Any], bool]:
    return (list(x), True) if isinstance(x, (list, tuple)) else ([x], False)


def _keys_of(col: Any) -> list[Any]:  # noqa: ANN401 (any key column)
    """The pdarray keys whose rows are equal exactly when the column's elements are.

    A Strings' (or Categorical's values') 128-bit hash, a bigint array's limbs, a pdarray
    itself.
    """
    if isinstance(col, Categorical):
        col = _values(col)
    if isinstance(col, Strings):
        return list(col.hash())
    if hasattr(col, "_limbs"):
        return list(col._grouping_keys())
    return [col]


def _values(c: Categorical) -> Strings:
    """The Categorical's values, as a Strings."""
    cats: Any = c.categories
    out: Strings = cats[c.codes]
    return out


def _concat_col(a: Any, b: Any) -> Any:  # noqa: ANN401 (key columns of one kind)
    if isinstance(a, Categorical) or isinstance(b, Categorical):
        sa = _values(a) if isinstance(a, Categorical) else a
        sb = _values(b) if isinstance(b, Categorical) else b
        return Categorical(sconcat([sa, sb]))
    if isinstance(a, Strings):
        return sconcat([a, b])
    if hasattr(a, "_limbs") or hasattr(b, "_limbs"):
        a, b = to_bigint(a), to_bigint(b)
        k = builtins.max(len(a._limbs), len(b._limbs))
        return BigIntArray([concatenate([x, y]) for x, y in zip(a._ext(k), b._ext(k))], a.max_bits)
    return concatenate([a, b])


def _sorted_rows(cols: list[Any], seq: bool) -> Any:  # noqa: ANN401 (the columns, or the one)
    """The rows of ``cols`` in sorted order (NumPy's order of the values)."""
    n = cols[0].size
    if n == 0:
        return cols if seq else cols[0]
    p = coargsort(cols) if len(cols) > 1 else argsort(cols[0])
    out = [c[p] for c in cols]
    return out if seq else out[0]


def _unique_idx(cols: list[Any]) -> pdarray:
    """Indices of the first row of each distinct row of ``cols``."""
    keys = [k for c in cols for k in _keys_of(c)]
    uki: pdarray = unique(keys, return_groups=True, return_indices=True)[4]
    return uki


def _in_rows(a_cols: list[Any], b_cols: list[Any]) -> pdarray:
    ka = [k for c in a_cols for k in _keys_of(c)]
    kb = [k for c in b_cols for k in _keys_of(c)]
    r: pdarray = in1d(ka, kb)
    return r


def _special_setop(op: str, pda1: object, pda2: object) -> Any:  # noqa: ANN401 (as _sorted_rows)
    a, seq = _cols(pda1)
    b, _ = _cols(pda2)
    if len(a) != len(b):
        raise ValueError(f"pda1 and pda2 must have the same number of key arrays, got {len(a)} and {len(b)}")
    if op == "union1d":
        c = [_concat_col(x, y) for x, y in zip(a, b)]
        u = _unique_idx(c)
        return _sorted_rows([x[u] for x in c], seq)
    ua = _unique_idx(a)
    ra = [x[ua] for x in a]
    if op == "intersect1d":
        m = _in_rows(ra, b)
        return _sorted_rows([x[m] for x in ra], seq)
    if op == "setdiff1d":
        m = ~_in_rows(ra, b)
        return _sorted_rows([x[m] for x in ra], seq)
    ub = _unique_idx(b)
    rb = [x[ub] for x in b]
    ma, mb = ~_in_rows(ra, rb), ~_in_rows(rb, ra)
    c = [_concat_col(x[ma], y[mb]) for x, y in zip(ra, rb)]
    return _sorted_rows(c, seq)


def union1d(
    pda1: Any,  # noqa: ANN401 (a pdarray, Strings, Categorical, bigint array, or a list of them)
    pda2: Any,  # noqa: ANN401 (a pdarray, Strings, Categorical, bigint array, or a list of them)
) -> Any:  # noqa: ANN401 (an array, or a list of them)
    """The sorted distinct elements (rows) of both.

    Parameters
    ----------
    pda1, pda2 : pdarray, Strings, Categorical, bigint pdarray, or a list of them
        The keys (rows of a list).

    Returns
    -------
    pdarray, Strings, Categorical, or a list of them
        The distinct elements, sorted.

    Raises
    ------
    ValueError
        Lists of different numbers of arrays.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.union1d(ak.array([3, 1]), ak.array([2, 1])).tolist()
    [1, 2, 3]
    """
    if _any_special(pda1, pda2):
        return _special_setop("union1d", pda1, pda2)
    ka, kb, seq = _pair(pda1, pda2)
    return unique(_rows(_concat_rows(ka, kb), seq))


def _unique_rows(k: list[Any], seq: bool) -> list[Any]:
    u = unique(k if seq else k[0])
    return list(u) if seq else [u]


def intersect1d(
    pda1: Any,  # noqa: ANN401 (a pdarray, Strings, Categorical, bigint array, or a list of them)
    pda2: Any,  # noqa: ANN401 (a pdarray, Strings, Categorical, bigint array, or a list of them)
    assume_unique: bool = False,
) -> Any:  # noqa: ANN401 (an array, or a list of them)
    """The sorted distinct elements (rows) in both.

    Parameters
    ----------
    pda1, pda2 : pdarray, Strings, Categorical, bigint pdarray, or a list of them
        The keys (rows of a list).
    assume_unique : bool, default False
        Arkouda's hint; the result is the same.

    Returns
    -------
    pdarray, Strings, Categorical, or a list of them
        The common elements, sorted.

    Raises
    ------
    ValueError
        Lists of different numbers of arrays.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.intersect1d(ak.array([3, 1, 2]), ak.array([2, 3, 4])).tolist()
    [2, 3]
    """
    if _any_special(pda1, pda2):
        return _special_setop("intersect1d", pda1, pda2)
    ka, kb, seq = _pair(pda1, pda2)
    ua = _unique_rows(ka, seq)  # also sorts, as NumPy's result is
    m = in1d(_rows(ua, seq), _rows(kb, seq))
    out = [x[m] for x in ua]
    return out if seq else out[0]


def setdiff1d(
    pda1: Any,  # noqa: ANN401 (a pdarray, Strings, Categorical, bigint array, or a list of them)
    pda2: Any,  # noqa: ANN401 (a pdarray, Strings, Categorical, bigint array, or a list of them)
    assume_unique: bool = False,
) -> Any:  # noqa: ANN401 (an array, or a list of them)
    """The sorted distinct elements (rows) of ``pda1`` not in ``pda2``.

    Parameters
    ----------
    pda1, pda2 : pdarray, Strings, Categorical, bigint pdarray, or a list of them
        The keys (rows of a list).
    assume_unique : bool, default False
        Arkouda's hint; the result is the same.

    Returns
    -------
    pdarray, Strings, Categorical, or a list of them
        The elements only ``pda1`` has, sorted.

    Raises
    ------
    ValueError
        Lists of different numbers of arrays.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.setdiff1d(ak.array(["b", "a", "c"]), ak.array(["c"])).tolist()
    ['a', 'b']
    """
    if _any_special(pda1, pda2):
        return _special_setop("setdiff1d", pda1, pda2)
    ka, kb, seq = _pair(pda1, pda2)
    ua = _unique_rows(ka, seq)
    m = in1d(_rows(ua, seq), _rows(kb, seq), invert=True)
    out = [x[m] for x in ua]
    return out if seq else out[0]


def setxor1d(
    pda1: Any,  # noqa: ANN401 (a pdarray, Strings, Categorical, bigint array, or a list of them)
    pda2: Any,  # noqa: ANN401 (a pdarray, Strings, Categorical, bigint array, or a list of them)
    assume_unique: bool = False,
) -> Any:  # noqa: ANN401 (an array, or a list of them)
    """The sorted distinct elements (rows) in exactly one of the two.

    Parameters
    ----------
    pda1, pda2 : pdarray, Strings, Categorical, bigint pdarray, or a list of them
        The keys (rows of a list).
    assume_unique : bool, default False
        The elements of each side are distinct (not checked).

    Returns
    -------
    pdarray, Strings, Categorical, or a list of them
        The elements in one side only, sorted.

    Raises
    ------
    ValueError
        Lists of different numbers of arrays.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.setxor1d(ak.array([1, 2, 3]), ak.array([3, 4])).tolist()
    [1, 2, 4]
    """
    if _any_special(pda1, pda2):
        return _special_setop("setxor1d", pda1, pda2)
    ka, kb, seq = _pair(pda1, pda2)
    ua = ka if assume_unique else _unique_rows(ka, seq)
    ub = kb if assume_unique else _unique_rows(kb, seq)
    c = _concat_rows(ua, ub)
    u, counts = unique(c if seq else c[0], return_counts=True)
    once = counts == 1
    out = [x[once] for x in (list(u) if seq else [u])]
    return out if seq else out[0]


__all__ = ["unique", "value_counts", "in1d", "union1d", "intersect1d", "setdiff1d", "setxor1d", "indexof1d"]


def multiarray_setop_validation(pda1: Sequence[Any], pda2: Sequence[Any]) -> None:
    """Checks two lists of key arrays for a set operation on rows.

    As many arrays on each side, one length per side, the same dtypes.

    Parameters
    ----------
    pda1, pda2 : list of pdarray or Strings
        The two sides.

    Raises
    ------
    TypeError
        A side is not a list, or the dtypes differ.
    ValueError
        The numbers of arrays differ, or the arrays of a side differ in length.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.numpy.pdarraysetops import multiarray_setop_validation
    >>> multiarray_setop_validation([ak.arange(2)], [ak.arange(3)])
    >>> multiarray_setop_validation([ak.arange(2)], [ak.zeros(2)])
    Traceback (most recent call last):
    ...
    TypeError: Array dtypes of arguments must match
    """
    if not isinstance(pda1, (list, tuple)) or not isinstance(pda2, (list, tuple)):
        raise TypeError("pda1 and pda2 must be lists of arrays")
    if len(pda1) != len(pda2):
        raise ValueError("multi-array setops require same number of arrays in arguments.")
    if len({x.size for x in pda1}) > 1 or len({x.size for x in pda2}) > 1:
        raise ValueError("multi-array setops require arrays in each argument to be the same length.")
    if [getattr(x, "dtype", type(x)) for x in pda1] != [getattr(x, "dtype", type(x)) for x in pda2]:
        raise TypeError("Array dtypes of arguments must match")


def _no_indices() -> pdarray:
    """An empty int64 pdarray."""
    out: pdarray = zeros(0, int64)
    return out


def indexof1d(query: Any, space: Any) -> pdarray:  # noqa: ANN401 (pdarrays or Strings)
    """For each element of ``query`` in order, the indices of every occurrence of it in ``space``.

    The indices increase; elements absent from ``space`` give nothing (Arkouda's
    ``find(query, space, all_occurrences=True, remove_missing=True)``).

    Parameters
    ----------
    query : pdarray or Strings
        The elements looked for.
    space : pdarray or Strings
        Where they are looked for.

    Returns
    -------
    pdarray
        The int64 indices into ``space``.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.indexof1d(ak.array([2, 9, 1]), ak.array([1, 2, 1, 2])).tolist()
    [1, 3, 0, 2]
    """
    if query.size == 0 or space.size == 0:
        return _no_indices()
    g = GroupBy(space)
    uk, counts = g.size()
    segs, perm = g.segments, g.permutation
    found = in1d(query, uk)
    gi = searchsorted(uk, query[found])
    cnt = counts[gi]
    total = builtins.int(_sum(cnt)) if cnt.size else 0
    if total == 0:
        return _no_indices()
    off = (cumsum(cnt) - cnt)._materialize()
    mark = zeros(total, int64)
    mark[off] = 1
    j = (cumsum(mark) - 1)._materialize()  # the matched query of each output position
    idx = segs[gi][j] + (arange(total) - off[j])
    out: pdarray = perm[idx]
    return out
