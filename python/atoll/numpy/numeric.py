"""Elementwise functions (Arkouda's numeric): lazy, fused with the surrounding expression."""

import builtins as _b
from enum import Enum as _Enum

import numpy as np

from .. import _atoll
from . import _nd, err as _fp_err
from ._bigint import BigIntArray, is_bigint_array, to_bigint
from .dtypes import ak_dtype, bool_, float64, int64 as _i64, is_bigint, is_scalar, is_str_dtype, result, uint64 as _u64
from .pdarrayclass import _from_numpy, _full, _scalar_value, all as _all, pdarray
from .strings import Strings, concatenate as sconcat, from_list


def _check(pda):
    if not isinstance(pda, pdarray):
        raise TypeError(f"pda: expected a pdarray, got {type(pda).__name__}")
    return pda


def _float_op(op):
    def f(pda, where=True):
        _check(pda)
        r = pdarray._lazy(_atoll.unary(op, pda._cast(float64)), pda.size, pda._nodes + 2, pda._shape)
        if _fp_err._active[0]:
            _fp_err.check(op, r, pda)
        return r if where is True else _where_arg(where, r, pda.astype(float64))

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


def _to_out_shape(r, out):
    """``r`` broadcast to ``out``'s shape, as NumPy writes a ufunc's result (``out`` itself never broadcasts)."""
    if tuple(np.broadcast_shapes(tuple(r.shape), tuple(out.shape))) != tuple(out.shape):
        raise ValueError(
            f"non-broadcastable output operand with shape {out.shape} doesn't match the broadcast shape {r.shape}"
        )
    return _nd.broadcast_to(r, out.shape)


def _out_where(r, out, where, base):
    """NumPy's ``out=``/``where=`` of a ufunc: ``r`` written into ``out`` where ``where`` is
    True (``out`` returned); without ``out``, ``base`` where ``where`` is False."""
    if where is not True and where is not False and (not isinstance(where, pdarray) or where.dtype != bool_):
        raise TypeError("where: expected a bool or a bool pdarray")
    if out is None:
        return r if where is True else (base if where is False else where_fn(where, r, base))
    if not isinstance(out, pdarray):
        raise TypeError(f"out: expected a pdarray, got {type(out).__name__}")
    if out.shape != r.shape:
        r = _to_out_shape(r, out)
    if where is True:
        _nd.with_shape(out, None)[:] = _nd.with_shape(r, None)
    elif where is not False:
        _nd.with_shape(out, None)[:] = _nd.with_shape(where_fn(where, r.astype(out.dtype), out), None)
    return out


def _rounding(op):
    g = _same_op(op)

    def f(pda, out=None, *, where=True):
        _check(pda)
        return _out_where(g(pda), out, where, pda)

    f.__name__ = op
    f.__doc__ = g.__doc__ + " ``out``/``where`` as NumPy's."
    return f


floor = _rounding("floor")
ceil = _rounding("ceil")


def round(pda, decimals=None):
    """Elementwise round half to even (NumPy's ``round``): integers unchanged, bool as
    float64 (Arkouda's rule), ``decimals`` digits as NumPy (``rint(x * 10**d) / 10**d``)."""
    _check(pda)
    if decimals is not None and (isinstance(decimals, bool) or not isinstance(decimals, int)):
        raise TypeError(f"decimals: expected an int, got {type(decimals).__name__}")
    if pda.dtype == bool_:
        return pda.astype(float64)
    if pda.dtype != float64:
        return pda.copy()
    if decimals in (None, 0):
        return pda._unary("round")
    f = 10.0**decimals
    return (pda * f)._unary("round") / f


def isnan(pda):
    """Elementwise NaN test (bool)."""
    _check(pda)
    return pdarray._lazy(_atoll.unary("isnan", pda._ex()), pda.size, pda._nodes + 1, pda._shape)


def _operand(x, d, n, name):
    if isinstance(x, pdarray):
        if x.size != n:
            raise ValueError(f"{name}: size mismatch {x.size} {n}")
        return x._cast(d), x._nodes
    return _atoll.scalar(_scalar_value(x, d), d.name), 1


# The Categorical class and its ``where`` (which keeps the categories): ``where`` and ``cast``
# take Categoricals, and the Categorical sits above this module, so ``atoll.pandas.categorical``
# hands them over when it loads (``register_categorical``).
_CATEGORICAL: list = []


