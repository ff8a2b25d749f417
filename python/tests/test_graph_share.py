"""Approach 2 of the Chapel-Grafiki talk from Python: ``ak.graph.share_edges`` puts a graph's edge list in
shared arrays, the C++ consumer ``examples/c/hitting_consumer`` (built by ``make examples-c``;
skipped with a message if it is not) computes hitting times on it in place in a separate
process, and the answer equals ``ak.graph.hitting_times`` and a scipy solve (rtol 1e-6, inf
pattern equal). Bad files give the consumer's exit status 2 and a message."""

import os
import subprocess
from pathlib import Path

import atoll as ak
import numpy as np
import pytest
from atoll import share

sp = pytest.importorskip("scipy.sparse")
spla = pytest.importorskip("scipy.sparse.linalg")
csgraph = pytest.importorskip("scipy.sparse.csgraph")

CONSUMER = Path(
    os.environ.get("ATOLL_HITTING_CONSUMER", Path(__file__).resolve().parents[2] / "target/examples-c/hitting_consumer")
)
needs_consumer = pytest.mark.skipif(not CONSUMER.exists(), reason=f"{CONSUMER} is not built (run `make examples-c`)")


def _name(tag):
    return f"pyg-{tag}-{os.getpid()}"


def scipy_hitting(n, rows, cols, vals, targets):
    """h = 0 on targets, (D - A)_NN h_N = d_N on the reachable non-targets, inf elsewhere."""
    a = sp.csr_matrix((vals, (rows, cols)), shape=(n, n))
    off = a - sp.diags(a.diagonal())
    deg = np.asarray(off.sum(axis=1)).ravel()
    _, comp = csgraph.connected_components(a, directed=False)
    reach = np.isin(comp, comp[targets])
    unknown = np.flatnonzero(reach & ~np.isin(np.arange(n), targets) & (deg > 0))
    lap = (sp.diags(deg) - off).tocsr()[unknown][:, unknown]
    want = np.full(n, np.inf)
    want[targets] = 0.0
    want[unknown] = spla.spsolve(lap.tocsc(), deg[unknown])
    return want


