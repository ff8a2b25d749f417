"""Arkouda's set operations on one key array or on rows of several (a list of pdarrays):
``unique``, ``value_counts``, ``in1d``, ``union1d``, ``intersect1d``, ``setdiff1d``,
``setxor1d``. All sort-based (one distributed radix sort of the keys); results sorted, as
NumPy's. Equality is NumPy's (``-0.0 == 0.0``); NaN: ``unique`` keeps one NaN (as
``numpy.unique``), ``in1d`` finds no NaN (NaN equals nothing, as ``numpy.isin``)."""

import numpy as np

from . import _atoll
from ._keys import dense_limit, dense_range, key_expr, key_list
from .dtypes import bool_, float64, int64
from .pdarrayclass import pdarray


def _group(ks):
    """(permutation, flags, segments) of the rows of the key arrays ``ks`` (every NaN one key)."""
    from .creation import zeros

    n = ks[0].size
    if n == 0:
        return zeros(0, int64), zeros(0, bool_), zeros(0, int64)
    p, f, s = _atoll.groupby([key_expr(k) for k in ks], n)
    return pdarray(p), pdarray(f), pdarray(s)


def _rows(x, seq):
    return list(x) if seq else x[0]


def unique(pda, return_counts=False, return_groups=False, return_indices=False, assume_sorted=False):
    """The sorted distinct values of ``pda`` (or distinct rows of a list of pdarrays).

    ``return_counts``: also the number of occurrences of each; ``return_groups``: Arkouda's
    ``(unique, permutation, segments, nkeys)`` (plus the index of each unique key's first
    occurrence when ``return_indices``)."""
    from .creation import array, zeros
    from .manipulation import concatenate
    from .str_groupby import is_str_key

    if is_str_key(pda) and not return_groups:  # Strings / Categorical: their own sort
        if return_counts:
            from .groupby import GroupBy

            return GroupBy(pda).size()
        return pda.unique()
    ks, seq = key_list(pda, "pda")
    n = ks[0].size
    limit = None if (seq or return_groups) else dense_limit(ks[0])
    if limit is not None and not return_counts:  # one pass into a presence bitmap, no sort
        uk = _atoll.dense_unique(ks[0]._ex(), n, limit)
        if uk is not None:  # None: the keys span more than the limit
            return pdarray(uk)
        limit = None
    r = None if limit is None else _atoll.dense_aggregate(ks[0]._ex(), n, limit)
    if r is not None:  # one pass, no sort (None: the keys span more than the limit)
        uk, c, _ = r
        return (pdarray(uk), pdarray(c)) if return_counts else pdarray(uk)
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


def value_counts(pda):
    """``(unique values, counts)``."""
    return unique(pda, return_counts=True)


def _concat_rows(a, b):
    from .manipulation import concatenate

    return [concatenate([x, y]) for x, y in zip(a, b)]


def _pair(a, b):
    ka, sa = key_list(a, "pda1")
    kb, sb = key_list(b, "pda2")
    if len(ka) != len(kb):
        raise ValueError(f"pda1 and pda2 must have the same number of key arrays, got {len(ka)} and {len(kb)}")
    return ka, kb, sa


def in1d(pda1, pda2, assume_unique=False, invert=False):
    """For each element (row) of ``pda1``, whether it occurs in ``pda2`` (``numpy.isin``)."""
    from .creation import zeros
    from .numeric import isnan
    from .str_groupby import is_str_key

    if is_str_key(pda1) and is_str_key(pda2):  # exact string comparison, by hash partitioning
        r = pda1.in1d(pda2 if hasattr(pda2, "_s") else pda2.to_strings())
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
    from .pdarrayclass import cumsum

    seg = (cumsum(flags.astype(int64)) - 1)._materialize()
    hit_sorted = (last >= na)[seg]
    hit = zeros(na + nb, bool_)
    hit[perm] = hit_sorted
    res = hit[:na]
    for k in ka:
        if k.dtype == float64:
            res = res & ~isnan(k)
    return (~res)._materialize() if invert else res._materialize()


def union1d(pda1, pda2):
    """The sorted distinct elements (rows) of both."""
    ka, kb, seq = _pair(pda1, pda2)
    return unique(_rows(_concat_rows(ka, kb), seq))


def _unique_rows(k, seq):
    u = unique(k if seq else k[0])
    return list(u) if seq else [u]


def intersect1d(pda1, pda2, assume_unique=False):
    """The sorted distinct elements (rows) in both."""
    ka, kb, seq = _pair(pda1, pda2)
    ua = _unique_rows(ka, seq)  # also sorts, as NumPy's result is
    m = in1d(_rows(ua, seq), _rows(kb, seq))
    out = [x[m] for x in ua]
    return out if seq else out[0]


def setdiff1d(pda1, pda2, assume_unique=False):
    """The sorted distinct elements (rows) of ``pda1`` not in ``pda2``."""
    ka, kb, seq = _pair(pda1, pda2)
    ua = _unique_rows(ka, seq)
    m = in1d(_rows(ua, seq), _rows(kb, seq), invert=True)
    out = [x[m] for x in ua]
    return out if seq else out[0]


def setxor1d(pda1, pda2, assume_unique=False):
    """The sorted distinct elements (rows) in exactly one of the two."""
    ka, kb, seq = _pair(pda1, pda2)
    ua = ka if assume_unique else _unique_rows(ka, seq)
    ub = kb if assume_unique else _unique_rows(kb, seq)
    c = _concat_rows(ua, ub)
    u, counts = unique(c if seq else c[0], return_counts=True)
    once = counts == 1
    out = [x[once] for x in (list(u) if seq else [u])]
    return out if seq else out[0]


__all__ = ["unique", "value_counts", "in1d", "union1d", "intersect1d", "setdiff1d", "setxor1d"]
