"""The five dtypes (int64, uint64, float64, bool, uint8) and NumPy's promotion rules between them."""

from __future__ import annotations

import builtins
import sys
from typing import Any, Literal, SupportsIndex, SupportsInt, cast

import numpy as np
from numpy import (  # NumPy's scalar types, re-exported: Arkouda's names
    False_ as False_,
    ScalarType as ScalarType,
    True_ as True_,
    base_repr as base_repr,
    binary_repr as binary_repr,
    byte as byte,
    bytes_ as bytes_,
    cdouble as cdouble,
    character as character,
    clongdouble as clongdouble,
    csingle as csingle,
    datetime64 as datetime64,
    double as double,
    finfo as finfo,
    flexible as flexible,
    floating as floating,
    format_float_positional as format_float_positional,
    format_float_scientific as format_float_scientific,
    half as half,
    iinfo as iinfo,
    inexact as inexact,
    int_ as int_,
    intc as intc,
    integer as integer,
    intp as intp,
    isscalar as isscalar,
    issubdtype as issubdtype,
    longdouble as longdouble,
    longlong as longlong,
    number as number,
    object_ as object_,
    sctypeDict as sctypeDict,
    short as short,
    signedinteger as signedinteger,
    single as single,
    timedelta64 as timedelta64,
    typename as typename,
    ubyte as ubyte,
    uint as uint,
    uintc as uintc,
    uintp as uintp,
    ulonglong as ulonglong,
    unsignedinteger as unsignedinteger,
    ushort as ushort,
    void as void,
)
from numpy.dtypes import (  # NumPy's dtype classes, re-exported: Arkouda's names
    BoolDType as BoolDType,
    ByteDType as ByteDType,
    BytesDType as BytesDType,
    CLongDoubleDType as CLongDoubleDType,
    Complex64DType as Complex64DType,
    Complex128DType as Complex128DType,
    DateTime64DType as DateTime64DType,
    Float16DType as Float16DType,
    Float32DType as Float32DType,
    Float64DType as Float64DType,
    Int8DType as Int8DType,
    Int16DType as Int16DType,
    Int32DType as Int32DType,
    Int64DType as Int64DType,
    IntDType as IntDType,
    LongDoubleDType as LongDoubleDType,
    LongDType as LongDType,
    LongLongDType as LongLongDType,
    ObjectDType as ObjectDType,
    ShortDType as ShortDType,
    StrDType as StrDType,
    TimeDelta64DType as TimeDelta64DType,
    UByteDType as UByteDType,
    UInt8DType as UInt8DType,
    UInt16DType as UInt16DType,
    UInt32DType as UInt32DType,
    UInt64DType as UInt64DType,
    UIntDType as UIntDType,
    ULongDType as ULongDType,
    ULongLongDType as ULongLongDType,
    UShortDType as UShortDType,
    VoidDType as VoidDType,
)

int64 = np.dtype(np.int64)
uint64 = np.dtype(np.uint64)
float64 = np.dtype(np.float64)
bool_ = np.dtype(np.bool_)
uint8 = np.dtype(np.uint8)
_STORED = frozenset(["int64", "uint64", "float64", "bool", "uint8"])  # the dtypes pdarrays hold
_EXPECTED = "expected int64, uint64, float64, bool or uint8"


def _stored_dtype(x: object) -> np.dtype[Any]:
    """The supported dtype of ``x`` (a dtype, a type or a name); TypeError otherwise."""
    if x is builtins.bool or x == "bool":
        return bool_
    if x is builtins.int:
        return int64
    if x is builtins.float:
        return float64
    try:
        d: np.dtype[Any] = np.dtype(x)  # type: ignore[call-overload]  # NumPy reads any object, raises TypeError
    except TypeError:
        raise TypeError(f"dtype: unsupported dtype {x!r} ({_EXPECTED})") from None
    if d.name not in _STORED:
        raise TypeError(f"dtype: unsupported dtype {d.name!r} ({_EXPECTED})")
    return d


