"""Arkouda's registry without a server: a table of names to objects in this process.

Arkouda's server keeps named objects that a later ``attach`` finds; here the table maps each
name to the object itself, which stays alive until it is unregistered. The table lives in
the driver, the process that runs the program (rank 0 under MPI, where the other ranks serve
the job's commands); the objects' data stays distributed over the locales. Registering,
attaching and unregistering touch the table alone: no locale takes part.

The module imports nothing of the package, so that any module may import it at its top (the
data-type classes do, through ``atoll.pandas._registry``): it recognises Atoll's arrays (``pdarray``, ``Strings``) by their classes' names
and modules.

The table's functions, used by the classes' ``register``/``unregister``/``is_registered``:

- ``register(obj, name)``: ``RegistrationError`` if ``obj`` is already registered (under any
  name), ``NameInUseError`` (a ``RegistrationError`` and a ``RuntimeError``, as the server
  error Arkouda raises) if another object holds ``name``, ``TypeError`` if ``name`` is not a
  non-empty str.
- ``unregister(name)``: forgets ``name`` (nothing happens for an unknown name).
- ``attach(name)``: the object (``NotRegisteredError``, a ``KeyError`` and a ``RuntimeError``,
  for an unknown name).
- ``name_of(obj)``: the name ``obj`` is registered under, or None.
- ``is_registered(name, as_component=False)``, ``is_component(obj)``, ``list_registry``,
  ``names()``, ``unregister_all(names=None)``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, TypeVar

__all__ = [
    "RegistrationError",
    "NameInUseError",
    "NotRegisteredError",
    "register",
    "unregister",
    "attach",
    "name_of",
    "names",
    "is_registered",
    "is_component",
    "list_registry",
    "unregister_all",
    "symbol_name",
    "is_array",
    "arrays_of",
    "obj_type",
]

_TABLE: dict[str, object] = {}  # name -> object (insertion order: the order of registration)
_NAMES: dict[int, str] = {}  # id(object) -> name; the object is alive while it is in _TABLE
_T = TypeVar("_T")


class RegistrationError(Exception):
    """An object cannot be registered: it is registered already.

    Arkouda's error, from ``arkouda.numpy.pdarrayclass``.
    """


class NameInUseError(RegistrationError, RuntimeError):
    """The name is held by another registered object.

    A ``RuntimeError``, as the server error Arkouda raises.
    """


class NotRegisteredError(RegistrationError, KeyError, RuntimeError):
    """No object is registered under the name.

    A ``KeyError``, and a ``RuntimeError`` as the server error Arkouda raises.
    """

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


def _check_name(name: object, what: str = "name") -> str:
    if not isinstance(name, str):
        raise TypeError(f"{what}: expected a str, got {type(name).__name__}")
    return name


def register(obj: _T, name: str) -> _T:
    """Keep ``obj`` under ``name`` in this process.

    Parameters
    ----------
    obj : object
        The object; it stays alive while registered.
    name : str
        Its name, not empty.

    Returns
    -------
    object
        ``obj``.

    Raises
    ------
    RegistrationError
        ``obj`` is registered already (under any name).
    NameInUseError
        Another object holds ``name``.
    TypeError
        ``name`` is not a str.
    ValueError
        ``name`` is empty.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.core import _registry as reg
    >>> a = reg.register(ak.arange(3), "doc-a")
    >>> reg.attach("doc-a") is a, reg.name_of(a)
    (True, 'doc-a')
    >>> reg.register(ak.arange(2), "doc-a")
    Traceback (most recent call last):
    ...
    atoll.core._registry.NameInUseError: name 'doc-a' is already registered to another object
    >>> reg.unregister("doc-a") is a
    True
    """
    _check_name(name)
    if not name:
        raise ValueError("name: must not be empty")
    cur = _NAMES.get(id(obj))
    if cur is not None and _TABLE.get(cur) is obj:
        raise RegistrationError(f"This object is already registered as {cur!r}")
    if name in _TABLE:
        raise NameInUseError(f"name {name!r} is already registered to another object")
    _compute_groupings(obj)
    _TABLE[name] = obj
    _NAMES[id(obj)] = name
    return obj


def unregister(name: str) -> Any:  # noqa: ANN401 (the object registered, of any type)
    """Forget ``name``.

    Parameters
    ----------
    name : str
        The name.

    Returns
    -------
    object or None
        The object it held; None for an unknown name.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.core import _registry as reg
    >>> reg.unregister("doc-never-registered") is None
    True
    """
    obj = _TABLE.pop(name, None)
    if obj is not None and _NAMES.get(id(obj)) == name:
        del _NAMES[id(obj)]
    return obj


def attach(name: str) -> Any:  # noqa: ANN401 (the object registered, of any type)
    """The object registered under ``name``.

    Parameters
    ----------
    name : str
        The name.

    Returns
    -------
    object
        The object itself (no copy).

    Raises
    ------
    NotRegisteredError
        No object holds ``name``.
    TypeError
        ``name`` is not a str.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.core import _registry as reg
    >>> reg.attach("doc-none")
    Traceback (most recent call last):
    ...
    atoll.core._registry.NotRegisteredError: no object is registered as 'doc-none'
    """
    _check_name(name)
    try:
        return _TABLE[name]
    except KeyError:
        raise NotRegisteredError(f"no object is registered as {name!r}") from None


def name_of(obj: object) -> str | None:
    """The name ``obj`` is registered under.

    Parameters
    ----------
    obj : object
        The object.

    Returns
    -------
    str or None
        Its name; None when it is not registered.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.core import _registry as reg
    >>> reg.name_of(ak.arange(2)) is None
    True
    """
    name = _NAMES.get(id(obj))
    return name if name is not None and _TABLE.get(name) is obj else None


def names() -> list[str]:
    """The registered names, in the order of registration.

    Returns
    -------
    list of str
        The names.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.core import _registry as reg
    >>> _ = reg.register(ak.arange(2), "doc-n")
    >>> "doc-n" in reg.names()
    True
    >>> reg.unregister_all(["doc-n"])
    """
    return list(_TABLE)


def unregister_all(names: Iterable[str] | None = None) -> None:
    """Forget ``names``, every name by default.

    The objects' ``registered_name`` is reset where they have one.

    Parameters
    ----------
    names : iterable of str, optional
        The names to forget; all by default.

    Raises
    ------
    TypeError
        A name is not a str.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.core import _registry as reg
    >>> s = ak.Series(ak.arange(2)).register("doc-u")
    >>> reg.unregister_all(["doc-u"])
    >>> s.registered_name is None, reg.is_registered("doc-u")
    (True, False)
    """
    for n in list(_TABLE) if names is None else list(names):
        obj = unregister(_check_name(n))
        if obj is not None and getattr(obj, "registered_name", None) == n:
            try:
                obj.registered_name = None
            except AttributeError:  # a class whose registered_name is read-only
                pass


# ----- the arrays inside objects ----------------------------------------------------------
_ARRAY_CLASSES = (("pdarray", "atoll.numpy.pdarrayclass"), ("Strings", "atoll.numpy.strings"))


def is_array(x: object) -> bool:
    """Whether ``x`` is one of Atoll's arrays: a pdarray (a subclass included) or Strings.

    Parameters
    ----------
    x : object
        The object.

    Returns
    -------
    bool
        Whether it is.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.core import _registry as reg
    >>> reg.is_array(ak.arange(2)), reg.is_array(ak.array(["a"])), reg.is_array([1])
    (True, True, False)
    """
    return any((c.__name__, c.__module__) in _ARRAY_CLASSES for c in type(x).__mro__)


def symbol_name(x: object) -> str:
    """The name of the array ``x`` in the symbol table.

    Parameters
    ----------
    x : object
        The array.

    Returns
    -------
    str
        ``id_`` and its identity in hexadecimal.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.core import _registry as reg
    >>> a = ak.arange(2)
    >>> reg.symbol_name(a) == f"id_{id(a):x}"
    True
    """
    return f"id_{id(x):x}"


def _fields(x: object) -> Iterator[object]:
    d = getattr(x, "__dict__", None)
    if d:
        yield from d.values()
    for c in type(x).__mro__:
        for s in c.__dict__.get("__slots__", ()):
            if s not in ("__dict__", "__weakref__"):
                v = getattr(x, s, None)
                if v is not None:
                    yield v


def _objects_of(obj: object) -> Iterator[object]:
    """The objects of Atoll's that ``obj`` holds, itself included, each once, in the order reached."""
    seen: set[int] = set()
    todo: list[object] = [obj]
    while todo:
        x = todo.pop()
        if id(x) in seen or x is None or isinstance(x, (str, bytes, int, float, bool)):
            continue
        seen.add(id(x))
        if isinstance(x, (list, tuple)):
            todo.extend(reversed(x))
        elif isinstance(x, dict):
            todo.extend(reversed(list(x.values())))
        elif type(x).__module__.startswith("atoll."):
            yield x
            todo.extend(reversed(list(_fields(x))))


