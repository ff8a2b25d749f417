"""Arkouda's ``arkouda.numpy.random``: ``default_rng``, its ``Generator``, and functions on a global one.

The module-level functions draw from a global generator.

Every array draw is counter-based: value ``i`` of a draw is a function of the generator's
seed, the draw's number and ``i`` only, so a seed gives the same arrays on any number of
locales and on both backends (``size=`` an int or a shape: the flat draw of its element count,
given that shape). A scalar draw (``size=None``) is NumPy's: a Generator keeps
``numpy.random.default_rng(seed)`` for them, as Arkouda does, and they do not count as draws.
Draw ``k`` of a generator seeded with ``s`` is seeded with ``_stream_key(s, k)``,
and its element ``i`` comes from the stream ``atoll_util::Stream::new(draw seed, i)`` (the one
derivation of every seeded generator: ``crates/atoll-util/src/hash.rs``). The streams are
Atoll's own: the same seed does not give NumPy's or Arkouda's values.
"""

from __future__ import annotations

import builtins
import math
import os
from collections.abc import Callable
from typing import Any

import numpy as np

from ..._stream import stream_key as _stream_key
from .. import _nd
from ..dtypes import _stored_dtype as _dtype, bool_, float64, int64, uint64
from ..numeric import exp, isfinite, log, where
from ..pdarrayclass import _size, cumsum, pdarray
from ..pdarraycreation import (
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


def _shape(size: object) -> tuple[int, ...] | None:
    """``size`` (None, an int or a tuple of ints) as None or a shape tuple (NumPy's errors)."""
    if size is None:
        return None
    return _nd.check_shape(size, "size")


def _count(shape: tuple[int, ...] | None) -> int:
    """The number of values a draw of ``shape`` makes (one for a scalar draw)."""
    return 1 if shape is None else _nd.prod(shape)


def _shaped(r: pdarray, shape: tuple[int, ...] | None) -> Any:  # noqa: ANN401 (a scalar, or a pdarray)
    """The flat draw ``r`` as the result for ``size``'s ``shape``.

    A scalar for None, else an array of that shape.
    """
    if shape is None:
        return r[0]
    if len(shape) == 1:
        return r
    return _nd.with_shape(r, shape)


def _scalars(*xs: object) -> bool:
    """Whether every argument is a scalar (no pdarray): a draw that NumPy's generator makes."""
    return not builtins.any(isinstance(x, pdarray) for x in xs)


class Generator:
    """A random generator (NumPy's ``Generator`` API on distributed arrays).

    Each array draw takes a new stream: ``seed`` and the number of earlier array draws
    determine it. A scalar draw (``size=None``, scalar parameters) is NumPy's: the next value
    of ``numpy.random.default_rng(seed)``, as Arkouda delegates scalar draws to NumPy.

    Parameters
    ----------
    seed : int or None
        The seed; None: from the operating system.

    Raises
    ------
    TypeError
        If ``seed`` is not an int.

    Examples
    --------
    >>> import atoll as ak
    >>> a = ak.random.default_rng(7).integers(0, 100, 5)
    >>> b = ak.random.default_rng(7).integers(0, 100, 5)
    >>> a.tolist() == b.tolist()
    True
    """

    def __init__(self, seed: object = None) -> None:
        if seed is None:
            seed = builtins.int.from_bytes(os.urandom(8), "little")
        if isinstance(seed, (builtins.bool, np.bool_)) or not isinstance(seed, (builtins.int, np.integer)):
            raise TypeError(f"seed: expected an int, got {type(seed).__name__}")
        self._seed = builtins.int(seed) & _M64
        self._calls = 0
        self._np = np.random.default_rng(self._seed)

    def __repr__(self) -> str:
        return "Generator(SplitMix64)"

    def _next(self) -> int:
        s = _stream_key(self._seed, self._calls)
        self._calls += 1
        return s

    # ----- integers and floats ------------------------------------------------------------
    def integers(
        self,
        low: Any,  # noqa: ANN401 (an int or a pdarray)
        high: Any = None,  # noqa: ANN401 (an int or a pdarray)
        size: object = None,
        dtype: Any = int64,  # noqa: ANN401 (a dtype-like)
        endpoint: bool = False,
    ) -> Any:  # noqa: ANN401 (a scalar, or a pdarray)
        """Integers in ``[low, high)`` (``[low, high]`` with ``endpoint``); ``high=None``: in ``[0, low)``.

        Parameters
        ----------
        low : int or pdarray
            The least value (the bound, without ``high``).
        high : int, pdarray or None
            One past the greatest value.
        size : None, int or tuple of int
            The shape of the draw; None: one scalar.
        dtype : dtype-like
            An integer or bool dtype.
        endpoint : bool, default False
            Include ``high``.

        Returns
        -------
        int or pdarray
            A scalar when ``size`` is None, else an array of shape ``size``.

        Raises
        ------
        TypeError
            If ``dtype`` is a float dtype.
        ValueError
            If ``high`` <= ``low``.

        Examples
        --------
        >>> import atoll as ak
        >>> x = ak.random.default_rng(1).integers(0, 10, 5)
        >>> x.size, bool(((x >= 0) & (x < 10)).all())
        (5, True)
        """
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

    def random(self, size: object = None) -> Any:  # noqa: ANN401 (a scalar, or a pdarray)
        """Floats in ``[0, 1)``.

        Parameters
        ----------
        size : None, int or tuple of int
            The shape of the draw; None: one scalar.

        Returns
        -------
        float or pdarray
            A scalar when ``size`` is None, else an array.

        Examples
        --------
        >>> import atoll as ak
        >>> x = ak.random.default_rng(1).random(4)
        >>> x.size, bool(((x >= 0) & (x < 1)).all())
        (4, True)
        """
        if size is None:
            return self._np.random()
        return self.uniform(0.0, 1.0, size)

    def uniform(self, low: Any = 0.0, high: Any = 1.0, size: object = None) -> Any:  # noqa: ANN401 (numbers or pdarrays; a scalar, or a pdarray)
        """Floats in ``[low, high)``.

        Parameters
        ----------
        low : float or pdarray
            The least value.
        high : float or pdarray
            The bound.
        size : None, int or tuple of int
            The shape of the draw; None: one scalar.

        Returns
        -------
        float or pdarray
            A scalar when ``size`` is None, else an array.

        Examples
        --------
        >>> import atoll as ak
        >>> x = ak.random.default_rng(1).uniform(2.0, 3.0, 4)
        >>> bool(((x >= 2) & (x < 3)).all())
        True
        """
        n = _shape(size)
        if n is None and _scalars(low, high):
            return self._np.uniform(low, high)
        r = _uniform(_count(n), low, high, seed=self._next())
        return _shaped(r, n)

    def standard_normal(self, size: object = None, method: str = "zig") -> Any:  # noqa: ANN401 (a scalar, or a pdarray)
        """Draws from the standard normal distribution.

        Parameters
        ----------
        size : None, int or tuple of int
            The shape of the draw; None: one scalar.
        method : str
            Accepted for NumPy's signature.

        Returns
        -------
        float or pdarray
            A scalar when ``size`` is None, else an array.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.random.default_rng(1).standard_normal((2, 3)).shape
        (2, 3)
        """
        n = _shape(size)
        if n is None:
            return self._np.standard_normal()
        r = _std_normal(_count(n), seed=self._next())
        return _shaped(r, n)

    def normal(self, loc: Any = 0.0, scale: Any = 1.0, size: object = None, method: str = "zig") -> Any:  # noqa: ANN401 (numbers or pdarrays; a scalar, or a pdarray)
        """Draws from the normal distribution of mean ``loc`` and deviation ``scale``.

        Parameters
        ----------
        loc : float or pdarray
            The mean.
        scale : float or pdarray
            The standard deviation, nonnegative.
        size : None, int or tuple of int
            The shape of the draw; None: one scalar.
        method : str
            Accepted for NumPy's signature.

        Returns
        -------
        float or pdarray
            A scalar when ``size`` is None, else an array.

        Raises
        ------
        ValueError
            If ``scale`` is negative.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.random.default_rng(1).normal(5.0, 0.0, 3).tolist()
        [5.0, 5.0, 5.0]
        """
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

    def lognormal(self, mean: Any = 0.0, sigma: Any = 1.0, size: object = None, method: str = "zig") -> Any:  # noqa: ANN401 (numbers or pdarrays; a scalar, or a pdarray)
        """``exp`` of normal draws of mean ``mean`` and deviation ``sigma``.

        Parameters
        ----------
        mean : float or pdarray
            The mean of the logarithm.
        sigma : float or pdarray
            The deviation of the logarithm.
        size : None, int or tuple of int
            The shape of the draw; None: one scalar.
        method : str
            Accepted for NumPy's signature.

        Returns
        -------
        float or pdarray
            A scalar when ``size`` is None, else an array.

        Examples
        --------
        >>> import atoll as ak
        >>> bool((ak.random.default_rng(1).lognormal(size=4) > 0).all())
        True
        """
        n = _shape(size)
        if n is None and _scalars(mean, sigma):
            return self._np.lognormal(mean, sigma)
        z = _std_normal(_count(n), seed=self._next())
        r = exp(mean + sigma * z)
        return _shaped(r, n)

    def standard_exponential(self, size: object = None, method: str = "zig") -> Any:  # noqa: ANN401 (a scalar, or a pdarray)
        """Draws from the exponential distribution of scale 1.

        Parameters
        ----------
        size : None, int or tuple of int
            The shape of the draw; None: one scalar.
        method : str
            NumPy's method of a scalar draw (``zig`` or ``inv``).

        Returns
        -------
        float or pdarray
            A scalar when ``size`` is None, else an array.

        Examples
        --------
        >>> import atoll as ak
        >>> bool((ak.random.default_rng(1).standard_exponential(4) >= 0).all())
        True
        """
        if size is None:
            return self._np.standard_exponential(method="inv" if method == "inv" else "zig")
        return self.exponential(1.0, size)

    def exponential(self, scale: Any = 1.0, size: object = None, method: str = "zig") -> Any:  # noqa: ANN401 (a number or a pdarray; a scalar, or a pdarray)
        """Draws from the exponential distribution of scale ``scale`` (``-log(1 - u)``).

        Parameters
        ----------
        scale : float or pdarray
            The scale.
        size : None, int or tuple of int
            The shape of the draw; None: one scalar.
        method : str
            Accepted for NumPy's signature.

        Returns
        -------
        float or pdarray
            A scalar when ``size`` is None, else an array.

        Examples
        --------
        >>> import atoll as ak
        >>> bool((ak.random.default_rng(1).exponential(2.0, 4) >= 0).all())
        True
        """
        n = _shape(size)
        if n is None and _scalars(scale):
            return self._np.exponential(scale)
        u = _uniform(_count(n), 0.0, 1.0, seed=self._next())
        r = -log(1.0 - u) * scale
        return _shaped(r, n)

    def logistic(self, loc: Any = 0.0, scale: Any = 1.0, size: object = None) -> Any:  # noqa: ANN401 (numbers or pdarrays; a scalar, or a pdarray)
        """Draws from the logistic distribution (``loc + scale * log(u / (1 - u))``).

        Parameters
        ----------
        loc : float or pdarray
            The location.
        scale : float or pdarray
            The scale.
        size : None, int or tuple of int
            The shape of the draw; None: one scalar.

        Returns
        -------
        float or pdarray
            A scalar when ``size`` is None, else an array.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.random.default_rng(1).logistic(size=3).size
        3
        """
        n = _shape(size)
        if n is None and _scalars(loc, scale):
            return self._np.logistic(loc, scale)
        u = _uniform(_count(n), 0.0, 1.0, seed=self._next())
        u = u * (1.0 - 2.0**-53) + 2.0**-54  # keep away from 0 and 1
        r = loc + scale * log(u / (1.0 - u))
        return _shaped(r, n)

    def poisson(self, lam: Any = 1.0, size: object = None) -> Any:  # noqa: ANN401 (a number or a pdarray; a scalar, or a pdarray)
        """Draws from the Poisson distribution of mean ``lam``, by inversion of its distribution function.

        A scalar ``lam``: ``searchsorted`` of uniform draws in the table of its cumulative
        probabilities; a pdarray ``lam`` (broadcast to ``size``, or of its own shape without
        ``size``): each draw steps up its own cumulative sum.

        Parameters
        ----------
        lam : float or pdarray
            The mean, nonnegative and finite.
        size : None, int or tuple of int
            The shape of the draw; None: one scalar.

        Returns
        -------
        int or pdarray
            A scalar when ``size`` is None, else an int64 array.

        Raises
        ------
        ValueError
            If ``lam`` is negative or not finite.
        TypeError
            If ``lam`` is a pdarray of another dtype.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.random.default_rng(1).poisson(0.0, 3).tolist()
        [0, 0, 0]
        """
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
        cdf = np.cumsum(np.exp(logp)) if lam > 0 else np.ones(1)  # type: ignore[arg-type]  # logp is an array when lam > 0
        cdf[-1] = max(cdf[-1], 1.0)
        r = searchsorted(array(cdf), u, side="right")
        return _shaped(r, n)

    def _poisson_array(self, lam: pdarray, size: object) -> Any:  # noqa: ANN401 (a pdarray)
        """Poisson draws of the per-element means ``lam`` broadcast to ``size``'s shape."""
        if lam.dtype.kind not in "iufb":
            raise TypeError(f"lam: expected a numeric pdarray, got dtype {lam.dtype}")
        lam = lam.astype(float64)
        if builtins.bool((lam < 0).any()) or not builtins.bool(isfinite(lam).all()):
            raise ValueError("lam: must be nonnegative and finite")
        shape: tuple[int, ...] = tuple(lam.shape) if size is None else _nd.check_shape(size, "size")
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

    def standard_gamma(self, shape: Any, size: object = None, dtype: Any = float64, out: object = None) -> Any:  # noqa: ANN401 (a number or a pdarray, a dtype-like; a scalar, or a pdarray)
        """Draws from the standard gamma distribution of shape ``shape``.

        ``shape`` is a scalar, or a pdarray broadcast to ``size``: Marsaglia and Tsang's
        method, rejected draws drawn again from new streams; a shape below 1 boosted
        (``gamma(k + 1) * u ** (1 / k)``).

        Parameters
        ----------
        shape : float or pdarray
            The shape, nonnegative and finite.
        size : None, int or tuple of int
            The shape of the draw; None: one scalar.
        dtype : dtype-like
            float64 only.
        out : None
            Not supported.

        Returns
        -------
        float or pdarray
            A scalar when ``size`` is None, else an array.

        Raises
        ------
        ValueError
            If ``shape`` is negative or not finite, or ``out`` is given.
        TypeError
            If ``dtype`` is not float64.

        Examples
        --------
        >>> import atoll as ak
        >>> bool((ak.random.default_rng(1).standard_gamma(2.0, 4) > 0).all())
        True
        """
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
            dims: tuple[int, ...] = tuple(k.shape) if size is None else _nd.check_shape(size, "size")
            k = _nd.with_shape(_nd.broadcast_to(k, dims), (_nd.prod(dims),))
        else:
            kf = builtins.float(shape)
            if not kf >= 0 or not math.isfinite(kf):
                raise ValueError("shape: must be nonnegative and finite")
            scalar_dims = _shape(size)
            if scalar_dims is None:
                return self._np.standard_gamma(kf)
            dims = scalar_dims
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
    def permutation(self, x: Any, method: str = "Argsort") -> Any:  # noqa: ANN401 (an int or an array; a pdarray or the array's kind)
        """A random permutation of ``arange(x)`` (an int) or of the elements of ``x``.

        Parameters
        ----------
        x : int or pdarray
            The size, or the array.
        method : str
            Accepted for Arkouda's signature.

        Returns
        -------
        pdarray
            The permuted values.

        Examples
        --------
        >>> import atoll as ak
        >>> sorted(ak.random.default_rng(1).permutation(4).tolist())
        [0, 1, 2, 3]
        """
        if isinstance(x, (builtins.int, np.integer)) and not isinstance(x, builtins.bool):
            n = _size(x)
            keys = _randint(0, 2**63 - 1, n, dtype=int64, seed=self._next()) if n else arange(0)
            return argsort(keys) if n else arange(0)
        n = len(x)
        keys = _randint(0, 2**63 - 1, n, dtype=int64, seed=self._next())
        return x[argsort(keys)]

    def shuffle(self, x: pdarray, method: str = "FisherYates") -> None:
        """Shuffle the elements of the pdarray ``x`` in place.

        Parameters
        ----------
        x : pdarray
            The array.
        method : str
            Accepted for Arkouda's signature.

        Raises
        ------
        TypeError
            If ``x`` is not a pdarray.

        Examples
        --------
        >>> import atoll as ak
        >>> x = ak.arange(4)
        >>> ak.random.default_rng(1).shuffle(x)
        >>> sorted(x.tolist())
        [0, 1, 2, 3]
        """
        if not isinstance(x, pdarray):
            raise TypeError(f"x: expected a pdarray, got {type(x).__name__}")
        x[:] = self.permutation(x)

    def choice(self, a: Any, size: object = None, replace: bool = True, p: Any = None) -> Any:  # noqa: ANN401 (an int or a pdarray, weights; a scalar or a pdarray)
        """Draws from ``a`` (an int: ``arange(a)``, or a pdarray).

        With replacement uniformly or by the weights ``p`` (Arkouda's probabilities or
        weights: nonnegative, divided by their sum); without replacement the first ``size`` of
        a random permutation, or with weights the ``size`` largest keys ``u ** (1 / p)``
        (Efraimidis and Spirakis' weighted sample).

        Parameters
        ----------
        a : int or pdarray
            The population.
        size : None, int or tuple of int
            The shape of the draw; None: one scalar.
        replace : bool, default True
            Draw with replacement.
        p : pdarray, list or None
            The weights; None: uniform.

        Returns
        -------
        scalar or pdarray
            A scalar when ``size`` is None, else an array.

        Raises
        ------
        TypeError
            If ``a`` is not an int or a pdarray.
        ValueError
            If the population is empty, too small, or the weights are invalid.

        Examples
        --------
        >>> import atoll as ak
        >>> sorted(ak.random.default_rng(1).choice(ak.array([5, 6, 7]), 3, replace=False).tolist())
        [5, 6, 7]
        """
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
    def _fill_with_stateless_u64_from_index(
        self, x: object, seed: object, stream: object, start_idx: object = 0
    ) -> None:
        """Fills the 1-D uint64 pdarray ``x`` in place with ``x[i] = f(seed, stream, start_idx + i)``.

        ``f`` is SplitMix64's word ``start_idx + i`` from the key of the stream ``(seed, stream)``
        (``atoll._stream``): no state of the generator is used or changed, and the values do
        not depend on the locale count or on how the indices are split into calls. ``seed``,
        ``stream`` and ``start_idx`` are taken as uint64 (NumPy's OverflowError outside
        ``[0, 2**64)``); indices past ``2**64 - 1`` wrap to 0.
        """
        x = _check_fill_target(x, uint64, "_fill_with_stateless_u64_from_index")
        x[:] = _stateless_u64(x.size, seed, stream, start_idx)

    def _stateless_u64_from_index(self, n: object, seed: object, stream: object, start_idx: object = 0) -> pdarray:
        """A uint64 pdarray of ``n`` values, ``out[i] = f(seed, stream, start_idx + i)``.

        See ``_fill_with_stateless_u64_from_index``.
        """
        return _stateless_u64(n, seed, stream, start_idx)

    def _fill_stateless_uniform_01_from_index(
        self, x: object, seed: object, stream: object, start_idx: object = 0
    ) -> None:
        """Fills the 1-D float64 pdarray ``x`` in place with uniform values in ``[0, 1)``.

        The top 53 bits of ``_stateless_u64_from_index``'s values, times ``2**-53``.
        """
        x = _check_fill_target(x, float64, "_fill_stateless_uniform_01_from_index")
        x[:] = _stateless_uniform_01(x.size, seed, stream, start_idx)

    def _stateless_uniform_01_from_index(
        self, n: object, seed: object, stream: object, start_idx: object = 0
    ) -> pdarray:
        """A float64 pdarray of ``n`` uniform values in ``[0, 1)``.

        Value ``i`` a function of ``(seed, stream, start_idx + i)`` (see
        ``_fill_stateless_uniform_01_from_index``).
        """
        return _stateless_uniform_01(n, seed, stream, start_idx)


# SplitMix64's increment and finalizer constants (``atoll._stream.mix``).
_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)


