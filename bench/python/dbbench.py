"""The db-benchmark's questions (duckdblabs/db-benchmark: 10 groupby questions on G1, 5 join
questions on J1) through Atoll's DataFrame API, polars, DuckDB and pandas, on the same data.

    python bench/python/dbbench_data.py --n 1e6 --out DIR
    python bench/python/dbbench.py --data DIR --systems atoll,polars,duckdb,pandas \
        [--questions groupby,join] [--locales 2] [--jsonl FILE]

Each system runs in its own subprocess (one per task: groupby, join), so that its load time
and peak resident memory (`ru_maxrss`) are its own. Each question runs twice, as in the
benchmark; a run's time covers the answer and its check values (`chk`: the sums of the
answer's value columns, NaN skipped, as the benchmark's), so that work an engine defers is
inside the time. A line is `ok` when its chk agrees, within float tolerance, with the chk of
every peer that answered (for Atoll: polars and DuckDB).

Atoll's questions are written as pandas users write them (the benchmark's pandas script).
When such a call fails, the error is recorded as `unsupported`, and the question is answered
by the call Arkouda's documentation offers when there is one (`"variant": "arkouda"`).

The copy ceiling: a NumPy copy of a 512 MiB float64 array (best of 3), in GB/s (bytes of the
array over the copy's time). Each line reports `stream_s`, the time to stream the question's
input columns once at that rate (8 bytes a value), and `stream_fraction` = stream_s over the
faster of the two runs.
"""

from __future__ import annotations

import argparse
import gc
import glob
import json
import math
import os
import resource
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

GROUPBY = [
    ("q1", "sum v1 by id1", ["id1", "v1"]),
    ("q2", "sum v1 by id1:id2", ["id1", "id2", "v1"]),
    ("q3", "sum v1 mean v3 by id3", ["id3", "v1", "v3"]),
    ("q4", "mean v1:v3 by id4", ["id4", "v1", "v2", "v3"]),
    ("q5", "sum v1:v3 by id6", ["id6", "v1", "v2", "v3"]),
    ("q6", "median v3 sd v3 by id4 id5", ["id4", "id5", "v3"]),
    ("q7", "max v1 - min v2 by id3", ["id3", "v1", "v2"]),
    ("q8", "largest two v3 by id6", ["id6", "v3"]),
    ("q9", "regression v1 v2 by id2 id4", ["id2", "id4", "v1", "v2"]),
    ("q10", "sum v3 count by id1:id6", ["id1", "id2", "id3", "id4", "id5", "id6", "v1", "v3"]),
]
# (id, question, right table, the columns streamed: all of x's and the right table's)
JOIN = [
    ("j1", "small inner on int", "small"),
    ("j2", "medium inner on int", "medium"),
    ("j3", "medium outer on int", "medium"),
    ("j4", "medium inner on factor", "medium"),
    ("j5", "big inner on int", "big"),
]
J1_COLS = {"x": 7, "small": 3, "medium": 5, "big": 7}
PEERS = ("polars", "duckdb")


# ---------------------------------------------------------------------------------------------
# Data files


def find_data(data_dir):
    """(G1 path or None, J1 role -> path or None) of the tables in `data_dir`."""
    from dbbench_data import j1_names

    g1 = sorted(glob.glob(os.path.join(data_dir, "G1_*.parquet")))
    xs = sorted(glob.glob(os.path.join(data_dir, "J1_*_NA_*.parquet")))
    j1 = None
    if xs:
        parts = os.path.basename(xs[0])[: -len(".parquet")].split("_")
        n = _unsci(parts[1])
        names = j1_names(n, int(parts[3]), parts[4] == "1")
        j1 = {r: os.path.join(data_dir, nm + ".parquet") for r, nm in names.items()}
    return (g1[0] if g1 else None), j1


def _unsci(s):
    if "e" in s:
        a, b = s.split("e")
        return int(a) * 10 ** int(b)
    return int(s)


def nrows(path):
    import pyarrow.parquet as pq

    return pq.ParquetFile(path).metadata.num_rows


