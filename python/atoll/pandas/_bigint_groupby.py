"""GroupBy aggregations of bigint values (``atoll._bigint.BigIntArray``: uint64 limbs, least
significant first, two's complement) built from the uint64 aggregations of their limbs:
``first``, ``count``, ``or``/``and``/``xor`` limb by limb, ``sum`` over 32-bit halves (no
carry lost for groups under 2**32 rows), ``min``/``max`` by a sort of (group, value)."""

import numpy as np

from ..dtypes import uint64
from .._bigint import BigIntArray, _zeros
from ..creation import arange

OPS = frozenset(["first", "count", "or", "and", "xor", "sum", "min", "max"])
_LOW32 = np.uint64(0xFFFF_FFFF)
_TOP = np.uint64(1 << 63)


def bigint_aggregate(g, values, op):
    """``op`` of the bigint ``values`` per group of the GroupBy ``g`` (one value per group, in
    the order of ``g.unique_keys``). **Collective.**"""

    if values.size != g._nrows:
        raise ValueError("Attempt to group array using key array of different length")
    if op == "count":
        return (g._ends() - g.segments)._materialize() if g.ngroups else g.segments
    if op == "first":
        return values[g._uki]
    limbs, mb = values._limbs, values._mb
    if g.ngroups == 0:
        return BigIntArray([x[:0] for x in limbs], mb)
    if op in ("or", "and", "xor"):
        from ._segfold import segmented_bitwise

        return BigIntArray([segmented_bitwise(g._sorted(x), g._flags, g.ngroups, op) for x in limbs], mb)
    if op == "sum":
        return _sum(g, limbs, mb)
    return values[_extreme_rows(g, limbs, op)]


def _sum(g, limbs, mb):

    def group_sum(x):  # uint64 sums of values below 2**32: exact for groups under 2**32 rows
        return g._agg_sorted(g._sorted(x), "sum")

    def nonneg(x):  # a uint64 array read as a nonnegative bigint
        return BigIntArray([x, _zeros(x.size)])

    total = None
    for j, x in enumerate(limbs):
        for part, shift in ((x & _LOW32, 64 * j), (x >> np.uint64(32), 64 * j + 32)):
            s = nonneg(group_sum(part._materialize())) << shift
            total = s if total is None else total + s
    negatives = group_sum((limbs[-1] >= _TOP).astype(uint64)._materialize())
    total = total - (nonneg(negatives) << (64 * len(limbs)))  # the sign bit's weight
    return BigIntArray(total._limbs, mb)


def _extreme_rows(g, limbs, op):
    """The row (of the keys as given) of the smallest (``min``) or largest (``max``) value of
    each group, the first such row on ties."""
    from ..sorting import coargsort

    gid = g._group_ids()
    rows = arange(gid.size)
    if g.length != g._nrows:
        keep = gid >= 0
        rows, gid = rows[keep], gid[keep]
    keys = [x[rows] for x in limbs]
    signed_top = keys[-1] ^ _TOP  # two's complement order as unsigned order
    order = [gid, signed_top] + keys[-2::-1]
    if op == "max":  # largest value first, ties in index order
        order = [gid] + [~k for k in order[1:]]
    perm = coargsort(order)
    return rows[perm][g.segments]


def is_bigint(values):
    return hasattr(values, "_limbs")
