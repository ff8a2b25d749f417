"""Joins (``arkouda.pandas.join``): ``ak.merge`` of DataFrames (inner, left, right, outer; one
key column or several; suffixes) and ``ak.join_on_eq_with_dt``.

One sort-based algorithm, distributed end to end: the key columns of both sides are
concatenated and grouped (one ``GroupBy``: a distributed radix sort of the keys, Strings by
their ranks), each group counts its left and right rows, and the result's rows are generated
from prefix sums of the per-group products: row ``r`` of group ``g`` pairs left row ``r // nr``
and right row ``r % nr`` of the group (gathers and elementwise arithmetic only; no column is
gathered to the driver). Before the result's columns are allocated, every locale checks that
its budget holds its share of them (``ak.OutOfMemoryError`` naming the locale otherwise).

Rows come out grouped by key in key order (pandas' ``sort=True`` order: within a key, left
rows in order, each paired with the right rows in order); ``sort=False`` puts them in the
order of the left rows (right-only rows last), as pandas does for inner and left joins.
Missing values of a left, right or outer join: NaN in number columns (int and bool columns
become float64, as pandas does), "nan" in Strings, the missing-value label in Categoricals.

>>> import atoll as ak
>>> left = ak.DataFrame({"k": ak.array([1, 2, 2]), "a": ak.array([10, 20, 30])})
>>> right = ak.DataFrame({"k": ak.array([2, 3]), "b": ak.array([5.0, 6.0])})
>>> m = ak.merge(left, right, on="k")
>>> m["a"].tolist(), m["b"].tolist()
([20, 30], [5.0, 5.0])
>>> ak.merge(left, right, on="k", how="outer")["k"].tolist()
[1, 2, 2, 3]
"""

import builtins

import numpy as np

from ..dtypes import float64, int64
from ..pdarrayclass import pdarray
from ..strings import Strings
from ..creation import arange, zeros, full
from ..numeric import where, abs as _abs
from ..pdarrayclass import cumsum, sum as _sum
from .._session import num_locales
from ..strings import from_list
from .categorical import Categorical
from ._bigint_groupby import is_bigint

__all__ = ["MergeError", "merge", "join_indices", "inner_join", "join_on_eq_with_dt", "compute_join_size"]


class MergeError(ValueError):
    """A merge that cannot be done as asked (pandas' ``pandas.errors.MergeError``): suffixes
    that would give two result columns one name."""


def _keys_list(x):
    return [x] if isinstance(x, str) else list(x)


def _joinable(a, b):
    """The two key columns in one comparable form (Categoricals on shared categories)."""
    if isinstance(a, Categorical) and isinstance(b, Categorical):
        a, b = Categorical.standardize_categories([a, b])
        return a.codes, b.codes
    if isinstance(a, Categorical):
        a = a.to_strings()
    if isinstance(b, Categorical):
        b = b.to_strings()
    if isinstance(a, pdarray) != isinstance(b, pdarray):
        raise TypeError(f"cannot join a {type(a).__name__} key with a {type(b).__name__} key")
    return a, b