def _as_u64(x: object, what: str) -> int:
    """``x``, an int, as a uint64 (NumPy's conversion rules: OverflowError outside [0, 2**64))."""
    if isinstance(x, (builtins.bool, np.bool_)) or not isinstance(x, (builtins.int, np.integer)):
        raise TypeError(f"{what}: expected an int, got {type(x).__name__}")
    v = builtins.int(x)
    if not 0 <= v <= _M64:
        raise OverflowError(f"{what}: {v} is out of bounds for uint64")
    return v


def _stateless_u64(n: object, seed: object, stream: object, start_idx: object) -> pdarray:
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
    out: pdarray = z ^ (z >> np.uint64(31))
    return out


def _stateless_uniform_01(n: object, seed: object, stream: object, start_idx: object) -> pdarray:
    """The top 53 bits of ``_stateless_u64``'s values, times ``2**-53``: floats in ``[0, 1)``."""
    out: pdarray = (_stateless_u64(n, seed, stream, start_idx) >> np.uint64(11)).astype(float64) * (2.0**-53)
    return out


def _check_fill_target(x: object, dtype: Any, what: str) -> pdarray:  # noqa: ANN401 (a dtype-like)
    if not isinstance(x, pdarray):
        raise TypeError(f"{what}: x must be a pdarray, got {type(x).__name__}")
    if x.ndim != 1:
        raise ValueError("Only 1 dimensional arrays supported.")
    if x.dtype != dtype:
        raise TypeError(f"{what}: x must be of dtype {np.dtype(dtype).name}, got {x.dtype}")
    return x


