"""Methods of ``DataFrame`` that call modules above ``atoll.pandas.dataframe`` (joins and the IO):
defined here, where both are known, and set on the class by ``atoll._attach.attach``; the root
``atoll/__init__.py`` runs this module."""

from .._attach import attach
from ..csv import read_csv, to_csv
from ..hdf5 import to_hdf, update_hdf
from ..io import load_all, to_parquet
from .dataframe import DataFrame
from .join import merge


class _DataFrameMethods:
    # ----- joins -------------------------------------------------------------------------
    def merge(
        self,
        right,
        on=None,
        how="inner",
        left_suffix="_x",
        right_suffix="_y",
        convert_ints=True,
        sort=True,
        left_on=None,
        right_on=None,
    ):
        """``ak.merge(self, right, ...)``."""

        return merge(
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

    def to_hdf(self, path, index=False, columns=None, file_type="distribute"):
        """Writes the columns (and the index as "Index") to HDF5 in Arkouda's layout."""

        to_hdf(self._prep_data(index, columns), path, file_type=file_type)

    def _to_hdf_snapshot(self, path, dataset="DataFrame", mode="truncate", file_type="distribute"):
        to_hdf({dataset: self}, path, mode=mode, file_type=file_type)

    def update_hdf(self, prefix_path, index=False, columns=None, repack=True):
        update_hdf(self._prep_data(index, columns), prefix_path, repack=repack)

    def to_parquet(self, path, index=False, columns=None, compression=None, convert_categoricals=False):
        """Writes the columns (SegArrays as list columns) to one Parquet file per locale."""

        to_parquet(
            self._prep_data(index, columns), path, compression=compression, convert_categoricals=convert_categoricals
        )

    def to_csv(self, path, index=False, columns=None, col_delim=",", overwrite=False):
        to_csv(self._prep_data(index, columns), path, col_delim=col_delim, overwrite=overwrite)

    @classmethod
    def read_csv(cls, filename, col_delim=","):
        return cls(read_csv(filename, column_delim=col_delim))

    @classmethod
    def load(cls, prefix_path, file_format="INFER"):
        """The DataFrame of every dataset of the files at ``prefix_path``."""

        data = load_all(prefix_path, file_format=file_format)
        idx = data.pop("Index", None)
        df = cls(data)
        if idx is not None:
            df._set_index(idx)
        return df


attach(DataFrame, _DataFrameMethods)
