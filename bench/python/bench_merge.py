"""Merge of a big frame with a small table (the lookup join of ``atoll.pandas.join``).

    ATOLL_LOCALES=2 .venv/bin/python bench/python/bench_merge.py [--rows 5000000] [--reps 2]
        [--baseline-rev HEAD~1]

The left frame has ``--rows`` rows: an int key ``ki`` (1..300, 265 of them in the table), a
string key ``ks`` (300 values, 265 in the table) and 8 other columns (3 int64, 2 float64, 1
bool, 2 strings); the right table has 265 rows (the keys, a float and a string column). Each
case runs on Atoll (``sort=True``, its default, and ``sort=False``), on Atoll with the lookup
join switched off (``join.SMALL_SIDE_MAX = 0``: the sort of both sides' keys), on pandas
(``sort=False``, its default) and on polars, on the same data in the same run; every Atoll
result is checked equal to pandas' (rows sorted by the left row id). ``--baseline-rev``
also runs the Atoll cases with ``python/atoll/pandas/join.py`` of that git revision (in a
subprocess on a copy of the package), for a before/after table in one run.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np
import pandas as pd

try:  # optional
    import polars as pl
except ImportError:  # pragma: no cover
    pl = None

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CASES = [("inner", "ki"), ("left", "ki"), ("inner", "ks"), ("left", "ks"), ("inner", ["ki", "ks"])]


def make_data(n, seed=11):
    rng = np.random.default_rng(seed)
    vocab = np.array([f"key{i:03d}-{(i * 7919) % 997}" for i in range(300)], dtype=object)
    words = np.array([f"w{i}_{'x' * (i % 13)}" for i in range(1000)], dtype=object)
    left = pd.DataFrame(
        {
            "id": np.arange(n, dtype=np.int64),
            "ki": rng.integers(1, 301, n),
            "ks": pd.array(vocab[rng.integers(0, 300, n)], dtype="str"),
            "i1": rng.integers(0, 1000, n),
            "i2": rng.integers(-(10**9), 10**9, n),
            "f1": rng.random(n),
            "f2": rng.standard_normal(n),
            "b1": rng.random(n) < 0.5,
            "s1": pd.array(words[rng.integers(0, 1000, n)], dtype="str"),
            "s2": pd.array(vocab[rng.integers(0, 300, n)], dtype="str"),
        }
    )
    keep = np.sort(rng.permutation(300)[:265])
    right = pd.DataFrame(
        {
            "ki": keep + 1,
            "ks": pd.array(vocab[keep], dtype="str"),
            "rf": keep * 0.5,
            "rs": pd.array([f"r{k}" for k in keep], dtype="str"),
        }
    )
    return left, right


def _right_for(right, on):
    on = [on] if isinstance(on, str) else on
    return right.drop(columns=[c for c in ("ki", "ks") if c not in on])


def _best(f, reps):
    t, r = float("inf"), None
    for _ in range(reps):
        t0 = time.perf_counter()
        r = f()
        t = min(t, time.perf_counter() - t0)
    return t, r


def _same(got, want):
    """Atoll's result equals pandas' (both sorted by the left row id; missing strings as 'nan')."""
    got = got.sort_values("id", kind="stable").reset_index(drop=True)
    want = want.sort_values("id", kind="stable").reset_index(drop=True)
    if list(got.columns) != list(want.columns) or len(got) != len(want):
        return False
    for c in want.columns:
        g, w = got[c].to_numpy(), want[c].to_numpy()
        if w.dtype.kind in "fiub" and g.dtype.kind in "fiub":
            if not np.array_equal(g.astype(np.float64), w.astype(np.float64), equal_nan=True):
                return False
        else:
            w = np.where(pd.isna(w), "nan", w.astype(object))
            if not np.array_equal(g.astype(object), w):
                return False
    return True


def run_atoll(n, reps, checks, lookup_off_too=True):
    import atoll as ak
    from atoll.pandas import join

    left, right = make_data(n)
    al = ak.DataFrame(left)
    rights = {repr(on): ak.DataFrame(_right_for(right, on)) for _, on in CASES}
    out = {}
    for how, on in CASES:
        ar = rights[repr(on)]
        variants = [("atoll", getattr(join, "SMALL_SIDE_MAX", None))]
        if lookup_off_too and hasattr(join, "SMALL_SIDE_MAX"):
            variants.append(("atoll_sorted_keys", 0))
        for name, limit in variants:
            if hasattr(join, "SMALL_SIDE_MAX"):
                join.SMALL_SIDE_MAX = limit
            for sort in (True, False):
                t, m = _best(lambda: ak.merge(al, ar, on=on, how=how, sort=sort), reps)
                ok = None
                if checks is not None:
                    ok = _same(m.to_pandas(), checks[(how, repr(on))])
                out[f"{how} {on} {name} sort={sort}"] = (t, ok)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=5_000_000)
    ap.add_argument("--reps", type=int, default=2)
    ap.add_argument("--baseline-rev", default=None)
    ap.add_argument("--atoll-only", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.atoll_only:
        print(json.dumps({k: v[0] for k, v in run_atoll(a.rows, a.reps, None, False).items()}))
        return
    left, right = make_data(a.rows)
    res, checks = {}, {}
    for how, on in CASES:
        r = _right_for(right, on)
        t, m = _best(lambda: left.merge(r, on=on, how=how), a.reps)
        checks[(how, repr(on))] = m
        res[f"{how} {on} pandas"] = (t, None)
        if pl is not None:
            lp, rp = pl.from_pandas(left), pl.from_pandas(r)
            t, _ = _best(lambda: lp.join(rp, on=on, how=how), a.reps)
            res[f"{how} {on} polars"] = (t, None)
    res.update(run_atoll(a.rows, a.reps, checks))
    if a.baseline_rev:
        res.update(_baseline(a))
    for k, (t, ok) in res.items():
        print(f"{k:55s} {t:8.3f} s" + ("" if ok is None else ("  equal to pandas" if ok else "  DIFFERENT")))


def _baseline(a):
    """The Atoll cases with join.py of ``a.baseline_rev`` (a copy of the package)."""
    src = os.path.join(ROOT, "python", "atoll")
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copytree(src, os.path.join(tmp, "atoll"))
        old = subprocess.run(
            ["git", "show", f"{a.baseline_rev}:python/atoll/pandas/join.py"],
            cwd=ROOT,
            check=True,
            capture_output=True,
        ).stdout
        with open(os.path.join(tmp, "atoll", "pandas", "join.py"), "wb") as f:
            f.write(old)
        env = dict(os.environ, PYTHONPATH=tmp)
        venv = os.path.join(ROOT, ".venv", "lib")
        env["LD_LIBRARY_PATH"] = ":".join([venv, os.path.join(venv, "mpich"), env.get("LD_LIBRARY_PATH", "")])
        cmd = [sys.executable, os.path.abspath(__file__), "--atoll-only", "--rows", str(a.rows)]
        out = subprocess.run(cmd + ["--reps", str(a.reps)], env=env, cwd=tmp, capture_output=True)
        if out.returncode:
            raise RuntimeError(out.stderr.decode())
        got = json.loads(out.stdout.decode().strip().splitlines()[-1])
    return {k.replace(" atoll ", f" atoll@{a.baseline_rev} "): (t, None) for k, t in got.items()}


if __name__ == "__main__":
    main()
