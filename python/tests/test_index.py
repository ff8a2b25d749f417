import atoll as ak
import numpy as np
from conftest import assert_same
from hypothesis import given, strategies as st
from strategies import arrays

SLICES = st.builds(
    slice,
    st.none() | st.integers(-60, 60),
    st.none() | st.integers(-60, 60),
    st.none() | st.integers(-7, 7).filter(lambda s: s != 0),
)


@given(x=arrays(np.int64, max_size=50), s=SLICES, s2=SLICES)
def test_slices_are_views(x, s, s2):
    a = ak.array(x)
    assert_same(a[s], x[s])
    assert_same(a[s][s2], x[s][s2])
    y = x.copy()
    v = a[s]
    v[:] = -1  # writes go through
    y[s] = -1
    assert_same(a, y)


@given(x=arrays(np.float64, min_size=1, max_size=100), data=st.data())
def test_int_index_get_set(x, data):
    a = ak.array(x)
    i = data.draw(st.integers(-len(x), len(x) - 1))
    assert a[i] == x[i] and type(a[i]) is np.float64
    a[i] = 42.5
    x[i] = 42.5
    assert_same(a, x)


@given(x=arrays(np.int64, max_size=200), data=st.data())
def test_mask_and_gather(x, data):
    a = ak.array(x)
    m = x % 3 == 0
    assert_same(a[ak.array(m)], x[m])
    n = len(x)
    if n:
        idx = np.array(data.draw(st.lists(st.integers(-n, n - 1), max_size=100)), dtype=np.int64)
        assert_same(a[ak.array(idx)], x[idx])
        if n > 1:
            v = x[1::2]
            j = idx % len(v)
            assert_same(a[1::2][ak.array(j)], v[j])


@given(x=arrays(np.int64, min_size=1, max_size=200), data=st.data())
def test_setitem_forms(x, data):
    a = ak.array(x)
    y = x.copy()
    m = y % 2 == 0
    a[ak.array(m)] = 7
    y[m] = 7
    assert_same(a, y)
    idx = np.unique(np.array(data.draw(st.lists(st.integers(0, len(x) - 1), max_size=50)), dtype=np.int64))
    v = np.arange(len(idx), dtype=np.int64) * 10
    a[ak.array(idx)] = ak.array(v)
    y[idx] = v
    assert_same(a, y)
    m2 = y > 5
    a[ak.array(m2)] = ak.arange(int(m2.sum()))
    y[m2] = np.arange(int(m2.sum()))
    assert_same(a, y)
    a[::-2] = 3
    y[::-2] = 3
    assert_same(a, y)
    a[2:10] = ak.arange(len(y[2:10]))
    y[2:10] = np.arange(len(y[2:10]))
    assert_same(a, y)


def test_assignment_in_place_fused():
    n = 10_000
    b, c = ak.arange(n).astype(ak.float64), ak.ones(n)
    a = ak.zeros(n)
    a[:] = b + 3.0 * c
    assert_same(a, np.arange(n) + 3.0)
    a[5:50] = a[5:50] * 2
    want = np.arange(n) + 3.0
    want[5:50] *= 2
    assert_same(a, want)
