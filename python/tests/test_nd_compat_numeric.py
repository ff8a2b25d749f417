"""N-d behaviour of element-wise functions and shape helpers, checked against NumPy."""

import itertools

import atoll as ak
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st


@pytest.mark.parametrize("out_shape", [(10,), (2, 10), (3, 1, 10)])
@pytest.mark.parametrize("use_where", [False, True])
def test_arctan2_out_broadcasts_result(out_shape, use_where):
    rng = np.random.default_rng(7)
    a, b = rng.normal(size=10), rng.normal(size=10)
    w = np.arange(10) % 3 != 0
    kw = {"where": w} if use_where else {}
    o = np.ones(out_shape)
    expected = np.arctan2(a, b, o, **kw)
    po = ak.array(np.ones(out_shape))
    akw = {"where": ak.array(w)} if use_where else {}
    got = ak.arctan2(ak.array(a), ak.array(b), po, **akw)
    assert got.shape == expected.shape
    np.testing.assert_allclose(got.to_ndarray(), expected)
    np.testing.assert_allclose(po.to_ndarray(), o)


def test_arctan2_out_not_broadcastable():
    a = ak.array(np.arange(10.0))
    with pytest.raises(ValueError):
        np.arctan2(np.arange(10.0), np.arange(10.0), np.ones(5))
    with pytest.raises(ValueError):
        ak.arctan2(a, a, ak.ones(5))


def test_unary_out_broadcasts_result():
    x = np.linspace(-3.5, 3.5, 6)
    o = np.zeros((2, 6))
    expected = np.floor(x, o)
    po = ak.array(np.zeros((2, 6)))
    ak.floor(ak.array(x), out=po)
    np.testing.assert_allclose(po.to_ndarray(), expected)


@pytest.mark.parametrize("x", [0, 3.14, [0], [1, 2, 3], [[1, 3]], np.eye(3, 2), np.ones((2, 0, 4))])
def test_shape_of_array_likes(x):
    assert ak.shape(x) == np.shape(x)


@pytest.mark.parametrize("shape", [(5,), (3, 4), (2, 3, 2)])
def test_shape_of_pdarrays(shape):
    n = int(np.prod(shape))
    assert ak.shape(ak.arange(n).reshape(shape)) == np.shape(np.arange(n).reshape(shape))
    assert ak.shape(ak.array(["a", "b", "c"])) == np.shape(np.array(["a", "b", "c"]))


_QUANTILE_METHODS = [
    "linear",
    "lower",
    "higher",
    "nearest",
    "midpoint",
    "inverted_cdf",
    "averaged_inverted_cdf",
    "closest_observation",
    "interpolated_inverted_cdf",
    "hazen",
    "weibull",
    "median_unbiased",
    "normal_unbiased",
]


@settings(max_examples=10)
@given(
    shape=st.sampled_from([(2, 5), (3, 1, 4), (2, 2, 3)]),
    dtype=st.sampled_from([np.int64, np.uint64, np.float64]),
    axis_pick=st.integers(0, 6),
    q_kind=st.integers(0, 2),
    keepdims=st.booleans(),
    method=st.sampled_from(_QUANTILE_METHODS),
    seed=st.integers(0, 2**16),
)
def test_quantile_axis_matches_numpy(shape, dtype, axis_pick, q_kind, keepdims, method, seed):
    rng = np.random.default_rng(seed)
    nda = rng.integers(0, 7, shape).astype(dtype)
    nd = len(shape)
    axes = [None, *range(nd), *itertools.combinations(range(nd), 2), -1]
    axis = axes[axis_pick % len(axes)]
    q = [0.37, rng.uniform(size=3), rng.uniform(size=(2, 2))][q_kind]
    expected = np.quantile(nda, q, axis=axis, keepdims=keepdims, method=method)
    got = ak.quantile(ak.array(nda), q, axis=axis, keepdims=keepdims, method=method)
    got = got.to_ndarray() if isinstance(got, ak.pdarray) else got
    assert np.shape(got) == np.shape(expected)
    np.testing.assert_allclose(got, expected)
    expected = np.percentile(nda, 100 * np.asarray(q), axis=axis, keepdims=keepdims, method=method)
    got = ak.percentile(ak.array(nda), 100 * np.asarray(q), axis=axis, keepdims=keepdims, method=method)
    got = got.to_ndarray() if isinstance(got, ak.pdarray) else got
    np.testing.assert_allclose(got, expected)


