"""``pd.Index.ak``: conversion of a pandas Index or MultiIndex to and from Atoll's.

``idx.ak.to_ak()`` is a pandas Index whose values are an Arkouda ExtensionArray (distributed,
not collected); ``idx.ak.collect()`` the NumPy-backed pandas Index of the same values;
``idx.ak.to_ak_legacy()`` Atoll's own ``ak.Index``/``ak.MultiIndex``.

>>> import atoll as ak
>>> import pandas as pd
>>> from atoll.pandas.extension import ArkoudaIndexAccessor
>>> idx = pd.Index([10, 20, 30], name="k")
>>> ak_idx = idx.ak.to_ak()
>>> ak_idx.ak.is_arkouda, idx.ak.is_arkouda
(True, False)
>>> ak_idx.ak.collect().equals(idx)
True
"""

from __future__ import annotations

from typing import Any, Union

import numpy as np
import pandas as pd  # type: ignore[import-untyped]  # pandas has no stubs in the environment
from pandas.api.extensions import (  # type: ignore[import-untyped]  # pandas has no stubs in the environment
    register_index_accessor,
)

from ...numpy.pdarraycreation import arange as ak_arange
from ..index import Index as ak_Index, MultiIndex as ak_MultiIndex
from ._arkouda_extension_array import ArkoudaExtensionArray, _to_distributed

__all__ = ["ArkoudaIndexAccessor"]


def _pandas_index_to_ak(index: Union[pd.Index, pd.MultiIndex]) -> Union[ak_Index, ak_MultiIndex]:
    """Atoll's Index (or MultiIndex) of a pandas one.

    A RangeIndex becomes a distributed ``arange`` without collecting anything.
    """
    if isinstance(index, pd.MultiIndex):
        levels = []
        for j in range(index.nlevels):
            values = index.get_level_values(j).array
            if isinstance(values, ArkoudaExtensionArray):
                levels.append(values._data)
            else:
                levels.append(_to_distributed(np.asarray(values)))
        return ak_MultiIndex(levels, names=list(index.names))
    if isinstance(index, pd.RangeIndex):
        if index.step == 0:
            raise ValueError("RangeIndex step cannot be 0")
        return ak_Index(ak_arange(index.start, index.stop, index.step), name=index.name)
    if isinstance(index.array, ArkoudaExtensionArray):
        return ak_Index(index.array._data, name=index.name)
    return ak_Index(index, name=index.name)


def _ak_index_to_pandas_no_copy(akidx: Union[ak_Index, ak_MultiIndex]) -> Union[pd.Index, pd.MultiIndex]:
    """A pandas Index (or MultiIndex) over Arkouda ExtensionArrays of ``akidx``'s values."""
    if isinstance(akidx, ak_MultiIndex):
        arrays = [ArkoudaExtensionArray._from_sequence(level) for level in akidx.levels]
        return pd.MultiIndex.from_arrays(arrays, names=list(akidx.names))
    if isinstance(akidx, ak_Index):
        return pd.Index(ArkoudaExtensionArray._from_sequence(akidx.values), name=akidx.name)
    raise TypeError(f"Expected ak.Index or ak.MultiIndex, got {type(akidx)!r}")


