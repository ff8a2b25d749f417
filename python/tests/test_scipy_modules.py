"""Arkouda's ``arkouda.scipy`` layer against SciPy: ``special.xlogy`` against ``scipy.special``,
``power_divergence``/``chisquare`` against ``scipy.stats`` (N-d samples as SciPy's ``axis=None``),
and the sparse matrices against ``scipy.sparse``: the order of the stored entries (CSR row-major,
CSC column-major, 1-based indices), products against ``scipy.sparse`` and dense NumPy products.

The random inputs come from seeded NumPy generators (the same on every MPI rank)."""

import atoll as ak
import numpy as np
import pytest
from atoll.scipy import (
    Power_divergenceResult,
    chisquare,
    create_sparse_matrix,
    power_divergence,
    random_sparse_matrix,
    sparray,
    sparse_matrix_matrix_mult,
)
from atoll.scipy.special import xlogy

sp = pytest.importorskip("scipy.sparse")
special = pytest.importorskip("scipy.special")
stats = pytest.importorskip("scipy.stats")

LAMBDAS = ["pearson", "log-likelihood", "freeman-tukey", "mod-log-likelihood", "neyman", "cressie-read", 1.5, -0.25]


def _close(got, want):
    assert np.allclose(
        np.asarray(got, dtype=float), np.asarray(want, dtype=float), rtol=1e-10, atol=1e-12, equal_nan=True
    ), (
        got,
        want,
    )


# ---------------------------------------------------------------- special.xlogy


@pytest.mark.parametrize("seed", range(4))
def test_xlogy_arrays_against_scipy(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 40))
    x = rng.choice([0.0, -1.5, 2.0, 3.25, np.nan, 0.5], size=n)
    y = rng.choice([0.0, -1.0, 1.0, 7.5, np.nan, np.inf, 1e-300], size=n)
    _close(xlogy(ak.array(x), ak.array(y)).to_ndarray(), special.xlogy(x, y))
    xi = rng.integers(-3, 4, size=n)
    yi = rng.integers(-2, 10, size=n)
    got = xlogy(ak.array(xi), ak.array(yi))
    assert got.dtype == np.float64
    _close(got.to_ndarray(), special.xlogy(xi, yi))


@pytest.mark.parametrize("x", [0, 3, 5.0, np.float64(6), np.int64(-2), True])
def test_xlogy_scalar_x_against_scipy(x):
    y = np.array([1.0, 2.0, 0.0, -1.0, np.nan, 100.0])
    _close(xlogy(x, ak.array(y)).to_ndarray(), special.xlogy(x, y))


def test_xlogy_bad_input():
    with pytest.raises(ValueError):
        xlogy(ak.array([1.0, 2.0]), ak.array([1.0, 2.0, 3.0]))
    with pytest.raises(TypeError):
        xlogy(ak.array([1.0]), [1.0])
    with pytest.raises(TypeError):
        xlogy("a", ak.array([1.0]))


def test_xlogy_at_top_level():
    assert ak.xlogy is xlogy
    assert ak.chisquare is chisquare and ak.power_divergence is power_divergence
    assert ak.Power_divergenceResult is Power_divergenceResult


# ---------------------------------------------------------------- power_divergence, chisquare


def _samples(seed):
    rng = np.random.default_rng(seed)
    k = int(rng.integers(2, 12))
    obs = rng.integers(0, 30, size=k).astype(np.int64)
    obs[0] += 1  # a nonzero total
    exp = rng.random(k) + 0.1
    exp = exp * obs.sum() / exp.sum()
    return obs, exp


