"""Atoll's Python front end against NumPy on the same data in the same run, results checked.

``python bench/python/bench.py [kernel...] [--json] [--locales N] [--n N]``. One JSON line per
kernel: ``bench``, ``variant``, ``backend``, ``locales``, ``n``, ``seconds`` (best of ``--reps``),
``numpy_seconds``, ``speedup_vs_numpy``, ``ok``, plus ``gbps``, ``plain_stores_seconds`` and
``ratio_vs_rust`` (triad) or ``latency_us`` (small_op). The analytics kernels (``analytics`` names
them all: argsort, coargsort, unique, in1d, groupby_sum; see ``bench_analytics``) add
``speedup_vs_polars``/``speedup_vs_pandas``; ``--chart PATH`` draws their speedups. Works under
``mpiexec -n N python bench/python/bench.py`` too.

A script outside the ``atoll`` package: it imports ``atoll`` as a user does (the installed package,
e.g. the project venv's after ``make build``) and its sibling modules from its own directory.
"""

import argparse
import json
import os
import subprocess
import sys
import time

import atoll as ak
import numpy as np

KERNELS = ["triad", "small_op", "reduce", "scan", "gather", "scatter"]
import bench_analytics  # noqa: E402  (argsort, coargsort, unique, in1d, groupby_sum)

ANALYTICS = bench_analytics.KERNELS
DEFAULT_KERNELS = list(KERNELS)  # the strings and analytics kernels run when named
from bench_strings import STRING_KERNELS, contains_regex, groupby_count, str_argsort  # noqa: E402,F401

KERNELS += STRING_KERNELS
# Parquet IO (bench_io.py): parquet_read, parquet_write (looked up in globals() by name).
from bench_io import parquet_read, parquet_write  # noqa: E402,F401

KERNELS += ["parquet_read", "parquet_write"]
from bench_io_strings import parquet_read_str, parquet_write_str  # noqa: E402,F401  (string columns)

KERNELS += ["parquet_read_str", "parquet_write_str"]
from bench_pandas import KERNELS as _PANDAS, dataframe_groupby, hdf5_read, hdf5_write, merge  # noqa: E402,F401

KERNELS += _PANDAS


def best(f, reps):
    t = float("inf")
    for _ in range(reps):
        t0 = time.perf_counter()
        f()
        t = min(t, time.perf_counter() - t0)
    return t


def interleaved(fs, reps):
    """Best seconds of each function of ``fs``, run one after another in every repetition (so
    all see the same machine)."""
    t = [float("inf")] * len(fs)
    for _ in range(reps):
        for k, f in enumerate(fs):
            t0 = time.perf_counter()
            f()
            t[k] = min(t[k], time.perf_counter() - t0)
    return t


def triad(n, reps):
    """``a[:] = b + 3.0 * c``: one fused pass that streams its output past the caches (non-
    temporal stores, as the Rust triad) when it is large; ``plain_stores_seconds`` is the same
    assignment with streaming stores turned off, ``unfused_seconds`` with the single-pass kernel
    (``fused.rs``) turned off (the chunked evaluator, one pass per operation over each chunk),
    ``numpy_seconds`` NumPy's two passes with no temporary, all interleaved rep by rep; each
    path's result checked against NumPy."""
    b, c = ak.uniform(n, seed=1), ak.uniform(n, seed=2)
    a = ak.zeros(n)
    nb, nc = b.to_ndarray(), c.to_ndarray()
    na = np.zeros(n)

    def run():
        a[:] = b + 3.0 * c

    def run_plain():
        old = ak._atoll.set_streaming_threshold(2**64 - 1)
        try:
            run()
        finally:
            ak._atoll.set_streaming_threshold(old)

    def run_unfused():
        old = ak._atoll.set_fused_kernels(False)
        try:
            run()
        finally:
            ak._atoll.set_fused_kernels(old)

    def run_np():
        np.multiply(nc, 3.0, out=na)
        np.add(nb, na, out=na)

    want = nb + 3.0 * nc
    ok = True
    for f in (run_unfused, run_plain, run):  # every path checked; `run`'s result stays
        a[:] = 0.0
        f()
        ok = ok and bool(np.array_equal(a.to_ndarray(), want))
    t, tp, tu, tn = interleaved([run, run_plain, run_unfused, run_np], reps)
    ok = ok and bool(np.array_equal(a.to_ndarray(), want))
    rust = rust_triad(n, reps)
    return dict(
        seconds=t,
        numpy_seconds=tn,
        plain_stores_seconds=tp,
        unfused_seconds=tu,
        gbps=3 * 8 * n / t / 1e9,
        ok=ok and rust.get("ok", True),
        rust_seconds=rust.get("seconds"),
        ratio_vs_rust=(rust["seconds"] / t) if "seconds" in rust else None,
        rust_note=rust.get("note"),
    )


