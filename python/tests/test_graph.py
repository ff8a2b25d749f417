"""ak.graph against scipy.sparse and networkx on small graphs (on every locale count of the
suite and under mpiexec)."""

import os
import tempfile

import atoll as ak
import numpy as np
import pytest

sp = pytest.importorskip("scipy.sparse")
csgraph = pytest.importorskip("scipy.sparse.csgraph")
nx = pytest.importorskip("networkx")


def random_edges(n, m, seed):
    rng = np.random.default_rng(seed)
    src = rng.integers(0, n, m)
    dst = rng.integers(0, n, m)
    return src, dst


def sym_csr(n, src, dst):
    a = sp.csr_matrix((np.ones(2 * len(src)), (np.r_[src, dst], np.r_[dst, src])), shape=(n, n))
    a.data[:] = 1.0  # a pattern: duplicates merged
    return a


def lp_reference(a, iters):
    """Synchronous label propagation with networkx's adjacency (ties to the smallest)."""
    g = nx.from_scipy_sparse_array(a)
    n = a.shape[0]
    lab = list(range(n))
    for it in range(1, iters + 1):
        new = lab[:]
        for v in range(n):
            counts = {}
            for u in g.adj[v]:
                if u != v:
                    counts[lab[u]] = counts.get(lab[u], 0) + 1
            if counts:
                new[v] = max(counts.items(), key=lambda kv: (kv[1], -kv[0]))[0]
        done = new == lab
        lab = new
        if done:
            return np.array(lab), it, True
    return np.array(lab), iters, False


@pytest.fixture(scope="module")
def small():
    n = 120
    src, dst = random_edges(n, 150, 7)  # sparse: several components
    g = ak.graph.from_edges(ak.array(src), ak.array(dst), num_vertices=n, symmetric=True)
    return n, src, dst, g, sym_csr(n, src, dst)


def test_components_and_bfs_match_scipy(small):
    n, src, dst, g, a = small
    assert g.num_vertices == n and g.num_edges == a.nnz
    _, comp = csgraph.connected_components(a, directed=False)
    # Our labels are the smallest vertex of each component.
    want = np.array([np.flatnonzero(comp == comp[v]).min() for v in range(n)])
    np.testing.assert_array_equal(ak.graph.connected_components(g).to_ndarray(), want)
    for s in (0, 17):
        d = csgraph.shortest_path(a, unweighted=True, indices=s)
        want = np.where(np.isinf(d), -1, d).astype(np.int64)
        np.testing.assert_array_equal(ak.graph.bfs(g, s).to_ndarray(), want)


def test_label_propagation_matches_networkx_adjacency(small):
    n, src, dst, g, a = small
    labels, it, conv = ak.graph.label_propagation(g, max_iters=20, return_info=True)
    want, wit, wconv = lp_reference(a, 20)
    np.testing.assert_array_equal(labels.to_ndarray(), want)
    assert (it, conv) == (wit, wconv)


def test_hitting_times_match_a_scipy_solve(small):
    n, src, dst, g, a = small
    targets = [0, 5]
    off = a - sp.diags(a.diagonal())
    deg = np.asarray(off.sum(axis=1)).ravel()
    _, comp = csgraph.connected_components(a, directed=False)
    reach = np.isin(comp, comp[targets])
    unknown = np.flatnonzero(reach & ~np.isin(np.arange(n), targets) & (deg > 0))
    lap = (sp.diags(deg) - off).tocsr()[unknown][:, unknown]
    h = sp.linalg.spsolve(lap.tocsc(), deg[unknown])
    want = np.full(n, np.inf)
    want[targets] = 0.0
    want[unknown] = h
    got, res, conv = ak.graph.hitting_times(g, targets, tol=1e-12, max_iters=2000, return_residuals=True)
    assert conv and len(res) > 0
    np.testing.assert_allclose(got.to_ndarray(), want, rtol=1e-7)
    # Jacobi needs thousands of iterations here (its accuracy is tested in Rust): a capped run
    # reports its residuals and that it did not converge.
    got, res, conv = ak.graph.hitting_times(g, targets, tol=1e-12, max_iters=40, method="jacobi", return_residuals=True)
    assert not conv and len(res) == 40 and res[-1] < res[0]
    assert np.isinf(got.to_ndarray()[~np.isfinite(want)]).all()


def test_pagerank_matches_networkx():
    n = 60
    src, dst = random_edges(n, 300, 3)
    keep = src != dst
    src, dst = src[keep], dst[keep]
    g = ak.graph.from_edges(ak.array(src), ak.array(dst), num_vertices=n)
    G = nx.DiGraph()
    G.add_nodes_from(range(n))
    G.add_edges_from(zip(src.tolist(), dst.tolist()))
    want = nx.pagerank(G, alpha=0.85, tol=1e-13, max_iter=1000)
    got = ak.graph.pagerank(g, tol=1e-13).to_ndarray()
    np.testing.assert_allclose(got, [want[v] for v in range(n)], atol=1e-8)


def test_matrix_market_and_generators():
    n = 30
    src, dst = random_edges(n, 80, 11)
    a = sym_csr(n, src, dst)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "g.mtx")
        # scipy writes the file; written by the driver only (the locales read it in parallel).
        import scipy.io

        scipy.io.mmwrite(path, a.tocoo(), field="pattern", symmetry="symmetric")
        g = ak.graph.read_matrix_market(path)
        assert g.num_vertices == n and g.num_edges == a.nnz
        _, comp = csgraph.connected_components(a, directed=False)
        want = np.array([np.flatnonzero(comp == comp[v]).min() for v in range(n)])
        np.testing.assert_array_equal(ak.graph.connected_components(g).to_ndarray(), want)
        with open(path, "w") as f:
            f.write("%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n4 1\n")
        with pytest.raises(ValueError, match=r":4: row index 4 is out of range"):
            ak.graph.read_matrix_market(path)
    with pytest.raises(OSError):
        ak.graph.read_matrix_market("/nonexistent/atoll.mtx")
    k1 = ak.graph.kronecker(8, seed=3)
    assert k1.num_vertices == 256 and k1.num_edges > 0
    f = ak.graph.fe_banded(3, 3, 3, 1)
    assert f.num_edges == 7**3  # 27-point couplings on a 3 x 3 x 3 grid: (2 + 3 + 2) per axis
    lv = ak.graph.bfs(f, 0).to_ndarray()
    assert lv.max() == 2 and (lv >= 0).all()


def test_bad_arguments_raise_python_errors(small):
    n, src, dst, g, a = small
    with pytest.raises(IndexError):
        ak.graph.bfs(g, n)
    with pytest.raises(IndexError):
        ak.graph.hitting_times(g, [n + 3])
    with pytest.raises(ValueError):
        ak.graph.hitting_times(g, [])
    with pytest.raises(TypeError):
        ak.graph.connected_components("not a graph")
    with pytest.raises(ValueError):
        ak.graph.pagerank(g, damping=1.5)
    with pytest.raises(IndexError):
        ak.graph.from_edges(ak.array(np.array([-1, 2])), ak.array(np.array([0, 1])), num_vertices=5)
    # The session goes on.
    assert ak.graph.connected_components(g).size == n
