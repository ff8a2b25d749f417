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

import builtins
import csv as _csv
import glob as _glob
import io as _io
import os

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


def _split_records(text, delim, keep_blank=False):
    """The records of CSV text: lists of fields (quotes removed, ``""`` unescaped). A blank
    line is skipped, or with ``keep_blank`` read as one empty field."""
    if len(delim) == 1:
        recs = _csv.reader(_io.StringIO(text), delimiter=delim, quotechar='"')
        return [r if r else [""] for r in recs if r or keep_blank]
    rows, row, field = [], [], []
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


def _read_file(path, delim):
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


def get_csv_columns(filename, column_delim=","):
    """The column names of a CSV file."""
    return _read_file(filename, column_delim)[0]


def _column(values, t, path, name):
    if t is None or t == "str":
        return from_list(values)
    if t not in _TYPES:
        raise CSVTypeError(f"{path}: column {name!r} of unsupported type {t!r}")
    try:
        if t == "bigint":
            return from_ints([builtins.int(v) for v in values])
        if t == "bool":
            a = np.array([v.strip().lower() in ("true", "1") for v in values], dtype=bool)
        elif t == "float64":
            a = np.array([builtins.float(v) if v.strip() else np.nan for v in values], dtype=np.float64)
        else:
            a = np.array([builtins.int(v) for v in values], dtype=_TYPES[t])
    except (ValueError, OverflowError) as e:
        raise CSVFormatError(f"{path}: column {name!r} holds a value that is not {t} ({e})") from None
    return array(a)


def _expand(filenames):
    fs = [filenames] if isinstance(filenames, (str, os.PathLike)) else list(filenames)
    out = []
    for f in fs:
        f = os.fspath(f)
        if _glob.has_magic(f):
            hits = sorted(_glob.glob(f))
            if not hits:
                raise CSVFileNotFoundError(f"File {f} does not exist: no file matches the pattern")
            out.extend(hits)
        else:
            out.append(f)
    return out


@tracked("read_csv", total=lambda filenames, *a, **k: len(_expand(filenames)))
def read_csv(filenames, datasets=None, column_delim=",", allow_errors=False):
    """Reads CSV files (names, patterns or a list; their rows in order) into a dict column
    name -> pdarray or Strings (typed by Arkouda's header when there is one, else Strings)."""

    files = _expand(filenames)
    parts, names0 = {}, None
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


def _fmt(col, lo, hi):
    """The text of rows ``lo..hi`` of a column."""
    if isinstance(col, Strings):
        return col[lo:hi].to_list()
    if isinstance(col, BigIntArray):
        return [str(x) for x in col[lo:hi].tolist()]
    a = col[lo:hi].to_ndarray()
    if a.dtype == bool:
        return ["True" if x else "False" for x in a]
    if a.dtype.kind == "f":
        return [repr(builtins.float(x)) for x in a]
    return [str(x) for x in a]


def _quote(v, delim):
    """The field as written: quoted when it holds a quote, a line break or the delimiter, or
    when its end and the delimiter after it would read as a delimiter earlier (``|*`` before
    the delimiter ``|*|``)."""
    if '"' in v or "\n" in v or "\r" in v or (v + delim).find(delim) != len(v):
        return '"' + v.replace('"', '""') + '"'
    return v


def _line(fields, delim):
    """One record: the fields quoted where needed, and a lone empty field as ``""`` (a blank
    line would read as no record)."""
    if len(fields) == 1 and fields[0] == "":
        return '""\n'
    return delim.join(_quote(x, delim) for x in fields) + "\n"


@tracked("to_csv", total=lambda *a, **k: num_locales())
def to_csv(columns, prefix_path, names=None, col_delim=",", overwrite=False):
    """Writes ``columns`` (a dict name -> pdarray or Strings, or a list with ``names``) to one
    CSV file per locale with Arkouda's header. Existing files are replaced when
    ``overwrite`` (with the files of an earlier write of the prefix with more locales);
    otherwise their presence is an error."""

    if isinstance(columns, dict):
        cols = dict(columns)
    elif isinstance(columns, (list, tuple)):
        if names is None or len(names) != len(columns):
            raise ValueError("names: one name per column is needed for a list of columns")
        cols = dict(zip(names, columns))
    else:
        cols = {names or "array": columns}
    cols = {k: (v.to_strings() if isinstance(v, Categorical) else v) for k, v in cols.items()}
    n = {len(v) for v in cols.values()}
    if len(n) != 1:
        raise ValueError("to_csv: the columns must have one length")
    n = n.pop()
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


def _type_name(col):
    """The header's name of a column's dtype."""
    return "bigint" if isinstance(col, BigIntArray) else col.dtype.name


def _pdarray_to_csv(self, prefix_path, dataset="array", col_delim=",", overwrite=False):
    to_csv({dataset: self}, prefix_path, col_delim=col_delim, overwrite=overwrite)


def _strings_to_csv(self, prefix_path, dataset="strings_array", col_delim=",", overwrite=False):
    to_csv({dataset: self}, prefix_path, col_delim=col_delim, overwrite=overwrite)


pdarray.to_csv = _pdarray_to_csv
Strings.to_csv = _strings_to_csv
