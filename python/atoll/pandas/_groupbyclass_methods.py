"""Methods of ``GroupBy`` that call modules above ``atoll.pandas.groupbyclass``.

They call sorting, concatenation, SegArray, sampling and the IO: defined here, where both are
known, and set on the class by ``atoll._attach.attach``; the root ``atoll/__init__.py`` runs
this module.
"""

from __future__ import annotations

import builtins
import os
from typing import TYPE_CHECKING, Any, Union

import numpy as np

from .._attach import attach
from .._keys import key_expr
from ..hdf5 import to_hdf, update_hdf
from ..numpy.dtypes import bool_, float64, int64
from ..numpy.numeric import isnan, isnan as _isnan, where
from ..numpy.pdarrayclass import cumsum, pdarray
from ..numpy.pdarraycreation import array, full, zeros
from ..numpy.pdarraymanipulation import bincount, concatenate
from ..numpy.segarray import SegArray, gen_ranges
from ..numpy.sorting import coargsort, group_keys
from ._bigint_groupby import is_bigint
from ._sample import group_sample
from .groupbyclass import GroupBy, _unwrap_values, _values_list

if TYPE_CHECKING:
    # mypy reads the methods as GroupBy's own; at run time the class body is a plain one.
    _Base = GroupBy
else:
    _Base = object

# A path, as ``open`` takes it.
_Path = Union[str, "os.PathLike[str]"]


