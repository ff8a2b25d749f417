"""Reductions, scans and sorts of N-d pdarrays along axes, against NumPy on random shapes
(ranks 0-5, zero-length axes, transposed and lazy inputs)."""

import warnings

import atoll as ak
import numpy as np
import pytest
from hypothesis import given, strategies as st

REDUCTIONS = ["sum", "prod", "min", "max", "argmin", "argmax", "mean", "var", "std", "any", "all", "count_nonzero"]
DTYPES = [np.int64, np.uint64, np.float64, np.bool_, np.uint8]


@st.composite
def nd_arrays(draw, max_rank=5, nan=True):
    """A NumPy array of rank 0-5 (axes of length 0-4, at most 200 elements): small integers,
    or quarters (their sums are exact) with NaN and infinities now and then."""
    rank = draw(st.integers(0, max_rank))
    shape = tuple(draw(st.lists(st.integers(0, 4), min_size=rank, max_size=rank)))
    if int(np.prod(shape)) > 200:
        shape = shape[:1] + tuple(min(d, 2) for d in shape[1:])
    dtype = draw(st.sampled_from(DTYPES))
    n = int(np.prod(shape))
    if dtype == np.bool_:
        vals = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    elif dtype == np.float64:
        special = [np.nan, np.inf, -np.inf] if nan else []
        elems = st.integers(-40, 40).map(lambda k: k / 4)
        if special:
            elems = st.one_of(elems, elems, elems, elems, elems, elems, st.sampled_from(special))
        vals = draw(st.lists(elems, min_size=n, max_size=n))
    else:
        lo = -20 if dtype == np.int64 else 0
        vals = draw(st.lists(st.integers(lo, 20), min_size=n, max_size=n))
    return np.array(vals, dtype=dtype).reshape(shape)


@st.composite
def axes(draw, ndim, single=False):
    """None, an axis (negative now and then) or, unless ``single``, a tuple of distinct axes."""
    kind = draw(st.sampled_from(["none", "int"] + ([] if single else ["tuple"])))
    if kind == "none":
        return None
    if kind == "int":
        # Of a 0-d array: 0 and -1 (which NumPy's ufunc reductions take) or 1 (AxisError).
        return draw(st.integers(-ndim, ndim - 1)) if ndim else draw(st.sampled_from([0, -1, 1]))
    picked = draw(st.lists(st.integers(0, ndim - 1), unique=True, max_size=ndim)) if ndim else []
    return tuple(k - ndim if draw(st.booleans()) else k for k in picked)


def _variant(draw, a):
    """``(pdarray, ndarray)``: ``a`` as given, transposed (a strided gather) or as a lazy
    expression."""
    kind = draw(st.sampled_from(["plain", "transposed", "lazy"]))
    p = ak.array(a)
    if kind == "transposed" and a.ndim > 1:
        perm = draw(st.permutations(range(a.ndim)))
        return p.transpose(*perm), a.transpose(perm)
    if kind == "lazy" and a.dtype != np.bool_ and a.ndim > 0:
        return p + p, a + a
    return p, a


def _numpy(f, *args, **kw):
    """NumPy's result, or the exception it raises."""
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return f(*args, **kw), None
        except Exception as e:  # noqa: BLE001  (the test checks that Atoll raises its kind)
            return None, e


def _same(got, want, exact):
    """``got`` (a pdarray or a scalar) matches NumPy's ``want``: an array of the same shape and
    dtype, or a scalar of the same value."""
    if isinstance(want, np.ndarray) and want.ndim > 0:
        assert isinstance(got, ak.pdarray), (type(got), want)
        assert got.shape == want.shape, (got.shape, want.shape)
        g = got.to_ndarray()
        assert g.dtype == want.dtype, (g.dtype, want.dtype)
    else:
        assert not isinstance(got, ak.pdarray), got
        g, want = np.asarray(got), np.asarray(want)
        if want.dtype != object:
            assert g.dtype == want.dtype or want.dtype.kind == "i", (g.dtype, want.dtype)
    if exact or want.dtype.kind in "biu":
        np.testing.assert_array_equal(g, want)
    else:
        np.testing.assert_allclose(g, want, rtol=1e-9, atol=1e-12, equal_nan=True)


def _check_call(ak_f, np_f, p, a, exact, **kw):
    want, err = _numpy(np_f, a, **kw)
    if err is not None:
        with pytest.raises(type(err)):
            ak_f(p, **kw)
        return
    _same(ak_f(p, **kw), want, exact)


@given(st.data())
def test_reductions_match_numpy(data):
    a = data.draw(nd_arrays())
    op = data.draw(st.sampled_from(REDUCTIONS))
    axis = data.draw(axes(a.ndim, single=op in ("argmin", "argmax")))
    keepdims = data.draw(st.booleans())
    p, a = _variant(data.draw, a)
    kw = {"axis": axis, "keepdims": keepdims}
    if op in ("var", "std"):
        kw["ddof"] = data.draw(st.integers(0, 2))
    exact = op not in ("mean", "var", "std") and not (op == "prod" and a.dtype == np.float64)
    _check_call(getattr(ak, op), getattr(np, op), p, a, exact, **kw)


