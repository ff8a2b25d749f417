"""Arkouda's ``arkouda.pandas.io``: every file function in one module.

The Parquet, HDF5 and CSV functions and the format-dispatching ones.

>>> import atoll as ak, tempfile, os
>>> d = tempfile.mkdtemp()
>>> ak.to_hdf({"a": ak.arange(4)}, os.path.join(d, "x"))
>>> ak.read_hdf(os.path.join(d, "x_LOCALE*"))["a"].tolist()
[0, 1, 2, 3]
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Union

from ..csv import get_csv_columns, read_csv, to_csv  # noqa: F401
from ..hdf5 import ARKOUDA_HDF5_FILE_METADATA_GROUP, read_hdf, to_hdf, update_hdf  # noqa: F401
from ..io import (  # noqa: F401
    export,
    get_datasets,
    get_filetype,
    get_null_indices,
    import_data,
    load,
    load_all,
    ls,
    read,
    read_parquet,
    read_tagged_data,
    read_zarr,
    restore,
    save_all,
    snapshot,
    to_parquet,
    to_zarr,
)

# A path, as ``open`` takes it.
_Path = Union[str, "os.PathLike[str]"]


def ls_csv(filename: _Path, col_delim: str = ",") -> list[str]:
    r"""The column names of a CSV file.

    Parameters
    ----------
    filename : str or os.PathLike
        The file.
    col_delim : str, default ","
        The column delimiter.

    Returns
    -------
    list of str
        The names in the file's header line.

    Examples
    --------
    >>> import tempfile, os
    >>> from atoll.pandas.io import ls_csv
    >>> path = os.path.join(tempfile.mkdtemp(), "x.csv")
    >>> with open(path, "w") as f:
    ...     _ = f.write("a,b\n1,2\n")
    >>> ls_csv(path)
    ['a', 'b']
    """
    return get_csv_columns(filename, col_delim)


def get_columns(filenames: _Path | Sequence[_Path], col_delim: str = ",", allow_errors: bool = False) -> list[str]:
    r"""The column names of the first readable file of ``filenames``.

    Parameters
    ----------
    filenames : str, os.PathLike or sequence of them
        The files (CSV, HDF5 or Parquet).
    col_delim : str, default ","
        The column delimiter of CSV files.
    allow_errors : bool, default False
        Skip the files that cannot be read in place of raising.

    Returns
    -------
    list of str
        The column (dataset) names.

    Examples
    --------
    >>> import tempfile, os
    >>> from atoll.pandas.io import get_columns
    >>> path = os.path.join(tempfile.mkdtemp(), "y.csv")
    >>> with open(path, "w") as f:
    ...     _ = f.write("x\n1\n")
    >>> get_columns(path)
    ['x']
    """
    return get_datasets(filenames, allow_errors=allow_errors, column_delim=col_delim)
