"""Creation of pdarrays (Arkouda's pdarraycreation): from NumPy data, by value, by formula."""

from __future__ import annotations

import builtins
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np

from .. import _atoll
from .._optional import loaded, pd
from .._stream import stream_key
from . import _nd
from ._bigint import from_ints, to_bigint
from .dtypes import (
    _stored_dtype as _dtype,
    bool_,
    float64,
    int64,
    is_bigint,
    is_scalar,
    is_str_dtype,
    scalar_dtype,
    supported,
    uint8,
    uint64,
)
from .numeric import cast, where
from .pdarrayclass import _scalar_value, _seed, _size, pdarray
from .strings import Strings, from_list


def _ints_dtype(values: Iterable[Any]) -> Any:  # noqa: ANN401 (a dtype, "bigint" or None)
    """Arkouda's dtype of a sequence of integers (bools count as 0 and 1, as NumPy counts them).

    int64, or uint64 when some value needs it (no float detour), float64 for negatives with
    values from 2**63 (NumPy's common type of int64 and uint64), "bigint" beyond 64 bits; None
    when some value is not an integer, when all are bools, or when there are none (NumPy's
    float64).
    """
    lo = hi = 0
    only_bools = True
    for v in values:
        if isinstance(v, (builtins.bool, np.bool_)):
            pass
        elif isinstance(v, (builtins.int, np.integer)):
            only_bools = False
        else:
            return None
        v = builtins.int(v)
        lo, hi = builtins.min(lo, v), builtins.max(hi, v)
    if only_bools:
        return None
    if hi >= (1 << 63):
        if hi >= (1 << 64) or lo < -(1 << 63):
            return "bigint"  # Arkouda keeps such lists exact as bigint
        if lo < 0:
            return np.dtype(np.float64)  # NumPy's and Arkouda's common type of int64 and uint64
        return np.dtype(np.uint64)
    if lo < -(1 << 63):
        return "bigint"
    return np.dtype(np.int64)


# Converters of other libraries' columns (Arrow arrays, polars Series, pandas' nullable
# arrays) that the frame layer installs (``atoll.pandas.interop``): each takes the object given
# to ``array`` and returns an Atoll array, or None for an object that is not of its kinds.
FOREIGN_ARRAYS: list[Callable[[Any], Any]] = []


def _mixed_types_error(values: Sequence[Any]) -> TypeError:
    """The TypeError of a sequence whose elements are of several kinds, or hold None."""
    if builtins.any(v is None for v in values):
        return TypeError(
            "a: None among the values: a pdarray or Strings has no missing value; write float('nan') "
            "for a missing number or '' for a missing string (Arkouda's convention), or pass a pandas "
            "Series or an Arrow array, whose missing values convert by that rule"
        )
    kinds = sorted({type(v).__name__ for v in values})
    return TypeError(
        f"a: mixed types ({', '.join(kinds)}): ak.array takes elements of one kind, numbers (bool, int, "
        "float) or str; convert them first, e.g. [str(x) for x in values] for Strings or "
        "[float(x) for x in values] for float64"
    )


