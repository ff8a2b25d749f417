"""The analytics kernels of ``bench/python/bench.py``: ``argsort``, ``coargsort``
(2 keys), ``unique``, ``in1d``, ``groupby_sum`` (2^16 distinct int64 keys, float64 values).

Each times Atoll and, on the same data in the same run, NumPy's equivalent (stable argsort,
``lexsort``, ``unique``, ``isin``, a ``bincount``-based group sum), polars' and pandas' (their
default threading); ``ok`` checks Atoll's result against NumPy's. polars and pandas are
optional: a missing one gives ``null`` speedups and a note."""

import time

import atoll as ak
import numpy as np

KERNELS = ["argsort", "coargsort", "unique", "in1d", "groupby_sum"]


def _best(f, reps):
    t = float("inf")
    r = None
    for _ in range(reps):
        t0 = time.perf_counter()
        r = f()
        t = min(t, time.perf_counter() - t0)
    return t, r


def _peers():
    try:
        import polars as pl
    except ImportError:
        pl = None
    try:
        import pandas as pd
    except ImportError:
        pd = None
    return pl, pd


def _result(t, tn, tpl, tpd, ok, **extra):
    r = dict(
        seconds=t,
        numpy_seconds=tn,
        polars_seconds=tpl,
        pandas_seconds=tpd,
        speedup_vs_polars=(tpl / t) if tpl else None,
        speedup_vs_pandas=(tpd / t) if tpd else None,
        ok=ok,
    )
    r.update(extra)
    return r


def argsort(n, reps):
    pl, pd = _peers()
    a = ak.randint(0, 2**32, n, seed=11)
    x = a.to_ndarray()
    t, perm = _best(lambda: ak.argsort(a), reps)
    tn, want = _best(lambda: np.argsort(x, kind="stable"), reps)
    tpl = _best(lambda: pl.Series(x).arg_sort(), reps)[0] if pl else None
    tpd = _best(lambda: pd.Series(x).argsort(kind="stable"), reps)[0] if pd else None
    return _result(t, tn, tpl, tpd, bool(np.array_equal(perm.to_ndarray(), want)))


def coargsort(n, reps):
    pl, pd = _peers()
    a, b = ak.randint(0, 2**16, n, seed=12), ak.randint(0, 2**32, n, seed=13)
    x, y = a.to_ndarray(), b.to_ndarray()
    t, perm = _best(lambda: ak.coargsort([a, b]), reps)
    tn, want = _best(lambda: np.lexsort([y, x]), reps)
    tpl = tpd = None
    if pl:
        df = pl.DataFrame({"a": x, "b": y})
        tpl = _best(lambda: df.select(pl.arg_sort_by(["a", "b"], maintain_order=True)), reps)[0]
    if pd:
        pdf = pd.DataFrame({"a": x, "b": y})
        tpd = _best(lambda: pdf.sort_values(["a", "b"], kind="stable").index, reps)[0]
    return _result(t, tn, tpl, tpd, bool(np.array_equal(perm.to_ndarray(), want)))


def unique(n, reps):
    pl, pd = _peers()
    a = ak.randint(0, 2**20, n, seed=14)
    x = a.to_ndarray()
    t, u = _best(lambda: ak.unique(a), reps)
    tn, want = _best(lambda: np.unique(x), reps)
    # The peers' hash-based unique (unsorted): their fastest way to the distinct values.
    tpl = _best(lambda: pl.Series(x).unique(), reps)[0] if pl else None
    tpd = _best(lambda: pd.unique(x), reps)[0] if pd else None
    return _result(t, tn, tpl, tpd, bool(np.array_equal(u.to_ndarray(), want)))


def in1d(n, reps):
    pl, pd = _peers()
    a, b = ak.randint(0, 2**24, n, seed=15), ak.randint(0, 2**24, n // 8, seed=16)
    x, y = a.to_ndarray(), b.to_ndarray()
    t, m = _best(lambda: ak.in1d(a, b), reps)
    tn, want = _best(lambda: np.isin(x, y), reps)
    tpl = _best(lambda: pl.Series(x).is_in(pl.Series(y)), reps)[0] if pl else None
    tpd = _best(lambda: pd.Series(x).isin(y), reps)[0] if pd else None
    return _result(t, tn, tpl, tpd, bool(np.array_equal(m.to_ndarray(), want)), size2=n // 8)


def groupby_sum(n, reps):
    pl, pd = _peers()
    k, v = ak.randint(0, 2**16, n, seed=17), ak.uniform(n, seed=18)
    xk, xv = k.to_ndarray(), v.to_ndarray()

    def run():
        return ak.GroupBy(k).sum(v)

    t, (keys, sums) = _best(run, reps)
    tn, want = _best(lambda: np.bincount(xk, weights=xv), reps)
    tpl = tpd = None
    if pl:
        df = pl.DataFrame({"k": xk, "v": xv})
        tpl = _best(lambda: df.group_by("k").agg(pl.col("v").sum()), reps)[0]
    if pd:
        s = pd.Series(xv)
        tpd = _best(lambda: s.groupby(xk).sum(), reps)[0]
    present = np.flatnonzero(np.bincount(xk))
    ok = bool(
        np.array_equal(keys.to_ndarray(), present)
        and np.allclose(sums.to_ndarray(), want[present], rtol=1e-9, atol=1e-9)
    )
    return _result(t, tn, tpl, tpd, ok, groups=int(present.size))


def chart(rows, path):
    """One PNG: the speedups of Atoll over NumPy, polars and pandas per kernel (log scale)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = [r["bench"] for r in rows]
    peers = [("speedup_vs_numpy", "NumPy"), ("speedup_vs_polars", "polars"), ("speedup_vs_pandas", "pandas")]
    fig, ax = plt.subplots(figsize=(1.6 * len(names) + 2, 4))
    w = 0.8 / len(peers)
    for j, (key, label) in enumerate(peers):
        vals = [r.get(key) or 0.0 for r in rows]
        ax.bar([i + (j - 1) * w for i in range(len(names))], vals, w, label=label)
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_yscale("log")
    ax.set_xticks(range(len(names)), names)
    ax.set_ylabel("speedup of Atoll (x)")
    r0 = rows[0]
    ax.set_title(f"Atoll ({r0['backend']}, {r0['locales']} locales), n = {r0['n']}")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
