"""``concatenate``, ``bincount`` and ``histogram`` (Arkouda's names and results)."""

import builtins

import numpy as np

from .dtypes import float64, int64, supported
from .pdarrayclass import _check
from .pdarraycreation import zeros, array
from .pdarrayclass import pdarray
from ..pandas._concat import generic_concat
from ._bigint import BigIntArray, to_bigint
from ..groupby import GroupBy
from .numeric import floor, isnan, where


def concatenate(arrays, ordered=True):
    """One pdarray holding the elements of ``arrays`` in order, in NumPy's result dtype."""

    if not isinstance(arrays, (list, tuple)):
        raise TypeError(f"arrays: expected a list of pdarrays, got {type(arrays).__name__}")
    if not arrays:
        raise ValueError("arrays: need at least one array to concatenate")

    if not builtins.all(isinstance(a, pdarray) for a in arrays):  # Strings, Categorical, SegArray
        return generic_concat(arrays, ordered=ordered)
    for a in arrays:
        _check(a, "arrays")
    if builtins.any(hasattr(a, "_limbs") for a in arrays):
        bs = [to_bigint(a) for a in arrays]
        k = builtins.max(len(b._limbs) for b in bs)
        mbs = [b.max_bits for b in bs]
        set_ = [m for m in mbs if m >= 0]
        mb = builtins.max(set_) if set_ else -1  # Arkouda: the widest max_bits given
        return BigIntArray([concatenate([b._ext(k)[i] for b in bs]) for i in range(k)], mb)
    d = supported(np.result_type(*[a.dtype for a in arrays]))
    out = zeros(builtins.sum(a.size for a in arrays), d)
    at = 0
    for a in arrays:
        if a.size:
            out[at : at + a.size] = a if a.dtype == d else a.astype(d)
        at += a.size
    return out


def bincount(pda, weights=None, minlength=0):
    """The number of occurrences of each value in ``0..max(pda)`` (``numpy.bincount``), or
    the sum of ``weights`` per value (float64)."""

    _check(pda)
    if pda.dtype.kind not in "iu" and pda.dtype.kind != "b":
        raise TypeError(f"pda: bincount needs an integer array, got {pda.dtype.name}")
    x = pda.astype(int64) if pda.dtype != int64 else pda
    if minlength < 0:
        raise ValueError("minlength must not be negative")
    if x.size and builtins.int(x.min()) < 0:
        raise ValueError("pda: bincount needs nonnegative values")
    m = builtins.max(minlength, builtins.int(x.max()) + 1 if x.size else 0)
    if weights is not None:
        _check(weights, "weights")
        if weights.size != x.size:
            raise ValueError(f"weights: size {weights.size} does not match the array's {x.size}")
        out = zeros(m, float64)
        if x.size:
            keys, sums = GroupBy(x).sum(weights.astype(float64))
            out[keys] = sums
        return out
    out = zeros(m, int64)
    if x.size:
        keys, counts = GroupBy(x).size()
        out[keys] = counts
    return out


def histogram(pda, bins=10, range=None):  # noqa: A002  (NumPy's name)
    """``(counts, bin_edges)`` of ``bins`` equal-width bins from ``pda.min()`` to
    ``pda.max()`` (the last bin closed), as ``numpy.histogram``."""

    _check(pda)
    if isinstance(bins, (builtins.bool, np.bool_)) or not isinstance(bins, (builtins.int, np.integer)):
        raise TypeError(f"bins: expected an int, got {type(bins).__name__}")
    if bins < 1:
        raise ValueError(f"bins: expected a positive integer, got {bins!r}")
    x = pda.astype(float64)
    if range is not None:
        lo, hi = builtins.float(range[0]), builtins.float(range[1])
        if lo > hi:
            raise ValueError("max must be larger than min in range parameter.")
        if x.size:
            x = x[(x >= lo) & (x <= hi)]
    elif pda.dtype == float64 and pda.size and builtins.bool(isnan(pda).any()):
        raise ValueError("autodetected range of [nan, nan] is not finite")
    else:
        lo, hi = (builtins.float(x.min()), builtins.float(x.max())) if x.size else (0.0, 1.0)
    if lo == hi:
        lo, hi = lo - 0.5, hi + 0.5
    edges_np = np.linspace(lo, hi, bins + 1, endpoint=True)
    if np.any(edges_np[:-1] >= edges_np[1:]):
        # Values a few ulps apart: the edges would not all differ (NumPy's error too).
        raise ValueError(f"Too many bins for data range. Cannot create {bins} finite-sized bins.")
    if x.size == 0:
        return zeros(bins, int64), array(edges_np)
    # NumPy's rule: the bin from the scaled value, corrected against the edges themselves.
    norm = bins / (hi - lo)
    idx = floor((x - lo) * norm).astype(int64)
    idx = where(idx >= bins, bins - 1, idx)
    idx = where(idx < 0, 0, idx)._materialize()
    edges = array(edges_np)
    idx = where(x < edges[idx], idx - 1, idx)._materialize()
    up = array(np.append(edges_np[1:], np.inf))
    idx = where((x >= up[idx]) & (idx != bins - 1), idx + 1, idx)._materialize()
    return bincount(idx, minlength=bins)[:bins], edges


__all__ = ["concatenate", "bincount", "histogram"]
