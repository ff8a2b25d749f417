"""HDF5 files in Arkouda's layout.

``ak.to_hdf``, ``ak.read_hdf``, ``ak.update_hdf`` and the ``to_hdf``/``update_hdf`` methods
of every array kind.

Files: one per locale, ``<prefix>_LOCALE####`` (an extension of the prefix's last component
moves to the end, as in Arkouda), or one file (``file_type="single"``). Each object is written
as Arkouda's server writes it, so Arkouda reads Atoll's files and Atoll reads Arkouda's:

- pdarray: a dataset of its dtype (bool as uint8 with ``isBool``); attributes ``ObjType``
  (1; 7 Datetime, 8 Timedelta, 9 IPv4), ``file_version`` (2.0) and ``arkouda_version``.
  A pdarray of rank other than 1 is a dataset of its shape (h5py reads NumPy's array of
  that shape): in a single file the whole array; with one file per locale, file ``k`` holds
  the rows ``ceil(k R / N)..ceil((k+1) R / N)`` of axis 0 (R rows, N files), so the files
  join along axis 0 (a rank-0 array: file 0's scalar, the others' datasets empty). Reading
  joins datasets of another rank along axis 0 the same way, whoever wrote them.
- bigint pdarray (``ObjType`` 1): a group with ``isBigInt``, ``MaxBits`` and ``NumLimbs`` of
  uint64 datasets ``Limb_0``, ``Limb_1``, ... (least significant first); negative values add
  ``TwosComplement`` (the limbs then hold the two's complement, its top bit the sign).
- Strings (``ObjType`` 2): a group of ``values`` (the UTF-8 bytes, a NUL after each string)
  and ``segments`` (each string's offset in the file's values).
- SegArray (3): a group of ``segments`` and ``values`` (a dataset, or a Strings group).
- Categorical (4): ``codes``, ``categories`` (Strings), ``NA_Codes``, and ``permutation``
  and ``segments`` when known.
- GroupBy (5, ``NumKeys``): ``permutation``, ``segments``, ``unique_key_idx``, ``KEY_i``.
- DataFrame (6, ``NumCols``): ``Index`` and one object per column.
- Index (12) / MultiIndex (13, ``NumIdx``): ``IDX_i``.

Each component is written by its own distribution: locale ``k`` writes its part of it into
file ``k`` (no data moves between locales); reading concatenates a component's pieces over the
files in order, each locale reading the hyperslabs that overlap its part. A SegArray's
``segments`` in a file are relative to that file's first value, which Arkouda's reader and
ours both undo. Writing with ``mode="truncate"`` goes to temporary files renamed over the
targets only when every locale succeeded: nothing is partly written on failure.
"""

from __future__ import annotations

import builtins
import glob as _glob
import os
import warnings
from collections.abc import Callable, Iterable
from typing import Any, cast

from . import _atoll, client_dtypes
from ._io_errors import HDF5FileNotFoundError, HDF5FormatError, HDF5TypeError, engine_file_errors
from ._session import num_locales
from .numpy import _nd
from .numpy._bigint import BigIntArray, bigint_from_uint_arrays
from .numpy.dtypes import int64, uint64
from .numpy.pdarrayclass import pdarray
from .numpy.pdarraycreation import zeros
from .numpy.segarray import SegArray
from .numpy.strings import Strings
from .numpy.timeclass import Datetime, Timedelta
from .pandas.categorical import Categorical
from .pandas.dataframe import DataFrame
from .pandas.groupbyclass import GroupBy
from .pandas.index import Index, MultiIndex
from .progress import Progress

__all__ = [
    "to_hdf",
    "read_hdf",
    "update_hdf",
    "get_hdf_datasets",
    "ls_hdf",
    "ARKOUDA_HDF5_FILE_METADATA_GROUP",
]

ARKOUDA_HDF5_FILE_METADATA_GROUP = "_arkouda_metadata"
FILE_VERSION = 2.0
ATOLL_VERSION = "atoll-0.1.0"

OBJ = {
    "pdarray": 1,
    "Strings": 2,
    "SegArray": 3,
    "Categorical": 4,
    "GroupBy": 5,
    "DataFrame": 6,
    "Datetime": 7,
    "Timedelta": 8,
    "IPv4": 9,
    "BitVector": 10,
    "Series": 11,
    "Index": 12,
    "MultiIndex": 13,
}
OBJ_NAME = {v: k for k, v in OBJ.items()}


def _wrapped(fn: Callable[..., Any], *args: Any) -> Any:  # noqa: ANN401 (the engine call's arguments and result)
    return engine_file_errors(HDF5FileNotFoundError, HDF5TypeError, HDF5FormatError, fn, *args)


def _check_mode(mode: str) -> None:
    if mode not in ("truncate", "append"):
        raise TypeError(f"mode: expected 'truncate' or 'append', got {mode!r}")