def supported(d: np.dtype[Any]) -> np.dtype[Any]:
    """The supported dtype that stores NumPy dtype ``d``.

    int32 is stored as int64, uint16 as uint64, float32 as float64; uint8 stays uint8.

    Parameters
    ----------
    d : numpy.dtype
        A NumPy dtype of kind bool, signed or unsigned integer, or float.

    Returns
    -------
    numpy.dtype
        One of int64, uint64, float64, bool and uint8.

    Raises
    ------
    TypeError
        ``d`` is of another kind (complex, string, ...).

    Examples
    --------
    >>> import atoll as ak
    >>> import numpy as np
    >>> ak.dtypes.supported(np.dtype(np.int32))
    dtype('int64')
    >>> ak.dtypes.supported(np.dtype(np.uint8))
    dtype('uint8')
    """
    if d.kind == "b":
        return bool_
    if d.kind == "i":
        return int64
    if d.kind == "u":
        return uint8 if d.itemsize == 1 else uint64
    if d.kind == "f":
        return float64
    raise TypeError(f"dtype: unsupported dtype {d.name!r} ({_EXPECTED})")


def is_scalar(x: object) -> builtins.bool:
    """Whether ``x`` is a Python or NumPy bool, integer or float scalar.

    Parameters
    ----------
    x : object
        Anything.

    Returns
    -------
    bool
        True for a bool, int or float scalar.

    Examples
    --------
    >>> import atoll as ak
    >>> import numpy as np
    >>> ak.numpy.is_scalar(3), ak.numpy.is_scalar(np.float32(1)), ak.numpy.is_scalar("a")
    (True, True, False)
    """
    return isinstance(x, (builtins.bool, builtins.int, builtins.float, np.bool_, np.integer, np.floating))


def scalar_dtype(x: object) -> np.dtype[Any]:
    """The dtype Arkouda gives a Python or NumPy scalar.

    Parameters
    ----------
    x : bool, int, float or a NumPy scalar
        The scalar; a Python int at or above 2**63 is uint64.

    Returns
    -------
    numpy.dtype
        One of the stored dtypes.

    Raises
    ------
    TypeError
        ``x`` is not a bool, integer or float scalar.

    Examples
    --------
    >>> import atoll as ak
    >>> import numpy as np
    >>> ak.dtypes.scalar_dtype(1), ak.dtypes.scalar_dtype(2**63), ak.dtypes.scalar_dtype(np.float32(1))
    (dtype('int64'), dtype('uint64'), dtype('float64'))
    """
    if isinstance(x, (builtins.bool, np.bool_)):
        return bool_
    if isinstance(x, (np.integer, np.floating)):
        return supported(np.dtype(type(x)))
    if isinstance(x, builtins.int):
        return int64 if x < 2**63 else uint64
    if isinstance(x, builtins.float):
        return float64
    raise TypeError(f"unsupported scalar type {type(x).__name__}")


def result(a: Any, b: Any) -> np.dtype[Any]:  # noqa: ANN401 (what numpy.result_type reads)
    """NumPy's result dtype of an operation between ``a`` and ``b``, as a stored dtype.

    Parameters
    ----------
    a, b : numpy.dtype, type or scalar
        The operands' dtypes, or Python scalars (weak, as NEP 50 reads them).

    Returns
    -------
    numpy.dtype
        The stored dtype of NumPy's result dtype.

    Raises
    ------
    TypeError
        The result is not of a stored kind.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.dtypes.result(ak.int64, ak.float64), ak.dtypes.result(ak.uint8, 1)
    (dtype('float64'), dtype('uint8'))
    """
    r = np.result_type(a, b)
    return supported(r)


# ----- Arkouda's dtype names beyond the four stored ones ------------------------------------

import typing as _typing  # noqa: E402
from enum import Enum as _Enum  # noqa: E402

str_ = np.str_
intTypes = frozenset((int64, uint64, uint8))
bitType = uint64


class bigint:
    """Arkouda's arbitrary-precision integer dtype.

    ``bigint()`` is the dtype (a singleton that compares equal to ``"bigint"``), ``bigint(x)``
    a scalar (:class:`bigint_`).
    """

    _instance: bigint | None = None
    name = "bigint"
    kind = "ui"
    itemsize = 128
    ndim = 0
    shape: tuple[()] = ()

    def __new__(cls, *args: str | bytes | SupportsIndex | SupportsInt) -> Any:  # noqa: ANN401, D102 (the dtype, or a bigint_ scalar)
        if args:
            return bigint_(*args)
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __eq__(self, other: object) -> builtins.bool:
        if other is bigint or isinstance(other, bigint):
            return True
        if isinstance(other, str):
            return other.lower() == "bigint"
        return getattr(other, "name", None) == "bigint" and not isinstance(other, np.dtype)

    def __ne__(self, other: object) -> builtins.bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return hash("bigint")

    def __str__(self) -> str:
        return "bigint"

    def __repr__(self) -> str:
        return "dtype(bigint)"

    @property
    def type(self) -> type[bigint_]:
        """The scalar type, :class:`bigint_`."""
        return bigint_


