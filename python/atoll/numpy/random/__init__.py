"""Arkouda's ``arkouda.numpy.random``: ``default_rng`` and its ``Generator``, and the
module-level functions on a global generator.

Every array draw is counter-based: value ``i`` of a draw is a function of the generator's
seed, the draw's number and ``i`` only, so a seed gives the same arrays on any number of
locales and on both backends (``size=`` an int or a shape: the flat draw of its element count,
given that shape). A scalar draw (``size=None``) is NumPy's: a Generator keeps
``numpy.random.default_rng(seed)`` for them, as Arkouda does, and they do not count as draws.
Draw ``k`` of a generator seeded with ``s`` is seeded with ``_stream_key(s, k)``,
and its element ``i`` comes from the stream ``atoll_util::Stream::new(draw seed, i)`` (the one
derivation of every seeded generator: ``crates/atoll-util/src/hash.rs``). The streams are
Atoll's own: the same seed does not give NumPy's or Arkouda's values."""

import builtins
import math
import os

import numpy as np

from ..._stream import stream_key as _stream_key
from .. import _nd
from ..dtypes import _stored_dtype as _dtype, bool_, float64, int64, uint64
from ..numeric import exp, isfinite, log, where
from ..pdarrayclass import cumsum, pdarray
from ..pdarraycreation import (
    _size,
    arange,
    array,
    randint as _randint,
    standard_normal as _std_normal,
    uniform as _uniform,
    zeros,
)
from ..sorting import argsort, searchsorted

__all__ = [
    "Generator",
    "default_rng",
    "randint",
    "uniform",
    "standard_normal",
    "rand",
    "seed",
    "integers",
    "choice",
    "exponential",
    "standard_exponential",
    "logistic",
    "lognormal",
    "normal",
    "random",
    "poisson",
    "permutation",
    "shuffle",
    "standard_gamma",
]

_M64 = (1 << 64) - 1


def _shape(size):
    """``size`` (None, an int or a tuple of ints) as None or a shape tuple (NumPy's errors)."""
    if size is None:
        return None
    return _nd.check_shape(size, "size")


def _count(shape):
    """The number of values a draw of ``shape`` makes (one for a scalar draw)."""
    return 1 if shape is None else _nd.prod(shape)


def _shaped(r, shape):
    """The flat draw ``r`` as the result for ``size``'s ``shape``: a scalar for None, else an
    array of that shape."""
    if shape is None:
        return r[0]
    if len(shape) == 1:
        return r
    return _nd.with_shape(r, shape)


def _scalars(*xs):
    """Whether every argument is a scalar (no pdarray): a draw that NumPy's generator makes."""
    return not builtins.any(isinstance(x, pdarray) for x in xs)


