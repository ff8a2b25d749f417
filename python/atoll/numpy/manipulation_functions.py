"""Arkouda's ``arkouda.numpy.manipulation_functions``.

``flip``, ``squeeze``, ``expand_dims``, ``roll``, ``repeat`` and ``tile`` of pdarrays of any
rank (Strings and Categoricals: 1-D), with NumPy's results. A layout change is a strided view
of the flat values, or one gather whose positions are computed in the fused loop
(``atoll.numpy._nd``).
"""

from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from . import _nd
from ._bigint import is_bigint_array
from .dtypes import int64, is_scalar
from .pdarrayclass import cumsum, pdarray
from .pdarraycreation import arange, array
from .sorting import searchsorted
from .strings import Strings


def flip(
    x: Any,  # noqa: ANN401 (a pdarray, Strings or Categorical)
    axis: int | tuple[int, ...] | None = None,
) -> Any:  # noqa: ANN401 (x's kind)
    """The elements of ``x`` in reverse order along ``axis``, as ``numpy.flip``.

    A strided view of the flat values (one gather).

    Parameters
    ----------
    x : pdarray, Strings or Categorical
        The array.
    axis : int, tuple of int, or None
        The axes reversed; None: every axis.

    Returns
    -------
    pdarray, Strings or Categorical
        ``x`` reversed.

    Raises
    ------
    TypeError
        ``x`` is not an array, or ``axis`` not an int.
    numpy.exceptions.AxisError
        ``axis`` is out of bounds.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.flip(ak.arange(6).reshape(2, 3), axis=1).tolist()
    [[2, 1, 0], [5, 4, 3]]
    """
    one_axis = axis in (None, 0, -1, (0,), (-1,))
    if isinstance(x, pdarray) and (x.ndim != 1 or not one_axis) and not is_bigint_array(x):
        axes = _nd.normalize_axes(axis, x.ndim)
        st = _nd.c_strides(x.shape)
        offset = builtins.sum((x.shape[k] - 1) * st[k] for k in axes if x.shape[k])
        return _nd.view(x, offset, x.shape, [-st[k] if k in axes else st[k] for k in range(x.ndim)])
    if not one_axis:
        _check_axis(axis)
    if isinstance(x, (pdarray, Strings)) or _is_categorical(x):
        return x[::-1]
    raise TypeError(f"x: expected a pdarray, Strings or Categorical, got {type(x).__name__}")


def squeeze(x: object, /, axis: int | tuple[int, ...] | None = None) -> pdarray:
    """``x`` without its axes of length one, sharing ``x``'s values.

    As in Arkouda, an array of rank one or more keeps at least one axis (``(1, 1)`` becomes
    ``(1,)``, not NumPy's ``()``), and a scalar becomes a one-element pdarray.

    Parameters
    ----------
    x : pdarray or scalar
        The array.
    axis : int, tuple of int, or None
        The axes removed, each of length one; None: every axis of length one.

    Returns
    -------
    pdarray
        ``x`` reshaped.

    Raises
    ------
    TypeError
        ``x`` is neither a pdarray nor a scalar.
    ValueError
        A named axis is not of length one (NumPy's error).

    Examples
    --------
    >>> import atoll as ak
    >>> ak.squeeze(ak.arange(3).reshape(1, 3, 1)).shape
    (3,)
    >>> ak.squeeze(7).tolist()
    [7]
    """
    out: pdarray
    if is_scalar(x):
        out = array([x])
        return out
    if not isinstance(x, pdarray):
        raise TypeError(f"x: expected a pdarray or a scalar, got {type(x).__name__}")
    shape = x.shape
    if axis is None:
        axes = tuple(k for k, d in enumerate(shape) if d == 1)
    else:
        axes = _nd.normalize_axes(axis, x.ndim)
        if builtins.any(shape[k] != 1 for k in axes):
            raise ValueError("cannot select an axis to squeeze out which has size not equal to one")
    new = tuple(d for k, d in enumerate(shape) if k not in axes)
    if not new and x.ndim:
        new = (1,)
    if x.ndim == 1 and len(new) == 1:
        out = x[:]  # bigint arrays too
        return out
    out = _nd.with_shape(x, new)
    return out