def register_categorical(cls, where_categorical):
    """Lets ``where`` and ``cast`` take instances of ``cls`` (the Categorical)."""
    _CATEGORICAL[:] = [cls, where_categorical]


def _categorical_type():
    """The Categorical class, or ``()`` (no class: ``isinstance`` is False) before it loads."""
    return _CATEGORICAL[0] if _CATEGORICAL else ()


def where(condition, A, B):
    """``A`` where ``condition`` is True, else ``B``: each a pdarray or a scalar (Strings or
    Categoricals for ``A`` and ``B`` together), pdarrays of one size; NumPy's result dtype.
    All three scalars: a NumPy scalar."""
    Categorical = _categorical_type()
    for name, v in (("condition", condition), ("A", A), ("B", B)):
        if isinstance(v, (list, tuple, np.ndarray)):
            raise TypeError(f"{name}: expected a pdarray or a scalar, got {type(v).__name__}")
    shape = None
    if not _b.any(isinstance(v, (Strings, Categorical)) for v in (condition, A, B)):
        (condition, A, B), shape = _broadcast(condition, A, B)
    sizes = {v.size for v in (condition, A, B) if isinstance(v, (pdarray, Strings, Categorical))}
    if len(sizes) > 1:
        raise ValueError(f"condition, A, B: sizes {sorted(sizes)} do not broadcast")
    if not sizes:
        return np.where(condition, A, B)[()]
    n = sizes.pop()
    if not isinstance(condition, pdarray):
        if not isinstance(condition, (_b.bool, np.bool_, _b.int, _b.float, np.number)):
            raise TypeError(f"condition: expected a pdarray or a bool, got {type(condition).__name__}")
        condition = _full(n, _b.bool(condition), bool_)
    elif condition.dtype != bool_:
        condition = condition != 0
    if isinstance(A, Categorical) or isinstance(B, Categorical):
        return _CATEGORICAL[1](condition, A, B)  # keeps the categories
    if isinstance(A, (Strings, str)) or isinstance(B, (Strings, str)):
        return _where_strings(condition, A, B, n)
    for name, v in (("A", A), ("B", B)):
        if not isinstance(v, pdarray) and not is_scalar(v):
            raise TypeError(f"{name}: expected a pdarray or a scalar, got {type(v).__name__}")
    if hasattr(A, "_limbs") or hasattr(B, "_limbs"):
        a = A if isinstance(A, pdarray) else _b.int(A)
        bb = B if isinstance(B, pdarray) else _b.int(B)
        a = to_bigint(a, size=n) if not hasattr(a, "_limbs") else a
        bb = to_bigint(bb, size=n) if not hasattr(bb, "_limbs") else bb
        k = _b.max(len(a._limbs), len(bb._limbs))
        return BigIntArray(
            [where(condition, x, y) for x, y in zip(a._ext(k), bb._ext(k))], _b.max(a.max_bits, bb.max_bits)
        )
    da = A.dtype if isinstance(A, pdarray) else A
    db = B.dtype if isinstance(B, pdarray) else B
    d = result(da, db)
    a, na = _operand(A, d, n, "A")
    b, nb = _operand(B, d, n, "B")
    return pdarray._lazy(_atoll.where_(condition._ex(), a, b), n, condition._nodes + na + nb + 1, shape)


def _where_strings(condition, A, B, n):
    """``where`` of Strings (a str as every element): the strings of both, gathered by index."""

    def strs(x):
        if isinstance(x, str):
            return from_list([x] * n)
        if not isinstance(x, Strings):
            raise TypeError(f"where: cannot mix strings with {type(x).__name__}")
        return x

    i = pdarray(_atoll.arange(n, 0, 1))
    return sconcat([strs(A), strs(B)])[where(condition, i, i + n)]


def clip(pda, lo, hi):
    """Elementwise ``min(max(pda, lo), hi)``; ``lo`` or ``hi`` may be None."""
    _check(pda)
    r = pda
    if lo is not None:
        r = _binary_fn(r, lo, "maximum")
    if hi is not None:
        r = _binary_fn(r, hi, "minimum")
    return r


def _broadcast(*vals):
    """``vals`` with their pdarrays broadcast to one shape (NumPy's rule), and that shape
    (None when they are 1-D of one size already, the common case: nothing to do)."""
    arrs = [v for v in vals if isinstance(v, pdarray)]
    if _b.any(is_bigint_array(v) for v in arrs):
        return vals, None  # bigint arrays are 1-D
    if not arrs or (_b.all(v._shape is None for v in arrs) and len({v.size for v in arrs}) == 1):
        return vals, None
    shape = _nd.broadcast_shapes(*[v.shape for v in arrs])
    out = tuple(_nd.broadcast_to(v, shape) if isinstance(v, pdarray) else v for v in vals)
    return out, (None if len(shape) == 1 else shape)


