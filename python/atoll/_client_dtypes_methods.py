"""Methods of ``IPv4`` that call modules above ``atoll.client_dtypes`` (the IO (``hdf5``,
``io``)): defined here, where both are known, and set on the class by ``atoll._attach.attach``;
the root ``atoll/__init__.py`` runs this module."""

from ._attach import attach
from .client_dtypes import IPv4
from .hdf5 import to_hdf
from .io import to_parquet


class _IPv4Methods:
    # ----- files ------------------------------------------------------------------------
    def to_hdf(self, prefix_path, dataset="array", mode="truncate", file_type="distribute"):
        """Writes the addresses as ``dataset`` (an IPv4 object, ``objType`` 9) to HDF5."""

        to_hdf({dataset: self}, prefix_path, mode=mode, file_type=file_type)

    def to_parquet(self, prefix_path, dataset="array", mode="truncate", compression=None):
        """Writes the addresses (their uint64 integers) as ``dataset`` to Parquet."""

        to_parquet({dataset: self.values}, prefix_path, mode=mode, compression=compression)


attach(IPv4, _IPv4Methods)
