"""The driver's table of registered objects, for the data-type classes' ``register``,
``unregister`` and ``is_registered`` (the table itself is ``atoll.core._registry``, a module
that imports nothing of the package; see it for the rules)."""

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


class Registrable:
    """``register``, ``unregister`` and ``is_registered`` of the classes whose objects can be
    registered by name (Arkouda's API): the object is kept in the table under the name until
    ``unregister``, and ``registered_name`` holds the name (None when not registered)."""

    __slots__ = ()
    registered_name = None

    def _check_registrable(self):
        """Raises TypeError where the object cannot be registered: a class overrides it to
        state its own rule. By default an object whose ``values`` are a Python list (an Index
        made with ``allow_list=True``) has no arrays to keep and cannot be registered."""
        values = getattr(self, "__dict__", {}).get("values")
        if isinstance(values, list):
            raise TypeError(
                f"register: a {type(self).__name__} whose values are a Python list cannot be registered; "
                "make it of a pdarray, Strings or Categorical"
            )

    def register(self, user_defined_name):
        """Keeps the object under ``user_defined_name`` in this process (``ak.attach`` finds it)
        and returns it; TypeError where the object cannot be registered (``_check_registrable``)."""
        self._check_registrable()
        register(self, user_defined_name)
        self.registered_name = user_defined_name
        return self

    def unregister(self):
        """Forgets the object's name (nothing happens when it is not registered)."""
        if self.registered_name is not None:
            unregister(self.registered_name)
        self.registered_name = None

    def is_registered(self):
        """Whether the object is registered under ``registered_name``; an array (a pdarray or
        Strings) without a name is registered when a registered object holds it (Arkouda's
        rule: it is then a registered component)."""
        if self.registered_name is not None:
            return is_registered(self.registered_name)
        return is_array(self) and is_component(self)
