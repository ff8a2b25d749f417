"""Arkouda's ``bigint`` arrays: arbitrary-precision integers stored as uint64 limb arrays."""

from .dtypes import bigint, bigint_  # noqa: F401


class BigIntArray:
    """Placeholder class until the limb arrays land (no array is ever of this class)."""


def is_bigint_array(x):
    return isinstance(x, BigIntArray)


def to_bigint(pda, max_bits=-1):
    raise TypeError("bigint arrays are not supported yet")


def bigint_from_uint_arrays(arrays, max_bits=-1):
    raise TypeError("bigint arrays are not supported yet")
