"""Arkouda's ``arkouda.pandas.io``: every file function in one module (Parquet, HDF5, CSV and
the format-dispatching ones).

>>> import atoll as ak, tempfile, os
>>> d = tempfile.mkdtemp()
>>> ak.to_hdf({"a": ak.arange(4)}, os.path.join(d, "x"))
>>> ak.read_hdf(os.path.join(d, "x_LOCALE*"))["a"].tolist()
[0, 1, 2, 3]
"""

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


def ls_csv(filename, col_delim=","):
    """The column names of a CSV file."""

    return get_csv_columns(filename, col_delim)


def get_columns(filenames, col_delim=",", allow_errors=False):
    """The column names of the first CSV file."""
    return get_datasets(filenames, allow_errors=allow_errors, column_delim=col_delim)