def array(
    a: Any,  # noqa: ANN401 (a NumPy array, a sequence, a pdarray, Strings, a foreign column)
    dtype: Any = None,  # noqa: ANN401 (any dtype-like, str or bigint)
    copy: bool = True,
    max_bits: int = -1,
    unsafe: bool = False,
    any_neg: bool | None = None,
    num_bits: int | None = None,
) -> Any:  # noqa: ANN401 (a pdarray, Strings or bigint pdarray)
    """A pdarray (or Strings) with a copy of ``a``: one bulk copy.

    A list of Python ints is int64, or uint64 when a value needs it, never through float64.

    Parameters
    ----------
    a : numpy.ndarray, list, tuple, sequence, pdarray or Strings
        The values.
    dtype : dtype, str or bigint, optional
        Honoured for every kind of input (strings are parsed as NumPy parses them, numbers
        formatted as str); else inferred.
    copy : bool, default True
        Copy a pdarray or Strings (else it may be given back).
    max_bits : int, default -1
        A bigint array's ``max_bits``.
    unsafe, any_neg, num_bits : optional
        Arkouda's hints for its transfers; ignored.

    Returns
    -------
    pdarray or Strings
        The new array.

    Raises
    ------
    TypeError
        ``a`` is not array-like, or mixes kinds of values.
    ValueError
        Strings of more than one dimension, or text that does not parse as ``dtype``.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.array([1, 2, 3])
    array([1 2 3])
    >>> ak.array([2**63, 1]).dtype, ak.array(["a", "b"]).tolist()
    (dtype('uint64'), ['a', 'b'])
    """
    if FOREIGN_ARRAYS and not isinstance(a, (np.ndarray, list, tuple, pdarray, Strings)):
        for convert in FOREIGN_ARRAYS:
            got = convert(a)
            if got is not None:
                return got if dtype is None else array(got, dtype=dtype)
    if dtype is not None and is_bigint(dtype):
        if isinstance(a, (str, bytes)):
            raise TypeError("a: expected a sequence, got a str")
        if _is_strs(a):
            a = from_list(a)
        return to_bigint(a if isinstance(a, (pdarray, Strings)) else list(a), max_bits)
    if dtype is not None and dtype is not builtins.bool and is_str_dtype(dtype):
        if isinstance(a, Strings):
            return a if not copy else _copy_strings(a)
        if isinstance(a, pdarray):
            return cast(a, "str")
        x = np.asarray(list(a) if not isinstance(a, np.ndarray) else a)
        if x.ndim != 1:
            raise ValueError(f"a: only 1-D arrays are supported, got {x.ndim} dimensions")
        return from_list([str(v) for v in x.tolist()])
    if isinstance(a, pdarray):
        if dtype is None and not copy:
            return a
        return a.astype(a.dtype if dtype is None else dtype)._materialize()
    if isinstance(a, Strings):
        if dtype is None:
            return a if not copy else _copy_strings(a)
        return cast(a, dtype)
    if _is_strs(a):
        if dtype is None:
            return from_list(a)
        # NumPy's conversion of str to numbers (ValueError where one does not parse).
        return array(np.asarray(list(a)).astype(_dtype(dtype)))
    d_in = getattr(a, "dtype", None)
    if not isinstance(a, (np.ndarray, list, tuple)) and isinstance(d_in, np.dtype) and d_in.kind in "iufb":
        if hasattr(a, "to_numpy"):  # a pandas Series or Index of numbers keeps its dtype
            a = a.to_numpy()
    if not isinstance(a, (np.ndarray, list, tuple)):
        # Unordered collections (dict, set) have no element order to keep: TypeError, as Arkouda.
        if hasattr(a, "__len__") and hasattr(a, "__iter__") and not isinstance(a, (str, bytes, dict, set, frozenset)):
            a = list(a)
            if a and _is_strs(a):  # e.g. a pandas Series of str
                return array(a, dtype=dtype)
        else:
            raise TypeError(f"a: expected a NumPy array, a list or a pdarray, got {type(a).__name__}")
    if isinstance(a, (list, tuple)):
        if dtype is None:
            d0 = _ints_dtype(a)
            if d0 == "bigint":
                return from_ints(a, max_bits)
            if d0 == int64 and builtins.any(isinstance(v, np.generic) for v in a):
                d0 = None  # NumPy's scalars within int64's range: NumPy infers (uint8 stays uint8)
        else:
            d0 = _dtype(dtype)
        try:
            x = np.array(a, dtype=d0) if d0 is not None else np.asarray(a)
        except OverflowError as e:
            raise OverflowError(f"a: {e}") from None
        except (ValueError, TypeError) as e:
            raise TypeError(f"a: cannot convert to an array: {e}") from None
        if dtype is None and x.dtype.kind == "U" and x.ndim == 1 and not _is_strs(a):
            raise _mixed_types_error(a)
    else:
        x = a
        if x.dtype == object:
            vals = x.tolist()
            d0 = _ints_dtype(vals)
            if d0 is not None and (dtype is None or is_bigint(dtype)):
                # An object array of Python ints is Arkouda's bigint array.
                return from_ints(vals, max_bits)
            if _is_strs(vals):
                return array(vals, dtype=dtype)
            if dtype is None and builtins.any(isinstance(v, str) or v is None for v in vals):
                raise _mixed_types_error(vals)
            x = np.array(vals, dtype=d0 if dtype is None else _dtype(dtype))
    if x.ndim != 1:
        if x.dtype.kind in "USO":
            raise ValueError(f"a: Strings are 1-D, got {x.ndim} dimensions")
        shape = _nd.check_shape(x.shape, "a")
        return _nd.with_shape(array(x.reshape(-1), dtype=dtype), shape)
    if x.dtype.kind in "US" and dtype is not None:
        return array(x.astype(_dtype(dtype)))
    if dtype is None and x.dtype.kind == "O":
        values = x.tolist()
        if builtins.any(v is None for v in values) or len({type(v) for v in values}) > 1:
            raise _mixed_types_error(values)
    d = supported(x.dtype) if dtype is None else _dtype(dtype)
    x = np.ascontiguousarray(x, dtype=d)
    return pdarray(_atoll.from_buffer(x.view(np.uint8) if d == bool_ else x, d.name))


def _copy_strings(s: Any) -> Strings:  # noqa: ANN401 (a Strings, whose indexing is attached)
    """A copy of the Strings ``s``."""
    out: Strings = s[:]
    return out


