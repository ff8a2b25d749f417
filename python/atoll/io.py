"""File IO with Arkouda's names: Parquet, and the functions that take any format.

Parquet (``ak.read_parquet``, ``ak.to_parquet``, ``pdarray.to_parquet``), and the functions
that take any format (``ak.read``, ``ak.load``, ``ak.load_all``, ``ak.get_datasets``,
``ak.ls``, ``ak.get_filetype``); HDF5 is in ``hdf5.py``, CSV in ``csv.py``. Readers return a
dict name -> object, as Arkouda's do.

Every locale reads the rows of its own part (the row groups that overlap it) and writes its
own file, ``<prefix>_LOCALE0000.parquet`` (an extension in ``prefix_path`` moves to the end:
``x.parquet`` gives ``x_LOCALE0000.parquet``). The files are plain Parquet: pyarrow, pandas and
polars read them (``pd.read_parquet(sorted(glob("x_LOCALE*")))``). Datasets: int64, uint64,
float64 and bool (int8-32, uint8-32 and float32 read widened; nulls read as NaN in float
columns), UTF-8 strings, read as ``ak.Strings`` (a null string reads as ``""``, as in
Arkouda) and written from ``ak.Strings`` (``Strings.to_parquet`` too), and lists of them
(Parquet LIST columns), read as and written from ``ak.SegArray``. bigint columns are refused
(``ParquetTypeError`` naming the column): Parquet's integers end at 64 bits, and HDF5 or CSV
hold them. A missing file is a ``FileNotFoundError`` (``ParquetFileNotFoundError``), a
missing dataset or a corrupt file a ``ValueError`` (``ParquetFormatError``), a dataset of
another type a ``TypeError`` (``ParquetTypeError``); nothing in the session is lost. The
errors of every format share the format-neutral bases ``AtollFileNotFoundError``,
``FileFormatError`` and ``DatasetTypeError`` (all also RuntimeErrors, as Arkouda's).
"""

from __future__ import annotations

import glob as _glob
import inspect
import os
import warnings
from collections.abc import Iterable, Sequence
from typing import Any, NoReturn, Union

import numpy as np

from . import _atoll
from ._io_errors import (
    AtollFileNotFoundError,
    DatasetTypeError,
    FileFormatError,
    ParquetFileNotFoundError,
    ParquetFormatError,
    ParquetTypeError,
    engine_file_errors,
)
from ._optional import has, pa, pd, pq
from .csv import get_csv_columns, read_csv, to_csv
from .hdf5 import (
    get_hdf_datasets,
    locale_files,
    ls_hdf,
    read_hdf,
    split_prefix,
    to_hdf,
)
from .numpy._bigint import BigIntArray
from .numpy.pdarrayclass import pdarray
from .numpy.pdarraycreation import arange, array
from .numpy.pdarraymanipulation import concatenate
from .numpy.segarray import SegArray
from .numpy.strings import Strings, from_list
from .numpy.timeclass import Datetime, Timedelta, is_time
from .pandas.categorical import Categorical
from .pandas.dataframe import DataFrame
from .pandas.groupbyclass import GroupBy
from .pandas.interop import column_from_arrow
from .progress import tracked

# A file name or path, or several (names may be glob patterns).
_Path = Union[str, "os.PathLike[str]"]
_Paths = Union[_Path, Iterable[_Path]]

__all__ = [
    "read_parquet",
    "to_parquet",
    "get_datasets",
    "ls",
    "read",
    "load",
    "load_all",
    "save_all",
    "get_filetype",
    "get_null_indices",
    "read_tagged_data",
    "import_data",
    "export",
    "snapshot",
    "restore",
    "ParquetTypeError",
    "ParquetFormatError",
    "ParquetFileNotFoundError",
    "AtollFileNotFoundError",
    "FileFormatError",
    "DatasetTypeError",
]


def _expand(filenames: _Paths) -> list[str]:
    """The files named, each pattern (``*``, ``?``, ``[``) expanded in sorted order."""
    given = [filenames] if isinstance(filenames, (str, os.PathLike)) else list(filenames)
    out: list[str] = []
    for p in given:
        f = os.fspath(p)
        if _glob.has_magic(f):
            hits = sorted(_glob.glob(f))
            if not hits:
                raise FileNotFoundError(f"file not found: {f}: no file matches the pattern")
            out.extend(hits)
        else:
            out.append(f)
    if not out:
        raise ValueError("filenames: no files given")
    return out


def _names(datasets: str | Iterable[str], what: str = "datasets") -> list[str]:
    if isinstance(datasets, str):
        return [datasets]
    names = list(datasets)
    if not all(isinstance(d, str) for d in names):
        raise TypeError(f"{what}: expected names (str), got {names!r}")
    return names


_HDF5_MAGIC = b"\x89HDF\r\n\x1a\n"


def get_filetype(filenames: _Path | Sequence[_Path]) -> str:
    """The format of the first file, by its first bytes.

    Parameters
    ----------
    filenames : str, path, or list of them
        The files (a name may be a glob pattern).

    Returns
    -------
    str
        ``'HDF5'``, ``'Parquet'`` or ``'CSV'``.

    Raises
    ------
    ValueError
        An empty name.
    AtollFileNotFoundError
        The file is missing.
    FileFormatError
        The file is empty.

    Examples
    --------
    >>> import atoll as ak
    >>> import os, tempfile
    >>> prefix = os.path.join(tempfile.mkdtemp(), "t")
    >>> ak.to_parquet({"n": ak.arange(3), "s": ak.array(["a", "b", "c"])}, prefix)
    >>> ak.get_filetype(prefix + "_LOCALE0000.parquet")
    'Parquet'
    """
    f: Any = filenames[0] if isinstance(filenames, (list, tuple)) else filenames
    if not (f and builtins_str(f).strip()):
        raise ValueError("filename cannot be an empty string")
    try:
        first = _expand(f)[0]
    except FileNotFoundError as e:
        raise AtollFileNotFoundError(str(e)) from None
    try:
        with open(first, "rb") as fh:
            head = fh.read(8)
            if head[:8] == _HDF5_MAGIC:
                return "HDF5"
            if head[:4] == b"PAR1":
                return "Parquet"
            fh.seek(0)
            return "CSV" if fh.read(1) else _unknown(first)
    except FileNotFoundError:
        raise AtollFileNotFoundError(f"File {first} does not exist") from None


