"""Parquet kernels of ``bench/python/bench.py``: ``parquet_read`` and ``parquet_write`` of two
columns (int64 keys, float64 values; ``--n`` rows), against, in the same run on the same data:
NumPy (``np.save``/``np.load`` of the same arrays: the single-core baseline, ``numpy_seconds``),
polars and pandas (their ``read_parquet``/``write_parquet``/``to_parquet``, default threading).

Every writer writes uncompressed Parquet (Atoll's and Arkouda's default; polars' default
would be zstd), so the lines compare the same work. Readers read the same bytes: one
file written by pyarrow (1 Mi-row groups); Atoll's read of its own per-locale files is
``seconds_own_files``. Files live in ``ATOLL_BENCH_DIR`` (a new temporary directory by
default) and are deleted after the kernel; reads are from the page cache (warm).
``ok``: every result equals NumPy's arrays.
"""

import glob
import os
import shutil
import tempfile
import time

import atoll as ak
import numpy as np


def _best(f, reps, before=None):
    t = float("inf")
    for _ in range(reps):
        if before is not None:
            before()
        t0 = time.perf_counter()
        f()
        t = min(t, time.perf_counter() - t0)
    return t


def _rm(pattern):
    for p in glob.glob(pattern):
        os.remove(p)


def _data(n):
    k = ak.randint(-(2**40), 2**40, n, seed=21)
    v = ak.uniform(n, seed=22)
    return k, v, k.to_ndarray(), v.to_ndarray()


def _dir():
    d = os.environ.get("ATOLL_BENCH_DIR")
    if d:
        d = tempfile.mkdtemp(prefix="atoll-io-", dir=d)
    else:
        d = tempfile.mkdtemp(prefix="atoll-io-")
    return d


def _peers():
    import pandas as pd
    import polars as pl

    return pd, pl


def parquet_write(n, reps):
    pd, pl = _peers()
    import pyarrow.parquet as pq

    k, v, nk, nv = _data(n)
    d = _dir()
    try:
        prefix = os.path.join(d, "atoll")
        t = _best(lambda: ak.to_parquet({"k": k, "v": v}, prefix), reps, lambda: _rm(prefix + "_LOCALE*"))
        files = sorted(glob.glob(prefix + "_LOCALE*"))
        back = [pq.read_table(f) for f in files]
        ok = (
            len(files) == ak.num_locales()
            and np.array_equal(np.concatenate([b.column("k").to_numpy() for b in back]), nk)
            and np.array_equal(np.concatenate([b.column("v").to_numpy() for b in back]), nv)
        )
        _rm(prefix + "_LOCALE*")

        npk, npv = os.path.join(d, "k.npy"), os.path.join(d, "v.npy")

        def np_write():
            np.save(npk, nk)
            np.save(npv, nv)

        tn = _best(np_write, reps)
        _rm(os.path.join(d, "*.npy"))

        df = pd.DataFrame({"k": nk, "v": nv})
        pdp = os.path.join(d, "pandas.parquet")
        tpd = _best(lambda: df.to_parquet(pdp, compression=None), reps)
        ok = ok and np.array_equal(pq.read_table(pdp).column("v").to_numpy(), nv)
        _rm(pdp)
        df = None  # frees the frame before the next writer

        pf = pl.DataFrame({"k": nk, "v": nv})
        plp = os.path.join(d, "polars.parquet")
        tpl = _best(lambda: pf.write_parquet(plp, compression="uncompressed"), reps)
        ok = ok and np.array_equal(pq.read_table(plp).column("k").to_numpy(), nk)
        _rm(plp)
        pf = None
    finally:
        shutil.rmtree(d, ignore_errors=True)
    return dict(
        seconds=t,
        numpy_seconds=tn,
        polars_seconds=tpl,
        pandas_seconds=tpd,
        speedup_vs_polars=tpl / t,
        speedup_vs_pandas=tpd / t,
        codec="none",
        gbps=16 * n / t / 1e9,
        ok=bool(ok),
    )


def parquet_read(n, reps):
    pd, pl = _peers()
    import pyarrow as pa
    import pyarrow.parquet as pq

    k, v, nk, nv = _data(n)
    d = _dir()
    try:
        path = os.path.join(d, "data.parquet")
        pq.write_table(pa.table({"k": nk, "v": nv}), path, compression="none", row_group_size=1 << 20)
        prefix = os.path.join(d, "atoll")
        ak.to_parquet({"k": k, "v": v}, prefix)
        del k, v
        r = [None]
        t = _best(lambda: r.__setitem__(0, ak.read_parquet(path)), reps)
        ok = np.array_equal(r[0]["k"].to_ndarray(), nk) and np.array_equal(r[0]["v"].to_ndarray(), nv)
        r[0] = None
        t_own = _best(lambda: r.__setitem__(0, ak.read_parquet(prefix + "_LOCALE*")), reps)
        ok = ok and np.array_equal(r[0]["k"].to_ndarray(), nk) and np.array_equal(r[0]["v"].to_ndarray(), nv)
        r[0] = None

        npk, npv = os.path.join(d, "k.npy"), os.path.join(d, "v.npy")
        np.save(npk, nk)
        np.save(npv, nv)
        tn = _best(lambda: r.__setitem__(0, (np.load(npk), np.load(npv))), reps)
        ok = ok and np.array_equal(r[0][0], nk) and np.array_equal(r[0][1], nv)
        r[0] = None

        tpd = _best(lambda: r.__setitem__(0, pd.read_parquet(path)), reps)
        ok = ok and np.array_equal(r[0]["k"].to_numpy(), nk) and np.array_equal(r[0]["v"].to_numpy(), nv)
        r[0] = None
        tpl = _best(lambda: r.__setitem__(0, pl.read_parquet(path)), reps)
        ok = ok and np.array_equal(r[0]["k"].to_numpy(), nk) and np.array_equal(r[0]["v"].to_numpy(), nv)
        r[0] = None
    finally:
        shutil.rmtree(d, ignore_errors=True)
    return dict(
        seconds=t,
        numpy_seconds=tn,
        polars_seconds=tpl,
        pandas_seconds=tpd,
        speedup_vs_polars=tpl / t,
        speedup_vs_pandas=tpd / t,
        seconds_own_files=t_own,
        codec="none",
        gbps=16 * n / t / 1e9,
        ok=bool(ok),
    )
