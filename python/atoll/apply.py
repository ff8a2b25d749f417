"""Arkouda's ``ak.apply``: a Python function applied to each element of a pdarray. Atoll runs
it on the driver (the values are gathered, mapped with NumPy's ``vectorize``, distributed
again): meant for small arrays and for scripts that use it, not for speed."""

import numpy as np

from .numpy.pdarrayclass import pdarray
from .numpy.pdarraycreation import array


def apply(arr, func, result_dtype=None):
    """``func`` (a callable, or a string ``"lambda x: ..."``) of each element of ``arr``."""

    if not isinstance(arr, pdarray):
        raise TypeError(f"arr: expected a pdarray, got {type(arr).__name__}")
    if isinstance(func, str):
        func = eval(func, {"np": np})  # noqa: S307 (Arkouda's API takes the function as text)
    if not callable(func):
        raise TypeError("func: expected a callable or a lambda's text")
    d = arr.dtype if result_dtype is None else np.dtype(result_dtype)
    return array(np.vectorize(func, otypes=[d])(arr.to_ndarray()) if arr.size else np.empty(0, d))