def test_quantile_axis_nan_lanes():
    x = np.array([[1.0, np.nan, 3.0], [4.0, 5.0, 6.0]])
    for axis in (0, 1):
        expected = np.quantile(x, [0.1, 0.5], axis=axis)
        np.testing.assert_allclose(ak.quantile(ak.array(x), [0.1, 0.5], axis=axis).to_ndarray(), expected)


def test_quantile_bad_axis():
    a = ak.arange(6).reshape(2, 3)
    with pytest.raises(np.exceptions.AxisError):
        np.quantile(np.arange(6).reshape(2, 3), 0.5, axis=2)
    with pytest.raises(ValueError):
        ak.quantile(a, 0.5, axis=2)


@settings(max_examples=10)
@given(
    dims=st.integers(1, 4),
    n=st.integers(0, 60),
    bins_seed=st.integers(0, 2**16),
    use_range=st.booleans(),
    as_float=st.booleans(),
)
def test_histogramdd_matches_numpy(dims, n, bins_seed, use_range, as_float):
    rng = np.random.default_rng(bins_seed)
    arrs = [rng.integers(-5, 20, n).astype(np.float64 if as_float else np.int64) for _ in range(dims)]
    bins = [int(b) for b in rng.integers(1, 6, dims)]
    rng_arg = [(0, 12)] * dims if use_range else None
    nh, ne = np.histogramdd(arrs, bins=bins, range=rng_arg)
    ah, ae = ak.histogramdd([ak.array(a) for a in arrs], bins=bins, range=rng_arg)
    assert ah.shape == nh.shape
    np.testing.assert_allclose(ah.to_ndarray(), nh)
    for a, b in zip(ae, ne):
        np.testing.assert_allclose(a.to_ndarray(), b)


@pytest.mark.parametrize("kw", [{}, {"bins": (4, 7)}, {"range": ((2, 9), (1, 8))}, {"bins": 3}])
def test_histogram2d_matches_numpy(kw):
    rng = np.random.default_rng(5)
    x, y = rng.integers(0, 11, 200), rng.normal(5, 2, 200)
    nh, nx, ny = np.histogram2d(x, y, **kw)
    ah, ax, ay = ak.histogram2d(ak.array(x), ak.array(y), **kw)
    np.testing.assert_allclose(ah.to_ndarray(), nh)
    np.testing.assert_allclose(ax.to_ndarray(), nx)
    np.testing.assert_allclose(ay.to_ndarray(), ny)


def test_histogramdd_bad_bins():
    with pytest.raises(ValueError):
        np.histogramdd([np.arange(3), np.arange(3)], bins=[2, 2, 2])
    with pytest.raises(ValueError):
        ak.histogramdd([ak.arange(3), ak.arange(3)], bins=[2, 2, 2])


@pytest.mark.parametrize("values_shape", [(3, 4, 5), (60,), (7,), (2, 70), (5, 12)])
def test_putmask_nd_matches_numpy(values_shape):
    nda = np.ones((3, 4, 5))
    pda = ak.array(nda) * 1.0  # a computed array too must change in place
    m = (np.arange(60) % 3 != 1).reshape(5, 4, 3).T.copy()
    v = np.arange(np.prod(values_shape)).reshape(values_shape)[::-1].astype(np.float64)
    np.putmask(nda, m, v)
    ak.putmask(pda, ak.array(m), ak.array(v))
    np.testing.assert_array_equal(pda.to_ndarray(), nda)


@pytest.mark.parametrize(
    "fn",
    [
        lambda m, a, b: m.hstack((a, b)),
        lambda m, a, b: m.concatenate((a, b), axis=0),
        lambda m, a, b: m.append(a, b, axis=0),
    ],
)
@pytest.mark.parametrize("first_1d", [True, False])
def test_rank_mismatch_error_matches_numpy(fn, first_1d):
    a, b = np.arange(3), np.ones((3, 1), dtype=np.int64)
    if not first_1d:
        a, b = b, a
    with pytest.raises(ValueError) as expected:
        fn(np, a, b)
    with pytest.raises(ValueError) as got:
        fn(ak, ak.array(a), ak.array(b))
    assert str(got.value) == str(expected.value)


