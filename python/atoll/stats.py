"""Arkouda's numeric functions beyond the elementwise ones: ``diff``, ``dot``/``vecdot``/
``matmul`` of 1-D arrays, ``quantile``/``percentile``/``median``, ``cov``, ``corr``, ``skew``,
``mink``/``maxk``/``argmink``/``argmaxk``, ``putmask``, ``take``, ``hash``."""

import builtins

import numpy as np

from .numpy.dtypes import bool_, float64, int64, uint64
from .numpy.numeric import isnan
from .numpy.pdarrayclass import _check, any as _any, mean, pdarray, std, sum as _sum
from .numpy.pdarraycreation import arange, array
from .numpy.pdarraymanipulation import concatenate
from .numpy.sorting import argsort, sort
from .numpy.strings import Strings

__all__ = [
    "diff",
    "dot",
    "vecdot",
    "matmul",
    "quantile",
    "percentile",
    "median",
    "cov",
    "corr",
    "skew",
    "mink",
    "maxk",
    "argmink",
    "argmaxk",
    "putmask",
    "take",
    "hash",
]


def diff(a, n=1, axis=-1, prepend=None, append=None):
    """The ``n``-th differences ``a[1:] - a[:-1]`` (bool: ``!=``), as NumPy's ``diff``."""

    _check(a, "a")
    if n < 0:
        raise ValueError(f"order must be non-negative but got {n}")
    parts = []
    for extra in (prepend, append):
        if extra is None:
            parts.append(None)
        elif isinstance(extra, pdarray):
            parts.append(extra)
        else:
            parts.append(array(np.atleast_1d(np.asarray(extra, dtype=a.dtype))))
    x = a
    if parts[0] is not None or parts[1] is not None:
        x = concatenate([p for p in (parts[0], a, parts[1]) if p is not None])
    for _ in range(n):
        m = x.size
        if m <= 1:
            return x[0:0]
        x = (x[1:] != x[: m - 1]) if x.dtype == bool_ else (x[1:] - x[: m - 1])
        x = x._materialize()
    return x


def dot(pda1, pda2):
    """The dot product of two 1-D pdarrays (or the elementwise product with a scalar)."""

    if not isinstance(pda1, pdarray) and not isinstance(pda2, pdarray):
        return np.dot(pda1, pda2)
    if not isinstance(pda1, pdarray) or not isinstance(pda2, pdarray):
        # NumPy's dot makes an array of the scalar first: its own dtype takes part.
        arr, sc = (pda1, pda2) if isinstance(pda1, pdarray) else (pda2, pda1)
        d = np.result_type(arr.dtype, np.asarray(sc).dtype)
        return arr.astype(d) * np.asarray(sc).astype(d)[()]
    if pda1.size != pda2.size:
        raise ValueError(f"shapes ({pda1.size},) and ({pda2.size},) not aligned")
    if pda1.dtype == bool_ and pda2.dtype == bool_:
        return np.bool_(_any(pda1 & pda2))
    p = pda1 * pda2
    return _sum(p)


def vecdot(x1, x2, axis=None):
    """The elementwise product's sum of two 1-D pdarrays (a scalar)."""
    if not isinstance(x1, pdarray) or not isinstance(x2, pdarray):
        raise TypeError("vecdot: expected two pdarrays")
    if x1.size != x2.size:
        raise ValueError("vecdot: the arrays must have one size")
    return dot(x1, x2)


def matmul(pda_L, pda_R):
    """``pda_L @ pda_R`` for 1-D pdarrays: their dot product."""
    if not isinstance(pda_L, pdarray) or not isinstance(pda_R, pdarray):
        raise TypeError("matmul: expected two pdarrays")
    return dot(pda_L, pda_R)


_METHODS = (
    "linear",
    "lower",
    "higher",
    "nearest",
    "midpoint",
    "inverted_cdf",
    "averaged_inverted_cdf",
    "closest_observation",
    "interpolated_inverted_cdf",
    "hazen",
    "weibull",
    "median_unbiased",
    "normal_unbiased",
)


