"""CSV files with Arkouda's names and layout: ``ak.read_csv`` and ``ak.to_csv``.

``to_csv`` writes one file per locale (``<prefix>_LOCALE####<ext>``), each holding that
locale's Block part of the rows, after Arkouda's header::

    **HEADER**
    int64,str,float64
    */HEADER/*
    col_a,col_b,col_c

``read_csv`` reads such files (typed by the header: int64, uint64, uint8, float64, bool, str,
and bigint, written as decimal integers) and plain CSV files (every column then read as
Strings, as Arkouda does). Fields may be quoted (a delimiter or a newline inside quotes is
data; ``""`` is a quote); the delimiter may be several characters long. A row of one empty
field is written as ``""``; in a file with the header, a blank line of a one-column file is
such a row too (elsewhere blank lines are skipped, as pandas skips them).

Writing a prefix replaces every ``<prefix>_LOCALE####`` file of it: those of an earlier write
with more locales are removed, so the prefix then reads back exactly the rows written.

The rows pass through the driver (it reads and formats them; the arrays are built from, or
gathered to, it), one file at a time.
"""

from __future__ import annotations

import builtins
import csv as _csv
import glob as _glob
import io as _io
import os
from collections.abc import Iterable, Sequence
from typing import Any, Union

import numpy as np

from ._io_errors import CSVFileNotFoundError, CSVFormatError, CSVTypeError
from ._session import num_locales
from .hdf5 import _block_starts, _stale_locale_files, locale_files
from .numpy._bigint import BigIntArray, from_ints
from .numpy.pdarrayclass import pdarray
from .numpy.pdarraycreation import array
from .numpy.pdarraymanipulation import concatenate
from .numpy.strings import Strings, from_list
from .pandas.categorical import Categorical
from .progress import step as progress_step, tracked

__all__ = ["read_csv", "to_csv", "get_csv_columns"]

# A file name or path, or several of them (names may be glob patterns).
_Path = Union[str, "os.PathLike[str]"]
_Paths = Union[_Path, Iterable[_Path]]
# A column as read or written.
_Column = Union[pdarray, Strings]

_HEAD, _TAIL = "**HEADER**", "*/HEADER/*"
_TYPES = {
    "int64": np.int64,
    "uint64": np.uint64,
    "uint8": np.uint8,
    "float64": np.float64,
    "bool": np.bool_,
    "str": None,
    "bigint": None,
}


def _split_records(text: str, delim: str, keep_blank: bool = False) -> list[list[str]]:
    """The records of CSV text: lists of fields (quotes removed, ``""`` unescaped).

    A blank line is skipped, or with ``keep_blank`` read as one empty field.
    """
    if len(delim) == 1:
        recs = _csv.reader(_io.StringIO(text), delimiter=delim, quotechar='"')
        return [r if r else [""] for r in recs if r or keep_blank]
    rows: list[list[str]] = []
    row: list[str] = []
    field: list[str] = []
    i, n, quoted, seen = 0, len(text), False, False
    while i < n:
        c = text[i]
        if quoted:
            if c == '"':
                if i + 1 < n and text[i + 1] == '"':
                    field.append('"')
                    i += 2
                    continue
                quoted = False
            else:
                field.append(c)
            i += 1
            continue
        if c == "\n" or c == "\r":
            row.append("".join(field))
            field = []
            if seen or keep_blank:
                rows.append(row)
            row, seen = [], False
            i += 2 if c == "\r" and i + 1 < n and text[i + 1] == "\n" else 1
            continue
        seen = True
        if c == '"' and not field:
            quoted = True
            i += 1
        elif text.startswith(delim, i):
            row.append("".join(field))
            field = []
            i += len(delim)
        else:
            field.append(c)
            i += 1
    if seen:
        row.append("".join(field))
        rows.append(row)
    return rows


