"""One concatenation for every array kind.

Arkouda's ``generic_concat``, and ``ak.concatenate`` of Strings, Categoricals and SegArrays.
"""

from __future__ import annotations

import builtins
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from ..numpy._bigint import BigIntArray, to_bigint
from ..numpy.dtypes import supported
from ..numpy.pdarrayclass import _check, pdarray
from ..numpy.pdarraycreation import zeros
from ..numpy.strings import Strings, concatenate as sconcat
from ..numpy.timeclass import _AbstractBaseTime
from .categorical import Categorical


def generic_concat(items: Iterable[Any], ordered: bool = True) -> Any:  # noqa: ANN401 (an array of the items' kind)
    """The arrays of ``items`` one after the other.

    Parameters
    ----------
    items : iterable
        Arrays all of one kind: pdarrays, Strings, Categoricals, SegArrays or bigint arrays.
    ordered : bool, default True
        For Categoricals: keep the first one's categories first (else the union of the
        categories, in any order).

    Returns
    -------
    pdarray, Strings, Categorical, SegArray or BigIntArray
        Of the items' kind; pdarrays give NumPy's result dtype.

    Raises
    ------
    ValueError
        ``items`` is empty.
    TypeError
        The items are of different kinds, or of a kind with no concatenation.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.pandas._concat import generic_concat
    >>> generic_concat([ak.array([1, 2]), ak.array([0.5])]).tolist()
    [1.0, 2.0, 0.5]
    >>> generic_concat([ak.array(["a"]), ak.array(["b", "c"])]).tolist()
    ['a', 'b', 'c']
    """
    items = list(items)
    if not items:
        raise ValueError("concatenate: need at least one array")
    kinds = {_kind(x) for x in items}
    if len(kinds) != 1:
        raise TypeError(f"concatenate: arrays of different kinds: {sorted(kinds)}")
    kind = kinds.pop()
    if kind == "pdarray":
        return _concat_pdarrays(items)
    if kind == "Strings":
        return sconcat(items)
    if kind == "Categorical":
        return items[0].concatenate(items[1:], ordered=ordered)
    if kind == "SegArray":
        return type(items[0]).concat(items, ordered=True)
    if kind == "bigint":
        return items[0].__class__.concatenate(items)  # part 1's bigint arrays
    raise TypeError(f"concatenate: unsupported type {kind}")


def _kind(x: object) -> str:
    if isinstance(x, pdarray):
        return "pdarray"
    if isinstance(x, Strings):
        return "Strings"
    if isinstance(x, Categorical):
        return "Categorical"
    if getattr(x, "objType", None) == "SegArray":  # the SegArray sits above this module
        return "SegArray"
    if hasattr(x, "_is_bigint"):
        return "bigint"
    return type(x).__name__


def _concat_pdarrays(arrays: Sequence[Any]) -> Any:  # noqa: ANN401 (a pdarray, time array or BigIntArray)
    """One pdarray holding the elements of the pdarrays ``arrays`` in order.

    In NumPy's result dtype (bigint arrays: a bigint array; Datetimes, or Timedeltas, all of
    one class: one of that class, of their nanoseconds).
    """
    for a in arrays:
        _check(a, "arrays")
    cls = type(arrays[0])
    if issubclass(cls, _AbstractBaseTime) and builtins.all(type(a) is cls for a in arrays):
        return cls._from_ns(_concat_pdarrays([a.values for a in arrays]))
    if builtins.any(hasattr(a, "_limbs") for a in arrays):
        bs = [to_bigint(a) for a in arrays]
        k = builtins.max(len(b._limbs) for b in bs)
        mbs = [b.max_bits for b in bs]
        set_ = [m for m in mbs if m >= 0]
        mb = builtins.max(set_) if set_ else -1  # Arkouda: the widest max_bits given
        return BigIntArray([_concat_pdarrays([b._ext(k)[i] for b in bs]) for i in range(k)], mb)
    d = supported(np.result_type(*[a.dtype for a in arrays]))
    out = zeros(builtins.sum(a.size for a in arrays), d)
    at = 0
    for a in arrays:
        if a.size:
            out[at : at + a.size] = a if a.dtype == d else a.astype(d)
        at += a.size
    return out
