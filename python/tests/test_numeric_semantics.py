"""Numeric and dtype semantics against NumPy 2 and Python ints: NumPy scalar operands of every
dtype, ``isclose``/``allclose``, ``can_cast``/``result_type``, the k-extrema with NaN, bit
counts of bigint arrays, and the dtype ``ak.array`` infers for Python lists."""

import operator

import atoll as ak
import numpy as np
import pytest
from hypothesis import given, strategies as st

# ----- NumPy scalars as operands --------------------------------------------------------------

ARRAY_DTYPES = [np.int64, np.uint64, np.float64, np.bool_, np.uint8]
SCALAR_TYPES = [
    np.int8,
    np.int16,
    np.int32,
    np.int64,
    np.uint8,
    np.uint16,
    np.uint32,
    np.uint64,
    np.float32,
    np.float64,
    np.bool_,
]
CMP = [operator.lt, operator.le, operator.gt, operator.ge, operator.eq, operator.ne]
ARITH = [
    operator.add,
    operator.sub,
    operator.mul,
    operator.truediv,
    operator.floordiv,
    operator.mod,
    operator.pow,
    operator.and_,
    operator.or_,
    operator.xor,
    operator.lshift,
    operator.rshift,
]


def _extremes(t):
    """Boundary values of NumPy type ``t`` (as Python numbers) and a few small ones."""
    if t is np.bool_:
        return [False, True]
    if np.dtype(t).kind == "f":
        fi = np.finfo(t)
        return [0.0, -0.0, 1.0, -1.5, 2.5, float(fi.max), float(fi.min), float(fi.tiny), np.inf, -np.inf, np.nan]
    ii = np.iinfo(t)
    vals = {0, 1, 2, 3, 7, int(ii.max), int(ii.max) - 1, int(ii.min), int(ii.min) + 1, int(ii.max) // 2 + 1}
    if ii.min < 0:
        vals |= {-1, -2, -7}
    if t in (np.int64, np.uint64):
        vals |= {v for v in (2**53 + 1, 2**63 - 1, 2**63 - 2, 2**63, 2**63 + 1) if ii.min <= v <= ii.max}
    return sorted(vals)


def _values(t):
    ex = _extremes(t)
    if np.dtype(t).kind == "f":
        return st.one_of(st.sampled_from(ex), st.floats(-1e6, 1e6, width=np.dtype(t).itemsize * 8))
    if t is np.bool_:
        return st.booleans()
    ii = np.iinfo(t)
    return st.one_of(
        st.sampled_from(ex),
        st.integers(int(ii.min), int(ii.max)),
        st.integers(-3, 3).filter(lambda v: ii.min <= v <= ii.max),
    )


@st.composite
def _case(draw, ops):
    adt = draw(st.sampled_from(ARRAY_DTYPES))
    # Half the time the other signedness at full width, where float64 would round.
    wide = {np.int64: np.uint64, np.uint64: np.int64}.get(adt)
    st_t = wide if wide is not None and draw(st.booleans()) else draw(st.sampled_from(SCALAR_TYPES))
    vals = draw(st.lists(_values(adt), min_size=1, max_size=8))
    x = np.array(vals, dtype=adt)
    # Often a value next to an element: where float64 rounding would tie them.
    near = []
    if np.dtype(st_t).kind in "iu" and adt not in (np.float64, np.bool_):
        ii = np.iinfo(st_t)
        near = [v + d for v in vals for d in (-1, 0, 1) if ii.min <= v + d <= ii.max]
    s = st_t(draw(st.sampled_from(near)) if near and draw(st.booleans()) else draw(_values(st_t)))
    op = draw(st.sampled_from(ops))
    return x, s, op, draw(st.booleans())


def _numpy(op, x, s, reverse):
    with np.errstate(all="ignore"):
        try:
            r = op(s, x) if reverse else op(x, s)
        except (TypeError, ValueError, OverflowError, ZeroDivisionError) as e:
            return type(e)
    return np.asarray(r)


def _atoll(op, a, s, reverse):
    try:
        r = op(s, a) if reverse else op(a, s)
    except (TypeError, ValueError, OverflowError, ZeroDivisionError) as e:
        return type(e)
    return r.to_ndarray()


def _same_outcome(got, want, what):
    if isinstance(want, type):
        assert isinstance(got, type) and issubclass(got, (want, TypeError) if want is TypeError else want), what
        return
    assert not isinstance(got, type), (what, got)
    stored = _stored(want.dtype)
    assert got.dtype == stored, (what, got.dtype, want.dtype)
    np.testing.assert_array_equal(got, want.astype(stored), err_msg=str(what))


@given(_case(CMP))
def test_comparisons_with_numpy_scalars_are_exact(case):
    x, s, op, reverse = case
    want = _numpy(op, x, s, reverse)
    got = _atoll(op, ak.array(x), s, reverse)
    _same_outcome(got, want, (x, x.dtype, repr(s), op.__name__, reverse))


def _stored(d):
    """The dtype a pdarray stores NumPy dtype ``d``'s values in (int8 -> int64, float32 ->
    float64, uint16 -> uint64), as ``ak.array`` stores NumPy arrays."""
    if d.kind in "bf":
        return np.dtype(np.bool_ if d.kind == "b" else np.float64)
    if d.kind == "u":
        return np.dtype(np.uint8 if d.itemsize == 1 else np.uint64)
    return np.dtype(np.int64)


@given(_case(ARITH))
def test_arithmetic_with_numpy_scalars_as_numpy(case):
    # NumPy's result dtype, computed at the width a pdarray stores it in (bool + np.int8(127)
    # is NumPy's int8 -128, and 128 in an int64 pdarray).
    x, s, op, reverse = case
    want = _numpy(op, x, s, reverse)
    if not isinstance(want, type) and want.dtype != _stored(want.dtype):
        d = _stored(want.dtype)
        want = _numpy(op, x.astype(d), d.type(s), reverse)
    got = _atoll(op, ak.array(x), s, reverse)
    _same_outcome(got, want, (x, x.dtype, repr(s), op.__name__, reverse))


_BIG = st.one_of(st.integers(2**53, 2**64 - 1), st.integers(-(2**63), -(2**53)), st.sampled_from([0, -1, 1]))


@given(st.lists(_BIG, min_size=1, max_size=8), st.data())
def test_comparisons_across_signedness_near_ties(vals, data):
    # int64 and uint64 values beyond 2**53, against a scalar of the other signedness next to
    # one of them: float64 would round the two to the same number.
    adt = np.int64 if min(vals) < 0 or data.draw(st.booleans()) else np.uint64
    x = np.array([v % 2**64 - (2**64 if adt is np.int64 and v % 2**64 >= 2**63 else 0) for v in vals], dtype=adt)
    other = np.uint64 if adt is np.int64 else np.int64
    oi = np.iinfo(other)
    near = [int(v) + d for v in x for d in (-1, 0, 1) if oi.min <= int(v) + d <= oi.max] or [0]
    s = other(data.draw(st.sampled_from(near)))
    a = ak.array(x)
    for op in CMP:
        np.testing.assert_array_equal(op(a, s).to_ndarray(), op(x, s), err_msg=f"{x!r} {op.__name__} {s!r}")
        np.testing.assert_array_equal(op(s, a).to_ndarray(), op(s, x), err_msg=f"{s!r} {op.__name__} {x!r}")


def test_int64_against_uint64_scalar_by_value():
    x = np.array([2**63 - 1, 2**63 - 2, -1, 0], dtype=np.int64)
    a = ak.array(x)
    for s in (np.uint64(2**63), np.uint64(2**63 - 1), np.uint64(2**64 - 1), np.uint64(0)):
        for op in CMP:
            np.testing.assert_array_equal(op(a, s).to_ndarray(), op(x, s))
            np.testing.assert_array_equal(op(s, a).to_ndarray(), op(s, x))
    u = np.array([2**64 - 1, 2**63, 1, 0], dtype=np.uint64)
    b = ak.array(u)
    for s in (np.int64(-1), np.int64(2**63 - 1), np.int64(-(2**63)), np.int8(-1)):
        for op in CMP:
            np.testing.assert_array_equal(op(b, s).to_ndarray(), op(u, s))
            np.testing.assert_array_equal(op(s, b).to_ndarray(), op(s, u))


# ----- isclose / allclose ---------------------------------------------------------------------

_SPECIAL = st.sampled_from([np.inf, -np.inf, np.nan, 0.0, -0.0, 1.0, 1.0 + 1e-9, 1e300, -1e300, 5e-324])


@st.composite
def _close_pair(draw):
    n = draw(st.integers(1, 12))
    xs = draw(st.lists(st.one_of(_SPECIAL, st.floats(-1e3, 1e3)), min_size=n, max_size=n))
    ys = []
    for v in xs:
        kind = draw(st.sampled_from(["same", "near", "other"]))
        if kind == "same":
            ys.append(v)
        elif kind == "near":
            ys.append(v * (1 + draw(st.floats(-2e-5, 2e-5))) + draw(st.floats(-2e-8, 2e-8)))
        else:
            ys.append(draw(st.one_of(_SPECIAL, st.floats(-1e3, 1e3))))
    return np.array(xs), np.array(ys)


@given(_close_pair(), st.booleans())
def test_isclose_allclose_match_numpy(pair, equal_nan):
    x, y = pair
    a, b = ak.array(x), ak.array(y)
    with np.errstate(all="ignore"):
        want = np.isclose(x, y, equal_nan=equal_nan)
        np.testing.assert_array_equal(ak.isclose(a, b, equal_nan=equal_nan).to_ndarray(), want)
        assert ak.allclose(a, b, equal_nan=equal_nan) == np.allclose(x, y, equal_nan=equal_nan)
        for s in (y[0], np.inf, np.nan):
            np.testing.assert_array_equal(
                ak.isclose(a, s, equal_nan=equal_nan).to_ndarray(), np.isclose(x, s, equal_nan=equal_nan)
            )
            np.testing.assert_array_equal(
                ak.isclose(s, a, equal_nan=equal_nan).to_ndarray(), np.isclose(s, x, equal_nan=equal_nan)
            )


def test_allclose_infinities_and_integers():
    x = np.array([np.inf, -np.inf, 1.0])
    assert ak.allclose(ak.array(x), ak.array(x)) == np.allclose(x, x)
    assert ak.allclose(ak.array(x), ak.array(-x)) == np.allclose(x, -x)
    n = np.array([np.nan, 1.0])
    for eq in (False, True):
        assert ak.allclose(ak.array(n), ak.array(n), equal_nan=eq) == np.allclose(n, n, equal_nan=eq)
    i = np.array([2**62, -5, 0], dtype=np.int64)
    j = np.array([2**62 + 1, -5, 1], dtype=np.int64)
    np.testing.assert_array_equal(ak.isclose(ak.array(i), ak.array(j)).to_ndarray(), np.isclose(i, j))


# ----- can_cast / result_type -----------------------------------------------------------------

ATOLL_DTYPES = [np.dtype(t) for t in ARRAY_DTYPES]
NUMPY_DTYPES = [np.dtype(t) for t in SCALAR_TYPES]


def test_can_cast_matches_numpy():
    for f in NUMPY_DTYPES:
        for t in NUMPY_DTYPES:
            assert ak.can_cast(f, t) == np.can_cast(f, t), (f, t)
            assert ak.can_cast(f.type, t.type) == np.can_cast(f.type, t.type), (f, t)
            for v in _extremes(f.type)[:3] + _extremes(f.type)[-2:]:
                s = f.type(v)
                assert ak.can_cast(s, t) == np.can_cast(s, t), (repr(s), t)
            for casting in ("no", "equiv", "safe", "same_kind", "unsafe"):
                assert ak.can_cast(f, t, casting) == np.can_cast(f, t, casting), (f, t, casting)
    for f in ATOLL_DTYPES:
        a = ak.zeros(3, dtype=f)
        for t in NUMPY_DTYPES:
            assert ak.can_cast(a, t) == np.can_cast(np.zeros(3, dtype=f), t), (f, t)
    assert not ak.can_cast(np.float64(1.0), np.float32)
    assert not ak.can_cast(np.int64(1), np.int8)


def test_can_cast_python_ints_by_value():
    for v in (0, 1, -1, 2**63 - 1, 2**63, 2**64 - 1, 2**64, -(2**63), -(2**63) - 1, 255, 256):
        for t in NUMPY_DTYPES:
            if t.kind in "iu":
                info = np.iinfo(t)
                assert ak.can_cast(v, t) == (int(info.min) <= v <= int(info.max)), (v, t)
        assert ak.can_cast(v, ak.bigint)


def test_result_type_matches_numpy():
    # (Atoll's operand, NumPy's): dtypes, types, NumPy scalars, arrays, weak Python scalars.
    samples = []
    for d in NUMPY_DTYPES:
        samples += [(d, d), (d.type, d.type), (d.type(1), d.type(1))]
    samples += [(ak.zeros(2, dtype=d), np.zeros(2, dtype=d)) for d in ATOLL_DTYPES]
    weak = [(v, v) for v in (True, 1, -1, 300, 2**40, 1.5)]
    for p, np_p in samples:
        for q, np_q in samples + weak:
            assert ak.result_type(p, q) == np.result_type(np_p, np_q), (p, q)
            assert ak.result_type(q, p) == np.result_type(np_q, np_p), (q, p)
    assert ak.result_type(ak.int64, ak.float64) == np.float64
    assert ak.result_type(np.uint8, 1) == np.uint8  # a Python int is weak (NEP 50)
    assert ak.result_type(ak.bigint, np.int64) == ak.bigint
    assert ak.result_type(ak.bigint, 1.5) == np.float64


# ----- k extrema ignore NaN -------------------------------------------------------------------


@given(
    st.lists(
        st.one_of(st.just(np.nan), st.floats(-5, 5, allow_nan=False), st.sampled_from([np.inf, -np.inf, 1.0])),
        min_size=1,
        max_size=30,
    ),
    st.integers(1, 35),
)
def test_k_extrema_ignore_nan(vals, k):
    x = np.array(vals)
    a = ak.array(x)
    pos = np.flatnonzero(~np.isnan(x))
    xn = x[pos]
    ordered = np.sort(xn)
    np.testing.assert_array_equal(ak.mink(a, k).to_ndarray(), ordered[:k])
    np.testing.assert_array_equal(ak.maxk(a, k).to_ndarray(), ordered[max(len(ordered) - k, 0) :])
    for got, want in ((ak.argmink(a, k), ordered[:k]), (ak.argmaxk(a, k), ordered[max(len(ordered) - k, 0) :])):
        idx = got.to_ndarray()
        assert len(set(idx.tolist())) == len(idx)
        np.testing.assert_array_equal(x[idx], want)


def test_k_extrema_integers_unchanged():
    x = np.array([5, -3, 9, 9, 0, 2**40], dtype=np.int64)
    a = ak.array(x)
    np.testing.assert_array_equal(ak.maxk(a, 3).to_ndarray(), np.sort(x)[-3:])
    np.testing.assert_array_equal(ak.mink(a, 2).to_ndarray(), np.sort(x)[:2])
    np.testing.assert_array_equal(x[ak.argmaxk(a, 3).to_ndarray()], np.sort(x)[-3:])


# ----- bit counts of bigint arrays ------------------------------------------------------------


def _ctz(v):
    return (v & -v).bit_length() - 1 if v else 0


@given(
    st.lists(
        st.one_of(st.integers(-(2**130), 2**130), st.sampled_from([0, 1, -1, 2**64, 2**64 - 1, -(2**64), 2**128])),
        min_size=1,
        max_size=10,
    )
)
def test_bigint_bit_counts(vals):
    a = ak.array(vals, dtype=ak.bigint)
    assert ak.popcount(a).tolist() == [abs(v).bit_count() for v in vals]
    assert ak.parity(a).tolist() == [abs(v).bit_count() & 1 for v in vals]
    assert ak.ctz(a).tolist() == [_ctz(v) for v in vals]
    with pytest.raises(ValueError):
        ak.clz(a)


@given(st.lists(st.integers(0, 2**200), min_size=1, max_size=10), st.integers(1, 140))
def test_bigint_bit_counts_with_max_bits(vals, mb):
    a = ak.array(vals, dtype=ak.bigint, max_bits=mb)
    w = [v % (1 << mb) for v in vals]
    assert a.tolist() == w
    assert ak.clz(a).tolist() == [mb - v.bit_length() for v in w]
    assert ak.ctz(a).tolist() == [_ctz(v) for v in w]
    assert ak.popcount(a).tolist() == [v.bit_count() for v in w]
    assert ak.parity(a).tolist() == [v.bit_count() & 1 for v in w]


# ----- ak.array of Python lists ---------------------------------------------------------------


def test_empty_list_is_float64():
    assert ak.array([]).dtype == np.asarray([]).dtype == np.float64
    assert ak.array(()).dtype == np.float64
    assert ak.array([], dtype=ak.int64).dtype == np.int64


_ELEMENTS = st.one_of(
    st.booleans(),
    st.integers(-(2**63), 2**63 - 1),
    st.sampled_from([2**63 - 1, 2**63, 2**64 - 1, 2**64, -(2**63), -(2**63) - 1, -1, 0, 2**70]),
    st.integers(2**63, 2**64 - 1),
    st.floats(allow_nan=True),
)


@given(st.lists(_ELEMENTS, max_size=8))
def test_list_inference(vals):
    try:
        want = np.asarray(vals)
    except OverflowError:
        want = np.asarray(vals, dtype=object)
    if want.dtype == object:
        if all(isinstance(v, int) for v in vals):
            # Arkouda's rule: integers beyond 64 bits make a bigint array (NumPy: objects).
            got = ak.array(vals)
            assert got.dtype == ak.bigint and got.tolist() == [int(v) for v in vals]
        else:
            with pytest.raises(TypeError):
                ak.array(vals)
        return
    ints = [int(v) for v in vals if isinstance(v, int)]
    if len(ints) == len(vals) and not all(isinstance(v, bool) for v in vals) and min(ints) >= 0 and max(ints) >= 2**63:
        # Arkouda's rule: nonnegative integers beyond int64 make uint64 (NumPy: float64).
        want = np.array(ints, dtype=np.uint64)
    got = ak.array(vals)
    assert got.dtype == want.dtype, (vals, got.dtype, want.dtype)
    np.testing.assert_array_equal(got.to_ndarray(), want)
    got_t = ak.array(tuple(vals))
    assert got_t.dtype == want.dtype


@given(st.lists(_ELEMENTS, max_size=8))
def test_object_array_and_dtype_entry_points(vals):
    # A NumPy object array of integers is Arkouda's bigint array; of anything else, NumPy's
    # inference of its values (as a list). dtype=float64 converts as NumPy converts.
    o = np.array(vals, dtype=object)
    if vals and all(isinstance(v, int) for v in vals) and not all(isinstance(v, bool) for v in vals):
        got = ak.array(o)
        assert got.dtype == ak.bigint and got.tolist() == [int(v) for v in vals]
    else:
        want = np.array(vals)
        if want.dtype == object:
            with pytest.raises(TypeError):
                ak.array(o)
        else:
            got = ak.array(o)
            assert got.dtype == want.dtype, (vals, got.dtype, want.dtype)
            np.testing.assert_array_equal(got.to_ndarray(), want)
    got_f = ak.array(vals, dtype=ak.float64)
    assert got_f.dtype == np.float64
    np.testing.assert_array_equal(got_f.to_ndarray(), np.array(vals, dtype=np.float64))


_NP_INTS = st.one_of(
    *[
        st.builds(t, st.integers(int(np.iinfo(t).min), int(np.iinfo(t).max)))
        for t in SCALAR_TYPES
        if t not in (np.float32, np.float64, np.bool_)
    ],
    st.builds(np.bool_, st.booleans()),
)


@given(st.lists(st.one_of(_NP_INTS, st.integers(-5, 2**40), st.booleans()), min_size=1, max_size=6))
def test_list_of_numpy_scalars_as_numpy(vals):
    # Within 64 bits and below 2**63, NumPy infers the dtype of NumPy scalars (Arkouda lets it);
    # the stored dtype of NumPy's (uint16 -> uint64, int8 -> int64).
    if any(isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_)) and int(v) >= 2**63 for v in vals):
        return
    want = np.array(vals)
    got = ak.array(vals)
    assert got.dtype == _stored(want.dtype), (vals, got.dtype, want.dtype)
    np.testing.assert_array_equal(got.to_ndarray(), want.astype(_stored(want.dtype)))