# The arrays that a Categorical or GroupBy computes when first asked for (its grouping, and a
# GroupBy's first row of each group).
_LAZY_GROUPING = ("permutation", "segments", "_uki")


def _compute_groupings(obj: object) -> None:
    """Compute the grouping arrays of the objects that ``obj`` holds, where not computed yet.

    A registered object's components are the arrays it holds: its Categoricals' and
    GroupBys' ``permutation`` and ``segments`` are among them (Arkouda's server holds them
    from their making on), and stay the same arrays while it is registered.
    """
    for x in list(_objects_of(obj)):
        if is_array(x):
            continue
        for attr in _LAZY_GROUPING:
            if isinstance(getattr(type(x), attr, None), property):
                getattr(x, attr)


def arrays_of(obj: object) -> list[Any]:
    """The arrays (pdarrays and Strings) that ``obj`` holds, itself included when it is one.

    Parameters
    ----------
    obj : object
        An array, an object of Atoll's that holds arrays, or a list, tuple or dict of them.

    Returns
    -------
    list
        Each array once, in the order they are reached.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.core import _registry as reg
    >>> a, b = ak.arange(2), ak.array(["x", "y"])
    >>> [x is y for x, y in zip(reg.arrays_of({"a": a, "b": [b, a]}), [a, b])]
    [True, True]
    """
    return [x for x in _objects_of(obj) if is_array(x)]


