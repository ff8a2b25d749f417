"""Arkouda's ``GroupBy``: rows of one key array or several grouped by equal keys, values
aggregated per group on the segmented reductions of ``atoll-ops``.

Keys follow NumPy's equality: ``-0.0`` equals ``0.0``; with ``dropna=True`` (the default, as
Arkouda) rows whose float key is NaN are left out, else every NaN is one key. NaN values:
``skipna=True`` (the default) leaves them out of ``sum``, ``prod``, ``min``, ``max``,
``mean``, ``var``, ``std``, ``argmin``, ``argmax``, and ``count`` counts the others (a group
of NaNs only: sum 0, prod 1, NaN for the rest, its first row for argmin/argmax); with
``skipna=False`` a group holding a NaN gives NaN. ``var``/``std`` use ``ddof=1`` by default.
Values passed to the aggregations have one element per row of the keys as given (before
NaN keys are dropped); ``permutation`` holds indices of those rows.
"""

import builtins

import numpy as np

from . import _atoll
from ._keys import dense_limit, has_nan, key_expr, key_list
from .dtypes import bool_, float64, int64
from .pdarrayclass import pdarray, _check


class GroupBy:
    """Group a pdarray, a Strings, a Categorical, or the rows of a list of them, by value
    (Arkouda's GroupBy; Strings keys: see ``str_groupby``)."""

    Reductions = frozenset(
        [
            "sum",
            "prod",
            "min",
            "max",
            "mean",
            "var",
            "std",
            "count",
            "argmin",
            "argmax",
            "nunique",
            "any",
            "all",
            "first",
            "mode",
        ]
    )

    def __init__(self, keys, assume_sorted=False, dropna=True):
        from .creation import arange
        from .numeric import isnan
        from .strings import Strings
        from .str_groupby import init_strings, rank_keys

        if isinstance(keys, Strings):
            init_strings(self, keys, dropna)
            return
        ks, seq = key_list(rank_keys(keys))
        self.keys = keys
        self.nkeys = len(ks)
        self.dropna = dropna
        self._nrows = ks[0].size
        self._seq = seq
        self._perm = self._flags_ = self._segs = None
        self._counts = None
        dense = None if seq or not isinstance(keys, pdarray) else dense_limit(ks[0])
        if dense is not None:
            # Distinct keys and aggregations in one pass without a sort (atoll_ops::dense_aggregate);
            # the sort runs if a later call needs it, or if the keys span more than the limit.
            self._ks, self._kept = ks, None
            self.length = self._nrows
            self._uk = None  # computed by the first call that needs it (an aggregation computes it too)
            self._dense = dense
            return
        self._dense = None
        kept = None
        if dropna and builtins.any(has_nan(k) for k in ks):
            ok = None
            for k in ks:
                if k.dtype == float64:
                    m = ~isnan(k)
                    ok = m if ok is None else ok & m
            ok = ok._materialize()
            kept = arange(self._nrows)[ok]
            ks = [k[ok] for k in ks]
        self._ks, self._kept = ks, kept
        self.length = ks[0].size
        self._sorted_keys()

    def _sorted_keys(self):
        """The sort path's distinct keys: the first row of each group."""
        self._group()
        uki = self.permutation[self._segs] if self._segs.size else self._segs
        full = list(self.keys) if self._seq else [self.keys]
        uk = [k[uki] for k in full]
        self._uk = tuple(uk) if self._seq else uk[0]

    def _dense_groups(self, values=None, op="sum"):
        """The dense path: distinct keys and rows (and ``op`` of ``values``) in one pass;
        ``(True, aggregated or None)``, or ``(False, None)`` when the keys span more than the
        limit (the sort path's keys are then computed)."""
        if self._dense is not None:
            # The rows per group only when the aggregation needs them: a float64 sum folds one
            # float per key and nothing else (``size`` then makes its own pass).
            r = _atoll.dense_aggregate(
                self._ks[0]._ex(), self._nrows, self._dense, None if values is None else values._ex(), op, False
            )
            if r is not None:
                uk, c, v = r
                if c is not None:
                    self._uk, self._counts = pdarray(uk), pdarray(c)
                elif self._uk is None:
                    self._uk = pdarray(uk)
                return True, None if v is None else pdarray(v)
            self._dense = None
        if self._uk is None:
            self._sorted_keys()
        return False, None

    @property
    def unique_keys(self):
        """The distinct keys (a tuple of arrays for several key arrays), in order."""
        if self._uk is None:
            self._dense_groups()
        return self._uk

    @property
    def ngroups(self):
        """The number of groups."""
        return self.unique_keys[0].size if self._seq else self.unique_keys.size

    def _group(self):
        """The sort: permutation, group-start flags and segments."""
        from .creation import zeros

        if self._perm is not None:
            return
        if self.length == 0:
            perm, self._flags_, self._segs = zeros(0, int64), zeros(0, bool_), zeros(0, int64)
        else:
            from .sorting import group_keys

            perm, self._flags_, self._segs = group_keys([key_expr(k) for k in self._ks], self._ks, self.length)
        self._perm = perm if self._kept is None else self._kept[perm]

    @property
    def permutation(self):
        """The indices of the rows, grouped (stably sorted by key)."""
        self._group()
        return self._perm

    @property
    def segments(self):
        """The start of each group in the grouped rows."""
        self._group()
        return self._segs

    @property
    def _flags(self):
        self._group()
        return self._flags_

    # ----- structure ---------------------------------------------------------------------
    def _ends(self):
        from .creation import array
        from .manipulation import concatenate

        return (
            concatenate([self.segments[1:], array(np.array([self.length], dtype=np.int64))])
            if self.ngroups
            else self.segments
        )

    def size(self):
        """``(unique_keys, counts)``: the number of rows of each group."""
        if self._dense is not None and self._counts is None:
            self._dense_groups()
        if self._dense is not None:
            return self.unique_keys, self._counts
        return self.unique_keys, (self._ends() - self.segments)._materialize()

    def _sorted(self, values):
        _check(values, "values")
        if values.size != self._nrows:
            raise ValueError(f"values: size {values.size} does not match the keys' {self._nrows}")
        return values[self.permutation]

    # ----- aggregations ------------------------------------------------------------------
    def _agg(self, values, op, ddof=0, skipna=True):
        from .creation import zeros
        from .numeric import isnan, where

        vals = values.astype(int64) if values.dtype == bool_ else values
        out_dt = {
            "count": int64,
            "argmin": int64,
            "argmax": int64,
            "mean": float64,
            "var": float64,
            "std": float64,
            "any": bool_,
            "all": bool_,
        }.get(op, vals.dtype)
        if self.ngroups == 0:
            return zeros(0, out_dt)
        sv = self._sorted(vals)
        r = pdarray(_atoll.aggregate(sv._ex(), self._flags._arr, self.length, self.ngroups, op, ddof))
        if op in ("argmin", "argmax"):
            r = self.permutation[r]
        if not skipna and vals.dtype == float64 and op in ("sum", "prod", "min", "max", "mean", "var", "std"):
            nan = pdarray(
                _atoll.aggregate(isnan(sv).astype(int64)._ex(), self._flags._arr, self.length, self.ngroups, "any", 0)
            )
            r = where(nan, np.nan, r)._materialize()
        return r

    def aggregate(self, values, operator, skipna=True, ddof=1):
        """``(unique_keys, one value per group)`` of ``operator`` (see ``Reductions``)."""
        op = operator.lower()
        if op not in self.Reductions:
            raise ValueError(f"Unsupported reduction: {operator}\nMust be one of {sorted(self.Reductions)}")
        return (
            getattr(self, op)(values)
            if op in ("nunique", "first", "mode")
            else (self.unique_keys, self._dispatch(values, op, skipna, ddof))
        )

    # The aggregations of the dense path (atoll_ops::dense_aggregate), NaNs skipped.
    _DENSE_OPS = frozenset(["sum", "count", "mean", "min", "max"])

    def _try_dense(self, values, op, skipna=True):
        """``op`` of ``values`` per group on the dense path, or None when it does not apply."""
        if (
            self._dense is None
            or op not in self._DENSE_OPS
            or not isinstance(values, pdarray)
            or values.size != self._nrows
            or (not skipna and values.dtype == float64 and op != "count")
        ):
            return None
        vals = values.astype(int64) if values.dtype == bool_ else values
        ok, r = self._dense_groups(vals, op)
        return r if ok else None

    def _dispatch(self, values, op, skipna, ddof):
        _check(values, "values")
        r = self._try_dense(values, op, skipna)
        if r is not None:
            return r
        if op == "sum":
            return self.sum(values, skipna)[1]
        if op == "prod":
            return self._agg(values.astype(float64), "prod", skipna=skipna)
        if op in ("var", "std"):
            return self._agg(values, op, ddof=ddof, skipna=skipna)
        return self._agg(values, op, skipna=skipna)

    def sum(self, values, skipna=True):
        """Sum per group (int64 for bool)."""
        _check(values, "values")
        r = self._try_dense(values, "sum", skipna)
        if r is not None:
            return self.unique_keys, r
        return self.unique_keys, self._agg(values, "sum", skipna=skipna)

    def prod(self, values, skipna=True):
        """Product per group (float64, as Arkouda)."""
        return self.aggregate(values, "prod", skipna)

    def min(self, values, skipna=True):
        """Smallest value per group."""
        return self.aggregate(values, "min", skipna)

    def max(self, values, skipna=True):
        """Largest value per group."""
        return self.aggregate(values, "max", skipna)

    def mean(self, values, skipna=True):
        """Mean per group (float64)."""
        return self.aggregate(values, "mean", skipna)

    def var(self, values, skipna=True, ddof=1):
        """Variance per group (float64, ``ddof=1`` by default)."""
        return self.aggregate(values, "var", skipna, ddof)

    def std(self, values, skipna=True, ddof=1):
        """Standard deviation per group (float64, ``ddof=1`` by default)."""
        return self.aggregate(values, "std", skipna, ddof)

    def count(self, values):
        """Number of non-NaN values per group."""
        return self.aggregate(values, "count")

    def argmin(self, values):
        """Index (of ``values``) of the first smallest value per group."""
        return self.aggregate(values, "argmin")

    def argmax(self, values):
        """Index (of ``values``) of the first largest value per group."""
        return self.aggregate(values, "argmax")

    def any(self, values):
        """Whether some value of the group is nonzero."""
        return self.aggregate(values, "any")

    def all(self, values):
        """Whether every value of the group is nonzero."""
        return self.aggregate(values, "all")

    def first(self, values):
        """The first value (in index order) of each group."""
        _check(values, "values")
        if values.dtype == bool_:
            return self.unique_keys, self._agg(values, "first") != 0
        return self.unique_keys, self._agg(values, "first")

    def _group_ids(self):
        """The group number of each row (of the keys as given; -1 for dropped rows)."""
        from .creation import arange

        return self.broadcast(arange(self.ngroups), permute=True)

    def _pairs(self, values):
        """A GroupBy of (group number, value) over the kept rows (NaN values dropped)."""
        _check(values, "values")
        if values.size != self._nrows:
            raise ValueError(f"values: size {values.size} does not match the keys' {self._nrows}")
        gid = self._group_ids()
        if self.length != self._nrows:
            keep = gid >= 0
            gid, values = gid[keep], values[keep]
        return GroupBy([gid, values], dropna=True)

    def nunique(self, values):
        """Number of distinct non-NaN values per group."""
        from .manipulation import bincount
        from .creation import zeros

        if self.ngroups == 0:
            return self.unique_keys, zeros(0, int64)
        g2 = self._pairs(values)
        return self.unique_keys, bincount(g2.unique_keys[0], minlength=self.ngroups)[: self.ngroups]._materialize()

    def mode(self, values):
        """The most frequent non-NaN value per group (the smallest among ties; NaN, or 0 for
        integers, for a group of NaNs only)."""
        from .creation import full, zeros

        if self.ngroups == 0:
            return self.unique_keys, zeros(0, values.dtype)
        g2 = self._pairs(values)
        gids, vals = g2.unique_keys
        _, counts = g2.size()
        out = full(self.ngroups, np.nan if values.dtype == float64 else 0, values.dtype)
        if g2.ngroups:
            g3 = GroupBy(gids)
            _, best = g3.argmax(counts)
            out[g3.unique_keys] = vals[best]
        return self.unique_keys, out

    def _seg_cumsum(self, z):
        """The inclusive prefix sums of ``z`` (in grouped order) within each group."""
        from .pdarrayclass import cumsum

        cs = cumsum(z)._materialize()
        start = (cs[self.segments] - z[self.segments])._materialize()
        return cs - self.broadcast(start, permute=False)

    def cumsum(self, values, skipna=True):
        """Cumulative sum within each group, in row order (pandas' ``groupby().cumsum()``):
        one value per row of the keys as given; a NaN value gives NaN and adds nothing (with
        ``skipna=False`` it makes the rest of its group NaN); rows of a dropped NaN key give
        NaN (0 for integers). int64 for bool values. One scan over the grouped rows, less each
        group's start: integer sums are exact (wrapping), float sums carry the rounding of
        the running total over earlier groups (relative to it, not to the group's sum)."""
        from .creation import full, zeros
        from .numeric import isnan, where

        _check(values, "values")
        sv = self._sorted(values.astype(int64) if values.dtype == bool_ else values)
        is_f = sv.dtype == float64
        if self.length == 0:
            return full(self._nrows, np.nan, float64) if is_f else zeros(self._nrows, sv.dtype)
        nan = isnan(sv)._materialize() if is_f else None
        res = self._seg_cumsum(where(nan, 0.0, sv)._materialize() if is_f else sv)
        if is_f:
            res = where(nan if skipna else self._seg_cumsum(nan.astype(int64)) > 0, np.nan, res)
        res = res._materialize()
        out = full(self._nrows, np.nan, float64) if is_f else zeros(self._nrows, sv.dtype)
        out[self.permutation] = res
        return out

    def broadcast(self, values, permute=True):
        """One value per group (``values``, in group order) given to every row of the group:
        in the keys' row order (``permute=True``; dropped NaN rows get the dtype's zero, -1
        for int64) or in grouped order."""
        from .creation import arange, full, zeros
        from .pdarrayclass import cumsum

        if not isinstance(values, pdarray) and hasattr(values, "size") and hasattr(values, "__getitem__"):
            # Strings (or another indexable array): the group number of each row, gathered.
            if values.size != self.ngroups:
                raise ValueError(f"values: size {values.size} does not match the number of groups {self.ngroups}")
            return values[self.broadcast(arange(self.ngroups), permute=permute)]
        _check(values, "values")
        if values.size != self.ngroups:
            raise ValueError(f"values: size {values.size} does not match the number of groups {self.ngroups}")
        if self.length == 0:
            return zeros(self._nrows if permute else 0, values.dtype)
        seg = (cumsum(self._flags.astype(int64)) - 1)._materialize()
        sv = values[seg]
        if not permute:
            return sv
        fill = -1 if values.dtype == int64 else 0
        out = full(self._nrows, fill, values.dtype) if self.length != self._nrows else zeros(self._nrows, values.dtype)
        out[self.permutation] = sv
        return out


def broadcast(segments, values, size=-1, permutation=None):
    """Arkouda's ``ak.broadcast``: ``values[g]`` to every position of segment ``g`` (segments
    starting at ``segments``, ``size`` positions in all), unpermuted by ``permutation``."""
    from .creation import arange, zeros
    from .pdarrayclass import cumsum

    _check(segments, "segments")
    if not isinstance(values, pdarray) and hasattr(values, "size") and hasattr(values, "__getitem__"):
        return values[broadcast(segments, arange(values.size), size, permutation)]
    _check(values, "values")
    if segments.size != values.size:
        raise ValueError("segments and values must have the same size")
    n = size if size >= 0 else (permutation.size if permutation is not None else None)
    if n is None:
        raise ValueError("size or permutation is needed")
    mark = zeros(n, int64)
    if segments.size:
        mark[segments] = 1
    seg = cumsum(mark) - 1
    sv = values[seg]
    if permutation is None:
        return sv
    out = zeros(n, values.dtype)
    out[permutation] = sv
    return out


__all__ = ["GroupBy", "broadcast"]
