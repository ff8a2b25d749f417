"""Arkouda's sorting functions on the distributed radix sort of ``atoll-ops``: ``argsort``,
``sort``, ``coargsort`` (several keys), ``is_sorted`` and ``searchsorted``.

Order is NumPy's: stable, NaN last, ``-0.0`` equal to ``0.0`` (kept in input order)."""

import builtins
from enum import Enum

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
    """Arkouda's sort algorithms; Atoll has one (a distributed stable radix sort) and takes
    every choice to mean it."""

    RadixSortLSD = "RadixSortLSD"
    TwoArrayRadixSort = "TwoArrayRadixSort"


def _empty_perm():
    return zeros(0, int64)


@tracked("argsort", rows=0)
def argsort(pda, algorithm=None, axis=-1, ascending=True):
    """The int64 permutation that sorts ``pda`` stably (``numpy.argsort(kind="stable")``);
    Strings and Categoricals sort by code point. ``ascending=False``: in nonincreasing order,
    equal elements in index order and NaN last (pandas' ``sort_values(ascending=False,
    kind="stable")``). Of an N-d pdarray: for each lane along ``axis`` (default the last, as
    NumPy's; None: the flat values), the positions within the lane that sort it."""

    if is_str_key(pda):
        return pda.argsort() if ascending else coargsort([pda], ascending=False)
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
def sort(pda, algorithm=None, axis=-1):
    """The elements of ``pda`` in nondecreasing order (NaN last). Of an N-d pdarray: each lane
    along ``axis`` (default the last; None: the flat values) sorted."""
    _check(pda)
    if pda._shape is not None and axis is not None:
        return _sort_along(pda, axis, True, False)  # rank 0: NumPy's AxisError
    if axis is not None:
        _axis1(axis)
    if pda._shape is not None:  # axis None: the flat values
        pda = _flat_values(pda)
    if pda.size == 0:
        return pda[0:0]
    return pda[argsort(pda)]


def _flat_values(pda):
    """``pda``'s C-order flat values as a 1-D pdarray (no copy)."""
    pda._materialize()
    return pdarray(pda._arr, pda._start, pda._step, pda._size)


def _sort_along(pda, axis, ascending, positions):
    """Each lane of the N-d ``pda`` along ``axis`` sorted stably (NaN last), or with
    ``positions`` the positions within the lane that sort it. The storage is C order over the
    flat index: the axis is moved last (one gather, none when it is last), one sort by (lane,
    value) orders every lane at once, and the result is moved back."""

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
def coargsort(arrays, algorithm=None, ascending=True):
    """The int64 permutation that sorts the rows of ``arrays`` (a list of pdarrays, Strings or
    Categoricals of one length, the first most significant) lexicographically and stably;
    ``ascending``: one bool for every key, or a list of one bool per array; a key sorted
    descending is in nonincreasing order (equal rows in index order, NaN last)."""

    if not isinstance(arrays, (list, tuple)):
        raise TypeError(f"arrays: expected a list of pdarrays, got {type(arrays).__name__}")
    return lexsort_perm(arrays, ascending)


def _directions(ascending, n):
    """One bool per key of ``n`` keys from a bool or a list of bools (ValueError, as pandas
    raises, when the list has another length or holds something else)."""
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


def lexsort_perm(arrays, ascending=True, na_position="last"):
    """The stable permutation that sorts the rows of ``arrays`` (the first most significant)
    as pandas' ``sort_values(kind="stable")`` does: each array ascending or descending (a bool,
    or one per array), NaN of the float arrays first or last (``na_position``) in either
    direction. An array of several key columns (bigint limbs) takes its array's direction;
    Strings and Categoricals sort by their ranks."""

    if na_position not in ("first", "last"):
        raise ValueError(f"invalid na_position: {na_position}")
    arrays = list(arrays)
    if not arrays:
        raise ValueError("arrays: no key array")
    dirs = _directions(ascending, len(arrays))
    ks, ds = [], []
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
    exprs = lambda keys, dirs: [key_expr(k) if d else key_expr_desc(k) for k, d in zip(keys, dirs)]  # noqa: E731
    if len(ks) == 1:
        return pdarray(_atoll.argsort(exprs(ks, ds)[0], n))
    if len(ks) <= _MAX_KEYS:
        return pdarray(_atoll.coargsort(exprs(ks, ds), n))
    # More keys: stable sorts by groups of keys, the least significant group first.
    perm = None
    for hi in range(len(ks), 0, -_MAX_KEYS):
        lo = builtins.max(0, hi - _MAX_KEYS)
        group = ks[lo:hi]
        if perm is not None:
            group = [k[perm] for k in group]
        p = pdarray(_atoll.coargsort(exprs(group, ds[lo:hi]), n))
        perm = p if perm is None else perm[p]
    return perm


# Key arrays that one native coargsort (and groupby) takes.
_MAX_KEYS = 8


def group_keys(exprs, keys, n):
    """``(permutation, group-start flags, segments)`` of the rows of key arrays: the native
    group-by for up to ``_MAX_KEYS`` keys, else a ``coargsort`` of all of them and the rows'
    boundaries (``exprs``: their sort-key expressions; ``keys``: the pdarrays)."""

    if len(exprs) <= _MAX_KEYS:
        p, f, s = _atoll.groupby(exprs, n)
        return pdarray(p), pdarray(f), pdarray(s)
    perm = coargsort(list(keys))
    flags = full(n, False, bool)
    if n:
        flags[0] = True
        if n > 1:
            diff = None
            for k in keys:
                sk = k[perm]
                d = sk[1:] != sk[: n - 1]
                diff = d if diff is None else diff | d
            flags[1:] = diff
    return perm, flags._materialize(), arange(n)[flags]


def searchsorted(a, v, side="left", x2_sorted=False):
    """For each element of ``v``, the index where it would be inserted into the sorted ``a``
    to keep it sorted (``numpy.searchsorted``); ``side`` is ``"left"`` or ``"right"``;
    ``x2_sorted`` (Arkouda's hint that ``v`` is sorted) changes nothing here. ``a`` is 1-D
    (ValueError else); a ``v`` of any shape gives an answer of that shape."""

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
