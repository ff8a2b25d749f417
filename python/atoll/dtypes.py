"""The four dtypes and NumPy's promotion rules between them."""

import builtins

import numpy as np

int64 = np.dtype(np.int64)
uint64 = np.dtype(np.uint64)
float64 = np.dtype(np.float64)
bool_ = np.dtype(np.bool_)
DTypes = frozenset(["int64", "uint64", "float64", "bool"])


def dtype(x):
    """The supported dtype of ``x`` (a dtype, a type or a name); TypeError otherwise."""
    if x is builtins.bool or x == "bool":
        return bool_
    if x is builtins.int:
        return int64
    if x is builtins.float:
        return float64
    try:
        d = np.dtype(x)
    except TypeError:
        raise TypeError(f"dtype: unsupported dtype {x!r} (expected int64, uint64, float64 or bool)") from None
    if d.name not in DTypes:
        raise TypeError(f"dtype: unsupported dtype {d.name!r} (expected int64, uint64, float64 or bool)")
    return d


def supported(d):
    """The supported dtype that stores NumPy dtype ``d`` (int32 -> int64, float32 -> float64)."""
    if d.kind == "b":
        return bool_
    if d.kind == "i":
        return int64
    if d.kind == "u":
        return uint64
    if d.kind == "f":
        return float64
    raise TypeError(f"dtype: unsupported dtype {d.name!r} (expected int64, uint64, float64 or bool)")


def is_scalar(x):
    return isinstance(x, (builtins.bool, builtins.int, builtins.float, np.bool_, np.integer, np.floating))


def scalar_dtype(x):
    """The dtype Arkouda gives a Python scalar."""
    if isinstance(x, (builtins.bool, np.bool_)):
        return bool_
    if isinstance(x, (np.integer, np.floating)):
        return supported(np.dtype(type(x)))
    if isinstance(x, builtins.int):
        return int64 if x < 2**63 else uint64
    if isinstance(x, builtins.float):
        return float64
    raise TypeError(f"unsupported scalar type {type(x).__name__}")


def result(a, b):
    """NumPy's result dtype of an operation between ``a`` and ``b`` (dtypes or Python scalars)."""
    r = np.result_type(a, b)
    return supported(r)