# ---------------------------------------------------------------------------------------------
# Atoll: the pandas user's calls, and Arkouda's where pandas' fail


def atoll_load_g1(path):
    import atoll as ak

    # The file's dictionary columns read straight into Categoricals (no sort of the rows).
    return ak.DataFrame(ak.read_parquet(path, categorical=["id1", "id2", "id3"]))


def atoll_load_j1(paths):
    import atoll as ak

    return {r: ak.DataFrame(ak.read_parquet(p)) for r, p in paths.items()}


def _atoll_pandas_groupby(x, q):
    """The benchmark's pandas calls, word for word (its groupby keywords: as_index=False,
    sort=False, observed=True, dropna=False), as a pandas user writes them. Where pandas' own
    call cannot be followed, the pandas call closest to it (each says why):
    q6: a list of operations gives flat column names ("v3_median"), not pandas' two levels.
    q8 and q9 are the benchmark's own words (a column is a pdarray, which has pandas'
    `isna` and a `corr`); q9's `apply` calls the function once a group, in Python, and its
    answer is renamed by `rename({None: "r2"}, axis=1)` (DataFrame.rename takes Arkouda's
    `column=`, not pandas' `columns=`)."""
    kw = dict(as_index=False, sort=False, observed=True, dropna=False)
    if q == "q1":
        return x.groupby("id1", **kw).agg({"v1": "sum"})
    if q == "q2":
        return x.groupby(["id1", "id2"], **kw).agg({"v1": "sum"})
    if q == "q3":
        return x.groupby("id3", **kw).agg({"v1": "sum", "v3": "mean"})
    if q == "q4":
        return x.groupby("id4", **kw).agg({"v1": "mean", "v2": "mean", "v3": "mean"})
    if q == "q5":
        return x.groupby("id6", **kw).agg({"v1": "sum", "v2": "sum", "v3": "sum"})
    if q == "q6":
        return x.groupby(["id4", "id5"], **kw).agg({"v3": ["median", "std"]})
    if q == "q7":
        return (
            x.groupby("id3", **kw)
            .agg({"v1": "max", "v2": "min"})
            .assign(range_v1_v2=lambda d: d["v1"] - d["v2"])[["id3", "range_v1_v2"]]
        )
    if q == "q8":
        return x[~x["v3"].isna()][["id6", "v3"]].sort_values("v3", ascending=False).groupby("id6", **kw).head(2)
    if q == "q9":
        return (
            x[["id2", "id4", "v1", "v2"]]
            .groupby(["id2", "id4"], **kw)
            .apply(lambda d: d["v1"].corr(d["v2"]) ** 2, include_groups=False)
            .rename({None: "r2"}, axis=1)
        )
    if q == "q10":
        return x.groupby(["id1", "id2", "id3", "id4", "id5", "id6"], **kw).agg({"v3": "sum", "v1": "size"})
    raise KeyError(q)


def _frame(keys, parts):
    """A DataFrame of the key columns of the first part and the named value columns."""
    import atoll as ak

    first = parts[0][0]
    out = {k: first[k] for k in keys} if all(k in first.columns for k in keys) else {}
    for df, src, dst in (p for p in parts):
        out[dst] = df[src]
    return ak.DataFrame(out) if out else None


