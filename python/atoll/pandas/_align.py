"""Matching labels between arrays, on one GroupBy of both.

Distributed: no labels are gathered to the driver. ``find`` gives, for each argument, the
index of its first equal key, and ``lookup`` the value stored with that key. Keys and
arguments are arrays of any groupable kind (pdarray, Strings, Categorical), or lists of them
(rows of several levels).
"""

from __future__ import annotations

import builtins
from typing import Any, cast

import numpy as np

from ..numpy.dtypes import int64
from ..numpy.numeric import where, where as _where
from ..numpy.pdarrayclass import all as _all, pdarray
from ..numpy.pdarraycreation import arange, array, full, zeros
from ..numpy.segarray import SegArray, gen_ranges
from ..numpy.strings import Strings, concatenate as sconcat
from ._concat import generic_concat
from .categorical import Categorical
from .groupbyclass import GroupBy


def _levels(x: Any) -> list[Any]:  # noqa: ANN401 (an array or a list of arrays)
    return list(x) if isinstance(x, (list, tuple)) else [x]


def find(keys: Any, args: Any) -> pdarray:  # noqa: ANN401 (arrays of any groupable kind, or lists of them)
    """For each row of ``args``, the index of the first equal row of ``keys``, or -1.

    Parameters
    ----------
    keys : pdarray, Strings, Categorical or list of them
        The keys (a list: the levels of rows).
    args : pdarray, Strings, Categorical or list of them
        The arguments, with as many levels as ``keys``.

    Returns
    -------
    pdarray
        int64, one index per argument.

    Raises
    ------
    ValueError
        ``keys`` and ``args`` have different numbers of levels.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.pandas._align import find
    >>> find(ak.array([5, 3, 5]), ak.array([5, 4, 3])).tolist()
    [0, -1, 1]
    """
    kl, al = _levels(keys), _levels(args)
    if len(kl) != len(al):
        raise ValueError(f"keys and arguments have {len(kl)} and {len(al)} levels")
    nk, na = kl[0].size, al[0].size
    if na == 0:
        return zeros(0, int64)
    if nk == 0:
        return cast(pdarray, zeros(na, int64) - 1)
    both = [_same_kind(generic_concat([k, a])) for k, a in zip(kl, al)]
    g = GroupBy(both if len(both) > 1 else both[0], dropna=False)
    _, first = g.min(arange(nk + na))  # the smallest row of each group: a key when it has one
    per_row = g.broadcast(first, permute=True)[nk:]
    out: pdarray = where(per_row < nk, per_row, -1)._materialize()
    return out


def _same_kind(x: Any) -> Any:  # noqa: ANN401 (an array of any kind)
    return x


def lookup(keys: Any, values: Any, args: Any, fillvalue: Any = None) -> Any:  # noqa: ANN401 (arrays of any kind)
    """``values[i]`` for the key ``i`` equal to each argument; ``fillvalue`` where none is.

    Parameters
    ----------
    keys : pdarray, Strings, Categorical or list of them
        The keys.
    values : pdarray, Strings, Categorical or SegArray
        One value per key.
    args : pdarray, Strings, Categorical or list of them
        The arguments, with as many levels as ``keys``.
    fillvalue : scalar, optional
        The value of an argument without a key (default NaN for numbers, ints becoming
        float64 when some argument is missing; as ``fill_missing`` for other kinds).

    Returns
    -------
    pdarray, Strings, Categorical or SegArray
        One value per argument.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.pandas._align import lookup
    >>> lookup(ak.array([1, 2]), ak.array([10, 20]), ak.array([2, 3])).tolist()
    [20.0, nan]
    >>> lookup(ak.array([1, 2]), ak.array(["a", "b"]), ak.array([2, 1])).tolist()
    ['b', 'a']
    """
    idx = find(keys, args)
    hit = (idx >= 0)._materialize()
    if values.size == 0 and idx.size and isinstance(values, pdarray):
        # No key at all: every argument is missing.
        if fillvalue is None:
            return full(idx.size, np.nan, np.float64)
        return full(idx.size, fillvalue, values.dtype)
    safe = where(hit, idx, 0)._materialize()
    got = values[safe] if values.size else values
    if idx.size == 0 or builtins.bool(_all(hit)):
        return got
    if isinstance(got, pdarray):
        if fillvalue is None:
            fillvalue = np.nan
            got = got.astype(np.float64)
        return where(hit, got, fillvalue)._materialize()
    return fill_missing(got, hit, fillvalue)


def fill_missing(arr: Any, present: pdarray, fillvalue: Any = None) -> Any:  # noqa: ANN401 (arrays of any kind)
    """``arr`` with the rows where ``present`` is False replaced by ``fillvalue``.

    Parameters
    ----------
    arr : pdarray, Strings, Categorical or SegArray
        The values.
    present : pdarray
        bool, False where a row is to be filled.
    fillvalue : scalar, optional
        The fill (default NaN for pdarrays, ints becoming float64; "nan" for Strings, as
        pandas' NaN prints; for Categoricals always their missing-value label; for SegArrays
        an empty segment).

    Returns
    -------
    pdarray, Strings, Categorical or SegArray
        Of ``arr``'s kind.

    Raises
    ------
    TypeError
        ``arr`` is of another kind.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.pandas._align import fill_missing
    >>> fill_missing(ak.array([1, 2]), ak.array([True, False])).tolist()
    [1.0, nan]
    >>> fill_missing(ak.array(["a", "b"]), ak.array([False, True]), "-").tolist()
    ['-', 'b']
    """
    if isinstance(arr, pdarray):
        if fillvalue is None:
            fillvalue = np.nan
            if arr.dtype.kind != "f":
                arr = arr.astype(np.float64)
        return where(present, arr, fillvalue)._materialize()
    if isinstance(arr, Categorical):
        codes = where(present, arr.codes, arr._NAcode)._materialize()
        return Categorical._make(codes, arr.categories, arr)
    if isinstance(arr, Strings):
        fill = "nan" if fillvalue is None else builtins.str(fillvalue)

        ext = sconcat([arr, array([fill])])

        pos = where(present, arange(arr.size), arr.size)._materialize()
        return ext[pos]

    if isinstance(arr, SegArray):
        lens = _where(present, arr.lengths, 0)._materialize()

        segs, idx = gen_ranges(arr.segments, lens)
        return SegArray(segs, arr.values[idx], lengths=lens)
    raise TypeError(f"cannot fill missing values of {type(arr).__name__}")
