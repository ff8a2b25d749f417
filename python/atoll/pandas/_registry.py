"""The driver's table of registered objects, for the data-type classes' registration methods.

``Registrable`` gives the classes ``register``, ``unregister`` and ``is_registered``; the table
itself is ``atoll.core._registry``, a module that imports nothing of the package (see it for
the rules).
"""

from __future__ import annotations

from typing import TypeVar

from ..core._registry import (
    NameInUseError,
    NotRegisteredError,
    RegistrationError,
    arrays_of,
    attach,
    is_array,
    is_component,
    is_registered,
    list_registry,
    name_of,
    names,
    obj_type,
    register,
    symbol_name,
    unregister,
    unregister_all,
)

__all__ = [
    "Registrable",
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

_R = TypeVar("_R", bound="Registrable")


class Registrable:
    """The base of the classes whose objects can be registered by name (Arkouda's API).

    ``register`` keeps the object in the table under a name until ``unregister``, and
    ``registered_name`` holds the name (None when not registered).

    Examples
    --------
    >>> import atoll as ak
    >>> a = ak.arange(3).register("doc-registrable")
    >>> a.registered_name, a.is_registered()
    ('doc-registrable', True)
    >>> a.unregister()
    >>> a.registered_name, a.is_registered()
    (None, False)
    """

    __slots__ = ()
    registered_name: str | None = None

    def _check_registrable(self) -> None:
        """Raise TypeError where the object cannot be registered.

        A class overrides it to state its own rule. By default an object whose ``values`` are
        a Python list (an Index made with ``allow_list=True``) has no arrays to keep and cannot
        be registered.
        """
        values = getattr(self, "__dict__", {}).get("values")
        if isinstance(values, list):
            raise TypeError(
                f"register: a {type(self).__name__} whose values are a Python list cannot be registered; "
                "make it of a pdarray, Strings or Categorical"
            )

    def register(self: _R, user_defined_name: str) -> _R:
        """Keep the object under a name in this process (``ak.attach`` finds it).

        Parameters
        ----------
        user_defined_name : str
            The name, not empty and not held by another object.

        Returns
        -------
        Registrable
            The object itself, now registered.

        Raises
        ------
        TypeError
            The object cannot be registered, or ``user_defined_name`` is not a str.
        RegistrationError
            The object is registered already.
        NameInUseError
            Another object holds ``user_defined_name``.

        Examples
        --------
        >>> import atoll as ak
        >>> a = ak.arange(3).register("doc-register")
        >>> ak.attach("doc-register").tolist()
        [0, 1, 2]
        >>> a.unregister()
        """
        self._check_registrable()
        register(self, user_defined_name)
        self.registered_name = user_defined_name
        return self

    def unregister(self) -> None:
        """Forget the object's name (nothing happens when it is not registered).

        Examples
        --------
        >>> import atoll as ak
        >>> a = ak.arange(3).register("doc-unregister")
        >>> a.unregister()
        >>> a.registered_name is None
        True
        """
        if self.registered_name is not None:
            unregister(self.registered_name)
        # The subclasses keep the name in their ``__dict__`` or a property of their own.
        self.registered_name = None  # type: ignore[misc]  # not in this class's empty __slots__

    def is_registered(self) -> bool:
        """Whether the object is registered under ``registered_name``.

        An array (a pdarray or Strings) without a name is registered when a registered object
        holds it (Arkouda's rule: it is then a registered component).

        Returns
        -------
        bool
            Whether it is registered.

        Examples
        --------
        >>> import atoll as ak
        >>> a = ak.arange(3)
        >>> a.is_registered()
        False
        >>> _ = a.register("doc-is-registered")
        >>> a.is_registered()
        True
        >>> a.unregister()
        """
        if self.registered_name is not None:
            return is_registered(self.registered_name)
        return is_array(self) and is_component(self)
