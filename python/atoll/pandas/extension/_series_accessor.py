"""``pd.Series.ak``: pandas Series to and from Atoll's.

The accessor also runs Atoll's algorithms on a Series of Arkouda ExtensionArray values.

>>> import atoll as ak
>>> import pandas as pd
>>> from atoll.pandas.extension import ArkoudaSeriesAccessor
>>> s = pd.Series([3, 1, 2], name="x").ak.to_ak()
>>> s.ak.is_arkouda
True
>>> s.ak.argsort().ak.collect().to_list()
[1, 2, 0]
"""

from __future__ import annotations

from typing import Any, Callable, Optional, Union

import numpy as np
import pandas as pd  # type: ignore[import-untyped]  # pandas has no stubs in the environment
from pandas.api.extensions import (  # type: ignore[import-untyped]  # pandas has no stubs in the environment
    register_series_accessor,
)

from ...apply import apply as ak_apply
from ...numpy.numeric import isnan as ak_isnan
from ...numpy.pdarrayclass import pdarray
from ...numpy.pdarraycreation import arange as ak_arange
from ...numpy.pdarraymanipulation import concatenate as ak_concatenate
from ...numpy.sorting import argsort as ak_argsort
from ...numpy.strings import Strings
from ..categorical import Categorical
from ..groupbyclass import GroupBy
from ..series import Series as ak_Series
from ._arkouda_extension_array import ArkoudaExtensionArray, _to_distributed
from ._index_accessor import ArkoudaIndexAccessor, _ak_index_to_pandas_no_copy

__all__ = ["ArkoudaSeriesAccessor"]


def _ak_arr_to_pandas_ea(akarr: object) -> ArkoudaExtensionArray:
    """The Arkouda ExtensionArray over ``akarr``."""
    return ArkoudaExtensionArray._from_sequence(akarr)


def _pandas_series_to_ak_array(s: pd.Series) -> object:
    """The distributed values of ``s``: its Arkouda array's, else a copy of its values."""
    arr = s.array
    if isinstance(arr, ArkoudaExtensionArray):
        return arr._data
    return _to_distributed(np.asarray(s.to_numpy()))


def _ak_array_to_pandas_series(akarr: object, name: object = None, index: Optional[pd.Index] = None) -> pd.Series:
    """A pandas Series over ``akarr`` with a distributed index (``0..n-1`` by default)."""
    ea = _ak_arr_to_pandas_ea(akarr)
    if index is None:
        index = pd.Index(ArkoudaExtensionArray._from_sequence(ak_arange(len(ea))))
    elif not ArkoudaIndexAccessor(index).is_arkouda:
        index = ArkoudaIndexAccessor(index).to_ak()
    return pd.Series(ea, index=index, name=name)


