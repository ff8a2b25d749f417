"""Arkouda's ``Index`` and ``MultiIndex`` (``arkouda.pandas.index``): the row labels of a Series or DataFrame.

The labels are held as a distributed array (pdarray, Strings or Categorical), or as a short
Python list (column names, ``allow_list=True``).

>>> import atoll as ak
>>> i = ak.Index(ak.array([3, 1, 2]), name="k")
>>> i.tolist()
[3, 1, 2]
>>> i.argsort().tolist()
[1, 2, 0]
>>> ak.MultiIndex([ak.array([1, 2]), ak.array(["a", "b"])]).tolist()
[(1, 'a'), (2, 'b')]
"""

from __future__ import annotations

import builtins
from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from .._optional import loaded, pd
from ..numpy import sorting as _sorting
from ..numpy.pdarrayclass import all as _all, pdarray
from ..numpy.pdarraycreation import FOREIGN_ARRAYS, _ints_dtype, array
from ..numpy.pdarraysetops import in1d, unique
from ..numpy.segarray import SegArray
from ..numpy.strings import Strings
from ._align import find
from ._concat import generic_concat
from ._registry import Registrable
from .categorical import Categorical
from .groupbyclass import GroupBy

__all__ = ["Index", "MultiIndex"]


def _label_kind(v: object) -> str:
    """The kind of one label of a list Index: str, bool, int, float, or its type's name."""
    if isinstance(v, (str, np.str_)):
        return "str"
    if isinstance(v, (builtins.bool, np.bool_)):
        return "bool"
    if isinstance(v, (builtins.int, np.integer)):
        return "int"
    if isinstance(v, (builtins.float, np.floating)):
        return "float"
    return type(v).__name__


def _is_int(x: object) -> bool:
    return isinstance(x, (builtins.int, np.integer)) and not isinstance(x, (builtins.bool, np.bool_))


def _to_array(values: Any) -> Any:  # noqa: ANN401 (array-likes in; an Atoll array out)
    """An Atoll array of a list, tuple, NumPy array or pandas object."""
    if isinstance(values, (pdarray, Strings, Categorical)):
        return values
    if loaded("pandas") and isinstance(values, pd.Categorical):
        return Categorical(values)
    if loaded("pandas") and isinstance(getattr(values, "dtype", None), pd.StringDtype) and len(values) == 0:
        return array(np.array([], dtype=str))  # no element tells the kind: the dtype does
    if loaded("pandas") and isinstance(values, (pd.Index, pd.Series)):
        if isinstance(values.dtype, pd.CategoricalDtype):
            return Categorical(values.values)
        values = values.to_numpy()
    if isinstance(values, np.ndarray) and values.dtype == object:
        values = values.tolist()
    if isinstance(values, (list, tuple)) and _ints_dtype(values) is not None:
        # Python ints as ak.array takes them: int64, uint64 or bigint, never through float64.
        return array(list(values))
    a = np.asarray(values)
    if a.dtype.kind in "OU":
        return array([builtins.str(x) for x in a.tolist()])
    return array(a)


def _list(x: Any) -> list[Any]:  # noqa: ANN401 (an Atoll array)
    """The values of an Atoll array as a Python list."""
    out: list[Any] = x.to_list() if isinstance(x, Strings) else x.tolist()
    return out


def _dtype_backend(obj: Any, dtype_backend: str | None) -> Any:  # noqa: ANN401 (a pandas Series or DataFrame)
    """``obj`` (a pandas Series or DataFrame) with the dtypes of ``dtype_backend``.

    pandas' nullable dtypes for ``dtype_backend="numpy_nullable"`` (``Int64``, ``Float64`` with
    NaN as ``<NA>``, ``boolean``, ``string``) or Arrow-backed ones for ``"pyarrow"``, as
    ``convert_dtypes`` gives; unchanged for None.
    """
    if dtype_backend is None:
        return obj
    if dtype_backend not in ("numpy_nullable", "pyarrow"):
        raise ValueError(
            f"dtype_backend {dtype_backend!r} is invalid, only 'numpy_nullable' and 'pyarrow' are allowed."
        )
    return obj.convert_dtypes(dtype_backend=dtype_backend)