def _atoll_arkouda_groupby(x, q):
    """Arkouda's documented calls (DataFrameGroupBy.sum/mean/median/std/max/min/size/head):
    one aggregation per call over a GroupBy built once. None where Arkouda offers none."""
    import atoll as ak

    if q == "q1":
        return x.groupby("id1", as_index=False).sum("v1")
    if q == "q2":
        return x.groupby(["id1", "id2"], as_index=False).sum("v1")
    if q == "q3":
        g = x.groupby("id3", as_index=False)
        s, m = g.sum("v1"), g.mean("v3")
        return ak.DataFrame({"id3": g.unique_keys, "v1": s["v1"], "v3": m["v3"]})
    if q == "q4":
        return x.groupby("id4", as_index=False).mean(["v1", "v2", "v3"])
    if q == "q5":
        return x.groupby("id6", as_index=False).sum(["v1", "v2", "v3"])
    if q == "q6":
        g = x.groupby(["id4", "id5"], as_index=False)
        med, sd = g.median("v3"), g.std("v3")
        return ak.DataFrame({"id4": med["id4"], "id5": med["id5"], "v3_median": med["v3"], "v3_std": sd["v3"]})
    if q == "q7":
        g = x.groupby("id3", as_index=False)
        mx, mn = g.max("v1"), g.min("v2")
        return ak.DataFrame({"id3": g.unique_keys, "range_v1_v2": mx["v1"] - mn["v2"]})
    if q == "q8":
        return x[~ak.isnan(x["v3"])][["id6", "v3"]].sort_values("v3", ascending=False).groupby("id6").head(2)
    if q == "q10":
        keys = ["id1", "id2", "id3", "id4", "id5", "id6"]
        g = x.groupby(keys, as_index=False)
        s, n = g.sum("v3"), g.size()
        out = {k: s[k] for k in keys}
        out["v3"] = s["v3"]
        out["v1"] = n["size"]
        return ak.DataFrame(out)
    return None


def _atoll_join(t, q):
    x = t["x"]
    if q == "j1":
        return x.merge(t["small"], on="id1")
    if q == "j2":
        return x.merge(t["medium"], on="id2")
    if q == "j3":
        return x.merge(t["medium"], how="left", on="id2")
    if q == "j4":
        return x.merge(t["medium"], on="id5")
    if q == "j5":
        return x.merge(t["big"], on="id3")
    raise KeyError(q)


def atoll_value_columns(ans, q):
    """The value columns the benchmark sums for question q, in its order."""
    return {
        "q1": ["v1"],
        "q2": ["v1"],
        "q3": ["v1", "v3"],
        "q4": ["v1", "v2", "v3"],
        "q5": ["v1", "v2", "v3"],
        "q6": ["v3_median", "v3_std"],
        "q7": ["range_v1_v2"],
        "q8": ["v3"],
        "q9": ["r2"],
        "q10": ["v3", "v1"],
    }.get(q, ["v1", "v2"])


def atoll_chk(ans, q):
    """The sums of the answer's value columns, NaN skipped (as pandas' Series.sum, which the
    benchmark's chk is: Atoll's column sum counts NaN, so they are taken out first)."""
    import atoll as ak

    out = []
    for c in atoll_value_columns(ans, q):
        v = ans[c]
        if v.dtype == ak.float64:
            v = v[~ak.isnan(v)]
        out.append(float(v.sum()))
    return out


def atoll_answer(tables, q, variant):
    """The answer of question q (variant 'pandas' or 'arkouda'); raises as the calls do."""
    if q.startswith("j"):
        return _atoll_join(tables, q)
    if variant == "pandas":
        return _atoll_pandas_groupby(tables, q)
    ans = _atoll_arkouda_groupby(tables, q)
    if ans is None:
        raise NotImplementedError(f"{q}: Arkouda's documentation offers no call for it")
    return ans


# ---------------------------------------------------------------------------------------------
# polars


def polars_load_g1(path):
    import polars as pl

    return pl.read_parquet(path)  # id1..id3: Categorical (the file's dictionary columns)


def polars_load_j1(paths):
    import polars as pl

    return {r: pl.read_parquet(p) for r, p in paths.items()}