def _is_strs(a: object) -> bool:
    """A list/tuple of str or a NumPy array of str: ``ak.array`` makes Strings of it."""
    if isinstance(a, np.ndarray):
        return builtins.bool(a.dtype.kind == "U")
    return isinstance(a, (list, tuple)) and len(a) > 0 and all(isinstance(x, str) for x in a)


def full(
    size: int | tuple[int, ...],
    fill_value: object,
    dtype: Any = None,  # noqa: ANN401 (any dtype-like, str or bigint)
    max_bits: int | None = None,
) -> Any:  # noqa: ANN401 (a pdarray, Strings or bigint pdarray)
    """An array of ``size`` elements equal to ``fill_value``.

    Parameters
    ----------
    size : int or tuple of int
        The number of elements, or a shape.
    fill_value : scalar or str
        The value.
    dtype : dtype, optional
        As in Arkouda, None takes the dtype of ``fill_value`` (``full(5, 7)`` is int64,
        ``full(5, 7.0)`` float64).
    max_bits : int, optional
        A bigint array's ``max_bits``.

    Returns
    -------
    pdarray or Strings
        The new array.

    Raises
    ------
    TypeError
        ``fill_value`` is not a scalar, or ``dtype`` not supported.
    ValueError
        A negative size, or a shape for Strings or bigint.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.full(3, 7), ak.full((2, 2), 0.5).tolist(), ak.full(2, "x").tolist()
    (array([7 7 7]), [[0.5, 0.5], [0.5, 0.5]], ['x', 'x'])
    """
    if isinstance(size, (tuple, list)) and len(size) != 1:
        shape = _nd.check_shape(size, "size")
        if isinstance(fill_value, (str, np.str_)) or (dtype is not None and is_bigint(dtype)):
            raise ValueError(f"size: Strings and bigint arrays are 1-D, got shape {shape}")
        return _nd.with_shape(full(_nd.prod(shape), fill_value, dtype, max_bits), shape)
    n = _size(size, text=True)
    if isinstance(fill_value, (str, np.str_)) or (
        dtype is not None and dtype is not builtins.bool and is_str_dtype(dtype)
    ):
        return from_list([str(fill_value)] * n)

    if (dtype is not None and is_bigint(dtype)) or (
        isinstance(fill_value, builtins.int) and not -(1 << 63) <= fill_value < (1 << 64) and dtype is None
    ):
        big = builtins.int(fill_value)  # type: ignore[call-overload]  # an int, tested above
        return to_bigint(big, size=n, max_bits=-1 if max_bits is None else max_bits)
    if not is_scalar(fill_value):
        raise TypeError(f"fill_value: expected a scalar, got {type(fill_value).__name__}")
    d = scalar_dtype(fill_value) if dtype is None else _dtype(dtype)
    return pdarray(_atoll.full(n, d.name, _scalar_value(fill_value, d)))


def _numeric_dtype(dtype: Any) -> Any:  # noqa: ANN401 (a dtype-like)
    if dtype is not None and dtype is not builtins.bool and not is_bigint(dtype) and is_str_dtype(dtype):
        raise TypeError(f"dtype: {dtype!r} is not a numeric dtype")
    return dtype


def zeros(
    size: int | tuple[int, ...],
    dtype: Any = float64,  # noqa: ANN401 (a numeric dtype-like or bigint)
    max_bits: int | None = None,
) -> pdarray:
    """An array of ``size`` zeros.

    Parameters
    ----------
    size : int or tuple of int
        The number of elements, or a shape.
    dtype : dtype, default float64
        A numeric dtype, or bigint.
    max_bits : int, optional
        A bigint array's ``max_bits``.

    Returns
    -------
    pdarray
        The zeros.

    Raises
    ------
    TypeError
        ``dtype`` is not numeric.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.zeros(3).tolist(), ak.zeros(2, dtype=ak.int64).tolist()
    ([0.0, 0.0, 0.0], [0, 0])
    """
    out: pdarray = full(size, 0, _numeric_dtype(dtype), max_bits)
    return out


def ones(
    size: int | tuple[int, ...],
    dtype: Any = float64,  # noqa: ANN401 (a numeric dtype-like or bigint)
    max_bits: int | None = None,
) -> pdarray:
    """An array of ``size`` ones.

    Parameters
    ----------
    size : int or tuple of int
        The number of elements, or a shape.
    dtype : dtype, default float64
        A numeric dtype, or bigint.
    max_bits : int, optional
        A bigint array's ``max_bits``.

    Returns
    -------
    pdarray
        The ones.

    Raises
    ------
    TypeError
        ``dtype`` is not numeric.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.ones((2, 1), dtype=ak.int64).tolist()
    [[1], [1]]
    """
    out: pdarray = full(size, 1, _numeric_dtype(dtype), max_bits)
    return out


