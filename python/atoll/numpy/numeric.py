"""Elementwise functions (Arkouda's numeric): lazy, fused with the surrounding expression."""

from __future__ import annotations

import builtins as _b
from collections.abc import Callable
from enum import Enum as _Enum
from typing import Any

import numpy as np

from .. import _atoll
from . import _nd, err as _fp_err
from ._bigint import BigIntArray, is_bigint_array, to_bigint
from .dtypes import ak_dtype, bool_, float64, int64 as _i64, is_bigint, is_scalar, is_str_dtype, result, uint64 as _u64
from .pdarrayclass import _from_numpy, _full, _scalar_value, all as _all, pdarray
from .strings import Strings, concatenate as sconcat, from_list


def _check(pda: object) -> pdarray:
    if not isinstance(pda, pdarray):
        raise TypeError(f"pda: expected a pdarray, got {type(pda).__name__}")
    return pda


def _float_op(op: str) -> Callable[..., pdarray]:
    def f(pda: pdarray, where: Any = True) -> pdarray:  # noqa: ANN401 (a bool or a bool pdarray)
        _check(pda)
        r = pdarray._lazy(_atoll.unary(op, pda._cast(float64)), pda.size, pda._nodes + 2, pda._shape)
        if _fp_err._active[0]:
            _fp_err.check(op, r, pda)
        out: pdarray = r if where is True else _where_arg(where, r, pda.astype(float64))
        return out

    f.__name__ = op
    f.__doc__ = f"Elementwise {op} (float64)."
    return f


log = _float_op("log")
exp = _float_op("exp")
sqrt = _float_op("sqrt")
sin = _float_op("sin")
cos = _float_op("cos")


def _same_op(op: str) -> Callable[[pdarray], pdarray]:
    def f(pda: pdarray) -> pdarray:
        _check(pda)
        if pda.dtype == bool_ and op in ("floor", "ceil"):
            pda = pda.astype(float64)
        out: pdarray = pda._unary(op)
        return out

    f.__name__ = op
    f.__doc__ = f"Elementwise {op} (the input's dtype)."
    return f


abs = _same_op("abs")


def _to_out_shape(r: pdarray, out: pdarray) -> pdarray:
    """``r`` broadcast to ``out``'s shape, as NumPy writes a ufunc's result (``out`` itself never broadcasts)."""
    if tuple(np.broadcast_shapes(tuple(r.shape), tuple(out.shape))) != tuple(out.shape):
        raise ValueError(
            f"non-broadcastable output operand with shape {out.shape} doesn't match the broadcast shape {r.shape}"
        )
    shaped: pdarray = _nd.broadcast_to(r, out.shape)
    return shaped


def _out_where(r: pdarray, out: object, where: object, base: pdarray) -> pdarray:
    """NumPy's ``out=``/``where=`` of a ufunc.

    ``r`` written into ``out`` where ``where`` is True (``out`` returned); without ``out``,
    ``base`` where ``where`` is False.
    """
    if where is not True and where is not False and (not isinstance(where, pdarray) or where.dtype != bool_):
        raise TypeError("where: expected a bool or a bool pdarray")
    if out is None:
        res: pdarray = r if where is True else (base if where is False else where_fn(where, r, base))
        return res
    if not isinstance(out, pdarray):
        raise TypeError(f"out: expected a pdarray, got {type(out).__name__}")
    if out.shape != r.shape:
        r = _to_out_shape(r, out)
    if where is True:
        _nd.with_shape(out, None)[:] = _nd.with_shape(r, None)
    elif where is not False:
        _nd.with_shape(out, None)[:] = _nd.with_shape(where_fn(where, r.astype(out.dtype), out), None)
    return out


def _rounding(op: str) -> Callable[..., pdarray]:
    g = _same_op(op)

    def f(pda: pdarray, out: pdarray | None = None, *, where: Any = True) -> pdarray:  # noqa: ANN401 (a bool or a bool pdarray)
        _check(pda)
        return _out_where(g(pda), out, where, pda)

    f.__name__ = op
    f.__doc__ = (g.__doc__ or "") + " ``out``/``where`` as NumPy's."
    return f


floor = _rounding("floor")
ceil = _rounding("ceil")


