"""Arkouda's set operations on one key array or on rows of several (a list of pdarrays):
``unique``, ``value_counts``, ``in1d``, ``union1d``, ``intersect1d``, ``setdiff1d``,
``setxor1d``. All sort-based (one distributed radix sort of the keys); results sorted, as
NumPy's. Equality is NumPy's (``-0.0 == 0.0``); NaN: ``unique`` keeps one NaN (as
``numpy.unique``), ``in1d`` finds no NaN (NaN equals nothing, as ``numpy.isin``)."""

import builtins

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


def _group(ks):
    """(permutation, flags, segments) of the rows of the key arrays ``ks`` (every NaN one key)."""

    n = ks[0].size
    if n == 0:
        return zeros(0, int64), zeros(0, bool_), zeros(0, int64)

    return group_keys([key_expr(k) for k in ks], ks, n)


def _rows(x, seq):
    return list(x) if seq else x[0]


def unique(pda, return_groups=False, assume_sorted=False, return_indices=False, return_counts=False):
    """The sorted distinct values of ``pda`` (or distinct rows of a list of pdarrays).

    Arkouda's order of arguments: ``return_groups`` gives ``(unique, permutation, segments,
    nkeys)`` (plus the index of each unique key's first occurrence when ``return_indices``);
    ``assume_sorted``: equal rows are already next to each other (the permutation is the
    identity). ``return_counts`` (a keyword): also the number of occurrences of each."""

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
        uk, c, _ = r
        uk = dense_keys_out(uk, ks[0])
        return (uk, pdarray(c)) if return_counts else uk
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


def _has_str_key(pda):
    return builtins.any(is_str_key(k) for k in (pda if isinstance(pda, (list, tuple)) else [pda]))


def _groupby_groups(pda):
    """(permutation, segments) of a GroupBy of ``pda`` (any groupable keys)."""

    g = GroupBy(pda)
    return g.permutation, g.segments


def _sorted_groups(pda):
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


def value_counts(pda):
    """``(unique values, counts)``."""
    return unique(pda, return_counts=True)


def _concat_rows(a, b):
    return [concatenate([x, y]) for x, y in zip(a, b)]


def _pair(a, b):
    ka, sa = key_list(a, "pda1")
    kb, sb = key_list(b, "pda2")
    if len(ka) != len(kb):
        raise ValueError(f"pda1 and pda2 must have the same number of key arrays, got {len(ka)} and {len(kb)}")
    return ka, kb, sa


class NonUniqueError(ValueError):
    """Keys that must be unique are not (Arkouda's ``arkouda.numpy.alignment.NonUniqueError``)."""

    __module__ = "atoll.numpy.alignment"  # where Arkouda's scripts name it


def in1d(pda1, pda2, assume_unique=False, invert=False, symmetric=False):
    """For each element (row) of ``pda1``, whether it occurs in ``pda2`` (``numpy.isin``);
    ``symmetric``: also the same for ``pda2`` in ``pda1`` (a pair)."""
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


def _special(x):
    """True for a column that is not one of the four numeric dtypes' pdarrays."""

    return isinstance(x, (Strings, Categorical)) or hasattr(x, "_limbs")


def _any_special(*args):
    return builtins.any(
        builtins.any(_special(c) for c in a) if isinstance(a, (list, tuple)) else _special(a) for a in args
    )


def _cols(x):
    return (list(x), True) if isinstance(x, (list, tuple)) else ([x], False)


def _keys_of(col):
    """pdarray keys whose rows are equal exactly when the column's elements are: a Strings'
    (or Categorical's values') 128-bit hash, a bigint array's limbs, a pdarray itself."""

    if isinstance(col, Categorical):
        col = col.categories[col.codes]
    if isinstance(col, Strings):
        return list(col.hash())
    if hasattr(col, "_limbs"):
        return col._grouping_keys()
    return [col]


def _concat_col(a, b):
    if isinstance(a, Categorical) or isinstance(b, Categorical):
        sa = a.categories[a.codes] if isinstance(a, Categorical) else a
        sb = b.categories[b.codes] if isinstance(b, Categorical) else b
        return Categorical(sconcat([sa, sb]))
    if isinstance(a, Strings):
        return sconcat([a, b])
    if hasattr(a, "_limbs") or hasattr(b, "_limbs"):
        a, b = to_bigint(a), to_bigint(b)
        k = builtins.max(len(a._limbs), len(b._limbs))
        return BigIntArray([concatenate([x, y]) for x, y in zip(a._ext(k), b._ext(k))], a.max_bits)
    return concatenate([a, b])