def _unknown(f: str) -> NoReturn:
    raise FileFormatError(f"{f}: an empty file is neither HDF5, Parquet nor CSV")


def builtins_str(x: _Path) -> str:
    """``x`` as a str: a path's ``os.fspath``.

    Parameters
    ----------
    x : str or path
        The name.

    Returns
    -------
    str
        The name as a str.

    Examples
    --------
    >>> import pathlib
    >>> from atoll.io import builtins_str
    >>> builtins_str(pathlib.Path("/tmp/x"))
    '/tmp/x'
    """
    return x if isinstance(x, str) else os.fspath(x)


def get_datasets(
    filenames: _Path | Sequence[_Path], allow_errors: bool = False, column_delim: str = ",", read_nested: bool = True
) -> list[str]:
    """The dataset (column) names of the first readable file of ``filenames``.

    Parameters
    ----------
    filenames : str, path, or list of them
        HDF5, Parquet or CSV files.
    allow_errors : bool, default False
        Go on to the next file where one cannot be read.
    column_delim : str, default ','
        A CSV file's delimiter.
    read_nested : bool, default True
        Arkouda's option; not used.

    Returns
    -------
    list of str
        The names.

    Raises
    ------
    OSError, ValueError, RuntimeError
        A file cannot be read (the last one's error with ``allow_errors``).

    Examples
    --------
    >>> import atoll as ak
    >>> import os, tempfile
    >>> prefix = os.path.join(tempfile.mkdtemp(), "t")
    >>> ak.to_parquet({"n": ak.arange(3), "s": ak.array(["a", "b", "c"])}, prefix)
    >>> ak.get_datasets(prefix + "_LOCALE0000.parquet")
    ['n', 's']
    """
    files = filenames if isinstance(filenames, (list, tuple)) else [filenames]
    last: Exception | None = None
    names: list[str]
    for f in files:
        try:
            kind = get_filetype(f)
            if kind == "HDF5":
                names = get_hdf_datasets(_expand(f)[0])
            elif kind == "Parquet":
                names = [d[0] for d in _file_errors(_atoll.parquet_datasets, _expand(f)[0])]
            else:
                names = get_csv_columns(_expand(f)[0], column_delim)
            if names:
                return names
        except (OSError, ValueError, RuntimeError) as e:
            last = e
            if not allow_errors:
                raise
    if last is not None:
        raise last
    raise RuntimeError("Unable to identify datasets.")


def ls(filename: _Path, col_delim: str = ",", read_nested: bool = True) -> list[Any]:
    """A description of each dataset of the file.

    Parameters
    ----------
    filename : str or path
        An HDF5, Parquet or CSV file.
    col_delim : str, default ','
        A CSV file's delimiter.
    read_nested : bool, default True
        Arkouda's option; not used.

    Returns
    -------
    list
        HDF5 objects (path, kind, type, length, attributes), Parquet columns (name, dtype or
        None when Atoll cannot read it, Parquet type), or CSV column names.

    Raises
    ------
    ValueError
        An empty name.
    AtollFileNotFoundError
        The file is missing.

    Examples
    --------
    >>> import atoll as ak
    >>> import os, tempfile
    >>> prefix = os.path.join(tempfile.mkdtemp(), "t")
    >>> ak.to_parquet({"n": ak.arange(3), "s": ak.array(["a", "b", "c"])}, prefix)
    >>> [(name, dtype) for name, dtype, _ in ak.ls(prefix + "_LOCALE0000.parquet")]
    [('n', 'int64'), ('s', 'str')]
    """
    if not isinstance(filename, (str, os.PathLike)) or not os.fspath(filename).strip():
        raise ValueError("filename cannot be an empty string")
    kind = get_filetype(filename)
    if kind == "HDF5":
        described: list[Any] = ls_hdf(_expand(filename)[0])
        return described
    if kind == "Parquet":
        return list(_file_errors(_atoll.parquet_datasets, _expand(filename)[0]))

    return get_csv_columns(_expand(filename)[0], col_delim)


def _file_errors(fn: Any, *args: object) -> Any:  # noqa: ANN401 (an engine call and its result)
    """``fn(*args)`` with the engine's file errors as Parquet's exceptions."""
    return engine_file_errors(ParquetFileNotFoundError, ParquetTypeError, ParquetFormatError, fn, *args)


