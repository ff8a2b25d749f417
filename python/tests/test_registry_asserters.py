"""Registration's components, the asserters' tolerances and the stateless random draws.

- A registered object's components (``ak.list_registry()["Components"]``) are the arrays it
  holds, its Categoricals' grouping arrays (``segments``, ``permutation``) included; a pdarray
  or Strings held by a registered object is registered (Arkouda's rule for arrays).
- ``atoll.testing``'s Index, Series and DataFrame asserters compare numbers within a tolerance
  by NumPy's ``isclose`` (Arkouda's rule), the reference here; ``assert_equivalent`` takes
  Python strings; the modules' doctests run under ``doctest.testmod`` (Arkouda's docstring
  tests), with only the names the examples import.
- ``Generator._stateless_u64_from_index`` and its kin are SplitMix64's words from the key of
  the stream ``(seed, stream)``: compared with a sequential pure-Python SplitMix64, the same on
  any locale count and backend.
"""

import doctest
import importlib

import atoll as ak
import numpy as np
import pandas as pd
import pytest
from atoll import testing as akt
from hypothesis import given, strategies as st
from scipy import stats

M64 = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15


def splitmix_word(state, j):
    """SplitMix64's word ``j`` (from 0) from ``state``, in Python ints."""
    z = (state + (j + 1) * GAMMA) & M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


def stream_state(seed, stream):
    """The state of the stream ``(seed, stream)``: SplitMix64's first word of ``seed``, advanced
    by ``stream`` increments, then mixed again (Atoll's stream keys)."""
    return splitmix_word((splitmix_word(seed, 0) + stream * GAMMA) & M64, 0)


def reference_u64(n, seed, stream, start):
    key = stream_state(seed, stream)
    return np.array([splitmix_word(key, (start + i) & M64) for i in range(n)], dtype=np.uint64)


@pytest.fixture(autouse=True)
def clean_registry():
    ak.unregister_all()
    yield
    ak.unregister_all()


# ----- registration -----------------------------------------------------------------------
def test_categorical_grouping_arrays_are_components():
    cat = ak.Categorical(ak.array(["b", "a", "c", "a", "b"]))
    cat.register("reg-cat")
    comps = set(ak.list_registry()["Components"])
    held = [cat.codes, cat.categories, cat._akNAcode, cat.segments, cat.permutation]
    assert all(x is not None for x in held)
    assert {x.name for x in held} <= comps
    # the attached object is the same, and its grouping is that of pandas' Categorical
    att = ak.attach("reg-cat")
    want = pd.Categorical(["b", "a", "c", "a", "b"])
    assert att.to_list() == list(want)
    assert ak.unregister("reg-cat") == "Unregistered CATEGORICAL reg-cat"
    assert ak.list_registry() == {"Objects": [], "Components": []}


def test_groupby_and_frame_components():
    keys = ak.array(["x", "y", "x", "z"])
    g = ak.GroupBy([ak.arange(4) % 2, ak.Categorical(keys)])
    g.register("reg-g")
    comps = set(ak.list_registry()["Components"])
    assert g.segments.name in comps and g.permutation.name in comps
    # Each group's first row: one array, a component, equal to the first occurrences.
    assert g._uki is g._uki and g._uki.name in comps
    k0, k1 = (ak.arange(4) % 2).tolist(), keys.tolist()
    firsts = pd.DataFrame({"a": k0, "b": k1}).reset_index().groupby(["a", "b"])["index"].min()
    assert sorted(g._uki.tolist()) == sorted(firsts.tolist())
    cat = g.keys[1]
    assert cat.segments.name in comps and cat.permutation.name in comps
    g.unregister()
    df = ak.DataFrame({"c": ak.Categorical(keys), "v": ak.arange(4)})
    df.register("reg-df")
    comps = set(ak.list_registry()["Components"])
    assert df["c"].segments.name in comps and df["c"].codes.name in comps


@pytest.mark.parametrize("kind", ["int64", "float64", "str"])
def test_array_held_by_a_registered_object_is_registered(kind):
    n = 6
    a = {"int64": ak.arange(n), "float64": ak.linspace(0, 1, n), "str": ak.array(list("abcdef"))}[kind]
    seg = ak.SegArray(ak.arange(0, 2 * n, 2), ak.arange(2 * n))
    df = ak.DataFrame({"a": a, "s": seg})
    assert not a.is_registered()
    df.register("reg-frame")
    assert a.is_registered() and a.registered_name is None
    assert df["s"].values.is_registered()
    assert not ak.arange(n).is_registered()
    df.unregister()
    assert not a.is_registered()