class Generator:
    """A random generator (NumPy's ``Generator`` API on distributed arrays). Each array
    draw takes a new stream: ``seed`` and the number of earlier array draws determine it.
    A scalar draw (``size=None``, scalar parameters) is NumPy's: the next value of
    ``numpy.random.default_rng(seed)``, as Arkouda delegates scalar draws to NumPy."""

    def __init__(self, seed=None):
        if seed is None:
            seed = builtins.int.from_bytes(os.urandom(8), "little")
        if isinstance(seed, (builtins.bool, np.bool_)) or not isinstance(seed, (builtins.int, np.integer)):
            raise TypeError(f"seed: expected an int, got {type(seed).__name__}")
        self._seed = builtins.int(seed) & _M64
        self._calls = 0
        self._np = np.random.default_rng(self._seed)

    def __repr__(self):
        return "Generator(SplitMix64)"

    def _next(self):
        s = _stream_key(self._seed, self._calls)
        self._calls += 1
        return s

    # ----- integers and floats ------------------------------------------------------------
    def integers(self, low, high=None, size=None, dtype=int64, endpoint=False):
        """Integers in ``[low, high)`` (``[low, high]`` with ``endpoint``); ``high=None``:
        in ``[0, low)``. A scalar when ``size`` is None."""
        if high is None:
            low, high = 0, low
        n = _shape(size)
        d = _dtype(dtype)
        if d == float64:
            raise TypeError("integers: dtype must be an integer or bool dtype")
        if n is None and _scalars(low, high):
            return self._np.integers(low, high, dtype=np.dtype(d), endpoint=endpoint)
        if endpoint:
            high = high + 1
        if builtins.int(high) <= builtins.int(low):
            raise ValueError(f"high: must be greater than low, got low={low}, high={high}")
        r = _randint(low, high, _count(n), dtype=d, seed=self._next())
        return _shaped(r, n)

    def random(self, size=None):
        """Floats in ``[0, 1)``."""
        if size is None:
            return self._np.random()
        return self.uniform(0.0, 1.0, size)

    def uniform(self, low=0.0, high=1.0, size=None):
        """Floats in ``[low, high)``."""
        n = _shape(size)
        if n is None and _scalars(low, high):
            return self._np.uniform(low, high)
        r = _uniform(_count(n), low, high, seed=self._next())
        return _shaped(r, n)

    def standard_normal(self, size=None, method="zig"):
        """Draws from the standard normal distribution."""
        n = _shape(size)
        if n is None:
            return self._np.standard_normal()
        r = _std_normal(_count(n), seed=self._next())
        return _shaped(r, n)

    def normal(self, loc=0.0, scale=1.0, size=None, method="zig"):
        """Draws from the normal distribution of mean ``loc`` and deviation ``scale``."""
        if (isinstance(scale, pdarray) and builtins.bool((scale < 0).any())) or (
            not isinstance(scale, pdarray) and scale < 0
        ):
            raise ValueError("scale: must be nonnegative")
        n = _shape(size)
        if n is None and _scalars(loc, scale):
            return self._np.normal(loc, scale)
        z = _std_normal(_count(n), seed=self._next())
        r = loc + scale * z
        return _shaped(r, n)

    def lognormal(self, mean=0.0, sigma=1.0, size=None, method="zig"):
        """``exp`` of normal draws of mean ``mean`` and deviation ``sigma``."""

        n = _shape(size)
        if n is None and _scalars(mean, sigma):
            return self._np.lognormal(mean, sigma)
        z = _std_normal(_count(n), seed=self._next())
        r = exp(mean + sigma * z)
        return _shaped(r, n)

    def standard_exponential(self, size=None, method="zig"):
        """Draws from the exponential distribution of scale 1."""
        if size is None:
            return self._np.standard_exponential(method="inv" if method == "inv" else "zig")
        return self.exponential(1.0, size)

    def exponential(self, scale=1.0, size=None, method="zig"):
        """Draws from the exponential distribution of scale ``scale`` (``-log(1 - u)``)."""

        n = _shape(size)
        if n is None and _scalars(scale):
            return self._np.exponential(scale)
        u = _uniform(_count(n), 0.0, 1.0, seed=self._next())
        r = -log(1.0 - u) * scale
        return _shaped(r, n)

    def logistic(self, loc=0.0, scale=1.0, size=None):
        """Draws from the logistic distribution (``loc + scale * log(u / (1 - u))``)."""

        n = _shape(size)
        if n is None and _scalars(loc, scale):
            return self._np.logistic(loc, scale)
        u = _uniform(_count(n), 0.0, 1.0, seed=self._next())
        u = u * (1.0 - 2.0**-53) + 2.0**-54  # keep away from 0 and 1
        r = loc + scale * log(u / (1.0 - u))
        return _shaped(r, n)

    def poisson(self, lam=1.0, size=None):
        """Draws from the Poisson distribution of mean ``lam``: by inversion of its
        distribution function. A scalar ``lam``: ``searchsorted`` of uniform draws in the
        table of its cumulative probabilities; a pdarray ``lam`` (broadcast to ``size``, or of
        its own shape without ``size``): each draw steps up its own cumulative sum."""
        if isinstance(lam, pdarray):
            return self._poisson_array(lam, size)
        lam = builtins.float(lam)
        if lam < 0 or not math.isfinite(lam):
            raise ValueError("lam: must be nonnegative and finite")
        n = _shape(size)
        if n is None:
            return self._np.poisson(lam)
        u = _uniform(_count(n), 0.0, 1.0, seed=self._next())
        # The cumulative table (in log space for large lam), up to where it reaches 1.
        k_max = builtins.int(lam + 12 * math.sqrt(lam + 1) + 20)
        ks = np.arange(k_max + 1)
        logp = ks * math.log(lam) - lam - np.array([math.lgamma(k + 1) for k in ks]) if lam > 0 else None
        cdf = np.cumsum(np.exp(logp)) if lam > 0 else np.ones(1)
        cdf[-1] = max(cdf[-1], 1.0)
        r = searchsorted(array(cdf), u, side="right")
        return _shaped(r, n)

    def _poisson_array(self, lam, size):
        """Poisson draws of the per-element means ``lam`` broadcast to ``size``'s shape."""
        if lam.dtype.kind not in "iufb":
            raise TypeError(f"lam: expected a numeric pdarray, got dtype {lam.dtype}")
        lam = lam.astype(float64)
        if builtins.bool((lam < 0).any()) or not builtins.bool(isfinite(lam).all()):
            raise ValueError("lam: must be nonnegative and finite")
        shape = tuple(lam.shape) if size is None else _shape(size)
        lam = _nd.broadcast_to(lam, shape)
        total = _nd.prod(shape)
        flat = _nd.with_shape(lam, (total,))
        u = _uniform(total, 0.0, 1.0, seed=self._next())
        k = zeros(total, dtype=int64)
        if total == 0:
            return _shaped(k, shape)
        lam_max = builtins.float(flat.max())
        k_max = builtins.int(lam_max + 12 * math.sqrt(lam_max + 1) + 20)
        log_lam = log(flat)  # -inf where lam is 0: every later term is 0
        log_p = -flat  # log P(X = 0)
        cdf = exp(log_p)
        cdf._materialize()
        for j in range(1, k_max + 1):
            up = u >= cdf  # side="right": the count of cumulative sums at most u
            up._materialize()
            if not builtins.bool(up.any()):
                break
            k = k + up.astype(int64)
            log_p = log_p + log_lam - math.log(j)
            cdf = cdf + exp(log_p)
            for x in (k, log_p, cdf):
                x._materialize()
        return _shaped(k, shape)

    def standard_gamma(self, shape, size=None, dtype=float64, out=None):
        """Draws from the standard gamma distribution of shape ``shape`` (a scalar, or a
        pdarray broadcast to ``size``): Marsaglia and Tsang's method, rejected draws drawn
        again from new streams; a shape below 1 boosted (``gamma(k + 1) * u ** (1 / k)``)."""
        if out is not None:
            raise ValueError("out: not supported")
        if _dtype(dtype) != float64:
            raise TypeError("standard_gamma: dtype must be float64")
        if isinstance(shape, pdarray):
            if shape.dtype.kind not in "iufb":
                raise TypeError(f"shape: expected a numeric pdarray, got dtype {shape.dtype}")
            k = shape.astype(float64)
            if builtins.bool((k < 0).any()) or not builtins.bool(isfinite(k).all()):
                raise ValueError("shape: must be nonnegative and finite")
            dims = tuple(k.shape) if size is None else _shape(size)
            k = _nd.with_shape(_nd.broadcast_to(k, dims), (_nd.prod(dims),))
        else:
            kf = builtins.float(shape)
            if not kf >= 0 or not math.isfinite(kf):
                raise ValueError("shape: must be nonnegative and finite")
            dims = _shape(size)
            if dims is None:
                return self._np.standard_gamma(kf)
            k = zeros(_nd.prod(dims), dtype=float64) + kf
        n = _nd.prod(dims)
        if n == 0:
            return _shaped(zeros(0, dtype=float64), dims)
        boost = k < 1.0
        a = where(boost, k + 1.0, k)
        d = a - 1.0 / 3.0
        c = 1.0 / (9.0 * d) ** 0.5
        got = zeros(n, dtype=float64)
        done = zeros(n, dtype=bool_)
        for _ in range(100):  # each round accepts over 95% of what is left
            x = _std_normal(n, seed=self._next())
            u = _uniform(n, 0.0, 1.0, seed=self._next())
            v = (1.0 + c * x) ** 3
            vpos = where(v > 0, v, 1.0)
            ok = (v > 0) & (log(1.0 - u) < 0.5 * x * x + d - d * vpos + d * log(vpos))
            got = where(ok & ~done, d * vpos, got)
            done = done | ok
            for y in (got, done):
                y._materialize()
            if builtins.bool(done.all()):
                break
        else:
            raise RuntimeError("standard_gamma: rejection sampling did not finish")
        ub = 1.0 - _uniform(n, 0.0, 1.0, seed=self._next())  # in (0, 1]
        inv = 1.0 / where(k > 0, k, 1.0)
        scale = where(boost, where(k > 0, ub**inv, 0.0), 1.0)
        return _shaped(got * scale, dims)

    # ----- permutations -------------------------------------------------------------------
    def permutation(self, x, method="Argsort"):
        """A random permutation of ``arange(x)`` (an int) or of the elements of ``x``."""

        if isinstance(x, (builtins.int, np.integer)) and not isinstance(x, builtins.bool):
            n = _size(x)
            keys = _randint(0, 2**63 - 1, n, dtype=int64, seed=self._next()) if n else arange(0)
            return argsort(keys) if n else arange(0)
        n = len(x)
        keys = _randint(0, 2**63 - 1, n, dtype=int64, seed=self._next())
        return x[argsort(keys)]

    def shuffle(self, x, method="FisherYates"):
        """Shuffles the elements of the pdarray ``x`` in place."""
        if not isinstance(x, pdarray):
            raise TypeError(f"x: expected a pdarray, got {type(x).__name__}")
        x[:] = self.permutation(x)

    def choice(self, a, size=None, replace=True, p=None):
        """Draws from ``a`` (an int: ``arange(a)``, or a pdarray): with replacement
        uniformly or by the weights ``p`` (Arkouda's probabilities or weights: nonnegative,
        divided by their sum); without replacement the first ``size`` of a random
        permutation, or with weights the ``size`` largest keys ``u ** (1 / p)``
        (Efraimidis and Spirakis' weighted sample)."""
        if isinstance(a, (builtins.int, np.integer)) and not isinstance(a, builtins.bool):
            pool = None
            na = builtins.int(a)
        elif isinstance(a, pdarray):
            pool, na = a, a.size
        else:
            raise TypeError(f"a: expected an int or a pdarray, got {type(a).__name__}")
        if na <= 0:
            raise ValueError("a: cannot take a sample from an empty population")
        n = _shape(size)
        m = _count(n)
        if not replace and m > na:
            raise ValueError("size: cannot take a larger sample than the population without replacement")
        if p is not None:
            pp = p if isinstance(p, pdarray) else array(np.asarray(p, dtype=np.float64))
            if pp.size != na:
                raise ValueError("p: must have the size of a")
            pp = pp.astype(float64)
            if builtins.bool((pp < 0).any()) or not builtins.bool(isfinite(pp).all()):
                raise ValueError("p: probabilities must be nonnegative and finite")
            c = cumsum(pp)
            total = builtins.float(c[c.size - 1])
            if not total > 0:
                raise ValueError("p: the weights sum to 0")
            if replace:
                u = _uniform(m, 0.0, total, seed=self._next())
                idx = searchsorted(c, u, side="right")
                idx = where(idx >= na, na - 1, idx)
            else:
                if builtins.int((pp > 0).sum()) < m:
                    raise ValueError("Fewer non-zero entries in p than size")
                # log(u) / w: the log of the key u ** (1 / w); -inf for weight 0.
                u = 1.0 - _uniform(na, 0.0, 1.0, seed=self._next())  # in (0, 1]
                keys = where(pp > 0, log(u) / where(pp > 0, pp, 1.0), -np.inf)
                idx = argsort(-keys)[:m]
        elif replace:
            idx = _randint(0, na, m, dtype=int64, seed=self._next())
        else:
            idx = self.permutation(na)[:m]
        out = idx if pool is None else pool[idx]
        return _shaped(out, n)

    # ----- stateless draws: value i is a function of (seed, stream, start_idx + i) -----------
    def _fill_with_stateless_u64_from_index(self, x, seed, stream, start_idx=0):
        """Fills the 1-D uint64 pdarray ``x`` in place with ``x[i] = f(seed, stream, start_idx + i)``.

        ``f`` is SplitMix64's word ``start_idx + i`` from the key of the stream ``(seed, stream)``
        (``atoll._stream``): no state of the generator is used or changed, and the values do
        not depend on the locale count or on how the indices are split into calls. ``seed``,
        ``stream`` and ``start_idx`` are taken as uint64 (NumPy's OverflowError outside
        ``[0, 2**64)``); indices past ``2**64 - 1`` wrap to 0."""
        _check_fill_target(x, uint64, "_fill_with_stateless_u64_from_index")
        x[:] = _stateless_u64(x.size, seed, stream, start_idx)

    def _stateless_u64_from_index(self, n, seed, stream, start_idx=0):
        """A uint64 pdarray of ``n`` values, ``out[i] = f(seed, stream, start_idx + i)`` (see
        ``_fill_with_stateless_u64_from_index``)."""
        return _stateless_u64(n, seed, stream, start_idx)

    def _fill_stateless_uniform_01_from_index(self, x, seed, stream, start_idx=0):
        """Fills the 1-D float64 pdarray ``x`` in place with uniform values in ``[0, 1)``: the top
        53 bits of ``_stateless_u64_from_index``'s values, times ``2**-53``."""
        _check_fill_target(x, float64, "_fill_stateless_uniform_01_from_index")
        x[:] = _stateless_uniform_01(x.size, seed, stream, start_idx)

    def _stateless_uniform_01_from_index(self, n, seed, stream, start_idx=0):
        """A float64 pdarray of ``n`` uniform values in ``[0, 1)``, value ``i`` a function of
        ``(seed, stream, start_idx + i)`` (see ``_fill_stateless_uniform_01_from_index``)."""
        return _stateless_uniform_01(n, seed, stream, start_idx)