def default_rng(seed: object = None) -> Generator:
    """A new :class:`Generator` (from ``seed``, or from the operating system).

    Parameters
    ----------
    seed : int, Generator or None
        The seed (a Generator is returned as it is); None: from the operating system.

    Returns
    -------
    Generator
        The generator.

    Raises
    ------
    TypeError
        If ``seed`` is not an int.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.random.default_rng(3)
    Generator(SplitMix64)
    """
    if isinstance(seed, Generator):
        return seed
    return Generator(seed)


_global: Generator | None = None


def _gen() -> Generator:
    global _global
    if _global is None:
        _global = Generator()
    return _global


def seed(seed: object = None) -> None:
    """Reseed the global generator of the module-level functions.

    Parameters
    ----------
    seed : int or None
        The seed; None: from the operating system.

    Raises
    ------
    TypeError
        If ``seed`` is not an int.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.random.seed(5)
    >>> a = ak.random.integers(0, 100, 3)
    >>> ak.random.seed(5)
    >>> a.tolist() == ak.random.integers(0, 100, 3).tolist()
    True
    """
    global _global
    _global = Generator(seed)


def _legacy(size: Any, draw: Callable[[Any], pdarray]) -> pdarray:  # noqa: ANN401 (an int or a shape)
    """``draw(n)`` for an int ``size``; for a tuple, ``draw`` of its element count given that shape."""
    if not isinstance(size, (tuple, list)):
        return draw(size)
    shape = _nd.check_shape(size, "size")
    return _nd.with_shape(draw(_nd.prod(shape)), shape) if len(shape) != 1 else draw(shape[0])