@given(st.lists(st.integers(-(2**200), 2**200), min_size=1, max_size=20))
def test_bigint_to_float64_matches_python(values):
    # Several limbs of negative values: the conversion must not cancel them away.
    got = ak.array(values, dtype=ak.bigint).astype(ak.float64).to_ndarray()
    np.testing.assert_allclose(got, [float(v) for v in values], rtol=1e-15)


# ----- rotations with a scalar first operand ------------------------------------------------


def _rot_ref(v, r, left):
    """Python-int reference of a 64-bit rotation of ``v`` (two's complement) by ``r``."""
    u = v & (2**64 - 1)
    r %= 64
    out = ((u << r) | (u >> (64 - r))) & (2**64 - 1) if left else ((u >> r) | (u << (64 - r))) & (2**64 - 1)
    return out - 2**64 if out >= 2**63 else out


@pytest.mark.parametrize("scalar", [-(2**63), 1, -1, 12345, 2**62 + 7])
def test_rotations_of_a_scalar_by_each_element(scalar):
    rots = list(range(10)) + [63, 64, 65]
    r = ak.array(rots)
    assert ak.rotl(scalar, r).tolist() == [_rot_ref(scalar, k, True) for k in rots]
    assert ak.rotr(scalar, r).tolist() == [_rot_ref(scalar, k, False) for k in rots]
    assert ak.rotl(ak.array([scalar] * len(rots)), r).tolist() == ak.rotl(scalar, r).tolist()


def test_inverse_hyperbolic_functions_of_huge_arguments_as_numpy():
    x = np.array([1e300, 1.5e305, 8.9e307, 1e308, np.finfo(np.float64).max, np.inf, 2.0, 0.5, -1e308])
    np.testing.assert_allclose(ak.arcsinh(ak.array(x)).to_ndarray(), np.arcsinh(x), rtol=1e-14)
    with np.errstate(invalid="ignore"):
        want = np.arccosh(x)
    np.testing.assert_allclose(ak.arccosh(ak.array(x)).to_ndarray(), want, rtol=1e-14, equal_nan=True)