def expand_dims(a: pdarray, /, axis: int | tuple[int, ...]) -> pdarray:
    """``a`` with an axis of length one inserted at each position ``axis`` names.

    Sharing ``a``'s values, as ``numpy.expand_dims``.

    Parameters
    ----------
    a : pdarray
        The array.
    axis : int or tuple of int
        Positions in the result, negatives from its end.

    Returns
    -------
    pdarray
        ``a`` reshaped.

    Raises
    ------
    TypeError
        ``a`` is not a pdarray (or is a bigint one).
    numpy.exceptions.AxisError
        An axis is out of bounds.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.expand_dims(ak.arange(3), 0).shape
    (1, 3)
    """
    if not isinstance(a, pdarray) or is_bigint_array(a):
        raise TypeError(f"a: expected a pdarray, got {type(a).__name__}")
    count = len(axis) if isinstance(axis, (tuple, list)) else 1
    nd = a.ndim + count
    axes = _nd.normalize_axes(axis, nd)
    rest = iter(a.shape)
    shape = tuple(1 if k in axes else next(rest) for k in range(nd))
    out: pdarray = _nd.with_shape(a, _nd.check_shape(shape))
    return out


def roll(
    a: Any,  # noqa: ANN401 (a pdarray, Strings or Categorical)
    /,
    shift: int | tuple[int, ...],
    axis: int | tuple[int, ...] | None = None,
) -> Any:  # noqa: ANN401 (a's kind)
    """``a``'s elements shifted by ``shift`` places along ``axis``, as ``numpy.roll``.

    Those leaving one end come back at the other. One gather.

    Parameters
    ----------
    a : pdarray, Strings or Categorical
        The array.
    shift : int or tuple of int
        The shifts, one per axis (an int broadcast against a tuple of axes).
    axis : int, tuple of int, or None
        The axes; None rolls the flat values and keeps the shape.

    Returns
    -------
    pdarray, Strings or Categorical
        ``a`` rolled.

    Raises
    ------
    TypeError
        ``a`` is not an array, or a shift or axis not an int.
    ValueError
        ``shift`` and ``axis`` are tuples of different lengths.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.roll(ak.arange(5), 2).tolist()
    [3, 4, 0, 1, 2]
    """
    if isinstance(a, Strings) or _is_categorical(a) or (isinstance(a, pdarray) and a.ndim == 1):
        if axis not in (None, 0, -1, (0,), (-1,)):
            _check_axis(axis)
        n = a.size
        if n == 0:
            return a[arange(0)]
        s = _int_of(shift, "shift") % n
        return a[(arange(n) + (n - s)) % n]
    if not isinstance(a, pdarray):
        raise TypeError(f"a: expected a pdarray, Strings or Categorical, got {type(a).__name__}")
    if axis is None:
        flat = _nd.with_shape(a, None)
        return _nd.with_shape(roll(flat, shift, 0), a._shape)
    shifts: tuple[int, ...] = tuple(shift) if isinstance(shift, (tuple, list)) else (shift,)
    axes: tuple[int, ...] = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
    if len(shifts) == 1:
        shifts = tuple(shifts) * len(axes)
    if len(axes) == 1:
        axes = tuple(axes) * len(shifts)
    if len(shifts) != len(axes):
        raise ValueError("'shift' and 'axis' should be scalars or 1D sequences")
    total = [0] * a.ndim
    for sh, ax in zip(shifts, axes):
        total[_nd.normalize_axis(ax, a.ndim)] += _int_of(sh, "shift")
    shape = a.shape
    st = _nd.c_strides(shape)
    moved = [k for k in range(a.ndim) if shape[k] and total[k] % shape[k]]
    if not moved:
        return _nd.view(a, 0, shape, st)
    i, co = _nd.coords(shape)
    pos = i
    for k in moved:
        s = total[k] % shape[k]
        # Element j of the axis comes from j - s, wrapped: minus s, plus n where j < s.
        pos = pos + (co[k] < s).astype(int64) * (shape[k] * st[k]) - s * st[k]
    return _nd.gather_flat(a, pos, shape)


