"""Arkouda's numeric functions beyond the elementwise ones.

``diff`` along an axis, ``dot``/``vecdot``/``matmul``/``tensordot`` of arrays of any rank,
``quantile``/``percentile``/``median``, ``cov``, ``corr``, ``skew``,
``mink``/``maxk``/``argmink``/``argmaxk``, ``putmask``, ``take``, ``hash``.
"""

from __future__ import annotations

import builtins
from typing import Any, Callable, cast

import numpy as np

from . import _atoll
from .numpy import _nd
from .numpy.dtypes import bool_, float64, int64, uint64
from .numpy.numeric import isnan, where
from .numpy.pdarrayclass import _check, any as _any, mean, pdarray, std, sum as _sum
from .numpy.pdarraycreation import arange, array, zeros
from .numpy.pdarraymanipulation import concatenate
from .numpy.segarray import SegArray
from .numpy.sorting import argsort, sort
from .numpy.strings import Strings

__all__ = [
    "diff",
    "dot",
    "vecdot",
    "matmul",
    "tensordot",
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


def diff(
    a: pdarray,
    n: int = 1,
    axis: int = -1,
    prepend: Any = None,  # noqa: ANN401 (a scalar, an array-like or a pdarray)
    append: Any = None,  # noqa: ANN401 (a scalar, an array-like or a pdarray)
) -> pdarray:
    """The ``n``-th differences along ``axis``, as NumPy's ``diff``.

    Each difference is ``a[..., 1:] - a[..., :-1]`` (bool: ``!=``); ``prepend``/``append``
    (scalars, broadcast to one slice of the axis, or arrays) are joined to ``a`` along the axis
    first.

    Parameters
    ----------
    a : pdarray
        The values.
    n : int, default 1
        How many times the differences are taken.
    axis : int, default -1
        The axis along which they are taken.
    prepend, append : scalar, array-like or pdarray, optional
        Values joined to ``a`` before and after it along the axis.

    Returns
    -------
    pdarray
        The differences: ``n`` fewer elements along the axis.

    Raises
    ------
    TypeError
        ``a`` is not a pdarray, or ``n`` is not an int.
    ValueError
        ``n`` is negative, or ``a`` has rank 0.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.diff(ak.array([1, 2, 4, 7])).tolist()
    [1, 2, 3]
    >>> ak.diff(ak.array([1, 2, 4, 7]), n=2, prepend=0).tolist()
    [0, 1, 1]
    """
    _check(a, "a")
    if isinstance(n, (builtins.bool, np.bool_)) or not isinstance(n, (builtins.int, np.integer)):
        raise TypeError(f"n: expected an int, got {type(n).__name__}")
    if n < 0:
        raise ValueError(f"order must be non-negative but got {n}")
    if n == 0:
        return a  # NumPy's: prepend and append unused
    if a.ndim == 0:
        raise ValueError("diff: diff requires input that is at least one dimensional")
    ax = _nd.normalize_axis(axis, a.ndim)
    one = a.shape[:ax] + (1,) + a.shape[ax + 1 :]
    parts: list[pdarray | None] = []
    for extra in (prepend, append):
        if extra is None:
            parts.append(None)
        elif isinstance(extra, pdarray):
            parts.append(_nd.broadcast_to(extra, one) if extra.ndim == 0 else extra)
        else:
            v = np.asarray(extra)
            if v.ndim == 0:
                parts.append(_nd.with_shape(array(np.full(_nd.prod(one), v, dtype=np.result_type(a.dtype, v))), one))
            else:
                parts.append(array(v))
    x = a
    if parts[0] is not None or parts[1] is not None:
        x = concatenate([p for p in (parts[0], a, parts[1]) if p is not None], axis=ax)
    for _ in range(n):
        m = x.shape[ax]
        if x.ndim == 1:  # bigint arrays too
            if m <= 1:
                return cast(pdarray, x[0:0])
            hi, lo = x[1:], x[: m - 1]
        elif m <= 1:
            return _nd.axis_slice(x, ax, 0, 0)
        else:
            hi, lo = _nd.axis_slice(x, ax, 1, m), _nd.axis_slice(x, ax, 0, m - 1)
        x = ((hi != lo) if x.dtype == bool_ else (hi - lo))._materialize()
    return x


def _sum_last(x: pdarray, c: int) -> pdarray:
    """The sums of the consecutive runs of ``c`` elements of the pdarray ``x``.

    Its last axis is of length ``c``: one segmented reduction, no sort.
    """
    groups = x.size // c
    flags = pdarray(_atoll.arange(x.size, 0, 1)) % c == 0 if c > 1 else None
    if flags is None:
        return x._materialize()
    return pdarray(_atoll.aggregate(x._ex(), flags._whole(), x.size, groups, "sum", 0))


def _compute_dtype(d: np.dtype[Any]) -> np.dtype[Any]:
    """The dtype products and sums of result dtype ``d`` are computed in (bool: int64 counts)."""
    if d.kind == "f":
        return np.dtype(np.float64)
    return np.dtype(np.uint64) if d == np.uint64 else np.dtype(np.int64)


def _finish(r: pdarray, d: np.dtype[Any]) -> pdarray:
    """``r`` (computed in ``_compute_dtype(d)``) as dtype ``d``: bool is "any product true"."""
    if d == np.bool_:
        return cast(pdarray, r != 0)
    return r if r.dtype == d else r.astype(d)


def _matmul_nd(a: pdarray, b: pdarray) -> pdarray:
    """``a @ b`` for pdarrays of rank 2 or more: ``(..., n, k) @ (..., k, m)``.

    The leading axes broadcast. Each matrix pair of the batch is one native product (``_atoll.matmul``:
    every locale computes the rows of the result its part holds, from those rows of ``a`` and
    all of ``b``, with a packed, cache-blocked float64 kernel, or an int64 loop that wraps as
    NumPy's); the products of a batch are written into one result.
    """
    n, k = a.shape[-2:]
    k2, m = b.shape[-2:]
    if k != k2:
        raise ValueError(
            "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
            f"(n?,k),(k,m?)->(n?,m?) (size {k2} is different from {k})"
        )
    batch = _nd.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    shape = tuple(batch) + (n, m)
    d = np.result_type(a.dtype, b.dtype)
    # Products in float64, or in int64 bits (uint64 wraps the same way; bool counts).
    cd = float64 if d.kind == "f" else int64
    total = _nd.prod(shape)
    if total == 0 or k == 0:
        return zeros(shape, d)
    xa, xb = a.astype(cd)._materialize(), b.astype(cd)._materialize()

    def batch_strides(x: pdarray) -> list[int]:
        lead = len(batch) - (x.ndim - 2)
        st = _nd.c_strides(x.shape)
        return [0] * lead + [0 if x.shape[q] == 1 and batch[lead + q] != 1 else st[q] for q in range(x.ndim - 2)]

    sa, sb = batch_strides(xa), batch_strides(xb)
    if not batch:
        out = pdarray(_atoll.matmul(xa._whole(), xb._whole(), n, k, m))
    else:
        out = zeros(total, cd)
        for q, idx in enumerate(np.ndindex(*batch)):
            oa = builtins.sum(i * s for i, s in zip(idx, sa))
            ob = builtins.sum(i * s for i, s in zip(idx, sb))
            ma = _nd.view(xa, oa, (n, k), [k, 1])._whole()
            mb = _nd.view(xb, ob, (k, m), [m, 1])._whole()
            r = _atoll.matmul(ma, mb, n, k, m)
            _atoll.assign(out._arr, q * n * m, 1, n * m, _atoll.leaf(r, 0, 1, n * m))
    out = _nd.with_shape(out, shape)
    if d == bool_:
        return cast(pdarray, out != 0)
    return out if out.dtype == d else out.astype(d)


def matmul(pda_L: pdarray, pda_R: pdarray) -> Any:  # noqa: ANN401 (a pdarray, or a NumPy scalar of two 1-D arrays)
    """``pda_L @ pda_R``, as NumPy's ``matmul``.

    Two 1-D arrays give their dot product (a scalar); a 1-D operand is a row (left) or a column (right) whose axis the result drops;
    arrays of rank 2 or more multiply their last two axes, the leading ones broadcast. Exact
    for integers (wrapping as NumPy's), bool as "any product true", floats through a packed,
    cache-blocked kernel (the sums' order differs from BLAS's in the last bits).

    Each locale computes the rows of the result that its part holds: it reads those rows of
    the left operand (mostly its own) and the whole right operand (``k * m`` elements per
    locale: the cost of laying matrices out by rows).

    Parameters
    ----------
    pda_L, pda_R : pdarray
        The operands.

    Returns
    -------
    pdarray or numpy scalar
        The product: a scalar of two 1-D arrays.

    Raises
    ------
    TypeError
        An operand is not a pdarray.
    ValueError
        An operand has rank 0, or the core dimensions differ.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.matmul(ak.arange(4).reshape(2, 2), ak.array([1, 1])).tolist()
    [1, 5]
    """
    if not isinstance(pda_L, pdarray) or not isinstance(pda_R, pdarray):
        raise TypeError("matmul: expected two pdarrays")
    if pda_L.ndim == 0 or pda_R.ndim == 0:
        raise ValueError("matmul: Input operand does not have enough dimensions (a rank-0 array)")
    if pda_L.ndim == 1 and pda_R.ndim == 1:
        if pda_L.size != pda_R.size:
            raise ValueError(
                "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
                f"(n?,k),(k,m?)->(n?,m?) (size {pda_R.size} is different from {pda_L.size})"
            )
        return dot(pda_L, pda_R)
    a = _nd.with_shape(pda_L, (1, pda_L.size)) if pda_L.ndim == 1 else pda_L
    b = _nd.with_shape(pda_R, (pda_R.size, 1)) if pda_R.ndim == 1 else pda_R
    r = _matmul_nd(a, b)
    if pda_L.ndim == 1 or pda_R.ndim == 1:
        shape = r.shape[:-2] + ((r.shape[-1],) if pda_L.ndim == 1 else (r.shape[-2],))
        r = _nd.with_shape(r, shape)
    return r


def _diagonal_offsets(rows: int, cols: int) -> pdarray:
    """The lazy (rows, cols) pdarray of ``column - row``: the diagonal each element lies on."""
    _, (r, c) = _nd.coords((rows, cols))
    return _nd.with_shape(c - r, (rows, cols))


def eye(N: int, M: int | None = None, k: int = 0, dt: Any = float64) -> pdarray:  # noqa: ANN401 (a dtype-like)
    """The (N, M) pdarray with ones on the ``k``-th diagonal and zeros elsewhere (NumPy's ``eye``).

    Parameters
    ----------
    N : int
        The number of rows.
    M : int, optional
        The number of columns (default ``N``).
    k : int, default 0
        The diagonal: 0 the main, positive above, negative below.
    dt : dtype, default float64
        The result's dtype.

    Returns
    -------
    pdarray
        The (N, M) array.

    Raises
    ------
    TypeError
        ``N``, ``M`` or ``k`` is not an int.
    ValueError
        ``N`` or ``M`` is negative.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.eye(2, 3, 1, dt=ak.int64).tolist()
    [[0, 1, 0], [0, 0, 1]]
    """
    M = N if M is None else M
    for name, v in (("N", N), ("M", M), ("k", k)):
        if isinstance(v, (builtins.bool, np.bool_)) or not isinstance(v, (builtins.int, np.integer)):
            raise TypeError(f"eye: {name} must be an int, got {type(v).__name__}")
    if N < 0 or M < 0:
        raise ValueError(f"negative dimensions are not allowed: ({N}, {M})")
    d = np.dtype(dt)
    if N * M == 0:
        return zeros((N, M), d)
    return cast(pdarray, (_diagonal_offsets(builtins.int(N), builtins.int(M)) == builtins.int(k)).astype(d))


def _triangle(m: pdarray, k: int, keep: Callable[[pdarray, int], pdarray], name: str) -> pdarray:
    _check(m, "m")
    if isinstance(k, (builtins.bool, np.bool_)) or not isinstance(k, (builtins.int, np.integer)):
        raise TypeError(f"{name}: k must be an int, got {type(k).__name__}")
    if m.ndim < 2:
        raise ValueError(f"{name}: the array must have at least 2 dimensions")
    if m.size == 0:
        return m.astype(m.dtype)
    mask = _nd.broadcast_to(keep(_diagonal_offsets(m.shape[-2], m.shape[-1]), builtins.int(k)), m.shape)
    return cast(pdarray, where(mask, m, zeros(1, m.dtype)[0]))


def tril(m: pdarray, k: int = 0) -> pdarray:
    """``m`` with the elements above the ``k``-th diagonal zeroed (NumPy's ``tril``).

    Over the last two axes of ``m``.

    Parameters
    ----------
    m : pdarray
        An array of rank 2 or more.
    k : int, default 0
        The diagonal: 0 the main, positive above, negative below.

    Returns
    -------
    pdarray
        The lower triangle, of ``m``'s shape and dtype.

    Raises
    ------
    TypeError
        ``m`` is not a pdarray or ``k`` not an int.
    ValueError
        ``m`` has rank less than 2.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.tril(ak.arange(1, 7).reshape(2, 3)).tolist()
    [[1, 0, 0], [4, 5, 0]]
    """
    return _triangle(m, k, lambda d, kk: d <= kk, "tril")


def triu(m: pdarray, k: int = 0) -> pdarray:
    """``m`` with the elements below the ``k``-th diagonal zeroed (NumPy's ``triu``).

    Over the last two axes of ``m``.

    Parameters
    ----------
    m : pdarray
        An array of rank 2 or more.
    k : int, default 0
        The diagonal: 0 the main, positive above, negative below.

    Returns
    -------
    pdarray
        The upper triangle, of ``m``'s shape and dtype.

    Raises
    ------
    TypeError
        ``m`` is not a pdarray or ``k`` not an int.
    ValueError
        ``m`` has rank less than 2.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.triu(ak.arange(1, 7).reshape(2, 3)).tolist()
    [[1, 2, 3], [0, 5, 6]]
    """
    return _triangle(m, k, lambda d, kk: d >= kk, "triu")


def dot(pda1: Any, pda2: Any) -> Any:  # noqa: ANN401 (pdarrays or scalars; a pdarray or a scalar)
    """NumPy's ``dot`` of pdarrays (or a pdarray and a scalar).

    The dot product of two 1-D pdarrays (a scalar); with a scalar (or a rank-0 array), the
    elementwise product; of 2-D arrays, ``matmul``; of an N-d ``a`` and ``b``, the sum over
    ``a``'s last axis and ``b``'s second-to-last (``tensordot``).

    Parameters
    ----------
    pda1, pda2 : pdarray or scalar
        The operands.

    Returns
    -------
    pdarray or numpy scalar
        The product.

    Raises
    ------
    ValueError
        The shapes are not aligned.

    Examples
    --------
    >>> import atoll as ak
    >>> int(ak.dot(ak.array([1, 2, 3]), ak.array([4, 5, 6])))
    32
    >>> ak.dot(ak.array([1, 2]), 3).tolist()
    [3, 6]
    """
    if not isinstance(pda1, pdarray) and not isinstance(pda2, pdarray):
        return np.dot(pda1, pda2)
    if not isinstance(pda1, pdarray) or not isinstance(pda2, pdarray):
        # NumPy's dot makes an array of the scalar first: its own dtype takes part.
        arr, sc = (pda1, pda2) if isinstance(pda1, pdarray) else (pda2, pda1)
        d = np.result_type(arr.dtype, np.asarray(sc).dtype)
        return arr.astype(d) * np.asarray(sc).astype(d)[()]
    if pda1.ndim == 0 or pda2.ndim == 0:
        d = np.result_type(pda1.dtype, pda2.dtype)
        return pda1.astype(d) * pda2.astype(d)
    if pda1.ndim == 1 and pda2.ndim == 1:
        if pda1.size != pda2.size:
            raise ValueError(f"shapes ({pda1.size},) and ({pda2.size},) not aligned")
        if pda1.dtype == bool_ and pda2.dtype == bool_:
            return np.bool_(_any(pda1 & pda2))
        p = pda1 * pda2
        return _sum(p)
    kb = 0 if pda2.ndim == 1 else pda2.ndim - 2
    if pda1.shape[-1] != pda2.shape[kb]:
        raise ValueError(
            f"shapes {pda1.shape} and {pda2.shape} not aligned: {pda1.shape[-1]} (dim {pda1.ndim - 1}) != "
            f"{pda2.shape[kb]} (dim {kb})"
        )
    if pda1.ndim <= 2 and pda2.ndim <= 2:
        return matmul(pda1, pda2)
    return tensordot(pda1, pda2, axes=([pda1.ndim - 1], [kb]))


def tensordot(a: pdarray, b: pdarray, axes: Any = 2) -> pdarray:  # noqa: ANN401 (an int or a pair of axis sequences)
    """NumPy's ``tensordot``: the sum of products over axes of ``a`` and ``b``.

    The sum runs over ``a``'s axes ``axes[0]`` and ``b``'s ``axes[1]`` (an int ``N``: ``a``'s last ``N`` and ``b``'s first ``N``); the result's axes
    are ``a``'s others then ``b``'s. Both are laid out as matrices (a transpose, one gather
    when the order changes) and multiplied with ``matmul``.

    Parameters
    ----------
    a, b : pdarray
        The operands.
    axes : int or pair of sequences of int, default 2
        The axes summed over.

    Returns
    -------
    pdarray
        The product, of ``a``'s free axes then ``b``'s.

    Raises
    ------
    TypeError
        An operand is not a pdarray, or ``axes`` is malformed.
    ValueError
        The summed axes differ in length, or ``axes`` is out of range.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.tensordot(ak.arange(6).reshape(2, 3), ak.arange(3), axes=1).tolist()
    [5, 14]
    """
    if not isinstance(a, pdarray) or not isinstance(b, pdarray):
        raise TypeError("tensordot: expected two pdarrays")
    if isinstance(axes, (builtins.int, np.integer)) and not isinstance(axes, (builtins.bool, np.bool_)):
        q = builtins.int(axes)
        if q < 0 or q > a.ndim or q > b.ndim:
            raise ValueError(f"tensordot: axes {q} is out of range for arrays of ranks {a.ndim} and {b.ndim}")
        ax_a: list[int] = list(range(a.ndim - q, a.ndim))
        ax_b: list[int] = list(range(q))
    else:
        try:
            xa, xb = axes
        except (TypeError, ValueError):
            raise TypeError("tensordot: axes must be an int or a pair of axis sequences") from None
        xa = list(xa) if isinstance(xa, (list, tuple)) else [xa]
        xb = list(xb) if isinstance(xb, (list, tuple)) else [xb]
        if len(xa) != len(xb):
            raise ValueError("shape-mismatch for sum")
        ax_a = [_nd.normalize_axis(x, a.ndim) for x in xa]
        ax_b = [_nd.normalize_axis(x, b.ndim) for x in xb]
    if builtins.any(a.shape[p] != b.shape[q] for p, q in zip(ax_a, ax_b)):
        raise ValueError("shape-mismatch for sum")
    free_a = [p for p in range(a.ndim) if p not in ax_a]
    free_b = [q for q in range(b.ndim) if q not in ax_b]
    k = _nd.prod(a.shape[p] for p in ax_a)
    fa = tuple(a.shape[p] for p in free_a)
    fb = tuple(b.shape[q] for q in free_b)
    am = _nd.with_shape(_nd.transpose(a, free_a + ax_a), (_nd.prod(fa), k))
    bm = _nd.with_shape(_nd.transpose(b, ax_b + free_b), (k, _nd.prod(fb)))
    return _nd.with_shape(_matmul_nd(am, bm), fa + fb)


def vecdot(x1: pdarray, x2: pdarray, axis: int | None = None) -> Any:  # noqa: ANN401 (a pdarray, or a scalar of 1-D arrays)
    """The sums of the elementwise products of ``x1`` and ``x2`` along an axis (NumPy's ``vecdot``).

    The axis is ``axis`` (None: the last; an axis of each operand), with their other axes broadcast, as NumPy's ``vecdot``: a
    scalar for two 1-D arrays, else an array without that axis. One segmented sum over the
    products laid out with the axis last.

    Parameters
    ----------
    x1, x2 : pdarray
        The operands.
    axis : int, optional
        The axis summed over (default the last).

    Returns
    -------
    pdarray or numpy scalar
        The sums: a scalar of two 1-D arrays.

    Raises
    ------
    TypeError
        An operand is not a pdarray.
    ValueError
        An operand has rank 0, or the axes' lengths differ.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.vecdot(ak.arange(6).reshape(2, 3), ak.array([1, 1, 1])).tolist()
    [3, 12]
    """
    if not isinstance(x1, pdarray) or not isinstance(x2, pdarray):
        raise TypeError("vecdot: expected two pdarrays")
    if x1.ndim == 1 and x2.ndim == 1 and axis in (None, 0, -1):
        if x1.size != x2.size:
            raise ValueError("vecdot: the arrays must have one size")
        return dot(x1, x2)
    if x1.ndim == 0 or x2.ndim == 0:
        raise ValueError("vecdot: Input operand does not have enough dimensions (a rank-0 array)")
    a = _nd.moveaxis(x1, _nd.normalize_axis(-1 if axis is None else axis, x1.ndim), x1.ndim - 1)
    b = _nd.moveaxis(x2, _nd.normalize_axis(-1 if axis is None else axis, x2.ndim), x2.ndim - 1)
    c = a.shape[-1]
    if b.shape[-1] != c:
        raise ValueError(
            "vecdot: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
            f"(n),(n)->() (size {b.shape[-1]} is different from {c})"
        )
    rest = tuple(_nd.broadcast_shapes(a.shape[:-1], b.shape[:-1]))
    d = np.result_type(x1.dtype, x2.dtype)
    cd = _compute_dtype(d)
    if _nd.prod(rest) == 0 or c == 0:
        return zeros(rest, d)
    a, b = _nd.broadcast_to(a, rest + (c,)), _nd.broadcast_to(b, rest + (c,))
    r = _sum_last(a.astype(cd) * b.astype(cd), c)
    return _finish(_nd.with_shape(r, rest), d)


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


def quantile(
    a: pdarray,
    q: Any = 0.5,  # noqa: ANN401 (a scalar, a list, an ndarray or a pdarray)
    axis: int | tuple[int, ...] | None = None,
    method: str = "linear",
    keepdims: bool = False,
) -> Any:  # noqa: ANN401 (a float64 or a pdarray)
    """NumPy's ``quantile`` of a pdarray.

    ``q`` is a scalar, a list, an array or a pdarray of values
    in [0, 1]; ``axis`` None, an int or a tuple of ints; ``keepdims`` as NumPy's): the lanes
    along ``axis`` sorted once, then the order statistics NumPy's ``method`` names (without an
    axis the values are fetched by index; along an axis each statistic is one strided column of
    the sorted lanes). The result has ``q``'s shape followed by the kept axes.

    Parameters
    ----------
    a : pdarray
        The values.
    q : float, list, ndarray or pdarray, default 0.5
        The quantiles, in [0, 1].
    axis : int, tuple of int or None
        The axes the quantiles are taken over (None: all).
    method : str, default "linear"
        One of NumPy's quantile methods.
    keepdims : bool, default False
        Keep the reduced axes as axes of length one.

    Returns
    -------
    numpy.float64 or pdarray
        A float64 of a scalar ``q`` over all axes, else a pdarray.

    Raises
    ------
    TypeError
        ``a`` is not a pdarray.
    ValueError
        A quantile is out of [0, 1], ``method`` is unknown, an axis is repeated, or ``a`` is
        empty.

    Examples
    --------
    >>> import atoll as ak
    >>> float(ak.quantile(ak.array([1, 2, 3, 4]), 0.25))
    1.75
    >>> ak.quantile(ak.arange(6).reshape(2, 3), [0.5], axis=1).tolist()
    [[1.0, 4.0]]
    """
    _check(a, "a")
    if method not in _METHODS:
        raise ValueError(f"method: {method!r} is not a valid method, expected one of {_METHODS}")
    qa = np.asarray(q.to_ndarray() if isinstance(q, pdarray) else q, dtype=np.float64)
    qs = qa.reshape(-1)
    if np.any((qs < 0) | (qs > 1)) or np.any(np.isnan(qs)):
        raise ValueError("Quantiles must be in the range [0, 1]")
    nd = a.ndim
    axes = tuple(range(nd)) if axis is None else _nd.normalize_axes(axis, nd)
    if len(set(axes)) != len(axes):
        raise ValueError("repeated axis")
    kept = [d for d in range(nd) if d not in axes]
    kshape = tuple(a.shape[d] if d in kept else 1 for d in range(nd)) if keepdims else tuple(a.shape[d] for d in kept)
    n = _nd.prod(a.shape[d] for d in axes)
    if n == 0:
        raise ValueError("quantile: the array is empty")
    x = a.astype(float64) if a.dtype == bool_ else a
    if not kept:
        flat = _nd.with_shape(x, None)
        if flat.dtype == float64 and builtins.bool(isnan(flat).any()):
            out = np.full(qs.shape, np.nan)
        else:
            srt = sort(flat)

            def at(i: float) -> float:
                return builtins.float(srt[builtins.int(builtins.min(builtins.max(i, 0), n - 1))])

            out = np.array([_quantile_one(at, n, p, method) for p in qs], dtype=np.float64)
        if qa.ndim == 0 and not keepdims:
            return np.float64(out[0])
        return array(out.reshape(qa.shape + kshape))
    # The quantile axes last, one lane of n values per kept position, each lane sorted.
    m = _nd.prod(a.shape[d] for d in kept)
    lanes = _nd.with_shape(_nd.transpose(x, tuple(kept) + axes), (m, n))
    srt = _nd.with_shape(sort(lanes, axis=-1), None)
    nan_lanes = None
    if srt.dtype == float64:
        nan_lanes = isnan(srt[n - 1 :: n])  # NaN sorts last: a lane with a NaN ends with one

    def col(i: float) -> pdarray:
        i = builtins.int(builtins.min(builtins.max(i, 0), n - 1))
        return cast(pdarray, srt[i::n].astype(float64))

    parts = []
    for p in qs:
        r = _quantile_one(col, n, p, method)
        if nan_lanes is not None:
            r = where(nan_lanes, np.nan, r)
        parts.append(r)
    res = parts[0] if len(parts) == 1 else concatenate(parts)
    return _nd.with_shape(res, qa.shape + kshape)


def _quantile_one(at: Callable[[Any], Any], n: int, p: float, method: str) -> Any:  # noqa: ANN401 (a float or a pdarray)
    """NumPy's ``method`` quantile ``p`` of ``n`` sorted values.

    ``at(i)`` is the ``i``-th (an index clamped to the values; a float, or a pdarray of each
    lane's ``i``-th value).
    """
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
    def discrete(index: float, take_floor: Callable[[float, float], Any]) -> Any:  # noqa: ANN401 (as at)
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


def percentile(
    a: pdarray,
    q: Any = 50,  # noqa: ANN401 (a scalar, a list, a tuple or a pdarray)
    axis: int | tuple[int, ...] | None = None,
    method: str = "linear",
    keepdims: bool = False,
) -> Any:  # noqa: ANN401 (a float64 or a pdarray)
    """NumPy's ``percentile``: ``quantile(a, q / 100)``.

    Parameters
    ----------
    a : pdarray
        The values.
    q : float, list, tuple or pdarray, default 50
        The percentiles, in [0, 100].
    axis : int, tuple of int or None
        The axes the percentiles are taken over (None: all).
    method : str, default "linear"
        One of NumPy's quantile methods.
    keepdims : bool, default False
        Keep the reduced axes as axes of length one.

    Returns
    -------
    numpy.float64 or pdarray
        As ``quantile``.

    Raises
    ------
    ValueError
        As ``quantile``.

    Examples
    --------
    >>> import atoll as ak
    >>> float(ak.percentile(ak.array([1, 2, 3, 4, 5]), 50))
    3.0
    """
    qq: Any = (q / 100.0) if not isinstance(q, (list, tuple)) else [v / 100.0 for v in q]
    if isinstance(q, pdarray):
        qq = q.astype(float64) / 100.0
    return quantile(a, qq, axis, method, keepdims)


def median(pda: pdarray) -> np.float64:
    """The median of a pdarray's values.

    Parameters
    ----------
    pda : pdarray
        The values.

    Returns
    -------
    numpy.float64
        The median (NaN when a NaN is present).

    Raises
    ------
    ValueError
        ``pda`` is empty.

    Examples
    --------
    >>> import atoll as ak
    >>> float(ak.median(ak.array([3, 1, 4, 1])))
    2.0
    """
    return np.float64(quantile(pda, 0.5))


def cov(x: pdarray, y: pdarray) -> np.float64:
    """The sample covariance of two pdarrays of one size (``ddof = 1``).

    Parameters
    ----------
    x, y : pdarray
        The values.

    Returns
    -------
    numpy.float64
        The covariance.

    Raises
    ------
    TypeError
        ``x`` or ``y`` is not a pdarray.
    ValueError
        Their sizes differ.

    Examples
    --------
    >>> import atoll as ak
    >>> float(ak.cov(ak.array([1, 2, 3]), ak.array([2, 4, 6])))
    2.0
    """
    _check(x, "x")
    _check(y, "y")
    if x.size != y.size:
        raise ValueError("x and y must have the same size")
    mx, my = builtins.float(mean(x)), builtins.float(mean(y))
    return np.float64(_sum((x.astype(float64) - mx) * (y.astype(float64) - my)) / (x.size - 1))


def corr(x: pdarray, y: pdarray) -> np.float64:
    """Pearson's correlation of two pdarrays of one size.

    Parameters
    ----------
    x, y : pdarray
        The values.

    Returns
    -------
    numpy.float64
        The correlation coefficient.

    Raises
    ------
    TypeError
        ``x`` or ``y`` is not a pdarray.
    ValueError
        Their sizes differ.

    Examples
    --------
    >>> import atoll as ak
    >>> float(ak.corr(ak.array([1, 2, 3]), ak.array([3, 2, 1])))
    -1.0
    """
    return np.float64(cov(x, y) / (std(x, 1) * std(y, 1)))


def skew(pda: pdarray, bias: bool = True) -> np.float64:
    """The sample skewness (SciPy's ``skew``).

    Parameters
    ----------
    pda : pdarray
        The values.
    bias : bool, default True
        False corrects for statistical bias.

    Returns
    -------
    numpy.float64
        The skewness (NaN when the values are all equal).

    Raises
    ------
    TypeError
        ``pda`` is not a pdarray.

    Examples
    --------
    >>> import atoll as ak
    >>> float(ak.skew(ak.array([1.0, 2.0, 3.0])))
    0.0
    """
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


def _k(pda: pdarray, k: int) -> int:
    _check(pda)
    if isinstance(k, builtins.bool) or not isinstance(k, (builtins.int, np.integer)):
        raise TypeError(f"k: expected an int, got {type(k).__name__}")
    if k < 1 or pda.size == 0:
        raise ValueError("k must be 1 or greater and the array nonempty")
    return builtins.min(builtins.int(k), pda.size)


def _ranked(pda: pdarray) -> tuple[pdarray, pdarray | None]:
    """The values of ``pda`` that extrema rank, and their positions.

    NaN is left out, as Arkouda's extrema ignore it (None for the positions when nothing is
    left out).
    """
    if pda.dtype == float64:
        keep = ~isnan(pda)
        if not builtins.bool(keep.all()):
            return pda[keep], arange(pda.size)[keep]
    return pda, None


def mink(pda: pdarray, k: int) -> pdarray:
    """The ``k`` smallest values, in increasing order.

    NaN is ignored: fewer than ``k`` values come when fewer are not NaN.

    Parameters
    ----------
    pda : pdarray
        The values.
    k : int
        How many.

    Returns
    -------
    pdarray
        The values.

    Raises
    ------
    TypeError
        ``pda`` is not a pdarray or ``k`` not an int.
    ValueError
        ``k`` is less than 1, or ``pda`` is empty.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.mink(ak.array([5, 1, 4, 2]), 2).tolist()
    [1, 2]
    """
    k = _k(pda, k)
    vals, _ = _ranked(pda)
    return cast(pdarray, sort(vals)[:k])


def maxk(pda: pdarray, k: int) -> pdarray:
    """The ``k`` largest values, in increasing order.

    NaN is ignored: fewer than ``k`` values come when fewer are not NaN.

    Parameters
    ----------
    pda : pdarray
        The values.
    k : int
        How many.

    Returns
    -------
    pdarray
        The values.

    Raises
    ------
    TypeError
        ``pda`` is not a pdarray or ``k`` not an int.
    ValueError
        ``k`` is less than 1, or ``pda`` is empty.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.maxk(ak.array([5, 1, 4, 2]), 2).tolist()
    [4, 5]
    """
    k = _k(pda, k)
    vals, _ = _ranked(pda)
    s = sort(vals)
    return cast(pdarray, s[builtins.max(s.size - k, 0) :])


def argmink(pda: pdarray, k: int) -> pdarray:
    """The indices of the ``k`` smallest values, in increasing order of the values.

    NaN is ignored.

    Parameters
    ----------
    pda : pdarray
        The values.
    k : int
        How many.

    Returns
    -------
    pdarray
        The int64 indices.

    Raises
    ------
    TypeError
        ``pda`` is not a pdarray or ``k`` not an int.
    ValueError
        ``k`` is less than 1, or ``pda`` is empty.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.argmink(ak.array([5, 1, 4, 2]), 2).tolist()
    [1, 3]
    """
    k = _k(pda, k)
    vals, pos = _ranked(pda)
    p = argsort(vals)[:k]
    return cast(pdarray, p if pos is None else pos[p])


def argmaxk(pda: pdarray, k: int) -> pdarray:
    """The indices of the ``k`` largest values, in increasing order of the values.

    NaN is ignored.

    Parameters
    ----------
    pda : pdarray
        The values.
    k : int
        How many.

    Returns
    -------
    pdarray
        The int64 indices.

    Raises
    ------
    TypeError
        ``pda`` is not a pdarray or ``k`` not an int.
    ValueError
        ``k`` is less than 1, or ``pda`` is empty.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.argmaxk(ak.array([5, 1, 4, 2]), 2).tolist()
    [2, 0]
    """
    k = _k(pda, k)
    vals, pos = _ranked(pda)
    p = argsort(vals)
    p = p[builtins.max(p.size - k, 0) :]
    return cast(pdarray, p if pos is None else pos[p])


class PutmaskSizeError(ValueError, RuntimeError):
    """``putmask``'s mask does not match the array.

    NumPy raises ValueError, Arkouda RuntimeError; this is both.
    """


class PutmaskTypeError(TypeError, RuntimeError):
    """``putmask``'s values cannot be cast to the array's dtype.

    NumPy raises TypeError, Arkouda RuntimeError; this is both.
    """


def putmask(A: pdarray, mask: pdarray, Values: Any) -> None:  # noqa: ANN401 (a pdarray, a scalar or an array-like)
    """``A[i] = Values[i % len(Values)]`` where ``mask[i]``, in place (NumPy's ``putmask``).

    Of N-d arrays, ``i`` indexes their C-order flat values.

    Parameters
    ----------
    A : pdarray
        The array written.
    mask : pdarray
        A bool array of ``A``'s size: where to write.
    Values : pdarray, scalar or array-like
        The values, repeated as needed.

    Raises
    ------
    TypeError
        ``A`` or ``mask`` is not a pdarray; ``PutmaskTypeError`` when ``Values`` cannot be
        cast to ``A``'s dtype.
    ValueError
        ``PutmaskSizeError``: ``mask`` is not a bool array of ``A``'s size.

    Examples
    --------
    >>> import atoll as ak
    >>> a = ak.arange(5)
    >>> ak.putmask(a, a > 2, ak.array([10, 20]))
    >>> a.tolist()
    [0, 1, 2, 20, 10]
    """
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
    # Of N-d arrays, NumPy's putmask works on the C-order flat values of all three.
    flat_a, mask, Values = _nd.with_shape(A, None), _nd.with_shape(mask, None), _nd.with_shape(Values, None)
    idx = arange(A.size)[mask]
    if idx.size == 0:
        return
    flat_a[idx] = Values[idx % Values.size] if Values.size != A.size else Values[idx]


def take(a: Any, indices: Any, axis: int | None = None) -> Any:  # noqa: ANN401 (array-likes; as a[indices])
    """NumPy's ``take``: the elements of ``a`` at ``indices`` along ``axis``.

    With ``axis`` None, of the flat values; negative indices count from the end, others out of range an ``IndexError``. The
    result's shape is ``a``'s with the axis replaced by ``indices``' shape.

    Parameters
    ----------
    a : pdarray
        The values (another indexable object is indexed by ``indices``).
    indices : pdarray or array-like of int
        The positions.
    axis : int, optional
        The axis (default: the flat values).

    Returns
    -------
    pdarray
        The elements taken.

    Raises
    ------
    IndexError
        An index is out of bounds.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.take(ak.arange(6).reshape(2, 3), ak.array([2, 0]), axis=1).tolist()
    [[2, 0], [5, 3]]
    """
    if not isinstance(indices, pdarray):
        indices = array(np.atleast_1d(np.asarray(indices, dtype=np.int64)))
    if not isinstance(a, pdarray) or (a.ndim == 1 and indices.ndim == 1 and axis in (None, 0, -1)):
        return a[indices]
    if axis is None:
        a, ax = _nd.with_shape(a, None), 0
    else:
        ax = _nd.normalize_axis(axis, a.ndim)
    n = a.shape[ax]
    idx = _nd.with_shape(indices, None).astype(int64)
    if idx.size:
        lo, hi = builtins.int(idx.min()), builtins.int(idx.max())
        bad = lo if lo < -n else (hi if hi >= n else None)
        if bad is not None:
            raise IndexError(f"index {bad} is out of bounds for axis {ax} with size {n}")
        idx = where(idx < 0, idx + n, idx)
    r = _nd.take_axis(a, idx, ax)
    return _nd.with_shape(r, a.shape[:ax] + tuple(indices.shape) + a.shape[ax + 1 :])


def hash(pda: Any, full: bool = True) -> Any:  # noqa: ANN401 (arrays; a pdarray or a pair)
    """A hash of each element, or of each row of a list of arrays.

    Strings use their 128-bit hash; numbers a mix of their bits.

    Parameters
    ----------
    pda : pdarray, Strings, SegArray, Categorical or list of them
        The values hashed (a list: row by row).
    full : bool, default True
        Two uint64 arrays (128 bits) rather than one.

    Returns
    -------
    pdarray or tuple of pdarray
        The hashes: a pair with ``full=True``.

    Raises
    ------
    TypeError
        A value is of a type not hashed.

    Examples
    --------
    >>> import atoll as ak
    >>> h1, h2 = ak.hash(ak.array([1, 2, 1]))
    >>> bool(h1[0] == h1[2]), bool(h1[0] == h1[1])
    (True, False)
    """
    items = pda if isinstance(pda, (list, tuple)) else [pda]
    h1: Any = None
    h2: Any = None
    for i, x in enumerate(items):
        if isinstance(x, (Strings, SegArray)):
            a, b = cast(Any, x).hash()
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


def _finalize(z: pdarray) -> pdarray:
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return cast(pdarray, (z ^ (z >> np.uint64(31)))._materialize())


def _float_bits(x: pdarray) -> pdarray:
    """The IEEE bits of a float64 array (through the driver: no bit cast on the native side)."""
    v = x.to_ndarray()
    v = np.where(v == 0, 0.0, v)  # -0.0 hashes as 0.0
    return cast(pdarray, array(v.view(np.uint64)))
