"""Matching labels between arrays, on one GroupBy of both (distributed: no labels gathered
to the driver): ``find`` gives, for each argument, the index of its first equal key, and
``lookup`` the value stored with that key. Keys and arguments are arrays of any groupable
kind (pdarray, Strings, Categorical), or lists of them (rows of several levels)."""

import builtins

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


def _levels(x):
    return list(x) if isinstance(x, (list, tuple)) else [x]


def find(keys, args):
    """For each row of ``args``, the index of the first equal row of ``keys``, or -1."""

    kl, al = _levels(keys), _levels(args)
    if len(kl) != len(al):
        raise ValueError(f"keys and arguments have {len(kl)} and {len(al)} levels")
    nk, na = kl[0].size, al[0].size
    if na == 0:
        return zeros(0, int64)
    if nk == 0:
        return zeros(na, int64) - 1
    both = [_same_kind(generic_concat([k, a])) for k, a in zip(kl, al)]
    g = GroupBy(both if len(both) > 1 else both[0], dropna=False)
    _, first = g.min(arange(nk + na))  # the smallest row of each group: a key when it has one
    per_row = g.broadcast(first, permute=True)[nk:]
    return where(per_row < nk, per_row, -1)._materialize()


def _same_kind(x):
    return x


def lookup(keys, values, args, fillvalue=None):
    """``values[i]`` for the key ``i`` equal to each argument; ``fillvalue`` where none is
    (NaN for floats and ints become float64 when it is None and some argument is missing)."""

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


def fill_missing(arr, present, fillvalue=None):
    """``arr`` with the rows where ``present`` is False replaced by ``fillvalue`` (Strings:
    "nan" by default, as pandas' NaN prints; Categorical: its missing-value label)."""

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
