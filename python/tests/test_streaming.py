"""Large fused assignments write with streaming (non-temporal) stores: computed chunk by chunk
into a small buffer and streamed out (crates/atoll-python/src/commands.rs `run_loop`,
atoll-array's stream_store.rs). The results must be bit-identical to NumPy's on both sides of
the size threshold, and views and strided targets (which never stream) must stay right. The
threshold is lowered here so that small arrays take the streaming path."""

import atoll as ak
import numpy as np
import pytest
from atoll import _atoll

THRESHOLD = 4096  # bytes of output on one locale: 512 elements of 8 bytes
NEVER = 2**64 - 1


@pytest.fixture
def threshold():
    """Sets the streaming threshold on every locale for one test, then restores it."""
    old = []

    def set_to(b):
        prev = _atoll.set_streaming_threshold(b)
        if not old:
            old.append(prev)

    yield set_to
    if old:
        _atoll.set_streaming_threshold(old[0])


def sizes():
    """Array sizes whose per-locale output lies just below, at and above the threshold (on
    this run's locale count), plus ragged ends and a size too small to stream."""
    per = THRESHOLD // 8
    loc = ak.num_locales()
    return sorted({255, (per - 1) * loc, per * loc, per * loc + 1, (per + 33) * loc + 3, (3 * per + 5) * loc})


def data(n, seed):
    rng = np.random.default_rng(seed)
    return rng.standard_normal(n), rng.integers(-1000, 1000, n), rng.integers(0, 2**40, n, dtype=np.uint64)


@pytest.mark.parametrize("bytes_", [0, THRESHOLD])
def test_fused_assignment_is_bit_identical_around_the_threshold(threshold, bytes_):
    threshold(bytes_)
    for n in sizes():
        (fb, ib, ub), (fc, ic, uc) = data(n, n), data(n, n + 1)
        b, c = ak.array(fb), ak.array(fc)
        a = ak.zeros(n)
        a[:] = b + 3.0 * c
        np.testing.assert_array_equal(a.to_ndarray(), fb + 3.0 * fc)
        a[:] = (b - c) * (b + 0.5) / 7.0
        np.testing.assert_array_equal(a.to_ndarray(), (fb - fc) * (fb + 0.5) / 7.0)
        # A fresh array from an expression (materialized through the same loop).
        np.testing.assert_array_equal((3.0 * c + b).to_ndarray(), 3.0 * fc + fb)
        ia, ix, iy = ak.zeros(n, dtype=ak.int64), ak.array(ib), ak.array(ic)
        ia[:] = ix * 7 - iy
        np.testing.assert_array_equal(ia.to_ndarray(), ib * 7 - ic)
        ua, ux, uy = ak.zeros(n, dtype=ak.uint64), ak.array(ub), ak.array(uc)
        ua[:] = (ux + uy) ^ (ux * uy)
        np.testing.assert_array_equal(ua.to_ndarray(), (ub + uc) ^ (ub * uc))
        ba = ak.zeros(n, dtype=ak.bool_)
        ba[:] = b < c
        np.testing.assert_array_equal(ba.to_ndarray(), fb < fc)


@pytest.mark.parametrize("bytes_", [0, NEVER])
def test_views_and_strided_targets_stay_right(threshold, bytes_):
    threshold(bytes_)
    per = THRESHOLD // 8
    n = 4 * per * ak.num_locales() + 13
    (fb, _, _), (fc, _, _) = data(n, 5), data(n, 6)
    b, c = ak.array(fb), ak.array(fc)
    for sl in [
        slice(1, None),
        slice(3, n - 5),
        slice(None, None, 2),
        slice(1, None, 3),
        slice(n // 3, None, 7),
        slice(n - 2, 5, -3),
    ]:
        m = len(range(n)[sl])
        a = ak.full(n, -1.0)
        want = np.full(n, -1.0)
        a[sl] = b[:m] + 3.0 * c[n - m :]
        want[sl] = fb[:m] + 3.0 * fc[n - m :]
        np.testing.assert_array_equal(a.to_ndarray(), want, err_msg=str(sl))
        # A view read by its own target (aliased: evaluated into a temporary first).
        a[sl] = a[sl] * 2.0 + c[:m]
        want[sl] = want[sl] * 2.0 + fc[:m]
        np.testing.assert_array_equal(a.to_ndarray(), want, err_msg=f"aliased {sl}")
    a = ak.array(fb)
    a[:] = a + 3.0 * c  # the whole target read by its own expression
    np.testing.assert_array_equal(a.to_ndarray(), fb + 3.0 * fc)


def test_threshold_is_restored_and_validated(threshold):
    threshold(123)
    assert _atoll.set_streaming_threshold(456) == 123
    with pytest.raises(OverflowError):
        _atoll.set_streaming_threshold(-1)