def _sorted_rows(cols, seq):
    """The rows of ``cols`` in sorted order (NumPy's order of the values)."""

    n = cols[0].size
    if n == 0:
        return cols if seq else cols[0]
    p = coargsort(cols) if len(cols) > 1 else argsort(cols[0])
    out = [c[p] for c in cols]
    return out if seq else out[0]


def _unique_idx(cols):
    """Indices of the first row of each distinct row of ``cols``."""
    keys = [k for c in cols for k in _keys_of(c)]
    _, _, _, _, uki = unique(keys, return_groups=True, return_indices=True)
    return uki


def _in_rows(a_cols, b_cols):
    ka = [k for c in a_cols for k in _keys_of(c)]
    kb = [k for c in b_cols for k in _keys_of(c)]
    return in1d(ka, kb)


def _special_setop(op, pda1, pda2):
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


def union1d(pda1, pda2):
    """The sorted distinct elements (rows) of both."""
    if _any_special(pda1, pda2):
        return _special_setop("union1d", pda1, pda2)
    ka, kb, seq = _pair(pda1, pda2)
    return unique(_rows(_concat_rows(ka, kb), seq))


def _unique_rows(k, seq):
    u = unique(k if seq else k[0])
    return list(u) if seq else [u]


def intersect1d(pda1, pda2, assume_unique=False):
    """The sorted distinct elements (rows) in both."""
    if _any_special(pda1, pda2):
        return _special_setop("intersect1d", pda1, pda2)
    ka, kb, seq = _pair(pda1, pda2)
    ua = _unique_rows(ka, seq)  # also sorts, as NumPy's result is
    m = in1d(_rows(ua, seq), _rows(kb, seq))
    out = [x[m] for x in ua]
    return out if seq else out[0]


def setdiff1d(pda1, pda2, assume_unique=False):
    """The sorted distinct elements (rows) of ``pda1`` not in ``pda2``."""
    if _any_special(pda1, pda2):
        return _special_setop("setdiff1d", pda1, pda2)
    ka, kb, seq = _pair(pda1, pda2)
    ua = _unique_rows(ka, seq)
    m = in1d(_rows(ua, seq), _rows(kb, seq), invert=True)
    out = [x[m] for x in ua]
    return out if seq else out[0]


def setxor1d(pda1, pda2, assume_unique=False):
    """The sorted distinct elements (rows) in exactly one of the two."""
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


def multiarray_setop_validation(pda1, pda2):
    """Checks two lists of key arrays for a set operation on rows: as many arrays on each
    side, one length per side, the same dtypes; TypeError/ValueError otherwise."""
    if not isinstance(pda1, (list, tuple)) or not isinstance(pda2, (list, tuple)):
        raise TypeError("pda1 and pda2 must be lists of arrays")
    if len(pda1) != len(pda2):
        raise ValueError("multi-array setops require same number of arrays in arguments.")
    if len({x.size for x in pda1}) > 1 or len({x.size for x in pda2}) > 1:
        raise ValueError("multi-array setops require arrays in each argument to be the same length.")
    if [getattr(x, "dtype", type(x)) for x in pda1] != [getattr(x, "dtype", type(x)) for x in pda2]:
        raise TypeError("Array dtypes of arguments must match")


def indexof1d(query, space):
    """For each element of ``query`` in order, the indices of every occurrence of it in
    ``space`` (increasing); elements absent from ``space`` give nothing (Arkouda's
    ``find(query, space, all_occurrences=True, remove_missing=True)``)."""

    if query.size == 0 or space.size == 0:
        return zeros(0, int64)
    g = GroupBy(space)
    uk, counts = g.size()
    segs, perm = g.segments, g.permutation
    found = in1d(query, uk)
    gi = searchsorted(uk, query[found])
    cnt = counts[gi]
    total = builtins.int(_sum(cnt)) if cnt.size else 0
    if total == 0:
        return zeros(0, int64)
    off = (cumsum(cnt) - cnt)._materialize()
    mark = zeros(total, int64)
    mark[off] = 1
    j = (cumsum(mark) - 1)._materialize()  # the matched query of each output position
    idx = segs[gi][j] + (arange(total) - off[j])
    return perm[idx]
