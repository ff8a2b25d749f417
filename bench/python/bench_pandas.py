"""The pandas-layer kernels of ``bench/python/bench.py``: ``merge`` and ``dataframe_groupby``
(``--n`` rows; the target size is 2^24) against pandas (one core: the ``numpy_seconds``
reference, NumPy having no join or group-by) and polars (its default threading), and
``hdf5_write``/``hdf5_read`` of one float64 column (``--n`` rows: 2^27 is 1 GiB) against h5py
writing/reading the same array to/from one file on one core.

Each line also reports a floor measured in the same run (``floor_seconds``, and
``fraction_of_floor`` = floor / seconds): for ``merge``, the distributed sort of the joined
keys that the join is built on; for ``dataframe_groupby``, the dense one-pass group sum of one
column; for the HDF5 kernels, writing/reading the same bytes with ``numpy.tofile``/``fromfile``
(the file system's speed from one process). ``ok`` checks the results against pandas' (the
join's rows compared after sorting both), and h5py's view of Atoll's files.
"""

import glob
import os
import shutil
import tempfile
import time

import atoll as ak
import numpy as np

KERNELS = ["merge", "dataframe_groupby", "hdf5_write", "hdf5_read"]


def _best(f, reps):
    t, r = float("inf"), None
    for _ in range(reps):
        t0 = time.perf_counter()
        r = f()
        t = min(t, time.perf_counter() - t0)
    return t, r


def _peers():
    try:
        import polars as pl
    except ImportError:  # pragma: no cover
        pl = None
    import pandas as pd

    return pd, pl


def merge(n, reps):
    """Inner join of two frames of ``n`` rows on an int64 key (keys drawn from 0..n: about n
    output rows), one float64 value column each."""
    pd, pl = _peers()
    lk, rk = ak.randint(0, n, n, seed=31), ak.randint(0, n, n, seed=32)
    lv, rv = ak.uniform(n, seed=33), ak.uniform(n, seed=34)
    left = ak.DataFrame({"k": lk, "a": lv})
    right = ak.DataFrame({"k": rk, "b": rv})
    pl_l = pd.DataFrame({"k": lk.to_ndarray(), "a": lv.to_ndarray()})
    pl_r = pd.DataFrame({"k": rk.to_ndarray(), "b": rv.to_ndarray()})
    t, got = _best(lambda: ak.merge(left, right, on="k"), reps)
    tpd, want = _best(lambda: pd.merge(pl_l, pl_r, on="k", sort=True), reps)
    tpl = None
    if pl is not None:
        a, b = pl.from_pandas(pl_l), pl.from_pandas(pl_r)
        tpl = _best(lambda: a.join(b, on="k", how="inner"), reps)[0]
    both = ak.concatenate([lk, rk])
    floor = _best(lambda: ak.argsort(both), reps)[0]
    g = got.to_pandas()
    cols = ["k", "a", "b"]
    gs = g[cols].sort_values(cols, kind="stable").to_numpy()
    ws = want[cols].sort_values(cols, kind="stable").to_numpy()
    ok = gs.shape == ws.shape and bool(np.array_equal(gs, ws))
    return dict(
        seconds=t,
        numpy_seconds=tpd,
        pandas_seconds=tpd,
        polars_seconds=tpl,
        speedup_vs_pandas=tpd / t,
        speedup_vs_polars=(tpl / t) if tpl else None,
        floor_seconds=floor,
        fraction_of_floor=floor / t,
        out_rows=int(got.shape[0]),
        ok=ok,
    )