def _int_of(v: object, name: str) -> int:
    if isinstance(v, (builtins.bool, np.bool_)) or not isinstance(v, (builtins.int, np.integer)):
        raise TypeError(f"{name}: expected an int, got {type(v).__name__}")
    return builtins.int(v)


def _is_categorical(x: object) -> bool:
    return type(x).__name__ == "Categorical" and hasattr(x, "codes") and hasattr(x, "categories")


def _check_axis(axis: object, ndim: int = 1) -> int:
    """``axis`` as an axis of a 1-D array (0); NumPy's ``AxisError`` otherwise."""
    if isinstance(axis, (builtins.bool, np.bool_)) or not isinstance(axis, (builtins.int, np.integer)):
        raise TypeError(f"axis: expected an int or None, got {type(axis).__name__}")
    if not -ndim <= axis < ndim:
        raise np.exceptions.AxisError(builtins.int(axis), ndim)
    return builtins.int(axis) % ndim


def _as_array(a: object, name: str) -> Any:  # noqa: ANN401 (a pdarray or Strings)
    if isinstance(a, (pdarray, Strings)):
        return a
    if is_scalar(a):
        return array([a])
    if isinstance(a, (list, tuple, np.ndarray)):
        return array(a)
    raise TypeError(f"{name}: expected a pdarray, Strings, a scalar or a sequence, got {type(a).__name__}")