# SplitMix64's increment and finalizer constants (``atoll._stream.mix``).
_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)


def _as_u64(x, what):
    """``x``, an int, as a uint64 (NumPy's conversion rules: OverflowError outside [0, 2**64))."""
    if isinstance(x, (builtins.bool, np.bool_)) or not isinstance(x, (builtins.int, np.integer)):
        raise TypeError(f"{what}: expected an int, got {type(x).__name__}")
    v = builtins.int(x)
    if not 0 <= v <= _M64:
        raise OverflowError(f"{what}: {v} is out of bounds for uint64")
    return v


def _stateless_u64(n, seed, stream, start_idx):
    """``out[i] = mix(stream_key(seed, stream), start_idx + i)`` for ``i < n``, as uint64."""
    if isinstance(n, (builtins.bool, np.bool_)) or not isinstance(n, (builtins.int, np.integer)):
        raise TypeError(f"n: expected an int, got {type(n).__name__}")
    if n < 0:
        raise ValueError(f"n: must be non-negative, got {n}")
    key = _stream_key(_as_u64(seed, "seed"), _as_u64(stream, "stream"))
    start = _as_u64(start_idx, "start_idx")
    # SplitMix64's state before word j is key + (j + 1) * GAMMA (wrapping); then its finalizer.
    z = (arange(builtins.int(n), dtype=uint64) + np.uint64((start + 1) & _M64)) * _GAMMA + np.uint64(key)
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