def rust_triad(n, reps):
    """The Rust fused triad of ``atoll-bench stream`` (same locales, same n), run here as a
    subprocess: ``ATOLL_BENCH_BIN`` or the repository's ``target/release/atoll-bench``."""
    if ak.backend() != "local":
        return {"note": "ratio_vs_rust is measured on the local backend only"}
    exe = os.environ.get("ATOLL_BENCH_BIN") or os.path.join(
        os.path.dirname(__file__), "..", "..", "target", "release", "atoll-bench"
    )
    if not os.path.exists(exe):
        return {"note": f"no atoll-bench binary at {exe} (make build, or set ATOLL_BENCH_BIN)"}
    cmd = [exe, "stream", "--json", "--locales", str(ak.num_locales()), "--n", str(n), "--reps", str(reps)]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    for line in out.stdout.splitlines():
        try:
            r = json.loads(line)
        except ValueError:
            continue
        if r.get("variant") == "triad":
            return {"seconds": r["seconds"], "ok": r.get("ok", False)}
    return {"note": f"atoll-bench stream printed no triad line (exit {out.returncode}): {out.stderr[-300:]}"}


def small_op(n, reps):
    n = 1000
    a, b = ak.arange(n), ak.arange(n)
    times = []
    for _ in range(10_000):
        t0 = time.perf_counter()
        c = (a + b)._materialize()
        times.append(time.perf_counter() - t0)
    na = np.arange(n)
    tn = best(lambda: na + na, 1000)
    t = float(np.median(times))
    return dict(n=n, seconds=t, numpy_seconds=tn, latency_us=t * 1e6, ok=bool(np.array_equal(c.to_ndarray(), 2 * na)))


def reduce(n, reps):
    """``ak.sum`` of float64 against NumPy's ``sum`` (both pairwise summation), interleaved."""
    a = ak.uniform(n, seed=3)
    x = a.to_ndarray()
    r = [None, None]
    t, tn = interleaved([lambda: r.__setitem__(0, ak.sum(a)), lambda: r.__setitem__(1, x.sum())], reps)
    return dict(seconds=t, numpy_seconds=tn, ok=bool(abs(r[0] - r[1]) <= 1e-12 * abs(r[1])))


def scan(n, reps):
    a = ak.randint(0, 100, n, seed=4)
    x = a.to_ndarray()
    r = [None]
    t = best(lambda: r.__setitem__(0, ak.cumsum(a)), reps)
    tn = best(lambda: np.cumsum(x), reps)
    return dict(seconds=t, numpy_seconds=tn, ok=bool(np.array_equal(r[0].to_ndarray(), np.cumsum(x))))


def gather(n, reps):
    a = ak.uniform(n, seed=5)
    idx = ak.randint(0, n, n, seed=6)
    x, ix = a.to_ndarray(), idx.to_ndarray()
    r = [None]
    t = best(lambda: r.__setitem__(0, a[idx]), reps)
    tn = best(lambda: x[ix], reps)
    return dict(seconds=t, numpy_seconds=tn, ok=bool(np.array_equal(r[0].to_ndarray(), x[ix])))


def scatter(n, reps):
    v = ak.uniform(n, seed=7)
    perm = ak.argsort(ak.randint(0, 2**62, n, seed=8))  # a permutation: no duplicate targets
    a = ak.zeros(n)
    xv, xp = v.to_ndarray(), perm.to_ndarray()
    xa = np.zeros(n)

    def run():
        a[perm] = v

    def run_np():
        xa[xp] = xv

    t, tn = best(run, reps), best(run_np, reps)
    return dict(seconds=t, numpy_seconds=tn, ok=bool(np.array_equal(a.to_ndarray(), xa)))


def main(argv=None):
    p = argparse.ArgumentParser(prog="bench/python/bench.py", description=__doc__.split("\n")[0])
    p.add_argument(
        "kernels",
        nargs="*",
        default=DEFAULT_KERNELS,
        help=f"any of {KERNELS + ANALYTICS}, or analytics (default: {DEFAULT_KERNELS})",
    )
    p.add_argument("--chart", default=None, help="PNG of the analytics kernels' speedups (matplotlib)")
    p.add_argument("--json", action="store_true", help="JSON lines (the default prints them too)")
    p.add_argument("--locales", type=int, default=None)
    p.add_argument("--n", type=int, default=1 << 27)
    p.add_argument("--reps", type=int, default=5)
    args = p.parse_args(argv)
    args.kernels = [x for k in args.kernels for x in (ANALYTICS if k == "analytics" else [k])]
    bad = [k for k in args.kernels if k not in KERNELS + ANALYTICS]
    if bad:
        p.error(f"unknown kernel(s) {bad}; expected some of {KERNELS}")
    if args.locales is not None:
        ak.init(locales=args.locales)
    rows = []
    for k in args.kernels:
        r = dict(bench=k, variant="python", backend=ak.backend(), locales=ak.num_locales(), n=args.n)
        f = getattr(bench_analytics, k) if k in ANALYTICS else globals()[k]
        r.update(f(args.n, args.reps))
        r["speedup_vs_numpy"] = r["numpy_seconds"] / r["seconds"]
        print(json.dumps(r), flush=True)
        if k in ANALYTICS:
            rows.append(r)
    if args.chart and rows:
        bench_analytics.chart(rows, args.chart)
    return 0


if __name__ == "__main__":
    sys.exit(main())
