"""Arkouda's numpy layer on Atoll: the module layout and the ``arkouda`` alias, NumPy's
elementwise functions, ``cast``, ``default_rng``, ``coargsort`` of many keys, the statistics,
and Arkouda's asserters; checked against NumPy, SciPy and Python."""

import importlib
import sys

import atoll as ak
import numpy as np
import pytest
from conftest import assert_same
from hypothesis import given, strategies as st
from strategies import arrays

# ----- the alias and the layout -------------------------------------------------------------


def test_alias_maps_modules_to_atolls_objects():
    import atoll.arkouda as alias

    alias.install()
    try:
        ark = importlib.import_module("arkouda")
        assert ark is ak
        assert importlib.import_module("arkouda.numpy.pdarrayclass") is importlib.import_module(
            "atoll.numpy.pdarrayclass"
        )
        assert importlib.import_module("arkouda.numpy.pdarraycreation") is importlib.import_module(
            "atoll.numpy.pdarraycreation"
        )
        assert importlib.import_module("arkouda.core.client").get_max_array_rank() == 8
        assert importlib.import_module("arkouda.testing").assert_equal is ak.testing.assert_equal
        from arkouda.numpy.alignment import is_cosorted  # noqa: F401  (Arkouda's import line)
        from arkouda.numpy.sorting import SortingAlgorithm  # noqa: F401

        assert alias.target("arkouda.pandas.dataframe") == "atoll.pandas.dataframe"
        assert alias.target("arkouda.numpy.random") == "atoll.numpy.random"
        with pytest.raises(ModuleNotFoundError, match="arkouda.no_such_module"):
            importlib.import_module("arkouda.no_such_module")
    finally:
        alias.uninstall()
    assert "arkouda" not in sys.modules
    assert importlib.import_module("atoll.numpy.pdarrayclass").__spec__.name == "atoll.numpy.pdarrayclass"


def test_get_config_describes_the_job():
    cfg = ak.get_config()
    assert cfg["numLocales"] == ak.num_locales() == cfg["numNodes"]
    assert ak.core.client.get_array_ranks() == list(range(1, 9))


# ----- elementwise functions against NumPy --------------------------------------------------

FLOAT_FNS = [
    "tan",
    "sinh",
    "cosh",
    "tanh",
    "arctan",
    "arcsinh",
    "log1p",
    "expm1",
    "rad2deg",
    "deg2rad",
    "trunc",
    "sign",
    "square",
    "fabs",
    "log2",
    "log10",
]


@pytest.mark.parametrize("name", FLOAT_FNS)
@given(x=arrays(np.float64, min_size=0, max_size=100))
def test_float_functions_match_numpy(name, x):
    with np.errstate(all="ignore"):
        want = getattr(np, name)(x)
    assert_same(getattr(ak, name)(ak.array(x)), want, exact=False)


@pytest.mark.parametrize("name", ["arcsin", "arccos", "arctanh"])
def test_inverse_trig_in_domain(name):
    x = np.linspace(-0.999, 0.999, 101)
    assert_same(getattr(ak, name)(ak.array(x)), getattr(np, name)(x), exact=False)
    assert_same(ak.arccosh(ak.array(x + 2.0)), np.arccosh(x + 2.0), exact=False)


@pytest.mark.parametrize("dt", [np.int64, np.uint64])
@given(data=st.data())
def test_integer_functions_match_numpy(dt, data):
    x = data.draw(arrays(dt, min_size=0, max_size=100))
    a = ak.array(x)
    with np.errstate(all="ignore"):
        assert_same(ak.sign(a), np.sign(x))
        assert_same(ak.square(a), np.square(x))
    bits64 = np.bitwise_count(x.view(np.uint64))  # Arkouda counts the two's complement bits
    assert_same(ak.popcount(a), bits64.astype(dt))
    assert_same(ak.parity(a), (bits64 % 2).astype(dt))
    bits = [format(int(v) % 2**64, "064b") for v in x]
    assert_same(ak.clz(a), np.array([len(b) - len(b.lstrip("0")) for b in bits], dtype=dt))
    assert_same(
        ak.ctz(a), np.array([0 if int(v) == 0 else len(b) - len(b.rstrip("0")) for b, v in zip(bits, x)], dtype=dt)
    )
    r = data.draw(st.integers(0, 130))
    u = x.astype(np.uint64)
    want = ((u << np.uint64(r % 64)) | (u >> np.uint64((64 - r % 64) % 64))) if r % 64 else u
    assert_same(ak.rotl(ak.array(u), r), want)


