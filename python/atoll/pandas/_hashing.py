"""Hashes of values as pairs of uint64 pdarrays (elementwise, fused).

The splitmix64 finalizer over each value's bits. Equal values hash equally (-0.0 as 0.0;
Strings by their 128-bit hash).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..numpy.dtypes import bool_, float64, uint64
from ..numpy.pdarrayclass import pdarray
from ..numpy.strings import Strings
from ._segfold import float_bits

_K1 = np.uint64(0xBF58476D1CE4E5B9)
_K2 = np.uint64(0x94D049BB133111EB)


def mix(x: pdarray) -> pdarray:
    """The splitmix64 finalizer of a uint64 pdarray (lazy).

    Parameters
    ----------
    x : pdarray
        uint64 values.

    Returns
    -------
    pdarray
        uint64, each value's finalizer.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.pandas._hashing import mix
    >>> int(mix(ak.array([0], dtype=ak.uint64))[0])
    0
    >>> mix(ak.array([1, 2], dtype=ak.uint64)).dtype
    dtype('uint64')
    """
    x = x ^ (x >> np.uint64(30))
    x = x * _K1
    x = x ^ (x >> np.uint64(27))
    x = x * _K2
    out: pdarray = x ^ (x >> np.uint64(31))
    return out


def bits(values: pdarray) -> pdarray:
    """Each value's bits as uint64 (lazy where possible).

    Parameters
    ----------
    values : pdarray
        Numeric or bool values.

    Returns
    -------
    pdarray
        uint64: the IEEE bits of floats (-0.0 as 0.0), integers and bools cast.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.pandas._hashing import bits
    >>> bits(ak.array([True, False])).tolist()
    [1, 0]
    >>> bits(ak.array([1.0])).tolist()
    [4607182418800017408]
    """
    if values.dtype == float64:
        return float_bits(values)
    if values.dtype == bool_:
        return values.astype(uint64)
    return values.astype(uint64)


def hash_values(values: Any) -> tuple[pdarray, pdarray]:  # noqa: ANN401 (a pdarray, Strings or Categorical)
    """Two uint64 pdarrays hashing each value of a pdarray, Strings or Categorical.

    Parameters
    ----------
    values : pdarray, Strings or Categorical
        The values.

    Returns
    -------
    tuple of pdarray
        Two uint64 arrays: equal values have equal pairs.

    Raises
    ------
    TypeError
        ``values`` is of another type.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.pandas._hashing import hash_values
    >>> h1, h2 = hash_values(ak.array([3, 5, 3]))
    >>> bool(h1[0] == h1[2]) and bool(h2[0] == h2[2]), bool(h1[0] == h1[1])
    (True, False)
    """
    if isinstance(values, Strings):
        pair: tuple[pdarray, pdarray] = values.hash()
        return pair
    if hasattr(values, "codes") and hasattr(values, "categories"):
        h1, h2 = values.categories.hash()
        return h1[values.codes], h2[values.codes]
    if not isinstance(values, pdarray):
        raise TypeError(f"cannot hash values of type {type(values).__name__}")
    b = bits(values)
    h1 = mix(b + np.uint64(0x9E3779B97F4A7C15))._materialize()
    h2 = mix(b ^ np.uint64(0xD6E8FEB86659FD93))._materialize()
    return h1, h2
