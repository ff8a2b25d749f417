"""``pd.DataFrame.ak``: pandas DataFrames to and from Atoll's.

The accessor also runs Atoll's ``merge`` on DataFrames of Arkouda ExtensionArray columns.

>>> import atoll as ak
>>> import pandas as pd
>>> from atoll.pandas.extension import ArkoudaDataFrameAccessor
>>> left = pd.DataFrame({"k": [1, 2, 3], "a": [10, 20, 30]}).ak.to_ak()
>>> right = pd.DataFrame({"k": [2, 3, 4], "b": [5, 6, 7]}).ak.to_ak()
>>> left.ak.merge(right, on="k").ak.collect().sort_values("k").to_numpy().tolist()
[[2, 20, 5], [3, 30, 6]]
"""

from __future__ import annotations

from typing import List, Optional, Union

import numpy as np
import pandas as pd  # type: ignore[import-untyped]  # pandas has no stubs in the environment
from pandas.api.extensions import (  # type: ignore[import-untyped]  # pandas has no stubs in the environment
    register_dataframe_accessor,
)

from ...numpy.pdarrayclass import pdarray
from ...numpy.pdarraycreation import arange as ak_arange
from ...numpy.strings import Strings
from ..categorical import Categorical
from ..dataframe import DataFrame as ak_DataFrame
from ..join import merge as ak_merge
from ._arkouda_extension_array import ArkoudaExtensionArray, _to_distributed
from ._dtypes import _ArkoudaBaseDtype
from ._index_accessor import ArkoudaIndexAccessor

__all__ = ["ArkoudaDataFrameAccessor"]


def _looks_like_ak_col(obj: object) -> bool:
    """Whether ``obj`` is a distributed column (``pdarray``, ``Strings``, ``Categorical``)."""
    return isinstance(obj, (pdarray, Strings, Categorical))


def _extract_ak_from_ea(ea: object) -> object:
    """The distributed column an Arkouda ExtensionArray holds."""
    col = getattr(ea, "_data", None)
    if _looks_like_ak_col(col):
        return col
    raise TypeError("Arkouda EA does not expose an Arkouda column via a known attribute/method.")


def _is_arkouda_series(s: pd.Series) -> bool:
    """Whether the Series holds an Arkouda ExtensionArray."""
    return isinstance(getattr(s, "dtype", None), _ArkoudaBaseDtype) or isinstance(
        getattr(s, "array", None), ArkoudaExtensionArray
    )


def _series_to_akcol_no_copy(s: pd.Series) -> object:
    """The distributed column of ``s`` (TypeError where it holds no Arkouda ExtensionArray)."""
    if not _is_arkouda_series(s):
        raise TypeError(
            f"Column '{s.name}' is not Arkouda-backed (dtype={s.dtype!r}). "
            "Wrap columns with ArkoudaArray before calling df.ak.merge."
        )
    return _extract_ak_from_ea(s.array)


def _akcol_to_series(name: object, akcol: object, index: Optional[pd.Index] = None) -> pd.Series:
    """A pandas Series over the distributed column ``akcol`` with a distributed index."""
    ea = ArkoudaExtensionArray._from_sequence(akcol)
    if index is None:
        index = pd.Index(ArkoudaExtensionArray._from_sequence(ak_arange(len(ea))))
    elif not ArkoudaIndexAccessor(index).is_arkouda:
        index = ArkoudaIndexAccessor(index).to_ak()
    return pd.Series(ea, index=index, name=name)


def _df_to_akdf_no_copy(df: pd.DataFrame) -> ak_DataFrame:
    """Atoll's DataFrame over the distributed columns of ``df`` (no copy)."""
    return ak_DataFrame({name: _series_to_akcol_no_copy(df[name]) for name in df.columns})


def _akdf_to_pandas_no_copy(akdf: ak_DataFrame) -> pd.DataFrame:
    """A pandas DataFrame over Arkouda ExtensionArrays of ``akdf``'s columns (no copy)."""
    return pd.DataFrame(
        {
            name: _akcol_to_series(
                name,
                akdf[name].values
                if hasattr(akdf[name], "values") and not _looks_like_ak_col(akdf[name])
                else akdf[name],
            )
            for name in akdf.columns
        }
    )


