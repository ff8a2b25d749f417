"""Arkouda's ``arkouda.scipy``: statistics of pdarrays."""

from collections import namedtuple

import numpy as np

from .._optional import scipy_stats
from ..numpy.numeric import log
from ..numpy.pdarrayclass import pdarray, sum as _sum

Power_divergenceResult = namedtuple("Power_divergenceResult", ("statistic", "pvalue"))

__all__ = ["chisquare", "power_divergence", "Power_divergenceResult"]

_LAMBDAS = {
    "pearson": 1.0,
    "log-likelihood": 0.0,
    "freeman-tukey": -0.5,
    "mod-log-likelihood": -1.0,
    "neyman": -2.0,
    "cressie-read": 2.0 / 3.0,
}


def power_divergence(f_obs, f_exp=None, ddof=0, lambda_=None):
    """Cressie-Read power divergence statistic and p-value (SciPy's ``power_divergence``)
    of the observed frequencies ``f_obs`` (a pdarray) against ``f_exp`` (uniform by default)."""
    if isinstance(lambda_, str):
        if lambda_ not in _LAMBDAS:
            raise ValueError(f"lambda_: unknown name {lambda_!r}, expected one of {sorted(_LAMBDAS)}")
        lam = _LAMBDAS[lambda_]
    else:
        lam = 1.0 if lambda_ is None else float(lambda_)
    if not isinstance(f_obs, pdarray):
        raise TypeError("f_obs: expected a pdarray")
    obs = f_obs.astype(np.float64)
    if f_exp is None:
        exp = float(_sum(obs)) / obs.size
    else:
        exp = f_exp.astype(np.float64)
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


def chisquare(f_obs, f_exp=None, ddof=0):
    """Pearson's chi-squared test (SciPy's ``chisquare``)."""
    return power_divergence(f_obs, f_exp=f_exp, ddof=ddof, lambda_="pearson")
