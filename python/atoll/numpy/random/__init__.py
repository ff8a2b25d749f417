"""Arkouda's ``arkouda.numpy.random``: ``default_rng`` and its ``Generator``, and the
module-level functions on a global generator.

Every draw is counter-based: value ``i`` of a draw is a function of the generator's seed, the
draw's number and ``i`` only, so a seed gives the same arrays on any number of locales and on
both backends. Draw ``k`` of a generator seeded with ``s`` is seeded with ``_stream_key(s, k)``,
and its element ``i`` comes from the stream ``atoll_util::Stream::new(draw seed, i)`` (the one
derivation of every seeded generator: ``crates/atoll-util/src/hash.rs``). The streams are
Atoll's own: the same seed does not give NumPy's or Arkouda's values."""

import builtins
import math
import os

import numpy as np

from ..._stream import stream_key as _stream_key
from ..dtypes import _stored_dtype as _dtype, bool_, float64, int64, uint64
from ..numeric import exp, log, where
from ..pdarrayclass import cumsum, pdarray
from ..pdarraycreation import (
    _size,
    arange,
    array,
    randint as _randint,
    standard_normal as _std_normal,
    uniform as _uniform,
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
]

_M64 = (1 << 64) - 1


def _shape(size):
    if size is None:
        return None
    if isinstance(size, tuple):
        if len(size) != 1:
            raise ValueError(f"size: only 1-D sizes are supported, got {size}")
        size = size[0]
    return _size(size)


