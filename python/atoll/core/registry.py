"""Arkouda's registration functions and checkpoints, without a server.

``ak.register_all``, ``ak.attach``, ``ak.unregister``, ... and ``ak.save_checkpoint`` /
``ak.load_checkpoint``.

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

from __future__ import annotations

import gc
import glob
import json
import os
import shutil
from collections.abc import Iterable
from typing import Any, TypeVar

from .. import _atoll
from ..client_dtypes import BitVector, Fields
from ..hdf5 import read_hdf, to_hdf
from ..numpy.pdarrayclass import pdarray
from ..numpy.strings import Strings
from ..pandas.index import Index, MultiIndex
from ..pandas.series import Series
from . import _registry

_T = TypeVar("_T")

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


def register(obj: _T, name: str) -> _T:
    """Register ``obj`` under ``name`` through its own ``register`` method.

    An object without one (or whose method keeps no name) goes into the table directly.

    Parameters
    ----------
    obj : object
        The object.
    name : str
        Its name.

    Returns
    -------
    object
        What its ``register`` returns, else ``obj``.

    Raises
    ------
    RegistrationError
        ``obj`` is registered already.
    NameInUseError
        Another object holds ``name``.
    TypeError
        ``name`` is not a str.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.core.registry import register
    >>> a = register(ak.arange(3), "doc-reg")
    >>> ak.attach("doc-reg") is a
    True
    >>> ak.unregister("doc-reg")
    'Unregistered PDARRAY doc-reg'
    """
    _registry._check_name(name)
    method = getattr(obj, "register", None)
    out = method(name) if callable(method) else obj
    if _registry.name_of(obj) is None:
        _registry.register(obj, name)
    result: _T = obj if out is None else out
    return result


def register_all(data: dict[str, Any]) -> None:
    """Register every object of ``data`` under its name.

    Parameters
    ----------
    data : dict
        Name -> object.

    Raises
    ------
    TypeError
        ``data`` is not a dict.
    RegistrationError
        An object is registered already, or a name is held.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.register_all({"doc-a": ak.arange(2), "doc-b": ak.array(["x"])})
    >>> sorted(ak.attach_all(["doc-a", "doc-b"]))
    ['doc-a', 'doc-b']
    >>> ak.unregister_all(["doc-a", "doc-b"])
    """
    if not isinstance(data, dict):
        raise TypeError(f"data: expected a dict name -> object, got {type(data).__name__}")
    for name, obj in data.items():
        register(obj, name)


def attach(name: str) -> Any:  # noqa: ANN401 (the object registered, of any type)
    """The object registered under ``name``.

    Parameters
    ----------
    name : str
        The name.

    Returns
    -------
    object
        The object itself, with its dtype and values.

    Raises
    ------
    NotRegisteredError
        No object holds ``name`` (a ``KeyError`` and a ``RuntimeError``).
    TypeError
        ``name`` is not a str.

    Examples
    --------
    >>> import atoll as ak
    >>> s = ak.Series(ak.arange(3)).register("doc-at")
    >>> ak.attach("doc-at").values
    array([0 1 2])
    >>> s.unregister()
    """
    return _registry.attach(name)


def attach_all(names: Iterable[str]) -> dict[str, Any]:
    """The objects registered under ``names``.

    Parameters
    ----------
    names : list of str
        The names.

    Returns
    -------
    dict
        ``{name: attach(name)}``.

    Raises
    ------
    TypeError
        ``names`` is a str.
    NotRegisteredError
        A name is not registered.

    Examples
    --------
    >>> import atoll as ak
    >>> a = ak.arange(2).register("doc-all")
    >>> ak.attach_all(["doc-all"])
    {'doc-all': array([0 1])}
    >>> a.unregister()
    """
    if isinstance(names, str):
        raise TypeError("names: expected a list of str, got a str")
    return {n: attach(n) for n in names}


def unregister(name: str) -> str:
    """Forget ``name``.

    The object stays usable where it is referenced, and is no longer registered (its
    ``registered_name`` is None).

    Parameters
    ----------
    name : str
        The name.

    Returns
    -------
    str
        Arkouda's message, ``"Unregistered <TYPE> <name>"``.

    Raises
    ------
    NotRegisteredError
        The name is not registered (a ``RuntimeError``).

    Examples
    --------
    >>> import atoll as ak
    >>> a = ak.arange(2).register("doc-un")
    >>> ak.unregister("doc-un")
    'Unregistered PDARRAY doc-un'
    >>> a.registered_name is None
    True
    """
    obj = _registry.attach(name)
    kind = _registry.obj_type(obj).upper()
    _registry.unregister_all([name])
    return f"Unregistered {kind} {name}"


def unregister_all(names: Iterable[str] | None = None) -> None:
    """Unregister every name of ``names``, or every registered object.

    Parameters
    ----------
    names : list of str, optional
        The names, each registered; every registered object when None.

    Raises
    ------
    TypeError
        ``names`` is a str.
    NotRegisteredError
        A name is not registered.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.register_all({"doc-u1": ak.arange(2)})
    >>> ak.unregister_all(["doc-u1"])
    >>> ak.is_registered("doc-u1")
    False
    """
    if names is None:
        _registry.unregister_all()
        return
    if isinstance(names, str):
        raise TypeError("names: expected a list of str, got a str")
    for n in names:
        unregister(n)


def is_registered(name: str, as_component: bool = False) -> bool:
    """Whether ``name`` is a registered name.

    Parameters
    ----------
    name : str
        The name.
    as_component : bool, default False
        Whether ``name`` is instead the symbol-table name (``ak.list_symbol_table``) of an
        array that a registered object holds.

    Returns
    -------
    bool
        Whether it is.

    Raises
    ------
    TypeError
        ``name`` is not a str.

    Examples
    --------
    >>> import atoll as ak
    >>> a = ak.arange(2).register("doc-is")
    >>> ak.is_registered("doc-is"), ak.is_registered(f"id_{id(a):x}", as_component=True)
    (True, True)
    >>> a.unregister()
    """
    return _registry.is_registered(name, as_component=as_component)


def clear() -> None:
    """Free the arrays that nothing registered or referenced holds.

    Arkouda's ``clear`` deletes the server's arrays that no client object registered; in
    process an array lives while Python references it, so this only collects the arrays that
    reference cycles alone keep (``gc.collect()``). Registered objects stay.

    Examples
    --------
    >>> import atoll as ak
    >>> a = ak.arange(2).register("doc-clear")
    >>> ak.clear()
    >>> ak.is_registered("doc-clear")
    True
    >>> a.unregister()
    """
    gc.collect()


# ----- checkpoints ------------------------------------------------------------------------
_META = "server.md"
_DATA = "registry"
_MODES = ("overwrite", "preserve_previous", "error")


def _default_name() -> str:
    return f"atoll_{os.getpid()}"


def _datasets(reg: dict[str, Any]) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """The HDF5 datasets of the registered objects ``reg`` (name -> object), and their records.

    Each object's record is its type and the datasets it is made of.
    """
    cols: dict[str, Any] = {}
    record: dict[str, dict[str, Any]] = {}
    for i, (name, obj) in enumerate(reg.items()):
        key = f"obj_{i}"
        kind = _registry.obj_type(obj)
        if isinstance(obj, Series):
            idx = obj.index
            cols[key] = obj.values
            cols[key + "_index"] = idx if isinstance(idx, MultiIndex) else idx.values
            rec: dict[str, Any] = {
                "type": "Series",
                "data": key,
                "index": key + "_index",
                "series_name": _jsonable(obj.name),
            }
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


def _jsonable(x: object) -> object:
    try:
        json.dumps(x)
        return x
    except TypeError:
        return None


def save_checkpoint(name: str = "", path: str | os.PathLike[str] = ".akdata", mode: str = "overwrite") -> str:
    """Write every registered object to the directory ``<path>/<name>``.

    **Collective.** The directory (with ``path``) is made where missing. It holds HDF5 files
    ``registry_LOCALE####`` with the ``ak.to_hdf`` layout, and ``server.md``, a JSON record of
    the job (locales, backend) and of each name's type. The objects' data is written by every
    locale, the directory and the record by the driver. Arkouda's checkpoint records the
    server's whole state; Atoll's records the registered objects, the state that outlives the
    names' holders in Arkouda's model.

    Parameters
    ----------
    name : str, optional
        The checkpoint's name; ``atoll_<process id>`` by default.
    path : str or path, default '.akdata'
        The folder of checkpoints.
    mode : {'overwrite', 'preserve_previous', 'error'}, default 'overwrite'
        For an existing checkpoint of the name: replace it, first rename it to
        ``<name>.prev`` (replacing that), or raise.

    Returns
    -------
    str
        The checkpoint's name.

    Raises
    ------
    ValueError
        ``mode`` is not one of the modes.
    TypeError
        ``name`` is not a str, or ``path`` not a path.
    RuntimeError
        The checkpoint exists and ``mode`` is ``'error'``.

    Examples
    --------
    >>> import atoll as ak
    >>> import tempfile
    >>> folder = tempfile.mkdtemp()
    >>> a = ak.arange(3).register("doc-ck")
    >>> ak.save_checkpoint("first", path=folder)
    'first'
    >>> a[:] = 7
    >>> ak.load_checkpoint("first", path=folder)
    'first'
    >>> a
    array([0 1 2])
    >>> a.unregister()
    """
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


def _restore_in_place(cur: object, new: object) -> bool:
    """Copy the values of ``new`` into ``cur`` where both are pdarrays of the same dtype and size.

    Every reference to the registered array then sees the checkpoint's values (Arkouda's
    restore of the server's arrays); False where it cannot.
    """
    if (
        type(cur) is pdarray
        and type(new) is pdarray
        and cur.dtype == new.dtype
        and cur.size == new.size
        and cur.dtype.kind in "iufb"
    ):
        target: Any = cur  # pdarray's __setitem__ is set by numpy._pdarrayclass_methods
        target[:] = new
        return True
    return False


def load_checkpoint(name: str, path: str | os.PathLike[str] = ".akdata") -> str:
    """Read the checkpoint ``<path>/<name>`` (``save_checkpoint``) back.

    **Collective.** Every object it holds is registered under its name again: a registered pdarray of the
    same dtype and size takes the checkpoint's values in place; another object held under
    the name is unregistered first.

    Parameters
    ----------
    name : str
        The checkpoint's name.
    path : str or path, default '.akdata'
        The folder of checkpoints.

    Returns
    -------
    str
        ``name``.

    Raises
    ------
    FileNotFoundError
        There is no such checkpoint.
    TypeError
        ``name`` is not a str.

    Examples
    --------
    >>> import atoll as ak
    >>> import tempfile
    >>> folder = tempfile.mkdtemp()
    >>> s = ak.Series(ak.array([1.5, 2.5])).register("doc-load")
    >>> ak.save_checkpoint("c", path=folder)
    'c'
    >>> s.unregister()
    >>> ak.load_checkpoint("c", path=folder)
    'c'
    >>> ak.attach("doc-load").values
    array([1.5 2.5])
    >>> ak.unregister("doc-load")
    'Unregistered SERIES doc-load'
    >>> ak.load_checkpoint("none", path=folder)
    Traceback (most recent call last):
    ...
    FileNotFoundError: no checkpoint 'none' in ...
    """
    if not isinstance(name, str):
        raise TypeError(f"name: expected a str, got {type(name).__name__}")
    where = os.path.join(os.fspath(path), name)
    meta_path = os.path.join(where, _META)
    if not os.path.isfile(meta_path):
        raise FileNotFoundError(f"no checkpoint {name!r} in {os.fspath(path)!r} (no {meta_path})")
    with open(meta_path) as f:
        meta = json.load(f)
    record = meta.get("objects", {})
    data: dict[str, Any] = {}
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