def round(pda: pdarray, decimals: int | None = None) -> pdarray:
    """Elementwise round half to even, as NumPy's ``round``.

    Parameters
    ----------
    pda : pdarray
        The values.
    decimals : int, optional
        Digits kept, as NumPy (``rint(x * 10**d) / 10**d``).

    Returns
    -------
    pdarray
        Integers unchanged, bool as float64 (Arkouda's rule), floats rounded.

    Raises
    ------
    TypeError
        ``pda`` is not a pdarray, or ``decimals`` not an int.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.round(ak.array([0.5, 1.5, 2.25]), 1).tolist(), ak.round(ak.array([2.5])).tolist()
    ([0.5, 1.5, 2.2], [2.0])
    """
    _check(pda)
    if decimals is not None and (isinstance(decimals, bool) or not isinstance(decimals, int)):
        raise TypeError(f"decimals: expected an int, got {type(decimals).__name__}")
    out: pdarray
    if pda.dtype == bool_:
        out = pda.astype(float64)
    elif pda.dtype != float64:
        out = pda.copy()
    elif decimals in (None, 0):
        out = pda._unary("round")
    else:
        f = 10.0**decimals
        out = (pda * f)._unary("round") / f
    return out


def isnan(pda: pdarray) -> pdarray:
    """Elementwise NaN test.

    Parameters
    ----------
    pda : pdarray
        The values.

    Returns
    -------
    pdarray
        bool, True where the value is NaN.

    Raises
    ------
    TypeError
        ``pda`` is not a pdarray.

    Examples
    --------
    >>> import atoll as ak
    >>> import numpy as np
    >>> ak.isnan(ak.array([1.0, np.nan])).tolist()
    [False, True]
    """
    _check(pda)
    out: pdarray = pdarray._lazy(_atoll.unary("isnan", pda._ex()), pda.size, pda._nodes + 1, pda._shape)
    return out


def _operand(x: object, d: np.dtype[Any], n: int, name: str) -> tuple[Any, int]:
    if isinstance(x, pdarray):
        if x.size != n:
            raise ValueError(f"{name}: size mismatch {x.size} {n}")
        return x._cast(d), x._nodes
    return _atoll.scalar(_scalar_value(x, d), d.name), 1


# The Categorical class and its ``where`` (which keeps the categories): ``where`` and ``cast``
# take Categoricals, and the Categorical sits above this module, so ``atoll.pandas.categorical``
# hands them over when it loads (``register_categorical``).
_CATEGORICAL: list[Any] = []


def register_categorical(cls: type, where_categorical: Callable[..., Any]) -> None:
    """Lets ``where`` and ``cast`` take instances of ``cls`` (the Categorical).

    Parameters
    ----------
    cls : type
        The Categorical class.
    where_categorical : callable
        ``where`` of Categoricals, ``(condition, A, B)`` to a Categorical.

    Examples
    --------
    >>> from atoll.numpy.numeric import register_categorical, _CATEGORICAL
    >>> register_categorical(*_CATEGORICAL)  # what atoll.pandas.categorical does when it loads
    """
    _CATEGORICAL[:] = [cls, where_categorical]


def _categorical_type() -> Any:  # noqa: ANN401 (a class, or ())
    """The Categorical class, or ``()`` (no class: ``isinstance`` is False) before it loads."""
    return _CATEGORICAL[0] if _CATEGORICAL else ()


def where(
    condition: Any,  # noqa: ANN401 (a bool pdarray or a scalar)
    A: Any,  # noqa: ANN401 (a pdarray, Strings, Categorical or a scalar)
    B: Any,  # noqa: ANN401 (a pdarray, Strings, Categorical or a scalar)
) -> Any:  # noqa: ANN401 (an array of the operands' kind, or a NumPy scalar)
    """``A`` where ``condition`` is True, else ``B``, in NumPy's result dtype.

    Parameters
    ----------
    condition : pdarray or scalar
        A bool pdarray (other dtypes: nonzero), or a bool.
    A, B : pdarray, Strings, Categorical or scalar
        The values (Strings or Categoricals for both together); pdarrays of one size or broadcastable shapes.

    Returns
    -------
    pdarray, Strings, Categorical or NumPy scalar
        The chosen values; a NumPy scalar for three scalars.

    Raises
    ------
    TypeError
        An operand of another kind.
    ValueError
        Sizes that do not broadcast.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.where(ak.array([True, False]), ak.array([1, 2]), 9.5).tolist()
    [1.0, 9.5]
    """
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
        a: Any = A if isinstance(A, pdarray) else _b.int(A)
        bb: Any = B if isinstance(B, pdarray) else _b.int(B)
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