@tracked("read_parquet")
def read_parquet(
    filenames: _Paths,
    datasets: str | Sequence[str] | None = None,
    iterative: bool = False,
    strict_types: bool = True,
    allow_errors: bool = False,
    tag_data: bool = False,
    read_nested: bool = True,
    has_non_float_nulls: bool = False,
    null_handling: str | None = None,
    fixed_len: int = -1,
    categorical: bool | str | Sequence[str] | None = None,
) -> dict[str, Any]:
    """Read datasets of Parquet files; their rows in order form the arrays.

    List columns (Parquet LIST of a numeric or string type, as pyarrow and pandas write lists)
    read as ``SegArray``; ``read_nested=False`` leaves them out of a read of every dataset.

    ``tag_data``: also "Filename_Codes", the index of the file each row comes from.
    ``null_handling``: 'only floats' (the default: nulls read as NaN in float columns and as
    "" in string columns; an integer or boolean column with nulls raises a ``ParquetTypeError``
    that names it) or 'all' (integer columns with nulls read as float64 with NaN, through
    pyarrow; a boolean column with nulls is still refused, naming it); 'none' reads as
    'only floats'. ``has_non_float_nulls=True`` is the older spelling of 'all'. ``iterative`` and ``strict_types`` are accepted for Arkouda's
    signature.

    ``categorical`` (an Atoll extension; Arkouda's ``read_parquet`` has no such parameter):
    string datasets to read as ``Categorical`` instead of ``Strings`` -- a name or a list of
    names, or True for every string dataset read. Each row's string maps to a code through a
    small table of the column's distinct values (which a dictionary-encoded column, as pyarrow,
    pandas and polars write strings, keeps small), the distinct values of every file, row group
    and locale are merged, and the categories come sorted by code point with "N/A" appended,
    exactly as ``Categorical(strings)`` makes them, without building the strings of the rows
    or sorting them. A null reads as the missing value (the "N/A" category, ``isna()`` True;
    pandas' NaN), not as the empty string a ``Strings`` read gives. It is opt-in so that a
    read without it returns ``Strings`` as Arkouda does.

    Parameters
    ----------
    filenames : str, path, or list of them
        The files: names or glob patterns.
    datasets : str or list of str, optional
        The datasets; every dataset of the first file by default.
    iterative, strict_types : bool
        Arkouda's options; not used.
    allow_errors : bool, default False
        Not supported: True raises ``ValueError``.
    tag_data : bool, default False
        Also give ``"Filename_Codes"``.
    read_nested : bool, default True
        Read list columns in a read of every dataset.
    has_non_float_nulls : bool, default False
        The older spelling of ``null_handling='all'``.
    null_handling : {'only floats', 'all', 'none'}, optional
        How nulls read (above).
    fixed_len : int, default -1
        Arkouda's option; not used.
    categorical : bool, str or list of str, optional
        String datasets to read as Categorical (above).

    Returns
    -------
    dict
        Name -> pdarray, Strings, SegArray, Categorical, Datetime or Timedelta.

    Raises
    ------
    ParquetFileNotFoundError
        A file is missing, or a pattern matches none.
    ParquetFormatError
        A file is not Parquet, or lacks a dataset.
    ParquetTypeError
        A dataset of a type Atoll does not read, or nulls where they cannot be read.

    Examples
    --------
    >>> import atoll as ak
    >>> import os, tempfile
    >>> prefix = os.path.join(tempfile.mkdtemp(), "t")
    >>> ak.to_parquet({"n": ak.arange(3), "s": ak.array(["a", "b", "c"])}, prefix)
    >>> ak.read_parquet(prefix + "_LOCALE*")
    {'n': array([0 1 2]), 's': Strings(['a', 'b', 'c'])}
    >>> ak.read_parquet(prefix + "_LOCALE*", "s", categorical=True)["s"].categories
    Strings(['a', 'b', 'c', 'N/A'])
    """
    if null_handling is not None and null_handling not in ("only floats", "all", "none"):
        raise RuntimeError("null_handling argument only accepts 'only floats', 'all' or 'none'")
    if has_non_float_nulls:
        warnings.warn("has_non_float_nulls is deprecated: use null_handling='all'", DeprecationWarning)
        if null_handling is not None:
            warnings.warn("both has_non_float_nulls and null_handling given: null_handling is used", UserWarning)
    if tag_data and iterative:
        raise RuntimeError("Cannot tag data with iterative read")
    if allow_errors:
        raise ValueError("read_parquet: allow_errors is not supported by Atoll")

    try:
        files = _expand(filenames)
    except FileNotFoundError as e:
        raise ParquetFileNotFoundError(str(e)) from None
    for f in files:
        if not os.path.exists(f):
            raise ParquetFileNotFoundError(f"File {f} does not exist")
    if datasets is None and not read_nested:
        # Every dataset but the list columns (SegArrays).
        infos = _file_errors(_atoll.parquet_datasets, files[0])
        names = [d[0] for d in infos if not (d[1] or "").startswith("list")]
    else:
        names = get_datasets(files[0]) if datasets is None else _names(datasets)
    if not names:
        raise ValueError("datasets: no datasets to read")
    handling = null_handling if null_handling is not None else "all" if has_non_float_nulls else "only floats"
    cats = _categorical_names(files, names, categorical)
    if tag_data:
        if cats:
            raise ValueError("read_parquet: categorical cannot be combined with tag_data")
        out = _read_tagged(files, names, handling)
        out.update(_time_columns(files[0], out))
        return out
    rest = [n for n in names if n not in cats]
    got = dict(zip(rest, _read_columns(files, rest, handling))) if rest else {}
    got.update(_time_columns(files[0], {n: _wrap(got[n]) for n in rest}))
    if cats:
        pairs = _file_errors(_atoll.read_parquet_categorical, files, cats)
        for n, (codes, categories) in zip(cats, pairs):
            c = Categorical(None, codes=pdarray(codes), categories=Strings(categories))
            # The categories are sorted by code point: codes order as the strings do.
            c._sorted = True
            got[n] = c
    return {n: (got[n] if n in cats else _wrap(got[n])) for n in names}


# Nanoseconds per unit of a Parquet/Arrow timestamp or duration.
_NS_PER = {"s": 10**9, "ms": 10**6, "us": 10**3, "ns": 1}
_ENGINE_UNITS = {"MILLIS": "ms", "MICROS": "us", "NANOS": "ns"}


def _time_units(path: str) -> dict[str, tuple[type, str]]:
    """``{column: (class, unit)}`` of the timestamp and duration columns of the Parquet file ``path``.

    From its Arrow schema (pyarrow, metadata only), which also knows durations (stored as
    INT64 with the Arrow type in the file's metadata); without pyarrow, the timestamps that
    the engine's description of the columns names.
    """
    out: dict[str, tuple[type, str]] = {}
    if has("pyarrow"):
        for field in pq.read_schema(path):
            if pa.types.is_timestamp(field.type):
                out[field.name] = (Datetime, field.type.unit)
            elif pa.types.is_duration(field.type):
                out[field.name] = (Timedelta, field.type.unit)
        return out
    for info in _file_errors(_atoll.parquet_datasets, path):
        desc = info[2] if len(info) > 2 else ""
        if "Timestamp" in desc:
            unit = next((u for k, u in _ENGINE_UNITS.items() if k in desc), "ns")
            out[info[0]] = (Datetime, unit)
    return out


