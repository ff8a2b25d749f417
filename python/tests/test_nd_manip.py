"""N-dimensional pdarrays in the element-wise functions (broadcasting), the manipulation
functions (squeeze, expand_dims, broadcast_to/arrays, concatenate/stack/hstack/vstack along an
axis, flip, roll, repeat, tile, diff) and matmul/dot/vecdot/tensordot: each checked against
NumPy on random shapes (ranks 0-5, zero-length axes, strided inputs, broadcasting)."""

import atoll as ak
import atoll.stats
import numpy as np
import pytest
from hypothesis import given, strategies as st

DIMS = st.integers(0, 3)
SHAPES = st.lists(DIMS, min_size=0, max_size=5).map(tuple)
SHAPES1 = st.lists(DIMS, min_size=1, max_size=5).map(tuple)
DTYPES = st.sampled_from([np.int64, np.float64, np.uint64, np.bool_])


def _values(shape, dtype, seed):
    """Values of ``shape`` and ``dtype`` from ``seed`` (NumPy's generator: the reference)."""
    rng = np.random.default_rng(seed)
    v = np.asarray(rng.integers(-9, 10, size=shape))
    if dtype == np.bool_:
        return np.asarray(v > 0)
    if dtype == np.uint64:
        return np.asarray(np.abs(v)).astype(np.uint64)
    if dtype == np.float64:
        return np.asarray(v * 0.5)
    return v.astype(dtype)


def _ak(x, strided):
    """``x`` as a pdarray; ``strided``: read through a slice of step 2 of a larger array (its
    flat values not at the start of the storage, not contiguous)."""
    if not strided:
        return ak.array(x)
    flat = np.ravel(x)
    big = np.zeros(2 * flat.size + 1, dtype=flat.dtype)
    big[1::2] = flat
    return ak.array(big)[1::2].reshape(np.shape(x))


def _same(got, want):
    assert isinstance(got, ak.pdarray), type(got)
    g = got.to_ndarray()
    assert got.shape == want.shape, (got.shape, want.shape)
    assert g.dtype == want.dtype, (g.dtype, want.dtype)
    if want.dtype.kind == "f":
        np.testing.assert_allclose(g, want, rtol=1e-12, atol=1e-12)
    else:
        np.testing.assert_array_equal(g, want)


def _squash(shape, mask, drop):
    """A shape that broadcasts to ``shape``: axes in ``mask`` made 1, ``drop`` leading axes gone."""
    s = tuple(1 if (mask >> k) & 1 else d for k, d in enumerate(shape))
    return s[min(drop, len(s)) :]


@given(SHAPES, st.integers(0, 31), st.integers(0, 31), st.integers(0, 5), st.integers(0, 5), st.booleans())
def test_elementwise_functions_broadcast(shape, m1, m2, d1, d2, strided):
    s1, s2 = _squash(shape, m1, d1), _squash(shape, m2, d2)
    x, y = _values(s1, np.int64, 1), _values(s2, np.float64, 2)
    c = _values(s1, np.bool_, 3)
    X, Y, C = _ak(x, strided), _ak(y, False), _ak(c, strided)
    _same(ak.where(C, X, Y), np.where(c, x, y))
    _same(ak.where(C, X, 7), np.where(c, x, 7))
    _same(ak.hypot(X, Y), np.hypot(x, y))
    _same(ak.arctan2(Y, X), np.arctan2(y, x))
    _same(ak.maximum(X, Y), np.maximum(x, y))
    _same(ak.minimum(Y, 2), np.minimum(y, 2))
    _same(ak.fmod(X, Y + 10), np.fmod(x, y + 10))
    r = np.asarray(np.abs(_values(s2, np.int64, 4)))
    _same(ak.rotl(X, ak.array(r)), _rotl(*np.broadcast_arrays(x, r)))
    _same(ak.sin(Y), np.sin(y))
    _same(ak.floor(Y), np.floor(y))
    _same(ak.isnan(Y), np.isnan(y))
    _same(ak.clip(X, -2, 3), np.clip(x, -2, 3))
    if len(s1) != 1 or len(s2) != 1:  # (operators on two 1-D arrays need one length)
        _same(X + Y, x + y)