def _like(pda: object) -> pdarray:
    if not isinstance(pda, pdarray):
        raise TypeError(f"pda: expected a pdarray, got {type(pda).__name__}")
    return pda


def zeros_like(pda: pdarray) -> pdarray:
    """Zeros of ``pda``'s shape and dtype.

    Parameters
    ----------
    pda : pdarray
        The array whose shape and dtype are taken.

    Returns
    -------
    pdarray
        The zeros.

    Raises
    ------
    TypeError
        ``pda`` is not a pdarray.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.zeros_like(ak.array([5, 6]))
    array([0 0])
    """
    return zeros(_like(pda).shape, pda.dtype)


def ones_like(pda: pdarray) -> pdarray:
    """Ones of ``pda``'s shape and dtype.

    Parameters
    ----------
    pda : pdarray
        The array whose shape and dtype are taken.

    Returns
    -------
    pdarray
        The ones.

    Raises
    ------
    TypeError
        ``pda`` is not a pdarray.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.ones_like(ak.array([True, False])).tolist()
    [True, True]
    """
    return ones(_like(pda).shape, pda.dtype)


def full_like(pda: pdarray, fill_value: object) -> pdarray:
    """``fill_value`` in ``pda``'s shape and dtype.

    Parameters
    ----------
    pda : pdarray
        The array whose shape and dtype are taken.
    fill_value : scalar
        The value.

    Returns
    -------
    pdarray
        The new array.

    Raises
    ------
    TypeError
        ``pda`` is not a pdarray.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.full_like(ak.array([1.5, 2.5]), 9).tolist()
    [9.0, 9.0]
    """
    out: pdarray = full(_like(pda).shape, fill_value, pda.dtype)
    return out


def empty(
    size: int | tuple[int, ...],
    dtype: Any = float64,  # noqa: ANN401 (a numeric dtype-like)
) -> pdarray:
    """An array of ``size`` elements of ``dtype``, as ``numpy.empty``.

    Its values are unspecified there; here they are zeros (one fill, no uninitialized memory).

    Parameters
    ----------
    size : int or tuple of int
        The number of elements, or a shape.
    dtype : dtype, default float64
        A numeric dtype.

    Returns
    -------
    pdarray
        The new array.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.empty((2, 3)).shape
    (2, 3)
    """
    return zeros(size, dtype)


def empty_like(pda: pdarray, dtype: Any = None) -> pdarray:  # noqa: ANN401 (a numeric dtype-like)
    """An array of ``pda``'s shape and dtype (or ``dtype``), as ``numpy.empty_like`` (zeros).

    Parameters
    ----------
    pda : pdarray
        The array whose shape (and dtype) are taken.
    dtype : dtype, optional
        The dtype instead of ``pda``'s.

    Returns
    -------
    pdarray
        The new array.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.empty_like(ak.arange(3)).dtype
    dtype('int64')
    """
    return zeros(_like(pda).shape, pda.dtype if dtype is None else dtype)


