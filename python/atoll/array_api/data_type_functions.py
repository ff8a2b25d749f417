"""The data type functions of the Array API namespace (NumPy's rules for NumPy's dtypes)."""

import numpy as np

from . import _dtypes
from .array_object import Array, _wrap

__all__ = ["astype", "can_cast", "finfo", "iinfo", "isdtype", "result_type"]


def _dtype_of(x):
    return x.dtype if isinstance(x, Array) else np.dtype(x)


def astype(x, dtype, /, *, copy=True):
    """``x`` converted to ``dtype`` (``x`` itself when it has that dtype and ``copy`` is False)."""
    if not copy and np.dtype(dtype) == x.dtype:
        return x
    return _wrap(x._array.astype(dtype))


def can_cast(from_, to, /):
    """Whether ``from_`` (an Array or a dtype) casts to ``to`` under the promotion rules."""
    return bool(np.can_cast(_dtype_of(from_), np.dtype(to)))


def finfo(type, /):
    """Machine limits of a floating dtype (NumPy's ``finfo``)."""
    return np.finfo(_dtype_of(type))


def iinfo(type, /):
    """Machine limits of an integer dtype (NumPy's ``iinfo``)."""
    return np.iinfo(_dtype_of(type))


_KINDS = {
    "bool": _dtypes._boolean_dtypes,
    "signed integer": _dtypes._signed_integer_dtypes,
    "unsigned integer": _dtypes._unsigned_integer_dtypes,
    "integral": _dtypes._integer_dtypes,
    "real floating": _dtypes._real_floating_dtypes,
    "complex floating": _dtypes._complex_floating_dtypes,
    "numeric": _dtypes._numeric_dtypes,
}


def isdtype(dtype, kind):
    """Whether ``dtype`` is of ``kind``: a dtype, a kind name (``"bool"``, ``"signed integer"``,
    ``"unsigned integer"``, ``"integral"``, ``"real floating"``, ``"complex floating"``,
    ``"numeric"``) or a tuple of them."""
    if isinstance(kind, tuple):
        return any(isdtype(dtype, k) for k in kind)
    d = np.dtype(dtype)
    if isinstance(kind, str):
        if kind not in _KINDS:
            raise ValueError(f"isdtype: unknown kind {kind!r} (one of {', '.join(map(repr, _KINDS))})")
        return any(d == np.dtype(t) for t in _KINDS[kind])
    return d == np.dtype(kind)


def result_type(*arrays_and_dtypes):
    """The dtype the promotion rules give for the Arrays and dtypes."""
    return np.result_type(*(_dtype_of(x) for x in arrays_and_dtypes))
