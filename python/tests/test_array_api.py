"""``atoll.array_api``, the Array API standard namespace: each function checked against NumPy's
own namespace (NumPy 2 follows the standard), on arrays of ranks 0-3."""

import math
import operator

import atoll as ak
import atoll.array_api as xp
import numpy as np
import pytest
from hypothesis import given, strategies as st

RNG = np.random.default_rng(7)
N3 = RNG.integers(0, 20, (3, 4, 5))
F2 = RNG.integers(-50, 50, (4, 6)) / 4.0


def same(got, want, exact=True):
    """The Array ``got`` has NumPy's ``want``'s shape, dtype and values."""
    assert isinstance(got, xp.Array), type(got)
    want = np.asarray(want)
    g = got.to_ndarray()
    assert g.shape == want.shape, (g.shape, want.shape)
    assert g.dtype == want.dtype, (g.dtype, want.dtype)
    if exact:
        np.testing.assert_array_equal(g, want)
    else:
        np.testing.assert_allclose(g, want, rtol=1e-12, atol=1e-12)


# ------------------------------------------------------------------------------------------
# the namespace and the Array
# ------------------------------------------------------------------------------------------

# The names Arkouda's arkouda.array_api exports.
ARKOUDA_NAMES = """Array __array_api_version__ e inf nan pi asarray arange empty empty_like eye from_dlpack full
full_like linspace meshgrid ones ones_like tril triu zeros zeros_like astype can_cast finfo iinfo result_type int8
int16 int32 int64 uint8 uint16 uint32 uint64 float32 float64 complex64 complex128 bool_ abs acos acosh add asin
asinh atan atan2 atanh bitwise_and bitwise_left_shift bitwise_invert bitwise_or bitwise_right_shift bitwise_xor
ceil cos cosh divide equal exp expm1 floor floor_divide greater greater_equal isfinite isinf isnan less less_equal
log log1p log2 log10 logaddexp logical_and logical_not logical_or logical_xor multiply negative not_equal positive
pow remainder round sign sin sinh square sqrt subtract tan tanh trunc take linalg matmul tensordot
matrix_transpose vecdot broadcast_arrays broadcast_to concat expand_dims flip moveaxis permute_dims repeat reshape
roll squeeze stack tile unstack argmax argmin nonzero where searchsorted unique_all unique_counts unique_inverse
unique_values argsort sort max mean min prod std sum var cumulative_sum cumulative_prod all any clip diff trapz
trapezoid pad""".split()


def test_namespace_names():
    missing = [n for n in ARKOUDA_NAMES if not hasattr(xp, n)]
    assert not missing
    assert set(ARKOUDA_NAMES) <= set(xp.__all__)
    assert xp.e == np.e and xp.pi == np.pi and xp.inf == np.inf and math.isnan(xp.nan)


def test_array_basics():
    a = xp.asarray(N3)
    assert a.shape == N3.shape and a.ndim == 3 and a.size == N3.size and a.dtype == N3.dtype
    assert a.device == "cpu" and a.to_device("cpu") is a
    assert a.__array_namespace__() is xp
    assert a.tolist() == N3.tolist()
    np.testing.assert_array_equal(np.asarray(a), N3)
    same(a.mT, np.swapaxes(N3, -1, -2))
    same(xp.asarray(F2).T, F2.T)
    with pytest.raises(ValueError):
        a.T
    with pytest.raises(TypeError):
        xp.Array(ak.zeros(3))


def test_zero_d_and_scalars():
    z = xp.asarray(3.5)
    assert z.shape == () and z.ndim == 0 and z.size == 1 and z.tolist() == 3.5
    assert float(z) == 3.5 and z.item() == 3.5 and bool(z) is True
    assert int(xp.asarray(7)) == 7 and operator.index(xp.asarray(7)) == 7
    same(z + 1, np.float64(4.5))
    with pytest.raises(ValueError):
        bool(xp.asarray(N3))
    with pytest.raises(TypeError):
        float(xp.asarray(N3))