def _binary_fn(a, b, op):
    (a, b), shape = _broadcast(a, b)
    d = result(a.dtype, b.dtype if isinstance(b, pdarray) else b)
    y, nb = _operand(b, d, a.size, "other")
    return pdarray._lazy(
        _atoll.binary(op, a._cast(d), y), a.size, a._nodes + nb + 1, a._shape if shape is None else shape
    )


# ----- NumPy's other elementwise functions (crates/atoll-python/src/ufuncs.rs) --------------


def _fn1(f, pda, to=None, extra=2):
    x = pda._ex() if to is None or pda.dtype == to else pda._cast(to)
    r = pdarray._lazy(_atoll.ufunc1(f, x), pda.size, pda._nodes + extra, pda._shape)
    return _fp_err.check(f, r, pda) if _fp_err._active[0] else r


def _float_fn(name):
    def f(pda, where=True):
        _check(pda)
        _numeric(pda, name)
        r = _fn1(name, pda, float64)
        return r if where is True else _where_arg(where, r, pda.astype(float64))

    f.__name__ = name
    f.__doc__ = f"Elementwise {name} (float64), as NumPy's ``{name}``."
    return f


def _numeric(pda, name):
    if is_bigint_array(pda):
        raise TypeError(f"{name}: not supported for dtype bigint")


def _where_arg(where, r, otherwise):
    """NumPy's ``where=`` of a ufunc: ``r`` where True, else ``otherwise`` (the input)."""
    if where is False:
        return otherwise
    if not isinstance(where, pdarray) or where.dtype != bool_:
        raise TypeError(f"where: expected a bool or a bool pdarray, got {type(where).__name__}")
    from .numeric import where as _w

    return _w(where, r, otherwise)


tan = _float_fn("tan")
sinh = _float_fn("sinh")
cosh = _float_fn("cosh")
tanh = _float_fn("tanh")
arcsin = _float_fn("arcsin")
arccos = _float_fn("arccos")
arctan = _float_fn("arctan")
arcsinh = _float_fn("arcsinh")
arccosh = _float_fn("arccosh")
arctanh = _float_fn("arctanh")
log2 = _float_fn("log2")
log10 = _float_fn("log10")
log1p = _float_fn("log1p")
expm1 = _float_fn("expm1")
rad2deg = _float_fn("rad2deg")
deg2rad = _float_fn("deg2rad")


def trunc(pda, out=None, *, where=True):
    """Elementwise rounding toward zero (integers unchanged); ``out``/``where`` as NumPy's."""
    _check(pda)
    x = pda.astype(float64) if pda.dtype == bool_ else pda
    return _out_where(_fn1("trunc", x), out, where, x)


def fabs(pda):
    """Elementwise absolute value as float64 (NumPy's ``fabs``)."""
    _check(pda)
    return abs(pda.astype(float64))


def sign(pda):
    """Elementwise -1, 0 or 1 (NaN for NaN), in the input's dtype."""
    _check(pda)
    if pda.dtype == bool_:
        raise TypeError("sign: not supported for dtype bool")
    return _fn1("sign", pda)


def square(pda, where=True):
    """Elementwise ``x * x`` in the input's dtype."""
    _check(pda)
    r = (pda & pda) if pda.dtype == bool_ else _fn1("square", pda)
    return r if where is True else _where_arg(where, r, pda)


def isinf(pda):
    """Elementwise test for positive or negative infinity (bool)."""
    _check(pda)
    return _fn1("isinf", pda)


def isfinite(pda):
    """Elementwise test for finite values (bool)."""
    _check(pda)
    return _fn1("isfinite", pda)


def _int_fn(name):
    def f(pda):
        if is_bigint_array(pda):
            return getattr(pda, name)()
        _check(pda)
        if pda.dtype not in (_i64, _u64):
            raise TypeError(f"{name}: expected an int64 or uint64 pdarray, got {pda.dtype}")
        return _fn1(name, pda)

    f.__name__ = name
    f.__doc__ = f"Elementwise {name} of int64 or uint64 values (the input's dtype)."
    return f


popcount = _int_fn("popcount")
parity = _int_fn("parity")
clz = _int_fn("clz")
ctz = _int_fn("ctz")


