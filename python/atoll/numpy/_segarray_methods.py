"""Methods of ``SegArray`` that call modules above ``atoll.numpy.segarray`` (the IO (``hdf5``,
``io``)): defined here, where both are known, and set on the class by ``atoll._attach.attach``;
the root ``atoll/__init__.py`` runs this module."""

from .._attach import attach
from ..hdf5 import read_hdf, to_hdf, update_hdf
from ..io import to_parquet
from .segarray import SegArray


class _SegArrayMethods:
    # ----- IO ----------------------------------------------------------------------------
    def to_hdf(self, prefix_path, dataset="segarray", mode="truncate", file_type="distribute"):
        """Writes the SegArray as ``dataset`` (a group of ``segments`` and ``values``) to HDF5
        files in Arkouda's layout (``ak.to_hdf``)."""

        to_hdf({dataset: self}, prefix_path, mode=mode, file_type=file_type)

    def update_hdf(self, prefix_path, dataset="segarray", repack=True):
        """Replaces ``dataset`` in existing HDF5 files (``ak.update_hdf``)."""

        update_hdf({dataset: self}, prefix_path, repack=repack)

    def to_parquet(self, prefix_path, dataset="segarray", mode="truncate", compression=None):
        """Writes the SegArray as a Parquet list column ``dataset`` (``ak.to_parquet``)."""

        to_parquet({dataset: self}, prefix_path, mode=mode, compression=compression)

    @classmethod
    def read_hdf(cls, prefix_path, dataset="segarray"):
        """``ak.read_hdf(prefix_path, datasets=dataset)``."""

        return read_hdf(prefix_path, datasets=dataset)

    @classmethod
    def load(cls, prefix_path, dataset="segarray", segment_name="segments", value_name="values"):
        return read_hdf(prefix_path + "*", datasets=dataset)[dataset]


attach(SegArray, _SegArrayMethods)
