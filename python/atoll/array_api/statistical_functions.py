"""The statistical functions of the Array API namespace.

Atoll's reductions over all axes or along ``axis`` (an int or a tuple), ``keepdims`` keeping
the reduced axes with length 1.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Union

import numpy as np
import numpy.typing as npt

from atoll.numpy import pdarrayclass
from atoll.numpy._nd import normalize_axis
from atoll.numpy.pdarrayclass import pdarray
from atoll.numpy.pdarraycreation import full
from atoll.numpy.pdarraymanipulation import concatenate

from .array_object import Array, _unwrap, _wrap

__all__ = ["cumulative_prod", "cumulative_sum", "max", "mean", "min", "prod", "std", "sum", "var"]

# The axes of a reduction: None (all), an int or a tuple of ints.
_Axes = Union[int, tuple[int, ...], None]

_max = pdarrayclass.max
_min = pdarrayclass.min
_mean = pdarrayclass.mean
_prod = pdarrayclass.prod
_sum = pdarrayclass.sum
_std = pdarrayclass.std
_var = pdarrayclass.var
_cumsum = pdarrayclass.cumsum
_cumprod = pdarrayclass.cumprod


def _ddof(correction: float) -> int:
    """``correction`` as NumPy's integer ``ddof`` (a float must be integral)."""
    c = float(correction)
    if not c.is_integer() or c < 0:
        raise ValueError(f"correction: expected a nonnegative integral value, got {correction!r}")
    return int(c)


def _reduce(
    fn: Callable[..., Any], x: Array, axis: _Axes, keepdims: bool, dtype: npt.DTypeLike | None = None, **kw: int
) -> Array:
    a = _unwrap(x)
    if dtype is not None:
        a = a.astype(dtype)
    r = fn(a, axis=axis, keepdims=keepdims, **kw)
    if axis is None and keepdims and not isinstance(r, pdarray):
        return _wrap(full((1,) * a.ndim, r, dtype=np.asarray(r).dtype))
    return _wrap(r)


def max(x: Array, /, *, axis: _Axes = None, keepdims: bool = False) -> Array:
    """The largest element (over all axes or along ``axis``).

    Parameters
    ----------
    x : Array
        The values.
    axis : int or tuple of int, optional
        The axes to reduce (None: all).
    keepdims : bool, default False
        Whether to keep the reduced axes with length 1.

    Returns
    -------
    Array
        The maxima (0-d over all axes).

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> xp.max(xp.asarray([[1, 5], [4, 2]]), axis=0).tolist()
    [4, 5]
    """
    return _reduce(_max, x, axis, keepdims)


def min(x: Array, /, *, axis: _Axes = None, keepdims: bool = False) -> Array:
    """The smallest element (over all axes or along ``axis``).

    Parameters
    ----------
    x : Array
        The values.
    axis : int or tuple of int, optional
        The axes to reduce (None: all).
    keepdims : bool, default False
        Whether to keep the reduced axes with length 1.

    Returns
    -------
    Array
        The minima (0-d over all axes).

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> xp.min(xp.asarray([[1, 5], [4, 2]]), keepdims=True).tolist()
    [[1]]
    """
    return _reduce(_min, x, axis, keepdims)


def mean(x: Array, /, *, axis: _Axes = None, keepdims: bool = False) -> Array:
    """The arithmetic mean (over all axes or along ``axis``).

    Parameters
    ----------
    x : Array
        The values.
    axis : int or tuple of int, optional
        The axes to reduce (None: all).
    keepdims : bool, default False
        Whether to keep the reduced axes with length 1.

    Returns
    -------
    Array
        The means (0-d over all axes).

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> xp.mean(xp.asarray([[1.0, 2.0], [3.0, 6.0]]), axis=1).tolist()
    [1.5, 4.5]
    """
    return _reduce(_mean, x, axis, keepdims)


def prod(x: Array, /, *, axis: _Axes = None, dtype: npt.DTypeLike | None = None, keepdims: bool = False) -> Array:
    """The product of the elements (over all axes or along ``axis``), in ``dtype`` if given.

    Parameters
    ----------
    x : Array
        The values.
    axis : int or tuple of int, optional
        The axes to reduce (None: all).
    dtype : dtype, optional
        The dtype to compute in (None: ``x``'s).
    keepdims : bool, default False
        Whether to keep the reduced axes with length 1.

    Returns
    -------
    Array
        The products (0-d over all axes).

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> xp.prod(xp.asarray([1, 2, 3, 4])).item()
    24
    """
    return _reduce(_prod, x, axis, keepdims, dtype)