@pytest.mark.parametrize("shapes", [[(3, 1), (3, 2)], [(4,), (2,)], [(2, 2, 2), (2, 1, 2)], [(0, 2), (0, 3)]])
def test_hstack_matches_numpy(shapes):
    arrs = [np.arange(int(np.prod(s))).reshape(s) for s in shapes]
    expected = np.hstack(arrs)
    got = ak.hstack([ak.array(a) for a in arrs])
    assert got.shape == expected.shape
    np.testing.assert_array_equal(got.to_ndarray(), expected)


@given(
    shape=st.sampled_from([(8, 6), (2, 3, 4), (5,)]),
    axis_pick=st.integers(0, 4),
    idx_shape=st.sampled_from([(3,), (2, 2), (0,)]),
    seed=st.integers(0, 2**16),
)
def test_take_axis_matches_numpy(shape, axis_pick, idx_shape, seed):
    rng = np.random.default_rng(seed)
    x = rng.integers(-10, 10, size=shape)
    axes = [None, *range(len(shape)), -1]
    axis = axes[axis_pick % len(axes)]
    n = x.size if axis is None else shape[axis]
    idx = rng.integers(-n, n, size=idx_shape)
    expected = np.take(x, idx, axis=axis)
    got = ak.take(ak.array(x), ak.array(idx), axis=axis)
    assert got.shape == expected.shape
    np.testing.assert_array_equal(got.to_ndarray(), expected)


def test_take_axis_out_of_range():
    x = np.arange(12).reshape(3, 4)
    with pytest.raises(IndexError):
        np.take(x, np.array([4]), axis=1)
    with pytest.raises(IndexError):
        ak.take(ak.array(x), ak.array([4]), axis=1)


def test_repeat_repeats_of_rank_2_raise():
    with pytest.raises(ValueError):
        np.repeat(np.arange(3), np.array([[1, 2, 3]]))
    with pytest.raises(ValueError):
        ak.repeat(ak.arange(3), ak.array(np.array([[1, 2, 3]])))


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("with_ints", [False, True])
def test_hash_of_segarrays_equal_rows_hash_equal(seed, with_ints):
    rng = np.random.default_rng(seed)
    rows = [[int(v) for v in rng.integers(0, 2, rng.integers(0, 3))] for _ in range(12)]
    lens = np.array([len(r) for r in rows])
    segs = ak.array(np.concatenate([[0], np.cumsum(lens)[:-1]]).astype(np.int64))
    vals = ak.array(np.array([v for r in rows for v in r], dtype=np.int64))
    sa = ak.SegArray(segs, vals)
    extra = list(range(len(rows)))
    keys = [tuple(r) for r in rows]
    if with_ints:
        extra = [i % 2 for i in range(len(rows))]
        keys = [(tuple(r), e) for r, e in zip(rows, extra)]
        h1, h2 = ak.hash([sa, ak.array(extra)])
    else:
        h1, h2 = ak.hash(sa)
        s1, s2 = sa.hash()
        assert h1.tolist() == s1.tolist() and h2.tolist() == s2.tolist()
    pairs = list(zip(h1.tolist(), h2.tolist()))
    for i in range(len(rows)):
        for j in range(len(rows)):
            assert (pairs[i] == pairs[j]) == (keys[i] == keys[j])


@pytest.mark.parametrize("dt", [np.int64, np.float64, np.bool_, np.uint64])
@pytest.mark.parametrize("nm", [(4, 4), (5, 3), (3, 5), (0, 3)])
def test_eye_tril_triu_match_numpy(dt, nm):
    n, m = nm
    x = (np.arange(n * m).reshape(n, m) % 7 + 1).astype(dt)
    for k in range(-m, n + 1):
        e = np.eye(n, m, k, dtype=dt)
        g = ak.eye(n, m, k, dt=dt)
        assert g.dtype == e.dtype
        np.testing.assert_array_equal(g.to_ndarray(), e)
        for f in ("tril", "triu"):
            e = getattr(np, f)(x, k)
            g = getattr(ak, f)(ak.array(x), k)
            assert g.shape == e.shape and g.dtype == e.dtype
            np.testing.assert_array_equal(g.to_ndarray(), e)


def test_tril_triu_stack_of_matrices():
    x = np.arange(24).reshape(2, 3, 4)
    for k in (-1, 0, 2):
        np.testing.assert_array_equal(ak.tril(ak.array(x), k).to_ndarray(), np.tril(x, k))
        np.testing.assert_array_equal(ak.triu(ak.array(x), k).to_ndarray(), np.triu(x, k))
    with pytest.raises(ValueError):
        ak.tril(ak.arange(3))
