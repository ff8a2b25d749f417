"""Arkouda's sorting functions on the distributed radix sort of ``atoll-ops``.

``argsort``, ``sort``, ``coargsort`` (several keys), ``is_sorted`` and ``searchsorted``. Order
is NumPy's: stable, NaN last, ``-0.0`` equal to ``0.0`` (kept in input order).
"""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from enum import Enum
from typing import Any, cast

import numpy as np

from .. import _atoll
from .._keys import has_nan, key_expr, key_expr_desc, key_list
from ..pandas._concat import generic_concat as concatenate
from ..progress import tracked
from ..str_groupby import is_str_key, rank_keys
from . import _nd
from ._bigint import to_bigint
from .dtypes import int64, is_scalar, result, result as _result
from .numeric import isnan
from .pdarrayclass import _axis1, _check, cumsum, is_sorted, pdarray
from .pdarraycreation import arange, array, full, zeros


class SortingAlgorithm(Enum):
    """Arkouda's sort algorithms.

    Atoll has one (a distributed stable radix sort) and takes every choice to mean it.
    """

    RadixSortLSD = "RadixSortLSD"
    TwoArrayRadixSort = "TwoArrayRadixSort"


def _empty_perm() -> pdarray:
    return zeros(0, int64)


@tracked("argsort", rows=0)
def argsort(
    pda: Any,  # noqa: ANN401 (a pdarray, Strings, Categorical or bigint array)
    algorithm: SortingAlgorithm | str | None = None,
    axis: int | None = -1,
    ascending: bool = True,
) -> pdarray:
    """The int64 permutation that sorts ``pda`` stably (``numpy.argsort(kind="stable")``).

    Strings and Categoricals sort by code point. ``ascending=False``: in nonincreasing order,
    equal elements in index order and NaN last (pandas' ``sort_values(ascending=False,
    kind="stable")``).

    Parameters
    ----------
    pda : pdarray, Strings, Categorical or bigint pdarray
        The values.
    algorithm : SortingAlgorithm or str, optional
        Arkouda's choice of algorithm; every choice means the one radix sort.
    axis : int or None, default -1
        Of an N-d pdarray: for each lane along ``axis``, the positions within the lane that
        sort it; None: the flat values.
    ascending : bool, default True
        Nondecreasing order, or nonincreasing.

    Returns
    -------
    pdarray
        The int64 permutation.

    Raises
    ------
    TypeError
        ``pda`` is not an array, or ``axis`` not an int.
    numpy.exceptions.AxisError
        ``axis`` is out of bounds.

    Examples
    --------
    >>> import atoll as ak
    >>> import numpy as np
    >>> ak.argsort(ak.array([3, 1, 2])).tolist()
    [1, 2, 0]
    >>> ak.argsort(ak.array([1.0, np.nan, 3.0]), ascending=False).tolist()
    [2, 0, 1]
    """
    if is_str_key(pda):
        if ascending:
            return cast(pdarray, pda.argsort())
        return coargsort([pda], ascending=False)
    if hasattr(pda, "_limbs"):  # bigint: its limbs as keys
        return coargsort([pda], ascending=ascending)
    _check(pda)
    if pda.ndim > 1 and axis is not None:
        return _sort_along(pda, axis, ascending, True)
    if axis is not None and pda.ndim == 1:
        _axis1(axis)
    if pda.size == 0:
        return _empty_perm()
    return pdarray(_atoll.argsort(key_expr(pda) if ascending else key_expr_desc(pda), pda.size))


@tracked("sort", rows=0)
def sort(pda: pdarray, algorithm: SortingAlgorithm | str | None = None, axis: int | None = -1) -> pdarray:
    """The elements of ``pda`` in nondecreasing order (NaN last).

    Parameters
    ----------
    pda : pdarray
        The values.
    algorithm : SortingAlgorithm or str, optional
        Arkouda's choice of algorithm; every choice means the one radix sort.
    axis : int or None, default -1
        Of an N-d pdarray: each lane along ``axis`` sorted; None: the flat values.

    Returns
    -------
    pdarray
        The sorted values.

    Raises
    ------
    TypeError
        ``pda`` is not a pdarray, or ``axis`` not an int.
    numpy.exceptions.AxisError
        ``axis`` is out of bounds.

    Examples
    --------
    >>> import atoll as ak
    >>> import numpy as np
    >>> ak.sort(ak.array([3.0, np.nan, -1.0])).tolist()
    [-1.0, 3.0, nan]
    >>> ak.sort(ak.array([[3, 1], [0, 2]]), axis=0).tolist()
    [[0, 1], [3, 2]]
    """
    _check(pda)
    if pda._shape is not None and axis is not None:
        return _sort_along(pda, axis, True, False)  # rank 0: NumPy's AxisError
    if axis is not None:
        _axis1(axis)
    if pda._shape is not None:  # axis None: the flat values
        pda = _flat_values(pda)
    if pda.size == 0:
        return cast(pdarray, pda[0:0])
    return cast(pdarray, pda[argsort(pda)])