def test_getitem_setitem():
    a = xp.asarray(N3)
    e = a[1, 2, 3]
    assert e.shape == () and e == N3[1, 2, 3]
    same(a[:, 1, ::2], N3[:, 1, ::2])
    same(a[..., 0], N3[..., 0])
    same(a[None, 1], N3[None, 1])
    idx = np.array([0, 2])
    same(a[xp.asarray(idx), :, 1], N3[idx, :, 1])
    b = xp.asarray(N3)
    want = N3.copy()
    b[1, 2, 3] = 42
    want[1, 2, 3] = 42
    b[:, :, 0] = xp.asarray(N3[:, :, 1])
    want[:, :, 0] = N3[:, :, 1]
    b[2] = N3[0]
    want[2] = N3[0]
    same(b, want)


@pytest.mark.parametrize(
    "op", [operator.add, operator.sub, operator.mul, operator.truediv, operator.floordiv, operator.mod, operator.pow]
)
def test_operators_broadcast(op):
    x = RNG.integers(1, 6, (4, 1, 3))
    y = RNG.integers(1, 6, (5, 1))
    same(op(xp.asarray(x), xp.asarray(y)), op(x, y))
    same(op(xp.asarray(x), 2), op(x, 2))
    same(op(3, xp.asarray(y)), op(3, y))


def test_comparisons_bitwise_inplace():
    x, y = RNG.integers(0, 8, (3, 4)), RNG.integers(0, 8, (4,))
    ax, ay = xp.asarray(x), xp.asarray(y)
    for op in (operator.eq, operator.ne, operator.lt, operator.le, operator.gt, operator.ge):
        same(op(ax, ay), op(x, y))
    for op in (operator.and_, operator.or_, operator.xor, operator.lshift, operator.rshift):
        same(op(ax, ay), op(x, y))
    same(-ax, -x)
    same(~ax, ~x)
    same(abs(xp.asarray(F2)), abs(F2))
    assert (ax == "text") is False and (ax != None) is True  # noqa: E711
    b = xp.asarray(x)
    b += 2
    b *= ay
    same(b, (x + 2) * y)
    c = xp.asarray(y)
    with pytest.raises(ValueError):
        c += ax  # NumPy: the result's shape (3, 4) is not the operand's (4,)
    with pytest.raises(ValueError):
        y_copy = y.copy()
        y_copy += x


# ------------------------------------------------------------------------------------------
# creation and data types
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("shape", [(), (0,), (3,), (2, 0), (2, 3), (2, 1, 3)])
@pytest.mark.parametrize("dtype", [None, xp.int64, xp.float64, xp.bool_])
def test_filled_creation(shape, dtype):
    same(xp.zeros(shape, dtype=dtype), np.zeros(shape, dtype=dtype))
    same(xp.ones(shape, dtype=dtype), np.ones(shape, dtype=dtype))
    e = xp.empty(shape, dtype=dtype)
    want = np.empty(shape, dtype=dtype)
    assert e.shape == want.shape and e.dtype == want.dtype
    same(xp.full(shape, 7, dtype=dtype), np.full(shape, 7, dtype=dtype))
    same(xp.full_like(xp.zeros(shape), 2), np.full_like(np.zeros(shape), 2))
    same(xp.zeros_like(xp.ones(shape, dtype=dtype)), np.zeros_like(np.ones(shape, dtype=dtype)))


def test_asarray():
    same(xp.asarray(N3), N3)
    same(xp.asarray(N3, dtype=xp.float64), N3.astype(np.float64))
    same(xp.asarray([[1, 2], [3, 4]]), np.asarray([[1, 2], [3, 4]]))
    same(xp.asarray(True), np.asarray(True))
    p = ak.arange(6).reshape((2, 3))
    assert xp.asarray(p)._array is p
    c = xp.asarray(p, copy=True)
    c[0, 0] = 99
    want = np.arange(6).reshape(2, 3)
    want[0, 0] = 99
    same(c, want)
    same(xp.asarray(p), np.arange(6).reshape(2, 3))
    with pytest.raises(ValueError):
        xp.asarray(N3, copy=False)
    with pytest.raises(ValueError):
        xp.asarray(N3, device="gpu")