def _time_columns(path: str, got: dict[str, Any]) -> dict[str, Any]:
    """The columns of ``got`` that the file ``path`` stores as timestamps or durations, as Datetime/Timedelta.

    ``got`` is name -> array read. The engine reads them as int64 in their unit; a column read
    through pyarrow, for its nulls, is one already.
    """
    units = _time_units(path)
    out: dict[str, Any] = {}
    for n, a in got.items():
        if n in units and isinstance(a, pdarray) and not is_time(a):
            cls: Any = units[n][0]
            unit = units[n][1]
            out[n] = cls(a, unit=unit) if _NS_PER[unit] != 1 else cls._from_ns(a)
    return out


def _categorical_names(files: list[str], names: list[str], categorical: bool | str | Sequence[str] | None) -> list[str]:
    """The datasets among ``names`` that ``read_parquet``'s ``categorical`` asks to read as Categorical.

    In ``names``' order.
    """
    if categorical is None or categorical is False:
        return []
    if categorical is True:
        infos = _file_errors(_atoll.parquet_datasets, files[0])
        strs = {d[0] for d in infos if d[1] == "str"}
        return [n for n in names if n in strs]
    asked = [categorical] if isinstance(categorical, str) else list(categorical)
    for a in asked:
        if not isinstance(a, str):
            raise TypeError(f"categorical: expected dataset names, got {type(a).__name__}")
        if a not in names:
            raise ValueError(f"categorical: {a!r} is not among the datasets read")
    return [n for n in names if n in asked]


_NULLS = "holds null values"  # the engine's message for a non-float column with nulls


def _read_columns(files: list[str], names: list[str], null_handling: str) -> list[Any]:
    """The columns ``names`` of the Parquet ``files``.

    Engine handles, or Atoll arrays for the columns read through pyarrow. The engine reads
    nulls in float columns (NaN) and string columns (""); a column of another type with nulls
    is named in a ``ParquetTypeError``, or with ``null_handling='all'`` read through pyarrow
    with the rules of ``atoll.pandas.interop`` (integers: float64 with NaN where the nulls
    are).
    """
    try:
        return list(_file_errors(_atoll.read_parquet, files, names))
    except ParquetTypeError as e:
        if _NULLS not in str(e):
            raise
    # The engine stops at the first column with nulls: each one alone tells which they are.
    types = {d[0]: d[1] for d in _file_errors(_atoll.parquet_datasets, files[0])}
    nulled = []
    for n in names:
        try:
            _file_errors(_atoll.read_parquet, files, [n])
        except ParquetTypeError as e:
            if _NULLS not in str(e):
                raise
            nulled.append(n)
    # A timestamp or duration column with nulls reads through pyarrow whatever null_handling
    # says: a null is NaT, its dtype unchanged.
    times = _time_units(files[0]) if has("pyarrow") else {}
    refused = [n for n in nulled if n not in times]
    which = ", ".join(f"{n!r} ({types.get(n, '?')})" for n in refused)
    if null_handling != "all" and refused:
        ints = [n for n in refused if types.get(n) != "bool"]
        how = []
        if ints:
            how.append("read with null_handling='all' to read integer columns as float64 with NaN where the nulls are")
        if len(ints) < len(refused):
            how.append("a boolean column with nulls is not read: fill its nulls (or write it as float) first")
        raise ParquetTypeError(
            f"column(s) {which} hold null values, which only float and string columns may: " + "; ".join(how)
        )
    if not has("pyarrow"):
        raise ParquetTypeError(f"column(s) {which} hold null values: null_handling='all' reads them with pyarrow")
    others = [n for n in names if n not in nulled]
    out = dict(zip(others, _file_errors(_atoll.read_parquet, files, others))) if others else {}
    for n in nulled:
        col = pa.chunked_array([c for f in files for c in pq.read_table(f, columns=[n]).column(0).chunks])
        try:
            out[n] = column_from_arrow(n, col)
        except ValueError as e:
            raise ParquetTypeError(str(e)) from None
    return [out[n] for n in names]


def _wrap(a: Any) -> Any:  # noqa: ANN401 (an engine handle, to the Atoll object)
    """The object of a dataset read: a pdarray, Strings, or a SegArray.

    A list column reads as a (segments, values) pair.
    """
    if isinstance(a, (pdarray, Strings)):
        return a
    if isinstance(a, tuple):
        return SegArray(pdarray(a[0]), _wrap(a[1]))
    return Strings(a) if isinstance(a, _atoll.StrArr) else pdarray(a)


def _handle(c: Any) -> Any:  # noqa: ANN401 (an Atoll column, to its engine handle)
    """The engine handle of a column to write (a SegArray: its segments' and values')."""
    if isinstance(c, SegArray):
        return (c.segments._whole(), _handle(c.values))
    return c._s if isinstance(c, Strings) else c._whole()


def _read_tagged(files: list[str], names: list[str], null_handling: str = "only floats") -> dict[str, Any]:
    parts: dict[str, list[Any]] = {n: [] for n in names}
    codes = []
    for i, f in enumerate(files):
        got = _read_columns([f], names, null_handling)
        size = 0
        for n, a in zip(names, got):
            v = _wrap(a)
            parts[n].append(v)
            size = v.size
        codes.append(array(np.full(size, i, dtype=np.int64)))
    out = {"Filename_Codes": concatenate(codes)}
    for n in names:
        out[n] = concatenate(parts[n])
    return out