def _check_bool_bounds(low: Any, high: Any) -> None:  # noqa: ANN401 (numbers)
    """NumPy's errors for bool draws in ``[low, high)``."""
    if low < 0:
        raise ValueError("low is out of bounds for bool")
    if high > 2:
        raise ValueError("high is out of bounds for bool")
    if low >= high:
        raise ValueError("high <= 0" if low == 0 else "low >= high")


def randint(low: Any, high: Any, size: Any = 1, dtype: Any = int64, seed: int | None = None) -> pdarray:  # noqa: ANN401 (numbers, a shape, a dtype-like)
    """``size`` (an int or a shape) integers in ``[low, high)`` (``ak.randint``).

    bool bounds are checked as NumPy's ``RandomState.randint`` checks them.

    Parameters
    ----------
    low : int
        The least value.
    high : int
        One past the greatest value.
    size : int or tuple of int, default 1
        The shape.
    dtype : dtype-like
        The dtype.
    seed : int or None
        The seed; None: a fresh one.

    Returns
    -------
    pdarray
        The integers.

    Raises
    ------
    ValueError
        If the bounds are out of range for bool.

    Examples
    --------
    >>> import atoll as ak
    >>> x = ak.random.randint(0, 5, (2, 3), seed=1)
    >>> x.shape, bool(((x >= 0) & (x < 5)).all())
    ((2, 3), True)
    """
    if isinstance(dtype, str) and dtype == "bool" or dtype in (bool, np.bool_, bool_):
        _check_bool_bounds(low, high)
    return _legacy(size, lambda n: _randint(low, high, n, dtype=dtype, seed=seed))