def test_strings_object_type_in_detailed_registry():
    s = ak.array(["p", "q"])
    s.register("reg-s")
    assert s.objType == "Strings" == ak.Strings.objType
    assert ak.list_registry(detailed=True)["Objects"] == [("reg-s", "STRINGS")]


def test_information_of_an_unknown_name_is_a_runtime_error():
    with pytest.raises(RuntimeError, match="no registered object"):
        ak.information("reg-none")
    with pytest.raises(KeyError):
        ak.information(["reg-none"])


# ----- doctests as Arkouda's docstring tests run them -------------------------------------
@pytest.mark.parametrize(
    "module", ["atoll.testing._asserters", "atoll.testing._equivalence_asserters", "atoll.core.infoclass"]
)
def test_module_doctests_run_by_testmod(module):
    m = importlib.import_module(module)
    result = doctest.testmod(m, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0
    assert result.failed == 0


# ----- asserters: numbers within a tolerance are NumPy's isclose --------------------------
FLOATS = st.floats(-1e3, 1e3, allow_nan=False).filter(lambda x: abs(x) > 1e-3)
TOLS = st.sampled_from([1e-5, 1e-3, 1e-2])


@st.composite
def near_pairs(draw):
    n = draw(st.integers(1, 6))
    left = np.array(draw(st.lists(FLOATS, min_size=n, max_size=n)))
    rtol, atol = draw(TOLS), draw(TOLS)
    # differences around the two rules' bounds: pandas' max(rtol * |x|, atol) and NumPy's atol + rtol * |x|
    scale = draw(st.sampled_from([0.5, 0.9, 1.1, 1.5, 1.9, 2.1]))
    diff = (
        scale * np.maximum(rtol * np.abs(left), atol) * np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    )
    return left, left + diff, rtol, atol


def raises(f, *args, **kwargs):
    try:
        f(*args, **kwargs)
    except AssertionError:
        return True
    return False


@given(near_pairs())
def test_tolerances_are_numpy_isclose(pair):
    left, right, rtol, atol = pair
    want = not np.allclose(left, right, rtol=rtol, atol=atol)
    kw = {"check_exact": False, "rtol": rtol, "atol": atol}
    assert raises(akt.assert_index_equal, ak.Index(ak.array(left)), ak.Index(ak.array(right)), **kw) == want
    s_left, s_right = ak.Series(ak.array(left)), ak.Series(ak.array(right))
    assert raises(akt.assert_series_equal, s_left, s_right, **kw) == want
    f_left = ak.DataFrame({"x": ak.array(left), "i": ak.arange(len(left))})
    f_right = ak.DataFrame({"x": ak.array(right), "i": ak.arange(len(left))})
    assert raises(akt.assert_frame_equal, f_left, f_right, **kw) == want
    assert (
        raises(akt.assert_almost_equal, ak.Index(ak.array(left)), ak.Index(ak.array(right)), rtol=rtol, atol=atol)
        == want
    )
    # exact comparison: any difference raises
    assert raises(akt.assert_series_equal, s_left, s_right, check_exact=True) == (not np.array_equal(left, right))


def test_tolerance_beyond_pandas_bound():
    # |1.0017 - 1.0| = 0.0017 <= 0.001 + 0.001 * 1.0017 (NumPy), > max(0.001 * 1.0017, 0.001) (pandas)
    left, right = np.array([0.0, 1.0, 2.0]), np.array([0.0007, 1.0017, 2.0027])
    assert np.allclose(left, right, rtol=1e-3, atol=1e-3)
    with pytest.raises(AssertionError):
        pd.testing.assert_index_equal(pd.Index(left), pd.Index(right), check_exact=False, rtol=1e-3, atol=1e-3)
    akt.assert_index_equal(ak.Index(ak.array(left)), ak.Index(ak.array(right)), check_exact=False, rtol=1e-3, atol=1e-3)
    akt.assert_series_equivalent(ak.Series(ak.array(left)), pd.Series(right), rtol=1e-3, atol=1e-3)
    # a dtype difference still shows, tolerance or not
    with pytest.raises(AssertionError, match="dtype"):
        akt.assert_series_equal(ak.Series(ak.array([1.0, 2.0])), ak.Series(ak.array([1, 2])), check_exact=False)


def test_equivalent_strings_and_numbers():
    akt.assert_equivalent("string1", "string1")
    with pytest.raises(AssertionError):
        akt.assert_equivalent("string1", "string2")
    akt.assert_equivalent(1.0, 1.0)
    with pytest.raises(AssertionError):
        akt.assert_equivalent(1.0, 1.5)
    with pytest.raises(TypeError):
        akt.assert_equivalent([1], [1])


# ----- stateless random draws --------------------------------------------------------------
@given(
    st.integers(0, 300),
    st.integers(0, M64),
    st.integers(0, 2**40),
    st.one_of(st.integers(0, 10**6), st.integers(M64 - 200, M64)),
)
def test_stateless_u64_matches_splitmix64(n, seed, stream, start):
    rng = ak.random.default_rng(5)
    got = rng._stateless_u64_from_index(n, seed=seed, stream=stream, start_idx=start)
    assert got.dtype == ak.uint64
    np.testing.assert_array_equal(got.to_ndarray(), reference_u64(n, seed, stream, start))
    u = rng._stateless_uniform_01_from_index(n, seed=seed, stream=stream, start_idx=start)
    want = (reference_u64(n, seed, stream, start) >> np.uint64(11)).astype(np.float64) * 2.0**-53
    assert u.dtype == ak.float64
    np.testing.assert_array_equal(u.to_ndarray(), want)


@given(st.integers(0, 500), st.integers(0, 500), st.integers(0, 2**32))
def test_stateless_slices_and_fills_agree(start, n, seed):
    rng = ak.random.default_rng()
    full = rng._stateless_u64_from_index(start + n, seed=seed, stream=3).to_ndarray()
    part = rng._stateless_u64_from_index(n, seed=seed, stream=3, start_idx=start).to_ndarray()
    np.testing.assert_array_equal(part, full[start:])
    x = ak.zeros(n, dtype=ak.uint64)
    rng._fill_with_stateless_u64_from_index(x, seed=seed, stream=3, start_idx=start)
    np.testing.assert_array_equal(x.to_ndarray(), part)
    y = ak.zeros(n, dtype=ak.float64)
    rng._fill_stateless_uniform_01_from_index(y, seed=seed, stream=3, start_idx=start)
    np.testing.assert_array_equal(
        y.to_ndarray(), rng._stateless_uniform_01_from_index(n, seed=seed, stream=3, start_idx=start).to_ndarray()
    )


def test_stateless_uniform_is_uniform():
    rng = ak.random.default_rng()
    u = rng._stateless_uniform_01_from_index(20_000, seed=11, stream=0).to_ndarray()
    assert u.min() >= 0.0 and u.max() < 1.0
    assert stats.kstest(u, "uniform").pvalue > 1e-4
    other = rng._stateless_uniform_01_from_index(20_000, seed=11, stream=1).to_ndarray()
    assert abs(np.corrcoef(u, other)[0, 1]) < 6 / np.sqrt(u.size)


def test_stateless_bad_input():
    rng = ak.random.default_rng()
    with pytest.raises(ValueError):
        rng._fill_with_stateless_u64_from_index(ak.zeros((2, 3), dtype=ak.uint64), seed=1, stream=0)
    with pytest.raises(TypeError):
        rng._fill_with_stateless_u64_from_index(ak.zeros(3, dtype=ak.int64), seed=1, stream=0)
    with pytest.raises(TypeError):
        rng._fill_stateless_uniform_01_from_index(ak.zeros(3, dtype=ak.uint64), seed=1, stream=0)
    with pytest.raises(OverflowError):
        rng._stateless_u64_from_index(3, seed=-1, stream=0)
    with pytest.raises(OverflowError):
        rng._stateless_u64_from_index(3, seed=1, stream=0, start_idx=2**64)
    with pytest.raises(ValueError):
        rng._stateless_u64_from_index(-1, seed=1, stream=0)
    with pytest.raises(TypeError):
        rng._stateless_u64_from_index(3, seed=1.5, stream=0)
