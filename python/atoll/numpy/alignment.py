"""Arkouda's ``arkouda.numpy.alignment`` (the parts about sorted key arrays)."""

import builtins

from ..pdarrayclass import pdarray


class NonUniqueError(ValueError):
    """Keys that must be unique are not."""


def is_cosorted(arrays):
    """True when the rows of ``arrays`` (pdarrays of one length, the first most significant)
    are in lexicographic order."""
    if not isinstance(arrays, (list, tuple)) or not builtins.all(isinstance(a, pdarray) for a in arrays):
        raise TypeError("Input must be a list-like of pdarrays")
    if len({a.size for a in arrays}) > 1:
        raise ValueError("Arrays must all be same length")
    if not arrays or not builtins.bool(arrays[0].is_sorted()):
        return bool(arrays)
    n = arrays[0].size
    if n < 2:
        return True
    boundary = arrays[0][: n - 1] != arrays[0][1:]
    for a in arrays[1:]:
        left, right = a[: n - 1], a[1:]
        if not builtins.bool(((left <= right) | boundary).all()):
            return False
        boundary = (boundary | (left != right))._materialize()
    return True


__all__ = ["NonUniqueError", "is_cosorted"]