def uniform(size: Any, low: float = 0.0, high: float = 1.0, seed: int | None = None) -> pdarray:  # noqa: ANN401 (an int or a shape)
    """``size`` (an int or a shape) floats in ``[low, high)``.

    Parameters
    ----------
    size : int or tuple of int
        The shape.
    low : float, default 0.0
        The least value.
    high : float, default 1.0
        The bound.
    seed : int or None
        The seed; None: a fresh one.

    Returns
    -------
    pdarray
        The floats.

    Examples
    --------
    >>> import atoll as ak
    >>> x = ak.random.uniform(3, 1.0, 2.0, seed=1)
    >>> bool(((x >= 1) & (x < 2)).all())
    True
    """
    return _legacy(size, lambda n: _uniform(n, low, high, seed=seed))


def standard_normal(size: Any, seed: int | None = None) -> pdarray:  # noqa: ANN401 (an int or a shape)
    """``size`` (an int or a shape) draws from the standard normal distribution.

    Parameters
    ----------
    size : int or tuple of int
        The shape.
    seed : int or None
        The seed; None: a fresh one.

    Returns
    -------
    pdarray
        The draws.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.random.standard_normal(4, seed=1).size
    4
    """
    return _legacy(size, lambda n: _std_normal(n, seed=seed))


