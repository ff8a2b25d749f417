"""Arkouda's ``arkouda.core.infoclass``: the "symbol table" of a job without a server is the
set of its live arrays, the pdarrays and Strings that Python objects still hold; the registry
is the driver's table of named objects (``atoll.core._registry``).

``information(names)`` describes objects as Arkouda's server does, in JSON: for each one its
``name``, ``dtype``, ``size``, ``ndim``, ``shape``, ``itemsize`` and whether it is
``registered``. ``names`` is a name or a list of names (registered names, or symbol-table
names ``id_...``), ``AllSymbols`` (every live array) or ``RegisteredSymbols`` (every
registered object, the default).

>>> import atoll as ak
>>> s = ak.Series(ak.arange(3)).register("s3")
>>> ak.list_registry()["Objects"]
['s3']
>>> import json
>>> [(e["name"], e["size"]) for e in json.loads(ak.information("s3"))]
[('s3', 3)]
>>> s.unregister()
"""

import gc
import json
import sys

import numpy as np

from ..numpy.pdarrayclass import pdarray
from ..numpy.strings import Strings
from . import _registry

AllSymbols = "__AllSymbols__"
RegisteredSymbols = "__RegisteredSymbols__"


def list_symbol_table():
    """The names of the live arrays (pdarrays and Strings, those inside Categoricals,
    SegArrays and DataFrames included), one per array object: ``id_`` and its identity in
    hexadecimal. An array that nothing references any more is gone from the list once
    Python has freed it (at once without cycles, after ``gc.collect()`` otherwise)."""
    return list(_live_arrays())


def list_registry(detailed=False):
    """``{"Objects": [...], "Components": [...]}``: the registered names (with ``detailed``,
    ``(name, TYPE)`` pairs, the type in upper case, as ``"PDARRAY"``), and the symbol-table
    names of the arrays the registered objects hold."""
    return _registry.list_registry(detailed=detailed)


class InfoEntry:
    """One object's description (the fields of ``information``'s JSON)."""

    def __init__(self, **kwargs):
        self.name = kwargs["name"]
        self.dtype = kwargs["dtype"]
        self.size = kwargs["size"]
        self.ndim = kwargs["ndim"]
        self.shape = kwargs["shape"]
        self.itemsize = kwargs["itemsize"]
        self.registered = kwargs["registered"]

    def __str__(self):
        return "InfoEntry({})".format(", ".join(f"{k}={v}" for k, v in vars(self).items()))

    __repr__ = __str__


def _entry(name, obj, registered):
    dtype = getattr(obj, "dtype", None)
    if dtype is None:
        dt, itemsize = _registry.obj_type(obj), 0
    else:
        dt = "str" if np.dtype(dtype).kind in "OUS" else str(np.dtype(dtype))
        itemsize = 0 if np.dtype(dtype).kind in "OUS" else int(np.dtype(dtype).itemsize)
    shape = getattr(obj, "shape", None)
    if shape is None:
        shape = (len(obj),) if hasattr(obj, "__len__") else (getattr(obj, "size", 0),)
    shape = [int(x) for x in shape]
    size = getattr(obj, "size", None)
    size = int(np.prod(shape)) if not isinstance(size, (int, np.integer)) else int(size)
    return {
        "name": name,
        "dtype": dt,
        "size": size,
        "ndim": len(shape),
        "shape": shape,
        "itemsize": itemsize,
        "registered": bool(registered),
    }


def _live_arrays():
    """Every live array, by its symbol-table name."""

    return {_registry.symbol_name(o): o for o in gc.get_objects() if isinstance(o, (pdarray, Strings))}


def information(names=RegisteredSymbols):
    """A JSON list describing the objects ``names`` names (see the module's docstring);
    ``KeyError`` for a name that is neither registered nor a live array's, ``TypeError``
    when ``names`` is not a str or a list of str."""
    if isinstance(names, str):
        if names == RegisteredSymbols:
            entries = [_entry(n, _registry.attach(n), True) for n in _registry.names()]
            return json.dumps(entries)
        if names == AllSymbols:
            comps = set(_registry.list_registry()["Components"])
            entries = [_entry(n, o, n in comps) for n, o in _live_arrays().items()]
            return json.dumps(entries)
        names = [names]
    if not isinstance(names, (list, tuple)) or not all(isinstance(n, str) for n in names):
        raise TypeError(f"names: expected a str or a list of str, got {names!r}")
    live = None
    entries = []
    for n in names:
        if _registry.is_registered(n):
            entries.append(_entry(n, _registry.attach(n), True))
            continue
        if live is None:
            live = _live_arrays()
        if n not in live:
            raise KeyError(f"no registered object or live array named {n!r}")
        entries.append(_entry(n, live[n], _registry.is_registered(n, as_component=True)))
    return json.dumps(entries)


def _parse_json(names):
    return json.loads(information(names), object_hook=lambda d: InfoEntry(**d))


def pretty_print_information(names=RegisteredSymbols):
    """Prints ``information(names)``, one ``InfoEntry(...)`` line per object."""
    for e in _parse_json(names):
        sys.stdout.write(str(e) + "\n")


__all__ = [
    "AllSymbols",
    "RegisteredSymbols",
    "InfoEntry",
    "information",
    "list_registry",
    "list_symbol_table",
    "pretty_print_information",
]