def arange(
    *args: int,
    dtype: Any = None,  # noqa: ANN401 (a dtype-like, str or bigint)
    max_bits: int | None = None,
) -> Any:  # noqa: ANN401 (a pdarray, or Strings for str)
    """Evenly spaced integers: ``arange(stop)``, ``arange(start, stop)``, ``arange(start, stop, stride)``.

    int64, or uint64 when a bound is 2**63 or more (NumPy's dtype of the arguments); bigint
    beyond, or with ``max_bits``.

    Parameters
    ----------
    *args : int
        ``stop``, ``start, stop`` or ``start, stop, stride``.
    dtype : dtype, optional
        The result's dtype (str: Strings of the numbers).
    max_bits : int, optional
        Makes a bigint array of that ``max_bits``.

    Returns
    -------
    pdarray or Strings
        The values.

    Raises
    ------
    TypeError
        Not 1 to 3 arguments, or one not an int.
    ZeroDivisionError
        A stride of 0.
    OverflowError
        Values that fit neither int64 nor uint64 for those dtypes.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.arange(4).tolist(), ak.arange(10, 0, -3).tolist()
    ([0, 1, 2, 3], [10, 7, 4, 1])
    """
    if not 1 <= len(args) <= 3:
        raise TypeError(f"arange: expected 1 to 3 arguments, got {len(args)}")
    for name, v in zip(("start", "stop", "stride"), args if len(args) > 1 else (0,) + args):
        if isinstance(v, (builtins.bool, np.bool_)) or not isinstance(v, (builtins.int, np.integer)):
            raise TypeError(f"{name}: expected an int, got {type(v).__name__}")
    start, stop, stride = (0, args[0], 1) if len(args) == 1 else (args[0], args[1], args[2] if len(args) == 3 else 1)
    start, stop, stride = builtins.int(start), builtins.int(stop), builtins.int(stride)
    if stride == 0:
        raise ZeroDivisionError("stride: division by zero")
    n = len(range(start, stop, stride))
    if dtype is not None and dtype is not builtins.bool and not is_bigint(dtype) and is_str_dtype(dtype):
        return cast(arange(start, stop, stride), "str")
    last0 = start + (n - 1) * stride if n else start
    if dtype is None and max_bits is not None and max_bits >= 0:
        dtype = "bigint"  # Arkouda: a max_bits makes a bigint array
    if (
        dtype is None
        and not (-(1 << 63) <= builtins.min(start, last0) and builtins.max(start, last0) < (1 << 64))
        and n
    ):
        dtype = "bigint"  # Arkouda: values beyond uint64 make a bigint array
    if dtype is not None and is_bigint(dtype):
        if n and builtins.max(abs(start), abs(start + (n - 1) * stride)) < (1 << 62):
            return to_bigint(arange(start, stop, stride), max_bits if max_bits is not None else -1)
        return from_ints(range(start, stop, stride), -1 if max_bits is None else max_bits)
    if dtype is None or dtype is int64:
        # NumPy's dtype of the arguments: uint64 when a bound needs it.
        d = _ints_dtype([start, last0]) if dtype is None else int64
        if dtype is int64 and builtins.max(start, stop, stride) >= (1 << 63) and n:
            d = _ints_dtype([start, last0])
    else:
        d = _dtype(dtype)
    last = start + (n - 1) * stride if n else start
    for v in (start, last):
        if not -(1 << 63) <= v < (1 << 64):
            raise OverflowError(f"arange: value {v} out of bounds for int64 and uint64")
    if d == uint64 or (n and builtins.max(start, last) >= (1 << 63)):
        if builtins.min(start, last) < 0 and not (dtype is not None and _dtype(dtype) == uint64 and last < (1 << 63)):
            raise OverflowError(f"arange: values from {start} to {last} fit neither int64 nor uint64")
        if builtins.max(start, last) < (1 << 63):  # an explicit uint64 of int64 values: they wrap
            return pdarray(_atoll.arange(n, start, stride)).astype(uint64)._materialize()
        if not -(1 << 63) <= stride < (1 << 63):
            stride = 0 if n <= 1 else stride  # one element: the stride is never used
        # Wrapping int64 arithmetic then a cast gives the uint64 values exactly.
        w = start - (1 << 64) if start >= (1 << 63) else start
        a = pdarray(_atoll.arange(n, w, stride))
        a = a.astype(uint64)._materialize()
        return a if d in (uint64, int64) else a.astype(d)._materialize()
    a = pdarray(_atoll.arange(n, start, stride))
    return a if d == int64 else a.astype(d)._materialize()


def linspace(
    start: float | pdarray,
    stop: float | pdarray,
    num: int = 50,
    endpoint: bool | None = True,
    dtype: Any = float64,  # noqa: ANN401 (float64 or None)
    axis: int = 0,
    *,
    length: int | None = None,
) -> pdarray:
    """``num`` evenly spaced float64 values from ``start`` to ``stop`` (Arkouda's signature).

    Parameters
    ----------
    start, stop : number or pdarray
        The bounds; pdarray bounds (their shapes broadcast together to ``b``) give NumPy's
        result of shape ``(num,) + b``.
    num : int, default 50
        The number of values.
    endpoint : bool, default True
        Whether ``stop`` is the last value.
    dtype : dtype, default float64
        float64 (or None).
    axis : int, default 0
        With pdarray bounds, where the new axis goes.
    length : int, optional
        The older Arkouda name of ``num``.

    Returns
    -------
    pdarray
        The float64 values.

    Raises
    ------
    TypeError
        A bound is neither a number nor a pdarray, or ``dtype`` is not float64.
    ValueError
        ``axis`` with scalar bounds.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.linspace(0, 1, 5).tolist()
    [0.0, 0.25, 0.5, 0.75, 1.0]
    """
    n = _size(num if length is None else length, "num")
    arrays = isinstance(start, pdarray) or isinstance(stop, pdarray)
    for name, v in (("start", start), ("stop", stop)):
        if not (is_scalar(v) or isinstance(v, pdarray)) or isinstance(v, (builtins.bool, np.bool_)):
            raise TypeError(f"{name}: expected a number or a pdarray, got {type(v).__name__}")
    if dtype is not None and _dtype(dtype) != float64:
        raise TypeError(f"dtype: must be None or float64, got {dtype!r}")
    if not isinstance(axis, (builtins.int, np.integer)) or isinstance(axis, builtins.bool):
        raise TypeError(f"axis: expected an int, got {type(axis).__name__}")
    if arrays:
        return _linspace_arrays(start, stop, n, endpoint, builtins.int(axis))
    if axis != 0:
        raise ValueError("axis: should not be supplied when start and stop are scalars")
    endpoint = True if endpoint is None else builtins.bool(endpoint)
    div = (n - 1) if endpoint else n
    lo, hi = builtins.float(start), builtins.float(stop)  # type: ignore[arg-type]  # scalars: pdarrays went above
    step = (hi - lo) / div if div > 0 else 0.0
    return pdarray(_atoll.linspace(n, lo, step, hi, endpoint))


