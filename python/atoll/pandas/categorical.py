"""Arkouda's ``Categorical`` (``arkouda.pandas.categorical``): strings stored as int64
``codes`` into distinct ``categories``, with Arkouda's missing-value category.

``Categorical(strings)`` makes the categories the distinct strings sorted by code point (one
distributed sample sort), then appends the missing-value label ``na_value`` (``"N/A"`` by
default) unless a string equals it, as Arkouda does; ``isna()`` marks the values whose code is
that category's. Codes of present values order as the strings do, so sorting and grouping by
a Categorical are numeric sorts of its codes. ``permutation`` and ``segments`` (the grouping of
the values by category) are computed on first use for a Categorical made from strings, and
are None for one made with ``from_codes`` (unless given).

Difference from Arkouda: Arkouda orders the categories of ``Categorical(strings)`` by a hash
of the strings; Atoll sorts them (the order pandas uses), so ``unique()`` and ``categories``
come in code-point order.

>>> import atoll as ak
>>> c = ak.Categorical(ak.array(["b", "a", "b", "c"]))
>>> c.categories.to_list()
['a', 'b', 'c', 'N/A']
>>> c.codes.tolist()
[1, 0, 1, 2]
>>> (c == "b").tolist()
[True, False, True, False]
"""

import builtins

import numpy as np

from .. import _atoll
from .._optional import loaded, pd
from ..numpy.dtypes import int64
from ..numpy.numeric import register_categorical, where as _where
from ..numpy.pdarrayclass import _check, all as _all, any as _any, argmax, pdarray
from ..numpy.pdarraycreation import arange, array, full, zeros
from ..numpy.strings import Strings, concatenate, from_list, unique
from ._registry import Registrable

__all__ = ["Categorical"]


def _strings(values):
    return from_list([builtins.str(v) for v in values])


def _find(categories, value):
    """The index of ``value`` among ``categories``, or None."""

    hit = categories == value
    if categories.size and builtins.bool(_any(hit)):
        return builtins.int(argmax(hit.astype(int64)))
    return None