def read_tagged_data(
    filenames: _Paths,
    datasets: str | Sequence[str] | None = None,
    strictTypes: bool = True,
    allow_errors: bool = False,
    read_nested: bool = True,
) -> tuple[dict[str, Any], Categorical]:
    """Parquet datasets with the index of each row's file, and the files' names.

    Parameters
    ----------
    filenames : str, path, or list of them
        The Parquet files: names or glob patterns.
    datasets : str or list of str, optional
        The datasets; all by default.
    strictTypes, allow_errors, read_nested : bool
        Arkouda's options; not used.

    Returns
    -------
    tuple
        ``(data, files)``: the datasets with ``"Filename_Codes"`` (each row's file's index),
        and a Categorical of the file names.

    Raises
    ------
    ParquetFileNotFoundError
        A file is missing.

    Examples
    --------
    >>> import atoll as ak
    >>> import os, tempfile
    >>> prefix = os.path.join(tempfile.mkdtemp(), "t")
    >>> ak.to_parquet({"n": ak.arange(3), "s": ak.array(["a", "b", "c"])}, prefix)
    >>> data, files = ak.read_tagged_data(prefix + "_LOCALE*", "n")
    >>> data["n"].size, files.size == ak.num_locales()
    (3, True)
    """
    files = _expand(filenames)
    data = read_parquet(files, datasets, tag_data=True)
    cat = Categorical.from_codes(arange(len(files)), from_list(files))
    return data, cat


def get_null_indices(filenames: _Paths, datasets: str | Sequence[str] | None = None) -> dict[str, pdarray]:
    """Where each string dataset of Parquet files is empty.

    Arkouda's Strings cannot hold a null; a null reads as the empty string.

    Parameters
    ----------
    filenames : str, path, or list of them
        The Parquet files: names or glob patterns.
    datasets : str or list of str, optional
        The datasets; all by default.

    Returns
    -------
    dict
        String dataset name -> bool pdarray, True where the string is empty.

    Raises
    ------
    ParquetFileNotFoundError
        A file is missing.

    Examples
    --------
    >>> import atoll as ak
    >>> import os, tempfile
    >>> prefix = os.path.join(tempfile.mkdtemp(), "t")
    >>> ak.to_parquet({"s": ak.array(["a", "", "c"])}, prefix)
    >>> ak.get_null_indices(prefix + "_LOCALE*")
    {'s': array([False  True False])}
    """
    data = read_parquet(filenames, datasets)
    strings: dict[str, Any] = {k: v for k, v in data.items() if isinstance(v, Strings)}
    return {k: v.get_lengths() == 0 for k, v in strings.items()}


def read(
    filenames: _Path | Sequence[_Path],
    datasets: str | Sequence[str] | None = None,
    iterative: bool = False,
    strictTypes: bool = True,
    allow_errors: bool = False,
    calc_string_offsets: bool = False,
    column_delim: str = ",",
    read_nested: bool = True,
    has_non_float_nulls: bool = False,
    fixed_len: int = -1,
) -> dict[str, Any]:
    """Read files of any format, told by their first bytes: HDF5, Parquet or CSV.

    Parameters
    ----------
    filenames : str, path, or list of them
        The files: names or glob patterns.
    datasets : str or list of str, optional
        The datasets; all by default.
    iterative, strictTypes, allow_errors, calc_string_offsets : bool
        Passed to the HDF5 or Parquet reader.
    column_delim : str, default ','
        A CSV file's delimiter.
    read_nested, has_non_float_nulls : bool
        Passed to ``read_parquet``.
    fixed_len : int, default -1
        Arkouda's option; not used.

    Returns
    -------
    dict
        Name -> object, as the format's reader gives.

    Raises
    ------
    AtollFileNotFoundError
        A file is missing.
    FileFormatError, DatasetTypeError
        As the format's reader raises them.

    Examples
    --------
    >>> import atoll as ak
    >>> import os, tempfile
    >>> prefix = os.path.join(tempfile.mkdtemp(), "t")
    >>> ak.to_parquet({"n": ak.arange(3), "s": ak.array(["a", "b", "c"])}, prefix)
    >>> ak.read(prefix + "_LOCALE*", "n")
    {'n': array([0 1 2])}
    """
    kind = get_filetype(filenames)
    if kind == "HDF5":
        got: dict[str, Any] = read_hdf(
            filenames,
            datasets if datasets is None or isinstance(datasets, str) else list(datasets),
            iterative=iterative,
            strict_types=strictTypes,
            allow_errors=allow_errors,
            calc_string_offsets=calc_string_offsets,
        )
        return got
    if kind == "Parquet":
        return read_parquet(
            filenames,
            datasets,
            iterative=iterative,
            strict_types=strictTypes,
            read_nested=read_nested,
            has_non_float_nulls=has_non_float_nulls,
        )

    return read_csv(filenames, datasets, column_delim=column_delim)


def _load_glob(path_prefix: _Path) -> str:
    if "*" in os.fspath(path_prefix):
        raise ValueError(
            "Glob expressions not supported by ak.load(). To read files using a glob expression, please use ak.read()"
        )

    prefix, ext = split_prefix(path_prefix)
    return f"{_glob.escape(prefix)}_LOCALE*{_glob.escape(ext)}"