@pytest.mark.parametrize("lambda_", LAMBDAS)
@pytest.mark.parametrize("seed", range(3))
def test_power_divergence_against_scipy(lambda_, seed):
    obs, exp = _samples(seed)
    for ddof in (0, 1, obs.size - 1):
        got = power_divergence(ak.array(obs), ak.array(exp), ddof=ddof, lambda_=lambda_)
        want = stats.power_divergence(obs, exp, ddof=ddof, lambda_=lambda_)
        assert isinstance(got, Power_divergenceResult)
        _close(got, want)
        got = power_divergence(ak.array(obs), ddof=ddof, lambda_=lambda_)
        _close(got, stats.power_divergence(obs, ddof=ddof, lambda_=lambda_))


@pytest.mark.parametrize("lambda_", ["log-likelihood", "mod-log-likelihood", "pearson"])
def test_power_divergence_near_equal_counts(lambda_):
    # The statistic's rounding can make it negative: SciPy's p-value is then NaN.
    obs = np.array([10000000, 20000000, 30000000, 40000000, 50000000, 60000000, 70000000])
    exp = obs.copy()
    exp[3] += 1
    for f in ("freeman-tukey", lambda_):
        _close(
            power_divergence(ak.array(obs), ak.array(exp), lambda_=f),
            stats.power_divergence(obs, exp, lambda_=f),
        )


@pytest.mark.parametrize("seed", range(3))
def test_chisquare_against_scipy_nd(seed):
    obs, exp = _samples(seed)
    obs2 = np.ascontiguousarray(np.broadcast_to(obs, (3, obs.size)))
    exp2 = np.ascontiguousarray(np.broadcast_to(exp, (3, exp.size)))
    for ddof in (0, 2):
        _close(chisquare(ak.array(obs2), ak.array(exp2), ddof=ddof), stats.chisquare(obs2, exp2, ddof=ddof, axis=None))
        _close(chisquare(ak.array(obs2), ddof=ddof), stats.chisquare(obs2, ddof=ddof, axis=None))
        _close(
            power_divergence(ak.array(obs2), ak.array(exp2), ddof=ddof, lambda_="cressie-read"),
            stats.power_divergence(obs2, exp2, ddof=ddof, axis=None, lambda_="cressie-read"),
        )


def test_power_divergence_bad_input():
    obs = np.array([10, 20, 30])
    for call in (
        lambda: stats.power_divergence(obs, lambda_="nope"),
        lambda: power_divergence(ak.array(obs), lambda_="nope"),
    ):
        with pytest.raises(ValueError):
            call()
    exp = np.array([10.0, 20.0, 40.0])  # sums differ
    with pytest.raises(ValueError):
        stats.chisquare(obs, exp)
    with pytest.raises(ValueError):
        chisquare(ak.array(obs), ak.array(exp))
    with pytest.raises(TypeError):
        chisquare(obs)
    with pytest.raises(ValueError):
        chisquare(ak.array(obs), ak.array([60.0]))


# ---------------------------------------------------------------- sparse matrices


def _entries(rng, n, density):
    """Distinct (1-based) index pairs of an n-by-n matrix, shuffled, and int64 values."""
    m = int(round(density * n * n))
    flat = rng.choice(n * n, size=m, replace=False)
    return flat // n + 1, flat % n + 1, rng.integers(-5, 6, size=m).astype(np.int64)


def _scipy(n, rows, cols, vals, shape=None):
    return sp.coo_array((vals, (rows - 1, cols - 1)), shape=shape or (n, n))


def _order(mat, layout):
    """The (1-based) entries of a SciPy sparse array in the layout's order, with explicit zeros kept."""
    m = mat.tocsr() if layout == "CSR" else mat.tocsc()
    m.sort_indices()
    major = np.repeat(np.arange(m.shape[0] if layout == "CSR" else m.shape[1]), np.diff(m.indptr)) + 1
    minor = m.indices + 1
    rows, cols = (major, minor) if layout == "CSR" else (minor, major)
    return rows.astype(np.int64), cols.astype(np.int64), m.data


def _parts(mat):
    return [a.to_ndarray() for a in mat.to_pdarray()]