def polars_answer(t, q):
    import polars as pl

    c = pl.col
    if q == "q1":
        return t.group_by("id1").agg(c("v1").sum())
    if q == "q2":
        return t.group_by(["id1", "id2"]).agg(c("v1").sum())
    if q == "q3":
        return t.group_by("id3").agg(c("v1").sum(), c("v3").mean())
    if q == "q4":
        return t.group_by("id4").agg(c("v1").mean(), c("v2").mean(), c("v3").mean())
    if q == "q5":
        return t.group_by("id6").agg(c("v1").sum(), c("v2").sum(), c("v3").sum())
    if q == "q6":
        return t.group_by(["id4", "id5"]).agg(c("v3").median().alias("v3_median"), c("v3").std().alias("v3_std"))
    if q == "q7":
        return t.group_by("id3").agg((c("v1").max() - c("v2").min()).alias("range_v1_v2"))
    if q == "q8":
        return t.drop_nulls("v3").group_by("id6").agg(c("v3").top_k(2)).explode("v3")
    if q == "q9":
        return t.group_by(["id2", "id4"]).agg((pl.corr("v1", "v2") ** 2).alias("r2"))
    if q == "q10":
        return t.group_by(["id1", "id2", "id3", "id4", "id5", "id6"]).agg(c("v3").sum(), c("v1").count())
    x = t["x"]
    if q == "j1":
        return x.join(t["small"], on="id1")
    if q == "j2":
        return x.join(t["medium"], on="id2")
    if q == "j3":
        return x.join(t["medium"], on="id2", how="left")
    if q == "j4":
        return x.join(t["medium"], on="id5")
    if q == "j5":
        return x.join(t["big"], on="id3")
    raise KeyError(q)


def polars_chk(ans, q):
    import polars as pl

    return [float(ans[c].cast(pl.Float64).sum()) for c in atoll_value_columns(None, q)]


# ---------------------------------------------------------------------------------------------
# DuckDB (the benchmark's SQL, keys as ENUMs as its loader makes them)

DUCK_GROUPBY = {
    "q1": "SELECT id1, sum(v1) AS v1 FROM x GROUP BY id1",
    "q2": "SELECT id1, id2, sum(v1) AS v1 FROM x GROUP BY id1, id2",
    "q3": "SELECT id3, sum(v1) AS v1, avg(v3) AS v3 FROM x GROUP BY id3",
    "q4": "SELECT id4, avg(v1) AS v1, avg(v2) AS v2, avg(v3) AS v3 FROM x GROUP BY id4",
    "q5": "SELECT id6, sum(v1) AS v1, sum(v2) AS v2, sum(v3) AS v3 FROM x GROUP BY id6",
    "q6": "SELECT id4, id5, median(v3) AS v3_median, stddev(v3) AS v3_std FROM x GROUP BY id4, id5",
    "q7": "SELECT id3, max(v1) - min(v2) AS range_v1_v2 FROM x GROUP BY id3",
    "q8": "SELECT id6, v3 FROM (SELECT id6, v3, row_number() OVER (PARTITION BY id6 ORDER BY v3 DESC) AS r "
    "FROM x WHERE v3 IS NOT NULL) WHERE r <= 2",
    "q9": "SELECT id2, id4, pow(corr(v2, v1), 2) AS r2 FROM x GROUP BY id2, id4",
    "q10": "SELECT id1, id2, id3, id4, id5, id6, sum(v3) AS v3, count(*) AS v1 FROM x "
    "GROUP BY id1, id2, id3, id4, id5, id6",
    "j1": "SELECT x.*, small.id4 AS small_id4, v2 FROM x JOIN small USING (id1)",
    "j2": "SELECT x.*, medium.id1 AS medium_id1, medium.id4 AS medium_id4, medium.id5 AS medium_id5, v2 "
    "FROM x JOIN medium USING (id2)",
    "j3": "SELECT x.*, medium.id1 AS medium_id1, medium.id4 AS medium_id4, medium.id5 AS medium_id5, v2 "
    "FROM x LEFT JOIN medium USING (id2)",
    "j4": "SELECT x.*, medium.id1 AS medium_id1, medium.id2 AS medium_id2, medium.id4 AS medium_id4, v2 "
    "FROM x JOIN medium USING (id5)",
    "j5": "SELECT x.*, big.id1 AS big_id1, big.id2 AS big_id2, big.id4 AS big_id4, big.id5 AS big_id5, "
    "big.id6 AS big_id6, v2 FROM x JOIN big USING (id3)",
}


