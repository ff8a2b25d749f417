"""pdarrays, Strings, bigint arrays and Datetime/Timedelta register by name as Arkouda's do
(``register`` keeps the array in the table that ``ak.attach`` reads), with ``RegistrationError``
importable from ``atoll.numpy.pdarrayclass`` as from ``arkouda.numpy.pdarrayclass``."""

import atoll as ak
import numpy as np
import pytest
from atoll.numpy.pdarrayclass import RegistrationError
from atoll.pandas._registry import Registrable


def _arrays():
    return {
        "pdarray": ak.array(np.array([3, 1, 2], dtype=np.int64)),
        "float": ak.array(np.array([0.5, np.nan])),
        "Strings": ak.array(["b", "a", "c"]),
        "bigint": ak.array([2**70, 1]),
        "Datetime": ak.Datetime(ak.array(np.array([0, 10**12], dtype=np.int64))),
        "Timedelta": ak.Timedelta(ak.array(np.array([5, 6], dtype=np.int64))),
    }


@pytest.mark.parametrize("kind", sorted(_arrays()))
def test_register_attach_unregister(kind):
    obj = _arrays()[kind]
    name = f"test_pdarray_registration_{kind}"
    assert not obj.is_registered() and obj.registered_name is None
    assert not ak.is_registered(name)
    assert obj.register(name) is obj
    try:
        assert obj.is_registered() and obj.registered_name == name
        assert ak.is_registered(name)
        got = ak.attach(name)
        assert got is obj and type(got) is type(obj)
        with pytest.raises(RegistrationError):
            obj.register(name + "_again")
    finally:
        obj.unregister()
    assert not obj.is_registered() and obj.registered_name is None
    assert not ak.is_registered(name)
    with pytest.raises(KeyError):
        ak.attach(name)


def test_a_name_holds_one_array():
    a, b = ak.arange(3), ak.arange(3)
    a.register("test_pdarray_registration_taken")
    try:
        with pytest.raises(RegistrationError):
            b.register("test_pdarray_registration_taken")
        assert not b.is_registered()
        assert ak.attach("test_pdarray_registration_taken") is a
    finally:
        a.unregister()


def test_register_all_and_unregister_reset_the_name():
    a, s = ak.arange(4), ak.array(["x", "y"])
    ak.register_all({"test_pdarray_registration_a": a, "test_pdarray_registration_s": s})
    try:
        assert a.registered_name == "test_pdarray_registration_a"
        assert s.registered_name == "test_pdarray_registration_s"
    finally:
        ak.unregister("test_pdarray_registration_a")
        ak.unregister("test_pdarray_registration_s")
    assert a.registered_name is None and s.registered_name is None


def test_the_registration_block_is_registrables():
    assert isinstance(ak.array(["a"]), Registrable)
    for cls in (ak.pdarray, ak.Datetime, ak.Timedelta, type(ak.array([2**70]))):
        for m in ("register", "unregister", "is_registered"):
            assert getattr(cls, m) is getattr(Registrable, m), (cls, m)


def test_name_is_the_symbol_table_name():
    a, s = ak.arange(3), ak.array(["a"])
    assert isinstance(a.name, str) and isinstance(s.name, str)
    assert a.name != ak.arange(3).name
    a.register("test_pdarray_registration_name")
    try:
        assert a.name != a.registered_name
        assert ak.is_registered(a.name, as_component=True)
    finally:
        a.unregister()


def test_bad_names():
    a = ak.arange(3)
    with pytest.raises(TypeError):
        a.register(5)
    with pytest.raises(ValueError):
        a.register("")
    assert not a.is_registered()
