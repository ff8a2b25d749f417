"""Key columns of the sorts, set operations and GroupBy: a pdarray or a list of them, each
turned into a sort-key expression (bool as int64; float64 with -0.0 made +0.0 so that it
equals 0.0, as NumPy compares). Another groupable type joins by giving its
``_grouping_keys()``: a list of pdarrays whose rows sort and compare like its elements across
arrays (the set operations compare two arrays' keys). Strings and Categoricals do not: their
ranks compare only within one array, so GroupBy and coargsort replace them by their ranks
first (``str_groupby.rank_keys``)."""

import builtins

from . import _atoll
from .numpy.dtypes import bool_, float64, int64, uint8
from .numpy.numeric import isnan
from .numpy.pdarrayclass import any as _any, max as _max, min as _min, pdarray


def key_list(keys, name="keys"):
    """(list of key arrays, True when ``keys`` was a sequence); checks types and lengths."""
    seq = isinstance(keys, (list, tuple))
    ks = list(keys) if seq else [keys]
    if not ks:
        raise ValueError(f"{name}: no key array")
    out = []
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


def key_expr(k):
    """The sort-key expression of one pdarray."""
    if k.dtype == bool_:
        return k._cast(int64)
    if k.dtype == float64:
        return _atoll.binary("+", k._ex(), _atoll.scalar(0.0, "float64"))
    return k._ex()


def key_expr_desc(k):
    """The sort-key expression of one pdarray in descending order: an order-reversing map of
    ``key_expr`` (``~x`` for integers, ``-x`` for floats: NaN stays last, -0.0 equals 0.0),
    so a stable ascending sort of it is a stable descending sort of ``k``."""
    e = key_expr(k)
    return _atoll.unary("neg" if k.dtype == float64 else "invert", e)


def has_nan(k):
    return k.dtype == float64 and k.size > 0 and builtins.bool(_any(isnan(k)))


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


def dense_range(k, rows=None):
    """``(lo, range)`` of the int64 pdarray ``k`` when the dense paths apply, else None."""

    if not DENSE or not isinstance(k, pdarray) or k.dtype != int64 or k.size == 0:
        return None
    lo, hi = builtins.int(_min(k)), builtins.int(_max(k))
    r = hi - lo + 1
    limit = builtins.min(DENSE_MAX_RANGE, builtins.max(1 << 16, k.size if rows is None else rows))
    return (lo, r) if r <= limit else None


def dense_limit(k, rows=None):
    """The key range up to which ``atoll_ops::dense_aggregate`` takes the int64 or uint8
    pdarray ``k`` (it finds the range itself, in the same pass), or None when the dense path
    is off or does not apply."""
    if not DENSE or not isinstance(k, pdarray) or k.dtype not in (int64, uint8) or k.size == 0:
        return None
    return builtins.min(DENSE_MAX_RANGE, builtins.max(1 << 16, k.size if rows is None else rows))


def dense_key(k):
    """The int64 key expression that the dense paths take (uint8 keys widened as they are read)."""
    return k._ex() if k.dtype == int64 else k._cast(int64)


def dense_keys_out(uk, k):
    """The distinct keys found by a dense path (an int64 native array) in ``k``'s dtype."""
    p = pdarray(uk)
    return p if k.dtype == int64 else p.astype(k.dtype)._materialize()
