"""The pandas extension dtypes of Arkouda-backed columns (``arkouda.pandas.extension``).

Each dtype describes the values of one kind of distributed array held in a pandas object:
``ArkoudaInt64Dtype`` (and the uint64, uint8, float64, bool and bigint dtypes) for a
``pdarray``, ``ArkoudaStringDtype`` for ``Strings``, ``ArkoudaCategoricalDtype`` for a
``Categorical``. Their names are the plain ones (``"int64"``, ``"string"``, ...), but pandas
finds them from a string only with an Arkouda prefix (``"ak.int64"``, ``"ak_string"``,
``"akbool"``, ``"arkouda.category"``), so that a plain ``"int64"`` stays NumPy's; the dtype
``"ak"`` lets the values choose.

>>> ArkoudaInt64Dtype()
ArkoudaInt64Dtype('int64')
>>> _ArkoudaBaseDtype.construct_from_string("ak.float64")
ArkoudaFloat64Dtype('float64')
"""

from __future__ import annotations

import builtins
from typing import Any

import numpy as np
from pandas.api.extensions import (  # type: ignore[import-untyped]  # pandas has no stubs in the environment
    ExtensionDtype,
    register_extension_dtype,
)

__all__ = [
    "ArkoudaDtype",
    "ArkoudaInt64Dtype",
    "ArkoudaUint64Dtype",
    "ArkoudaUint8Dtype",
    "ArkoudaFloat64Dtype",
    "ArkoudaBoolDtype",
    "ArkoudaBigintDtype",
    "ArkoudaStringDtype",
    "ArkoudaCategoricalDtype",
]

# The prefixes that mark a dtype string as Arkouda's, longest first.
_PREFIXES = ("arkouda.", "ak.", "ak_", "ak")


class _ArkoudaBaseDtype(ExtensionDtype):  # type: ignore[misc]  # ExtensionDtype is Any without pandas' stubs
    """The base of the Arkouda dtypes.

    It holds the NumPy dtype of the values (``numpy_dtype``), the flags pandas reads
    (``_is_numeric``, ``_is_boolean``), and the parsing of prefixed dtype strings. The array
    class is set by its module (``_array_type``).
    """

    _numpy_dtype: np.dtype[Any] = np.dtype("O")
    _is_boolean = False
    _is_numeric = False
    _is_string = False
    _array_type: builtins.type[Any] | None = None
    # The dtype names (after the prefix, lowercase) that name this dtype.
    _aliases: tuple[str, ...] = ()

    @classmethod
    def construct_from_string(cls, string: str) -> _ArkoudaBaseDtype:
        """The Arkouda dtype that ``string`` names with an Arkouda prefix.

        Parameters
        ----------
        string : str
            The dtype's name after an Arkouda prefix (``"ak.int64"``, ``"ak_string"``,
            ``"akbool"``, ``"arkouda.category"``), in any case.

        Returns
        -------
        _ArkoudaBaseDtype
            The dtype, of class ``cls`` or a subclass of it.

        Raises
        ------
        TypeError
            ``string`` is not a str or names no Arkouda dtype of this class (pandas then tries
            the other dtypes).

        Examples
        --------
        >>> from atoll.pandas.extension._dtypes import _ArkoudaBaseDtype
        >>> _ArkoudaBaseDtype.construct_from_string("ak_string")
        ArkoudaStringDtype('string')
        >>> _ArkoudaBaseDtype.construct_from_string("int64")
        Traceback (most recent call last):
        ...
        TypeError: Invalid Arkouda dtype string 'int64': Arkouda dtype names start with 'ak' (e.g. 'ak.int64', 'ak_float64', 'akbool')
        """
        if not isinstance(string, str):
            raise TypeError(f"'construct_from_string' expects a string, got {type(string).__name__}")
        text = string.strip().lower()
        prefix = next((p for p in _PREFIXES if text.startswith(p) and len(text) > len(p)), None)
        if prefix is None:
            raise TypeError(
                f"Invalid Arkouda dtype string {string!r}: Arkouda dtype names start with 'ak' "
                "(e.g. 'ak.int64', 'ak_float64', 'akbool')"
            )
        base = text[len(prefix) :].lstrip("._")
        for dtype_cls in _DTYPES:
            if base in dtype_cls._aliases and (cls is _ArkoudaBaseDtype or issubclass(dtype_cls, cls)):
                return dtype_cls()
        raise TypeError(f"Cannot construct an Arkouda dtype from {string!r}")

    @classmethod
    def construct_array_type(cls) -> builtins.type[Any] | None:
        """The ExtensionArray class that holds values of this dtype.

        Returns
        -------
        type or None
            The class (None until its module is imported).

        Examples
        --------
        >>> from atoll.pandas.extension import ArkoudaInt64Dtype
        >>> ArkoudaInt64Dtype.construct_array_type().__name__
        'ArkoudaArray'
        """
        return cls._array_type

    @property
    def numpy_dtype(self) -> np.dtype[Any]:
        """The NumPy dtype of the values once collected."""
        return self._numpy_dtype

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"


