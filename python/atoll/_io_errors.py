"""The exceptions of the file readers and writers (HDF5, Parquet, CSV).

Each is both the precise Python kind (``FileNotFoundError``, ``ValueError``, ``TypeError``)
and a ``RuntimeError``, as Arkouda's server errors are. The format-neutral classes are the
bases; each format has its own subclasses, so ``except HDF5TypeError`` keeps catching what
it caught, and a Parquet or CSV file never raises an ``HDF5*`` class.
"""

__all__ = [
    "AtollFileNotFoundError",
    "FileFormatError",
    "DatasetTypeError",
    "HDF5FileNotFoundError",
    "HDF5FormatError",
    "HDF5TypeError",
    "ParquetFileNotFoundError",
    "ParquetFormatError",
    "ParquetTypeError",
    "CSVFileNotFoundError",
    "CSVFormatError",
    "CSVTypeError",
    "engine_file_errors",
]


class AtollFileNotFoundError(FileNotFoundError, RuntimeError):
    """A file to read is missing, or a pattern matches no file (any format)."""


class FileFormatError(ValueError, RuntimeError):
    """A file that is not readable in its format, or lacks a dataset (any format)."""


class DatasetTypeError(TypeError, RuntimeError):
    """A dataset (column) of a type that cannot be read or written, or that differs between
    files (any format)."""


class HDF5FileNotFoundError(AtollFileNotFoundError):
    """An HDF5 file is missing."""


class HDF5FormatError(FileFormatError):
    """A file is not readable HDF5, or lacks a dataset."""


class HDF5TypeError(DatasetTypeError):
    """An HDF5 dataset of a type that cannot be read, or that differs between files."""


class ParquetFileNotFoundError(AtollFileNotFoundError):
    """A Parquet file is missing."""


class ParquetFormatError(FileFormatError):
    """A file that is not readable Parquet, or lacks a dataset."""


class ParquetTypeError(DatasetTypeError):
    """A Parquet dataset of a type Atoll does not read (binary, decimal beyond 128 bits, a
    list of lists), a dtype that differs between files, nulls in an integer column, or a
    column Parquet files of Atoll cannot hold (bigint)."""


class CSVFileNotFoundError(AtollFileNotFoundError):
    """A CSV file is missing."""


class CSVFormatError(FileFormatError):
    """A CSV file that cannot be read: not UTF-8, a malformed header, rows of another field
    count, a missing column, or a value that is not of its column's type."""


class CSVTypeError(DatasetTypeError):
    """A CSV column of a type Atoll does not read or write."""


def engine_file_errors(not_found, type_error, format_error, fn, *args):
    """``fn(*args)`` with the engine's file errors as a file format's exceptions: a missing
    file as ``not_found``, a ``TypeError`` as ``type_error``, a ``ValueError`` as
    ``format_error``; an error that is a RuntimeError already passes unchanged."""
    try:
        return fn(*args)
    except FileNotFoundError as e:
        if isinstance(e, RuntimeError):
            raise
        raise not_found(str(e)) from None
    except TypeError as e:
        if isinstance(e, RuntimeError):
            raise
        raise type_error(str(e)) from None
    except ValueError as e:
        if isinstance(e, RuntimeError):
            raise
        raise format_error(str(e)) from None