@pytest.mark.parametrize("layout", ["CSR", "CSC"])
@pytest.mark.parametrize("seed", range(3))
def test_create_sparse_matrix_order_against_scipy(layout, seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 15))
    rows, cols, vals = _entries(rng, n, float(rng.random()))
    vals[: vals.size // 3] = 0  # stored zeros stay stored
    mat = create_sparse_matrix(n, ak.array(rows), ak.array(cols), ak.array(vals), layout)
    assert isinstance(mat, sparray)
    assert mat.layout == layout and mat.shape == (n, n) and mat.nnz == rows.size == len(mat)
    want = _order(_scipy(n, rows, cols, vals), layout)
    for g, w in zip(_parts(mat), want):
        np.testing.assert_array_equal(g, w)
    assert _parts(mat)[2].dtype == np.int64


@pytest.mark.parametrize("layout", ["CSR", "CSC"])
def test_random_sparse_matrix(layout):
    n = 9
    full = random_sparse_matrix(n, 1.0, layout)
    dense = sp.coo_array(np.ones((n, n)))
    r, c, v = _parts(full)
    wr, wc, _ = _order(dense, layout)
    np.testing.assert_array_equal(r, wr)
    np.testing.assert_array_equal(c, wc)
    np.testing.assert_array_equal(v, np.zeros(n * n, np.int64))
    assert random_sparse_matrix(n, 0.0, layout).nnz == 0
    part = random_sparse_matrix(40, 0.3, layout, dtype=ak.float64)
    r, c, v = _parts(part)
    assert 0 < part.nnz < 1600 and v.dtype == np.float64 and not v.any()
    assert r.min() >= 1 and c.min() >= 1 and r.max() <= 40 and c.max() <= 40
    # Distinct entries, in the layout's order.
    wr, wc, _ = _order(_scipy(40, r, c, np.ones(r.size)), layout)
    np.testing.assert_array_equal(r, wr)
    np.testing.assert_array_equal(c, wc)


def test_fill_vals():
    m = random_sparse_matrix(6, 0.5, "CSC")
    vals = np.random.default_rng(1).integers(0, 10, m.nnz)
    m.fill_vals(ak.array(vals))
    r, c, v = _parts(m)
    np.testing.assert_array_equal(v, vals)
    want = np.zeros((6, 6), np.int64)
    want[r - 1, c - 1] = vals
    np.testing.assert_array_equal(_scipy(6, r, c, v).toarray(), want)
    with pytest.raises(ValueError):
        m.fill_vals(ak.array(vals.astype(np.float64)))
    with pytest.raises(ValueError):
        m.fill_vals(ak.array(np.append(vals, 1)))
    with pytest.raises(TypeError):
        m.fill_vals(vals)


def _product_reference(n, a, b):
    """SciPy's product of two matrices, with the stored entries Arkouda's product keeps: the
    (i, j) with at least one nonzero product a[i, k] * b[k, j], in CSR order."""
    da, db = a.toarray(), b.toarray()
    hits = (da != 0).astype(np.int64) @ (db != 0).astype(np.int64)
    prod = (a.tocsr() @ b.tocsr()).toarray()
    np.testing.assert_allclose(prod, da @ db)
    rows, cols = np.nonzero(hits)  # row-major
    return rows + 1, cols + 1, prod[rows, cols]


@pytest.mark.parametrize("layouts", [("CSC", "CSR"), ("CSR", "CSR"), ("CSR", "CSC"), ("CSC", "CSC")])
@pytest.mark.parametrize("seed", range(2))
def test_matrix_product_against_scipy(layouts, seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 14))
    ra, ca, va = _entries(rng, n, float(rng.random()))
    rb, cb, vb = _entries(rng, n, float(rng.random()))
    dt = (np.int64, np.float64)[seed % 2]
    va, vb = va.astype(dt), vb.astype(dt)
    a = create_sparse_matrix(n, ak.array(ra), ak.array(ca), ak.array(va), layouts[0])
    b = create_sparse_matrix(n, ak.array(rb), ak.array(cb), ak.array(vb), layouts[1])
    got = sparse_matrix_matrix_mult(a, b)
    assert got.layout == "CSR" and got.shape == (n, n)
    r, c, v = _parts(got)
    wr, wc, wv = _product_reference(n, _scipy(n, ra, ca, va), _scipy(n, rb, cb, vb))
    np.testing.assert_array_equal(r, wr)
    np.testing.assert_array_equal(c, wc)
    assert v.dtype == dt
    np.testing.assert_allclose(v, wv)


