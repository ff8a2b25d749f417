"""Arkouda's ``SegArray``: an array of variable-length sub-arrays.

A SegArray is stored as one flat array of ``values`` (a pdarray of any dtype, or Strings) and
the int64 ``segments`` where each sub-array starts (sorted; an empty sub-array repeats the next
start).

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

from __future__ import annotations

import builtins
from collections.abc import Callable, Iterable, Iterator
from typing import Any, ClassVar, TypeGuard

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


def _is_int(x: object) -> TypeGuard[builtins.int | np.integer[Any]]:
    return isinstance(x, (builtins.int, np.integer)) and not isinstance(x, (builtins.bool, np.bool_))


def _concat_values(parts: Iterable[Any]) -> Any:  # noqa: ANN401 (pdarrays or Strings, and of their kind)
    """One array of the values of ``parts`` (pdarrays or Strings, all of one kind)."""
    return concatenate(list(parts))


def _empty_like(values: Any, n: int = 0) -> Any:  # noqa: ANN401 (a pdarray or Strings, and of its kind)
    if isinstance(values, Strings):
        return from_list([])
    return zeros(n, values.dtype)


def _lengths(segments: pdarray, valsize: int) -> pdarray:
    if segments.size == 0:
        return zeros(0, int64)
    out: pdarray = (concatenate([segments[1:], array(np.array([valsize], dtype=np.int64))]) - segments)._materialize()
    return out


def segment_ids(segments: pdarray, lengths: pdarray, valsize: int) -> pdarray:
    """For each of ``valsize`` flat values, the index of the sub-array holding it.

    Sub-arrays are given by ``segments`` and ``lengths``; empty ones hold nothing. One scatter
    and one scan.

    Parameters
    ----------
    segments : pdarray
        The int64 start of each sub-array.
    lengths : pdarray
        The int64 length of each sub-array.
    valsize : int
        The number of flat values.

    Returns
    -------
    pdarray
        An int64 array of ``valsize`` sub-array indices.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.numpy.segarray import segment_ids
    >>> segment_ids(ak.array([0, 2, 2]), ak.array([2, 0, 3]), 5).tolist()
    [0, 0, 2, 2, 2]
    """
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


def _shift_right(x: pdarray) -> pdarray:
    """``[0, x[0], ..., x[n-2]]``."""
    out = zeros(x.size, x.dtype)
    if x.size > 1:
        out[1:] = x[:-1]
    return out


def gen_ranges(starts: pdarray, lengths: pdarray) -> tuple[pdarray, pdarray]:
    """The concatenation of ``range(starts[i], starts[i] + lengths[i])``.

    Parameters
    ----------
    starts : pdarray
        The int64 start of each range.
    lengths : pdarray
        The int64 length of each range.

    Returns
    -------
    (pdarray, pdarray)
        ``(segments, indices)``, where range ``i`` starts at ``segments[i]`` of ``indices``.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.numpy.segarray import gen_ranges
    >>> segs, ind = gen_ranges(ak.array([5, 0]), ak.array([2, 3]))
    >>> segs.tolist(), ind.tolist()
    ([0, 2], [5, 6, 0, 1, 2])
    """
    newsegs = (cumsum(lengths) - lengths)._materialize() if lengths.size else zeros(0, int64)
    total = builtins.int(_sum(lengths)) if lengths.size else 0
    if total == 0:
        return newsegs, zeros(0, int64)
    ids = segment_ids(newsegs, lengths, total)
    off = (starts - newsegs)[ids]
    out: pdarray = (arange(total) + off)._materialize()
    return newsegs, out


class SegArray(Registrable):
    """An array of sub-arrays (Arkouda's ``SegArray``).

    Parameters
    ----------
    segments : pdarray
        The int64 start of each sub-array in ``values`` (sorted, beginning at 0).
    values : pdarray or Strings
        The flat values.
    lengths : pdarray or None
        The length of each sub-array; None: from ``segments``.
    grouping : GroupBy or None
        The GroupBy of the values by sub-array, when known.

    Raises
    ------
    TypeError
        If ``segments`` is not an int64 pdarray or ``values`` not a pdarray or Strings.
    ValueError
        If ``segments`` is unsorted, does not start at 0, or starts past the values.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.SegArray(ak.array([0, 1]), ak.array([1, 2, 3])).tolist()
    [[1], [2, 3]]
    """

    objType = "SegArray"

    def __init__(
        self,
        segments: pdarray,
        values: Any,  # noqa: ANN401 (a pdarray, Strings or a bigint array)
        lengths: pdarray | None = None,
        grouping: GroupBy | None = None,
    ) -> None:
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
        self.values: Any = values
        self.segments: pdarray = segments
        self.size: int = segments.size
        self.valsize: int = values.size
        self.dtype: Any = values.dtype
        self.lengths: pdarray = _lengths(segments, values.size) if lengths is None else lengths
        self._non_empty: pdarray = (self.lengths > 0)._materialize()

        self._non_empty_count = builtins.int(_sum(self._non_empty)) if self.size else 0
        self._grouping = grouping
        self.registered_name = None

    # ----- structure ---------------------------------------------------------------------
    @property
    def non_empty(self) -> pdarray:
        """A bool pdarray: True for each sub-array that holds a value."""
        return self._non_empty

    @property
    def grouping(self) -> GroupBy:
        """The GroupBy of the flat values by sub-array (the non-empty ones, in order)."""
        if self._grouping is None:
            self._grouping = GroupBy._from_sorted_segments(
                self.segments[self._non_empty], self._segment_ids(), self.valsize
            )
        return self._grouping

    def _segment_ids(self) -> pdarray:
        return segment_ids(self.segments, self.lengths, self.valsize)

    @property
    def nbytes(self) -> int:
        """The bytes of the values."""
        n: int = self.values.nbytes
        return n

    @property
    def shape(self) -> tuple[int]:
        """The shape, ``(size,)``."""
        return (self.size,)

    @property
    def ndim(self) -> int:
        """The number of dimensions: 1."""
        return 1

    def __len__(self) -> int:
        return self.size

    @classmethod
    def from_parts(
        cls,
        segments: pdarray,
        values: Any,  # noqa: ANN401 (a pdarray, Strings or a bigint array)
        lengths: pdarray | None = None,
        grouping: GroupBy | None = None,
    ) -> SegArray:
        """The SegArray of ``segments`` into ``values`` (Arkouda's older constructor name).

        Parameters
        ----------
        segments : pdarray
            The int64 start of each sub-array.
        values : pdarray or Strings
            The flat values.
        lengths : pdarray or None
            The length of each sub-array; None: from ``segments``.
        grouping : GroupBy or None
            The GroupBy of the values by sub-array, when known.

        Returns
        -------
        SegArray
            The new SegArray.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.SegArray.from_parts(ak.array([0, 2]), ak.arange(3)).tolist()
        [[0, 1], [2]]
        """
        return cls(segments, values, lengths=lengths, grouping=grouping)

    @classmethod
    def from_multi_array(cls, m: Any) -> SegArray:  # noqa: ANN401 (a pdarray, or a list of arrays)
        """The SegArray whose sub-arrays are the arrays of the list ``m``.

        One pdarray gives one-element sub-arrays.

        Parameters
        ----------
        m : pdarray or list of pdarray or Strings
            The sub-arrays.

        Returns
        -------
        SegArray
            The new SegArray.

        Raises
        ------
        ValueError
            If the arrays have different dtypes.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.SegArray.from_multi_array([ak.array([1, 2]), ak.array([3])]).tolist()
        [[1, 2], [3]]
        """
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
    def __getitem__(self, i: object) -> Any:  # noqa: ANN401 (a sub-array, or a SegArray)
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
    def concat(cls, x: Iterable[Any], axis: int = 0, ordered: builtins.bool = True) -> Any:  # noqa: ANN401 (a SegArray, or NotImplemented)
        """The SegArrays of ``x`` joined.

        One after the other (``axis=0``), or each sub-array the concatenation of the
        corresponding sub-arrays (``axis=1``, equal sizes).

        Parameters
        ----------
        x : iterable of SegArray
            The SegArrays, of one dtype.
        axis : int, default 0
            0: one after the other; 1: sub-array by sub-array.
        ordered : bool, default True
            Only True is supported.

        Returns
        -------
        SegArray
            The joined SegArray (NotImplemented where an element is not a SegArray).

        Raises
        ------
        ValueError
            If ``x`` is empty, the dtypes (or with ``axis=1`` the sizes) differ, ``axis`` is not
            0 or 1, or ``ordered`` is False.

        Examples
        --------
        >>> import atoll as ak
        >>> a = ak.SegArray(ak.array([0, 1]), ak.array([1, 2, 3]))
        >>> ak.SegArray.concat([a, a], axis=1).tolist()
        [[1, 1], [2, 3, 2, 3]]
        """
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

    def append(self, other: object, axis: int = 0) -> Any:  # noqa: ANN401 (a SegArray, or NotImplemented)
        """``concat([self, other], axis)``; NotImplemented unless ``other`` is a SegArray.

        Parameters
        ----------
        other : SegArray
            The SegArray appended, of the same dtype.
        axis : int, default 0
            0: after; 1: sub-array by sub-array.

        Returns
        -------
        SegArray
            The joined SegArray.

        Raises
        ------
        TypeError
            If the dtypes differ.

        Examples
        --------
        >>> import atoll as ak
        >>> a = ak.SegArray(ak.array([0]), ak.array([1, 2]))
        >>> a.append(a).tolist()
        [[1, 2], [1, 2]]
        """
        if not isinstance(other, SegArray):
            return NotImplemented
        if str(self.dtype) != str(other.dtype):
            raise TypeError("SegArrays must have same value type to append")
        return SegArray.concat((self, other), axis=axis)

    def append_single(self, x: object, prepend: builtins.bool = False) -> SegArray:
        """Each sub-array with one more value at its end (or start).

        Parameters
        ----------
        x : scalar or pdarray
            The value, or one value per sub-array.
        prepend : bool, default False
            Put the value at the start.

        Returns
        -------
        SegArray
            The new SegArray.

        Raises
        ------
        TypeError
            If the values are Strings, or ``x`` is an array of another type.
        ValueError
            If ``x`` is an array of another size.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.SegArray(ak.array([0, 1]), ak.array([1, 2, 3])).append_single(9).tolist()
        [[1, 9], [2, 3, 9]]
        """
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

    def prepend_single(self, x: object) -> SegArray:
        """Each sub-array with ``x`` (a scalar, or one value per sub-array) at its start.

        Parameters
        ----------
        x : scalar or pdarray
            The value, or one value per sub-array.

        Returns
        -------
        SegArray
            The new SegArray.

        Raises
        ------
        TypeError
            If the values are Strings, or ``x`` is an array of another type.
        ValueError
            If ``x`` is an array of another size.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.SegArray(ak.array([0, 1]), ak.array([1, 2, 3])).prepend_single(9).tolist()
        [[9, 1], [9, 2, 3]]
        """
        return self.append_single(x, prepend=True)

    def copy(self) -> SegArray:
        """A deep copy.

        Returns
        -------
        SegArray
            A SegArray of new arrays, equal to this one.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.SegArray(ak.array([0, 1]), ak.array([1, 2])).copy().tolist()
        [[1], [2]]
        """
        return SegArray(_copy(self.segments), _copy(self.values))

    # ----- comparison --------------------------------------------------------------------
    def __eq__(self, other: object) -> Any:  # noqa: ANN401 (a bool pdarray, or NotImplemented)
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

    def __ne__(self, other: object) -> Any:  # noqa: ANN401 (a bool pdarray, or NotImplemented)
        r = self.__eq__(other)
        return r if r is NotImplemented else ~r

    __hash__: ClassVar[None]  # type: ignore[assignment]  # unhashable, as NumPy's arrays
    __hash__ = None

    # ----- sub-array pieces --------------------------------------------------------------
    def _table(self, n: int, first_index: pdarray, mask: pdarray) -> list[Any]:
        return [self.values[(first_index + k)[mask]] for k in range(n)]

    def get_suffixes(
        self, n: int, return_origins: builtins.bool = True, proper: builtins.bool = True
    ) -> list[Any] | tuple[list[Any], pdarray]:
        """The last ``n`` values of each sub-array long enough (longer than ``n`` when ``proper``).

        Parameters
        ----------
        n : int
            The number of values.
        return_origins : bool, default True
            Also return the mask of the sub-arrays long enough.
        proper : bool, default True
            Only sub-arrays longer than ``n``.

        Returns
        -------
        list or (list, pdarray)
            ``n`` columns (column ``k`` the ``k``-th of the last ``n`` values), and with
            ``return_origins`` the bool mask of those sub-arrays.

        Examples
        --------
        >>> import atoll as ak
        >>> cols, ok = ak.SegArray(ak.array([0, 1]), ak.array([1, 2, 3])).get_suffixes(1)
        >>> [c.tolist() for c in cols], ok.tolist()
        ([[3]], [False, True])
        """
        longenough = (self.lengths > n if proper else self.lengths >= n)._materialize()
        cols = self._table(n, self.segments + self.lengths - n, longenough)
        return (cols, longenough) if return_origins else cols

    def get_prefixes(
        self, n: int, return_origins: builtins.bool = True, proper: builtins.bool = True
    ) -> list[Any] | tuple[list[Any], pdarray]:
        """The first ``n`` values of each sub-array long enough (longer than ``n`` when ``proper``).

        Parameters
        ----------
        n : int
            The number of values.
        return_origins : bool, default True
            Also return the mask of the sub-arrays long enough.
        proper : bool, default True
            Only sub-arrays longer than ``n``.

        Returns
        -------
        list or (list, pdarray)
            ``n`` columns (column ``k`` the ``k``-th values), and with ``return_origins`` the
            bool mask of those sub-arrays.

        Examples
        --------
        >>> import atoll as ak
        >>> cols, ok = ak.SegArray(ak.array([0, 1]), ak.array([1, 2, 3])).get_prefixes(1)
        >>> [c.tolist() for c in cols], ok.tolist()
        ([[2]], [False, True])
        """
        longenough = (self.lengths > n if proper else self.lengths >= n)._materialize()
        cols = self._table(n, self.segments, longenough)
        return (cols, longenough) if return_origins else cols

    def get_ngrams(self, n: int, return_origins: builtins.bool = True) -> list[Any] | tuple[list[Any], pdarray]:
        """Every run of ``n`` consecutive values within a sub-array.

        Parameters
        ----------
        n : int
            The run length.
        return_origins : bool, default True
            Also return the sub-array of each run.

        Returns
        -------
        list or (list, pdarray)
            ``n`` columns, and with ``return_origins`` the index of the sub-array of each run.

        Raises
        ------
        ValueError
            If ``n`` exceeds the longest sub-array.

        Examples
        --------
        >>> import atoll as ak
        >>> cols, o = ak.SegArray(ak.array([0, 1]), ak.array([1, 2, 3])).get_ngrams(2)
        >>> [c.tolist() for c in cols], o.tolist()
        ([[2], [3]], [1])
        """
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

    def _normalize_index(self, j: object) -> tuple[pdarray, Any]:
        if not _is_int(j):
            raise TypeError(f"index must be integer, not {type(j)}")
        if j >= 0:
            return (self.lengths > j)._materialize(), j
        jj = (self.lengths + j)._materialize()
        return (jj >= 0)._materialize(), jj

    def get_jth(
        self, j: int, return_origins: builtins.bool = True, compressed: builtins.bool = False, default: object = 0
    ) -> Any:  # noqa: ANN401 (the values' kind, or a pair with the mask)
        """The ``j``-th value of each sub-array (counted from the end when negative).

        Where a sub-array is too short, ``default`` (or left out when ``compressed``; always
        left out for Strings).

        Parameters
        ----------
        j : int
            The position in each sub-array.
        return_origins : bool, default True
            Also return the mask of the sub-arrays long enough.
        compressed : bool, default False
            Leave out the sub-arrays too short.
        default : scalar, default 0
            The value of the sub-arrays too short.

        Returns
        -------
        pdarray or Strings, or (values, pdarray)
            The values, and with ``return_origins`` the bool mask of the sub-arrays long enough.

        Raises
        ------
        TypeError
            If ``j`` is not an int.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.SegArray(ak.array([0, 1]), ak.array([1, 2, 3])).get_jth(1, return_origins=False).tolist()
        [0, 3]
        """
        longenough, jj = self._normalize_index(j)
        ind = (self.segments + jj)[longenough]
        if compressed or isinstance(self.values, Strings):
            res = self.values[ind]
        else:
            res = full(self.size, default, self.dtype)
            res[longenough] = self.values[ind]
        return (res, longenough) if return_origins else res

    def set_jth(self, i: object, j: int, v: object) -> None:
        """Set the ``j``-th value of the sub-arrays ``i`` to ``v``.

        Parameters
        ----------
        i : int or pdarray
            The sub-arrays.
        j : int
            The position in each (counted from the end when negative).
        v : scalar or pdarray
            The new values.

        Raises
        ------
        TypeError
            If the values are Strings or ``j`` is not an int.
        ValueError
            If a sub-array is too short.

        Examples
        --------
        >>> import atoll as ak
        >>> sa = ak.SegArray(ak.array([0, 1]), ak.array([1, 2, 3]))
        >>> sa.set_jth(1, 0, 7)
        >>> sa.tolist()
        [[1], [7, 3]]
        """
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

    def get_length_n(self, n: int, return_origins: builtins.bool = True) -> list[Any] | tuple[list[Any], pdarray]:
        """The sub-arrays of length ``n`` as ``n`` columns, and the bool mask of them.

        Parameters
        ----------
        n : int
            The length.
        return_origins : bool, default True
            Also return the mask.

        Returns
        -------
        list or (list, pdarray)
            ``n`` columns, and with ``return_origins`` the bool mask of those sub-arrays.

        Examples
        --------
        >>> import atoll as ak
        >>> cols, m = ak.SegArray(ak.array([0, 1]), ak.array([1, 2, 3])).get_length_n(2)
        >>> [c.tolist() for c in cols], m.tolist()
        ([[2], [3]], [False, True])
        """
        mask = (self.lengths == n)._materialize()
        cols = self._table(n, self.segments, mask)
        return (cols, mask) if return_origins else cols

    def remove_repeats(self, return_multiplicity: builtins.bool = False) -> SegArray | tuple[SegArray, SegArray]:
        """Each run of equal consecutive values within a sub-array made one value.

        Parameters
        ----------
        return_multiplicity : bool, default False
            Also return the length of each run.

        Returns
        -------
        SegArray or (SegArray, SegArray)
            The SegArray without repeats, and with ``return_multiplicity`` the run lengths.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.SegArray(ak.array([0, 3]), ak.array([1, 1, 2, 2])).remove_repeats().tolist()
        [[1, 2], [2]]
        """
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
    def to_ndarray(self) -> np.ndarray[Any, Any]:
        """A NumPy object array of one NumPy array per sub-array.

        Returns
        -------
        numpy.ndarray
            An object array.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.SegArray(ak.array([0, 1]), ak.array([1, 2, 3])).to_ndarray()
        array([array([1]), array([2, 3])], dtype=object)
        """
        vals = self.values.to_ndarray()
        segs = self.segments.to_ndarray()
        ends = np.append(segs[1:], vals.size) if segs.size else segs
        out = np.empty(self.size, dtype=object)
        for k, (s, e) in enumerate(zip(segs, ends)):
            out[k] = vals[s:e]
        return out

    def tolist(self) -> list[list[Any]]:
        """A list of one list per sub-array.

        Returns
        -------
        list of list
            The sub-arrays' values.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.SegArray(ak.array([0, 1]), ak.array([1, 2, 3])).tolist()
        [[1], [2, 3]]
        """
        return [a.tolist() for a in self.to_ndarray()]

    to_list = tolist

    def __iter__(self) -> Iterator[Any]:
        return iter(self.to_ndarray())

    def __str__(self) -> str:
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
    def _x(self, x: Any) -> Any:  # noqa: ANN401 (a pdarray or Strings)
        return self.values if x is None else x

    def sum(self, x: Any = None) -> pdarray:  # noqa: ANN401 (a pdarray or Strings)
        """The sum of each non-empty sub-array.

        Parameters
        ----------
        x : pdarray or None
            Values aligned with the flat values, reduced instead of them; None: the values.

        Returns
        -------
        pdarray
            One value per non-empty sub-array, in order (see ``non_empty``).

        Examples
        --------
        >>> import atoll as ak
        >>> ak.SegArray(ak.array([0, 2, 2]), ak.array([1, 2, 3])).sum().tolist()
        [3, 3]
        """
        out: pdarray = self.grouping.sum(self._x(x))[1]
        return out

    def prod(self, x: Any = None) -> pdarray:  # noqa: ANN401 (a pdarray or Strings)
        """The product of each non-empty sub-array.

        Parameters
        ----------
        x : pdarray or None
            Values aligned with the flat values, reduced instead of them; None: the values.

        Returns
        -------
        pdarray
            One value per non-empty sub-array, in order (see ``non_empty``).

        Examples
        --------
        >>> import atoll as ak
        >>> ak.SegArray(ak.array([0, 2, 2]), ak.array([1, 2, 3])).prod().tolist()
        [2.0, 3.0]
        """
        out: pdarray = self.grouping.prod(self._x(x))[1]
        return out

    def min(self, x: Any = None) -> pdarray:  # noqa: ANN401 (a pdarray or Strings)
        """The least value of each non-empty sub-array.

        Parameters
        ----------
        x : pdarray or None
            Values aligned with the flat values, reduced instead of them; None: the values.

        Returns
        -------
        pdarray
            One value per non-empty sub-array, in order (see ``non_empty``).

        Examples
        --------
        >>> import atoll as ak
        >>> ak.SegArray(ak.array([0, 2, 2]), ak.array([1, 2, 3])).min().tolist()
        [1, 3]
        """
        out: pdarray = self.grouping.min(self._x(x))[1]
        return out

    def max(self, x: Any = None) -> pdarray:  # noqa: ANN401 (a pdarray or Strings)
        """The greatest value of each non-empty sub-array.

        Parameters
        ----------
        x : pdarray or None
            Values aligned with the flat values, reduced instead of them; None: the values.

        Returns
        -------
        pdarray
            One value per non-empty sub-array, in order (see ``non_empty``).

        Examples
        --------
        >>> import atoll as ak
        >>> ak.SegArray(ak.array([0, 2, 2]), ak.array([1, 2, 3])).max().tolist()
        [2, 3]
        """
        out: pdarray = self.grouping.max(self._x(x))[1]
        return out

    def argmin(self, x: Any = None) -> pdarray:  # noqa: ANN401 (a pdarray or Strings)
        """The flat index of the least value of each non-empty sub-array.

        Parameters
        ----------
        x : pdarray or None
            Values aligned with the flat values, reduced instead of them; None: the values.

        Returns
        -------
        pdarray
            One value per non-empty sub-array, in order (see ``non_empty``).

        Examples
        --------
        >>> import atoll as ak
        >>> ak.SegArray(ak.array([0, 2, 2]), ak.array([1, 2, 3])).argmin().tolist()
        [0, 2]
        """
        out: pdarray = self.grouping.argmin(self._x(x))[1]
        return out

    def argmax(self, x: Any = None) -> pdarray:  # noqa: ANN401 (a pdarray or Strings)
        """The flat index of the greatest value of each non-empty sub-array.

        Parameters
        ----------
        x : pdarray or None
            Values aligned with the flat values, reduced instead of them; None: the values.

        Returns
        -------
        pdarray
            One value per non-empty sub-array, in order (see ``non_empty``).

        Examples
        --------
        >>> import atoll as ak
        >>> ak.SegArray(ak.array([0, 2, 2]), ak.array([1, 2, 3])).argmax().tolist()
        [1, 2]
        """
        out: pdarray = self.grouping.argmax(self._x(x))[1]
        return out

    def any(self, x: Any = None) -> pdarray:  # noqa: ANN401 (a pdarray or Strings)
        """Whether any value of each non-empty sub-array is nonzero.

        Parameters
        ----------
        x : pdarray or None
            Values aligned with the flat values, reduced instead of them; None: the values.

        Returns
        -------
        pdarray
            One value per non-empty sub-array, in order (see ``non_empty``).

        Examples
        --------
        >>> import atoll as ak
        >>> ak.SegArray(ak.array([0, 2, 2]), ak.array([1, 2, 3])).any().tolist()
        [True, True]
        """
        out: pdarray = self.grouping.any(self._x(x))[1]
        return out

    def all(self, x: Any = None) -> pdarray:  # noqa: ANN401 (a pdarray or Strings)
        """Whether every value of each non-empty sub-array is nonzero.

        Parameters
        ----------
        x : pdarray or None
            Values aligned with the flat values, reduced instead of them; None: the values.

        Returns
        -------
        pdarray
            One value per non-empty sub-array, in order (see ``non_empty``).

        Examples
        --------
        >>> import atoll as ak
        >>> ak.SegArray(ak.array([0, 2, 2]), ak.array([1, 2, 3])).all().tolist()
        [True, True]
        """
        out: pdarray = self.grouping.all(self._x(x))[1]
        return out

    def OR(self, x: Any = None) -> pdarray:  # noqa: ANN401 (a pdarray or Strings)
        """The bitwise or of each non-empty sub-array.

        Parameters
        ----------
        x : pdarray or None
            Values aligned with the flat values, reduced instead of them; None: the values.

        Returns
        -------
        pdarray
            One value per non-empty sub-array, in order (see ``non_empty``).

        Examples
        --------
        >>> import atoll as ak
        >>> ak.SegArray(ak.array([0, 2, 2]), ak.array([1, 2, 3])).OR().tolist()
        [3, 3]
        """
        out: pdarray = self.grouping.OR(self._x(x))[1]
        return out

    def AND(self, x: Any = None) -> pdarray:  # noqa: ANN401 (a pdarray or Strings)
        """The bitwise and of each non-empty sub-array.

        Parameters
        ----------
        x : pdarray or None
            Values aligned with the flat values, reduced instead of them; None: the values.

        Returns
        -------
        pdarray
            One value per non-empty sub-array, in order (see ``non_empty``).

        Examples
        --------
        >>> import atoll as ak
        >>> ak.SegArray(ak.array([0, 2, 2]), ak.array([1, 2, 3])).AND().tolist()
        [0, 3]
        """
        out: pdarray = self.grouping.AND(self._x(x))[1]
        return out

    def XOR(self, x: Any = None) -> pdarray:  # noqa: ANN401 (a pdarray or Strings)
        """The bitwise exclusive or of each non-empty sub-array.

        Parameters
        ----------
        x : pdarray or None
            Values aligned with the flat values, reduced instead of them; None: the values.

        Returns
        -------
        pdarray
            One value per non-empty sub-array, in order (see ``non_empty``).

        Examples
        --------
        >>> import atoll as ak
        >>> ak.SegArray(ak.array([0, 2, 2]), ak.array([1, 2, 3])).XOR().tolist()
        [3, 3]
        """
        out: pdarray = self.grouping.XOR(self._x(x))[1]
        return out

    def nunique(self, x: Any = None) -> pdarray:  # noqa: ANN401 (a pdarray or Strings)
        """The number of distinct values of each non-empty sub-array.

        Parameters
        ----------
        x : pdarray or None
            Values aligned with the flat values, reduced instead of them; None: the values.

        Returns
        -------
        pdarray
            One value per non-empty sub-array, in order (see ``non_empty``).

        Examples
        --------
        >>> import atoll as ak
        >>> ak.SegArray(ak.array([0, 2, 2]), ak.array([1, 2, 3])).nunique().tolist()
        [2, 1]
        """
        out: pdarray = self.grouping.nunique(self._x(x))[1]
        return out

    def mean(self, x: Any = None) -> pdarray:  # noqa: ANN401 (a pdarray or Strings)
        """The mean of each non-empty sub-array.

        Parameters
        ----------
        x : pdarray or None
            Values aligned with the flat values, reduced instead of them; None: the values.

        Returns
        -------
        pdarray
            One value per non-empty sub-array, in order (see ``non_empty``).

        Examples
        --------
        >>> import atoll as ak
        >>> ak.SegArray(ak.array([0, 2, 2]), ak.array([1, 2, 3])).mean().tolist()
        [1.5, 3.0]
        """
        out: pdarray = self.grouping.mean(self._x(x))[1]
        return out

    def aggregate(self, op: str, x: Any = None) -> Any:  # noqa: ANN401 (GroupBy.aggregate's pair)
        """``(indices of the non-empty sub-arrays, op of each)`` (``GroupBy.aggregate``).

        Parameters
        ----------
        op : str
            The reduction's name (``"sum"``, ``"min"``, ...).
        x : pdarray or None
            Values aligned with the flat values, reduced instead of them; None: the values.

        Returns
        -------
        (pdarray, pdarray)
            The indices of the non-empty sub-arrays and the reduction of each.

        Examples
        --------
        >>> import atoll as ak
        >>> k, v = ak.SegArray(ak.array([0, 2, 2]), ak.array([1, 2, 3])).aggregate("sum")
        >>> k.tolist(), v.tolist()
        ([0, 2], [3, 3])
        """
        return self.grouping.aggregate(self._x(x), op)

    def unique(self, x: Any = None) -> SegArray:  # noqa: ANN401 (a pdarray or Strings)
        """Each sub-array's distinct values, sorted (empty sub-arrays stay empty).

        Parameters
        ----------
        x : pdarray or None
            Values aligned with the flat values, used instead of them; None: the values.

        Returns
        -------
        SegArray
            The distinct values of each sub-array.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.SegArray(ak.array([0, 3]), ak.array([2, 1, 2, 5])).unique().tolist()
        [[1, 2], [5]]
        """
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

    def hash(self) -> tuple[pdarray, pdarray]:
        """Two uint64 pdarrays: a 128-bit hash of each sub-array (of its values in order).

        Equal sub-arrays hash equally.

        Returns
        -------
        (pdarray, pdarray)
            The two halves of each hash.

        Examples
        --------
        >>> import atoll as ak
        >>> h1, h2 = ak.SegArray(ak.array([0, 1, 2]), ak.array([1, 2, 1])).hash()
        >>> bool(h1[0] == h1[2]), bool(h1[0] == h1[1])
        (True, False)
        """
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
    def _setop(self, other: object, fn: Callable[..., Any]) -> SegArray:
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

    def intersect(self, other: SegArray) -> SegArray:
        """Per sub-array, the sorted distinct values in both.

        Parameters
        ----------
        other : SegArray
            A SegArray of the same size.

        Returns
        -------
        SegArray
            The values of each sub-array.

        Raises
        ------
        TypeError
            If ``other`` is not a SegArray.

        Examples
        --------
        >>> import atoll as ak
        >>> a = ak.SegArray(ak.array([0, 2]), ak.array([1, 2, 4]))
        >>> b = ak.SegArray(ak.array([0, 2]), ak.array([2, 3, 5]))
        >>> a.intersect(b).tolist()
        [[2], []]
        """
        return self._setop(other, intersect1d)

    def union(self, other: SegArray) -> SegArray:
        """Per sub-array, the sorted distinct values in either.

        Parameters
        ----------
        other : SegArray
            A SegArray of the same size.

        Returns
        -------
        SegArray
            The values of each sub-array.

        Raises
        ------
        TypeError
            If ``other`` is not a SegArray.

        Examples
        --------
        >>> import atoll as ak
        >>> a = ak.SegArray(ak.array([0, 2]), ak.array([1, 2, 4]))
        >>> b = ak.SegArray(ak.array([0, 2]), ak.array([2, 3, 5]))
        >>> a.union(b).tolist()
        [[1, 2, 3], [4, 5]]
        """
        return self._setop(other, union1d)

    def setdiff(self, other: SegArray) -> SegArray:
        """Per sub-array, the sorted distinct values of self not in other.

        Parameters
        ----------
        other : SegArray
            A SegArray of the same size.

        Returns
        -------
        SegArray
            The values of each sub-array.

        Raises
        ------
        TypeError
            If ``other`` is not a SegArray.

        Examples
        --------
        >>> import atoll as ak
        >>> a = ak.SegArray(ak.array([0, 2]), ak.array([1, 2, 4]))
        >>> b = ak.SegArray(ak.array([0, 2]), ak.array([2, 3, 5]))
        >>> a.setdiff(b).tolist()
        [[1], [4]]
        """
        return self._setop(other, setdiff1d)

    def setxor(self, other: SegArray) -> SegArray:
        """Per sub-array, the sorted distinct values in exactly one of the two.

        Parameters
        ----------
        other : SegArray
            A SegArray of the same size.

        Returns
        -------
        SegArray
            The values of each sub-array.

        Raises
        ------
        TypeError
            If ``other`` is not a SegArray.

        Examples
        --------
        >>> import atoll as ak
        >>> a = ak.SegArray(ak.array([0, 2]), ak.array([1, 2, 4]))
        >>> b = ak.SegArray(ak.array([0, 2]), ak.array([2, 3, 5]))
        >>> a.setxor(b).tolist()
        [[1, 3], [4, 5]]
        """
        return self._setop(other, setxor1d)

    def filter(self, filter: object, discard_empty: builtins.bool = False) -> SegArray:
        """The SegArray without the values equal to ``filter``.

        Parameters
        ----------
        filter : scalar, list, pdarray or Strings
            The value, or values, to drop.
        discard_empty : bool, default False
            Drop the sub-arrays emptied too.

        Returns
        -------
        SegArray
            The filtered SegArray.

        Examples
        --------
        >>> import atoll as ak
        >>> sa = ak.SegArray(ak.array([0, 1]), ak.array([1, 2, 1]))
        >>> sa.filter(1).tolist(), sa.filter(1, discard_empty=True).tolist()
        ([[], [2]], [[2]])
        """
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


def _copy(v: Any) -> Any:  # noqa: ANN401 (a pdarray or Strings, and of its kind)
    if isinstance(v, Strings):
        return v[arange(v.size)]
    return v.astype(v.dtype)._materialize()


def segarray(
    segments: pdarray,
    values: Any,  # noqa: ANN401 (a pdarray, Strings or a bigint array)
    lengths: pdarray | None = None,
    grouping: GroupBy | None = None,
) -> SegArray:
    """``SegArray(segments, values)`` (Arkouda's function form).

    Parameters
    ----------
    segments : pdarray
        The int64 start of each sub-array.
    values : pdarray or Strings
        The flat values.
    lengths : pdarray or None
        The length of each sub-array; None: from ``segments``.
    grouping : GroupBy or None
        The GroupBy of the values by sub-array, when known.

    Returns
    -------
    SegArray
        The new SegArray.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.numpy.segarray import segarray
    >>> segarray(ak.array([0, 1]), ak.array([5, 6])).tolist()
    [[5], [6]]
    """
    return SegArray(segments, values, lengths=lengths, grouping=grouping)
