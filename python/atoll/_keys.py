"""Key columns of the sorts, set operations and GroupBy.

A pdarray or a list of them, each turned into a sort-key expression (bool as int64; float64
with -0.0 made +0.0 so that it equals 0.0, as NumPy compares). Another groupable type joins by
giving its ``_grouping_keys()``: a list of pdarrays whose rows sort and compare like its
elements across arrays (the set operations compare two arrays' keys). Strings and Categoricals
do not: their ranks compare only within one array, so GroupBy and coargsort replace them by
their ranks first (``str_groupby.rank_keys``).
"""

from __future__ import annotations

import builtins
from typing import Any

from . import _atoll
from .numpy.dtypes import bool_, float64, int64, uint8
from .numpy.numeric import isnan
from .numpy.pdarrayclass import any as _any, max as _max, min as _min, pdarray


def key_list(keys: object, name: str = "keys") -> tuple[list[pdarray], bool]:
    """The key arrays of ``keys``, checked for types and lengths.

    Parameters
    ----------
    keys : pdarray, groupable, or list or tuple of them
        The keys (a groupable type gives its ``_grouping_keys()``).
    name : str, default "keys"
        The argument's name, for the errors.

    Returns
    -------
    tuple of (list of pdarray, bool)
        The key arrays, and True when ``keys`` was a sequence.

    Raises
    ------
    ValueError
        If there is no key array, or the arrays differ in size.
    TypeError
        If a key is neither a pdarray nor groupable.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll._keys import key_list
    >>> ks, seq = key_list([ak.array([1, 2]), ak.array([True, False])])
    >>> len(ks), seq
    (2, True)
    """
    seq = isinstance(keys, (list, tuple))
    ks: list[Any] = list(keys) if isinstance(keys, (list, tuple)) else [keys]
    if not ks:
        raise ValueError(f"{name}: no key array")
    out: list[pdarray] = []
    for k in ks:
        if hasattr(k, "_grouping_keys"):
            out.extend(k._grouping_keys())
        elif isinstance(k, pdarray):
            out.append(k)
        else:
            raise TypeError(f"{name}: expected a pdarray or a list of pdarrays, got {type(k).__name__}")
    n = out[0].size
    for k in out:
        if k.size != n:
            raise ValueError(f"{name}: key arrays must all be the same size, got {n} and {k.size}")
    return out, seq


def key_expr(k: pdarray) -> _atoll.Ex:
    """The sort-key expression of one pdarray.

    Parameters
    ----------
    k : pdarray
        The key array.

    Returns
    -------
    atoll._atoll.Ex
        Its values as a sort key (bool as int64, float64 with -0.0 as +0.0).

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll._keys import key_expr
    >>> type(key_expr(ak.array([True, False]))).__name__
    'Ex'
    """
    if k.dtype == bool_:
        e: _atoll.Ex = k._cast(int64)
        return e
    if k.dtype == float64:
        return _atoll.binary("+", k._ex(), _atoll.scalar(0.0, "float64"))
    leaf: _atoll.Ex = k._ex()
    return leaf


def key_expr_desc(k: pdarray) -> _atoll.Ex:
    """The sort-key expression of one pdarray in descending order.

    An order-reversing map of ``key_expr`` (``~x`` for integers, ``-x`` for floats: NaN stays
    last, -0.0 equals 0.0), so a stable ascending sort of it is a stable descending sort of
    ``k``.

    Parameters
    ----------
    k : pdarray
        The key array.

    Returns
    -------
    atoll._atoll.Ex
        The reversed sort key.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll._keys import key_expr_desc
    >>> type(key_expr_desc(ak.array([1.5, -2.0]))).__name__
    'Ex'
    """
    e = key_expr(k)
    return _atoll.unary("neg" if k.dtype == float64 else "invert", e)


def has_nan(k: pdarray) -> bool:
    """Whether the float64 pdarray ``k`` holds a NaN (False for other dtypes).

    Parameters
    ----------
    k : pdarray
        The key array.

    Returns
    -------
    bool
        Whether a value is NaN.

    Examples
    --------
    >>> import atoll as ak
    >>> import numpy as np
    >>> from atoll._keys import has_nan
    >>> has_nan(ak.array([1.0, np.nan])), has_nan(ak.array([1, 2]))
    (True, False)
    """
    return builtins.bool(k.dtype == float64 and k.size > 0 and builtins.bool(_any(isnan(k))))


