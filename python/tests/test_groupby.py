"""GroupBy against pandas (groupby with sort=True, dropna=True): random keys with heavy
duplicates, all-equal keys, NaN keys and values, one and two key arrays, empty and tiny."""

import os

import atoll as ak
import numpy as np
import pandas as pd
import pytest
from conftest import assert_same
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

# Each example runs ~40 commands: fewer examples than the suite's default, for both paths.
FEW = settings(max_examples=max(3, int(os.environ.get("ATOLL_HYPOTHESIS_EXAMPLES", "25")) // 3))


@pytest.fixture(params=[True, False], ids=["dense", "sort"])
def dense(request):
    """Runs a test with the dense-key paths on (where they apply) and off."""
    old = ak._keys.DENSE
    ak._keys.DENSE = request.param
    yield request.param
    ak._keys.DENSE = old


VALS = st.one_of(st.sampled_from([np.nan, 0.0, -1.0, 2.5]), st.floats(-100, 100))


def frame(data, nkeys=1, float_key=False, n=None):
    n = data.draw(st.integers(0, 150)) if n is None else n
    cols = {}
    for j in range(nkeys):
        if float_key and j == nkeys - 1:
            cols[f"k{j}"] = data.draw(
                hnp.arrays(np.float64, n, elements=st.sampled_from([np.nan, -0.0, 0.0, 1.5, 2.0]))
            )
        else:
            hi = data.draw(st.sampled_from([0, 3, 40]))
            cols[f"k{j}"] = data.draw(hnp.arrays(np.int64, n, elements=st.integers(-hi, hi)))
    cols["v"] = data.draw(hnp.arrays(np.float64, n, elements=VALS))
    cols["i"] = data.draw(hnp.arrays(np.int64, n, elements=st.integers(-5, 5)))
    return pd.DataFrame(cols)


def check_keys(g, want_index, nkeys):
    if nkeys == 1:
        assert_same(g.unique_keys, np.asarray(want_index), exact=True)
    else:
        for j, u in enumerate(g.unique_keys):
            assert_same(u, np.asarray(want_index.get_level_values(j)), exact=True)


def check_all(df, nkeys):
    names = [f"k{j}" for j in range(nkeys)]
    keys = [ak.array(df[c].to_numpy()) for c in names]
    g = ak.GroupBy(keys if nkeys > 1 else keys[0])
    pg = df.groupby(names if nkeys > 1 else names[0], sort=True, dropna=True)
    v, i = ak.array(df["v"].to_numpy()), ak.array(df["i"].to_numpy())
    sizes = pg.size()
    check_keys(g, sizes.index, nkeys)
    assert g.ngroups == len(sizes)
    assert_same(g.size()[1], sizes.to_numpy().astype(np.int64))
    for op in ["sum", "min", "max", "mean", "var", "std", "count"]:
        k, got = getattr(g, op)(v)
        want = getattr(pg["v"], op)().to_numpy()
        if op == "sum":  # pandas: NaN-only groups sum to 0 (as here)
            want = want.astype(np.float64)
        assert_same(got, want.astype(got.dtype.type) if op == "count" else want, exact=op in ("min", "max", "count"))
    assert_same(g.prod(v)[1], pg["v"].prod().to_numpy(), exact=False)
    assert_same(g.sum(i)[1], pg["i"].sum().to_numpy())
    assert_same(g.min(i)[1], pg["i"].min().to_numpy())
    assert_same(g.nunique(v)[1], pg["v"].nunique().to_numpy().astype(np.int64))
    assert_same(g.nunique(i)[1], pg["i"].nunique().to_numpy().astype(np.int64))
    assert_same(g.any(i)[1], pg["i"].agg(lambda s: bool((s != 0).any())).to_numpy().astype(bool))
    assert_same(g.all(v)[1], pg["v"].agg(lambda s: bool((s != 0).all())).to_numpy().astype(bool))
    # argmin/argmax: index of the first extreme non-NaN value (pandas' idxmin on a RangeIndex).
    has = pg["v"].count().to_numpy() > 0
    for op, pop in [("argmin", "idxmin"), ("argmax", "idxmax")]:
        got = getattr(g, op)(v)[1].to_ndarray()
        if has.any():
            want = pg["v"].agg(lambda s: getattr(s.dropna(), pop)() if s.notna().any() else -1).to_numpy()
            np.testing.assert_array_equal(got[has], want[has])
        assert_same(getattr(g, op)(i)[1], getattr(pg["i"], pop)().to_numpy().astype(np.int64))
    # first: the group's first row, NaN or not (Arkouda's).
    assert_same(g.first(v)[1], pg["v"].agg(lambda s: s.iloc[0]).to_numpy().astype(np.float64))
    # mode: the most frequent value, among ties the one that occurs first (Arkouda's rule).
    mode_i = pg["i"].agg(lambda s: s.value_counts(sort=False).idxmax()).to_numpy()
    assert_same(g.mode(i)[1], mode_i.astype(np.int64))
    # broadcast: each row gets its group's sum (rows with a NaN key: 0).
    gs = g.sum(i)[1]
    b = g.broadcast(gs).to_ndarray()
    want = pg["i"].transform("sum").to_numpy()
    keep = ~df[names].isna().any(axis=1).to_numpy()
    np.testing.assert_array_equal(b[keep], want[keep])
    # skipna=False: a group holding a NaN gives NaN.
    assert_same(g.sum(v, skipna=False)[1], pg["v"].sum(skipna=False).to_numpy(), exact=False)
    assert_same(g.max(v, skipna=False)[1], pg["v"].max(skipna=False).to_numpy())


@pytest.mark.parametrize("use_dense", [True, False], ids=["dense", "sort"])
@FEW
@given(data=st.data())
def test_one_int_key(use_dense, data):
    old, ak._keys.DENSE = ak._keys.DENSE, use_dense
    try:
        check_all(frame(data), 1)
    finally:
        ak._keys.DENSE = old


def test_mean_is_the_same_on_both_paths():
    keys = ak.array([3, 1, 2, 3, 1, 3])
    vals = ak.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
    got = []
    for d in (True, False):
        old, ak._keys.DENSE = ak._keys.DENSE, d
        try:
            got.append(ak.GroupBy(keys).mean(vals)[1].tolist())
        finally:
            ak._keys.DENSE = old
    assert got[0] == got[1] == [3.5, 3.0, 11.0 / 3]


@FEW
@given(data=st.data())
def test_two_keys_with_float_nan_key(data):
    check_all(frame(data, nkeys=2, float_key=True), 2)


@FEW
@given(data=st.data())
def test_float_key_alone(data):
    check_all(frame(data, nkeys=1, float_key=True), 1)


@pytest.mark.parametrize("n", [0, 1, 2, 3, 7])
def test_tiny_and_all_equal(n, dense):
    rng = np.random.default_rng(n)
    df = pd.DataFrame({"k0": np.full(n, 4, dtype=np.int64), "v": rng.normal(size=n), "i": rng.integers(-3, 3, n)})
    check_all(df, 1)


def test_errors_and_types(dense):
    g = ak.GroupBy(ak.array(np.array([1, 2, 1])))
    with pytest.raises(ValueError):
        g.sum(ak.arange(4))
    with pytest.raises(ValueError):
        g.aggregate(ak.arange(3), "median2")
    with pytest.raises(ValueError):
        ak.GroupBy([ak.arange(3), ak.arange(4)])
    with pytest.raises(TypeError):
        ak.GroupBy([1, 2])
    k, s = g.sum(ak.array(np.array([True, False, True])))
    assert s.dtype == np.int64 and s.tolist() == [2, 0]
    assert g.prod(ak.arange(3))[1].dtype == np.float64
    assert g.broadcast(ak.array(np.array([10, 20])), permute=False).tolist() == [10, 10, 20]
    assert g.broadcast(ak.array(np.array([10, 20]))).tolist() == [10, 20, 10]