def test_ranges_and_matrices():
    same(xp.arange(5), np.arange(5))
    same(xp.arange(2, 11, 3), np.arange(2, 11, 3))
    same(xp.linspace(0, 1, 5), np.linspace(0, 1, 5), exact=False)
    same(xp.linspace(0, 1, 4, endpoint=False), np.linspace(0, 1, 4, endpoint=False), exact=False)
    for rows, cols, k in [(3, 3, 0), (3, 5, 1), (5, 3, -2), (4, None, 3)]:
        same(xp.eye(rows, cols, k=k), np.eye(rows, cols, k=k))
    same(xp.eye(3, dtype=xp.int64), np.eye(3, dtype=np.int64))
    for k in (-3, 0, 2, 5):
        same(xp.tril(xp.asarray(N3), k=k), np.tril(N3, k))
        same(xp.triu(xp.asarray(N3), k=k), np.triu(N3, k))
    x, y, z = np.arange(3), np.arange(4) * 2, np.arange(2) - 1
    for indexing in ("xy", "ij"):
        got = xp.meshgrid(xp.asarray(x), xp.asarray(y), xp.asarray(z), indexing=indexing)
        for g, w in zip(got, np.meshgrid(x, y, z, indexing=indexing)):
            same(g, w)
    same(xp.from_dlpack(np.arange(4.0)), np.arange(4.0))


def test_data_type_functions():
    a = xp.asarray(N3)
    same(xp.astype(a, xp.float64), N3.astype(np.float64))
    same(xp.astype(a, xp.bool_), N3.astype(np.bool_))
    assert xp.astype(a, xp.int64, copy=False) is a
    assert xp.result_type(a, xp.float32) == np.result_type(N3.dtype, np.float32)
    assert xp.result_type(xp.uint8, xp.int8) == np.result_type(np.uint8, np.int8)
    for f, t in [(xp.int8, xp.int64), (xp.int64, xp.int8), (xp.uint8, xp.int16), (xp.float64, xp.int64)]:
        assert xp.can_cast(f, t) == np.can_cast(f, t)
    assert xp.can_cast(a, xp.float64) == np.can_cast(N3.dtype, np.float64)
    assert xp.iinfo(xp.int16).max == np.iinfo(np.int16).max
    assert xp.finfo(xp.float32).eps == np.finfo(np.float32).eps
    kinds = ["bool", "signed integer", "unsigned integer", "integral", "real floating", "complex floating", "numeric"]
    for kind in kinds + [("bool", "real floating"), xp.int32]:
        for dt in (xp.bool_, xp.int32, xp.uint64, xp.float64, xp.complex128):
            assert xp.isdtype(dt, kind) == np.isdtype(np.dtype(dt), kind)
    with pytest.raises(ValueError):
        xp.isdtype(xp.int64, "integer")


# ------------------------------------------------------------------------------------------
# element-wise functions: the standard's names, NumPy 2's functions of the same names
# ------------------------------------------------------------------------------------------

UNARY_FLOAT = "acos asin atan atanh cos cosh exp expm1 log log1p log2 log10 sin sinh sqrt tan tanh".split()
UNARY_ANY = "abs ceil floor round sign square trunc negative positive isfinite isinf isnan".split()
BINARY = (
    "add subtract multiply divide floor_divide remainder pow atan2 logaddexp equal not_equal less less_equal "
    "greater greater_equal maximum minimum hypot nextafter"
).split()
BITWISE = "bitwise_and bitwise_or bitwise_xor bitwise_left_shift bitwise_right_shift".split()
LOGICAL = "logical_and logical_or logical_xor".split()


@pytest.mark.parametrize("name", UNARY_FLOAT + UNARY_ANY + ["acosh", "asinh"])
def test_unary(name):
    x = np.linspace(-0.9, 0.9, 12).reshape(3, 4)
    if name == "acosh":
        x = x + 2.0
    if name in ("log", "log2", "log10", "sqrt"):
        x = np.abs(x) + 0.1
    same(getattr(xp, name)(xp.asarray(x)), getattr(np, name)(x), exact=False)
    if name in UNARY_ANY and name != "round":
        same(getattr(xp, name)(xp.asarray(N3 - 10)), getattr(np, name)(N3 - 10))


@pytest.mark.parametrize("name", BINARY)
def test_binary(name):
    x = RNG.integers(1, 9, (3, 1, 4)) / 2.0
    y = RNG.integers(1, 9, (5, 1)) / 4.0
    same(getattr(xp, name)(xp.asarray(x), xp.asarray(y)), getattr(np, name)(x, y), exact=False)


