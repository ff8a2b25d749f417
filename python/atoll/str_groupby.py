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
"""

from . import _atoll
from .dtypes import bool_
from .pdarrayclass import pdarray
from .categorical import Categorical
from .strings import Strings, _groupby
from .creation import zeros


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
