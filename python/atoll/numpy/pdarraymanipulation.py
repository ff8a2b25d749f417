"""``concatenate``, ``bincount`` and ``histogram`` (Arkouda's names and results)."""

import builtins

import numpy as np

from ..groupby import GroupBy
from ..pandas._concat import _concat_pdarrays, generic_concat
from . import _nd
from ._bigint import is_bigint_array
from .dtypes import float64, int64
from .numeric import floor, isnan, where
from .pdarrayclass import _check, pdarray
from .pdarraycreation import arange, array, ones, zeros


def concatenate(arrays, ordered=True, axis=0):
    """One pdarray holding the elements of ``arrays`` in order, in NumPy's result dtype:
    pdarrays of one rank joined along ``axis`` (their other axes of equal lengths; ``None``:
    their flat values end to end), as ``numpy.concatenate``. Strings, Categoricals and
    SegArrays are 1-D. Along the first axis this is the flat values end to end; along another,
    one gather from them, its positions computed in the fused loop.

    >>> import atoll as ak
    >>> ak.concatenate([ak.arange(4).reshape(2, 2), ak.arange(2).reshape(2, 1)], axis=1).tolist()
    [[0, 1, 0], [2, 3, 1]]
    """

    if not isinstance(arrays, (list, tuple)):
        raise TypeError(f"arrays: expected a list of pdarrays, got {type(arrays).__name__}")
    if not arrays:
        raise ValueError("arrays: need at least one array to concatenate")

    if not builtins.all(isinstance(a, pdarray) for a in arrays):  # Strings, Categorical, SegArray
        if axis not in (0, -1, None):
            raise np.exceptions.AxisError(f"axis {axis} is out of bounds for array of dimension 1")
        return generic_concat(arrays, ordered=ordered)
    if builtins.any(is_bigint_array(a) for a in arrays) or (
        axis in (0, -1) and builtins.all(a.ndim == 1 for a in arrays)
    ):
        if axis not in (0, -1, None):
            raise np.exceptions.AxisError(f"axis {axis} is out of bounds for array of dimension 1")
        return _concat_pdarrays(arrays)
    return _concat_axis(arrays, axis)


def _concat_axis(arrays, axis):
    """``concatenate`` of pdarrays of any rank along ``axis`` (None: flattened)."""
    if axis is None:
        return _concat_pdarrays([_nd.with_shape(a, None) for a in arrays])
    nd = arrays[0].ndim
    if nd == 0:
        raise ValueError("zero-dimensional arrays cannot be concatenated")
    ax = _nd.normalize_axis(axis, nd)
    first = arrays[0].shape
    for k, a in enumerate(arrays):
        if a.ndim != nd:
            raise ValueError(
                "all the input arrays must have same number of dimensions, but "
                f"the array at index 0 has {nd} dimension(s) and the array at index {k} has {a.ndim} dimension(s)"
            )
        for d in range(nd):
            if d != ax and a.shape[d] != first[d]:
                raise ValueError(
                    "all the input array dimensions except for the concatenation axis must match exactly, but "
                    f"along dimension {d}, the array at index 0 has size {first[d]} and the array at index {k} "
                    f"has size {a.shape[d]}"
                )
    lens = [a.shape[ax] for a in arrays]
    total = builtins.sum(lens)
    shape = first[:ax] + (total,) + first[ax + 1 :]
    flat = _concat_pdarrays([_nd.with_shape(a, None) for a in arrays])
    outer = _nd.prod(first[:ax])
    if outer <= 1 or len(arrays) == 1 or _nd.prod(shape) == 0:
        return _nd.with_shape(flat, shape)
    inner = _nd.prod(first[ax + 1 :])
    # Output element i = (o, j, r) (outer index, index along the axis, inner index) of piece p
    # (j in [off_p, off_p + n_p)) sits at base_p + o * n_p * inner + (j - off_p) * inner + r of
    # the flat values, i.e. i + o * (n_p - total) * inner + base_p - off_p * inner.
    i, co = _nd.coords(shape)
    o = i // (total * inner)
    j = co[ax]
    pos = None
    base = off = 0
    pieces = []
    for n_p in lens:
        if n_p:
            pieces.append((off, n_p, base))
        base += outer * n_p * inner
        off += n_p
    for off_p, n_p, base_p in reversed(pieces):
        here = i + o * ((n_p - total) * inner) + (base_p - off_p * inner)
        pos = here if pos is None else where(j < off_p + n_p, here, pos)
    return _nd.gather_flat(flat, pos, shape)


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
    return bincount(_bin_index(x, bins, lo, hi, edges_np), minlength=bins)[:bins], array(edges_np)


def _bin_index(x, bins, lo, hi, edges_np):
    """The bin of each value of ``x`` (float64, all in ``[lo, hi]``) among ``bins`` equal-width
    bins with edges ``edges_np``, the last bin closed. NumPy's rule: the bin from the scaled
    value, corrected against the edges themselves."""
    norm = bins / (hi - lo)
    idx = floor((x - lo) * norm).astype(int64)
    idx = where(idx >= bins, bins - 1, idx)
    idx = where(idx < 0, 0, idx)._materialize()
    edges = array(edges_np)
    idx = where(x < edges[idx], idx - 1, idx)._materialize()
    up = array(np.append(edges_np[1:], np.inf))
    return where((x >= up[idx]) & (idx != bins - 1), idx + 1, idx)._materialize()


