"""``ArkoudaExtensionArray``, the base of the pandas ExtensionArrays that hold a distributed array.

The array (``pdarray``, ``Strings`` or ``Categorical``) is the wrapper's ``_data``.

pandas keeps such an array in a Series, Index or DataFrame column without collecting it; the
operations pandas asks of an ExtensionArray (length, take, concatenation, factorize, argsort,
copy, conversion to NumPy) run on the distributed values. The subclasses (``ArkoudaArray``,
``ArkoudaStringArray``, ``ArkoudaCategorical``) add indexing, comparison and the dtype.

>>> import atoll as ak
>>> from atoll.pandas.extension import ArkoudaExtensionArray
>>> ea = ArkoudaExtensionArray._from_sequence(ak.array([3, 1, 3]))
>>> type(ea).__name__, len(ea)
('ArkoudaArray', 3)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, cast

import numpy as np
import pandas as pd  # type: ignore[import-untyped]  # pandas has no stubs in the environment
from pandas.api.extensions import (  # type: ignore[import-untyped]  # pandas has no stubs in the environment
    ExtensionArray,
    ExtensionDtype,
)

from ...numpy.numeric import isnan as ak_isnan, where as ak_where
from ...numpy.pdarrayclass import pdarray
from ...numpy.pdarraycreation import arange, array as ak_array, full
from ...numpy.pdarraymanipulation import concatenate as ak_concatenate
from ...numpy.sorting import argsort as ak_argsort
from ...numpy.strings import Strings
from ..categorical import Categorical
from ..groupbyclass import GroupBy
from ._dtypes import ArkoudaDtype, _ArkoudaBaseDtype

__all__ = ["ArkoudaExtensionArray"]

# (distributed type, ExtensionArray subclass), filled by the subclasses' modules: the class
# that ``_from_sequence`` of the base picks for a value.
_WRAPPERS: list[tuple[type, type[ArkoudaExtensionArray]]] = []


def _register(kind: type, cls: type[ArkoudaExtensionArray]) -> None:
    """Make ``cls`` the ExtensionArray class that ``_from_sequence`` picks for a ``kind``."""
    _WRAPPERS.append((kind, cls))


def _ensure_numpy(x: object) -> np.ndarray[Any, Any]:
    """``x`` as a NumPy array (collecting a distributed array)."""
    if hasattr(x, "to_ndarray"):
        return cast("np.ndarray[Any, Any]", x.to_ndarray())
    return np.asarray(x)


def _is_float(data: object) -> bool:
    """Whether ``data`` is a float ``pdarray``."""
    return isinstance(data, pdarray) and data.dtype.kind == "f"


def _ak_dtype_arg(dtype: object) -> object:
    """The dtype argument of ``ak.array`` that a pandas/Arkouda/NumPy dtype stands for.

    ``None`` stands for "infer".
    """
    if dtype is None or dtype == "ak" or isinstance(dtype, ArkoudaDtype):
        return None
    if isinstance(dtype, _ArkoudaBaseDtype):
        if dtype.name in ("bigint", "string", "category"):
            return {"bigint": "bigint", "string": "str_", "category": "category"}[dtype.name]
        return dtype.numpy_dtype
    if isinstance(dtype, str):
        try:
            return _ak_dtype_arg(_ArkoudaBaseDtype.construct_from_string(dtype))
        except TypeError:
            return dtype
    return dtype


def _to_distributed(scalars: Any, dtype: object = None) -> pdarray | Strings | Categorical:  # noqa: ANN401 (any sequence)
    """A ``pdarray``, ``Strings`` or ``Categorical`` of ``scalars`` with ``dtype``."""
    want = _ak_dtype_arg(dtype)
    if isinstance(scalars, ArkoudaExtensionArray):
        scalars = scalars._data
    if want == "category":
        if isinstance(scalars, Categorical):
            return scalars
        if not isinstance(scalars, Strings):
            scalars = ak_array(np.asarray(_ensure_numpy(scalars), dtype=str))
        return Categorical(scalars)
    if isinstance(scalars, Categorical):
        if want is None:
            return scalars
        scalars = scalars.to_strings()
    if isinstance(scalars, (pdarray, Strings)):
        if want is None:
            return scalars
        if want == "str_":
            return scalars if isinstance(scalars, Strings) else ak_array(scalars.to_ndarray().astype(str))
        return scalars.astype(want)
    if not isinstance(scalars, np.ndarray):
        scalars = list(scalars)
        if want is None and scalars and all(isinstance(v, str) for v in scalars):
            want = "str_"
    return cast("pdarray | Strings", ak_array(scalars, dtype=want))


def _astype_target(dtype: Any) -> object:  # noqa: ANN401 (any dtype-like)
    """What ``astype(dtype)`` makes.

    It is ``"object"`` (a NumPy object array), ``"string"``, ``"category"``, or the dtype
    argument of a cast of the values.
    """
    if dtype in (object, "object", "O") or (isinstance(dtype, np.dtype) and dtype.kind == "O"):
        return "object"
    if isinstance(dtype, ArkoudaDtype) or dtype == "ak":
        return None
    if isinstance(dtype, (pd.StringDtype, pd.CategoricalDtype)):
        return "string" if isinstance(dtype, pd.StringDtype) else "category"
    if isinstance(dtype, str) and dtype.strip().lower().startswith(("ak", "arkouda")):
        dtype = _ArkoudaBaseDtype.construct_from_string(dtype)
    if isinstance(dtype, _ArkoudaBaseDtype):
        if dtype.name in ("string", "category", "bigint"):
            return dtype.name
        return dtype.numpy_dtype
    if isinstance(dtype, ExtensionDtype):
        if getattr(dtype, "numpy_dtype", None) is None:
            raise TypeError(f"Cannot cast Arkouda values to {dtype}")
        dtype = dtype.numpy_dtype
    if dtype in ("category",):
        return "category"
    if dtype in (str, np.str_, "str", "str_", "string", "U") or (isinstance(dtype, np.dtype) and dtype.kind == "U"):
        return "string"
    if dtype == "bigint":
        return "bigint"
    return np.dtype(dtype)


class ArkoudaExtensionArray(ExtensionArray):  # type: ignore[misc]  # ExtensionArray is Any without pandas' stubs
    """The base of the Arkouda ExtensionArrays; ``_data`` is the distributed array.

    Parameters
    ----------
    data : pdarray, Strings or Categorical
        The distributed array the wrapper holds (not copied).

    Examples
    --------
    >>> import atoll as ak
    >>> import pandas as pd
    >>> from atoll.pandas.extension import ArkoudaArray
    >>> pd.Series(ArkoudaArray(ak.array([1, 2]))).dtype
    ArkoudaInt64Dtype('int64')
    """

    default_fill_value: Any = -1
    _data: Any

    def __init__(self, data: Any) -> None:  # noqa: ANN401 (a pdarray, Strings or Categorical)
        self._data = data

    def __len__(self) -> int:
        return len(self._data)

    @classmethod
    def _from_data(cls, data: object) -> ArkoudaExtensionArray:
        """A wrapper of this class over ``data``."""
        return cls(data)

    @classmethod
    def _wrap(cls, data: object) -> ArkoudaExtensionArray:
        """The ExtensionArray subclass that holds ``data``, holding it."""
        for kind, sub in _WRAPPERS:
            if isinstance(data, kind):
                return sub(data)
        raise TypeError(f"Unsupported Arkouda construction result: {type(data).__name__}")

    @classmethod
    def _from_sequence(
        cls,
        scalars: Any,  # noqa: ANN401 (a sequence, a NumPy array or a distributed array)
        dtype: object = None,
        copy: bool = False,
    ) -> ArkoudaExtensionArray:
        """The Arkouda ExtensionArray of ``scalars``.

        ``scalars`` is a sequence, a NumPy array or a distributed array: a ``pdarray`` makes
        an ``ArkoudaArray``, ``Strings`` an ``ArkoudaStringArray``, a ``Categorical`` an
        ``ArkoudaCategorical``.
        """
        return cls._wrap(_to_distributed(scalars, dtype))

    @classmethod
    def _from_factorized(cls, values: object, original: object) -> ArkoudaExtensionArray:
        """The array of the uniques ``values`` that ``_values_for_factorize`` gave."""
        return cls._from_sequence(values)

    def _values_for_factorize(self) -> tuple[np.ndarray[Any, Any], object]:
        """The values as NumPy's, and NaN, the missing value pandas' factorize skips."""
        return self.to_numpy(), np.nan

    def _cast_pointwise_result(self, values: np.ndarray[Any, Any]) -> object:
        """The result of an elementwise Python function (``map``).

        Numbers and bools, NaN included, go back to an ``ArkoudaArray`` of their own dtype;
        anything else stays the NumPy array pandas made.
        """
        values = np.asarray(values)
        if values.dtype.kind in "iufb":
            return ArkoudaExtensionArray._wrap(ak_array(values))
        return values

    # ---- arithmetic -------------------------------------------------------------------

    def _arith_method(self, other: Any, op: Callable[[Any, Any], Any]) -> Any:  # noqa: ANN401 (an array or a scalar; the wrapper or NotImplemented)
        """``op(self, other)`` where ``other`` is an Arkouda ExtensionArray or a scalar.

        It is ``NotImplemented`` for anything else.
        """
        if isinstance(other, ExtensionArray) and hasattr(other, "_data"):
            other = other._data
            if isinstance(other, Categorical):
                other = other.to_strings()
            elif not isinstance(other, (pdarray, Strings)):
                other = ak_array(_ensure_numpy(other))
        elif not np.isscalar(other):
            return NotImplemented
        return self._from_data(op(self._data, other))

    # ---- copies, concatenation, take ---------------------------------------------------

    def copy(self, deep: bool = True) -> ArkoudaExtensionArray:
        """A new wrapper; with ``deep`` (the default) over a copy of the values.

        Parameters
        ----------
        deep : bool, default True
            Whether the values are copied too.

        Returns
        -------
        ArkoudaExtensionArray
            The new wrapper, of the same class.

        Examples
        --------
        >>> import atoll as ak
        >>> from atoll.pandas.extension import ArkoudaArray
        >>> a = ArkoudaArray(ak.array([3, 1, 3]))
        >>> a.copy()
        ArkoudaArray([3 1 3])
        """
        return type(self)(self._data.copy() if deep else self._data)

    def view(self, dtype: object = None) -> Any:  # noqa: ANN401 (a wrapper, or what astype makes)
        """A new wrapper over the same values.

        Parameters
        ----------
        dtype : dtype-like, optional
            Another dtype makes ``astype(dtype, copy=False)``.

        Returns
        -------
        ArkoudaExtensionArray
            The wrapper (or what ``astype`` makes for another dtype).

        Examples
        --------
        >>> import atoll as ak
        >>> from atoll.pandas.extension import ArkoudaArray
        >>> a = ArkoudaArray(ak.array([3, 1, 3]))
        >>> a.view()
        ArkoudaArray([3 1 3])
        """
        if dtype is not None and str(dtype) != str(self.dtype):
            return self.astype(dtype, copy=False)
        out = type(self).__new__(type(self))
        out._data = self._data
        for name in ("_mask", "_categories", "_codes", "_na_value", "_cache"):
            if hasattr(self, name):
                setattr(out, name, getattr(self, name))
        return out

    @classmethod
    def _concat_same_type(cls, to_concat: Iterable[ArkoudaExtensionArray]) -> ArkoudaExtensionArray:
        """The arrays ``to_concat``, all of this class, end to end."""
        arrays = list(to_concat)
        if not arrays:
            raise ValueError("to_concat must contain at least one array")
        if not all(isinstance(a, cls) for a in arrays) or len({type(a) for a in arrays}) != 1:
            raise ValueError("All items passed to _concat_same_type must be instances of the same class")
        if len(arrays) == 1:
            return arrays[0]
        dtypes = {str(a._data.dtype) for a in arrays if isinstance(a._data, pdarray)}
        if len(dtypes) > 1:
            raise ValueError(f"All pdarrays must have same dtype to concatenate, got {sorted(dtypes)}")
        return type(arrays[0])(ak_concatenate([a._data for a in arrays]))

    def take(
        self,
        indexer: Any,  # noqa: ANN401 (a sequence of ints or an int pdarray)
        fill_value: Any = None,  # noqa: ANN401 (a scalar of the values' kind)
        allow_fill: bool = False,
    ) -> ArkoudaExtensionArray:
        """The values at ``indexer``.

        Parameters
        ----------
        indexer : sequence of int or pdarray
            The positions; negative ones count from the end unless ``allow_fill``.
        fill_value : scalar, optional
            The value at the positions ``-1`` with ``allow_fill`` (the dtype's missing value
            when None).
        allow_fill : bool, default False
            Whether ``-1`` marks a position that gets ``fill_value``.

        Returns
        -------
        ArkoudaExtensionArray
            The values taken, of the same class.

        Raises
        ------
        IndexError
            A position is out of bounds, or a non-empty take from an empty array.
        ValueError
            With ``allow_fill``, a position below ``-1``.

        Examples
        --------
        >>> import atoll as ak
        >>> from atoll.pandas.extension import ArkoudaArray
        >>> a = ArkoudaArray(ak.array([3, 1, 3]))
        >>> a.take([2, 0])
        ArkoudaArray([3 3])
        >>> a.take([0, -1], allow_fill=True, fill_value=9)
        ArkoudaArray([3 9])
        """
        if isinstance(indexer, pdarray):
            idx = indexer if indexer.dtype == np.int64 else indexer.astype(np.int64)
        else:
            idx = ak_array(np.asarray(indexer, dtype=np.int64))
        n = len(self)
        if idx.size == 0:
            return type(self)(self._data[idx])
        if not allow_fill:
            idx = ak_where(idx < 0, idx + n, idx)
            if bool(((idx < 0) | (idx >= n)).any()):
                raise IndexError("indexer out of bounds in take")
            return type(self)(self._data[idx])
        if bool((idx < -1).any()):
            raise ValueError("Invalid value in 'indexer': with allow_fill=True, negative values must be -1")
        missing = idx == -1
        safe = ak_where(missing, 0, idx)
        if bool((safe >= n).any()):
            raise IndexError("indexer out of bounds in take")
        if n == 0:
            raise IndexError("cannot do a non-empty take from an empty axis")
        return self._fill_taken(self._data[safe], missing, fill_value)

    def _fill_taken(self, gathered: Any, missing: pdarray, fill_value: Any) -> ArkoudaExtensionArray:  # noqa: ANN401 (a distributed array; a scalar)
        """``gathered`` with ``fill_value`` where ``missing``."""
        if fill_value is None:
            fill_value = self.default_fill_value
        if gathered.dtype.kind == "u" and fill_value < 0:
            fill_value = 0
        if str(gathered.dtype) == "bigint":
            out = gathered.copy()
            out[missing] = fill_value
            return type(self)(out)
        return type(self)(ak_where(missing, gathered.dtype.type(fill_value), gathered))

    # ---- collection --------------------------------------------------------------------

    def to_numpy(
        self,
        dtype: Any = None,  # noqa: ANN401 (any NumPy dtype-like)
        copy: bool = False,
        na_value: object = None,
    ) -> np.ndarray[Any, Any]:
        """The values as a NumPy array.

        Parameters
        ----------
        dtype : dtype-like, optional
            The array's dtype (the values' own by default).
        copy : bool, default False
            Whether the result is a copy of the collected array.
        na_value : object, optional
            Accepted for pandas' signature; the values are collected as they are.

        Returns
        -------
        numpy.ndarray
            The values.

        Examples
        --------
        >>> import atoll as ak
        >>> from atoll.pandas.extension import ArkoudaArray
        >>> a = ArkoudaArray(ak.array([3, 1, 3]))
        >>> a.to_numpy(dtype="float64")
        array([3., 1., 3.])
        """
        out: np.ndarray[Any, Any] = self._data.to_ndarray()
        if dtype is not None and out.dtype != np.dtype(dtype):
            out = out.astype(dtype)
        return out.copy() if copy else out

    def to_ndarray(self) -> np.ndarray[Any, Any]:
        """The values as a NumPy array.

        Returns
        -------
        numpy.ndarray
            The values.

        Examples
        --------
        >>> import atoll as ak
        >>> from atoll.pandas.extension import ArkoudaArray
        >>> a = ArkoudaArray(ak.array([3, 1, 3]))
        >>> a.to_ndarray()
        array([3, 1, 3])
        """
        return cast("np.ndarray[Any, Any]", self._data.to_ndarray())

    def __array__(self, dtype: Any = None, copy: object = None) -> np.ndarray[Any, Any]:  # noqa: ANN401 (any NumPy dtype-like)
        out = self.to_numpy()
        return out if dtype is None else out.astype(dtype)

    # ---- ordering and factorizing ------------------------------------------------------

    def argsort(
        self,
        *,
        ascending: bool = True,
        kind: str = "quicksort",
        **kwargs: Any,  # noqa: ANN401 (pandas' options; na_position is read)
    ) -> np.ndarray[Any, Any]:
        """The permutation that sorts the values.

        Parameters
        ----------
        ascending : bool, default True
            Whether the order is ascending; descending is the ascending order reversed.
        kind : str, default "quicksort"
            Accepted for pandas' signature; the sort is Atoll's.
        **kwargs
            ``na_position`` ('last', the default, or 'first'): where NaNs go.

        Returns
        -------
        numpy.ndarray
            The permutation, of dtype intp.

        Raises
        ------
        ValueError
            ``na_position`` is neither 'first' nor 'last'.
        TypeError
            The values are of no sortable kind.

        Examples
        --------
        >>> import atoll as ak
        >>> from atoll.pandas.extension import ArkoudaArray
        >>> a = ArkoudaArray(ak.array([3, 1, 3]))
        >>> a.argsort()
        array([1, 0, 2])
        >>> a.argsort(ascending=False)
        array([2, 0, 1])
        """
        na_position = kwargs.pop("na_position", "last")
        if na_position not in ("first", "last"):
            raise ValueError("na_position must be 'first' or 'last'.")
        data = self._data
        if not isinstance(data, (pdarray, Strings, Categorical)):
            raise TypeError(f"Unsupported argsort dtype: {type(data)}")
        # Descending is the ascending order reversed (ties in reverse order too), as Arkouda.
        perm = ak_argsort(data)
        if not ascending:
            perm = perm[::-1]
        if isinstance(data, pdarray) and _is_float(data):
            nan = ak_isnan(data)[perm]
            parts = [perm[~nan], perm[nan]]
            perm = ak_concatenate(parts if na_position == "last" else parts[::-1])
        return perm.to_ndarray().astype(np.intp, copy=False)

    def factorize(self, use_na_sentinel: bool = True) -> tuple[np.ndarray[Any, Any], ArkoudaExtensionArray]:
        """The codes and uniques of the values.

        The uniques are in order of first appearance and each value's code is its position
        among them.

        Parameters
        ----------
        use_na_sentinel : bool, default True
            Whether NaN gets ``-1``; otherwise it gets the code one past the uniques.

        Returns
        -------
        tuple of (numpy.ndarray, ArkoudaExtensionArray)
            The codes (dtype intp) and the uniques.

        Examples
        --------
        >>> import atoll as ak
        >>> from atoll.pandas.extension import ArkoudaArray
        >>> a = ArkoudaArray(ak.array([3, 1, 3]))
        >>> a.factorize()
        (array([0, 1, 0]), ArkoudaArray([3 1]))
        """
        data = self._data
        n = len(data)
        keep = ~ak_isnan(data) if _is_float(data) else None
        present = data[keep] if keep is not None else data
        if len(present) == 0:
            codes = np.full(n, -1 if use_na_sentinel else 0, dtype=np.intp)
            return codes, type(self)(present)
        g = GroupBy(present)
        # The first position of each group orders the groups by first appearance.
        _, first = g.min(arange(len(present)))
        order = ak_argsort(first)
        rank = full(len(order), 0, dtype=np.int64)
        rank[order] = arange(len(order))
        present_codes = g.broadcast(rank, permute=True)
        uniques = present[first[order]]
        if keep is None:
            codes = present_codes
        else:
            codes = full(n, -1 if use_na_sentinel else len(order), dtype=np.int64)
            codes[keep] = present_codes
        return codes.to_ndarray().astype(np.intp, copy=False), type(self)(uniques)

    # ---- pandas' protocol ---------------------------------------------------------------

    def __hash__(self) -> int:
        raise NotImplementedError(
            "__hash__ is not implemented for ArkoudaExtensionArray; hash the result of .to_numpy() instead"
        )

    @property
    def nbytes(self) -> int:
        """The number of bytes of the values."""
        return int(self._data.nbytes)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._data})"


def _not_implemented(name: str, what: str = "ArkoudaExtensionArray") -> Callable[..., Any]:
    """A method ``name`` that raises NotImplementedError naming itself and ``what``."""

    def method(self: object, *args: object, **kwargs: object) -> Any:  # noqa: ANN401 (it never returns)
        raise NotImplementedError(f"{name} is not yet implemented for {what}.")

    method.__name__ = name
    method.__doc__ = f"Raises ``NotImplementedError``: ``{name}`` is not implemented for Arkouda arrays."
    return method


# pandas' ExtensionArray methods and array-API functions that Arkouda arrays do not offer
# yet: each raises NotImplementedError naming itself rather than pandas' generic fallback
# collecting the values.
for _name in (
    "broadcast_arrays",
    "broadcast_to",
    "concat",
    "expand_dims",
    "permute_dims",
    "reshape",
    "split",
    "squeeze",
    "stack",
    "argmax",
    "argmin",
    "_mode",
    "_quantile",
    "interpolate",
    "_cmp_method",
    "_logical_method",
    "_box_func",
    "_validate_scalar",
    "_validate_setitem_value",
    "_wrap_ndarray_result",
    "_wrap_reduction_result",
    "kurt",
    "median",
    "sem",
    "skew",
    "swapaxes",
):
    setattr(ArkoudaExtensionArray, _name, _not_implemented(_name))
for _name in ("_from_sequence_of_strings", "_from_backing_data", "_simple_new"):
    setattr(ArkoudaExtensionArray, _name, classmethod(_not_implemented(_name)))
# pandas' string methods (``Series.str``) on arrays that hold no strings.
for _name in (
    "capitalize casefold contains count encode endswith extract find find_ findall fullmatch get get_dummies "
    "getitem index isalnum isalpha isdecimal isdigit islower isnumeric isspace istitle isupper join len lower "
    "lstrip map match normalize pad partition removeprefix removesuffix repeat replace rfind rindex rpartition "
    "rsplit rstrip slice slice_replace split startswith strip swapcase title translate upper wrap"
).split():
    setattr(ArkoudaExtensionArray, f"_str_{_name}", _not_implemented(f"_str_{_name}"))
del _name

ArkoudaDtype._array_type = ArkoudaExtensionArray
