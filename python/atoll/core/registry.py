"""Arkouda's registration functions (``ak.register_all``, ``ak.attach``, ``ak.unregister``, ...)
and checkpoints (``ak.save_checkpoint``/``ak.load_checkpoint``) without a server.

A registered object is kept under its name by the driver (the Python program: rank 0 under
MPI, where the other ranks serve the job's commands), in the table of
``atoll.core._registry``; its data stays distributed over the locales as before. A later
``attach(name)`` in the same program gives the object itself, with its dtype and values.
Arkouda's server outlives its clients; an Atoll job ends with its program, so names do not
reach another program: a checkpoint writes every registered object to HDF5 files
(``save_checkpoint``) that ``load_checkpoint`` reads back under the same names.

>>> import atoll as ak
>>> a = ak.arange(5)
>>> ak.register_all({"five": ak.Series(a)})
>>> ak.attach("five").values.tolist()
[0, 1, 2, 3, 4]
>>> ak.is_registered("five")
True
>>> ak.unregister("five")
'Unregistered SERIES five'
"""

import gc
import glob
import json
import os
import shutil

from .. import _atoll
from ..client_dtypes import BitVector, Fields
from ..hdf5 import read_hdf, to_hdf
from ..numpy.pdarrayclass import pdarray
from ..numpy.strings import Strings
from ..pandas.index import Index, MultiIndex
from ..pandas.series import Series
from . import _registry

RegistrationError = _registry.RegistrationError
NameInUseError = _registry.NameInUseError
NotRegisteredError = _registry.NotRegisteredError

__all__ = [
    "RegistrationError",
    "NameInUseError",
    "NotRegisteredError",
    "register",
    "register_all",
    "attach",
    "attach_all",
    "unregister",
    "unregister_all",
    "is_registered",
    "clear",
    "save_checkpoint",
    "load_checkpoint",
]


def register(obj, name):
    """Registers ``obj`` under ``name`` through its own ``register`` method, and returns it.
    An object without one (or whose method keeps no name) goes into the table directly."""
    _registry._check_name(name)
    method = getattr(obj, "register", None)
    out = method(name) if callable(method) else obj
    if _registry.name_of(obj) is None:
        _registry.register(obj, name)
    return obj if out is None else out


def register_all(data):
    """Registers every object of the dict ``data`` (name -> object) under its name."""
    if not isinstance(data, dict):
        raise TypeError(f"data: expected a dict name -> object, got {type(data).__name__}")
    for name, obj in data.items():
        register(obj, name)


def attach(name):
    """The object registered under ``name`` (``NotRegisteredError``, a ``KeyError`` and a
    ``RuntimeError``, when there is none; ``TypeError`` when ``name`` is not a str)."""
    return _registry.attach(name)


def attach_all(names):
    """``{name: attach(name)}`` for every name of ``names``."""
    if isinstance(names, str):
        raise TypeError("names: expected a list of str, got a str")
    return {n: attach(n) for n in names}


def unregister(name):
    """Forgets ``name``: the object stays usable where it is referenced, and is no longer
    registered (its ``registered_name`` is None). Returns Arkouda's message
    ``"Unregistered <TYPE> <name>"``; ``NotRegisteredError`` (a ``RuntimeError``) for a name
    that is not registered."""
    obj = _registry.attach(name)
    kind = _registry.obj_type(obj).upper()
    _registry.unregister_all([name])
    return f"Unregistered {kind} {name}"


def unregister_all(names=None):
    """Unregisters every name of ``names`` (each must be registered), or every registered
    object when ``names`` is None."""
    if names is None:
        _registry.unregister_all()
        return
    if isinstance(names, str):
        raise TypeError("names: expected a list of str, got a str")
    for n in names:
        unregister(n)


def is_registered(name, as_component=False):
    """Whether ``name`` is a registered name; with ``as_component``, whether it is the
    symbol-table name (``ak.list_symbol_table``) of an array that a registered object
    holds. ``TypeError`` when ``name`` is not a str."""
    return _registry.is_registered(name, as_component=as_component)


def clear():
    """Arkouda's ``clear`` deletes the server's arrays that no client object registered; in
    process an array lives while Python references it, so this only collects the arrays that
    reference cycles alone keep (``gc.collect()``). Registered objects stay."""
    gc.collect()


# ----- checkpoints ------------------------------------------------------------------------
_META = "server.md"
_DATA = "registry"
_MODES = ("overwrite", "preserve_previous", "error")


def _default_name():
    return f"atoll_{os.getpid()}"


def _datasets(reg):
    """The HDF5 datasets of the registered objects ``reg`` (name -> object), and each
    object's record: its type and the datasets it is made of."""
    cols, record = {}, {}
    for i, (name, obj) in enumerate(reg.items()):
        key = f"obj_{i}"
        kind = _registry.obj_type(obj)
        if isinstance(obj, Series):
            idx = obj.index
            cols[key] = obj.values
            cols[key + "_index"] = idx if isinstance(idx, MultiIndex) else idx.values
            rec = {"type": "Series", "data": key, "index": key + "_index", "series_name": _jsonable(obj.name)}
        elif isinstance(obj, Fields):
            cols[key] = obj.values
            rec = {"type": "Fields", "data": key, "names": list(obj.names), "MSB_left": obj.MSB_left}
            rec.update(pad=obj.padchar, separator=obj.separator, show_int=obj.show_int)
        elif isinstance(obj, BitVector):
            cols[key] = obj.values
            rec = {"type": "BitVector", "data": key, "width": obj.width, "reverse": obj.reverse}
        else:
            cols[key] = obj
            rec = {"type": kind, "data": key}
        record[name] = rec
    return cols, record


