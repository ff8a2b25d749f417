"""Methods set on a class from a module above it.

A data type's module sits below the algorithms and the IO that take the type (``pdarray``
below ``sorting``, ``SegArray`` below ``hdf5``); a method of the type that calls one of them
is defined in a module that knows both (``atoll/numpy/_pdarray_methods.py``, ...), in a class
body of its own, and set on the type by ``attach``. The root ``atoll/__init__.py`` runs those
modules, so every method is in place once ``import atoll`` returns."""

# What every class body holds besides its definitions.
_CLASS_BODY = {
    "__module__",
    "__qualname__",
    "__doc__",
    "__dict__",
    "__weakref__",
    "__firstlineno__",
    "__static_attributes__",
}


def attach(cls, methods):
    """Sets the functions, properties, class and static methods of the class body
    ``methods`` on ``cls``, named as if ``cls``'s own body had defined them."""
    for name, value in vars(methods).items():
        if name in _CLASS_BODY:
            continue
        for f in (getattr(value, "fget", None), getattr(value, "fset", None), getattr(value, "__func__", value)):
            if callable(f) and hasattr(f, "__qualname__"):
                f.__qualname__ = f"{cls.__qualname__}.{f.__name__}"
        setattr(cls, name, value)
