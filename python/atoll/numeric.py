"""Elementwise functions (Arkouda's numeric): lazy, fused with the surrounding expression."""

from . import _atoll
from .dtypes import bool_, float64, is_scalar, result
from .pdarrayclass import pdarray, _scalar_value


def _check(pda):
    if not isinstance(pda, pdarray):
        raise TypeError(f"pda: expected a pdarray, got {type(pda).__name__}")
    return pda


def _float_op(op):
    def f(pda):
        _check(pda)
        return pdarray._lazy(_atoll.unary(op, pda._cast(float64)), pda.size, pda._nodes + 2)

    f.__name__ = op
    f.__doc__ = f"Elementwise {op} (float64)."
    return f


log = _float_op("log")
exp = _float_op("exp")
sqrt = _float_op("sqrt")
sin = _float_op("sin")
cos = _float_op("cos")


def _same_op(op):
    def f(pda):
        _check(pda)
        if pda.dtype == bool_ and op in ("floor", "ceil"):
            pda = pda.astype(float64)
        return pda._unary(op)

    f.__name__ = op
    f.__doc__ = f"Elementwise {op} (the input's dtype)."
    return f


abs = _same_op("abs")
floor = _same_op("floor")
ceil = _same_op("ceil")


def round(pda, decimals=None):
    """Elementwise round half to even (NumPy's ``round``)."""
    if decimals not in (None, 0):
        raise ValueError(f"decimals: only 0 is supported, got {decimals!r}")
    return _check(pda)._unary("round")


def isnan(pda):
    """Elementwise NaN test (bool)."""
    _check(pda)
    return pdarray._lazy(_atoll.unary("isnan", pda._ex()), pda.size, pda._nodes + 1)


def _operand(x, d, n, name):
    if isinstance(x, pdarray):
        if x.size != n:
            raise ValueError(f"{name}: size mismatch {x.size} {n}")
        return x._cast(d), x._nodes
    return _atoll.scalar(_scalar_value(x, d), d.name), 1


def where(condition, A, B):
    """``A`` where ``condition`` is True, else ``B`` (pdarrays or scalars)."""
    if not isinstance(A, pdarray) and not isinstance(B, pdarray) and hasattr(A if hasattr(A, "codes") else B, "codes"):
        from .pandas.categorical import where as _cat_where  # a Categorical on either side

        return _cat_where(condition, A, B)
    _check(condition) if not isinstance(condition, pdarray) else None
    if condition.dtype != bool_:
        condition = condition != 0
    n = condition.size
    for name, v in (("A", A), ("B", B)):
        if not isinstance(v, pdarray) and not is_scalar(v):
            raise TypeError(f"{name}: expected a pdarray or a scalar, got {type(v).__name__}")
    da = A.dtype if isinstance(A, pdarray) else A
    db = B.dtype if isinstance(B, pdarray) else B
    d = result(da, db)
    a, na = _operand(A, d, n, "A")
    b, nb = _operand(B, d, n, "B")
    return pdarray._lazy(_atoll.where_(condition._ex(), a, b), n, condition._nodes + na + nb + 1)


def clip(pda, lo, hi):
    """Elementwise ``min(max(pda, lo), hi)``; ``lo`` or ``hi`` may be None."""
    _check(pda)
    r = pda
    if lo is not None:
        r = _binary_fn(r, lo, "maximum")
    if hi is not None:
        r = _binary_fn(r, hi, "minimum")
    return r


def _binary_fn(a, b, op):
    d = result(a.dtype, b.dtype if isinstance(b, pdarray) else b)
    y, nb = _operand(b, d, a.size, "other")
    return pdarray._lazy(_atoll.binary(op, a._cast(d), y), a.size, a._nodes + nb + 1)