@register_index_accessor("ak")
class ArkoudaIndexAccessor:
    """The ``.ak`` accessor of a pandas Index or MultiIndex.

    Parameters
    ----------
    pandas_obj : pandas.Index or pandas.MultiIndex
        The index.

    Examples
    --------
    >>> import atoll as ak
    >>> import pandas as pd
    >>> from atoll.pandas.extension import ArkoudaIndexAccessor
    >>> ArkoudaIndexAccessor(pd.Index([1, 2])).is_arkouda
    False
    """

    def __init__(self, pandas_obj: Union[pd.Index, pd.MultiIndex]) -> None:
        self._obj = pandas_obj

    @staticmethod
    def from_ak_legacy(akidx: Union[ak_Index, ak_MultiIndex]) -> Union[pd.Index, pd.MultiIndex]:
        """A pandas Index over Arkouda ExtensionArrays of an Atoll index's values (no copy).

        Parameters
        ----------
        akidx : Index or MultiIndex
            Atoll's index.

        Returns
        -------
        pandas.Index or pandas.MultiIndex
            The distributed pandas index.

        Raises
        ------
        TypeError
            ``akidx`` is not an Atoll Index or MultiIndex.

        Examples
        --------
        >>> import atoll as ak
        >>> import pandas as pd
        >>> from atoll.pandas.extension import ArkoudaIndexAccessor
        >>> pd.Index.ak.from_ak_legacy(ak.Index(ak.array([1, 2]))).ak.collect()
        Index([1, 2], dtype='int64')
        """
        return _ak_index_to_pandas_no_copy(akidx)

    def to_ak(self) -> Union[pd.Index, pd.MultiIndex]:
        """The index with its values distributed (a pandas Index of Arkouda arrays).

        Returns
        -------
        pandas.Index or pandas.MultiIndex
            The distributed index.

        Raises
        ------
        ValueError
            A RangeIndex of step 0.

        Examples
        --------
        >>> import atoll as ak
        >>> import pandas as pd
        >>> from atoll.pandas.extension import ArkoudaIndexAccessor
        >>> idx = pd.Index([10, 20, 30], name="k")
        >>> idx.ak.to_ak().ak.is_arkouda
        True
        """
        return _ak_index_to_pandas_no_copy(_pandas_index_to_ak(self._obj))

    def to_ak_legacy(self) -> Union[ak_Index, ak_MultiIndex]:
        """The index as Atoll's ``ak.Index`` or ``ak.MultiIndex``.

        Returns
        -------
        Index or MultiIndex
            Atoll's index of the values.

        Raises
        ------
        ValueError
            A RangeIndex of step 0.

        Examples
        --------
        >>> import atoll as ak
        >>> import pandas as pd
        >>> from atoll.pandas.extension import ArkoudaIndexAccessor
        >>> idx = pd.Index([10, 20, 30], name="k")
        >>> idx.ak.to_ak_legacy().values.tolist()
        [10, 20, 30]
        """
        return _pandas_index_to_ak(self._obj)

    def collect(self) -> Union[pd.Index, pd.MultiIndex]:
        """The index with its values collected into NumPy.

        Returns
        -------
        pandas.Index or pandas.MultiIndex
            The collected index.

        Examples
        --------
        >>> import atoll as ak
        >>> import pandas as pd
        >>> from atoll.pandas.extension import ArkoudaIndexAccessor
        >>> idx = pd.Index([10, 20, 30], name="k")
        >>> idx.ak.to_ak().ak.collect()
        Index([10, 20, 30], dtype='int64', name='k')
        """
        idx = self._obj
        if isinstance(idx, pd.MultiIndex):
            return pd.MultiIndex.from_tuples(list(idx.to_list()), names=list(idx.names))
        arr = idx.array
        values = arr.to_numpy() if isinstance(arr, ArkoudaExtensionArray) else idx.to_numpy()
        return pd.Index(values, name=idx.name)

    @property
    def is_arkouda(self) -> bool:
        """Whether every level of the index holds an Arkouda ExtensionArray."""
        idx = self._obj
        if isinstance(idx, pd.MultiIndex):
            return all(isinstance(level.array, ArkoudaExtensionArray) for level in idx.levels)
        return isinstance(getattr(idx, "array", None), ArkoudaExtensionArray)

    @staticmethod
    def _from_return_msg(rep_msg: str) -> Union[pd.Index, pd.MultiIndex]:
        """The pandas index of an Arkouda server's reply (no server here: ``ak.Index`` has none)."""
        return ArkoudaIndexAccessor.from_ak_legacy(
            ak_Index.from_return_msg(rep_msg)  # type: ignore[attr-defined]  # ak.Index has no from_return_msg
        )

    def concat(self, other: Union[pd.Index, pd.MultiIndex]) -> Union[pd.Index, pd.MultiIndex]:
        """The index followed by ``other``, distributed.

        Parameters
        ----------
        other : pandas.Index or pandas.MultiIndex
            The index that follows.

        Returns
        -------
        pandas.Index or pandas.MultiIndex
            The concatenation, distributed.

        Raises
        ------
        TypeError
            ``other`` is not a pandas Index.

        Examples
        --------
        >>> import atoll as ak
        >>> import pandas as pd
        >>> from atoll.pandas.extension import ArkoudaIndexAccessor
        >>> idx = pd.Index([10, 20, 30], name="k")
        >>> idx.ak.concat(pd.Index([40])).ak.collect().tolist()
        [10, 20, 30, 40]
        """
        if not isinstance(other, pd.Index):
            raise TypeError("`other` must be a pandas.Index or pandas.MultiIndex")
        out = self.to_ak_legacy().concat(ArkoudaIndexAccessor(other).to_ak_legacy())
        return self.from_ak_legacy(out)

    def lookup(self, key: object) -> object:
        """Atoll's ``Index.lookup``: where the index holds ``key``.

        Parameters
        ----------
        key : object
            A label or labels (a tuple of them for a MultiIndex).

        Returns
        -------
        pdarray
            A bool array, True where the index holds ``key``.

        Examples
        --------
        >>> import atoll as ak
        >>> import pandas as pd
        >>> from atoll.pandas.extension import ArkoudaIndexAccessor
        >>> idx = pd.Index([10, 20, 30], name="k")
        >>> idx.ak.lookup(20).tolist()
        [False, True, False]
        """
        return self.to_ak_legacy().lookup(key)

    def to_hdf(
        self, prefix_path: str, dataset: str = "index", mode: str = "truncate", file_type: str = "distribute"
    ) -> object:
        """Write the index to HDF5 (``ak.Index.to_hdf``).

        Parameters
        ----------
        prefix_path : str
            The files' prefix.
        dataset : str, default "index"
            The dataset's name.
        mode : str, default "truncate"
            ``"truncate"`` or ``"append"``.
        file_type : str, default "distribute"
            ``"distribute"`` (a file per locale) or ``"single"``.

        Returns
        -------
        None
            What ``ak.Index.to_hdf`` returns.

        Examples
        --------
        >>> import atoll as ak
        >>> import pandas as pd
        >>> from atoll.pandas.extension import ArkoudaIndexAccessor
        >>> idx = pd.Index([10, 20, 30], name="k")
        >>> import os, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), "i")
        >>> idx.ak.to_hdf(path)
        >>> ak.read_hdf(path + "_LOCALE*")["index"].tolist()
        [10, 20, 30]
        """
        akidx: Any = self.to_ak_legacy()  # the I/O methods are attached to ak.Index (mypy sees no attach)
        return akidx.to_hdf(prefix_path, dataset=dataset, mode=mode, file_type=file_type)

    def update_hdf(self, prefix_path: str, dataset: str = "index", repack: bool = True) -> object:
        """Overwrite the index's dataset in HDF5 (``ak.Index.update_hdf``).

        Parameters
        ----------
        prefix_path : str
            The files' prefix.
        dataset : str, default "index"
            The dataset's name.
        repack : bool, default True
            Whether the files are repacked.

        Returns
        -------
        None
            What ``ak.Index.update_hdf`` returns.

        Examples
        --------
        >>> import atoll as ak
        >>> import pandas as pd
        >>> from atoll.pandas.extension import ArkoudaIndexAccessor
        >>> idx = pd.Index([10, 20, 30], name="k")
        >>> import os, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), "u")
        >>> idx.ak.to_hdf(path)
        >>> pd.Index([7, 8, 9]).ak.update_hdf(path)
        >>> ak.read_hdf(path + "_LOCALE*")["index"].tolist()
        [7, 8, 9]
        """
        akidx: Any = self.to_ak_legacy()  # the I/O methods are attached to ak.Index (mypy sees no attach)
        return akidx.update_hdf(prefix_path, dataset=dataset, repack=repack)

    def to_parquet(self, prefix_path: str, dataset: str = "index", mode: str = "truncate") -> object:
        """Write the index to Parquet (``ak.Index.to_parquet``).

        Parameters
        ----------
        prefix_path : str
            The files' prefix.
        dataset : str, default "index"
            The column's name.
        mode : str, default "truncate"
            ``"truncate"`` or ``"append"``.

        Returns
        -------
        None
            What ``ak.Index.to_parquet`` returns.

        Examples
        --------
        >>> import atoll as ak
        >>> import pandas as pd
        >>> from atoll.pandas.extension import ArkoudaIndexAccessor
        >>> idx = pd.Index([10, 20, 30], name="k")
        >>> import os, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), "p")
        >>> idx.ak.to_parquet(path)
        >>> ak.read_parquet(path + "_LOCALE*")["index"].tolist()
        [10, 20, 30]
        """
        akidx: Any = self.to_ak_legacy()  # the I/O methods are attached to ak.Index (mypy sees no attach)
        return akidx.to_parquet(prefix_path, dataset=dataset, mode=mode)

    def to_csv(self, prefix_path: str, dataset: str = "index") -> object:
        """Write the index to CSV (``ak.Index.to_csv``).

        Parameters
        ----------
        prefix_path : str
            The files' prefix.
        dataset : str, default "index"
            The column's name.

        Returns
        -------
        None
            What ``ak.Index.to_csv`` returns.

        Examples
        --------
        >>> import atoll as ak
        >>> import pandas as pd
        >>> from atoll.pandas.extension import ArkoudaIndexAccessor
        >>> idx = pd.Index([10, 20, 30], name="k")
        >>> import os, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), "c")
        >>> idx.ak.to_csv(path)
        >>> ak.read_csv(path + "_LOCALE*")["index"].tolist()
        [10, 20, 30]
        """
        akidx: Any = self.to_ak_legacy()  # the I/O methods are attached to ak.Index (mypy sees no attach)
        return akidx.to_csv(prefix_path, dataset=dataset)

    def to_dict(self, labels: object = None) -> dict[Any, Any]:
        """The index as a dict of its level names to their values (``ak.Index.to_dict``).

        Parameters
        ----------
        labels : object, optional
            The keys (the level names by default); a list's first one for an Index.

        Returns
        -------
        dict
            The names to the levels' distributed values.

        Examples
        --------
        >>> import atoll as ak
        >>> import pandas as pd
        >>> from atoll.pandas.extension import ArkoudaIndexAccessor
        >>> idx = pd.Index([10, 20, 30], name="k")
        >>> idx.ak.to_dict()["k"].tolist()
        [10, 20, 30]
        """
        akidx = self.to_ak_legacy()
        if isinstance(akidx, ak_MultiIndex):
            return akidx.to_dict(labels=labels)
        if isinstance(labels, (list, tuple)):
            labels = labels[0] if labels else None
        return akidx.to_dict(label=labels)