def _where_strings(condition: pdarray, A: object, B: object, n: int) -> Strings:
    """``where`` of Strings (a str as every element): the strings of both, gathered by index."""

    def strs(x: object) -> Strings:
        if isinstance(x, str):
            listed: Strings = from_list([x] * n)
            return listed
        if not isinstance(x, Strings):
            raise TypeError(f"where: cannot mix strings with {type(x).__name__}")
        return x

    i = pdarray(_atoll.arange(n, 0, 1))
    both: Any = sconcat([strs(A), strs(B)])
    out: Strings = both[where(condition, i, i + n)]
    return out


def clip(pda: pdarray, lo: object, hi: object) -> pdarray:
    """Elementwise ``min(max(pda, lo), hi)``.

    Parameters
    ----------
    pda : pdarray
        The values.
    lo, hi : scalar, pdarray or None
        The bounds; None: no bound.

    Returns
    -------
    pdarray
        The clipped values.

    Raises
    ------
    TypeError
        ``pda`` is not a pdarray.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.clip(ak.array([1, 5, 9]), 2, 6).tolist()
    [2, 5, 6]
    """
    _check(pda)
    r = pda
    if lo is not None:
        r = _binary_fn(r, lo, "maximum")
    if hi is not None:
        r = _binary_fn(r, hi, "minimum")
    return r


def _broadcast(*vals: Any) -> tuple[tuple[Any, ...], Any]:  # noqa: ANN401 (pdarrays and scalars)
    """``vals`` with their pdarrays broadcast to one shape (NumPy's rule), and that shape.

    None when they are 1-D of one size already, the common case: nothing to do.
    """
    arrs = [v for v in vals if isinstance(v, pdarray)]
    if _b.any(is_bigint_array(v) for v in arrs):
        return vals, None  # bigint arrays are 1-D
    if not arrs or (_b.all(v._shape is None for v in arrs) and len({v.size for v in arrs}) == 1):
        return vals, None
    shape = _nd.broadcast_shapes(*[v.shape for v in arrs])
    out = tuple(_nd.broadcast_to(v, shape) if isinstance(v, pdarray) else v for v in vals)
    return out, (None if len(shape) == 1 else shape)


def _binary_fn(a: pdarray, b: object, op: str) -> pdarray:
    (x, y0), shape = _broadcast(a, b)
    d = result(x.dtype, y0.dtype if isinstance(y0, pdarray) else y0)
    y, nb = _operand(y0, d, x.size, "other")
    out: pdarray = pdarray._lazy(
        _atoll.binary(op, x._cast(d), y), x.size, x._nodes + nb + 1, x._shape if shape is None else shape
    )
    return out


# ----- NumPy's other elementwise functions (crates/atoll-python/src/ufuncs.rs) --------------


def _fn1(f: str, pda: pdarray, to: np.dtype[Any] | None = None, extra: int = 2) -> pdarray:
    x = pda._ex() if to is None or pda.dtype == to else pda._cast(to)
    r: pdarray = pdarray._lazy(_atoll.ufunc1(f, x), pda.size, pda._nodes + extra, pda._shape)
    return _fp_err.check(f, r, pda) if _fp_err._active[0] else r


def _float_fn(name: str) -> Callable[..., pdarray]:
    def f(pda: pdarray, where: Any = True) -> pdarray:  # noqa: ANN401 (a bool or a bool pdarray)
        _check(pda)
        _numeric(pda, name)
        r = _fn1(name, pda, float64)
        return r if where is True else _where_arg(where, r, pda.astype(float64))

    f.__name__ = name
    f.__doc__ = f"Elementwise {name} (float64), as NumPy's ``{name}``."
    return f


def _numeric(pda: pdarray, name: str) -> None:
    if is_bigint_array(pda):
        raise TypeError(f"{name}: not supported for dtype bigint")


def _where_arg(where: object, r: pdarray, otherwise: pdarray) -> pdarray:
    """NumPy's ``where=`` of a ufunc: ``r`` where True, else ``otherwise`` (the input)."""
    if where is False:
        return otherwise
    if not isinstance(where, pdarray) or where.dtype != bool_:
        raise TypeError(f"where: expected a bool or a bool pdarray, got {type(where).__name__}")
    out: pdarray = where_fn(where, r, otherwise)
    return out


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


