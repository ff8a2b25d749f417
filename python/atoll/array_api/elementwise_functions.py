"""The element-wise functions of the Array API namespace: Atoll's ufuncs and pdarray operators
(which broadcast) under the standard's names."""

import operator

import numpy as np

import atoll as ak

from .array_object import _operands, _unwrap, _wrap

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


def _unary(fn, name, doc):
    def f(x, /):
        return _wrap(fn(_unwrap(x)))

    f.__name__ = f.__qualname__ = name
    f.__doc__ = doc
    return f


def _binary(fn, name, doc):
    def f(x1, x2, /):
        return _wrap(fn(*_operands(x1, x2)))

    f.__name__ = f.__qualname__ = name
    f.__doc__ = doc
    return f


abs = _unary(ak.abs, "abs", "The absolute value of each element.")
acos = _unary(ak.arccos, "acos", "The inverse cosine of each element.")
acosh = _unary(ak.arccosh, "acosh", "The inverse hyperbolic cosine of each element.")
asin = _unary(ak.arcsin, "asin", "The inverse sine of each element.")
asinh = _unary(ak.arcsinh, "asinh", "The inverse hyperbolic sine of each element.")
atan = _unary(ak.arctan, "atan", "The inverse tangent of each element.")
atanh = _unary(ak.arctanh, "atanh", "The inverse hyperbolic tangent of each element.")
bitwise_invert = _unary(operator.invert, "bitwise_invert", "The bitwise inversion of each element (NOT for bools).")
ceil = _unary(ak.ceil, "ceil", "The smallest integral value not below each element.")
cos = _unary(ak.cos, "cos", "The cosine of each element.")
cosh = _unary(ak.cosh, "cosh", "The hyperbolic cosine of each element.")
exp = _unary(ak.exp, "exp", "e raised to each element.")
expm1 = _unary(ak.expm1, "expm1", "``exp(x) - 1`` of each element, exact near 0.")
floor = _unary(ak.floor, "floor", "The largest integral value not above each element.")
isfinite = _unary(ak.isfinite, "isfinite", "Whether each element is finite.")
isinf = _unary(ak.isinf, "isinf", "Whether each element is infinite.")
isnan = _unary(ak.isnan, "isnan", "Whether each element is NaN.")
log = _unary(ak.log, "log", "The natural logarithm of each element.")
log1p = _unary(ak.log1p, "log1p", "``log(1 + x)`` of each element, exact near 0.")
log2 = _unary(ak.log2, "log2", "The base-2 logarithm of each element.")
log10 = _unary(ak.log10, "log10", "The base-10 logarithm of each element.")
negative = _unary(operator.neg, "negative", "The negation of each element.")
positive = _unary(operator.pos, "positive", "Each element as it is (a new Array).")
round = _unary(ak.round, "round", "Each element rounded to the nearest integral value (halves to even).")
sign = _unary(ak.sign, "sign", "The sign of each element: -1, 0 or 1.")
sin = _unary(ak.sin, "sin", "The sine of each element.")
sinh = _unary(ak.sinh, "sinh", "The hyperbolic sine of each element.")
sqrt = _unary(ak.sqrt, "sqrt", "The square root of each element.")
square = _unary(ak.square, "square", "The square of each element.")
tan = _unary(ak.tan, "tan", "The tangent of each element.")
tanh = _unary(ak.tanh, "tanh", "The hyperbolic tangent of each element.")
trunc = _unary(ak.trunc, "trunc", "Each element rounded toward zero.")

add = _binary(operator.add, "add", "The sum of each pair of elements (broadcast).")
atan2 = _binary(ak.arctan2, "atan2", "The inverse tangent of ``x1 / x2`` with the quadrant of ``(x2, x1)``.")
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
maximum = _binary(ak.maximum, "maximum", "The larger of each pair of elements (NaN if either is NaN).")
minimum = _binary(ak.minimum, "minimum", "The smaller of each pair of elements (NaN if either is NaN).")
hypot = _binary(ak.hypot, "hypot", "``sqrt(x1**2 + x2**2)`` of each pair, without overflow.")
nextafter = _binary(ak.nextafter, "nextafter", "The next float after each ``x1`` toward ``x2``.")


def _as_bool(x):
    x = _unwrap(x)
    if isinstance(x, ak.pdarray):
        return x if x.dtype == np.bool_ else x != 0
    return np.bool_(x)


def logical_and(x1, x2, /):
    """Whether both elements of each pair are true (nonzero)."""
    return _wrap(operator.and_(*_operands(_as_bool(x1), _as_bool(x2))))


def logical_or(x1, x2, /):
    """Whether either element of each pair is true (nonzero)."""
    return _wrap(operator.or_(*_operands(_as_bool(x1), _as_bool(x2))))


def logical_xor(x1, x2, /):
    """Whether exactly one element of each pair is true (nonzero)."""
    return _wrap(operator.xor(*_operands(_as_bool(x1), _as_bool(x2))))


def logical_not(x, /):
    """Whether each element is false (zero)."""
    return _wrap(~_as_bool(x))


def logaddexp(x1, x2, /):
    """``log(exp(x1) + exp(x2))`` of each pair, without overflow: the larger plus
    ``log1p(exp(-|x1 - x2|))`` (equal infinities give themselves)."""
    a, b = _operands(x1, x2)
    hi = ak.maximum(a, b)
    lo = ak.minimum(a, b)
    same = a == b
    gap = ak.where(same, 0.0, lo - hi)
    return _wrap(ak.where(same, hi + np.log(2.0), hi + ak.log1p(ak.exp(gap))))
