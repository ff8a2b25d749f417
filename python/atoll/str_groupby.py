"""Strings (and Categoricals) as keys of ``ak.GroupBy`` and ``ak.coargsort``.

- ``GroupBy(strings)``: one distributed sample sort of the strings gives the permutation, the
  segments, the unique keys (``Strings``) and the counts (``atoll-strings``' GroupBy).
- ``GroupBy([strings, pdarray, ...])`` and ``coargsort``: each Strings key is replaced by its
  **ranks** (each string's position among the distinct strings, sorted by code point: one
  sample sort), which sort and compare exactly as the strings do, and the rows are grouped by
  the numeric multi-key sort; the unique keys are read back from the original keys at the
  groups' first rows. A ``Categorical`` gives its codes as ranks (no sort when its categories
  are sorted, as ``Categorical(strings)`` makes them).

Ranks compare only within one array: they are never mixed across two arrays.

``radix_key`` combines keys of small ranges (Categoricals, Strings, int64 / uint8 / bool
pdarrays) into one int64 key, a mixed-radix number whose first key is the most significant
digit: it orders as the rows of the keys order lexicographically, so one dense pass (or one
single-key sort) groups the rows as the multi-key sort does, with the same groups in the
same order.
"""

import builtins

from . import _atoll
from ._keys import COMBINE_MAX_PRODUCT
from .categorical import Categorical
from .numpy.dtypes import bool_, int64, uint8
from .numpy.pdarrayclass import max as _max, min as _min, pdarray
from .numpy.pdarraycreation import zeros
from .numpy.strings import Strings, _groupby


def is_str_key(k):
    """Whether ``k`` is a Strings or a Categorical."""

    return isinstance(k, (Strings, Categorical))


def string_ranks(s):
    """The rank of each string of ``s`` among its distinct strings (int64 pdarray)."""
    return pdarray(_atoll.str_categorical_py(s._s)[0])


def rank_keys(keys):
    """``keys`` with every Strings / Categorical replaced by its ranks (same list shape)."""

    def one(k):
        return k._ranks() if is_str_key(k) else k

    if isinstance(keys, (list, tuple)):
        return [one(k) for k in keys]
    return one(keys)


def init_strings(g, s, dropna):
    """Fills the GroupBy ``g`` for the single Strings key ``s`` (one sample sort)."""

    perm, segs, uk, counts = _groupby(s)
    flags = zeros(s.size, bool_)
    if segs.size:
        flags[segs] = True
    g.keys, g.nkeys, g.dropna = s, 1, dropna
    g._nrows = g.length = s.size
    g._seq, g._dense, g._ks, g._kept = False, None, None, None
    g._perm, g._segs, g._flags_, g._uk, g._counts = perm, segs, flags, uk, counts


def _digit(k):
    """``(digit, range, decode)`` of one key: ``digit`` an int64 pdarray of values in
    ``0..range``, and ``decode`` the map from such digits back to keys of ``k``'s type (the
    values a gather of ``k`` at rows with those digits gives); None when ``k`` is of another
    type."""
    if isinstance(k, Categorical):
        ranks = k._ranks()
        order = None if k._is_sorted() else k.categories.argsort()

        def decode_cat(d):
            return Categorical._make(d if order is None else order[d], k.categories, k)

        return ranks, k.categories.size, decode_cat
    if isinstance(k, Strings):
        codes, uniq = _atoll.str_categorical_py(k._s)
        uniq = Strings(uniq)
        return pdarray(codes), uniq.size, lambda d: uniq[d]
    if not isinstance(k, pdarray):
        return None
    if k.dtype == bool_:
        return k.astype(int64), 2, lambda d: (d != 0)._materialize()
    if k.dtype not in (int64, uint8):
        return None
    lo, hi = builtins.int(_min(k)), builtins.int(_max(k))
    dt = k.dtype
    digit = k - lo if dt == int64 else k.astype(int64) - lo

    def decode_int(d):
        v = d + lo
        return v._materialize() if dt == int64 else v.astype(uint8)._materialize()

    return digit, hi - lo + 1, decode_int


def radix_key(keys):
    """``(key, product of the ranges, decode)`` for ``keys`` (a Categorical, or a list/tuple
    of Categoricals, Strings and int64 / uint8 / bool pdarrays) combined into one int64
    pdarray, or None when a key is of another type, the sizes differ, there are no rows, or
    the product of the ranges passes ``COMBINE_MAX_PRODUCT``. ``decode`` maps distinct
    combined keys (an int64 pdarray) to the distinct keys: one array, or a tuple of them for
    a list of keys."""
    seq = isinstance(keys, (list, tuple))
    ks = list(keys) if seq else [keys]
    if not ks or not (seq or isinstance(keys, Categorical)):
        return None
    n = ks[0].size if hasattr(ks[0], "size") else None
    if not n or builtins.any(not hasattr(k, "size") or k.size != n for k in ks):
        return None
    if not builtins.all(isinstance(k, (Categorical, Strings, pdarray)) for k in ks):
        return None
    digits = []
    product = 1
    for k in ks:
        d = _digit(k)
        if d is None:
            return None
        digits.append(d)
        product *= builtins.max(d[1], 1)
        if product > COMBINE_MAX_PRODUCT:
            return None
    strides = []
    s = 1
    for _, r, _ in reversed(digits):
        strides.append(s)
        s *= builtins.max(r, 1)
    strides.reverse()
    key = None
    for (d, _, _), st in zip(digits, strides):
        term = d * st if st != 1 else d
        key = term if key is None else key + term
    key = key._materialize()

    def decode(u):
        out = []
        for i, ((_, r, dec), st) in enumerate(zip(digits, strides)):
            q = u // st if st != 1 else u
            if i:
                q = q % r  # the most significant digit needs no reduction
            out.append(dec(q._materialize()))
        return tuple(out) if seq else out[0]

    return key, product, decode