def rand(*size: int, seed: int | None = None) -> Any:  # noqa: ANN401 (a scalar, or a pdarray)
    """Floats in ``[0, 1)`` of shape ``size`` (``rand(2, 3)``: shape (2, 3)); a scalar without ``size``.

    Parameters
    ----------
    *size : int
        The shape.
    seed : int or None
        The seed; None: a fresh one.

    Returns
    -------
    float or pdarray
        The floats.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.random.rand(2, 3, seed=1).shape
    (2, 3)
    """
    if not size:
        return _uniform(1, 0.0, 1.0, seed=seed)[0]
    return _legacy(size, lambda n: _uniform(n, 0.0, 1.0, seed=seed))


def integers(low: Any, high: Any = None, size: object = None, dtype: Any = int64, endpoint: bool = False) -> Any:  # noqa: ANN401 (bounds, a dtype-like; a scalar or a pdarray)
    """``Generator.integers`` on the global generator.

    Parameters
    ----------
    low : int or pdarray
        The least value (the bound, without ``high``).
    high : int, pdarray or None
        One past the greatest value.
    size : None, int or tuple of int
        The shape of the draw; None: one scalar.
    dtype : dtype-like
        An integer or bool dtype.
    endpoint : bool, default False
        Include ``high``.

    Returns
    -------
    int or pdarray
        A scalar when ``size`` is None, else an array.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.random.integers(0, 10, 4).size
    4
    """
    return _gen().integers(low, high, size, dtype, endpoint)