def run_consumer(d, prefix, out, *extra, timeout_ms=60000):
    return subprocess.Popen(
        [
            str(CONSUMER),
            "--dir",
            str(d),
            "--edges",
            prefix,
            "--targets",
            f"{prefix}-targets",
            "--out",
            out,
            "--timeout-ms",
            str(timeout_ms),
            *extra,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def check_close(got, want):
    assert np.array_equal(np.isinf(got), np.isinf(want))
    fin = np.isfinite(want)
    np.testing.assert_allclose(got[fin], want[fin], rtol=1e-6)


@needs_consumer
@pytest.mark.parametrize("kind", ["fe", "kron"])
def test_cpp_consumer_computes_hitting_times_on_a_shared_edge_list(tmp_path, kind):
    if kind == "fe":
        g = ak.graph.fe_banded(3, 4, 10, 2)  # bcsstk29-like pattern, small
        n = g.num_vertices
        targets = [0, n - 1]
    else:
        g = ak.graph.kronecker(8, edge_factor=2, seed=5)
        n = g.num_vertices
    e = ak.graph.share_edges(g, _name(kind), targets=None, dir=tmp_path, unit_weights=True)
    rows, cols, vals = e.rows.to_ndarray(), e.cols.to_ndarray(), e.vals.to_ndarray()
    assert rows.dtype == np.int64 and vals.dtype == np.float64 and (vals == 1.0).all()
    assert rows.size == g.num_edges
    if kind == "kron":
        # The hub and a vertex of the largest other component: several components are
        # finite, the rest (isolated vertices included) inf.
        a = sp.csr_matrix((vals, (rows, cols)), shape=(n, n))
        nc, comp = csgraph.connected_components(a, directed=False)
        hub = int(np.argmax(np.bincount(rows, minlength=n)))
        sizes = np.bincount(comp, minlength=nc)
        sizes[comp[hub]] = 0
        other = int(np.flatnonzero(comp == np.argmax(sizes))[0])
        assert sizes.max() >= 2
        targets = [hub, other]
    e = ak.graph.share_edges(g, _name(kind) + "t", targets=targets, dir=tmp_path, unit_weights=True)
    assert e.names[-1] == f"{_name(kind)}t-targets"
    np.testing.assert_array_equal(share.attach(f"{_name(kind)}t-targets", dir=tmp_path).to_numpy(), targets)
    h = share.make(_name(kind) + "-h", n, "float64", dir=tmp_path)
    out = share.attach(_name(kind) + "-h", dir=tmp_path, writable=True)
    p = run_consumer(tmp_path, _name(kind) + "t", _name(kind) + "-h", "--tol", "1e-10")
    out.signal_post(0)
    for _ in range(1200):  # "done", or the consumer's exit without it
        try:
            out.signal_wait(1, timeout=0.1)
            break
        except TimeoutError:
            if p.poll() is not None:
                break
    so, se = p.communicate(timeout=120)
    assert p.returncode == 0, se
    assert '"converged": true' in so, so
    got = h.to_ndarray()
    # The same graph as Atoll sees it, unweighted: from the shared edge list itself.
    gp = ak.graph.from_edges(e.rows, e.cols, num_vertices=n)
    mine = ak.graph.hitting_times(gp, targets, tol=1e-10).to_ndarray()
    want = scipy_hitting(n, rows, cols, vals, targets)
    if kind == "kron":
        assert np.isinf(want).any() and (np.isfinite(want) & (want > 0)).sum() > 10
    check_close(got, want)
    check_close(got, mine)
    assert out.generation == 2  # made (1), bumped once by the consumer


@needs_consumer
def test_bad_edge_lists_give_exit_2(tmp_path):
    g = ak.graph.fe_banded(2, 2, 3, 1)  # weighted: -1 off the diagonal
    n = g.num_vertices
    w = ak.graph.share_edges(g, _name("w"), targets=[0], dir=tmp_path)
    assert (w.vals.to_ndarray() == -1.0).any()
    h = share.make(_name("h"), n, "float64", dir=tmp_path)
    out = share.attach(_name("h"), dir=tmp_path, writable=True)
    out.signal_post(0)
    p = run_consumer(tmp_path, _name("w"), _name("h"))
    _, se = p.communicate(timeout=60)
    assert p.returncode == 2 and "weight -1" in se, se
    # A truncated block file of the edge list.
    u = ak.graph.share_edges(g, _name("u"), targets=[0], dir=tmp_path, unit_weights=True)
    with open(tmp_path / f"atoll-{_name('u')}-rows-0", "r+b") as f:
        f.truncate(4)
    p = run_consumer(tmp_path, _name("u"), _name("h"))
    _, se = p.communicate(timeout=60)
    assert p.returncode == 2 and f"atoll-{_name('u')}-rows" in se, se
    # A foreign metadata file.
    (tmp_path / f"atoll-{_name('f')}-rows.meta").write_bytes(b"not an atoll array")
    p = run_consumer(tmp_path, _name("f"), _name("h"))
    _, se = p.communicate(timeout=60)
    assert p.returncode == 2 and f"atoll-{_name('f')}-rows.meta" in se, se
    del w, u, h


def test_share_edges_bad_arguments(tmp_path):
    g = ak.graph.kronecker(4, edge_factor=2, seed=1)
    with pytest.raises(IndexError):
        ak.graph.share_edges(g, _name("x"), targets=[16], dir=tmp_path)
    with pytest.raises(ValueError):
        ak.graph.share_edges(g, _name("x"), targets=[], dir=tmp_path)
    with pytest.raises(ValueError):
        ak.graph.share_edges(g, "../escape", dir=tmp_path)
    with pytest.raises(TypeError):
        ak.graph.share_edges("not a graph", _name("x"), dir=tmp_path)
    e = ak.graph.share_edges(g, _name("y"), dir=tmp_path)
    with pytest.raises(OSError):
        ak.graph.share_edges(g, _name("y"), dir=tmp_path)  # the names are taken
    del e
    ak.get_mem_used()  # runs the batched frees of small pdarrays: their files go with them
    assert os.listdir(tmp_path) == []