def _flat_values(pda: pdarray) -> pdarray:
    """``pda``'s C-order flat values as a 1-D pdarray (no copy)."""
    pda._materialize()
    return pdarray(pda._arr, pda._start, pda._step, pda._size)


def _sort_along(pda: pdarray, axis: object, ascending: bool, positions: bool) -> pdarray:
    """Each lane of the N-d ``pda`` along ``axis`` sorted stably (NaN last).

    With ``positions``, the positions within the lane that sort it. The storage is C order
    over the flat index: the axis is moved last (one gather, none when it is last), one sort by
    (lane, value) orders every lane at once, and the result is moved back.
    """
    nd = pda.ndim
    if isinstance(axis, (builtins.bool, np.bool_)) or not isinstance(axis, (builtins.int, np.integer)):
        raise TypeError(f"'{type(axis).__name__}' object cannot be interpreted as an integer")
    if not -nd <= axis < nd:
        raise np.exceptions.AxisError(f"axis {axis} is out of bounds for array of dimension {nd}")
    k = builtins.int(axis) % nd
    order = [j for j in range(nd) if j != k] + [k]
    x = pda if k == nd - 1 else pda.transpose(*order)
    shape, n = x.shape, x.size
    lane = shape[-1]
    out: pdarray
    if n == 0 or lane <= 1:
        out = zeros(n, int64) if positions else _flat_values(x)[0:n]
    else:
        flat = _flat_values(x)
        lanes = pdarray(_atoll.arange(n, 0, 1)) // lane
        key = key_expr(flat) if ascending else key_expr_desc(flat)
        perm = pdarray(_atoll.coargsort([lanes._ex(), key], n))
        out = perm % lane if positions else flat[perm]
    out = out._materialize()
    out = pdarray(out._arr, out._start, out._step, out._size, shape=shape)
    return out if k == nd - 1 else out.transpose(*np.argsort(order).tolist())


@tracked("coargsort", rows=0)
def coargsort(
    arrays: Sequence[Any],
    algorithm: SortingAlgorithm | str | None = None,
    ascending: bool | Sequence[bool] = True,
) -> pdarray:
    """The int64 permutation that sorts the rows of ``arrays`` lexicographically and stably.

    Parameters
    ----------
    arrays : list of pdarray, Strings or Categorical
        Arrays of one length, the first most significant.
    algorithm : SortingAlgorithm or str, optional
        Arkouda's choice of algorithm; every choice means the one radix sort.
    ascending : bool or list of bool, default True
        One direction for every key, or one per array; a key sorted descending is in
        nonincreasing order (equal rows in index order, NaN last).

    Returns
    -------
    pdarray
        The int64 permutation.

    Raises
    ------
    TypeError
        ``arrays`` is not a list or tuple.
    ValueError
        No array, arrays of different lengths, or a list ``ascending`` of another length.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.coargsort([ak.array([1, 0, 1, 0]), ak.array([4, 3, 2, 1])]).tolist()
    [3, 1, 2, 0]
    >>> ak.coargsort([ak.array([1, 0, 1]), ak.array(["b", "c", "a"])], ascending=[True, False]).tolist()
    [1, 0, 2]
    """
    if not isinstance(arrays, (list, tuple)):
        raise TypeError(f"arrays: expected a list of pdarrays, got {type(arrays).__name__}")
    return lexsort_perm(arrays, ascending)


