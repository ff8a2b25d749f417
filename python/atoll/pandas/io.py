"""Arkouda's ``arkouda.pandas.io``: every file function in one module (Parquet, HDF5, CSV and
the format-dispatching ones).

>>> import atoll as ak, tempfile, os
>>> d = tempfile.mkdtemp()
>>> ak.to_hdf({"a": ak.arange(4)}, os.path.join(d, "x"))
>>> ak.read_hdf(os.path.join(d, "x_LOCALE*"))["a"].tolist()
[0, 1, 2, 3]
"""

from ..io import (  # noqa: F401
    read_parquet,
    to_parquet,
    get_datasets,
    ls,
    read,
    load,
    load_all,
    save_all,
    get_filetype,
    get_null_indices,
    read_tagged_data,
    import_data,
    export,
    snapshot,
    restore,
    read_zarr,
    to_zarr,
)
from ..hdf5 import to_hdf, read_hdf, update_hdf, ARKOUDA_HDF5_FILE_METADATA_GROUP  # noqa: F401
from ..csv import read_csv, to_csv  # noqa: F401
from ..csv import get_csv_columns


def ls_csv(filename, col_delim=","):
    """The column names of a CSV file."""

    return get_csv_columns(filename, col_delim)


def get_columns(filenames, col_delim=",", allow_errors=False):
    """The column names of the first CSV file."""
    return get_datasets(filenames, allow_errors=allow_errors, column_delim=col_delim)
