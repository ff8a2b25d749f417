"""Random draws with ``size=`` shapes: the Generator methods and the legacy functions of
``ak.random`` give arrays of NumPy's shape for the same ``size``, and Poisson draws of
per-element means follow scipy's Poisson quantiles."""

import atoll as ak
import numpy as np
import pytest
import scipy.stats
from hypothesis import given, strategies as st

SHAPES = [(), (0,), (5,), (2, 3), (3, 0, 2), (2, 3, 4), (1, 2, 1, 3)]

shapes = st.lists(st.integers(0, 4), min_size=0, max_size=4).map(tuple)


def _np_shape(method, size, **kw):
    return np.asarray(getattr(np.random.default_rng(0), method)(size=size, **kw)).shape


GEN_METHODS = [
    ("random", {}),
    ("uniform", {"low": -2.0, "high": 3.0}),
    ("standard_normal", {}),
    ("normal", {"loc": 1.0, "scale": 2.0}),
    ("lognormal", {}),
    ("exponential", {"scale": 2.0}),
    ("standard_exponential", {}),
    ("logistic", {}),
    ("poisson", {"lam": 3.0}),
    ("integers", {"low": 0, "high": 10}),
]


@pytest.mark.parametrize("method,kw", GEN_METHODS)
@pytest.mark.parametrize("size", SHAPES + [4])
def test_generator_shapes_match_numpy(method, kw, size):
    out = getattr(ak.random.default_rng(7), method)(size=size, **kw)
    assert isinstance(out, ak.pdarray)
    want = _np_shape(method, size, **kw)
    assert out.shape == want
    got = out.to_ndarray()
    assert got.shape == want
    assert got.dtype == np.asarray(getattr(np.random.default_rng(0), method)(size=size, **kw)).dtype


@given(shape=shapes)
def test_shaped_draw_is_the_flat_draw(shape):
    """A draw of a shape holds the values of the flat draw of its size, in C order."""
    flat = ak.random.default_rng(11).uniform(-1.0, 1.0, size=int(np.prod(shape)))
    shaped = ak.random.default_rng(11).uniform(-1.0, 1.0, size=shape)
    assert shaped.shape == np.empty(shape).shape
    np.testing.assert_array_equal(shaped.to_ndarray(), flat.to_ndarray().reshape(shape))
    ints = ak.random.default_rng(3).integers(-5, 5, size=shape).to_ndarray()
    assert ints.shape == shape
    assert ((ints >= -5) & (ints < 5)).all()


@given(shape=shapes)
def test_choice_shapes(shape):
    pool = ak.arange(10, 20)
    out = ak.random.default_rng(5).choice(pool, size=shape)
    assert out.shape == np.random.default_rng(0).choice(np.arange(10, 20), size=shape).shape
    got = np.asarray(out.to_ndarray())
    assert ((got >= 10) & (got < 20)).all()


@pytest.mark.parametrize("shape", [(1,), (10,), (2, 3), (4, 1, 5), (2, 2, 2)])
def test_legacy_functions_shapes(shape):
    assert ak.random.rand(*shape, seed=1).to_ndarray().shape == np.random.rand(*shape).shape
    r = ak.random.randint(3, 17, size=shape, seed=2).to_ndarray()
    assert r.shape == np.random.randint(3, 17, size=shape).shape
    assert ((r >= 3) & (r < 17)).all()
    u = ak.random.uniform(size=shape, low=2.5, high=7.5, seed=3).to_ndarray()
    assert u.shape == np.random.uniform(2.5, 7.5, size=shape).shape
    assert ((u >= 2.5) & (u < 7.5)).all()
    assert ak.random.standard_normal(shape, seed=4).to_ndarray().shape == np.random.standard_normal(shape).shape


def test_legacy_rand_values_are_the_flat_draw():
    flat = ak.random.rand(24, seed=9).to_ndarray()
    np.testing.assert_array_equal(ak.random.rand(2, 3, 4, seed=9).to_ndarray(), flat.reshape(2, 3, 4))


