"""Registration by name (Arkouda's ``register``/``attach``/``unregister``/``is_registered``) is
one block, ``atoll.pandas._registry.Registrable``, that every registrable class inherits, and
it behaves alike for each of them."""

import importlib
import inspect
import pkgutil

import atoll as ak
import numpy as np
import pytest
from atoll.pandas._registry import Registrable


def _objects():
    a = ak.array(np.array([3, 1, 2, 3], dtype=np.int64))
    s = ak.array(["b", "a", "b", "c"])
    return {
        "Series": ak.Series(a),
        "DataFrame": ak.DataFrame({"a": a, "s": s}),
        "Index": ak.Index(a),
        "MultiIndex": ak.MultiIndex([a, s]),
        "Categorical": ak.Categorical(s),
        "GroupBy": ak.GroupBy(a),
        "SegArray": ak.SegArray(ak.array(np.array([0, 2], dtype=np.int64)), a),
        "IPv4": ak.IPv4(a),
    }


@pytest.mark.parametrize("kind", sorted(_objects()))
def test_register_attach_unregister(kind):
    obj = _objects()[kind]
    name = f"test_registrable_{kind}"
    assert not obj.is_registered() and obj.registered_name is None
    assert obj.register(name) is obj
    assert obj.is_registered() and obj.registered_name == name
    assert ak.attach(name) is obj
    obj.unregister()
    assert not obj.is_registered() and obj.registered_name is None
    with pytest.raises(KeyError):
        ak.attach(name)
    obj.unregister()  # unregistering an object that is not registered does nothing
    assert not obj.is_registered()


def test_a_name_holds_one_object():
    objs = _objects()
    first, second = objs["Series"], objs["Index"]
    first.register("test_registrable_taken")
    try:
        with pytest.raises((ValueError, RuntimeError)):  # Arkouda: the server's RuntimeError
            second.register("test_registrable_taken")
        assert not second.is_registered()
        assert ak.attach("test_registrable_taken") is first
    finally:
        first.unregister()


def _classes():
    """Every class defined in the package's modules."""
    seen = {}
    for info in pkgutil.walk_packages(ak.__path__, "atoll."):
        if info.name.startswith(("atoll.arkouda", "atoll._arkouda_shim")) or info.name.endswith("__main__"):
            continue
        mod = importlib.import_module(info.name)
        for _, cls in inspect.getmembers(mod, inspect.isclass):
            if cls.__module__ == info.name:
                seen[f"{cls.__module__}.{cls.__qualname__}"] = cls
    return seen


def test_registration_is_written_once():
    """A class that registers objects by name inherits the block instead of a copy of it."""
    copies = []
    for name, cls in _classes().items():
        if cls is Registrable:
            continue
        own = {"register", "unregister", "is_registered"} & set(vars(cls))
        if own and name != "atoll.numpy.pdarrayclass.pdarray":  # pdarray.register: a no-op
            copies.append(f"{name}: {sorted(own)}")
    assert copies == []
    for kind, obj in _objects().items():
        assert isinstance(obj, Registrable), kind