def quantile(a, q=0.5, axis=None, method="linear", keepdims=False):
    """NumPy's ``quantile`` of a 1-D pdarray (``q`` a scalar, a list or a pdarray of values in
    [0, 1]): one sort, then the order statistics NumPy's ``method`` names (the values are
    fetched by index, not gathered)."""

    _check(a, "a")
    if axis not in (None, 0, -1):
        raise ValueError(f"axis {axis} is out of bounds for array of dimension 1")
    if method not in _METHODS:
        raise ValueError(f"method: {method!r} is not a valid method, expected one of {_METHODS}")
    scalar_q = np.ndim(q.to_ndarray() if isinstance(q, pdarray) else q) == 0
    qs = np.atleast_1d(q.to_ndarray() if isinstance(q, pdarray) else np.asarray(q, dtype=np.float64)).astype(np.float64)
    if np.any((qs < 0) | (qs > 1)) or np.any(np.isnan(qs)):
        raise ValueError("Quantiles must be in the range [0, 1]")
    n = a.size
    if n == 0:
        raise ValueError("quantile: the array is empty")
    x = a.astype(float64) if a.dtype == bool_ else a
    if x.dtype == float64 and builtins.bool(isnan(x).any()):
        out = np.full(qs.shape, np.nan)
        return np.float64(out[0]) if scalar_q else array(out)
    s = sort(x)
    # NumPy's quantile: the "virtual index" of each method, then interpolation or a pick.
    res = []
    for p in qs:
        res.append(_quantile_one(s, n, p, method))
    out = np.array(res, dtype=np.float64)
    return np.float64(out[0]) if scalar_q else array(out)


def _quantile_one(s, n, p, method):
    def at(i):
        return builtins.float(s[builtins.int(builtins.min(builtins.max(i, 0), n - 1))])

    alpha_beta = {
        "linear": (1, 1),
        "hazen": (0.5, 0.5),
        "weibull": (0, 0),
        "median_unbiased": (1 / 3, 1 / 3),
        "normal_unbiased": (3 / 8, 3 / 8),
        "interpolated_inverted_cdf": (0, 1),
    }
    if method in alpha_beta:
        al, be = alpha_beta[method]
        v = n * p + al + p * (1 - al - be) - 1
        v = builtins.min(builtins.max(v, 0), n - 1)
        lo = int(np.floor(v))
        g = v - lo
        a, b = at(lo), at(lo + 1)
        return a + (b - a) * g if g else a
    v = (n - 1) * p
    lo = int(np.floor(v))
    g = v - lo
    if method == "lower":
        return at(lo)
    if method == "higher":
        return at(int(np.ceil(v)))
    if method == "nearest":
        return at(int(np.around(v)))
    if method == "midpoint":
        return (at(lo) + at(int(np.ceil(v)))) / 2

    # The discrete methods (H&F 1996): an index, its floor, and the floor's rule at g = 0.
    def discrete(index, take_floor):
        prev = np.floor(index)
        g = index - prev
        k = int(prev) if take_floor(g, index) else int(prev) + 1
        return at(builtins.max(k, 0))

    if method == "inverted_cdf":
        return discrete(n * p - 1, lambda g, i: g == 0)
    if method == "averaged_inverted_cdf":
        v = n * p - 1
        lo = int(np.floor(v))
        g = v - lo
        return (at(lo) + at(lo + 1)) / 2 if g == 0 else at(lo + 1)
    if method == "closest_observation":
        return discrete(n * p - 1 - 0.5, lambda g, i: g == 0 and np.floor(i) % 2 == 1)
    raise ValueError(method)


def percentile(a, q=50, axis=None, method="linear", keepdims=False):
    """NumPy's ``percentile``: ``quantile(a, q / 100)``."""
    qq = (q / 100.0) if not isinstance(q, (list, tuple)) else [v / 100.0 for v in q]
    if isinstance(q, pdarray):
        qq = q.astype(float64) / 100.0
    return quantile(a, qq, axis, method, keepdims)


def median(pda):
    """The median (float64; NaN when a NaN is present)."""
    return np.float64(quantile(pda, 0.5))


def cov(x, y):
    """The sample covariance of two pdarrays of one size (``ddof = 1``)."""

    _check(x, "x")
    _check(y, "y")
    if x.size != y.size:
        raise ValueError("x and y must have the same size")
    mx, my = builtins.float(mean(x)), builtins.float(mean(y))
    return np.float64(_sum((x.astype(float64) - mx) * (y.astype(float64) - my)) / (x.size - 1))


def corr(x, y):
    """Pearson's correlation of two pdarrays of one size."""

    return np.float64(cov(x, y) / (std(x, 1) * std(y, 1)))


def skew(pda, bias=True):
    """The sample skewness (SciPy's ``skew``; ``bias=False`` corrects for bias)."""

    _check(pda)
    n = pda.size
    x = pda.astype(float64) - builtins.float(mean(pda))
    m2 = builtins.float(_sum(x * x)) / n
    m3 = builtins.float(_sum(x * x * x)) / n
    if m2 == 0:
        return np.float64(np.nan)
    g = m3 / m2**1.5
    if not bias and n > 2:
        g = g * np.sqrt(n * (n - 1)) / (n - 2)
    return np.float64(g)


def _k(pda, k):
    _check(pda)
    if isinstance(k, builtins.bool) or not isinstance(k, (builtins.int, np.integer)):
        raise TypeError(f"k: expected an int, got {type(k).__name__}")
    if k < 1 or pda.size == 0:
        raise ValueError("k must be 1 or greater and the array nonempty")
    return builtins.min(builtins.int(k), pda.size)


