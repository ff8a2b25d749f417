"""unique, value_counts, in1d, union1d, intersect1d, setdiff1d, setxor1d, concatenate,
bincount, histogram against NumPy: heavy duplicates, all-equal, NaN, -0.0, empty, several
key arrays."""

import os

import atoll as ak
import numpy as np
import pytest
from conftest import assert_same
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

# Each example runs a dozen commands, for 4 dtypes and both paths: half the suite's examples.
HALF = settings(max_examples=max(3, int(os.environ.get("ATOLL_HYPOTHESIS_EXAMPLES", "25")) // 2))

SMALL = {
    np.int64: st.integers(-4, 4),
    np.uint64: st.integers(0, 6),
    np.float64: st.sampled_from([np.nan, -0.0, 0.0, 1.5, -2.0, np.inf, 3.0]),
    np.bool_: st.booleans(),
}
DTS = list(SMALL)


def arr(data, dt, lo=0, hi=150, wide=False):
    el = SMALL[dt] if not wide else st.one_of(SMALL[dt], st.integers(-(2**62), 2**62) if dt == np.int64 else SMALL[dt])
    return data.draw(hnp.arrays(dt, st.integers(lo, hi), elements=el))


@pytest.fixture(autouse=True, scope="module")
def _dense_setting_restored():
    """The tests that set ``ak._keys.DENSE`` themselves leave the setting as they found it."""
    old = ak._keys.DENSE
    yield
    ak._keys.DENSE = old


@pytest.fixture(params=[True, False], ids=["dense", "sort"])
def dense(request):
    """Runs a test with the dense-key paths on (where they apply) and off."""
    old = ak._keys.DENSE
    ak._keys.DENSE = request.param
    yield request.param
    ak._keys.DENSE = old


@pytest.mark.parametrize("use_dense", [True, False], ids=["dense", "sort"])
@pytest.mark.parametrize("dt", DTS)
@HALF
@given(data=st.data())
def test_unique_counts_indices(use_dense, dt, data):
    ak._keys.DENSE = use_dense
    x = arr(data, dt, wide=True)
    a = ak.array(x)
    u, c = np.unique(x, return_counts=True)
    assert_same(ak.unique(a), u)
    gu, gc = ak.unique(a, return_counts=True)
    assert_same(gu, u)
    assert_same(gc, c)
    vu, vc = ak.value_counts(a)
    assert_same(vu, u)
    assert_same(vc, c)
    _, perm, segs, nkeys, uki = ak.unique(a, return_groups=True, return_indices=True)
    _, first = np.unique(x, return_index=True)
    assert nkeys == 1
    assert_same(uki, first)  # the first occurrence of each unique value
    assert_same(ak.array(x)[perm], x[np.argsort(x, kind="stable")])


@given(data=st.data())
def test_unique_rows_of_several_keys(data):
    n = data.draw(st.integers(0, 150))
    k1 = data.draw(hnp.arrays(np.int64, n, elements=st.integers(0, 2)))
    k2 = data.draw(hnp.arrays(np.float64, n, elements=SMALL[np.float64]))
    (u1, u2), c = ak.unique([ak.array(k1), ak.array(k2)], return_counts=True)
    rows = {}
    for a, b in zip(k1, k2):
        key = (a, "nan" if np.isnan(b) else b + 0.0)
        rows[key] = rows.get(key, 0) + 1
    want = sorted(rows, key=lambda r: (r[0], np.inf if r[1] == "nan" else r[1], r[1] == "nan"))
    assert list(zip(u1.tolist(), ["nan" if np.isnan(v) else v for v in u2.tolist()])) == want
    assert c.tolist() == [rows[r] for r in want]


@pytest.mark.parametrize("use_dense", [True, False], ids=["dense", "sort"])
@pytest.mark.parametrize("dt", DTS)
@HALF
@given(data=st.data())
def test_in1d_and_set_operations(use_dense, dt, data):
    ak._keys.DENSE = use_dense
    x, y = arr(data, dt), arr(data, dt, hi=60)
    a, b = ak.array(x), ak.array(y)
    assert_same(ak.in1d(a, b), np.isin(x, y))
    assert_same(ak.in1d(a, b, invert=True), np.isin(x, y, invert=True))
    assert_same(ak.union1d(a, b), np.union1d(x, y))
    assert_same(ak.intersect1d(a, b), np.intersect1d(x, y))
    assert_same(ak.setdiff1d(a, b), np.setdiff1d(x, y))
    if dt != np.float64:  # NumPy keeps two NaNs in setxor1d of arrays that both hold NaN
        assert_same(ak.setxor1d(a, b), np.setxor1d(x, y))
        ux, uy = np.unique(x), np.unique(y)
        assert_same(
            ak.setxor1d(ak.array(ux), ak.array(uy), assume_unique=True), np.setxor1d(ux, uy, assume_unique=True)
        )


@given(data=st.data())
def test_in1d_of_rows(data):
    n, m = data.draw(st.integers(0, 100)), data.draw(st.integers(0, 40))
    a1 = data.draw(hnp.arrays(np.int64, n, elements=st.integers(0, 3)))
    a2 = data.draw(hnp.arrays(np.uint64, n, elements=st.integers(0, 3)))
    b1 = data.draw(hnp.arrays(np.int64, m, elements=st.integers(0, 3)))
    b2 = data.draw(hnp.arrays(np.uint64, m, elements=st.integers(0, 3)))
    rows_b = set(zip(b1.tolist(), b2.tolist()))
    want = np.array([r in rows_b for r in zip(a1.tolist(), a2.tolist())], dtype=bool)
    assert_same(ak.in1d([ak.array(a1), ak.array(a2)], [ak.array(b1), ak.array(b2)]), want)
    i1, i2 = ak.intersect1d([ak.array(a1), ak.array(a2)], [ak.array(b1), ak.array(b2)])
    both = sorted(set(zip(a1.tolist(), a2.tolist())) & rows_b)
    assert list(zip(i1.tolist(), i2.tolist())) == both


@given(data=st.data())
def test_concatenate_bincount_histogram(data):
    x = data.draw(hnp.arrays(np.int64, st.integers(0, 100), elements=st.integers(0, 20)))
    y = data.draw(hnp.arrays(np.float64, st.integers(0, 100), elements=st.floats(-5, 5)))
    z = data.draw(hnp.arrays(np.bool_, st.integers(0, 10), elements=st.booleans()))
    assert_same(ak.concatenate([ak.array(x), ak.array(z)]), np.concatenate([x, z]))
    assert_same(ak.concatenate([ak.array(x), ak.array(y), ak.array(z)]), np.concatenate([x, y, z]))
    assert_same(ak.bincount(ak.array(x)), np.bincount(x))
    assert_same(ak.bincount(ak.array(x), minlength=30), np.bincount(x, minlength=30))
    if 0 < len(x) <= len(y):  # (NumPy gives int64 for no weights at all)
        w = y[: len(x)]
        assert_same(ak.bincount(ak.array(x), weights=ak.array(w)), np.bincount(x, weights=w), exact=False)
    bins = data.draw(st.integers(1, 12))
    try:
        hn, en = np.histogram(y, bins)
    except ValueError:
        # Values a few ulps apart leave NumPy no finite-sized bins: the same error here.
        with pytest.raises(ValueError, match="finite-sized bins"):
            ak.histogram(ak.array(y), bins)
        return
    h, e = ak.histogram(ak.array(y), bins)
    assert_same(h, hn)
    assert_same(e, en, exact=False)


def test_histogram_of_values_an_ulp_apart_is_numpys_error():
    y = np.array([-5.0, np.nextafter(-5.0, 0.0)])
    with pytest.raises(ValueError):
        np.histogram(y, 2)
    with pytest.raises(ValueError, match="Cannot create 2 finite-sized bins"):
        ak.histogram(ak.array(y), 2)
    h, e = ak.histogram(ak.array(y), 1)
    hn, en = np.histogram(y, 1)
    assert_same(h, hn)
    assert_same(e, en, exact=False)


def test_errors(dense):
    with pytest.raises(ValueError):
        ak.concatenate([])
    with pytest.raises(ValueError):
        ak.bincount(ak.array(np.array([1, -1])))
    with pytest.raises(ValueError):
        ak.in1d([ak.arange(3), ak.arange(3)], ak.arange(3))
    with pytest.raises(TypeError):
        ak.unique([1, 2, 3])


def test_one_array_on_both_sides(dense):
    x = np.array([3, 1, 3, 7], dtype=np.int64)
    a = ak.array(x)
    assert_same(ak.in1d(a, a), np.ones(4, dtype=bool))
    assert_same(ak.intersect1d(a, a), np.unique(x))
    g = ak.GroupBy(a)
    assert_same(g.sum(a.astype(ak.float64))[1], np.array([1.0, 6.0, 7.0]))


@pytest.mark.parametrize("kind", ["int", "float", "str", "cat"])
def test_unique_positional_groups_and_assume_sorted(kind):
    """Arkouda's order of arguments, unique(pda, return_groups, assume_sorted, return_indices),
    for numbers, Strings and Categoricals: the groups rebuild the keys; on sorted keys with
    assume_sorted the permutation is the identity."""
    rng = np.random.default_rng(7)
    words = np.array(["a", "bb", "é", "", "xyz", "q"])
    x = {
        "int": rng.integers(0, 9, 120),
        "float": rng.integers(0, 9, 120) / 4.0,
        "str": words[rng.integers(0, len(words), 120)],
        "cat": words[rng.integers(0, len(words), 120)],
    }[kind]

    def make(v):
        a = ak.array(v)
        return ak.Categorical(a) if kind == "cat" else a

    u, perm, segs, nkeys = ak.unique(make(x), True, False, False)
    assert nkeys == 1 and sorted(u.tolist()) == sorted(np.unique(x).tolist())
    xs = x[perm.to_ndarray()]
    bounds = list(segs.to_ndarray()) + [len(x)]
    for j, (s, e) in enumerate(zip(bounds[:-1], bounds[1:])):
        assert set(xs[s:e].tolist()) == {u.tolist()[j]}  # each segment: one key, the unique one
    xsorted = np.sort(x)
    u, perm, segs, nkeys, uki = ak.unique(make(xsorted), True, True, True)
    np.testing.assert_array_equal(perm.to_ndarray(), np.arange(len(x)))
    nu, first = np.unique(xsorted, return_index=True)
    assert u.tolist() == nu.tolist()
    np.testing.assert_array_equal(segs.to_ndarray(), first)
    np.testing.assert_array_equal(uki.to_ndarray(), first)
    assert ak.all(make(xsorted) == ak.broadcast(segs, u, len(x)))


def test_in1d_of_strings_against_numbers_is_a_type_error():
    c = ak.Categorical(ak.array(["a", "b", "a"]))
    s = ak.array(["a", "c"])
    with pytest.raises(TypeError):
        ak.in1d(c, ak.arange(3))
    with pytest.raises(TypeError):
        ak.in1d(ak.arange(3), s)
    assert ak.in1d(c, s).tolist() == [True, False, True]
    assert ak.in1d(c, ak.Categorical(s)).tolist() == [True, False, True]
