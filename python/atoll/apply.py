"""Arkouda's ``ak.apply``: a Python function applied to each element of a pdarray.

Atoll runs it on the driver (the values are gathered, mapped with NumPy's ``vectorize``,
distributed again): meant for small arrays and for scripts that use it, not for speed.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import numpy.typing as npt

from .numpy.pdarrayclass import pdarray
from .numpy.pdarraycreation import array

__all__ = ["apply"]


def apply(arr: pdarray, func: Callable[[Any], Any] | str, result_dtype: npt.DTypeLike | None = None) -> pdarray:
    """``func`` of each element of ``arr``, as a new pdarray.

    Parameters
    ----------
    arr : pdarray
        The values.
    func : callable or str
        A function of one value, or the text of a lambda (``"lambda x: x + 1"``), evaluated
        with NumPy as ``np`` in its namespace.
    result_dtype : dtype, optional
        The result's dtype; by default ``arr``'s.

    Returns
    -------
    pdarray
        ``func(x)`` for each ``x`` of ``arr``, of dtype ``result_dtype``.

    Raises
    ------
    TypeError
        ``arr`` is not a pdarray, or ``func`` is neither callable nor a lambda's text.

    Examples
    --------
    >>> import atoll as ak
    >>> a = ak.array([1, 2, 3])
    >>> ak.apply(a, lambda x: x * x)
    array([1 4 9])
    >>> ak.apply(a, "lambda x: x + 0.5", result_dtype=ak.float64)
    array([1.5 2.5 3.5])
    """
    if not isinstance(arr, pdarray):
        raise TypeError(f"arr: expected a pdarray, got {type(arr).__name__}")
    if isinstance(func, str):
        func = eval(func, {"np": np})  # noqa: S307 (Arkouda's API takes the function as text)
    if not callable(func):
        raise TypeError("func: expected a callable or a lambda's text")
    d = arr.dtype if result_dtype is None else np.dtype(result_dtype)
    out: pdarray = array(np.vectorize(func, otypes=[d])(arr.to_ndarray()) if arr.size else np.empty(0, d))
    return out