# ----- file names --------------------------------------------------------------------------
def split_prefix(prefix_path: str | os.PathLike[str]) -> tuple[str, str]:
    """(prefix, extension) as Arkouda splits them: the extension of the last component.

    Parameters
    ----------
    prefix_path : str or path
        The prefix of a write.

    Returns
    -------
    tuple of str
        The prefix without the extension, and the extension (with its dot, or empty).

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.hdf5 import split_prefix
    >>> split_prefix("data/t.h5"), split_prefix("data/t")
    (('data/t', '.h5'), ('data/t', ''))
    """
    p = os.fspath(prefix_path)
    head, tail = os.path.split(p)
    if "." in tail:
        stem, ext = tail.rsplit(".", 1)
        return os.path.join(head, stem), "." + ext
    return p, ""


def locale_files(prefix_path: str | os.PathLike[str], n: int | None = None) -> list[str]:
    """The files of a per-locale write: ``<prefix>_LOCALE####<ext>``.

    Parameters
    ----------
    prefix_path : str or path
        The prefix of the write.
    n : int, optional
        The number of files (default: the number of locales).

    Returns
    -------
    list of str
        The file names, in locale order.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.hdf5 import locale_files
    >>> locale_files("data/t.h5", 2)
    ['data/t_LOCALE0000.h5', 'data/t_LOCALE0001.h5']
    """
    prefix, ext = split_prefix(prefix_path)
    n = num_locales() if n is None else n
    return [f"{prefix}_LOCALE{k:04d}{ext}" for k in range(n)]


def _target_files(prefix_path: str | os.PathLike[str], file_type: str) -> list[str]:
    if file_type not in ("distribute", "single"):
        raise ValueError(f"file_type: expected 'distribute' or 'single', got {file_type!r}")
    if file_type == "single":
        prefix, ext = split_prefix(prefix_path)
        return [prefix + ext]
    return locale_files(prefix_path)


def _meta(obj_type: str, extra: Iterable[tuple[str, Any]] = ()) -> list[tuple[str, Any]]:
    return [("ObjType", OBJ[obj_type]), ("file_version", FILE_VERSION), ("arkouda_version", ATOLL_VERSION)] + list(
        extra
    )


# ----- writing -----------------------------------------------------------------------------
def _kind(obj: object) -> str:
    special = getattr(obj, "special_objType", None)
    if special in ("Datetime", "Timedelta", "IPv4"):
        return cast(str, special)
    if isinstance(obj, pdarray):
        return "pdarray"
    if isinstance(obj, Strings):
        return "Strings"
    if isinstance(obj, SegArray):
        return "SegArray"
    if isinstance(obj, Categorical):
        return "Categorical"
    if isinstance(obj, GroupBy):
        return "GroupBy"
    if isinstance(obj, DataFrame):
        return "DataFrame"
    if isinstance(obj, MultiIndex):
        return "MultiIndex"
    if isinstance(obj, Index):
        return "Index"
    raise TypeError(f"to_hdf: cannot write an object of type {type(obj).__name__}")


