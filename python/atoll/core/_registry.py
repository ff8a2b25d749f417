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

_TABLE = {}  # name -> object (insertion order: the order of registration)
_NAMES = {}  # id(object) -> name; the object is alive while it is in _TABLE


class RegistrationError(Exception):
    """An object cannot be registered: it is registered already (Arkouda's error, from
    ``arkouda.numpy.pdarrayclass``)."""


class NameInUseError(RegistrationError, RuntimeError):
    """The name is held by another registered object (a ``RuntimeError``, as the server error
    Arkouda raises)."""


class NotRegisteredError(RegistrationError, KeyError, RuntimeError):
    """No object is registered under the name (a ``KeyError``, and a ``RuntimeError`` as the
    server error Arkouda raises)."""

    def __str__(self):
        return str(self.args[0]) if self.args else ""


def _check_name(name, what="name"):
    if not isinstance(name, str):
        raise TypeError(f"{what}: expected a str, got {type(name).__name__}")
    return name


def register(obj, name):
    """Keeps ``obj`` under ``name`` in this process and returns it."""
    _check_name(name)
    if not name:
        raise ValueError("name: must not be empty")
    cur = _NAMES.get(id(obj))
    if cur is not None and _TABLE.get(cur) is obj:
        raise RegistrationError(f"This object is already registered as {cur!r}")
    if name in _TABLE:
        raise NameInUseError(f"name {name!r} is already registered to another object")
    _TABLE[name] = obj
    _NAMES[id(obj)] = name
    return obj


def unregister(name):
    """Forgets ``name``; returns the object it held (None for an unknown name)."""
    obj = _TABLE.pop(name, None)
    if obj is not None and _NAMES.get(id(obj)) == name:
        del _NAMES[id(obj)]
    return obj


def attach(name):
    """The object registered under ``name``."""
    _check_name(name)
    try:
        return _TABLE[name]
    except KeyError:
        raise NotRegisteredError(f"no object is registered as {name!r}") from None


def name_of(obj):
    """The name ``obj`` is registered under, or None."""
    name = _NAMES.get(id(obj))
    return name if name is not None and _TABLE.get(name) is obj else None


def names():
    """The registered names, in the order of registration."""
    return list(_TABLE)


def unregister_all(names=None):
    """Forgets ``names`` (every name when None); the objects' ``registered_name`` is reset
    where they have one."""
    for n in list(_TABLE) if names is None else list(names):
        obj = unregister(_check_name(n))
        if obj is not None and getattr(obj, "registered_name", None) == n:
            try:
                obj.registered_name = None
            except AttributeError:  # a class whose registered_name is read-only
                pass


# ----- the arrays inside objects ----------------------------------------------------------
_ARRAY_CLASSES = (("pdarray", "atoll.numpy.pdarrayclass"), ("Strings", "atoll.numpy.strings"))


def is_array(x):
    """Whether ``x`` is one of Atoll's arrays (a pdarray, a subclass included, or Strings)."""
    return any((c.__name__, c.__module__) in _ARRAY_CLASSES for c in type(x).__mro__)


def symbol_name(x):
    """The name of the array ``x`` in the symbol table (``id_`` and its identity in hex)."""
    return f"id_{id(x):x}"


def _fields(x):
    d = getattr(x, "__dict__", None)
    if d:
        yield from d.values()
    for c in type(x).__mro__:
        for s in c.__dict__.get("__slots__", ()):
            if s not in ("__dict__", "__weakref__"):
                v = getattr(x, s, None)
                if v is not None:
                    yield v


def arrays_of(obj):
    """The arrays (pdarrays and Strings) that ``obj`` holds, itself included when it is one,
    each once, in the order they are reached."""
    out, seen, todo = [], set(), [obj]
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
            if is_array(x):
                out.append(x)
            todo.extend(reversed(list(_fields(x))))
    return out


def obj_type(obj):
    """Arkouda's type name of a registered object (``pdarray``, ``Strings``, ``IPv4``, ...)."""
    return getattr(obj, "special_objType", None) or getattr(type(obj), "objType", None) or type(obj).__name__


def _components():
    out = {}
    for obj in _TABLE.values():
        for a in arrays_of(obj):
            out.setdefault(symbol_name(a), None)
    return list(out)


def is_component(obj):
    """Whether ``obj`` is registered or held by a registered object."""
    if name_of(obj) is not None:
        return True
    return any(any(a is obj for a in arrays_of(o)) for o in _TABLE.values())


def is_registered(name, as_component=False):
    """Whether ``name`` is a registered name (with ``as_component``: the symbol-table name of
    an array that a registered object holds)."""
    _check_name(name)
    if as_component:
        return name in _components()
    return name in _TABLE


def list_registry(detailed=False):
    """Arkouda's registry listing: ``{"Objects": names, "Components": names}``: the registered
    names (with ``detailed``, ``(name, TYPE)`` pairs, the type in upper case), and the
    symbol-table names of the arrays they hold."""
    objs = [(n, obj_type(o).upper()) for n, o in _TABLE.items()] if detailed else list(_TABLE)
    return {"Objects": objs, "Components": _components()}
