"""N-dimensional pdarrays against NumPy on the same data in the same run, results checked.

``python bench/python/bench_ndarray.py [kernel...] [--n N] [--cube K] [--mm N] [--reps R]``

Kernels (``--n``: the side of the 2-D float64 array, 8192 by default; ``--cube``: the side of the
3-D one; ``--mm``: the side of the matrices of ``matmul``):

- ``sum_axis0``, ``sum_axis1``: ``ak.sum(x, axis=k)`` of an n x n array;
- ``transpose_copy``: ``x.T.copy()``;
- ``broadcast_add``: ``a + b`` of an (n, 1) and a (1, n) array (an n x n result);
- ``stencil3d``: a 7-point stencil written as slices of a K x K x K array
  (``x[1:-1, 1:-1, 1:-1] * -6 + x[2:, 1:-1, 1:-1] + x[:-2, 1:-1, 1:-1] + ...``);
- ``matmul``: ``a @ b`` of two N x N arrays, against NumPy's BLAS on the same cores.

One JSON line per kernel: ``seconds`` (Atoll, best of ``--reps``), ``numpy_seconds``,
``speedup_vs_numpy``, ``ceiling_seconds`` and ``fraction_of_ceiling`` (``ceiling_seconds`` over
``seconds``), ``ok`` (the result equals NumPy's: exactly for the copies, within 1e-9 relative for
sums and the stencil, 1e-8 for matmul). The ceiling is measured in the same run: the time to copy
the kernel's bytes (its input array, or its output for ``broadcast_add``) at the machine's copy
bandwidth, measured as the best of 3 NumPy copies of a 512 MiB array split over one thread per
core (each thread copies its contiguous part; NumPy releases the GIL for the copy). For
``matmul`` the ceiling is NumPy's BLAS time (``ceiling_seconds`` = ``numpy_seconds``).

Works under ``mpiexec -n N`` too (rank 0 prints). A script outside the ``atoll`` package: it
imports ``atoll`` as a user does.
"""

import argparse
import json
import os
import sys
import threading
import time

import atoll as ak
import numpy as np

KERNELS = ["sum_axis0", "sum_axis1", "transpose_copy", "broadcast_add", "stencil3d", "matmul"]


def copy_bandwidth(nbytes=512 << 20, threads=None):
    """Bytes per second of a copy of ``nbytes`` split over ``threads`` threads (default: cores)."""
    threads = threads or os.cpu_count() or 1
    a = np.ones(nbytes // 8)
    b = np.empty_like(a)
    parts = np.array_split(np.arange(a.size), threads)
    bounds = [(p[0], p[-1] + 1) for p in parts if p.size]

    def run(lo, hi):
        np.copyto(b[lo:hi], a[lo:hi])

    best = float("inf")
    for _ in range(3):
        ts = [threading.Thread(target=run, args=bd) for bd in bounds]
        t0 = time.perf_counter()
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        best = min(best, time.perf_counter() - t0)
    return nbytes / best


def best(f, reps):
    t = float("inf")
    out = None
    for _ in range(reps):
        t0 = time.perf_counter()
        out = f()
        t = min(t, time.perf_counter() - t0)
    return t, out


def stencil_np(x):
    c = x[1:-1, 1:-1, 1:-1]
    return (
        c * -6.0
        + x[2:, 1:-1, 1:-1]
        + x[:-2, 1:-1, 1:-1]
        + x[1:-1, 2:, 1:-1]
        + x[1:-1, :-2, 1:-1]
        + x[1:-1, 1:-1, 2:]
        + x[1:-1, 1:-1, :-2]
    )


def stencil_ak(x):
    y = stencil_np(x)  # the same slice expression on a pdarray
    return y._materialize() if hasattr(y, "_materialize") else y


def kernel(name, args, bw):
    rng = np.random.default_rng(1)
    if name in ("sum_axis0", "sum_axis1", "transpose_copy"):
        xn = rng.random((args.n, args.n))
        xa = ak.array(xn)
        nbytes = xn.nbytes
        if name == "transpose_copy":
            fa, fn = (lambda: xa.T.copy()), (lambda: xn.T.copy())
        else:
            axis = 0 if name == "sum_axis0" else 1
            fa, fn = (lambda: ak.sum(xa, axis=axis)), (lambda: xn.sum(axis=axis))
    elif name == "broadcast_add":
        an, bn = rng.random((args.n, 1)), rng.random((1, args.n))
        aa, ba = ak.array(an), ak.array(bn)
        nbytes = args.n * args.n * 8

        def fa():
            return (aa + ba)._materialize()

        def fn():
            return an + bn
    elif name == "stencil3d":
        xn = rng.random((args.cube,) * 3)
        xa = ak.array(xn)
        nbytes = xn.nbytes
        fa, fn = (lambda: stencil_ak(xa)), (lambda: stencil_np(xn))
    elif name == "matmul":
        an, bn = rng.random((args.mm, args.mm)), rng.random((args.mm, args.mm))
        aa, ba = ak.array(an), ak.array(bn)
        nbytes = an.nbytes
        fa, fn = (lambda: aa @ ba), (lambda: an @ bn)
    else:
        raise SystemExit(f"unknown kernel {name!r}; known: {', '.join(KERNELS)}")
    ta, ra = best(fa, args.reps)
    tn, rn = best(fn, args.reps)
    ra = ra.to_ndarray() if hasattr(ra, "to_ndarray") else np.asarray(ra)
    if name == "transpose_copy" or name == "broadcast_add":
        ok = ra.shape == rn.shape and bool(np.array_equal(ra, rn))
    else:
        rtol = 1e-8 if name == "matmul" else 1e-9
        ok = ra.shape == rn.shape and bool(np.allclose(ra, rn, rtol=rtol, atol=0))
    ceiling = tn if name == "matmul" else nbytes / bw
    return {
        "bench": "ndarray",
        "variant": name,
        "backend": ak.backend(),
        "locales": ak.num_locales(),
        "shape": list(rn.shape) if name != "matmul" else [args.mm, args.mm],
        "seconds": round(ta, 6),
        "numpy_seconds": round(tn, 6),
        "speedup_vs_numpy": round(tn / ta, 3),
        "copy_gbps": round(bw / 1e9, 2),
        "ceiling_seconds": round(ceiling, 6),
        "fraction_of_ceiling": round(ceiling / ta, 3),
        "ok": ok,
    }


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("kernels", nargs="*", default=KERNELS)
    p.add_argument("--n", type=int, default=8192)
    p.add_argument("--cube", type=int, default=256)
    p.add_argument("--mm", type=int, default=4096)
    p.add_argument("--reps", type=int, default=3)
    args = p.parse_args()
    bw = copy_bandwidth()
    rank0 = int(os.environ.get("PMI_RANK", "0")) == 0
    for name in args.kernels:
        line = kernel(name, args, bw)
        if rank0:
            print(json.dumps(line), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