def test_logaddexp_extremes():
    x = np.array([1000.0, -np.inf, np.inf, 0.0, -3.0])
    y = np.array([1000.0, -np.inf, 5.0, -800.0, 2.0])
    same(xp.logaddexp(xp.asarray(x), xp.asarray(y)), np.logaddexp(x, y), exact=False)


@pytest.mark.parametrize("name", BITWISE + LOGICAL + ["bitwise_invert", "logical_not"])
def test_integer_and_logical(name):
    x = RNG.integers(0, 8, (2, 3, 4))
    y = RNG.integers(0, 4, (3, 1))
    f, g = getattr(xp, name), getattr(np, name)
    if name in ("bitwise_invert", "logical_not"):
        same(f(xp.asarray(x)), g(x))
        same(f(xp.asarray(x > 3)), g(x > 3))
    else:
        same(f(xp.asarray(x), xp.asarray(y)), g(x, y))


# ------------------------------------------------------------------------------------------
# statistical, searching, sorting, sets
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("axis", [None, 0, -1, (0, 2)])
@pytest.mark.parametrize("name", ["sum", "prod", "min", "max", "mean", "std", "var"])
def test_statistics(name, axis):
    x = (N3 % 5 + 1).astype(np.int64) if name == "prod" else N3
    for keepdims in (False, True):
        got = getattr(xp, name)(xp.asarray(x), axis=axis, keepdims=keepdims)
        same(got, getattr(np, name)(x, axis=axis, keepdims=keepdims), exact=name not in ("mean", "std", "var"))


def test_std_var_correction():
    same(xp.std(xp.asarray(F2), axis=0, correction=1), np.std(F2, axis=0, ddof=1), exact=False)
    same(xp.var(xp.asarray(F2), correction=1.0), np.var(F2, ddof=1), exact=False)
    with pytest.raises(ValueError):
        xp.var(xp.asarray(F2), correction=0.5)


@pytest.mark.parametrize("name", ["cumulative_sum", "cumulative_prod"])
def test_cumulative(name):
    x = N3 % 4 + 1
    for axis in (0, 1, 2, -1):
        for initial in (False, True):
            got = getattr(xp, name)(xp.asarray(x), axis=axis, include_initial=initial)
            same(got, getattr(np, name)(x, axis=axis, include_initial=initial))
    same(getattr(xp, name)(xp.asarray(x[0, 0]), include_initial=True), getattr(np, name)(x[0, 0], include_initial=True))
    with pytest.raises(ValueError):
        getattr(xp, name)(xp.asarray(x))


@pytest.mark.parametrize("name", ["argmax", "argmin"])
def test_argmax_argmin(name):
    x = N3.copy()
    x[2, 1, 3] = 100 if name == "argmax" else -100
    for axis in (None, 0, 1, -1):
        for keepdims in (False, True):
            same(
                getattr(xp, name)(xp.asarray(x), axis=axis, keepdims=keepdims),
                getattr(np, name)(x, axis=axis, keepdims=keepdims),
            )
    v = x[2, 1]
    same(getattr(xp, name)(xp.asarray(v), keepdims=True), getattr(np, name)(v, keepdims=True))


def test_nonzero_where_searchsorted():
    for x in (N3 > 12, N3 % 7, (N3 % 7)[0, 0], np.zeros((2, 3))):
        got = xp.nonzero(xp.asarray(x))
        want = np.nonzero(x)
        assert len(got) == len(want)
        for g, w in zip(got, want):
            same(g, w)
    with pytest.raises(ValueError):
        xp.nonzero(xp.asarray(3))
    same(xp.where(xp.asarray(N3 > 9), xp.asarray(N3), xp.asarray(-F2[:1, :5])), np.where(N3 > 9, N3, -F2[:1, :5]))
    same(xp.where(xp.asarray(N3 % 3), xp.asarray(N3), 0), np.where(N3 % 3, N3, 0))
    s = RNG.integers(0, 50, 40).astype(np.float64)
    v = RNG.integers(-5, 55, (3, 4)).astype(np.float64)
    order = np.argsort(s, kind="stable")
    for side in ("left", "right"):
        same(
            xp.searchsorted(xp.asarray(np.sort(s)), xp.asarray(v), side=side), np.searchsorted(np.sort(s), v, side=side)
        )
        got = xp.searchsorted(xp.asarray(s), xp.asarray(v), side=side, sorter=xp.asarray(order))
        same(got, np.searchsorted(s, v, side=side, sorter=order))


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_sort_argsort(axis):
    x = N3 % 6  # many ties: the sort must be stable
    same(xp.sort(xp.asarray(x), axis=axis), np.sort(x, axis=axis, stable=True))
    same(xp.sort(xp.asarray(x), axis=axis, descending=True), np.flip(np.sort(x, axis=axis), axis=axis))
    same(xp.argsort(xp.asarray(x), axis=axis), np.argsort(x, axis=axis, stable=True))
    # descending: the ascending order reversed along the axis (Arkouda's order)
    want = np.flip(np.argsort(x, axis=axis, stable=True), axis=axis)
    same(xp.argsort(xp.asarray(x), axis=axis, descending=True), want)


