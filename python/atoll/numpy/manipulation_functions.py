"""Arkouda's ``arkouda.numpy.manipulation_functions`` for 1-D arrays: ``flip``, ``squeeze``,
``repeat`` and ``tile``, with NumPy's results. An axis other than 0 (or -1, or None) is
NumPy's ``AxisError``: pdarrays have one dimension."""

import builtins

import numpy as np

from .dtypes import int64, is_scalar
from .pdarrayclass import cumsum, pdarray
from .pdarraycreation import arange, array
from .sorting import searchsorted
from .strings import Strings


def flip(x, axis=None):
    """The elements of ``x`` (a pdarray, Strings or Categorical) in reverse order."""

    if axis not in (None, 0, -1, (0,), (-1,)):
        _check_axis(axis)
    if isinstance(x, (pdarray, Strings)) or _is_categorical(x):
        return x[::-1]
    raise TypeError(f"x: expected a pdarray, Strings or Categorical, got {type(x).__name__}")


def squeeze(x, /, axis=None):
    """``x`` without its axes of length one. A 1-D pdarray keeps its one axis (Arkouda's
    arrays have at least one dimension), so this is ``x`` (a copy); a scalar becomes a
    one-element pdarray. Naming axis 0 of an array whose length is not one is NumPy's
    ``ValueError``.

    >>> import atoll as ak
    >>> ak.squeeze(ak.array([1, 2, 3])).tolist()
    [1, 2, 3]
    >>> ak.squeeze(7).tolist()
    [7]
    """
    if is_scalar(x):
        return array([x])
    if not isinstance(x, pdarray):
        raise TypeError(f"x: expected a pdarray or a scalar, got {type(x).__name__}")
    if axis is not None:
        for ax in axis if isinstance(axis, tuple) else (axis,):
            _check_axis(ax)
            if x.size != 1:
                raise ValueError("cannot select an axis to squeeze out which has size not equal to one")
    return x[:]


def _is_categorical(x):
    return type(x).__name__ == "Categorical" and hasattr(x, "codes") and hasattr(x, "categories")


def _check_axis(axis, ndim=1):
    """``axis`` as an axis of a 1-D array (0); NumPy's ``AxisError`` otherwise."""
    if isinstance(axis, (builtins.bool, np.bool_)) or not isinstance(axis, (builtins.int, np.integer)):
        raise TypeError(f"axis: expected an int or None, got {type(axis).__name__}")
    if not -ndim <= axis < ndim:
        raise np.exceptions.AxisError(axis, ndim)
    return builtins.int(axis) % ndim


def _as_array(a, name):
    if isinstance(a, (pdarray, Strings)):
        return a
    if is_scalar(a):
        return array([a])
    if isinstance(a, (list, tuple, np.ndarray)):
        return array(a)
    raise TypeError(f"{name}: expected a pdarray, Strings, a scalar or a sequence, got {type(a).__name__}")


def repeat(a, repeats, axis=None):
    """Each element of ``a`` repeated ``repeats`` times in place (``numpy.repeat``): ``repeats``
    is an int, or one count per element (a sequence or an integer pdarray, or one count for
    all). ``a`` is a pdarray (bigint too), Strings, a scalar or a sequence.

    >>> import atoll as ak
    >>> ak.repeat(ak.array([1, 2, 3]), 2).tolist()
    [1, 1, 2, 2, 3, 3]
    >>> ak.repeat(ak.array([1, 2, 3]), [0, 1, 3]).tolist()
    [2, 3, 3, 3]
    >>> ak.repeat(3, 4).tolist()
    [3, 3, 3, 3]
    """
    a = _as_array(a, "a")
    if axis is not None:
        _check_axis(axis)
    n = a.size
    if is_scalar(repeats) or (isinstance(repeats, (list, tuple, np.ndarray, pdarray)) and len(repeats) == 1):
        r = repeats if is_scalar(repeats) else repeats[0]
        if not isinstance(r, (builtins.int, np.integer, np.bool_)):
            raise TypeError(f"repeats: expected integers, got {type(r).__name__}")
        r = builtins.int(r)
        if r < 0:
            raise ValueError("repeats may not contain negative values.")
        if n == 0 or r == 0:
            return a[arange(0)]
        return a[arange(n * r) // r]
    if isinstance(repeats, pdarray):
        reps = repeats
    else:
        counts = np.asarray(repeats)
        reps = array(counts if counts.size else counts.astype(np.int64))
    if reps.dtype.kind not in "iub":
        raise TypeError(f"repeats: expected integers, got dtype {reps.dtype}")
    if reps.size != n:
        raise ValueError(f"operands could not be broadcast together with shape ({n},) ({reps.size},)")
    reps = reps.astype(int64)
    if n and builtins.int(reps.min()) < 0:
        raise ValueError("repeats may not contain negative values.")
    ends = cumsum(reps)
    total = builtins.int(ends[n - 1]) if n else 0
    if total == 0:
        return a[arange(0)]
    return a[searchsorted(ends, arange(total), side="right")]


def tile(A, /, reps):
    """``A`` repeated ``reps`` times end to end (``numpy.tile`` of a 1-D array). ``reps`` is an
    int or a one-element tuple; more repetitions than one axis would make an N-d array,
    which Atoll's pdarrays are not (a ``NotImplementedError``).

    >>> import atoll as ak
    >>> ak.tile(ak.array([1, 2, 3]), 2).tolist()
    [1, 2, 3, 1, 2, 3]
    """
    A = _as_array(A, "A")
    if isinstance(reps, (tuple, list)):
        if len(reps) > 1:
            raise NotImplementedError(
                f"tile: reps {tuple(reps)} makes a {len(reps)}-D array; pdarrays are 1-D (ak.get_max_array_rank() is 1)"
            )
        reps = reps[0] if reps else 1
    if isinstance(reps, (builtins.bool, np.bool_, builtins.float, np.floating)) or not isinstance(
        reps, (builtins.int, np.integer)
    ):
        raise TypeError(f"reps: expected an int or a tuple of ints, got {type(reps).__name__}")
    r = builtins.int(reps)
    if r < 0:
        raise ValueError("negative dimensions are not allowed")
    n = A.size
    if n == 0 or r == 0:
        return A[arange(0)]
    return A[arange(n * r) % n]


__all__ = ["flip", "squeeze", "repeat", "tile"]
