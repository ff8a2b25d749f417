"""Arkouda's ``SegArray``: an array of variable-length sub-arrays, stored as one flat array of
``values`` (a pdarray of any dtype, or Strings) and the int64 ``segments`` where each sub-array
starts (sorted; an empty sub-array repeats the next start).

Everything runs on the distributed primitives (gather, scatter, prefix sums, the segmented
reductions of ``GroupBy``): no sub-array is gathered to the driver except by ``tolist`` and
``to_ndarray``. The per-sub-array reductions (``sum``, ``min``, ... through ``aggregate``)
return, as Arkouda's do, one value per *non-empty* sub-array, in order; ``non_empty`` tells
which those are.

>>> import atoll as ak
>>> sa = ak.SegArray(ak.array([0, 2, 2, 5]), ak.arange(7))
>>> sa.tolist()
[[0, 1], [], [2, 3, 4], [5, 6]]
>>> sa.lengths.tolist()
[2, 0, 3, 2]
>>> sa.sum().tolist()
[1, 9, 11]
>>> sa[2].tolist()
[2, 3, 4]
"""

import builtins

import numpy as np

from ..groupby import GroupBy
from ..pandas._hashing import hash_values, mix
from ..pandas._registry import Registrable
from .dtypes import bool_, int64, uint64
from .pdarrayclass import any as _any, cumsum, is_sorted, max as _max, pdarray, sum as _sum
from .pdarraycreation import arange, array, full, ones, zeros
from .pdarraymanipulation import concatenate
from .pdarraysetops import in1d, intersect1d, setdiff1d, setxor1d, union1d
from .sorting import coargsort
from .strings import Strings, from_list

__all__ = ["SegArray", "segarray"]

SEG_SUFFIX = "_segments"
VAL_SUFFIX = "_values"


def _is_int(x):
    return isinstance(x, (builtins.int, np.integer)) and not isinstance(x, (builtins.bool, np.bool_))


def _concat_values(parts):
    """One array of the values of ``parts`` (pdarrays or Strings, all of one kind)."""

    return concatenate(list(parts))


def _empty_like(values, n=0):
    if isinstance(values, Strings):
        return from_list([])
    return zeros(n, values.dtype)


def _lengths(segments, valsize):
    if segments.size == 0:
        return zeros(0, int64)
    return (concatenate([segments[1:], array(np.array([valsize], dtype=np.int64))]) - segments)._materialize()


def segment_ids(segments, lengths, valsize):
    """For each of ``valsize`` flat values, the index of the sub-array holding it (sub-arrays
    given by ``segments`` and ``lengths``; empty ones hold nothing). One scatter and one scan."""

    if valsize == 0:
        return zeros(0, int64)
    ne = (lengths > 0)._materialize()
    idx = arange(segments.size)[ne]
    starts = segments[ne]
    step = zeros(valsize, int64)
    # The scan of the differences between consecutive non-empty sub-arrays' indices.
    diff = idx - _shift_right(idx)
    step[starts] = diff
    return cumsum(step)._materialize()


def _shift_right(x):
    """``[0, x[0], ..., x[n-2]]``."""

    out = zeros(x.size, x.dtype)
    if x.size > 1:
        out[1:] = x[:-1]
    return out


def gen_ranges(starts, lengths):
    """The concatenation of ``range(starts[i], starts[i] + lengths[i])``: ``(segments,
    indices)`` where sub-array ``i`` of the result starts at ``segments[i]``."""

    newsegs = (cumsum(lengths) - lengths)._materialize() if lengths.size else zeros(0, int64)
    total = builtins.int(_sum(lengths)) if lengths.size else 0
    if total == 0:
        return newsegs, zeros(0, int64)
    ids = segment_ids(newsegs, lengths, total)
    off = (starts - newsegs)[ids]
    return newsegs, (arange(total) + off)._materialize()