def _linspace_arrays(start: Any, stop: Any, n: int, endpoint: bool | None, axis: int) -> pdarray:  # noqa: ANN401 (bounds)
    """``linspace`` of pdarray bounds, of shape ``(n,) + b`` with the new axis at ``axis``.

    NumPy's values: ``start + i * step``, the last row ``stop`` exactly when ``endpoint``.
    """
    start, stop = (v.astype(float64) if isinstance(v, pdarray) else builtins.float(v) for v in (start, stop))
    b = _nd.broadcast_shapes(*(v.shape if isinstance(v, pdarray) else () for v in (start, stop)))
    ax = _nd.normalize_axis(axis, len(b) + 1)
    endpoint = True if endpoint is None else builtins.bool(endpoint)
    div = (n - 1) if endpoint else n
    i = arange(n).astype(float64).reshape((n,) + (1,) * len(b))
    delta = stop - start
    y = i * (delta / div) + start if div > 0 else i * delta + start
    if endpoint and n > 1:
        y = where(i == n - 1, stop, y)
    y = _nd.broadcast_to(y, (n,) + b)._materialize()
    out: pdarray = y if ax == 0 else _nd.moveaxis(y, 0, ax)._materialize()
    return out


def logspace(
    start: float | pdarray,
    stop: float | pdarray,
    num: int = 50,
    base: float = 10.0,
    endpoint: bool = True,
    dtype: Any = float64,  # noqa: ANN401 (float64)
    axis: int = 0,
) -> pdarray:
    """``base ** linspace(start, stop, num)`` (float64).

    Parameters
    ----------
    start, stop : number or pdarray
        The exponents' bounds (pdarray bounds as in :func:`linspace`).
    num : int, default 50
        The number of values.
    base : float, default 10.0
        The base.
    endpoint : bool, default True
        Whether ``stop`` is the last exponent.
    dtype : dtype, default float64
        Arkouda's argument; the values are float64.
    axis : int, default 0
        As :func:`linspace`'s.

    Returns
    -------
    pdarray
        The float64 values.

    Raises
    ------
    ValueError
        ``base`` is not positive.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.logspace(0, 2, 3).tolist()
    [1.0, 10.0, 100.0]
    """
    if base <= 0:
        raise ValueError("base: must be positive")
    out: pdarray = base ** linspace(start, stop, num, endpoint=endpoint, axis=axis)
    return out


def _random_shape(size: int | tuple[int, ...]) -> tuple[int, tuple[int, ...] | None]:
    """A random constructor's ``size``: ``(n, shape)``.

    The number of values and the shape of a multi-dimensional ``size`` (a tuple of two or more
    ints; None for an int or a 1-tuple).
    """
    if isinstance(size, (tuple, list)) and len(size) != 1:
        shape = _nd.check_shape(size, "size")
        return _nd.prod(shape), shape
    return _size(size), None


def _shaped(a: pdarray, shape: tuple[int, ...] | None) -> pdarray:
    """``a`` (flat values) given the shape ``shape`` (unchanged when it is None)."""
    out: pdarray = a if shape is None else _nd.with_shape(a, shape)
    return out


