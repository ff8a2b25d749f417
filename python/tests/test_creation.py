import atoll as ak
import numpy as np
import pytest
from conftest import assert_same
from hypothesis import given
from strategies import DTYPES, arrays


@pytest.mark.parametrize("dt", DTYPES)
@given(data=__import__("hypothesis").strategies.data())
def test_array_roundtrip(dt, data):
    x = data.draw(arrays(dt))
    a = ak.array(x)
    assert a.dtype == x.dtype and a.size == x.size and a.shape == x.shape and a.ndim == 1
    assert a.itemsize == x.itemsize and a.nbytes == x.nbytes
    assert_same(a, x)
    assert a.tolist() == x.tolist()


def test_array_from_list_and_other_dtypes():
    assert_same(ak.array([1, 2, 3]), np.array([1, 2, 3]))
    assert_same(ak.array([1.5, 2]), np.array([1.5, 2.0]))
    assert_same(ak.array(np.arange(5, dtype=np.int32)), np.arange(5, dtype=np.int64))
    assert_same(ak.array(np.arange(5, dtype=np.float32)), np.arange(5, dtype=np.float64))


@pytest.mark.parametrize("n", [0, 1, 7, 1000])
def test_fill(n):
    assert_same(ak.zeros(n), np.zeros(n))
    assert_same(ak.ones(n, dtype=ak.int64), np.ones(n, dtype=np.int64))
    assert_same(ak.full(n, 7), np.full(n, 7))  # Arkouda: dtype inferred from the value
    assert_same(ak.full(n, 7.5), np.full(n, 7.5))
    assert_same(ak.full(n, 7, dtype=ak.float64), np.full(n, 7.0))
    assert_same(ak.full(n, 7, dtype=None), np.full(n, 7))
    assert_same(ak.full(n, True, dtype=ak.bool), np.full(n, True))
    assert_same(ak.full(n, 2.5, dtype=ak.uint64), np.full(n, 2, dtype=np.uint64))
    a = ak.arange(n)
    assert_same(ak.zeros_like(a), np.zeros(n, dtype=np.int64))
    assert_same(ak.ones_like(a), np.ones(n, dtype=np.int64))
    assert_same(ak.full_like(a, 3), np.full(n, 3))


@pytest.mark.parametrize("args", [(10,), (3, 17), (17, 3, -2), (0, 100, 7), (5, 5), (-10, 10, 3)])
def test_arange(args):
    assert_same(ak.arange(*args), np.arange(*args, dtype=np.int64))


@pytest.mark.parametrize("args", [(0, 1, 5), (0, 1, 5, False), (-3.5, 10, 101), (2, 2, 1), (0, 1, 0)])
def test_linspace(args):
    assert_same(ak.linspace(*args), np.linspace(*args), exact=False)


def test_random_reproducible_and_in_range():
    a = ak.randint(-5, 17, 10_000, seed=7)
    x = a.to_ndarray()
    assert x.min() >= -5 and x.max() < 17 and len(np.unique(x)) == 22
    assert_same(ak.randint(-5, 17, 10_000, seed=7), x)
    u = ak.uniform(10_000, 2.0, 3.0, seed=1).to_ndarray()
    assert u.min() >= 2.0 and u.max() < 3.0 and abs(u.mean() - 2.5) < 0.02
    g = ak.standard_normal(100_000, seed=3).to_ndarray()
    assert abs(g.mean()) < 0.02 and abs(g.std() - 1) < 0.02
    assert not np.array_equal(ak.uniform(100, seed=1).to_ndarray(), ak.uniform(100, seed=2).to_ndarray())


def test_random_same_on_any_locale_count():
    # The values are a function of (seed, index) only: recorded on one locale count, they
    # match every other (the suite runs on 1, 2, 4 locales and under MPI).
    a = ak.randint(0, 1000, 8, seed=42).tolist()

    assert len(a) == 8

    # Independent reference: the stream of each index (atoll_util::Stream) in Python.
    from test_random_streams import RefStream

    assert a == [RefStream(42, i).below(1000) for i in range(8)]


def test_repr_like_arkouda():
    assert str(ak.arange(5)) == "[0 1 2 3 4]"
    assert repr(ak.arange(5)) == "array([0 1 2 3 4])"
    assert str(ak.arange(1000)) == "[0 1 2 ... 997 998 999]"


def test_linspace_arkouda_keywords():
    assert_same(ak.linspace(0, 1, num=7, endpoint=False), np.linspace(0, 1, num=7, endpoint=False), exact=False)
    assert_same(ak.linspace(0, 1, length=4), np.linspace(0, 1, 4), exact=False)
    assert_same(ak.linspace(1, 0, 3, dtype=None), np.linspace(1, 0, 3), exact=False)
    with pytest.raises(TypeError, match="dtype"):
        ak.linspace(0, 1, 3, dtype=ak.int64)
    with pytest.raises(ValueError, match="axis"):
        ak.linspace(0, 1, 3, axis=1)
    got = ak.linspace(ak.arange(3), 1, 3)  # array bounds: NumPy's shape (num, *bounds)
    np.testing.assert_allclose(got.to_ndarray(), np.linspace(np.arange(3), 1, 3))


def test_randint_uint64_bounds_beyond_the_dtype_wrap():
    """Arkouda takes uint64 bounds of any size (randint(2**200, 2**200 + 10, dtype=uint64)):
    the values are the draws of [low, high) modulo 2**64."""
    for low, high in [(2**200, 2**200 + 10), (-5, 3), (2**64 - 3, 2**64 + 4)]:
        a = ak.randint(low, high, 2_000, dtype=ak.uint64, seed=3)
        assert a.dtype == np.uint64
        got = {int(v) for v in a.to_ndarray()}
        assert got == {v % 2**64 for v in range(low, high)}  # every value of the range, wrapped
        assert_same(ak.randint(low, high, 2_000, dtype=ak.uint64, seed=3), a.to_ndarray())


def test_array_of_pandas_series_keeps_its_dtype():
    """ak.array of a pandas Series or Index: the values and dtype of its NumPy array (uint64
    stays uint64 though its values fit int64), str Series as Strings."""
    import pandas as pd

    rng = np.random.default_rng(2)
    for s in [
        pd.Series(rng.integers(0, 50, 40).astype(np.uint64)),
        pd.Series(rng.integers(-9, 9, 40)),
        pd.Series(rng.random(40)),
        pd.Series(rng.random(40) < 0.5),
        pd.Index(rng.integers(0, 5, 40).astype(np.uint64)),
    ]:
        assert_same(ak.array(s), s.to_numpy())
    words = pd.Series(["a", "bé", "", "a"])
    assert ak.array(words).tolist() == words.tolist()