def _directions(ascending: object, n: int) -> list[bool]:
    """One bool per key of ``n`` keys from a bool or a list of bools.

    A ValueError, as pandas raises, when the list has another length or holds something else.
    """
    if isinstance(ascending, (list, tuple, np.ndarray)):
        if len(ascending) != n:
            raise ValueError(f"Length of ascending ({len(ascending)}) != length of by ({n})")
        flags = list(ascending)
    else:
        flags = [ascending] * n
    for a in flags:
        if not isinstance(a, (builtins.bool, np.bool_, builtins.int, np.integer)):
            raise ValueError(f'For argument "ascending" expected type bool, received type {type(a).__name__}.')
    return [builtins.bool(a) for a in flags]


def lexsort_perm(arrays: Sequence[Any], ascending: bool | Sequence[bool] = True, na_position: str = "last") -> pdarray:
    """The stable permutation that sorts the rows of ``arrays``, as pandas' ``sort_values``.

    pandas' ``sort_values(kind="stable")``: the first array most significant, NaN of the float
    arrays first or last in either direction. An array of several key columns (bigint limbs)
    takes its array's direction; Strings and Categoricals sort by their ranks.

    Parameters
    ----------
    arrays : list of pdarray, Strings or Categorical
        The keys, of one length.
    ascending : bool or list of bool, default True
        One direction for every key, or one per array.
    na_position : {'last', 'first'}, default 'last'
        Where NaN goes.

    Returns
    -------
    pdarray
        The int64 permutation.

    Raises
    ------
    ValueError
        No array, arrays of different lengths, a bad ``ascending`` or ``na_position``.

    Examples
    --------
    >>> import atoll as ak
    >>> import numpy as np
    >>> from atoll.numpy.sorting import lexsort_perm
    >>> lexsort_perm([ak.array([2.0, np.nan, 1.0])], na_position="first").tolist()
    [1, 2, 0]
    """
    if na_position not in ("first", "last"):
        raise ValueError(f"invalid na_position: {na_position}")
    arrays = list(arrays)
    if not arrays:
        raise ValueError("arrays: no key array")
    dirs = _directions(ascending, len(arrays))
    ks: list[Any] = []
    ds: list[bool] = []
    for a, d in zip(arrays, dirs):
        sub, _ = key_list([rank_keys(a)], "arrays")
        for k in sub:
            if na_position == "first" and has_nan(k):
                # A leading key that is 0 on NaN puts those rows first in either direction.
                ks.append((~isnan(k))._materialize())
                ds.append(True)
            ks.append(k)
            ds.append(d)
    key_list(ks, "arrays")  # one length
    n = ks[0].size
    if n == 0:
        return _empty_perm()
    if len(ks) == 1:
        return pdarray(_atoll.argsort(_exprs(ks, ds)[0], n))
    if len(ks) <= _MAX_KEYS:
        return pdarray(_atoll.coargsort(_exprs(ks, ds), n))
    # More keys: stable sorts by groups of keys, the least significant group first.
    perm: pdarray | None = None
    for hi in range(len(ks), 0, -_MAX_KEYS):
        lo = builtins.max(0, hi - _MAX_KEYS)
        group = ks[lo:hi]
        if perm is not None:
            group = [k[perm] for k in group]
        p = pdarray(_atoll.coargsort(_exprs(group, ds[lo:hi]), n))
        perm = p if perm is None else perm[p]
    assert perm is not None  # more than _MAX_KEYS keys: the loop ran
    return perm


def _exprs(keys: Sequence[Any], dirs: Sequence[bool]) -> list[Any]:
    """The sort-key expressions of ``keys``, each ascending or descending."""
    return [key_expr(k) if d else key_expr_desc(k) for k, d in zip(keys, dirs)]


# Key arrays that one native coargsort (and groupby) takes.
_MAX_KEYS = 8


