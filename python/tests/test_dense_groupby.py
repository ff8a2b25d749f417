"""The one-pass dense path of GroupBy and unique (``atoll_ops::dense_aggregate``) against
pandas and NumPy: enough rows for several tasks per locale, keys whose range the kernel
finds itself (negative, offset), keys spanning more than the limit (the sort path takes
over, same results), and the sort state computed lazily after a dense aggregation."""

import atoll as ak
import numpy as np
import pandas as pd
import pytest
from conftest import assert_same


@pytest.fixture(autouse=True)
def dense_on():
    old = ak._keys.DENSE
    ak._keys.DENSE = True
    yield
    ak._keys.DENSE = old


def _check(xk, xv, xi):
    k, v, i = ak.array(xk), ak.array(xv), ak.array(xi)
    df = pd.DataFrame({"k": xk, "v": xv, "i": xi})
    pg = df.groupby("k", sort=True)
    g = ak.GroupBy(k)
    keys, s = g.sum(v)
    assert_same(keys, pg.size().index.to_numpy(), exact=True)
    assert_same(s, pg["v"].sum().to_numpy(), exact=False)
    assert_same(g.sum(i)[1], pg["i"].sum().to_numpy())
    assert_same(g.count(v)[1], pg["v"].count().to_numpy().astype(np.int64))
    assert_same(g.mean(v)[1], pg["v"].mean().to_numpy(), exact=False)
    assert_same(g.mean(i)[1], pg["i"].mean().to_numpy(), exact=False)
    assert_same(g.min(v)[1], pg["v"].min().to_numpy())
    assert_same(g.max(i)[1], pg["i"].max().to_numpy())
    assert_same(g.size()[1], pg.size().to_numpy().astype(np.int64))
    assert_same(g.sum(i > 0)[1], pg["i"].agg(lambda s: int((s > 0).sum())).to_numpy().astype(np.int64))
    # The sort state, asked for after the dense aggregations: a stable grouping permutation.
    assert_same(g.permutation, np.argsort(xk, kind="stable"))
    u, c = ak.value_counts(k)
    wu, wc = np.unique(xk, return_counts=True)
    assert_same(u, wu)
    assert_same(c, wc)
    assert_same(ak.unique(k), wu)


def test_many_rows_offset_negative_keys():
    rng = np.random.default_rng(5)
    n = 150_000
    xk = rng.integers(-3000, 3000, n) * 3 - 7
    xv = rng.normal(size=n)
    xv[rng.integers(0, n, 500)] = np.nan
    _check(xk, xv, rng.integers(-50, 50, n))


def test_keys_beyond_the_limit_take_the_sort_path():
    rng = np.random.default_rng(6)
    n = 5000
    # A range of 2^40 > the limit (max(2^16, rows)): dense_aggregate declines, the sort runs.
    xk = rng.choice(np.array([0, 3, 1 << 40, -(1 << 20)], dtype=np.int64), n)
    xv = rng.normal(size=n)
    xv[::7] = np.nan
    _check(xk, xv, rng.integers(-5, 5, n))
    # Within the limit but wider than a first table: the tables grow.
    xk2 = np.concatenate([rng.integers(0, 60_000, n), np.array([-5000, 70_000])])
    rng.shuffle(xk2)
    _check(xk2, rng.normal(size=xk2.size), rng.integers(-5, 5, xk2.size))


def test_skipna_false_and_unsupported_ops_still_right():
    xk = np.array([2, 1, 2, 1, 3], dtype=np.int64)
    xv = np.array([1.0, np.nan, 2.0, 4.0, np.nan])
    g = ak.GroupBy(ak.array(xk))
    pg = pd.Series(xv).groupby(xk)
    assert_same(g.sum(ak.array(xv), skipna=False)[1], pg.sum(skipna=False).to_numpy(), exact=False)
    assert_same(g.prod(ak.array(xv))[1], pg.prod().to_numpy(), exact=False)
    assert_same(g.unique_keys, np.array([1, 2, 3]))