def _pair(a, b, name, float_only=False):
    """``a`` and ``b`` (pdarrays or scalars, at least one a pdarray) as expressions of their
    common dtype; float64 when ``float_only``."""
    if not isinstance(a, pdarray) and not isinstance(b, pdarray):
        raise TypeError(f"{name}: expected at least one pdarray")
    for nm, v in (("x1", a), ("x2", b)):
        if not isinstance(v, pdarray) and not is_scalar(v):
            raise TypeError(f"{name}: {nm} must be a pdarray or a scalar, got {type(v).__name__}")
    (a, b), _ = _broadcast(a, b)
    n = a.size if isinstance(a, pdarray) else b.size
    da = a.dtype if isinstance(a, pdarray) else a
    db = b.dtype if isinstance(b, pdarray) else b
    d = float64 if float_only else result(da, db)
    ea, na = _operand(a, d, n, "x1")
    eb, nb = _operand(b, d, n, "x2")
    return ea, eb, n, na + nb + 1, (a if isinstance(a, pdarray) else b)._shape


def _fn2(name, a, b, float_only=False):
    ea, eb, n, nodes, shape = _pair(a, b, name, float_only)
    r = pdarray._lazy(_atoll.ufunc2(name, ea, eb), n, nodes, shape)
    return _fp_err.check(name, r, a, b) if _fp_err._active[0] else r


def arctan2(x1, x2, /, out=None, *, where=True):
    """Elementwise angle of ``(x2, x1)`` in radians (float64; pdarrays or scalars, a NumPy
    scalar for two scalars). ``out``: written in place (and returned) where ``where`` is
    True, kept elsewhere; without ``out``, elements where ``where`` is False are ``x1``'s."""
    for v in (x1, x2):
        if isinstance(v, pdarray) and v.dtype not in (_i64, _u64, float64, bool_):
            raise TypeError(f"arctan2: unsupported dtype {v.dtype}")
        if isinstance(v, (str, bytes)) or not (isinstance(v, pdarray) or is_scalar(v)):
            raise TypeError(f"arctan2: expected pdarrays or numbers, got {type(v).__name__}")
    if out is not None and not isinstance(out, pdarray):
        raise TypeError(f"out: expected a pdarray, got {type(out).__name__}")
    if not isinstance(x1, pdarray) and not isinstance(x2, pdarray):
        r = np.arctan2(np.float64(x1), np.float64(x2))
        if out is None:
            return r
        r = _nd.with_shape(_full(out.size, r, float64), out._shape)
    else:
        r = _fn2("arctan2", x1, x2, True)
    if where is not True:
        if where is not False and (not isinstance(where, pdarray) or where.dtype != bool_):
            raise TypeError("where: expected a bool or a bool pdarray")
    if out is None:
        if where is True:
            return r
        base = x1.astype(float64) if isinstance(x1, pdarray) else r * 0 + _b.float(x1)
        return base if where is False else _where_arg(where, r, base)
    if out.shape != r.shape:
        r = _to_out_shape(r, out)
    if where is True:
        _nd.with_shape(out, None)[:] = _nd.with_shape(r, None)
    elif where is not False:
        _nd.with_shape(out, None)[:] = _nd.with_shape(_where_arg(where, r, out.astype(float64)), None)
    return out


def hypot(x1, x2):
    """Elementwise ``sqrt(x1**2 + x2**2)`` without overflow (float64)."""
    return _fn2("hypot", x1, x2, True)


def nextafter(x1, x2):
    """Elementwise next float64 after ``x1`` toward ``x2`` (a NumPy scalar for two scalars)."""
    if not isinstance(x1, pdarray) and not isinstance(x2, pdarray):
        return np.nextafter(np.float64(x1), np.float64(x2))
    return _fn2("nextafter", x1, x2, True)


def fmod(x1, x2):
    """Elementwise C remainder (the dividend's sign; NumPy's ``fmod``)."""
    for v in (x1, x2):
        if isinstance(v, pdarray) and v.dtype == bool_:
            raise TypeError("fmod: not supported for dtype bool")
    return _fn2("fmod", x1, x2)