class bigint_(builtins.int):
    """A bigint scalar: a Python int (strings are read with ``int(x, 0)``)."""

    def __new__(cls, x: str | bytes | SupportsIndex | SupportsInt = 0) -> bigint_:  # noqa: D102 (the class says)
        if isinstance(x, (str, bytes)):
            x = builtins.int(x, 0)
        r: bigint_ = super().__new__(cls, builtins.int(x))
        return r

    @property
    def dtype(self) -> bigint:
        """The bigint dtype."""
        return cast(bigint, bigint())

    def __repr__(self) -> str:
        return f"ak.bigint_({builtins.int(self)})"


bool_scalars = _typing.Union[builtins.bool, np.bool_]
float_scalars = _typing.Union[builtins.float, np.float64, np.float32]
int_scalars = _typing.Union[
    builtins.int, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64
]
numeric_scalars = _typing.Union[float_scalars, int_scalars]
numeric_and_bool_scalars = _typing.Union[bool_scalars, numeric_scalars]
numpy_scalars = _typing.Union[
    np.float64,
    np.float32,
    np.int8,
    np.int16,
    np.int32,
    np.int64,
    np.bool_,
    np.str_,
    np.uint8,
    np.uint16,
    np.uint32,
    np.uint64,
]
str_scalars = _typing.Union[str, np.str_]
all_scalars = _typing.Union[bool_scalars, numeric_scalars, numpy_scalars, str_scalars]

ARKOUDA_SUPPORTED_BOOLS = (builtins.bool, np.bool_)
ARKOUDA_SUPPORTED_INTS = (
    builtins.int,
    np.int8,
    np.int16,
    np.int32,
    np.int64,
    np.uint8,
    np.uint16,
    np.uint32,
    np.uint64,
    bigint_,
)
ARKOUDA_SUPPORTED_FLOATS = (builtins.float, np.float64, np.float32)
ARKOUDA_SUPPORTED_NUMBERS = ARKOUDA_SUPPORTED_INTS + ARKOUDA_SUPPORTED_FLOATS
ARKOUDA_SUPPORTED_DTYPES = (bool_, builtins.float, float64, builtins.int, int64, uint64, uint8, bigint, str)
DTypeObjects = frozenset([bool_, builtins.float, float64, builtins.int, int64, str, str_, uint8, uint64])
NumericDTypes = frozenset(["bool_", "bool", "float", "float64", "int", "int64", "uint64", "bigint"])
ScalarDTypes = frozenset(["bool_", "float64", "int64"])
SeriesDTypes = {
    "string": np.str_,
    "<class 'str'>": np.str_,
    "int64": np.int64,
    "uint64": np.uint64,
    "<class 'numpy.int64'>": np.int64,
    "float64": np.float64,
    "<class 'numpy.float64'>": np.float64,
    "bool": np.bool_,
    "<class 'bool'>": np.bool_,
    "datetime64[ns]": np.int64,
    "timedelta64[ns]": np.int64,
}


class DType(_Enum):
    """Arkouda's dtype names."""

    FLOAT = "float"
    FLOAT64 = "float64"
    FLOAT32 = "float32"
    COMPLEX64 = "complex64"
    COMPLEX128 = "complex128"
    INT = "int"
    INT8 = "int8"
    INT16 = "int16"
    INT32 = "int32"
    INT64 = "int64"
    UINT = "uint"
    UINT8 = "uint8"
    UINT16 = "uint16"
    UINT32 = "uint32"
    UINT64 = "uint64"
    BOOL = "bool"
    BIGINT = "bigint"
    STR = "str"

    def __str__(self) -> str:
        return self.value

    __repr__ = __str__


