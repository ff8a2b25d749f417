"""GroupBy aggregations of bigint values, built from the uint64 aggregations of their limbs.

A bigint array (``atoll.numpy._bigint.BigIntArray``) holds uint64 limbs, least significant
first, two's complement. ``first``, ``count``, ``or``/``and``/``xor`` limb by limb, ``sum`` over 32-bit halves (no
carry lost for groups under 2**32 rows), ``min``/``max``/``argmin``/``argmax``/``median`` by a
sort of (group, value), ``prod`` exactly by a tree of pairwise bigint products (one round per
halving of the largest group), ``any``/``all`` on the values' nonzero flags. ``mean``,
``var``, ``std`` and ``median`` are float64, computed from exact bigint sums (``var``:
``(n * sum(x**2) - sum(x)**2) / (n * (n - ddof))``, rounded once to float64 before the
division); every other result is a bigint (int64 for counts and row indices, bool for
``any``/``all``).
"""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..numpy._bigint import BigIntArray, _zeros
from ..numpy.dtypes import bool_, float64, int64, uint64
from ..numpy.numeric import where
from ..numpy.pdarrayclass import cumsum, pdarray
from ..numpy.pdarraycreation import arange, full
from ..numpy.sorting import coargsort
from ._segfold import segmented_bitwise

if TYPE_CHECKING:
    from .groupbyclass import GroupBy

OPS = frozenset(
    [
        "first",
        "count",
        "or",
        "and",
        "xor",
        "sum",
        "prod",
        "min",
        "max",
        "argmin",
        "argmax",
        "mean",
        "var",
        "std",
        "median",
        "any",
        "all",
    ]
)
_LOW32 = np.uint64(0xFFFF_FFFF)
_TOP = np.uint64(1 << 63)
_ALL = np.uint64((1 << 64) - 1)
_ZERO = np.uint64(0)
_ONE = np.uint64(1)


def bigint_aggregate(g: GroupBy, values: BigIntArray, op: str, ddof: int = 1) -> Any:  # noqa: ANN401 (a BigIntArray or pdarray)
    """``op`` of the bigint ``values`` per group of the GroupBy ``g``.

    **Collective.**

    Parameters
    ----------
    g : GroupBy
        The groups.
    values : BigIntArray
        One value per row of ``g``'s keys.
    op : str
        One of ``OPS``.
    ddof : int, default 1
        The delta degrees of freedom of ``var`` and ``std``.

    Returns
    -------
    BigIntArray or pdarray
        One value per group, in the order of ``g.unique_keys``: a bigint, float64 for
        ``mean``, ``var``, ``std`` and ``median``, int64 for ``count`` and the ``arg``
        reductions, bool for ``any``/``all``.

    Raises
    ------
    ValueError
        ``values`` has not one value per row.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.pandas._bigint_groupby import bigint_aggregate
    >>> g = ak.GroupBy(ak.array([0, 1, 0]))
    >>> v = ak.array([2**70, 5, 1], dtype=ak.bigint)
    >>> bigint_aggregate(g, v, "sum").tolist()
    [1180591620717411303425, 5]
    >>> bigint_aggregate(g, v, "argmax").tolist()
    [0, 1]
    """
    if values.size != g._nrows:
        raise ValueError("Attempt to group array using key array of different length")
    if op == "count":
        return (g._ends() - g.segments)._materialize() if g.ngroups else g.segments
    if op == "first":
        return values[g._uki]
    if op in ("any", "all"):
        return g._agg(values.astype(bool_), op)
    limbs, mb = values._limbs, values._mb
    if g.ngroups == 0:
        if op in ("mean", "var", "std", "median"):
            return full(0, np.nan, float64)
        if op in ("argmin", "argmax"):
            return arange(0)
        return BigIntArray([x[:0] for x in limbs], mb)
    if op in ("or", "and", "xor"):
        return BigIntArray([segmented_bitwise(g._sorted(x), g._flags, g.ngroups, op) for x in limbs], mb)
    if op == "sum":
        return BigIntArray(_sum(g, limbs)._limbs, mb)
    if op == "prod":
        return _prod(g, limbs, mb)
    if op in ("mean", "var", "std"):
        return _moments(g, limbs, op, ddof)
    if op == "median":
        return _median(g, limbs)
    rows = _extreme_rows(g, limbs, op)
    return rows if op in ("argmin", "argmax") else values[rows]


def _nonneg(x: pdarray) -> BigIntArray:
    """A uint64 array read as a nonnegative bigint."""
    return BigIntArray([x, _zeros(x.size)])


def _sum(g: GroupBy, limbs: Sequence[pdarray]) -> Any:  # noqa: ANN401 (a BigIntArray)
    """The exact sum per group of the two's complement ``limbs`` (a bigint without max_bits)."""

    def group_sum(x: pdarray) -> Any:  # noqa: ANN401 (a pdarray)  # uint64 sums of values below 2**32: exact for groups under 2**32 rows
        return g._agg_sorted(g._sorted(x), "sum")

    total = None
    for j, x in enumerate(limbs):
        for part, shift in ((x & _LOW32, 64 * j), (x >> np.uint64(32), 64 * j + 32)):
            s = _nonneg(group_sum(part._materialize())) << shift
            total = s if total is None else total + s
    negatives = group_sum((limbs[-1] >= _TOP).astype(uint64)._materialize())
    return total - (_nonneg(negatives) << (64 * len(limbs)))  # the sign bit's weight


