"""Methods of ``SegArray`` that call modules above ``atoll.numpy.segarray``.

The IO (``hdf5``, ``io``): defined here, where both are known, and set on the class by
``atoll._attach.attach``; the root ``atoll/__init__.py`` runs this module.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from .._attach import attach
from ..hdf5 import read_hdf, to_hdf, update_hdf
from ..io import to_parquet
from .segarray import SegArray

if TYPE_CHECKING:
    _Base = SegArray  # the methods see the class they are set on
else:
    _Base = object


class _SegArrayMethods(_Base):
    # ----- IO ----------------------------------------------------------------------------
    def to_hdf(
        self, prefix_path: str, dataset: str = "segarray", mode: str = "truncate", file_type: str = "distribute"
    ) -> None:
        """Writes the SegArray as ``dataset`` to HDF5 files in Arkouda's layout (``ak.to_hdf``).

        The dataset is a group of ``segments`` and ``values``.
        """
        to_hdf({dataset: self}, prefix_path, mode=mode, file_type=file_type)

    def update_hdf(self, prefix_path: str, dataset: str = "segarray", repack: bool = True) -> None:
        """Replaces ``dataset`` in existing HDF5 files (``ak.update_hdf``)."""
        update_hdf({dataset: self}, prefix_path, repack=repack)

    def to_parquet(
        self, prefix_path: str, dataset: str = "segarray", mode: str = "truncate", compression: str | None = None
    ) -> None:
        """Writes the SegArray as a Parquet list column ``dataset`` (``ak.to_parquet``)."""
        to_parquet({dataset: self}, prefix_path, mode=mode, compression=compression)

    @classmethod
    def read_hdf(cls, prefix_path: str, dataset: str = "segarray") -> object:
        """``ak.read_hdf(prefix_path, datasets=dataset)``."""
        return read_hdf(prefix_path, datasets=dataset)

    @classmethod
    def load(
        cls, prefix_path: str, dataset: str = "segarray", segment_name: str = "segments", value_name: str = "values"
    ) -> SegArray:
        """The SegArray ``dataset`` of the HDF5 files ``prefix_path*`` (the names are Arkouda's, unused)."""
        return cast(SegArray, read_hdf(prefix_path + "*", datasets=dataset)[dataset])


attach(SegArray, _SegArrayMethods)
