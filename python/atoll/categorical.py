"""Arkouda's ``Categorical`` (issue 17): strings stored as int64 ``codes`` into distinct
``categories``.

``Categorical(strings)`` makes the categories the distinct strings sorted by code point (one
distributed sample sort), so codes order as the strings do: sorting and grouping by a
Categorical are numeric sorts of its codes, and comparing with a string is one lookup among
the categories then a comparison of codes. ``from_codes`` takes any distinct categories
(sorted or not).

Differences from Arkouda: no ``NAvalue`` category is added (as ``pandas.Categorical``, the
categories are exactly the distinct values), and codes must lie in ``0..len(categories)``.
"""

import builtins

import numpy as np

from .dtypes import int64
from .pdarrayclass import pdarray, _check
from .strings import Strings


class Categorical:
    """Strings as codes into distinct categories (Arkouda's ``ak.Categorical``)."""

    __slots__ = ("codes", "categories", "_sorted")

    def __init__(self, values):
        from . import _atoll

        if isinstance(values, Categorical):
            self.codes, self.categories, self._sorted = values.codes, values.categories, values._sorted
            return
        if not isinstance(values, Strings):
            raise TypeError(f"values: expected Strings, got {type(values).__name__}")
        c, k = _atoll.str_categorical_py(values._s)
        self.codes, self.categories, self._sorted = pdarray(c), Strings(k), True

    @classmethod
    def from_codes(cls, codes, categories):
        """The Categorical with the given int64 ``codes`` (each in ``0..len(categories)``) into
        the distinct Strings ``categories``."""
        from .pdarrayclass import max as _max, min as _min

        _check(codes, "codes")
        if codes.dtype != int64:
            raise TypeError(f"codes: expected an int64 pdarray, got {codes.dtype}")
        if not isinstance(categories, Strings):
            raise TypeError(f"categories: expected Strings, got {type(categories).__name__}")
        if codes.size and (builtins.int(_min(codes)) < 0 or builtins.int(_max(codes)) >= categories.size):
            raise ValueError(
                f"codes: every code must be in [0, {categories.size}), got values in "
                f"[{builtins.int(_min(codes))}, {builtins.int(_max(codes))}]"
            )
        if categories.size and categories.unique().size != categories.size:
            raise ValueError("categories: must be distinct")
        return cls._make(codes, categories, None)

    @classmethod
    def _make(cls, codes, categories, is_sorted):
        c = cls.__new__(cls)
        c.codes, c.categories, c._sorted = codes, categories, is_sorted
        return c

    # ----- basics ------------------------------------------------------------------------
    @property
    def size(self):
        return self.codes.size

    def __len__(self):
        return self.codes.size

    @property
    def nlevels(self):
        """The number of categories."""
        return self.categories.size

    @property
    def ndim(self):
        return 1

    @property
    def shape(self):
        return (self.size,)

    def to_strings(self):
        """The values as Strings (``categories[codes]``)."""
        return self.categories[self.codes]

    def to_list(self):
        return self.to_strings().to_list()

    tolist = to_list

    @property
    def nbytes(self):
        """The bytes of the codes and of the categories."""
        return self.codes.nbytes + self.categories.nbytes

    def to_ndarray(self):
        """The values, as a NumPy array of ``str``."""
        return np.array(self.to_list(), dtype=str)

    def __iter__(self):
        return iter(self.to_list())

    def __repr__(self):
        return f"Categorical({self.to_strings()!r}, {self.nlevels} categories)"

    def __getitem__(self, key):
        if isinstance(key, (builtins.int, np.integer)) and not isinstance(key, (builtins.bool, np.bool_)):
            return self.categories[builtins.int(self.codes[key])]
        return Categorical._make(self.codes[key], self.categories, self._sorted)

    # ----- comparisons -------------------------------------------------------------------
    def _same_categories(self, other):
        if self.categories is other.categories:
            return True
        if self.categories.size != other.categories.size:
            return False
        from .pdarrayclass import all as _all

        return self.categories.size == 0 or builtins.bool(_all(self.categories == other.categories))

    def _eq(self, other):
        if isinstance(other, str):
            return (self.categories == other)[self.codes]._materialize()
        if isinstance(other, Categorical):
            if other.size != self.size:
                raise ValueError(f"size mismatch: {self.size} and {other.size}")
            if self._same_categories(other):
                return self.codes == other.codes
            return self.to_strings() == other.to_strings()
        if isinstance(other, Strings):
            return self.to_strings() == other
        return NotImplemented

    def __eq__(self, other):
        return self._eq(other)

    def __ne__(self, other):
        r = self._eq(other)
        return r if r is NotImplemented else (~r)._materialize()

    __hash__ = None

    # ----- string predicates, on the categories ------------------------------------------
    def contains(self, substr, regex=False):
        """Whether each value contains ``substr`` (evaluated once per category)."""
        return self.categories.contains(substr, regex=regex)[self.codes]

    def startswith(self, substr, regex=False):
        return self.categories.startswith(substr, regex=regex)[self.codes]

    def endswith(self, substr, regex=False):
        if substr == "" and not regex:  # every value ends with "" (Strings refuses it: Arkouda)
            from .creation import full

            return full(self.size, True, bool)
        return self.categories.endswith(substr, regex=regex)[self.codes]

    def in1d(self, test):
        """Whether each value occurs in ``test`` (Strings or Categorical)."""
        t = test.to_strings() if isinstance(test, Categorical) else test
        return self.categories.in1d(t)[self.codes]

    # ----- as keys -----------------------------------------------------------------------
    def _is_sorted(self):
        if self._sorted is None:
            from .creation import arange
            from .pdarrayclass import all as _all

            k = self.categories.size
            self._sorted = k == 0 or builtins.bool(_all(self.categories.argsort() == arange(k)))
        return self._sorted

    def _ranks(self):
        """The rank of each value's category in code-point order: the codes when the
        categories are sorted."""
        if self._is_sorted():
            return self.codes
        from .creation import arange, zeros

        k = self.categories.size
        rank = zeros(k, int64)
        rank[self.categories.argsort()] = arange(k)
        return rank[self.codes]

    def argsort(self):
        """The stable permutation that sorts the values (by code point)."""
        from .sorting import argsort

        return argsort(self._ranks())

    def sort(self):
        """The values sorted, as a Categorical with the same categories."""
        return self[self.argsort()]

    def group(self):
        """The permutation that groups equal values (sorted)."""
        return self.argsort()

    def unique(self):
        """The distinct values present, in category order, as a Categorical whose categories
        are those values (Arkouda's ``unique``)."""
        from .creation import arange
        from .setops import unique

        used = unique(self.codes)
        return Categorical._make(arange(used.size), self.categories[used], self._sorted)

    def counts(self):
        """``(categories, the number of values of each)``."""
        from .manipulation import bincount

        return self.categories, bincount(self.codes, minlength=self.nlevels)[: self.nlevels]


__all__ = ["Categorical"]
