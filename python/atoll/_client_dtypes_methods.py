"""Methods of ``IPv4`` that call modules above ``atoll.client_dtypes``.

They call the IO (``hdf5``, ``io``): defined here, where both are known, and set on the class
by ``atoll._attach.attach``; the root ``atoll/__init__.py`` runs this module.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Union

from ._attach import attach
from .client_dtypes import IPv4
from .hdf5 import to_hdf
from .io import to_parquet

if TYPE_CHECKING:
    # mypy reads the methods as IPv4's own; at run time the class body is a plain one.
    _Base = IPv4
else:
    _Base = object

# A path, as ``open`` takes it.
_Path = Union[str, "os.PathLike[str]"]


class _IPv4Methods(_Base):
    # ----- files ------------------------------------------------------------------------
    def to_hdf(
        self, prefix_path: _Path, dataset: str = "array", mode: str = "truncate", file_type: str = "distribute"
    ) -> None:
        """Write the addresses as ``dataset`` (an IPv4 object, ``objType`` 9) to HDF5."""
        to_hdf({dataset: self}, prefix_path, mode=mode, file_type=file_type)

    def to_parquet(
        self, prefix_path: _Path, dataset: str = "array", mode: str = "truncate", compression: str | None = None
    ) -> None:
        """Write the addresses (their uint64 integers) as ``dataset`` to Parquet."""
        to_parquet({dataset: self.values}, prefix_path, mode=mode, compression=compression)


attach(IPv4, _IPv4Methods)