def _rot(name, x, r):
    if isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_)) and isinstance(r, pdarray):
        # A scalar rotated by each element: the scalar's int64 (uint64 beyond int64's range)
        # repeated to the rotations' size.
        v = int(x)
        if not -(2**63) <= v < 2**64:
            raise TypeError(f"{name}: the scalar {v} fits neither int64 nor uint64")
        x = _nd.with_shape(_full(r.size, v, _i64 if v < 2**63 else _u64), r._shape)
    if is_bigint_array(x):
        return getattr(x, name)(r)
    if not isinstance(x, pdarray) or x.dtype not in (_i64, _u64):
        raise TypeError(f"{name}: expected an int64 or uint64 pdarray")
    if is_bigint_array(r):
        r = r.astype(x.dtype)  # the rotation modulo 64: the low limb suffices
    if isinstance(r, pdarray):
        (x, r), _ = _broadcast(x, r)
        return pdarray._lazy(_atoll.ufunc2(name, x._ex(), r._cast(x.dtype)), x.size, x._nodes + r._nodes + 2, x._shape)

    s = _atoll.scalar(_scalar_value(r, x.dtype), x.dtype.name)
    return pdarray._lazy(_atoll.ufunc2(name, x._ex(), s), x.size, x._nodes + 2, x._shape)


def rotl(x, rot):
    """Rotates the bits of each element left by ``rot``."""
    return _rot("rotl", x, rot)


def rotr(x, rot):
    """Rotates the bits of each element right by ``rot``."""
    return _rot("rotr", x, rot)


def minimum(x1, x2):
    """Elementwise minimum (NaN propagates)."""
    if not isinstance(x1, pdarray):
        x1, x2 = x2, x1
    _check(x1)
    return _binary_fn(x1, x2, "minimum")


def maximum(x1, x2):
    """Elementwise maximum (NaN propagates)."""
    if not isinstance(x1, pdarray):
        x1, x2 = x2, x1
    _check(x1)
    return _binary_fn(x1, x2, "maximum")


def power(pda, pwr, where=True):
    """``pda ** pwr`` (NumPy's rules), where ``where`` is True, else ``pda``."""
    r = pda**pwr
    return r if where is True else _where_arg(where, r, pda.astype(r.dtype))


def mod(x1, x2):
    """``x1 % x2`` (the divisor's sign)."""
    return x1 % x2


remainder = mod


def divmod(x1, x2):  # noqa: A001
    """``(x1 // x2, x1 % x2)``."""
    return x1 // x2, x1 % x2


def _as_float(x, name):
    """``x`` (a pdarray or a real scalar) in float64: a pdarray, or a Python float."""
    if isinstance(x, pdarray):
        if is_bigint_array(x):
            return x.astype(float64)
        return x if x.dtype == float64 else x.astype(float64)
    if is_scalar(x):
        return _b.float(x)
    raise TypeError(f"{name}: expected a pdarray or a real scalar, got {type(x).__name__}")


def _is_nan(x):
    return isnan(x) if isinstance(x, pdarray) else np.isnan(x)


def _is_finite(x):
    return isfinite(x) if isinstance(x, pdarray) else np.isfinite(x)


def _magnitude(x):
    return abs(x) if isinstance(x, pdarray) else _b.abs(x)


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Elementwise ``|a - b| <= atol + rtol * |b|`` where ``b`` is finite, or ``a == b`` (equal
    infinities), as NumPy's ``isclose`` (in float64); NaN is close to NaN only with
    ``equal_nan``. Two scalars: a NumPy bool."""
    x, y = _as_float(a, "a"), _as_float(b, "b")
    if not isinstance(x, pdarray) and not isinstance(y, pdarray):
        return np.isclose(x, y, rtol=rtol, atol=atol, equal_nan=equal_nan)
    with _fp_err.quiet():  # |inf - inf| is NaN here, not the caller's invalid operation
        close = ((_magnitude(x - y) <= atol + rtol * _magnitude(y)) & _is_finite(y)) | (x == y)
    if equal_nan:
        close = close | (_is_nan(x) & _is_nan(y))
    return close


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """True when every element is close (``isclose``), as NumPy's ``allclose``."""
    close = isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)
    return _b.bool(_all(close) if isinstance(close, pdarray) else close)


def array_equal(pda_a, pda_b, equal_nan=False):
    """True when both have the same shape and equal elements (NaN equal to NaN with
    ``equal_nan``)."""

    if isinstance(pda_a, Strings) or isinstance(pda_b, Strings):
        return type(pda_a) is type(pda_b) and pda_a.size == pda_b.size and _b.bool(_all(pda_a == pda_b))
    if not isinstance(pda_a, pdarray) or not isinstance(pda_b, pdarray):
        return False
    if pda_a.shape != pda_b.shape:
        return False
    if pda_a.size == 0:
        return True
    eq = pda_a == pda_b
    if equal_nan and float64 in (pda_a.dtype, pda_b.dtype):
        eq = eq | (isnan(pda_a.astype(float64)) & isnan(pda_b.astype(float64)))
    return _b.bool(_all(eq))


