"""A user's Arkouda script runs unchanged after ``import atoll as ak``: the body of
``arkouda_script`` is written the way an Arkouda tutorial writes it (``ak.connect()``, Arkouda's
names, keywords and return shapes only, nothing specific to Atoll); the test checks everything
it computed against NumPy on the same data."""

import atoll as ak
import numpy as np


def arkouda_script(n):
    # --- begin: an Arkouda script, verbatim ---
    ak.connect()
    keys = ak.randint(0, 100, n, seed=7)
    vals = ak.uniform(n, low=-1.0, high=1.0, seed=8)
    idx = ak.arange(0, n, 3)
    out = {}
    out["keys"], out["vals"] = keys, vals
    out["expr"] = (vals * 2.0 + keys) / 3
    out["pos"] = vals[vals > 0]
    out["picked"] = vals[idx]
    filled = ak.zeros(n, dtype=ak.float64)
    filled[idx] = vals[idx]
    out["filled"] = filled
    out["where"] = ak.where(keys % 2 == 0, vals, -vals)
    out["cumsum"] = ak.cumsum(keys)
    out["stats"] = (ak.sum(keys), ak.min(vals), ak.max(vals), ak.argmin(vals), ak.argmax(vals), vals.mean(), vals.std())
    perm = ak.argsort(keys)
    out["sorted"] = keys[perm]
    out["is_sorted"] = ak.is_sorted(keys[perm])
    out["unique"] = ak.unique(keys, return_counts=True)
    out["value_counts"] = ak.value_counts(keys)
    out["in1d"] = ak.in1d(keys, ak.array([3, 5, 7]))
    g = ak.GroupBy(keys)
    out["group_sum"] = g.sum(vals)
    out["group_max"] = g.max(vals)
    out["group_size"] = g.size()
    out["group_count"] = g.count(vals)
    out["first"] = keys[:5].to_ndarray()
    ak.disconnect()
    # --- end ---
    return out


def test_an_arkouda_script_runs_unchanged():
    n = 10_007
    r = arkouda_script(n)
    k, v = r["keys"].to_ndarray(), r["vals"].to_ndarray()
    assert k.min() >= 0 and k.max() < 100 and v.min() >= -1.0 and v.max() < 1.0
    idx = np.arange(0, n, 3)
    np.testing.assert_allclose(r["expr"].to_ndarray(), (v * 2.0 + k) / 3, rtol=1e-15)
    np.testing.assert_array_equal(r["pos"].to_ndarray(), v[v > 0])
    np.testing.assert_array_equal(r["picked"].to_ndarray(), v[idx])
    want = np.zeros(n)
    want[idx] = v[idx]
    np.testing.assert_array_equal(r["filled"].to_ndarray(), want)
    np.testing.assert_array_equal(r["where"].to_ndarray(), np.where(k % 2 == 0, v, -v))
    np.testing.assert_array_equal(r["cumsum"].to_ndarray(), np.cumsum(k))
    s, mn, mx, amn, amx, mean, std = r["stats"]
    assert s == k.sum() and mn == v.min() and mx == v.max() and amn == v.argmin() and amx == v.argmax()
    np.testing.assert_allclose([mean, std], [v.mean(), v.std()], rtol=1e-9)
    np.testing.assert_array_equal(r["sorted"].to_ndarray(), np.sort(k, kind="stable"))
    assert r["is_sorted"]
    uk, uc = np.unique(k, return_counts=True)
    for got in (r["unique"], r["value_counts"]):
        np.testing.assert_array_equal(got[0].to_ndarray(), uk)
        np.testing.assert_array_equal(got[1].to_ndarray(), uc)
    np.testing.assert_array_equal(r["in1d"].to_ndarray(), np.isin(k, [3, 5, 7]))
    gk, gs = r["group_sum"]
    np.testing.assert_array_equal(gk.to_ndarray(), uk)
    np.testing.assert_allclose(gs.to_ndarray(), np.bincount(k, weights=v)[uk], rtol=1e-9, atol=1e-12)
    gk, gm = r["group_max"]
    np.testing.assert_array_equal(gm.to_ndarray(), [v[k == key].max() for key in uk])
    for name in ("group_size", "group_count"):
        gk, gc = r[name]
        np.testing.assert_array_equal(gk.to_ndarray(), uk)
        np.testing.assert_array_equal(gc.to_ndarray(), uc)
    np.testing.assert_array_equal(r["first"], k[:5])
