"""The uncounted float64 sum of the dense GroupBy path (``atoll_ops::dense_aggregate_values``:
one float per key, no rows per key, the keys with rows being those whose sum is not -0.0)
against pandas and NumPy: the first call on a fresh GroupBy, then ``size``/``count``; groups of NaN or -0.0 values only (present, sum 0.0);
absent keys inside the range; keys growing the range in the middle of a task, at
various lengths; negative keys; empty and shorter-than-locales arrays."""

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


def _check(xk, xv):
    pg = pd.Series(xv).groupby(xk, sort=True)
    want_keys = np.unique(xk)
    g = ak.GroupBy(ak.array(xk))
    keys, s = g.sum(ak.array(xv))
    assert_same(keys, want_keys)
    assert_same(s, pg.sum().to_numpy() if xk.size else np.zeros(0), exact=False)
    # Bit for bit: a group of -0.0/NaN values only sums to +0.0 (as the sort path).
    assert not np.signbit(s.to_ndarray()[s.to_ndarray() == 0]).any()
    # size/count still right after a sum that did not count the rows.
    assert_same(g.size()[1], pg.size().to_numpy().astype(np.int64) if xk.size else np.zeros(0, np.int64))
    assert_same(g.count(ak.array(xv))[1], pg.count().to_numpy().astype(np.int64) if xk.size else np.zeros(0, np.int64))
    assert_same(g.sum(ak.array(xv))[1], s.to_ndarray())
    assert_same(g.unique_keys, want_keys)


@pytest.mark.parametrize("n", [1023, 1024, 1025, 4097])
def test_block_boundaries_and_growth_mid_block(n):
    rng = np.random.default_rng(n)
    xk = rng.integers(0, 50, n)
    # Keys that grow the range both ways in the middle of blocks.
    xk[n // 2] = -700
    xk[n // 3 + 5] = 900
    xk[-1] = 1 << 14
    xv = rng.normal(size=n)
    _check(xk, xv)


def test_nan_and_negative_zero_only_groups_and_absent_keys():
    rng = np.random.default_rng(3)
    n = 30_000
    xk = rng.integers(-200, 200, n) * 2  # odd keys absent inside the range
    xv = rng.normal(size=n)
    xv[xk % 10 == 0] = np.nan
    xv[xk % 14 == 0] = -0.0
    xv[rng.integers(0, n, 300)] = np.nan
    _check(xk, xv)


def test_every_key_present_like_the_benchmark():
    rng = np.random.default_rng(4)
    n = 1 << 18
    xk, xv = rng.integers(0, 1 << 12, n), rng.random(n)
    _check(xk, xv)
    np.testing.assert_allclose(
        ak.GroupBy(ak.array(xk)).sum(ak.array(xv))[1].to_ndarray(), np.bincount(xk, weights=xv), rtol=1e-12
    )


def test_empty_and_shorter_than_locales():
    _check(np.array([5], dtype=np.int64), np.array([np.nan]))
    _check(np.array([-9, 4], dtype=np.int64), np.array([-0.0, 2.5]))
    _check(np.zeros(0, np.int64), np.zeros(0))