def join_indices(left_keys, right_keys, how="inner", operation="merge", row_bytes=0):
    """``(left rows, right rows)``: int64 pdarrays of the rows of each output row of the join
    of ``left_keys`` and ``right_keys`` (arrays, or lists of arrays of one length), -1 where a
    side has no row (left, right, outer joins). Grouped by key, in key order."""
    from ..segarray import segment_ids
    from ._concat import generic_concat
    from ._segfold import reserve_check
    from .groupbyclass import GroupBy

    lk = left_keys if isinstance(left_keys, (list, tuple)) else [left_keys]
    rk = right_keys if isinstance(right_keys, (list, tuple)) else [right_keys]
    if len(lk) != len(rk):
        raise ValueError("Cannot merge with more columns from one DataFrame than the other")
    pairs = [_joinable(a, b) for a, b in zip(lk, rk)]
    nl, nr = pairs[0][0].size, pairs[0][1].size
    if how not in ("inner", "left", "right", "outer"):
        raise ValueError(f"Unexpected value of {how} for how. Must choose: 'inner', 'left', 'right' or 'outer'")
    if nl + nr == 0:
        return zeros(0, int64), zeros(0, int64)
    keys = [generic_concat([a, b]) for a, b in pairs]
    g = GroupBy(keys if len(keys) > 1 else keys[0], dropna=False)
    perm, segs = g.permutation, g.segments
    _, cnt = g.size()
    side = (perm >= nl).astype(int64)
    cr = g._agg_sorted(side, "sum")  # right rows per group (they sort after the left rows)
    cl = (cnt - cr)._materialize()
    one = lambda c: where(c > 0, c, 1)  # noqa: E731
    if how == "inner":
        out_n = cl * cr
    elif how == "left":
        out_n = cl * one(cr)
    elif how == "right":
        out_n = one(cl) * cr
    else:
        out_n = one(cl) * one(cr)
    out_n = out_n._materialize()
    total = builtins.int(_sum(out_n)) if out_n.size else 0

    reserve_check(operation, (total * (16 + row_bytes)) // builtins.max(1, num_locales()) + 1)
    if total == 0:
        return zeros(0, int64), zeros(0, int64)
    oseg = (cumsum(out_n) - out_n)._materialize()
    gid = segment_ids(oseg, out_n, total)
    k = arange(total) - oseg[gid]
    l_g, r_g = cl[gid], cr[gid]
    if how == "right":
        # pandas' order: each right row with the left rows of its key in turn.
        width = where(l_g > 0, l_g, 1)
        i = k % width
        j = k // width
    else:
        width = where(r_g > 0, r_g, 1)
        i = k // width
        j = k % width
    start = segs[gid]
    lrow = where(l_g > 0, perm[where(l_g > 0, start + i, 0)], -1)
    rrow = where(r_g > 0, perm[where(r_g > 0, start + l_g + j, 0)] - nl, -1)
    return lrow._materialize(), rrow._materialize()


def inner_join(left, right, wherefunc=None, whereargs=None):
    """The pairs of rows (left index, right index) with equal keys (Arkouda's
    ``inner_join``); ``wherefunc(*whereargs-at-those-rows)`` filters the pairs."""
    li, ri = join_indices(left, right, "inner", "inner_join")
    if wherefunc is not None:
        a, b = whereargs
        keep = wherefunc(a[li], b[ri])
        li, ri = li[keep], ri[keep]
    return li, ri


def compute_join_size(a, b):
    """``(number of pairs of an inner join of a and b, number of rows of a matched)``."""
    li, _ = join_indices(a, b, "inner", "compute_join_size")
    from ..setops import unique

    return li.size, unique(li).size if li.size else 0


def _take(col, rows):
    """``col[rows]`` with -1 rows missing (see the module doc)."""
    from ._align import fill_missing

    present = (rows >= 0)._materialize()
    safe = where(present, rows, 0)._materialize()
    if len(col) == 0:
        got = col[zeros(rows.size, int64)] if rows.size and len(col) else col
        if len(col) == 0 and rows.size:
            return _nulls(col, rows.size)
        return got
    got = col[safe]
    if builtins.bool(present.all()) if present.size else True:
        return got
    return fill_missing(got, present)


def _take_any(col, rows):
    """``col[rows]`` where rows are valid, anything (row 0) where they are -1 (zeros of the
    column's dtype when it has no rows: its dtype is the result's)."""

    if len(col) == 0:
        return (
            zeros(rows.size, col.dtype) if isinstance(col, pdarray) and not is_bigint(col) else _nulls(col, rows.size)
        )
    return col[where(rows >= 0, rows, 0)._materialize()]


def _nulls(col, n):
    if isinstance(col, Strings):
        return from_list(["nan"] * n)
    if isinstance(col, Categorical):
        return Categorical._make(full(n, col._NAcode, int64), col.categories, col)
    return full(n, np.nan, float64)


def _as_strings(a, b):
    """Two key columns of one kind: a Strings column and a Categorical one both as Strings
    (pandas gives the values of such a key as strings, not as a categorical)."""
    if isinstance(a, Categorical) and isinstance(b, Strings):
        return a.to_strings(), b
    if isinstance(a, Strings) and isinstance(b, Categorical):
        return a, b.to_strings()
    return a, b


def _coalesce(a, b, use_a):
    """``a`` where ``use_a`` else ``b`` (two key columns of one kind)."""

    if isinstance(a, pdarray):
        d = np.result_type(a.dtype, b.dtype)
        return where(use_a, a.astype(d), b.astype(d))._materialize()
    from ._concat import generic_concat

    both = generic_concat([a, b])
    pos = where(use_a, arange(a.size), arange(b.size) + a.size)._materialize()
    return both[pos]


def merge(
    left,
    right,
    on=None,
    left_on=None,
    right_on=None,
    how="inner",
    left_suffix="_x",
    right_suffix="_y",
    convert_ints=True,
    sort=True,
):
    """A database-style join of two DataFrames (pandas' ``merge``): rows with equal values
    of the key columns (``on``, or ``left_on``/``right_on``; by default the columns both
    have). ``how``: 'inner', 'left', 'right' or 'outer'. Columns in both that are not shared
    keys get ``left_suffix``/``right_suffix``."""
    from .dataframe import DataFrame

    if not isinstance(left, DataFrame) or not isinstance(right, DataFrame):
        raise TypeError("merge: left and right must be DataFrames")
    col_intersect = [c for c in left._columns if c in right._columns]
    on = on if on is not None else col_intersect
    if left_on is None and right_on is None:
        left_on = right_on = on
    elif (left_on is None) != (right_on is None):
        raise ValueError("If one of left_on or right_on is not None, the other must also be set")
    lon, ron = _keys_list(left_on), _keys_list(right_on)
    if not lon or not ron:
        raise ValueError("Cannot merge with no columns on at least one DataFrame")
    if len(lon) != len(ron):
        raise ValueError("Cannot merge with more columns from one DataFrame than the other")
    for c in lon:
        if c not in left._columns:
            raise KeyError(c)
    for c in ron:
        if c not in right._columns:
            raise KeyError(c)
    shared = [lc for lc, rc in zip(lon, ron) if lc == rc]
    lnames, rnames = _result_names(
        left._columns, [c for c in right._columns if c not in shared], left_suffix, right_suffix
    )
    row_bytes = builtins.sum(_itemsize(left.data[c]) for c in left._columns) + builtins.sum(
        _itemsize(right.data[c]) for c in right._columns
    )
    li, ri = join_indices([left.data[c] for c in lon], [right.data[c] for c in ron], how, f"merge ({how})", row_bytes)
    if not sort:
        from ..sorting import coargsort

        if li.size:
            big = builtins.int(left._nrows) + 1
            order = coargsort([where(li >= 0, li, big), ri])
            li, ri = li[order], ri[order]
    out = {}
    for c in left._columns:
        if c in shared:
            lcol, rcol = _as_strings(left.data[c], right.data[ron[lon.index(c)]])
            if how in ("right", "outer"):
                # The key from whichever side has the row (its dtype kept, as pandas).
                out[c] = _coalesce(_take_any(lcol, li), _take_any(rcol, ri), (li >= 0)._materialize())
            else:
                out[c] = _take(lcol, li)
            continue
        out[lnames[c]] = _take(left.data[c], li)
    for c in right._columns:
        if c not in shared:
            out[rnames[c]] = _take(right.data[c], ri)
    return DataFrame(out)


def _result_names(lcols, rcols, lsuffix, rsuffix):
    """The result's name of each left and right column (``rcols``: the right's columns less
    the keys shared by name): a name found on both sides gets the side's suffix (none for a
    suffix of None), as pandas' merge. ValueError when names overlap and both suffixes are
    empty, MergeError when a suffix makes a name that another result column has."""
    to_rename = [c for c in lcols if c in rcols]
    if to_rename and not lsuffix and not rsuffix:
        raise ValueError(f"columns overlap but no suffix specified: {to_rename}")

    def renamed(c, suffix):
        return f"{c}{suffix}" if c in to_rename and suffix is not None else c

    lnames = {c: renamed(c, lsuffix) for c in lcols}
    rnames = {c: renamed(c, rsuffix) for c in rcols}
    dups = []
    for names in (lnames, rnames):
        seen = set()
        for n in names.values():
            if n in seen:
                dups.append(n)
            seen.add(n)
    dups += [n for n in lnames.values() if n in rcols and n not in to_rename]
    dups += [n for n in rnames.values() if n in lcols and n not in to_rename]
    if dups:
        raise MergeError(f"Passing 'suffixes' which cause duplicate columns {set(dups)} is not allowed.")
    return lnames, rnames


def _itemsize(col):
    if isinstance(col, pdarray):
        return col.dtype.itemsize
    return 8


def join_on_eq_with_dt(a1, a2, t1, t2, dt, pred, result_limit=1000):
    """The pairs ``(i, j)`` with ``a1[i] == a2[j]`` and a time condition on ``t1[i]``,
    ``t2[j]`` (``pred``: 'true_dt' for ``|t1 - t2| <= dt``, 'abs_dt' the same, 'pos_dt' for
    ``0 <= t2 - t1 <= dt``), as Arkouda's: at most ``result_limit`` pairs (ValueError when
    more match). Returns ``(indices into a1, indices into a2)``."""

    for x in (a1, a2, t1, t2):
        if not isinstance(x, pdarray) or x.dtype != int64:
            raise TypeError("join_on_eq_with_dt: every array must be an int64 pdarray")
    if a1.size != t1.size or a2.size != t2.size:
        raise ValueError("join_on_eq_with_dt: keys and times must have the same sizes")
    if pred not in ("true_dt", "abs_dt", "pos_dt"):
        raise ValueError(f"pred: expected 'true_dt', 'abs_dt' or 'pos_dt', got {pred!r}")
    if dt < 0:
        raise ValueError("dt must be nonnegative")
    li, ri = join_indices(a1, a2, "inner", "join_on_eq_with_dt")
    d = t2[ri] - t1[li]
    keep = ((d >= 0) & (d <= dt)) if pred == "pos_dt" else (_abs(d) <= dt)
    keep = keep._materialize()
    li, ri = li[keep], ri[keep]
    if li.size > result_limit:
        raise ValueError(f"join_on_eq_with_dt: {li.size} pairs match, more than result_limit={result_limit}")
    return li, ri
