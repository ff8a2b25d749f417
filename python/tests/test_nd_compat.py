"""Multi-dimensional pdarrays where Arkouda's API meets them: random constructors with shape
sizes, ``len()``, ``searchsorted`` of N-d needles, ``linspace``/``logspace`` of pdarray bounds,
and the 1-D-only cases (bigint reshape, unordered inputs), checked against NumPy and
Python ints."""

import atoll as ak
import numpy as np
import pytest
from hypothesis import given, strategies as st

SHAPES = [(), (0,), (5,), (2, 3), (3, 0, 2), (2, 3, 4), (1, 2, 1, 3)]


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dtype", [ak.int64, ak.uint64, ak.float64, ak.bool_, ak.uint8])
def test_randint_shape_as_numpy(shape, dtype):
    hi = 2 if dtype == ak.bool_ else 50
    a = ak.randint(0, hi, shape, dtype=dtype, seed=3)
    want = np.random.default_rng(0).integers(0, hi, size=shape).astype(dtype)
    assert a.shape == want.shape and a.ndim == want.ndim and a.size == want.size and a.dtype == want.dtype
    got = a.to_ndarray()
    assert got.shape == want.shape and got.dtype == want.dtype
    assert ((got >= 0) & (got < hi)).all()


@pytest.mark.parametrize("shape", SHAPES)
def test_uniform_and_standard_normal_shapes_as_numpy(shape):
    rng = np.random.default_rng(0)
    u = ak.uniform(shape, -2.0, 3.0, seed=5)
    assert u.shape == rng.uniform(-2.0, 3.0, size=shape).shape
    assert ((u.to_ndarray() >= -2.0) & (u.to_ndarray() < 3.0)).all()
    z = ak.standard_normal(shape, seed=5)
    assert z.shape == z.to_ndarray().shape == rng.standard_normal(size=shape).shape


def test_random_shape_errors_as_numpy():
    for bad in [(2, -1), (2, 1.5)]:
        with pytest.raises(ValueError if -1 in bad else TypeError):
            np.random.default_rng(0).integers(0, 5, size=bad)
        with pytest.raises(ValueError if -1 in bad else TypeError):
            ak.randint(0, 5, bad)


@pytest.mark.parametrize("shape", [(5,), (2, 3), (3, 0, 2), (2, 3, 4)])
def test_len_is_the_number_of_elements(shape):
    """Arkouda's ``len()`` of a pdarray of any rank counts its elements (NumPy's ``size``)."""
    n = np.arange(np.prod(shape), dtype=np.int64).reshape(shape)
    a = ak.array(n)
    assert len(a) == n.size
    assert len(ak.zeros(shape)) == n.size
    assert len(list(a)) == len(list(n))  # iteration still yields the rows, as NumPy's
    with pytest.raises(TypeError):
        len(ak.array(np.array(5)))


@given(
    st.lists(st.integers(-20, 20), min_size=0, max_size=30),
    st.lists(st.integers(0, 4), min_size=0, max_size=3).map(tuple),
    st.sampled_from(["left", "right"]),
    st.sampled_from([np.int64, np.float64, np.uint64]),
)
def test_searchsorted_nd_needles_as_numpy(a, vshape, side, dtype):
    x = np.sort(np.array(a, dtype=np.int64) + 20).astype(dtype)  # nonnegative, for uint64
    v = np.random.default_rng(len(a)).integers(0, 45, size=vshape).astype(dtype)
    want = np.searchsorted(x, v, side)
    got = ak.searchsorted(ak.array(x), ak.array(v), side)
    if vshape == ():
        assert got == want
    else:
        assert got.shape == want.shape
        np.testing.assert_array_equal(got.to_ndarray(), want)


def test_searchsorted_rejects_nd_haystack():
    with pytest.raises(ValueError):
        np.searchsorted(np.arange(12).reshape(3, 4), 3)  # NumPy: the haystack is 1-D too
    with pytest.raises(ValueError):
        ak.searchsorted(ak.arange(12).reshape((3, 4)), 3)


BOUNDS = [
    (0, [4, 5]),
    ([4, 5], 10),
    ([4, 5], [7, 20]),
    ([4, 5], [[7, 8], [9, 10]]),
    ([[0.5], [1.5], [-2.0]], [1.0, 3.0]),
]


@pytest.mark.parametrize("start,stop", BOUNDS)
@pytest.mark.parametrize("num", [0, 1, 2, 7])
@pytest.mark.parametrize("endpoint", [True, False])
def test_linspace_logspace_of_pdarray_bounds_as_numpy(start, stop, num, endpoint):
    def ak_of(v):
        return ak.array(np.array(v)) if isinstance(v, list) else v

    ndim = np.broadcast(np.asarray(start), np.asarray(stop)).ndim + 1
    for axis in range(-ndim, ndim):
        want = np.linspace(np.asarray(start), np.asarray(stop), num, endpoint=endpoint, axis=axis)
        got = ak.linspace(ak_of(start), ak_of(stop), num, endpoint=endpoint, axis=axis)
        assert got.shape == want.shape and got.dtype == want.dtype
        np.testing.assert_array_equal(got.to_ndarray(), want)
        want = np.logspace(np.asarray(start), np.asarray(stop), num, endpoint=endpoint, base=1.7, axis=axis)
        got = ak.logspace(ak_of(start), ak_of(stop), num, endpoint=endpoint, base=1.7, axis=axis)
        assert got.shape == want.shape
        np.testing.assert_allclose(got.to_ndarray(), want, rtol=1e-14)


def test_linspace_of_pdarray_bounds_errors_as_numpy():
    with pytest.raises(ValueError):
        np.linspace(np.array([1.0, 2.0]), np.array([1.0, 2.0, 3.0]), 4)
    with pytest.raises(ValueError):
        ak.linspace(ak.array([1.0, 2.0]), ak.array([1.0, 2.0, 3.0]), 4)
    with pytest.raises(np.exceptions.AxisError):
        np.linspace(np.array([1.0, 2.0]), 3.0, 4, axis=2)
    with pytest.raises(np.exceptions.AxisError):
        ak.linspace(ak.array([1.0, 2.0]), 3.0, 4, axis=2)


def test_array_of_an_unordered_collection_is_a_type_error():
    for bad in ({range(0, 10)}, frozenset([1, 2]), {1: 2}):
        with pytest.raises(TypeError):
            ak.array(bad)


def test_bigint_reshape_flatten_ravel_stay_1d():
    vals = [2**200 + i for i in range(10)]
    x = ak.array(vals)
    for y in (x.reshape((10,)), x.reshape(-1), x.reshape(10), x.flatten(), x.ravel()):
        assert y.dtype == ak.bigint and y.shape == (10,)
        assert y.tolist() == vals
    m = ak.arange(10, dtype=ak.bigint)
    m.max_bits = 64
    assert m.reshape((10,)).max_bits == 64 and m.flatten().max_bits == 64
    with pytest.raises(ValueError):
        x.reshape((2, 5))
