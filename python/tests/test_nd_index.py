"""Indexing and assignment of pdarrays of any rank against NumPy's rules: ints, slices with
steps, ``Ellipsis``, ``None``, boolean masks and integer arrays per axis (advanced indexing,
broadcast together), on random shapes (ranks 0-5, zero-length axes), on arrays that are views
of other storage, with NumPy's errors; and NumPy's printed layout."""

import atoll as ak
import numpy as np
import pytest
from atoll.core import client
from atoll.numpy.pdarrayclass import PRINT_THRESHOLD
from conftest import assert_same
from hypothesis import HealthCheck, given, settings, strategies as st

DTYPES = [np.int64, np.float64, np.bool_]


def values(shape, dtype, seed):
    rng = np.random.default_rng(seed)
    n = rng.integers(-50, 50, size=shape)
    return np.asarray(n.astype(dtype))


def as_atoll(n, view):
    """``n`` as a pdarray; ``view``: as a strided view of other storage (start and step not 0 and 1)."""
    if not view:
        return ak.array(n)
    flat = n.reshape(-1)
    big = np.zeros(2 * flat.size + 1, dtype=n.dtype)
    big[1::2] = flat
    return ak.array(big)[1::2].reshape(n.shape)


def form(x, how):
    """An index array ``x`` as the key Atoll gets: a NumPy array, a list or a pdarray."""
    if how == 0:
        return x
    if how == 1:
        return x.tolist()
    return ak.array(x)


@st.composite
def cases(draw):
    """A shape, and a key of it (NumPy's form and Atoll's), sometimes one NumPy rejects."""
    rank = draw(st.integers(0, 5))
    shape = tuple(draw(st.lists(st.integers(0, 4), min_size=rank, max_size=rank)))
    bshape = tuple(draw(st.lists(st.integers(1, 3), min_size=0, max_size=2)))
    errors = draw(st.booleans()) and draw(st.booleans())
    key_np, key_ak = [], []
    ax = 0
    ellipsis_at = draw(st.integers(-1, rank)) if draw(st.booleans()) else -2
    while ax <= rank:
        if draw(st.integers(0, 5)) == 0:
            key_np.append(None)
            key_ak.append(None)
        if ax == ellipsis_at:
            key_np.append(Ellipsis)
            key_ak.append(Ellipsis)
            ax += draw(st.integers(0, rank - ax))
            continue
        if ax == rank or (ellipsis_at == -2 and draw(st.integers(0, 6)) == 0):
            break
        n = shape[ax]
        kinds = ["slice", "bool"] + (["int", "intarr"] if n else [])
        if ax + 1 < rank:
            kinds.append("bool2")
        kind = draw(st.sampled_from(kinds))
        if kind == "int":
            lo, hi = (-n - 2, n + 1) if errors else (-n, n - 1)
            i = draw(st.integers(lo, hi))
            key_np.append(i)
            key_ak.append(np.int64(i) if draw(st.booleans()) else i)
            ax += 1
        elif kind == "slice":
            parts = [draw(st.one_of(st.none(), st.integers(-6, 6))) for _ in range(2)]
            step = draw(st.one_of(st.none(), st.integers(-3, 3).filter(bool)))
            key_np.append(slice(*parts, step))
            key_ak.append(slice(*parts, step))
            ax += 1
        elif kind == "intarr":
            ishape = tuple(d if draw(st.integers(0, 3)) else 1 for d in bshape)
            ishape = ishape[draw(st.integers(0, len(ishape))) :]
            lo, hi = (-n - 1, n) if errors else (-n, n - 1)
            seed = draw(st.integers(0, 2**32 - 1))
            x = np.random.default_rng(seed).integers(lo, hi + 1, size=ishape).astype(np.int64)
            how = draw(st.integers(0, 2)) if x.ndim else 2
            if how == 2 and draw(st.booleans()) and x.size and x.min() >= 0:
                x = x.astype(np.uint64)
            key_np.append(x)
            key_ak.append(form(x, how))
            ax += 1
        else:
            span = 2 if kind == "bool2" else 1
            mshape = shape[ax : ax + span]
            if errors and draw(st.booleans()):
                mshape = (mshape[0] + 1,) + mshape[1:]
            seed = draw(st.integers(0, 2**32 - 1))
            m = np.random.default_rng(seed).random(mshape) < 0.5
            how = draw(st.sampled_from([0, 1, 2] if m.size else [0, 2]))  # [] is an int64 index
            key_np.append(m)
            key_ak.append(form(m, how))
            ax += span
    if errors and draw(st.integers(0, 3)) == 0:
        key_np.append(0)
        key_ak.append(0)
    if len(key_np) == 1 and draw(st.booleans()):
        return shape, key_np[0], key_ak[0]
    return shape, tuple(key_np), tuple(key_ak)