def choice(a: Any, size: object = None, replace: bool = True, p: Any = None) -> Any:  # noqa: ANN401 (an int or a pdarray, weights; a scalar or a pdarray)
    """``Generator.choice`` on the global generator.

    Parameters
    ----------
    a : int or pdarray
        The population.
    size : None, int or tuple of int
        The shape of the draw; None: one scalar.
    replace : bool, default True
        Draw with replacement.
    p : pdarray, list or None
        The weights; None: uniform.

    Returns
    -------
    scalar or pdarray
        A scalar when ``size`` is None, else an array.

    Examples
    --------
    >>> import atoll as ak
    >>> sorted(ak.random.choice(3, 3, replace=False).tolist())
    [0, 1, 2]
    """
    return _gen().choice(a, size, replace, p)


def exponential(scale: Any = 1.0, size: object = None, method: str = "zig") -> Any:  # noqa: ANN401 (a number or a pdarray; a scalar or a pdarray)
    """``Generator.exponential`` on the global generator.

    Parameters
    ----------
    scale : float or pdarray
        The scale.
    size : None, int or tuple of int
        The shape of the draw; None: one scalar.
    method : str
        Accepted for NumPy's signature.

    Returns
    -------
    float or pdarray
        A scalar when ``size`` is None, else an array.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.random.exponential(1.0, 3).size
    3
    """
    return _gen().exponential(scale, size)


def standard_exponential(size: object = None, method: str = "zig") -> Any:  # noqa: ANN401 (a scalar, or a pdarray)
    """``Generator.standard_exponential`` on the global generator.

    Parameters
    ----------
    size : None, int or tuple of int
        The shape of the draw; None: one scalar.
    method : str
        Accepted for NumPy's signature.

    Returns
    -------
    float or pdarray
        A scalar when ``size`` is None, else an array.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.random.standard_exponential(3).size
    3
    """
    return _gen().standard_exponential(size)


