"""Creation of pdarrays (Arkouda's pdarraycreation): from NumPy data, by value, by formula."""

import builtins
import os

import numpy as np

from . import _atoll
from .dtypes import bool_, float64, int64, dtype as _dtype, is_scalar, scalar_dtype, supported
from .pdarrayclass import pdarray, _scalar_value


def _size(size, name="size"):
    if isinstance(size, (builtins.bool, np.bool_)) or not isinstance(size, (builtins.int, np.integer)):
        raise TypeError(f"{name}: expected an int, got {type(size).__name__}")
    if size < 0:
        raise ValueError(f"{name}: negative dimensions are not allowed, got {size}")
    return builtins.int(size)


def _seed(seed):
    if seed is None:
        return builtins.int.from_bytes(os.urandom(8), "little")
    if isinstance(seed, (builtins.bool, np.bool_)) or not isinstance(seed, (builtins.int, np.integer)):
        raise TypeError(f"seed: expected an int, got {type(seed).__name__}")
    return builtins.int(seed) % (1 << 64)


def array(a, dtype=None):
    """A pdarray with a copy of ``a`` (a NumPy array, a list or a pdarray): one bulk copy."""
    if isinstance(a, pdarray):
        return a.astype(a.dtype if dtype is None else dtype)._materialize()
    if _is_strs(a):
        from .strings import from_list

        return from_list(a)
    try:
        x = np.asarray(a)
    except (ValueError, TypeError) as e:
        raise TypeError(f"a: cannot convert to an array: {e}") from None
    if x.ndim != 1:
        raise ValueError(f"a: only 1-D arrays are supported, got {x.ndim} dimensions")
    d = supported(x.dtype) if dtype is None else _dtype(dtype)
    x = np.ascontiguousarray(x, dtype=d)
    return pdarray(_atoll.from_buffer(x.view(np.uint8) if d == bool_ else x, d.name))


def _is_strs(a):
    """A list/tuple of str or a NumPy array of str: ``ak.array`` makes Strings of it."""
    if isinstance(a, np.ndarray):
        return a.dtype.kind == "U"
    return isinstance(a, (list, tuple)) and len(a) > 0 and all(isinstance(x, str) for x in a)


def full(size, fill_value, dtype=None):
    """An array of ``size`` elements equal to ``fill_value``; as in Arkouda, ``dtype=None`` (the
    default) takes the dtype of ``fill_value`` (``full(5, 7)`` is int64, ``full(5, 7.0)``
    float64)."""
    n = _size(size)
    if not is_scalar(fill_value):
        raise TypeError(f"fill_value: expected a scalar, got {type(fill_value).__name__}")
    d = scalar_dtype(fill_value) if dtype is None else _dtype(dtype)
    return pdarray(_atoll.full(n, d.name, _scalar_value(fill_value, d)))


def zeros(size, dtype=float64):
    """An array of ``size`` zeros."""
    return full(size, 0, dtype)


def ones(size, dtype=float64):
    """An array of ``size`` ones."""
    return full(size, 1, dtype)


def _like(pda):
    if not isinstance(pda, pdarray):
        raise TypeError(f"pda: expected a pdarray, got {type(pda).__name__}")
    return pda


def zeros_like(pda):
    return zeros(_like(pda).size, pda.dtype)


def ones_like(pda):
    return ones(_like(pda).size, pda.dtype)


def full_like(pda, fill_value):
    return full(_like(pda).size, fill_value, pda.dtype)


def arange(*args, dtype=int64):
    """``arange(stop)``, ``arange(start, stop)``, ``arange(start, stop, stride)``: int64."""
    if not 1 <= len(args) <= 3:
        raise TypeError(f"arange: expected 1 to 3 arguments, got {len(args)}")
    for name, v in zip(("start", "stop", "stride"), args if len(args) > 1 else (0,) + args):
        if isinstance(v, (builtins.bool, np.bool_)) or not isinstance(v, (builtins.int, np.integer)):
            raise TypeError(f"{name}: expected an int, got {type(v).__name__}")
    start, stop, stride = (0, args[0], 1) if len(args) == 1 else (args[0], args[1], args[2] if len(args) == 3 else 1)
    if stride == 0:
        raise ZeroDivisionError("stride: division by zero")
    n = len(range(builtins.int(start), builtins.int(stop), builtins.int(stride)))
    a = pdarray(_atoll.arange(n, builtins.int(start), builtins.int(stride)))
    d = _dtype(dtype)
    return a if d == int64 else a.astype(d)._materialize()


def linspace(start, stop, num=50, endpoint=True, dtype=float64, axis=0, *, length=None):
    """``num`` evenly spaced float64 values from ``start`` to ``stop`` (Arkouda's signature;
    ``length`` is the older Arkouda name of ``num``). Only scalar ``start``/``stop`` are
    supported: the pdarray forms would make a 2-D result, and pdarrays are 1-D here."""
    n = _size(num if length is None else length, "num")
    for name, v in (("start", start), ("stop", stop)):
        if not is_scalar(v):
            raise TypeError(
                f"{name}: expected a number (pdarray bounds make a 2-D result, not supported), got {type(v).__name__}"
            )
    if dtype is not None and _dtype(dtype) != float64:
        raise TypeError(f"dtype: must be None or float64, got {dtype!r}")
    if not isinstance(axis, (builtins.int, np.integer)) or isinstance(axis, builtins.bool):
        raise TypeError(f"axis: expected an int, got {type(axis).__name__}")
    if axis != 0:
        raise ValueError("axis: should not be supplied when start and stop are scalars")
    endpoint = True if endpoint is None else builtins.bool(endpoint)
    div = (n - 1) if endpoint else n
    step = (builtins.float(stop) - builtins.float(start)) / div if div > 0 else 0.0
    return pdarray(_atoll.linspace(n, builtins.float(start), step, builtins.float(stop), endpoint))


def randint(low, high, size=1, dtype=int64, seed=None):
    """``size`` random values in ``[low, high)``; the same ``seed`` gives the same array on
    any number of locales and on both backends."""
    n = _size(size)
    d = _dtype(dtype)
    s = _seed(seed)
    if d == float64:
        return uniform(n, low, high, seed=s)
    if d == bool_:
        return randint(0, 2, n, int64, s) != 0
    for name, v in (("low", low), ("high", high)):
        if isinstance(v, (builtins.bool, np.bool_)) or not isinstance(v, (builtins.int, np.integer)):
            raise TypeError(f"{name}: expected an int, got {type(v).__name__}")
    if high <= low:
        raise ValueError(f"high: must be greater than low, got low={low}, high={high}")
    a = pdarray(_atoll.randint(n, builtins.int(low), builtins.int(high), s))
    return a if d == int64 else a.astype(d)._materialize()


def uniform(size, low=0.0, high=1.0, seed=None):
    """``size`` random float64 values in ``[low, high)`` (reproducible with ``seed``)."""
    n = _size(size)
    for name, v in (("low", low), ("high", high)):
        if not is_scalar(v):
            raise TypeError(f"{name}: expected a number, got {type(v).__name__}")
    return pdarray(_atoll.uniform(n, builtins.float(low), builtins.float(high), _seed(seed)))


def standard_normal(size, seed=None):
    """``size`` draws from the standard normal distribution (reproducible with ``seed``)."""
    n = _size(size)
    return pdarray(_atoll.standard_normal(n, _seed(seed)))
