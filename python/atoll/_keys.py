"""Key columns of the sorts, set operations and GroupBy: a pdarray or a list of them, each
turned into a sort-key expression (bool as int64; float64 with -0.0 made +0.0 so that it
equals 0.0, as NumPy compares). Another groupable type (Strings) joins by giving its
``_grouping_keys()``: a list of pdarrays whose rows sort and compare like its elements."""
import builtins

from . import _atoll
from .dtypes import bool_, float64, int64
from .pdarrayclass import pdarray


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


def has_nan(k):
    from .numeric import isnan
    from .pdarrayclass import any as _any
    return k.dtype == float64 and k.size > 0 and builtins.bool(_any(isnan(k)))
