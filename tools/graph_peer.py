"""The Python peer of ``atoll-bench graph``: scipy.sparse hitting times and networkx
label propagation on the same graphs, one core, printing the benchmark's JSON lines with
``peer``.

The graphs come from ``atoll-bench graph --dump DIR`` (raw little-endian u32 (row, col) pairs of
every stored entry: ``DIR/bcsstk.u32pairs``, ``DIR/kron<scale>.u32pairs``), so both sides run on
exactly the same edges::

    target/release/atoll-bench graph --locales 2 --scale 18 --dump /tmp/graphs --json
    .venv/bin/python tools/graph_peer.py /tmp/graphs --json

Lines:

* ``hitting_*`` (``peer: scipy``): the same solve as Atoll's (``(D - A)_NN h = d_N``, conjugate
  gradients preconditioned by the degrees, to ``--tol``; targets: vertex 0 for bcsstk, the
  highest-degree vertex for Kronecker), the restricted operator built once as a CSR matrix,
  one scipy.sparse SpMV per iteration. ``ok``: converged, and ``||d - (D - A) h||`` recomputed
  from the solution is within 10 ``tol`` of ``||d||`` (compare ``iters`` with Atoll's line).
* ``lp_*`` (``peer: networkx``): synchronous label propagation (most frequent neighbour label,
  ties to the smallest) over a networkx graph's adjacency, ``seconds_per_iter`` over the same
  iterations as Atoll; ``ok``: equal to an independent vectorized NumPy implementation. The
  line also times networkx's own ``label_propagation_communities`` (semi-synchronous, to
  convergence) as ``networkx_lpa_seconds``. Large Kronecker graphs do not fit networkx's
  memory (about 1 KiB per edge): use ``--only`` or a small ``--scale`` there.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

import numpy as np


def load(path: str):
    import scipy.sparse as sp

    pairs = np.fromfile(path, dtype="<u4").reshape(-1, 2)
    n = int(pairs.max()) + 1 if len(pairs) else 0
    if "bcsstk" in os.path.basename(path):
        n = 13_992
    else:
        scale = int(os.path.basename(path)[4:].split(".")[0])
        n = 1 << scale
    a = sp.csr_matrix((np.ones(len(pairs)), (pairs[:, 0].astype(np.int64), pairs[:, 1].astype(np.int64))), shape=(n, n))
    a.sum_duplicates()
    return a


def components(a):
    import scipy.sparse.csgraph as cg

    return cg.connected_components(a, directed=False)[1]


def hitting_cg(a, targets, iters, tol):
    """Atoll's system and method (CG preconditioned by the degrees, stopping at ``||r|| <= tol
    ||b||``): returns (times, residuals, seconds of the iterations, recomputed residual, ||b||,
    converged)."""
    import scipy.sparse as sp

    n = a.shape[0]
    off = a - sp.diags(a.diagonal())
    off.eliminate_zeros()
    deg = np.asarray(abs(off).sum(axis=1)).ravel()
    comp = components(a)
    tcomp = set(comp[targets].tolist())
    is_t = np.zeros(n, bool)
    is_t[targets] = True
    active = (~is_t) & np.isin(comp, list(tcomp)) & (deg > 0)
    # The restricted operator (D - A)_NN built once: one CSR SpMV per iteration.
    idx = np.flatnonzero(active)
    lap = (sp.diags(deg) - off).tocsr()[idx][:, idx].tocsr()
    b = deg[idx]
    inv = 1.0 / b
    bnorm = float(np.sqrt(b @ b))
    h = np.zeros(len(idx))
    r = b.copy()
    z = r * inv
    p = z.copy()
    rz = r @ z
    res = []
    converged = bnorm == 0.0
    t0 = time.perf_counter()
    while not converged and len(res) < iters:
        y = lap @ p
        py = p @ y
        if py <= 0:
            break
        alpha = rz / py
        h += alpha * p
        r -= alpha * y
        z = r * inv
        rr = float(np.sqrt(r @ r))
        res.append(rr)
        converged = rr <= tol * bnorm
        rz2 = r @ z
        p = z + (rz2 / rz) * p
        rz = rz2
    secs = time.perf_counter() - t0
    check = b - lap @ h
    times = np.where(is_t, 0.0, np.inf)
    times[idx] = h
    return times, res, secs, float(np.sqrt(check @ check)), bnorm, converged


def lp_numpy(a, iters):
    """Synchronous label propagation, vectorized (the independent check)."""
    n = a.shape[0]
    coo = a.tocoo()
    keep = coo.row != coo.col
    rows, cols = coo.row[keep].astype(np.int64), coo.col[keep].astype(np.int64)
    lab = np.arange(n, dtype=np.int64)
    done = 0
    for _ in range(iters):
        done += 1
        key = rows * n + lab[cols]
        uniq, cnt = np.unique(key, return_counts=True)
        r, l = uniq // n, uniq % n
        order = np.lexsort((l, -cnt, r))
        r, l = r[order], l[order]
        first = np.ones(len(r), bool)
        first[1:] = r[1:] != r[:-1]
        new = lab.copy()
        new[r[first]] = l[first]
        changed = not np.array_equal(new, lab)
        lab = new
        if not changed:
            break
    return lab, done


def lp_networkx(g, n, iters):
    """Synchronous label propagation over a networkx graph's adjacency."""
    lab = list(range(n))
    done = 0
    t0 = time.perf_counter()
    for _ in range(iters):
        done += 1
        new = lab[:]
        for v, nbrs in g.adjacency():
            counts = {}
            for u in nbrs:
                if u != v:
                    counts[lab[u]] = counts.get(lab[u], 0) + 1
            if counts:
                best = max(counts.items(), key=lambda kv: (kv[1], -kv[0]))
                new[v] = best[0]
        changed = new != lab
        lab = new
        if not changed:
            break
    return np.array(lab), done, time.perf_counter() - t0