@register_series_accessor("ak")
class ArkoudaSeriesAccessor:
    """The ``.ak`` accessor of a pandas Series.

    Parameters
    ----------
    pandas_obj : pandas.Series
        The Series.

    Examples
    --------
    >>> import atoll as ak
    >>> import pandas as pd
    >>> from atoll.pandas.extension import ArkoudaSeriesAccessor
    >>> ArkoudaSeriesAccessor(pd.Series([1, 2])).is_arkouda
    False
    """

    def __init__(self, pandas_obj: pd.Series) -> None:
        self._obj = pandas_obj

    def to_ak(self) -> pd.Series:
        """The Series with its values and index distributed (Arkouda ExtensionArrays).

        Returns
        -------
        pandas.Series
            The Series itself where it is distributed already, else a new one.

        Examples
        --------
        >>> import atoll as ak
        >>> import pandas as pd
        >>> from atoll.pandas.extension import ArkoudaSeriesAccessor
        >>> d = pd.Series([3, 1, 2], name="x").ak.to_ak()
        >>> type(d.array).__name__, d.ak.is_arkouda
        ('ArkoudaArray', True)
        """
        if self.is_arkouda:
            return self._obj
        idx = ArkoudaIndexAccessor(self._obj.index).to_ak()
        ea = _ak_arr_to_pandas_ea(_pandas_series_to_ak_array(self._obj))
        return pd.Series(ea, index=idx, name=self._obj.name)

    def collect(self) -> pd.Series:
        """The Series with its values and index collected into NumPy.

        Returns
        -------
        pandas.Series
            The collected Series.

        Examples
        --------
        >>> import atoll as ak
        >>> import pandas as pd
        >>> from atoll.pandas.extension import ArkoudaSeriesAccessor
        >>> d = pd.Series([3, 1, 2], name="x").ak.to_ak()
        >>> d.ak.collect().to_list()
        [3, 1, 2]
        """
        s = self._obj
        values = s.array.to_numpy()
        return pd.Series(values, index=ArkoudaIndexAccessor(s.index).collect(), name=s.name)

    def to_ak_legacy(self) -> ak_Series:
        """The Series as Atoll's ``ak.Series``.

        Returns
        -------
        Series
            Atoll's Series of the values, on the index.

        Examples
        --------
        >>> import atoll as ak
        >>> import pandas as pd
        >>> from atoll.pandas.extension import ArkoudaSeriesAccessor
        >>> d = pd.Series([3, 1, 2], name="x").ak.to_ak()
        >>> d.ak.to_ak_legacy().values.tolist()
        [3, 1, 2]
        """
        idx = ArkoudaIndexAccessor(self._obj.index).to_ak_legacy()
        return ak_Series(_pandas_series_to_ak_array(self._obj), index=idx, name=self._obj.name)

    @staticmethod
    def from_ak_legacy(akarr: object, name: object = None) -> pd.Series:
        """A pandas Series over a distributed array (no copy).

        Parameters
        ----------
        akarr : pdarray, Strings or Categorical
            The values.
        name : hashable, optional
            The Series' name.

        Returns
        -------
        pandas.Series
            The Series, on a distributed index ``0..n-1``.

        Examples
        --------
        >>> import atoll as ak
        >>> import pandas as pd
        >>> from atoll.pandas.extension import ArkoudaSeriesAccessor
        >>> pd.Series.ak.from_ak_legacy(ak.array([1, 2]), name="y").ak.collect().to_list()
        [1, 2]
        """
        return _ak_array_to_pandas_series(akarr, name=name)

    @property
    def is_arkouda(self) -> bool:
        """Whether the values and every level of the index are Arkouda ExtensionArrays."""
        if not isinstance(getattr(self._obj, "array", None), ArkoudaExtensionArray):
            return False
        return ArkoudaIndexAccessor(self._obj.index).is_arkouda

    def locate(self, key: object) -> pd.Series:
        """The rows whose index labels are ``key`` (``ak.Series.locate``).

        Parameters
        ----------
        key : object
            A label, a list of labels, a pandas Index or Series of labels; a tuple of labels
            or an Index on a MultiIndex.

        Returns
        -------
        pandas.Series
            The rows, distributed.

        Raises
        ------
        TypeError
            A scalar or a list on a MultiIndex.

        Examples
        --------
        >>> import atoll as ak
        >>> import pandas as pd
        >>> from atoll.pandas.extension import ArkoudaSeriesAccessor
        >>> d = pd.Series([3, 1, 2], name="x").ak.to_ak()
        >>> d.ak.locate(1).ak.collect().to_list()
        [1]
        """
        if isinstance(self._obj.index, pd.MultiIndex) and not isinstance(key, (tuple, pd.Index, pd.Series)):
            raise TypeError("locate on a MultiIndex takes a tuple of labels or an Index, not a scalar or a list")
        if isinstance(key, pd.Index):
            key = ArkoudaIndexAccessor(key).to_ak_legacy()
        elif isinstance(key, pd.Series):
            key = ArkoudaSeriesAccessor(key).to_ak_legacy()
        out = self.to_ak_legacy().locate(key)
        idx = _ak_index_to_pandas_no_copy(out.index)
        return pd.Series(_ak_arr_to_pandas_ea(out.values), index=idx, name=out.name)

    @staticmethod
    def _from_return_msg(rep_msg: str) -> pd.Series:
        """The pandas Series of an Arkouda server's reply (no server here: ``ak.Series`` has none)."""
        aks = ak_Series.from_return_msg(rep_msg)  # type: ignore[attr-defined]  # ak.Series has no from_return_msg
        idx = ArkoudaIndexAccessor.from_ak_legacy(aks.index)
        return pd.Series(_ak_arr_to_pandas_ea(aks.values), index=idx, name=aks.name)

    def _require_arkouda(self, what: str) -> object:
        """The distributed values; TypeError naming ``what`` where the Series is not distributed."""
        if not self.is_arkouda:
            raise TypeError(f"{what}: Series must be Arkouda-backed. Call .ak.to_ak() first.")
        data = getattr(self._obj.array, "_data", None)
        if data is None:
            raise TypeError("Arkouda-backed Series array does not expose '_data'")
        return data

    def groupby(self) -> GroupBy:
        """Atoll's ``GroupBy`` of the values.

        Returns
        -------
        GroupBy
            The grouping of the values.

        Raises
        ------
        TypeError
            The Series is not distributed.

        Examples
        --------
        >>> import atoll as ak
        >>> import pandas as pd
        >>> from atoll.pandas.extension import ArkoudaSeriesAccessor
        >>> d = pd.Series([3, 1, 2], name="x").ak.to_ak()
        >>> d.ak.groupby().size()[1].tolist()
        [1, 1, 1]
        """
        return GroupBy(self._require_arkouda("Series.ak.groupby"))

    def argsort(self, *, ascending: bool = True, **kwargs: object) -> pd.Series:
        """The permutation that sorts the values (NaNs at ``na_position``).

        Parameters
        ----------
        ascending : bool, default True
            Whether the order is ascending; descending is the ascending order reversed.
        **kwargs
            ``na_position`` ('last', the default, or 'first'): where NaNs go.

        Returns
        -------
        pandas.Series
            The permutation, a distributed Series on this Series' index.

        Raises
        ------
        TypeError
            The Series is not distributed, or its values are of no sortable kind.
        ValueError
            ``na_position`` is neither 'first' nor 'last'.

        Examples
        --------
        >>> import atoll as ak
        >>> import pandas as pd
        >>> from atoll.pandas.extension import ArkoudaSeriesAccessor
        >>> d = pd.Series([3, 1, 2], name="x").ak.to_ak()
        >>> d.ak.argsort(ascending=False).ak.collect().to_list()
        [0, 2, 1]
        """
        na_position = kwargs.pop("na_position", "last")
        data = self._require_arkouda("argsort()")
        if na_position not in ("first", "last"):
            raise ValueError("na_position must be 'first' or 'last'.")
        if not isinstance(data, (pdarray, Strings, Categorical)):
            raise TypeError(f"Unsupported argsort dtype: {type(data)}")
        perm = ak_argsort(data)
        if not ascending:
            perm = perm[::-1]
        if isinstance(data, pdarray) and data.dtype.kind == "f":
            nan = ak_isnan(data)[perm]
            parts = [perm[~nan], perm[nan]]
            perm = ak_concatenate(parts if na_position == "last" else parts[::-1])
        return _ak_array_to_pandas_series(perm, name=self._obj.name, index=self._obj.index)

    def apply(
        self, func: Union[Callable[[Any], Any], str], result_dtype: Optional[Union[np.dtype, str]] = None
    ) -> pd.Series:
        """``ak.apply(func)`` on the numeric values, as a distributed Series.

        Parameters
        ----------
        func : callable or str
            The function, or its source (``"lambda x: x + 1"``).
        result_dtype : numpy.dtype or str, optional
            The result's dtype (the values' by default).

        Returns
        -------
        pandas.Series
            The results, a distributed Series on this Series' index.

        Raises
        ------
        TypeError
            The Series is not distributed, or its values are not a pdarray.

        Examples
        --------
        >>> import atoll as ak
        >>> import pandas as pd
        >>> from atoll.pandas.extension import ArkoudaSeriesAccessor
        >>> d = pd.Series([3, 1, 2], name="x").ak.to_ak()
        >>> d.ak.apply("lambda x: x + 1").ak.collect().to_list()
        [4, 2, 3]
        """
        data = self._require_arkouda("Series.ak.apply")
        if not isinstance(data, pdarray):
            raise TypeError(
                f"Series.ak.apply currently only supports numeric pdarray-backed Series. Got {type(data).__name__}."
            )
        out = ak_apply(data, func, result_dtype=result_dtype)
        return _ak_array_to_pandas_series(out, name=self._obj.name, index=self._obj.index)