def load(
    path_prefix: _Path,
    file_format: str = "INFER",
    dataset: str = "array",
    calc_string_offsets: bool = False,
    column_delim: str = ",",
) -> dict[str, Any]:
    """Read ``dataset`` of the per-locale files ``<path_prefix>_LOCALE####``, of any format.

    Parameters
    ----------
    path_prefix : str or path
        The files' prefix (no glob pattern).
    file_format : {'INFER', 'HDF5', 'Parquet', 'CSV'}, default 'INFER'
        The format; by default the first file's.
    dataset : str, default 'array'
        The dataset.
    calc_string_offsets : bool, default False
        Passed to ``read_hdf``.
    column_delim : str, default ','
        A CSV file's delimiter.

    Returns
    -------
    dict
        ``{dataset: object}``.

    Raises
    ------
    ValueError
        A glob pattern, or an unknown format.
    AtollFileNotFoundError
        There are no such files.

    Examples
    --------
    >>> import atoll as ak
    >>> import os, tempfile
    >>> prefix = os.path.join(tempfile.mkdtemp(), "t")
    >>> ak.to_parquet({"n": ak.arange(3), "s": ak.array(["a", "b", "c"])}, prefix)
    >>> ak.load(prefix, dataset="s")
    {'s': Strings(['a', 'b', 'c'])}
    """
    g = _load_glob(path_prefix)
    if not _glob.glob(g):
        raise AtollFileNotFoundError(
            f"File {path_prefix}_LOCALE* does not exist: no files for the path_prefix {path_prefix}"
        )
    kind = (
        get_filetype(g)
        if file_format.lower() == "infer"
        else {"hdf5": "HDF5", "parquet": "Parquet", "csv": "CSV"}.get(file_format.lower())
    )
    if kind is None:
        raise ValueError(f"file_format: expected 'INFER', 'HDF5', 'Parquet' or 'CSV', got {file_format!r}")
    if kind == "HDF5":
        got: dict[str, Any] = read_hdf(g, dataset, calc_string_offsets=calc_string_offsets)
        return got
    if kind == "Parquet":
        return read_parquet(g, dataset)
    return dict(read_csv(g, dataset, column_delim=column_delim))


def load_all(
    path_prefix: _Path, file_format: str = "INFER", column_delim: str = ",", read_nested: bool = True
) -> dict[str, Any]:
    """Every dataset of the per-locale files ``<path_prefix>_LOCALE####``.

    Parameters
    ----------
    path_prefix : str or path
        The files' prefix (no glob pattern).
    file_format : {'INFER', 'HDF5', 'Parquet', 'CSV'}, default 'INFER'
        The format; by default the first file's.
    column_delim : str, default ','
        A CSV file's delimiter.
    read_nested : bool, default True
        Arkouda's option; not used.

    Returns
    -------
    dict
        Name -> object.

    Raises
    ------
    ValueError
        There are no such files, or a glob pattern.

    Examples
    --------
    >>> import atoll as ak
    >>> import os, tempfile
    >>> prefix = os.path.join(tempfile.mkdtemp(), "t")
    >>> ak.to_parquet({"n": ak.arange(3), "s": ak.array(["a", "b", "c"])}, prefix)
    >>> sorted(ak.load_all(prefix))
    ['n', 's']
    """
    g = _load_glob(path_prefix)
    if not _glob.glob(g):
        raise ValueError(
            f"There are no files corresponding to the path_prefix {path_prefix} in a location accessible to Atoll"
        )
    kind = (
        get_filetype(g)
        if file_format.lower() == "infer"
        else {"hdf5": "HDF5", "parquet": "Parquet", "csv": "CSV"}.get(file_format.lower())
    )
    if kind == "HDF5":
        every: dict[str, Any] = read_hdf(g)
        return every
    if kind == "Parquet":
        return read_parquet(g)
    return dict(read_csv(g, column_delim=column_delim))


def save_all(
    columns: dict[str, Any] | Sequence[Any],
    prefix_path: _Path,
    names: Sequence[str] | None = None,
    file_format: str = "HDF5",
    mode: str = "truncate",
    file_type: str = "distribute",
    compression: str | None = None,
) -> None:
    """Write the columns in a format: one file per locale.

    Parameters
    ----------
    columns : dict or list
        Name -> column, or a list of columns with ``names``.
    prefix_path : str or path
        The files' prefix.
    names : list of str, optional
        The names of a list of columns.
    file_format : {'HDF5', 'Parquet', 'CSV'}, default 'HDF5'
        The format.
    mode : {'truncate', 'append'}, default 'truncate'
        Passed to the HDF5 and Parquet writers.
    file_type : str, default 'distribute'
        Passed to ``to_hdf``.
    compression : str, optional
        Passed to ``to_parquet``.

    Raises
    ------
    ValueError, TypeError
        As the format's writer raises them.

    Examples
    --------
    >>> import atoll as ak
    >>> import os, tempfile
    >>> prefix = os.path.join(tempfile.mkdtemp(), "h")
    >>> ak.save_all({"x": ak.arange(2)}, prefix)
    >>> ak.load_all(prefix)
    {'x': array([0 1])}
    """
    f = file_format.lower()
    if f == "hdf5":
        to_hdf(
            columns,
            prefix_path,
            names=names if names is None or isinstance(names, str) else list(names),
            mode=mode,
            file_type=file_type,
        )
    elif f == "parquet":
        to_parquet(columns, prefix_path, names=names, mode=mode, compression=compression)
    else:
        to_csv(columns, prefix_path, names=names)


def snapshot(filename: _Path) -> None:
    """Write every DataFrame, array, Categorical and GroupBy bound to a name in the caller's scope.

    The objects go to HDF5 files; ``ak.restore`` reads them back by name.

    Parameters
    ----------
    filename : str or path
        The files' prefix.

    Examples
    --------
    >>> import atoll as ak
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "snap")
    >>> kept = ak.arange(3)
    >>> ak.snapshot(path)
    >>> ak.restore(path)["kept"]
    array([0 1 2])
    """
    here = inspect.currentframe()
    frame = here.f_back if here is not None else None
    if frame is None:
        raise RuntimeError("snapshot: no caller's frame to take the names from")
    kinds = (pdarray, Strings, Categorical, SegArray, GroupBy, DataFrame)
    found: dict[str, Any] = {}
    for scope in (frame.f_globals, frame.f_locals):
        for k, v in scope.items():
            if isinstance(v, kinds) and not k.startswith("_"):
                found[k] = v
    to_hdf(found, filename)