class Generator:
    """A random generator (NumPy's ``Generator`` API on distributed arrays). Each call
    takes a new stream: ``seed`` and the number of earlier calls determine it."""

    def __init__(self, seed=None):
        if seed is None:
            seed = builtins.int.from_bytes(os.urandom(8), "little")
        if isinstance(seed, (builtins.bool, np.bool_)) or not isinstance(seed, (builtins.int, np.integer)):
            raise TypeError(f"seed: expected an int, got {type(seed).__name__}")
        self._seed = builtins.int(seed) & _M64
        self._calls = 0

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
        if endpoint:
            high = high + 1
        n = _shape(size)
        d = _dtype(dtype)
        if d == float64:
            raise TypeError("integers: dtype must be an integer or bool dtype")
        if builtins.int(high) <= builtins.int(low):
            raise ValueError(f"high: must be greater than low, got low={low}, high={high}")
        r = _randint(low, high, 1 if n is None else n, dtype=d, seed=self._next())
        return r[0] if n is None else r

    def random(self, size=None):
        """Floats in ``[0, 1)``."""
        return self.uniform(0.0, 1.0, size)

    def uniform(self, low=0.0, high=1.0, size=None):
        """Floats in ``[low, high)``."""
        n = _shape(size)
        r = _uniform(1 if n is None else n, low, high, seed=self._next())
        return r[0] if n is None else r

    def standard_normal(self, size=None, method="zig"):
        """Draws from the standard normal distribution."""
        n = _shape(size)
        r = _std_normal(1 if n is None else n, seed=self._next())
        return r[0] if n is None else r

    def normal(self, loc=0.0, scale=1.0, size=None, method="zig"):
        """Draws from the normal distribution of mean ``loc`` and deviation ``scale``."""
        if (isinstance(scale, pdarray) and builtins.bool((scale < 0).any())) or (
            not isinstance(scale, pdarray) and scale < 0
        ):
            raise ValueError("scale: must be nonnegative")
        n = _shape(size)
        z = _std_normal(1 if n is None else n, seed=self._next())
        r = loc + scale * z
        return r[0] if n is None else r

    def lognormal(self, mean=0.0, sigma=1.0, size=None, method="zig"):
        """``exp`` of normal draws of mean ``mean`` and deviation ``sigma``."""

        n = _shape(size)
        z = _std_normal(1 if n is None else n, seed=self._next())
        r = exp(mean + sigma * z)
        return r[0] if n is None else r

    def standard_exponential(self, size=None, method="zig"):
        return self.exponential(1.0, size)

    def exponential(self, scale=1.0, size=None, method="zig"):
        """Draws from the exponential distribution of scale ``scale`` (``-log(1 - u)``)."""

        n = _shape(size)
        u = _uniform(1 if n is None else n, 0.0, 1.0, seed=self._next())
        r = -log(1.0 - u) * scale
        return r[0] if n is None else r

    def logistic(self, loc=0.0, scale=1.0, size=None):
        """Draws from the logistic distribution (``loc + scale * log(u / (1 - u))``)."""

        n = _shape(size)
        u = _uniform(1 if n is None else n, 0.0, 1.0, seed=self._next())
        u = u * (1.0 - 2.0**-53) + 2.0**-54  # keep away from 0 and 1
        r = loc + scale * log(u / (1.0 - u))
        return r[0] if n is None else r

    def poisson(self, lam=1.0, size=None):
        """Draws from the Poisson distribution of mean ``lam`` (a scalar): by inversion of
        its distribution function (``searchsorted`` of uniform draws in the table of its
        cumulative probabilities)."""

        if isinstance(lam, pdarray):
            raise TypeError("poisson: lam must be a scalar")
        lam = builtins.float(lam)
        if lam < 0 or not math.isfinite(lam):
            raise ValueError("lam: must be nonnegative and finite")
        n = _shape(size)
        u = _uniform(1 if n is None else n, 0.0, 1.0, seed=self._next())
        # The cumulative table (in log space for large lam), up to where it reaches 1.
        k_max = builtins.int(lam + 12 * math.sqrt(lam + 1) + 20)
        ks = np.arange(k_max + 1)
        logp = ks * math.log(lam) - lam - np.array([math.lgamma(k + 1) for k in ks]) if lam > 0 else None
        cdf = np.cumsum(np.exp(logp)) if lam > 0 else np.ones(1)
        cdf[-1] = max(cdf[-1], 1.0)
        r = searchsorted(array(cdf), u, side="right")
        return r[0] if n is None else r

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
        uniformly or with probabilities ``p``; without replacement the first ``size`` of a
        random permutation (``p`` must then be None)."""

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
        m = 1 if n is None else n
        if p is not None:
            pp = p if isinstance(p, pdarray) else array(np.asarray(p, dtype=np.float64))
            if pp.size != na:
                raise ValueError("p: must have the size of a")
            if not replace:
                raise ValueError("p: a sample without replacement with probabilities is not supported")
            c = cumsum(pp.astype(float64))
            total = builtins.float(c[c.size - 1])
            if abs(total - 1.0) > 1e-8:
                raise ValueError("p: probabilities do not sum to 1")
            u = _uniform(m, 0.0, total, seed=self._next())
            idx = searchsorted(c, u, side="right")

            idx = where(idx >= na, na - 1, idx)
        elif replace:
            idx = _randint(0, na, m, dtype=int64, seed=self._next())
        else:
            if m > na:
                raise ValueError("size: cannot take a larger sample than the population without replacement")
            idx = self.permutation(na)[:m]
        out = idx if pool is None else pool[idx]
        return out[0] if n is None else out


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


def randint(low, high, size=1, dtype=int64, seed=None):
    """``size`` integers in ``[low, high)`` (``ak.randint``)."""
    return _randint(low, high, size, dtype=dtype, seed=seed)


def uniform(size, low=0.0, high=1.0, seed=None):
    return _uniform(size, low, high, seed=seed)


def standard_normal(size, seed=None):
    return _std_normal(size, seed=seed)


def rand(*size, seed=None):
    """Floats in ``[0, 1)``: a scalar without ``size``."""
    if not size:
        return _uniform(1, 0.0, 1.0, seed=seed)[0]
    if len(size) != 1:
        raise ValueError("rand: only 1-D sizes are supported")
    return _uniform(size[0], 0.0, 1.0, seed=seed)


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


def permutation(x):
    return _gen().permutation(x)


def shuffle(x):
    return _gen().shuffle(x)


_ = (bool_, uint64)
