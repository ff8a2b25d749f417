"""``concatenate``, ``bincount`` and ``histogram`` (Arkouda's names and results)."""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..groupby import GroupBy
from ..pandas._concat import _concat_pdarrays, generic_concat
from . import _nd
from ._bigint import is_bigint_array
from .dtypes import float64, int64
from .numeric import floor, isnan, where
from .pdarrayclass import _check, pdarray
from .pdarraycreation import arange, array, ones, zeros


def concatenate(arrays: Sequence[Any], ordered: bool = True, axis: int | None = 0) -> Any:  # noqa: ANN401 (the arrays' kind)
    """One array holding the elements of ``arrays`` in order, in NumPy's result dtype.

    pdarrays of one rank are joined along ``axis`` (their other axes of equal lengths), as
    ``numpy.concatenate``. Along the first axis this is the flat values end to end; along
    another, one gather from them, its positions computed in the fused loop.

    Parameters
    ----------
    arrays : list of pdarray, Strings, Categorical or SegArray
        The arrays, of one kind; Strings, Categoricals and SegArrays are 1-D.
    ordered : bool, default True
        Arkouda's flag: the elements stay in order (always here).
    axis : int or None, default 0
        The axis joined along; None: the flat values end to end.

    Returns
    -------
    pdarray, Strings, Categorical or SegArray
        The joined array.

    Raises
    ------
    TypeError
        ``arrays`` is not a list.
    ValueError
        No array, or shapes that do not join.
    numpy.exceptions.AxisError
        ``axis`` is out of bounds.

    Examples
    --------
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


def _concat_axis(arrays: Sequence[pdarray], axis: int | None) -> pdarray:
    """``concatenate`` of pdarrays of any rank along ``axis`` (None: flattened)."""
    out: pdarray
    if axis is None:
        out = _concat_pdarrays([_nd.with_shape(a, None) for a in arrays])
        return out
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
        out = _nd.with_shape(flat, shape)
        return out
    inner = _nd.prod(first[ax + 1 :])
    # Output element i = (o, j, r) (outer index, index along the axis, inner index) of piece p
    # (j in [off_p, off_p + n_p)) sits at base_p + o * n_p * inner + (j - off_p) * inner + r of
    # the flat values, i.e. i + o * (n_p - total) * inner + base_p - off_p * inner.
    i, co = _nd.coords(shape)
    o = i // (total * inner)
    j = co[ax]
    pos: Any = None
    base = off = 0
    pieces: list[tuple[int, int, int]] = []
    for n_p in lens:
        if n_p:
            pieces.append((off, n_p, base))
        base += outer * n_p * inner
        off += n_p
    for off_p, n_p, base_p in reversed(pieces):
        here = i + o * ((n_p - total) * inner) + (base_p - off_p * inner)
        pos = here if pos is None else where(j < off_p + n_p, here, pos)
    out = _nd.gather_flat(flat, pos, shape)
    return out


def bincount(pda: pdarray, weights: pdarray | None = None, minlength: int = 0) -> pdarray:
    """The number of occurrences of each value in ``0..max(pda)``, as ``numpy.bincount``.

    Parameters
    ----------
    pda : pdarray
        Nonnegative integers (or bools).
    weights : pdarray, optional
        One weight per value: the sum of the weights per value instead (float64).
    minlength : int, default 0
        The least length of the result.

    Returns
    -------
    pdarray
        The counts (int64) or sums (float64) of ``0..max(pda)``.

    Raises
    ------
    TypeError
        ``pda`` is not an integer pdarray.
    ValueError
        A negative value or ``minlength``, or weights of another size.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.bincount(ak.array([0, 2, 2])).tolist()
    [1, 0, 2]
    >>> ak.bincount(ak.array([1, 1]), weights=ak.array([0.5, 2.0])).tolist()
    [0.0, 2.5]
    """
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
        out: pdarray = zeros(m, float64)
        if x.size:
            keys, sums = GroupBy(x).sum(weights.astype(float64))
            out[keys] = sums
        return out
    out = zeros(m, int64)
    if x.size:
        keys, counts = GroupBy(x).size()
        out[keys] = counts
    return out


def histogram(
    pda: pdarray,
    bins: int = 10,
    range: tuple[float, float] | None = None,  # noqa: A002  (NumPy's name)
) -> tuple[pdarray, pdarray]:
    """The counts of ``bins`` equal-width bins of the values, as ``numpy.histogram``.

    Parameters
    ----------
    pda : pdarray
        The values.
    bins : int, default 10
        The number of bins.
    range : tuple of float, optional
        ``(lo, hi)``: the bins' bounds (values outside are left out); else ``pda.min()`` to
        ``pda.max()``. The last bin is closed.

    Returns
    -------
    tuple of pdarray
        ``(counts, bin_edges)``: int64 counts and the ``bins + 1`` float64 edges.

    Raises
    ------
    TypeError
        ``bins`` is not an int.
    ValueError
        ``bins`` below 1, ``lo > hi``, NaN values without a range, or too many bins.

    Examples
    --------
    >>> import atoll as ak
    >>> c, e = ak.histogram(ak.array([0.0, 1.0, 1.0, 4.0]), bins=2)
    >>> c.tolist(), e.tolist()
    ([3, 1], [0.0, 2.0, 4.0])
    """
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
    edges: pdarray = array(edges_np)
    counts: pdarray
    if x.size == 0:
        counts = zeros(bins, int64)
    else:
        counts = bincount(_bin_index(x, builtins.int(bins), lo, hi, edges_np), minlength=builtins.int(bins))[:bins]
    return counts, edges


def _bin_index(x: pdarray, bins: int, lo: float, hi: float, edges_np: np.ndarray[Any, Any]) -> pdarray:
    """The bin of each value of ``x`` among ``bins`` equal-width bins with edges ``edges_np``.

    ``x`` is float64, all in ``[lo, hi]``; the last bin is closed. NumPy's rule: the bin from
    the scaled value, corrected against the edges themselves.
    """
    norm = bins / (hi - lo)
    idx = floor((x - lo) * norm).astype(int64)
    idx = where(idx >= bins, bins - 1, idx)
    idx = where(idx < 0, 0, idx)._materialize()
    edges = array(edges_np)
    idx = where(x < edges[idx], idx - 1, idx)._materialize()
    up = array(np.append(edges_np[1:], np.inf))
    out: pdarray = where((x >= up[idx]) & (idx != bins - 1), idx + 1, idx)._materialize()
    return out


def histogramdd(
    sample: pdarray | Sequence[pdarray],
    bins: int | Sequence[int] = 10,
    range: Sequence[tuple[float, float] | None] | None = None,  # noqa: A002  (NumPy's name)
) -> tuple[pdarray, list[pdarray]]:
    """The counts of the points in equal-width bins of each dimension, as ``numpy.histogramdd``.

    Parameters
    ----------
    sample : list of pdarray or pdarray
        D pdarrays of one size (the points' coordinates), or an (N, D) pdarray.
    bins : int or list of int, default 10
        The number of bins of every dimension, or of each.
    range : list, optional
        One ``(lo, hi)`` (or None: the coordinate's min and max) per dimension.

    Returns
    -------
    tuple
        ``(counts, edges)``: a float64 pdarray of shape ``bins``, and a list of the edges of
        each dimension (pdarrays).

    Raises
    ------
    TypeError
        ``sample`` is not a list of pdarrays, or a bin count not an int.
    ValueError
        Coordinates of different sizes, bad bins or range.

    Examples
    --------
    >>> import atoll as ak
    >>> h, e = ak.histogramdd([ak.array([0, 1, 1]), ak.array([0, 0, 1])], bins=2)
    >>> h.tolist()
    [[1.0, 0.0], [1.0, 1.0]]
    """
    points: Any = sample
    if isinstance(sample, pdarray):
        if sample.ndim != 2:
            raise ValueError("histogramdd: a pdarray sample must be 2-D, (N, D)")
        cols = [_nd.axis_slice(sample, 1, d, d + 1) for d in builtins.range(sample.shape[1])]
        points = [_nd.with_shape(c, None) if c.size else c for c in cols]
    if not isinstance(points, (list, tuple)) or not points:
        raise TypeError("histogramdd: sample must be a non-empty sequence of pdarrays")
    for c in points:
        _check(c)
        if c.ndim != 1:
            raise ValueError("histogramdd: each coordinate must be a 1-D pdarray")
    D, n = len(points), points[0].size
    if builtins.any(c.size != n for c in points):
        raise ValueError("histogramdd: the coordinates must have one size")
    nbins: list[Any]
    if isinstance(bins, (builtins.int, np.integer)) and not isinstance(bins, (builtins.bool, np.bool_)):
        nbins = [builtins.int(bins)] * D
    else:
        nbins = list(bins)  # type: ignore[arg-type]  # anything else is refused below
    bins = nbins
    if len(bins) != D:
        raise ValueError("The dimension of bins must be equal to the dimension of the sample x.")
    for b in bins:
        if isinstance(b, (builtins.bool, np.bool_)) or not isinstance(b, (builtins.int, np.integer)):
            raise TypeError(f"bins: expected ints, got {type(b).__name__}")
        if b < 1:
            raise ValueError(f"bins[{bins.index(b)}] must be positive, when an integer")
    ranges: Sequence[tuple[float, float] | None] = [None] * D if range is None else range
    if len(ranges) != D:
        raise ValueError("range argument must have one entry per dimension")
    xs = [c.astype(float64) for c in points]
    bounds: list[tuple[float, float]] = []
    for x, r in zip(xs, ranges):
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
        keep: Any = None
        for x, (lo, hi) in zip(xs, bounds):
            k = (x >= lo) & (x <= hi)
            keep = k if keep is None else keep & k
        if not builtins.bool(keep.all()):
            xs = [x[keep] for x in xs]
    if n == 0 or xs[0].size == 0:
        counts = zeros(total, float64)
    else:
        flat: Any = None
        stride = 1
        for x, (lo, hi), b, e in builtins.reversed(list(zip(xs, bounds, bins, edges_np))):
            idx = _bin_index(x, b, lo, hi, e)
            flat = idx * stride if flat is None else flat + idx * stride
            stride *= b
        counts = bincount(flat, minlength=total)[:total].astype(float64)
    shaped: pdarray = _nd.with_shape(counts, tuple(bins))
    return shaped, [array(e) for e in edges_np]


def histogram2d(
    x: pdarray,
    y: pdarray,
    bins: int | Sequence[int] = 10,
    range: Sequence[tuple[float, float] | None] | None = None,  # noqa: A002  (NumPy's name)
) -> tuple[pdarray, pdarray, pdarray]:
    """The counts of the points ``(x[i], y[i])`` in equal-width bins, as ``numpy.histogram2d``.

    Parameters
    ----------
    x, y : pdarray
        The points' coordinates, of one size.
    bins : int or pair of int, default 10
        The number of bins of both dimensions, or of each.
    range : pair, optional
        ``((xlo, xhi), (ylo, yhi))``; None: the coordinates' min and max.

    Returns
    -------
    tuple of pdarray
        ``(counts, x_edges, y_edges)``, the counts float64 of shape ``bins``.

    Raises
    ------
    TypeError
        A coordinate is not a pdarray, or a bin count not an int.
    ValueError
        Coordinates of different sizes, bad bins or range.

    Examples
    --------
    >>> import atoll as ak
    >>> h, xe, ye = ak.histogram2d(ak.array([0, 1, 1]), ak.array([0, 0, 1]), bins=2)
    >>> h.tolist()
    [[1.0, 0.0], [1.0, 1.0]]
    """
    h, (ex, ey) = histogramdd([x, y], bins=bins, range=range)
    return h, ex, ey


# ----- NumPy's append, delete, hstack, vstack and stack -------------------------------------


def _axis0(axis: object, name: str) -> None:
    """Checks that ``axis`` names the one axis of a 1-D array (None, 0 or -1).

    NumPy's ``AxisError`` (a ValueError and an IndexError) otherwise.
    """
    if axis is None:
        return
    if isinstance(axis, (builtins.bool, np.bool_)) or not isinstance(axis, (builtins.int, np.integer)):
        raise TypeError(f"{name}: axis must be an int or None, got {type(axis).__name__}")
    if not -1 <= axis < 1:
        raise np.exceptions.AxisError(builtins.int(axis), 1)


def _one_d(x: object, name: str) -> Any:  # noqa: ANN401 (a pdarray or Strings)
    if isinstance(x, pdarray) or type(x).__name__ == "Strings":
        return x
    if isinstance(x, (list, tuple, np.ndarray)) or np.isscalar(x):
        return array(np.atleast_1d(np.asarray(x)))
    raise TypeError(f"{name}: expected a pdarray, got {type(x).__name__}")


def append(arr: object, values: object, axis: int | None = None) -> Any:  # noqa: ANN401 (arr's kind)
    """``arr`` followed by ``values`` in a new array, as ``numpy.append``.

    In NumPy's result dtype (bigint with a bigint). For 1-D arrays every axis allowed (None,
    0, -1) gives the same result.

    Parameters
    ----------
    arr : pdarray, Strings, sequence or scalar
        The first values.
    values : pdarray, Strings, sequence or scalar
        The values appended.
    axis : int, optional
        ``concatenate`` along ``axis``; None joins the flat values.

    Returns
    -------
    pdarray or Strings
        The joined values.

    Raises
    ------
    TypeError
        An argument is not an array, sequence or scalar.
    numpy.exceptions.AxisError
        ``axis`` is out of bounds.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.append(ak.array([1, 2]), ak.array([3.5])).tolist()
    [1.0, 2.0, 3.5]
    """
    a, v = _one_d(arr, "arr"), _one_d(values, "values")
    if builtins.any(isinstance(x, pdarray) and x.ndim != 1 for x in (a, v)):
        return concatenate([a, v], axis=axis)
    _axis0(axis, "append")
    return concatenate([a, v])


def hstack(tup: Sequence[Any], *, dtype: object = None, casting: str = "same_kind") -> Any:  # noqa: ANN401 (a pdarray or Strings)
    """The arrays of ``tup`` joined along their second axis, as ``numpy.hstack``.

    1-D arrays, and scalars as one-element arrays, end to end.

    Parameters
    ----------
    tup : sequence of pdarray, Strings or scalar
        The arrays.
    dtype : dtype, optional
        The result's dtype (each array cast with the ``casting`` rule); else NumPy's result
        dtype.
    casting : {'no', 'equiv', 'safe', 'same_kind', 'unsafe'}, default 'same_kind'
        NumPy's casting rule.

    Returns
    -------
    pdarray or Strings
        The joined array.

    Raises
    ------
    TypeError
        ``tup`` is one pdarray, or ``casting`` forbids the cast (NumPy's error).
    ValueError
        No array.

    Examples
    --------
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


def _cast_all(arrays: list[Any], dtype: object, casting: str) -> list[Any]:
    """``arrays`` (at least one) in ``dtype`` when given, each cast allowed by ``casting``."""
    if not arrays:
        raise ValueError("need at least one array to concatenate")
    if dtype is not None:
        d: np.dtype[Any] = np.dtype(dtype)  # type: ignore[call-overload]  # NumPy reads any object
        for a in arrays:
            if (
                isinstance(a, pdarray) and not hasattr(a, "_limbs") and not np.can_cast(a.dtype, d, casting=casting)  # type: ignore[arg-type]  # NumPy checks the name
            ):
                raise TypeError(
                    f"Cannot cast array data from dtype('{a.dtype}') to dtype('{d}') according to the rule '{casting}'"
                )
        arrays = [a if a.dtype == d else a.astype(d) for a in arrays]
    return arrays


def _pdarrays(tup: object, name: str) -> list[pdarray]:
    if isinstance(tup, pdarray):
        raise TypeError(f"{name}: expected a sequence of arrays, got one pdarray")
    out: list[pdarray] = []
    for item in tup:  # type: ignore[attr-defined]  # not iterable: Python's TypeError
        a = _one_d(item, "tup") if not isinstance(item, pdarray) else item
        if not isinstance(a, pdarray) or is_bigint_array(a):
            raise TypeError(f"{name}: expected pdarrays (Strings and bigint arrays are 1-D), got {type(a).__name__}")
        out.append(a)
    return out


def vstack(tup: Sequence[Any], *, dtype: object = None, casting: str = "same_kind") -> pdarray:
    """The arrays of ``tup`` stacked as rows, as ``numpy.vstack``.

    1-D arrays of length ``n`` become rows of shape ``(1, n)``, then ``concatenate`` along
    the first axis.

    Parameters
    ----------
    tup : sequence of pdarray
        The arrays.
    dtype : dtype, optional
        As :func:`hstack`'s.
    casting : str, default 'same_kind'
        As :func:`hstack`'s.

    Returns
    -------
    pdarray
        The stacked array.

    Raises
    ------
    TypeError
        ``tup`` is one pdarray or holds no pdarrays, or ``casting`` forbids the cast.
    ValueError
        No array, or shapes that do not join.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.vstack([ak.array([1, 2]), ak.array([3, 4])]).tolist()
    [[1, 2], [3, 4]]
    """
    arrays = _cast_all(_pdarrays(tup, "vstack"), dtype, casting)
    rows = [_nd.with_shape(a, (1, a.size) if a.ndim == 1 else (1, 1)) if a.ndim < 2 else a for a in arrays]
    out: pdarray = concatenate(rows, axis=0)
    return out


def stack(arrays: Sequence[pdarray], /, axis: int = 0, *, dtype: object = None, casting: str = "same_kind") -> pdarray:
    """The pdarrays ``arrays``, all of one shape, joined along a new axis, as ``numpy.stack``.

    Parameters
    ----------
    arrays : sequence of pdarray
        The arrays.
    axis : int, default 0
        The new axis' position in the result.
    dtype : dtype, optional
        As :func:`hstack`'s.
    casting : str, default 'same_kind'
        As :func:`hstack`'s.

    Returns
    -------
    pdarray
        The stacked array.

    Raises
    ------
    TypeError
        ``arrays`` is one pdarray or holds no pdarrays, or ``casting`` forbids the cast.
    ValueError
        No array, or arrays of different shapes.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.stack([ak.array([1, 2]), ak.array([3, 4])], axis=1).tolist()
    [[1, 3], [2, 4]]
    """
    arrs = _cast_all(_pdarrays(arrays, "stack"), dtype, casting)
    shape = arrs[0].shape
    if builtins.any(a.shape != shape for a in arrs):
        raise ValueError("all input arrays must have the same shape")
    ax = _nd.normalize_axis(axis, len(shape) + 1)
    new = shape[:ax] + (1,) + shape[ax:]
    out: pdarray = concatenate([_nd.with_shape(a, new) for a in arrs], axis=ax)
    return out


def delete(arr: object, obj: object, axis: int | None = None) -> Any:  # noqa: ANN401 (arr's kind)
    """A copy of ``arr`` without the elements ``obj`` names, as ``numpy.delete``.

    Parameters
    ----------
    arr : pdarray, Strings, sequence or scalar
        The values.
    obj : int, slice, sequence of int, pdarray
        The positions: ints (negative ones count from the end; repeated ones delete once), or
        a bool mask of ``arr``'s length.
    axis : int, optional
        For an N-d ``arr``, ``obj`` names positions along ``axis``; None: of the flat values.

    Returns
    -------
    pdarray or Strings
        The values left.

    Raises
    ------
    IndexError
        An index out of range, or indices neither integers nor bools (NumPy's error).
    ValueError
        A bool mask of another length.
    TypeError
        ``obj`` is a bool, or ``arr`` not an array.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.delete(ak.array([10, 11, 12, 13]), [0, -1]).tolist()
    [11, 12]
    """
    x = _one_d(arr, "arr")
    if isinstance(x, pdarray) and x.ndim != 1 and not is_bigint_array(x):
        if axis is None:
            return delete(_nd.with_shape(x, None), obj)
        ax = _nd.normalize_axis(axis, x.ndim)
        return _nd.take_axis(x, delete(arange(x.shape[ax]), obj), ax)
    _axis0(axis, "delete")
    n = x.size
    keep = ones(n, dtype=bool)
    if isinstance(obj, slice):
        keep[obj] = False
        return x[keep]
    if isinstance(obj, (builtins.bool, np.bool_)):
        raise TypeError("delete: obj must be an index, a slice, a sequence of indices or a bool mask")
    if isinstance(obj, (builtins.int, np.integer)):
        i = builtins.int(obj)
        if not -n <= i < n:
            raise IndexError(f"index {i} is out of bounds for axis 0 with size {n}")
        keep[i % n] = False
        return x[keep]
    idx = obj if isinstance(obj, pdarray) else array(np.asarray(obj))
    if idx.size == 0:
        return x[keep]
    if idx.dtype == bool:
        if idx.size != n:
            raise ValueError(
                f"boolean array argument obj to delete must be one dimensional and match the axis length of {n}"
            )
        return x[~idx]
    if idx.dtype.kind not in "iu":
        raise IndexError("arrays used as indices must be of integer (or boolean) type")
    lo, hi = builtins.int(idx.min()), builtins.int(idx.max())
    if lo < -n or hi >= n:
        bad = hi if hi >= n else lo
        raise IndexError(f"index {bad} is out of bounds for axis 0 with size {n}")
    keep[idx] = False
    return x[keep]


__all__ = ["concatenate", "bincount", "histogram", "append", "delete", "hstack", "vstack", "stack"]