@pytest.mark.parametrize("x", [N3 % 7, (N3 % 7)[0, 0], np.array([], dtype=np.int64), F2])
def test_unique(x):
    a = xp.asarray(x)
    want = np.unique_all(x)
    got = xp.unique_all(a)
    for g, w in zip(got, want):
        same(g, w)
    got_c, want_c = xp.unique_counts(a), np.unique_counts(x)
    same(got_c.values, want_c.values)
    same(got_c.counts, want_c.counts)
    got_i, want_i = xp.unique_inverse(a), np.unique_inverse(x)
    same(got_i.values, want_i.values)
    same(got_i.inverse_indices, want_i.inverse_indices)
    same(xp.unique_values(a), np.unique(x))  # sorted (NumPy's unique_values leaves the order open)


# ------------------------------------------------------------------------------------------
# manipulation, indexing, linear algebra, utilities
# ------------------------------------------------------------------------------------------


def test_broadcasting_functions():
    a, b, c = np.ones((1, 6, 1)), np.arange(50.0).reshape(5, 1, 10), np.arange(6.0).reshape(6, 1)
    same(xp.broadcast_to(xp.asarray(a), (5, 6, 5)), np.broadcast_to(a, (5, 6, 5)))
    for g, w in zip(xp.broadcast_arrays(xp.asarray(a), xp.asarray(b), xp.asarray(c)), np.broadcast_arrays(a, b, c)):
        same(g, w)
    with pytest.raises(ValueError):
        xp.broadcast_to(xp.asarray(b), (5, 2, 3))


def test_concat_stack():
    x, y = N3, N3[:, :2] * 10
    same(xp.concat([xp.asarray(x), xp.asarray(y)], axis=1), np.concat([x, y], axis=1))
    same(xp.concat((xp.asarray(x), xp.asarray(x)), axis=-1), np.concat([x, x], axis=-1))
    same(xp.concat([xp.asarray(x), xp.asarray(y)], axis=None), np.concat([x, y], axis=None))
    same(xp.concat([xp.asarray(x[0, 0]), xp.asarray(y[0, 0])]), np.concat([x[0, 0], y[0, 0]]))
    for axis in (0, 1, 3, -1):
        same(xp.stack([xp.asarray(x), xp.asarray(x + 1)], axis=axis), np.stack([x, x + 1], axis=axis))
    for axis in (0, 2, -2):
        for g, w in zip(xp.unstack(xp.asarray(x), axis=axis), np.unstack(x, axis=axis)):
            same(g, w)
    with pytest.raises(ValueError):
        xp.stack([xp.asarray(x), xp.asarray(y)])


def test_axes_reshaping():
    a = xp.asarray(N3)
    for axis in (0, 2, 3, -1, -4):
        same(xp.expand_dims(a, axis=axis), np.expand_dims(N3, axis))
    for axis in (4, -5):
        with pytest.raises(IndexError):
            xp.expand_dims(a, axis=axis)
    s = N3[:1, :, :1]
    same(xp.squeeze(xp.asarray(s), axis=(0, 2)), np.squeeze(s, axis=(0, 2)))
    same(xp.squeeze(xp.asarray(s), axis=-1), np.squeeze(s, axis=-1))
    with pytest.raises(ValueError):
        xp.squeeze(xp.asarray(s), axis=1)
    for axes in [(0, 1, 2), (2, 0, 1), (1, 0, 2)]:
        same(xp.permute_dims(a, axes), np.permute_dims(N3, axes))
    with pytest.raises(IndexError):
        xp.permute_dims(a, (0, 1, 3))
    with pytest.raises(ValueError):
        xp.permute_dims(a, (0, 1, 1))
    for src, dst in [(0, -1), (2, 0), ((0, 1), (2, 0)), ((0, 2), (1, 2))]:
        same(xp.moveaxis(a, src, dst), np.moveaxis(N3, src, dst))
    for shape in [(12, 5), (5, -1), (60,), (2, 3, 2, 5)]:
        same(xp.reshape(a, shape), np.reshape(N3, shape))
    with pytest.raises(ValueError):
        xp.reshape(a, (7, -1))
    same(xp.matrix_transpose(a), np.matrix_transpose(N3))


