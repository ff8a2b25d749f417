"""``concatenate``, ``bincount`` and ``histogram`` (Arkouda's names and results)."""

import builtins

import numpy as np

from ..groupby import GroupBy
from ..pandas._concat import _concat_pdarrays, generic_concat
from .dtypes import float64, int64
from .numeric import floor, isnan, where
from .pdarrayclass import _check, pdarray
from .pdarraycreation import array, ones, zeros


def concatenate(arrays, ordered=True):
    """One pdarray holding the elements of ``arrays`` in order, in NumPy's result dtype."""

    if not isinstance(arrays, (list, tuple)):
        raise TypeError(f"arrays: expected a list of pdarrays, got {type(arrays).__name__}")
    if not arrays:
        raise ValueError("arrays: need at least one array to concatenate")

    if not builtins.all(isinstance(a, pdarray) for a in arrays):  # Strings, Categorical, SegArray
        return generic_concat(arrays, ordered=ordered)
    return _concat_pdarrays(arrays)


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


# ----- NumPy's append, delete, hstack and vstack on 1-D arrays ------------------------------


def _axis0(axis, name):
    """Checks that ``axis`` names the one axis of a 1-D array (None, 0 or -1): NumPy's
    ``AxisError`` (a ValueError and an IndexError) otherwise."""
    if axis is None:
        return
    if isinstance(axis, (builtins.bool, np.bool_)) or not isinstance(axis, (builtins.int, np.integer)):
        raise TypeError(f"{name}: axis must be an int or None, got {type(axis).__name__}")
    if not -1 <= axis < 1:
        raise np.exceptions.AxisError(builtins.int(axis), 1)


def _one_d(x, name):
    if isinstance(x, pdarray) or type(x).__name__ == "Strings":
        return x
    if isinstance(x, (list, tuple, np.ndarray)) or np.isscalar(x):
        return array(np.atleast_1d(np.asarray(x)))
    raise TypeError(f"{name}: expected a pdarray, got {type(x).__name__}")


def append(arr, values, axis=None):
    """``arr`` followed by ``values`` in a new array (``numpy.append``), in NumPy's result
    dtype (bigint with a bigint). For 1-D arrays every axis allowed (None, 0, -1) gives the
    same result.

    >>> import atoll as ak
    >>> ak.append(ak.array([1, 2]), ak.array([3.5])).tolist()
    [1.0, 2.0, 3.5]
    """
    _axis0(axis, "append")
    return concatenate([_one_d(arr, "arr"), _one_d(values, "values")])


def hstack(tup, *, dtype=None, casting="same_kind"):
    """The arrays of ``tup`` end to end (``numpy.hstack`` of 1-D arrays), in ``dtype`` when
    given (each array cast with the ``casting`` rule, NumPy's ``TypeError`` when it forbids
    the cast), else in NumPy's result dtype.

    >>> import atoll as ak
    >>> ak.hstack([ak.array([1, 2]), ak.array([3])]).tolist()
    [1, 2, 3]
    """
    if isinstance(tup, pdarray):
        raise TypeError("hstack: expected a sequence of arrays, got one pdarray")
    arrays = [_one_d(a, "tup") for a in tup]
    if not arrays:
        raise ValueError("need at least one array to concatenate")
    if dtype is not None:
        d = np.dtype(dtype)
        for a in arrays:
            if isinstance(a, pdarray) and not hasattr(a, "_limbs") and not np.can_cast(a.dtype, d, casting=casting):
                raise TypeError(
                    f"Cannot cast array data from dtype('{a.dtype}') to dtype('{d}') according to the rule '{casting}'"
                )
        arrays = [a if a.dtype == d else a.astype(d) for a in arrays]
    return concatenate(arrays)


def vstack(tup, *, dtype=None, casting="same_kind"):
    """``numpy.vstack``: its result has two dimensions (the arrays as rows), which Atoll's 1-D
    pdarrays cannot hold (``ak.get_max_array_rank()`` is 1): a ``NotImplementedError``."""
    raise NotImplementedError(
        "vstack: the result is a 2-D array, and pdarrays are 1-D (ak.get_max_array_rank() is 1); "
        "use ak.hstack or ak.concatenate to join 1-D arrays end to end"
    )


def delete(arr, obj, axis=None):
    """A copy of ``arr`` without the elements ``obj`` names (``numpy.delete``): an int, a
    slice, a sequence or pdarray of ints (negative ones count from the end; repeated ones
    delete once), or a bool mask of ``arr``'s length. An index out of range is NumPy's
    ``IndexError``.

    >>> import atoll as ak
    >>> ak.delete(ak.array([10, 11, 12, 13]), [0, -1]).tolist()
    [11, 12]
    """
    _axis0(axis, "delete")
    arr = _one_d(arr, "arr")
    n = arr.size
    keep = ones(n, dtype=bool)
    if isinstance(obj, slice):
        keep[obj] = False
        return arr[keep]
    if isinstance(obj, (builtins.bool, np.bool_)):
        raise TypeError("delete: obj must be an index, a slice, a sequence of indices or a bool mask")
    if isinstance(obj, (builtins.int, np.integer)):
        i = builtins.int(obj)
        if not -n <= i < n:
            raise IndexError(f"index {i} is out of bounds for axis 0 with size {n}")
        keep[i % n] = False
        return arr[keep]
    idx = obj if isinstance(obj, pdarray) else array(np.asarray(obj))
    if idx.size == 0:
        return arr[keep]
    if idx.dtype == bool:
        if idx.size != n:
            raise ValueError(
                f"boolean array argument obj to delete must be one dimensional and match the axis length of {n}"
            )
        return arr[~idx]
    if idx.dtype.kind not in "iu":
        raise IndexError("arrays used as indices must be of integer (or boolean) type")
    lo, hi = builtins.int(idx.min()), builtins.int(idx.max())
    if lo < -n or hi >= n:
        bad = hi if hi >= n else lo
        raise IndexError(f"index {bad} is out of bounds for axis 0 with size {n}")
    keep[idx] = False
    return arr[keep]


__all__ = ["concatenate", "bincount", "histogram", "append", "delete", "hstack", "vstack"]