def _trimmed(limbs: Sequence[pdarray], mb: int) -> BigIntArray:
    """The bigint of ``limbs`` without top limbs that only repeat the sign of the limb below.

    (In every element), so that products of products stay as short as their values.
    """
    limbs = list(limbs)
    while len(limbs) > 1:
        sign = where(limbs[-2] >= _TOP, _ALL, _ZERO)
        if not builtins.bool((limbs[-1] == sign).all()):
            break
        limbs.pop()
    return BigIntArray(limbs, mb)


def _prod(g: GroupBy, limbs: Sequence[pdarray], mb: int) -> BigIntArray:
    """The exact product per group.

    Each round multiplies the values at even places of every group by their right neighbours
    (a value without one by 1), halving every group, until each group holds one value. With
    ``max_bits`` every round is taken modulo ``2**max_bits``.
    """
    cur = _trimmed([g._sorted(x) for x in limbs], mb)
    gid = (cumsum(g._flags.astype(int64)) - 1)._materialize()
    _, cnt = g.size()
    while cur.size > g.ngroups:
        start = (cumsum(cnt) - cnt)._materialize()
        pos = arange(cur.size)
        rank = (pos - start[gid])._materialize()
        lead = (rank % 2 == 0)._materialize()
        has = (rank + 1 < cnt[gid])._materialize()
        left_rows = pos[lead]
        partner = has[lead]
        right_rows = where(partner, left_rows + 1, left_rows)._materialize()
        right = cur[right_rows]
        one = [where(partner, x, _ONE if i == 0 else _ZERO)._materialize() for i, x in enumerate(right._limbs)]
        cur = _trimmed((cur[left_rows] * BigIntArray(one, mb))._limbs, mb)
        gid = gid[lead]
        cnt = ((cnt + 1) // 2)._materialize()
    return BigIntArray(cur._limbs, mb)


def _moments(g: GroupBy, limbs: Sequence[pdarray], op: str, ddof: int) -> Any:  # noqa: ANN401 (a pdarray)
    """mean, var or std (float64) per group from exact bigint sums."""
    _, cnt = g.size()
    s = _sum(g, limbs)
    if op == "mean":
        return (s.astype(float64) / cnt.astype(float64))._materialize()
    x = BigIntArray(limbs)
    sq = _sum(g, _trimmed((x * x)._limbs, -1)._limbs)
    num = (sq * cnt - s * s).astype(float64)
    den = (cnt * (cnt - ddof)).astype(float64)
    r = where(cnt - ddof > 0, num / where(den > 0, den, 1.0), np.nan)._materialize()
    return r if op == "var" else (r**0.5)._materialize()


def _median(g: GroupBy, limbs: Sequence[pdarray]) -> Any:  # noqa: ANN401 (a pdarray)
    """The median per group (float64): half the exact sum of the two middle values."""
    _, cnt = g.size()
    rows = _group_sorted_rows(g, limbs, False)
    seg = g.segments
    x = BigIntArray(limbs)
    lo = x[rows[seg + (cnt - 1) // 2]]
    hi = x[rows[seg + cnt // 2]]
    return ((lo + hi).astype(float64) / 2.0)._materialize()


def _group_sorted_rows(g: GroupBy, limbs: Sequence[pdarray], descending: bool) -> Any:  # noqa: ANN401 (a pdarray)
    """The rows (of the keys as given) of each group's values, groups in order.

    Each group's values ascending (descending when ``descending``), ties in row order.
    """
    gid = g._group_ids()
    rows = arange(gid.size)
    if g.length != g._nrows:
        keep = gid >= 0
        rows, gid = rows[keep], gid[keep]
    keys = [x[rows] for x in limbs]
    signed_top = keys[-1] ^ _TOP  # two's complement order as unsigned order
    order = [gid, signed_top] + keys[-2::-1]
    if descending:
        order = [gid] + [~k for k in order[1:]]
    return rows[coargsort(order)]


def _extreme_rows(g: GroupBy, limbs: Sequence[pdarray], op: str) -> Any:  # noqa: ANN401 (a pdarray)
    """The row (of the keys as given) of the smallest or largest value of each group.

    The smallest for ``min`` and ``argmin``, the largest for ``max`` and ``argmax``; the first
    such row on ties.
    """
    return _group_sorted_rows(g, limbs, op in ("max", "argmax"))[g.segments]


def is_bigint(values: object) -> bool:
    """Whether ``values`` is a bigint array.

    Parameters
    ----------
    values : object
        Anything.

    Returns
    -------
    bool
        True for a ``BigIntArray`` (an object with limbs).

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.pandas._bigint_groupby import is_bigint
    >>> is_bigint(ak.array([1], dtype=ak.bigint)), is_bigint(ak.array([1]))
    (True, False)
    """
    return hasattr(values, "_limbs")