def _rotl(x, r):
    """The 64-bit left rotation of int64 ``x`` by ``r % 64`` (Python ints: the reference)."""
    out = np.zeros(np.shape(x), dtype=np.int64)
    for idx in np.ndindex(np.shape(x)):
        v, k = int(x[idx]) % 2**64, int(r[idx]) % 64
        w = ((v << k) | (v >> (64 - k))) % 2**64 if k else v
        out[idx] = w - 2**64 if w >= 2**63 else w
    return out


@given(SHAPES1, st.integers(-6, 6), st.booleans(), DTYPES, st.data())
def test_flip_roll_squeeze_expand_dims(shape, k, strided, dt, data):
    x = _values(shape, dt, 4)
    X = _ak(x, strided)
    nd = len(shape)
    _same(ak.flip(X), np.flip(x))
    ax = data.draw(st.integers(-nd, nd - 1))
    _same(ak.flip(X, axis=ax), np.flip(x, axis=ax))
    _same(ak.roll(X, k, axis=ax), np.roll(x, k, axis=ax))
    _same(ak.roll(X, k), np.roll(x, k))
    if nd > 1:
        _same(ak.flip(X, axis=(0, nd - 1)), np.flip(x, axis=(0, nd - 1)))
        _same(ak.roll(X, (k, 1 - k), axis=(0, nd - 1)), np.roll(x, (k, 1 - k), axis=(0, nd - 1)))
    want = np.squeeze(x)
    _same(ak.squeeze(X), want if want.ndim else want.reshape(1))  # Arkouda keeps one axis
    ones = tuple(a for a in range(nd) if shape[a] == 1)
    if ones and len(ones) < nd:
        _same(ak.squeeze(X, axis=ones), np.squeeze(x, axis=ones))
    for ax in (0, -1, (0, nd)):
        _same(ak.expand_dims(X, ax), np.expand_dims(x, ax))
    with pytest.raises(np.exceptions.AxisError):
        ak.flip(X, axis=nd)
    with pytest.raises(np.exceptions.AxisError):
        ak.roll(X, 1, axis=nd)
    if any(d != 1 for d in shape):
        bad = next(a for a in range(nd) if shape[a] != 1)
        with pytest.raises(ValueError):
            np.squeeze(x, axis=bad)
        with pytest.raises(ValueError):
            ak.squeeze(X, axis=bad)


@given(
    SHAPES1, st.integers(0, 3), st.lists(st.integers(0, 3), min_size=0, max_size=4), st.booleans(), DTYPES, st.data()
)
def test_repeat_tile(shape, r, reps, strided, dt, data):
    x = _values(shape, dt, 5)
    X = _ak(x, strided)
    ax = data.draw(st.integers(-len(shape), len(shape) - 1))
    _same(ak.repeat(X, r, axis=ax), np.repeat(x, r, axis=ax))
    counts = list(np.arange(shape[ax]) % 3)
    _same(ak.repeat(X, counts, axis=ax), np.repeat(x, counts, axis=ax))
    _same(ak.repeat(X, r), np.repeat(x, r))
    _same(ak.tile(X, tuple(reps)), np.tile(x, tuple(reps)))
    _same(ak.tile(X, r), np.tile(x, r))


@given(SHAPES1, st.data(), st.booleans(), DTYPES, DTYPES)
def test_concatenate_stack_along_any_axis(shape, data, strided, d1, d2):
    nd = len(shape)
    ax = data.draw(st.integers(-nd, nd - 1))
    lens = data.draw(st.lists(st.integers(0, 3), min_size=1, max_size=4))
    parts = []
    for q, n in enumerate(lens):
        s = list(shape)
        s[ax] = n
        parts.append(_values(tuple(s), d1 if q % 2 else d2, 10 + q))
    P = [_ak(p, strided) for p in parts]
    _same(ak.concatenate(P, axis=ax), np.concatenate(parts, axis=ax))
    _same(ak.concatenate(P, axis=None), np.concatenate(parts, axis=None))
    same = [_values(shape, d1, 20 + q) for q in range(len(lens))]
    S = [_ak(p, strided) for p in same]
    a = data.draw(st.integers(-nd - 1, nd))
    _same(ak.stack(S, axis=a), np.stack(same, axis=a))
    _same(ak.vstack(S), np.vstack(same))
    _same(ak.hstack(S), np.hstack(same))
    _same(ak.append(S[0], S[-1], axis=ax), np.append(same[0], same[-1], axis=ax))
    _same(ak.append(S[0], S[-1]), np.append(same[0], same[-1]))