# The dense-key paths (atoll_ops::dense_groups / dense_in1d) replace the sort when a single
# int64 key array spans a small range: at most DENSE_MAX_RANGE values, and at most the number
# of rows (or 2^16). Tests switch them off (DENSE = False) to cover the sort-based paths.
DENSE = True
DENSE_MAX_RANGE = 1 << 24

# GroupBy combines a Categorical key, or several keys of small ranges, into one int64 key
# (``str_groupby.radix_key``) when the product of their ranges is at most
# COMBINE_MAX_PRODUCT: the dense path then groups it when the product is small enough, else
# one single-key sort does. Tests and benchmarks switch it off (COMBINE = False) to compare
# with the per-key paths.
COMBINE = True
COMBINE_MAX_PRODUCT = 1 << 62


def dense_range(k: object, rows: int | None = None) -> tuple[int, int] | None:
    """``(lo, range)`` of the int64 pdarray ``k`` when the dense paths apply, else None.

    Parameters
    ----------
    k : object
        The key (the dense paths take an int64 pdarray).
    rows : int, optional
        The number of rows (None: ``k``'s size).

    Returns
    -------
    tuple of (int, int) or None
        The smallest value and the number of values from it to the largest.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll._keys import dense_range
    >>> dense_range(ak.array([5, 7, 6])), dense_range(ak.array([1.5]))
    ((5, 3), None)
    """
    if not DENSE or not isinstance(k, pdarray) or k.dtype != int64 or k.size == 0:
        return None
    lo, hi = builtins.int(_min(k)), builtins.int(_max(k))
    r = hi - lo + 1
    limit = builtins.min(DENSE_MAX_RANGE, builtins.max(1 << 16, k.size if rows is None else rows))
    return (lo, r) if r <= limit else None


def dense_limit(k: object, rows: int | None = None) -> int | None:
    """The key range up to which ``atoll_ops::dense_aggregate`` takes the int64 or uint8 pdarray ``k``.

    The native code finds the range itself, in the same pass.

    Parameters
    ----------
    k : object
        The key (the dense path takes an int64 or uint8 pdarray).
    rows : int, optional
        The number of rows (None: ``k``'s size).

    Returns
    -------
    int or None
        The limit, or None when the dense path is off or does not apply.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll._keys import dense_limit
    >>> dense_limit(ak.array([5, 7, 6])), dense_limit(ak.array([1.5]))
    (65536, None)
    """
    if not DENSE or not isinstance(k, pdarray) or k.dtype not in (int64, uint8) or k.size == 0:
        return None
    return builtins.min(DENSE_MAX_RANGE, builtins.max(1 << 16, k.size if rows is None else rows))


def dense_key(k: pdarray) -> _atoll.Ex:
    """The int64 key expression that the dense paths take (uint8 keys widened as they are read).

    Parameters
    ----------
    k : pdarray
        An int64 or uint8 key.

    Returns
    -------
    atoll._atoll.Ex
        Its values as int64.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll._keys import dense_key
    >>> type(dense_key(ak.array([1, 2], dtype=ak.uint8))).__name__
    'Ex'
    """
    e: _atoll.Ex = k._ex() if k.dtype == int64 else k._cast(int64)
    return e


def dense_keys_out(uk: _atoll.Arr, k: pdarray) -> pdarray:
    """The distinct keys found by a dense path (an int64 native array) in ``k``'s dtype.

    Parameters
    ----------
    uk : atoll._atoll.Arr
        The distinct keys, int64.
    k : pdarray
        The key they were found in.

    Returns
    -------
    pdarray
        The keys, in ``k``'s dtype.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll._keys import dense_keys_out
    >>> k = ak.array([3, 1], dtype=ak.uint8)
    >>> dense_keys_out(ak.array([1, 3])._arr, k).dtype
    dtype('uint8')
    """
    # Any: ``astype`` is set on pdarray by atoll.numpy._pdarrayclass_methods, out of mypy's sight.
    p: Any = pdarray(uk)
    out: pdarray = p if k.dtype == int64 else p.astype(k.dtype)._materialize()
    return out
