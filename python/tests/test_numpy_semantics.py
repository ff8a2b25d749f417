"""NumPy 2's semantics where Arkouda's scripts met wrong answers: dtype inference of lists,
dtypes honoured for every input, NumPy operands on either side, errors at the call that
causes them, the full uint64 range, comparisons by value across signedness, slices with
any step NumPy accepts. Each test compares with NumPy (or Python) on the same inputs."""

import operator
import re

import atoll as ak
import numpy as np
import pytest
from conftest import assert_same
from hypothesis import given, strategies as st

U64_MAX = 2**64 - 1


# ----- creation from lists and the dtype argument ---------------------------------------------


def test_uint64_list_keeps_precision():
    vals = [2**64 - 1, 2**64 - 2, 2**63 - 1]
    assert_same(ak.array(vals, dtype=ak.uint64), np.array(vals, dtype=np.uint64))
    assert_same(ak.array(vals), np.array(vals, dtype=np.uint64))  # inferred, not float64
    assert_same(ak.array([2**64 - 1], dtype=ak.uint64), np.array([U64_MAX], dtype=np.uint64))


def test_list_inference_beyond_int64():
    assert_same(ak.array([-1, 2**63]), np.array([-1, 2**63]))  # float64, as NumPy
    big = ak.array([2**64, -1])  # NumPy makes objects; Arkouda (and Atoll) a bigint array
    assert big.dtype == ak.bigint and big.tolist() == [2**64, -1]
    with pytest.raises(OverflowError):
        ak.array([2**64], dtype=ak.int64)
    with pytest.raises(OverflowError):
        ak.array([-1], dtype=ak.uint64)


def test_strings_with_numeric_dtype_are_parsed():
    assert_same(ak.array(["0", "1", "2"], dtype=ak.int64), np.array(["0", "1", "2"]).astype(np.int64))
    assert_same(ak.array(["1.5", "-2"], dtype=ak.float64), np.array([1.5, -2.0]))
    with pytest.raises(ValueError):
        ak.array(["0", "x"], dtype=ak.int64)


def test_numbers_with_str_dtype_are_strings():
    s = ak.array([1, 2, 30], dtype=str)
    assert isinstance(s, ak.Strings)
    assert s.to_list() == np.array([1, 2, 30]).astype(str).tolist()


def test_full_out_of_range_raises():
    with pytest.raises(OverflowError):
        ak.full(3, 2**64, dtype=ak.uint64)
    with pytest.raises(OverflowError):
        ak.full(3, 2**63, dtype=ak.int64)
    assert ak.full(3, 2**64).tolist() == [2**64] * 3  # no dtype: exact, as a bigint (Arkouda)
    with pytest.raises(OverflowError):
        ak.full(3, -1, dtype=ak.uint64)
    assert_same(ak.full(3, U64_MAX, dtype=ak.uint64), np.full(3, U64_MAX, dtype=np.uint64))


@pytest.mark.parametrize(
    "args",
    [(2**63 + 3, 2**63 + 7), (0, 2**63 + 2, 2**62), (2**64 - 5, 2**64), (10,), (-5, 5, 3), (2**63 - 2, 2**63 + 2)],
)
def test_arange_full_uint64_range(args):
    r = range(*args)
    # NumPy 2 gives float64 (inexact) past 2**63; Arkouda's arange keeps uint64 exact.
    want = np.array(list(r), dtype=np.uint64 if max(r, default=0) >= 2**63 else np.int64)
    assert_same(ak.arange(*args), want)


def test_randint_uint64_full_range():
    n = 2000
    a = ak.randint(0, 2**64, n, dtype=ak.uint64, seed=3)
    assert a.dtype == np.uint64
    v = a.to_ndarray()
    assert (v >= 2**63).any() and (v < 2**63).any()  # 2000 draws: both halves, or the range is wrong
    b = ak.randint(2**63 + 5, 2**63 + 9, n, dtype=ak.uint64, seed=4).to_ndarray()
    assert b.min() >= 2**63 + 5 and b.max() < 2**63 + 9
    assert_same(ak.randint(0, 2**64, n, dtype=ak.uint64, seed=3), v)  # reproducible


def test_randint_errors_at_the_call():
    with pytest.raises(ValueError):
        ak.randint(1, 0, 10, dtype=ak.float64)
    with pytest.raises(ValueError):
        ak.randint(1, 0, 10)
    with pytest.raises(TypeError):
        ak.random_strings_uniform(minlen="1", maxlen=5, size=10)


# ----- NumPy operands on either side --------------------------------------------------------


@pytest.mark.parametrize("op", [operator.sub, operator.add, operator.mul, operator.lt, operator.eq])
def test_numpy_scalar_and_array_on_either_side(op):
    x = np.array([3, -1, 7, 0], dtype=np.int64)
    a = ak.array(x)
    for left, right, want in [
        (np.int64(2), a, op(np.int64(2), x)),
        (a, np.int64(2), op(x, np.int64(2))),
        (x[::-1].copy(), a, op(x[::-1], x)),
        (a, x[::-1].copy(), op(x, x[::-1])),
    ]:
        got = op(left, right)
        assert isinstance(got, ak.pdarray), type(got)
        assert_same(got, want)


def test_reductions_and_elements_stay_distributed():
    x = np.array([3, -1, 7, 0], dtype=np.int64)
    a = ak.array(x)
    for got, want in [(a.max() - a, x.max() - x), (ak.sum(a) * a, x.sum() * x), (a[0] + a, x[0] + x)]:
        assert isinstance(got, ak.pdarray)
        assert_same(got, want)