def _read_file(path: _Path, delim: str) -> tuple[list[str], list[str] | None, list[list[str]]]:
    """(column names, dtype names or None, rows) of one file."""
    try:
        with open(path, newline="", encoding="utf-8") as f:
            text = f.read()
    except FileNotFoundError:
        raise CSVFileNotFoundError(f"File {path} does not exist") from None
    except UnicodeDecodeError as e:
        raise CSVFormatError(f"{path}: not a UTF-8 text file ({e})") from None
    types = None
    if text.startswith(_HEAD):
        lines = text.split("\n", 3)
        if len(lines) < 4 or lines[2].strip() != _TAIL:
            raise CSVFormatError(f"{path}: an Arkouda header that does not end with {_TAIL}")
        types = [t.strip() for t in lines[1].split(",")]
        text = lines[3]
    recs = _split_records(text, delim, keep_blank=types is not None and len(types) == 1)
    if not recs:
        raise CSVFormatError(f"{path}: no column names")
    names, rows = recs[0], recs[1:]
    for k, r in enumerate(rows):
        if len(r) != len(names):
            raise CSVFormatError(f"{path}: row {k + 1} has {len(r)} fields, the header {len(names)}")
    if types is not None and len(types) != len(names):
        raise CSVFormatError(f"{path}: {len(types)} types for {len(names)} columns")
    return names, types, rows


def get_csv_columns(filename: _Path, column_delim: str = ",") -> list[str]:
    r"""The column names of a CSV file.

    Parameters
    ----------
    filename : str or path
        The file: one of Arkouda's (with its header) or a plain CSV file.
    column_delim : str, default ','
        The delimiter, one or more characters.

    Returns
    -------
    list of str
        The names, in the file's order.

    Raises
    ------
    CSVFileNotFoundError
        The file is missing.
    CSVFormatError
        The file cannot be read as CSV.

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "t.csv")
    >>> with open(path, "w") as f:
    ...     _ = f.write("a|b\n1|x\n")
    >>> from atoll.csv import get_csv_columns
    >>> get_csv_columns(path, column_delim="|")
    ['a', 'b']
    """
    return _read_file(filename, column_delim)[0]


def _column(values: list[str], t: str | None, path: str, name: str) -> _Column:
    if t is None or t == "str":
        strings: Strings = from_list(values)
        return strings
    if t not in _TYPES:
        raise CSVTypeError(f"{path}: column {name!r} of unsupported type {t!r}")
    try:
        if t == "bigint":
            big: pdarray = from_ints([builtins.int(v) for v in values])
            return big
        if t == "bool":
            a = np.array([v.strip().lower() in ("true", "1") for v in values], dtype=bool)
        elif t == "float64":
            a = np.array([builtins.float(v) if v.strip() else np.nan for v in values], dtype=np.float64)
        else:
            a = np.array([builtins.int(v) for v in values], dtype=_TYPES[t])
    except (ValueError, OverflowError) as e:
        raise CSVFormatError(f"{path}: column {name!r} holds a value that is not {t} ({e})") from None
    out: pdarray = array(a)
    return out


def _expand(filenames: _Paths) -> list[str]:
    fs = [filenames] if isinstance(filenames, (str, os.PathLike)) else list(filenames)
    out: list[str] = []
    for p in fs:
        f = os.fspath(p)
        if _glob.has_magic(f):
            hits = sorted(_glob.glob(f))
            if not hits:
                raise CSVFileNotFoundError(f"File {f} does not exist: no file matches the pattern")
            out.extend(hits)
        else:
            out.append(f)
    return out