@given(st.data())
def test_reduction_methods_match_numpy(data):
    a = data.draw(nd_arrays(max_rank=3))
    op = data.draw(st.sampled_from(["sum", "prod", "min", "max", "argmin", "argmax", "mean", "any", "all"]))
    axis = data.draw(axes(a.ndim, single=op in ("argmin", "argmax")))
    exact = op != "mean" and not (op == "prod" and a.dtype == np.float64)
    p = ak.array(a)
    _check_call(lambda x, **kw: getattr(x, op)(**kw), lambda x, **kw: getattr(x, op)(**kw), p, a, exact, axis=axis)


@given(st.data())
def test_scans_match_numpy(data):
    a = data.draw(nd_arrays())
    op = data.draw(st.sampled_from(["cumsum", "cumprod"]))
    axis = data.draw(st.one_of(st.none(), st.integers(-a.ndim - 1, a.ndim)))
    p, a = _variant(data.draw, a)
    want, err = _numpy(getattr(np, op), a, axis=axis)
    if err is not None:
        with pytest.raises(ValueError if isinstance(err, np.exceptions.AxisError) else type(err)):
            getattr(ak, op)(p, axis=axis)
        return
    got = getattr(p, op)(axis=axis) if data.draw(st.booleans()) else getattr(ak, op)(p, axis=axis)
    _same(got, want, exact=not (op == "cumprod" and a.dtype == np.float64))


@given(st.data())
def test_sorts_match_numpy(data):
    a = data.draw(nd_arrays(nan=True).filter(lambda x: x.dtype != np.uint8))
    axis = data.draw(st.one_of(st.none(), st.integers(-a.ndim - 1, a.ndim)))
    p, a = _variant(data.draw, a)
    want, err = _numpy(np.sort, a, axis=axis)
    if err is not None:
        with pytest.raises(ValueError):
            ak.sort(p, axis=axis)
    else:
        _same(ak.sort(p, axis=axis), want, exact=True)
    want, err = _numpy(np.argsort, a, axis=axis, kind="stable")
    if err is not None:
        with pytest.raises(ValueError):
            ak.argsort(p, axis=axis)
    else:
        _same(ak.argsort(p, axis=axis), want, exact=True)
        if axis is not None:
            _same(p.argsort(axis=axis), want, exact=True)


def _np_is_sorted(a, axis):
    """Whether each lane of ``a`` along ``axis`` is nondecreasing (NumPy)."""
    axs = tuple(range(a.ndim)) if axis is None else tuple(np.atleast_1d(axis) % a.ndim)
    kept = [k for k in range(a.ndim) if k not in axs]
    lanes = (
        a.transpose(kept + sorted(axs))
        .reshape([a.shape[k] for k in kept] + [int(np.prod([a.shape[k] for k in axs]))])
        .astype(np.int64)
    )
    ok = np.all(np.diff(lanes, axis=-1) >= 0, axis=-1)
    return ok if kept else ok.item()