def trunc(pda: pdarray, out: pdarray | None = None, *, where: Any = True) -> pdarray:  # noqa: ANN401 (a bool or a bool pdarray)
    """Elementwise rounding toward zero (integers unchanged).

    Parameters
    ----------
    pda : pdarray
        The values.
    out : pdarray, optional
        Written in place (and returned), as NumPy's ``out``.
    where : bool or bool pdarray, default True
        Where the result is taken, as NumPy's ``where``.

    Returns
    -------
    pdarray
        The truncated values (``out`` when given).

    Raises
    ------
    TypeError
        ``pda`` is not a pdarray.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.trunc(ak.array([-1.7, 2.5])).tolist()
    [-1.0, 2.0]
    """
    _check(pda)
    x = pda.astype(float64) if pda.dtype == bool_ else pda
    return _out_where(_fn1("trunc", x), out, where, x)


def fabs(pda: pdarray) -> pdarray:
    """Elementwise absolute value as float64, as NumPy's ``fabs``.

    Parameters
    ----------
    pda : pdarray
        The values.

    Returns
    -------
    pdarray
        float64 magnitudes.

    Raises
    ------
    TypeError
        ``pda`` is not a pdarray.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.fabs(ak.array([-2, 3])).tolist()
    [2.0, 3.0]
    """
    _check(pda)
    return abs(pda.astype(float64))


def sign(pda: pdarray) -> pdarray:
    """Elementwise -1, 0 or 1 (NaN for NaN), in the input's dtype.

    Parameters
    ----------
    pda : pdarray
        The values.

    Returns
    -------
    pdarray
        The signs.

    Raises
    ------
    TypeError
        ``pda`` is not a pdarray, or is bool.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.sign(ak.array([-5, 0, 7])).tolist()
    [-1, 0, 1]
    """
    _check(pda)
    if pda.dtype == bool_:
        raise TypeError("sign: not supported for dtype bool")
    return _fn1("sign", pda)


def square(pda: pdarray, where: Any = True) -> pdarray:  # noqa: ANN401 (a bool or a bool pdarray)
    """Elementwise ``x * x`` in the input's dtype.

    Parameters
    ----------
    pda : pdarray
        The values.
    where : bool or bool pdarray, default True
        Where the square is taken (else the input), as NumPy's ``where``.

    Returns
    -------
    pdarray
        The squares.

    Raises
    ------
    TypeError
        ``pda`` is not a pdarray.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.square(ak.array([-3, 4])).tolist()
    [9, 16]
    """
    _check(pda)
    r = (pda & pda) if pda.dtype == bool_ else _fn1("square", pda)
    return r if where is True else _where_arg(where, r, pda)


def isinf(pda: pdarray) -> pdarray:
    """Elementwise test for positive or negative infinity.

    Parameters
    ----------
    pda : pdarray
        The values.

    Returns
    -------
    pdarray
        bool, True where infinite.

    Raises
    ------
    TypeError
        ``pda`` is not a pdarray.

    Examples
    --------
    >>> import atoll as ak
    >>> import numpy as np
    >>> ak.isinf(ak.array([1.0, -np.inf, np.nan])).tolist()
    [False, True, False]
    """
    _check(pda)
    return _fn1("isinf", pda)


def isfinite(pda: pdarray) -> pdarray:
    """Elementwise test for finite values.

    Parameters
    ----------
    pda : pdarray
        The values.

    Returns
    -------
    pdarray
        bool, True where finite.

    Raises
    ------
    TypeError
        ``pda`` is not a pdarray.

    Examples
    --------
    >>> import atoll as ak
    >>> import numpy as np
    >>> ak.isfinite(ak.array([1.0, np.inf, np.nan])).tolist()
    [True, False, False]
    """
    _check(pda)
    return _fn1("isfinite", pda)


def _int_fn(name: str) -> Callable[[pdarray], pdarray]:
    def f(pda: pdarray) -> pdarray:
        if is_bigint_array(pda):
            out: pdarray = getattr(pda, name)()
            return out
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