def test_dtypes_are_numpy_scalar_types():
    assert ak.int64(5) == np.int64(5) and type(ak.int64(5)) is np.int64
    assert ak.uint64(2**64 - 1) == np.uint64(U64_MAX)
    assert ak.arange(3).dtype == ak.int64 and ak.ones(2).dtype == ak.float64


# ----- comparisons by value across signedness and for Python ints out of range ------------------

CMP = [operator.lt, operator.le, operator.gt, operator.ge, operator.eq, operator.ne]


@pytest.mark.parametrize("op", CMP)
@given(
    i=st.lists(st.integers(-(2**63), 2**63 - 1), min_size=1, max_size=40),
    data=st.data(),
)
def test_int64_uint64_compare_by_value(op, i, data):
    u = data.draw(st.lists(st.integers(0, U64_MAX), min_size=len(i), max_size=len(i)))
    xi, xu = np.array(i, dtype=np.int64), np.array(u, dtype=np.uint64)
    want = np.array([op(a, b) for a, b in zip(i, u)])  # Python ints: exact
    assert_same(op(ak.array(xi), ak.array(xu)), want)
    assert_same(op(ak.array(xu), ak.array(xi)), np.array([op(b, a) for a, b in zip(i, u)]))


def test_max_int64_less_than_2_pow_63():
    assert ak.all(ak.array([2**63 - 1]) < ak.array([2**63], dtype=ak.uint64))


@pytest.mark.parametrize("op", CMP)
@pytest.mark.parametrize("dt,v", [(np.uint64, -1), (np.uint64, 2**64), (np.int64, 2**63), (np.int64, -(2**63) - 1)])
def test_python_int_out_of_range_compares_by_value(op, dt, v):
    x = np.array([0, 1, np.iinfo(dt).max], dtype=dt)
    want = np.array([op(int(e), v) for e in x])
    assert_same(op(ak.array(x), v), want)
    assert_same(op(v, ak.array(x)), np.array([op(v, int(e)) for e in x]))


def test_uint64_array_eq_minus_one_is_false():
    assert not ak.any(ak.array([U64_MAX], dtype=ak.uint64) == -1)


def test_arithmetic_with_python_int_out_of_range_raises():
    with pytest.raises(OverflowError):
        ak.array([1, 2], dtype=ak.uint64) + (-1)
    with pytest.raises(OverflowError):
        ak.array([1, 2]) + 2**63


# ----- indexing ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "chain", [[slice(0, 1, 2**40), slice(0, 1, 2**40)], [slice(None, None, -(2**62))], [slice(5, -(2**70), -3)]]
)
def test_slices_with_huge_steps(chain):
    x = np.arange(10)
    a = ak.arange(10)
    for s in chain:
        x, a = x[s], a[s]
    assert_same(a, x)


def test_bad_indices_raise_numpy_exceptions():
    a = ak.arange(5)
    with pytest.raises(ValueError, match="step"):
        a[::0]
    with pytest.raises(IndexError):
        a[1.5]
    with pytest.raises(TypeError, match="start"):
        a[1.5:3]


# ----- errors at the call -------------------------------------------------------------------


def test_round_of_bool_is_float_at_the_call():
    b = ak.array([True, False])
    r = ak.round(b)
    assert r.dtype == ak.float64
    assert_same(r, np.array([1.0, 0.0]))


@pytest.mark.parametrize("f", ["popcount", "clz", "ctz", "parity"])
def test_bit_functions_refuse_floats_at_the_call(f):
    with pytest.raises(TypeError):
        getattr(ak, f)(ak.ones(3))


def test_exception_types_as_arkouda():
    s = ak.array(["a.b", "c"])
    with pytest.raises(ValueError):
        s.peel("", -5)
    with pytest.raises(ValueError):
        s.peel(".", times=-1)
    with pytest.raises(re.error):
        s.sub("(", "x")
    with pytest.raises(TypeError):
        ak.histogram(ak.arange(10), bins="1")


# ----- numbers: searchsorted, powers --------------------------------------------------------


def test_searchsorted_scalar_compares_as_float():
    assert ak.searchsorted(ak.array([1, 2, 3, 4]), 2.5) == np.searchsorted(np.array([1, 2, 3, 4]), 2.5)


@pytest.mark.parametrize("e", [4294967297, 2**40 + 3, 63])
def test_int_power_with_large_exponent_wraps_as_numpy(e):
    x = np.array([3, -3, 2, 1, 0], dtype=np.int64)
    with np.errstate(over="ignore"):
        assert_same(ak.array(x) ** e, x**e)
        assert_same(ak.array(x.astype(np.uint64)) ** np.uint64(e), x.astype(np.uint64) ** np.uint64(e))


# ----- Strings: arguments Python accepts ----------------------------------------------------


def test_strings_arguments_python_accepts():
    py = ["a b c", "a", "", "bab"]
    s = ak.array(py)
    assert s.in1d(["a"]).tolist() == [x in ["a"] for x in py]
    pieces = s.split(" ", maxsplit=-1)
    assert pieces.to_list() == [p for x in py for p in x.split(" ", -1)]
    assert s.sub("b", "X", count=-1).to_list() == [re.sub("b", "X", x) for x in py]
    assert (s == 1).tolist() == [False] * 4
    assert (s != 1).tolist() == [True] * 4