def test_concatenate_errors_like_numpy():
    a, b = np.zeros((2, 3)), np.zeros((3, 3))
    A, B = ak.array(a), ak.array(b)
    for xs, ys, kw in (((a, b), (A, B), {"axis": 1}), ((a, a[0]), (A, A[0]), {})):
        with pytest.raises(ValueError):
            np.concatenate(xs, **kw)
        with pytest.raises(ValueError):
            ak.concatenate(list(ys), **kw)
    with pytest.raises(np.exceptions.AxisError):
        ak.concatenate([A, A], axis=2)
    with pytest.raises(ValueError):
        ak.concatenate([ak.array(np.array(1)), ak.array(np.array(2))])
    with pytest.raises(ValueError):
        ak.stack([A, B])


@given(SHAPES, st.integers(0, 31), st.integers(0, 5), st.booleans())
def test_broadcast_to_and_arrays(shape, mask, drop, strided):
    s = _squash(shape, mask, drop)
    x = _values(s, np.int64, 6)
    X = _ak(x, strided)
    _same(ak.broadcast_to(X, shape), np.broadcast_to(x, shape))
    y = _values(shape, np.float64, 7)
    got = ak.broadcast_arrays(X, ak.array(y))
    for g, w in zip(got, np.broadcast_arrays(x, y)):
        _same(g, w)
    _same(ak.broadcast_to(3.5, shape), np.broadcast_to(np.float64(3.5), shape).copy())
    if any(d > 1 for d in shape):
        bad = tuple(d + 1 if d > 1 else d for d in shape)
        with pytest.raises(ValueError):
            np.broadcast_to(np.zeros(shape), bad)
        with pytest.raises(ValueError):
            ak.broadcast_to(ak.array(np.zeros(shape)), bad)


@given(SHAPES1, st.integers(0, 3), st.booleans(), DTYPES, st.data())
def test_diff_along_axis(shape, n, strided, dt, data):
    x = _values(shape, dt, 8)
    X = _ak(x, strided)
    ax = data.draw(st.integers(-len(shape), len(shape) - 1))
    _same(ak.diff(X, n, axis=ax), np.diff(x, n, axis=ax))
    if dt != np.bool_:
        _same(ak.diff(X, n, axis=ax, prepend=2), np.diff(x, n, axis=ax, prepend=2))
        _same(ak.diff(X, n, axis=ax, prepend=X, append=X), np.diff(x, n, axis=ax, prepend=x, append=x))


MATDT = st.sampled_from([np.int64, np.float64, np.uint64, np.bool_])


@given(
    st.integers(0, 4),
    st.integers(0, 4),
    st.integers(0, 4),
    st.lists(st.integers(1, 2), max_size=2),
    MATDT,
    MATDT,
    st.booleans(),
)
def test_matmul_dot_against_numpy(n, k, m, batch, d1, d2, strided):
    a, b = _values((n, k), d1, 30), _values((k, m), d2, 31)
    A, B = _ak(a, strided), _ak(b, False)
    _same(ak.matmul(A, B), np.matmul(a, b))
    _same(A @ B, a @ b)
    _same(ak.dot(A, B), np.dot(a, b))
    v = _values((k,), d2, 32)
    _same(ak.matmul(A, ak.array(v)), np.matmul(a, v))
    _same(ak.matmul(ak.array(v), B), np.matmul(v, b))
    ba = _values(tuple(batch) + (n, k), d1, 33)
    bb = _values((1,) * len(batch) + (k, m), d2, 34)
    _same(ak.matmul(_ak(ba, strided), ak.array(bb)), np.matmul(ba, bb))
    _same(ak.matmul(_ak(ba, strided), ak.array(b)), np.matmul(ba, b))
    if n and m:
        _same(ak.tensordot(A, B, axes=1), np.tensordot(a, b, axes=1))
    _same(ak.dot(ak.array(ba), B), np.dot(ba, b))