def randint(
    low: float,
    high: float,
    size: int | tuple[int, ...] = 1,
    dtype: Any = int64,  # noqa: ANN401 (a numeric dtype-like)
    seed: int | None = None,
) -> pdarray:
    """``size`` random values in ``[low, high)``.

    The same ``seed`` gives the same values on any number of locales and on both backends.

    Parameters
    ----------
    low, high : int or float
        The bounds (integer values for the integer dtypes).
    size : int or tuple of int, default 1
        The number of values, or a shape.
    dtype : dtype, default int64
        int64, uint64, uint8, float64 or bool.
    seed : int, optional
        Makes the values reproducible.

    Returns
    -------
    pdarray
        The values.

    Raises
    ------
    TypeError
        A bound is not a number (an integer one for the integer dtypes).
    ValueError
        ``high <= low``, or bounds outside ``dtype``'s range.

    Examples
    --------
    >>> import atoll as ak
    >>> import numpy as np
    >>> a = ak.randint(0, 10, 5, seed=1)
    >>> a.size, bool(((a >= 0) & (a < 10)).all()), (ak.randint(0, 10, 5, seed=1) == a).all()
    (5, True, np.True_)
    """
    n, shape = _random_shape(size)
    if shape is not None:
        return _shaped(randint(low, high, n, dtype, seed), shape)
    d = _dtype(dtype)
    s = _seed(seed)
    if d == float64:
        for name, v in (("low", low), ("high", high)):
            if not is_scalar(v) or isinstance(v, (builtins.bool, np.bool_)):
                raise TypeError(f"{name}: expected a number, got {type(v).__name__}")
        if high <= low:
            raise ValueError(f"high: must be greater than low, got low={low}, high={high}")
        return uniform(n, low, high, seed=s)
    if d == bool_:
        lo, hi = builtins.max(builtins.int(low), 0), builtins.min(builtins.int(high), 2)
        if hi <= lo:
            raise ValueError(f"high: must be greater than low for bool values, got low={low}, high={high}")
        flags: pdarray = (randint(lo, hi, n, int64, s) != 0)._materialize()
        return flags
    for name, v in (("low", low), ("high", high)):
        if isinstance(v, (builtins.bool, np.bool_)) or not isinstance(
            v, (builtins.int, np.integer, builtins.float, np.floating)
        ):
            raise TypeError(f"{name}: expected an int, got {type(v).__name__}")
        if isinstance(v, (builtins.float, np.floating)) and not builtins.float(v).is_integer():
            raise TypeError(f"{name}: expected an integer value, got {v!r}")
    lo_i, hi_i = builtins.int(low), builtins.int(high)
    return _randint_ints(n, lo_i, hi_i, d, s)


def _randint_ints(n: int, low: int, high: int, d: np.dtype[Any], s: Any) -> pdarray:  # noqa: ANN401 (a seed)
    """``randint`` of an integer dtype ``d``: ``n`` values in ``[low, high)`` from seed ``s``."""
    if high <= low:
        raise ValueError(f"high: must be greater than low, got low={low}, high={high}")
    if d == uint64 and 0 <= low and high <= (1 << 64):
        return _randint_u64(n, low, high, s)
    if d == uint8 and (low < 0 or high > 256):
        raise ValueError(f"low/high: out of bounds for uint8, got low={low}, high={high}")
    if d == uint64 or high > (1 << 63) or low < -(1 << 63):
        # Arkouda's leniency (its server takes the bounds as text, whatever their size): bounds
        # outside the dtype's range give the draws of [low, high) modulo 2**64, where NumPy
        # raises ValueError.
        span = builtins.min(high - low, 1 << 64)
        off = _randint_u64(n, 0, span, s)
        wrapped: pdarray = (off + np.uint64(low % (1 << 64))).astype(d)._materialize()
        return wrapped
    if low < -(1 << 63) or high > (1 << 63):
        raise ValueError(f"low/high: out of bounds for int64, got low={low}, high={high}")
    hi = high - (1 << 64) if high == (1 << 63) else high  # the span wraps exactly in the kernel
    a = pdarray(_atoll.randint(n, low, hi, s))
    out: pdarray = a if d == int64 else a.astype(d)._materialize()
    return out


def _randint_u64(n: int, low: int, high: int, seed: Any) -> pdarray:  # noqa: ANN401 (a seed)
    """uint64 values in ``[low, high)`` (the span may be up to 2**64)."""
    span = high - low
    out: pdarray
    if span <= (1 << 63):
        off = pdarray(_atoll.randint(n, 0, span - (1 << 64) if span == (1 << 63) else span, seed))
        out = (off.astype(uint64) + np.uint64(low))._materialize()
        return out
    # Spans above 2**63: 64-bit words (two 32-bit draws), redrawn where they are >= span.

    def words(k: int) -> pdarray:
        hi32 = pdarray(_atoll.randint(n, 0, 1 << 32, stream_key(seed, 2 * k)))
        lo32 = pdarray(_atoll.randint(n, 0, 1 << 32, stream_key(seed, 2 * k + 1)))
        word: pdarray = ((hi32.astype(uint64) << np.uint64(32)) | lo32.astype(uint64))._materialize()
        return word

    w = words(0)
    k = 1
    while span < (1 << 64):
        bad = w >= np.uint64(span)
        if not builtins.bool(bad.any()):
            break
        w = where(bad, words(k), w)._materialize()
        k += 1
    out = (w + np.uint64(low))._materialize()
    return out