class SegArray(Registrable):
    """An array of sub-arrays (Arkouda's ``SegArray``): ``segments`` (int64 starts, sorted,
    beginning at 0) into the flat ``values`` (a pdarray or Strings)."""

    objType = "SegArray"

    def __init__(self, segments, values, lengths=None, grouping=None):
        if not isinstance(segments, pdarray) or segments.dtype != int64:
            raise TypeError("Segments must be int64 pdarray")
        if not isinstance(values, (pdarray, Strings)) and not hasattr(values, "_is_bigint"):
            raise TypeError("Values must be a pdarray or Strings.")
        if not is_sorted(segments):
            raise ValueError("Segments must be unique and in sorted order")
        if segments.size > 0:
            if segments[0] != 0:
                raise ValueError("Segments must start at zero.")
            if builtins.int(segments[segments.size - 1]) > values.size:
                raise ValueError(f"Segments must not start past the end of the values ({values.size})")
        elif values.size > 0:
            raise ValueError("Cannot have non-empty values with empty segments")
        self.values = values
        self.segments = segments
        self.size = segments.size
        self.valsize = values.size
        self.dtype = values.dtype
        self.lengths = _lengths(segments, values.size) if lengths is None else lengths
        self._non_empty = (self.lengths > 0)._materialize()

        self._non_empty_count = builtins.int(_sum(self._non_empty)) if self.size else 0
        self._grouping = grouping
        self.registered_name = None

    # ----- structure ---------------------------------------------------------------------
    @property
    def non_empty(self):
        """A bool pdarray: True for each sub-array that holds a value."""
        return self._non_empty

    @property
    def grouping(self):
        """The GroupBy of the flat values by sub-array (the non-empty ones, in order)."""
        if self._grouping is None:
            self._grouping = GroupBy._from_sorted_segments(
                self.segments[self._non_empty], self._segment_ids(), self.valsize
            )
        return self._grouping

    def _segment_ids(self):
        return segment_ids(self.segments, self.lengths, self.valsize)

    @property
    def nbytes(self):
        """The bytes of the values."""
        return self.values.nbytes

    @property
    def shape(self):
        return (self.size,)

    @property
    def ndim(self):
        return 1

    def __len__(self):
        return self.size

    @classmethod
    def from_parts(cls, segments, values, lengths=None, grouping=None):
        """The SegArray of ``segments`` into ``values`` (Arkouda's older constructor name)."""
        return cls(segments, values, lengths=lengths, grouping=grouping)

    @classmethod
    def from_multi_array(cls, m):
        """The SegArray whose sub-arrays are the arrays of the list ``m`` (one pdarray gives
        one-element sub-arrays)."""

        if isinstance(m, pdarray):
            return cls(arange(m.size), m)
        m = list(m)
        if not m:
            return cls(zeros(0, int64), zeros(0, int64))
        dtypes = {str(x.dtype) for x in m}
        if len(dtypes) != 1:
            raise ValueError("All values must have same dtype")
        sizes = np.array([x.size for x in m], dtype=np.int64)
        offsets = np.cumsum(sizes) - sizes
        return cls(array(offsets), _concat_values(m))

    # ----- indexing ----------------------------------------------------------------------
    def __getitem__(self, i):
        if _is_int(i):
            k = builtins.int(i)
            if k < 0:
                k += self.size
            if not 0 <= k < self.size:
                raise IndexError(f"index {i} is out of bounds for SegArray of size {self.size}")
            start = builtins.int(self.segments[k])
            end = start + builtins.int(self.lengths[k])
            return self.values[start:end]
        if isinstance(i, slice) or (isinstance(i, pdarray) and i.dtype in (int64, uint64, bool_)):
            starts = self.segments[i]
            lens = self.lengths[i]
            newsegs, inds = gen_ranges(starts, lens)
            return SegArray(newsegs, self.values[inds], lens)
        if isinstance(i, (list, tuple, np.ndarray)):
            return self[array(np.asarray(i))]
        raise TypeError(f"Invalid index type: {type(i)}")

    # ----- combining ---------------------------------------------------------------------
    @classmethod
    def concat(cls, x, axis=0, ordered=True):
        """The SegArrays of ``x`` one after the other (``axis=0``), or each sub-array the
        concatenation of the corresponding sub-arrays (``axis=1``, equal sizes)."""

        if not ordered:
            raise ValueError("Unordered concatenation not yet supported on SegArray; use ordered=True.")
        x = list(x)
        if len(x) == 0:
            raise ValueError("Empty sequence passed to concat")
        for xi in x:
            if not isinstance(xi, cls):
                return NotImplemented
        if len({str(xi.dtype) for xi in x}) != 1:
            raise ValueError("SegArrays must all have same dtype to concatenate")
        if axis == 0:
            offs = np.cumsum([0] + [xi.valsize for xi in x[:-1]])
            segs = concatenate([xi.segments + builtins.int(o) for xi, o in zip(x, offs)])
            lens = concatenate([xi.lengths for xi in x])
            return cls(segs, _concat_values([xi.values for xi in x]), lengths=lens)
        if axis == 1:
            if len({xi.size for xi in x}) != 1:
                raise ValueError("SegArrays must all have same size to concatenate with axis=1")
            n = x[0].size
            if n == 0:
                return x[0]

            newlens = x[0].lengths
            for xi in x[1:]:
                newlens = newlens + xi.lengths
            newlens = newlens._materialize()
            newsegs = (cumsum(newlens) - newlens)._materialize()
            # Every value keyed by (its sub-array, the array it comes from, its place): one sort.
            sub = [xi._segment_ids() for xi in x]
            src = [array(np.full(xi.valsize, k, dtype=np.int64)) for k, xi in enumerate(x)]

            allsub = concatenate(sub)
            allsrc = concatenate(src)
            pos = arange(allsub.size)
            perm = coargsort([allsub, allsrc, pos])
            vals = _concat_values([xi.values for xi in x])
            return cls(newsegs, vals[perm], lengths=newlens)
        raise ValueError("Supported values for axis are 0 (vertical concat) or 1 (horizontal concat)")

    def append(self, other, axis=0):
        """``concat([self, other], axis)``; NotImplemented unless ``other`` is a SegArray."""
        if not isinstance(other, SegArray):
            return NotImplemented
        if str(self.dtype) != str(other.dtype):
            raise TypeError("SegArrays must have same value type to append")
        return SegArray.concat((self, other), axis=axis)

    def append_single(self, x, prepend=False):
        """Each sub-array with one more value at its end (or start): ``x`` a scalar or a
        pdarray with one value per sub-array."""

        if isinstance(self.values, Strings):
            raise TypeError("String elements are immutable and cannot accept a single value")
        if hasattr(x, "size") and not np.isscalar(x):
            if x.size != self.size:
                raise ValueError("Argument must be scalar or same size as SegArray")
            if not isinstance(x, type(self.values)) or x.dtype != self.dtype:
                raise TypeError("Argument type must match value type of SegArray")
        newlens = (self.lengths + 1)._materialize()
        newsegs = (cumsum(newlens) - newlens)._materialize()
        newvals = zeros(self.valsize + self.size, self.dtype)
        newvals[newsegs if prepend else newsegs + newlens - 1] = x
        if self.valsize:
            dest = arange(self.valsize) + self._segment_ids() + (1 if prepend else 0)
            newvals[dest] = self.values
        return SegArray(newsegs, newvals, lengths=newlens)

    def prepend_single(self, x):
        """Each sub-array with ``x`` (a scalar, or one value per sub-array) at its start."""
        return self.append_single(x, prepend=True)

    def copy(self):
        """A deep copy."""
        return SegArray(_copy(self.segments), _copy(self.values))

    # ----- comparison --------------------------------------------------------------------
    def __eq__(self, other):
        if not isinstance(other, SegArray):
            return NotImplemented
        if self.size != other.size:
            raise ValueError("Segarrays must have same size to compare")

        eq = zeros(self.size, bool_)
        leneq = (self.lengths == other.lengths)._materialize()

        if self.size and builtins.bool(_any(leneq)):
            a, b = self[leneq], other[leneq]
            same = a.values == b.values
            ok = a.all(same) if a.valsize else zeros(0, bool_)
            eq[leneq & (self.lengths != 0)] = ok
            eq[leneq & (self.lengths == 0)] = True
        return eq

    def __ne__(self, other):
        r = self.__eq__(other)
        return r if r is NotImplemented else ~r

    __hash__ = None

    # ----- sub-array pieces --------------------------------------------------------------
    def _table(self, n, first_index, mask):
        return [self.values[(first_index + k)[mask]] for k in range(n)]

    def get_suffixes(self, n, return_origins=True, proper=True):
        """The last ``n`` values of each sub-array long enough (longer than ``n`` when
        ``proper``): a list of ``n`` columns, and the bool mask of those sub-arrays."""
        longenough = (self.lengths > n if proper else self.lengths >= n)._materialize()
        cols = self._table(n, self.segments + self.lengths - n, longenough)
        return (cols, longenough) if return_origins else cols

    def get_prefixes(self, n, return_origins=True, proper=True):
        """The first ``n`` values of each sub-array long enough (longer than ``n`` when
        ``proper``): a list of ``n`` columns, and the bool mask of those sub-arrays."""
        longenough = (self.lengths > n if proper else self.lengths >= n)._materialize()
        cols = self._table(n, self.segments, longenough)
        return (cols, longenough) if return_origins else cols

    def get_ngrams(self, n, return_origins=True):
        """Every run of ``n`` consecutive values within a sub-array: ``n`` columns, and the
        index of the sub-array of each."""

        if self.size == 0 or n > builtins.int(_max(self.lengths)):
            raise ValueError("n must be <= the maximum length of the sub-arrays")
        notstart = ones(self.valsize, bool_)
        notstart[self.segments[self._non_empty]] = False
        m = self.valsize - n + 1
        valid = ones(m, bool_)
        for i in range(1, n):
            valid = valid & notstart[i : i + m]
        valid = valid._materialize()
        grams = [self.values[i : i + m][valid] for i in range(n)]
        if return_origins:
            return grams, self._segment_ids()[:m][valid]
        return grams

    def _normalize_index(self, j):
        if not _is_int(j):
            raise TypeError(f"index must be integer, not {type(j)}")
        if j >= 0:
            return (self.lengths > j)._materialize(), j
        jj = (self.lengths + j)._materialize()
        return (jj >= 0)._materialize(), jj

    def get_jth(self, j, return_origins=True, compressed=False, default=0):
        """The ``j``-th value of each sub-array (counted from the end when negative): where
        a sub-array is too short, ``default`` (or left out when ``compressed``; always left
        out for Strings)."""

        longenough, jj = self._normalize_index(j)
        ind = (self.segments + jj)[longenough]
        if compressed or isinstance(self.values, Strings):
            res = self.values[ind]
        else:
            res = full(self.size, default, self.dtype)
            res[longenough] = self.values[ind]
        return (res, longenough) if return_origins else res

    def set_jth(self, i, j, v):
        """Sets the ``j``-th value of the sub-arrays ``i`` (an int or an int pdarray) to ``v``;
        ValueError when a sub-array is too short."""
        if isinstance(self.values, Strings):
            raise TypeError("String elements are immutable")
        longenough, jj = self._normalize_index(j)
        sel = longenough[i]
        ok = builtins.bool(sel) if not isinstance(sel, pdarray) else builtins.bool(sel.all())
        if not ok:
            raise ValueError("Not all (i, j) in bounds")
        ind = (self.segments + jj)[i]
        if _is_int(ind) or isinstance(ind, np.integer):
            self.values[builtins.int(ind)] = v
        else:
            self.values[ind] = v

    def get_length_n(self, n, return_origins=True):
        """The sub-arrays of length ``n`` as ``n`` columns, and the bool mask of them."""
        mask = (self.lengths == n)._materialize()
        cols = self._table(n, self.segments, mask)
        return (cols, mask) if return_origins else cols

    def remove_repeats(self, return_multiplicity=False):
        """Each run of equal consecutive values within a sub-array made one value (and, with
        ``return_multiplicity``, the length of each run)."""

        isrep = zeros(self.valsize, bool_)
        if self.valsize > 1:
            isrep[1:] = self.values[:-1] == self.values[1:]
        if self.valsize:
            isrep[self.segments[self._non_empty]] = False
        keep = (~isrep)._materialize()
        vals = self.values[keep]
        lens = self.lengths.astype(int64)._materialize()
        if self._non_empty_count:
            lens[self._non_empty] = self.grouping.sum(keep)[1]
        segs = (cumsum(lens) - lens)._materialize() if lens.size else lens
        out = SegArray(segs, vals, lengths=lens)
        if not return_multiplicity:
            return out
        pos = arange(self.valsize)[keep]
        mult = zeros(pos.size, int64)
        if pos.size:
            if pos.size > 1:
                mult[:-1] = pos[1:] - pos[:-1]
            mult[pos.size - 1] = self.valsize - builtins.int(pos[pos.size - 1])
        return out, SegArray(segs, mult, lengths=lens)

    # ----- conversion --------------------------------------------------------------------
    def to_ndarray(self):
        """A NumPy object array of one NumPy array per sub-array."""
        vals = self.values.to_ndarray()
        segs = self.segments.to_ndarray()
        ends = np.append(segs[1:], vals.size) if segs.size else segs
        out = np.empty(self.size, dtype=object)
        for k, (s, e) in enumerate(zip(segs, ends)):
            out[k] = vals[s:e]
        return out

    def tolist(self):
        """A list of one list per sub-array."""
        return [a.tolist() for a in self.to_ndarray()]

    to_list = tolist

    def __iter__(self):
        return iter(self.to_ndarray())

    def __str__(self):
        rows = (
            list(range(self.size)) if self.size <= 6 else [0, 1, 2, None, self.size - 3, self.size - 2, self.size - 1]
        )
        lines = ["SegArray(["]
        for r in rows:
            lines.append("..." if r is None else str(self[r]))
        lines.append("])")
        return "\n".join(lines)

    __repr__ = __str__

    # ----- per-sub-array reductions (one value per non-empty sub-array) -------------------
    def _x(self, x):
        return self.values if x is None else x

    def sum(self, x=None):
        return self.grouping.sum(self._x(x))[1]

    def prod(self, x=None):
        return self.grouping.prod(self._x(x))[1]

    def min(self, x=None):
        return self.grouping.min(self._x(x))[1]

    def max(self, x=None):
        return self.grouping.max(self._x(x))[1]

    def argmin(self, x=None):
        return self.grouping.argmin(self._x(x))[1]

    def argmax(self, x=None):
        return self.grouping.argmax(self._x(x))[1]

    def any(self, x=None):
        return self.grouping.any(self._x(x))[1]

    def all(self, x=None):
        return self.grouping.all(self._x(x))[1]

    def OR(self, x=None):
        return self.grouping.OR(self._x(x))[1]

    def AND(self, x=None):
        return self.grouping.AND(self._x(x))[1]

    def XOR(self, x=None):
        return self.grouping.XOR(self._x(x))[1]

    def nunique(self, x=None):
        return self.grouping.nunique(self._x(x))[1]

    def mean(self, x=None):
        return self.grouping.mean(self._x(x))[1]

    def aggregate(self, op, x=None):
        """``(indices of the non-empty sub-arrays, op of each)`` (``GroupBy.aggregate``)."""
        return self.grouping.aggregate(self._x(x), op)

    def unique(self, x=None):
        """Each sub-array's distinct values, sorted (empty sub-arrays stay empty)."""

        x = self._x(x)
        if self.valsize == 0:
            return SegArray(self.segments, x, lengths=self.lengths)
        sid = self._segment_ids()
        g = GroupBy([sid, x])
        usid, uval = g.unique_keys
        g2 = GroupBy(usid, assume_sorted=True)
        keys, counts = g2.size()
        lens = self.lengths.astype(int64)._materialize()
        lens[:] = 0
        lens[keys] = counts
        segs = (cumsum(lens) - lens)._materialize()
        return SegArray(segs, uval, lengths=lens)

    def hash(self):
        """Two uint64 pdarrays: a 128-bit hash of each sub-array (of its values in order);
        equal sub-arrays hash equally."""

        h1v, h2v = hash_values(self.values)
        if self.valsize:
            pos = (arange(self.valsize) - self.segments[self._segment_ids()]).astype(uint64)
            h1v = mix(h1v ^ mix(pos + np.uint64(0x9E3779B97F4A7C15)))
            h2v = mix(h2v + mix(pos ^ np.uint64(0xC2B2AE3D27D4EB4F)))
        out1 = mix(self.lengths.astype(uint64) + np.uint64(1))._materialize()
        out2 = mix(self.lengths.astype(uint64) ^ np.uint64(0x27D4EB2F165667C5))._materialize()
        if self._non_empty_count:
            s1 = self.grouping.sum(h1v)[1]
            s2 = self.grouping.sum(h2v)[1]
            out1[self._non_empty] = mix(out1[self._non_empty] ^ s1)
            out2[self._non_empty] = mix(out2[self._non_empty] + s2)
        if not self.size:
            return zeros(0, uint64), zeros(0, uint64)
        return out1, out2

    # ----- set operations per sub-array --------------------------------------------------
    def _setop(self, other, fn):
        if not isinstance(other, SegArray):
            raise TypeError(f"other: expected a SegArray, got {type(other).__name__}")
        sa, sb = self._segment_ids(), other._segment_ids()
        new_sid, new_vals = fn([sa, self.values], [sb, other.values])
        lens = zeros(self.size, int64)
        if new_sid.size:
            g = GroupBy(new_sid, assume_sorted=True)
            keys, counts = g.size()
            lens[keys] = counts
        segs = (cumsum(lens) - lens)._materialize() if lens.size else lens
        return SegArray(segs, new_vals, lengths=lens)

    def intersect(self, other):
        """Per sub-array, the sorted distinct values in both."""

        return self._setop(other, intersect1d)

    def union(self, other):
        """Per sub-array, the sorted distinct values in either."""

        return self._setop(other, union1d)

    def setdiff(self, other):
        """Per sub-array, the sorted distinct values of self not in other."""

        return self._setop(other, setdiff1d)

    def setxor(self, other):
        """Per sub-array, the sorted distinct values in exactly one of the two."""

        return self._setop(other, setxor1d)

    def filter(self, filter, discard_empty=False):
        """The SegArray without the values equal to ``filter`` (a scalar, or a list, pdarray
        or Strings of values to drop); with ``discard_empty``, emptied sub-arrays go too."""

        if isinstance(filter, (list, tuple)):
            filter = array(list(filter))
        if isinstance(filter, (pdarray, Strings)):
            keep = in1d(self.values, filter, invert=True)
        else:
            keep = self.values != filter
        keep = keep._materialize()
        vals = self.values[keep]
        lens = self.lengths.astype(int64)._materialize()
        if self._non_empty_count:
            lens[self._non_empty] = self.grouping.sum(keep)[1]
        segs = (cumsum(lens) - lens)._materialize() if lens.size else lens
        out = SegArray(segs, vals, lengths=lens)
        return out[out.non_empty] if discard_empty else out


def _copy(v):
    if isinstance(v, Strings):
        return v[arange(v.size)]
    return v.astype(v.dtype)._materialize()


def segarray(segments, values, lengths=None, grouping=None):
    """``SegArray(segments, values)`` (Arkouda's function form)."""
    return SegArray(segments, values, lengths=lengths, grouping=grouping)