@register_dataframe_accessor("ak")
class ArkoudaDataFrameAccessor:
    """The ``.ak`` accessor of a pandas DataFrame.

    Parameters
    ----------
    pandas_obj : pandas.DataFrame
        The DataFrame.

    Examples
    --------
    >>> import atoll as ak
    >>> import pandas as pd
    >>> from atoll.pandas.extension import ArkoudaDataFrameAccessor
    >>> type(ArkoudaDataFrameAccessor(pd.DataFrame({"a": [1]})).to_ak()["a"].array).__name__
    'ArkoudaArray'
    """

    def __init__(self, pandas_obj: pd.DataFrame) -> None:
        self._obj = pandas_obj

    @staticmethod
    def from_ak_legacy(akdf: ak_DataFrame) -> pd.DataFrame:
        """A pandas DataFrame over Arkouda ExtensionArrays of an Atoll DataFrame's columns (no copy).

        Parameters
        ----------
        akdf : DataFrame
            Atoll's DataFrame.

        Returns
        -------
        pandas.DataFrame
            The DataFrame of Arkouda columns, on a distributed index ``0..n-1``.

        Examples
        --------
        >>> import atoll as ak
        >>> import pandas as pd
        >>> from atoll.pandas.extension import ArkoudaDataFrameAccessor
        >>> pd.DataFrame.ak.from_ak_legacy(ak.DataFrame({"x": ak.array([1, 2])})).ak.collect()["x"].tolist()
        [1, 2]
        """
        return _akdf_to_pandas_no_copy(akdf)

    def to_ak(self) -> pd.DataFrame:
        """The DataFrame with its columns and index distributed.

        Returns
        -------
        pandas.DataFrame
            The DataFrame of Arkouda ExtensionArray columns.

        Raises
        ------
        ValueError
            A RangeIndex of step 0.

        Examples
        --------
        >>> import atoll as ak
        >>> import pandas as pd
        >>> from atoll.pandas.extension import ArkoudaDataFrameAccessor
        >>> df = pd.DataFrame({"k": [1, 2], "a": [10.5, 20.5]})
        >>> type(df.ak.to_ak()["a"].array).__name__
        'ArkoudaArray'
        """
        idx = ArkoudaIndexAccessor(self._obj.index).to_ak()
        cols = {}
        for name, col in self._obj.items():
            if isinstance(col.array, ArkoudaExtensionArray):
                cols[name] = col.array
            else:
                cols[name] = ArkoudaExtensionArray._from_sequence(_to_distributed(np.asarray(col.to_numpy())))
        return pd.DataFrame(cols, index=idx)

    def collect(self) -> pd.DataFrame:
        """The DataFrame with its columns collected into NumPy.

        Returns
        -------
        pandas.DataFrame
            The collected DataFrame, on a default index.

        Examples
        --------
        >>> import atoll as ak
        >>> import pandas as pd
        >>> from atoll.pandas.extension import ArkoudaDataFrameAccessor
        >>> df = pd.DataFrame({"k": [1, 2], "a": [10.5, 20.5]})
        >>> df.ak.to_ak().ak.collect()["a"].tolist()
        [10.5, 20.5]
        """
        cols = {name: np.asarray(self._obj[name].array.to_numpy()) for name in self._obj.columns}
        return pd.DataFrame(cols)

    def to_ak_legacy(self) -> ak_DataFrame:
        """The DataFrame as Atoll's ``ak.DataFrame``.

        Returns
        -------
        DataFrame
            Atoll's DataFrame of the columns.

        Examples
        --------
        >>> import atoll as ak
        >>> import pandas as pd
        >>> from atoll.pandas.extension import ArkoudaDataFrameAccessor
        >>> df = pd.DataFrame({"k": [1, 2], "a": [10.5, 20.5]})
        >>> df.ak.to_ak_legacy()["k"].tolist()
        [1, 2]
        """
        cols = {}
        for name, s in self._obj.items():
            if isinstance(s.array, ArkoudaExtensionArray):
                cols[name] = s.array._data
            elif isinstance(s.dtype, pd.CategoricalDtype):
                cols[name] = Categorical(pd.Categorical(s))
            else:
                cols[name] = _to_distributed(np.asarray(s.to_numpy()))
        return ak_DataFrame(cols)

    def _assert_all_arkouda(self, df: pd.DataFrame, side: str) -> None:
        """TypeError naming ``side`` unless ``df`` is a DataFrame of Arkouda columns."""
        if not isinstance(df, pd.DataFrame):
            raise TypeError(
                f"{side} must be a pandas.DataFrame; got {type(df).__name__}. "
                "If you already have ak.DataFrame, call left_ak.merge(right_ak, ...)."
            )
        bad = [c for c in df.columns if not _is_arkouda_series(df[c])]
        if bad:
            raise TypeError(
                f"All columns in the {side} DataFrame must be Arkouda ExtensionArrays. Non-Arkouda columns: {bad}"
            )

    def merge(
        self,
        right: pd.DataFrame,
        on: Optional[Union[str, List[str]]] = None,
        left_on: Optional[Union[str, List[str]]] = None,
        right_on: Optional[Union[str, List[str]]] = None,
        how: str = "inner",
        left_suffix: str = "_x",
        right_suffix: str = "_y",
        convert_ints: bool = True,
        sort: bool = True,
    ) -> pd.DataFrame:
        """Atoll's ``merge`` of this DataFrame with ``right``.

        Both hold Arkouda columns; the result is a pandas DataFrame of Arkouda columns.

        Parameters
        ----------
        right : pandas.DataFrame
            The right DataFrame, of Arkouda columns.
        on : str or list of str, optional
            The key columns of both sides.
        left_on : str or list of str, optional
            The left side's key columns.
        right_on : str or list of str, optional
            The right side's key columns.
        how : str, default "inner"
            ``"inner"``, ``"left"``, ``"right"`` or ``"outer"``.
        left_suffix : str, default "_x"
            The suffix of the left side's other columns that share a name.
        right_suffix : str, default "_y"
            The suffix of the right side's.
        convert_ints : bool, default True
            Accepted for Arkouda's signature: int columns with missing values become float64
            either way, as pandas'.
        sort : bool, default True
            Whether the result is sorted by the keys.

        Returns
        -------
        pandas.DataFrame
            The merged DataFrame, of Arkouda columns.

        Raises
        ------
        TypeError
            ``right`` is not a DataFrame, a side has a column that is not an Arkouda
            ExtensionArray, or ``how`` or a suffix is not a str.

        Examples
        --------
        >>> import atoll as ak
        >>> import pandas as pd
        >>> from atoll.pandas.extension import ArkoudaDataFrameAccessor
        >>> left = pd.DataFrame({"k": [1, 2], "a": [10, 20]}).ak.to_ak()
        >>> right = pd.DataFrame({"k": [2, 3], "b": [5, 6]}).ak.to_ak()
        >>> left.ak.merge(right, on="k").ak.collect().to_numpy().tolist()
        [[2, 20, 5]]
        """
        if not isinstance(right, pd.DataFrame):
            raise TypeError("`right` must be a pandas.DataFrame")
        for arg, value in (("how", how), ("left_suffix", left_suffix), ("right_suffix", right_suffix)):
            if not isinstance(value, str):
                raise TypeError(f"{arg} must be a str, got {type(value).__name__}")
        self._assert_all_arkouda(self._obj, "left")
        self._assert_all_arkouda(right, "right")
        out = ak_merge(
            _df_to_akdf_no_copy(self._obj),
            _df_to_akdf_no_copy(right),
            on=on,
            left_on=left_on,
            right_on=right_on,
            how=how,
            left_suffix=left_suffix,
            right_suffix=right_suffix,
            convert_ints=convert_ints,
            sort=sort,
        )
        return _akdf_to_pandas_no_copy(out)
