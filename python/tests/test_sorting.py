"""argsort, sort, coargsort, is_sorted, searchsorted against NumPy's stable sorts: random
data with heavy duplicates, all-equal keys, NaN and -0.0, empty and tiny arrays."""

import atoll as ak
import numpy as np
import pytest
from conftest import assert_same
from hypothesis import given, strategies as st
from hypothesis.extra import numpy as hnp

FLOATS = st.sampled_from([np.nan, -0.0, 0.0, 1.5, -2.0, np.inf, -np.inf, 3.0])


def keys(dtype):
    el = {
        np.int64: st.one_of(st.integers(-3, 3), st.integers(-(2**63), 2**63 - 1)),
        np.uint64: st.one_of(st.integers(0, 3), st.integers(0, 2**64 - 1)),
        np.float64: st.one_of(FLOATS, st.floats(-1e300, 1e300, width=64)),
        np.bool_: st.booleans(),
    }[dtype]
    return hnp.arrays(dtype, st.integers(0, 200), elements=el)


@pytest.mark.parametrize("dt", [np.int64, np.uint64, np.float64, np.bool_])
@given(data=st.data())
def test_argsort_and_sort_match_numpy_stable(dt, data):
    x = data.draw(keys(dt))
    a = ak.array(x)
    assert_same(ak.argsort(a), np.argsort(x, kind="stable"))
    assert_same(a.argsort(), np.argsort(x, kind="stable"))
    assert_same(ak.sort(a), np.sort(x, kind="stable"))
    assert ak.is_sorted(ak.sort(a)) or dt == np.float64 and np.isnan(x).any()


@given(data=st.data())
def test_coargsort_matches_lexsort(data):
    n = data.draw(st.integers(0, 200))
    k1 = data.draw(hnp.arrays(np.int64, n, elements=st.integers(-2, 2)))
    k2 = data.draw(hnp.arrays(np.float64, n, elements=FLOATS))
    k3 = data.draw(hnp.arrays(np.uint64, n, elements=st.integers(0, 3)))
    k4 = data.draw(hnp.arrays(np.bool_, n, elements=st.booleans()))
    want = np.lexsort([k4, k3, k2, k1])  # last key most significant; stable
    assert_same(ak.coargsort([ak.array(k1), ak.array(k2), ak.array(k3), ak.array(k4)]), want)
    assert_same(ak.coargsort([ak.array(k2)]), np.argsort(k2, kind="stable"))


def test_all_equal_and_tiny():
    for n in [0, 1, 2, 3, 5]:
        x = np.full(n, 7, dtype=np.int64)
        assert_same(ak.argsort(ak.array(x)), np.arange(n))
        assert_same(ak.coargsort([ak.array(x), ak.array(x * 0.5)]), np.arange(n))


def test_errors():
    a = ak.arange(5)
    with pytest.raises(ValueError):
        ak.coargsort([a, ak.arange(4)])
    with pytest.raises(TypeError):
        ak.coargsort(a)
    with pytest.raises(TypeError):
        ak.argsort([1, 2])


@pytest.mark.parametrize("side", ["left", "right"])
@given(data=st.data())
def test_searchsorted(side, data):
    x = np.sort(data.draw(hnp.arrays(np.float64, st.integers(0, 100), elements=FLOATS)))
    v = data.draw(hnp.arrays(np.float64, st.integers(0, 50), elements=FLOATS))
    assert_same(ak.searchsorted(ak.array(x), ak.array(v), side=side), np.searchsorted(x, v, side=side))
    xi = np.sort(data.draw(hnp.arrays(np.int64, st.integers(1, 100), elements=st.integers(-5, 5))))
    assert ak.searchsorted(ak.array(xi), 2, side=side) == np.searchsorted(xi, 2, side=side)