def _pair(a: object, b: object, name: str, float_only: bool = False) -> tuple[Any, Any, int, int, Any]:
    """``a`` and ``b`` (pdarrays or scalars, at least one a pdarray) as expressions.

    Of their common dtype; float64 when ``float_only``.
    """
    if not isinstance(a, pdarray) and not isinstance(b, pdarray):
        raise TypeError(f"{name}: expected at least one pdarray")
    for nm, v in (("x1", a), ("x2", b)):
        if not isinstance(v, pdarray) and not is_scalar(v):
            raise TypeError(f"{name}: {nm} must be a pdarray or a scalar, got {type(v).__name__}")
    (x, y), _ = _broadcast(a, b)
    n = x.size if isinstance(x, pdarray) else y.size
    da = x.dtype if isinstance(x, pdarray) else x
    db = y.dtype if isinstance(y, pdarray) else y
    d = float64 if float_only else result(da, db)
    ea, na = _operand(x, d, n, "x1")
    eb, nb = _operand(y, d, n, "x2")
    return ea, eb, n, na + nb + 1, (x if isinstance(x, pdarray) else y)._shape


def _fn2(name: str, a: object, b: object, float_only: bool = False) -> pdarray:
    ea, eb, n, nodes, shape = _pair(a, b, name, float_only)
    r: pdarray = pdarray._lazy(_atoll.ufunc2(name, ea, eb), n, nodes, shape)
    return _fp_err.check(name, r, a, b) if _fp_err._active[0] else r


def arctan2(
    x1: Any,  # noqa: ANN401 (a pdarray or a scalar)
    x2: Any,  # noqa: ANN401 (a pdarray or a scalar)
    /,
    out: pdarray | None = None,
    *,
    where: Any = True,  # noqa: ANN401 (a bool or a bool pdarray)
) -> Any:  # noqa: ANN401 (a pdarray, or a NumPy scalar for two scalars)
    """Elementwise angle of ``(x2, x1)`` in radians (float64).

    Parameters
    ----------
    x1, x2 : pdarray or scalar
        The coordinates.
    out : pdarray, optional
        Written in place (and returned) where ``where`` is True, kept elsewhere.
    where : bool or bool pdarray, default True
        Without ``out``, elements where it is False are ``x1``'s.

    Returns
    -------
    pdarray or numpy.float64
        The angles; a NumPy scalar for two scalars.

    Raises
    ------
    TypeError
        An operand is neither a number nor a pdarray of numbers.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.arctan2(ak.array([1.0, 0.0]), 1.0).tolist()
    [0.7853981633974483, 0.0]
    """
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


def hypot(x1: object, x2: object) -> pdarray:
    """Elementwise ``sqrt(x1**2 + x2**2)`` without overflow (float64).

    Parameters
    ----------
    x1, x2 : pdarray or scalar
        The legs, at least one a pdarray.

    Returns
    -------
    pdarray
        The hypotenuses.

    Raises
    ------
    TypeError
        Neither is a pdarray, or one is not a number.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.hypot(ak.array([3.0]), 4).tolist()
    [5.0]
    """
    return _fn2("hypot", x1, x2, True)


def nextafter(x1: object, x2: object) -> Any:  # noqa: ANN401 (a pdarray, or a NumPy scalar for two scalars)
    """Elementwise next float64 after ``x1`` toward ``x2``.

    Parameters
    ----------
    x1, x2 : pdarray or scalar
        The values and the directions.

    Returns
    -------
    pdarray or numpy.float64
        The next values; a NumPy scalar for two scalars.

    Raises
    ------
    TypeError
        An operand is not a number.

    Examples
    --------
    >>> import atoll as ak
    >>> bool(ak.nextafter(ak.array([1.0]), 2.0)[0] > 1.0)
    True
    """
    if not isinstance(x1, pdarray) and not isinstance(x2, pdarray):
        return np.nextafter(np.float64(x1), np.float64(x2))  # type: ignore[arg-type]  # NumPy's conversion checks
    return _fn2("nextafter", x1, x2, True)


def fmod(x1: object, x2: object) -> pdarray:
    """Elementwise C remainder (the dividend's sign), as NumPy's ``fmod``.

    Parameters
    ----------
    x1, x2 : pdarray or scalar
        Dividends and divisors, at least one a pdarray.

    Returns
    -------
    pdarray
        The remainders.

    Raises
    ------
    TypeError
        A bool pdarray, or no pdarray.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.fmod(ak.array([-7, 7]), 3).tolist()
    [-1, 1]
    """
    for v in (x1, x2):
        if isinstance(v, pdarray) and v.dtype == bool_:
            raise TypeError("fmod: not supported for dtype bool")
    return _fn2("fmod", x1, x2)