@pytest.mark.parametrize("bad", [-1, (2, -3)])
def test_negative_size_is_value_error(bad):
    with pytest.raises(ValueError):
        np.random.default_rng(0).standard_normal(size=bad)
    with pytest.raises(ValueError):
        ak.random.default_rng(0).standard_normal(size=bad)
    with pytest.raises(ValueError):
        ak.random.rand(*((bad,) if isinstance(bad, int) else bad))


def test_bad_size_type_is_type_error():
    with pytest.raises(TypeError):
        np.random.default_rng(0).random(size=(2, 1.5))
    with pytest.raises(TypeError):
        ak.random.default_rng(0).random(size=(2, 1.5))


def _check_poisson(lam_np, out, u):
    """Each draw is the inverse of scipy's Poisson distribution function at its uniform
    draw (draws within 1e-9 of a step of the distribution function are not judged)."""
    lam_np = np.broadcast_to(lam_np, out.shape)
    want = scipy.stats.poisson.ppf(u, lam_np)
    near = np.abs(scipy.stats.poisson.cdf(want, lam_np) - u) < 1e-9
    assert ((out == want) | near).all()


@pytest.mark.parametrize(
    "lam_shape,size",
    [((8,), None), ((2, 3), None), ((4,), (2, 3, 4)), ((2, 1, 4), (2, 3, 4)), ((1,), (5, 2)), ((0, 3), None)],
)
def test_poisson_array_lam_matches_scipy(lam_shape, size):
    lam_np = (np.arange(int(np.prod(lam_shape)), dtype=np.float64) * 1.7).reshape(lam_shape)
    lam = ak.array(lam_np)
    out = ak.random.default_rng(21).poisson(lam, size=size)
    want_shape = lam_shape if size is None else size
    assert out.shape == np.random.default_rng(0).poisson(lam_np, size=size).shape == want_shape
    assert out.dtype == ak.int64
    # The draw inverts the first uniform draw of a generator of the same seed.
    u = ak.random.default_rng(21).random(size=int(np.prod(want_shape))).to_ndarray().reshape(want_shape)
    _check_poisson(lam_np, out.to_ndarray(), u)


def test_poisson_array_lam_reproducible_and_large_means():
    lam = ak.array([0.0, 0.5, 12.0, 60.0])
    a = ak.random.default_rng(4).poisson(lam, size=(3, 4))
    b = ak.random.default_rng(4).poisson(lam, size=(3, 4))
    np.testing.assert_array_equal(a.to_ndarray(), b.to_ndarray())
    u = ak.random.default_rng(4).random(size=12).to_ndarray().reshape(3, 4)
    _check_poisson(lam.to_ndarray(), a.to_ndarray(), u)
    assert (a.to_ndarray()[:, 0] == 0).all()


def test_poisson_array_lam_errors():
    g = ak.random.default_rng(0)
    with pytest.raises(ValueError):
        np.random.default_rng(0).poisson(np.array([1.0, -1.0]))
    with pytest.raises(ValueError):
        g.poisson(ak.array([1.0, -1.0]))
    with pytest.raises(ValueError):
        g.poisson(ak.array([1.0, np.nan]))
    with pytest.raises(ValueError):
        np.random.default_rng(0).poisson(np.arange(3.0), size=(2, 4))
    with pytest.raises(ValueError):
        g.poisson(ak.arange(3), size=(2, 4))


SCALAR_DRAWS = [
    ("random", {}),
    ("uniform", {"low": -2.0, "high": 3.0}),
    ("standard_normal", {}),
    ("normal", {"loc": 1.0, "scale": 2.0}),
    ("lognormal", {"mean": 0.5, "sigma": 0.25}),
    ("exponential", {"scale": 2.0}),
    ("standard_exponential", {}),
    ("standard_exponential", {"method": "inv"}),
    ("logistic", {"loc": 0.1, "scale": 2.0}),
    ("poisson", {"lam": 3.0}),
    ("standard_gamma", {"shape": 2.5}),
    ("integers", {"low": 0, "high": 10}),
    ("integers", {"low": 5}),
    ("integers", {"low": 0, "high": 10, "endpoint": True}),
]


