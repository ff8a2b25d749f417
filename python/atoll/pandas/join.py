"""Joins (``arkouda.pandas.join``).

``ak.merge`` of DataFrames (inner, left, right, outer; one key column or several; suffixes)
and ``ak.join_on_eq_with_dt``.

Two algorithms, distributed end to end. The sort: the key columns of both sides are
concatenated and grouped (one ``GroupBy``: a distributed radix sort of the keys, Strings by
their ranks), each group counts its left and right rows, and the result's rows are generated
from prefix sums of the per-group products: row ``r`` of group ``g`` pairs left row ``r // nr``
and right row ``r % nr`` of the group (gathers and elementwise arithmetic only; no column is
gathered to the driver). The lookup, when one side has at most ``SMALL_SIDE_MAX`` rows: the
big side's keys are looked up among the small side's distinct keys (a dense table for int
keys of a small span, a hashed table otherwise; Strings in a hash table of the small side's
strings that every locale builds), which gives each row the key-order rank of its key; with
distinct small keys each big row pairs with the small row of its key directly, otherwise the
groups come from a counting sort of the ranks (small ints) instead of a sort of the keys.
Both give the same rows in the same order. The result's columns are gathered side by side,
the Strings columns of a side in one call (one exchange of the positions for all of them). Before the result's
columns are allocated, every locale checks that its budget holds its share of them
(``ak.OutOfMemoryError`` naming the locale otherwise).

Rows come out grouped by key in key order (pandas' ``sort=True`` order: within a key, left
rows in order, each paired with the right rows in order; for ``how="right"`` each right row
with the left rows in turn); ``sort=False`` puts them in the order of the left rows
(right-only rows last), as pandas does for inner and left joins.
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

from __future__ import annotations

import builtins
import inspect
from collections.abc import Hashable, Sequence
from typing import Any, Callable, cast

import numpy as np

from .. import _atoll
from .._session import num_locales
from ..numpy.dtypes import float64, int64
from ..numpy.numeric import abs as _abs, where
from ..numpy.pdarrayclass import cumsum, pdarray, sum as _sum
from ..numpy.pdarraycreation import arange, array, full, zeros
from ..numpy.pdarraymanipulation import concatenate
from ..numpy.segarray import segment_ids
from ..numpy.sorting import coargsort
from ..numpy.strings import Strings, concatenate as concat_strings, from_list
from ..numpy.timeclass import is_time
from ..progress import size_of, tracked
from ._align import fill_missing
from ._bigint_groupby import is_bigint
from ._concat import generic_concat
from ._segfold import reserve_check
from .categorical import Categorical
from .dataframe import DataFrame
from .groupbyclass import GroupBy

__all__ = [
    "MergeError",
    "merge",
    "join_indices",
    "inner_join",
    "join_on_eq_with_dt",
    "compute_join_size",
    "gen_ranges",
]


class MergeError(ValueError):
    """A merge that cannot be done as asked (pandas' ``pandas.errors.MergeError``).

    Suffixes that would give two result columns one name.
    """


def _keys_list(x: str | list[str] | tuple[str, ...]) -> list[str]:
    return [x] if isinstance(x, str) else list(x)


def _joinable(a: Any, b: Any) -> tuple[Any, Any]:  # noqa: ANN401 (key columns: pdarrays, Strings, Categoricals, times)
    """The two key columns in one comparable form.

    Categoricals on shared categories; Datetime and Timedelta keys as their int64
    nanoseconds, each joined only with its kind.
    """
    if is_time(a) or is_time(b):
        if type(a) is not type(b):
            kinds = [type(x).__name__ if is_time(x) else getattr(x, "dtype", type(x).__name__) for x in (a, b)]
            raise ValueError(f"You are trying to merge on {kinds[0]} and {kinds[1]} columns")
        return a.values, b.values
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


def _keys_rows(left_keys: Any, right_keys: Any, *args: object, **kwargs: object) -> int | None:  # noqa: ANN401 (key columns)
    """The rows of both sides' keys, for the progress bar (None when unknown)."""
    nl, nr = size_of(left_keys), size_of(right_keys)
    return None if nl is None or nr is None else nl + nr


@tracked("join_indices", rows=_keys_rows)
def join_indices(
    left_keys: Any,  # noqa: ANN401 (a key column or a list of them)
    right_keys: Any,  # noqa: ANN401 (a key column or a list of them)
    how: str = "inner",
    operation: str = "merge",
    row_bytes: int = 0,
) -> tuple[pdarray, pdarray]:
    """The left and right rows of each output row of a join of key columns.

    Grouped by key, in key order; -1 where a side has no row (left, right, outer joins).

    Parameters
    ----------
    left_keys, right_keys : pdarray, Strings, Categorical or list of them
        The key columns (a list: a multi-column key, its columns of one length).
    how : {"inner", "left", "right", "outer"}
        The kind of join.
    operation : str, default "merge"
        The operation named in an out-of-memory error.
    row_bytes : int, default 0
        The bytes of one result row, for the memory check.

    Returns
    -------
    tuple of pdarray
        ``(left rows, right rows)``, int64.

    Raises
    ------
    ValueError
        ``how`` is unknown, or the sides have different numbers of key columns.
    TypeError
        Key columns of kinds that do not join.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.pandas.join import join_indices
    >>> li, ri = join_indices(ak.array([1, 2]), ak.array([2, 3]), how="outer")
    >>> li.tolist(), ri.tolist()
    ([0, 1, -1], [-1, 0, 1])
    """
    return _join_rows(left_keys, right_keys, how, operation, row_bytes, True)


def _join_rows(
    left_keys: Any,  # noqa: ANN401 (as join_indices')
    right_keys: Any,  # noqa: ANN401 (as join_indices')
    how: str,
    operation: str,
    row_bytes: int,
    sort: bool,
) -> tuple[pdarray, pdarray]:
    """``join_indices``, or with ``sort=False`` the rows in the order of the left rows.

    Each left row comes with its right rows in order, rows without a left row last in the
    order of the right rows.
    """
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
    fast = _small_side_groups(pairs, nl, nr, how, sort)
    if fast is not None and len(fast) == 2:
        li, ri = fast
        reserve_check(operation, (li.size * (16 + row_bytes)) // builtins.max(1, num_locales()) + 1)
        return li, ri
    if fast is None:
        keys = [generic_concat([a, b]) for a, b in pairs]
        g = GroupBy(keys if len(keys) > 1 else keys[0], dropna=False)
        perm, segs = g.permutation, g.segments
        _, cnt = g.size()
        side = (perm >= nl).astype(int64)
        cr = g._agg_sorted(side, "sum")  # right rows per group (they sort after the left rows)
        cl = (cnt - cr)._materialize()
    else:
        perm, segs, cl, cr = fast

    def one(c: pdarray) -> pdarray:
        return cast(pdarray, where(c > 0, c, 1))

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
    li, ri = lrow._materialize(), rrow._materialize()
    if not sort:
        order = coargsort([where(li >= 0, li, nl + 1), ri])
        li, ri = li[order], ri[order]
    return li, ri


# The lookup join: when one side has at most SMALL_SIDE_MAX rows, the other side's keys are
# looked up among the small side's distinct keys (a dense table for int keys of a small span, a
# hashed table otherwise; Strings in a hash table of the small side's strings) instead of
# sorting both sides' keys together. Each row gets the key order rank of its key as an int
# code, and the groups come from a counting sort of those small-range codes. Tests set SMALL_SIDE_MAX = 0 to run the
# sort of the keys instead.
SMALL_SIDE_MAX = 1 << 16
_DENSE_SPAN = 1 << 22  # the largest dense table of int keys
_MULT = np.uint64(0x9E3779B97F4A7C15)  # odd: a multiplicative hash of uint64 keys


def _small_side_groups(pairs: list[tuple[Any, Any]], nl: int, nr: int, how: str, sort: bool = True) -> Any:  # noqa: ANN401 (a tuple of pdarrays or None)
    """``(perm, segs, cl, cr)`` of the rows of both sides grouped by key in key order.

    As the GroupBy of the concatenated keys gives them (left rows first in each group), from a lookup
    of the big side's keys among the small side's; None when the lookup does not apply. When
    the small side's keys are distinct: ``(left rows, right rows)`` of the join itself (see
    ``_unique_small_rows``; key order when ``sort``).
    """
    small_left = nl <= nr
    ns, nb = (nl, nr) if small_left else (nr, nl)
    if ns > SMALL_SIDE_MAX or ns == 0 or nb == 0:
        return None
    smalls = [a if small_left else b for a, b in pairs]
    bigs = [b if small_left else a for a, b in pairs]
    levels: list[Any] = []
    for sm, bg in zip(smalls, bigs):
        lv = _level_lookup(sm, bg)
        if lv is None:
            return None
        levels.append(lv)
    # Several keys: the rank of each row's key tuple among the small side's distinct tuples
    # (mixed-radix codes of the per-key ranks keep the lexicographic order).
    rs, u, rb = levels[0]
    for rs2, u2, rb2 in levels[1:]:
        if u * u2 > _DENSE_SPAN:
            return None
        uc, rs = np.unique(rs * u2 + rs2, return_inverse=True)
        rs = rs.astype(np.int64)
        table = np.full(u * u2, -1, np.int64)
        table[uc] = np.arange(uc.size)
        both = (rb >= 0) & (rb2 >= 0)
        rb = where(both, array(table)[where(both, rb * u2 + rb2, 0)], -1)._materialize()
        u = uc.size
    miss = (rb < 0)._materialize()
    nmiss = builtins.int(_sum(miss))
    keep_big = how == "outer" or how == ("right" if small_left else "left")
    if nmiss and keep_big and sort:
        rs, rb, u = _rank_missing(smalls, bigs, rs, rb, u, miss)
    elif nmiss:
        # Rows without a match: one code of their own after the others. When their side is not
        # kept, that group yields no rows (it has no row of the other side).
        rb = where(miss, u, rb)._materialize()
        u += 1
    if np.unique(rs).size == ns:
        return _unique_small_rows(rs, rb, u, ns, nb, small_left, how, keep_big, nmiss, sort)

    sc = array(rs)
    codes = concatenate([sc, rb] if small_left else [rb, sc])
    perm = _codes_argsort(codes, u + 1)
    gk, cnt = GroupBy(codes).size()
    gr, cnt_r = GroupBy(rb if small_left else sc).size()
    per_code = zeros(u + 1, int64)
    per_code[gr] = cnt_r
    cr = per_code[gk]
    cl = (cnt - cr)._materialize()
    segs = (cumsum(cnt) - cnt)._materialize()
    return perm, segs, cl, cr


def _unique_small_rows(
    rs: Any,  # noqa: ANN401 (an int64 ndarray)
    rb: pdarray,
    u: int,
    ns: int,
    nb: int,
    small_left: bool,
    how: str,
    keep_big: bool,
    nmiss: int,
    sort: bool,
) -> tuple[pdarray, pdarray]:
    """``(left rows, right rows)`` of a join whose small side has distinct keys.

    The small codes are ``rs``, big codes ``rb`` in ``[0, u)``; unmatched big rows have code ``u - 1`` unless
    ``keep_big`` and ``sort`` ranked their keys): every output row is a big row with the small
    row of its code (-1 where none), or a small row without big rows (outer joins and the
    small side's own joins). Key order when ``sort``, otherwise the left rows' order (rows
    without a left row last, in the right rows' order).
    """
    keep_small = how == "outer" or how == ("left" if small_left else "right")
    srow = np.full(u + 1, -1, np.int64)
    srow[rs] = np.arange(ns)
    # Big rows not kept: the unmatched ones of inner joins and of the small side's joins.
    dropped = nmiss if not keep_big else 0
    alone = np.zeros(0, np.int64)
    if keep_small:
        present = GroupBy(rb).unique_keys.to_ndarray()
        alone = np.setdiff1d(rs, present)  # codes without big rows
        alone = np.sort(srow[alone]) if not sort else srow[np.sort(alone)]
    n_out = nb - dropped + alone.size
    by_big = _gather(array(srow), rb)  # each big row's small row
    if sort or small_left:
        if sort:
            kb, ka, top = rb, rs[alone], u
        else:
            # The small (left) row of each big row, unmatched ones after every small row.
            kb, ka, top = where(by_big >= 0, by_big, ns)._materialize(), alone, ns + 1
        if dropped:
            # Dropped rows sort after all others (code top), and the cut below leaves them out.
            kb = where(by_big >= 0, kb, top)._materialize()
        perm = _codes_argsort(concatenate([kb, array(ka)]) if alone.size else kb, top + 1)
        perm = perm[:n_out] if n_out < perm.size else perm
    else:
        perm = arange(nb)[(by_big >= 0)._materialize()] if dropped else arange(nb)
        if alone.size:
            perm = concatenate([perm, arange(nb, nb + alone.size)])
    if alone.size:
        is_big = (perm < nb)._materialize()
        big = where(is_big, perm, -1)._materialize()
        small = where(
            is_big, _gather(by_big, where(is_big, perm, 0)), _gather(array(alone), where(is_big, 0, perm - nb))
        )
    else:
        big, small = perm, _gather(by_big, perm)
    small = small._materialize()
    return (small, big) if small_left else (big, small)


def _codes_argsort(codes: pdarray, u: int) -> pdarray:
    """The stable permutation that sorts int64 codes in ``[0, u)``.

    A counting sort (one histogram per locale and one scatter), not a comparison sort of the
    codes.
    """
    codes = codes if codes.dtype == int64 else codes.astype(int64)
    return pdarray(_atoll.codes_argsort(codes._ex(), codes.size, builtins.int(u)))


def _gather(col: pdarray, idx: Any) -> pdarray:  # noqa: ANN401 (a pdarray or an array-like)
    """``col[idx]`` of a pdarray for positions known to be valid (no bounds check)."""
    col = col._materialize()
    idx = idx if isinstance(idx, pdarray) else array(idx)
    return (
        cast(pdarray, col[idx])
        if col._start or col._step != 1
        else pdarray(_atoll.gather(col._arr, idx._ex(), idx.size))
    )


def _level_lookup(sm: Any, bg: Any) -> tuple[Any, int, pdarray] | None:  # noqa: ANN401 (key columns: pdarrays, Strings, Categoricals, times)
    """``(small codes, number of distinct small keys, big codes)`` of one key.

    Each small row's rank among the small side's distinct keys (NumPy), each big row's (-1 where none is equal,
    a pdarray); None for keys the lookup does not take (floats: NaN keys; bigint; uint64).
    """
    if isinstance(sm, Strings) and isinstance(bg, Strings):
        return _strings_lookup(sm, bg)
    if not isinstance(sm, pdarray) or not isinstance(bg, pdarray) or is_bigint(sm) or is_bigint(bg):
        return None
    if sm.dtype.kind not in "ib" and sm.dtype != np.uint8 or bg.dtype.kind not in "ib" and bg.dtype != np.uint8:
        return None
    sv = sm.to_ndarray().astype(np.int64)
    bg = bg if bg.dtype == int64 else bg.astype(int64)
    uniq, rs = np.unique(sv, return_inverse=True)
    lo, hi = builtins.int(uniq[0]), builtins.int(uniq[-1])
    span = hi - lo + 1
    if span <= builtins.max(1 << 16, 16 * uniq.size) and span <= _DENSE_SPAN:
        table = np.full(span, -1, np.int64)
        table[uniq - lo] = np.arange(uniq.size)
        inside = ((bg >= lo) & (bg <= hi))._materialize()
        rb = where(inside, array(table)[where(inside, bg - lo, 0)], -1)._materialize()
    else:
        ku = uniq.view(np.uint64)
        rb = _hashed_lookup(ku, [uniq], bg.astype(np.uint64), [bg])
    return rs.astype(np.int64), uniq.size, rb


def _strings_lookup(sm: Strings, bg: Strings) -> tuple[Any, int, pdarray]:
    """``_level_lookup`` of Strings keys.

    Each big string is found in a hashed table of the small side's distinct strings, built on
    every locale (code point order gives the ranks).
    """
    words = sm.to_list()
    uniq = sorted(set(words))
    pos = {w: i for i, w in enumerate(uniq)}
    rs = np.fromiter((pos[w] for w in words), np.int64, len(words))
    return rs, len(uniq), pdarray(_atoll.strings_lookup(bg._s, uniq))


def _hashed_lookup(keys: Any, small_words: list[Any], big_key: pdarray, big_words: list[pdarray]) -> pdarray:  # noqa: ANN401 (a uint64 ndarray)
    """Each big row's index among the small side's distinct ``keys`` (uint64, NumPy), or -1.

    Slots come from a multiplicative hash of ``big_key``, the keys of a slot probed in turn, a match
    when every word of ``small_words`` (NumPy) equals the big row's in ``big_words``.
    """
    u = keys.size
    bits = builtins.min(builtins.max(4, u.bit_length() + 3), 62)
    shift = np.uint64(64 - bits)
    with np.errstate(over="ignore"):
        slots = ((keys * _MULT) >> shift).astype(np.int64)
    order = np.argsort(slots, kind="stable")
    starts = np.searchsorted(slots[order], np.arange((1 << bits) + 1))
    width = builtins.int(np.max(np.diff(starts)))
    st_tab = array(starts)
    words = [array(w[order]) for w in small_words]
    codes = array(order.astype(np.int64))
    slot = ((big_key * _MULT) >> shift).astype(int64)
    st = st_tab[slot]
    ln = (st_tab[slot + 1] - st)._materialize()
    out = full(big_key.size, -1, int64)
    for k in range(width):
        has = (ln > k)._materialize()
        cand = where(has, st + k, 0)._materialize()
        ok = has
        for w, bw in zip(words, big_words):
            ok = ok & (w[cand] == bw)
        out = where(ok, codes[cand], out)._materialize()
    return cast(pdarray, out)


def _rank_missing(
    smalls: list[Any],
    bigs: list[Any],
    rs: Any,  # noqa: ANN401 (an int64 ndarray)
    rb: pdarray,
    u: int,
    miss: pdarray,
) -> tuple[Any, pdarray, int]:
    """The codes of both sides when big rows without a match are kept.

    Their keys are grouped (a sort of those rows only) and ranked with the small side's
    distinct keys, so that the codes of all keys are in key order.
    """
    rows = arange(miss.size)[miss]
    mk = [b[rows] for b in bigs]
    g = GroupBy(mk if len(mk) > 1 else mk[0], dropna=False)
    nu = g.unique_keys
    nu = list(nu) if isinstance(nu, (list, tuple)) else [nu]
    first = np.zeros(u, np.int64)
    first[rs[::-1]] = np.arange(rs.size)[::-1]
    fi = array(first)
    allk = [generic_concat([s[fi], k]) for s, k in zip(smalls, nu)]
    order = coargsort(allk)
    rank = zeros(order.size, int64)
    rank[order] = arange(order.size)
    rank_small = rank[:u].to_ndarray()
    grp = g.broadcast(arange(nu[0].size), permute=True)
    rb = where(miss, 0, array(rank_small)[where(miss, 0, rb)])._materialize()
    rb[rows] = rank[u:][grp]
    return rank_small[rs], rb, order.size


def _rows_of(x: Any) -> int:  # noqa: ANN401 (an array or a sequence of arrays)
    """The number of rows of a join argument: an array, or a sequence of arrays of one length."""
    if isinstance(x, (list, tuple)):
        if not x:
            raise ValueError("a sequence of arrays must hold at least one array")
        n = x[0].size
        if any(c.size != n for c in x):
            raise ValueError("Multi-array arguments must have equal-length arrays")
        return cast(int, n)
    return cast(int, x.size)


def _rows_at(x: Any, idx: pdarray) -> Any:  # noqa: ANN401 (an array or a sequence of arrays)
    """``x`` (an array or a sequence of arrays) at the rows ``idx``."""
    if isinstance(x, (list, tuple)):
        return [c[idx] for c in x]
    return x[idx]


def _check_where(wherefunc: Callable[..., Any], whereargs: Any, nl: int, nr: int) -> None:  # noqa: ANN401 (a pair of arguments)
    try:
        n_params = len(inspect.signature(wherefunc).parameters)
    except (TypeError, ValueError) as e:
        raise ValueError("wherefunc must be a function that accepts exactly two arguments") from e
    if n_params != 2:
        raise ValueError("wherefunc must be a function that accepts exactly two arguments")
    if whereargs is None or len(whereargs) != 2:
        raise ValueError("whereargs must be a 2-tuple with left and right arg arrays")
    if _rows_of(whereargs[0]) != nl:
        raise ValueError("Left whereargs must be same size as left join values")
    if _rows_of(whereargs[1]) != nr:
        raise ValueError("Right whereargs must be same size as right join values")


def inner_join(
    left: Any,  # noqa: ANN401 (a key column or a sequence of them)
    right: Any,  # noqa: ANN401 (a key column or a sequence of them)
    wherefunc: Callable[[Any, Any], Any] | None = None,
    whereargs: Any = None,  # noqa: ANN401 (a pair of arrays or of sequences of arrays)
) -> tuple[pdarray, pdarray]:
    """The pairs of rows ``(left index, right index)`` with equal keys (Arkouda's ``inner_join``).

    Ordered by left index, then by right index.

    ``left`` and ``right`` are pdarrays, Strings or Categoricals, or sequences of them of one
    length each (a multi-column key). With ``wherefunc`` (a function of two arguments) and
    ``whereargs`` (a left and a right argument, of the left's and the right's row counts),
    only the pairs where ``wherefunc(whereargs[0][left index], whereargs[1][right index])``
    is True are kept.

    Parameters
    ----------
    left, right : pdarray, Strings, Categorical or sequence of them
        The keys.
    wherefunc : callable, optional
        A filter of two arguments, giving a bool pdarray.
    whereargs : pair, optional
        The left and right arguments of ``wherefunc``.

    Returns
    -------
    tuple of pdarray
        ``(left indices, right indices)``, int64.

    Raises
    ------
    ValueError
        Keys or where arguments of mismatched sizes, or a ``wherefunc`` that does not take two
        arguments.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.pandas import join
    >>> li, ri = join.inner_join(ak.array([1, 2, 3]), ak.array([3, 1, 1]))
    >>> li.tolist(), ri.tolist()
    ([0, 0, 2], [1, 2, 0])
    """
    seq = isinstance(left, (list, tuple)), isinstance(right, (list, tuple))
    if seq[0] != seq[1] or (seq[0] and len(left) != len(right)):
        raise ValueError("Left must have same num arrays as right")
    nl, nr = _rows_of(left), _rows_of(right)
    if wherefunc is not None:
        _check_where(wherefunc, whereargs, nl, nr)
    li, ri = join_indices(left, right, "inner", "inner_join")
    if li.size:
        order = coargsort([li, ri])
        li, ri = li[order], ri[order]
    if wherefunc is not None and li.size:
        keep = wherefunc(_rows_at(whereargs[0], li), _rows_at(whereargs[1], ri))
        li, ri = li[keep], ri[keep]
    return li, ri


def gen_ranges(starts: pdarray, ends: pdarray, stride: int = 1, return_lengths: bool = False) -> tuple[pdarray, ...]:
    """The ranges ``starts[i], starts[i] + stride, ...`` one after the other (Arkouda's ``gen_ranges``).

    Each range has ``(ends[i] - starts[i]) // stride`` values.

    Parameters
    ----------
    starts, ends : pdarray
        The ranges' starts and (excluded) ends, int64.
    stride : int, default 1
        The step within a range.
    return_lengths : bool, default False
        Give the ranges' lengths too.

    Returns
    -------
    tuple of pdarray
        ``(segments, ranges)``: the offset of each range in the flat int64 values, and the
        values; ``(segments, ranges, lengths)`` with ``return_lengths``.

    Raises
    ------
    ValueError
        ``starts`` and ``ends`` differ in size, or an end is before its start.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.pandas import join
    >>> segs, ranges = join.gen_ranges(ak.array([0, 10, 4]), ak.array([3, 12, 4]))
    >>> segs.tolist(), ranges.tolist()
    ([0, 3, 5], [0, 1, 2, 10, 11])
    """
    if starts.size != ends.size:
        raise ValueError("starts and ends must be same length")
    if starts.size == 0:
        empty = zeros(0, dtype=int64)
        return (empty, empty, empty) if return_lengths else (empty, empty)
    lengths = ((ends - starts) // stride)._materialize()
    if not builtins.bool((lengths >= 0).all()):
        raise ValueError("all ends must be greater than or equal to starts")
    segs = (cumsum(lengths) - lengths)._materialize()
    total = builtins.int(_sum(lengths))
    owner = segment_ids(segs, lengths, total)
    ranges = (starts[owner] + (arange(total) - segs[owner]) * stride)._materialize()
    return (segs, ranges, lengths) if return_lengths else (segs, ranges)


def compute_join_size(a: Any, b: Any) -> tuple[int, int]:  # noqa: ANN401 (key columns)
    """The number of pairs of an inner join of ``a`` and ``b``, and the bytes of the join.

    As Arkouda's ``compute_join_size``: the bytes are Arkouda's estimate, three int64 per pair.

    Parameters
    ----------
    a, b : pdarray, Strings or Categorical
        The keys.

    Returns
    -------
    tuple of int
        ``(pairs, bytes)``.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.pandas import join
    >>> join.compute_join_size(ak.array([1, 1, 2, 5]), ak.array([1, 2, 2, 3]))
    (4, 96)
    """
    li, _ = join_indices(a, b, "inner", "compute_join_size")
    return li.size, 3 * 8 * li.size


class _Rows:
    """One side's rows of a join result (-1 where the side has no row).

    The positions to gather (0 for -1) and which rows are present, computed once for all of
    the side's columns.
    """

    def __init__(self, rows: pdarray) -> None:
        self.rows = rows
        self.present = (rows >= 0)._materialize()
        self.full = builtins.bool(self.present.all()) if rows.size else True
        self.safe = rows if self.full else where(self.present, rows, 0)._materialize()


def _gather_col(col: Any, pos: pdarray) -> Any:  # noqa: ANN401 (a column of any kind)
    """``col[pos]`` for valid positions.

    pdarrays without a bounds check (the positions are a join's), Categoricals by their codes,
    other columns by their own indexing.
    """
    if is_time(col):
        return type(col)._from_ns(_gather(col.values, pos))
    if isinstance(col, pdarray) and not is_bigint(col):
        return _gather(col, pos)
    if isinstance(col, Categorical):
        return Categorical._make(_gather(col.codes, pos), col.categories, col)
    return col[pos]


def _take_all(cols: list[Any], sel: _Rows) -> list[Any]:
    """``[_take(c, sel) for c in cols]``, the Strings columns among them gathered together.

    One exchange of the positions for all of them.
    """
    out: list[Any] = [None] * len(cols)
    strs = [i for i, c in enumerate(cols) if isinstance(c, Strings) and len(c) > 0]
    if len(strs) > 1 or (strs and sel.full):
        src = [cols[i] for i in strs]
        if sel.full:
            pos = sel.rows
        else:
            # Each column with "nan" appended, read at its end where a row is missing.
            src = [concat_strings([c, from_list(["nan"])]) for c in src]
            pos = where(sel.present, sel.rows, cols[strs[0]].size)._materialize()
        got = _atoll.take_strings([c._s for c in src], pos._ex(), pos.size)
        for i, g in zip(strs, got):
            out[i] = Strings(g)
    return [o if o is not None else _take(c, sel) for o, c in zip(out, cols)]


def _take(col: Any, sel: _Rows) -> Any:  # noqa: ANN401 (a column of any kind)
    """``col`` at the rows ``sel``, missing values where a row is -1 (see the module doc)."""
    if len(col) == 0:
        return _nulls(col, sel.rows.size) if sel.rows.size else col
    if isinstance(col, Strings) and not sel.full:
        # One gather from the column with "nan" appended (not a gather, then a fill).
        ext = concat_strings([col, from_list(["nan"])])
        return ext[where(sel.present, sel.rows, col.size)._materialize()]
    got = _gather_col(col, sel.safe)
    if sel.full:
        return got
    if is_time(got):  # NaT (the int64 minimum) where a row is missing
        return type(got)._from_ns(where(sel.present, got.values, np.iinfo(np.int64).min))
    return fill_missing(got, sel.present)


def _take_any(col: Any, sel: _Rows) -> Any:  # noqa: ANN401 (a column of any kind)
    """``col`` at the rows ``sel`` where they are valid, anything (row 0) where they are -1.

    Zeros of the column's dtype when it has no rows: its dtype is the result's.
    """
    if is_time(col):
        return type(col)._from_ns(_take_any(col.values, sel))
    if len(col) == 0:
        return (
            zeros(sel.rows.size, col.dtype)
            if isinstance(col, pdarray) and not is_bigint(col)
            else _nulls(col, sel.rows.size)
        )
    return _gather_col(col, sel.safe)


def _nulls(col: Any, n: int) -> Any:  # noqa: ANN401 (a column of any kind)
    if isinstance(col, Strings):
        return from_list(["nan"] * n)
    if isinstance(col, Categorical):
        return Categorical._make(full(n, col._NAcode, int64), col.categories, col)
    return full(n, np.nan, float64)


def _as_strings(a: Any, b: Any) -> tuple[Any, Any]:  # noqa: ANN401 (key columns: pdarrays, Strings, Categoricals, times)
    """Two key columns of one kind: a Strings column and a Categorical one both as Strings.

    pandas gives the values of such a key as strings, not as a categorical.
    """
    if isinstance(a, Categorical) and isinstance(b, Strings):
        return a.to_strings(), b
    if isinstance(a, Strings) and isinstance(b, Categorical):
        return a, b.to_strings()
    return a, b


def _coalesce(a: Any, b: Any, use_a: pdarray) -> Any:  # noqa: ANN401 (key columns: pdarrays, Strings, Categoricals, times)
    """``a`` where ``use_a`` else ``b`` (two key columns of one kind)."""
    if is_time(a):
        return type(a)._from_ns(_coalesce(a.values, b.values, use_a))
    if isinstance(a, pdarray):
        d = np.result_type(a.dtype, b.dtype)
        return where(use_a, a.astype(d), b.astype(d))._materialize()
    both = generic_concat([a, b])
    pos = where(use_a, arange(a.size), arange(b.size) + a.size)._materialize()
    return both[pos]


@tracked("merge", rows=lambda left, right, *a, **k: len(left) + len(right))
def merge(
    left: DataFrame,
    right: DataFrame,
    on: Hashable | Sequence[Hashable] | None = None,
    left_on: Hashable | Sequence[Hashable] | None = None,
    right_on: Hashable | Sequence[Hashable] | None = None,
    how: str = "inner",
    left_suffix: str | None = "_x",
    right_suffix: str | None = "_y",
    convert_ints: bool = True,
    sort: bool = True,
) -> DataFrame:
    """A database-style join of two DataFrames (pandas' ``merge``).

    Rows with equal values of the key columns are paired. Columns in both that are not
    shared keys get ``left_suffix``/``right_suffix``.

    Parameters
    ----------
    left, right : DataFrame
        The frames.
    on : str or list of str, optional
        The key columns of both (default: the columns both have).
    left_on, right_on : str or list of str, optional
        The key columns of each side (both or neither).
    how : {"inner", "left", "right", "outer"}
        The kind of join.
    left_suffix, right_suffix : str or None
        The suffixes of overlapping names (None: none).
    convert_ints : bool, default True
        Accepted for Arkouda's signature: int columns with missing values become float64
        either way, as pandas'.
    sort : bool, default True
        Rows in key order; False: in the order of the left rows.

    Returns
    -------
    DataFrame
        The joined rows.

    Raises
    ------
    TypeError
        ``left`` or ``right`` is not a DataFrame.
    KeyError
        A key column is missing.
    ValueError
        Keys of different counts, no keys, or an unknown ``how``.
    MergeError
        Suffixes that make two result columns of one name.

    Examples
    --------
    >>> import atoll as ak
    >>> left = ak.DataFrame({"k": ak.array([1, 2]), "a": ak.array([3, 4])})
    >>> right = ak.DataFrame({"k": ak.array([2, 5]), "a": ak.array([6, 7])})
    >>> m = ak.merge(left, right, on="k", how="left")
    >>> m.columns.tolist(), m["a_y"].tolist()
    (['k', 'a_x', 'a_y'], [nan, 6.0])
    """
    if not isinstance(left, DataFrame) or not isinstance(right, DataFrame):
        raise TypeError("merge: left and right must be DataFrames")
    col_intersect = [c for c in left._columns if c in right._columns]
    on = on if on is not None else col_intersect
    if left_on is None and right_on is None:
        left_on = right_on = on
    elif (left_on is None) != (right_on is None):
        raise ValueError("If one of left_on or right_on is not None, the other must also be set")
    lon, ron = _keys_list(cast("str | list[str]", left_on)), _keys_list(cast("str | list[str]", right_on))
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
    li, ri = _join_rows(
        [left.data[c] for c in lon], [right.data[c] for c in ron], how, f"merge ({how})", row_bytes, sort
    )
    lsel, rsel = _Rows(li), _Rows(ri)
    out: dict[str, Any] = {}
    # The columns each side's rows are taken from (the result's name, the column); the shared
    # keys of right and outer joins come from whichever side has the row.
    ltake: list[tuple[str, Any]] = []
    rtake: list[tuple[str, Any]] = []
    for c in left._columns:
        if c in shared:
            lcol, rcol = _as_strings(left.data[c], right.data[ron[lon.index(c)]])
            if how in ("right", "outer"):
                # The key from whichever side has the row (its dtype kept, as pandas).
                out[c] = _coalesce(_take_any(lcol, lsel), _take_any(rcol, rsel), lsel.present)
            else:
                ltake.append((c, lcol))
                out[c] = None
            continue
        ltake.append((lnames[c], left.data[c]))
        out[lnames[c]] = None
    for c in right._columns:
        if c not in shared:
            rtake.append((rnames[c], right.data[c]))
            out[rnames[c]] = None
    for take, sel in ((ltake, lsel), (rtake, rsel)):
        for (name, _), got in zip(take, _take_all([col for _, col in take], sel)):
            out[name] = got
    return DataFrame(out)


def _result_names(
    lcols: list[str], rcols: list[str], lsuffix: str | None, rsuffix: str | None
) -> tuple[dict[str, str], dict[str, str]]:
    """The result's name of each left and right column.

    ``rcols`` are the right's columns less the keys shared by name. A name found on both sides gets the side's suffix (none for a
    suffix of None), as pandas' merge. ValueError when names overlap and both suffixes are
    empty, MergeError when a suffix makes a name that another result column has.
    """
    to_rename = [c for c in lcols if c in rcols]
    if to_rename and not lsuffix and not rsuffix:
        raise ValueError(f"columns overlap but no suffix specified: {to_rename}")

    def renamed(c: str, suffix: str | None) -> str:
        return f"{c}{suffix}" if c in to_rename and suffix is not None else c

    lnames = {c: renamed(c, lsuffix) for c in lcols}
    rnames = {c: renamed(c, rsuffix) for c in rcols}
    dups: list[str] = []
    for names in (lnames, rnames):
        seen: set[str] = set()
        for n in names.values():
            if n in seen:
                dups.append(n)
            seen.add(n)
    dups += [n for n in lnames.values() if n in rcols and n not in to_rename]
    dups += [n for n in rnames.values() if n in lcols and n not in to_rename]
    if dups:
        raise MergeError(f"Passing 'suffixes' which cause duplicate columns {set(dups)} is not allowed.")
    return lnames, rnames


def _itemsize(col: object) -> int:
    if isinstance(col, pdarray):
        return builtins.int(col.dtype.itemsize)
    return 8


def join_on_eq_with_dt(
    a1: pdarray, a2: pdarray, t1: pdarray, t2: pdarray, dt: int, pred: str, result_limit: int = 1000
) -> tuple[pdarray, pdarray]:
    """The pairs ``(i, j)`` with ``a1[i] == a2[j]`` and a time condition on ``t1[i]``, ``t2[j]``.

    As Arkouda's: at most ``result_limit`` pairs (ValueError when more match, where Arkouda's
    server keeps a share per locale).

    Parameters
    ----------
    a1, a2 : pdarray
        The int64 keys.
    t1, t2 : pdarray
        The int64 times of the rows of ``a1`` and ``a2``.
    dt : int
        The largest time difference.
    pred : {"true_dt", "abs_dt", "pos_dt"}
        ``|t1 - t2| <= dt`` ('true_dt' and 'abs_dt') or ``0 <= t2 - t1 <= dt`` ('pos_dt').
    result_limit : int, default 1000
        The most pairs.

    Returns
    -------
    tuple of pdarray
        ``(indices into a1, indices into a2)``.

    Raises
    ------
    TypeError
        An argument that is not a pdarray, or a ``dt`` or ``result_limit`` that is not an int.
    ValueError
        An array not of dtype int64, sizes that differ, an unknown ``pred``, a negative ``dt``
        or ``result_limit``, or more pairs than ``result_limit``.

    Examples
    --------
    >>> import atoll as ak
    >>> i, j = ak.join_on_eq_with_dt(
    ...     ak.array([1, 1]), ak.array([1]), ak.array([0, 10]), ak.array([3]), 5, "abs_dt"
    ... )
    >>> i.tolist(), j.tolist()
    ([0], [0])
    """
    for x in (a1, a2, t1, t2):
        if not isinstance(x, pdarray):
            raise TypeError(f"join_on_eq_with_dt: every array must be an int64 pdarray, got {type(x).__name__}")
        if x.dtype != int64:
            raise ValueError(f"join_on_eq_with_dt: every array must be of dtype int64, got {x.dtype}")
    for name, v in (("dt", dt), ("result_limit", result_limit)):
        if isinstance(v, (builtins.bool, np.bool_)) or not isinstance(v, (builtins.int, np.integer)):
            raise TypeError(f"join_on_eq_with_dt: {name} must be an int, got {type(v).__name__}")
    if a1.size != t1.size or a2.size != t2.size:
        raise ValueError("join_on_eq_with_dt: keys and times must have the same sizes")
    if pred not in ("true_dt", "abs_dt", "pos_dt"):
        raise ValueError(f"pred: expected 'true_dt', 'abs_dt' or 'pos_dt', got {pred!r}")
    if dt < 0:
        raise ValueError("dt must be nonnegative")
    if result_limit < 0:
        raise ValueError("result_limit must be 0 or greater")
    li, ri = join_indices(a1, a2, "inner", "join_on_eq_with_dt")
    d = t2[ri] - t1[li]
    keep = ((d >= 0) & (d <= dt)) if pred == "pos_dt" else (_abs(d) <= dt)
    keep = keep._materialize()
    li, ri = li[keep], ri[keep]
    if li.size > result_limit:
        raise ValueError(f"join_on_eq_with_dt: {li.size} pairs match, more than result_limit={result_limit}")
    return li, ri