def test_matmul_of_batches_and_dtypes():
    # A batch of matrices against one matrix, rows spread over the locales; ints exact
    # (wrapping), floats to rounding, bool as "any product true".
    rng = np.random.default_rng(40)
    a, b = rng.integers(-(2**40), 2**40, (3, 11)), rng.integers(-(2**20), 2**20, (11, 2))
    _same(ak.matmul(ak.array(a), ak.array(b)), a @ b)  # exact (wrapping) for ints
    fa, fb = rng.standard_normal((2, 3, 9)), rng.standard_normal((9, 4))
    got = ak.matmul(ak.array(fa), ak.array(fb)).to_ndarray()
    np.testing.assert_allclose(got, fa @ fb, rtol=1e-12, atol=1e-12)
    _same(ak.matmul(ak.array(a > 0), ak.array(b > 0)), (a > 0) @ (b > 0))
    big_a, big_b = rng.standard_normal((67, 45)), rng.standard_normal((45, 31))
    np.testing.assert_allclose((ak.array(big_a) @ ak.array(big_b)).to_ndarray(), big_a @ big_b, rtol=1e-12, atol=1e-12)
    ua, ub = rng.integers(0, 2**63, (4, 5), dtype=np.uint64), rng.integers(0, 2**63, (5, 3), dtype=np.uint64)
    _same(ak.matmul(ak.array(ua), ak.array(ub)), ua @ ub)


def test_matmul_errors_like_numpy():
    a, b = np.zeros((2, 3)), np.zeros((2, 3))
    with pytest.raises(ValueError):
        np.matmul(a, b)
    with pytest.raises(ValueError):
        ak.matmul(ak.array(a), ak.array(b))
    with pytest.raises(ValueError):
        ak.dot(ak.array(a), ak.array(b))
    with pytest.raises(ValueError):
        ak.matmul(ak.array(np.array(1.0)), ak.array(a))
    with pytest.raises(ValueError):
        ak.tensordot(ak.array(a), ak.array(b), axes=([1], [0]))
    with pytest.raises(TypeError):
        ak.matmul(ak.array(a), [[1.0]])


@given(SHAPES1, st.integers(0, 31), st.integers(0, 5), MATDT, MATDT, st.booleans())
def test_vecdot_against_numpy(shape, mask, drop, d1, d2, strided):
    s = _squash(shape, mask & ~(1 << (len(shape) - 1)), min(drop, len(shape) - 1))
    x, y = _values(shape, d1, 50), _values(s, d2, 51)
    X, Y = _ak(x, strided), ak.array(y)
    axes = [None] + [ax for ax in range(len(shape)) if len(s) == len(shape) and s[ax] == shape[ax]]
    for ax in axes:
        want = np.vecdot(x, y) if ax is None else np.vecdot(x, y, axis=ax)
        got = ak.vecdot(X, Y) if ax is None else ak.vecdot(X, Y, axis=ax)
        if want.ndim == 0:
            assert got == want[()] and np.asarray(got).dtype == want.dtype, (got, want)
        else:
            _same(got, want)


def test_empty_and_empty_like():
    e = ak.empty((2, 3), dtype=np.int64)
    assert e.shape == (2, 3) and e.dtype == np.int64
    f = ak.empty_like(ak.array(np.zeros((4, 1, 2), dtype=np.uint64)))
    w = np.empty_like(np.zeros((4, 1, 2), dtype=np.uint64))
    assert f.shape == w.shape and f.dtype == w.dtype


@given(SHAPES1, st.booleans())
def test_array_equal_and_out_with_shapes(shape, strided):
    x = _values(shape, np.float64, 60) - 0.25
    X = _ak(x, strided)
    flat = ak.array(np.ravel(x))
    assert ak.array_equal(X, _ak(x, not strided)) == np.array_equal(x, x)
    assert ak.array_equal(X, flat) == np.array_equal(x, np.ravel(x))
    out, want = ak.zeros(shape), np.zeros(shape)
    assert ak.floor(X, out=out) is out
    _same(out, np.floor(x, out=want))
    out, want = ak.ones(shape), np.ones(shape)
    ak.trunc(X, out=out, where=X > 0)
    np.trunc(x, out=want, where=x > 0)
    _same(out, want)
    out, want = ak.zeros(shape), np.zeros(shape)
    ak.arctan2(X, 2.0, out=out)
    _same(out, np.arctan2(x, 2.0, out=want))
    if len(shape) > 1:
        with pytest.raises(ValueError):
            np.floor(x, out=np.zeros(np.size(x)))
        with pytest.raises(ValueError):
            ak.floor(X, out=ak.zeros(np.size(x)))


