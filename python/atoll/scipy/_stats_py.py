"""SciPy's power divergence tests on pdarrays (``arkouda.scipy._stats_py``)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._optional import LazyModule
from ..numpy.numeric import cast as _cast
from ..numpy.pdarrayclass import pdarray, sum as _sum
from .special import xlogy

__all__ = ["chisquare", "power_divergence", "Power_divergenceResult"]


class Power_divergenceResult(NamedTuple):
    """The statistic and p-value of a power divergence test, as SciPy's result.

    Attributes
    ----------
    statistic : numpy.float64
        The test statistic.
    pvalue : numpy.float64
        Its p-value under the chi-squared distribution.
    """

    statistic: np.float64
    pvalue: np.float64


# The named powers of the Cressie-Read statistic (SciPy's names).
_LAMBDAS = {
    "pearson": 1.0,
    "log-likelihood": 0.0,
    "freeman-tukey": -0.5,
    "mod-log-likelihood": -1.0,
    "neyman": -2.0,
    "cressie-read": 2.0 / 3.0,
}

# SciPy's special functions, imported at the first p-value.
_scipy_special = LazyModule("scipy.special")

# The relative tolerance within which the sums of the observed and expected frequencies agree.
_SUM_RTOL = 1e-8


def power_divergence(
    f_obs: pdarray, f_exp: pdarray | None = None, ddof: int = 0, lambda_: str | float | None = None
) -> Power_divergenceResult:
    """Cressie-Read power divergence statistic and p-value, as SciPy's ``power_divergence``.

    An N-d ``f_obs`` is one sample of all its elements (SciPy's ``axis=None``).

    Parameters
    ----------
    f_obs : pdarray
        The observed frequency of each category.
    f_exp : pdarray, optional
        The expected frequencies, of the shape of ``f_obs``; uniform (the mean of ``f_obs``)
        by default.
    ddof : int, default 0
        The p-value's degrees of freedom are ``f_obs.size - 1 - ddof``; the p-value is that of
        SciPy's test (``scipy.special.chdtrc``: NaN for a negative statistic).
    lambda_ : str or float, optional
        The power: a number, or one of ``'pearson'`` (1, the default), ``'log-likelihood'``
        (0), ``'freeman-tukey'`` (-1/2), ``'mod-log-likelihood'`` (-1), ``'neyman'`` (-2),
        ``'cressie-read'`` (2/3).

    Returns
    -------
    Power_divergenceResult
        The statistic and its p-value.

    Raises
    ------
    TypeError
        ``f_obs`` or ``f_exp`` is not a pdarray.
    ValueError
        ``lambda_`` is a name not in the list, ``f_exp`` is not of the size of ``f_obs``, or
        the sums of ``f_obs`` and ``f_exp`` differ by more than a relative 1e-8.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.scipy import power_divergence
    >>> x = ak.array([10, 20, 30, 10])
    >>> y = ak.array([10, 30, 20, 10])
    >>> r = power_divergence(x, y, lambda_="pearson")
    >>> round(float(r.statistic), 6), round(float(r.pvalue), 6)
    (8.333333, 0.039602)
    >>> r = power_divergence(x, y, lambda_="log-likelihood")
    >>> round(float(r.statistic), 6), round(float(r.pvalue), 6)
    (8.109302, 0.043806)
    """
    if isinstance(lambda_, str):
        if lambda_ not in _LAMBDAS:
            raise ValueError(f"invalid string for lambda_: {lambda_!r}. Valid strings are {list(_LAMBDAS)}")
        lam = _LAMBDAS[lambda_]
    else:
        lam = 1.0 if lambda_ is None else float(lambda_)
    if not isinstance(f_obs, pdarray):
        raise TypeError(f"f_obs: expected a pdarray, got {type(f_obs).__name__}")
    obs = _cast(f_obs, np.float64)
    exp: pdarray | float
    if f_exp is None:
        exp = float(_sum(obs)) / obs.size if obs.size else float("nan")
    else:
        if not isinstance(f_exp, pdarray):
            raise TypeError(f"f_exp: expected a pdarray, got {type(f_exp).__name__}")
        if f_exp.size != f_obs.size:
            raise ValueError(f"f_obs and f_exp must have the same size, got {f_obs.size} and {f_exp.size}")
        exp = _cast(f_exp, np.float64)
        obs_sum, exp_sum = float(_sum(obs)), float(_sum(exp))
        with np.errstate(invalid="ignore", divide="ignore"):
            rel = abs(obs_sum - exp_sum) / min(obs_sum, exp_sum)
        if rel > _SUM_RTOL:
            raise ValueError(
                "the sum of the observed frequencies must agree with the sum of the expected "
                f"frequencies to a relative tolerance of {_SUM_RTOL}, but the relative difference is {rel}"
            )
    terms: pdarray
    if lam == 1:
        terms = (obs - exp) ** 2 / exp
    elif lam == 0:
        terms = 2.0 * xlogy(obs, obs / exp)
    elif lam == -1:
        terms = 2.0 * xlogy(exp, exp / obs)
    else:
        terms = obs * ((obs / exp) ** lam - 1) / (0.5 * lam * (lam + 1))
    stat = float(_sum(terms))
    # The chi-squared survival function as SciPy's test computes it (``chdtrc``): NaN for a
    # negative statistic, 0 or 1 for zero degrees of freedom.
    p = float(_scipy_special.chdtrc(obs.size - 1 - ddof, stat))
    return Power_divergenceResult(np.float64(stat), np.float64(p))


def chisquare(f_obs: pdarray, f_exp: pdarray | None = None, ddof: int = 0) -> Power_divergenceResult:
    """Pearson's chi-squared test, as SciPy's ``chisquare``.

    Parameters
    ----------
    f_obs : pdarray
        The observed frequency of each category.
    f_exp : pdarray, optional
        The expected frequencies; uniform by default.
    ddof : int, default 0
        The p-value's degrees of freedom are ``f_obs.size - 1 - ddof``.

    Returns
    -------
    Power_divergenceResult
        The statistic and its p-value.

    Raises
    ------
    TypeError
        ``f_obs`` or ``f_exp`` is not a pdarray.
    ValueError
        ``f_exp`` is not of the size of ``f_obs``, or the sums differ.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.scipy import chisquare
    >>> r = chisquare(ak.array([16, 18, 16, 14, 12, 12]))
    >>> float(r.statistic), round(float(r.pvalue), 6)
    (2.0, 0.849145)
    """
    return power_divergence(f_obs, f_exp=f_exp, ddof=ddof, lambda_="pearson")