def is_bigint(x: object) -> builtins.bool:
    """Whether ``x`` is the bigint dtype, its name, its class or a bigint scalar.

    Parameters
    ----------
    x : object
        A dtype, type, name or scalar.

    Returns
    -------
    bool
        True for the bigint family.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.numpy.is_bigint(ak.bigint), ak.numpy.is_bigint("bigint"), ak.numpy.is_bigint(ak.int64)
    (True, True, False)
    """
    return (
        x is bigint
        or isinstance(x, (bigint, bigint_))
        or x is bigint_
        or (isinstance(x, str) and x.lower() == "bigint")
        or (not isinstance(x, np.dtype) and getattr(x, "name", None) == "bigint")
    )


def is_str_dtype(x: object) -> builtins.bool:
    """Whether ``x`` names the string dtype (Arkouda's ``Strings``).

    Parameters
    ----------
    x : object
        ``str``, ``np.str_``, a name such as ``"str"``, or a NumPy dtype.

    Returns
    -------
    bool
        True for ``str``, ``np.str_``, their names, or a NumPy unicode dtype.

    Examples
    --------
    >>> import atoll as ak
    >>> import numpy as np
    >>> ak.numpy.is_str_dtype(str), ak.numpy.is_str_dtype(np.dtype("<U3")), ak.numpy.is_str_dtype(ak.int64)
    (True, True, False)
    """
    if x is str or x is np.str_ or (isinstance(x, str) and x in ("str", "str_", "U", "string", "Strings")):
        return True
    try:
        return builtins.bool(np.dtype(x).kind == "U")  # type: ignore[call-overload]  # NumPy reads any object
    except TypeError:
        return False


def is_supported_int(num: object) -> builtins.bool:
    """Whether ``num`` is an integer scalar Arkouda supports (not a bool).

    Parameters
    ----------
    num : object
        A scalar.

    Returns
    -------
    bool
        True for a Python, NumPy or bigint integer.

    Examples
    --------
    >>> import atoll as ak
    >>> import numpy as np
    >>> ak.is_supported_int(3), ak.is_supported_int(np.uint8(3)), ak.is_supported_int(True)
    (True, True, False)
    """
    return isinstance(num, ARKOUDA_SUPPORTED_INTS) and not isinstance(num, builtins.bool)


def is_supported_float(num: object) -> builtins.bool:
    """Whether ``num`` is a float scalar Arkouda supports.

    Parameters
    ----------
    num : object
        A scalar.

    Returns
    -------
    bool
        True for a Python float, NumPy float64 or float32.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.is_supported_float(1.5), ak.is_supported_float(1)
    (True, False)
    """
    return isinstance(num, ARKOUDA_SUPPORTED_FLOATS)


def is_supported_number(num: object) -> builtins.bool:
    """Whether ``num`` is an integer or float scalar Arkouda supports (not a bool).

    Parameters
    ----------
    num : object
        A scalar.

    Returns
    -------
    bool
        True for a supported integer or float.

    Examples
    --------
    >>> import atoll as ak
    >>> import numpy as np
    >>> ak.is_supported_number(1), ak.is_supported_number(2.5), ak.is_supported_number(np.True_)
    (True, True, False)
    """
    return isinstance(num, ARKOUDA_SUPPORTED_NUMBERS) and not isinstance(num, (builtins.bool, np.bool_))


def is_supported_bool(num: object) -> builtins.bool:
    """Whether ``num`` is a Python or NumPy bool.

    Parameters
    ----------
    num : object
        A scalar.

    Returns
    -------
    bool
        True for ``bool`` or ``np.bool_``.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.is_supported_bool(True), ak.is_supported_bool(1)
    (True, False)
    """
    return isinstance(num, ARKOUDA_SUPPORTED_BOOLS)


def is_supported_dtype(scalar: object) -> builtins.bool:
    """Whether ``scalar`` is a scalar of a dtype Arkouda supports (number, bool or string).

    Parameters
    ----------
    scalar : object
        A scalar.

    Returns
    -------
    bool
        True for a supported number, a bool or a string.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.is_supported_dtype("a"), ak.is_supported_dtype(1j)
    (True, False)
    """
    return isinstance(scalar, ARKOUDA_SUPPORTED_NUMBERS + ARKOUDA_SUPPORTED_BOOLS + (str, np.str_))


