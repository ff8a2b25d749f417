"""Registration (``ak.register_all``, ``ak.attach``, ``ak.unregister``, ...), the registry
listing, ``ak.information`` and checkpoints, checked against the NumPy and pandas data the
objects were made from. In process and under MPI."""

import json
import os

import atoll as ak
import numpy as np
import pandas as pd
import pytest
from atoll.core._registry import symbol_name
from hypothesis import given, strategies as st


@pytest.fixture(autouse=True)
def _clean_registry():
    ak.unregister_all()
    yield
    ak.unregister_all()


RNG = np.random.default_rng(7)
INTS = RNG.integers(-50, 50, 40)
FLOATS = RNG.normal(size=40)
WORDS = np.array([["alpha", "beta", "", "gamma delta"][i] for i in RNG.integers(0, 4, 40)])


def _objects():
    """Each kind of object, with the NumPy/pandas view of its values."""
    segs = np.array([0, 3, 3, 10], dtype=np.int64)
    return {
        "pda": (ak.array(INTS), INTS.tolist()),
        "str": (ak.array(WORDS), WORDS.tolist()),
        "cat": (ak.Categorical(ak.array(WORDS)), WORDS.tolist()),
        "seg": (
            ak.SegArray(ak.array(segs), ak.array(INTS)),
            [INTS[a:b].tolist() for a, b in zip(segs, [3, 3, 10, 40])],
        ),
        "ser": (ak.Series(ak.array(FLOATS)), FLOATS.tolist()),
        "idx": (ak.Index(ak.array(INTS)), INTS.tolist()),
        "ip": (ak.IPv4(ak.array(np.abs(INTS).astype(np.uint64))), [f"0.0.0.{abs(x)}" for x in INTS]),
        "bv": (ak.BitVector(ak.array(np.abs(INTS)), width=8), [format(abs(x), "08b") for x in INTS]),
    }


def _values(obj):
    if isinstance(obj, ak.Series):
        return obj.values.tolist()
    if isinstance(obj, ak.BitVector):
        return [s.replace(".", "0").replace("|", "1") for s in obj.tolist()]
    return obj.tolist()


@pytest.mark.parametrize("kind", list(_objects()))
def test_register_attach_unregister(kind):
    obj, want = _objects()[kind]
    ak.register_all({f"my_{kind}": obj})
    assert ak.is_registered(f"my_{kind}")
    got = ak.attach(f"my_{kind}")
    assert got is obj
    assert _values(got) == want
    reg = ak.list_registry()
    assert reg["Objects"] == [f"my_{kind}"]
    # Every array the object holds is a registered component.
    assert reg["Components"]
    for name in reg["Components"]:
        assert ak.is_registered(name, as_component=True)
    assert ak.unregister(f"my_{kind}").startswith("Unregistered ")
    assert not ak.is_registered(f"my_{kind}")
    assert ak.list_registry() == {"Objects": [], "Components": []}
    if hasattr(obj, "registered_name"):
        assert obj.registered_name is None
    # The object stays usable.
    assert _values(obj) == want


def test_dataframe_and_groupby_registration():
    pdf = pd.DataFrame({"a": INTS, "f": FLOATS, "s": WORDS})
    df = ak.DataFrame({"a": ak.array(INTS), "f": ak.array(FLOATS), "s": ak.array(WORDS)})
    df.register("frame")
    assert df.registered_name == "frame" and df.is_registered()
    pd.testing.assert_frame_equal(ak.attach("frame").to_pandas(), pdf)
    g = ak.GroupBy(ak.array(INTS))
    g.register("groups")
    keys, counts = ak.attach("groups").size()
    want = pd.Series(INTS).value_counts().sort_index()
    assert keys.tolist() == want.index.tolist() and counts.tolist() == want.tolist()
    assert [n for n, _ in ak.list_registry(detailed=True)["Objects"]] == ["frame", "groups"]
    assert dict(ak.list_registry(detailed=True)["Objects"]) == {"frame": "DATAFRAME", "groups": "GROUPBY"}
    df.unregister()
    assert not df.is_registered() and not ak.is_registered("frame")
    assert ak.list_registry()["Objects"] == ["groups"]


