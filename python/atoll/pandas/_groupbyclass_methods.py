"""Methods of ``GroupBy`` that call modules above ``atoll.pandas.groupbyclass`` (sorting,
concatenation, SegArray, sampling and the IO): defined here, where both are known, and set on
the class by ``atoll._attach.attach``; the root ``atoll/__init__.py`` runs this module."""

import builtins

import numpy as np

from .._attach import attach
from .._keys import key_expr
from ..hdf5 import to_hdf, update_hdf
from ..numpy.dtypes import bool_, float64, int64
from ..numpy.numeric import isnan, isnan as _isnan, where
from ..numpy.pdarrayclass import cumsum
from ..numpy.pdarraycreation import array, full, zeros
from ..numpy.pdarraymanipulation import bincount, concatenate
from ..numpy.segarray import SegArray, gen_ranges
from ..numpy.sorting import coargsort, group_keys
from ._bigint_groupby import is_bigint
from ._sample import group_sample
from .groupbyclass import GroupBy, _unwrap_values, _values_list


class _GroupByMethods:
    def _group(self):
        """The sort: permutation, group-start flags and segments."""

        if self._perm is not None:
            return
        if self.length == 0:
            perm, self._flags_, self._segs = zeros(0, int64), zeros(0, bool_), zeros(0, int64)
        else:
            perm, self._flags_, self._segs = group_keys([key_expr(k) for k in self._ks], self._ks, self.length)
        self._perm = perm if self._kept is None else self._kept[perm]

    # ----- structure ---------------------------------------------------------------------
    def _ends(self):
        return (
            concatenate([self.segments[1:], array(np.array([self.length], dtype=np.int64))])
            if self.ngroups
            else self.segments
        )

    def median(self, values, skipna=True):
        """The median of each group (float64; NaN values left out when ``skipna``, NaN for a
        group with none)."""

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

    def nunique(self, values):
        """Number of distinct non-NaN values per group (any array kind, or a list of them;
        Arkouda refuses float64 values, Atoll counts them as pandas does)."""

        values = _unwrap_values(values)
        if self.ngroups == 0:
            return self.unique_keys, zeros(0, int64)
        g2 = self._pairs(values)
        return self.unique_keys, bincount(g2.unique_keys[0], minlength=self.ngroups)[: self.ngroups]._materialize()

    def unique(self, values):
        """The distinct values of each group, sorted, as a SegArray (a list of SegArrays for
        a list of value arrays: the distinct rows)."""

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

    def _take_ranges(self, n, from_end):
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
        values,
        n=None,
        frac=None,
        replace=False,
        weights=None,
        random_state=None,
        return_indices=False,
        permute_samples=False,
    ):
        """A random sample of the rows of each group: ``n`` rows (or ``frac`` of each
        group's rows), with or without replacement, weighted by ``weights`` (normalized per
        group). ``random_state``: a seed or a generator with ``uniform(size=...)`` (such as
        ``ak.random.default_rng``). Returns the sampled values (or indices), in row order
        unless ``permute_samples``."""

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
    def to_hdf(self, prefix_path, dataset="groupby", mode="truncate", file_type="distribute"):
        """Writes the GroupBy (keys, permutation, segments) to HDF5 in Arkouda's layout."""

        to_hdf({dataset: self}, prefix_path, mode=mode, file_type=file_type)

    def update_hdf(self, prefix_path, dataset="groupby", repack=True):
        update_hdf({dataset: self}, prefix_path, repack=repack)


attach(GroupBy, _GroupByMethods)