def _convert_bytes(nbytes: int, unit: str) -> float:
    units = {"B": 1, "KB": 1024, "MB": 1024**2, "GB": 1024**3}
    if unit not in units:
        raise ValueError(f"unit: expected one of {sorted(units)}, got {unit!r}")
    return nbytes if unit == "B" else nbytes / units[unit]


def _is_nan(v: object) -> bool:
    return isinstance(v, (builtins.float, np.floating)) and v != v


def _list_argsort(values: list[Any], ascending: bool, na_position: str) -> list[int]:
    """The stable sorting permutation of a short Python list of labels (a list-backed Index).

    NaN at ``na_position``.
    """
    if na_position not in ("first", "last"):
        raise ValueError(f"invalid na_position: {na_position}")
    nan = [i for i, v in enumerate(values) if _is_nan(v)]
    rest = [i for i, v in enumerate(values) if not _is_nan(v)]
    # sorted() is stable with reverse=True too: equal labels keep their order.
    rest = sorted(rest, key=values.__getitem__, reverse=not ascending)
    return nan + rest if na_position == "first" else rest + nan


class Index(Registrable):
    """Row labels: a pdarray, Strings or Categorical (or, with ``allow_list``, a short list).

    Parameters
    ----------
    values : Index, pandas.Index, list, tuple, numpy.ndarray or Atoll array
        The labels.
    name : hashable, optional
        The Index's name (default ``values``' name for an Index).
    allow_list : bool, default False
        Keep a list or tuple as a Python list (labels all of one kind) in place of an array.
    max_list_size : int, default 1000
        The most labels a list Index holds.

    Raises
    ------
    TypeError
        ``values`` is of another kind, or a list's labels are of several kinds.
    ValueError
        A list longer than ``max_list_size``.

    Examples
    --------
    >>> import atoll as ak
    >>> i = ak.Index(ak.array([2, 0]), name="k")
    >>> i.tolist(), i.name
    ([2, 0], 'k')
    >>> ak.Index(["a", "b"], allow_list=True).values
    ['a', 'b']
    """

    objType = "Index"

    # A pdarray, Strings or Categorical (a list with ``allow_list``; a MultiIndex: its levels).
    values: Any
    name: Any

    if TYPE_CHECKING:
        # Set on the class by ``atoll.pandas._index_methods`` (mypy sees no attach).
        def __getitem__(self, key: Any) -> Any: ...  # noqa: ANN401 (a position, slice or mask; a label or an Index)

    def __init__(
        self,
        values: Any,  # noqa: ANN401 (array-likes of several kinds)
        name: Hashable | None = None,
        allow_list: bool = False,
        max_list_size: int = 1000,
    ) -> None:
        self.max_list_size = max_list_size
        self.registered_name = None
        if isinstance(values, Index) and not isinstance(values, MultiIndex):
            self.values = values.values
            self.name = name if name else values.name
        elif loaded("pandas") and isinstance(values, pd.Index):
            self.values = _to_array(values)
            self.name = name if name else values.name
        elif isinstance(values, (list, tuple)):
            if allow_list:
                if len(values) > max_list_size:
                    raise ValueError(
                        f"Cannot create Index because list size {len(values)} exceeds max_list_size {max_list_size}."
                    )
                kinds = {_label_kind(v) for v in values}
                if len(kinds) > 1:
                    raise TypeError(f"Values of Index must all be the same type. Found {', '.join(sorted(kinds))}.")
                self.values = list(values)
            else:
                self.values = _to_array(list(values))
            self.name = name
        elif isinstance(values, np.ndarray):
            self.values = _to_array(values)
            self.name = name
        elif _is_atoll_array(values) or (loaded("pandas") and isinstance(values, pd.Categorical)):
            self.values = _to_array(values)
            self.name = name
        else:
            raise TypeError(f"Unable to create Index from type {type(values)}")

    # ----- attributes --------------------------------------------------------------------
    @property
    def size(self) -> int:
        """The number of labels."""
        return len(self.values)

    @property
    def dtype(self) -> Any:  # noqa: ANN401 (a NumPy dtype, or None for an empty list)
        """The labels' dtype (None for an empty list Index)."""
        if isinstance(self.values, list):
            if not self.values:
                return None
            v = self.values[0]
            return np.dtype(str) if isinstance(v, str) else np.asarray(v).dtype
        return self.values.dtype

    @property
    def shape(self) -> tuple[int]:
        """``(size,)``."""
        return (self.size,)

    @property
    def nlevels(self) -> int:
        """The number of levels: 1."""
        return 1

    @property
    def ndim(self) -> int:
        """The number of dimensions: 1."""
        return 1

    @property
    def names(self) -> list[Any]:
        """The name, in a list."""
        return [self.name]

    @property
    def index(self) -> Any:  # noqa: ANN401 (the labels)
        """The labels (Arkouda's ``index``)."""
        return self.values

    @property
    def inferred_type(self) -> str:
        """The kind of labels, as pandas names it (``"integer"``, ``"string"``, ...)."""
        if isinstance(self.values, list):
            return "string" if builtins.all(isinstance(v, str) for v in self.values) else "mixed"
        if isinstance(self.values, Strings):
            return "string"
        if isinstance(self.values, Categorical):
            return "categorical"
        k = self.values.dtype.kind
        return {"i": "integer", "u": "integer", "f": "floating", "b": "boolean"}.get(k, "mixed")

    @property
    def is_unique(self) -> bool:
        """Whether no label repeats."""
        if isinstance(self.values, list):
            return len(set(self.values)) == len(self.values)
        return bool(unique(self.values).size == self.size)

    def __len__(self) -> int:
        return self.size

    def __repr__(self) -> str:
        return f"Index({self.values!r}, dtype='{self.dtype}')"

    __str__ = __repr__

    def _compare_arrays(self, other: Any) -> tuple[Any, Any]:  # noqa: ANN401 (an Index, array or list)
        if isinstance(other, Index):
            other = other.values
        if isinstance(self.values, list):
            return _to_array(self.values), other if not isinstance(other, list) else _to_array(other)
        if isinstance(other, list):
            other = _to_array(other)
        return self.values, other

    def __eq__(self, other: object) -> Any:  # noqa: ANN401 (elementwise: a bool pdarray)
        a, b = self._compare_arrays(other)
        return a == b

    def __ne__(self, other: object) -> Any:  # noqa: ANN401 (elementwise: a bool pdarray)
        a, b = self._compare_arrays(other)
        return a != b

    __hash__ = None  # type: ignore[assignment]  # compared elementwise, as NumPy's arrays

    def equals(self, other: Index) -> bool:
        """Whether ``other`` is an Index of the same values.

        Parameters
        ----------
        other : Index
            The other Index.

        Returns
        -------
        bool
            True for the same labels in the same order (of the same kind of array).

        Raises
        ------
        TypeError
            ``other`` is not an Index, as Arkouda.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.Index(ak.array([1, 2])).equals(ak.Index(ak.array([1, 2])))
        True
        """
        if not isinstance(other, Index):
            raise TypeError(f"other must be of type Index, got {type(other).__name__}")
        if isinstance(other, MultiIndex) != isinstance(self, MultiIndex):
            return False
        if other.size != self.size:
            return False
        if isinstance(self.values, list) or isinstance(other.values, list):
            return list(self.tolist()) == list(other.tolist())
        if type(self.values) is not type(other.values):
            return False

        return self.size == 0 or builtins.bool(_all(self.values == other.values))

    # ----- conversion --------------------------------------------------------------------
    def to_pandas(self) -> Any:  # noqa: ANN401 (a pandas.Index)
        """The equivalent ``pandas.Index``.

        Returns
        -------
        pandas.Index
            A ``CategoricalIndex`` for Categorical labels, of dtype ``str`` for Strings.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.Index(ak.array([1, 2]), name="n").to_pandas()
        Index([1, 2], dtype='int64', name='n')
        """
        if isinstance(self.values, list):
            return pd.Index(self.values, name=self.name)
        if isinstance(self.values, Categorical):
            return pd.CategoricalIndex(self.values.to_pandas(), name=self.name)
        if isinstance(self.values, Strings):
            return pd.Index(self.values.to_list(), dtype="str", name=self.name)
        return pd.Index(self.values.to_ndarray(), name=self.name)

    def to_ndarray(self) -> npt.NDArray[Any]:
        """The labels as a NumPy array.

        Returns
        -------
        numpy.ndarray
            One element per label.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.Index(ak.array([1, 2])).to_ndarray()
        array([1, 2])
        """
        if isinstance(self.values, list):
            return np.array(self.values)
        out: npt.NDArray[Any] = self.values.to_ndarray()
        return out

    def tolist(self) -> list[Any]:
        """The labels as a Python list.

        Returns
        -------
        list
            One element per label.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.Index(ak.array(["a", "b"])).tolist()
        ['a', 'b']
        """
        if isinstance(self.values, list):
            return list(self.values)
        return _list(self.values)

    to_list = tolist

    def to_dict(self, label: Hashable | None = None) -> dict[Hashable, Any]:
        """The labels in a dict, under ``label``.

        Parameters
        ----------
        label : hashable, optional
            The key (default the name, or ``"idx"``).

        Returns
        -------
        dict
            ``{label: labels}``.

        Examples
        --------
        >>> import atoll as ak
        >>> list(ak.Index(ak.array([1]), name="k").to_dict())
        ['k']
        """
        return {label if label is not None else (self.name or "idx"): self.values}

    def set_dtype(self, dtype: Any) -> Index:  # noqa: ANN401 (any dtype-like)
        """The Index cast to ``dtype`` (in place).

        Parameters
        ----------
        dtype : dtype-like
            The new dtype.

        Returns
        -------
        Index
            This Index.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.Index(ak.array([1, 2])).set_dtype(ak.float64).tolist()
        [1.0, 2.0]
        """
        self.values = self.values.astype(dtype)
        return self

    def memory_usage(self, unit: str = "B") -> float:
        """The bytes of the labels.

        Parameters
        ----------
        unit : str, default "B"
            ``"B"``, ``"KB"``, ``"MB"`` or ``"GB"``.

        Returns
        -------
        float
            The size in ``unit`` (an int for bytes; 0 for a list Index).

        Raises
        ------
        ValueError
            ``unit`` is none of those.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.Index(ak.arange(4)).memory_usage()
        32
        """
        if isinstance(self.values, list):
            n = 0
        else:
            n = self.values.nbytes
        return _convert_bytes(n, unit)

    # ----- order -------------------------------------------------------------------------
    def argsort(self, ascending: Any = True, na_position: str = "last") -> Any:  # noqa: ANN401 (a bool or bools; a permutation)
        """The permutation that sorts the labels stably in either direction.

        Equal labels keep their order, NaN at ``na_position``, as pandas'
        ``sort_values(kind="stable")``.

        Parameters
        ----------
        ascending : bool, default True
            The direction.
        na_position : str, default "last"
            ``"first"`` or ``"last"``.

        Returns
        -------
        pdarray or list of int
            int64 indices (a list for a list Index).

        Raises
        ------
        ValueError
            ``na_position`` is neither.

        Examples
        --------
        >>> import atoll as ak
        >>> import numpy as np
        >>> ak.Index(ak.array([2.0, np.nan, 1.0])).argsort().tolist()
        [2, 0, 1]
        """
        if isinstance(self.values, list):
            return _list_argsort(self.values, ascending, na_position)
        return _sorting.lexsort_perm([self.values], ascending, na_position)

    def sort_values(self, return_indexer: bool = False, ascending: Any = True, na_position: str = "last") -> Any:  # noqa: ANN401 (a bool or bools; an Index or a pair)
        """The labels sorted (stable, NaN at ``na_position``).

        Parameters
        ----------
        return_indexer : bool, default False
            Also give the sorting permutation.
        ascending : bool, default True
            The direction.
        na_position : str, default "last"
            ``"first"`` or ``"last"``.

        Returns
        -------
        Index or tuple of (Index, pdarray)
            The sorted Index, and with ``return_indexer`` the permutation.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.Index(ak.array([3, 1, 2])).sort_values(ascending=False).tolist()
        [3, 2, 1]
        """
        perm = self.argsort(ascending=ascending, na_position=na_position)
        out = self._reindex(perm)
        return (out, perm) if return_indexer else out

    def _reindex(self, perm: Any) -> Index:  # noqa: ANN401 (a pdarray or list of positions)
        if isinstance(self.values, list):
            p = perm if isinstance(perm, list) else perm.tolist()
            return Index([self.values[i] for i in p], name=self.name, allow_list=True)
        return Index(self.values[perm], name=self.name)

    # ----- set-like ----------------------------------------------------------------------
    def lookup(self, key: Any) -> pdarray:  # noqa: ANN401 (a scalar or an array)
        """Whether each label is among ``key``.

        Parameters
        ----------
        key : scalar or array-like
            The labels to look for.

        Returns
        -------
        pdarray
            bool, one per label.

        Raises
        ------
        TypeError
            ``key`` cannot be made an array.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.Index(ak.array([1, 2, 3])).lookup(ak.array([3, 1])).tolist()
        [True, False, True]
        """
        if not _is_atoll_array(key):
            try:
                key = array([key]) if np.isscalar(key) else _to_array(key)
            except Exception:
                raise TypeError("Lookup must be on an arkouda array") from None
        out: pdarray = in1d(self.values, key)
        return out

    def concat(self, other: Index) -> Index:
        """The labels of this Index, then ``other``'s.

        Two Indexes of lists give the array of both lists as NumPy makes it: labels of
        different kinds become str.

        Parameters
        ----------
        other : Index
            The labels to append, of the same kind.

        Returns
        -------
        Index
            Named as both when they have one name, else unnamed.

        Raises
        ------
        TypeError
            The labels are of different kinds of array.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.Index(ak.array([1])).concat(ak.Index(ak.array([5, 6]))).tolist()
        [1, 5, 6]
        """
        if isinstance(self.values, list) and isinstance(getattr(other, "values", None), list):
            name = self.name if self.name == getattr(other, "name", None) else None
            return Index(_to_array(np.asarray(self.values + other.values)), name=name)
        if type(self.values) is not type(other.values):
            raise TypeError("Index Types must match")
        name = self.name if self.name == getattr(other, "name", None) else None
        return Index(generic_concat([self.values, other.values]), name=name)

    def _merge(self, other: Index) -> Index:
        """The sorted distinct labels of both."""
        return Index(GroupBy(generic_concat_values(self.values, other.values)).unique_keys)

    @staticmethod
    def factory(index: Any) -> Index:  # noqa: ANN401 (an array, or a list of arrays)
        """An Index of one array, a MultiIndex of a list of arrays.

        Parameters
        ----------
        index : array-like or list of arrays
            The labels.

        Returns
        -------
        Index or MultiIndex
            A MultiIndex for a non-empty list or tuple of Atoll arrays.

        Examples
        --------
        >>> import atoll as ak
        >>> type(ak.Index.factory([ak.arange(2), ak.arange(2)])).__name__
        'MultiIndex'
        """
        if isinstance(index, (list, tuple)) and len(index) > 0 and _is_atoll_array(index[0]):
            return MultiIndex(list(index))
        return Index(index)