def _rot(name: str, x: Any, r: Any) -> pdarray:  # noqa: ANN401 (a pdarray or an int each)
    if isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_)) and isinstance(r, pdarray):
        # A scalar rotated by each element: the scalar's int64 (uint64 beyond int64's range)
        # repeated to the rotations' size.
        v = int(x)
        if not -(2**63) <= v < 2**64:
            raise TypeError(f"{name}: the scalar {v} fits neither int64 nor uint64")
        x = _nd.with_shape(_full(r.size, v, _i64 if v < 2**63 else _u64), r._shape)
    if is_bigint_array(x):
        big: pdarray = getattr(x, name)(r)
        return big
    if not isinstance(x, pdarray) or x.dtype not in (_i64, _u64):
        raise TypeError(f"{name}: expected an int64 or uint64 pdarray")
    if is_bigint_array(r):
        r = r.astype(x.dtype)  # the rotation modulo 64: the low limb suffices
    if isinstance(r, pdarray):
        (x, r), _ = _broadcast(x, r)
        rolled: pdarray = pdarray._lazy(
            _atoll.ufunc2(name, x._ex(), r._cast(x.dtype)), x.size, x._nodes + r._nodes + 2, x._shape
        )
        return rolled
    s = _atoll.scalar(_scalar_value(r, x.dtype), x.dtype.name)
    out: pdarray = pdarray._lazy(_atoll.ufunc2(name, x._ex(), s), x.size, x._nodes + 2, x._shape)
    return out


def rotl(x: object, rot: object) -> pdarray:
    """The bits of each element rotated left by ``rot``.

    Parameters
    ----------
    x : pdarray or int
        int64 or uint64 values (or one int, rotated by each of ``rot``).
    rot : pdarray or int
        The rotations.

    Returns
    -------
    pdarray
        The rotated values.

    Raises
    ------
    TypeError
        ``x`` is not an int64 or uint64 pdarray.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.rotl(ak.array([1, 2]), 1).tolist()
    [2, 4]
    """
    return _rot("rotl", x, rot)


def rotr(x: object, rot: object) -> pdarray:
    """The bits of each element rotated right by ``rot``.

    Parameters
    ----------
    x : pdarray or int
        int64 or uint64 values (or one int, rotated by each of ``rot``).
    rot : pdarray or int
        The rotations.

    Returns
    -------
    pdarray
        The rotated values.

    Raises
    ------
    TypeError
        ``x`` is not an int64 or uint64 pdarray.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.rotr(ak.array([2, 4], dtype=ak.uint64), 1).tolist()
    [1, 2]
    """
    return _rot("rotr", x, rot)


def minimum(x1: object, x2: object) -> pdarray:
    """Elementwise minimum (NaN propagates).

    Parameters
    ----------
    x1, x2 : pdarray or scalar
        The operands, at least one a pdarray.

    Returns
    -------
    pdarray
        The minima.

    Raises
    ------
    TypeError
        No pdarray.

    Examples
    --------
    >>> import atoll as ak
    >>> import numpy as np
    >>> ak.minimum(ak.array([1.0, np.nan, 5.0]), 3).tolist()
    [1.0, nan, 3.0]
    """
    a, b = (x1, x2) if isinstance(x1, pdarray) else (x2, x1)
    return _binary_fn(_check(a), b, "minimum")


def maximum(x1: object, x2: object) -> pdarray:
    """Elementwise maximum (NaN propagates).

    Parameters
    ----------
    x1, x2 : pdarray or scalar
        The operands, at least one a pdarray.

    Returns
    -------
    pdarray
        The maxima.

    Raises
    ------
    TypeError
        No pdarray.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.maximum(3, ak.array([1, 5])).tolist()
    [3, 5]
    """
    a, b = (x1, x2) if isinstance(x1, pdarray) else (x2, x1)
    return _binary_fn(_check(a), b, "maximum")