def sum(x: Array, /, *, axis: _Axes = None, dtype: npt.DTypeLike | None = None, keepdims: bool = False) -> Array:
    """The sum of the elements (over all axes or along ``axis``), in ``dtype`` if given.

    Parameters
    ----------
    x : Array
        The values.
    axis : int or tuple of int, optional
        The axes to reduce (None: all).
    dtype : dtype, optional
        The dtype to compute in (None: ``x``'s).
    keepdims : bool, default False
        Whether to keep the reduced axes with length 1.

    Returns
    -------
    Array
        The sums (0-d over all axes).

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> xp.sum(xp.asarray([[1, 2], [3, 4]]), axis=0).tolist()
    [4, 6]
    """
    return _reduce(_sum, x, axis, keepdims, dtype)


def std(x: Array, /, *, axis: _Axes = None, correction: float = 0.0, keepdims: bool = False) -> Array:
    """The standard deviation (over all axes or along ``axis``).

    Parameters
    ----------
    x : Array
        The values.
    axis : int or tuple of int, optional
        The axes to reduce (None: all).
    correction : float, default 0.0
        The degrees of freedom subtracted from the number of elements (NumPy's ``ddof``; a
        nonnegative integral value).
    keepdims : bool, default False
        Whether to keep the reduced axes with length 1.

    Returns
    -------
    Array
        The standard deviations (0-d over all axes).

    Raises
    ------
    ValueError
        If ``correction`` is negative or not integral.

    Examples
    --------
    >>> import numpy as np
    >>> import atoll.array_api as xp
    >>> bool(xp.std(xp.asarray([1.0, 3.0]), correction=1).item() == np.std([1.0, 3.0], ddof=1))
    True
    """
    return _reduce(_std, x, axis, keepdims, ddof=_ddof(correction))


def var(x: Array, /, *, axis: _Axes = None, correction: float = 0.0, keepdims: bool = False) -> Array:
    """The variance (over all axes or along ``axis``).

    Parameters
    ----------
    x : Array
        The values.
    axis : int or tuple of int, optional
        The axes to reduce (None: all).
    correction : float, default 0.0
        The degrees of freedom subtracted from the number of elements (NumPy's ``ddof``; a
        nonnegative integral value).
    keepdims : bool, default False
        Whether to keep the reduced axes with length 1.

    Returns
    -------
    Array
        The variances (0-d over all axes).

    Raises
    ------
    ValueError
        If ``correction`` is negative or not integral.

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> xp.var(xp.asarray([1.0, 2.0, 3.0, 4.0])).item()
    1.25
    """
    return _reduce(_var, x, axis, keepdims, ddof=_ddof(correction))


def _cumulative(
    fn: Callable[..., Any],
    identity: int,
    x: Array,
    axis: int | None,
    dtype: npt.DTypeLike | None,
    include_initial: bool,
) -> Array:
    a = _unwrap(x)
    if axis is None:
        if a.ndim > 1:
            raise ValueError("axis must be given for an array of more than one dimension")
        axis = 0
    axis = normalize_axis(axis, a.ndim)
    if dtype is not None:
        a = a.astype(dtype)
    r = fn(a) if a.ndim == 1 else fn(a, axis=axis)
    if include_initial:
        shape = list(r.shape)
        shape[axis] = 1
        first = full(tuple(shape), identity, dtype=r.dtype)
        r = concatenate([first, r]) if r.ndim == 1 else concatenate([first, r], axis=axis)
    return _wrap(r)


def cumulative_sum(
    x: Array,
    /,
    *,
    axis: int | None = None,
    dtype: npt.DTypeLike | None = None,
    include_initial: bool = False,
) -> Array:
    """The running sums along ``axis``.

    Parameters
    ----------
    x : Array
        The values.
    axis : int, optional
        The axis (optional for 1-D).
    dtype : dtype, optional
        The dtype to compute in (None: ``x``'s).
    include_initial : bool, default False
        Whether to put a 0 first.

    Returns
    -------
    Array
        The running sums.

    Raises
    ------
    ValueError
        If ``axis`` is None for an ``x`` of more than one dimension.

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> xp.cumulative_sum(xp.asarray([1, 2, 3]), include_initial=True).tolist()
    [0, 1, 3, 6]
    """
    return _cumulative(_cumsum, 0, x, axis, dtype, include_initial)


def cumulative_prod(
    x: Array,
    /,
    *,
    axis: int | None = None,
    dtype: npt.DTypeLike | None = None,
    include_initial: bool = False,
) -> Array:
    """The running products along ``axis``.

    Parameters
    ----------
    x : Array
        The values.
    axis : int, optional
        The axis (optional for 1-D).
    dtype : dtype, optional
        The dtype to compute in (None: ``x``'s).
    include_initial : bool, default False
        Whether to put a 1 first.

    Returns
    -------
    Array
        The running products.

    Raises
    ------
    ValueError
        If ``axis`` is None for an ``x`` of more than one dimension.

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> xp.cumulative_prod(xp.asarray([[1, 2], [3, 4]]), axis=1).tolist()
    [[1, 2], [3, 12]]
    """
    return _cumulative(_cumprod, 1, x, axis, dtype, include_initial)
