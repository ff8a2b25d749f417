"""Segmented reductions that ``atoll-ops``' aggregate does not have (bitwise or/and/xor), as
engine commands (``crates/atoll-python/src/pandas_ops.rs``)."""

from .. import _atoll
from ..numpy.pdarrayclass import pdarray


def segmented_bitwise(values, flags, groups, op):
    """Bitwise ``op`` ('or', 'and', 'xor') of int64/uint64 ``values`` (in grouped order) per
    group of the bool ``flags`` (True where a group starts). **Collective.**"""
    return pdarray(_atoll.seg_bitwise(values._ex(), flags._whole(), values.size, groups, op))


def float_bits(values):
    """The IEEE bits of float64 ``values`` as uint64 (-0.0 as 0.0, every NaN alike)."""
    return pdarray(_atoll.f64_bits(values._ex(), values.size))


def reserve_check(operation, bytes_per_locale):
    """Raises ``ak.OutOfMemoryError`` (naming the locale and ``operation``) unless every
    locale can take ``bytes_per_locale`` more. **Collective.**"""
    _atoll.reserve_check(str(operation), int(max(0, bytes_per_locale)))