def emit(line, as_json):
    if as_json:
        print(json.dumps(line), flush=True)
    else:
        print(" ".join(f"{k}={v}" for k, v in line.items()), flush=True)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--lp-iters", type=int, default=10)
    ap.add_argument("--cg-iters", type=int, default=2000)
    ap.add_argument("--tol", type=float, default=1e-10)
    ap.add_argument("--only", default="")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    only = set(filter(None, args.only.split(",")))
    want = lambda name: not only or name in only  # noqa: E731
    files = sorted(f for f in os.listdir(args.dir) if f.endswith(".u32pairs"))
    for f in files:
        kind = "bcsstk" if f.startswith("bcsstk") else "kron"
        a = load(os.path.join(args.dir, f))
        n = a.shape[0]
        if want(f"hitting_{kind}"):
            if kind == "bcsstk":
                target = 0
            else:
                deg = np.diff(a.indptr)
                target = int(np.argmax(deg))
            times, res, secs, check, bnorm, conv = hitting_cg(a, [target], args.cg_iters, args.tol)
            # Converged, and the residual recomputed from the solution is small too.
            ok = conv and len(res) > 0 and check <= 10 * args.tol * bnorm
            emit(
                {
                    "bench": "graph",
                    "variant": f"hitting_{kind}",
                    "peer": "scipy",
                    "n": n,
                    "nnz": int(a.nnz),
                    "seconds_per_iter": secs / max(len(res), 1),
                    "iters": len(res),
                    "target": target,
                    "converged": bool(conv),
                    "last_residual": res[-1] if res else 0.0,
                    "ok": bool(ok),
                },
                args.json,
            )
        if want(f"lp_{kind}"):
            import networkx as nx

            g = nx.from_scipy_sparse_array(a)
            g.remove_edges_from(list(nx.selfloop_edges(g)))  # self loops do not vote (as in Atoll)
            got, done, secs = lp_networkx(g, n, args.lp_iters)
            ref, rdone = lp_numpy(a, args.lp_iters)
            t0 = time.perf_counter()
            comms = list(nx.community.label_propagation_communities(g))
            lpa = time.perf_counter() - t0
            partition = sum(len(c) for c in comms) == n
            emit(
                {
                    "bench": "graph",
                    "variant": f"lp_{kind}",
                    "peer": "networkx",
                    "n": n,
                    "nnz": int(a.nnz),
                    "seconds_per_iter": secs / max(done, 1),
                    "iters": done,
                    "networkx_lpa_seconds": lpa,
                    "networkx_lpa_communities": len(comms),
                    "ok": bool(np.array_equal(got, ref) and done == rdone and partition),
                },
                args.json,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
