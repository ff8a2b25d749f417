"""Parquet IO with Arkouda's names: ``ak.read_parquet``, ``ak.to_parquet`` and
``pdarray.to_parquet``.

Every locale reads the rows of its own part (the row groups that overlap it) and writes its
own file, ``<prefix>_LOCALE0000.parquet`` (an extension in ``prefix_path`` moves to the end:
``x.parquet`` gives ``x_LOCALE0000.parquet``). The files are plain Parquet: pyarrow, pandas and
polars read them (``pd.read_parquet(sorted(glob("x_LOCALE*")))``). Datasets: int64, uint64,
float64 and bool (int8-32, uint8-32 and float32 read widened; nulls read as NaN in float
columns), and UTF-8 strings, read as ``ak.Strings`` (a null string reads as ``""``, as in
Arkouda) and written from ``ak.Strings`` (``Strings.to_parquet`` too). A missing file is a ``FileNotFoundError``, a missing dataset or a corrupt
file a ``ValueError``, a dataset of another type a ``TypeError``; nothing in the session is
lost.
"""

import glob as _glob
import os

from . import _atoll
from .pdarrayclass import pdarray
from .strings import Strings

__all__ = ["read_parquet", "to_parquet", "get_datasets", "ls"]


def _expand(filenames):
    """The files named, each pattern (``*``, ``?``, ``[``) expanded in sorted order."""
    if isinstance(filenames, (str, os.PathLike)):
        filenames = [filenames]
    out = []
    for f in filenames:
        f = os.fspath(f)
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


def _names(datasets, what="datasets"):
    if isinstance(datasets, str):
        return [datasets]
    names = list(datasets)
    if not all(isinstance(d, str) for d in names):
        raise TypeError(f"{what}: expected names (str), got {names!r}")
    return names


def get_datasets(filename):
    """The dataset (column) names of a Parquet file (the first file of a pattern or list)."""
    return [d[0] for d in _atoll.parquet_datasets(_expand(filename)[0])]


def ls(filename):
    """(name, dtype or None when Atoll cannot read it, Parquet type) of each dataset."""
    return _atoll.parquet_datasets(_expand(filename)[0])


def read_parquet(filenames, datasets=None, iterative=False, strict_types=True, allow_errors=False, tag_data=False):
    """Reads ``datasets`` (every dataset of the first file when None) of the Parquet files
    ``filenames`` (a name, a glob pattern, or a list of them; their rows in order form the
    arrays). Returns the pdarray (``Strings`` for a string dataset) for one dataset, otherwise
    a dict name -> pdarray or Strings.

    ``iterative`` and ``strict_types`` are accepted for Arkouda's signature (the result is the
    same; types are widened as documented in the module); ``allow_errors`` and ``tag_data``
    are not supported.
    """
    if allow_errors or tag_data:
        raise ValueError("read_parquet: allow_errors and tag_data are not supported by Atoll")
    files = _expand(filenames)
    names = get_datasets(files[0]) if datasets is None else _names(datasets)
    if not names:
        raise ValueError("datasets: no datasets to read")
    arrs = _atoll.read_parquet(files, names)
    out = {n: Strings(a) if isinstance(a, _atoll.StrArr) else pdarray(a) for n, a in zip(names, arrs)}
    return out[names[0]] if len(names) == 1 else out


def _check_write(prefix_path, mode):
    if mode != "truncate":
        raise ValueError(f"mode: only 'truncate' is supported (got {mode!r}); Atoll rewrites the files")
    return os.fspath(prefix_path)


def to_parquet(columns, prefix_path, names=None, mode="truncate", compression=None, convert_categoricals=False):
    """Writes ``columns`` (a dict name -> pdarray or Strings, or a list of them with ``names``)
    of one length to one Parquet file per locale, ``<prefix>_LOCALE####.parquet``, each holding that
    locale's rows. ``compression``: None, 'snappy' or 'zstd'.
    """
    prefix = _check_write(prefix_path, mode)
    if isinstance(columns, dict):
        if names is not None:
            raise ValueError("names: give names either as the dict's keys or as names, not both")
        names, cols = list(columns.keys()), list(columns.values())
    elif isinstance(columns, (pdarray, Strings)):
        cols = [columns]
        names = ["array"] if names is None else _names(names, "names")
    else:
        cols = list(columns)
        if names is None:
            raise ValueError("names: needed for a list of columns")
        names = _names(names, "names")
    if len(names) != len(cols):
        raise ValueError(f"names: {len(names)} names for {len(cols)} columns")
    for c in cols:
        if not isinstance(c, (pdarray, Strings)):
            raise TypeError(f"columns: expected pdarrays or Strings, got {type(c).__name__}")
    handles = [c._s if isinstance(c, Strings) else c._whole() for c in cols]
    _atoll.write_parquet(handles, [str(n) for n in names], prefix, compression)


def _strings_to_parquet(self, prefix_path, dataset="strings_array", mode="truncate", compression=None):
    """Writes the strings as ``dataset`` to one Parquet file per locale (``ak.to_parquet``)."""
    to_parquet({dataset: self}, prefix_path, mode=mode, compression=compression)


# Arkouda's ``Strings.to_parquet``, attached here so that the strings module stays about strings.
Strings.to_parquet = _strings_to_parquet