@tracked("read_csv", total=lambda filenames, *a, **k: len(_expand(filenames)))
def read_csv(
    filenames: _Paths,
    datasets: str | Sequence[str] | None = None,
    column_delim: str = ",",
    allow_errors: bool = False,
) -> dict[str, _Column]:
    """Read CSV files into columns: their rows in order, typed by Arkouda's header.

    A file without Arkouda's header has every column read as Strings, as Arkouda does.

    Parameters
    ----------
    filenames : str, path, or list of them
        The files: names or glob patterns.
    datasets : str or list of str, optional
        The columns to read; all by default.
    column_delim : str, default ','
        The delimiter, one or more characters.
    allow_errors : bool, default False
        Arkouda's option; not used (a malformed file raises).

    Returns
    -------
    dict
        Column name -> pdarray or Strings.

    Raises
    ------
    CSVFileNotFoundError
        A file is missing, or a pattern matches none.
    CSVFormatError
        A file cannot be read, the files' columns differ, or a column of ``datasets`` is
        missing.
    CSVTypeError
        The header names a type that cannot be read.

    Examples
    --------
    >>> import atoll as ak
    >>> import os, tempfile
    >>> prefix = os.path.join(tempfile.mkdtemp(), "t")
    >>> ak.to_csv({"n": ak.arange(3), "s": ak.array(["a", "b,c", "d"])}, prefix)
    >>> cols = ak.read_csv(prefix + "_LOCALE*")
    >>> cols["n"], cols["s"]
    (array([0 1 2]), Strings(['a', 'b,c', 'd']))
    """
    files = _expand(filenames)
    parts: dict[str, list[_Column]] = {}
    names0: list[str] | None = None
    for f in files:
        names, types, rows = _read_file(f, column_delim)
        if names0 is None:
            names0 = names
        elif names != names0:
            raise CSVFormatError(f"{f}: columns {names} differ from {names0} in {files[0]}")
        want = names if datasets is None else ([datasets] if isinstance(datasets, str) else list(datasets))
        for d in want:
            if d not in names:
                raise CSVFormatError(f"{f}: no column {d!r} (columns: {names})")
        cols = list(zip(*rows)) if rows else [() for _ in names]
        for d in want:
            i = names.index(d)
            t = types[i] if types is not None else None
            parts.setdefault(d, []).append(_column(list(cols[i]), t, f, d))
        progress_step()
    return {k: (v[0] if len(v) == 1 else concatenate(v)) for k, v in parts.items()}


def _fmt(col: _Column, lo: int, hi: int) -> list[str]:
    """The text of rows ``lo..hi`` of a column."""
    # The arrays' slicing is set on their classes by the _*_methods modules, unseen by mypy.
    rows: Any = col
    if isinstance(col, Strings):
        return [str(x) for x in rows[lo:hi].to_list()]
    if isinstance(col, BigIntArray):
        return [str(x) for x in rows[lo:hi].tolist()]
    a = rows[lo:hi].to_ndarray()
    if a.dtype == bool:
        return ["True" if x else "False" for x in a]
    if a.dtype.kind == "f":
        return [repr(builtins.float(x)) for x in a]
    return [str(x) for x in a]


def _quote(v: str, delim: str) -> str:
    """The field as written, quoted where needed.

    Quoted when it holds a quote, a line break or the delimiter, or when its end and the
    delimiter after it would read as a delimiter earlier (``|*`` before the delimiter ``|*|``).
    """
    if '"' in v or "\n" in v or "\r" in v or (v + delim).find(delim) != len(v):
        return '"' + v.replace('"', '""') + '"'
    return v


def _line(fields: Sequence[str], delim: str) -> str:
    """One record: the fields quoted where needed.

    A lone empty field is written as ``""``: a blank line would read as no record.
    """
    if len(fields) == 1 and fields[0] == "":
        return '""\n'
    return delim.join(_quote(x, delim) for x in fields) + "\n"


