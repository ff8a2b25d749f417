import atoll as ak
import numpy as np
import pytest
from conftest import assert_same
from hypothesis import given, strategies as st
from strategies import DTYPES, arrays


@pytest.mark.parametrize("dt", DTYPES)
@given(data=st.data())
def test_reductions(dt, data):
    x = data.draw(arrays(dt, min_size=1))
    a = ak.array(x)
    exact = dt != np.float64
    assert_same(ak.sum(a), np.sum(x), exact)
    assert_same(a.sum(), np.sum(x), exact)
    assert_same(ak.min(a), np.min(x))
    assert_same(ak.max(a), np.max(x))
    assert ak.argmin(a) == np.argmin(x)
    assert ak.argmax(a) == np.argmax(x)
    assert ak.any(a) == np.any(x) and ak.all(a) == np.all(x)
    assert ak.count_nonzero(a) == np.count_nonzero(x)
    assert ak.is_sorted(a) == bool(np.all(x[:-1] <= x[1:]))
    assert ak.is_sorted(ak.sort(a)) if dt != np.bool_ else True
    np.testing.assert_allclose(ak.mean(a), np.mean(x.astype(np.float64)), rtol=1e-9, atol=1e-6)
    np.testing.assert_allclose(ak.var(a), np.var(x.astype(np.float64)), rtol=1e-7, atol=1e-6)
    np.testing.assert_allclose(
        ak.std(a, ddof=1) if len(x) > 1 else 0.0,
        np.std(x.astype(np.float64), ddof=1) if len(x) > 1 else 0.0,
        rtol=1e-7,
        atol=1e-6,
    )


@given(x=arrays(np.int64, min_size=0, max_size=300, elements=st.integers(-3, 3)))
def test_prod_and_scans(x):
    a = ak.array(x)
    assert_same(ak.prod(a), np.prod(x))
    assert_same(ak.cumsum(a), np.cumsum(x))
    assert_same(ak.cumprod(a), np.cumprod(x))
    assert_same(a.cumsum(), np.cumsum(x))


@given(x=arrays(np.float64, min_size=0, max_size=300))
def test_float_scan(x):
    g, want = ak.cumsum(ak.array(x)).to_ndarray(), np.cumsum(x)
    assert g.dtype == want.dtype
    # The locales' partial sums are added in another order than NumPy's running sum, so a
    # prefix may differ by rounding relative to the magnitudes summed so far (the prefix sums
    # of |x|), not to its own value (a large value cancelled later leaves its rounding).
    with np.errstate(over="ignore", invalid="ignore"):
        mag = np.cumsum(np.abs(x))
    nan_seen = np.cumsum(np.isnan(x)) > 0
    assert np.all(np.isnan(g[nan_seen]))
    ok = np.isfinite(mag)  # every order's partial sums are bounded by mag: finite in all
    bound = 1e-12 * np.abs(want[ok]) + 64 * np.finfo(np.float64).eps * mag[ok]
    assert np.all(np.abs(g[ok] - want[ok]) <= bound), (g[ok], want[ok])


def test_nan_reductions():
    x = np.array([3.0, np.nan, 1.0, np.nan])
    a = ak.array(x)
    assert np.isnan(ak.min(a)) and np.isnan(ak.max(a))
    assert ak.argmin(a) == np.argmin(x) and ak.argmax(a) == np.argmax(x)


def test_sum_of_expression_is_fused_and_right():
    n = 100_000
    a = ak.arange(n)
    assert ak.sum(a * 2 + 1) == np.sum(np.arange(n) * 2 + 1)
    assert ak.sum(a[10:90_000:7]) == np.arange(n)[10:90_000:7].sum()


def test_empty():
    e = ak.zeros(0)
    assert ak.sum(e) == 0 and ak.prod(e) == 1
    with pytest.raises(ValueError, match="zero-size"):
        ak.min(e)
    with pytest.raises(ValueError, match="zero-size"):
        ak.argmax(e)
    assert ak.cumsum(e).size == 0


@pytest.mark.parametrize("dt", [np.int64, np.uint64, np.float64])
@given(data=st.data())
def test_argsort(dt, data):
    x = data.draw(arrays(dt))
    p = ak.argsort(ak.array(x)).to_ndarray()
    np.testing.assert_array_equal(x[p], np.sort(x))
    assert_same(ak.sort(ak.array(x)), np.sort(x))
