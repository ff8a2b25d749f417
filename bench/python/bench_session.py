"""A realistic frame session (read, filter, group, merge, sort, string predicates, write and
read back) on taxi-like trips, through Atoll's DataFrame API, pandas, polars and DuckDB, on the
same data in the same run.

    ATOLL_LOCALES=2 python bench/python/bench_session.py --n 1000000 --data DIR \
        [--systems atoll,pandas,polars,duckdb] [--locales 2] [--jsonl FILE]

The data (bench/python/bench_session_data.py, made in DIR when its files are not there):
``trips_<n>.parquet`` (n trips), ``zones.parquet`` (265 zones) and ``payments.parquet``. The
pickup time is an int64 column of nanoseconds since the epoch (``pickup_ns``); its hour is
``pickup_ns // 3600e9 % 24`` in every system.

The steps, each timed on its own, each on the frames the steps before made:

    read             the trips Parquet into a frame
    filter           distance > 0 and fare > 0 and 1 <= passengers <= 6
    groupby_zone     by pickup zone: count, mean fare, sum of tips
    merge_zones      inner merge of the filtered trips with the zone table on the zone id
    groupby_borough_hour  by (borough, pickup hour) of the merge: count and mean tip
    merge_payment    inner merge of the filtered trips with the payment table on its string key
    sort             the merge sorted by (borough, fare descending)
    strings          counts of street.str.contains("Park"), street.str.startswith("W "),
                     vendor.str.startswith("V")
    hdf5             the filtered trips written to HDF5 and read back (Atoll, pandas with
                     PyTables; polars and DuckDB have no HDF5 writer and are skipped)
    parquet          the filtered trips written to Parquet and read back

Each system runs in its own process, so that its peak resident memory (``ru_maxrss``) is its
own. Every step runs twice (each run repeats that step alone, on the same inputs) and the line
reports the faster run. A step's result is materialized inside its time (polars is eager;
DuckDB's results are ``CREATE TABLE ... AS``); its check value (the rows and sums of numeric
columns, counts of string values, a position-weighted sum for the sort) is computed after the
time is taken. A line is ``ok`` when its check agrees, within a relative 1e-6, with the check of
every other system that ran the step (null when no other system did).

Atoll's steps are written as a pandas user writes them. Where such a call raises, the line
records ``"unsupported": "<the exception>"`` and the steps that need its result are skipped
(``"skipped"`` names the step that failed).

The copy ceiling (a NumPy copy of 512 MiB, best of 3, bytes over time) is measured in the same
run, and each line carries the machine's 1-minute load average as its system's process started.
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import json
import math
import os
import resource
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import bench_session_data  # noqa: E402

SYSTEMS = ("atoll", "pandas", "polars", "duckdb")
PEERS = ("polars", "duckdb")
STEPS = (
    "read",
    "filter",
    "groupby_zone",
    "merge_zones",
    "groupby_borough_hour",
    "merge_payment",
    "sort",
    "strings",
    "hdf5",
    "parquet",
)
# The input each step works on: the result of the step named (or the zone/payment tables).
NEEDS = {
    "filter": "read",
    "groupby_zone": "filter",
    "merge_zones": "filter",
    "groupby_borough_hour": "merge_zones",
    "merge_payment": "filter",
    "sort": "merge_zones",
    "strings": "filter",
    "hdf5": "filter",
    "parquet": "filter",
}
NS_PER_HOUR = bench_session_data.NS_PER_HOUR
TRIP_SUMS = ["pu_zone", "passengers", "distance", "fare", "tip"]
# What each step's check holds: ("rows",), ("sum", col), ("eq", col, value): rows where col ==
# value, ("dot", a, b): the sum of a * b over the rows, ("wsum", col): the sum of i * col[i]
# over the row positions i (the order a sort makes).
CHECKS = {
    "read": [("rows",)] + [("sum", c) for c in TRIP_SUMS] + [("eq", "payment_type", "cash")],
    "filter": [("rows",)] + [("sum", c) for c in TRIP_SUMS] + [("eq", "payment_type", "cash")],
    "groupby_zone": [
        ("rows",),
        ("sum", "trips"),
        ("sum", "mean_fare"),
        ("sum", "tips"),
        ("dot", "pu_zone", "mean_fare"),
        ("dot", "pu_zone", "trips"),
    ],
    "merge_zones": [
        ("rows",),
        ("sum", "fare"),
        ("sum", "tip"),
        ("sum", "zone_id"),
        ("dot", "pu_zone", "zone_id"),
        ("eq", "borough", "Manhattan"),
        ("eq", "service_zone", "Airports"),
    ],
    "groupby_borough_hour": [
        ("rows",),
        ("sum", "trips"),
        ("sum", "mean_tip"),
        ("dot", "hour", "mean_tip"),
        ("dot", "hour", "trips"),
        ("eq", "borough", "Manhattan"),
    ],
    "merge_payment": [("rows",), ("sum", "fare"), ("sum", "tip"), ("eq", "description", "Credit card")],
    "sort": [("rows",), ("sum", "fare"), ("wsum", "fare"), ("eq", "borough", "Manhattan")],
    "hdf5": [("rows",)] + [("sum", c) for c in TRIP_SUMS] + [("eq", "payment_type", "cash"), ("eq", "vendor", "VTS")],
    "parquet": [("rows",)]
    + [("sum", c) for c in TRIP_SUMS]
    + [("eq", "payment_type", "cash"), ("eq", "vendor", "VTS")],
}
STRING_TESTS = [("street", "contains", "Park"), ("street", "startswith", "W "), ("vendor", "startswith", "V")]


class Skip(Exception):
    """A step a system does not offer (the message says why)."""


# ---------------------------------------------------------------------------------------------
# Atoll: a pandas user's calls


class AtollSession:
    def __init__(self, paths, work):
        import atoll as ak

        self.ak = ak
        self.paths = paths
        self.work = work
        self.zones = ak.DataFrame(ak.read_parquet(paths["zones"]))
        self.payments = ak.DataFrame(ak.read_parquet(paths["payments"]))

    def read(self, _):
        ak = self.ak
        return ak.DataFrame(ak.read_parquet(self.paths["trips"]))

    def filter(self, t):
        return t[(t["distance"] > 0) & (t["fare"] > 0) & (t["passengers"] >= 1) & (t["passengers"] <= 6)]

    def groupby_zone(self, f):
        return f.groupby("pu_zone", as_index=False).agg(
            trips=("fare", "count"), mean_fare=("fare", "mean"), tips=("tip", "sum")
        )

    def merge_zones(self, f):
        return f.merge(self.zones, left_on="pu_zone", right_on="zone_id")

    def groupby_borough_hour(self, m):
        m = m[["borough", "pickup_ns", "tip"]]
        m["hour"] = m["pickup_ns"] // NS_PER_HOUR % 24
        return m.groupby(["borough", "hour"], as_index=False).agg(trips=("tip", "count"), mean_tip=("tip", "mean"))

    def merge_payment(self, f):
        return f.merge(self.payments, on="payment_type")

    def sort(self, m):
        return m.sort_values(["borough", "fare"], ascending=[True, False])

    def strings(self, f):
        return [int(getattr(f[c].str, op)(s).sum()) for c, op, s in STRING_TESTS]

    def strings_arkouda(self, f):
        """Arkouda's words: the Strings column's own ``contains``/``startswith``."""
        return [int(getattr(f[c], op)(s).sum()) for c, op, s in STRING_TESTS]

    def hdf5(self, f):
        ak = self.ak
        d = _fresh(self.work, "atoll_hdf5")
        f.to_hdf(os.path.join(d, "trips"))
        return ak.DataFrame(ak.read_hdf(os.path.join(d, "trips*")))

    def parquet(self, f):
        ak = self.ak
        d = _fresh(self.work, "atoll_parquet")
        f.to_parquet(os.path.join(d, "trips"))
        return ak.DataFrame(ak.read_parquet(os.path.join(d, "trips*")))

    # checks
    def check(self, df, spec):
        ak = self.ak
        out = []
        for c in spec:
            if c[0] == "rows":
                out.append(float(len(df)))
            elif c[0] == "sum":
                out.append(float(df[c[1]].sum()))
            elif c[0] == "eq":
                out.append(float((df[c[1]] == c[2]).sum()))
            elif c[0] == "dot":
                out.append(float((df[c[1]] * df[c[2]]).sum()))
            elif c[0] == "wsum":
                out.append(float((ak.arange(len(df)) * df[c[1]]).sum()))
        return out


def _fresh(work, name):
    d = os.path.join(work, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    return d


# ---------------------------------------------------------------------------------------------
# pandas


class PandasSession:
    def __init__(self, paths, work):
        import pandas as pd

        self.pd = pd
        self.paths = paths
        self.work = work
        self.zones = pd.read_parquet(paths["zones"])
        self.payments = pd.read_parquet(paths["payments"])

    def read(self, _):
        return self.pd.read_parquet(self.paths["trips"])

    def filter(self, t):
        return t[(t["distance"] > 0) & (t["fare"] > 0) & (t["passengers"] >= 1) & (t["passengers"] <= 6)]

    def groupby_zone(self, f):
        return f.groupby("pu_zone", as_index=False).agg(
            trips=("fare", "count"), mean_fare=("fare", "mean"), tips=("tip", "sum")
        )

    def merge_zones(self, f):
        return f.merge(self.zones, left_on="pu_zone", right_on="zone_id")

    def groupby_borough_hour(self, m):
        m = m[["borough", "pickup_ns", "tip"]].copy()
        m["hour"] = m["pickup_ns"] // NS_PER_HOUR % 24
        return m.groupby(["borough", "hour"], as_index=False).agg(trips=("tip", "count"), mean_tip=("tip", "mean"))

    def merge_payment(self, f):
        return f.merge(self.payments, on="payment_type")

    def sort(self, m):
        return m.sort_values(["borough", "fare"], ascending=[True, False])

    def strings(self, f):
        return [int(getattr(f[c].str, op)(s).sum()) for c, op, s in STRING_TESTS]

    def hdf5(self, f):
        if importlib.util.find_spec("tables") is None:
            raise Skip("pandas' to_hdf needs PyTables, which is not installed")
        d = _fresh(self.work, "pandas_hdf5")
        p = os.path.join(d, "trips.h5")
        f.to_hdf(p, key="trips", format="fixed")
        return self.pd.read_hdf(p, "trips")

    def parquet(self, f):
        d = _fresh(self.work, "pandas_parquet")
        p = os.path.join(d, "trips.parquet")
        f.to_parquet(p, index=False)
        return self.pd.read_parquet(p)

    def check(self, df, spec):
        import numpy as np

        out = []
        for c in spec:
            if c[0] == "rows":
                out.append(float(len(df)))
            elif c[0] == "sum":
                out.append(float(df[c[1]].sum()))
            elif c[0] == "eq":
                out.append(float((df[c[1]] == c[2]).sum()))
            elif c[0] == "dot":
                out.append(float((df[c[1]] * df[c[2]]).sum()))
            elif c[0] == "wsum":
                out.append(float((np.arange(len(df)) * df[c[1]].to_numpy()).sum()))
        return out


# ---------------------------------------------------------------------------------------------
# polars


class PolarsSession:
    def __init__(self, paths, work):
        import polars as pl

        self.pl = pl
        self.paths = paths
        self.work = work
        self.zones = pl.read_parquet(paths["zones"])
        self.payments = pl.read_parquet(paths["payments"])

    def read(self, _):
        return self.pl.read_parquet(self.paths["trips"])

    def filter(self, t):
        c = self.pl.col
        return t.filter((c("distance") > 0) & (c("fare") > 0) & c("passengers").is_between(1, 6))

    def groupby_zone(self, f):
        c = self.pl.col
        return f.group_by("pu_zone").agg(
            c("fare").count().alias("trips"), c("fare").mean().alias("mean_fare"), c("tip").sum().alias("tips")
        )

    def merge_zones(self, f):
        # polars keeps one key column (named as the left's); the right's is added back for
        # the same columns as the others' merge.
        return f.join(self.zones, left_on="pu_zone", right_on="zone_id").with_columns(
            self.pl.col("pu_zone").alias("zone_id")
        )

    def groupby_borough_hour(self, m):
        c = self.pl.col
        return (
            m.with_columns((c("pickup_ns") // NS_PER_HOUR % 24).alias("hour"))
            .group_by(["borough", "hour"])
            .agg(c("tip").count().alias("trips"), c("tip").mean().alias("mean_tip"))
        )

    def merge_payment(self, f):
        return f.join(self.payments, on="payment_type")

    def sort(self, m):
        return m.sort(["borough", "fare"], descending=[False, True])

    def strings(self, f):
        c = self.pl.col
        exprs = {
            "contains": lambda col, s: c(col).str.contains(s, literal=True),
            "startswith": lambda col, s: c(col).str.starts_with(s),
        }
        row = f.select([exprs[op](col, s).sum().alias(str(i)) for i, (col, op, s) in enumerate(STRING_TESTS)])
        return [int(v) for v in row.row(0)]

    def hdf5(self, f):
        raise Skip("polars has no HDF5 writer")

    def parquet(self, f):
        d = _fresh(self.work, "polars_parquet")
        p = os.path.join(d, "trips.parquet")
        f.write_parquet(p)
        return self.pl.read_parquet(p)

    def check(self, df, spec):
        pl = self.pl
        out = []
        for c in spec:
            if c[0] == "rows":
                out.append(float(df.height))
            elif c[0] == "sum":
                out.append(float(df[c[1]].cast(pl.Float64).sum()))
            elif c[0] == "eq":
                out.append(float((df[c[1]] == c[2]).sum()))
            elif c[0] == "dot":
                out.append(float((df[c[1]].cast(pl.Float64) * df[c[2]].cast(pl.Float64)).sum()))
            elif c[0] == "wsum":
                idx = pl.Series(range(df.height), dtype=pl.Float64)
                out.append(float((idx * df[c[1]].cast(pl.Float64)).sum()))
        return out


# ---------------------------------------------------------------------------------------------
# DuckDB: each step's result is a table, named after the step


class DuckSession:
    def __init__(self, paths, work):
        import duckdb

        self.con = duckdb.connect()
        self.paths = paths
        self.work = work
        for name in ("zones", "payments"):
            self.con.execute(f"CREATE TABLE {name} AS SELECT * FROM read_parquet({_sql_str(paths[name])})")

    def _table(self, name, sql):
        self.con.execute(f"CREATE OR REPLACE TABLE {name} AS {sql}")
        return name

    def read(self, _):
        return self._table("t_read", f"SELECT * FROM read_parquet({_sql_str(self.paths['trips'])})")

    def filter(self, t):
        return self._table(
            "t_filter", f"SELECT * FROM {t} WHERE distance > 0 AND fare > 0 AND passengers BETWEEN 1 AND 6"
        )

    def groupby_zone(self, f):
        return self._table(
            "t_groupby_zone",
            f"SELECT pu_zone, count(fare) AS trips, avg(fare) AS mean_fare, sum(tip) AS tips FROM {f} GROUP BY pu_zone",
        )

    def merge_zones(self, f):
        return self._table("t_merge_zones", f"SELECT * FROM {f} JOIN zones ON {f}.pu_zone = zones.zone_id")

    def groupby_borough_hour(self, m):
        return self._table(
            "t_groupby_borough_hour",
            f"SELECT borough, pickup_ns // {NS_PER_HOUR} % 24 AS hour, count(tip) AS trips, avg(tip) AS mean_tip "
            f"FROM {m} GROUP BY ALL",
        )

    def merge_payment(self, f):
        return self._table("t_merge_payment", f"SELECT * FROM {f} JOIN payments USING (payment_type)")

    def sort(self, m):
        return self._table(
            "t_sort",
            f"SELECT row_number() OVER (ORDER BY borough, fare DESC) - 1 AS pos, * FROM {m} ORDER BY pos",
        )

    def strings(self, f):
        row = self.con.execute(
            f"SELECT count_if(contains(street, 'Park')), count_if(starts_with(street, 'W ')), "
            f"count_if(starts_with(vendor, 'V')) FROM {f}"
        ).fetchone()
        return [int(v) for v in row]

    def hdf5(self, f):
        raise Skip("DuckDB has no HDF5 writer")

    def parquet(self, f):
        d = _fresh(self.work, "duckdb_parquet")
        p = _sql_str(os.path.join(d, "trips.parquet"))
        self.con.execute(f"COPY {f} TO {p} (FORMAT parquet)")
        return self._table("t_parquet", f"SELECT * FROM read_parquet({p})")

    def check(self, t, spec):
        exprs = []
        for c in spec:
            if c[0] == "rows":
                exprs.append("count(*)")
            elif c[0] == "sum":
                exprs.append(f"sum({c[1]}::DOUBLE)")
            elif c[0] == "eq":
                exprs.append(f"count_if({c[1]} = {_sql_str(c[2])})")
            elif c[0] == "dot":
                exprs.append(f"sum({c[1]}::DOUBLE * {c[2]}::DOUBLE)")
            elif c[0] == "wsum":
                exprs.append(f"sum(pos::DOUBLE * {c[1]}::DOUBLE)")
        row = self.con.execute(f"SELECT {', '.join(exprs)} FROM {t}").fetchone()
        return [float(v) for v in row]


def _sql_str(s):
    return "'" + s.replace("'", "''") + "'"


SESSIONS = {"atoll": AtollSession, "pandas": PandasSession, "polars": PolarsSession, "duckdb": DuckSession}


# ---------------------------------------------------------------------------------------------
# One system's session


def _timed(fn, arg, collect=True):
    if collect:
        gc.collect()
    t = time.perf_counter()
    r = fn(arg)
    return r, time.perf_counter() - t


def run_steps(system, paths, work, reps=2, emit=None, collect=True):
    """Walks the steps for `system` in this process; returns one record a step (and one
    "memory" record), and passes each to `emit` as it is made. `collect`: a garbage
    collection before each timed run (outside its time)."""
    recs = []

    def put(r):
        recs.append(r)
        if emit is not None:
            emit(r)

    load0 = os.getloadavg()[0]
    os.makedirs(work, exist_ok=True)
    sess = SESSIONS[system](paths, work)
    results = {}
    failed = {}
    for step in STEPS:
        rec = {"kind": "step", "system": system, "step": step}
        need = NEEDS.get(step)
        if need is not None and need not in results:
            rec["skipped"] = f"needs the result of {need}: {failed.get(need, 'not run')}"
            failed[step] = rec["skipped"]
            put(rec)
            continue
        arg = results.get(need)
        # The pandas user's words first; where they raise, Arkouda's words when the session
        # has them (the line says so: "variant": "arkouda").
        variants = [("pandas", getattr(sess, step))]
        if hasattr(sess, step + "_arkouda"):
            variants.append(("arkouda", getattr(sess, step + "_arkouda")))
        res = times = None
        for variant, fn in variants:
            times = []
            try:
                for _ in range(reps):
                    res, s = _timed(fn, arg, collect)
                    times.append(s)
            except Skip as e:
                rec["skipped"] = str(e)
                break
            except Exception as e:  # noqa: BLE001 (what a system cannot do is the finding)
                key = "unsupported" if variant == "pandas" else "arkouda_error"
                rec[key] = f"{type(e).__name__}: {e}"[:500]
                continue
            if variant != "pandas":
                rec["variant"] = variant
            break
        if len(times) < reps:
            failed[step] = rec.get("skipped") or rec.get("unsupported")
            put(rec)
            continue
        results[step] = res
        rec["seconds_runs"] = times
        rec["seconds"] = min(times)
        try:
            if step == "strings":
                rec["check"] = [float(v) for v in res]
                rec["rows"] = None
            else:
                rec["check"] = sess.check(res, CHECKS[step])
                rec["rows"] = int(rec["check"][0])
        except Exception as e:  # noqa: BLE001
            rec["check_error"] = f"{type(e).__name__}: {e}"[:500]
        put(rec)
    put({"kind": "memory", "system": system, "peak_rss_gb": peak_rss_gb(), "loadavg": load0})
    return recs


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


def check_agree(a, b, rel=1e-6):
    if a is None or b is None or len(a) != len(b):
        return False
    return all(math.isclose(u, v, rel_tol=rel, abs_tol=1e-9) or (math.isnan(u) and math.isnan(v)) for u, v in zip(a, b))


def run_system(system, paths, work, locales, reps):
    """Runs one system's session in its own process; returns its records (an "error" record
    when the process failed)."""
    env = dict(os.environ)
    if system == "atoll":
        env["ATOLL_LOCALES"] = str(locales)
    cmd = [sys.executable, os.path.abspath(__file__), "--worker", system, "--paths", json.dumps(paths)]
    cmd += ["--work", work, "--reps", str(reps)]
    p = subprocess.run(cmd, env=env, capture_output=True, text=True)
    recs = [json.loads(ln) for ln in p.stdout.splitlines() if ln.startswith("{")]
    if p.returncode != 0:
        recs.append({"kind": "error", "system": system, "error": p.stderr.strip()[-2000:]})
    return recs


def assemble(recs, systems, n, bw=None, locales=None):
    """One line a (system, step): seconds, rows, check, ok and the ratios to the peers."""
    steps = {(r["system"], r["step"]): r for r in recs if r["kind"] == "step"}
    mem = {r["system"]: r for r in recs if r["kind"] == "memory"}
    errors = {r["system"]: r["error"][-300:] for r in recs if r["kind"] == "error"}
    lines = []
    for step in STEPS:
        checks = {s: steps[(s, step)].get("check") for s in systems if steps.get((s, step), {}).get("check")}
        secs = {s: steps[(s, step)]["seconds"] for s in systems if "seconds" in steps.get((s, step), {})}
        peer = min((secs[p] for p in PEERS if p in secs), default=None)
        for s in systems:
            r = steps.get((s, step))
            ln = {"bench": "session", "system": s, "step": step, "n": n}
            if r is None:
                ln["error"] = errors.get(s, "no answer")
                lines.append(ln)
                continue
            keys = ("seconds", "seconds_runs", "rows", "check", "unsupported", "variant", "arkouda_error", "skipped")
            for k in keys + ("check_error",):
                if k in r:
                    ln[k] = r[k]
            if s in checks:
                others = [o for o in checks if o != s]
                ln["ok"] = all(check_agree(checks[s], checks[o]) for o in others) if others else None
                ln["agrees_with"] = others
            if "seconds" in r:
                own_peer = min((secs[p] for p in PEERS if p in secs and p != s), default=None)
                best = peer if s not in PEERS else own_peer
                if best:
                    ln["ratio_vs_best_peer"] = r["seconds"] / best
                if "pandas" in secs and s != "pandas" and secs["pandas"] > 0:
                    ln["ratio_vs_pandas"] = r["seconds"] / secs["pandas"]
            if s == "atoll" and locales is not None:
                ln["locales"] = locales
            if s in mem:
                ln["peak_rss_gb"] = mem[s]["peak_rss_gb"]
                ln["loadavg_1min"] = mem[s]["loadavg"]
            if bw is not None:
                ln["copy_ceiling_gbs"] = bw
            lines.append(ln)
    return lines


def table(lines, systems):
    """A Markdown table: each step's faster run per system, and Atoll's ratios."""
    by = {(ln["system"], ln["step"]): ln for ln in lines}

    def cell(ln):
        if ln is None:
            return "-"
        if "seconds" in ln:
            return f"{ln['seconds']:.3f}" + (" (Arkouda's words)" if ln.get("variant") == "arkouda" else "")
        if "unsupported" in ln:
            return "unsupported"
        return "skipped" if "skipped" in ln else "-"

    head = "| step | rows | " + " | ".join(systems) + " | Atoll / best peer | Atoll / pandas | agree |"
    out = [head, "|" + "---|" * (len(systems) + 5)]
    for step in STEPS:
        lns = [by.get((s, step)) for s in systems]
        rows = next((ln["rows"] for ln in lns if ln and ln.get("rows") is not None), "-")
        a = by.get(("atoll", step), {})
        oks = [ln.get("ok") for ln in lns if ln and "ok" in ln]
        agree = "-" if not oks or all(o is None for o in oks) else ("yes" if all(oks) else "NO")
        rp = f"{a['ratio_vs_best_peer']:.2f}" if "ratio_vs_best_peer" in a else "-"
        rpd = f"{a['ratio_vs_pandas']:.2f}" if "ratio_vs_pandas" in a else "-"
        out.append(f"| {step} | {rows} | " + " | ".join(cell(ln) for ln in lns) + f" | {rp} | {rpd} | {agree} |")
    return "\n".join(out)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=5_000_000)
    ap.add_argument("--data", default="bench_session_data", help="the data's folder (made when missing)")
    ap.add_argument("--work", help="the folder of the written files (default: DATA/work)")
    ap.add_argument("--systems", default=",".join(SYSTEMS))
    ap.add_argument("--locales", type=int, default=int(os.environ.get("ATOLL_LOCALES", "2")))
    ap.add_argument("--reps", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jsonl", help="also append the JSON lines to this file")
    ap.add_argument("--copy-mib", type=int, default=512, help="the size of the copy ceiling's array")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--paths", help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    work = a.work or os.path.join(a.data, "work")

    if a.worker:
        run_steps(a.worker, json.loads(a.paths), work, a.reps, lambda r: print(json.dumps(r), flush=True))
        return

    systems = [s.strip() for s in a.systems.split(",") if s.strip()]
    for s in systems:
        if s not in SESSIONS:
            raise SystemExit(f"unknown system {s!r}: one of {', '.join(SYSTEMS)}")
    t = time.perf_counter()
    paths = bench_session_data.make(a.n, a.data, a.seed)
    print(f"data: {paths['trips']} ({time.perf_counter() - t:.1f} s)", file=sys.stderr)
    # In a subprocess: a child inherits its parent's peak RSS at fork, so the parent stays small.
    bw = float(
        subprocess.run(
            [sys.executable, "-c", f"import sys; sys.path.insert(0, {HERE!r}); import bench_session as b; "
             f"print(b.copy_ceiling_gbs({a.copy_mib} << 20))"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    )  # fmt: skip
    print(f"copy ceiling: {bw:.2f} GB/s (NumPy copy of {a.copy_mib} MiB)", file=sys.stderr)
    recs = []
    for s in systems:
        t = time.perf_counter()
        rs = run_system(s, paths, work, a.locales, a.reps)
        print(f"{s}: {time.perf_counter() - t:.1f} s", file=sys.stderr)
        for r in rs:
            if r["kind"] == "error":
                print(f"  {s} failed: {r['error']}", file=sys.stderr)
        recs += rs
    lines = assemble(recs, systems, a.n, bw, a.locales)
    out = open(a.jsonl, "a") if a.jsonl else None
    for ln in lines:
        js = json.dumps(ln)
        print(js)
        if out:
            out.write(js + "\n")
    if out:
        out.close()
    print(table(lines, systems), file=sys.stderr)


if __name__ == "__main__":
    main()
