"""``ArkoudaStringArray``: a pandas ExtensionArray over distributed ``Strings``.

>>> import atoll as ak
>>> import pandas as pd
>>> from atoll.pandas.extension import ArkoudaStringArray
>>> s = pd.Series(ArkoudaStringArray(ak.array(["a", "b", "a"])))
>>> s.dtype
ArkoudaStringDtype('string')
>>> s.value_counts().sort_index().to_numpy().tolist()
[2, 1]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import numpy as np
import pandas as pd  # type: ignore[import-untyped]  # pandas has no stubs in the environment

from ...numpy.numeric import cast as ak_cast
from ...numpy.pdarrayclass import pdarray
from ...numpy.pdarraycreation import array as ak_array
from ...numpy.strings import Strings
from ..groupbyclass import GroupBy
from ._arkouda_array import ArkoudaArray, _array_key, _is_scalar_key
from ._arkouda_extension_array import ArkoudaExtensionArray, _astype_target, _register
from ._dtypes import ArkoudaStringDtype

__all__ = ["ArkoudaStringArray"]


def _strings_of(values: Any) -> Strings:  # noqa: ANN401 (a sequence of str)
    """The ``Strings`` of ``values``."""
    return cast("Strings", ak_array(np.asarray(values, dtype=str)) if len(values) else ak_array(np.empty(0, dtype=str)))


class ArkoudaStringArray(ArkoudaExtensionArray):
    """A pandas ExtensionArray over ``Strings``; its missing value is the empty string.

    Parameters
    ----------
    data : Strings, numpy.ndarray, list, tuple or ArkoudaStringArray
        The strings.

    Raises
    ------
    TypeError
        ``data`` is of another kind.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.pandas.extension import ArkoudaStringArray
    >>> a = ArkoudaStringArray(["x", "y"])
    >>> a == "y"
    ArkoudaArray([False  True])
    """

    default_fill_value: Any = ""

    def __init__(self, data: Any) -> None:  # noqa: ANN401 (Strings or a sequence of str)
        if isinstance(data, ArkoudaStringArray):
            data = data._data
        elif isinstance(data, (np.ndarray, list, tuple)):
            data = _strings_of(data)
        if not isinstance(data, Strings):
            raise TypeError(f"Expected arkouda.Strings, got {type(data).__name__}")
        self._data = data

    @property
    def dtype(self) -> ArkoudaStringDtype:
        """The Arkouda string dtype."""
        return ArkoudaStringDtype()

    @classmethod
    def _from_sequence(
        cls,
        scalars: Any,  # noqa: ANN401 (a sequence, a NumPy array or a distributed array)
        dtype: object = None,
        copy: bool = False,
    ) -> ArkoudaStringArray:
        """The ``ArkoudaStringArray`` of ``scalars`` (numbers as their strings)."""
        if isinstance(scalars, ArkoudaExtensionArray):
            scalars = scalars._data
        if isinstance(scalars, Strings):
            return cls(scalars)
        if isinstance(scalars, pdarray):
            return cls(ak_array(scalars.to_ndarray().astype(str)))
        if hasattr(scalars, "to_strings"):
            return cls(scalars.to_strings())
        return cls(_strings_of(list(scalars) if not isinstance(scalars, np.ndarray) else scalars))

    def __getitem__(self, key: Any) -> Any:  # noqa: ANN401 (any indexer; a str or an ArkoudaStringArray)
        if isinstance(key, tuple) and len(key) == 1:
            key = key[0]
        scalar = _is_scalar_key(key)
        out = self._data[_array_key(key)]
        if scalar:
            return str(out)
        return type(self)(out)

    def __setitem__(self, key: object, value: object) -> None:
        raise NotImplementedError("ArkoudaStringArray does not support item assignment (Strings are immutable)")

    def _fill_taken(self, gathered: Any, missing: pdarray, fill_value: Any) -> ArkoudaStringArray:  # noqa: ANN401 (Strings; a scalar)
        """``gathered`` with ``fill_value`` (as a str) where ``missing``."""
        fill = self.default_fill_value if fill_value is None else str(fill_value)
        if not bool(missing.any()):
            return type(self)(gathered)
        values = gathered.to_ndarray().astype(object)
        values[missing.to_ndarray()] = fill
        return type(self)(_strings_of(values))

    def astype(self, dtype: Any, copy: bool = True) -> Any:  # noqa: ANN401 (dtype-like; an array of it)
        """The strings cast to ``dtype``.

        Parameters
        ----------
        dtype : dtype-like
            A NumPy, pandas or Arkouda dtype.
        copy : bool, default True
            Whether the strings are copied for a string dtype.

        Returns
        -------
        numpy.ndarray or ArkoudaExtensionArray
            A NumPy object array for ``object``, this array (or a copy) for a string dtype,
            else an Arkouda ExtensionArray of the parsed values.

        Examples
        --------
        >>> import atoll as ak
        >>> from atoll.pandas.extension import ArkoudaStringArray
        >>> a = ArkoudaStringArray(ak.array(["1", "2"]))
        >>> a.astype("int64")
        ArkoudaArray([1 2])
        >>> a.astype(object)
        array(['1', '2'], dtype=object)
        """
        target = _astype_target(dtype)
        if target == "object":
            return self.to_numpy().astype(object)
        if target is None or (isinstance(target, str) and target == "string"):
            return type(self)(self._data.copy()) if copy else self
        if target == "category":
            return ArkoudaExtensionArray._from_sequence(self._data, dtype="ak.category")
        return ArkoudaExtensionArray._wrap(ak_cast(self._data, target))

    def isna(self) -> np.ndarray[Any, Any]:
        """The missing values' positions: none (the empty string is a value).

        Returns
        -------
        numpy.ndarray
            A bool array, all False.

        Examples
        --------
        >>> import atoll as ak
        >>> from atoll.pandas.extension import ArkoudaStringArray
        >>> ArkoudaStringArray(ak.array(["a", ""])).isna()
        array([False, False])
        """
        return np.zeros(len(self), dtype=bool)

    def __eq__(self, other: object) -> Any:  # noqa: ANN401 (an ArkoudaArray of bools, or False)
        if isinstance(other, ArkoudaStringArray):
            other = other._data
        elif isinstance(other, (list, tuple, np.ndarray)):
            other = _strings_of(other)
        elif isinstance(other, (str, np.str_)):
            return ArkoudaArray(self._data == str(other))
        elif not isinstance(other, (Strings, pdarray)):
            return False
        other = cast("Strings | pdarray", other)
        if len(other) == 1 and len(self) != 1:
            return ArkoudaArray(self._data == other[0])
        if len(other) != len(self):
            raise ValueError("Lengths must match for elementwise comparison")
        return ArkoudaArray(self._data == other)

    def __ne__(self, other: object) -> Any:  # noqa: ANN401 (an ArkoudaArray of bools, or True)
        out = self.__eq__(other)
        return ~out if isinstance(out, ArkoudaArray) else not out

    def value_counts(self, dropna: bool = True) -> pd.Series:
        """The count of each distinct string.

        Parameters
        ----------
        dropna : bool, default True
            Accepted for pandas' signature (no string is missing).

        Returns
        -------
        pandas.Series
            The counts (``ArkoudaArray`` values) on an ``ArkoudaStringArray`` index.

        Examples
        --------
        >>> import atoll as ak
        >>> from atoll.pandas.extension import ArkoudaStringArray
        >>> ArkoudaStringArray(ak.array(["b", "a", "b"])).value_counts().to_dict()
        {'a': 1, 'b': 2}
        """
        if len(self._data) == 0:
            return pd.Series(dtype="int64")
        keys, counts = GroupBy(self._data).size()
        return pd.Series(ArkoudaArray(counts), index=ArkoudaStringArray(keys))

    def __repr__(self) -> str:
        return f"ArkoudaStringArray({self._data})"


def _not_for_strings(name: str) -> Callable[..., Any]:
    """A method ``name`` that raises NotImplementedError naming itself."""

    def method(self: object, *args: object, **kwargs: object) -> Any:  # noqa: ANN401 (it never returns)
        raise NotImplementedError(f"`{name}` is not implemented for Arkouda-backed arrays yet.")

    method.__name__ = name
    method.__doc__ = f"Raises ``NotImplementedError``: ``{name}`` is not defined on Arkouda strings."
    return method


# NumPy-array methods that pandas or a user may reach for and that strings do not have.
for _name in (
    "all any argpartition byteswap choose clip compress conj conjugate cumprod cumsum diagonal dot dump dumps "
    "fill flatten getfield item max mean min nonzero partition prod put resize round setfield setflags sort std "
    "sum swapaxes to_device tobytes tofile trace var"
).split():
    setattr(ArkoudaStringArray, _name, _not_for_strings(_name))
del _name

_register(Strings, ArkoudaStringArray)
ArkoudaStringDtype._array_type = ArkoudaStringArray