def histogramdd(sample, bins=10, range=None):  # noqa: A002  (NumPy's name)
    """``(counts, edges)`` of the points whose coordinates are the pdarrays of ``sample`` (a
    sequence of D pdarrays of one size, or an (N, D) pdarray), as ``numpy.histogramdd``:
    ``bins`` an int or one int per dimension, ``range`` None or one ``(lo, hi)`` (or None) per
    dimension; the counts a float64 pdarray of shape ``bins``, the edges a list of pdarrays.

    >>> import atoll as ak
    >>> h, e = ak.histogramdd([ak.array([0, 1, 1]), ak.array([0, 0, 1])], bins=2)
    >>> h.tolist()
    [[1.0, 0.0], [1.0, 1.0]]
    """
    if isinstance(sample, pdarray):
        if sample.ndim != 2:
            raise ValueError("histogramdd: a pdarray sample must be 2-D, (N, D)")
        cols = [_nd.axis_slice(sample, 1, d, d + 1) for d in builtins.range(sample.shape[1])]
        sample = [_nd.with_shape(c, None) if c.size else c for c in cols]
    if not isinstance(sample, (list, tuple)) or not sample:
        raise TypeError("histogramdd: sample must be a non-empty sequence of pdarrays")
    for c in sample:
        _check(c)
        if c.ndim != 1:
            raise ValueError("histogramdd: each coordinate must be a 1-D pdarray")
    D, n = len(sample), sample[0].size
    if builtins.any(c.size != n for c in sample):
        raise ValueError("histogramdd: the coordinates must have one size")
    if isinstance(bins, (builtins.int, np.integer)) and not isinstance(bins, (builtins.bool, np.bool_)):
        bins = [builtins.int(bins)] * D
    bins = list(bins)
    if len(bins) != D:
        raise ValueError("The dimension of bins must be equal to the dimension of the sample x.")
    for b in bins:
        if isinstance(b, (builtins.bool, np.bool_)) or not isinstance(b, (builtins.int, np.integer)):
            raise TypeError(f"bins: expected ints, got {type(b).__name__}")
        if b < 1:
            raise ValueError(f"bins[{bins.index(b)}] must be positive, when an integer")
    if range is None:
        range = [None] * D
    if len(range) != D:
        raise ValueError("range argument must have one entry per dimension")
    xs = [c.astype(float64) for c in sample]
    bounds = []
    for x, r in zip(xs, range):
        if r is None:
            if x.dtype == float64 and n and builtins.bool(isnan(x).any()):
                raise ValueError("autodetected range of [nan, nan] is not finite")
            lo, hi = (builtins.float(x.min()), builtins.float(x.max())) if n else (0.0, 1.0)
        else:
            lo, hi = builtins.float(r[0]), builtins.float(r[1])
            if lo > hi:
                raise ValueError(f"In range, start must be <= stop, got {lo} > {hi}")
        if lo == hi:
            lo, hi = lo - 0.5, hi + 0.5
        bounds.append((lo, hi))
    edges_np = [np.linspace(lo, hi, b + 1) for (lo, hi), b in zip(bounds, bins)]
    total = _nd.prod(bins)
    if n:
        keep = None
        for x, (lo, hi) in zip(xs, bounds):
            k = (x >= lo) & (x <= hi)
            keep = k if keep is None else keep & k
        if not builtins.bool(keep.all()):
            xs = [x[keep] for x in xs]
    if n == 0 or xs[0].size == 0:
        counts = zeros(total, float64)
    else:
        flat = None
        stride = 1
        for x, (lo, hi), b, e in builtins.reversed(list(zip(xs, bounds, bins, edges_np))):
            idx = _bin_index(x, b, lo, hi, e)
            flat = idx * stride if flat is None else flat + idx * stride
            stride *= b
        counts = bincount(flat, minlength=total)[:total].astype(float64)
    return _nd.with_shape(counts, tuple(bins)), [array(e) for e in edges_np]


def histogram2d(x, y, bins=10, range=None):  # noqa: A002  (NumPy's name)
    """``(counts, x_edges, y_edges)`` of the points ``(x[i], y[i])``, as ``numpy.histogram2d``
    (``bins`` an int or a pair of ints; ``range`` None or ``((xlo, xhi), (ylo, yhi))``).

    >>> import atoll as ak
    >>> h, xe, ye = ak.histogram2d(ak.array([0, 1, 1]), ak.array([0, 0, 1]), bins=2)
    >>> h.tolist()
    [[1.0, 0.0], [1.0, 1.0]]
    """
    h, (ex, ey) = histogramdd([x, y], bins=bins, range=range)
    return h, ex, ey