def resolve_scalar_dtype(val: object) -> str:
    """Arkouda's dtype name of a scalar.

    Parameters
    ----------
    val : object
        A scalar.

    Returns
    -------
    str
        'bool', 'int64', 'uint64' (ints from 2**63 up to 2**64), 'bigint' (beyond), 'float64'
        (any float, NumPy's float32 too), 'str', the NumPy dtype's name, or the type's text.

    Examples
    --------
    >>> import atoll as ak
    >>> import numpy as np
    >>> ak.resolve_scalar_dtype(1), ak.resolve_scalar_dtype(2**64), ak.resolve_scalar_dtype(np.float32(1))
    ('int64', 'bigint', 'float64')
    """
    if isinstance(val, (builtins.bool, np.bool_)):
        return "bool"
    if isinstance(val, bigint_):
        return "bigint"
    if isinstance(val, builtins.int):
        if -(2**63) <= val < 2**63:
            return "int64"
        if 2**63 <= val < 2**64:
            return "uint64"
        return "bigint"
    if isinstance(val, builtins.float):
        return "float64"
    if isinstance(val, (str, np.str_)):
        return "str"
    if isinstance(val, np.generic):
        return "float64" if val.dtype.kind == "f" else val.dtype.name  # Arkouda's: floats as float64
    return str(type(val))


def _is_python_scalar(x: object) -> builtins.bool:
    return isinstance(x, (builtins.bool, builtins.int, builtins.float, builtins.complex)) and not isinstance(
        x, (np.generic, bigint_)
    )


def _operand(x: object) -> Any:  # noqa: ANN401 (what NumPy reads)
    """What NumPy's ``can_cast``/``result_type`` read for ``x``.

    An array's dtype (a pdarray's), else ``x`` itself (a dtype, a type, a name, a NumPy scalar
    or a Python scalar).
    """
    if isinstance(x, (np.dtype, np.generic, type, str)) or _is_python_scalar(x):
        return x
    d = getattr(x, "dtype", None)
    return x if d is None else d


_Casting = Literal["no", "equiv", "safe", "same_kind", "unsafe"]


def can_cast(from_: object, to: Any, casting: _Casting = "safe") -> builtins.bool:  # noqa: ANN401 (a dtype-like)
    """NumPy 2's ``can_cast``, with Python scalars and bigint.

    By dtype for dtypes, pdarrays and NumPy scalars (no value-based casting:
    ``can_cast(np.float64(1.0), float32)`` is False). Beyond NumPy, which refuses Python
    scalars: a Python int by its value for the integer dtypes (Arkouda's rule:
    ``can_cast(-5, uint64)`` is False) and to any float; a Python float to any float; a Python
    bool as ``bool``. bigint: any integer or bool casts to it, it casts to the floats and to
    itself.

    Parameters
    ----------
    from_ : dtype, type, pdarray or scalar
        What is cast.
    to : dtype, type or name
        The dtype cast to.
    casting : {'no', 'equiv', 'safe', 'same_kind', 'unsafe'}, default 'safe'
        NumPy's casting rule.

    Returns
    -------
    bool
        Whether the cast is allowed under ``casting``.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.can_cast(ak.int64, ak.float64), ak.can_cast(-5, ak.uint64), ak.can_cast(ak.int64, ak.bigint)
    (True, False, True)
    """
    f = _operand(from_)
    if is_bigint(f) or is_bigint(to):
        if casting == "unsafe":
            return True
        if is_bigint(f):
            return is_bigint(to) or np.dtype(to).kind == "f"
        if _is_python_scalar(f):
            return isinstance(f, builtins.int)
        return np.dtype(f).kind in "iub"
    t: np.dtype[Any] = np.dtype(to)
    if isinstance(f, builtins.bool):
        return builtins.bool(np.can_cast(bool_, t, casting))
    if _is_python_scalar(f):
        if casting == "unsafe":
            return True
        if isinstance(f, builtins.int):
            if t.kind in "iu":
                info = np.iinfo(t)
                return builtins.bool(info.min <= f <= info.max)
            return t.kind in "fc"
        if isinstance(f, builtins.float):
            return t.kind in "fc"
        return t.kind == "c"
    return builtins.bool(np.can_cast(f, t, casting))