def test_double_registration_and_name_reuse():
    s = ak.Series(ak.array(INTS))
    s.register("s")
    with pytest.raises(ak.RegistrationError):
        s.register("other")
    with pytest.raises(ak.RegistrationError):
        s.register("s")
    other = ak.Series(ak.array(FLOATS))
    with pytest.raises(RuntimeError):
        other.register("s")
    with pytest.raises(ak.RegistrationError):
        other.register("s")
    assert not other.is_registered()
    assert ak.attach("s") is s


def test_components_and_registered_component():
    a = ak.array(INTS)
    seg = ak.SegArray(ak.arange(0, 2 * INTS.size, 2), ak.array(np.r_[FLOATS, FLOATS]))
    df = ak.DataFrame({"a": a, "seg": seg})
    ak.register_all({"df": df, "seg": seg})
    comps = set(ak.list_registry()["Components"])
    assert {symbol_name(a), symbol_name(seg.segments), symbol_name(seg.values)} <= comps
    seg.unregister()
    # Still held by the registered DataFrame.
    assert ak.is_registered(symbol_name(seg.values), as_component=True)
    assert ak.list_registry()["Objects"] == ["df"]


def test_attach_all_unregister_all():
    a, s = ak.array(FLOATS), ak.array(WORDS)
    c = ak.Categorical(s)
    ak.register_all({"a": a, "s": s, "c": c})
    got = ak.attach_all(["a", "c"])
    assert list(got) == ["a", "c"]
    np.testing.assert_array_equal(got["a"].to_ndarray(), FLOATS)
    assert got["c"].tolist() == WORDS.tolist()
    ak.unregister_all(["s", "a"])
    assert ak.list_registry()["Objects"] == ["c"]


def test_errors():
    with pytest.raises(TypeError):
        ak.attach(7)
    with pytest.raises(TypeError):
        ak.is_registered(7)
    with pytest.raises(TypeError):
        ak.Series(ak.arange(3)).register(7)
    with pytest.raises(TypeError):
        ak.register_all([ak.arange(3)])
    with pytest.raises(KeyError):
        ak.attach("nothing")
    with pytest.raises(RuntimeError):
        ak.attach("nothing")
    with pytest.raises(RuntimeError):
        ak.unregister("nothing")
    with pytest.raises(TypeError):
        ak.unregister_all("abc")


def test_information():
    a = ak.array(FLOATS)
    s = ak.array(WORDS)
    ak.register_all({"a": a, "s": s})
    info = {e["name"]: e for e in json.loads(ak.information())}
    assert info["a"] == {
        "name": "a",
        "dtype": str(FLOATS.dtype),
        "size": FLOATS.size,
        "ndim": 1,
        "shape": [FLOATS.size],
        "itemsize": FLOATS.dtype.itemsize,
        "registered": True,
    }
    assert info["s"]["size"] == WORDS.size and info["s"]["dtype"] == "str"
    assert [e["name"] for e in json.loads(ak.information("a"))] == ["a"]
    b = ak.arange(5)
    every = {e["name"]: e for e in json.loads(ak.information(ak.AllSymbols))}
    assert every[symbol_name(b)]["registered"] is False and every[symbol_name(b)]["size"] == 5
    assert every[symbol_name(a)]["registered"] is True
    assert json.loads(ak.information(symbol_name(b)))[0]["dtype"] == "int64"
    with pytest.raises(KeyError):
        ak.information("nothing")
    with pytest.raises(TypeError):
        ak.information(3)


def test_pretty_print_information(capsys):
    ak.register_all({"ints": ak.array(INTS)})
    ak.pretty_print_information()
    out = capsys.readouterr().out
    assert out.startswith("InfoEntry(name=ints, dtype=int64") and f"size={INTS.size}" in out