def power(pda: pdarray, pwr: object, where: Any = True) -> pdarray:  # noqa: ANN401 (a bool or a bool pdarray)
    """``pda ** pwr`` (NumPy's rules) where ``where`` is True, else ``pda``.

    Parameters
    ----------
    pda : pdarray
        The values.
    pwr : pdarray or scalar
        The exponents.
    where : bool or bool pdarray, default True
        Where the power is taken.

    Returns
    -------
    pdarray
        The powers.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.power(ak.array([2, 3]), 2, where=ak.array([True, False])).tolist()
    [4, 3]
    """
    r: pdarray = pda**pwr
    return r if where is True else _where_arg(where, r, pda.astype(r.dtype))


def mod(x1: Any, x2: Any) -> Any:  # noqa: ANN401 (pdarrays or scalars)
    """``x1 % x2`` (the divisor's sign).

    Parameters
    ----------
    x1, x2 : pdarray or scalar
        Dividends and divisors.

    Returns
    -------
    pdarray
        The remainders.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.mod(ak.array([-7, 7]), 3).tolist()
    [2, 1]
    """
    return x1 % x2


remainder = mod


def divmod(x1: Any, x2: Any) -> tuple[Any, Any]:  # noqa: A001, ANN401 (NumPy's name; pdarrays or scalars)
    """``(x1 // x2, x1 % x2)``.

    Parameters
    ----------
    x1, x2 : pdarray or scalar
        Dividends and divisors.

    Returns
    -------
    tuple of pdarray
        The floored quotients and the remainders.

    Examples
    --------
    >>> import atoll as ak
    >>> q, r = ak.divmod(ak.array([7, -7]), 2)
    >>> q.tolist(), r.tolist()
    ([3, -4], [1, 1])
    """
    return x1 // x2, x1 % x2


def _as_float(x: object, name: str) -> Any:  # noqa: ANN401 (a pdarray or a float)
    """``x`` (a pdarray or a real scalar) in float64: a pdarray, or a Python float."""
    if isinstance(x, pdarray):
        if is_bigint_array(x):
            return x.astype(float64)
        return x if x.dtype == float64 else x.astype(float64)
    if is_scalar(x):
        return _b.float(x)  # type: ignore[arg-type]  # a real scalar: is_scalar said so
    raise TypeError(f"{name}: expected a pdarray or a real scalar, got {type(x).__name__}")


def _is_nan(x: Any) -> Any:  # noqa: ANN401 (a pdarray or a float; its test)
    return isnan(x) if isinstance(x, pdarray) else np.isnan(x)


def _is_finite(x: Any) -> Any:  # noqa: ANN401 (a pdarray or a float; its test)
    return isfinite(x) if isinstance(x, pdarray) else np.isfinite(x)


def _magnitude(x: Any) -> Any:  # noqa: ANN401 (a pdarray or a float)
    return abs(x) if isinstance(x, pdarray) else _b.abs(x)