@given(st.data())
def test_is_sorted_along_axes(data):
    a = data.draw(nd_arrays(max_rank=4, nan=False).filter(lambda x: x.ndim > 0 and x.dtype != np.float64))
    if data.draw(st.booleans()):
        a = np.sort(a, axis=-1)
    axis = data.draw(axes(a.ndim))
    p = ak.array(a)
    want = _np_is_sorted(a, axis)
    got = ak.is_sorted(p, axis=axis)
    if isinstance(want, np.ndarray):
        np.testing.assert_array_equal(got.to_ndarray(), want)
        np.testing.assert_array_equal(ak.is_locally_sorted(p, axis=axis).to_ndarray(), want)
    else:
        assert bool(got) == want
        # Over every axis: the flat values' Block part of each locale sorted.
        flat, nl = a.reshape(-1).astype(np.int64), ak.num_locales()
        b = [-(-k * flat.size // nl) for k in range(nl + 1)]
        local = all(np.all(np.diff(flat[lo:hi]) >= 0) for lo, hi in zip(b, b[1:]))
        assert bool(ak.is_locally_sorted(p, axis=axis)) == local


def test_arkouda_reductions_on_3d():
    """The calls of Arkouda's tests: pdarrays along axes, NumPy scalars over every axis."""
    a = np.arange(60, dtype=np.float64).reshape(3, 4, 5) % 7
    p = ak.array(a)
    for axis in [0, 1, 2, -1, (0, 2), (1, 2), (-3, -1)]:
        _same(ak.mean(p, axis=axis), np.mean(a, axis=axis), exact=False)
        _same(p.var(axis=axis, ddof=1), np.var(a, axis=axis, ddof=1), exact=False)
        _same(ak.std(p, axis=axis), np.std(a, axis=axis), exact=False)
    r = ak.sum(p, axis=(0, 1, 2))
    assert isinstance(r, np.float64) and r == a.sum()
    assert isinstance(ak.argmax(p), np.int64) and ak.argmax(p) == np.argmax(a)
    _same(ak.argmax(p, axis=None, keepdims=True), np.argmax(a, axis=None, keepdims=True), exact=True)


def test_nan_lanes_as_numpy():
    a = np.array([[1.0, np.nan, 0.0, np.nan], [3.0, 2.0, 2.0, -1.0], [np.nan] * 4])
    p = ak.array(a)
    for op in ["sum", "prod", "min", "max", "argmin", "argmax", "mean", "var", "std"]:
        for axis in (0, 1):
            _same(getattr(ak, op)(p, axis=axis), getattr(np, op)(a, axis=axis), exact=op.startswith("arg"))


def test_errors_as_numpy():
    p = ak.array(np.zeros((2, 0, 3)))
    with pytest.raises(ValueError):
        ak.max(p, axis=1)
    with pytest.raises(ValueError):
        ak.argmin(p, axis=1)
    _same(ak.max(p, axis=0), np.zeros((2, 0, 3)).max(axis=0), exact=True)
    _same(ak.sum(p, axis=1), np.zeros((2, 0, 3)).sum(axis=1), exact=True)
    q = ak.array(np.arange(6).reshape(2, 3))
    with pytest.raises(np.exceptions.AxisError):
        ak.sum(q, axis=2)
    with pytest.raises(ValueError, match="duplicate"):
        ak.sum(q, axis=(0, -2))
    with pytest.raises(TypeError):
        ak.argmin(q, axis=(0,))
    with pytest.raises(TypeError):
        ak.sum(q, axis=1.0)
    with pytest.raises(np.exceptions.AxisError):
        ak.cumsum(q, axis=-3)
    with pytest.raises(np.exceptions.AxisError):
        ak.sort(ak.array(np.array(5)))


@pytest.mark.parametrize("rows", [2, 16, 17, 31, 37, 257, 300])
def test_sums_over_leading_axes(rows):
    """Sums and means over leading axes add whole rows in rounds; row counts around the
    rounds' block count, with a NaN and infinities in some columns."""
    rng = np.random.default_rng(rows)
    a = rng.integers(-40, 40, (rows, 3, 2)) / 4
    a[rows // 2, 1, 0] = np.nan
    a[0, 2, 1], a[-1, 2, 1] = np.inf, -np.inf
    p = ak.array(a)
    for axis in (0, (0, 1)):
        _same(ak.sum(p, axis=axis), a.sum(axis=axis), exact=True)
        _same(ak.mean(p, axis=axis, keepdims=True), a.mean(axis=axis, keepdims=True), exact=False)
    b = rng.integers(0, 2, (rows, 5)).astype(bool)
    _same(ak.array(b).sum(axis=0), b.sum(axis=0), exact=True)
    _same(ak.array(b).mean(axis=0), b.mean(axis=0), exact=False)


def test_var_with_ddof_at_least_the_count():
    """NumPy divides by ``max(n - ddof, 0)``: inf where the deviations are not all 0, else NaN."""
    a = np.array([[0.0, 0.0], [0.0, 1.0], [np.nan, 1.0]])
    for ddof in (2, 3):
        for axis in (None, 1):
            want, _ = _numpy(np.var, a, axis=axis, ddof=ddof)
            _same(ak.var(ak.array(a), axis=axis, ddof=ddof), want, exact=True)
            want, _ = _numpy(np.std, a[1], ddof=ddof)
            _same(ak.std(ak.array(a[1]), ddof=ddof), want, exact=True)


@given(st.data())
def test_argsort_descending_along_axes(data):
    """``ascending=False``: nonincreasing, equal elements in index order, NaN last: NumPy's
    stable argsort of the negated values."""
    a = data.draw(nd_arrays(max_rank=3).filter(lambda x: x.ndim > 1 and x.dtype in (np.int64, np.float64)))
    axis = data.draw(st.integers(-a.ndim, a.ndim - 1))
    _same(ak.argsort(ak.array(a), axis=axis, ascending=False), np.argsort(-a, axis=axis, kind="stable"), exact=True)


@pytest.mark.parametrize("shape,axis", [((5, 2048), 0), ((3, 2, 1024), 0), ((1, 4, 2050), 1), ((1, 4, 2050), -3)])
def test_scans_of_long_rows_as_numpy(shape, axis):
    """Scans along the first axis of long rows combine whole rows in NumPy's order: the float
    results are NumPy's to the last bit."""
    a = np.random.default_rng(7).standard_normal(shape)
    a.flat[11] = np.nan
    p = ak.array(a)
    _same(ak.cumsum(p, axis=axis), np.cumsum(a, axis=axis), exact=True)
    _same(ak.cumprod(p, axis=axis), np.cumprod(a, axis=axis), exact=True)
    b = np.random.default_rng(8).integers(-3, 4, shape)
    _same(ak.array(b).cumprod(axis=axis), np.cumprod(b, axis=axis), exact=True)
