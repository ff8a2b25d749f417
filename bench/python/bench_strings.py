"""The strings kernels of ``bench/python/bench.py``: ``contains_regex``,
``str_argsort`` and ``groupby_count`` (``ak.GroupBy(strings).size()``) on ``min(n, 2^24)`` random strings of length 1-32
(``ak.random_strings_uniform(1, 33, n, "letters")``), each checked against NumPy / Python on
the same strings (``numpy_seconds``: ``re`` over a list for the regex, ``np.argsort(kind="stable")``
of a ``str`` array, ``np.unique(return_counts=True)``) and, where polars is installed, against
polars on the same strings in the same run (``polars_seconds``, ``speedup_vs_polars``)."""

import re
import time

import atoll as ak
import numpy as np

PATTERN = "[aeiou]{3}|xyz|QZ"
STRING_KERNELS = ["contains_regex", "str_argsort", "groupby_count"]
MAX_N = 1 << 24

try:  # optional
    import polars as pl
except ImportError:  # pragma: no cover
    pl = None


def _best(f, reps):
    t, r = float("inf"), None
    for _ in range(reps):
        t0 = time.perf_counter()
        r = f()
        t = min(t, time.perf_counter() - t0)
    return t, r


def _data(n):
    n = min(n, MAX_N)
    s = ak.random_strings_uniform(1, 33, n, characters="letters", seed=17)
    return n, s, s.to_list()


def _polars(f, reps):
    if pl is None:
        return {"polars_note": "polars is not installed"}
    t, r = _best(f, reps)
    return {"polars_seconds": t, "_polars_result": r}


def _finish(out, seconds):
    out.pop("_polars_result", None)
    if "polars_seconds" in out:
        out["speedup_vs_polars"] = out["polars_seconds"] / seconds
    return out


def contains_regex(n, reps):
    n, s, v = _data(n)
    t, got = _best(lambda: s.contains(PATTERN, regex=True), reps)
    got = got.to_ndarray()
    rx = re.compile(PATTERN)
    tn, want = _best(lambda: np.fromiter((rx.search(x) is not None for x in v), dtype=bool, count=len(v)), 1)
    out = dict(n=n, seconds=t, numpy_seconds=tn, ok=bool(np.array_equal(got, want)), pattern=PATTERN)
    if pl is not None:
        ps = pl.Series(v)
        out.update(_polars(lambda: ps.str.contains(PATTERN), reps))
        out["ok"] = out["ok"] and bool(np.array_equal(out["_polars_result"].to_numpy(), want))
    return _finish(out, t)


def str_argsort(n, reps):
    n, s, v = _data(n)
    t, perm = _best(lambda: s.argsort(), reps)
    perm = perm.to_ndarray()
    x = np.array(v, dtype=str)
    tn, want = _best(lambda: np.argsort(x, kind="stable"), 1)
    out = dict(n=n, seconds=t, numpy_seconds=tn, ok=bool(np.array_equal(perm, want)))
    if pl is not None:
        ps = pl.Series(v)
        out.update(_polars(lambda: ps.arg_sort(), reps))
        # polars' arg_sort need not be stable: check that it sorts.
        pp = out["_polars_result"].to_numpy()
        out["ok"] = out["ok"] and bool(np.array_equal(x[pp], x[want]))
    return _finish(out, t)


def groupby_count(n, reps):
    n, s, v = _data(n)
    t, g = _best(lambda: ak.GroupBy(s).size(), reps)
    keys, counts = g[0].to_list(), g[1].to_ndarray()
    x = np.array(v, dtype=str)
    tn, (wk, wc) = _best(lambda: np.unique(x, return_counts=True), 1)
    out = dict(
        n=n, seconds=t, numpy_seconds=tn, ok=bool(keys == wk.tolist() and np.array_equal(counts, wc)), groups=len(keys)
    )
    if pl is not None:
        df = pl.DataFrame({"s": v})
        out.update(_polars(lambda: df.group_by("s").len().sort("s"), reps))
        r = out["_polars_result"]
        out["ok"] = out["ok"] and r["s"].to_list() == keys and bool(np.array_equal(r["len"].to_numpy(), counts))
    return _finish(out, t)
