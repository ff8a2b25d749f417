"""Arkouda's ``arkouda.core.infoclass``: the symbol table and the registry of the job.

The "symbol table" of a job without a server is the set of its live arrays, the pdarrays and
Strings that Python objects still hold; the registry is the driver's table of named objects
(``atoll.core._registry``).

``information(names)`` describes objects as Arkouda's server does, in JSON: for each one its
``name``, ``dtype``, ``size``, ``ndim``, ``shape``, ``itemsize`` and whether it is
``registered``. ``names`` is a name or a list of names (registered names, or symbol-table
names ``id_...``), ``AllSymbols`` (every live array) or ``RegisteredSymbols`` (every
registered object, the default).

>>> import atoll as ak
>>> s = ak.Series(ak.arange(3)).register("s3")
>>> "s3" in ak.list_registry()["Objects"]
True
>>> import json
>>> [(e["name"], e["size"]) for e in json.loads(ak.information("s3"))]
[('s3', 3)]
>>> s.unregister()
"""

from __future__ import annotations

import gc
import json
import sys
from typing import Any, Union

import numpy as np

from ..numpy.pdarrayclass import pdarray
from ..numpy.strings import Strings
from . import _registry

AllSymbols = "__AllSymbols__"
RegisteredSymbols = "__RegisteredSymbols__"
# What ``information`` takes: a name, ``AllSymbols``, ``RegisteredSymbols``, or a list of names.
_Names = Union[str, "list[str]", "tuple[str, ...]"]


def list_symbol_table() -> list[str]:
    """The names of the live arrays, one per array object.

    The pdarrays and Strings, those inside Categoricals, SegArrays and DataFrames included.
    An array that nothing references any more is gone from the list once Python has freed it
    (at once without cycles, after ``gc.collect()`` otherwise).

    Returns
    -------
    list of str
        ``id_`` and each array's identity in hexadecimal.

    Examples
    --------
    >>> import atoll as ak
    >>> a = ak.arange(3)
    >>> f"id_{id(a):x}" in ak.list_symbol_table()
    True
    """
    return list(_live_arrays())


def list_registry(detailed: bool = False) -> dict[str, list[Any]]:
    """The registered names, and the symbol-table names of the arrays they hold.

    Parameters
    ----------
    detailed : bool, default False
        Give ``(name, TYPE)`` pairs, the type in upper case (as ``"PDARRAY"``), in place of
        the names.

    Returns
    -------
    dict
        ``{"Objects": [...], "Components": [...]}``.

    Examples
    --------
    >>> import atoll as ak
    >>> a = ak.arange(3).register("doc-lr")
    >>> "doc-lr" in ak.list_registry()["Objects"]
    True
    >>> ("doc-lr", "PDARRAY") in ak.list_registry(detailed=True)["Objects"]
    True
    >>> a.unregister()
    """
    return _registry.list_registry(detailed=detailed)


class InfoEntry:
    """One object's description (the fields of ``information``'s JSON).

    Parameters
    ----------
    **kwargs
        ``name``, ``dtype``, ``size``, ``ndim``, ``shape``, ``itemsize``, ``registered``.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.core.infoclass import InfoEntry
    >>> InfoEntry(name="a", dtype="int64", size=3, ndim=1, shape=[3], itemsize=8, registered=True)
    InfoEntry(name=a, dtype=int64, size=3, ndim=1, shape=[3], itemsize=8, registered=True)
    """

    def __init__(self, **kwargs: Any) -> None:  # noqa: ANN401 (the JSON's values)
        self.name = kwargs["name"]
        self.dtype = kwargs["dtype"]
        self.size = kwargs["size"]
        self.ndim = kwargs["ndim"]
        self.shape = kwargs["shape"]
        self.itemsize = kwargs["itemsize"]
        self.registered = kwargs["registered"]

    def __str__(self) -> str:
        return "InfoEntry({})".format(", ".join(f"{k}={v}" for k, v in vars(self).items()))

    __repr__ = __str__


