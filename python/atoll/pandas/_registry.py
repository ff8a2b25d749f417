"""Arkouda's ``register``/``attach``/``unregister`` without a server: a table of names to
objects in this process (a registered object stays alive until unregistered)."""

_TABLE = {}


def register(obj, name):
    if not isinstance(name, str) or not name:
        raise TypeError(f"name: expected a non-empty str, got {name!r}")
    if name in _TABLE and _TABLE[name] is not obj:
        raise ValueError(f"name: {name!r} is already registered")
    _TABLE[name] = obj


def unregister(name):
    _TABLE.pop(name, None)


def attach(name):
    """The object registered under ``name`` (KeyError if none)."""
    try:
        return _TABLE[name]
    except KeyError:
        raise KeyError(f"no object registered as {name!r}") from None


def list_registry():
    """The registered names."""
    return sorted(_TABLE)


def is_registered(name):
    return name in _TABLE


def unregister_all():
    _TABLE.clear()