class Categorical(Registrable):
    """Strings as codes into distinct categories (Arkouda's ``ak.Categorical``)."""

    objType = "Categorical"
    BinOps = frozenset(["==", "!="])
    RegisterablePieces = frozenset(["categories", "codes", "permutation", "segments", "_akNAcode"])

    def __init__(self, values, **kwargs):
        self.registered_name = None
        self._perm = self._segs = None
        self._groups_known = False
        pd_missing = False
        if "codes" in kwargs and "categories" in kwargs:
            codes, cats = kwargs["codes"], kwargs["categories"]
            _check(codes, "codes")
            if codes.dtype != int64:
                raise TypeError("Codes must be pdarray of int64")
            if not isinstance(cats, Strings):
                raise TypeError(f"categories: expected Strings, got {type(cats).__name__}")
            if codes.size:
                lo, hi = builtins.int(codes.min()), builtins.int(codes.max())
                if lo < 0 or hi >= cats.size:
                    raise ValueError(
                        f"Codes out of bounds for categories: min = {lo}, max = {hi}, categories = {cats.size}"
                    )
            self.codes, self.categories = codes, cats
            perm, segs = kwargs.get("permutation"), kwargs.get("segments")
            if perm is not None and segs is not None:
                self._perm, self._segs = perm, segs
            self._groups_known = True
            self._sorted = None
        elif isinstance(values, Categorical):
            self.codes, self.categories = values.codes, values.categories
            self._perm, self._segs, self._groups_known = values._perm, values._segs, values._groups_known
            self._sorted = values._sorted
            self.na_value, self._NAcode, self._akNAcode = values.na_value, values._NAcode, values._akNAcode
            self._finish()
            return
        elif _is_pandas_categorical(values):
            self.categories = _strings(list(values.categories))
            pd_codes = np.asarray(values.codes, dtype=np.int64)
            pd_missing = builtins.bool((pd_codes < 0).any())  # pandas' code of a missing value: -1
            self.codes = array(pd_codes)
            self._groups_known = True
            self._sorted = None
        elif isinstance(values, Strings):
            c, k = _atoll.str_categorical_py(values._s)
            self.codes, self.categories = pdarray(c), Strings(k)
            self._sorted = True  # codes of the strings order as the strings
        elif hasattr(values, "__len__") and len(values) == 0:
            self.codes, self.categories = zeros(0, int64), _strings([])
            self._groups_known, self._sorted = True, True
        else:
            raise ValueError("Categorical: inputs other than Strings or pd.Categorical not yet supported")
        ak_na = kwargs.get("_akNAcode")
        if ak_na is not None:
            self._akNAcode = ak_na
            self._NAcode = builtins.int(ak_na[0])
            self.na_value = self.categories[self._NAcode]
        else:
            self.na_value = kwargs.get("na_value", "N/A")
            k = _find(self.categories, self.na_value)
            if k is None:
                self.categories = concatenate([self.categories, _strings([self.na_value])])
                k = self.categories.size - 1
                # The appended label is used by no value: present codes still order as strings.
            self._NAcode = k
            self._akNAcode = array(np.array([k], dtype=np.int64))
        if pd_missing:
            self.codes = _where(self.codes < 0, self._NAcode, self.codes)._materialize()
        self._finish()

    def _finish(self):
        self.size = self.codes.size
        self.nlevels = self.categories.size
        self.ndim = 1
        self.shape = (self.size,)
        self.dtype = np.dtype(str)

    @classmethod
    def from_codes(cls, codes, categories, permutation=None, segments=None, **kwargs):
        """The Categorical with the given int64 ``codes`` (each in ``0..len(categories)``)
        into the Strings ``categories`` (the missing-value label appended if absent)."""
        _check(codes, "codes")
        if codes.dtype != int64:
            raise TypeError("Codes must be pdarray of int64")
        if not isinstance(categories, Strings):
            raise TypeError(f"categories: expected Strings, got {type(categories).__name__}")
        if categories.size and categories.unique().size != categories.size:
            raise ValueError("categories: must be distinct")
        return cls(None, codes=codes, categories=categories, permutation=permutation, segments=segments, **kwargs)

    @classmethod
    def _make(cls, codes, categories, like):
        """A Categorical sharing ``like``'s categories and missing-value code."""
        c = cls.__new__(cls)
        c.registered_name = None
        c.codes, c.categories = codes, categories
        c._perm = c._segs = None
        c._groups_known = True
        c._sorted = like._sorted
        c.na_value, c._NAcode, c._akNAcode = like.na_value, like._NAcode, like._akNAcode
        c._finish()
        return c

    @property
    def permutation(self):
        """The permutation that groups the values by category (None when not known)."""
        self._compute_groups()
        return self._perm

    @property
    def segments(self):
        """The start of each category's group of values (None when not known)."""
        self._compute_groups()
        return self._segs

    # ----- basics ------------------------------------------------------------------------
    @property
    def nbytes(self):
        return self.codes.nbytes + self.categories.nbytes if hasattr(self.categories, "nbytes") else self.codes.nbytes

    @property
    def inferred_type(self):
        return "categorical"

    def __len__(self):
        return self.codes.size

    def isna(self):
        """True where the value is the missing-value label."""
        return (self.codes == self._NAcode)._materialize()

    def to_strings(self):
        """The values as Strings (``categories[codes]``)."""
        return self.categories[self.codes]

    def to_ndarray(self):
        """The values, as a NumPy array of ``str``."""
        return np.array(self.to_strings().to_list(), dtype=str)

    def tolist(self):
        return self.to_strings().to_list()

    to_list = tolist

    def to_pandas(self):
        """The equivalent ``pandas.Categorical`` (same codes and categories)."""
        return pd.Categorical.from_codes(
            codes=self.codes.to_ndarray(), categories=pd.Index(self.categories.to_ndarray())
        )

    def __iter__(self):
        return iter(self.tolist())

    def __str__(self):
        if self.size <= 100:
            vals = [f"'{v}'" for v in self.tolist()]
        else:
            vals = [f"'{v}'" for v in self[:3].tolist()] + ["... "] + [f"'{v}'" for v in self[self.size - 3 :].tolist()]
        return "[{}]".format(", ".join(vals))

    def __repr__(self):
        return f"array({self})"

    def __getitem__(self, key):
        if isinstance(key, (builtins.int, np.integer)) and not isinstance(key, (builtins.bool, np.bool_)):
            return self.categories[builtins.int(self.codes[key])]
        return Categorical._make(self.codes[key], self.categories, self)

    def copy(self):
        """A deep copy (codes, categories, and the grouping when known)."""

        c = Categorical._make(_copy(self.codes), self.categories[arange(self.categories.size)], self)
        c._groups_known = self._groups_known
        if self._perm is not None:
            c._perm, c._segs = _copy(self._perm), _copy(self._segs)
        return c

    # ----- comparisons -------------------------------------------------------------------
    def _same_categories(self, other):
        if self.categories is other.categories:
            return True
        if self.categories.size != other.categories.size:
            return False

        return self.categories.size == 0 or builtins.bool(_all(self.categories == other.categories))

    def _binop(self, other, op):
        if op not in self.BinOps:
            raise NotImplementedError(f"Categorical: unsupported operator: {op}")
        if isinstance(other, (str, np.str_)):
            hit = self.categories == builtins.str(other)
            r = hit[self.codes]
            return r._materialize() if op == "==" else (~r)._materialize()
        if isinstance(other, Categorical):
            if other.size != self.size:
                raise ValueError(f"Categorical {op}: size mismatch {self.size} {other.size}")
            if self._same_categories(other):
                return self.codes == other.codes if op == "==" else self.codes != other.codes
            a, b = Categorical.standardize_categories([self, other])
            return a.codes == b.codes if op == "==" else a.codes != b.codes
        if isinstance(other, Strings):
            r = self.to_strings() == other
            return r if op == "==" else (~r)._materialize()
        raise TypeError(f"Categorical {op}: unsupported operand type {type(other).__name__}")

    def _r_binop(self, other, op):
        return self._binop(other, op)

    def __eq__(self, other):
        if not isinstance(other, (str, np.str_, Categorical, Strings)):
            return NotImplemented
        return self._binop(other, "==")

    def __ne__(self, other):
        if not isinstance(other, (str, np.str_, Categorical, Strings)):
            return NotImplemented
        return self._binop(other, "!=")

    __hash__ = None

    def equals(self, other):
        """True when ``other`` is a Categorical of the same values."""
        if isinstance(other, Categorical) and other.size == self.size:
            return builtins.bool(_all(self == other)) if self.size else True
        return False

    # ----- categories --------------------------------------------------------------------
    @classmethod
    def standardize_categories(cls, arrays, na_value="N/A"):
        """The Categoricals of ``arrays`` remapped to one set of categories (the union of
        theirs, sorted, with ``na_value``)."""

        for a in arrays:
            if not isinstance(a, cls):
                raise TypeError(f"All arguments must be {cls.__name__}")
        cats = unique(concatenate([a.categories for a in arrays]))
        if _find(cats, na_value) is None:
            cats = concatenate([cats, _strings([na_value])])
        return [a.set_categories(cats, na_value=na_value) for a in arrays]

    # ----- string predicates, on the categories ------------------------------------------
    def contains(self, substr, regex=False):
        return self.categories.contains(substr, regex=regex)[self.codes]

    def startswith(self, substr, regex=False):
        return self.categories.startswith(substr, regex=regex)[self.codes]

    def endswith(self, substr, regex=False):
        if substr == "" and not regex:  # every value ends with "" (Strings refuses it: Arkouda)
            return full(self.size, True, bool)
        return self.categories.endswith(substr, regex=regex)[self.codes]

    # ----- as keys -----------------------------------------------------------------------
    def _is_sorted(self):
        if self._sorted is None:
            k = self.categories.size
            self._sorted = k == 0 or builtins.bool(_all(self.categories.argsort() == arange(k)))
        return self._sorted

    def _ranks(self):
        """The rank of each value's category in code-point order (the codes themselves when
        they already order as the strings)."""
        if self._is_sorted():
            return self.codes

        k = self.categories.size
        rank = zeros(k, int64)
        rank[self.categories.argsort()] = arange(k)
        return rank[self.codes]

    def _get_grouping_keys(self):
        return [self._ranks()]

    def sort_values(self):
        """The values sorted, as a Categorical with the same categories."""
        return self[self.argsort()]

    sort = sort_values

    def group(self):
        """The permutation that groups equal values (sorted)."""
        return self.argsort()

    def hash(self):
        """Two uint64 pdarrays: a 128-bit hash of each value (of its string)."""
        h1, h2 = self.categories.hash()
        return h1[self.codes], h2[self.codes]


def _copy(v):
    return v.astype(v.dtype)._materialize()


def _is_pandas_categorical(v):
    return loaded("pandas") and isinstance(v, pd.Categorical)


def where(condition, A, B):
    """``ak.where`` with a Categorical (or a string) on either side: a Categorical over the
    union of the categories (a string that is no category becomes one)."""

    def as_cat(x):
        if isinstance(x, Categorical):
            return x
        if isinstance(x, Strings):
            return Categorical(x)
        if isinstance(x, (str, np.str_)):
            return Categorical.from_codes(_zeros_codes(condition.size), _strings([builtins.str(x)]))
        raise TypeError(f"where: expected a Categorical, Strings or str, got {type(x).__name__}")

    a, b = as_cat(A), as_cat(B)
    if not a._same_categories(b):
        a, b = Categorical.standardize_categories([a, b], na_value=a.na_value)
    codes = _where(condition, a.codes, b.codes)._materialize()
    return Categorical.from_codes(codes, a.categories, na_value=a.na_value)


def _zeros_codes(n):
    return zeros(n, int64)


register_categorical(Categorical, where)
