"""The utility functions of the Array API namespace.

And Arkouda's additions to it (``clip``, ``diff``, ``pad``, ``trapz``/``trapezoid``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Union

import numpy as np

from atoll import stats
from atoll.numpy import numeric, pdarrayclass
from atoll.numpy._nd import normalize_axis
from atoll.numpy.pdarrayclass import pdarray
from atoll.numpy.pdarraycreation import full
from atoll.numpy.pdarraymanipulation import concatenate

from .array_object import Array, _unwrap, _wrap

__all__ = ["all", "any", "clip", "diff", "pad", "trapezoid", "trapz"]

# The axes of a reduction: None (all), an int or a tuple of ints.
_Axes = Union[int, tuple[int, ...], None]

_all = pdarrayclass.all
_any = pdarrayclass.any
_sum = pdarrayclass.sum


def _refuse(name: str, a: object, *dtypes: str) -> None:
    """RuntimeError (Arkouda's) when ``a`` has one of the dtype names ``dtypes``."""
    if isinstance(a, pdarray) and str(a.dtype) in dtypes:
        raise RuntimeError(f"Error executing command: {name} does not support dtype {a.dtype}")


def _truth(fn: Callable[..., Any], x: Array, axis: _Axes, keepdims: bool) -> Array:
    a = _unwrap(x)
    r = fn(a, axis=axis, keepdims=keepdims)
    if axis is None and keepdims and not isinstance(r, pdarray):
        return _wrap(full((1,) * a.ndim, bool(r), dtype=np.bool_))
    return _wrap(r)


def all(x: Array, /, *, axis: _Axes = None, keepdims: bool = False) -> Array:
    """Whether every element is true (nonzero), over all axes or along ``axis``.

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
        A bool Array (0-d over all axes).

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> xp.all(xp.asarray([[1, 0], [2, 3]]), axis=1).tolist()
    [False, True]
    """
    return _truth(_all, x, axis, keepdims)


def any(x: Array, /, *, axis: _Axes = None, keepdims: bool = False) -> Array:
    """Whether some element is true (nonzero), over all axes or along ``axis``.

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
        A bool Array (0-d over all axes).

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> xp.any(xp.asarray([[0, 0], [0, 3]]), axis=0).tolist()
    [False, True]
    """
    return _truth(_any, x, axis, keepdims)


def clip(a: Array, a_min: object, a_max: object, /) -> Array:
    """Each element of ``a`` limited to ``[a_min, a_max]`` (numeric dtypes only).

    Parameters
    ----------
    a : Array
        The values.
    a_min, a_max : Array or scalar
        The bounds (None: none).

    Returns
    -------
    Array
        The clipped values.

    Raises
    ------
    RuntimeError
        If ``a`` is bool or bigint.

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> xp.clip(xp.asarray([1, 5, 9]), 2, 6).tolist()
    [2, 5, 6]
    """
    x = _unwrap(a)
    _refuse("clip", x, "bool", "bigint")
    return _wrap(numeric.clip(x, _unwrap(a_min), _unwrap(a_max)))


def diff(a: Array, /, n: int = 1, axis: int = -1, prepend: object = None, append: object = None) -> Array:
    """The ``n``-th differences along ``axis`` (``prepend``/``append`` joined first).

    Parameters
    ----------
    a : Array
        The values.
    n : int, default 1
        How many times to take differences.
    axis : int, default -1
        The axis.
    prepend, append : Array or scalar, optional
        Values joined before and after ``a`` along the axis first.

    Returns
    -------
    Array
        The differences.

    Raises
    ------
    RuntimeError
        If ``a`` is bigint.

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> xp.diff(xp.asarray([1, 4, 9, 16]), n=2).tolist()
    [2, 2]
    """
    x = _unwrap(a)
    _refuse("diff", x, "bigint")
    return _wrap(stats.diff(x, n=n, axis=axis, prepend=_unwrap(prepend), append=_unwrap(append)))


def trapz(y: Array, x: Array | None = None, dx: float = 1.0, axis: int = -1) -> Array:
    """The integral of ``y`` along ``axis`` by the trapezoidal rule.

    Over the sample points ``x`` or a spacing ``dx``: ``sum(d * (y[1:] + y[:-1]) / 2)`` as
    NumPy's ``trapezoid`` computes it.

    Parameters
    ----------
    y : Array
        The values.
    x : Array, optional
        The sample points: 1-D of ``y``'s length along the axis, or ``y``'s shape.
    dx : float, default 1.0
        The spacing when ``x`` is None.
    axis : int, default -1
        The axis to integrate along.

    Returns
    -------
    Array
        The integrals.

    Raises
    ------
    RuntimeError
        If ``y`` or ``x`` is bigint.

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> xp.trapz(xp.asarray([1.0, 2.0, 3.0]), x=xp.asarray([0.0, 1.0, 3.0])).item()
    6.5
    """
    yv = _unwrap(y)
    _refuse("trapz", yv, "bigint")
    xv = _unwrap(x)
    _refuse("trapz", xv, "bigint")
    axis = normalize_axis(axis, yv.ndim)
    lead = (slice(None),) * axis
    up, down = lead + (slice(1, None),), lead + (slice(None, -1),)
    d: Any
    if xv is None:
        d = dx
    elif xv.ndim == 1:
        d = stats.diff(xv)
        if yv.ndim > 1:
            shape = [1] * yv.ndim
            shape[axis] = d.size
            d = d.reshape(tuple(shape))
    else:
        d = stats.diff(xv, axis=axis)
    return _wrap(_sum(d * (yv[up] + yv[down]) / 2.0, axis=axis))


trapezoid = trapz


def _pairs(value: object, ndim: int, name: str) -> list[tuple[Any, Any]]:
    """``value`` (a scalar, a pair, or one pair per axis) as one ``(before, after)`` per axis."""
    v = np.asarray(value, dtype=object)
    if v.ndim == 0:
        return [(v.item(), v.item())] * ndim
    if v.shape == (1,):
        return [(v[0], v[0])] * ndim
    if v.shape == (2,):
        return [(v[0], v[1])] * ndim
    if v.shape == (1, 2):
        return [(v[0, 0], v[0, 1])] * ndim
    if v.shape == (ndim, 2):
        return [(v[k, 0], v[k, 1]) for k in range(ndim)]
    raise ValueError(f"{name}: expected a scalar, a pair or {ndim} pairs, got shape {v.shape}")


def pad(array: Array, pad_width: object, mode: str = "constant", constant_values: object = 0) -> Array:
    """``array`` with ``pad_width`` constant elements before and after each axis.

    NumPy's ``pad`` with ``mode="constant"``: axis by axis, blocks of the constants joined on.

    Parameters
    ----------
    array : Array
        The values.
    pad_width : int or sequence
        The widths: one for all, a ``(before, after)`` pair, or one pair per axis.
    mode : str, default "constant"
        ``"constant"`` (the only mode).
    constant_values : scalar or sequence, default 0
        The values padded, shaped as ``pad_width``.

    Returns
    -------
    Array
        The padded Array.

    Raises
    ------
    NotImplementedError
        If ``mode`` is another mode.
    ValueError
        If a width is negative or the widths' shape fits no form.
    RuntimeError
        If ``array`` is bigint.

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> xp.pad(xp.asarray([[1, 2]]), ((0, 1), (1, 0))).tolist()
    [[0, 1, 2], [0, 0, 0]]
    """
    a = _unwrap(array)
    _refuse("pad", a, "bigint")
    if mode != "constant":
        raise NotImplementedError(f"pad: mode {mode!r} (only 'constant')")
    widths = _pairs(pad_width, a.ndim, "pad_width")
    values = _pairs(constant_values, a.ndim, "constant_values")
    for k, ((before, after), (cb, ca)) in enumerate(zip(widths, values)):
        if int(before) < 0 or int(after) < 0:
            raise ValueError("pad: widths must be non-negative")
        parts = []
        blocks: tuple[tuple[int | None, Any], ...] = ((int(before), cb), (None, None), (int(after), ca))
        for width, value in blocks:
            if width is None:
                parts.append(a)
            elif width:
                shape = list(a.shape)
                shape[k] = width
                parts.append(full(tuple(shape), value, dtype=a.dtype))
        if len(parts) > 1:
            a = concatenate(parts) if a.ndim == 1 else concatenate(parts, axis=k)
    return _wrap(a)