def _stateless_uniform_01(n, seed, stream, start_idx):
    """The top 53 bits of ``_stateless_u64``'s values, times ``2**-53``: floats in ``[0, 1)``."""
    return (_stateless_u64(n, seed, stream, start_idx) >> np.uint64(11)).astype(float64) * (2.0**-53)


def _check_fill_target(x, dtype, what):
    if not isinstance(x, pdarray):
        raise TypeError(f"{what}: x must be a pdarray, got {type(x).__name__}")
    if x.ndim != 1:
        raise ValueError("Only 1 dimensional arrays supported.")
    if x.dtype != dtype:
        raise TypeError(f"{what}: x must be of dtype {np.dtype(dtype).name}, got {x.dtype}")


def default_rng(seed=None):
    """A new :class:`Generator` (from ``seed``, or from the operating system)."""
    if isinstance(seed, Generator):
        return seed
    return Generator(seed)


_global = None


def _gen():
    global _global
    if _global is None:
        _global = Generator()
    return _global


def seed(seed=None):
    """Reseeds the global generator of the module-level functions."""
    global _global
    _global = Generator(seed)


def _legacy(size, draw):
    """``draw(n)`` for an int ``size``; for a tuple, ``draw`` of its element count given that
    shape."""
    if not isinstance(size, (tuple, list)):
        return draw(size)
    shape = _nd.check_shape(size, "size")
    return _nd.with_shape(draw(_nd.prod(shape)), shape) if len(shape) != 1 else draw(shape[0])


