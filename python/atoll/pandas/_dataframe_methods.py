"""Methods of ``DataFrame`` that call modules above ``atoll.pandas.dataframe`` (joins and the IO).

They are defined here, where both are known, and set on the class by ``atoll._attach.attach``;
the root ``atoll/__init__.py`` runs this module.
"""

from __future__ import annotations

import os
from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Union

from .._attach import attach
from ..csv import read_csv, to_csv
from ..hdf5 import to_hdf, update_hdf
from ..io import load_all, to_parquet
from .dataframe import DataFrame
from .join import merge

if TYPE_CHECKING:
    # mypy reads the methods as DataFrame's own; at run time the class body is a plain one.
    _Base = DataFrame
else:
    _Base = object

# A path, as ``open`` takes it.
_Path = Union[str, "os.PathLike[str]"]
# One column name, or several.
_Keys = Union[Hashable, "list[Hashable]", None]


class _DataFrameMethods(_Base):
    # ----- joins -------------------------------------------------------------------------
    def merge(
        self,
        right: DataFrame,
        on: _Keys = None,
        how: str = "inner",
        left_suffix: str = "_x",
        right_suffix: str = "_y",
        convert_ints: bool = True,
        sort: bool = True,
        left_on: _Keys = None,
        right_on: _Keys = None,
    ) -> DataFrame:
        """A database-style join of this DataFrame with ``right`` (``ak.merge(self, right, ...)``).

        Parameters
        ----------
        right : DataFrame
            The right side.
        on : hashable or list of hashable, optional
            The key columns of both sides (default the columns both have).
        how : str, default "inner"
            ``"inner"``, ``"left"``, ``"right"`` or ``"outer"``.
        left_suffix, right_suffix : str, default "_x", "_y"
            Appended to the names of the other columns that both sides have.
        convert_ints : bool, default True
            Give int columns with missing rows as float64 (NaN), as pandas; else keep their
            dtype with 0 there.
        sort : bool, default True
            Sort the result by the keys.
        left_on, right_on : hashable or list of hashable, optional
            The key columns of each side, in place of ``on``.

        Returns
        -------
        DataFrame
            The joined rows.

        Examples
        --------
        >>> import atoll as ak
        >>> a = ak.DataFrame({"k": ak.array([1, 2]), "x": ak.array([5, 6])})
        >>> b = ak.DataFrame({"k": ak.array([2, 3]), "y": ak.array([7, 8])})
        >>> a.merge(b, on="k").to_pandas()
           k  x  y
        0  2  6  7
        """
        out: DataFrame = merge(
            self,
            right,
            on=on,
            how=how,
            left_suffix=left_suffix,
            right_suffix=right_suffix,
            convert_ints=convert_ints,
            sort=sort,
            left_on=left_on,
            right_on=right_on,
        )
        return out

    def to_hdf(
        self, path: _Path, index: bool = False, columns: Sequence[Hashable] | None = None, file_type: str = "distribute"
    ) -> None:
        """Write the columns (and the index as "Index") to HDF5 in Arkouda's layout.

        Parameters
        ----------
        path : str or os.PathLike
            The files' prefix (a file per locale with ``file_type="distribute"``).
        index : bool, default False
            Write the index too.
        columns : sequence of hashable, optional
            The columns to write (default all).
        file_type : str, default "distribute"
            ``"distribute"`` (a file per locale) or ``"single"``.

        Examples
        --------
        >>> import atoll as ak
        >>> import os, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), "df")
        >>> ak.DataFrame({"a": ak.arange(3)}).to_hdf(path)
        >>> ak.DataFrame.load(path).to_pandas()
           a
        0  0
        1  1
        2  2
        """
        to_hdf(self._prep_data(index, columns), path, file_type=file_type)

    def _to_hdf_snapshot(
        self, path: _Path, dataset: str = "DataFrame", mode: str = "truncate", file_type: str = "distribute"
    ) -> None:
        to_hdf({dataset: self}, path, mode=mode, file_type=file_type)

    def update_hdf(
        self, prefix_path: _Path, index: bool = False, columns: Sequence[Hashable] | None = None, repack: bool = True
    ) -> None:
        """Replace (or add) the columns' datasets in existing HDF5 files.

        Parameters
        ----------
        prefix_path : str or os.PathLike
            The files' prefix.
        index : bool, default False
            Write the index too.
        columns : sequence of hashable, optional
            The columns to write (default all).
        repack : bool, default True
            Rewrite the files to free the replaced datasets' space.

        Examples
        --------
        >>> import atoll as ak
        >>> import os, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), "du")
        >>> ak.DataFrame({"a": ak.arange(2)}).to_hdf(path)
        >>> ak.DataFrame({"a": ak.array([5, 6])}).update_hdf(path)
        >>> ak.DataFrame.load(path)["a"].tolist()
        [5, 6]
        """
        update_hdf(self._prep_data(index, columns), prefix_path, repack=repack)

    def to_parquet(
        self,
        path: _Path,
        index: bool = False,
        columns: Sequence[Hashable] | None = None,
        compression: str | None = None,
        convert_categoricals: bool = False,
    ) -> None:
        """Write the columns (SegArrays as list columns) to one Parquet file per locale.

        Parameters
        ----------
        path : str or os.PathLike
            The files' prefix.
        index : bool, default False
            Write the index too.
        columns : sequence of hashable, optional
            The columns to write (default all).
        compression : str, optional
            The Parquet codec (``"snappy"``, ``"gzip"``, ...); none by default.
        convert_categoricals : bool, default False
            Write Categoricals as their string values.

        Examples
        --------
        >>> import atoll as ak
        >>> import os, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), "dp")
        >>> ak.DataFrame({"a": ak.array([1.5, 2.5])}).to_parquet(path)
        >>> ak.read_parquet(path + "_LOCALE*")["a"].tolist()
        [1.5, 2.5]
        """
        to_parquet(
            self._prep_data(index, columns), path, compression=compression, convert_categoricals=convert_categoricals
        )

    def to_csv(
        self,
        path: _Path,
        index: bool = False,
        columns: Sequence[Hashable] | None = None,
        col_delim: str = ",",
        overwrite: bool = False,
    ) -> None:
        """Write the columns to CSV files (one per locale).

        Parameters
        ----------
        path : str or os.PathLike
            The files' prefix.
        index : bool, default False
            Write the index too.
        columns : sequence of hashable, optional
            The columns to write (default all).
        col_delim : str, default ","
            The column delimiter.
        overwrite : bool, default False
            Replace existing files in place of raising.

        Examples
        --------
        >>> import atoll as ak
        >>> import os, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), "dc")
        >>> ak.DataFrame({"a": ak.arange(2)}).to_csv(path)
        >>> ak.DataFrame.read_csv(path + "_LOCALE*")["a"].tolist()
        [0, 1]
        """
        to_csv(self._prep_data(index, columns), path, col_delim=col_delim, overwrite=overwrite)

    @classmethod
    def read_csv(cls, filename: _Path, col_delim: str = ",") -> DataFrame:
        r"""The DataFrame of the columns of CSV files.

        Parameters
        ----------
        filename : str or os.PathLike
            The file, or a glob of files.
        col_delim : str, default ","
            The column delimiter.

        Returns
        -------
        DataFrame
            A column per CSV column.

        Examples
        --------
        >>> import atoll as ak
        >>> import os, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), "r.csv")
        >>> with open(path, "w") as f:
        ...     _ = f.write("a,b\n1,x\n2,y\n")
        >>> ak.DataFrame.read_csv(path)["b"].tolist()
        ['x', 'y']
        """
        return cls(read_csv(filename, column_delim=col_delim))

    @classmethod
    def load(cls, prefix_path: _Path, file_format: str = "INFER") -> DataFrame:
        """The DataFrame of every dataset of the files at ``prefix_path``.

        Parameters
        ----------
        prefix_path : str or os.PathLike
            The files' prefix.
        file_format : str, default "INFER"
            ``"HDF5"``, ``"Parquet"``, ``"CSV"``, or ``"INFER"`` from the files.

        Returns
        -------
        DataFrame
            A column per dataset; a dataset "Index" becomes the index.

        Examples
        --------
        >>> import atoll as ak
        >>> import os, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), "dl")
        >>> ak.DataFrame({"a": ak.array([3, 4])}).to_parquet(path)
        >>> ak.DataFrame.load(path)["a"].tolist()
        [3, 4]
        """
        data = load_all(prefix_path, file_format=file_format)
        idx = data.pop("Index", None)
        df = cls(data)
        if idx is not None:
            df._set_index(idx)
        return df


attach(DataFrame, _DataFrameMethods)