def restore(filename: _Path) -> dict[str, Any]:
    """The objects written by ``ak.snapshot(filename)``, by name.

    Parameters
    ----------
    filename : str or path
        The prefix given to ``snapshot``.

    Returns
    -------
    dict
        Name -> object.

    Raises
    ------
    AtollFileNotFoundError, FileFormatError
        As ``read_hdf`` raises them.

    Examples
    --------
    >>> import atoll as ak
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "snap")
    >>> kept = ak.array(["x", "y"])
    >>> ak.snapshot(path)
    >>> ak.restore(path)["kept"]
    Strings(['x', 'y'])
    """
    prefix, ext = split_prefix(filename)
    restored: dict[str, Any] = read_hdf(sorted(_glob.glob(f"{_glob.escape(prefix)}_LOCALE*{_glob.escape(ext)}")))
    return restored


def read_zarr(store_path: str, ndim: int = 1, dtype: object = None) -> NoReturn:
    """Arkouda's Zarr reader: Atoll reads Parquet, HDF5 and CSV, not Zarr.

    Parameters
    ----------
    store_path : str
        The store.
    ndim : int, default 1
        The arrays' rank.
    dtype : dtype, optional
        Their dtype.

    Raises
    ------
    NotImplementedError
        Always, naming the formats Atoll reads.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.read_zarr("store")
    Traceback (most recent call last):
    ...
    NotImplementedError: ak.read_zarr: Zarr stores are not supported (Parquet, HDF5 and CSV are)
    """
    raise NotImplementedError("ak.read_zarr: Zarr stores are not supported (Parquet, HDF5 and CSV are)")


def to_zarr(store_path: str, arr: pdarray, chunk_shape: object) -> NoReturn:
    """Arkouda's Zarr writer: Atoll writes Parquet, HDF5 and CSV, not Zarr.

    Parameters
    ----------
    store_path : str
        The store.
    arr : pdarray
        The array.
    chunk_shape : tuple of int
        The chunks' shape.

    Raises
    ------
    NotImplementedError
        Always, naming the formats Atoll writes.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.to_zarr("store", ak.arange(4), (2,))
    Traceback (most recent call last):
    ...
    NotImplementedError: ak.to_zarr: Zarr stores are not supported (Parquet, HDF5 and CSV are)
    """
    raise NotImplementedError("ak.to_zarr: Zarr stores are not supported (Parquet, HDF5 and CSV are)")


def import_data(
    read_path: str, write_file: str | None = None, return_obj: bool = True, index: bool = False
) -> DataFrame | None:
    """A DataFrame of a file pandas reads: HDF5 written by pandas, or Parquet.

    Parameters
    ----------
    read_path : str
        The file (a glob pattern that matches one file).
    write_file : str, optional
        Also write the data to Atoll's (Arkouda's) per-locale files of this prefix, in the
        file's format.
    return_obj : bool, default True
        Give the DataFrame; else None.
    index : bool, default False
        Write the index too.

    Returns
    -------
    DataFrame or None
        The data.

    Raises
    ------
    FileNotFoundError
        No file matches.
    FileFormatError
        Several files match.

    Examples
    --------
    >>> import atoll as ak
    >>> import os, tempfile
    >>> import pandas as pd
    >>> path = os.path.join(tempfile.mkdtemp(), "p.parquet")
    >>> pd.DataFrame({"a": [1, 2]}).to_parquet(path)
    >>> ak.import_data(path)["a"]
    array([1 2])
    """
    files = _glob.glob(read_path)
    if not files:
        raise FileNotFoundError(f"Invalid read_path, {read_path}. No files found.")
    if len(files) > 1:
        raise FileFormatError(f"import_data: {read_path} matches {len(files)} files; give one")
    kind = get_filetype(files[0])
    pdf = pd.read_hdf(files[0]) if kind == "HDF5" else pd.read_parquet(files[0])
    df: Any = DataFrame(pdf)
    if write_file is not None:
        if kind == "HDF5":
            df.to_hdf(write_file, index=index)
        else:
            df.to_parquet(write_file, index=index)
    out: DataFrame | None = df if return_obj else None
    return out


def export(
    read_path: str,
    dataset_name: str = "ak_data",
    write_file: str | None = None,
    return_obj: bool = True,
    index: bool = False,
) -> Any:  # noqa: ANN401 (a pandas DataFrame, or None)
    """A ``pandas.DataFrame`` of Atoll's (Arkouda's) files.

    Parameters
    ----------
    read_path : str
        The files' prefix, or a glob pattern.
    dataset_name : str, default 'ak_data'
        The HDF5 key of ``write_file``.
    write_file : str, optional
        Also write the data by pandas to this file (HDF5 or Parquet, as the files read).
    return_obj : bool, default True
        Give the DataFrame; else None.
    index : bool, default False
        Keep the index.

    Returns
    -------
    pandas.DataFrame or None
        The data.

    Raises
    ------
    AtollFileNotFoundError
        No file matches.

    Examples
    --------
    >>> import atoll as ak
    >>> import os, tempfile
    >>> prefix = os.path.join(tempfile.mkdtemp(), "t")
    >>> ak.to_parquet({"n": ak.arange(3)}, prefix)
    >>> ak.export(prefix)["n"].tolist()
    [0, 1, 2]
    """
    prefix, ext = split_prefix(read_path)
    files = sorted(_glob.glob(f"{_glob.escape(prefix)}_LOCALE*{_glob.escape(ext)}")) or _glob.glob(read_path)
    if not files:
        raise AtollFileNotFoundError(f"Invalid read_path, {read_path}. No files found.")
    kind = get_filetype(files[0])
    df: Any = DataFrame(read(files))
    pdf = df.to_pandas(retain_index=index)
    if write_file is not None:
        if kind == "HDF5":
            pdf.to_hdf(write_file, key=dataset_name, mode="w")
        else:
            pdf.to_parquet(write_file, index=index)
    return pdf if return_obj else None


def _check_write(prefix_path: _Path, mode: str) -> str:
    if mode not in ("truncate", "append"):
        raise ValueError(f"mode: expected 'truncate' or 'append', got {mode!r}")
    return os.fspath(prefix_path)