def _block_starts(n: int, parts: int) -> list[int]:
    """The first element of each locale's Block part (and n): ``ceil(k * n / parts)``."""
    return [-(-k * n // parts) for k in range(parts + 1)]


def _write_array(files: list[str], path: str, a: Any, obj_type: str = "pdarray") -> None:  # noqa: ANN401 (a pdarray or a BigIntArray)
    if isinstance(a, BigIntArray):
        if a.ndim != 1:
            raise TypeError(f"to_hdf: a bigint array of rank {a.ndim} cannot be written (only rank 1)")
        return _write_bigint(files, path, a, obj_type)
    if a.ndim != 1:
        # A dataset of the array's shape; with one file per locale each file holds its rows.
        _atoll.h5_write(files, path, a._whole(), _meta(obj_type), True, list(a.shape))
        return
    _atoll.h5_write(files, path, a._whole(), _meta(obj_type))


def _write_bigint(files: list[str], path: str, a: BigIntArray, obj_type: str = "pdarray") -> None:
    """A bigint array in Arkouda's layout.

    A group with ``isBigInt``, ``MaxBits`` and ``NumLimbs`` whose datasets ``Limb_0``, ``Limb_1``, ... are uint64 limbs, least significant
    first, read as an unsigned integer. Negative values (possible without ``max_bits``) are
    written as their two's complement in every limb (the top limb's top bit is the sign) with
    the attribute ``TwosComplement``; a reader without it sees them modulo ``2**(64 * NumLimbs)``,
    as Arkouda's writer leaves negative values.
    """
    signed = a.max_bits < 0 and a.size > 0 and builtins.bool((a < 0).any())
    if signed:
        limbs = list(a._limbs)
    else:
        limbs = list(reversed(a.bigint_to_uint_arrays()))
    extra: list[tuple[str, Any]] = [("isBigInt", 1), ("MaxBits", a.max_bits), ("NumLimbs", len(limbs))]
    if signed:
        extra.append(("TwosComplement", 1))
    _atoll.h5_group(files, path, _meta(obj_type, extra))
    for i, limb in enumerate(limbs):
        _atoll.h5_write(files, f"{path}/Limb_{i}", limb._whole(), _meta("pdarray"))


def _write_strings(files: list[str], path: str, s: Strings, offsets: bool = True) -> None:
    _atoll.h5_write(files, path, s._s, _meta("Strings"), offsets)


def _write_obj(files: list[str], path: str, obj: Any) -> None:  # noqa: ANN401 (any object to_hdf writes)
    kind = _kind(obj)
    if kind in ("pdarray", "Datetime", "Timedelta", "IPv4"):
        arr = obj if isinstance(obj, pdarray) else obj.values
        _write_array(files, path, arr, kind)
    elif kind == "Strings":
        _write_strings(files, path, obj)
    elif kind == "SegArray":
        _atoll.h5_group(files, path, _meta("SegArray"))
        n = len(files)
        segs = obj.segments
        if n > 1:
            # Each file's segments relative to the first value of its part of the values.
            s_st, v_st = _block_starts(segs.size, n), _block_starts(obj.valsize, n)
            off = zeros(segs.size, int64)
            for k in range(n):
                if s_st[k + 1] > s_st[k]:
                    off[s_st[k] : s_st[k + 1]] = v_st[k]
            segs = (segs - off)._materialize()
        _write_array(files, f"{path}/segments", segs)
        if isinstance(obj.values, Strings):
            _write_strings(files, f"{path}/values", obj.values)
        else:
            _write_obj(files, f"{path}/values", obj.values)
    elif kind == "Categorical":
        _atoll.h5_group(files, path, _meta("Categorical"))
        _write_array(files, f"{path}/codes", obj.codes)
        _write_strings(files, f"{path}/categories", obj.categories)
        _write_array(files, f"{path}/NA_Codes", obj._akNAcode)
        if obj.permutation is not None and obj.segments is not None:
            _write_array(files, f"{path}/permutation", obj.permutation)
            _write_array(files, f"{path}/segments", obj.segments)
    elif kind == "GroupBy":
        keys = list(obj.keys) if obj._seq else [obj.keys]
        _atoll.h5_group(files, path, _meta("GroupBy", [("NumKeys", len(keys))]))
        _write_array(files, f"{path}/permutation", obj.permutation)
        _write_array(files, f"{path}/segments", obj.segments)
        _write_array(files, f"{path}/unique_key_idx", obj._uki)
        for i, k in enumerate(keys):
            _write_obj(files, f"{path}/KEY_{i}", k)
    elif kind == "DataFrame":
        _atoll.h5_group(files, path, _meta("DataFrame", [("NumCols", len(obj._columns))]))
        idx = obj.index
        _write_obj(files, f"{path}/Index", idx.values if not hasattr(idx, "levels") else idx)
        for c in obj._columns:
            _write_obj(files, f"{path}/{c}", obj.data[c])
    elif kind in ("Index", "MultiIndex"):
        levels = obj.levels if kind == "MultiIndex" else [obj.values]
        _atoll.h5_group(files, path, _meta(kind, [("NumIdx", len(levels))]))
        for i, lv in enumerate(levels):
            _write_obj(files, f"{path}/IDX_{i}", lv)


def _columns_dict(columns: Any, names: Any, default_name: str) -> dict[Any, Any]:  # noqa: ANN401 (as to_hdf's)
    if isinstance(columns, dict):
        if names is not None:
            raise ValueError("names: give names either as the dict's keys or as names, not both")
        return dict(columns)
    if isinstance(columns, (list, tuple)):
        if names is None or len(names) != len(columns):
            raise ValueError("names: one name per column is needed for a list of columns")
        return dict(zip(names, columns))
    return {default_name if names is None else (names if isinstance(names, str) else names[0]): columns}


def _sanitize(name: object) -> str:
    n = builtins.str(name)
    if "/" in n:
        raise ValueError(f"dataset name {n!r}: '/' separates HDF5 groups")
    return n


def _stale_locale_files(prefix_path: str | os.PathLike[str], keep: set[str]) -> list[str]:
    prefix, ext = split_prefix(prefix_path)
    out = []
    for f in _glob.glob(_glob.escape(prefix) + "_LOCALE[0-9][0-9][0-9][0-9]" + _glob.escape(ext)):
        if f not in keep:
            out.append(f)
    return out


def to_hdf(
    columns: Any,  # noqa: ANN401 (a dict, a list or one object of any kind written)
    prefix_path: str | os.PathLike[str],
    names: str | list[str] | None = None,
    mode: str = "truncate",
    file_type: str = "distribute",
) -> None:
    """Writes objects to HDF5 files in Arkouda's layout (collective).

    The files are ``<prefix>_LOCALE####``, one per locale, or one file with
    ``file_type="single"``. ``mode="append"`` adds the datasets to existing files (a dataset
    of the same name is an error: see ``update_hdf``).

    Parameters
    ----------
    columns : dict, list or object
        A dict name -> object, a list of objects with ``names``, or one object (pdarray,
        Strings, SegArray, Categorical, GroupBy, DataFrame, Index, Datetime, ...).
    prefix_path : str or path
        The prefix of the files.
    names : str or list of str, optional
        The datasets' names, for a list of objects (default for one object: ``"array"``).
    mode : {"truncate", "append"}
        Replace the files, or add to them.
    file_type : {"distribute", "single"}
        One file per locale, or one file.

    Raises
    ------
    TypeError
        ``mode`` is unknown, or an object is of a kind not written.
    ValueError
        ``file_type`` is unknown, names do not match the columns, a name holds ``/``, or a
        dataset to append exists already.

    Examples
    --------
    >>> import atoll as ak
    >>> import os, tempfile
    >>> prefix = os.path.join(tempfile.mkdtemp(), "t")
    >>> ak.to_hdf({"a": ak.arange(3)}, prefix)
    >>> ak.read_hdf(prefix + "_LOCALE*")["a"].tolist()
    [0, 1, 2]
    """
    _check_mode(mode)
    cols = _columns_dict(columns, names, "array")
    files = _target_files(prefix_path, file_type)
    if mode == "append":
        existing = [f for f in files if os.path.exists(f)]
        if existing and len(existing) != len(files):
            raise ValueError(
                f"Cannot append when the number of existing files ({len(existing)}) does not match the expected ({len(files)})."
            )
        _wrapped(_atoll.h5_create, files, False)
        for name, obj in cols.items():
            _sanitize(name)
            if os.path.exists(files[0]) and name in _top_names(files[0]):
                raise ValueError(f"dataset {name!r} exists already in {files[0]} (use update_hdf to replace it)")
        written: list[str] = []
        try:
            with Progress("to_hdf", len(cols)) as bar:
                for name, obj in cols.items():
                    _write_obj(files, name, obj)
                    written.append(name)
                    bar.step()
        except BaseException:
            for name in written:
                _atoll.h5_delete(files, name)
            raise
        return
    tmp = [f + ".atoll-tmp" for f in files]
    try:
        _wrapped(_atoll.h5_create, tmp, True)
        if file_type == "distribute" and len(tmp) == 1:
            _atoll.h5_group(tmp, "", [("File_Format", 1)])  # one locale: still a per-locale file
        with Progress("to_hdf", len(cols)) as bar:
            for name, obj in cols.items():
                _write_obj(tmp, _sanitize(name), obj)
                bar.step()
    except BaseException:
        for t in tmp:
            if os.path.exists(t):
                os.remove(t)
        raise
    for t, f in zip(tmp, files):
        os.replace(t, f)
    if file_type == "distribute":
        for f in _stale_locale_files(prefix_path, set(files)):
            os.remove(f)


def update_hdf(
    columns: Any,  # noqa: ANN401 (as to_hdf's)
    prefix_path: str | os.PathLike[str],
    names: str | list[str] | None = None,
    repack: bool = True,
) -> None:
    """Replaces (or adds) datasets in existing HDF5 files (collective).

    Without files of ``prefix_path``, writes them (``to_hdf``).

    Parameters
    ----------
    columns : dict, list or object
        As ``to_hdf``'s.
    prefix_path : str or path
        The prefix of the files.
    names : str or list of str, optional
        As ``to_hdf``'s.
    repack : bool, default True
        Rewrite the files without the space of the replaced datasets.

    Raises
    ------
    ValueError
        As ``to_hdf``.

    Examples
    --------
    >>> import atoll as ak
    >>> import os, tempfile
    >>> prefix = os.path.join(tempfile.mkdtemp(), "t")
    >>> ak.to_hdf({"a": ak.arange(3), "b": ak.arange(2)}, prefix)
    >>> ak.update_hdf({"a": ak.array([7, 8])}, prefix)
    >>> ak.read_hdf(prefix + "_LOCALE*", datasets="a")["a"].tolist()
    [7, 8]
    """
    cols = _columns_dict(columns, names, "array")
    files = _existing_files(prefix_path)
    if not files:
        to_hdf(cols, prefix_path)
        return
    target = files
    with Progress("update_hdf", len(cols)) as bar:
        for name, obj in cols.items():
            _wrapped(_atoll.h5_delete, target, _sanitize(name))
            _write_obj(target, name, obj)
            bar.step()
    # A file of one object gives its space back by itself (it was at the end): nothing to
    # repack then, as in Arkouda.
    if repack and len(get_hdf_datasets(target[0])) > 1:
        _wrapped(_atoll.h5_repack, target)


def _existing_files(prefix_path: str | os.PathLike[str]) -> list[str]:
    prefix, ext = split_prefix(prefix_path)
    hits = sorted(_glob.glob(_glob.escape(prefix) + "_LOCALE*" + _glob.escape(ext)))
    if hits:
        return hits
    single = prefix + ext
    return [single] if os.path.exists(single) else []


# ----- reading -----------------------------------------------------------------------------
def _list(path: str | os.PathLike[str]) -> list[tuple[str, bool, str, int, dict[str, Any]]]:
    return cast(list[tuple[str, bool, str, int, dict[str, Any]]], _wrapped(_atoll.h5_list, os.fspath(path)))


def _top_names(path: str | os.PathLike[str]) -> list[str]:
    return [p for (p, _, _, _, _) in _list(path) if p and "/" not in p]


def _expand(filenames: Any) -> list[str]:  # noqa: ANN401 (a name, a path, or a list of them)
    if isinstance(filenames, (str, os.PathLike)):
        filenames = [filenames]
    out: list[str] = []
    for f in filenames:
        f = os.fspath(f)
        if _glob.has_magic(f):
            hits = sorted(_glob.glob(f))
            if not hits:
                raise HDF5FileNotFoundError(f"File {f} does not exist: no file matches the pattern")
            out.extend(hits)
        else:
            out.append(f)
    if not out:
        raise ValueError("filenames: no files given")
    return out


class _Tree:
    """The objects of one file by path: (is_group, dtype, len, attrs)."""

    def __init__(self, items: Iterable[tuple[str, bool, str, int, dict[str, Any]]]) -> None:
        self.items: dict[str, tuple[bool, str, int, dict[str, Any]]] = {p: (g, d, n, a) for (p, g, d, n, a) in items}

    def children(self, path: str) -> list[str]:
        pre = path + "/" if path else ""
        return [p[len(pre) :] for p in self.items if p.startswith(pre) and p and "/" not in p[len(pre) :]]

    def top(self) -> list[str]:
        return [p for p in self.items if p and "/" not in p]

    def obj_type(self, path: str) -> str:
        g, _, _, a = self.items[path]
        t = a.get("ObjType")
        if t is not None:
            return OBJ_NAME.get(builtins.int(t), "pdarray")
        if not g:
            return "pdarray"
        kids = set(self.children(path))
        if {"values", "segments"} <= kids and self.items.get(f"{path}/values", (True,))[0] is False:
            vt = self.items[f"{path}/values"][1]
            return "Strings" if vt in ("uint8", "int8") else "SegArray"
        if {"codes", "categories"} <= kids:
            return "Categorical"
        return "group"


class _Reader:
    def __init__(self, files: list[str], strict: bool, calc_offsets: bool) -> None:
        self.files = files
        self.strict = strict
        self.calc = calc_offsets
        self.trees = [_Tree(_list(f)) for f in files]
        self.t0 = self.trees[0]

    def lens(self, path: str) -> list[int]:
        return [t.items[path][2] if path in t.items else 0 for t in self.trees]

    def array(self, path: str) -> pdarray:
        if not self.strict:
            return pdarray(_wrapped(_atoll.h5_read, self.files, path, False))
        return pdarray(_wrapped(_atoll.h5_read, self.files, path, True))

    def _shaped(self, path: str, arr: pdarray) -> pdarray:
        """``arr`` (the concatenated values of dataset ``path``) given the shape its datasets make.

        A 1-D dataset in every file is a 1-D array; datasets of another rank join along
        axis 0 (their other axes must agree), as the files of a per-locale write do.
        """
        dims = [tuple(d) for d in _wrapped(_atoll.h5_dims, self.files, path)]
        if all(len(d) == 1 for d in dims):
            return arr
        # A scalar written with one file per locale: the first file's, the others empty.
        full = [d for d in dims if d != (0,)]
        if len(full) == 1 and full[0] == () and arr.size == 1:
            return _nd.with_shape(arr, ())
        rest = {d[1:] for d in dims}
        if builtins.any(len(d) == 0 for d in dims) or len({len(d) for d in dims}) != 1 or len(rest) != 1:
            shapes = ", ".join(f"{f}: {d}" for f, d in zip(self.files, dims))
            raise HDF5FormatError(f"dataset {path!r}: the files' shapes do not join along axis 0 ({shapes})")
        return _nd.with_shape(arr, (builtins.sum(d[0] for d in dims),) + rest.pop())

    def strings(self, path: str) -> Strings:
        return Strings(_wrapped(_atoll.h5_read_strings, self.files, path, self.calc))

    def obj(self, path: str) -> Any:  # noqa: ANN401 (an object of any kind read)
        if path not in self.t0.items:
            raise HDF5FormatError(f"{self.files[0]}: no dataset {path!r}")
        kind = self.t0.obj_type(path)
        if kind in ("pdarray", "Datetime", "Timedelta", "IPv4", "BitVector"):
            g, _, _, a = self.t0.items[path]
            if g:
                if a.get("isBigInt"):
                    return self._bigint(path, a)
                raise HDF5TypeError(f"{self.files[0]}: {path!r} is a group, not an array")
            arr = self._shaped(path, self.array(path))
            return _special(kind, arr)
        if kind == "Strings":
            return self.strings(path)
        if kind == "SegArray":
            segs = self.array(f"{path}/segments")
            vkind = self.t0.obj_type(f"{path}/values")
            vals = self.strings(f"{path}/values") if vkind == "Strings" else self.obj(f"{path}/values")
            slen = self.lens(f"{path}/segments")
            if vkind == "Strings":
                vlen = [self._nstrings(i, f"{path}/values") for i in range(len(self.files))]
            elif self.t0.items[f"{path}/values"][3].get("isBigInt"):
                vlen = self.lens(f"{path}/values/Limb_0")
            else:
                vlen = self.lens(f"{path}/values")
            if len(self.files) > 1 and segs.size:
                add = zeros(segs.size, int64)
                s0 = v0 = 0
                for sl, vl in zip(slen, vlen):
                    if sl:
                        add[s0 : s0 + sl] = v0
                    s0 += sl
                    v0 += vl
                segs = (segs + add)._materialize()
            return SegArray(segs, vals)
        if kind == "Categorical":
            codes = self.array(f"{path}/codes")
            cats = self.strings(f"{path}/categories")
            kids = set(self.t0.children(path))
            na = self.array(f"{path}/NA_Codes") if "NA_Codes" in kids else None
            perm = self.array(f"{path}/permutation") if "permutation" in kids else None
            csegs = self.array(f"{path}/segments") if "segments" in kids else None
            return Categorical.from_codes(codes, cats, permutation=perm, segments=csegs, _akNAcode=na)
        if kind == "GroupBy":
            n = builtins.int(self.t0.items[path][3].get("NumKeys", 1))
            keys = [self.obj(f"{path}/KEY_{i}") for i in range(n)]
            perm = self.array(f"{path}/permutation")
            segs = self.array(f"{path}/segments")
            return GroupBy(orig_keys=keys if n > 1 else keys[0], permutation=perm, segments=segs)
        if kind == "DataFrame":
            names = self.t0.children(path)
            cols = {k: self.obj(f"{path}/{k}") for k in names if k != "Index"}
            idx = self.obj(f"{path}/Index") if "Index" in names else None
            df = DataFrame(cols)
            if idx is not None:
                df._set_index(idx if isinstance(idx, Index) else Index(idx))
            return df
        if kind in ("Index", "MultiIndex"):
            n = builtins.int(self.t0.items[path][3].get("NumIdx", 1))
            levels = [self.obj(f"{path}/IDX_{i}") for i in range(n)]
            return MultiIndex(levels) if kind == "MultiIndex" else Index(levels[0])
        raise HDF5TypeError(f"{self.files[0]}: {path!r} is a group of unknown kind")

    def _nstrings(self, i: int, path: str) -> int:
        t = self.trees[i]
        if f"{path}/segments" in t.items and not self.calc:
            return t.items[f"{path}/segments"][2]
        raise HDF5TypeError("SegArray of strings without offsets")

    def _bigint(self, path: str, attrs: dict[str, Any]) -> BigIntArray:
        """The bigint array of a group of uint64 limbs (``_write_bigint``'s layout, Arkouda's)."""
        kids = set(self.t0.children(path))
        n = builtins.int(attrs.get("NumLimbs", sum(1 for k in kids if k.startswith("Limb_"))))
        if n < 1 or any(f"Limb_{i}" not in kids for i in range(n)):
            raise HDF5FormatError(f"{self.files[0]}: the bigint group {path!r} lacks its limbs Limb_0..Limb_{n - 1}")
        limbs = []
        for i in range(n):
            limb = self.array(f"{path}/Limb_{i}")
            if limb.dtype != uint64:
                raise HDF5TypeError(f"{self.files[0]}: limb {path}/Limb_{i} is {limb.dtype}, not uint64")
            limbs.append(limb)
        max_bits = builtins.int(attrs.get("MaxBits", -1))
        if builtins.int(attrs.get("TwosComplement", 0)):
            return BigIntArray(limbs, max_bits)
        return bigint_from_uint_arrays(list(reversed(limbs)), max_bits)


def _special(kind: str, arr: pdarray) -> Any:  # noqa: ANN401 (a pdarray, Datetime, Timedelta or IPv4)
    if kind == "pdarray":
        return arr
    if kind in ("Datetime", "Timedelta"):  # int64 nanoseconds, as Arkouda writes them
        return cast(Any, Datetime if kind == "Datetime" else Timedelta)._from_ns(arr)
    cls = getattr(client_dtypes, kind, None)
    return cls(arr) if cls is not None else arr


def read_hdf(
    filenames: Any,  # noqa: ANN401 (a name, a path, a glob pattern, or a list of them)
    datasets: str | list[str] | None = None,
    iterative: bool = False,
    strict_types: bool = True,
    allow_errors: bool = False,
    calc_string_offsets: bool = False,
    tag_data: bool = False,
) -> dict[str, Any]:
    """Reads datasets of HDF5 files in Arkouda's layout (collective).

    The files' pieces of each dataset are concatenated in order. With ``allow_errors``,
    files that cannot be read are skipped with a RuntimeWarning. ``strict_types=False`` lets
    a dataset's integer width or signedness differ between files.

    Parameters
    ----------
    filenames : str, path or list of them
        The files (names or glob patterns).
    datasets : str or list of str, optional
        The datasets read (default: all).
    iterative : bool, default False
        Accepted for Arkouda's signature; the datasets are read one after the other either way.
    strict_types : bool, default True
        Require one dtype of a dataset in every file.
    allow_errors : bool, default False
        Skip the files that cannot be read (with a RuntimeWarning).
    calc_string_offsets : bool, default False
        Find the strings' offsets from their NULs rather than read them.
    tag_data : bool, default False
        Not supported for HDF5 (it is for Parquet).

    Returns
    -------
    dict
        Name -> object (pdarray, Strings, SegArray, Categorical, GroupBy, DataFrame, Index).

    Raises
    ------
    ValueError
        ``tag_data`` is set, or no file is given.
    HDF5FileNotFoundError
        A file is missing (none could be read, with ``allow_errors``).
    HDF5FormatError
        A dataset is missing or malformed.

    Examples
    --------
    >>> import atoll as ak
    >>> import os, tempfile
    >>> prefix = os.path.join(tempfile.mkdtemp(), "t")
    >>> ak.to_hdf({"n": ak.arange(3), "s": ak.array(["x", "y", "z"])}, prefix, file_type="single")
    >>> got = ak.read_hdf(prefix)
    >>> sorted(got), got["s"].tolist()
    (['n', 's'], ['x', 'y', 'z'])
    """
    if tag_data:
        raise ValueError("read_hdf: tag_data is not supported for HDF5 (it is for Parquet)")
    files = _expand(filenames)
    if allow_errors:
        good: list[str] = []
        errs: list[str] = []
        for f in files:
            try:
                _list(f)
                good.append(f)
            except (OSError, ValueError, RuntimeError) as e:
                errs.append(f"{f}: {e}")
        if errs:
            warnings.warn(
                f"There were {len(errs)} errors reading files on the server. Sample error messages {errs[:10]}",
                RuntimeWarning,
            )
        if not good:
            raise HDF5FileNotFoundError("read_hdf: no file could be read")
        files = good
    r = _Reader(files, strict_types, calc_string_offsets)
    names = [n for n in r.t0.top() if n != ARKOUDA_HDF5_FILE_METADATA_GROUP]
    if datasets is not None:
        want = [datasets] if isinstance(datasets, str) else list(datasets)
        missing = [d for d in want if d not in r.t0.items]
        if missing:
            raise HDF5FormatError(f"{files[0]}: no dataset {missing[0]!r} (datasets: {names})")
        names = want
    got: dict[str, Any] = {}
    with Progress("read_hdf", len(names)) as bar:
        for n in names:
            got[n] = r.obj(n)
            bar.step()
    return _recombine(got)


def _recombine(d: dict[str, Any]) -> dict[str, Any]:
    """Arkouda's older flat names made objects again.

    ``x_segments``/``x_values`` make a SegArray, ``x.codes``, ``x.categories``, ... a
    Categorical.
    """
    out: dict[str, Any] = {}
    skip: set[str] = set()
    for k, v in d.items():
        if k.endswith("_segments") and k[: -len("_segments")] + "_values" in d:
            base = k[: -len("_segments")]
            out[base] = SegArray(v, d[base + "_values"])
            skip |= {k, base + "_values"}
        elif k.endswith(".codes") and k[: -len(".codes")] + ".categories" in d:
            base = k[: -len(".codes")]
            parts = {p: d.get(f"{base}.{p}") for p in ("permutation", "segments", "_akNAcode")}
            out[base] = Categorical.from_codes(
                v,
                d[base + ".categories"],
                permutation=parts["permutation"],
                segments=parts["segments"],
                _akNAcode=parts["_akNAcode"],
            )
            skip |= {f"{base}.{p}" for p in ("codes", "categories", "permutation", "segments", "_akNAcode")}
    for k, v in d.items():
        if k not in skip and k not in out:
            out[k] = v
    return out


def get_hdf_datasets(filename: str | os.PathLike[str], column_delim: str = ",", read_nested: bool = True) -> list[str]:
    """The names of the top-level objects of an HDF5 file.

    Parameters
    ----------
    filename : str or path
        The file.
    column_delim : str, default ","
        Accepted for Arkouda's signature (its CSV reader's); unused.
    read_nested : bool, default True
        Accepted for Arkouda's signature; the top-level names are listed either way.

    Returns
    -------
    list of str
        The names, in the file's order.

    Raises
    ------
    HDF5FileNotFoundError
        The file is missing.

    Examples
    --------
    >>> import atoll as ak
    >>> import os, tempfile
    >>> prefix = os.path.join(tempfile.mkdtemp(), "t")
    >>> ak.to_hdf({"a": ak.arange(3), "b": ak.arange(3)}, prefix, file_type="single")
    >>> from atoll.hdf5 import get_hdf_datasets
    >>> sorted(get_hdf_datasets(prefix))
    ['a', 'b']
    """
    return [n for n in _top_names(filename) if n != ARKOUDA_HDF5_FILE_METADATA_GROUP]


def ls_hdf(filename: str | os.PathLike[str]) -> list[str]:
    """A description of every object of the file: one line per path (Arkouda's ``ls``).

    Parameters
    ----------
    filename : str or path
        The file.

    Returns
    -------
    list of str
        ``path: group {attributes}`` or ``path: dataset dtype [length] {attributes}``.

    Raises
    ------
    HDF5FileNotFoundError
        The file is missing.

    Examples
    --------
    >>> import atoll as ak
    >>> import os, tempfile
    >>> prefix = os.path.join(tempfile.mkdtemp(), "t")
    >>> ak.to_hdf({"a": ak.arange(3)}, prefix, file_type="single")
    >>> from atoll.hdf5 import ls_hdf
    >>> ls_hdf(prefix)[0].split(" {")[0]
    'a: dataset int64 [3]'
    """
    lines = []
    for p, g, d, n, a in _list(filename):
        if not p:
            continue
        lines.append(f"{p}: {'group' if g else f'dataset {d} [{n}]'} {dict(a)}")
    return lines


# ----- the methods of the array kinds ------------------------------------------------------
def _pdarray_to_hdf(
    self: pdarray,
    prefix_path: str | os.PathLike[str],
    dataset: str = "array",
    mode: str = "truncate",
    file_type: str = "distribute",
) -> None:
    """Writes the array as ``dataset`` to HDF5 (``ak.to_hdf``)."""
    to_hdf({dataset: self}, prefix_path, mode=mode, file_type=file_type)


def _pdarray_update_hdf(
    self: pdarray, prefix_path: str | os.PathLike[str], dataset: str = "array", repack: bool = True
) -> None:
    """Replaces ``dataset`` in HDF5 files (``ak.update_hdf``)."""
    update_hdf({dataset: self}, prefix_path, repack=repack)


def _strings_to_hdf(
    self: Strings,
    prefix_path: str | os.PathLike[str],
    dataset: str = "strings_array",
    mode: str = "truncate",
    save_offsets: bool = True,
    file_type: str = "distribute",
) -> None:
    """Writes the strings as ``dataset`` to HDF5.

    With ``save_offsets=False``, without their offsets, found again from the NULs when read.
    """
    _check_mode(mode)
    if save_offsets:
        to_hdf({dataset: self}, prefix_path, mode=mode, file_type=file_type)
        return
    files = _target_files(prefix_path, file_type)
    _wrapped(_atoll.h5_create, files, mode == "truncate")
    _write_strings(files, dataset, self, offsets=False)


def _strings_update_hdf(
    self: Strings,
    prefix_path: str | os.PathLike[str],
    dataset: str = "strings_array",
    save_offsets: bool = True,
    repack: bool = True,
) -> None:
    update_hdf({dataset: self}, prefix_path, repack=repack)


pdarray.to_hdf = _pdarray_to_hdf  # type: ignore[attr-defined]  # a method set from the module above the type
pdarray.update_hdf = _pdarray_update_hdf  # type: ignore[attr-defined]
Strings.to_hdf = _strings_to_hdf  # type: ignore[attr-defined]
Strings.update_hdf = _strings_update_hdf  # type: ignore[attr-defined]