@register_extension_dtype
class ArkoudaDtype(ExtensionDtype):  # type: ignore[misc]  # ExtensionDtype is Any without pandas' stubs
    """The dtype ``"ak"``, of the Arkouda array that fits the values.

    ``pd.array(values, dtype="ak")`` makes the Arkouda array of the values (numbers, strings or
    a Categorical).

    Examples
    --------
    >>> import atoll.pandas.extension
    >>> import pandas as pd
    >>> pd.array([1, 2], dtype="ak").dtype
    ArkoudaInt64Dtype('int64')
    """

    name = "ak"
    type = object
    kind = "O"
    _array_type: builtins.type[Any] | None = None

    @classmethod
    def construct_from_string(cls, string: str) -> ArkoudaDtype:
        """The dtype that ``string`` names: only ``"ak"`` does.

        Parameters
        ----------
        string : str
            The name.

        Returns
        -------
        ArkoudaDtype
            The dtype.

        Raises
        ------
        TypeError
            ``string`` is not ``"ak"``.

        Examples
        --------
        >>> from atoll.pandas.extension._dtypes import ArkoudaDtype
        >>> ArkoudaDtype.construct_from_string("ak").name
        'ak'
        """
        if string == "ak":
            return cls()
        raise TypeError(f"Cannot construct a '{cls.__name__}' from '{string}'")

    @classmethod
    def construct_array_type(cls) -> builtins.type[Any] | None:
        """The base Arkouda ExtensionArray, whose ``_from_sequence`` picks the subclass.

        Returns
        -------
        type or None
            The class (None until its module is imported).

        Examples
        --------
        >>> import atoll.pandas.extension
        >>> import pandas as pd
        >>> pd.api.types.pandas_dtype("ak").construct_array_type().__name__
        'ArkoudaExtensionArray'
        """
        return cls._array_type


@register_extension_dtype
class ArkoudaInt64Dtype(_ArkoudaBaseDtype):
    """The dtype of an int64 ``pdarray`` column.

    Examples
    --------
    >>> from atoll.pandas.extension import ArkoudaInt64Dtype
    >>> ArkoudaInt64Dtype().numpy_dtype
    dtype('int64')
    """

    name = "int64"
    kind = "i"
    type = np.int64
    na_value = -1
    _numpy_dtype = np.dtype("int64")
    _is_numeric = True
    _aliases = ("int64", "int", "i8")


@register_extension_dtype
class ArkoudaUint64Dtype(_ArkoudaBaseDtype):
    """The dtype of a uint64 ``pdarray`` column."""

    name = "uint64"
    kind = "u"
    type = np.uint64
    na_value = -1
    _numpy_dtype = np.dtype("uint64")
    _is_numeric = True
    _aliases = ("uint64", "uint", "u8")


@register_extension_dtype
class ArkoudaUint8Dtype(_ArkoudaBaseDtype):
    """The dtype of a uint8 ``pdarray`` column."""

    name = "uint8"
    kind = "u"
    type = np.uint8
    na_value = -1
    _numpy_dtype = np.dtype("uint8")
    _is_numeric = True
    _aliases = ("uint8", "u1")


@register_extension_dtype
class ArkoudaFloat64Dtype(_ArkoudaBaseDtype):
    """The dtype of a float64 ``pdarray`` column; its missing value is NaN."""

    name = "float64"
    kind = "f"
    type = np.float64
    na_value = np.nan
    _numpy_dtype = np.dtype("float64")
    _is_numeric = True
    _aliases = ("float64", "float", "f8", "double")


@register_extension_dtype
class ArkoudaBoolDtype(_ArkoudaBaseDtype):
    """The dtype of a bool ``pdarray`` column."""

    name = "bool_"
    kind = "b"
    type = np.bool_
    na_value = False
    _numpy_dtype = np.dtype("bool")
    _is_boolean = True
    _aliases = ("bool", "bool_", "boolean")


@register_extension_dtype
class ArkoudaBigintDtype(_ArkoudaBaseDtype):
    """The dtype of a bigint ``pdarray`` column (Python ints once collected)."""

    name = "bigint"
    kind = "O"
    type = object
    na_value = -1
    _numpy_dtype = np.dtype("O")
    _aliases = ("bigint",)


@register_extension_dtype
class ArkoudaStringDtype(_ArkoudaBaseDtype):
    """The dtype of a ``Strings`` column; its missing value is the empty string."""

    name = "string"
    kind = "O"
    type = str
    na_value = ""
    _numpy_dtype = np.dtype("str_")
    _is_string = True
    _aliases = ("string", "str", "str_", "strings")


@register_extension_dtype
class ArkoudaCategoricalDtype(_ArkoudaBaseDtype):
    """The dtype of a ``Categorical`` column."""

    name = "category"
    kind = "O"
    type = object
    na_value = -1
    _numpy_dtype = np.dtype("O")
    _aliases = ("category", "categorical")


_DTYPES: tuple[type[_ArkoudaBaseDtype], ...] = (
    ArkoudaInt64Dtype,
    ArkoudaUint64Dtype,
    ArkoudaUint8Dtype,
    ArkoudaFloat64Dtype,
    ArkoudaBoolDtype,
    ArkoudaBigintDtype,
    ArkoudaStringDtype,
    ArkoudaCategoricalDtype,
)


def _dtype_of_values(dt: object) -> _ArkoudaBaseDtype:
    """The Arkouda dtype of a ``pdarray`` whose dtype is ``dt``."""
    name = str(dt)
    for dtype_cls in (
        ArkoudaInt64Dtype,
        ArkoudaUint64Dtype,
        ArkoudaUint8Dtype,
        ArkoudaFloat64Dtype,
        ArkoudaBoolDtype,
        ArkoudaBigintDtype,
    ):
        if name == str(dtype_cls._numpy_dtype) or name == dtype_cls.name:
            return dtype_cls()
    raise TypeError(f"Unsupported dtype {name}")
