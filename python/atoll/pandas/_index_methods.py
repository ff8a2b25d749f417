"""Methods of ``Index`` and ``MultiIndex`` that call modules above ``atoll.pandas.index``
(``Series`` and the IO): defined here, where both are known, and set on the class by
``atoll._attach.attach``; the root ``atoll/__init__.py`` runs this module."""

import builtins

import numpy as np

from .._attach import attach
from ..csv import to_csv
from ..hdf5 import to_hdf, update_hdf
from ..io import to_parquet
from ..numpy.pdarrayclass import pdarray
from ..numpy.pdarraycreation import array
from .index import Index, MultiIndex, _is_int
from .series import Series, map_values


class _IndexMethods:
    # ----- indexing ----------------------------------------------------------------------
    def __getitem__(self, key):
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

    def map(self, arg):
        """The labels mapped through ``arg`` (a dict or a Series)."""

        return Index(map_values(self.values, arg), name=self.name)

    # ----- IO ----------------------------------------------------------------------------
    def to_hdf(self, prefix_path, dataset="index", mode="truncate", file_type="distribute"):
        """Writes the Index to HDF5 in Arkouda's layout (read back as an Index)."""

        to_hdf({dataset: self}, prefix_path, mode=mode, file_type=file_type)

    def update_hdf(self, prefix_path, dataset="index", repack=True):
        update_hdf({dataset: self}, prefix_path, repack=repack)

    def to_parquet(self, prefix_path, dataset="index", mode="truncate", compression=None):
        to_parquet({dataset: self.values}, prefix_path, mode=mode, compression=compression)

    def to_csv(self, prefix_path, dataset="index", col_delim=",", overwrite=False):
        to_csv({dataset: self.values}, prefix_path, col_delim=col_delim, overwrite=overwrite)


attach(Index, _IndexMethods)


class _MultiIndexMethods:
    def to_hdf(self, prefix_path, dataset="index", mode="truncate", file_type="distribute"):
        to_hdf({dataset: self}, prefix_path, mode=mode, file_type=file_type)


attach(MultiIndex, _MultiIndexMethods)