def uniform(size: int | tuple[int, ...], low: float = 0.0, high: float = 1.0, seed: int | None = None) -> pdarray:
    """``size`` random float64 values in ``[low, high)``, reproducible with ``seed``.

    Parameters
    ----------
    size : int or tuple of int
        The number of values, or a shape.
    low, high : float
        The bounds.
    seed : int, optional
        Makes the values reproducible.

    Returns
    -------
    pdarray
        The float64 values.

    Raises
    ------
    TypeError
        A bound is not a number.

    Examples
    --------
    >>> import atoll as ak
    >>> u = ak.uniform(4, 2.0, 3.0, seed=7)
    >>> u.shape, bool(((u >= 2.0) & (u < 3.0)).all())
    ((4,), True)
    """
    n, shape = _random_shape(size)
    for name, v in (("low", low), ("high", high)):
        if not is_scalar(v):
            raise TypeError(f"{name}: expected a number, got {type(v).__name__}")
    return _shaped(pdarray(_atoll.uniform(n, builtins.float(low), builtins.float(high), _seed(seed))), shape)


def standard_normal(size: int | tuple[int, ...], seed: int | None = None) -> pdarray:
    """``size`` draws from the standard normal distribution, reproducible with ``seed``.

    Parameters
    ----------
    size : int or tuple of int
        The number of values, or a shape.
    seed : int, optional
        Makes the values reproducible.

    Returns
    -------
    pdarray
        The float64 draws.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.standard_normal((2, 3), seed=1).shape
    (2, 3)
    """
    n, shape = _random_shape(size)
    return _shaped(pdarray(_atoll.standard_normal(n, _seed(seed))), shape)


# The dtype spellings that ``from_series`` reads as text (Strings), as a Series' dtype or as ``dtype=``.
_SERIES_TEXT_DTYPES = frozenset({"object", "str", "string", "string[python]", "string[pyarrow]", "str_", "<U0"})
_SERIES_NUMERIC_DTYPES = frozenset({"int64", "uint64", "uint8", "float64", "bool"})


def _series_dtype_name(dtype: object) -> str:
    """The name by which ``from_series`` classifies a dtype (a type, a NumPy or pandas dtype, a string)."""
    if dtype is str or dtype is np.str_:
        return "str"
    if isinstance(dtype, str):
        return dtype
    if isinstance(dtype, type) and issubclass(dtype, (bool, np.bool_)):
        return "bool"
    if loaded("pandas") and isinstance(dtype, pd.StringDtype):
        return "string"
    try:
        np_dtype: np.dtype[Any] = np.dtype(dtype)  # type: ignore[call-overload]  # NumPy reads any object
    except TypeError:
        return str(dtype)
    return "str" if np_dtype.kind == "U" else np_dtype.name


def from_series(series: Any, dtype: object = None) -> Any:  # noqa: ANN401 (a pandas Series; a pdarray or Strings)
    """A pdarray (or Strings) of a pandas Series' values, as Arkouda's ``from_series``.

    Parameters
    ----------
    series : pandas.Series
        The values.
    dtype : dtype or str, optional
        Read the values as this dtype instead of the Series'.

    Returns
    -------
    pdarray or Strings
        Text (dtype ``object``, ``str``, ``string``, ``string[python]`` or
        ``string[pyarrow]``) gives Strings of each value's ``str``; datetimes and timedeltas of
        any resolution give int64 nanoseconds; int64, uint64, uint8, float64 and bool give a
        pdarray of that dtype.

    Raises
    ------
    TypeError
        ``series`` is not a pandas Series.
    ValueError
        Another dtype.

    Examples
    --------
    >>> import atoll as ak
    >>> import pandas as pd
    >>> ak.from_series(pd.Series([1, 2, 3]))
    array([1 2 3])
    >>> ak.from_series(pd.Series([1, 2, 3]), dtype="string")
    Strings(['1', '2', '3'])
    """
    if not (loaded("pandas") and isinstance(series, pd.Series)):
        raise TypeError(f"series: expected a pandas Series, got {type(series).__name__}")
    name = _series_dtype_name(series.dtype if dtype is None else dtype)
    if name in _SERIES_TEXT_DTYPES:
        return array([str(x) for x in series.to_numpy(dtype=object)])
    v = series.to_numpy()
    if dtype is None and v.dtype.kind in "mM":
        unit = "datetime64[ns]" if v.dtype.kind == "M" else "timedelta64[ns]"
        return array(v.astype(unit).view(np.int64))
    if name not in _SERIES_NUMERIC_DTYPES:
        raise ValueError(
            f"from_series: unsupported dtype {name!r} (expected int64, uint64, uint8, float64, bool, "
            "a text dtype, datetime64 or timedelta64)"
        )
    return array(v, dtype=name)


def scalar_array(value: object, dtype: Any = None) -> pdarray:  # noqa: ANN401 (a dtype-like)
    """A pdarray of one element.

    Parameters
    ----------
    value : scalar
        The element.
    dtype : dtype, optional
        Its dtype (else ``value``'s).

    Returns
    -------
    pdarray
        The one-element array.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.scalar_array(5)
    array([5])
    """
    out: pdarray = full(1, value, dtype)
    return out
