"""String-column Parquet kernels of ``bench/python/bench.py``:
``parquet_read_str`` and ``parquet_write_str`` of one column of ``min(n, 2^24)`` random strings
of length 1-32 (``ak.random_strings_uniform(1, 33, n, "letters")``), against, in the same run
on the same strings: pyarrow on one core (``pq.read_table(use_threads=False)`` /
``pq.write_table``: the single-core baseline, reported as ``numpy_seconds`` since NumPy has no
Parquet reader, so ``speedup_vs_numpy`` is the speedup over one core), polars and pandas
(``read_parquet``/``write_parquet``/``to_parquet``, default threading).

Every writer writes uncompressed, plain-encoded (no dictionary) Parquet; readers read the same
file, written by pyarrow (1 Mi-row groups, plain pages); Atoll's read of its own per-locale
files is ``seconds_own_files``. ``gbps`` counts the strings' bytes plus 8 bytes of offset per
string. ``ok``: every reader's strings (and every writer's file, read back by pyarrow) equal
the original strings.
"""

import glob
import os
import shutil

import atoll as ak
from bench_io import _best, _dir, _peers, _rm

MAX_N = 1 << 24


def _data(n):
    import pyarrow as pa

    n = min(n, MAX_N)
    s = ak.random_strings_uniform(1, 33, n, characters="letters", seed=23)
    words = s.to_list()
    ref = pa.array(words, type=pa.string())
    nbytes = ref.buffers()[2].size if n else 0
    return n, s, words, ref, nbytes + 8 * n


def _same(col, ref):
    """A pyarrow/polars column equals the reference strings (chunks and large_string allowed)."""
    import pyarrow as pa

    if hasattr(col, "to_arrow"):  # polars Series
        col = col.to_arrow()
    if isinstance(col, pa.ChunkedArray):
        col = col.combine_chunks()
    return len(col) == len(ref) and col.cast(pa.string()).equals(ref)


def parquet_write_str(n, reps):
    pd, pl = _peers()
    import pyarrow as pa
    import pyarrow.parquet as pq

    n, s, words, ref, nbytes = _data(n)
    d = _dir()
    try:
        prefix = os.path.join(d, "atoll")
        t = _best(lambda: ak.to_parquet({"s": s}, prefix), reps, lambda: _rm(prefix + "_LOCALE*"))
        files = sorted(glob.glob(prefix + "_LOCALE*"))
        back = pa.chunked_array([c for f in files for c in pq.read_table(f).column("s").chunks], type=pa.string())
        ok = len(files) == ak.num_locales() and _same(back, ref)
        _rm(prefix + "_LOCALE*")

        table = pa.table({"s": ref})
        pap = os.path.join(d, "pyarrow.parquet")
        t1 = _best(lambda: pq.write_table(table, pap, compression="none", use_dictionary=False), reps)
        ok = ok and _same(pq.read_table(pap).column("s"), ref)
        _rm(pap)

        df = pd.DataFrame({"s": words})
        pdp = os.path.join(d, "pandas.parquet")
        tpd = _best(lambda: df.to_parquet(pdp, compression=None), reps)
        ok = ok and _same(pq.read_table(pdp).column("s"), ref)
        _rm(pdp)
        df = None  # frees the frame before the next writer

        pf = pl.DataFrame({"s": words})
        plp = os.path.join(d, "polars.parquet")
        tpl = _best(lambda: pf.write_parquet(plp, compression="uncompressed"), reps)
        ok = ok and _same(pq.read_table(plp).column("s"), ref)
        _rm(plp)
        pf = None
    finally:
        shutil.rmtree(d, ignore_errors=True)
    return dict(
        n=n,
        seconds=t,
        numpy_seconds=t1,
        one_core="pyarrow write_table",
        polars_seconds=tpl,
        pandas_seconds=tpd,
        speedup_vs_polars=tpl / t,
        speedup_vs_pandas=tpd / t,
        codec="none",
        gbps=nbytes / t / 1e9,
        ok=bool(ok),
    )


def parquet_read_str(n, reps):
    pd, pl = _peers()
    import pyarrow as pa
    import pyarrow.parquet as pq

    n, s, words, ref, nbytes = _data(n)
    d = _dir()
    try:
        path = os.path.join(d, "data.parquet")
        pq.write_table(pa.table({"s": ref}), path, compression="none", use_dictionary=False, row_group_size=1 << 20)
        prefix = os.path.join(d, "atoll")
        ak.to_parquet({"s": s}, prefix)
        del s
        r = [None]
        t = _best(lambda: r.__setitem__(0, ak.read_parquet(path)["s"]), reps)
        ok = isinstance(r[0], ak.Strings) and r[0].to_list() == words
        r[0] = None
        t_own = _best(lambda: r.__setitem__(0, ak.read_parquet(prefix + "_LOCALE*")["s"]), reps)
        ok = ok and r[0].to_list() == words
        r[0] = None

        t1 = _best(lambda: r.__setitem__(0, pq.read_table(path, use_threads=False)), reps)
        ok = ok and _same(r[0].column("s"), ref)
        r[0] = None
        tpd = _best(lambda: r.__setitem__(0, pd.read_parquet(path)), reps)
        ok = ok and _same(pa.array(r[0]["s"]), ref)
        r[0] = None
        tpl = _best(lambda: r.__setitem__(0, pl.read_parquet(path)), reps)
        ok = ok and _same(r[0]["s"], ref)
        r[0] = None
    finally:
        shutil.rmtree(d, ignore_errors=True)
    return dict(
        n=n,
        seconds=t,
        numpy_seconds=t1,
        one_core="pyarrow read_table(use_threads=False)",
        polars_seconds=tpl,
        pandas_seconds=tpd,
        speedup_vs_polars=tpl / t,
        speedup_vs_pandas=tpd / t,
        seconds_own_files=t_own,
        codec="none",
        gbps=nbytes / t / 1e9,
        ok=bool(ok),
    )
