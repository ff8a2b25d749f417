"""Seeded random generators: every element draws from its own stream, a function of the seed
and the element's index alone (``atoll_util::Stream``), so the values are the same on any
number of locales (the suite runs this file at 1, 2 and 4 locales and under MPI, against one
locale-free reference) and neighbouring elements, neighbouring draws and related seeds are
independent."""

import math

import atoll as ak
import numpy as np
import pytest
from scipy import stats

M64 = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15
CHARS = {
    "uppercase": "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "letters": "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
    "numeric": "0123456789",
}


def _fin(z):
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


def _mix(z):
    return _fin((z + GAMMA) & M64)


class RefStream:
    """The documented derivation (``crates/atoll-util/src/hash.rs``), in Python: the key
    ``mix(mix(seed) + index * GAMMA)``, an odd step from Murmur3's finalizer of the key, and
    word ``j`` the splitmix64 finalizer of ``key + (j + 1) * step``."""

    def __init__(self, seed, index):
        key = _mix((_mix(seed) + index * GAMMA) & M64)
        z = key ^ 0x6A09E667F3BCC909
        z = ((z ^ (z >> 33)) * 0xFF51AFD7ED558CCD) & M64
        z = ((z ^ (z >> 33)) * 0xC4CEB9FE1A85EC53) & M64
        step = (z ^ (z >> 33)) | 1
        if bin(step ^ (step >> 1)).count("1") < 24:
            step ^= 0xAAAAAAAAAAAAAAAA
        self.state, self.step = key, step

    def next(self):
        self.state = (self.state + self.step) & M64
        return _fin(self.state)

    def below(self, k):
        return (self.next() * k) >> 64

    def unit(self):
        return (self.next() >> 11) * 2.0**-53

    def normal(self):
        u1 = 1.0 - self.unit()
        u2 = self.unit()
        return math.sqrt(-2.0 * math.log(u1)) * math.cos(2 * math.pi * u2)


def stream_key(seed, k):
    """The seed of draw ``k`` of a Generator seeded with ``seed``: the key of the stream
    ``(seed, k)``, ``mix(mix(seed) + k * GAMMA)``."""
    return _mix((_mix(seed) + k * GAMMA) & M64)


SEEDS = [0, 2, 42, 2**64 - 1]


@pytest.mark.parametrize("seed", SEEDS)
def test_numbers_follow_the_stream_of_each_index(seed):
    n = 300
    assert ak.randint(-7, 1000, n, seed=seed).tolist() == [-7 + RefStream(seed, i).below(1007) for i in range(n)]
    want = [2.0 + (3.5 - 2.0) * RefStream(seed, i).unit() for i in range(n)]
    assert ak.uniform(n, 2.0, 3.5, seed=seed).to_ndarray().tolist() == want
    np.testing.assert_allclose(
        ak.standard_normal(n, seed=seed).to_ndarray(), [RefStream(seed, i).normal() for i in range(n)], rtol=1e-12
    )


@pytest.mark.parametrize("seed", SEEDS)
def test_random_strings_follow_the_stream_of_each_index(seed):
    n = 200
    want = []
    for i in range(n):
        g = RefStream(seed, i)
        k = 3 + g.below(9 - 3)
        want.append("".join(CHARS["letters"][g.below(52)] for _ in range(k)))
    assert ak.random_strings_uniform(3, 9, n, characters="letters", seed=seed).tolist() == want
    want = []
    for i in range(n):
        g = RefStream(seed, i)
        k = 1 + int(min(math.floor(math.exp(1.0 + 0.5 * g.normal())), 2.0**24))
        want.append("".join(CHARS["numeric"][g.below(10)] for _ in range(k)))
    assert ak.random_strings_lognormal(1.0, 0.5, n, characters="numeric", seed=seed).tolist() == want


@pytest.mark.parametrize("seed", [0, 2024])
def test_generator_draws_follow_their_stream_keys(seed):
    g = ak.random.default_rng(seed)
    n = 50
    k0, k1 = stream_key(seed, 0), stream_key(seed, 1)
    assert g.integers(0, 1000, size=n).tolist() == [RefStream(k0, i).below(1000) for i in range(n)]
    assert g.random(n).to_ndarray().tolist() == [RefStream(k1, i).unit() for i in range(n)]


def _codes(strings, width):
    """The strings (all of length ``width``) as a matrix of character codes."""
    return np.frombuffer("".join(strings).encode("ascii"), dtype=np.uint8).reshape(-1, width).astype(np.int64)


def _contingency_p(a, b, k):
    """The p-value of the chi-square test of independence of two code sequences over ``k``
    symbols."""
    table = np.zeros((k, k))
    np.add.at(table, (a, b), 1)
    return stats.chi2_contingency(table)[1]


STRING_FAMILIES = [
    pytest.param(lambda n, seed: ak.random_strings_uniform(10, 11, n, seed=seed), id="uniform"),
    # logstd tiny: every length is 1 + floor(e^2.3) = 10.
    pytest.param(lambda n, seed: ak.random_strings_lognormal(2.3, 1e-9, n, seed=seed), id="lognormal"),
]