@tracked("to_csv", total=lambda *a, **k: num_locales())
def to_csv(
    columns: dict[str, Any] | Sequence[Any] | _Column,
    prefix_path: _Path,
    names: Sequence[str] | str | None = None,
    col_delim: str = ",",
    overwrite: bool = False,
) -> None:
    """Write columns to one CSV file per locale, with Arkouda's header.

    Each file ``<prefix>_LOCALE####`` holds its locale's Block part of the rows.

    Parameters
    ----------
    columns : dict, list, pdarray or Strings
        Name -> pdarray, Strings or Categorical; or a list of them with ``names``; or one
        column, named ``names`` (``"array"`` by default).
    prefix_path : str or path
        The files' prefix.
    names : list of str or str, optional
        The columns' names, for a list or one column.
    col_delim : str, default ','
        The delimiter, one or more characters.
    overwrite : bool, default False
        Replace existing files (with the files of an earlier write of the prefix with more
        locales); otherwise their presence is an error.

    Raises
    ------
    ValueError
        The columns differ in length, a list lacks its names, or a file exists without
        ``overwrite``.
    TypeError
        A column is not a pdarray, Strings or Categorical.
    CSVTypeError
        A column's dtype cannot be written.

    Examples
    --------
    >>> import atoll as ak
    >>> import glob, os, tempfile
    >>> prefix = os.path.join(tempfile.mkdtemp(), "t")
    >>> ak.to_csv([ak.array([1.5, 2.5])], prefix, names=["x"])
    >>> len(glob.glob(prefix + "_LOCALE*")) == ak.num_locales()
    True
    >>> ak.read_csv(prefix + "_LOCALE*")["x"]
    array([1.5 2.5])
    """
    cols: dict[Any, Any]
    if isinstance(columns, dict):
        cols = dict(columns)
    elif isinstance(columns, (list, tuple)):
        if names is None or len(names) != len(columns):
            raise ValueError("names: one name per column is needed for a list of columns")
        cols = dict(zip(names, columns))
    else:
        cols = {names or "array": columns}
    cols = {k: (v.to_strings() if isinstance(v, Categorical) else v) for k, v in cols.items()}
    lengths = {len(v) for v in cols.values()}
    if len(lengths) != 1:
        raise ValueError("to_csv: the columns must have one length")
    n = lengths.pop()
    for v in cols.values():
        if not isinstance(v, (pdarray, Strings)):
            raise TypeError(f"to_csv: expected pdarrays or Strings, got {type(v).__name__}")
    nl = num_locales()
    files = locale_files(prefix_path, nl)
    if not overwrite:
        for f in files + sorted(_stale_locale_files(prefix_path, set(files))):
            if os.path.exists(f):
                raise ValueError(f"{f} exists already (overwrite=True replaces it)")
    types = ["str" if isinstance(v, Strings) else _type_name(v) for v in cols.values()]
    for k, t in zip(cols, types):
        if t not in _TYPES:
            raise CSVTypeError(f"to_csv: column {k!r} of type {t!r} cannot be written to CSV")
    starts = _block_starts(n, nl)
    tmp = [f + ".atoll-tmp" for f in files]
    try:
        for k, t in enumerate(tmp):
            lo, hi = starts[k], starts[k + 1]
            body = [_fmt(v, lo, hi) for v in cols.values()]
            with open(t, "w", newline="", encoding="utf-8") as fh:
                fh.write(f"{_HEAD}\n{','.join(types)}\n{_TAIL}\n")
                fh.write(_line([str(c) for c in cols.keys()], col_delim))
                for row in zip(*body):
                    fh.write(_line(row, col_delim))
            progress_step()
    except BaseException:
        for t in tmp:
            if os.path.exists(t):
                os.remove(t)
        raise
    for t, f in zip(tmp, files):
        os.replace(t, f)
    for f in _stale_locale_files(prefix_path, set(files)):
        os.remove(f)


def _type_name(col: pdarray) -> str:
    """The header's name of a column's dtype."""
    return "bigint" if isinstance(col, BigIntArray) else str(col.dtype.name)


def _pdarray_to_csv(
    self: pdarray, prefix_path: _Path, dataset: str = "array", col_delim: str = ",", overwrite: bool = False
) -> None:
    to_csv({dataset: self}, prefix_path, col_delim=col_delim, overwrite=overwrite)


def _strings_to_csv(
    self: Strings, prefix_path: _Path, dataset: str = "strings_array", col_delim: str = ",", overwrite: bool = False
) -> None:
    to_csv({dataset: self}, prefix_path, col_delim=col_delim, overwrite=overwrite)


pdarray.to_csv = _pdarray_to_csv  # type: ignore[attr-defined]  # a method set from the module above the type
Strings.to_csv = _strings_to_csv  # type: ignore[attr-defined]