def numpy_result(n, key):
    try:
        return n[key], None
    except IndexError as e:
        return None, e


SETTINGS = settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


def check_get(got, want):
    if isinstance(want, np.ndarray):
        assert isinstance(got, ak.pdarray)
        assert got.shape == want.shape and got.ndim == want.ndim
        assert_same(got, want)
    else:
        assert not isinstance(got, ak.pdarray)
        assert type(got) is type(want) and got == want


@SETTINGS
@given(cases(), st.sampled_from(DTYPES), st.booleans(), st.integers(0, 2**32 - 1))
def test_getitem_matches_numpy(case, dtype, view, seed):
    shape, key_np, key_ak = case
    n = values(shape, dtype, seed)
    a = as_atoll(n, view)
    want, err = numpy_result(n, key_np)
    if err is not None:
        with pytest.raises(IndexError):
            a[key_ak]
        return
    check_get(a[key_ak], want)


@SETTINGS
@given(cases(), st.sampled_from(DTYPES), st.booleans(), st.integers(0, 2**32 - 1), st.integers(0, 3))
def test_setitem_matches_numpy(case, dtype, view, seed, value_kind):
    shape, key_np, key_ak = case
    n = values(shape, dtype, seed)
    a = as_atoll(n, view)
    sel, err = numpy_result(n, key_np)
    if err is not None:
        with pytest.raises(IndexError):
            a[key_ak] = 1
        return
    positions = np.arange(n.size).reshape(n.shape)[key_np]
    sshape = np.shape(sel)
    if value_kind == 0 or np.unique(positions).size != np.size(positions):
        value = dtype(7)  # a scalar: repeated positions take it whatever the order of writes
    else:
        vshape = sshape[value_kind - 1 :] if value_kind < 3 else tuple(1 if d % 2 else d for d in sshape)
        value = values(vshape, dtype, seed + 1)
    n[key_np] = value
    a[key_ak] = ak.array(value) if value_kind == 2 and isinstance(value, np.ndarray) else value
    assert a.shape == n.shape
    assert_same(a, n)


@pytest.mark.parametrize("view", [False, True])
def test_examples(view):
    """Arkouda's array_api examples and NumPy's rule for advanced indices separated by a slice."""
    n = np.arange(5 * 6 * 7).reshape(5, 6, 7)
    a = as_atoll(n, view)
    idx = np.array([1, 2, 3, 4])
    for key in [
        (idx, idx, idx),
        (idx, slice(None), 2),
        (slice(None), idx, idx),
        (0, idx, 3),
        (Ellipsis, idx),
        (idx, None, slice(None)),
        (3, idx, None),
        (None, 1, slice(None)),
        (1, None, 2),
        (slice(None, None, -2), Ellipsis, slice(1, None, 3)),
        (idx[:, None], slice(None), idx[None, :3]),
        (n[:, 0, 0] % 2 == 0, slice(None), 4),
        (n[..., 0] % 3 == 0,),
        (n % 3 == 0,),
    ]:
        check_get(a[key], n[key])
        check_get(a[tuple(ak.array(k) if isinstance(k, np.ndarray) else k for k in key)], n[key])
    b = as_atoll(np.arange(10), view)
    for key in [(None, None, slice(None)), (None, None, 1), (None, 1, None), (1, None, None), (Ellipsis,), ()]:
        check_get(b[key], np.arange(10)[key])


def test_rank_changing_assignment():
    rng = np.random.default_rng(3)
    n = rng.integers(0, 100, (5, 6, 7))
    a = ak.array(n)
    for key, shape in [
        ((slice(None), slice(None), 0), (5, 6)),
        ((1, slice(None), slice(None)), (6, 7)),
        ((2, slice(None), 3), (6,)),
        ((slice(None, None, -1), slice(1, None, 2), slice(None, None, 3)), (1, 3, 1)),
        ((slice(None),), (5, 6, 7)),
    ]:
        v = rng.integers(0, 100, shape)
        n[key] = v
        a[key] = ak.array(v)
        assert_same(a, n)
    n[1, 2, 3] = 42
    a[1, 2, 3] = 42
    assert a[1, 2, 3] == 42
    n[n > 50] = -1
    a[a > 50] = -1
    count = int((n < 10).sum())
    n[n < 10] = np.arange(count)
    a[a < 10] = ak.arange(count)
    assert_same(a, n)


