"""Arkouda's ``arkouda.numpy.util`` helpers that scripts and tests use."""

import builtins
import math

from ..pandas._concat import generic_concat
from .pdarrayclass import pdarray

concatenate = generic_concat


def _infer_shape_from_size(size):
    """``(shape, ndim, full_size)`` of an int or a tuple ``size``."""
    if isinstance(size, (builtins.int,)) or hasattr(size, "__index__"):
        return builtins.int(size), 1, builtins.int(size)
    shape = tuple(builtins.int(s) for s in size)
    return shape, len(shape), math.prod(shape)


def _generate_test_shape(rank, size):
    """A shape of ``rank`` dimensions (the first ``rank - 1`` of 2) whose product is close to
    ``size``, and that product."""
    if rank == 1:
        return (size,), size
    last = builtins.max(2, size // 2 ** (rank - 1))
    shape = (2,) * (rank - 1) + (last,)
    return shape, math.prod(shape)


def is_numeric(arry):
    return isinstance(arry, pdarray) and arry.dtype.kind in "iuf"


def is_float(arry):
    return isinstance(arry, pdarray) and arry.dtype.kind == "f"


def is_int(arry):
    return isinstance(arry, pdarray) and arry.dtype.kind in "iu"