def test_dense_product_against_numpy():
    n = 12
    rng = np.random.default_rng(7)
    a = random_sparse_matrix(n, 1.0, "CSC")
    b = random_sparse_matrix(n, 1.0, "CSR")
    av, bv = rng.integers(1, 10, n * n), rng.integers(1, 10, n * n)
    a.fill_vals(ak.array(av))
    b.fill_vals(ak.array(bv))
    da = av.reshape(n, n).T  # CSC: column-major values
    db = bv.reshape(n, n)
    r, c, v = _parts(sparse_matrix_matrix_mult(a, b))
    want = da @ db
    np.testing.assert_array_equal(r, np.repeat(np.arange(1, n + 1), n))
    np.testing.assert_array_equal(c, np.tile(np.arange(1, n + 1), n))
    np.testing.assert_array_equal(v, want.ravel())


def test_empty_product():
    a = create_sparse_matrix(4, ak.array([1]), ak.array([2]), ak.array([3]), "CSR")
    b = create_sparse_matrix(4, ak.array([3]), ak.array([1]), ak.array([5]), "CSR")
    got = sparse_matrix_matrix_mult(a, b)
    assert got.nnz == 0 and (_scipy(4, *_parts(got)).toarray() == 0).all()
    assert [x.size for x in got.to_pdarray()] == [0, 0, 0]


def test_sparse_bad_input():
    r, c, v = ak.array([1, 2]), ak.array([1, 2]), ak.array([1, 2])
    with pytest.raises(ValueError, match="Duplicate"):
        create_sparse_matrix(3, ak.array([1, 1]), ak.array([2, 2]), v, "CSR")
    with pytest.raises(ValueError):
        create_sparse_matrix(3, ak.array([0, 1]), c, v, "CSR")
    with pytest.raises(ValueError):
        create_sparse_matrix(3, r, ak.array([1, 4]), v, "CSC")
    with pytest.raises(ValueError):
        create_sparse_matrix(3, r, c, v, "COO")
    with pytest.raises(ValueError):
        create_sparse_matrix(3, r, c, ak.array([1, 2, 3]), "CSR")
    with pytest.raises(ValueError):
        create_sparse_matrix(3, ak.array([1.0, 2.0]), c, v, "CSR")
    with pytest.raises(TypeError):
        create_sparse_matrix(3, [1, 2], c, v, "CSR")
    with pytest.raises(ValueError):
        random_sparse_matrix(3, 1.5, "CSR")
    with pytest.raises(ValueError):
        random_sparse_matrix(3, 0.5, "ROW")
    with pytest.raises(TypeError):
        random_sparse_matrix(3, 0.5, "CSR", dtype=str)
    a = random_sparse_matrix(3, 1.0, "CSC")
    with pytest.raises(ValueError):
        sparse_matrix_matrix_mult(a, random_sparse_matrix(3, 1.0, "CSR", dtype=ak.float64))
    with pytest.raises(ValueError):
        sparse_matrix_matrix_mult(a, random_sparse_matrix(4, 1.0, "CSR"))
    with pytest.raises(TypeError):
        sparse_matrix_matrix_mult(a, r)
    with pytest.raises(NotImplementedError):
        a[0]
    with pytest.raises(ValueError):
        bool(a)