def _ranked(pda):
    """The values of ``pda`` that extrema rank, and their positions: NaN is left out, as
    Arkouda's extrema ignore it (None for the positions when nothing is left out)."""
    if pda.dtype == float64:
        keep = ~isnan(pda)
        if not builtins.bool(keep.all()):
            return pda[keep], arange(pda.size)[keep]
    return pda, None


def mink(pda, k):
    """The ``k`` smallest values, in increasing order (NaN ignored: fewer than ``k`` when
    fewer values are not NaN)."""

    k = _k(pda, k)
    vals, _ = _ranked(pda)
    return sort(vals)[:k]


def maxk(pda, k):
    """The ``k`` largest values, in increasing order (NaN ignored: fewer than ``k`` when
    fewer values are not NaN)."""

    k = _k(pda, k)
    vals, _ = _ranked(pda)
    s = sort(vals)
    return s[builtins.max(s.size - k, 0) :]


def argmink(pda, k):
    """The indices of the ``k`` smallest values (in order of the values; NaN ignored)."""

    k = _k(pda, k)
    vals, pos = _ranked(pda)
    p = argsort(vals)[:k]
    return p if pos is None else pos[p]


def argmaxk(pda, k):
    """The indices of the ``k`` largest values (in increasing order of the values; NaN
    ignored)."""

    k = _k(pda, k)
    vals, pos = _ranked(pda)
    p = argsort(vals)
    p = p[builtins.max(p.size - k, 0) :]
    return p if pos is None else pos[p]


class PutmaskSizeError(ValueError, RuntimeError):
    """``putmask``'s mask does not match the array: NumPy raises ValueError, Arkouda
    RuntimeError; this is both."""


class PutmaskTypeError(TypeError, RuntimeError):
    """``putmask``'s values cannot be cast to the array's dtype (NumPy: TypeError, Arkouda:
    RuntimeError; this is both)."""


def putmask(A, mask, Values):
    """``A[i] = Values[i % len(Values)]`` where ``mask[i]`` (in place, NumPy's ``putmask``)."""

    _check(A, "A")
    _check(mask, "mask")
    if mask.dtype != bool_ or mask.size != A.size:
        raise PutmaskSizeError("mask: must be a bool pdarray of A's size")
    if not isinstance(Values, pdarray):
        Values = array(np.atleast_1d(np.asarray(Values)))
    if not np.can_cast(Values.dtype, A.dtype, casting="same_kind") and not (
        A.dtype == float64 and Values.dtype in (int64, uint64, bool_)
    ):
        raise PutmaskTypeError(f"Values: cannot cast {Values.dtype} to {A.dtype}")
    idx = arange(A.size)[mask]
    if idx.size == 0:
        return
    A[idx] = Values[idx % Values.size] if Values.size != A.size else Values[idx]


def take(a, indices, axis=None):
    """``a[indices]`` (NumPy's ``take`` of a 1-D array)."""

    if not isinstance(indices, pdarray):
        indices = array(np.atleast_1d(np.asarray(indices, dtype=np.int64)))
    return a[indices]


def hash(pda, full=True):
    """A hash of each element (or of each row of a list of arrays): two uint64 arrays, or
    one with ``full=False``. Strings use their 128-bit hash; numbers a mix of their bits."""
    items = pda if isinstance(pda, (list, tuple)) else [pda]
    h1 = h2 = None
    for i, x in enumerate(items):
        if isinstance(x, Strings):
            a, b = x.hash()
        elif isinstance(x, pdarray):
            bits = x.astype(uint64) if x.dtype != float64 else _float_bits(x)
            a = _finalize(bits ^ np.uint64(0x9E3779B97F4A7C15))
            b = _finalize(bits + np.uint64(0xBF58476D1CE4E5B9))
        elif hasattr(x, "codes") and hasattr(x, "categories"):
            a, b = x.categories.hash()
            a, b = a[x.codes], b[x.codes]
        else:
            raise TypeError(f"hash: unsupported type {type(x).__name__}")
        if h1 is None:
            h1, h2 = a, b
        else:
            h1 = _finalize(h1 ^ a.rotl(np.uint64(i % 63 + 1)) if hasattr(a, "rotl") else h1 ^ a)
            h2 = _finalize(h2 ^ b)
    return (h1, h2) if full else h1


def _finalize(z):
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return (z ^ (z >> np.uint64(31)))._materialize()


def _float_bits(x):
    """The IEEE bits of a float64 array (through the driver: no bit cast on the native side)."""

    v = x.to_ndarray()
    v = np.where(v == 0, 0.0, v)  # -0.0 hashes as 0.0
    return array(v.view(np.uint64))