def test_isinf_isfinite_and_binary_functions():
    x = np.array([1.0, np.inf, -np.inf, np.nan, 0.0, -2.5])
    y = np.array([2.0, 1.0, -3.0, 1.0, -0.0, 0.5])
    a, b = ak.array(x), ak.array(y)
    assert_same(ak.isinf(a), np.isinf(x))
    assert_same(ak.isfinite(a), np.isfinite(x))
    for name in ["arctan2", "hypot", "fmod", "nextafter"]:
        with np.errstate(all="ignore"):
            assert_same(getattr(ak, name)(a, b), getattr(np, name)(x, y), exact=False)
    assert_same(ak.arctan2(a, 2.0), np.arctan2(x, 2.0), exact=False)
    assert_same(ak.arctan2(2.0, a), np.arctan2(2.0, x), exact=False)
    xi, yi = np.array([7, -7, 7, -7, 5]), np.array([3, 3, -3, -3, 0])
    with np.errstate(all="ignore"):
        assert_same(ak.fmod(ak.array(xi), ak.array(yi)), np.fmod(xi, yi))
    q, r = ak.divmod(ak.array(xi), 3)
    assert_same(q, xi // 3) and assert_same(r, xi % 3)


def test_diff_dot_and_statistics():
    x = np.array([3.0, 1.5, 7.25, -2.0, 10.0, 4.0])
    a = ak.array(x)
    assert_same(ak.diff(a), np.diff(x))
    assert_same(ak.diff(a, n=2), np.diff(x, n=2))
    assert ak.dot(a, a) == pytest.approx(np.dot(x, x))
    for q in [0.0, 0.3, 0.5, 0.99, 1.0]:
        for m in ["linear", "lower", "higher", "nearest", "midpoint", "hazen", "weibull", "inverted_cdf"]:
            assert ak.quantile(a, q, method=m) == pytest.approx(np.quantile(x, q, method=m)), (q, m)
    assert_same(ak.percentile(a, [10, 50, 90]), np.percentile(x, [10, 50, 90]), exact=False)
    assert ak.median(a) == np.median(x)
    y = x[::-1] * 2 + 1
    assert ak.cov(a, ak.array(y)) == pytest.approx(np.cov(x, y)[0, 1])
    assert ak.corr(a, ak.array(y)) == pytest.approx(np.corrcoef(x, y)[0, 1])
    from scipy.stats import skew

    assert ak.skew(a) == pytest.approx(skew(x))
    assert_same(ak.mink(a, 2), np.sort(x)[:2])
    assert_same(ak.maxk(a, 2), np.sort(x)[-2:])
    assert_same(ak.argmink(a, 2), np.argsort(x, kind="stable")[:2])


def test_putmask_and_take():
    x = np.arange(10.0)
    a = ak.array(x)
    m = x % 3 == 0
    ak.putmask(a, ak.array(m), ak.array(np.array([-1.0, -2.0])))
    np.putmask(x, m, np.array([-1.0, -2.0]))
    assert_same(a, x)
    assert_same(ak.take(a, [0, 3, 9]), np.take(x, [0, 3, 9]))


# ----- cast -------------------------------------------------------------------------------------

DTS = [ak.int64, ak.uint64, ak.float64, ak.bool_]


@pytest.mark.parametrize("src", DTS)
@pytest.mark.parametrize("dst", DTS + [ak.str_])
def test_cast_every_pair(src, dst):
    x = np.array([0, 1, 5, 200], dtype=src)
    got = ak.cast(ak.array(x), dst)
    if dst is ak.str_:
        assert isinstance(got, ak.Strings)
        assert got.to_list() == x.astype(str).tolist()
        back = ak.cast(got, src)
        assert_same(back, x)
    else:
        assert_same(got, x.astype(dst))


def test_cast_strings_error_modes():
    s = ak.array(["1", "x", "3"])
    with pytest.raises(RuntimeError):  # Arkouda's exception in strict mode
        ak.cast(s, ak.int64)
    v, ok = ak.cast(s, ak.float64, errors=ak.ErrorMode.return_validity)
    assert_same(ok, np.array([True, False, True]))
    assert v[0] == 1.0 and np.isnan(v[1])


# ----- random -----------------------------------------------------------------------------------


def test_default_rng_is_reproducible_and_in_range():
    g1, g2 = ak.random.default_rng(17), ak.random.default_rng(17)
    a, b = g1.integers(-5, 5, size=1000), g2.integers(-5, 5, size=1000)
    assert_same(a, b.to_ndarray())
    assert a.min() >= -5 and a.max() < 5
    assert not np.array_equal(g1.integers(-5, 5, size=1000).to_ndarray(), a.to_ndarray())  # a new stream
    u = g1.uniform(2.0, 3.0, size=500).to_ndarray()
    assert u.min() >= 2.0 and u.max() < 3.0
    p = g1.permutation(100).to_ndarray()
    assert sorted(p.tolist()) == list(range(100))
    c = g1.choice(ak.arange(10) * 3, size=50).to_ndarray()
    assert set(c.tolist()) <= set(range(0, 30, 3))
    nz = g1.poisson(4.0, size=4000).to_ndarray()
    assert abs(nz.mean() - 4.0) < 0.25 and nz.min() >= 0
    e = g1.exponential(2.0, size=4000).to_ndarray()
    assert abs(e.mean() - 2.0) < 0.2 and e.min() >= 0
    x = ak.arange(20)
    g1.shuffle(x)
    assert sorted(x.tolist()) == list(range(20))


def test_default_rng_does_not_depend_on_the_locale_count():
    # The first draw of a generator seeded with 2024 is seeded with the key of the stream
    # (2024, 0); its element i comes from the stream (draw seed, i): a function of the seed
    # and i only, so every locale count and both backends give these values.
    from test_random_streams import RefStream, stream_key

    s = stream_key(2024, 0)
    want = [RefStream(s, i).below(1000) for i in range(8)]
    assert ak.random.default_rng(2024).integers(0, 1000, size=8).tolist() == want
    u = ak.random.default_rng(2024).uniform(size=3).tolist()
    assert u == [RefStream(s, i).unit() for i in range(3)]


# ----- coargsort of many keys ------------------------------------------------------------------


@given(data=st.data())
def test_coargsort_of_more_than_eight_keys(data):
    k = data.draw(st.integers(9, 17))
    n = data.draw(st.integers(0, 60))
    cols = [np.array(data.draw(st.lists(st.integers(0, 2), min_size=n, max_size=n)), dtype=np.int64) for _ in range(k)]
    perm = ak.coargsort([ak.array(c) for c in cols]).to_ndarray()
    want = np.lexsort(cols[::-1]) if n else np.zeros(0, dtype=np.int64)
    assert_same(ak.array(perm), want)


# ----- the asserters ----------------------------------------------------------------------------


def test_asserters_accept_equal_and_reject_different():
    from atoll.testing import (
        assert_almost_equivalent,
        assert_arkouda_array_equal,
        assert_arkouda_array_equivalent,
        assert_equal,
    )

    a = ak.array([1.0, 2.0, np.nan])
    assert_arkouda_array_equal(a, ak.array([1.0, 2.0, np.nan]))
    assert_arkouda_array_equivalent(a, np.array([1.0, 2.0, np.nan]))
    assert_almost_equivalent(a, np.array([1.0 + 1e-9, 2.0, np.nan]))
    assert_equal(ak.array(["x", "y"]), ak.array(["x", "y"]))
    with pytest.raises(AssertionError):
        assert_arkouda_array_equal(a, ak.array([1.0, 2.5, np.nan]))
    with pytest.raises(AssertionError):
        assert_arkouda_array_equivalent(ak.array([1, 2]), np.array([1.0, 2.0]))  # dtypes differ
    with pytest.raises(AssertionError):
        assert_equal(ak.array(["x", "y"]), ak.array(["x", "z"]))


def test_eager_setting_gives_the_same_values():
    x = np.arange(10.0)
    old = ak.set_eager(True)
    try:
        c = ak.array(x) + ak.array(x) * 2.0
        assert c._expr is None  # computed on its line
    finally:
        ak.set_eager(old)
    assert_same(c, x + x * 2.0)