def _jsonable(x):
    try:
        json.dumps(x)
        return x
    except TypeError:
        return None


def save_checkpoint(name="", path=".akdata", mode="overwrite"):
    """Writes every registered object to the directory ``<path>/<name>`` (created, with
    ``path``, where missing): HDF5 files ``registry_LOCALE####`` with the ``ak.to_hdf``
    layout, and ``server.md``, a JSON record of the job (locales, backend) and of each name's
    type. ``name`` defaults to ``atoll_<process id>``. ``mode``: ``"overwrite"`` replaces a
    checkpoint of the same name, ``"preserve_previous"`` first renames it to
    ``<name>.prev`` (replacing that), ``"error"`` raises ``RuntimeError`` if it exists.
    Returns the checkpoint's name. The objects' data is written by every locale, the
    directory and the record by the driver. **Collective.**

    Arkouda's checkpoint records the server's whole state; Atoll's records the registered
    objects, the state that outlives the names' holders in Arkouda's model."""
    if mode not in _MODES:
        raise ValueError(f"mode: expected one of {list(_MODES)}, got {mode!r}")
    if not isinstance(name, str) or not isinstance(path, (str, os.PathLike)):
        raise TypeError("name: expected a str, path: a str or path")
    name = name or _default_name()
    where = os.path.join(os.fspath(path), name)
    if os.path.exists(where):
        if mode == "error":
            raise RuntimeError(f"checkpoint {where!r} exists already (mode='error')")
        if mode == "preserve_previous":
            prev = where + ".prev"
            shutil.rmtree(prev, ignore_errors=True)
            os.replace(where, prev)
        else:
            shutil.rmtree(where)
    os.makedirs(where)
    reg = {n: _registry.attach(n) for n in _registry.names()}
    cols, record = _datasets(reg)
    if cols:
        to_hdf(cols, os.path.join(where, _DATA))
    nl, backend = _atoll.job_info()
    meta = {"format": "atoll-checkpoint", "version": 1, "numLocales": nl, "backend": backend, "objects": record}
    with open(os.path.join(where, _META), "w") as f:
        json.dump(meta, f, indent=1)
    return name


def _restore_in_place(cur, new):
    """Copies the values of ``new`` into ``cur`` where both are pdarrays of the same dtype
    and size, so that every reference to the registered array sees the checkpoint's values
    (Arkouda's restore of the server's arrays); False where it cannot."""
    if (
        type(cur) is pdarray
        and type(new) is pdarray
        and cur.dtype == new.dtype
        and cur.size == new.size
        and cur.dtype.kind in "iufb"
    ):
        cur[:] = new
        return True
    return False


def load_checkpoint(name, path=".akdata"):
    """Reads the checkpoint ``<path>/<name>`` (``save_checkpoint``) back: every object it
    holds is registered under its name again (a registered pdarray of the same dtype and
    size takes the checkpoint's values in place; another object held under the name is
    unregistered first). Returns ``name``. ``FileNotFoundError`` when there is no such
    checkpoint. **Collective.**"""
    if not isinstance(name, str):
        raise TypeError(f"name: expected a str, got {type(name).__name__}")
    where = os.path.join(os.fspath(path), name)
    meta_path = os.path.join(where, _META)
    if not os.path.isfile(meta_path):
        raise FileNotFoundError(f"no checkpoint {name!r} in {os.fspath(path)!r} (no {meta_path})")
    with open(meta_path) as f:
        meta = json.load(f)
    record = meta.get("objects", {})
    data = {}
    if record:
        files = sorted(glob.glob(os.path.join(glob.escape(where), _DATA + "_LOCALE*")))
        data = read_hdf(files)
    for reg_name, rec in record.items():
        obj = data[rec["data"]]
        if rec["type"] == "Series":
            idx = data[rec["index"]]
            obj = Series(obj, index=idx if isinstance(idx, Index) else Index(idx), name=rec.get("series_name"))
        elif rec["type"] == "BitVector":
            obj = BitVector(obj, width=rec["width"], reverse=rec["reverse"])
        elif rec["type"] == "Fields":
            obj = Fields(
                obj,
                rec["names"],
                MSB_left=rec["MSB_left"],
                pad=rec["pad"],
                separator=rec["separator"],
                show_int=rec["show_int"],
            )
        elif rec["type"] == "Strings" and not isinstance(obj, Strings):
            raise RuntimeError(f"checkpoint {name!r}: {reg_name!r} is not Strings in the files")
        if _registry.is_registered(reg_name):
            cur = _registry.attach(reg_name)
            if _restore_in_place(cur, obj):
                continue
            _registry.unregister_all([reg_name])
        register(obj, reg_name)
    return name
