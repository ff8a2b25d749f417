"""A lazy value keeps the value its expression had on the line that built it, whatever is
written later into its operands, by any form of assignment; an array assigned into itself
(or a view of itself, or an expression over itself) gives NumPy's answer: the right-hand side
as it was before the write. Compared with NumPy, on random shapes and views."""

import atoll as ak
import numpy as np
from conftest import assert_same
from hypothesis import given, strategies as st

N_SMALL = [7, 5001]


def _pair(n, lo=-3):
    return ak.arange(lo, lo + n), np.arange(lo, lo + n)


def test_lazy_value_survives_slice_assignment():
    for n in N_SMALL:
        a, x = _pair(n)
        b = a + 1
        y = x + 1
        a[:] = b
        x[:] = y
        assert_same(b, y)
        assert_same(a, x)


def test_lazy_reversed_view_survives_assignment():
    for n in N_SMALL:
        a, x = _pair(n)
        b = a[::-1] + 0
        y = x[::-1] + 0
        a[:] = b
        x[:] = y
        assert_same(b, y)
        assert_same(a, x)


def test_lazy_value_survives_scatter():
    for n in N_SMALL:
        a, x = _pair(n, 0)
        perm = np.random.default_rng(n).permutation(n)
        b = a * 2
        y = x * 2
        a[ak.array(perm)] = b
        x[perm] = y
        assert_same(b, y)
        assert_same(a, x)


def test_lazy_value_survives_every_write_form():
    n = 301
    rng = np.random.default_rng(1)
    idx = rng.integers(0, n, 40)
    mask = rng.random(n) < 0.3
    writes = [
        lambda a: a.__setitem__(3, 99),
        lambda a: a.__setitem__(slice(2, 50, 3), 7),
        lambda a: a.__setitem__(slice(None, None, -2), -1),
        lambda a: a.__setitem__(ak.array(idx), 5),
        lambda a: a.__setitem__(ak.array(mask), 11),
        lambda a: a.__setitem__(ak.array(mask), a[ak.array(mask)] * 3),
        lambda a: a.__iadd__(4),
        lambda a: a.__imul__(a),
    ]
    np_writes = [
        lambda x: x.__setitem__(3, 99),
        lambda x: x.__setitem__(slice(2, 50, 3), 7),
        lambda x: x.__setitem__(slice(None, None, -2), -1),
        lambda x: x.__setitem__(idx, 5),
        lambda x: x.__setitem__(mask, 11),
        lambda x: x.__setitem__(mask, x[mask] * 3),
        lambda x: x.__iadd__(4),
        lambda x: x.__imul__(x),
    ]
    for w, nw in zip(writes, np_writes):
        a, x = _pair(n)
        v = a[10:200]  # a view: writes go through, as NumPy's
        xv = x[10:200]
        lazy = [a * 3 - 1, a[::-1] + a, ak.where(a > 0, a, -a), v + 0, (a + 1)[::2] * 2]
        want = [x * 3 - 1, x[::-1] + x, np.where(x > 0, x, -x), xv + 0, (x + 1)[::2] * 2]
        w(a)
        nw(x)
        for got, exp in zip(lazy, want):
            assert_same(got, exp)
        assert_same(a, x)
        assert_same(v, xv)


def test_in_place_operators_fuse_and_stay_right():
    a, x = _pair(1000)
    for k in range(5):
        a += a * 2 + k
        x += x * 2 + k
    assert_same(a, x)


def test_self_assignment_forms():
    for n in N_SMALL:
        forms = [
            (
                lambda a: a.__setitem__(slice(None, None, -1), a),
                lambda x: x.__setitem__(slice(None, None, -1), x.copy()),
            ),
            (lambda a: a.__setitem__(ak.arange(n), a), lambda x: x.__setitem__(np.arange(n), x.copy())),
            (lambda a: a.__setitem__(a >= -(10**9), a), lambda x: x.__setitem__(x >= -(10**9), x.copy())),
            (
                lambda a: a.__setitem__(slice(None, None, -1), a[:]),
                lambda x: x.__setitem__(slice(None, None, -1), x[:].copy()),
            ),
            (lambda a: a.__setitem__(slice(1, None), a[:-1]), lambda x: x.__setitem__(slice(1, None), x[:-1].copy())),
            (
                lambda a: a.__setitem__(slice(None, -1), a[1:] + a[:-1]),
                lambda x: x.__setitem__(slice(None, -1), x[1:] + x[:-1]),
            ),
            (lambda a: a.__setitem__(a % 3 == 0, (a * 10)[a % 3 == 0]), None),
        ]
        for f, nf in forms:
            a, x = _pair(n)
            f(a)
            if nf is None:
                m = x % 3 == 0
                x[m] = (x * 10)[m]
            else:
                nf(x)
            assert_same(a, x)


def test_array_indexed_by_itself():
    x = np.random.default_rng(3).integers(0, 50, 50)
    a = ak.array(x)
    assert_same(a[a], x[x])
    i = ak.array(np.arange(50)[::-1].copy())
    b = ak.zeros(50, ak.int64)
    b[i] = i
    y = np.zeros(50, np.int64)
    y[np.arange(50)[::-1]] = np.arange(50)[::-1]
    assert_same(b, y)
    a[a] = a
    x[x] = x.copy()
    assert_same(a, x)


def test_groupby_of_keys_by_themselves():
    x = np.random.default_rng(4).integers(0, 20, 500)
    a = ak.array(x)
    k, s = ak.GroupBy(a).sum(a)
    uk, inv = np.unique(x, return_inverse=True)
    assert_same(k, uk)
    assert_same(s, np.bincount(inv, weights=x).astype(np.int64))


@given(
    n=st.integers(1, 400),
    start=st.integers(0, 50),
    step=st.sampled_from([1, 2, 3, -1, -2]),
    shift=st.integers(-20, 20),
    op=st.sampled_from(["add", "neg", "view"]),
)
def test_aliasing_assignments_match_numpy(n, start, step, shift, op):
    x = np.arange(n, dtype=np.int64) * 7 - 3
    a = ak.array(x)
    sl = slice(start, None, step) if step > 0 else slice(None, start if start < n else None, step)
    m = len(range(*sl.indices(n)))
    src = slice(max(0, shift), max(0, shift) + m)
    if len(range(*src.indices(n))) != m:
        return
    if op == "add":
        rhs, nrhs = a[src] + a[src][::-1], x[src] + x[src][::-1]
    elif op == "neg":
        rhs, nrhs = -a[src], -x[src]
    else:
        rhs, nrhs = a[src], x[src].copy()
    before = rhs.to_ndarray() if op != "view" else None
    a[sl] = rhs
    x[sl] = nrhs
    assert_same(a, x)
    if before is not None:
        assert_same(rhs, before)
