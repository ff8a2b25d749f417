"""N-d behaviour of element-wise functions and shape helpers, checked against NumPy."""

import atoll as ak
import numpy as np
import pytest


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