def test_scalars_and_zero_rank():
    n = np.arange(24.0).reshape(2, 3, 4)
    a = ak.array(n)
    assert type(a[1, 2, 3]) is np.float64 and a[1, 2, 3] == n[1, 2, 3]
    assert a[-1, -3, -4] == n[-1, -3, -4]
    z = ak.array(np.array(5))
    assert type(z[()]) is np.int64 and z[()] == 5
    check_get(z[...], np.array(5)[...])
    check_get(z[None], np.array(5)[None])
    z[()] = 9
    assert z[()] == 9
    with pytest.raises(TypeError):
        iter(z)
    rows = list(a)
    assert len(rows) == 2
    assert_same(rows[1], n[1])


@pytest.mark.parametrize(
    "key",
    [
        (0, 0, 0, 0),
        (Ellipsis, Ellipsis),
        (2, 0),
        (slice(None), -4),
        ([0, 3],),
        ([[0, 1]], [0, 1, 2]),
        (np.ones((2, 2), dtype=bool),),
        (1.5,),
        ("a",),
        (np.array([0.5]),),
    ],
)
def test_errors_as_numpy(key):
    n = np.arange(6).reshape(2, 3)
    a = ak.array(n)
    with pytest.raises(IndexError) as want:
        n[key]
    with pytest.raises(IndexError) as got:
        a[key]
    if "out of bounds" in str(want.value) or "too many" in str(want.value):
        assert str(got.value) == str(want.value)
    with pytest.raises(IndexError):
        a[key] = 1


def test_assignment_value_errors():
    n = np.zeros((2, 3, 4))
    a = ak.array(n)
    for key, v in [((slice(None), 0), np.ones(3)), ((0,), np.ones((2, 4))), ((slice(None),), np.ones((2, 2, 3, 4)))]:
        with pytest.raises(ValueError):
            n[key] = v
        with pytest.raises(ValueError):
            a[key] = v
    n[0] = np.ones((1, 1, 3, 4))  # leading axes of length 1 are dropped
    a[0] = np.ones((1, 1, 3, 4))
    assert_same(a, n)


def test_lazy_value_reads_target():
    n = np.arange(20).reshape(4, 5)
    a = ak.array(n)
    b = a[::-1] + 0  # lazy, reads a
    n2 = n[::-1] + 0
    a[1:3, ::2] = a[::2, 1:4]
    n[1:3, ::2] = n[::2, 1:4].copy()
    assert_same(a, n)
    assert_same(b, n2)
    for key, src in [((slice(None), slice(None, None, -1)), Ellipsis), (([2, 0, 1, 3],), Ellipsis), ((0,), 1)]:
        n = np.arange(20).reshape(4, 5)
        a = ak.array(n)
        n[key] = n[src].copy()
        a[key] = a[src]
        assert_same(a, n)


@pytest.mark.parametrize(
    "shape", [(2, 3), (20, 30), (4, 5, 6), (3, 50), (1000, 2), (0, 3), (), (7, 7, 7), (2, 101, 1, 3)]
)
@pytest.mark.parametrize("dtype", [np.int64, np.float64, np.bool_])
def test_printing_as_numpy(shape, dtype):
    n = np.asarray((np.arange(int(np.prod(shape))).reshape(shape) * 1.25).astype(dtype))
    a = ak.array(n)
    t = getattr(client, "pdarrayIterThresh", PRINT_THRESHOLD)
    assert str(a) == np.array2string(n, separator=" ", threshold=t, max_line_width=10**9)
    body = np.array2string(n, separator=" ", threshold=t, max_line_width=10**9, prefix="array(")
    assert repr(a) == f"array({body})"
    html = a._repr_html_()
    assert f"shape {shape}" in html


def test_one_element_values_broadcast_in_1d():
    n = np.arange(6)
    a = ak.arange(6)
    n[1:4] = np.array([9])
    a[1:4] = ak.array([9])
    n[[0, 5]] = np.array(7)
    a[[0, 5]] = ak.array(np.array(7))
    n[2] = np.array(4)
    a[2] = np.array(4)
    assert_same(a, n)
    with pytest.raises(ValueError):
        n[1:4] = np.arange(2)
    with pytest.raises(ValueError):
        a[1:4] = ak.arange(2)