@pytest.mark.parametrize("method,kw", SCALAR_DRAWS)
@pytest.mark.parametrize("seed", [0, 12345])
def test_scalar_draws_are_numpys(method, kw, seed):
    """Without ``size`` a Generator's draws are those of NumPy's generator of the same seed."""
    g, n = ak.random.default_rng(seed), np.random.default_rng(seed)
    for _ in range(3):
        assert getattr(g, method)(**kw) == getattr(n, method)(**kw)


@pytest.mark.parametrize("k", [0.3, 1.0, 2.5, 9.0])
@pytest.mark.parametrize("shape", [(2000,), (40, 50), (10, 10, 20)])
def test_standard_gamma_follows_scipys_gamma(k, shape):
    out = ak.random.default_rng(17).standard_gamma(k, size=shape)
    assert out.shape == np.random.default_rng(0).standard_gamma(k, size=shape).shape
    x = out.to_ndarray().ravel()
    assert (x >= 0).all()
    assert scipy.stats.kstest(x, scipy.stats.gamma.cdf, args=(k, 0, 1)).pvalue > 0.01


def test_standard_gamma_of_a_pdarray_of_shapes():
    ks = np.array([0.0, 0.5, 2.0, 7.0])
    out = ak.random.default_rng(2).standard_gamma(ak.array(ks), size=(3000, 4))
    assert out.shape == np.random.default_rng(0).standard_gamma(ks, size=(3000, 4)).shape
    x = out.to_ndarray()
    assert (x[:, 0] == 0).all()
    for j in range(1, 4):
        assert scipy.stats.kstest(x[:, j], scipy.stats.gamma.cdf, args=(ks[j], 0, 1)).pvalue > 0.01
    again = ak.random.default_rng(2).standard_gamma(ak.array(ks), size=(3000, 4))
    np.testing.assert_array_equal(again.to_ndarray(), x)
    with pytest.raises(ValueError):
        np.random.default_rng(0).standard_gamma(-1.0, size=3)
    with pytest.raises(ValueError):
        ak.random.default_rng(0).standard_gamma(-1.0, size=3)


@pytest.mark.parametrize("low,high", [(0, 0), (0, -1), (-1, 2), (0, 3), (1, 1), (1, 0)])
def test_bool_randint_bounds_errors_are_numpys(low, high):
    with pytest.raises(ValueError) as want:
        np.random.RandomState(0).randint(low, high, size=10, dtype=bool)
    with pytest.raises(ValueError) as got:
        ak.random.randint(low, high, size=10, dtype="bool")
    assert str(got.value) == str(want.value)


def test_choice_takes_weights_with_replacement():
    """Weights that do not sum to 1 are probabilities in proportion (Arkouda's weights)."""
    w = np.array([0.0, 1.0, 2.0, 3.0, 4.0])
    out = ak.random.default_rng(8).choice(5, size=(50, 80), p=ak.array(w))
    assert out.shape == (50, 80)
    counts = np.bincount(out.to_ndarray().ravel(), minlength=5)
    assert counts[0] == 0
    assert scipy.stats.chisquare(counts[1:], counts.sum() * w[1:] / w.sum()).pvalue > 0.001


def test_choice_with_weights_without_replacement():
    """Distinct draws, none of weight 0; the first draw is in proportion to the weights, as
    in NumPy's successive sampling."""
    w = np.array([0.0, 1.0, 2.0, 3.0, 4.0])
    g = ak.random.default_rng(9)
    first = np.zeros(5)
    for _ in range(60):
        r = g.choice(ak.arange(5), size=3, replace=False, p=ak.array(w)).to_ndarray()
        assert len(set(r)) == 3 and 0 not in r
        first[r[0]] += 1
    assert scipy.stats.chisquare(first[1:], 60 * w[1:] / w.sum()).pvalue > 0.001
    with pytest.raises(ValueError):
        np.random.default_rng(0).choice(5, size=5, replace=False, p=w / w.sum())
    with pytest.raises(ValueError):
        g.choice(5, size=5, replace=False, p=ak.array(w))
    with pytest.raises(ValueError):
        g.choice(5, size=2, p=ak.array(-w))