def duckdb_load_g1(path):
    import duckdb

    con = duckdb.connect()
    p = path.replace("'", "''")
    for c in ("id1", "id2", "id3"):
        con.execute(
            f"CREATE TYPE {c}_enum AS ENUM (SELECT DISTINCT {c} FROM read_parquet('{p}') "
            f"WHERE {c} IS NOT NULL ORDER BY {c})"
        )
    con.execute(
        f"CREATE TABLE x AS SELECT id1::id1_enum AS id1, id2::id2_enum AS id2, id3::id3_enum AS id3, "
        f"id4, id5, id6, v1, v2, v3 FROM read_parquet('{p}')"
    )
    return con


def duckdb_load_j1(paths):
    import duckdb

    con = duckdb.connect()
    for r, path in paths.items():
        p = path.replace("'", "''")
        con.execute(f"CREATE TABLE {r} AS SELECT * FROM read_parquet('{p}')")
    return con


def duckdb_answer(con, q):
    con.execute("DROP TABLE IF EXISTS ans")
    con.execute("CREATE TABLE ans AS " + DUCK_GROUPBY[q])
    return con


def duckdb_chk(con, q):
    cols = atoll_value_columns(None, q)
    row = con.execute("SELECT " + ", ".join(f"sum({c})::DOUBLE" for c in cols) + " FROM ans").fetchone()
    return [float("nan") if v is None else float(v) for v in row]


# ---------------------------------------------------------------------------------------------
# pandas (the benchmark's calls)


def pandas_load_g1(path):
    import pandas as pd

    x = pd.read_parquet(path)  # dictionary columns read as category
    for c in ("id1", "id2", "id3"):
        x[c] = x[c].astype("category")
    return x


def pandas_load_j1(paths):
    import pandas as pd

    t = {r: pd.read_parquet(p) for r, p in paths.items()}
    for r, df in t.items():
        for c in ("id4", "id5", "id6"):
            if c in df.columns:
                df[c] = df[c].astype("category")
    return t


def pandas_answer(x, q):
    kw = dict(as_index=False, sort=False, observed=True, dropna=False)
    if q == "q1":
        return x.groupby("id1", **kw).agg({"v1": "sum"})
    if q == "q2":
        return x.groupby(["id1", "id2"], **kw).agg({"v1": "sum"})
    if q == "q3":
        return x.groupby("id3", **kw).agg({"v1": "sum", "v3": "mean"})
    if q == "q4":
        return x.groupby("id4", **kw).agg({"v1": "mean", "v2": "mean", "v3": "mean"})
    if q == "q5":
        return x.groupby("id6", **kw).agg({"v1": "sum", "v2": "sum", "v3": "sum"})
    if q == "q6":
        a = x.groupby(["id4", "id5"], **kw).agg({"v3": ["median", "std"]})
        a.columns = ["id4", "id5", "v3_median", "v3_std"]
        return a
    if q == "q7":
        return (
            x.groupby("id3", **kw)
            .agg({"v1": "max", "v2": "min"})
            .assign(range_v1_v2=lambda d: d["v1"] - d["v2"])[["id3", "range_v1_v2"]]
        )
    if q == "q8":
        return x[~x["v3"].isna()][["id6", "v3"]].sort_values("v3", ascending=False).groupby("id6", **kw).head(2)
    if q == "q9":
        return (
            x[["id2", "id4", "v1", "v2"]]
            .groupby(["id2", "id4"], **kw)
            .apply(lambda d: d["v1"].corr(d["v2"]) ** 2, include_groups=False)
            .rename(columns={None: "r2"})
        )
    if q == "q10":
        return x.groupby(["id1", "id2", "id3", "id4", "id5", "id6"], **kw).agg({"v3": "sum", "v1": "size"})
    xx = x["x"]
    if q == "j1":
        return xx.merge(x["small"], on="id1")
    if q == "j2":
        return xx.merge(x["medium"], on="id2")
    if q == "j3":
        return xx.merge(x["medium"], how="left", on="id2")
    if q == "j4":
        return xx.merge(x["medium"], on="id5")
    if q == "j5":
        return xx.merge(x["big"], on="id3")
    raise KeyError(q)


