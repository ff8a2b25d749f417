"""Arkouda's ``GroupBy`` (``arkouda.pandas.groupbyclass``): rows grouped by equal keys.

The rows of one key array or several are grouped by equal keys, and values aggregated per
group on the segmented reductions of ``atoll-ops``.

Keys follow NumPy's equality: ``-0.0`` equals ``0.0``; with ``dropna=True`` (the default, as
Arkouda) rows whose float key is NaN are left out, else every NaN is one key. NaN values:
``skipna=True`` (the default) leaves them out of ``sum``, ``prod``, ``min``, ``max``,
``mean``, ``var``, ``std``, ``argmin``, ``argmax``, and ``count`` counts the others (a group
of NaNs only: sum 0, prod 1, NaN for the rest, its first row for argmin/argmax); with
``skipna=False`` a group holding a NaN gives NaN. ``var``/``std`` use ``ddof=1`` by default.
Values passed to the aggregations have one element per row of the keys as given (before
NaN keys are dropped); ``permutation`` holds indices of those rows.
"""

from __future__ import annotations

import builtins
import enum
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from .. import _atoll, _keys
from .._keys import dense_key, dense_keys_out, dense_limit, has_nan, key_list
from ..numpy.dtypes import bool_, float64, int64, uint8, uint64
from ..numpy.numeric import isnan, where
from ..numpy.pdarrayclass import _check, cumsum, pdarray
from ..numpy.pdarraycreation import arange, array, full, zeros
from ..numpy.strings import Strings
from ..numpy.timeclass import is_time
from ..progress import size_of, tracked
from ..str_groupby import init_strings, radix_key, rank_keys
from ._bigint_groupby import OPS as BIGINT_OPS, bigint_aggregate, is_bigint
from ._concat import generic_concat as concatenate
from ._registry import Registrable
from ._segfold import segmented_bitwise
from .categorical import Categorical


def _widened(values: Any) -> Any:  # noqa: ANN401 (a pdarray)
    """The values as the aggregations take them: bool as int64, uint8 as uint64.

    (NumPy's and pandas' dtype of a uint8 sum.)
    """
    if values.dtype == bool_:
        return values.astype(int64)
    if values.dtype == uint8:
        return values.astype(uint64)
    return values


def _narrowed(r: Any, values: Any, op: str) -> Any:  # noqa: ANN401 (pdarrays)
    """The minimum, maximum or first per group of uint8 values back in uint8.

    Of bool values back in bool (NumPy's and pandas' dtypes).
    """
    if values.dtype == uint8 and op in ("min", "max", "first"):
        return r.astype(uint8)._materialize()
    if values.dtype == bool_ and op in ("min", "max"):
        return (r != 0)._materialize()
    return r


class GroupByReductionType(enum.Enum):
    """The names of the reductions ``GroupBy.aggregate`` takes.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.pandas.groupbyclass import GroupByReductionType
    >>> str(GroupByReductionType.SUM), "sum" in ak.GroupBy.Reductions
    ('sum', True)
    """

    SUM = "sum"
    COUNT = "count"
    PROD = "prod"
    VAR = "var"
    STD = "std"
    MEAN = "mean"
    MEDIAN = "median"
    MIN = "min"
    MAX = "max"
    ARGMIN = "argmin"
    ARGMAX = "argmax"
    NUNIQUE = "nunique"
    ANY = "any"
    ALL = "all"
    OR = "or"
    AND = "and"
    XOR = "xor"
    FIRST = "first"
    MODE = "mode"
    UNIQUE = "unique"

    def __str__(self) -> str:
        return str(self.value)

    def __repr__(self) -> str:
        return str(self.value)


GROUPBY_REDUCTION_TYPES = frozenset(m.value for m in GroupByReductionType)


def _values_list(values: Any) -> tuple[list[Any], bool]:  # noqa: ANN401 (an array or a list of them)
    """(list of value arrays, True when ``values`` was a list/tuple)."""
    if isinstance(values, (list, tuple)):
        return list(values), True
    return [values], False


def _arraylike(v: object) -> bool:
    return (
        isinstance(v, (pdarray, Strings, Categorical))
        or getattr(v, "objType", None) == "SegArray"  # the SegArray sits above this module
        or hasattr(v, "_is_bigint")
    )


def _unwrap_values(values: Any) -> Any:  # noqa: ANN401 (arrays of any kind)
    """A pdarray-like from ``values``.

    pdarrays (and other Atoll arrays) as they are, an Atoll Series or Index by its values;
    anything else (a pandas Series of Python data, a list) is refused with TypeError, as
    Arkouda refuses it.
    """
    if _arraylike(values) or isinstance(values, (list, tuple)):
        return values
    inner = getattr(values, "_atoll_values", None)
    if inner is not None:
        return inner
    raise TypeError(f"Unsupported values type for Arkouda GroupBy reductions: {type(values).__name__}")


