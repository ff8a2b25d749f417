"""SciPy's special functions on pdarrays (``arkouda.scipy.special._math``)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...numpy.dtypes import can_cast
from ...numpy.numeric import cast as _cast, isnan, log, where
from ...numpy.pdarrayclass import pdarray

__all__ = ["xlogy"]


def xlogy(x: pdarray | float | np.floating[Any] | int, y: pdarray) -> pdarray:
    """``x * log(y)``, zero where ``x`` is zero (unless ``y`` is NaN), as SciPy's ``xlogy``.

    Parameters
    ----------
    x : pdarray or scalar
        A pdarray of the size of ``y``, or a scalar that casts to float64.
    y : pdarray
        The arguments of the logarithm.

    Returns
    -------
    pdarray
        The float64 values ``x * log(y)``.

    Raises
    ------
    TypeError
        ``y`` is not a pdarray, or ``x`` is neither a pdarray nor a scalar castable to float64.
    ValueError
        ``x`` and ``y`` are pdarrays of different sizes.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.scipy.special import xlogy
    >>> xlogy(ak.array([1, 2, 3, 4]), ak.array([5, 6, 7, 8]))
    array([1.60943791 3.58351894 5.83773045 8.31776617])
    >>> xlogy(5.0, ak.array([1, 2, 3, 4]))
    array([0.         3.4657359  5.49306144 6.93147181])
    >>> xlogy(ak.array([0.0, 0.0]), ak.array([0.0, 2.0]))
    array([0. 0.])
    """
    if not isinstance(y, pdarray):
        raise TypeError(f"y: expected a pdarray, got {type(y).__name__}")
    yf = _cast(y, np.float64)
    ly = log(yf)
    if isinstance(x, pdarray):
        if x.size != y.size:
            raise ValueError(f"x and y must have the same size, got {x.size} and {y.size}")
        xf = _cast(x, np.float64)
        prod: pdarray = xf * ly
        out: pdarray = where((xf == 0) & ~isnan(yf), 0.0, prod)
        return out
    if not isinstance(x, (int, float, np.integer, np.floating, np.bool_)):
        raise TypeError(f"x: expected a pdarray or a scalar castable to float64, got {type(x).__name__}")
    if not can_cast(x, np.float64):
        raise TypeError(f"x: {x!r} does not cast to float64")
    xs = float(x)
    out = where(isnan(yf), yf, 0.0) if xs == 0 else xs * ly
    return out
