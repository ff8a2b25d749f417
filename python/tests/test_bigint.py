"""bigint arrays (uint64 limbs, two's complement) against Python's ints."""

import operator

import atoll as ak
import numpy as np
import pytest
from hypothesis import given, strategies as st

BIG = st.integers(-(2**200), 2**200)


def vals(draw, n):
    return [draw(BIG) for _ in range(n)]


@pytest.mark.parametrize("op", [operator.add, operator.sub, operator.mul, operator.and_, operator.or_, operator.xor])
@given(data=st.data())
def test_arithmetic_and_bitwise_match_python(op, data):
    n = data.draw(st.integers(1, 20))
    x, y = vals(data.draw, n), vals(data.draw, n)
    got = op(ak.array(x, dtype=ak.bigint), ak.array(y, dtype=ak.bigint))
    assert got.dtype == ak.bigint
    assert got.tolist() == [op(a, b) for a, b in zip(x, y)]


@pytest.mark.parametrize("op", [operator.lt, operator.le, operator.gt, operator.ge, operator.eq, operator.ne])
@given(data=st.data())
def test_comparisons_match_python(op, data):
    n = data.draw(st.integers(1, 20))
    x = vals(data.draw, n)
    y = [data.draw(st.sampled_from([a, a + 1, -a, data.draw(BIG)])) for a in x]
    assert op(ak.array(x, dtype=ak.bigint), ak.array(y, dtype=ak.bigint)).tolist() == [op(a, b) for a, b in zip(x, y)]


@given(data=st.data())
def test_shifts_sort_and_search(data):
    n = data.draw(st.integers(1, 30))
    x = vals(data.draw, n)
    a = ak.array(x, dtype=ak.bigint)
    s = data.draw(st.integers(0, 150))
    assert (a << s).tolist() == [v << s for v in x]
    assert (a >> s).tolist() == [v >> s for v in x]
    assert ak.sort(a).tolist() == sorted(x)
    assert ak.argsort(a).tolist() == sorted(range(n), key=lambda i: (x[i], i))
    q = data.draw(BIG)
    assert ak.searchsorted(ak.sort(a), q) == np.searchsorted(np.array(sorted(x), dtype=object), q)


def test_creation_conversion_and_max_bits():
    bi = 2**200
    assert ak.array([bi, bi + 1]).dtype == ak.bigint  # inferred beyond uint64
    assert ak.arange(bi, bi + 5, max_bits=200).tolist() == list(range(5))
    hi, lo = ak.ones(3, ak.uint64), ak.arange(3, dtype=ak.uint64)
    b = ak.bigint_from_uint_arrays([hi, lo])
    assert b.tolist() == [2**64 + i for i in range(3)]
    back = b.bigint_to_uint_arrays()
    assert [x.tolist() for x in back] == [hi.tolist(), lo.tolist()]
    assert (ak.arange(4) + 2**70).tolist() == [2**70 + i for i in range(4)]
    assert ak.cast(ak.array(["5", str(bi)]), ak.bigint).tolist() == [5, bi]
    m = ak.array([2**64 - 1, 3], dtype=ak.bigint, max_bits=64)
    assert (m + 1).tolist() == [0, 4]
    assert ak.rotl(m, 4).tolist() == [2**64 - 1, 48]
    with pytest.raises(TypeError):
        ~ak.array([1], dtype=ak.bigint)  # no width to invert without max_bits


def test_set_operations_on_bigint_and_strings():
    x = ak.array([2**200, 3, 3, 2**200 + 1])
    y = ak.array([3, 2**200 + 1, 5])
    assert ak.union1d(x, y).tolist() == sorted({2**200, 3, 2**200 + 1, 5})
    assert ak.intersect1d(x, y).tolist() == [3, 2**200 + 1]
    a, b = ["a", "b", "c", "abc", "1"], ["x", "a", "y", "z", "abc", "123"]
    for op in ["union1d", "intersect1d", "setdiff1d", "setxor1d"]:
        assert getattr(ak, op)(ak.array(a), ak.array(b)).to_list() == getattr(np, op)(a, b).tolist()


@pytest.mark.parametrize("max_bits", [-1, 64, 130])
def test_groupby_aggregations_of_bigint_match_python(max_bits):
    """sum, min, max, first, count, or, and, xor of bigint values per group, against Python
    ints (negative values, values past 2**128, groups of one row; max_bits wraps)."""
    rng = np.random.default_rng(11)
    n = 90
    keys = rng.integers(0, 7, n)
    big = [
        int(x) * (1 << int(s)) + int(y)
        for x, s, y in zip(rng.integers(-50, 50, n), rng.integers(0, 190, n), rng.integers(0, 1 << 62, n))
    ]
    big[5] = -(1 << 200)
    vals = ak.array(big, dtype=ak.bigint, max_bits=max_bits) if max_bits >= 0 else ak.array(big, dtype=ak.bigint)
    if max_bits >= 0:
        big = [v % (1 << max_bits) for v in big]
    g = ak.GroupBy(ak.array(keys))
    groups = {}
    for k, v in zip(keys.tolist(), big):
        groups.setdefault(k, []).append(v)
    ks = sorted(groups)
    wrap = (lambda v: v % (1 << max_bits)) if max_bits >= 0 else (lambda v: v)

    def fold(f, xs):
        r = xs[0]
        for x in xs[1:]:
            r = f(r, x)
        return r

    want = {
        "sum": [wrap(sum(groups[k])) for k in ks],
        "min": [min(groups[k]) for k in ks],
        "max": [max(groups[k]) for k in ks],
        "first": [groups[k][0] for k in ks],
        "count": [len(groups[k]) for k in ks],
        "or": [fold(operator.or_, groups[k]) for k in ks],
        "and": [fold(operator.and_, groups[k]) for k in ks],
        "xor": [fold(operator.xor, groups[k]) for k in ks],
    }
    for op, w in want.items():
        u, got = g.aggregate(vals, op)
        assert u.tolist() == ks
        assert got.tolist() == w, op
    assert g.sum(vals)[1].tolist() == want["sum"]
    assert g.OR(vals)[1].tolist() == want["or"]
    assert g.first(vals)[1].tolist() == want["first"]
