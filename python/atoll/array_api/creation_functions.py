"""The creation functions of the Array API namespace, on Atoll's pdarray creation functions."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from atoll.numpy import pdarraycreation
from atoll.numpy.numeric import where
from atoll.numpy.pdarrayclass import pdarray
from atoll.numpy.util import broadcast_to

from ._typing import SupportsDLPack
from .array_object import Array, _scalar_array, _unwrap, _wrap

__all__ = [
    "arange",
    "asarray",
    "empty",
    "empty_like",
    "eye",
    "from_dlpack",
    "full",
    "full_like",
    "linspace",
    "meshgrid",
    "ones",
    "ones_like",
    "tril",
    "triu",
    "zeros",
    "zeros_like",
]


def _check_device(device: str | None) -> None:
    if device not in ("cpu", None):
        raise ValueError(f"Unsupported device {device!r}")


def asarray(
    obj: object, /, *, dtype: npt.DTypeLike | None = None, device: str | None = None, copy: bool | None = None
) -> Array:
    """An Array of ``obj``.

    Parameters
    ----------
    obj : object
        An Array, a pdarray, a NumPy array, a Python or NumPy scalar, or nested sequences of
        scalars.
    dtype : dtype, optional
        The dtype to convert to (None: the input's, or NumPy's inference).
    device : str, optional
        ``"cpu"`` or None.
    copy : bool, optional
        True: always copy; False: never (ValueError when a copy is needed); None: when needed.

    Returns
    -------
    Array
        The values of ``obj``.

    Raises
    ------
    ValueError
        If ``copy`` is False and a copy is needed, or the device is not ``"cpu"``.
    TypeError
        If ``obj`` is a Python complex without a ``dtype``.

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> x = xp.asarray([[1, 2], [3, 4]], dtype=xp.float64)
    >>> x.shape, x.dtype
    ((2, 2), dtype('float64'))
    """
    _check_device(device)
    if isinstance(obj, Array):
        obj = obj._array
    if isinstance(obj, pdarray):
        if dtype is not None and np.dtype(dtype) != obj.dtype:
            if copy is False:
                raise ValueError("asarray: copy=False, but a conversion of dtype needs a copy")
            return Array._new(obj.astype(dtype))
        return Array._new(obj.copy() if copy else obj)
    if copy is False:
        raise ValueError("asarray: copy=False, but an upload to the locales needs a copy")
    if isinstance(obj, complex) and dtype is None:
        raise TypeError("complex values are not supported in Atoll Arrays")
    a = np.asarray(obj, dtype=dtype)
    if a.ndim == 0:
        return Array._new(_scalar_array(a))
    return Array._new(pdarraycreation.array(a))


def arange(
    start: float,
    /,
    stop: float | None = None,
    step: float = 1,
    *,
    dtype: npt.DTypeLike | None = None,
    device: str | None = None,
) -> Array:
    """The values ``start, start + step, ...`` below ``stop``.

    Parameters
    ----------
    start : int or float
        The first value (the end, from 0, when ``stop`` is None).
    stop : int or float, optional
        The end (excluded).
    step : int or float, default 1
        The spacing.
    dtype : dtype, optional
        The dtype (None: the arguments').
    device : str, optional
        ``"cpu"`` or None.

    Returns
    -------
    Array
        The 1-D range.

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> xp.arange(5).tolist(), xp.arange(2, 10, 3).tolist()
    ([0, 1, 2, 3, 4], [2, 5, 8])
    >>> xp.arange(0.5, 2.0, 0.5).tolist()
    [0.5, 1.0, 1.5]
    """
    _check_device(device)
    if stop is None:
        start, stop = 0, start
    if isinstance(start, int) and isinstance(stop, int) and isinstance(step, int):
        return _wrap(pdarraycreation.arange(start, stop, step, dtype=dtype))
    # Float bounds or step (the standard's): ceil((stop - start) / step) values start + i * step.
    if step == 0:
        raise ValueError("arange: step must not be 0")
    n = max(0, math.ceil((stop - start) / step))
    values = pdarraycreation.arange(0, n, 1) * float(step) + float(start)
    return _wrap(values if dtype is None else values.astype(dtype))


def _shape(shape: int | Sequence[int]) -> tuple[int, ...]:
    return (shape,) if isinstance(shape, (int, np.integer)) else tuple(shape)


def empty(shape: int | Sequence[int], *, dtype: npt.DTypeLike | None = None, device: str | None = None) -> Array:
    """An Array of the shape, its values unspecified (zeros here).

    Parameters
    ----------
    shape : int or sequence of int
        The length of each axis.
    dtype : dtype, optional
        The dtype (None: float64).
    device : str, optional
        ``"cpu"`` or None.

    Returns
    -------
    Array
        The new Array.

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> xp.empty((2, 3)).shape
    (2, 3)
    """
    return zeros(shape, dtype=dtype, device=device)


def empty_like(x: Array, /, *, dtype: npt.DTypeLike | None = None, device: str | None = None) -> Array:
    """An Array of ``x``'s shape and dtype (or ``dtype``), its values unspecified (zeros here).

    Parameters
    ----------
    x : Array
        The Array whose shape (and dtype) to take.
    dtype : dtype, optional
        The dtype (None: ``x``'s).
    device : str, optional
        ``"cpu"`` or None.

    Returns
    -------
    Array
        The new Array.

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> y = xp.empty_like(xp.asarray([1, 2, 3]))
    >>> y.shape, y.dtype
    ((3,), dtype('int64'))
    """
    return zeros_like(x, dtype=dtype, device=device)


def zeros(shape: int | Sequence[int], *, dtype: npt.DTypeLike | None = None, device: str | None = None) -> Array:
    """An Array of zeros of the shape.

    Parameters
    ----------
    shape : int or sequence of int
        The length of each axis.
    dtype : dtype, optional
        The dtype (None: float64).
    device : str, optional
        ``"cpu"`` or None.

    Returns
    -------
    Array
        The zeros.

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> xp.zeros((2, 2), dtype=xp.int64).tolist()
    [[0, 0], [0, 0]]
    """
    _check_device(device)
    return _wrap(pdarraycreation.zeros(_shape(shape), dtype=np.float64 if dtype is None else dtype))


def ones(shape: int | Sequence[int], *, dtype: npt.DTypeLike | None = None, device: str | None = None) -> Array:
    """An Array of ones of the shape.

    Parameters
    ----------
    shape : int or sequence of int
        The length of each axis.
    dtype : dtype, optional
        The dtype (None: float64).
    device : str, optional
        ``"cpu"`` or None.

    Returns
    -------
    Array
        The ones.

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> xp.ones(3).tolist()
    [1.0, 1.0, 1.0]
    """
    _check_device(device)
    return _wrap(pdarraycreation.ones(_shape(shape), dtype=np.float64 if dtype is None else dtype))


def full(
    shape: int | Sequence[int],
    fill_value: bool | int | float | complex,
    *,
    dtype: npt.DTypeLike | None = None,
    device: str | None = None,
) -> Array:
    """An Array of the shape filled with ``fill_value``.

    Parameters
    ----------
    shape : int or sequence of int
        The length of each axis.
    fill_value : bool, int or float
        The value of every element.
    dtype : dtype, optional
        The dtype (None: ``fill_value``'s).
    device : str, optional
        ``"cpu"`` or None.

    Returns
    -------
    Array
        The filled Array.

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> xp.full((1, 2), 7).tolist()
    [[7, 7]]
    """
    _check_device(device)
    if dtype is None:
        dtype = np.asarray(fill_value).dtype
    return _wrap(pdarraycreation.full(_shape(shape), fill_value, dtype=dtype))


def zeros_like(x: Array, /, *, dtype: npt.DTypeLike | None = None, device: str | None = None) -> Array:
    """Zeros of ``x``'s shape and dtype (or ``dtype``).

    Parameters
    ----------
    x : Array
        The Array whose shape (and dtype) to take.
    dtype : dtype, optional
        The dtype (None: ``x``'s).
    device : str, optional
        ``"cpu"`` or None.

    Returns
    -------
    Array
        The zeros.

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> xp.zeros_like(xp.asarray([1, 2])).tolist()
    [0, 0]
    """
    return zeros(x.shape, dtype=x.dtype if dtype is None else dtype, device=device)


def ones_like(x: Array, /, *, dtype: npt.DTypeLike | None = None, device: str | None = None) -> Array:
    """Ones of ``x``'s shape and dtype (or ``dtype``).

    Parameters
    ----------
    x : Array
        The Array whose shape (and dtype) to take.
    dtype : dtype, optional
        The dtype (None: ``x``'s).
    device : str, optional
        ``"cpu"`` or None.

    Returns
    -------
    Array
        The ones.

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> xp.ones_like(xp.asarray([1.5, 2.5])).tolist()
    [1.0, 1.0]
    """
    return ones(x.shape, dtype=x.dtype if dtype is None else dtype, device=device)


def full_like(
    x: Array,
    /,
    fill_value: bool | int | float | complex,
    *,
    dtype: npt.DTypeLike | None = None,
    device: str | None = None,
) -> Array:
    """``fill_value`` in ``x``'s shape and dtype (or ``dtype``).

    Parameters
    ----------
    x : Array
        The Array whose shape (and dtype) to take.
    fill_value : bool, int or float
        The value of every element.
    dtype : dtype, optional
        The dtype (None: ``x``'s).
    device : str, optional
        ``"cpu"`` or None.

    Returns
    -------
    Array
        The filled Array.

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> xp.full_like(xp.asarray([1, 2]), 9).tolist()
    [9, 9]
    """
    return full(x.shape, fill_value, dtype=x.dtype if dtype is None else dtype, device=device)


def linspace(
    start: float,
    stop: float,
    /,
    num: int,
    *,
    dtype: npt.DTypeLike | None = None,
    device: str | None = None,
    endpoint: bool = True,
) -> Array:
    """``num`` evenly spaced values from ``start`` to ``stop``.

    Parameters
    ----------
    start, stop : int or float
        The first and the last value.
    num : int
        The number of values.
    dtype : dtype, optional
        The dtype (None: float64).
    device : str, optional
        ``"cpu"`` or None.
    endpoint : bool, default True
        Whether ``stop`` is included.

    Returns
    -------
    Array
        The 1-D values.

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> xp.linspace(0, 1, 5).tolist()
    [0.0, 0.25, 0.5, 0.75, 1.0]
    """
    _check_device(device)
    return _wrap(
        pdarraycreation.linspace(start, stop, num, endpoint=endpoint, dtype=np.float64 if dtype is None else dtype)
    )


def _offsets(n_rows: int, n_cols: int) -> Any:  # noqa: ANN401 (a pdarray; its operators are set on it)
    """The (n_rows, n_cols) Array of ``column - row``: the diagonal each element lies on."""
    rows = pdarraycreation.arange(n_rows).reshape((n_rows, 1))
    cols = pdarraycreation.arange(n_cols).reshape((1, n_cols))
    return cols - rows


def eye(
    n_rows: int,
    n_cols: int | None = None,
    /,
    *,
    k: int = 0,
    dtype: npt.DTypeLike | None = None,
    device: str | None = None,
) -> Array:
    """The (n_rows, n_cols) Array with ones on the ``k``-th diagonal and zeros elsewhere.

    Parameters
    ----------
    n_rows : int
        The number of rows.
    n_cols : int, optional
        The number of columns (None: ``n_rows``).
    k : int, default 0
        The diagonal (positive: above the main one).
    dtype : dtype, optional
        The dtype (None: float64).
    device : str, optional
        ``"cpu"`` or None.

    Returns
    -------
    Array
        The 2-D Array.

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> xp.eye(2, 3, k=1, dtype=xp.int64).tolist()
    [[0, 1, 0], [0, 0, 1]]
    """
    _check_device(device)
    n_cols = n_rows if n_cols is None else n_cols
    return _wrap((_offsets(n_rows, n_cols) == k).astype(np.float64 if dtype is None else dtype))


def _triangle(x: Array, keep: Callable[[Any], Any]) -> Array:
    a = _unwrap(x)
    if a.ndim < 2:
        raise ValueError("the array must have at least 2 dimensions")
    mask = keep(_offsets(a.shape[-2], a.shape[-1]))
    return _wrap(where(mask, a, pdarraycreation.zeros((), dtype=a.dtype)))


def tril(x: Array, /, *, k: int = 0) -> Array:
    """``x`` with the elements above the ``k``-th diagonal zeroed (over the last two axes).

    Parameters
    ----------
    x : Array
        An Array of at least 2 dimensions.
    k : int, default 0
        The diagonal (positive: above the main one).

    Returns
    -------
    Array
        The lower triangle(s).

    Raises
    ------
    ValueError
        If ``x`` has fewer than 2 dimensions.

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> xp.tril(xp.asarray([[1, 2], [3, 4]])).tolist()
    [[1, 0], [3, 4]]
    """
    return _triangle(x, lambda d: d <= k)


def triu(x: Array, /, *, k: int = 0) -> Array:
    """``x`` with the elements below the ``k``-th diagonal zeroed (over the last two axes).

    Parameters
    ----------
    x : Array
        An Array of at least 2 dimensions.
    k : int, default 0
        The diagonal (positive: above the main one).

    Returns
    -------
    Array
        The upper triangle(s).

    Raises
    ------
    ValueError
        If ``x`` has fewer than 2 dimensions.

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> xp.triu(xp.asarray([[1, 2], [3, 4]])).tolist()
    [[1, 2], [0, 4]]
    """
    return _triangle(x, lambda d: d >= k)


def meshgrid(*arrays: Array, indexing: str = "xy") -> list[Array]:
    """Coordinate Arrays from 1-D Arrays, each broadcast to the grid's shape.

    Parameters
    ----------
    *arrays : Array
        The 1-D coordinates of each axis.
    indexing : {"xy", "ij"}, default "xy"
        ``"xy"``: the first two axes swapped (Cartesian); ``"ij"``: in order (matrix).

    Returns
    -------
    list of Array
        One coordinate Array per input.

    Raises
    ------
    ValueError
        If ``indexing`` is another value or an input is not 1-D.

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> gx, gy = xp.meshgrid(xp.asarray([1, 2, 3]), xp.asarray([4, 5]))
    >>> gx.tolist(), gy.tolist()
    ([[1, 2, 3], [1, 2, 3]], [[4, 4, 4], [5, 5, 5]])
    """
    if indexing not in ("xy", "ij"):
        raise ValueError("indexing must be 'xy' or 'ij'")
    vals = [_unwrap(a) for a in arrays]
    if any(v.ndim != 1 for v in vals):
        raise ValueError("meshgrid takes 1-D arrays")
    n = len(vals)
    shape = [v.size for v in vals]
    if indexing == "xy" and n >= 2:
        shape[0], shape[1] = shape[1], shape[0]
    out = []
    for i, v in enumerate(vals):
        axis = i
        if indexing == "xy" and n >= 2 and i < 2:
            axis = 1 - i
        s = [1] * n
        s[axis] = v.size
        out.append(_wrap(broadcast_to(v.reshape(tuple(s)), tuple(shape))))
    return out


def from_dlpack(x: SupportsDLPack, /) -> Array:
    """An Array of the values of a DLPack producer (copied to the locales).

    Parameters
    ----------
    x : SupportsDLPack
        An object with ``__dlpack__`` and ``__dlpack_device__`` (a NumPy array, a tensor).

    Returns
    -------
    Array
        A copy of its values.

    Examples
    --------
    >>> import numpy as np
    >>> import atoll.array_api as xp
    >>> xp.from_dlpack(np.array([1, 2, 3])).tolist()
    [1, 2, 3]
    """
    return asarray(np.from_dlpack(x))