def result_type(*args: object) -> Any:  # noqa: ANN401 (a NumPy dtype or the bigint dtype)
    """NumPy 2's ``result_type`` of dtypes, types, pdarrays and scalars, with bigint.

    NumPy scalars count by their dtype, Python scalars weak as NEP 50 reads them
    (``result_type(uint8, 1)`` is uint8). With a bigint: float64 when a float takes part, else
    bigint.

    Parameters
    ----------
    *args : dtype, type, pdarray or scalar
        The operands.

    Returns
    -------
    numpy.dtype or bigint
        The result dtype.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.result_type(ak.uint8, 1), ak.result_type(ak.int64, ak.uint64), ak.result_type(ak.bigint, 1)
    (dtype('uint8'), dtype('float64'), dtype(bigint))
    """
    ops = [_operand(a) for a in args]
    if builtins.any(is_bigint(o) for o in ops):
        rest = [o for o in ops if not is_bigint(o)]
        if builtins.any(
            isinstance(o, builtins.float) or (not _is_python_scalar(o) and np.result_type(o).kind == "f") for o in rest
        ):
            return float64
        return bigint()
    return np.result_type(*ops)


def promote_types(a: object, b: object) -> Any:  # noqa: ANN401 (a NumPy dtype or the bigint dtype)
    """The dtype both ``a`` and ``b`` cast to safely (``result_type`` of the two).

    Parameters
    ----------
    a, b : dtype, type or name
        The dtypes.

    Returns
    -------
    numpy.dtype or bigint
        The promoted dtype.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.promote_types(ak.uint8, ak.int64)
    dtype('int64')
    """
    return result_type(a, b)


def isSupportedInt(num: object) -> builtins.bool:
    """Arkouda's older name of :func:`is_supported_int`.

    Parameters
    ----------
    num : object
        A scalar.

    Returns
    -------
    bool
        True for a supported integer.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.dtypes.isSupportedInt(7)
    True
    """
    return is_supported_int(num)


def isSupportedFloat(num: object) -> builtins.bool:
    """Arkouda's older name of :func:`is_supported_float`.

    Parameters
    ----------
    num : object
        A scalar.

    Returns
    -------
    bool
        True for a supported float.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.dtypes.isSupportedFloat(7)
    False
    """
    return is_supported_float(num)


def isSupportedNumber(num: object) -> builtins.bool:
    """Arkouda's older name of :func:`is_supported_number`.

    Parameters
    ----------
    num : object
        A scalar.

    Returns
    -------
    bool
        True for a supported integer or float.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.dtypes.isSupportedNumber(7.0)
    True
    """
    return is_supported_number(num)


def ak_dtype(x: object) -> Any:  # noqa: ANN401 (a NumPy dtype or the bigint dtype)
    """Arkouda's ``dtype``: the dtype of a dtype, type, name or scalar.

    Parameters
    ----------
    x : object
        A dtype, a type, a name or a scalar; Python ints are sized as Arkouda sizes them
        (int64, then uint64 up to 2**64, then bigint).

    Returns
    -------
    numpy.dtype or bigint
        The NumPy dtype, or ``bigint()`` for the bigint family.

    Raises
    ------
    TypeError
        NumPy reads no dtype from ``x``.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.dtype(1), ak.dtype(2**63), ak.dtype(2**64), ak.dtype("str")
    (dtype('int64'), dtype('uint64'), dtype(bigint), dtype('<U'))
    """
    if is_bigint(x):
        return bigint()
    if isinstance(x, builtins.bool) or x is builtins.bool or x == "bool":
        return bool_
    if isinstance(x, builtins.int) and not isinstance(x, builtins.bool):
        r = resolve_scalar_dtype(x)
        return bigint() if r == "bigint" else np.dtype(r)
    if x is builtins.int:
        return int64
    if x is builtins.float or isinstance(x, builtins.float):
        return float64
    if x is str or isinstance(x, str) and x in ("str", "str_", "Strings"):
        return np.dtype(np.str_)
    if isinstance(x, np.generic):
        return x.dtype
    return np.dtype(x)  # type: ignore[call-overload]  # NumPy reads any object and raises TypeError


# ----- Arkouda's dtype module names: NumPy's scalar types and dtype classes -----------------

