"""Segmented reductions that ``atoll-ops``' aggregate does not have (bitwise or/and/xor).

They run as engine commands (``crates/atoll-python/src/pandas_ops.rs``).
"""

from __future__ import annotations

from .. import _atoll
from ..numpy.pdarrayclass import pdarray


def segmented_bitwise(values: pdarray, flags: pdarray, groups: int, op: str) -> pdarray:
    """The bitwise ``op`` of int64/uint64 ``values`` per group.

    **Collective.**

    Parameters
    ----------
    values : pdarray
        int64 or uint64 values, in grouped order.
    flags : pdarray
        bool, True where a group starts.
    groups : int
        The number of groups.
    op : str
        ``'or'``, ``'and'`` or ``'xor'``.

    Returns
    -------
    pdarray
        One value per group, of ``values``' dtype.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.pandas._segfold import segmented_bitwise
    >>> v, f = ak.array([1, 2, 4, 8]), ak.array([True, False, True, False])
    >>> segmented_bitwise(v, f, 2, "or").tolist()
    [3, 12]
    """
    return pdarray(_atoll.seg_bitwise(values._ex(), flags._whole(), values.size, groups, op))


def float_bits(values: pdarray) -> pdarray:
    """The IEEE bits of float64 ``values`` as uint64 (-0.0 as 0.0, every NaN alike).

    Parameters
    ----------
    values : pdarray
        float64 values.

    Returns
    -------
    pdarray
        uint64, the bits of each value.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.pandas._segfold import float_bits
    >>> float_bits(ak.array([1.0, -0.0, 0.0])).tolist()
    [4607182418800017408, 0, 0]
    """
    return pdarray(_atoll.f64_bits(values._ex(), values.size))


def reserve_check(operation: object, bytes_per_locale: int) -> None:
    """Raise ``ak.OutOfMemoryError`` unless every locale can take ``bytes_per_locale`` more.

    **Collective.**

    Parameters
    ----------
    operation : object
        What needs the memory, named (as a string) in the error.
    bytes_per_locale : int
        The bytes each locale is to allocate (a negative number counts as 0).

    Raises
    ------
    OutOfMemoryError
        A locale cannot take the bytes; the message names the locale and ``operation``.

    Examples
    --------
    >>> from atoll.pandas._segfold import reserve_check
    >>> reserve_check("a small merge", 1024)
    """
    _atoll.reserve_check(str(operation), int(max(0, bytes_per_locale)))
