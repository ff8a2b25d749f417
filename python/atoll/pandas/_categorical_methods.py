"""Methods of ``Categorical`` that call modules above ``atoll.pandas.categorical``.

They call GroupBy, sorting, set operations and the IO: defined here, where both are known,
and set on the class by ``atoll._attach.attach``; the root ``atoll/__init__.py`` runs this
module.
"""

from __future__ import annotations

import builtins
import os
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Union, cast

from .._attach import attach
from ..hdf5 import _check_mode, to_hdf, update_hdf
from ..io import to_parquet
from ..numpy.dtypes import int64
from ..numpy.numeric import where as _where
from ..numpy.pdarrayclass import pdarray
from ..numpy.pdarraycreation import arange, full, zeros
from ..numpy.pdarraymanipulation import bincount, concatenate as _cat
from ..numpy.pdarraysetops import in1d, unique
from ..numpy.sorting import argsort
from ..numpy.strings import Strings, concatenate
from .categorical import Categorical, _copy, _find, _strings
from .groupbyclass import GroupBy

if TYPE_CHECKING:
    # mypy reads the methods as Categorical's own; at run time the class body is a plain one.
    _Base = Categorical
else:
    _Base = object

# A path, as ``open`` takes it.
_Path = Union[str, "os.PathLike[str]"]


def _used_codes(c: Categorical) -> pdarray:
    used: pdarray = unique(c.codes)
    return used


def _take(s: Strings, idx: pdarray) -> Strings:
    # Strings' ``__getitem__`` is set by ``atoll.numpy._strings_methods``, which mypy does not see.
    out: Strings = cast(Any, s)[idx]
    return out


