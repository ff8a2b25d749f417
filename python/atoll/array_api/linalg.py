"""The linear algebra functions of the Array API namespace (and of its ``linalg`` extension)."""

from __future__ import annotations

from collections.abc import Sequence

from atoll import stats
from atoll.numpy import numeric, pdarrayclass

from .array_object import Array, _operands, _unwrap, _wrap

__all__ = ["matmul", "matrix_transpose", "tensordot", "vecdot"]

_sum = pdarrayclass.sum


def matmul(x1: Array, x2: Array, /) -> Array:
    """The matrix product of ``x1`` and ``x2`` (Atoll's ``matmul``).

    Parameters
    ----------
    x1, x2 : Array
        The factors (stacks of matrices broadcast, 1-D ones as vectors).

    Returns
    -------
    Array
        The product.

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> xp.matmul(xp.asarray([[1, 2], [3, 4]]), xp.asarray([[1], [1]])).tolist()
    [[3], [7]]
    """
    return _wrap(stats.matmul(_unwrap(x1), _unwrap(x2)))


def tensordot(x1: Array, x2: Array, /, *, axes: int | tuple[Sequence[int], Sequence[int]] = 2) -> Array:
    """The sum of products of ``x1`` and ``x2`` over the given axes (Atoll's ``tensordot``).

    Parameters
    ----------
    x1, x2 : Array
        The operands.
    axes : int or pair of sequences of int, default 2
        The number of trailing axes of ``x1`` and leading axes of ``x2`` to contract, or the
        axes of each.

    Returns
    -------
    Array
        The contraction.

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> xp.tensordot(xp.asarray([1, 2, 3]), xp.asarray([4, 5, 6]), axes=1).item()
    32
    """
    return _wrap(stats.tensordot(_unwrap(x1), _unwrap(x2), axes=axes))


def matrix_transpose(x: Array, /) -> Array:
    """``x`` with its last two axes swapped (a stack of transposed matrices).

    Parameters
    ----------
    x : Array
        An Array of at least 2 dimensions.

    Returns
    -------
    Array
        The transposed matrices.

    Raises
    ------
    ValueError
        If ``x`` has fewer than 2 dimensions.

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> xp.matrix_transpose(xp.asarray([[1, 2, 3]])).tolist()
    [[1], [2], [3]]
    """
    a = _unwrap(x)
    if a.ndim < 2:
        raise ValueError("matrix_transpose: x must have at least 2 dimensions")
    axes = list(range(a.ndim))
    axes[-2], axes[-1] = axes[-1], axes[-2]
    return _wrap(numeric.transpose(a, tuple(axes)))


def vecdot(x1: Array, x2: Array, /, *, axis: int = -1) -> Array:
    """The dot product of ``x1`` and ``x2`` along ``axis``, after broadcasting them.

    Parameters
    ----------
    x1, x2 : Array
        The vectors (broadcast together).
    axis : int, default -1
        The axis to sum the products over.

    Returns
    -------
    Array
        The sums of the products.

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> xp.vecdot(xp.asarray([[1, 2], [3, 4]]), xp.asarray([1, 1])).tolist()
    [3, 7]
    """
    a, b = _operands(x1, x2)
    return _wrap(_sum(a * b, axis=axis))