def obj_type(obj: object) -> str:
    """Arkouda's type name of a registered object.

    Parameters
    ----------
    obj : object
        The object.

    Returns
    -------
    str
        ``pdarray``, ``Strings``, ``IPv4``, ...: its ``special_objType``, else its class's
        ``objType``, else its class's name.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.core import _registry as reg
    >>> reg.obj_type(ak.arange(2)), reg.obj_type(ak.array(["a"]))
    ('pdarray', 'Strings')
    """
    name = getattr(obj, "special_objType", None) or getattr(type(obj), "objType", None) or type(obj).__name__
    return str(name)


def _components() -> list[str]:
    out: dict[str, None] = {}
    for obj in _TABLE.values():
        for a in arrays_of(obj):
            out.setdefault(symbol_name(a), None)
    return list(out)


def is_component(obj: object) -> bool:
    """Whether ``obj`` is registered or held by a registered object.

    Parameters
    ----------
    obj : object
        The object.

    Returns
    -------
    bool
        Whether it is.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.core import _registry as reg
    >>> a = ak.arange(2)
    >>> s = ak.Series(a).register("doc-c")
    >>> reg.is_component(s.values), reg.is_component(ak.arange(2))
    (True, False)
    >>> s.unregister()
    """
    if name_of(obj) is not None:
        return True
    return any(any(a is obj for a in arrays_of(o)) for o in _TABLE.values())


def is_registered(name: str, as_component: bool = False) -> bool:
    """Whether ``name`` is a registered name.

    Parameters
    ----------
    name : str
        The name.
    as_component : bool, default False
        Whether ``name`` is instead the symbol-table name of an array that a registered object
        holds.

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
    >>> from atoll.core import _registry as reg
    >>> a = reg.register(ak.arange(2), "doc-r")
    >>> reg.is_registered("doc-r"), reg.is_registered(reg.symbol_name(a), as_component=True)
    (True, True)
    >>> _ = reg.unregister("doc-r")
    """
    _check_name(name)
    if as_component:
        return name in _components()
    return name in _TABLE


def list_registry(detailed: bool = False) -> dict[str, list[Any]]:
    """Arkouda's registry listing.

    Parameters
    ----------
    detailed : bool, default False
        Give ``(name, TYPE)`` pairs, the type in upper case, in place of the names.

    Returns
    -------
    dict
        ``{"Objects": the registered names, "Components": the symbol-table names of the
        arrays they hold}``.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.core import _registry as reg
    >>> a = reg.register(ak.arange(2), "doc-l")
    >>> ("doc-l", "PDARRAY") in reg.list_registry(detailed=True)["Objects"]
    True
    >>> _ = reg.unregister("doc-l")
    """
    objs: list[Any] = [(n, obj_type(o).upper()) for n, o in _TABLE.items()] if detailed else list(_TABLE)
    return {"Objects": objs, "Components": _components()}
