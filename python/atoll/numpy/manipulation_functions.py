"""Arkouda's ``arkouda.numpy.manipulation_functions`` for 1-D arrays."""

from .pdarrayclass import pdarray
from .strings import Strings


def flip(x, axis=None):
    """The elements of ``x`` (a pdarray or Strings) in reverse order."""

    if axis not in (None, 0, -1, (0,)):
        raise ValueError(f"axis: 1-D arrays have only axis 0, got {axis!r}")
    if isinstance(x, pdarray):
        return x[::-1]
    if isinstance(x, Strings):
        return x[::-1]
    raise TypeError(f"x: expected a pdarray or Strings, got {type(x).__name__}")


def squeeze(x, axis=None):
    """1-D arrays have no axis of length one to remove: ``x`` itself."""
    return x


__all__ = ["flip", "squeeze"]
