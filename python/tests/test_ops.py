import operator

import atoll as ak
import numpy as np
import pytest
from conftest import assert_same
from hypothesis import given, strategies as st
from strategies import arrays

ARITH = [operator.add, operator.sub, operator.mul, operator.truediv, operator.floordiv, operator.mod]
CMP = [operator.lt, operator.le, operator.gt, operator.ge, operator.eq, operator.ne]
NUM = [np.int64, np.uint64, np.float64]


def pair(dt1, dt2, nonzero=False):
    @st.composite
    def s(draw):
        x = draw(arrays(dt1, min_size=0, max_size=200))
        y = draw(arrays(dt2, min_size=len(x), max_size=len(x)))
        if nonzero:
            y = np.where(y == 0, 1, y).astype(dt2)
        return x, y

    return s()


@pytest.mark.parametrize("op", ARITH + CMP)
@pytest.mark.parametrize("dt1,dt2", [(a, b) for a in NUM for b in NUM])
@given(data=st.data())
def test_binary_arrays(op, dt1, dt2, data):
    x, y = data.draw(pair(dt1, dt2, nonzero=op in (operator.floordiv, operator.mod)))
    want = op(x, y)
    got = op(ak.array(x), ak.array(y))
    assert_same(got, want, exact=want.dtype != np.float64)


@pytest.mark.parametrize("op", ARITH + CMP + [operator.pow])
@pytest.mark.parametrize("s", [3, 2.5, True])
@given(x=arrays(np.int64, max_size=100, elements=st.integers(-100, 100)))
def test_binary_scalars(op, s, x):
    if op in (operator.floordiv, operator.mod, operator.truediv) and s is True:
        s = 2
    want = op(x, s)
    assert_same(op(ak.array(x), s), want, exact=want.dtype != np.float64)
    xx = np.where(x == 0, 1, x) if op in (operator.floordiv, operator.mod, operator.truediv) else x
    if op is operator.pow:
        xx = np.abs(xx)
    want = op(s, xx)
    assert_same(op(s, ak.array(xx)), want, exact=want.dtype != np.float64)


@pytest.mark.parametrize("op", [operator.and_, operator.or_, operator.xor, operator.lshift, operator.rshift])
@given(data=st.data())
def test_bitwise(op, data):
    x = data.draw(arrays(np.int64, max_size=100))
    y = data.draw(arrays(np.int64, min_size=len(x), max_size=len(x), elements=st.integers(0, 70)))
    assert_same(op(ak.array(x), ak.array(y)), op(x, y))
    b1, b2 = x % 2 == 0, y % 3 == 0
    if op not in (operator.lshift, operator.rshift):
        assert_same(op(ak.array(b1), ak.array(b2)), op(b1, b2))


@given(x=arrays(np.float64, max_size=200))
def test_fused_expression_and_unary(x):
    a = ak.array(x)
    assert_same(a + 3.0 * a - a / 7.0, x + 3.0 * x - x / 7.0, exact=False)
    assert_same(-a, -x)
    assert_same(abs(a), np.abs(x))
    assert_same(ak.abs(a), np.abs(x))
    assert_same(ak.floor(a), np.floor(x))
    assert_same(ak.ceil(a), np.ceil(x))
    assert_same(ak.round(a), np.round(x))
    y = np.abs(x) + 1
    b = ak.array(y)
    assert_same(ak.log(b), np.log(y), exact=False)
    assert_same(ak.sqrt(b), np.sqrt(y), exact=False)
    assert_same(ak.exp(a / 1e6), np.exp(x / 1e6), exact=False)
    assert_same(ak.sin(a), np.sin(x), exact=False)
    assert_same(ak.cos(a), np.cos(x), exact=False)
    assert_same(ak.clip(a, -10.0, 10.0), np.clip(x, -10.0, 10.0))
    assert_same(ak.where(a > 0, a, 0.0), np.where(x > 0, x, 0.0))


def test_isnan_and_int_ops():
    x = np.array([1.0, np.nan, -2.0, np.inf])
    assert_same(ak.isnan(ak.array(x)), np.isnan(x))
    i = np.array([-7, -1, 0, 5, 9], dtype=np.int64)
    a = ak.array(i)
    assert_same(~a, ~i)
    assert_same(a**2, i**2)
    assert_same(ak.abs(a), np.abs(i))
    assert_same(ak.where(a > 0, a, 100), np.where(i > 0, i, 100))
    assert_same(ak.clip(a, -2, 4), np.clip(i, -2, 4))
    assert_same(a.astype(ak.float64), i.astype(np.float64))
    assert_same(a.astype(ak.bool), i.astype(bool))
    assert_same(ak.array(x[[0, 2]]).astype(ak.int64), x[[0, 2]].astype(np.int64))


@pytest.mark.parametrize("op", ["+=", "-=", "*=", "//=", "%="])
def test_inplace(op):
    x = np.arange(1, 50, dtype=np.int64)
    a = ak.array(x)
    view = a[::3]
    exec(f"a {op} 3")
    exec(f"x {op} 3")
    assert_same(a, x)
    assert_same(view, x[::3])  # a view sees the writes
    f = ak.array(x.astype(np.float64))
    f /= 2
    assert_same(f, x.astype(np.float64) / 2)


def test_lazy_keeps_operand_values():
    a = ak.arange(10)
    c = a + 1  # lazy
    a[:] = 0  # an in-place write computes pending expressions first
    assert_same(c, np.arange(10) + 1)
    a += a  # reads the target: replaced
    assert_same(a, np.zeros(10, dtype=np.int64))


def test_long_chains_stay_correct():
    a = ak.zeros(100, dtype=ak.int64)
    x = a
    for _ in range(200):
        x = x + 1
    assert_same(x, np.full(100, 200))


@pytest.mark.parametrize("dt", ["float64", "int64", "uint64", "bool"])
def test_large_fused_assignment_matches_numpy(dt):
    # 2^22 + 5 elements: several of the loop's 64K-element tasks per locale, an odd tail.
    n = (1 << 22) + 5
    rng = np.random.default_rng(7)
    if dt == "bool":
        x, y = rng.random(n) < 0.5, rng.random(n) < 0.3
        want = x ^ y
        got = ak.array(x) ^ ak.array(y)
    else:
        x = rng.integers(0, 1000, n).astype(dt)
        y = rng.integers(0, 1000, n).astype(dt)
        want = x + y * 3 if dt != "float64" else x + 3.0 * y
        got = ak.zeros(n, dtype=dt)
        got[:] = ak.array(x) + (ak.array(y) * 3 if dt != "float64" else 3.0 * ak.array(y))
    assert_same(got, want)
