"""``ArkoudaCategorical``: a pandas ExtensionArray over a distributed ``Categorical``.

>>> import atoll as ak
>>> import pandas as pd
>>> from atoll.pandas.extension import ArkoudaCategorical
>>> c = ArkoudaCategorical(ak.Categorical(ak.array(["x", "y", "x"])))
>>> pd.Series(c).dtype
ArkoudaCategoricalDtype('category')
>>> c.to_numpy().tolist()
['x', 'y', 'x']
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
from ..categorical import Categorical
from ..groupbyclass import GroupBy
from ._arkouda_array import ArkoudaArray, _array_key, _is_scalar_key
from ._arkouda_extension_array import ArkoudaExtensionArray, _astype_target, _register
from ._arkouda_string_array import ArkoudaStringArray, _strings_of
from ._dtypes import ArkoudaCategoricalDtype

__all__ = ["ArkoudaCategorical"]


class ArkoudaCategorical(ArkoudaExtensionArray):
    """A pandas ExtensionArray over a ``Categorical``.

    Parameters
    ----------
    data : Categorical, Strings, ArkoudaCategorical, numpy.ndarray, list or tuple
        The ``Categorical``, or the labels.

    Raises
    ------
    TypeError
        ``data`` is of another kind.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.pandas.extension import ArkoudaCategorical
    >>> ArkoudaCategorical(["x", "y", "x"]).categories
    array(['x', 'y', 'N/A'], dtype='<U3')
    """

    default_fill_value: Any = ""

    def __init__(self, data: object) -> None:
        if isinstance(data, ArkoudaCategorical):
            data = data._data
        elif isinstance(data, Strings):
            data = Categorical(data)
        elif not isinstance(data, Categorical):
            if not isinstance(data, (np.ndarray, list, tuple)):
                raise TypeError(f"Expected arkouda.Categorical or a sequence of labels, got {type(data).__name__}")
            data = Categorical(_strings_of(data))
        self._data = data

    @property
    def dtype(self) -> ArkoudaCategoricalDtype:
        """The Arkouda categorical dtype."""
        return ArkoudaCategoricalDtype()

    @classmethod
    def _from_sequence(
        cls,
        scalars: Any,  # noqa: ANN401 (a sequence, a NumPy array or a distributed array)
        dtype: object = None,
        copy: bool = False,
    ) -> ArkoudaCategorical:
        """The ``ArkoudaCategorical`` of ``scalars`` (numbers as their strings)."""
        if isinstance(scalars, ArkoudaExtensionArray):
            scalars = scalars._data
        if isinstance(scalars, (Categorical, Strings)):
            return cls(scalars)
        if isinstance(scalars, pdarray):
            return cls(Categorical(ak_array(scalars.to_ndarray().astype(str))))
        return cls(Categorical(_strings_of(scalars if isinstance(scalars, np.ndarray) else list(scalars))))

    def __getitem__(self, key: Any) -> Any:  # noqa: ANN401 (any indexer; a label or an ArkoudaCategorical)
        if isinstance(key, tuple) and len(key) == 1:
            key = key[0]
        if isinstance(key, (list, tuple, np.ndarray)) and len(key) == 0:
            return type(self)(Categorical(ak_array(np.empty(0, dtype=str))))
        scalar = _is_scalar_key(key)
        if scalar:
            n = len(self)
            if not -n <= key < n:
                raise IndexError(f"index {key} is out of bounds for axis 0 with size {n}")
            return self._data.categories[int(self._data.codes[int(key)])]
        out = self._data[_array_key(key)]
        return type(self)(out if isinstance(out, Categorical) else Categorical(out))

    @property
    def categories(self) -> np.ndarray[Any, Any]:
        """The categories, as a NumPy array."""
        return cast("np.ndarray[Any, Any]", self._data.categories.to_ndarray())

    def _fill_taken(self, gathered: Categorical, missing: pdarray, fill_value: object) -> ArkoudaCategorical:
        """``gathered`` with the label ``fill_value`` (as a str) where ``missing``."""
        if not bool(missing.any()):
            return type(self)(gathered)
        fill = self.default_fill_value if fill_value is None else str(fill_value)
        labels = gathered.to_strings().to_ndarray().astype(object)
        labels[missing.to_ndarray()] = fill
        return type(self)(Categorical(_strings_of(labels)))

    def astype(self, dtype: Any, copy: bool = True) -> Any:  # noqa: ANN401 (dtype-like; an array of it)
        """The labels cast to ``dtype``.

        Parameters
        ----------
        dtype : dtype-like
            A NumPy, pandas or Arkouda dtype.
        copy : bool, default True
            Whether the values are copied for a categorical dtype.

        Returns
        -------
        numpy.ndarray or ArkoudaExtensionArray
            A NumPy object array for ``object``, this array (or a copy) for a categorical
            dtype, an ``ArkoudaStringArray`` for a string dtype, else an Arkouda
            ExtensionArray of the parsed labels.

        Examples
        --------
        >>> import atoll as ak
        >>> from atoll.pandas.extension import ArkoudaCategorical
        >>> c = ArkoudaCategorical(["x", "y", "x"])
        >>> c.astype("string")
        ArkoudaStringArray(['x', 'y', 'x'])
        >>> c.astype(object)
        array(['x', 'y', 'x'], dtype=object)
        """
        target = _astype_target(dtype)
        if target == "object":
            return self.to_numpy().astype(object)
        if target is None or (isinstance(target, str) and target == "category"):
            return type(self)(self._data.copy() if hasattr(self._data, "copy") else self._data) if copy else self
        labels = self._data.to_strings()
        if target == "string":
            return ArkoudaStringArray(labels)
        return ArkoudaExtensionArray._wrap(ak_cast(labels, target))

    def to_numpy(
        self,
        dtype: Any = None,  # noqa: ANN401 (any NumPy dtype-like)
        copy: bool = False,
        na_value: object = None,
    ) -> np.ndarray[Any, Any]:
        """The labels as a NumPy array.

        Parameters
        ----------
        dtype : dtype-like, optional
            The array's dtype (str by default).
        copy : bool, default False
            Accepted for pandas' signature; the labels are always collected anew.
        na_value : object, optional
            Accepted for pandas' signature.

        Returns
        -------
        numpy.ndarray
            The labels.

        Examples
        --------
        >>> import atoll as ak
        >>> from atoll.pandas.extension import ArkoudaCategorical
        >>> c = ArkoudaCategorical(["x", "y", "x"])
        >>> c.to_numpy()
        array(['x', 'y', 'x'], dtype='<U1')
        """
        out: np.ndarray[Any, Any] = self._data.to_ndarray()
        if dtype is not None and out.dtype != np.dtype(dtype):
            out = out.astype(dtype)
        return out

    def isna(self) -> np.ndarray[Any, Any]:
        """The positions whose code is ``-1`` (no category).

        Returns
        -------
        numpy.ndarray
            A bool array, True where a value is missing.

        Examples
        --------
        >>> import atoll as ak
        >>> from atoll.pandas.extension import ArkoudaCategorical
        >>> c = ArkoudaCategorical(["x", "y", "x"])
        >>> c.isna()
        array([False, False, False])
        """
        return cast("np.ndarray[Any, Any]", (self._data.codes == -1).to_ndarray().astype(bool))

    def isnull(self) -> np.ndarray[Any, Any]:
        """The missing values' positions, as ``isna``.

        Returns
        -------
        numpy.ndarray
            A bool array, True where a value is missing.

        Examples
        --------
        >>> import atoll as ak
        >>> from atoll.pandas.extension import ArkoudaCategorical
        >>> c = ArkoudaCategorical(["x", "y", "x"])
        >>> c.isnull()
        array([False, False, False])
        """
        return self.isna()

    def __eq__(self, other: object) -> Any:  # noqa: ANN401 (an ArkoudaArray of bools, or False)
        if isinstance(other, ArkoudaCategorical):
            other = other._data
        elif isinstance(other, (list, tuple, np.ndarray)):
            other = Categorical(_strings_of(other))
        elif isinstance(other, (str, np.str_)):
            return ArkoudaArray(self._data == str(other))
        elif not isinstance(other, (Categorical, Strings, pdarray)):
            return False
        other = cast("Categorical | Strings | pdarray", other)
        if len(other) == 1 and len(self) != 1:
            label = other.to_strings()[0] if isinstance(other, Categorical) else other[0]
            return ArkoudaArray(self._data == label)
        if len(other) != len(self):
            raise ValueError("Lengths must match for elementwise comparison")
        return ArkoudaArray(self._data == other)

    def __ne__(self, other: object) -> Any:  # noqa: ANN401 (an ArkoudaArray of bools, or True)
        out = self.__eq__(other)
        return ~out if isinstance(out, ArkoudaArray) else not out

    def value_counts(self, dropna: bool = True) -> pd.Series:
        """The count of each label present.

        Parameters
        ----------
        dropna : bool, default True
            Whether the missing label is left out.

        Returns
        -------
        pandas.Series
            The counts (``ArkoudaArray`` values) on an ``ArkoudaStringArray`` index.

        Examples
        --------
        >>> import atoll as ak
        >>> from atoll.pandas.extension import ArkoudaCategorical
        >>> c = ArkoudaCategorical(["x", "y", "x"])
        >>> c.value_counts().to_dict()
        {'x': 2, 'y': 1}
        """
        codes = self._data.codes
        if len(codes) == 0:
            return pd.Series(dtype="int64")
        present, counts = GroupBy(codes).size()
        labels = self._data.categories[present]
        if dropna:
            keep = labels != self._data.na_value
            labels, counts = labels[keep], counts[keep]
        if len(labels) == 0:
            return pd.Series(dtype="int64")
        return pd.Series(ArkoudaArray(counts), index=ArkoudaStringArray(labels))

    def __repr__(self) -> str:
        return f"ArkoudaCategorical({self._data})"


def _not_for_categorical(name: str, classmeth: bool = False) -> Callable[..., Any] | classmethod[Any, Any, Any]:
    """A method (or classmethod) ``name`` that raises NotImplementedError naming itself."""

    def method(self: Any, /, *args: object, **kwargs: object) -> None:  # noqa: ANN401 (an instance or the class)
        raise NotImplementedError(f"{name} is not yet implemented for ArkoudaCategorical.")

    method.__name__ = name
    method.__doc__ = f"Raises ``NotImplementedError``: ``{name}`` of pandas' Categorical is not offered yet."
    return classmethod(method) if classmeth else method


# pandas.Categorical's methods that the distributed Categorical does not offer yet.
for _name in (
    "_categories_match_up_to_permutation _constructor _dir_additions _dir_deletions _encode_with_my_categories "
    "_from_inferred_categories _get_values_repr _internal_get_values _replace _repr_categories _reset_cache "
    "_reverse_indexer _set_categories _set_dtype _unbox_scalar _validate_codes_for_dtype _validate_listlike "
    "_values_for_rank add_categories as_ordered as_unordered check_for_ordered describe memory_usage notna "
    "notnull remove_categories remove_unused_categories rename_categories reorder_categories set_categories "
    "set_ordered sort_values to_list max min"
).split():
    setattr(ArkoudaCategorical, _name, _not_for_categorical(_name))
ArkoudaCategorical.from_codes = _not_for_categorical("from_codes", classmeth=True)
del _name

_register(Categorical, ArkoudaCategorical)
ArkoudaCategoricalDtype._array_type = ArkoudaCategorical