@given(SHAPES1, st.data(), st.booleans(), DTYPES)
def test_delete_along_axis(shape, data, strided, dt):
    x = _values(shape, dt, 70)
    X = _ak(x, strided)
    ax = data.draw(st.sampled_from([None] + list(range(len(shape)))))
    n = x.size if ax is None else shape[ax]
    if n:
        k = data.draw(st.integers(-n, n - 1))
        _same(ak.delete(X, k, axis=ax), np.delete(x, k, axis=ax))
        ks = data.draw(st.lists(st.integers(-n, n - 1), max_size=4))
        _same(ak.delete(X, ks, axis=ax), np.delete(x, np.array(ks, dtype=np.int64), axis=ax))
        mask = data.draw(st.lists(st.booleans(), min_size=n, max_size=n))
        _same(ak.delete(X, ak.array(mask), axis=ax), np.delete(x, np.array(mask), axis=ax))
    _same(ak.delete(X, slice(0, None, 2), axis=ax), np.delete(x, slice(0, None, 2), axis=ax))
    with pytest.raises(IndexError):
        np.delete(x, n, axis=ax)
    with pytest.raises(IndexError):
        ak.delete(X, n, axis=ax)


def test_hstack_vstack_of_rank0_arrays():
    z, v = np.array(3), np.arange(2)
    _same(ak.hstack([ak.array(z), ak.array(v)]), np.hstack([z, v]))
    _same(ak.vstack([ak.array(z), ak.array(z)]), np.vstack([z, z]))
    _same(ak.tile(ak.array(z), (2, 1)), np.tile(z, (2, 1)))


def test_rank0_inputs_like_numpy():
    z, v = np.array(5), np.arange(3)
    Z, V = ak.array(z), ak.array(v)
    _same(ak.flip(Z), np.flip(z))
    _same(ak.roll(Z, 2), np.roll(z, 2))
    _same(ak.repeat(Z, 3), np.repeat(z, 3))
    _same(ak.expand_dims(Z, 0), np.expand_dims(z, 0))
    _same(ak.broadcast_to(Z, (2, 3)), np.broadcast_to(z, (2, 3)))
    _same(ak.concatenate([Z, Z], axis=None), np.concatenate([z, z], axis=None))
    _same(ak.where(Z > 1, Z, 0), np.where(z > 1, z, 0))
    _same(ak.hypot(Z, V), np.hypot(z, v))
    _same(ak.dot(Z, V), np.dot(z, v))
    for np_f, ak_f in (
        (lambda: np.diff(z), lambda: ak.diff(Z)),
        (lambda: np.matmul(z, z), lambda: ak.matmul(Z, Z)),
        (lambda: np.concatenate([z, z]), lambda: ak.concatenate([Z, Z])),
    ):
        with pytest.raises(ValueError):
            np_f()
        with pytest.raises(ValueError):
            ak_f()


def test_diff_of_bigint_arrays_against_python_ints():
    vals = [2**70, 5, 2**65, -(2**66)]
    want = [b - a for a, b in zip(vals, vals[1:])]
    assert ak.diff(ak.array(vals)).tolist() == want
    assert ak.diff(ak.array(vals), 2).tolist() == [b - a for a, b in zip(want, want[1:])]


@given(st.lists(st.integers(-(2**70), 2**70), max_size=6), st.integers(-8, 8))
def test_roll_of_1d_strings_bigint_and_time_arrays(vals, k):
    want = np.roll(np.array(vals, dtype=object), k).tolist()
    assert ak.roll(ak.array(vals, dtype=ak.bigint), k).tolist() == want
    assert ak.roll(ak.array([str(v) for v in vals]), k).tolist() == [str(v) for v in want]
    ns = [v % 2**40 for v in vals]
    got = ak.roll(ak.Datetime(ak.array(np.array(ns, dtype=np.int64))), k)
    assert isinstance(got, ak.Datetime)
    assert got.to_ndarray().astype(np.int64).tolist() == np.roll(np.array(ns, dtype=np.int64), k).tolist()
