"""The data type functions of the Array API namespace (NumPy's rules for NumPy's dtypes)."""

from __future__ import annotations

from typing import Any, Union

import numpy as np
import numpy.typing as npt

from . import _dtypes
from .array_object import Array, _wrap

__all__ = ["astype", "can_cast", "finfo", "iinfo", "isdtype", "result_type"]

# An Array or a dtype (what the functions below read a dtype from).
_ArrayOrDtype = Union[Array, npt.DTypeLike]


def _dtype_of(x: _ArrayOrDtype) -> np.dtype[Any]:
    return x.dtype if isinstance(x, Array) else np.dtype(x)


def astype(x: Array, dtype: npt.DTypeLike, /, *, copy: bool = True) -> Array:
    """``x`` converted to ``dtype``.

    Parameters
    ----------
    x : Array
        The Array to convert.
    dtype : dtype
        The dtype to convert to.
    copy : bool, default True
        False: ``x`` itself when it has that dtype already.

    Returns
    -------
    Array
        The converted values.

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> xp.astype(xp.asarray([1.7, -2.2]), xp.int64).tolist()
    [1, -2]
    """
    if not copy and np.dtype(dtype) == x.dtype:
        return x
    return _wrap(x._array.astype(dtype))


def can_cast(from_: _ArrayOrDtype, to: npt.DTypeLike, /) -> bool:
    """Whether ``from_`` casts to ``to`` under the promotion rules.

    Parameters
    ----------
    from_ : Array or dtype
        The source dtype (an Array's).
    to : dtype
        The target dtype.

    Returns
    -------
    bool
        Whether the cast is safe.

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> xp.can_cast(xp.int32, xp.int64), xp.can_cast(xp.asarray([1.5]), xp.int64)
    (True, False)
    """
    return bool(np.can_cast(_dtype_of(from_), np.dtype(to)))


def finfo(type: _ArrayOrDtype, /) -> np.finfo[Any]:
    """Machine limits of a floating dtype (NumPy's ``finfo``).

    Parameters
    ----------
    type : Array or dtype
        A floating dtype (an Array's).

    Returns
    -------
    numpy.finfo
        Its limits.

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> xp.finfo(xp.float32).bits
    32
    """
    return np.finfo(_dtype_of(type))


def iinfo(type: _ArrayOrDtype, /) -> np.iinfo[Any]:
    """Machine limits of an integer dtype (NumPy's ``iinfo``).

    Parameters
    ----------
    type : Array or dtype
        An integer dtype (an Array's).

    Returns
    -------
    numpy.iinfo
        Its limits.

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> int(xp.iinfo(xp.int8).max)
    127
    """
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


def isdtype(dtype: npt.DTypeLike, kind: npt.DTypeLike | str | tuple[npt.DTypeLike | str, ...]) -> bool:
    """Whether ``dtype`` is of ``kind``.

    Parameters
    ----------
    dtype : dtype
        The dtype to test.
    kind : dtype, str or tuple
        A dtype, a kind name (``"bool"``, ``"signed integer"``, ``"unsigned integer"``,
        ``"integral"``, ``"real floating"``, ``"complex floating"``, ``"numeric"``) or a tuple
        of them.

    Returns
    -------
    bool
        Whether ``dtype`` is of (one of) the kind(s).

    Raises
    ------
    ValueError
        If a kind name is not one of those.

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> xp.isdtype(xp.int8, "integral"), xp.isdtype(xp.float64, ("bool", "real floating"))
    (True, True)
    """
    if isinstance(kind, tuple):
        return any(isdtype(dtype, k) for k in kind)
    d = np.dtype(dtype)
    if isinstance(kind, str):
        if kind not in _KINDS:
            raise ValueError(f"isdtype: unknown kind {kind!r} (one of {', '.join(map(repr, _KINDS))})")
        return any(d == np.dtype(t) for t in _KINDS[kind])
    return d == np.dtype(kind)


def result_type(*arrays_and_dtypes: _ArrayOrDtype) -> np.dtype[Any]:
    """The dtype the promotion rules give for the Arrays and dtypes.

    Parameters
    ----------
    *arrays_and_dtypes : Array or dtype
        The operands.

    Returns
    -------
    numpy.dtype
        The promoted dtype.

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> xp.result_type(xp.asarray([1], dtype=xp.int32), xp.float32)
    dtype('float64')
    """
    return np.result_type(*(_dtype_of(x) for x in arrays_and_dtypes))
