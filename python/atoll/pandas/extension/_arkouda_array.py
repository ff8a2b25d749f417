"""``ArkoudaArray``: a pandas ExtensionArray over a numeric or bool ``pdarray``.

>>> import atoll as ak
>>> import pandas as pd
>>> from atoll.pandas.extension import ArkoudaArray
>>> a = ArkoudaArray(ak.array([1, 2, 3]))
>>> s = pd.Series(a)
>>> s.dtype
ArkoudaInt64Dtype('int64')
>>> (s + 1).to_numpy().tolist()
[2, 3, 4]
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any, cast

import numpy as np
import pandas as pd  # type: ignore[import-untyped]  # pandas has no stubs in the environment

from ...numpy.numeric import isnan as ak_isnan
from ...numpy.pdarrayclass import pdarray
from ...numpy.pdarraycreation import array as ak_array
from ..categorical import Categorical
from ._arkouda_extension_array import ArkoudaExtensionArray, _astype_target, _register, _to_distributed
from ._dtypes import ArkoudaBigintDtype, _ArkoudaBaseDtype, _dtype_of_values

__all__ = ["ArkoudaArray"]


def _list_key(key: list[Any]) -> pdarray:
    """A list indexer as a distributed array: all bools (a mask) or all ints."""
    kinds = {
        bool if isinstance(k, (bool, np.bool_)) else int if isinstance(k, (int, np.integer)) else None for k in key
    }
    if None in kinds:
        bad = next(k for k in key if not isinstance(k, (bool, np.bool_, int, np.integer)))
        raise TypeError(f"Unsupported list index type: {type(bad).__name__}")
    if len(kinds) > 1:
        raise NotImplementedError("Mixed dtypes are not supported in a list indexer (bools and ints)")
    return cast("pdarray", ak_array(np.array(key, dtype=bool if bool in kinds else np.int64)))


def _array_key(key: Any) -> Any:  # noqa: ANN401 (any indexer; a pdarray, or the key itself)
    """An indexer that pandas or a user passes, as what a distributed array takes.

    It is a ``pdarray`` for arrays and lists, the key itself for a scalar or a slice.
    """
    if isinstance(key, ArkoudaExtensionArray):
        return key._data
    if isinstance(key, (pd.api.extensions.ExtensionArray, pd.Series, pd.Index)):
        key = np.asarray(key)
    if isinstance(key, np.ndarray):
        if key.dtype == bool:
            return ak_array(key)
        if key.dtype.kind == "i":
            return ak_array(key.astype(np.int64))
        if key.dtype.kind == "u":
            return ak_array(key.astype(np.uint64))
        if key.size == 0:
            return ak_array(np.empty(0, dtype=np.int64))
        raise TypeError(f"Unsupported NumPy index type {key.dtype}")
    if isinstance(key, list):
        if not key:
            return ak_array(np.empty(0, dtype=np.int64))
        return _list_key(key)
    return key


def _is_scalar_key(key: object) -> bool:
    """Whether ``key`` is one integer position (not a bool)."""
    return isinstance(key, (int, np.integer)) and not isinstance(key, (bool, np.bool_))


def _is_empty_key(key: object) -> bool:
    """Whether ``key`` is an empty array or sequence (not a string)."""
    if isinstance(key, (str, bytes)):
        return False
    if isinstance(key, (pdarray, np.ndarray)):
        return key.size == 0
    if isinstance(key, Sequence):
        return len(key) == 0
    return False


class ArkoudaArray(ArkoudaExtensionArray):
    """A pandas ExtensionArray over a 1-D ``pdarray``.

    The values are int64, uint64, uint8, float64, bool or bigint.

    Parameters
    ----------
    data : pdarray, numpy.ndarray, list, tuple or ArkoudaArray
        The values.
    dtype : dtype-like, optional
        The values' dtype (cast to it where given).
    copy : bool, default False
        Whether a ``pdarray`` is copied.

    Raises
    ------
    TypeError
        ``data`` is of another kind.
    ValueError
        The values are not 1-dimensional.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.pandas.extension import ArkoudaArray
    >>> ArkoudaArray([1, 2, 3], dtype="float64")
    ArkoudaArray([1. 2. 3.])
    """

    default_fill_value: Any = -1

    def __init__(self, data: Any, dtype: Any = None, copy: bool = False) -> None:  # noqa: ANN401 (array-like; dtype-like)
        if isinstance(data, ArkoudaArray):
            data = data._data
        if isinstance(data, (list, tuple)):
            data = ak_array(np.asarray(data), dtype=dtype)
        elif isinstance(data, np.ndarray):
            data = ak_array(data, dtype=dtype)
        elif not isinstance(data, pdarray):
            raise TypeError(f"Expected arkouda.pdarray, ndarray, or ArkoudaArray, got {type(data).__name__}")
        elif dtype is not None or copy:
            data = ak_array(data, dtype=dtype, copy=copy)
        if data.ndim != 1:
            raise ValueError(f"ArkoudaArray must be 1-dimensional, got shape {data.shape}")
        self._data = data

    @classmethod
    def _from_sequence(
        cls,
        scalars: Any,  # noqa: ANN401 (a sequence, a NumPy array or a distributed array)
        dtype: object = None,
        copy: bool = False,
    ) -> ArkoudaArray:
        """The ``ArkoudaArray`` of ``scalars`` (a ``Categorical``'s codes, where numeric)."""
        numeric = dtype is None or getattr(_astype_target(dtype), "kind", "") in ("i", "u", "f", "b")
        if isinstance(scalars, Categorical) and numeric:
            codes = scalars.codes
            return cls(codes if dtype is None else codes.astype(_astype_target(dtype)))
        data = _to_distributed(scalars, dtype)
        if not isinstance(data, pdarray):
            raise TypeError(f"ArkoudaArray holds a pdarray, not {type(data).__name__}")
        return cls(data.copy() if copy and data is scalars else data)

    @property
    def dtype(self) -> _ArkoudaBaseDtype:
        """The Arkouda dtype of the values."""
        return _dtype_of_values(self._data.dtype)

    # ---- indexing ------------------------------------------------------------------------

    def __getitem__(self, key: Any) -> Any:  # noqa: ANN401 (any indexer; a scalar or an ArkoudaArray)
        if isinstance(key, tuple) and len(key) == 1:
            key = key[0]
        scalar = _is_scalar_key(key)
        if isinstance(key, list) and not key:
            return type(self)(ak_array(np.empty(0), dtype=self._data.dtype))
        out = self._data[_array_key(key)]
        return out if scalar else type(self)(out)

    def __setitem__(self, key: Any, value: Any) -> None:  # noqa: ANN401 (any indexer; scalars or arrays)
        if isinstance(key, list) and key:
            key = _list_key(key)
            if key.dtype == bool and len(key) != len(self):
                raise IndexError(f"Boolean indexer has wrong length: {len(key)} instead of {len(self)}")
        if _is_empty_key(key):
            return
        key = _array_key(key)
        if isinstance(value, ArkoudaArray):
            value = value._data
        elif not isinstance(value, pdarray) and not np.isscalar(value):
            value = ak_array(np.asarray(value))
        self._data[key] = value

    # ---- operators -------------------------------------------------------------------------

    def _coerce_other_for_binop(self, other: object) -> tuple[Any, str]:
        """``other`` as an operand of the values, and its kind.

        The kind is ``"pdarray"`` for arrays and lists, ``"scalar"``, or ``"notimpl"`` (with
        None) where no operation is defined.
        """
        if isinstance(other, ArkoudaArray):
            return other._data, "pdarray"
        if isinstance(other, pdarray):
            return other, "pdarray"
        if np.isscalar(other):
            return other, "scalar"
        if isinstance(other, (list, tuple, np.ndarray)):
            return ak_array(np.asarray(other)), "pdarray"
        return None, "notimpl"

    def _check_compatible_lengths(self, other: pdarray) -> None:
        """``ValueError`` unless ``other`` has one value or as many as this array."""
        if other.size not in (1, len(self)):
            raise ValueError("Lengths must match for elementwise operation")

    def _binary_op(
        self,
        other: object,
        op: Callable[[Any, Any], Any],
        *,
        reflected: bool = False,
        logical: bool = False,
    ) -> object:
        """``op`` of the values and ``other`` (``op(other, values)`` when ``reflected``).

        A one-value array operand broadcasts. It is ``NotImplemented`` for an unsupported
        operand, or for a logical operator on non-bool values.
        """
        rhs, kind = self._coerce_other_for_binop(other)
        if kind == "notimpl":
            return NotImplemented
        if kind == "pdarray":
            self._check_compatible_lengths(rhs)
            if rhs.size == 1 and len(self) != 1:
                rhs = rhs[0]
        if logical:
            rhs_bool = isinstance(rhs, (bool, np.bool_)) or (isinstance(rhs, pdarray) and rhs.dtype == bool)
            if self._data.dtype != bool or not rhs_bool:
                return NotImplemented
        out = op(rhs, self._data) if reflected else op(self._data, rhs)
        return type(self)(out)

    def _cmp_method(self, other: object, op: Callable[[Any, Any], Any]) -> object:
        """``op`` (a comparison) of the values and ``other``."""
        return self._binary_op(other, op)

    def __invert__(self) -> Any:  # noqa: ANN401 (an ArkoudaArray or NotImplemented)
        if self._data.dtype != bool:
            return NotImplemented
        return type(self)(~self._data)

    def __neg__(self) -> ArkoudaArray:
        return type(self)(-self._data)

    def __pos__(self) -> ArkoudaArray:
        return type(self)(self._data)

    def __abs__(self) -> ArkoudaArray:
        return type(self)(abs(self._data))

    # ---- conversion ------------------------------------------------------------------------

    def astype(self, dtype: Any, copy: bool = True) -> Any:  # noqa: ANN401 (dtype-like; an array of it)
        """The values cast to ``dtype``.

        Parameters
        ----------
        dtype : dtype-like
            A NumPy, pandas or Arkouda dtype (``"ak.category"``, ``str``, ...).
        copy : bool, default True
            Whether the values are copied when the dtype is the same.

        Returns
        -------
        numpy.ndarray or ArkoudaExtensionArray
            A NumPy object array for ``object``, else an Arkouda ExtensionArray (this one
            when the dtype is the same and ``copy`` is False).

        Examples
        --------
        >>> import atoll as ak
        >>> from atoll.pandas.extension import ArkoudaArray
        >>> a = ArkoudaArray(ak.array([1, 2, 2]))
        >>> a.astype("float64")
        ArkoudaArray([1. 2. 2.])
        >>> a.astype(object)
        array([1, 2, 2], dtype=object)
        """
        target = _astype_target(dtype)
        if target == "object":
            return self.to_numpy().astype(object)
        if target is None or str(target) == str(self._data.dtype):
            return type(self)(self._data.copy()) if copy else self
        if target == "category":
            return ArkoudaExtensionArray._from_sequence(self._data, dtype="ak.category")
        if target == "string":
            return ArkoudaExtensionArray._wrap(ak_array(self.to_numpy().astype(str)))
        return ArkoudaExtensionArray._wrap(self._data.astype(target))

    def equals(self, other: object) -> bool:
        """Whether ``other`` is an ``ArkoudaArray`` of the same values.

        Parameters
        ----------
        other : object
            The other array.

        Returns
        -------
        bool
            Whether it is.

        Examples
        --------
        >>> import atoll as ak
        >>> from atoll.pandas.extension import ArkoudaArray
        >>> ArkoudaArray(ak.array([1, 2])).equals(ArkoudaArray(ak.array([1, 2])))
        True
        """
        if not isinstance(other, ArkoudaArray):
            return False
        return bool(self._data.equals(other._data))

    # ---- missing values, reductions ----------------------------------------------------------

    def isna(self) -> np.ndarray[Any, Any]:
        """The NaN positions of float values; no value of another dtype is missing.

        Returns
        -------
        numpy.ndarray
            A bool array, True where a value is missing.

        Examples
        --------
        >>> import atoll as ak
        >>> from atoll.pandas.extension import ArkoudaArray
        >>> ArkoudaArray(ak.array([1.5, float("nan")])).isna()
        array([False,  True])
        """
        if self._data.dtype.kind == "f":
            return ak_isnan(self._data).to_ndarray()
        return np.zeros(len(self), dtype=bool)

    def isnull(self) -> np.ndarray[Any, Any]:
        """The missing values' positions, as ``isna``.

        Returns
        -------
        numpy.ndarray
            A bool array, True where a value is missing.

        Examples
        --------
        >>> import atoll as ak
        >>> from atoll.pandas.extension import ArkoudaArray
        >>> ArkoudaArray(ak.array([1, 2])).isnull()
        array([False, False])
        """
        return self.isna()

    def _reduce(
        self,
        name: str,
        *,
        skipna: bool = True,
        keepdims: bool = False,
        **kwargs: Any,  # noqa: ANN401 (pandas' options; ddof is read)
    ) -> Any:  # noqa: ANN401 (a scalar, or a NumPy array with keepdims)
        """The reduction ``name`` of the values (pandas' protocol)."""
        data = self._data
        ddof = int(kwargs.get("ddof", 1))
        if name == "count":
            return int(len(data) - int(ak_isnan(data).sum())) if data.dtype.kind == "f" else len(data)
        if name == "first":
            if len(data) == 0:
                raise ValueError("Reduction 'first' requires at least one element")
            return data[0]
        if name in ("var", "std"):
            out = getattr(data, name)(ddof=ddof)
        elif name in ("sum", "prod", "min", "max", "mean", "argmin", "argmax"):
            out = getattr(data, name)()
        elif name in ("any", "or"):
            out = data.any()
        elif name in ("all", "and"):
            out = data.all()
        else:
            raise TypeError(f"Unknown reduction '{name}'")
        return np.array([out]) if keepdims else out

    def all(self, axis: int = 0, skipna: bool = True, **kwargs: object) -> bool:
        """Whether every value is true.

        Parameters
        ----------
        axis : int, default 0
            Accepted for pandas' signature (the array has one axis).
        skipna : bool, default True
            Accepted for pandas' signature.
        **kwargs
            Accepted for pandas' signature.

        Returns
        -------
        bool
            Whether every value is true.

        Examples
        --------
        >>> import atoll as ak
        >>> from atoll.pandas.extension import ArkoudaArray
        >>> ArkoudaArray(ak.array([True, False])).all()
        False
        """
        return bool(self._data.all())

    def any(self, axis: int = 0, skipna: bool = True, **kwargs: object) -> bool:
        """Whether some value is true.

        Parameters
        ----------
        axis : int, default 0
            Accepted for pandas' signature (the array has one axis).
        skipna : bool, default True
            Accepted for pandas' signature.
        **kwargs
            Accepted for pandas' signature.

        Returns
        -------
        bool
            Whether some value is true.

        Examples
        --------
        >>> import atoll as ak
        >>> from atoll.pandas.extension import ArkoudaArray
        >>> ArkoudaArray(ak.array([True, False])).any()
        True
        """
        return bool(self._data.any())

    def value_counts(self, dropna: bool = True) -> pd.Series:
        """The count of each distinct value.

        Parameters
        ----------
        dropna : bool, default True
            Whether NaN is left out.

        Returns
        -------
        pandas.Series
            The counts (``ArkoudaArray`` values) on an ``ArkoudaArray`` index of the values.

        Examples
        --------
        >>> import atoll as ak
        >>> from atoll.pandas.extension import ArkoudaArray
        >>> ArkoudaArray(ak.array([1, 2, 2])).value_counts().to_numpy().tolist()
        [1, 2]
        """
        data = self._data
        if dropna and data.dtype.kind == "f":
            data = data[~ak_isnan(data)]
        if len(data) == 0:
            return pd.Series(dtype="int64")
        keys, counts = data.value_counts()
        return pd.Series(ArkoudaArray(counts), index=ArkoudaArray(keys))

    def _values_for_factorize(self) -> tuple[np.ndarray[Any, Any], object]:
        """The values as NumPy's, and the missing value pandas' factorize skips."""
        values = self.to_numpy()
        return values, (np.nan if values.dtype.kind == "f" else -1 if values.dtype.kind in "iu" else None)

    @classmethod
    def _from_factorized(cls, uniques: object, original: object) -> ArkoudaArray:
        """The array of the uniques that ``_values_for_factorize`` gave."""
        return cls._from_sequence(uniques)

    def __repr__(self) -> str:
        return f"ArkoudaArray({self._data})"


def _make_binop(
    op: Callable[[Any, Any], Any], reflected: bool = False, logical: bool = False
) -> Callable[[ArkoudaArray, object], object]:
    """The operator method of ``op`` (``_binary_op`` with these options)."""

    def method(self: ArkoudaArray, other: object) -> object:
        return self._binary_op(other, op, reflected=reflected, logical=logical)

    return method


for _name, _op in (
    ("add", operator.add),
    ("sub", operator.sub),
    ("mul", operator.mul),
    ("truediv", operator.truediv),
    ("floordiv", operator.floordiv),
    ("mod", operator.mod),
    ("pow", operator.pow),
):
    setattr(ArkoudaArray, f"__{_name}__", _make_binop(_op))
    setattr(ArkoudaArray, f"__r{_name}__", _make_binop(_op, reflected=True))
for _name, _op in (
    ("eq", operator.eq),
    ("ne", operator.ne),
    ("lt", operator.lt),
    ("le", operator.le),
    ("gt", operator.gt),
    ("ge", operator.ge),
):
    setattr(ArkoudaArray, f"__{_name}__", _make_binop(_op))
for _name, _op in (("and", operator.and_), ("or", operator.or_), ("xor", operator.xor)):
    setattr(ArkoudaArray, f"__{_name}__", _make_binop(_op, logical=True))
    setattr(ArkoudaArray, f"__r{_name}__", _make_binop(_op, reflected=True, logical=True))
del _name, _op

_register(pdarray, ArkoudaArray)
for _dt in (ArkoudaBigintDtype, *_ArkoudaBaseDtype.__subclasses__()):
    if _dt.name not in ("string", "category"):
        _dt._array_type = ArkoudaArray
del _dt
