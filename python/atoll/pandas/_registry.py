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


class Registrable:
    """``register``, ``unregister`` and ``is_registered`` of the classes whose objects can be
    registered by name (Arkouda's API): the object is kept in the table under the name until
    ``unregister``, and ``registered_name`` holds the name (None when not registered)."""

    __slots__ = ()
    registered_name = None

    def register(self, user_defined_name):
        """Keeps the object under ``user_defined_name`` in this process (``ak.attach`` finds it)
        and returns it."""
        register(self, user_defined_name)
        self.registered_name = user_defined_name
        return self

    def unregister(self):
        """Forgets the object's name (nothing happens when it is not registered)."""
        if self.registered_name is not None:
            unregister(self.registered_name)
        self.registered_name = None

    def is_registered(self):
        """Whether the object is registered (under ``registered_name``)."""
        return self.registered_name is not None
