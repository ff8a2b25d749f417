"""Methods of ``Categorical`` that call modules above ``atoll.pandas.categorical`` (GroupBy,
sorting, set operations and the IO): defined here, where both are known, and set on the class
by ``atoll._attach.attach``; the root ``atoll/__init__.py`` runs this module."""

import builtins

from .._attach import attach
from ..hdf5 import _check_mode, to_hdf, update_hdf
from ..io import to_parquet
from ..numpy.dtypes import int64
from ..numpy.numeric import where as _where
from ..numpy.pdarraycreation import arange, full, zeros
from ..numpy.pdarraymanipulation import bincount, concatenate as _cat
from ..numpy.pdarraysetops import in1d, unique
from ..numpy.sorting import argsort
from ..numpy.strings import Strings, concatenate
from .categorical import Categorical, _copy, _find, _strings
from .groupbyclass import GroupBy


def _used_codes(c):
    return unique(c.codes)


class _CategoricalMethods:
    # ----- grouping metadata -------------------------------------------------------------
    def _compute_groups(self):
        if not self._groups_known:
            g = GroupBy(self.codes)
            self._perm, self._segs = g.permutation, g.segments
            self._groups_known = True

    def set_categories(self, new_categories, na_value=None):
        """The same values over ``new_categories`` (distinct Strings); values not among them
        become the missing-value label."""

        if na_value is None:
            na_value = self.na_value
        if not isinstance(new_categories, Strings):
            raise TypeError(f"new_categories: expected Strings, got {type(new_categories).__name__}")
        k = _find(new_categories, na_value)
        if k is None:
            new_categories = concatenate([new_categories, _strings([na_value])])
            k = new_categories.size - 1
        g = GroupBy(new_categories)
        _, ct = g.size()
        if ct.size and builtins.int(ct.max()) > 1:
            raise ValueError("User-specified categories must be unique")
        # Old category i -> new code: its rank among the new categories via a joint sort.
        mapping = full(self.categories.size, k, int64)
        present = in1d(self.categories, new_categories)
        if self.categories.size and builtins.bool(present.any()):
            both = concatenate([self.categories[present], new_categories])
            gb = GroupBy(both)
            old_idx = arange(self.categories.size)[present]
            m = old_idx.size
            # Every present old category shares a group with exactly one new category.
            _, cnt = gb.size()
            seg2 = gb.segments[(cnt == 2)._materialize()]
            a, b = gb.permutation[seg2], gb.permutation[seg2 + 1]
            old_pos = _where(a < m, a, b)
            new_pos = _where(a < m, b, a) - m
            mapping[old_idx[old_pos]] = new_pos
        new_codes = mapping[self.codes]
        return Categorical.from_codes(new_codes, new_categories, na_value=na_value)

    def reset_categories(self):
        """The Categorical over only the categories its values use (and the missing-value
        label)."""

        used = unique(self.codes)
        remap = zeros(self.categories.size, int64)
        if used.size:
            remap[used] = arange(used.size)
        return Categorical.from_codes(remap[self.codes], self.categories[used], na_value=self.na_value)

    def argsort(self, algorithm=None, ascending=True):
        """The stable permutation that sorts the values by code point (reversed when not
        ``ascending``, as Arkouda's)."""

        p = argsort(self._ranks())
        return p if ascending else _copy(p[::-1])

    def counts(self):
        """``(categories, the number of values of each)``."""

        return self.categories, bincount(self.codes, minlength=self.nlevels)[: self.nlevels]

    def concatenate(self, others, ordered=True):
        """This Categorical and ``others`` one after the other, over the union of their
        categories (no grouping metadata)."""

        arrs = [self] + list(others)
        for a in arrs:
            if not isinstance(a, Categorical):
                raise TypeError("Categorical: can only merge/concatenate with other Categoricals")
        if builtins.all(a._same_categories(self) for a in arrs[1:]):
            codes = _cat([a.codes for a in arrs])
            return Categorical._make(codes, self.categories, self)
        std = Categorical.standardize_categories(arrs, na_value=self.na_value)
        codes = _cat([a.codes for a in std])
        return Categorical.from_codes(codes, std[0].categories, na_value=self.na_value)

    # ----- IO ----------------------------------------------------------------------------
    def to_hdf(self, prefix_path, dataset="categorical_array", mode="truncate", file_type="distribute"):
        """Writes the Categorical (codes, categories, NA code, and the grouping when known)
        to HDF5 in Arkouda's layout."""

        _check_mode(mode)
        to_hdf({dataset: self}, prefix_path, mode=mode, file_type=file_type)

    def update_hdf(self, prefix_path, dataset="categorical_array", repack=True):
        update_hdf({dataset: self}, prefix_path, repack=repack)

    def to_parquet(self, prefix_path, dataset="categorical_array", mode="truncate", compression=None):
        """Writes the values as a string column (``ak.to_parquet``)."""

        to_parquet({dataset: self}, prefix_path, mode=mode, compression=compression)

    def in1d(self, test):
        """Whether each value occurs in ``test`` (Strings or Categorical)."""
        if isinstance(test, Categorical):
            t = test.categories[_used_codes(test)]
        elif isinstance(test, Strings):
            t = test
        else:
            raise TypeError(f"test: expected Strings or Categorical, got {type(test).__name__}")
        return self.categories.in1d(t)[self.codes]

    def unique(self):
        """The distinct values present, in category order, as a Categorical whose categories
        are those values (Arkouda's ``unique``)."""

        used = _used_codes(self)
        return Categorical.from_codes(arange(used.size), self.categories[used], na_value=self.na_value)


attach(Categorical, _CategoricalMethods)