def repeat(a: Any, repeats: Any, axis: int | None = None) -> Any:  # noqa: ANN401 (arrays, scalars, sequences)
    """Each element of ``a`` repeated ``repeats`` times in place, as ``numpy.repeat``.

    Parameters
    ----------
    a : pdarray, Strings, scalar or sequence
        The values (a bigint pdarray too).
    repeats : int, sequence of int or pdarray
        One count for all, or one count per element.
    axis : int, optional
        Of an N-d pdarray: the axis repeated along; None: the flat values.

    Returns
    -------
    pdarray or Strings
        The repeated values.

    Raises
    ------
    TypeError
        ``a`` is not an array, or the counts not integers.
    ValueError
        A negative count, or as many counts as elements.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.repeat(ak.array([1, 2, 3]), 2).tolist()
    [1, 1, 2, 2, 3, 3]
    >>> ak.repeat(ak.array([1, 2, 3]), [0, 1, 3]).tolist()
    [2, 3, 3, 3]
    >>> ak.repeat(3, 4).tolist()
    [3, 3, 3, 3]
    """
    a = _as_array(a, "a")
    if (repeats.ndim if isinstance(repeats, pdarray) else np.ndim(repeats)) > 1:
        raise ValueError("repeats: expected an int or a 1-D sequence of ints (object too deep for desired array)")
    if isinstance(a, pdarray) and not is_bigint_array(a) and a.ndim != 1:
        if axis is None:
            return repeat(_nd.with_shape(a, None), repeats)
        return _repeat_axis(a, repeats, _nd.normalize_axis(axis, a.ndim))
    if axis is not None:
        _check_axis(axis)
    n = a.size
    if is_scalar(repeats) or (isinstance(repeats, (list, tuple, np.ndarray, pdarray)) and len(repeats) == 1):
        r = repeats if is_scalar(repeats) else repeats[0]
        if not isinstance(r, (builtins.int, np.integer, np.bool_)):
            raise TypeError(f"repeats: expected integers, got {type(r).__name__}")
        r = builtins.int(r)
        if r < 0:
            raise ValueError("repeats may not contain negative values.")
        if n == 0 or r == 0:
            return a[arange(0)]
        return a[arange(n * r) // r]
    if isinstance(repeats, pdarray):
        reps = repeats
    else:
        counts = np.asarray(repeats)
        reps = array(counts if counts.size else counts.astype(np.int64))
    if reps.dtype.kind not in "iub":
        raise TypeError(f"repeats: expected integers, got dtype {reps.dtype}")
    if reps.size != n:
        raise ValueError(f"operands could not be broadcast together with shape ({n},) ({reps.size},)")
    reps = reps.astype(int64)
    if n and builtins.int(reps.min()) < 0:
        raise ValueError("repeats may not contain negative values.")
    ends = cumsum(reps)
    total = builtins.int(ends[n - 1]) if n else 0
    if total == 0:
        return a[arange(0)]
    return a[searchsorted(ends, arange(total), side="right")]


def _repeat_axis(a: pdarray, repeats: object, axis: int) -> pdarray:
    """``repeat`` of an N-d pdarray along ``axis``.

    The source index along the axis of each output position (the 1-D rule on the axis'
    indices), then one gather.
    """
    out: pdarray = _nd.take_axis(a, repeat(arange(a.shape[axis]), repeats), axis)
    return out


def tile(A: Any, /, reps: int | tuple[int, ...]) -> Any:  # noqa: ANN401 (an array, scalar or sequence; A's kind)
    """``A`` repeated ``reps`` times along each axis, as ``numpy.tile``.

    ``A`` is given leading axes of length one up to ``len(reps)`` axes, or ``reps`` leading
    ones up to ``A.ndim``.

    Parameters
    ----------
    A : pdarray, Strings, scalar or sequence
        The values; Strings and bigint arrays are 1-D (an int or one repetition count).
    reps : int or tuple of int
        The repetitions along each axis.

    Returns
    -------
    pdarray or Strings
        The tiled values.

    Raises
    ------
    TypeError
        ``A`` is not an array, or ``reps`` not ints.
    ValueError
        A negative repetition count.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.tile(ak.array([1, 2, 3]), 2).tolist()
    [1, 2, 3, 1, 2, 3]
    >>> ak.tile(ak.array([1, 2]), (2, 2)).tolist()
    [[1, 2, 1, 2], [1, 2, 1, 2]]
    """
    A = _as_array(A, "A")
    if isinstance(reps, (tuple, list)) and (len(reps) > 1 or (isinstance(A, pdarray) and A.ndim != 1)):
        if not isinstance(A, pdarray) or is_bigint_array(A):
            raise TypeError(f"tile: {type(A).__name__} arrays are 1-D; reps {tuple(reps)} needs a pdarray")
        return _tile_nd(A, tuple(_int_of(r, "reps") for r in reps))
    if isinstance(A, pdarray) and A.ndim != 1 and not is_bigint_array(A):
        return _tile_nd(A, (_int_of(reps, "reps"),))
    one: object = reps
    if isinstance(reps, (tuple, list)):
        one = reps[0] if reps else 1
    if isinstance(one, (builtins.bool, np.bool_, builtins.float, np.floating)) or not isinstance(
        one, (builtins.int, np.integer)
    ):
        raise TypeError(f"reps: expected an int or a tuple of ints, got {type(one).__name__}")
    r = builtins.int(one)
    if r < 0:
        raise ValueError("negative dimensions are not allowed")
    n = A.size
    if n == 0 or r == 0:
        return A[arange(0)]
    return A[arange(n * r) % n]


def _tile_nd(A: pdarray, reps: tuple[int, ...]) -> pdarray:
    """``tile`` with a shape: ``A`` repeated along each axis.

    ``A``'s rank raised with leading axes of length one to that of ``reps``, or ``reps``
    raised with leading ones; one gather of ``sum((j_k % n_k) * stride_k)``.
    """
    if builtins.any(r < 0 for r in reps):
        raise ValueError("negative dimensions are not allowed")
    nd = builtins.max(A.ndim, len(reps))
    src = (1,) * (nd - A.ndim) + tuple(A.shape)
    reps = (1,) * (nd - len(reps)) + reps
    shape = _nd.check_shape(tuple(d * r for d, r in zip(src, reps)))
    st = _nd.c_strides(src)
    out: pdarray
    if reps == (1,) * nd:
        out = _nd.view(A, 0, shape, st)
        return out
    i, co = _nd.coords(shape)
    pos: Any = None
    for k in range(nd):
        if src[k] == 1:
            continue
        t = co[k] % src[k] if reps[k] != 1 else co[k]
        t = t * st[k] if st[k] != 1 else t
        pos = t if pos is None else pos + t
    if pos is None:
        pos = i * 0
    out = _nd.gather_flat(A, pos, shape)
    return out


__all__ = ["flip", "squeeze", "expand_dims", "roll", "repeat", "tile"]