@tracked("to_parquet")
def to_parquet(
    columns: dict[str, Any] | Sequence[Any] | pdarray | Strings | SegArray | Categorical,
    prefix_path: _Path,
    names: str | Sequence[str] | None = None,
    mode: str = "truncate",
    compression: str | None = None,
    convert_categoricals: bool = False,
) -> None:
    """Write columns of one length to one Parquet file per locale.

    Each file ``<prefix>_LOCALE####.parquet`` holds its locale's rows.

    Parameters
    ----------
    columns : dict, list or column
        Name -> pdarray, Strings, SegArray (a Parquet LIST column) or Categorical; a list of
        them with ``names``; or one column (named ``names``, ``"array"`` by default).
    prefix_path : str or path
        The files' prefix (an extension moves to the end).
    names : str or list of str, optional
        The names of a list of columns, or of one column.
    mode : {'truncate', 'append'}, default 'truncate'
        Replace the files, or add the columns to the files there (read and written again
        with the new columns).
    compression : {None, 'snappy', 'zstd', 'gzip', 'brotli', 'lz4'}, optional
        The compression.
    convert_categoricals : bool, default False
        Arkouda's option; Categoricals are written as their strings.

    Raises
    ------
    ValueError
        Names that do not fit the columns, a bad ``mode``, or a dataset that exists in
        ``append`` mode.
    TypeError
        A column of another type.
    ParquetTypeError
        A bigint column.

    Examples
    --------
    >>> import atoll as ak
    >>> import os, tempfile
    >>> prefix = os.path.join(tempfile.mkdtemp(), "t")
    >>> ak.to_parquet([ak.arange(3), ak.array([0.5, 1.5, 2.5])], prefix, names=["i", "f"])
    >>> ak.to_parquet({"s": ak.array(["a", "b", "c"])}, prefix, mode="append")
    >>> sorted(ak.read_parquet(prefix + "_LOCALE*"))
    ['f', 'i', 's']
    """
    prefix = _check_write(prefix_path, mode)
    cols: list[Any]
    if isinstance(columns, dict):
        if names is not None:
            raise ValueError("names: give names either as the dict's keys or as names, not both")
        names, cols = list(columns.keys()), list(columns.values())
    elif not isinstance(columns, (list, tuple)):
        cols = [columns]
        names = ["array"] if names is None else _names(names, "names")
    else:
        cols = list(columns)
        if names is None:
            raise ValueError("names: needed for a list of columns")
        names = _names(names, "names")
    if len(names) != len(cols):
        raise ValueError(f"names: {len(names)} names for {len(cols)} columns")

    cols = [c.to_strings() if isinstance(c, Categorical) else c for c in cols]
    for n, c in zip(names, cols):
        if isinstance(c, BigIntArray) or (isinstance(c, SegArray) and isinstance(c.values, BigIntArray)):
            raise ParquetTypeError(
                f"column {n!r}: bigint values cannot be written to Parquet (its integers end at 64 bits);"
                " write them to HDF5 or CSV, or as their uint64 limbs (bigint_to_uint_arrays)"
            )
        if isinstance(c, SegArray) and not isinstance(c.values, (pdarray, Strings)):
            raise TypeError(f"columns: a SegArray of {type(c.values).__name__} cannot be written to Parquet")
        if not isinstance(c, (pdarray, Strings, SegArray)):
            raise TypeError(
                f"columns: Parquet takes pdarrays, Strings, SegArrays and Categoricals, got {type(c).__name__}"
            )
    if mode == "append":
        p, ext = split_prefix(prefix)
        existing = sorted(_glob.glob(f"{_glob.escape(p)}_LOCALE*{_glob.escape(ext)}*"))
        if existing:
            old = read_parquet(existing)
            for n in names:
                if n in old:
                    raise ValueError(f"dataset {n!r} exists already in {existing[0]}")
            names = list(old.keys()) + list(names)
            cols = list(old.values()) + cols
    handles = [_handle(c.values if is_time(c) else c) for c in cols]
    _atoll.write_parquet(handles, [str(n) for n in names], prefix, compression)
    times = {str(n): c for n, c in zip(names, cols) if is_time(c)}
    if times:
        _retype_time_columns(prefix, times, compression)


def _retype_time_columns(prefix: str, times: dict[str, Any], compression: str | None) -> None:
    """Give the columns ``times`` of the files just written at ``prefix`` their Arrow types.

    ``times`` is name -> Datetime/Timedelta, written as int64 nanoseconds; the types are
    ``timestamp[ns]`` and ``duration[ns]``. The engine writes int64 columns only, so each file
    is read and written again by pyarrow on the driver.
    """
    if not has("pyarrow"):
        raise ParquetTypeError(
            f"column(s) {sorted(times)}: writing Datetime/Timedelta as Parquet timestamps needs pyarrow; "
            "write their .values (int64 nanoseconds) instead"
        )
    files = locale_files(prefix)
    if not split_prefix(prefix)[1]:
        files = [f + ".parquet" for f in files]
    for f in files:
        if not os.path.exists(f):
            continue
        t = pq.read_table(f)
        for n, c in times.items():
            typ = pa.timestamp("ns") if isinstance(c, Datetime) else pa.duration("ns")
            i = t.schema.get_field_index(n)
            t = t.set_column(i, pa.field(n, typ, nullable=t.schema.field(i).nullable), t.column(i).cast(typ))
        pq.write_table(t, f, compression=compression or "NONE")


def _strings_to_parquet(
    self: Strings,
    prefix_path: _Path,
    dataset: str = "strings_array",
    mode: str = "truncate",
    compression: str | None = None,
) -> None:
    """Writes the strings as ``dataset`` to one Parquet file per locale (``ak.to_parquet``)."""
    to_parquet({dataset: self}, prefix_path, mode=mode, compression=compression)


# Arkouda's ``Strings.to_parquet``, attached here so that the strings module stays about strings.
Strings.to_parquet = _strings_to_parquet  # type: ignore[attr-defined]
