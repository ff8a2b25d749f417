"""Hashes of values as pairs of uint64 pdarrays (elementwise, fused): the splitmix64 finalizer
over each value's bits. Equal values hash equally (-0.0 as 0.0; Strings by their 128-bit
hash)."""

import numpy as np

from ..numpy.dtypes import bool_, float64, uint64
from ..numpy.pdarrayclass import pdarray
from ..numpy.strings import Strings
from ._segfold import float_bits

_K1 = np.uint64(0xBF58476D1CE4E5B9)
_K2 = np.uint64(0x94D049BB133111EB)


def mix(x):
    """The splitmix64 finalizer of a uint64 pdarray (lazy)."""
    x = x ^ (x >> np.uint64(30))
    x = x * _K1
    x = x ^ (x >> np.uint64(27))
    x = x * _K2
    return x ^ (x >> np.uint64(31))


def bits(values):
    """Each value's bits as uint64 (lazy where possible)."""

    if values.dtype == float64:
        return float_bits(values)
    if values.dtype == bool_:
        return values.astype(uint64)
    return values.astype(uint64)


def hash_values(values):
    """Two uint64 pdarrays hashing each value of a pdarray, Strings or Categorical."""

    if isinstance(values, Strings):
        return values.hash()
    if hasattr(values, "codes") and hasattr(values, "categories"):
        h1, h2 = values.categories.hash()
        return h1[values.codes], h2[values.codes]
    if not isinstance(values, pdarray):
        raise TypeError(f"cannot hash values of type {type(values).__name__}")
    b = bits(values)
    h1 = mix(b + np.uint64(0x9E3779B97F4A7C15))._materialize()
    h2 = mix(b ^ np.uint64(0xD6E8FEB86659FD93))._materialize()
    return h1, h2