class _GroupByMethods(_Base):
    def _group(self) -> None:
        """The sort: permutation, group-start flags and segments."""
        if self._perm is not None:
            return
        if self.length == 0:
            perm, self._flags_, self._segs = zeros(0, int64), zeros(0, bool_), zeros(0, int64)
        else:
            perm, self._flags_, self._segs = group_keys([key_expr(k) for k in self._ks], self._ks, self.length)
        self._perm = perm if self._kept is None else self._kept[perm]

    # ----- structure ---------------------------------------------------------------------
    def _ends(self) -> Any:  # noqa: ANN401 (a pdarray)
        return (
            concatenate([self.segments[1:], array(np.array([self.length], dtype=np.int64))])
            if self.ngroups
            else self.segments
        )

    def median(self, values: Any, skipna: bool = True) -> tuple[Any, Any]:  # noqa: ANN401 (a pdarray or bigint array)
        """The median of each group.

        Parameters
        ----------
        values : pdarray or BigIntArray
            One value per row (int64, uint64, uint8, float64, bool or bigint).
        skipna : bool, default True
            Leave NaN values out (else a group with a NaN has a NaN median).

        Returns
        -------
        tuple
            The unique keys, and the float64 median of each group (NaN for a group without
            values).

        Raises
        ------
        TypeError
            ``values`` has another dtype.
        ValueError
            ``values`` has not one value per row.

        Examples
        --------
        >>> import atoll as ak
        >>> g = ak.GroupBy(ak.array([1, 0, 1, 1]))
        >>> keys, med = g.median(ak.array([4.0, 2.0, 1.0, 3.0]))
        >>> keys.tolist(), med.tolist()
        ([0, 1], [2.0, 3.0])
        """
        if is_bigint(values):
            return self.aggregate(values, "median")
        values = self._check_values(values, ("int64", "uint64", "uint8", "float64", "bool"), "median")
        if self.ngroups == 0:
            return self.unique_keys, zeros(0, float64)
        v = values.astype(float64)
        gid = self._group_ids()
        keep = gid >= 0
        if skipna:
            keep = keep & ~isnan(v)
        keep = keep._materialize()
        gid, v = gid[keep], v[keep]
        out = full(self.ngroups, np.nan, float64)
        if gid.size == 0:
            return self.unique_keys, out
        perm = coargsort([gid, v])
        sg, sv = gid[perm], v[perm]
        g2 = GroupBy(sg, assume_sorted=True)
        keys, cnt = g2.size()
        seg = g2.segments
        lo = sv[seg + (cnt - 1) // 2]
        hi = sv[seg + cnt // 2]
        med = (lo + hi) / 2.0
        if not skipna:
            anynan = self._agg(_isnan(values.astype(float64)), "any")
            out[keys] = med
            return self.unique_keys, where(anynan, np.nan, out)._materialize()
        out[keys] = med
        return self.unique_keys, out

    def nunique(self, values: Any) -> tuple[Any, pdarray]:  # noqa: ANN401 (an array of any kind, or a list)
        """The number of distinct non-NaN values per group.

        Arkouda refuses float64 values; Atoll counts them as pandas does.

        Parameters
        ----------
        values : pdarray, Strings, Categorical or list of them
            One value (or row of values) per row.

        Returns
        -------
        tuple
            The unique keys, and an int64 count per group.

        Examples
        --------
        >>> import atoll as ak
        >>> g = ak.GroupBy(ak.array([0, 0, 1, 0]))
        >>> keys, n = g.nunique(ak.array([5, 5, 6, 7]))
        >>> keys.tolist(), n.tolist()
        ([0, 1], [2, 1])
        """
        values = _unwrap_values(values)
        if self.ngroups == 0:
            return self.unique_keys, zeros(0, int64)
        g2 = self._pairs(values)
        n: pdarray = bincount(g2.unique_keys[0], minlength=self.ngroups)[: self.ngroups]._materialize()
        return self.unique_keys, n

    def unique(self, values: Any) -> tuple[Any, SegArray | list[SegArray]]:  # noqa: ANN401 (an array of any kind, or a list)
        """The distinct values of each group, sorted, as a SegArray.

        Parameters
        ----------
        values : pdarray, Strings, Categorical or list of them
            One value per row; a list of arrays gives the distinct rows.

        Returns
        -------
        tuple
            The unique keys, and a SegArray of each group's distinct values (a list of
            SegArrays, one per array, for a list).

        Examples
        --------
        >>> import atoll as ak
        >>> g = ak.GroupBy(ak.array([0, 1, 0, 0]))
        >>> keys, u = g.unique(ak.array([3, 9, 1, 3]))
        >>> keys.tolist(), u.to_list()
        ([0, 1], [[1, 3], [9]])
        """
        values = _unwrap_values(values)
        vals, seq = _values_list(values)
        g2 = self._pairs(values)
        uk = g2.unique_keys
        gids = uk[0]
        lens = zeros(self.ngroups, int64)
        if gids.size:
            g3 = GroupBy(gids, assume_sorted=True)
            k, c = g3.size()
            lens[k] = c
        segs = (cumsum(lens) - lens)._materialize() if lens.size else lens
        out = [SegArray(segs, u, lengths=lens) for u in uk[1:]]
        return self.unique_keys, (out if seq else out[0])

    def _take_ranges(self, n: int, from_end: bool) -> Any:  # noqa: ANN401 (a pdarray)
        if not isinstance(n, (builtins.int, np.integer)) or n < 0:
            raise ValueError(f"n: expected a nonnegative int, got {n!r}")
        if self.ngroups == 0:
            return zeros(0, int64)
        _, cnt = self.size()
        k = where(cnt < n, cnt, n)._materialize()
        starts = self.segments + (cnt - k if from_end else 0)
        _, pos = gen_ranges(starts, k)
        return self.permutation[pos]

    def sample(
        self,
        values: Any,  # noqa: ANN401 (an array of any kind, or a list)
        n: int | None = None,
        frac: float | None = None,
        replace: bool = False,
        weights: pdarray | None = None,
        random_state: Any = None,  # noqa: ANN401 (None, a seed or a generator)
        return_indices: bool = False,
        permute_samples: bool = False,
    ) -> Any:  # noqa: ANN401 (the values' kind, a list of them, or a pdarray)
        """A random sample of the rows of each group.

        Parameters
        ----------
        values : pdarray, Strings, Categorical or list of them
            One value per row.
        n : int, optional
            The rows to draw from each group (default 1 when ``frac`` is None too).
        frac : float, optional
            The fraction of each group's rows to draw, in place of ``n``.
        replace : bool, default False
            Draw with replacement.
        weights : pdarray, optional
            Non-negative weights of the rows, normalized per group.
        random_state : None, int or generator, optional
            A seed, or a generator with ``uniform(size=...)`` (such as
            ``ak.random.default_rng``).
        return_indices : bool, default False
            Give the sampled rows' indices in place of their values.
        permute_samples : bool, default False
            Give the samples in the order drawn, else in row order.

        Returns
        -------
        pdarray, Strings, Categorical or list of them
            The sampled values (or indices).

        Raises
        ------
        ValueError
            Both ``n`` and ``frac`` are given, ``values`` has not one value per row, or the
            sample cannot be drawn.
        TypeError
            ``n``, ``frac`` or ``weights`` is of a wrong type.

        Examples
        --------
        >>> import atoll as ak
        >>> g = ak.GroupBy(ak.array([0, 0, 1]))
        >>> g.sample(ak.array([5, 6, 7]), n=1, random_state=3).size
        2
        >>> g.sample(ak.array([5, 6, 7]), frac=1.0, return_indices=True).tolist()
        [0, 1, 2]
        """
        if frac is not None and n is not None:
            raise ValueError("Please enter a value for `frac` OR `n`, not both")
        if frac is None and n is None:
            n = 1
        vals, seq = _values_list(_unwrap_values(values))
        for v in vals:
            if v.size != self._nrows:
                raise ValueError("Attempt to group values using key array of different length")
        idx = group_sample(self, n, frac, replace, weights, random_state, permute_samples)
        if return_indices:
            return idx
        out = [v[idx] for v in vals]
        return out if seq else out[0]

    # ----- IO and registration ----------------------------------------------------------
    def to_hdf(
        self, prefix_path: _Path, dataset: str = "groupby", mode: str = "truncate", file_type: str = "distribute"
    ) -> None:
        """Write the GroupBy (keys, permutation, segments) to HDF5 in Arkouda's layout.

        Parameters
        ----------
        prefix_path : str or os.PathLike
            The files' prefix (a file per locale with ``file_type="distribute"``).
        dataset : str, default "groupby"
            The dataset's name.
        mode : str, default "truncate"
            ``"truncate"`` or ``"append"``.
        file_type : str, default "distribute"
            ``"distribute"`` (a file per locale) or ``"single"``.

        Examples
        --------
        >>> import atoll as ak
        >>> import os, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), "g")
        >>> ak.GroupBy(ak.array([2, 1, 2])).to_hdf(path)
        >>> ak.read_hdf(path + "_LOCALE*")["groupby"].unique_keys.tolist()
        [1, 2]
        """
        to_hdf({dataset: self}, prefix_path, mode=mode, file_type=file_type)

    def update_hdf(self, prefix_path: _Path, dataset: str = "groupby", repack: bool = True) -> None:
        """Replace (or add) the GroupBy's dataset in existing HDF5 files.

        Parameters
        ----------
        prefix_path : str or os.PathLike
            The files' prefix.
        dataset : str, default "groupby"
            The dataset's name.
        repack : bool, default True
            Rewrite the files to free the replaced dataset's space.

        Examples
        --------
        >>> import atoll as ak
        >>> import os, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), "gu")
        >>> ak.GroupBy(ak.array([1])).to_hdf(path)
        >>> ak.GroupBy(ak.array([3, 3, 4])).update_hdf(path)
        >>> ak.read_hdf(path + "_LOCALE*")["groupby"].unique_keys.tolist()
        [3, 4]
        """
        update_hdf({dataset: self}, prefix_path, repack=repack)


attach(GroupBy, _GroupByMethods)
