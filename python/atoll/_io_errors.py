"""The exceptions of the file readers and writers (HDF5, Parquet, CSV).

Each is both the precise Python kind (``FileNotFoundError``, ``ValueError``, ``TypeError``)
and a ``RuntimeError``, as Arkouda's server errors are. The format-neutral classes are the
bases; each format has its own subclasses, so ``except HDF5TypeError`` keeps catching what
it caught, and a Parquet or CSV file never raises an ``HDF5*`` class.
"""

from __future__ import annotations

from typing import Callable, TypeVar

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
    """A dataset (column) of a type that cannot be read or written (any format).

    Also a dataset whose type differs between the files read together.
    """


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
    """A Parquet dataset of a type Atoll does not read or write.

    Binary, a decimal beyond 128 bits, a list of lists, a dtype that differs between files,
    nulls in an integer column, or a column Parquet files of Atoll cannot hold (bigint).
    """


class CSVFileNotFoundError(AtollFileNotFoundError):
    """A CSV file is missing."""


class CSVFormatError(FileFormatError):
    """A CSV file that cannot be read.

    Not UTF-8, a malformed header, rows of another field count, a missing column, or a value
    that is not of its column's type.
    """


class CSVTypeError(DatasetTypeError):
    """A CSV column of a type Atoll does not read or write."""


_T = TypeVar("_T")


def engine_file_errors(
    not_found: Callable[[str], BaseException],
    type_error: Callable[[str], BaseException],
    format_error: Callable[[str], BaseException],
    fn: Callable[..., _T],
    *args: object,
) -> _T:
    """``fn(*args)`` with the engine's file errors as a file format's exceptions.

    A missing file raises ``not_found``, a ``TypeError`` ``type_error``, a ``ValueError``
    ``format_error``; an error that is a ``RuntimeError`` already passes unchanged.

    Parameters
    ----------
    not_found, type_error, format_error : type
        The format's exception classes (``CSVFileNotFoundError``, ...), called with the
        engine error's message.
    fn : callable
        The engine's reader or writer.
    *args : object
        Its arguments.

    Returns
    -------
    object
        What ``fn`` returns.

    Raises
    ------
    AtollFileNotFoundError, DatasetTypeError, FileFormatError
        As the classes given, in place of the engine's ``FileNotFoundError``, ``TypeError``
        and ``ValueError``.

    Examples
    --------
    >>> from atoll._io_errors import CSVFileNotFoundError, CSVFormatError, CSVTypeError, engine_file_errors
    >>> def read(path):
    ...     raise FileNotFoundError(f"no such file: {path}")
    >>> engine_file_errors(CSVFileNotFoundError, CSVTypeError, CSVFormatError, read, "x.csv")
    Traceback (most recent call last):
    ...
    atoll._io_errors.CSVFileNotFoundError: no such file: x.csv
    >>> engine_file_errors(CSVFileNotFoundError, CSVTypeError, CSVFormatError, len, "abc")
    3
    """
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