def _entry(name: str, obj: Any, registered: bool) -> dict[str, Any]:  # noqa: ANN401 (any registered object)
    dtype = getattr(obj, "dtype", None)
    if dtype is None:
        dt, itemsize = _registry.obj_type(obj), 0
    else:
        dt = "str" if np.dtype(dtype).kind in "OUS" else str(np.dtype(dtype))
        itemsize = 0 if np.dtype(dtype).kind in "OUS" else int(np.dtype(dtype).itemsize)
    shape = getattr(obj, "shape", None)
    if shape is None:
        shape = (len(obj),) if hasattr(obj, "__len__") else (getattr(obj, "size", 0),)
    dims = [int(x) for x in shape]
    size = getattr(obj, "size", None)
    size = int(np.prod(dims)) if not isinstance(size, (int, np.integer)) else int(size)
    return {
        "name": name,
        "dtype": dt,
        "size": size,
        "ndim": len(dims),
        "shape": dims,
        "itemsize": itemsize,
        "registered": bool(registered),
    }


def _live_arrays() -> dict[str, Any]:
    """Every live array, by its symbol-table name."""
    return {_registry.symbol_name(o): o for o in gc.get_objects() if isinstance(o, (pdarray, Strings))}


def information(names: _Names = RegisteredSymbols) -> str:
    """A JSON list describing objects, as Arkouda's server does.

    Parameters
    ----------
    names : str or list of str, default RegisteredSymbols
        A name or a list of names (registered names, or symbol-table names ``id_...``),
        ``AllSymbols`` (every live array) or ``RegisteredSymbols`` (every registered object).

    Returns
    -------
    str
        JSON: for each object its ``name``, ``dtype``, ``size``, ``ndim``, ``shape``,
        ``itemsize`` and whether it is ``registered``.

    Raises
    ------
    NotRegisteredError
        A name is neither registered nor a live array's (a ``KeyError``, and a
        ``RuntimeError`` as the server error Arkouda raises).
    TypeError
        ``names`` is not a str or a list of str.

    Examples
    --------
    >>> import atoll as ak
    >>> a = ak.arange(3).register("doc-info")
    >>> ak.information("doc-info")
    '[{"name": "doc-info", "dtype": "int64", "size": 3, "ndim": 1, "shape": [3], "itemsize": 8, "registered": true}]'
    >>> a.unregister()
    >>> ak.information(["doc-info"])
    Traceback (most recent call last):
    ...
    atoll.core._registry.NotRegisteredError: no registered object or live array named 'doc-info'
    """
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
    live: dict[str, Any] | None = None
    entries = []
    for n in names:
        if _registry.is_registered(n):
            entries.append(_entry(n, _registry.attach(n), True))
            continue
        if live is None:
            live = _live_arrays()
        if n not in live:
            raise _registry.NotRegisteredError(f"no registered object or live array named {n!r}")
        entries.append(_entry(n, live[n], _registry.is_registered(n, as_component=True)))
    return json.dumps(entries)


def _parse_json(names: _Names) -> list[InfoEntry]:
    entries: list[InfoEntry] = json.loads(information(names), object_hook=lambda d: InfoEntry(**d))
    return entries


def pretty_print_information(names: _Names = RegisteredSymbols) -> None:
    """Print ``information(names)``, one ``InfoEntry(...)`` line per object.

    Parameters
    ----------
    names : str or list of str, default RegisteredSymbols
        As ``information`` takes them.

    Raises
    ------
    NotRegisteredError
        A name is neither registered nor a live array's (a ``KeyError`` and a ``RuntimeError``).
    TypeError
        ``names`` is not a str or a list of str.

    Examples
    --------
    >>> import atoll as ak
    >>> a = ak.arange(3).register("doc-pp")
    >>> ak.pretty_print_information("doc-pp")
    InfoEntry(name=doc-pp, dtype=int64, size=3, ndim=1, shape=[3], itemsize=8, registered=True)
    >>> a.unregister()
    """
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