# ----- NumPy's append, delete, hstack, vstack and stack -------------------------------------


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
    dtype (bigint with a bigint): ``axis=None`` joins the flat values, else ``concatenate``
    along ``axis``. For 1-D arrays every axis allowed (None, 0, -1) gives the same result.

    >>> import atoll as ak
    >>> ak.append(ak.array([1, 2]), ak.array([3.5])).tolist()
    [1.0, 2.0, 3.5]
    """
    arr, values = _one_d(arr, "arr"), _one_d(values, "values")
    if builtins.any(isinstance(x, pdarray) and x.ndim != 1 for x in (arr, values)):
        return concatenate([arr, values], axis=axis)
    _axis0(axis, "append")
    return concatenate([arr, values])


def hstack(tup, *, dtype=None, casting="same_kind"):
    """The arrays of ``tup`` joined along their second axis (``numpy.hstack``; 1-D arrays,
    and scalars as one-element arrays, end to end), in ``dtype`` when given (each array cast
    with the ``casting`` rule, NumPy's ``TypeError`` when it forbids the cast), else in NumPy's
    result dtype.

    >>> import atoll as ak
    >>> ak.hstack([ak.array([1, 2]), ak.array([3])]).tolist()
    [1, 2, 3]
    """
    if isinstance(tup, pdarray):
        raise TypeError("hstack: expected a sequence of arrays, got one pdarray")
    arrays = [_one_d(a, "tup") for a in tup]
    arrays = [_nd.with_shape(a, (1,)) if isinstance(a, pdarray) and a.ndim == 0 else a for a in arrays]
    arrays = _cast_all(arrays, dtype, casting)
    # NumPy's rule: 1-D arrays (by the first) end to end, else joined along the second axis.
    if isinstance(arrays[0], pdarray) and arrays[0].ndim != 1:
        return concatenate(arrays, axis=1)
    return concatenate(arrays, axis=0)


def _cast_all(arrays, dtype, casting):
    """``arrays`` (at least one) in ``dtype`` when given, each cast allowed by ``casting``."""
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
    return arrays


def _pdarrays(tup, name):
    if isinstance(tup, pdarray):
        raise TypeError(f"{name}: expected a sequence of arrays, got one pdarray")
    out = []
    for a in tup:
        a = _one_d(a, "tup") if not isinstance(a, pdarray) else a
        if not isinstance(a, pdarray) or is_bigint_array(a):
            raise TypeError(f"{name}: expected pdarrays (Strings and bigint arrays are 1-D), got {type(a).__name__}")
        out.append(a)
    return out


def vstack(tup, *, dtype=None, casting="same_kind"):
    """The arrays of ``tup`` stacked as rows (``numpy.vstack``): 1-D arrays of length ``n``
    become rows of shape ``(1, n)``, then ``concatenate`` along the first axis; ``dtype`` and
    ``casting`` as ``hstack``'s.

    >>> import atoll as ak
    >>> ak.vstack([ak.array([1, 2]), ak.array([3, 4])]).tolist()
    [[1, 2], [3, 4]]
    """
    arrays = _cast_all(_pdarrays(tup, "vstack"), dtype, casting)
    rows = [_nd.with_shape(a, (1, a.size) if a.ndim == 1 else (1, 1)) if a.ndim < 2 else a for a in arrays]
    return concatenate(rows, axis=0)


def stack(arrays, /, axis=0, *, dtype=None, casting="same_kind"):
    """The pdarrays ``arrays`` (all of one shape) joined along a new axis at ``axis``
    (``numpy.stack``).

    >>> import atoll as ak
    >>> ak.stack([ak.array([1, 2]), ak.array([3, 4])], axis=1).tolist()
    [[1, 3], [2, 4]]
    """
    arrays = _cast_all(_pdarrays(arrays, "stack"), dtype, casting)
    shape = arrays[0].shape
    if builtins.any(a.shape != shape for a in arrays):
        raise ValueError("all input arrays must have the same shape")
    ax = _nd.normalize_axis(axis, len(shape) + 1)
    new = shape[:ax] + (1,) + shape[ax:]
    return concatenate([_nd.with_shape(a, new) for a in arrays], axis=ax)


def delete(arr, obj, axis=None):
    """A copy of ``arr`` without the elements ``obj`` names (``numpy.delete``): an int, a
    slice, a sequence or pdarray of ints (negative ones count from the end; repeated ones
    delete once), or a bool mask of ``arr``'s length. An index out of range is NumPy's
    ``IndexError``. For an N-d ``arr``, ``obj`` names positions along ``axis`` (``None``: of
    the flat values).

    >>> import atoll as ak
    >>> ak.delete(ak.array([10, 11, 12, 13]), [0, -1]).tolist()
    [11, 12]
    """
    arr = _one_d(arr, "arr")
    if isinstance(arr, pdarray) and arr.ndim != 1 and not is_bigint_array(arr):
        if axis is None:
            return delete(_nd.with_shape(arr, None), obj)
        ax = _nd.normalize_axis(axis, arr.ndim)
        return _nd.take_axis(arr, delete(arange(arr.shape[ax]), obj), ax)
    _axis0(axis, "delete")
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


__all__ = ["concatenate", "bincount", "histogram", "append", "delete", "hstack", "vstack", "stack"]
