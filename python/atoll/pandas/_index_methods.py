"""Methods of ``Index`` and ``MultiIndex`` that call modules above ``atoll.pandas.index``.

They call ``Series`` and the IO: defined here, where both are known, and set on the class by
``atoll._attach.attach``; the root ``atoll/__init__.py`` runs this module.
"""

from __future__ import annotations

import builtins
import os
from typing import TYPE_CHECKING, Any, Union

import numpy as np

from .._attach import attach
from ..csv import to_csv
from ..hdf5 import to_hdf, update_hdf
from ..io import to_parquet
from ..numpy.pdarrayclass import pdarray
from ..numpy.pdarraycreation import array
from .index import Index, MultiIndex, _is_int
from .series import Series, map_values

if TYPE_CHECKING:
    # mypy reads the methods as the classes' own; at run time the class bodies are plain ones.
    _IndexBase = Index
    _MultiIndexBase = MultiIndex
else:
    _IndexBase = _MultiIndexBase = object

# A path, as ``open`` takes it.
_Path = Union[str, "os.PathLike[str]"]


class _IndexMethods(_IndexBase):
    # ----- indexing ----------------------------------------------------------------------
    def __getitem__(self, key: Any) -> Any:  # noqa: ANN401 (a label, position, slice or mask; a label or an Index)
        if isinstance(key, Series):
            key = key.values
        if _is_int(key):
            return self.values[builtins.int(key)]
        if isinstance(self.values, list):
            if isinstance(key, slice):
                return Index(self.values[key], name=self.name, allow_list=True)
            if isinstance(key, pdarray):
                key = key.to_ndarray()
                if key.dtype == bool:
                    key = np.nonzero(key)[0]
            return Index([self.values[builtins.int(k)] for k in key], name=self.name, allow_list=True)
        if isinstance(key, list):
            key = array(np.asarray(key, dtype=np.int64))
        return Index(self.values[key], name=self.name)

    def map(self, arg: dict[Any, Any] | Series) -> Index:
        """The labels mapped through ``arg``.

        Parameters
        ----------
        arg : dict or Series
            Label -> new label (a Series maps its index to its values); a label ``arg`` lacks
            maps to a missing value.

        Returns
        -------
        Index
            The mapped labels, with this Index's name.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.Index(ak.array([1, 2, 1])).map({1: 10, 2: 20}).to_pandas().tolist()
        [10, 20, 10]
        """
        return Index(map_values(self.values, arg), name=self.name)

    # ----- IO ----------------------------------------------------------------------------
    def to_hdf(
        self, prefix_path: _Path, dataset: str = "index", mode: str = "truncate", file_type: str = "distribute"
    ) -> None:
        """Write the Index to HDF5 in Arkouda's layout (read back as an Index).

        Parameters
        ----------
        prefix_path : str or os.PathLike
            The files' prefix (one file per locale, ``_LOCALE0000``, ... appended, with
            ``file_type="distribute"``).
        dataset : str, default "index"
            The dataset's name.
        mode : str, default "truncate"
            ``"truncate"`` or ``"append"``.
        file_type : str, default "distribute"
            ``"distribute"`` (a file per locale) or ``"single"``.

        Examples
        --------
        >>> import atoll as ak
        >>> import os, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), "i")
        >>> ak.Index(ak.array([4, 5])).to_hdf(path)
        >>> ak.read_hdf(path + "_LOCALE*")["index"].tolist()
        [4, 5]
        """
        to_hdf({dataset: self}, prefix_path, mode=mode, file_type=file_type)

    def update_hdf(self, prefix_path: _Path, dataset: str = "index", repack: bool = True) -> None:
        """Replace (or add) the Index's dataset in existing HDF5 files.

        Parameters
        ----------
        prefix_path : str or os.PathLike
            The files' prefix.
        dataset : str, default "index"
            The dataset's name.
        repack : bool, default True
            Rewrite the files to free the replaced dataset's space.

        Examples
        --------
        >>> import atoll as ak
        >>> import os, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), "u")
        >>> ak.Index(ak.array([1])).to_hdf(path)
        >>> ak.Index(ak.array([7, 8])).update_hdf(path)
        >>> ak.read_hdf(path + "_LOCALE*")["index"].tolist()
        [7, 8]
        """
        update_hdf({dataset: self}, prefix_path, repack=repack)

    def to_parquet(
        self, prefix_path: _Path, dataset: str = "index", mode: str = "truncate", compression: str | None = None
    ) -> None:
        """Write the labels to Parquet files (one per locale).

        Parameters
        ----------
        prefix_path : str or os.PathLike
            The files' prefix.
        dataset : str, default "index"
            The column's name.
        mode : str, default "truncate"
            ``"truncate"`` or ``"append"``.
        compression : str, optional
            The Parquet codec (``"snappy"``, ``"gzip"``, ...); none by default.

        Examples
        --------
        >>> import atoll as ak
        >>> import os, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), "p")
        >>> ak.Index(ak.array([3, 1])).to_parquet(path)
        >>> ak.read_parquet(path + "_LOCALE*")["index"].tolist()
        [3, 1]
        """
        to_parquet({dataset: self.values}, prefix_path, mode=mode, compression=compression)

    def to_csv(self, prefix_path: _Path, dataset: str = "index", col_delim: str = ",", overwrite: bool = False) -> None:
        """Write the labels to CSV files (one per locale).

        Parameters
        ----------
        prefix_path : str or os.PathLike
            The files' prefix.
        dataset : str, default "index"
            The column's name.
        col_delim : str, default ","
            The column delimiter.
        overwrite : bool, default False
            Replace existing files in place of raising.

        Examples
        --------
        >>> import atoll as ak
        >>> import os, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), "c")
        >>> ak.Index(ak.array([2, 9])).to_csv(path)
        >>> ak.read_csv(path + "_LOCALE*")["index"].tolist()
        [2, 9]
        """
        to_csv({dataset: self.values}, prefix_path, col_delim=col_delim, overwrite=overwrite)


attach(Index, _IndexMethods)


class _MultiIndexMethods(_MultiIndexBase):
    def to_hdf(
        self, prefix_path: _Path, dataset: str = "index", mode: str = "truncate", file_type: str = "distribute"
    ) -> None:
        """Write the MultiIndex to HDF5 in Arkouda's layout (read back as a MultiIndex).

        Parameters
        ----------
        prefix_path : str or os.PathLike
            The files' prefix.
        dataset : str, default "index"
            The dataset's name.
        mode : str, default "truncate"
            ``"truncate"`` or ``"append"``.
        file_type : str, default "distribute"
            ``"distribute"`` (a file per locale) or ``"single"``.

        Examples
        --------
        >>> import atoll as ak
        >>> import os, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), "m")
        >>> ak.MultiIndex([ak.array([1, 2]), ak.array([3, 4])]).to_hdf(path)
        >>> type(ak.read_hdf(path + "_LOCALE*")["index"]).__name__
        'MultiIndex'
        """
        to_hdf({dataset: self}, prefix_path, mode=mode, file_type=file_type)


attach(MultiIndex, _MultiIndexMethods)