def group_keys(exprs: list[Any], keys: Sequence[Any], n: int) -> tuple[pdarray, pdarray, pdarray]:
    """The permutation, group-start flags and segments of the rows of key arrays.

    The native group-by for up to ``_MAX_KEYS`` keys, else a ``coargsort`` of all of them and
    the rows' boundaries.

    Parameters
    ----------
    exprs : list
        The keys' sort-key expressions (``atoll._keys.key_expr``).
    keys : list of pdarray
        The keys.
    n : int
        The number of rows.

    Returns
    -------
    tuple of pdarray
        ``(permutation, group-start flags, segments)``: the int64 permutation that groups the
        rows, a bool pdarray True at each group's first row in that order, and the int64
        positions of those rows.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll._keys import key_expr
    >>> from atoll.numpy.sorting import group_keys
    >>> k = ak.array([2, 1, 2])
    >>> [x.tolist() for x in group_keys([key_expr(k)], [k], 3)]
    [[1, 0, 2], [True, True, False], [0, 1]]
    """
    if len(exprs) <= _MAX_KEYS:
        p, f, s = _atoll.groupby(exprs, n)
        return pdarray(p), pdarray(f), pdarray(s)
    perm = coargsort(list(keys))
    flags = full(n, False, bool)
    if n:
        flags[0] = True
        if n > 1:
            diff: Any = None
            for k in keys:
                sk = k[perm]
                d = sk[1:] != sk[: n - 1]
                diff = d if diff is None else diff | d
            flags[1:] = diff
    return perm, flags._materialize(), arange(n)[flags]


def searchsorted(
    a: pdarray,
    v: Any,  # noqa: ANN401 (a pdarray or a scalar)
    side: str = "left",
    x2_sorted: bool = False,
) -> Any:  # noqa: ANN401 (a pdarray, or an int for a scalar v)
    """For each element of ``v``, where it would be inserted into the sorted ``a``.

    The index that keeps ``a`` sorted, as ``numpy.searchsorted``.

    Parameters
    ----------
    a : pdarray
        A sorted 1-D pdarray.
    v : pdarray or scalar
        The values, of any shape (the answer has that shape).
    side : {'left', 'right'}, default 'left'
        Before or after the equal elements of ``a``.
    x2_sorted : bool, default False
        Arkouda's hint that ``v`` is sorted; changes nothing here.

    Returns
    -------
    pdarray or numpy.int64
        The int64 indices, or one index for a scalar ``v``.

    Raises
    ------
    TypeError
        ``a`` is not a pdarray.
    ValueError
        ``a`` is not 1-D, or ``side`` is neither ``'left'`` nor ``'right'``.

    Examples
    --------
    >>> import atoll as ak
    >>> import numpy as np
    >>> a = ak.array([1, 2, 2, 3])
    >>> ak.searchsorted(a, ak.array([2, 4])).tolist(), ak.searchsorted(a, 2, side="right")
    ([1, 4], np.int64(3))
    """
    _check(a, "a")
    if a.ndim != 1:
        raise ValueError(f"a: expected a 1-D array, got one of shape {a.shape}")
    scalar = not isinstance(v, pdarray)
    if not scalar and v._shape is not None and len(v._shape) != 1:
        # An N-d v: the flat values searched, the answer given v's shape (0-d: a scalar).
        flat = searchsorted(a, _flat_values(v), side, x2_sorted)
        return flat[0] if v._shape == () else _nd.with_shape(flat, v._shape)
    big = hasattr(a, "_limbs") or hasattr(v, "_limbs")
    if big:
        a = to_bigint(a)
        v = to_bigint([builtins.int(v)] if scalar else v)
    elif scalar:
        # The scalar keeps its own kind (2.5 is compared as a float), as NumPy compares.
        vd = _result(a.dtype, v) if is_scalar(v) else None
        v = array(np.atleast_1d(np.asarray(v, dtype=vd)))
    if side not in ("left", "right"):
        raise ValueError(f"side: expected 'left' or 'right', got {side!r}")
    na, nv = a.size, v.size
    if nv == 0:
        return zeros(0, int64)
    if na == 0:
        out = zeros(nv, int64)
        return out[0] if scalar else out

    if big:
        c = concatenate([a, v])
    else:
        d = result(a.dtype, v.dtype)
        c = concatenate([a.astype(d), v.astype(d)])
    # Tag: on "left" an element of v sorts before equal elements of a, on "right" after.
    ta, tv = (1, 0) if side == "left" else (0, 1)
    tag = concatenate([zeros(na, int64) + ta, zeros(nv, int64) + tv])
    perm = coargsort([c, tag])
    is_a = perm < na
    before = cumsum(is_a.astype(int64))  # elements of a up to each rank
    from_v = ~is_a
    out = zeros(nv, int64)
    out[perm[from_v] - na] = before[from_v]
    return out[0] if scalar else out


__all__ = ["argsort", "sort", "coargsort", "is_sorted", "searchsorted", "SortingAlgorithm"]
