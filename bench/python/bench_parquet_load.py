"""Loading a db-benchmark G1-shaped Parquet table into a frame with categorical keys: Atoll
(strings then ``Categorical``, and ``read_parquet(categorical=...)`` straight from the
dictionary), polars and pandas, on the same file in the same run.

    ATOLL_LOCALES=2 .venv/bin/python bench/python/bench_parquet_load.py [--rows N] [--path FILE]

The table: id1, id2 ("id001".."id100"), id3 ("id0000000001".., N/100 values) as dictionary
string columns; id4, id5 (1..100), id6 (1..N/100) int32; v1 (1..5), v2 (1..15) int32; v3
float64 (0..100, six decimals). pyarrow writes it (snappy, its default row groups).
"""

import argparse
import os
import time

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

KEYS = ["id1", "id2", "id3"]


def make_table(n, seed=108):
    """A G1-shaped table of ``n`` rows (the keys as dictionary string columns)."""
    rng = np.random.default_rng(seed)
    k = 100
    nk = max(n // k, 1)

    def dict_col(fmt, m):
        labels = pa.array([fmt % (i + 1) for i in range(m)], pa.string())
        idx = pa.array(rng.integers(0, m, n).astype(np.int32))
        return pa.DictionaryArray.from_arrays(idx, labels)

    return pa.table(
        {
            "id1": dict_col("id%03d", k),
            "id2": dict_col("id%03d", k),
            "id3": dict_col("id%010d", nk),
            "id4": pa.array(rng.integers(1, k + 1, n).astype(np.int32)),
            "id5": pa.array(rng.integers(1, k + 1, n).astype(np.int32)),
            "id6": pa.array(rng.integers(1, nk + 1, n).astype(np.int32)),
            "v1": pa.array(rng.integers(1, 6, n).astype(np.int32)),
            "v2": pa.array(rng.integers(1, 16, n).astype(np.int32)),
            "v3": pa.array(np.round(rng.uniform(0, 100, n), 6)),
        }
    )


def timed(label, fn, results):
    t = time.perf_counter()
    out = fn()
    results.append((label, time.perf_counter() - t))
    print(f"{label:<58s} {results[-1][1]:8.3f} s", flush=True)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=10**7)
    ap.add_argument("--path", default="/tmp/atoll_bench_g1.parquet")
    ap.add_argument("--skip", default="", help="comma-separated: old,parts,new,polars,pandas")
    args = ap.parse_args()
    skip = set(filter(None, args.skip.split(",")))
    if not os.path.exists(args.path) or pq.ParquetFile(args.path).metadata.num_rows != args.rows:
        t = time.perf_counter()
        pq.write_table(make_table(args.rows), args.path)
        print(f"wrote {args.path} ({args.rows} rows) in {time.perf_counter() - t:.1f} s")
    md = pq.ParquetFile(args.path).metadata
    print(f"{md.num_rows} rows, {md.num_row_groups} row groups, {os.path.getsize(args.path) / 2**20:.0f} MiB")

    import atoll as ak

    print(f"atoll: {os.environ.get('ATOLL_BACKEND', 'local')} backend, {ak.get_config()['numLocales']} locales")
    res = []
    if "old" not in skip:
        d = timed("atoll: read_parquet (keys as Strings)", lambda: ak.read_parquet(args.path), res)
        df = timed("atoll: DataFrame", lambda: ak.DataFrame(d), res)
        for c in KEYS:
            df[c] = timed(f"atoll: Categorical({c})", lambda c=c: ak.Categorical(df[c]), res)
        print(f"{'atoll: total, strings then Categorical':<58s} {sum(t for _, t in res):8.3f} s")
        del d, df
    if "parts" not in skip:
        # Where a read's time goes: the numeric columns alone, the key columns alone as Strings.
        nums = ["id4", "id5", "id6", "v1", "v2", "v3"]
        timed("atoll (profile): read_parquet of the 6 numeric columns", lambda: ak.read_parquet(args.path, nums), [])
        timed("atoll (profile): read_parquet of the 3 keys as Strings", lambda: ak.read_parquet(args.path, KEYS), [])
    if "new" not in skip:
        t0 = len(res)
        d = timed("atoll: read_parquet(categorical=keys)", lambda: ak.read_parquet(args.path, categorical=KEYS), res)
        df = timed("atoll: DataFrame", lambda: ak.DataFrame(d), res)
        print(f"{'atoll: total, categorical read':<58s} {sum(t for _, t in res[t0:]):8.3f} s")
        del d, df
    if "polars" not in skip:
        import polars as pl

        timed("polars: read_parquet", lambda: pl.read_parquet(args.path), res)
    if "pandas" not in skip:
        import pandas as pd

        timed("pandas: read_parquet (keys categorical)", lambda: pd.read_parquet(args.path), res)


if __name__ == "__main__":
    main()
