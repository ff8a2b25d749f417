"""``ak.sum`` of float64 is a pairwise summation like NumPy's (blocks of 128 elements with 8
accumulators, halves added recursively; chunk, task and locale partials combined as a tree), so
its rounding error grows with log(n), not n."""

import math

import atoll as ak
import numpy as np


def test_float_sum_is_pairwise():
    # Tiny values that a running sum next to 1.0 loses (each chunk's 1e-16 is below half an ulp
    # of 1.0): a sequential combination of chunk sums was 6-19 ulps off; pairwise is exact here.
    n = (1 << 21) + 3
    x = np.full(n, 5e-20)
    x[0], x[n // 2], x[-1] = 1.0, 1.0, 0.5
    exact = math.fsum(x)
    got = float(ak.sum(ak.array(x)))
    assert abs(got - exact) <= math.ulp(exact), (got, exact, float(x.sum()))
    assert abs(float(ak.array(x).mean()) - exact / n) <= 2 * math.ulp(exact / n)


def test_float_sum_is_deterministic_and_close_to_numpy():
    rng = np.random.default_rng(11)
    x = rng.standard_normal(300_001) * 10.0 ** rng.integers(-8, 8, 300_001)
    a = ak.array(x)
    s = float(ak.sum(a))
    assert s == float(ak.sum(a))  # the same on every call (tasks combine in index order)
    bound = 64 * np.finfo(np.float64).eps * float(np.abs(x).sum())
    assert abs(s - math.fsum(x)) <= bound