class ErrorMode(_Enum):
    """How ``cast`` of Strings to numbers treats a string that does not parse."""

    strict = "strict"
    ignore = "ignore"
    return_validity = "return_validity"


def _str_of_values(a):
    """The str of each element, as NumPy's ``astype(str)`` (floats in Python's repr)."""
    if a.dtype.kind == "f":
        return [repr(float(x)) if np.isfinite(x) else str(x) for x in a.tolist()]
    if a.dtype.kind == "b":
        return ["True" if x else "False" for x in a.tolist()]
    return [str(x) for x in a.tolist()]


def cast(pda, dt, errors=ErrorMode.strict):
    """``pda`` (a pdarray, Strings or Categorical) converted to ``dt``: numbers between any
    two dtypes (NumPy's ``astype``), numbers to Strings, Strings to numbers (a string that
    does not parse raises ValueError, or gives NaN/0 with ``errors=ErrorMode.ignore``, or also
    a validity mask with ``ErrorMode.return_validity``), Strings to Categorical, and
    Categorical to Strings. Conversions to and from Strings run on the driver (the values are
    gathered, converted, and distributed again)."""
    Categorical = _categorical_type()
    if isinstance(errors, str):
        errors = ErrorMode(errors)
    to_str = dt is Strings or (not is_bigint(dt) and dt != "Categorical" and dt is not Categorical and is_str_dtype(dt))
    if isinstance(pda, pdarray):
        if to_str:
            return from_list(
                _str_of_values(pda.to_ndarray()) if not is_bigint_array(pda) else [str(x) for x in pda.tolist()]
            )
        if is_bigint(dt):
            return to_bigint(pda)
        if is_bigint_array(pda):
            return pda.astype(dt)
        return pda.astype(ak_dtype(dt))
    if isinstance(pda, Strings):
        if dt is Categorical or dt == "Categorical":
            return Categorical(pda)
        if to_str:
            return pda[:]
        d = ak_dtype(dt)
        vals = pda.to_list()
        out, ok = _parse_strings(vals, d, errors)
        r = _from_numpy(np.array(out, dtype=d)) if not is_bigint(d) else to_bigint(list(out), -1)
        if errors == ErrorMode.return_validity:
            return r, _from_numpy(np.array(ok, dtype=bool))
        return r
    if isinstance(pda, Categorical):
        if to_str or dt in ("Strings", "str"):
            return pda.categories[pda.codes]
        raise ValueError("Categoricals can only be casted to Strings")
    raise TypeError("pda must be a pdarray, Strings, or Categorical object")


def _parse_strings(vals, d, errors):
    out, ok = [], []
    for s in vals:
        try:
            t = s.strip()
            if is_bigint(d):
                v = _b.int(t, 0) if t[:2].lower() in ("0x", "0b", "0o") else _b.int(t)
            elif d.kind == "b":
                low = t.lower()
                if low not in ("true", "false"):
                    raise ValueError(s)
                v = low == "true"
            elif d.kind in "iu":
                v = _b.int(t, 0) if t[:2].lower() in ("0x", "0b", "0o") else _b.int(t)
                info = np.iinfo(d)
                if d.itemsize == 1 and -(2**63) <= v < 2**64:
                    v %= 256  # uint8: a 64-bit value wraps, as a number's cast does
                elif not info.min <= v <= info.max:
                    raise ValueError(s)
            else:
                v = _b.float(t)
            out.append(v)
            ok.append(True)
        except (ValueError, TypeError):
            if errors == ErrorMode.strict:
                # Arkouda's error for a string that does not parse in strict mode.
                raise RuntimeError(f"cast: could not convert string {s!r} to {getattr(d, 'name', d)}") from None
            kind = getattr(d, "kind", "")
            # Arkouda's "missing" values: NaN, the smallest int64, 0 for uint64, False.
            out.append(np.nan if kind == "f" else (-(2**63) if kind == "i" else (False if kind == "b" else 0)))
            ok.append(False)
    return out, ok


where_fn = where


def transpose(pda, axes=None):
    """``pda`` with its axes reversed, or permuted as ``axes`` says (a 1-D array is its own
    transpose)."""
    _check(pda)
    return _nd.transpose(pda, axes)