def dataframe_groupby(n, reps):
    """``df.groupby("k").sum()`` of two float64 columns, 2^16 distinct int64 keys."""
    pd, pl = _peers()
    k = ak.randint(0, 1 << 16, n, seed=41)
    x, y = ak.uniform(n, seed=42), ak.uniform(n, seed=43)
    df = ak.DataFrame({"k": k, "x": x, "y": y})
    pdf = pd.DataFrame({"k": k.to_ndarray(), "x": x.to_ndarray(), "y": y.to_ndarray()})
    t, got = _best(lambda: df.groupby("k").sum(), reps)
    tpd, want = _best(lambda: pdf.groupby("k").sum(), reps)
    tpl = None
    if pl is not None:
        plf = pl.from_pandas(pdf)
        tpl = _best(lambda: plf.group_by("k").agg(pl.col("x").sum(), pl.col("y").sum()), reps)[0]
    floor = _best(lambda: ak.GroupBy(k).sum(x), reps)[0]
    g = got.to_pandas(retain_index=True)
    ok = bool(np.array_equal(g.index.to_numpy(), want.index.to_numpy())) and all(
        np.allclose(g[c].to_numpy(), want[c].to_numpy(), rtol=1e-9) for c in ("x", "y")
    )
    return dict(
        seconds=t,
        numpy_seconds=tpd,
        pandas_seconds=tpd,
        polars_seconds=tpl,
        speedup_vs_pandas=tpd / t,
        speedup_vs_polars=(tpl / t) if tpl else None,
        floor_seconds=floor,
        fraction_of_floor=floor / t,
        ok=ok,
    )


def _dir():
    base = os.environ.get("ATOLL_BENCH_DIR")
    return tempfile.mkdtemp(prefix="atoll-h5-", dir=base) if base else tempfile.mkdtemp(prefix="atoll-h5-")


def _rm(pattern):
    for p in glob.glob(pattern):
        os.remove(p)


def hdf5_write(n, reps):
    """``ak.to_hdf`` of ``n`` float64 values (one file per locale) against h5py writing the
    NumPy array to one file, and ``numpy.tofile`` (the floor)."""
    import h5py

    d = _dir()
    try:
        a = ak.uniform(n, seed=51)
        x = a.to_ndarray()
        prefix = os.path.join(d, "ak")

        def ours():
            ak.to_hdf({"x": a}, prefix)

        def theirs():
            with h5py.File(os.path.join(d, "h5py.h5"), "w") as f:
                f.create_dataset("x", data=x)

        t = _best(ours, reps)[0]
        th = _best(theirs, reps)[0]
        floor = _best(lambda: x.tofile(os.path.join(d, "raw.bin")), reps)[0]
        parts = []
        for f in sorted(glob.glob(prefix + "_LOCALE*")):
            with h5py.File(f, "r") as h:
                parts.append(h["x"][...])
        ok = bool(np.array_equal(np.concatenate(parts), x))
        return dict(
            seconds=t,
            numpy_seconds=th,
            h5py_seconds=th,
            speedup_vs_h5py=th / t,
            floor_seconds=floor,
            fraction_of_floor=floor / t,
            gbps=n * 8 / t / 1e9,
            ok=ok,
        )
    finally:
        shutil.rmtree(d, ignore_errors=True)


def hdf5_read(n, reps):
    """``ak.read_hdf`` of ``n`` float64 values written by Atoll (one file per locale) against
    h5py reading the same array from one file, and ``numpy.fromfile`` (the floor)."""
    import h5py

    d = _dir()
    try:
        a = ak.uniform(n, seed=52)
        x = a.to_ndarray()
        prefix = os.path.join(d, "ak")
        ak.to_hdf({"x": a}, prefix)
        with h5py.File(os.path.join(d, "h5py.h5"), "w") as f:
            f.create_dataset("x", data=x)
        x.tofile(os.path.join(d, "raw.bin"))
        t, got = _best(lambda: ak.read_hdf(prefix + "_LOCALE*", datasets="x")["x"], reps)

        def theirs():
            with h5py.File(os.path.join(d, "h5py.h5"), "r") as f:
                return f["x"][...]

        th = _best(theirs, reps)[0]
        floor = _best(lambda: np.fromfile(os.path.join(d, "raw.bin"), dtype=np.float64), reps)[0]
        ok = bool(np.array_equal(got.to_ndarray(), x))
        return dict(
            seconds=t,
            numpy_seconds=th,
            h5py_seconds=th,
            speedup_vs_h5py=th / t,
            floor_seconds=floor,
            fraction_of_floor=floor / t,
            gbps=n * 8 / t / 1e9,
            ok=ok,
        )
    finally:
        shutil.rmtree(d, ignore_errors=True)
