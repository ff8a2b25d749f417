"""``ak.sum`` of an array adds its chunks' pairwise sums eight chunks at a time
(``sum_lockstep.rs``); a sum of an expression goes chunk by chunk through the evaluator. Both
follow the same rule, so they must agree bit for bit, on every length (whole groups of eight
2048-element chunks, partial groups, short last chunks, task and locale boundaries)."""

import atoll as ak
import numpy as np
import pytest

SIZES = [
    1,
    7,
    8,
    129,
    2047,
    2048,
    2049,
    8 * 2048 - 1,
    8 * 2048,
    8 * 2048 + 5,
    9 * 2048 + 3,
    (1 << 16) + 8 * 2048 * 3 + 77,
    300_001,
]


@pytest.mark.parametrize("n", SIZES)
def test_array_sum_equals_the_chunk_by_chunk_sum(n):
    rng = np.random.default_rng(n)
    # Wide magnitudes and both signs, no zeros (so `+ 0.0` changes no bit).
    x = rng.standard_normal(n) * 10.0 ** rng.integers(-8, 8, n)
    x[x == 0] = 1.0
    a, z = ak.array(x), ak.zeros(n)
    lanes = float(ak.sum(a))
    by_chunk = float(ak.sum(a + z))  # an expression: the evaluator's chunk-by-chunk fold
    assert np.float64(lanes).tobytes() == np.float64(by_chunk).tobytes(), (n, lanes, by_chunk)
    assert abs(lanes - x.sum()) <= 64 * np.finfo(np.float64).eps * np.abs(x).sum()


@pytest.mark.parametrize("n", [5, 8 * 2048 + 5, 300_001])
def test_integer_array_sums_are_exact(n):
    rng = np.random.default_rng(n + 1)
    x = rng.integers(-(2**62), 2**62, n)
    assert ak.sum(ak.array(x)) == x.sum()  # NumPy wraps the same way
    u = rng.integers(0, 2**63, n, dtype=np.uint64)
    assert ak.sum(ak.array(u)) == u.sum()