def logistic(loc: Any = 0.0, scale: Any = 1.0, size: object = None) -> Any:  # noqa: ANN401 (numbers or pdarrays; a scalar or a pdarray)
    """``Generator.logistic`` on the global generator.

    Parameters
    ----------
    loc : float or pdarray
        The location.
    scale : float or pdarray
        The scale.
    size : None, int or tuple of int
        The shape of the draw; None: one scalar.

    Returns
    -------
    float or pdarray
        A scalar when ``size`` is None, else an array.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.random.logistic(size=3).size
    3
    """
    return _gen().logistic(loc, scale, size)


def lognormal(mean: Any = 0.0, sigma: Any = 1.0, size: object = None, method: str = "zig") -> Any:  # noqa: ANN401 (numbers or pdarrays; a scalar or a pdarray)
    """``Generator.lognormal`` on the global generator.

    Parameters
    ----------
    mean : float or pdarray
        The mean of the logarithm.
    sigma : float or pdarray
        The deviation of the logarithm.
    size : None, int or tuple of int
        The shape of the draw; None: one scalar.
    method : str
        Accepted for NumPy's signature.

    Returns
    -------
    float or pdarray
        A scalar when ``size`` is None, else an array.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.random.lognormal(size=3).size
    3
    """
    return _gen().lognormal(mean, sigma, size)


def normal(loc: Any = 0.0, scale: Any = 1.0, size: object = None, method: str = "zig") -> Any:  # noqa: ANN401 (numbers or pdarrays; a scalar or a pdarray)
    """``Generator.normal`` on the global generator.

    Parameters
    ----------
    loc : float or pdarray
        The mean.
    scale : float or pdarray
        The standard deviation, nonnegative.
    size : None, int or tuple of int
        The shape of the draw; None: one scalar.
    method : str
        Accepted for NumPy's signature.

    Returns
    -------
    float or pdarray
        A scalar when ``size`` is None, else an array.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.random.normal(size=3).size
    3
    """
    return _gen().normal(loc, scale, size)


def random(size: object = None) -> Any:  # noqa: ANN401 (a scalar, or a pdarray)
    """``Generator.random`` on the global generator.

    Parameters
    ----------
    size : None, int or tuple of int
        The shape of the draw; None: one scalar.

    Returns
    -------
    float or pdarray
        A scalar when ``size`` is None, else an array.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.random.random(3).size
    3
    """
    return _gen().random(size)


def poisson(lam: Any = 1.0, size: object = None) -> Any:  # noqa: ANN401 (a number or a pdarray; a scalar or a pdarray)
    """``Generator.poisson`` on the global generator.

    Parameters
    ----------
    lam : float or pdarray
        The mean.
    size : None, int or tuple of int
        The shape of the draw; None: one scalar.

    Returns
    -------
    int or pdarray
        A scalar when ``size`` is None, else an array.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.random.poisson(2.0, 3).size
    3
    """
    return _gen().poisson(lam, size)


def standard_gamma(shape: Any, size: object = None) -> Any:  # noqa: ANN401 (a number or a pdarray; a scalar or a pdarray)
    """``Generator.standard_gamma`` on the global generator.

    Parameters
    ----------
    shape : float or pdarray
        The shape.
    size : None, int or tuple of int
        The shape of the draw; None: one scalar.

    Returns
    -------
    float or pdarray
        A scalar when ``size`` is None, else an array.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.random.standard_gamma(1.0, 3).size
    3
    """
    return _gen().standard_gamma(shape, size)


def permutation(x: Any) -> Any:  # noqa: ANN401 (an int or an array; a pdarray or the array's kind)
    """``Generator.permutation`` on the global generator.

    Parameters
    ----------
    x : int or pdarray
        The size, or the array.

    Returns
    -------
    pdarray
        The permuted values.

    Examples
    --------
    >>> import atoll as ak
    >>> sorted(ak.random.permutation(3).tolist())
    [0, 1, 2]
    """
    return _gen().permutation(x)


def shuffle(x: pdarray) -> None:
    """``Generator.shuffle`` on the global generator: shuffle ``x`` in place.

    Parameters
    ----------
    x : pdarray
        The array.

    Examples
    --------
    >>> import atoll as ak
    >>> x = ak.arange(3)
    >>> ak.random.shuffle(x)
    >>> sorted(x.tolist())
    [0, 1, 2]
    """
    return _gen().shuffle(x)


_ = (bool_, uint64)
