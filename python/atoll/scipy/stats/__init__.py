"""Arkouda's ``arkouda.scipy.stats``: SciPy's ``chi2`` distribution, imported on first use."""

from __future__ import annotations

from typing import Any

from ..._optional import scipy_stats

__all__ = ["chi2"]


def __getattr__(name: str) -> Any:  # noqa: ANN401 (a SciPy distribution object)
    """SciPy's ``scipy.stats.chi2`` as this module's ``chi2`` (SciPy is imported at the first read).

    Parameters
    ----------
    name : str
        The attribute read.

    Returns
    -------
    Any
        ``scipy.stats.chi2`` for ``"chi2"``.

    Raises
    ------
    AttributeError
        ``name`` is not ``"chi2"``.

    Examples
    --------
    >>> from atoll.scipy.stats import chi2
    >>> round(float(chi2.sf(2.0, 5)), 6)
    0.849145
    """
    if name == "chi2":
        return scipy_stats.chi2
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