def _check_bool_bounds(low, high):
    """NumPy's errors for bool draws in ``[low, high)``."""
    if low < 0:
        raise ValueError("low is out of bounds for bool")
    if high > 2:
        raise ValueError("high is out of bounds for bool")
    if low >= high:
        raise ValueError("high <= 0" if low == 0 else "low >= high")


def randint(low, high, size=1, dtype=int64, seed=None):
    """``size`` (an int or a shape) integers in ``[low, high)`` (``ak.randint``); bool
    bounds checked as NumPy's ``RandomState.randint`` checks them."""
    if isinstance(dtype, str) and dtype == "bool" or dtype in (bool, np.bool_, bool_):
        _check_bool_bounds(low, high)
    return _legacy(size, lambda n: _randint(low, high, n, dtype=dtype, seed=seed))


def uniform(size, low=0.0, high=1.0, seed=None):
    """``size`` (an int or a shape) floats in ``[low, high)``."""
    return _legacy(size, lambda n: _uniform(n, low, high, seed=seed))


def standard_normal(size, seed=None):
    """``size`` (an int or a shape) draws from the standard normal distribution."""
    return _legacy(size, lambda n: _std_normal(n, seed=seed))


def rand(*size, seed=None):
    """Floats in ``[0, 1)`` of shape ``size`` (``rand(2, 3)``: shape (2, 3)); a scalar
    without ``size``."""
    if not size:
        return _uniform(1, 0.0, 1.0, seed=seed)[0]
    return _legacy(size, lambda n: _uniform(n, 0.0, 1.0, seed=seed))


def integers(low, high=None, size=None, dtype=int64, endpoint=False):
    return _gen().integers(low, high, size, dtype, endpoint)


def choice(a, size=None, replace=True, p=None):
    return _gen().choice(a, size, replace, p)


def exponential(scale=1.0, size=None, method="zig"):
    return _gen().exponential(scale, size)


def standard_exponential(size=None, method="zig"):
    return _gen().standard_exponential(size)


def logistic(loc=0.0, scale=1.0, size=None):
    return _gen().logistic(loc, scale, size)


def lognormal(mean=0.0, sigma=1.0, size=None, method="zig"):
    return _gen().lognormal(mean, sigma, size)


def normal(loc=0.0, scale=1.0, size=None, method="zig"):
    return _gen().normal(loc, scale, size)


def random(size=None):
    return _gen().random(size)


def poisson(lam=1.0, size=None):
    return _gen().poisson(lam, size)


def standard_gamma(shape, size=None):
    return _gen().standard_gamma(shape, size)


def permutation(x):
    return _gen().permutation(x)


def shuffle(x):
    return _gen().shuffle(x)


_ = (bool_, uint64)