# Arkouda's ``dtype`` (a dtype of anything NumPy reads, bigint, str); ``_stored_dtype`` is the
# strict one of the dtypes a pdarray holds.
dtype = ak_dtype
# Arkouda's dtype names (those of ``DType``).
DTypes = frozenset(member.value for member in DType)
bool = np.bool_  # noqa: A001  (Arkouda's ak.bool)
int8, int16, int32 = np.int8, np.int16, np.int32
uint16, uint32 = np.uint16, np.uint32
float16, float32 = np.float16, np.float32
complex64, complex128 = np.complex64, np.complex128

NUMBER_FORMAT_STRINGS = {
    "bool": "{}",
    "int64": "{:d}",
    "float64": "{:.17f}",
    "uint8": "{:d}",
    "np.float64": "{f}",
    "uint64": "{:d}",
    "bigint": "{:d}",
}

_CHAPEL_NAMES = {
    "real": "float64",
    "real(32)": "float32",
    "real(64)": "float64",
    "complex": "complex128",
    "complex(64)": "complex64",
    "complex(128)": "complex128",
    "int": "int64",
    "int(8)": "int8",
    "int(16)": "int16",
    "int(32)": "int32",
    "int(64)": "int64",
    "uint": "uint64",
    "uint(8)": "uint8",
    "uint(16)": "uint16",
    "uint(32)": "uint32",
    "uint(64)": "uint64",
    "bool": "bool",
    "bigint": "bigint",
    "string": "str",
}


def dtype_for_chapel(type_name: str) -> Any:  # noqa: ANN401 (a NumPy dtype or the bigint dtype)
    """The dtype of a Chapel type name.

    Parameters
    ----------
    type_name : str
        A Chapel type name such as ``"real(32)"`` or ``"string"``.

    Returns
    -------
    numpy.dtype or bigint
        The dtype (``"real(32)"`` is float32, ``"string"`` str).

    Raises
    ------
    TypeError
        The name has no dtype.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.numpy.dtype_for_chapel("real(32)"), ak.numpy.dtype_for_chapel("int")
    (dtype('float32'), dtype('int64'))
    """
    try:
        return ak_dtype(_CHAPEL_NAMES[type_name])
    except KeyError:
        raise TypeError(f"Arkouda does not have a dtype that corresponds to '{type_name}' in Chapel") from None


def _datatype_check(the_dtype: object, allowed_list: Any, name: str) -> None:  # noqa: ANN401 (a container)
    """A ``TypeError`` naming ``name`` unless ``the_dtype`` is in ``allowed_list``."""
    if the_dtype not in allowed_list:
        raise TypeError(f"{name} only implements types {allowed_list}")


def _is_dtype_in_union(dt: object, union_type: object) -> builtins.bool:
    """True when ``dt`` is one of the types of the ``typing.Union`` ``union_type``."""
    return hasattr(union_type, "__args__") and dt in union_type.__args__


def _val_isinstance_of_union(val: object, union_type: object) -> builtins.bool:
    """True when ``val`` is an instance of one of the types of the ``typing.Union``."""
    return hasattr(union_type, "__args__") and isinstance(val, union_type.__args__)


def get_byteorder(dt: Any) -> str:  # noqa: ANN401 (anything numpy.dtype reads)
    """The byte order of the NumPy dtype ``dt``.

    Parameters
    ----------
    dt : dtype-like
        A NumPy dtype, type or name.

    Returns
    -------
    str
        ``"<"`` or ``">"`` (``"="`` resolved to this machine's order), or ``"|"`` for a dtype
        without one.

    Examples
    --------
    >>> import atoll as ak
    >>> import numpy as np
    >>> ak.get_byteorder(np.dtype(">i8")), ak.get_byteorder(np.uint8)
    ('>', '|')
    """
    order: str = np.dtype(dt).byteorder
    if order == "=":
        return "<" if sys.byteorder == "little" else ">"
    return order


def get_server_byteorder() -> str:
    """The byte order of the machines that hold the arrays.

    Every rank of a job runs on one architecture: this machine's order.

    Returns
    -------
    str
        ``"little"`` or ``"big"``.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.get_server_byteorder() in ("little", "big")
    True
    """
    return sys.byteorder