def pandas_chk(ans, q):
    return [float(ans[c].sum()) for c in atoll_value_columns(None, q)]


# ---------------------------------------------------------------------------------------------
# Worker: one system, one task, in its own process


def _answer_fn(system):
    if system == "polars":
        return polars_answer, polars_chk
    if system == "duckdb":
        return duckdb_answer, duckdb_chk
    if system == "pandas":
        return pandas_answer, pandas_chk
    raise KeyError(system)


def _load(system, task, g1, j1):
    mod = globals()
    return mod[f"{system}_load_{'g1' if task == 'groupby' else 'j1'}"](g1 if task == "groupby" else j1)


def _timed(fn):
    gc.collect()
    t = time.perf_counter()
    r = fn()
    return r, time.perf_counter() - t


def worker(system, task, data_dir, emit):
    """Loads the task's tables and answers its questions twice; `emit` gets one dict a
    question (and one for the load)."""
    if system == "atoll":
        import atoll  # noqa: F401  (the session starts before the load is timed)
    load0 = os.getloadavg()[0]  # the machine's load (1 min) as the worker starts
    g1, j1 = find_data(data_dir)
    tables, load_s = _timed(lambda: _load(system, task, g1, j1))
    emit({"kind": "load", "system": system, "task": task, "seconds": load_s})
    qs = [q[0] for q in GROUPBY] if task == "groupby" else [q[0] for q in JOIN]
    for q in qs:
        rec = {"kind": "question", "system": system, "task": task, "q": q}
        if system == "atoll":
            variants = ["pandas", "arkouda"]
            for v in variants:
                try:
                    times, chk = [], None
                    for _ in range(2):
                        (ans, chk), s = _timed(lambda: _atoll_run(tables, q, v))
                        times.append(s)
                        del ans
                    rec.update(variant=v, seconds_run1=times[0], seconds_run2=times[1], chk=chk)
                    break
                except Exception as e:  # noqa: BLE001 (the gap is the finding)
                    if v == "pandas":
                        rec["unsupported"] = f"{type(e).__name__}: {e}"
                    else:
                        rec["arkouda_error"] = f"{type(e).__name__}: {e}"
        else:
            answer, chk_fn = _answer_fn(system)
            times = []
            for _ in range(2):
                (ans, chk), s = _timed(lambda: (lambda a: (a, chk_fn(a, q)))(answer(tables, q)))
                times.append(s)
                del ans
            rec.update(seconds_run1=times[0], seconds_run2=times[1], chk=chk)
        emit(rec)
    emit({"kind": "memory", "system": system, "task": task, "peak_rss_gb": peak_rss_gb(), "loadavg": load0})


def _atoll_run(tables, q, variant):
    ans = atoll_answer(tables, q, variant)
    return ans, atoll_chk(ans, q)


def peak_rss_gb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 / 1e9


# ---------------------------------------------------------------------------------------------
# Driver


