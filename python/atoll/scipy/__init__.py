"""Arkouda's ``arkouda.scipy``: statistics of pdarrays."""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from .._optional import scipy_stats
from ..numpy.numeric import cast as _cast, log
from ..numpy.pdarrayclass import pdarray, sum as _sum


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


__all__ = ["chisquare", "power_divergence", "Power_divergenceResult"]

_LAMBDAS = {
    "pearson": 1.0,
    "log-likelihood": 0.0,
    "freeman-tukey": -0.5,
    "mod-log-likelihood": -1.0,
    "neyman": -2.0,
    "cressie-read": 2.0 / 3.0,
}


def power_divergence(
    f_obs: pdarray, f_exp: pdarray | None = None, ddof: int = 0, lambda_: str | float | None = None
) -> Power_divergenceResult:
    """Cressie-Read power divergence statistic and p-value, as SciPy's ``power_divergence``.

    Parameters
    ----------
    f_obs : pdarray
        The observed frequency of each category.
    f_exp : pdarray, optional
        The expected frequencies; uniform (the mean of ``f_obs``) by default.
    ddof : int, default 0
        The p-value's degrees of freedom are ``f_obs.size - 1 - ddof``.
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
        ``f_obs`` is not a pdarray.
    ValueError
        ``lambda_`` is a name not in the list.

    Examples
    --------
    >>> from atoll.scipy import power_divergence
    >>> import scipy.stats
    >>> obs = [16, 18, 16, 14, 12, 12]
    >>> r = power_divergence(ak.array(obs), lambda_="log-likelihood")
    >>> want = scipy.stats.power_divergence(obs, lambda_="log-likelihood")
    >>> bool(np.isclose(r.statistic, want.statistic) and np.isclose(r.pvalue, want.pvalue))
    True
    >>> round(float(r.statistic), 6)
    2.006573
    """
    if isinstance(lambda_, str):
        if lambda_ not in _LAMBDAS:
            raise ValueError(f"lambda_: unknown name {lambda_!r}, expected one of {sorted(_LAMBDAS)}")
        lam = _LAMBDAS[lambda_]
    else:
        lam = 1.0 if lambda_ is None else float(lambda_)
    if not isinstance(f_obs, pdarray):
        raise TypeError("f_obs: expected a pdarray")
    obs = _cast(f_obs, np.float64)
    exp: Any
    if f_exp is None:
        exp = float(_sum(obs)) / obs.size
    else:
        exp = _cast(f_exp, np.float64)
    if lam == 1:
        terms = (obs - exp) ** 2 / exp
    elif lam == 0:
        terms = 2.0 * obs * log(obs / exp)
    elif lam == -1:
        terms = 2.0 * exp * log(exp / obs)
    else:
        terms = obs * ((obs / exp) ** lam - 1) / (0.5 * lam * (lam + 1))
    stat = float(_sum(terms))
    k = obs.size
    p = float(scipy_stats.chi2.sf(stat, k - 1 - ddof))
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
        ``f_obs`` is not a pdarray.

    Examples
    --------
    >>> from atoll.scipy import chisquare
    >>> r = chisquare(ak.array([16, 18, 16, 14, 12, 12]))
    >>> float(r.statistic), round(float(r.pvalue), 6)
    (2.0, 0.849145)
    """
    return power_divergence(f_obs, f_exp=f_exp, ddof=ddof, lambda_="pearson")