def test_checkpoint_round_trip(tmp_path):
    objs = _objects()
    ak.register_all({k: o for k, (o, _) in objs.items()})
    fields = ak.Fields(ak.array(np.abs(INTS) % 8), ["x", "yy", "z"], separator="/", MSB_left=False)
    fields.register("fields")
    pdf = pd.DataFrame({"a": INTS, "s": WORDS})
    ak.DataFrame({"a": ak.array(INTS), "s": ak.array(WORDS)}).register("frame")
    name = ak.save_checkpoint(name="cp", path=str(tmp_path))
    assert name == "cp"
    meta = json.loads((tmp_path / "cp" / "server.md").read_text())
    assert meta["numLocales"] == ak.num_locales()
    ak.unregister_all()
    assert ak.load_checkpoint("cp", path=str(tmp_path)) == "cp"
    assert sorted(ak.list_registry()["Objects"]) == sorted(list(objs) + ["fields", "frame"])
    for k, (_, want) in objs.items():
        assert _values(ak.attach(k)) == want, k
    got = ak.attach("fields")
    assert isinstance(got, ak.Fields) and got.tolist() == fields.tolist()
    assert got.values.tolist() == (np.abs(INTS) % 8).tolist()
    pd.testing.assert_frame_equal(ak.attach("frame").to_pandas(), pdf)
    assert isinstance(ak.attach("ip"), ak.IPv4) and isinstance(ak.attach("cat"), ak.Categorical)


def test_checkpoint_restores_registered_array_in_place(tmp_path):
    a = ak.array(INTS)
    ak.register_all({"a": a})
    ak.save_checkpoint("cp", path=str(tmp_path))
    a[:] = 0
    ak.load_checkpoint("cp", path=str(tmp_path))
    assert ak.attach("a") is a
    np.testing.assert_array_equal(a.to_ndarray(), INTS)


def test_checkpoint_modes_and_errors(tmp_path):
    ak.register_all({"a": ak.array(INTS)})
    ak.save_checkpoint("cp", path=str(tmp_path))
    with pytest.raises(RuntimeError):
        ak.save_checkpoint("cp", path=str(tmp_path), mode="error")
    ak.unregister_all()
    ak.register_all({"b": ak.array(FLOATS)})
    ak.save_checkpoint("cp", path=str(tmp_path), mode="preserve_previous")
    assert os.path.isdir(tmp_path / "cp.prev")
    ak.unregister_all()
    ak.load_checkpoint("cp.prev", path=str(tmp_path))
    assert ak.list_registry()["Objects"] == ["a"]
    with pytest.raises(ValueError):
        ak.save_checkpoint("cp", path=str(tmp_path), mode="sometimes")
    with pytest.raises(FileNotFoundError):
        ak.load_checkpoint("nothing", path=str(tmp_path))
    # An empty registry makes an empty checkpoint.
    ak.unregister_all()
    ak.save_checkpoint("empty", path=str(tmp_path))
    ak.load_checkpoint("empty", path=str(tmp_path))
    assert ak.list_registry()["Objects"] == []


@given(
    st.lists(st.integers(-(2**63), 2**63 - 1), min_size=0, max_size=30),
    st.lists(st.text(alphabet="ab é", max_size=4), min_size=1, max_size=20),
)
def test_checkpoint_random(tmp_path_factory, ints, words):
    ak.unregister_all()
    path = str(tmp_path_factory.mktemp("cp"))
    ak.register_all({"i": ak.array(np.array(ints, dtype=np.int64)), "w": ak.Categorical(ak.array(words))})
    ak.save_checkpoint("cp", path=path)
    ak.unregister_all()
    ak.load_checkpoint("cp", path=path)
    assert ak.attach("i").tolist() == ints
    assert ak.attach("w").tolist() == words
    ak.unregister_all()


def test_top_level_names():
    from atoll.client_dtypes import BitVector, Fields, bit_vectorizer
    from atoll.core import infoclass, logger, registry
    from atoll.plotting import hist_all, plot_dist

    for mod, names in [
        (registry, ["RegistrationError", "attach", "attach_all", "clear", "is_registered", "load_checkpoint"]),
        (registry, ["register_all", "save_checkpoint", "unregister", "unregister_all"]),
        (infoclass, ["AllSymbols", "RegisteredSymbols", "information", "list_registry", "pretty_print_information"]),
        (logger, ["LogLevel", "disable_verbose", "enable_verbose", "write_log"]),
    ]:
        for n in names:
            assert getattr(ak, n) is getattr(mod, n), n
    assert (ak.BitVector, ak.Fields, ak.bit_vectorizer) == (BitVector, Fields, bit_vectorizer)
    assert (ak.hist_all, ak.plot_dist) == (hist_all, plot_dist)