@pytest.mark.parametrize("make", STRING_FAMILIES)
@pytest.mark.parametrize("seed", [0, 2, 42])
def test_neighbouring_strings_are_independent(make, seed):
    n, width = 4000, 10
    s = make(n, seed).tolist()
    assert {len(x) for x in s} == {width}
    # No string repeats its neighbour's characters shifted by one (chance: n / 26**9).
    shifted = sum(s[i][1:] == s[i + 1][:-1] for i in range(n - 1))
    assert shifted == 0, f"{shifted} of {n - 1} neighbours overlap"
    c = _codes(s, width) - ord("A")
    # Character k + 1 of string i against character k of string i + 1, and the same position
    # of neighbours: independent.
    assert _contingency_p(c[:-1, 1:].ravel(), c[1:, :-1].ravel(), 26) > 1e-6
    assert _contingency_p(c[:-1, :].ravel(), c[1:, :].ravel(), 26) > 1e-6
    r = np.corrcoef(c[:-1, 1:].ravel(), c[1:, :-1].ravel())[0, 1]
    assert abs(r) < 5 / math.sqrt(c[:-1, 1:].size)
    # Every position uniform over the 26 letters.
    for k in range(width):
        counts = np.bincount(c[:, k], minlength=26)
        assert stats.chisquare(counts).pvalue > 1e-6, (k, counts)


def _independent(x, y):
    """Pearson's correlation of two equal-length samples is within 5 standard errors of 0."""
    x, y = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    r = np.corrcoef(x, y)[0, 1]
    assert abs(r) < 5 / math.sqrt(len(x)), r


NUMBER_FAMILIES = [
    pytest.param(lambda n, seed: ak.randint(0, 2**40, n, seed=seed), id="randint"),
    pytest.param(lambda n, seed: ak.randint(0, 2**64, n, dtype=ak.uint64, seed=seed), id="randint_u64"),
    pytest.param(lambda n, seed: ak.uniform(n, seed=seed), id="uniform"),
    pytest.param(lambda n, seed: ak.standard_normal(n, seed=seed), id="standard_normal"),
    pytest.param(lambda n, seed: ak.random.default_rng(seed).integers(0, 2**40, n), id="Generator.integers"),
    pytest.param(lambda n, seed: ak.random.default_rng(seed).random(n), id="Generator.random"),
    pytest.param(lambda n, seed: ak.random.default_rng(seed).normal(size=n), id="Generator.normal"),
    pytest.param(lambda n, seed: ak.random.default_rng(seed).exponential(size=n), id="Generator.exponential"),
    pytest.param(lambda n, seed: ak.random.default_rng(seed).permutation(n), id="Generator.permutation"),
    pytest.param(lambda n, seed: ak.random.default_rng(seed).choice(1000, n), id="Generator.choice"),
]


@pytest.mark.parametrize("make", NUMBER_FAMILIES)
@pytest.mark.parametrize("seed", [0, 2, 42])
def test_neighbouring_values_and_related_seeds_are_independent(make, seed):
    n = 20_000
    x = make(n, seed).to_ndarray().astype(np.float64)
    _independent(x[:-1], x[1:])
    _independent(x[:-2], x[2:])
    # Seeds one apart, or one splitmix64 step apart: not shifted copies of each other.
    for other in (seed + 1, (seed + GAMMA) & M64):
        y = make(n, other).to_ndarray().astype(np.float64)
        _independent(x, y)
        _independent(x[1:], y[:-1])
        _independent(x[:-1], y[1:])


def test_a_generator_s_draws_are_independent_of_each_other_and_of_related_generators():
    n = 20_000
    g = ak.random.default_rng(5)
    a, b = g.random(n).to_ndarray(), g.random(n).to_ndarray()
    _independent(a, b)
    for other in (6, (5 + GAMMA) & M64):
        h = ak.random.default_rng(other)
        c, d = h.random(n).to_ndarray(), h.random(n).to_ndarray()
        for u in (a, b):
            for v in (c, d):
                _independent(u, v)


def test_permutations_and_shuffles_are_permutations():
    n = 5000
    p = ak.random.default_rng(9).permutation(n).to_ndarray()
    np.testing.assert_array_equal(np.sort(p), np.arange(n))
    x = ak.arange(n)
    ak.random.default_rng(9).shuffle(x)
    np.testing.assert_array_equal(np.sort(x.to_ndarray()), np.arange(n))
    # The same generator state gives the same permutation (shuffle draws as permutation does).
    np.testing.assert_array_equal(x.to_ndarray(), p)


@pytest.mark.parametrize("seed", [0, 2, 42])
def test_wide_uint64_draws_of_related_seeds_share_no_half(seed):
    # A draw over more than 2**63 values is two 32-bit words; each seed's words must come from
    # streams of their own, not from the next seed's (its low half was once seed + 1's high).
    n = 20_000
    x = ak.randint(0, 2**64, n, dtype=ak.uint64, seed=seed).to_ndarray()
    y = ak.randint(0, 2**64, n, dtype=ak.uint64, seed=seed + 1).to_ndarray()
    halves = [(v >> np.uint64(32)).astype(np.float64) for v in (x, y)]
    halves += [(v & np.uint64(2**32 - 1)).astype(np.float64) for v in (x, y)]
    for i in range(4):
        for j in range(i + 1, 4):
            assert np.mean(halves[i] == halves[j]) < 0.01
            _independent(halves[i], halves[j])