class _CategoricalMethods(_Base):
    # ----- grouping metadata -------------------------------------------------------------
    def _compute_groups(self) -> None:
        if not self._groups_known:
            g = GroupBy(self.codes)
            self._perm, self._segs = g.permutation, g.segments
            self._groups_known = True

    def set_categories(self, new_categories: Strings, na_value: str | None = None) -> Categorical:
        """The same values over ``new_categories``; values not among them become missing.

        Parameters
        ----------
        new_categories : Strings
            Distinct strings (the missing-value label is added when they lack it).
        na_value : str, optional
            The missing-value label (default this Categorical's).

        Returns
        -------
        Categorical
            The values, coded over ``new_categories``.

        Raises
        ------
        TypeError
            ``new_categories`` is not Strings.
        ValueError
            ``new_categories`` has duplicates.

        Examples
        --------
        >>> import atoll as ak
        >>> c = ak.Categorical(ak.array(["a", "b", "a"]))
        >>> c.set_categories(ak.array(["a", "z"])).tolist()
        ['a', 'N/A', 'a']
        """
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
            both = concatenate([_take(self.categories, present), new_categories])
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

    def reset_categories(self) -> Categorical:
        """The Categorical over only the categories its values use.

        Returns
        -------
        Categorical
            The same values, its categories those used (and the missing-value label).

        Examples
        --------
        >>> import atoll as ak
        >>> c = ak.Categorical(ak.array(["a", "b"]))[ak.array([1])]
        >>> c.reset_categories().categories.tolist()
        ['b', 'N/A']
        """
        used = unique(self.codes)
        remap = zeros(self.categories.size, int64)
        if used.size:
            remap[used] = arange(used.size)
        return Categorical.from_codes(remap[self.codes], _take(self.categories, used), na_value=self.na_value)

    def argsort(self, algorithm: object = None, ascending: bool = True) -> pdarray:
        """The stable permutation that sorts the values by code point.

        Parameters
        ----------
        algorithm : object, optional
            Accepted for Arkouda's signature.
        ascending : bool, default True
            Else the ascending permutation reversed, as Arkouda's.

        Returns
        -------
        pdarray
            int64 indices.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.Categorical(ak.array(["b", "c", "a"])).argsort().tolist()
        [2, 0, 1]
        """
        p = argsort(self._ranks())
        out: pdarray = p if ascending else _copy(p[::-1])
        return out

    def counts(self) -> tuple[Strings, pdarray]:
        """The categories and the number of values of each.

        Returns
        -------
        tuple of (Strings, pdarray)
            The categories, and an int64 count per category.

        Examples
        --------
        >>> import atoll as ak
        >>> cats, n = ak.Categorical(ak.array(["a", "b", "a"])).counts()
        >>> cats.tolist(), n.tolist()
        (['a', 'b', 'N/A'], [2, 1, 0])
        """
        return self.categories, bincount(self.codes, minlength=self.nlevels)[: self.nlevels]

    def concatenate(self, others: Iterable[Categorical], ordered: bool = True) -> Categorical:
        """The values of this Categorical and of ``others`` one after the other.

        Over the union of their categories.

        Parameters
        ----------
        others : iterable of Categorical
            The Categoricals to append.
        ordered : bool, default True
            Accepted for Arkouda's signature.

        Returns
        -------
        Categorical
            Every value, without grouping metadata.

        Raises
        ------
        TypeError
            One of ``others`` is not a Categorical.

        Examples
        --------
        >>> import atoll as ak
        >>> a, b = ak.Categorical(ak.array(["x"])), ak.Categorical(ak.array(["y", "x"]))
        >>> a.concatenate([b]).tolist()
        ['x', 'y', 'x']
        """
        arrs: list[Categorical] = [self, *others]
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
    def to_hdf(
        self,
        prefix_path: _Path,
        dataset: str = "categorical_array",
        mode: str = "truncate",
        file_type: str = "distribute",
    ) -> None:
        """Write the Categorical to HDF5 in Arkouda's layout.

        The codes, categories, NA code, and the grouping when known.

        Parameters
        ----------
        prefix_path : str or os.PathLike
            The files' prefix (a file per locale with ``file_type="distribute"``).
        dataset : str, default "categorical_array"
            The dataset's name.
        mode : str, default "truncate"
            ``"truncate"`` or ``"append"``.
        file_type : str, default "distribute"
            ``"distribute"`` (a file per locale) or ``"single"``.

        Raises
        ------
        ValueError
            ``mode`` is neither.

        Examples
        --------
        >>> import atoll as ak
        >>> import os, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), "c")
        >>> ak.Categorical(ak.array(["u", "v"])).to_hdf(path)
        >>> ak.read_hdf(path + "_LOCALE*")["categorical_array"].tolist()
        ['u', 'v']
        """
        _check_mode(mode)
        to_hdf({dataset: self}, prefix_path, mode=mode, file_type=file_type)

    def update_hdf(self, prefix_path: _Path, dataset: str = "categorical_array", repack: bool = True) -> None:
        """Replace (or add) the Categorical's dataset in existing HDF5 files.

        Parameters
        ----------
        prefix_path : str or os.PathLike
            The files' prefix.
        dataset : str, default "categorical_array"
            The dataset's name.
        repack : bool, default True
            Rewrite the files to free the replaced dataset's space.

        Examples
        --------
        >>> import atoll as ak
        >>> import os, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), "cu")
        >>> ak.Categorical(ak.array(["u"])).to_hdf(path)
        >>> ak.Categorical(ak.array(["w", "w"])).update_hdf(path)
        >>> ak.read_hdf(path + "_LOCALE*")["categorical_array"].tolist()
        ['w', 'w']
        """
        update_hdf({dataset: self}, prefix_path, repack=repack)

    def to_parquet(
        self,
        prefix_path: _Path,
        dataset: str = "categorical_array",
        mode: str = "truncate",
        compression: str | None = None,
    ) -> None:
        """Write the values as a string column (``ak.to_parquet``).

        Parameters
        ----------
        prefix_path : str or os.PathLike
            The files' prefix.
        dataset : str, default "categorical_array"
            The column's name.
        mode : str, default "truncate"
            ``"truncate"`` or ``"append"``.
        compression : str, optional
            The Parquet codec; none by default.

        Examples
        --------
        >>> import atoll as ak
        >>> import os, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), "cp")
        >>> ak.Categorical(ak.array(["u", "v"])).to_parquet(path)
        >>> ak.read_parquet(path + "_LOCALE*")["categorical_array"].tolist()
        ['u', 'v']
        """
        to_parquet({dataset: self}, prefix_path, mode=mode, compression=compression)

    def in1d(self, test: Strings | Categorical) -> pdarray:
        """Whether each value occurs in ``test``.

        Parameters
        ----------
        test : Strings or Categorical
            The values to look for.

        Returns
        -------
        pdarray
            bool, one per value.

        Raises
        ------
        TypeError
            ``test`` is of another kind.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.Categorical(ak.array(["a", "b"])).in1d(ak.array(["b"])).tolist()
        [False, True]
        """
        if isinstance(test, Categorical):
            t = _take(test.categories, _used_codes(test))
        elif isinstance(test, Strings):
            t = test
        else:
            raise TypeError(f"test: expected Strings or Categorical, got {type(test).__name__}")
        found: pdarray = self.categories.in1d(t)[self.codes]
        return found

    def unique(self) -> Categorical:
        """The distinct values present, in category order (Arkouda's ``unique``).

        Returns
        -------
        Categorical
            The values, whose categories are those values.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.Categorical(ak.array(["b", "a", "b"])).unique().tolist()
        ['a', 'b']
        """
        used = _used_codes(self)
        return Categorical.from_codes(arange(used.size), _take(self.categories, used), na_value=self.na_value)


attach(Categorical, _CategoricalMethods)
