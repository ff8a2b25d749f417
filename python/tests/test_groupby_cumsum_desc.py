"""GroupBy.cumsum against pandas' groupby().cumsum(), and argsort/coargsort with
ascending=False against pandas' stable descending sort (NaN last, ties in index order)."""

import atoll as ak
import numpy as np
import pandas as pd
import pytest
from conftest import assert_same


@pytest.mark.parametrize("use_dense", [True, False], ids=["dense", "sort"])
@pytest.mark.parametrize("n", [0, 1, 9, 3000])
def test_groupby_cumsum(n, use_dense):
    old = ak._keys.DENSE
    ak._keys.DENSE = use_dense
    try:
        rng = np.random.default_rng(n)
        xk = rng.integers(-4, 9, n)
        xv = rng.integers(-5, 6, n).astype(np.float64)  # small integers: exact in any order
        xv[rng.random(n) < 0.1] = np.nan
        xi = rng.integers(-(1 << 40), 1 << 40, n)
        g = ak.GroupBy(ak.array(xk))
        ps = pd.DataFrame({"k": xk, "v": xv, "i": xi}).groupby("k")
        assert_same(g.cumsum(ak.array(xv)), ps["v"].cumsum().to_numpy(dtype=np.float64))
        assert_same(g.cumsum(ak.array(xi)), ps["i"].cumsum().to_numpy(dtype=np.int64))
        assert_same(
            g.cumsum(ak.array(xi > 0)),
            pd.Series((xi > 0).astype(np.int64)).groupby(xk).cumsum().to_numpy(dtype=np.int64),
        )
        want = ps["v"].cumsum(skipna=False).to_numpy(dtype=np.float64) if n else np.zeros(0)
        assert_same(g.cumsum(ak.array(xv), skipna=False), want)
    finally:
        ak._keys.DENSE = old


def test_groupby_cumsum_two_keys_and_nan_keys():
    rng = np.random.default_rng(3)
    n = 500
    k0 = rng.integers(0, 3, n)
    k1 = rng.choice(np.array([np.nan, -0.0, 0.0, 1.5]), n)
    v = rng.integers(-3, 4, n).astype(np.int64)
    g = ak.GroupBy([ak.array(k0), ak.array(k1)])
    want = pd.DataFrame({"a": k0, "b": k1, "v": v}).groupby(["a", "b"])["v"].cumsum()
    got = g.cumsum(ak.array(v)).to_ndarray()
    keep = ~np.isnan(k1)  # rows of a NaN key (dropped): pandas gives NaN, here 0
    np.testing.assert_array_equal(got[keep], want.to_numpy()[keep])
    assert (got[~keep] == 0).all()


@pytest.mark.parametrize("dtype", [np.int64, np.uint64, np.float64, bool])
def test_argsort_descending(dtype):
    rng = np.random.default_rng(7)
    n = 2000
    if dtype is np.float64:
        x = rng.choice(np.array([np.nan, -0.0, 0.0, 1.5, -2.0, np.inf, -np.inf]), n)
    elif dtype is bool:
        x = rng.random(n) < 0.5
    else:
        x = rng.integers(0, 50, n).astype(dtype)
        if dtype is np.int64:
            x[::11] = np.iinfo(np.int64).min
            x[::13] = np.iinfo(np.int64).max
        else:
            x[::11] = np.iinfo(np.uint64).max
    a = ak.array(x)
    want = pd.Series(x).sort_values(ascending=False, kind="stable").index.to_numpy()
    assert_same(ak.argsort(a, ascending=False), want.astype(np.int64))
    assert_same(ak.argsort(a), np.argsort(x, kind="stable"))


def test_coargsort_descending():
    rng = np.random.default_rng(8)
    n = 1500
    x, y = rng.integers(-3, 3, n), rng.choice(np.array([np.nan, 0.5, -1.0, 2.0]), n)
    want = pd.DataFrame({"x": x, "y": y}).sort_values(["x", "y"], ascending=False, kind="stable").index.to_numpy()
    assert_same(ak.coargsort([ak.array(x), ak.array(y)], ascending=False), want.astype(np.int64))
    assert_same(ak.argsort(ak.zeros(0, ak.int64), ascending=False), np.zeros(0, np.int64))
