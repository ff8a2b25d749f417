"""Methods set on a class from a module above it.

A data type's module sits below the algorithms and the IO that take the type (``pdarray``
below ``sorting``, ``SegArray`` below ``hdf5``); a method of the type that calls one of them
is defined in a module that knows both (``atoll/numpy/_pdarray_methods.py``, ...), in a class
body of its own, and set on the type by ``attach``. The root ``atoll/__init__.py`` runs those
modules, so every method is in place once ``import atoll`` returns.
"""

from __future__ import annotations

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


def attach(cls: type, methods: type) -> None:
    """Set the functions, properties, class and static methods of the class body ``methods`` on ``cls``.

    Each is named as if ``cls``'s own body had defined it.

    Parameters
    ----------
    cls : type
        The class that gets the methods.
    methods : type
        The class whose body defines them.

    Examples
    --------
    >>> from atoll._attach import attach
    >>> class Point:
    ...     x = 3
    >>> class _PointMethods:
    ...     def double(self):
    ...         return 2 * self.x
    >>> attach(Point, _PointMethods)
    >>> Point().double(), Point.double.__qualname__
    (6, 'Point.double')
    """
    for name, value in vars(methods).items():
        if name in _CLASS_BODY:
            continue
        for f in (getattr(value, "fget", None), getattr(value, "fset", None), getattr(value, "__func__", value)):
            if callable(f) and hasattr(f, "__qualname__"):
                f.__qualname__ = f"{cls.__qualname__}.{f.__name__}"
        setattr(cls, name, value)
