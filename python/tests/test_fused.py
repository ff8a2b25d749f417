"""Small float64 arithmetic trees (one or two of + - * / over arrays and scalars, the triad
``b + 3.0 * c``) run through single-pass kernels (crates/atoll-python/src/fused.rs) instead of
the chunked evaluator. Every kernel (operation pair and shape) and every scalar position must
give NumPy's values bit for bit, with the kernels on and off, with streaming stores forced on
and off, on sizes that end inside a 2,048-element chunk and past a 65,536-element task on each
locale."""

import itertools
import operator

import atoll as ak
import numpy as np
import pytest
from atoll import _atoll

OPS = [operator.add, operator.sub, operator.mul, operator.truediv]
NEVER = 2**64 - 1
S = 2.5  # the scalar operand


@pytest.fixture(params=[(True, 0), (True, NEVER), (False, 0)], ids=["fused-stream", "fused-plain", "evaluator-stream"])
def mode(request):
    """Fused kernels on/off and the streaming threshold (0: always stream), on every locale."""
    fused, threshold = request.param
    old_f = _atoll.set_fused_kernels(fused)
    old_t = _atoll.set_streaming_threshold(threshold)
    yield request.param
    _atoll.set_streaming_threshold(old_t)
    _atoll.set_fused_kernels(old_f)


def trees():
    """(name, o1, o2, shape, k): every kernel (each operation, each pair of operations in both
    shapes) and every scalar position k of each shape (None: no scalar; scalars are read the
    same way whatever the operations)."""
    out = [(f"x {o.__name__} y, scalar {k}", o, None, "two", k) for o in OPS for k in (None, 0, 1)]
    for o1, o2 in itertools.product(OPS, OPS):
        for shape in ("right", "left"):
            out.append((f"{shape} {o1.__name__} {o2.__name__}", o1, o2, shape, None))
    for shape in ("right", "left"):
        for k in (0, 1, 2):
            out.append((f"{shape} sub truediv, scalar {k}", operator.sub, operator.truediv, shape, k))
    return out


def build(o1, o2, shape, k, leaves):
    v = [S if i == k else leaves[i] for i in range(3)]
    if shape == "two":
        return o1(v[0], v[1])
    if shape == "right":
        return o1(v[0], o2(v[1], v[2]))
    return o1(o2(v[0], v[1]), v[2])


def data(n):
    rng = np.random.default_rng(n)
    x, y, z = rng.standard_normal(n) * 1e3, rng.standard_normal(n), rng.uniform(-2, 2, n)
    y[::13] = 0.0  # divisions by zero: inf and nan where NumPy gives them
    z[::29] = -0.0
    return x, y, z


def check(trees_, n, mode, fresh):
    nl = data(n)
    al = [ak.array(v) for v in nl]
    a = ak.zeros(n)
    with np.errstate(all="ignore"):
        for name, o1, o2, shape, k in trees_:
            want = build(o1, o2, shape, k, nl)
            a[:] = build(o1, o2, shape, k, al)
            np.testing.assert_array_equal(a.to_ndarray(), want, err_msg=f"{name}, n {n}, mode {mode}")
            if fresh:
                # A fresh array from the expression (materialized through the same kernels).
                got = build(o1, o2, shape, k, al)
                np.testing.assert_array_equal(got.to_ndarray(), want, err_msg=f"fresh {name}, n {n}, mode {mode}")


def test_every_kernel_is_bit_identical_to_numpy(mode):
    """Sizes ending inside a 2,048-element chunk on each locale (and a single element)."""
    loc = ak.num_locales()
    check(trees(), 1, mode, fresh=False)
    check(trees(), 2048 * loc + 3, mode, fresh=True)


def test_outputs_past_a_task(mode):
    """More than one 65,536-element task per locale, for one tree of each shape and a scalar."""
    n = (65536 + 2048 + 7) * ak.num_locales() + 1
    some = [t for t in trees() if t[4] is not None and (t[3] == "two" and t[1] is operator.mul or t[4] == 1)]
    some.append(("triad b + 2.5 * c", operator.add, operator.mul, "right", 1))
    check(some, n, mode, fresh=True)


def test_aliased_views_and_integer_scalars(mode):
    n = 3 * 2048 * ak.num_locales() + 5
    x, y, _ = data(n)
    a, b = ak.array(x), ak.array(y)
    # The target read by its own tree (computed into a new array first).
    a[:] = a + 3.0 * b
    np.testing.assert_array_equal(a.to_ndarray(), x + 3.0 * y)
    # A view target and a view operand.
    c = ak.zeros(n)
    c[1:] = b[1:] * 2.0 - b[:-1]
    want = np.zeros(n)
    want[1:] = y[1:] * 2.0 - y[:-1]
    np.testing.assert_array_equal(c.to_ndarray(), want)
    # An integer scalar with float operands, and integer arrays (not fused: the evaluator).
    np.testing.assert_array_equal((b * 3 + 1).to_ndarray(), y * 3 + 1)
    i = ak.arange(n)
    np.testing.assert_array_equal((i * 3 - i).to_ndarray(), np.arange(n) * 3 - np.arange(n))


def test_the_setting_is_returned_and_restored():
    old = _atoll.set_fused_kernels(False)
    try:
        assert _atoll.set_fused_kernels(True) is False
        assert _atoll.set_fused_kernels(True) is True
    finally:
        _atoll.set_fused_kernels(old)