class GroupBy(Registrable):
    """Group a pdarray, a Strings, a Categorical, or the rows of a list of them, by value.

    Arkouda's GroupBy; Strings keys: see ``str_groupby``.

    Parameters
    ----------
    keys : pdarray, Strings, Categorical or list of them, optional
        The keys (None with ``orig_keys``, ``permutation`` and ``segments`` given).
    assume_sorted : bool, default False
        The keys (one pdarray) are sorted already: the groups are their runs.
    dropna : bool, default True
        Leave out the rows whose float key is NaN.
    **kwargs
        ``orig_keys``, ``permutation`` and ``segments``: a GroupBy's parts.

    Raises
    ------
    TypeError
        ``assume_sorted`` is not a bool.
    ValueError
        No keys.

    Examples
    --------
    >>> import atoll as ak
    >>> g = ak.GroupBy(ak.array([2, 1, 2]))
    >>> g.unique_keys.tolist(), g.ngroups, g.permutation.tolist()
    ([1, 2], 2, [1, 0, 2])
    """

    Reductions = GROUPBY_REDUCTION_TYPES
    objType = "GroupBy"
    _decode: Any = None  # the map from combined keys to the keys (``_init_radix``), else None

    keys: Any
    nkeys: int
    dropna: bool
    length: int
    assume_sorted: bool
    _nrows: int
    _seq: bool
    _identity: bool
    # The rank keys of keys of numbers (``str_groupby`` groups Strings keys without them).
    _ks: list[Any]
    _kept: Any
    _dense: Any
    _perm: Any
    _flags_: Any
    _segs: Any
    _counts: Any
    _uk: Any

    if TYPE_CHECKING:
        # Set on the class by ``atoll.pandas._groupbyclass_methods`` (mypy sees no attach).
        def _ends(self) -> Any: ...  # noqa: ANN401 (a pdarray)
        def _group(self) -> None: ...
        def _take_ranges(self, n: int, from_end: bool) -> Any: ...  # noqa: ANN401 (a pdarray)
        def median(self, values: Any, skipna: bool = True) -> tuple[Any, Any]: ...  # noqa: ANN401, D102
        def nunique(self, values: Any) -> tuple[Any, pdarray]: ...  # noqa: ANN401, D102
        def unique(self, values: Any) -> tuple[Any, Any]: ...  # noqa: ANN401, D102

    @tracked("GroupBy", rows=lambda self, keys=None, *a, **k: size_of(keys))
    def __init__(
        self,
        keys: Any = None,  # noqa: ANN401 (arrays of several kinds)
        assume_sorted: bool = False,
        dropna: bool = True,
        **kwargs: Any,  # noqa: ANN401 (a GroupBy's parts)
    ) -> None:
        if not isinstance(assume_sorted, (builtins.bool, np.bool_)):
            raise TypeError("assume_sorted must be of type bool.")
        self.registered_name = None
        self.assume_sorted = builtins.bool(assume_sorted)
        self._identity = False
        if keys is None:
            if "orig_keys" in kwargs and "permutation" in kwargs and "segments" in kwargs:
                self._init_parts(kwargs["orig_keys"], kwargs["permutation"], kwargs["segments"], dropna)
                return
            raise ValueError("No keys passed to GroupBy.")
        if isinstance(keys, Strings):
            init_strings(self, keys, dropna)
            return
        keys = self._plain_time_keys(keys)
        rk = radix_key(keys) if _keys.COMBINE else None
        if rk is not None:
            self._init_radix(keys, *rk, dropna)
            return
        ks, seq = key_list(rank_keys(keys))
        self.keys = keys
        self.nkeys = len(ks)
        self.dropna = dropna
        self._nrows = ks[0].size
        self._seq = seq
        self._perm = self._flags_ = self._segs = None
        self._counts = None
        if assume_sorted and not seq and isinstance(keys, pdarray) and not has_nan(keys):
            self._init_sorted(ks[0])
            return
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
            ok: Any = None
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

    # The classes of the Datetime/Timedelta keys (None for the other keys), when some are: they
    # are grouped as their int64 nanoseconds and the distinct keys are given back as such.
    _time_kinds: Any = None

    def _plain_time_keys(self, keys: Any) -> Any:  # noqa: ANN401 (keys of any kind)
        """``keys`` with each Datetime or Timedelta as its int64 nanoseconds.

        Their classes are kept in ``_time_kinds`` for ``unique_keys``.
        """
        seq = isinstance(keys, (list, tuple))
        ks = list(keys) if seq else [keys]
        if not builtins.any(is_time(k) for k in ks):
            return keys
        self._time_kinds = [type(k) if is_time(k) else None for k in ks]
        plain = [k.values if is_time(k) else k for k in ks]
        return type(keys)(plain) if seq else plain[0]

    def _init_radix(self, keys: Any, key: pdarray, product: int, decode: Any, dropna: bool) -> None:  # noqa: ANN401 (keys of any kind; a function)
        """Keys combined into the one int64 ``key`` (``str_groupby.radix_key``; it orders as the keys do).

        The dense path groups it when ``product`` (its range) is within the dense limit, else
        one single-key sort does; ``decode`` maps the distinct combined keys to the distinct
        keys.
        """
        self._seq = isinstance(keys, (list, tuple))
        self.keys = keys
        self.nkeys = len(keys) if self._seq else 1
        self.dropna = dropna
        self._nrows = self.length = key.size
        self._perm = self._flags_ = self._segs = None
        self._counts = None
        self._ks, self._kept = [key], None
        self._decode = decode
        self._uk = None
        limit = dense_limit(key)
        self._dense = limit if limit is not None and product <= limit else None
        if self._dense is None:
            self._sorted_keys()

    def _dense_keys(self, uk: Any) -> Any:  # noqa: ANN401 (a native array; the keys)
        """The distinct keys from the dense path's distinct int64 keys ``uk`` (a native array)."""
        if self._decode is not None:
            return self._decode(pdarray(uk))
        return dense_keys_out(uk, self._ks[0])

    def _sorted_keys(self) -> None:
        """The sort path's distinct keys: the first row of each group."""
        self._group()
        uki = self.permutation[self._segs] if self._segs.size else self._segs
        if self._decode is not None and self._kept is None:
            # One gather of the combined key, then its digits (no gather per key).
            self._uk = self._decode(self._ks[0][uki])
            return
        full = list(self.keys) if self._seq else [self.keys]
        uk = [k[uki] for k in full]
        self._uk = tuple(uk) if self._seq else uk[0]

    def _init_sorted(self, k: pdarray) -> None:
        """Keys already sorted: the groups are runs of equal keys (no sort)."""
        n = k.size
        self._dense, self._kept, self._ks = None, None, [k]
        self.length = n
        self._identity = True
        flags = zeros(n, bool_)
        if n:
            flags[0] = True
            if n > 1:
                flags[1:] = k[1:] != k[:-1]
        self._flags_ = flags._materialize()
        self._perm = arange(n)
        self._segs = arange(n)[self._flags_] if n else zeros(0, int64)
        self._uk = k[self._segs] if n else k[self._segs]

    @classmethod
    def _from_sorted_segments(cls, segments: pdarray, keys: Any, n: int) -> GroupBy:  # noqa: ANN401 (an array)
        """The GroupBy of ``n`` rows already in group order.

        Group ``g`` starts at ``segments[g]`` (distinct, increasing); ``keys`` gives each
        row's key.
        """
        g = cls.__new__(cls)
        g.registered_name = None
        g.assume_sorted = True
        g.keys, g.nkeys, g.dropna = keys, 1, True
        g._nrows = g.length = n
        g._seq, g._dense, g._ks, g._kept, g._counts = False, None, [keys], None, None
        g._identity = True
        flags = zeros(n, bool_)
        if segments.size:
            flags[segments] = True
        g._flags_ = flags
        g._perm = arange(n)
        g._segs = segments
        g._uk = keys[segments] if segments.size else zeros(0, keys.dtype)
        return g

    def _init_parts(self, keys: Any, permutation: pdarray, segments: pdarray, dropna: bool) -> None:  # noqa: ANN401 (keys of any kind)
        """A GroupBy rebuilt from its parts (a file, ``register``).

        The keys as given, the permutation that groups them and the group starts.
        """
        self.keys = keys
        self._seq = isinstance(keys, (list, tuple))
        self.nkeys = len(keys) if self._seq else 1
        self.dropna = dropna
        n = permutation.size
        self._nrows = self.length = n
        self._dense, self._kept, self._counts = None, None, None
        self._ks = None  # type: ignore[assignment]  # rebuilt from parts: no rank keys
        self._perm, self._segs = permutation, segments
        flags = zeros(n, bool_)
        if segments.size:
            flags[segments] = True
        self._flags_ = flags
        uki = permutation[segments] if segments.size else segments
        self._uk = tuple(k[uki] for k in keys) if self._seq else keys[uki]

    def _dense_groups(self, values: Any = None, op: str = "sum") -> tuple[bool, Any]:  # noqa: ANN401 (a pdarray)
        """The dense path: distinct keys and rows (and ``op`` of ``values``) in one pass.

        ``(True, aggregated or None)``, or ``(False, None)`` when the keys span more than the
        limit (the sort path's keys are then computed).
        """
        if self._dense is not None:
            # The rows per group only when the aggregation needs them: a float64 sum folds one
            # float per key and nothing else (``size`` then makes its own pass).
            r = _atoll.dense_aggregate(
                dense_key(self._ks[0]), self._nrows, self._dense, None if values is None else values._ex(), op, False
            )
            if r is not None:
                uk, c, v = r
                if c is not None and self._counts is None:
                    self._counts = pdarray(c)
                if self._uk is None:
                    self._uk = self._dense_keys(uk)
                return True, None if v is None else pdarray(v)
            self._dense = None
        if self._uk is None:
            self._sorted_keys()
        return False, None

    @property
    def unique_keys(self) -> Any:  # noqa: ANN401 (an array, or a tuple of them)
        """The distinct keys (a tuple of arrays for several key arrays), in order."""
        if self._uk is None:
            self._dense_groups()
        if self._time_kinds is not None:
            seq = isinstance(self._uk, tuple)
            uk = [
                c._from_ns(k) if c is not None else k for c, k in zip(self._time_kinds, self._uk if seq else [self._uk])
            ]
            return tuple(uk) if seq else uk[0]
        return self._uk

    @property
    def ngroups(self) -> int:
        """The number of groups."""
        n: int = self.unique_keys[0].size if self._seq else self.unique_keys.size
        return n

    @property
    def permutation(self) -> Any:  # noqa: ANN401 (a pdarray)
        """The indices of the rows, grouped (stably sorted by key)."""
        self._group()
        return self._perm

    @property
    def segments(self) -> Any:  # noqa: ANN401 (a pdarray)
        """The start of each group in the grouped rows."""
        self._group()
        return self._segs

    @property
    def _flags(self) -> Any:  # noqa: ANN401 (a pdarray)
        self._group()
        return self._flags_

    def size(self) -> tuple[Any, Any]:
        """The number of rows of each group.

        Returns
        -------
        tuple
            ``(unique_keys, counts)``: int64 counts.

        Examples
        --------
        >>> import atoll as ak
        >>> keys, n = ak.GroupBy(ak.array([2, 1, 2])).size()
        >>> keys.tolist(), n.tolist()
        ([1, 2], [1, 2])
        """
        if self._dense is not None and self._counts is None:
            self._dense_groups()
        if self._dense is not None:
            return self.unique_keys, self._counts
        return self.unique_keys, (self._ends() - self.segments)._materialize()

    def _sorted(self, values: Any) -> Any:  # noqa: ANN401 (pdarrays)
        if values.size != self._nrows:
            raise ValueError(f"values: size {values.size} does not match the keys' {self._nrows}")
        if self._identity and self.length == self._nrows:
            return values
        return values[self.permutation]

    def _agg_sorted(self, sv: Any, op: str) -> Any:  # noqa: ANN401 (pdarrays)
        """``op`` per group of values already in grouped order (int64/uint64/float64)."""
        if self.ngroups == 0:
            return zeros(0, sv.dtype)
        return pdarray(_atoll.aggregate(sv._ex(), self._flags._whole(), self.length, self.ngroups, op, 0))

    @property
    def _uki(self) -> Any:  # noqa: ANN401 (a pdarray)
        """The index of each group's first row (in the keys as given).

        Computed once: the same array each time, so that a registered GroupBy's component
        keeps its name.
        """
        cached = self.__dict__.get("_uki_value")
        if cached is None:
            self._group()
            cached = self.permutation[self.segments] if self.segments.size else self.segments
            self.__dict__["_uki_value"] = cached
        return cached

    def _check_values(self, values: Any, allowed: Any = None, op: str = "") -> Any:  # noqa: ANN401 (arrays; dtype names)
        values = _unwrap_values(values)
        _check(values, "values")
        if values.size != self._nrows:
            raise ValueError("Attempt to group array using key array of different length")
        if allowed is not None and values.dtype.name not in allowed:
            raise TypeError(f"{op}: unsupported values dtype {values.dtype.name} (expected {', '.join(allowed)})")
        return values

    # ----- aggregations ------------------------------------------------------------------
    def _agg(self, values: Any, op: str, ddof: int = 0, skipna: bool = True) -> Any:  # noqa: ANN401 (pdarrays)
        vals = _widened(values)
        out_dt: Any = {
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
            return _narrowed(zeros(0, out_dt), values, op)
        sv = self._sorted(vals)
        r = pdarray(_atoll.aggregate(sv._ex(), self._flags._arr, self.length, self.ngroups, op, ddof))
        if op in ("argmin", "argmax"):
            r = self.permutation[r]
        if not skipna and vals.dtype == float64 and op in ("sum", "prod", "min", "max", "mean", "var", "std"):
            nan = pdarray(
                _atoll.aggregate(isnan(sv).astype(int64)._ex(), self._flags._arr, self.length, self.ngroups, "any", 0)
            )
            r = where(nan, np.nan, r)._materialize()
        return _narrowed(r, values, op)

    @tracked(lambda self, values, operator, *a, **k: f"GroupBy.{str(operator).lower()}", rows=1)
    def aggregate(self, values: Any, operator: Any, skipna: bool = True, ddof: int = 1) -> tuple[Any, Any]:  # noqa: ANN401 (arrays; a name or GroupByReductionType)
        """``operator`` of ``values`` per group.

        Parameters
        ----------
        values : pdarray, Strings, Categorical, BigIntArray or list of them
            One value per row of the keys.
        operator : str or GroupByReductionType
            One of ``Reductions``.
        skipna : bool, default True
            Leave NaN values out.
        ddof : int, default 1
            The delta degrees of freedom of ``var`` and ``std``.

        Returns
        -------
        tuple
            ``(unique_keys, one value per group)``.

        Raises
        ------
        ValueError
            ``operator`` is no reduction, or the values have not one value per row.

        Examples
        --------
        >>> import atoll as ak
        >>> keys, s = ak.GroupBy(ak.array([1, 0, 1])).aggregate(ak.array([1, 2, 3]), "sum")
        >>> keys.tolist(), s.tolist()
        ([0, 1], [2, 4])
        """
        op = str(operator).lower()
        if op not in self.Reductions:
            raise ValueError(f"Unsupported reduction: {operator}\nMust be one of {sorted(self.Reductions)}")
        values = _unwrap_values(values)
        if is_bigint(values) and op in BIGINT_OPS:
            return self.unique_keys, bigint_aggregate(self, values, op, ddof)
        if op in ("nunique", "first", "mode", "unique"):
            return cast("tuple[Any, Any]", getattr(self, op)(values))
        if op in ("or", "and", "xor"):
            return cast("tuple[Any, Any]", getattr(self, op.upper())(values))
        if op == "median":
            return self.median(values, skipna)
        if op in ("any", "all"):
            return cast("tuple[Any, Any]", getattr(self, op)(values))
        return self.unique_keys, self._dispatch(values, op, skipna, ddof)

    # The aggregations of the dense path (atoll_ops::dense_aggregate), NaNs skipped.
    _DENSE_OPS = frozenset(["sum", "count", "mean", "min", "max"])

    def _try_dense(self, values: Any, op: str, skipna: bool = True) -> Any:  # noqa: ANN401 (pdarrays)
        """``op`` of ``values`` per group on the dense path, or None when it does not apply."""
        if (
            self._dense is None
            or op not in self._DENSE_OPS
            or not isinstance(values, pdarray)
            or values.size != self._nrows
            or (not skipna and values.dtype == float64 and op != "count")
        ):
            return None
        ok, r = self._dense_groups(_widened(values), op)
        return _narrowed(r, values, op) if ok and r is not None else None

    def _dispatch(self, values: Any, op: str, skipna: bool, ddof: int) -> Any:  # noqa: ANN401 (pdarrays)
        values = self._check_values(values)
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

    @tracked("GroupBy.sum", rows=1)
    def sum(self, values: Any, skipna: bool = True) -> tuple[Any, Any]:  # noqa: ANN401 (a pdarray or bigint array)
        """Sum per group (int64 for bool).

        Parameters
        ----------
        values : pdarray or BigIntArray
            One value per row of the keys.
        skipna : bool, default True
            Leave NaN values out (else a group with a NaN gives NaN).

        Returns
        -------
        tuple
            ``(unique_keys, one value per group)``.

        Examples
        --------
        >>> import atoll as ak
        >>> g = ak.GroupBy(ak.array([1, 0, 1]))
        >>> g.sum(ak.array([1, 2, 3]))[1].tolist()
        [2, 4]
        """
        if is_bigint(values):
            return self.aggregate(values, "sum")
        values = self._check_values(values)
        r = self._try_dense(values, "sum", skipna)
        if r is not None:
            return self.unique_keys, r
        return self.unique_keys, self._agg(values, "sum", skipna=skipna)

    def prod(self, values: Any, skipna: bool = True) -> tuple[Any, Any]:  # noqa: ANN401 (a pdarray or bigint array)
        """Product per group (float64, as Arkouda).

        Parameters
        ----------
        values : pdarray or BigIntArray
            One value per row of the keys.
        skipna : bool, default True
            Leave NaN values out (else a group with a NaN gives NaN).

        Returns
        -------
        tuple
            ``(unique_keys, one value per group)``.

        Examples
        --------
        >>> import atoll as ak
        >>> g = ak.GroupBy(ak.array([1, 0, 1]))
        >>> g.prod(ak.array([1, 2, 3]))[1].tolist()
        [2.0, 3.0]
        """
        return self.aggregate(values, "prod", skipna)

    def min(self, values: Any, skipna: bool = True) -> tuple[Any, Any]:  # noqa: ANN401 (a pdarray or bigint array)
        """Smallest value per group.

        Parameters
        ----------
        values : pdarray or BigIntArray
            One value per row of the keys.
        skipna : bool, default True
            Leave NaN values out (else a group with a NaN gives NaN).

        Returns
        -------
        tuple
            ``(unique_keys, one value per group)``.

        Examples
        --------
        >>> import atoll as ak
        >>> g = ak.GroupBy(ak.array([1, 0, 1]))
        >>> g.min(ak.array([1, 2, 3]))[1].tolist()
        [2, 1]
        """
        return self.aggregate(values, "min", skipna)

    def max(self, values: Any, skipna: bool = True) -> tuple[Any, Any]:  # noqa: ANN401 (a pdarray or bigint array)
        """Largest value per group.

        Parameters
        ----------
        values : pdarray or BigIntArray
            One value per row of the keys.
        skipna : bool, default True
            Leave NaN values out (else a group with a NaN gives NaN).

        Returns
        -------
        tuple
            ``(unique_keys, one value per group)``.

        Examples
        --------
        >>> import atoll as ak
        >>> g = ak.GroupBy(ak.array([1, 0, 1]))
        >>> g.max(ak.array([1, 2, 3]))[1].tolist()
        [2, 3]
        """
        return self.aggregate(values, "max", skipna)

    def mean(self, values: Any, skipna: bool = True) -> tuple[Any, Any]:  # noqa: ANN401 (a pdarray or bigint array)
        """Mean per group (float64).

        Parameters
        ----------
        values : pdarray or BigIntArray
            One value per row of the keys.
        skipna : bool, default True
            Leave NaN values out (else a group with a NaN gives NaN).

        Returns
        -------
        tuple
            ``(unique_keys, one value per group)``.

        Examples
        --------
        >>> import atoll as ak
        >>> g = ak.GroupBy(ak.array([1, 0, 1]))
        >>> g.mean(ak.array([1, 2, 3]))[1].tolist()
        [2.0, 2.0]
        """
        return self.aggregate(values, "mean", skipna)

    def var(self, values: Any, skipna: bool = True, ddof: int = 1) -> tuple[Any, Any]:  # noqa: ANN401 (a pdarray or bigint array)
        """Variance per group (float64, ``ddof=1`` by default).

        Parameters
        ----------
        values : pdarray or BigIntArray
            One value per row of the keys.
        skipna : bool, default True
            Leave NaN values out (else a group with a NaN gives NaN).
        ddof : int, default 1
            The delta degrees of freedom.

        Returns
        -------
        tuple
            ``(unique_keys, float64 value per group)``.

        Examples
        --------
        >>> import atoll as ak
        >>> g = ak.GroupBy(ak.array([1, 0, 1]))
        >>> g.var(ak.array([1, 2, 3]))[1].tolist()
        [nan, 2.0]
        """
        return self.aggregate(values, "var", skipna, ddof)

    def std(self, values: Any, skipna: bool = True, ddof: int = 1) -> tuple[Any, Any]:  # noqa: ANN401 (a pdarray or bigint array)
        """Standard deviation per group (float64, ``ddof=1`` by default).

        Parameters
        ----------
        values : pdarray or BigIntArray
            One value per row of the keys.
        skipna : bool, default True
            Leave NaN values out (else a group with a NaN gives NaN).
        ddof : int, default 1
            The delta degrees of freedom.

        Returns
        -------
        tuple
            ``(unique_keys, float64 value per group)``.

        Examples
        --------
        >>> import atoll as ak
        >>> g = ak.GroupBy(ak.array([1, 0, 1]))
        >>> g.std(ak.array([1, 2, 3]))[1].tolist()
        [nan, 1.4142135623730951]
        """
        return self.aggregate(values, "std", skipna, ddof)

    def count(self, values: Any) -> tuple[Any, Any]:  # noqa: ANN401 (a pdarray or bigint array)
        """Number of non-NaN values per group.

        Parameters
        ----------
        values : pdarray
            One value per row of the keys.

        Returns
        -------
        tuple
            ``(unique_keys, one value per group)``.

        Examples
        --------
        >>> import atoll as ak
        >>> import numpy as np
        >>> g = ak.GroupBy(ak.array([1, 0, 1]))
        >>> g.count(ak.array([1.0, np.nan, 3.0]))[1].tolist()
        [0, 2]
        """
        return self.aggregate(values, "count")

    def _dense_row_groups(self) -> Any:  # noqa: ANN401 (a pdarray or None)
        """On the dense path (no sort made yet): the group number of each row.

        From a table over the key range (a scatter, a prefix sum and a gather; the groups are
        the distinct keys in ascending order, as the dense path gives them). None off that
        path.
        """
        if self._dense is None or self._perm is not None or self._kept is not None:
            return None
        k = self._ks[0].astype(int64)
        lo, hi = builtins.int(k.min()), builtins.int(k.max())
        if hi - lo >= self._dense:
            return None
        off = (k - lo)._materialize()
        seen = zeros(hi - lo + 1, int64)
        seen[off] = 1
        return (cumsum(seen) - 1)._materialize()[off]

    def corr(self, x: Any, y: Any) -> tuple[Any, Any]:  # noqa: ANN401 (pdarrays)
        """The Pearson correlation of ``x`` and ``y`` in each group (float64).

        Over the rows where neither is NaN, as pandas' ``Series.corr`` of the group's rows: NaN
        for fewer than two such rows or a constant column. Vectorized: per-group sums of the
        rows, their means given back to the rows, then the sums of the centred products (two
        passes, as pandas, for the accuracy of the centred sums).

        Parameters
        ----------
        x : pdarray
            Numeric, one value per row of the keys.
        y : pdarray
            Numeric, one value per row of the keys.

        Returns
        -------
        tuple
            ``(unique_keys, r)``.

        Raises
        ------
        TypeError
            Values that are not numeric.
        ValueError
            Values with not one value per row.

        Examples
        --------
        >>> import atoll as ak
        >>> g = ak.GroupBy(ak.array([0, 0, 0, 1]))
        >>> g.corr(ak.array([1, 2, 3, 4]), ak.array([2, 4, 6, 1]))[1].tolist()
        [1.0, nan]
        """
        allowed = ("int64", "uint64", "uint8", "float64", "bool")
        x = self._check_values(x, allowed, "corr").astype(float64)
        y = self._check_values(y, allowed, "corr").astype(float64)
        if self.ngroups == 0:
            return self.unique_keys, zeros(0, float64)
        ok = (~(isnan(x) | isnan(y)))._materialize()
        _, n = self.sum(ok.astype(int64)._materialize())
        _, sx = self.sum(where(ok, x, 0.0)._materialize())
        _, sy = self.sum(where(ok, y, 0.0)._materialize())
        nf = n.astype(float64)
        gid = self._dense_row_groups()
        if gid is not None:
            mx, my = (sx / nf)._materialize()[gid], (sy / nf)._materialize()[gid]
        else:
            mx = self.broadcast((sx / nf)._materialize(), permute=True)
            my = self.broadcast((sy / nf)._materialize(), permute=True)
        dx = where(ok, x - mx, 0.0)._materialize()
        dy = where(ok, y - my, 0.0)._materialize()
        _, sxy = self.sum((dx * dy)._materialize())
        _, sxx = self.sum((dx * dx)._materialize())
        _, syy = self.sum((dy * dy)._materialize())
        den = (sxx * syy)._materialize()
        good = ((n >= 2) & (den > 0))._materialize()
        r = where(good, sxy / where(good, den, 1.0) ** 0.5, np.nan)
        r = where(r > 1.0, 1.0, where(r < -1.0, -1.0, r))._materialize()
        return self.unique_keys, r

    def argmin(self, values: Any) -> tuple[Any, Any]:  # noqa: ANN401 (a pdarray or bigint array)
        """Index (of ``values``) of the first smallest value per group.

        Parameters
        ----------
        values : pdarray or BigIntArray
            One value per row of the keys.

        Returns
        -------
        tuple
            ``(unique_keys, one value per group)``.

        Examples
        --------
        >>> import atoll as ak
        >>> g = ak.GroupBy(ak.array([1, 0, 1]))
        >>> g.argmin(ak.array([3, 2, 1]))[1].tolist()
        [1, 2]
        """
        return self.aggregate(values, "argmin")

    def argmax(self, values: Any) -> tuple[Any, Any]:  # noqa: ANN401 (a pdarray or bigint array)
        """Index (of ``values``) of the first largest value per group.

        Parameters
        ----------
        values : pdarray or BigIntArray
            One value per row of the keys.

        Returns
        -------
        tuple
            ``(unique_keys, one value per group)``.

        Examples
        --------
        >>> import atoll as ak
        >>> g = ak.GroupBy(ak.array([1, 0, 1]))
        >>> g.argmax(ak.array([3, 2, 1]))[1].tolist()
        [1, 0]
        """
        return self.aggregate(values, "argmax")

    def any(self, values: Any) -> tuple[Any, Any]:  # noqa: ANN401 (a pdarray or bigint array)
        """Whether some value of the group is nonzero.

        NaN skipped as pandas skips it (Arkouda takes bool values only).

        Parameters
        ----------
        values : pdarray or BigIntArray
            One value per row of the keys.

        Returns
        -------
        tuple
            ``(unique_keys, bool per group)``.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.GroupBy(ak.array([1, 0, 1])).any(ak.array([0, 0, 5]))[1].tolist()
        [False, True]
        """
        if is_bigint(values):
            return self.aggregate(values, "any")
        values = self._check_values(values)
        if values.dtype == float64:
            values = where(isnan(values), 0.0, values)._materialize()
        return self.unique_keys, self._agg(values, "any")

    def all(self, values: Any) -> tuple[Any, Any]:  # noqa: ANN401 (a pdarray or bigint array)
        """Whether every value of the group is nonzero (Arkouda takes bool values only).

        Parameters
        ----------
        values : pdarray or BigIntArray
            One value per row of the keys.

        Returns
        -------
        tuple
            ``(unique_keys, bool per group)``.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.GroupBy(ak.array([1, 0, 1])).all(ak.array([1, 0, 5]))[1].tolist()
        [False, True]
        """
        if is_bigint(values):
            return self.aggregate(values, "all")
        values = self._check_values(values)
        return self.unique_keys, self._agg(values, "all")

    def _bitwise(self, values: Any, op: str) -> tuple[Any, Any]:  # noqa: ANN401 (a pdarray or bigint array)
        """Bitwise ``op`` per group.

        Of int64, uint64, uint8 (in its own dtype), bool (as logical or/and/xor) and bigint
        values.
        """
        if is_bigint(values):
            return self.aggregate(values, op)
        values = self._check_values(values, ("int64", "uint64", "uint8", "bool"), op)
        if self.ngroups == 0:
            return self.unique_keys, zeros(0, values.dtype)
        r = segmented_bitwise(self._sorted(_widened(values)), self._flags, self.ngroups, op)
        if values.dtype == bool_:
            return self.unique_keys, (r != 0)._materialize()
        if values.dtype == uint8:
            return self.unique_keys, r.astype(uint8)._materialize()
        return self.unique_keys, r

    def OR(self, values: Any) -> tuple[Any, Any]:  # noqa: ANN401 (a pdarray or bigint array)
        """Bitwise or of the values of each group.

        Parameters
        ----------
        values : pdarray or BigIntArray
            One value per row of the keys.

        Returns
        -------
        tuple
            ``(unique_keys, one value per group)``.

        Examples
        --------
        >>> import atoll as ak
        >>> g = ak.GroupBy(ak.array([1, 0, 1]))
        >>> g.OR(ak.array([1, 2, 4]))[1].tolist()
        [2, 5]
        """
        return self._bitwise(values, "or")

    def AND(self, values: Any) -> tuple[Any, Any]:  # noqa: ANN401 (a pdarray or bigint array)
        """Bitwise and of the values of each group.

        Parameters
        ----------
        values : pdarray or BigIntArray
            One value per row of the keys.

        Returns
        -------
        tuple
            ``(unique_keys, one value per group)``.

        Examples
        --------
        >>> import atoll as ak
        >>> g = ak.GroupBy(ak.array([1, 0, 1]))
        >>> g.AND(ak.array([3, 2, 1]))[1].tolist()
        [2, 1]
        """
        return self._bitwise(values, "and")

    def XOR(self, values: Any) -> tuple[Any, Any]:  # noqa: ANN401 (a pdarray or bigint array)
        """Bitwise exclusive or of the values of each group.

        Parameters
        ----------
        values : pdarray or BigIntArray
            One value per row of the keys.

        Returns
        -------
        tuple
            ``(unique_keys, one value per group)``.

        Examples
        --------
        >>> import atoll as ak
        >>> g = ak.GroupBy(ak.array([1, 0, 1]))
        >>> g.XOR(ak.array([3, 2, 1]))[1].tolist()
        [2, 2]
        """
        return self._bitwise(values, "xor")

    def first(self, values: Any) -> tuple[Any, Any]:  # noqa: ANN401 (arrays of any kind, or a list)
        """The first value (in index order) of each group.

        Parameters
        ----------
        values : pdarray, Strings, Categorical, BigIntArray or list of them
            One value per row of the keys.

        Returns
        -------
        tuple
            ``(unique_keys, one value per group)`` (a list of arrays for a list).

        Examples
        --------
        >>> import atoll as ak
        >>> ak.GroupBy(ak.array([1, 0, 1])).first(ak.array(["a", "b", "c"]))[1].tolist()
        ['b', 'a']
        """
        vals, seq = _values_list(_unwrap_values(values))
        out = [self._first1(v) for v in vals]
        return self.unique_keys, (out if seq else out[0])

    def _first1(self, values: Any) -> Any:  # noqa: ANN401 (arrays of any kind)
        if is_bigint(values):
            return bigint_aggregate(self, values, "first")
        if isinstance(values, pdarray):
            values = self._check_values(values)
            if values.dtype == bool_:
                return self._agg(values, "first") != 0
            return self._agg(values, "first")
        if values.size != self._nrows:
            raise ValueError("Attempt to group array using key array of different length")
        return values[self._uki]

    def _group_ids(self) -> Any:  # noqa: ANN401 (a pdarray)
        """The group number of each row (of the keys as given; -1 for dropped rows)."""
        return self.broadcast(arange(self.ngroups), permute=True)

    def _pairs(self, values: Any) -> GroupBy:  # noqa: ANN401 (arrays, or a list of them)
        """A GroupBy of (group number, value...) over the kept rows (NaN values dropped)."""
        vals, _ = _values_list(values)
        for v in vals:
            if v.size != self._nrows:
                raise ValueError("Attempt to group array using key array of different length")
        gid = self._group_ids()
        if self.length != self._nrows:
            keep = gid >= 0
            gid, vals = gid[keep], [v[keep] for v in vals]
        return GroupBy([gid] + vals, dropna=True)

    def mode(self, values: Any) -> tuple[Any, Any]:  # noqa: ANN401 (arrays of any kind, or a list)
        """The most frequent value per group.

        Among ties, the one that occurs first, as Arkouda; a list of arrays gives the most
        frequent row. NaN values are left out (a group of NaNs only gives NaN, or 0 for
        integers).

        Parameters
        ----------
        values : pdarray, Strings, Categorical or list of them
            One value per row of the keys.

        Returns
        -------
        tuple
            ``(unique_keys, one value per group)`` (a list of arrays for a list).

        Examples
        --------
        >>> import atoll as ak
        >>> ak.GroupBy(ak.array([0, 0, 0, 1])).mode(ak.array([5, 7, 7, 9]))[1].tolist()
        [7, 9]
        """
        values = _unwrap_values(values)
        vals, seq = _values_list(values)
        if self.ngroups == 0:
            out = [v[zeros(0, int64)] for v in vals]
            return self.unique_keys, (out if seq else out[0])
        g2 = self._pairs(values)
        uk = g2.unique_keys
        gids, uvals = uk[0], list(uk[1:])
        _, counts = g2.size()
        # The first row (in the keys' order) of each (group, value) pair.
        _, first_row = g2.min(self._pair_rows())
        g3 = GroupBy(gids, assume_sorted=True)
        _, most = g3.max(counts)
        tie_ok = counts == g3.broadcast(most, permute=False)
        big = np.iinfo(np.int64).max
        _, best = g3.argmin(where(tie_ok, first_row, big)._materialize())
        res = []
        for v, u in zip(vals, uvals):
            if isinstance(v, pdarray):
                o = full(self.ngroups, np.nan if v.dtype == float64 else 0, v.dtype)
                o[g3.unique_keys] = u[best]
                res.append(o)
            else:
                # Every group has a value (no NaN among non-numeric values).
                res.append(u[best])
        return self.unique_keys, (res if seq else res[0])

    def _pair_rows(self) -> Any:  # noqa: ANN401 (a pdarray)
        """The row numbers of the rows ``_pairs`` groups (the kept rows, in order)."""
        rows = arange(self._nrows)
        if self.length != self._nrows:
            rows = rows[self._group_ids() >= 0]
        return rows

    def head(self, values: Any, n: int = 5, return_indices: bool = True) -> tuple[Any, Any]:  # noqa: ANN401 (arrays of any kind, or a list)
        """The first ``n`` rows of each group (in row order).

        Parameters
        ----------
        values : pdarray, Strings, Categorical or list of them
            One value per row of the keys (used when ``return_indices`` is False).
        n : int, default 5
            The rows per group.
        return_indices : bool, default True
            Give the rows' indices, else the values at them.

        Returns
        -------
        tuple
            ``(unique_keys, indices or values)``.

        Raises
        ------
        ValueError
            ``n`` is negative.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.GroupBy(ak.array([1, 0, 1, 1])).head(ak.arange(4), n=2)[1].tolist()
        [1, 0, 2]
        """
        idx = self._take_ranges(n, False)
        if return_indices:
            return self.unique_keys, idx
        vals, seq = _values_list(_unwrap_values(values))
        out = [v[idx] for v in vals]
        return self.unique_keys, (out if seq else out[0])

    def tail(self, values: Any, n: int = 5, return_indices: bool = True) -> tuple[Any, Any]:  # noqa: ANN401 (arrays of any kind, or a list)
        """The last ``n`` rows of each group (in row order).

        Parameters
        ----------
        values : pdarray, Strings, Categorical or list of them
            One value per row of the keys (used when ``return_indices`` is False).
        n : int, default 5
            The rows per group.
        return_indices : bool, default True
            Give the rows' indices, else the values at them.

        Returns
        -------
        tuple
            ``(unique_keys, indices or values)``.

        Raises
        ------
        ValueError
            ``n`` is negative.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.GroupBy(ak.array([1, 0, 1, 1])).tail(ak.arange(4), n=1, return_indices=False)[1].tolist()
        [1, 3]
        """
        idx = self._take_ranges(n, True)
        if return_indices:
            return self.unique_keys, idx
        vals, seq = _values_list(_unwrap_values(values))
        out = [v[idx] for v in vals]
        return self.unique_keys, (out if seq else out[0])

    def _seg_cumsum(self, z: Any) -> Any:  # noqa: ANN401 (pdarrays)
        """The inclusive prefix sums of ``z`` (in grouped order) within each group."""
        cs = cumsum(z)._materialize()
        start = (cs[self.segments] - z[self.segments])._materialize()
        return cs - self.broadcast(start, permute=False)

    def cumsum(self, values: pdarray, skipna: bool = True) -> Any:  # noqa: ANN401 (a pdarray)
        """Cumulative sum within each group, in row order (pandas' ``groupby().cumsum()``).

        One value per row of the keys as given; a NaN value gives NaN and adds nothing (with
        ``skipna=False`` it makes the rest of its group NaN); rows of a dropped NaN key give
        NaN (0 for integers). int64 for bool values. One scan over the grouped rows, less each
        group's start: integer sums are exact (wrapping), float sums carry the rounding of
        the running total over earlier groups (relative to it, not to the group's sum).

        Parameters
        ----------
        values : pdarray
            One value per row of the keys.
        skipna : bool, default True
            A NaN adds nothing (else the rest of its group is NaN).

        Returns
        -------
        pdarray
            One value per row.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.GroupBy(ak.array([1, 0, 1])).cumsum(ak.array([1, 2, 3])).tolist()
        [1, 2, 4]
        """
        _check(values, "values")
        sv = self._sorted(_widened(values))
        is_f = sv.dtype == float64
        if self.length == 0:
            return full(self._nrows, np.nan, float64) if is_f else zeros(self._nrows, sv.dtype)
        nan: Any = isnan(sv)._materialize() if is_f else None
        res = self._seg_cumsum(where(nan, 0.0, sv)._materialize() if is_f else sv)
        if is_f:
            res = where(nan if skipna else self._seg_cumsum(nan.astype(int64)) > 0, np.nan, res)
        res = res._materialize()
        out = full(self._nrows, np.nan, float64) if is_f else zeros(self._nrows, sv.dtype)
        out[self.permutation] = res
        return out

    def broadcast(self, values: Any, permute: bool = True) -> Any:  # noqa: ANN401 (arrays of any kind)
        """One value per group (``values``, in group order) given to every row of the group.

        Parameters
        ----------
        values : pdarray, Strings or Categorical
            One value per group.
        permute : bool, default True
            In the keys' row order (dropped NaN rows get the dtype's zero, -1 for int64), else
            in grouped order.

        Returns
        -------
        pdarray, Strings or Categorical
            One value per row.

        Raises
        ------
        TypeError
            ``values`` is of another kind.
        ValueError
            ``values`` has not one value per group.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.GroupBy(ak.array([1, 0, 1])).broadcast(ak.array([10, 20])).tolist()
        [20, 10, 20]
        """
        if not _arraylike(values):
            raise TypeError(f"values: expected a pdarray, Strings or Categorical, got {type(values).__name__}")
        if values.size != self.ngroups:
            raise ValueError(f"values: size {values.size} does not match the number of groups {self.ngroups}")
        if not isinstance(values, pdarray):
            # Strings, Categorical: gather the group of each row.
            gid = self._group_ids() if permute else (cumsum(self._flags.astype(int64)) - 1)._materialize()
            if permute and self.length != self._nrows:
                raise ValueError("broadcast of non-numeric values needs every row grouped (dropna dropped some)")
            return values[gid]
        if self.length == 0:
            return zeros(self._nrows if permute else 0, values.dtype)
        seg = (cumsum(self._flags.astype(int64)) - 1)._materialize()
        sv = values[seg]
        if not permute:
            return sv
        if self._identity and self.length == self._nrows:
            return sv
        fill = -1 if values.dtype == int64 else 0
        out = full(self._nrows, fill, values.dtype) if self.length != self._nrows else zeros(self._nrows, values.dtype)
        out[self.permutation] = sv
        return out


def broadcast(segments: pdarray, values: Any, size: int | None = -1, permutation: pdarray | None = None) -> Any:  # noqa: ANN401 (arrays of any kind)
    """Arkouda's ``ak.broadcast``: ``values[g]`` to every position of segment ``g``.

    Parameters
    ----------
    segments : pdarray
        The segments' starts, sorted (an empty segment repeats the next start).
    values : pdarray, Strings or Categorical
        One value per segment.
    size : int, default -1
        The positions in all (a negative size: ``permutation``'s size).
    permutation : pdarray, optional
        Moves the result: position ``i`` of it is at ``permutation[i]``.

    Returns
    -------
    pdarray, Strings or Categorical
        One value per position.

    Raises
    ------
    TypeError
        ``values`` is of another kind.
    ValueError
        ``segments`` and ``values`` differ in size, or neither ``size`` nor ``permutation``.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.broadcast(ak.array([0, 2]), ak.array([5, 7]), size=4).tolist()
    [5, 5, 7, 7]
    """
    _check(segments, "segments")
    if not _arraylike(values):
        raise TypeError(f"values: expected a pdarray, Strings or Categorical, got {type(values).__name__}")
    if segments.size != values.size:
        raise ValueError("segments and values must have the same size")
    n = size if size is not None and size >= 0 else (permutation.size if permutation is not None else None)
    if n is None:
        raise ValueError("size or permutation is needed")
    n = builtins.int(n)
    if segments.size and n:
        nxt = concatenate([segments[1:], array(np.array([n], dtype=np.int64))])
        ne = (segments < nxt)._materialize()
        starts, vals = segments[ne], values[ne]
    else:
        starts, vals = segments, values
    mark = zeros(n, int64)
    if starts.size:
        mark[starts] = 1
    seg = (cumsum(mark) - 1)._materialize() if n else zeros(0, int64)
    sv = vals[seg]
    if permutation is None:
        return sv
    if isinstance(sv, pdarray):
        out = zeros(n, sv.dtype)
        out[permutation] = sv
        return out
    inv = zeros(n, int64)
    inv[permutation] = arange(n)
    return sv[inv]


__all__ = ["GroupBy", "GroupByReductionType", "GROUPBY_REDUCTION_TYPES", "broadcast"]
