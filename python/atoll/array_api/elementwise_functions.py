"""The element-wise functions of the Array API namespace.

Atoll's ufuncs and pdarray operators (which broadcast) under the standard's names.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import numpy as np

from atoll.numpy import numeric
from atoll.numpy.pdarrayclass import pdarray

from .array_object import Array, _operands, _unwrap, _wrap

__all__ = [
    "abs",
    "acos",
    "acosh",
    "add",
    "asin",
    "asinh",
    "atan",
    "atan2",
    "atanh",
    "bitwise_and",
    "bitwise_invert",
    "bitwise_left_shift",
    "bitwise_or",
    "bitwise_right_shift",
    "bitwise_xor",
    "ceil",
    "cos",
    "cosh",
    "divide",
    "equal",
    "exp",
    "expm1",
    "floor",
    "floor_divide",
    "greater",
    "greater_equal",
    "hypot",
    "isfinite",
    "isinf",
    "isnan",
    "less",
    "less_equal",
    "log",
    "log10",
    "log1p",
    "log2",
    "logaddexp",
    "logical_and",
    "logical_not",
    "logical_or",
    "logical_xor",
    "maximum",
    "minimum",
    "multiply",
    "negative",
    "nextafter",
    "not_equal",
    "positive",
    "pow",
    "remainder",
    "round",
    "sign",
    "sin",
    "sinh",
    "sqrt",
    "square",
    "subtract",
    "tan",
    "tanh",
    "trunc",
]


def _unary(fn: Callable[[Any], Any], name: str, doc: str) -> Callable[[object], Array]:
    """The function ``name``: ``fn`` of the operand, as an Array."""

    def f(x: object, /) -> Array:
        return _wrap(fn(_unwrap(x)))

    f.__name__ = f.__qualname__ = name
    f.__doc__ = doc
    return f


def _binary(fn: Callable[[Any, Any], Any], name: str, doc: str) -> Callable[[object, object], Array]:
    """The function ``name``: ``fn`` of the two operands (broadcast), as an Array."""

    def f(x1: object, x2: object, /) -> Array:
        return _wrap(fn(*_operands(x1, x2)))

    f.__name__ = f.__qualname__ = name
    f.__doc__ = doc
    return f


abs = _unary(numeric.abs, "abs", "The absolute value of each element.")
acos = _unary(numeric.arccos, "acos", "The inverse cosine of each element.")
acosh = _unary(numeric.arccosh, "acosh", "The inverse hyperbolic cosine of each element.")
asin = _unary(numeric.arcsin, "asin", "The inverse sine of each element.")
asinh = _unary(numeric.arcsinh, "asinh", "The inverse hyperbolic sine of each element.")
atan = _unary(numeric.arctan, "atan", "The inverse tangent of each element.")
atanh = _unary(numeric.arctanh, "atanh", "The inverse hyperbolic tangent of each element.")
bitwise_invert = _unary(operator.invert, "bitwise_invert", "The bitwise inversion of each element (NOT for bools).")
ceil = _unary(numeric.ceil, "ceil", "The smallest integral value not below each element.")
cos = _unary(numeric.cos, "cos", "The cosine of each element.")
cosh = _unary(numeric.cosh, "cosh", "The hyperbolic cosine of each element.")
exp = _unary(numeric.exp, "exp", "e raised to each element.")
expm1 = _unary(numeric.expm1, "expm1", "``exp(x) - 1`` of each element, exact near 0.")
floor = _unary(numeric.floor, "floor", "The largest integral value not above each element.")
isfinite = _unary(numeric.isfinite, "isfinite", "Whether each element is finite.")
isinf = _unary(numeric.isinf, "isinf", "Whether each element is infinite.")
isnan = _unary(numeric.isnan, "isnan", "Whether each element is NaN.")
log = _unary(numeric.log, "log", "The natural logarithm of each element.")
log1p = _unary(numeric.log1p, "log1p", "``log(1 + x)`` of each element, exact near 0.")
log2 = _unary(numeric.log2, "log2", "The base-2 logarithm of each element.")
log10 = _unary(numeric.log10, "log10", "The base-10 logarithm of each element.")
negative = _unary(operator.neg, "negative", "The negation of each element.")
positive = _unary(operator.pos, "positive", "Each element as it is (a new Array).")
round = _unary(numeric.round, "round", "Each element rounded to the nearest integral value (halves to even).")
sign = _unary(numeric.sign, "sign", "The sign of each element: -1, 0 or 1.")
sin = _unary(numeric.sin, "sin", "The sine of each element.")
sinh = _unary(numeric.sinh, "sinh", "The hyperbolic sine of each element.")
sqrt = _unary(numeric.sqrt, "sqrt", "The square root of each element.")
square = _unary(numeric.square, "square", "The square of each element.")
tan = _unary(numeric.tan, "tan", "The tangent of each element.")
tanh = _unary(numeric.tanh, "tanh", "The hyperbolic tangent of each element.")
trunc = _unary(numeric.trunc, "trunc", "Each element rounded toward zero.")

add = _binary(operator.add, "add", "The sum of each pair of elements (broadcast).")
atan2 = _binary(numeric.arctan2, "atan2", "The inverse tangent of ``x1 / x2`` with the quadrant of ``(x2, x1)``.")
bitwise_and = _binary(operator.and_, "bitwise_and", "The bitwise AND of each pair of elements.")
bitwise_left_shift = _binary(operator.lshift, "bitwise_left_shift", "Each ``x1`` shifted left by ``x2`` bits.")
bitwise_or = _binary(operator.or_, "bitwise_or", "The bitwise OR of each pair of elements.")
bitwise_right_shift = _binary(operator.rshift, "bitwise_right_shift", "Each ``x1`` shifted right by ``x2`` bits.")
bitwise_xor = _binary(operator.xor, "bitwise_xor", "The bitwise XOR of each pair of elements.")
divide = _binary(operator.truediv, "divide", "The true quotient of each pair of elements.")
equal = _binary(operator.eq, "equal", "Whether each pair of elements is equal.")
floor_divide = _binary(operator.floordiv, "floor_divide", "The floor of the quotient of each pair of elements.")
greater = _binary(operator.gt, "greater", "Whether each ``x1`` is greater than ``x2``.")
greater_equal = _binary(operator.ge, "greater_equal", "Whether each ``x1`` is at least ``x2``.")
less = _binary(operator.lt, "less", "Whether each ``x1`` is less than ``x2``.")
less_equal = _binary(operator.le, "less_equal", "Whether each ``x1`` is at most ``x2``.")
multiply = _binary(operator.mul, "multiply", "The product of each pair of elements.")
not_equal = _binary(operator.ne, "not_equal", "Whether each pair of elements differs.")
pow = _binary(operator.pow, "pow", "Each ``x1`` raised to ``x2``.")
remainder = _binary(operator.mod, "remainder", "The remainder of each division, with the divisor's sign.")
subtract = _binary(operator.sub, "subtract", "The difference of each pair of elements.")
maximum = _binary(numeric.maximum, "maximum", "The larger of each pair of elements (NaN if either is NaN).")
minimum = _binary(numeric.minimum, "minimum", "The smaller of each pair of elements (NaN if either is NaN).")
hypot = _binary(numeric.hypot, "hypot", "``sqrt(x1**2 + x2**2)`` of each pair, without overflow.")
nextafter = _binary(numeric.nextafter, "nextafter", "The next float after each ``x1`` toward ``x2``.")


def _as_bool(x: object) -> Any:  # noqa: ANN401 (a bool pdarray, whose operators mypy cannot see, or np.bool_)
    x = _unwrap(x)
    if isinstance(x, pdarray):
        return x if x.dtype == np.bool_ else x != 0
    return np.bool_(x)


def logical_and(x1: object, x2: object, /) -> Array:
    """Whether both elements of each pair are true (nonzero).

    Parameters
    ----------
    x1, x2 : Array or scalar
        The operands (broadcast together).

    Returns
    -------
    Array
        A bool Array.

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> xp.logical_and(xp.asarray([True, True, False]), xp.asarray([True, False, False])).tolist()
    [True, False, False]
    """
    return _wrap(operator.and_(*_operands(_as_bool(x1), _as_bool(x2))))


def logical_or(x1: object, x2: object, /) -> Array:
    """Whether either element of each pair is true (nonzero).

    Parameters
    ----------
    x1, x2 : Array or scalar
        The operands (broadcast together).

    Returns
    -------
    Array
        A bool Array.

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> xp.logical_or(xp.asarray([0, 2, 0]), xp.asarray([0, 0, 3])).tolist()
    [False, True, True]
    """
    return _wrap(operator.or_(*_operands(_as_bool(x1), _as_bool(x2))))


def logical_xor(x1: object, x2: object, /) -> Array:
    """Whether exactly one element of each pair is true (nonzero).

    Parameters
    ----------
    x1, x2 : Array or scalar
        The operands (broadcast together).

    Returns
    -------
    Array
        A bool Array.

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> xp.logical_xor(xp.asarray([True, True]), True).tolist()
    [False, False]
    """
    return _wrap(operator.xor(*_operands(_as_bool(x1), _as_bool(x2))))


def logical_not(x: object, /) -> Array:
    """Whether each element is false (zero).

    Parameters
    ----------
    x : Array or scalar
        The operand.

    Returns
    -------
    Array
        A bool Array.

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> xp.logical_not(xp.asarray([0, 1, 2])).tolist()
    [True, False, False]
    """
    return _wrap(~_as_bool(x))


def logaddexp(x1: object, x2: object, /) -> Array:
    """``log(exp(x1) + exp(x2))`` of each pair, without overflow.

    The larger plus ``log1p(exp(-|x1 - x2|))`` (equal infinities give themselves).

    Parameters
    ----------
    x1, x2 : Array or scalar
        The operands (broadcast together).

    Returns
    -------
    Array
        A float Array.

    Examples
    --------
    >>> import numpy as np
    >>> import atoll.array_api as xp
    >>> bool(xp.logaddexp(xp.asarray([1000.0]), 1000.0)[0] == 1000.0 + np.log(2.0))
    True
    """
    a, b = _operands(x1, x2)
    hi = numeric.maximum(a, b)
    lo = numeric.minimum(a, b)
    same = a == b
    gap = numeric.where(same, 0.0, lo - hi)
    return _wrap(numeric.where(same, hi + np.log(2.0), hi + numeric.log1p(numeric.exp(gap))))