def test_flip_roll_tile_repeat_take():
    a = xp.asarray(N3)
    for axis in (None, 0, 1, (0, 2), -1):
        same(xp.flip(a, axis=axis), np.flip(N3, axis=axis))
    same(xp.flip(xp.asarray(N3[0, 0])), np.flip(N3[0, 0]))
    with pytest.raises(IndexError):
        xp.flip(a, axis=3)
    for shift, axis in [(3, None), (-4, None), ((1, -2), (0, 2)), (5, (1, 2)), (2, -1)]:
        same(xp.roll(a, shift, axis=axis), np.roll(N3, shift, axis=axis))
    with pytest.raises(IndexError):
        xp.roll(a, 1, axis=(0, 1, 2, 3))
    with pytest.raises(IndexError):
        xp.roll(a, 1, axis=-4)
    m = N3[0]
    for reps in [(2, 1), (1, 2), (2, 2), (1, 1, 3), (3,)]:
        same(xp.tile(xp.asarray(m), reps), np.tile(m, reps))
    same(xp.repeat(xp.asarray(m), 2), np.repeat(m, 2))
    r = RNG.integers(0, 3, m.size)
    same(xp.repeat(xp.asarray(m), xp.asarray(r)), np.repeat(m, r))
    idx = np.array([2, 0, 2])
    same(xp.take(a, xp.asarray(idx), axis=1), np.take(N3, idx, axis=1))
    same(xp.take(a, xp.asarray(idx), axis=-1), np.take(N3, idx, axis=-1))
    same(xp.take(xp.asarray(N3[0, 0]), xp.asarray(idx)), np.take(N3[0, 0], idx))
    with pytest.raises(ValueError):
        xp.take(a, xp.asarray(idx))


@pytest.mark.parametrize("dt1", [np.int64, np.float64, np.bool_])
@pytest.mark.parametrize("dt2", [np.int64, np.float64, np.bool_])
def test_linalg(dt1, dt2):
    x = RNG.integers(0, 3, (4, 5)).astype(dt1)
    y = RNG.integers(0, 3, (5, 3)).astype(dt2)
    same(xp.matmul(xp.asarray(x), xp.asarray(y)), np.matmul(x, y), exact=False)
    same(xp.asarray(x) @ xp.asarray(y), x @ y, exact=False)
    same(xp.linalg.matmul(xp.asarray(x), xp.asarray(y)), np.matmul(x, y), exact=False)
    if dt1 != np.bool_ or dt2 != np.bool_:  # NumPy's vecdot of two bool arrays is a logical OR of ANDs
        z = RNG.integers(0, 3, (4, 5)).astype(dt2)
        same(xp.vecdot(xp.asarray(x), xp.asarray(z)), np.vecdot(x, z), exact=False)
        same(xp.vecdot(xp.asarray(x), xp.asarray(z), axis=0), np.vecdot(x, z, axis=0), exact=False)


def test_all_any():
    for x in (N3 > 9, N3 % 2, np.zeros((2, 3, 1))):
        for axis in (None, (1, 2)):
            for keepdims in (False, True):
                same(xp.all(xp.asarray(x), axis=axis, keepdims=keepdims), np.all(x, axis=axis, keepdims=keepdims))
                same(xp.any(xp.asarray(x), axis=axis, keepdims=keepdims), np.any(x, axis=axis, keepdims=keepdims))
    assert bool(xp.asarray(N3 >= 0).all()) and not bool(xp.asarray(N3 > 100).any())