def _array_from_index(a: object) -> Any:  # noqa: ANN401 (an Atoll array or None)
    """``ak.array`` of an Index: a copy of its labels.

    None for any other object, and for a MultiIndex, whose labels are several arrays.
    """
    if isinstance(a, Index) and not isinstance(a, MultiIndex) and isinstance(a.values, (pdarray, Strings)):
        return array(a.values)
    return None


FOREIGN_ARRAYS.append(_array_from_index)


class MultiIndex(Index):
    """Row labels of several levels (a list of arrays of one length).

    Parameters
    ----------
    data : list or tuple of arrays, MultiIndex or pandas.MultiIndex
        The levels.
    name : hashable, optional
        The MultiIndex's name.
    names : sequence of hashable, optional
        One name per level (default those of ``data``, or None).

    Raises
    ------
    TypeError
        ``data`` is not a non-empty list of arrays.
    ValueError
        The levels' lengths differ, or ``names`` has not one name per level.

    Examples
    --------
    >>> import atoll as ak
    >>> m = ak.MultiIndex([ak.array([1, 2]), ak.array(["a", "b"])], names=["n", "s"])
    >>> m.tolist(), m.names
    ([(1, 'a'), (2, 'b')], ['n', 's'])
    """

    objType = "MultiIndex"

    levels: list[Any]

    def __init__(
        self,
        data: Any,  # noqa: ANN401 (arrays of several kinds)
        name: Hashable | None = None,
        names: Sequence[Hashable | None] | None = None,
    ) -> None:
        self.registered_name = None
        if loaded("pandas") and isinstance(data, pd.MultiIndex):
            names = list(data.names) if names is None else names
            data = [_to_array(data.get_level_values(i)) for i in range(data.nlevels)]
        elif isinstance(data, MultiIndex):
            names = data.names if names is None else names
            data = data.levels
        if not isinstance(data, (list, tuple)) or len(data) == 0:
            raise TypeError("MultiIndex should be instantiated from a non-empty list of arrays")
        levels = [_to_array(d) if not _is_atoll_array(d) else d for d in data]
        n = levels[0].size
        for lv in levels:
            if lv.size != n:
                raise ValueError("All the arrays of a MultiIndex must have the same length")
        self.levels = levels
        self._name = name
        self._names: list[Any] = list(names) if names is not None else [None] * len(levels)
        if len(self._names) != len(levels):
            raise ValueError("names: one name per level")

    @property
    def values(self) -> list[Any]:
        """The levels."""
        return self.levels

    @property
    def size(self) -> int:
        """The number of rows of labels."""
        n: int = self.levels[0].size
        return n

    @property
    def name(self) -> Any:  # noqa: ANN401 (any hashable)
        """The MultiIndex's name."""
        return self._name

    @property
    def names(self) -> list[Any]:
        """The levels' names."""
        return self._names

    @property
    def nlevels(self) -> int:
        """The number of levels."""
        return len(self.levels)

    @property
    def ndim(self) -> int:
        """The number of dimensions: 1."""
        return 1

    @property
    def index(self) -> list[Any]:
        """The levels (Arkouda's ``index``)."""
        return self.levels

    @property
    def dtype(self) -> np.dtype[Any]:
        """``object``, as pandas'."""
        return np.dtype("O")

    @property
    def inferred_type(self) -> str:
        """``"mixed"``."""
        return "mixed"

    def __len__(self) -> int:
        return self.size

    def __repr__(self) -> str:
        return f"MultiIndex({self.levels!r})"

    __str__ = __repr__

    def __getitem__(self, key: Any) -> Any:  # noqa: ANN401 (a position, list, slice or mask; a tuple or a MultiIndex)
        if _is_int(key):
            return tuple(lv[builtins.int(key)] for lv in self.levels)
        if isinstance(key, list):
            key = array(np.asarray(key, dtype=np.int64))
        return MultiIndex([lv[key] for lv in self.levels], name=self._name, names=self._names)

    def __eq__(self, other: object) -> Any:  # noqa: ANN401 (elementwise: a bool pdarray)
        if isinstance(other, MultiIndex):
            other = other.levels
        if not isinstance(other, (list, tuple)) or len(other) != len(self.levels):
            raise TypeError("MultiIndex comparison needs as many arrays as levels")
        r = None
        for a, b in zip(self.levels, other):
            x = a == b
            r = x if r is None else r & x
        return r

    def get_level_values(self, level: int | str) -> Index:
        """The labels of one level as an Index.

        Parameters
        ----------
        level : int or str
            The level's position or name.

        Returns
        -------
        Index
            The level's labels, named as the level.

        Raises
        ------
        ValueError
            No such level.

        Examples
        --------
        >>> import atoll as ak
        >>> m = ak.MultiIndex([ak.array([1, 2]), ak.array(["a", "b"])], names=["n", "s"])
        >>> m.get_level_values("s").tolist()
        ['a', 'b']
        """
        if isinstance(level, str):
            if level not in self._names:
                raise ValueError(f"level: {level!r} is not a level name")
            level = self._names.index(level)
        if not _is_int(level) or builtins.abs(level) >= self.nlevels:
            raise ValueError(
                f"level: a level name or an int of absolute value under {self.nlevels} (the levels), got {level!r}"
            )
        return Index(self.levels[level], name=self._names[level])

    def equal_levels(self, other: MultiIndex) -> bool:
        """Whether ``other`` has the same levels (the same labels in each).

        Parameters
        ----------
        other : MultiIndex
            The other MultiIndex.

        Returns
        -------
        bool
            True when every level equals ``other``'s.

        Examples
        --------
        >>> import atoll as ak
        >>> a = ak.MultiIndex([ak.array([1]), ak.array([2])])
        >>> a.equal_levels(ak.MultiIndex([ak.array([1]), ak.array([2])]))
        True
        """
        return self.nlevels == other.nlevels and builtins.all(
            Index(a).equals(Index(b)) for a, b in zip(self.levels, other.levels)
        )

    def equals(self, other: Index) -> bool:
        """Whether ``other`` is a MultiIndex of the same rows of labels.

        Parameters
        ----------
        other : Index
            The other Index.

        Returns
        -------
        bool
            True for a MultiIndex of the same labels in the same order.

        Raises
        ------
        TypeError
            ``other`` is not an Index, as Arkouda.

        Examples
        --------
        >>> import atoll as ak
        >>> a = ak.MultiIndex([ak.array([1, 2]), ak.array([3, 4])])
        >>> a.equals(ak.MultiIndex([ak.array([1, 2]), ak.array([3, 4])])), a.equals(ak.Index(ak.array([1, 2])))
        (True, False)
        """
        if not isinstance(other, Index):
            raise TypeError(f"other must be of type Index, got {type(other).__name__}")
        if not isinstance(other, MultiIndex) or other.size != self.size or other.nlevels != self.nlevels:
            return False

        return self.size == 0 or builtins.bool(_all(self == other))

    def memory_usage(self, unit: str = "B") -> float:
        """The bytes of the labels of every level.

        Parameters
        ----------
        unit : str, default "B"
            ``"B"``, ``"KB"``, ``"MB"`` or ``"GB"``.

        Returns
        -------
        float
            The size in ``unit`` (an int for bytes).

        Raises
        ------
        ValueError
            ``unit`` is none of those.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.MultiIndex([ak.arange(2), ak.arange(2)]).memory_usage()
        32
        """
        return _convert_bytes(builtins.sum(lv.nbytes for lv in self.levels), unit)

    def to_pandas(self) -> Any:  # noqa: ANN401 (a pandas.MultiIndex)
        """The equivalent ``pandas.MultiIndex``.

        Returns
        -------
        pandas.MultiIndex
            With the levels' names.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.MultiIndex([ak.array([1, 2]), ak.array(["a", "b"])]).to_pandas().tolist()
        [(1, 'a'), (2, 'b')]
        """
        arrs = []
        for lv in self.levels:
            if hasattr(lv, "codes"):
                arrs.append(lv.to_pandas())
            elif isinstance(lv, Strings):
                arrs.append(pd.array(lv.to_list(), dtype="str"))
            else:
                arrs.append(lv.to_ndarray())
        return pd.MultiIndex.from_arrays(arrs, names=self._names)

    def to_ndarray(self) -> npt.NDArray[Any]:
        """The levels as the rows of a NumPy array.

        Returns
        -------
        numpy.ndarray
            Of shape ``(nlevels, size)``.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.MultiIndex([ak.array([1, 2]), ak.array([3, 4])]).to_ndarray()
        array([[1, 2],
               [3, 4]])
        """
        return np.array([lv.to_ndarray() for lv in self.levels])

    def tolist(self) -> list[Any]:
        """The rows of labels as a list of tuples.

        Returns
        -------
        list of tuple
            One tuple per row.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.MultiIndex([ak.array([1, 2]), ak.array([3, 4])]).tolist()
        [(1, 3), (2, 4)]
        """
        return list(zip(*[_list(lv) for lv in self.levels]))

    def set_dtype(self, dtype: Any) -> MultiIndex:  # noqa: ANN401 (any dtype-like)
        """Every level cast to ``dtype`` (in place).

        Parameters
        ----------
        dtype : dtype-like
            The new dtype.

        Returns
        -------
        MultiIndex
            This MultiIndex.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.MultiIndex([ak.array([1]), ak.array([2])]).set_dtype(ak.float64).tolist()
        [(1.0, 2.0)]
        """
        self.levels = [lv.astype(dtype) for lv in self.levels]
        return self

    def to_dict(self, labels: Any = None) -> dict[Hashable, Any]:  # noqa: ANN401 (Arkouda's parameter: one label per level)
        """The levels in a dict, under ``labels``.

        Parameters
        ----------
        labels : sequence of hashable, optional
            One key per level (default ``level_0``, ``level_1``, ...).

        Returns
        -------
        dict
            ``{label: level}``.

        Examples
        --------
        >>> import atoll as ak
        >>> list(ak.MultiIndex([ak.array([1]), ak.array([2])]).to_dict())
        ['level_0', 'level_1']
        """
        labels = labels or [f"level_{i}" for i in range(self.nlevels)]
        return dict(zip(labels, self.levels))

    def argsort(self, ascending: Any = True, na_position: str = "last") -> Any:  # noqa: ANN401 (a bool or bools; a pdarray)
        """The stable permutation that sorts the rows of labels.

        Parameters
        ----------
        ascending : bool or list of bool, default True
            The direction, or one per level.
        na_position : str, default "last"
            ``"first"`` or ``"last"``.

        Returns
        -------
        pdarray
            int64 indices.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.MultiIndex([ak.array([1, 0, 1]), ak.array([5, 6, 4])]).argsort().tolist()
        [1, 2, 0]
        """
        return _sorting.lexsort_perm(self.levels, ascending, na_position)

    def _reindex(self, perm: Any) -> MultiIndex:  # noqa: ANN401 (a pdarray of positions)
        return MultiIndex([lv[perm] for lv in self.levels], name=self._name, names=self._names)

    def concat(self, other: Index) -> MultiIndex:
        """The rows of this MultiIndex, then ``other``'s.

        Parameters
        ----------
        other : MultiIndex
            As many levels.

        Returns
        -------
        MultiIndex
            With this one's names.

        Raises
        ------
        TypeError
            ``other`` is not a MultiIndex of as many levels.

        Examples
        --------
        >>> import atoll as ak
        >>> a = ak.MultiIndex([ak.array([1]), ak.array([2])])
        >>> a.concat(ak.MultiIndex([ak.array([3]), ak.array([4])])).tolist()
        [(1, 2), (3, 4)]
        """
        if not isinstance(other, MultiIndex) or other.nlevels != self.nlevels:
            raise TypeError("MultiIndex can only concatenate a MultiIndex of as many levels")
        return MultiIndex(
            [generic_concat([a, b]) for a, b in zip(self.levels, other.levels)], name=self._name, names=self._names
        )

    def lookup(self, key: Any) -> pdarray:  # noqa: ANN401 (one array or scalar per level)
        """Whether each row of labels is among the rows of ``key``.

        Parameters
        ----------
        key : list or tuple
            One array or scalar per level.

        Returns
        -------
        pdarray
            bool, one per row.

        Raises
        ------
        TypeError
            ``key`` is not a list or tuple of one value per level.

        Examples
        --------
        >>> import atoll as ak
        >>> m = ak.MultiIndex([ak.array([1, 2]), ak.array([3, 4])])
        >>> m.lookup([2, 4]).tolist()
        [False, True]
        """
        if not isinstance(key, (list, tuple)) or len(key) != self.nlevels:
            raise TypeError("MultiIndex.lookup: key must be a list or tuple of one value or array per level")

        k = [x if _is_atoll_array(x) else array([x]) for x in key]
        out: pdarray = (find(k, self.levels) >= 0)._materialize()
        return out


def generic_concat_values(a: Any, b: Any) -> Any:  # noqa: ANN401 (two arrays of one kind)
    """The arrays ``a`` and ``b`` one after the other (``generic_concat``).

    Parameters
    ----------
    a, b : pdarray, Strings, Categorical or SegArray
        Arrays of one kind.

    Returns
    -------
    pdarray, Strings, Categorical or SegArray
        Of their kind.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.pandas.index import generic_concat_values
    >>> generic_concat_values(ak.array([1]), ak.array([2])).tolist()
    [1, 2]
    """
    return generic_concat([a, b])


def _is_atoll_array(x: object) -> bool:
    return isinstance(x, (pdarray, Strings, Categorical, SegArray)) or hasattr(x, "_is_bigint")