def copy_ceiling_gbs(nbytes=512 << 20):
    import numpy as np

    a = np.ones(nbytes // 8)
    b = np.empty_like(a)
    best = math.inf
    for _ in range(3):
        t = time.perf_counter()
        np.copyto(b, a)
        best = min(best, time.perf_counter() - t)
    return nbytes / best / 1e9


def chk_agree(a, b, rel=1e-6):
    if a is None or b is None or len(a) != len(b):
        return False
    for u, v in zip(a, b):
        if math.isnan(u) and math.isnan(v):
            continue
        if not math.isclose(u, v, rel_tol=rel, abs_tol=1e-6):
            return False
    return True


def run_system(system, task, data_dir, locales):
    env = dict(os.environ)
    if system == "atoll":
        env["ATOLL_LOCALES"] = str(locales)
    cmd = [sys.executable, os.path.abspath(__file__), "--worker", system, "--task", task, "--data", data_dir]
    p = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if p.returncode != 0 and '"kind": "question"' not in p.stdout:
        # A failed start (e.g. an import error) is tried once more before it is reported.
        p = subprocess.run(cmd, env=env, capture_output=True, text=True)
    recs = []
    for line in p.stdout.splitlines():
        if line.startswith("{"):
            recs.append(json.loads(line))
    if p.returncode != 0:
        recs.append({"kind": "error", "system": system, "task": task, "error": p.stderr.strip()[-2000:]})
    return recs


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", required=True)
    ap.add_argument("--systems", default="atoll,polars,duckdb,pandas")
    ap.add_argument("--questions", default="groupby,join")
    ap.add_argument("--locales", type=int, default=2)
    ap.add_argument("--jsonl", help="also write the JSON lines to this file")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--task", help=argparse.SUPPRESS)
    a = ap.parse_args(argv)

    if a.worker:
        worker(a.worker, a.task, a.data, lambda r: print(json.dumps(r), flush=True))
        return

    systems = [s.strip() for s in a.systems.split(",") if s.strip()]
    tasks = [t.strip() for t in a.questions.split(",") if t.strip()]
    g1, j1 = find_data(a.data)
    # In a subprocess: a child inherits its parent's peak RSS at fork, so the parent stays small.
    bw = float(
        subprocess.run(
            [
                sys.executable,
                "-c",
                f"import sys; sys.path.insert(0, {HERE!r}); import dbbench; print(dbbench.copy_ceiling_gbs())",
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    )
    print(f"copy ceiling: {bw:.2f} GB/s (NumPy copy of 512 MiB)", file=sys.stderr)

    recs = []
    for task in tasks:
        if (task == "groupby" and not g1) or (task == "join" and not j1):
            print(f"no {task} data in {a.data}", file=sys.stderr)
            continue
        for s in systems:
            t = time.perf_counter()
            rs = run_system(s, task, a.data, a.locales)
            print(f"{s} {task}: {time.perf_counter() - t:.1f} s", file=sys.stderr)
            for r in rs:
                if r["kind"] == "error":
                    print(f"  {s} {task} failed: {r['error']}", file=sys.stderr)
            recs += rs

    lines = assemble(recs, systems, tasks, g1, j1, bw, a.locales)
    out = open(a.jsonl, "w") if a.jsonl else None
    for ln in lines:
        js = json.dumps(ln)
        print(js)
        if out:
            out.write(js + "\n")
    if out:
        out.close()
    print(table(lines, systems), file=sys.stderr)


def assemble(recs, systems, tasks, g1, j1, bw, locales):
    loads = {(r["system"], r["task"]): r["seconds"] for r in recs if r["kind"] == "load"}
    mem = {(r["system"], r["task"]): r["peak_rss_gb"] for r in recs if r["kind"] == "memory"}
    lavg = {(r["system"], r["task"]): r.get("loadavg") for r in recs if r["kind"] == "memory"}
    qrec = {(r["system"], r["q"]): r for r in recs if r["kind"] == "question"}
    errors = {(r["system"], r["task"]): r["error"][-300:] for r in recs if r["kind"] == "error"}
    lines = []
    g_rows = nrows(g1) if g1 else 0
    j_rows = {r: nrows(p) for r, p in j1.items()} if j1 else {}
    qlist = []
    if "groupby" in tasks and g1:
        qlist += [(q, name, "groupby", 8 * g_rows * len(cols)) for q, name, cols in GROUPBY]
    if "join" in tasks and j1:
        qlist += [
            (q, name, "join", 8 * (j_rows["x"] * J1_COLS["x"] + j_rows[right] * J1_COLS[right]))
            for q, name, right in JOIN
        ]
    for q, name, task, nbytes in qlist:
        best = {}
        for s in systems:
            r = qrec.get((s, q))
            if r and "seconds_run1" in r:
                best[s] = min(r["seconds_run1"], r["seconds_run2"])
        for s in systems:
            r = qrec.get((s, q), {})
            ln = {
                "system": s,
                "task": task,
                "q": q,
                "question": name,
                "rows": g_rows if task == "groupby" else j_rows.get("x"),
                "seconds_run1": r.get("seconds_run1"),
                "seconds_run2": r.get("seconds_run2"),
                "chk": r.get("chk"),
            }
            if not r:
                ln["error"] = errors.get((s, task), "no answer")
            if s == "atoll":
                ln["locales"] = locales
                if "variant" in r:
                    ln["variant"] = r["variant"]
                if "unsupported" in r:
                    ln["unsupported"] = r["unsupported"]
                if "arkouda_error" in r:
                    ln["arkouda_error"] = r["arkouda_error"]
            # ok: agreement with every peer that answered (Atoll: polars and DuckDB both)
            others = [o for o in systems if o != s and qrec.get((o, q), {}).get("chk") is not None]
            need = [p for p in PEERS if p != s] if s == "atoll" else others
            ok = r.get("chk") is not None and bool(need)
            for o in need:
                ok = ok and chk_agree(r.get("chk"), qrec.get((o, q), {}).get("chk"))
            ln["ok"] = bool(ok)
            peers = [best[p] for p in PEERS if p != s and p in best]
            ln["ratio_vs_best_peer"] = best[s] / min(peers) if s in best and peers else None
            stream = nbytes / (bw * 1e9)
            ln["copy_gbs"] = bw
            ln["stream_s"] = stream
            ln["stream_fraction"] = stream / best[s] if s in best and best[s] > 0 else None
            ln["load_s"] = loads.get((s, task))
            ln["peak_rss_gb"] = mem.get((s, task))
            ln["loadavg_1min"] = lavg.get((s, task))
            ln["data"] = os.path.basename(g1 if task == "groupby" else j1["x"])
            lines.append(ln)
    return lines


def _fmt(v, unit=""):
    return "-" if v is None else f"{v:.3f}{unit}"


def table(lines, systems):
    """A readable table: the best of two runs per system, Atoll's ratio and status."""
    qs = []
    for ln in lines:
        if (ln["q"], ln["question"]) not in qs:
            qs.append((ln["q"], ln["question"]))
    by = {(ln["system"], ln["q"]): ln for ln in lines}
    head = ["q", "question"] + [f"{s} s" for s in systems] + ["atoll/best peer", "atoll"]
    rows = []
    ratios = []
    for q, name in qs:
        row = [q, name]
        for s in systems:
            ln = by.get((s, q), {})
            t = [x for x in (ln.get("seconds_run1"), ln.get("seconds_run2")) if x is not None]
            row.append(_fmt(min(t)) if t else "-")
        a = by.get(("atoll", q), {})
        r = a.get("ratio_vs_best_peer")
        if r is not None:
            ratios.append(r)
        row.append(_fmt(r))
        if not a or (a.get("chk") is None and "unsupported" not in a):
            status = "failed"
        elif a.get("ok"):
            status = "ok"
        else:
            status = "unsupported" if a.get("chk") is None else "MISMATCH"
        if a.get("variant") == "arkouda":
            status += " (arkouda)"
        row.append(status)
        rows.append(row)
    w = [max(len(str(r[i])) for r in rows + [head]) for i in range(len(head))]
    out = [" | ".join(str(h).ljust(w[i]) for i, h in enumerate(head))]
    out.append("-+-".join("-" * x for x in w))
    out += [" | ".join(str(c).ljust(w[i]) for i, c in enumerate(r)) for r in rows]
    if ratios:
        g = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        out.append(f"geomean of Atoll's time over the faster of polars and DuckDB: {g:.2f} ({len(ratios)} questions)")
    loads = {}
    for ln in lines:
        loads[(ln["system"], ln["task"])] = (ln["load_s"], ln["peak_rss_gb"])
    for (s, task), (ld, mem) in sorted(loads.items()):
        out.append(f"{s} {task}: load {_fmt(ld, ' s')}, peak RSS {_fmt(mem, ' GB')}")
    return "\n".join(out)


if __name__ == "__main__":
    main()