def isclose(a: object, b: object, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> Any:  # noqa: ANN401 (a bool pdarray, or a NumPy bool for two scalars)
    """Elementwise ``|a - b| <= atol + rtol * |b|``, as NumPy's ``isclose`` (in float64).

    Parameters
    ----------
    a, b : pdarray or scalar
        The values.
    rtol : float, default 1e-05
        The relative tolerance.
    atol : float, default 1e-08
        The absolute tolerance.
    equal_nan : bool, default False
        Whether NaN is close to NaN.

    Returns
    -------
    pdarray or numpy.bool
        bool, True where close (where ``b`` is finite, or ``a == b``); a NumPy bool for two scalars.

    Raises
    ------
    TypeError
        An operand is neither a pdarray nor a real scalar.

    Examples
    --------
    >>> import atoll as ak
    >>> import numpy as np
    >>> ak.isclose(ak.array([1.0, 1.1, np.inf]), ak.array([1.0 + 1e-9, 1.0, np.inf])).tolist()
    [True, False, True]
    """
    x, y = _as_float(a, "a"), _as_float(b, "b")
    if not isinstance(x, pdarray) and not isinstance(y, pdarray):
        return np.isclose(x, y, rtol=rtol, atol=atol, equal_nan=equal_nan)
    with _fp_err.quiet():  # |inf - inf| is NaN here, not the caller's invalid operation
        close = ((_magnitude(x - y) <= atol + rtol * _magnitude(y)) & _is_finite(y)) | (x == y)
    if equal_nan:
        close = close | (_is_nan(x) & _is_nan(y))
    return close


def allclose(a: object, b: object, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> bool:
    """Whether every element is close (:func:`isclose`), as NumPy's ``allclose``.

    Parameters
    ----------
    a, b : pdarray or scalar
        The values.
    rtol : float, default 1e-05
        The relative tolerance.
    atol : float, default 1e-08
        The absolute tolerance.
    equal_nan : bool, default False
        Whether NaN is close to NaN.

    Returns
    -------
    bool
        True when all are close.

    Raises
    ------
    TypeError
        An operand is neither a pdarray nor a real scalar.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.allclose(ak.array([1.0, 2.0]), 2.0)
    False
    """
    close = isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)
    return _b.bool(_all(close) if isinstance(close, pdarray) else close)


def array_equal(pda_a: object, pda_b: object, equal_nan: bool = False) -> bool:
    """Whether both have the same shape and equal elements.

    Parameters
    ----------
    pda_a, pda_b : pdarray or Strings
        The arrays.
    equal_nan : bool, default False
        Whether NaN equals NaN.

    Returns
    -------
    bool
        True when equal (False for anything that is not an array).

    Examples
    --------
    >>> import atoll as ak
    >>> import numpy as np
    >>> ak.array_equal(ak.array([1.0, np.nan]), ak.array([1.0, np.nan]), equal_nan=True)
    True
    """
    if isinstance(pda_a, Strings) or isinstance(pda_b, Strings):
        sa: Any = pda_a
        sb: Any = pda_b
        return type(sa) is type(sb) and sa.size == sb.size and _b.bool(_all(sa == sb))
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


def _str_of_values(a: np.ndarray[Any, Any]) -> list[str]:
    """The str of each element, as NumPy's ``astype(str)`` (floats in Python's repr)."""
    if a.dtype.kind == "f":
        return [repr(float(x)) if np.isfinite(x) else str(x) for x in a.tolist()]
    if a.dtype.kind == "b":
        return ["True" if x else "False" for x in a.tolist()]
    return [str(x) for x in a.tolist()]


def cast(
    pda: Any,  # noqa: ANN401 (a pdarray, Strings or Categorical)
    dt: Any,  # noqa: ANN401 (a dtype-like, str, Strings, "Categorical" or bigint)
    errors: ErrorMode | str = ErrorMode.strict,
) -> Any:  # noqa: ANN401 (an array of dt's kind, or a pair)
    """``pda`` converted to ``dt``.

    Conversions to and from Strings run on the driver (the values are gathered, converted, and distributed again).

    Parameters
    ----------
    pda : pdarray, Strings or Categorical
        The values.
    dt : dtype, str, Strings or Categorical
        Numbers between any two dtypes (NumPy's ``astype``), numbers to Strings, Strings to numbers or to Categorical, Categorical to Strings.
    errors : ErrorMode or str, default ErrorMode.strict
        A string that does not parse: an error (strict), NaN/0 (ignore), or also a validity mask (return_validity).

    Returns
    -------
    pdarray, Strings, Categorical or tuple
        The converted values (with the validity mask for return_validity).

    Raises
    ------
    RuntimeError
        A string does not parse, in strict mode (Arkouda's error).
    ValueError
        A Categorical cast to anything but Strings.
    TypeError
        ``pda`` is not an array.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.cast(ak.array([1.5, 2.0]), ak.int64).tolist(), ak.cast(ak.array(['7', 'x']), ak.float64, errors='ignore').tolist()
    ([1, 2], [7.0, nan])
    """
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
            copy: Any = pda  # Strings' indexing is attached (atoll.numpy._strings_methods)
            return copy[:]
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


def _parse_strings(vals: list[str], d: Any, errors: ErrorMode) -> tuple[list[Any], list[bool]]:  # noqa: ANN401 (a dtype or bigint)
    out: list[Any] = []
    ok: list[bool] = []
    for s in vals:
        try:
            t = s.strip()
            v: Any
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


def transpose(pda: pdarray, axes: tuple[int, ...] | None = None) -> pdarray:
    """``pda`` with its axes reversed, or permuted as ``axes`` says.

    Parameters
    ----------
    pda : pdarray
        The values.
    axes : tuple of int, optional
        The permutation; None reverses (a 1-D array is its own transpose).

    Returns
    -------
    pdarray
        The transposed view.

    Raises
    ------
    TypeError
        ``pda`` is not a pdarray.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.transpose(ak.arange(6).reshape(2, 3)).shape
    (3, 2)
    """
    _check(pda)
    out: pdarray = _nd.transpose(pda, axes)
    return out
