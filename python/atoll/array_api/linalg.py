"""The linear algebra functions of the Array API namespace (and of its ``linalg`` extension)."""

import atoll as ak

from .array_object import _operands, _unwrap, _wrap

__all__ = ["matmul", "matrix_transpose", "tensordot", "vecdot"]


def matmul(x1, x2, /):
    """The matrix product of ``x1`` and ``x2`` (Atoll's ``matmul``)."""
    return _wrap(ak.matmul(_unwrap(x1), _unwrap(x2)))


def tensordot(x1, x2, /, *, axes=2):
    """The sum of products of ``x1`` and ``x2`` over the given axes (Atoll's ``tensordot``)."""
    return _wrap(ak.tensordot(_unwrap(x1), _unwrap(x2), axes=axes))


def matrix_transpose(x, /):
    """``x`` with its last two axes swapped (a stack of transposed matrices)."""
    a = _unwrap(x)
    if a.ndim < 2:
        raise ValueError("matrix_transpose: x must have at least 2 dimensions")
    axes = list(range(a.ndim))
    axes[-2], axes[-1] = axes[-1], axes[-2]
    return _wrap(ak.transpose(a, tuple(axes)))


def vecdot(x1, x2, /, *, axis=-1):
    """The dot product of ``x1`` and ``x2`` along ``axis`` (after broadcasting them): the sum of
    their products over that axis."""
    a, b = _operands(x1, x2)
    return _wrap(ak.sum(a * b, axis=axis))