def test_clip_diff():
    for dt in (np.int64, np.float64, np.uint64, np.uint8):
        x = N3.astype(dt)
        same(xp.clip(xp.asarray(x), 3, 15), np.clip(x, 3, 15))
    for dt in (np.int64, np.float64, np.bool_):
        x = (N3 % 3).astype(dt)
        for n, axis in [(1, -1), (1, 1), (2, 0)]:
            same(xp.diff(xp.asarray(x), n=n, axis=axis), np.diff(x, n=n, axis=axis))
    with pytest.raises(RuntimeError, match="clip does not support dtype bool"):
        xp.clip(xp.asarray(N3 > 3), 1, 2)


def test_pad():
    x = np.arange(24.0).reshape(2, 3, 4)
    cases = [
        (((1, 1), (2, 2), (3, 3)), ((-1, 1), (-2, 2), (-3, 3))),
        ((2, 3), (55, 44)),
        (2, 3),
        (((0, 1), (1, 0), (0, 0)), 7),
    ]
    for width, values in cases:
        same(xp.pad(xp.asarray(x), width, constant_values=values), np.pad(x, width, constant_values=values))
    same(xp.pad(xp.asarray(np.arange(3)), (1, 2)), np.pad(np.arange(3), (1, 2)))
    with pytest.raises(NotImplementedError):
        xp.pad(xp.asarray(x), 1, mode="edge")
    with pytest.raises(ValueError):
        xp.pad(xp.asarray(x), ((1, 1), (1, 1)))


@pytest.mark.parametrize("dt", [np.int64, np.float64, np.bool_])
def test_trapezoid(dt):
    y = RNG.integers(0, 9, (3, 4, 5)).astype(dt)
    x = RNG.integers(0, 9, (3, 4, 5)).astype(np.float64)
    for axis in (-1, 0, 1):
        same(xp.trapezoid(xp.asarray(y), axis=axis), np.trapezoid(y, axis=axis), exact=False)
        same(xp.trapz(xp.asarray(y), dx=2.5, axis=axis), np.trapezoid(y, dx=2.5, axis=axis), exact=False)
        same(xp.trapz(xp.asarray(y), xp.asarray(x), axis=axis), np.trapezoid(y, x, axis=axis), exact=False)
    y1, x1 = y[0, 0], x[0, 0]
    same(xp.trapz(xp.asarray(y1), xp.asarray(x1)), np.trapezoid(y1, x1), exact=False)
    same(xp.trapz(xp.asarray(y), xp.asarray(x1), axis=-1), np.trapezoid(y, x1, axis=-1), exact=False)


def test_chunk_info():
    nl = ak.num_locales()
    info = xp.zeros(10).chunk_info()
    assert info[0] == sorted({-(-k * 10 // nl) for k in range(nl)})
    info2 = xp.zeros((8, 3)).chunk_info()
    assert len(info2) == 2 and info2[1] == [0] and info2[0][0] == 0


# ------------------------------------------------------------------------------------------
# random shapes
# ------------------------------------------------------------------------------------------

SHAPES = st.lists(st.integers(1, 4), min_size=1, max_size=4).map(tuple)


@given(shape=SHAPES, seed=st.integers(0, 2**32 - 1), data=st.data())
def test_random_reductions_and_broadcasting(shape, seed, data):
    x = np.random.default_rng(seed).integers(-9, 10, shape)
    k = data.draw(st.integers(1, len(shape)))
    axis = tuple(sorted(data.draw(st.permutations(range(len(shape))))[:k]))
    keepdims = data.draw(st.booleans())
    a = xp.asarray(x)
    same(xp.sum(a, axis=axis, keepdims=keepdims), np.sum(x, axis=axis, keepdims=keepdims))
    same(xp.max(a, axis=axis, keepdims=keepdims), np.max(x, axis=axis, keepdims=keepdims))
    y = np.max(x, axis=axis, keepdims=True)
    same(xp.subtract(a, xp.asarray(y)), x - y)


@pytest.mark.parametrize("args", [(0.5, 2.0, 0.5), (3.0,), (1, 2.5), (5, 0, -1.5), (0.1, 0.35, 0.05), (2, 1, 0.5)])
def test_arange_of_float_bounds_is_numpys(args):
    got = xp.arange(*args)
    want = np.arange(*args)
    assert got.shape == want.shape
    np.testing.assert_allclose(np.asarray(got.tolist(), dtype=float), want)
