"""Arkouda's ``Index`` and ``MultiIndex`` (``arkouda.pandas.index``): the row labels of a
Series or DataFrame, held as a distributed array (pdarray, Strings or Categorical), or as a
short Python list (column names, ``allow_list=True``).

>>> import atoll as ak
>>> i = ak.Index(ak.array([3, 1, 2]), name="k")
>>> i.tolist()
[3, 1, 2]
>>> i.argsort().tolist()
[1, 2, 0]
>>> ak.MultiIndex([ak.array([1, 2]), ak.array(["a", "b"])]).tolist()
[(1, 'a'), (2, 'b')]
"""

import builtins

import numpy as np

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


def _label_kind(v):
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


def _is_int(x):
    return isinstance(x, (builtins.int, np.integer)) and not isinstance(x, (builtins.bool, np.bool_))


def _to_array(values):
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


def _list(x):
    """The values of an Atoll array as a Python list."""
    return x.to_list() if isinstance(x, Strings) else x.tolist()


def _dtype_backend(obj, dtype_backend):
    """``obj`` (a pandas Series or DataFrame) with pandas' nullable dtypes for
    ``dtype_backend="numpy_nullable"`` (``Int64``, ``Float64`` with NaN as ``<NA>``, ``boolean``,
    ``string``) or Arrow-backed ones for ``"pyarrow"``, as ``convert_dtypes`` gives; unchanged for
    None."""
    if dtype_backend is None:
        return obj
    if dtype_backend not in ("numpy_nullable", "pyarrow"):
        raise ValueError(
            f"dtype_backend {dtype_backend!r} is invalid, only 'numpy_nullable' and 'pyarrow' are allowed."
        )
    return obj.convert_dtypes(dtype_backend=dtype_backend)


def _convert_bytes(nbytes, unit):
    units = {"B": 1, "KB": 1024, "MB": 1024**2, "GB": 1024**3}
    if unit not in units:
        raise ValueError(f"unit: expected one of {sorted(units)}, got {unit!r}")
    return nbytes if unit == "B" else nbytes / units[unit]


def _is_nan(v):
    return isinstance(v, (builtins.float, np.floating)) and v != v


def _list_argsort(values, ascending, na_position):
    """The stable sorting permutation of a short Python list of labels (a list-backed Index),
    NaN at ``na_position``."""
    if na_position not in ("first", "last"):
        raise ValueError(f"invalid na_position: {na_position}")
    nan = [i for i, v in enumerate(values) if _is_nan(v)]
    rest = [i for i, v in enumerate(values) if not _is_nan(v)]
    # sorted() is stable with reverse=True too: equal labels keep their order.
    rest = sorted(rest, key=values.__getitem__, reverse=not ascending)
    return nan + rest if na_position == "first" else rest + nan


class Index(Registrable):
    """Row labels: a pdarray, Strings or Categorical (or, with ``allow_list``, a short list)."""

    objType = "Index"

    def __init__(self, values, name=None, allow_list=False, max_list_size=1000):
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
    def size(self):
        return len(self.values)

    @property
    def dtype(self):
        if isinstance(self.values, list):
            if not self.values:
                return None
            v = self.values[0]
            return np.dtype(str) if isinstance(v, str) else np.asarray(v).dtype
        return self.values.dtype

    @property
    def shape(self):
        return (self.size,)

    @property
    def nlevels(self):
        return 1

    @property
    def ndim(self):
        return 1

    @property
    def names(self):
        return [self.name]

    @property
    def index(self):
        return self.values

    @property
    def inferred_type(self):
        if isinstance(self.values, list):
            return "string" if builtins.all(isinstance(v, str) for v in self.values) else "mixed"
        if isinstance(self.values, Strings):
            return "string"
        if isinstance(self.values, Categorical):
            return "categorical"
        k = self.values.dtype.kind
        return {"i": "integer", "u": "integer", "f": "floating", "b": "boolean"}.get(k, "mixed")

    @property
    def is_unique(self):
        if isinstance(self.values, list):
            return len(set(self.values)) == len(self.values)
        return unique(self.values).size == self.size

    def __len__(self):
        return self.size

    def __repr__(self):
        return f"Index({self.values!r}, dtype='{self.dtype}')"

    __str__ = __repr__

    def _compare_arrays(self, other):
        if isinstance(other, Index):
            other = other.values
        if isinstance(self.values, list):
            return _to_array(self.values), other if not isinstance(other, list) else _to_array(other)
        if isinstance(other, list):
            other = _to_array(other)
        return self.values, other

    def __eq__(self, other):
        a, b = self._compare_arrays(other)
        return a == b

    def __ne__(self, other):
        a, b = self._compare_arrays(other)
        return a != b

    __hash__ = None

    def equals(self, other):
        """True when ``other`` is an Index of the same values; TypeError when ``other`` is not
        an Index, as Arkouda."""
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
    def to_pandas(self):
        if isinstance(self.values, list):
            return pd.Index(self.values, name=self.name)
        if isinstance(self.values, Categorical):
            return pd.CategoricalIndex(self.values.to_pandas(), name=self.name)
        if isinstance(self.values, Strings):
            return pd.Index(self.values.to_list(), dtype="str", name=self.name)
        return pd.Index(self.values.to_ndarray(), name=self.name)

    def to_ndarray(self):
        if isinstance(self.values, list):
            return np.array(self.values)
        return self.values.to_ndarray()

    def tolist(self):
        if isinstance(self.values, list):
            return list(self.values)
        return _list(self.values)

    to_list = tolist

    def to_dict(self, label=None):
        return {label if label is not None else (self.name or "idx"): self.values}

    def set_dtype(self, dtype):
        """The Index cast to ``dtype`` (in place)."""
        self.values = self.values.astype(dtype)
        return self

    def memory_usage(self, unit="B"):
        """The bytes of the labels (in ``unit``: B, KB, MB, GB)."""
        if isinstance(self.values, list):
            n = 0
        else:
            n = self.values.nbytes
        return _convert_bytes(n, unit)

    # ----- order -------------------------------------------------------------------------
    def argsort(self, ascending=True, na_position="last"):
        """The permutation that sorts the labels stably in either direction (equal labels
        keep their order), NaN at ``na_position``, as pandas' ``sort_values(kind="stable")``."""

        if isinstance(self.values, list):
            return _list_argsort(self.values, ascending, na_position)
        return _sorting.lexsort_perm([self.values], ascending, na_position)

    def sort_values(self, return_indexer=False, ascending=True, na_position="last"):
        """The labels sorted (stable, NaN at ``na_position``), and the sorting permutation
        when ``return_indexer``."""

        perm = self.argsort(ascending=ascending, na_position=na_position)
        out = self._reindex(perm)
        return (out, perm) if return_indexer else out

    def _reindex(self, perm):
        if isinstance(self.values, list):
            p = perm if isinstance(perm, list) else perm.tolist()
            return Index([self.values[i] for i in p], name=self.name, allow_list=True)
        return Index(self.values[perm], name=self.name)

    # ----- set-like ----------------------------------------------------------------------
    def lookup(self, key):
        """A bool pdarray: whether each label is among ``key`` (a scalar or an array)."""

        if not _is_atoll_array(key):
            try:
                key = array([key]) if np.isscalar(key) else _to_array(key)
            except Exception:
                raise TypeError("Lookup must be on an arkouda array") from None
        return in1d(self.values, key)

    def concat(self, other):
        """The labels of this Index, then ``other``'s (two Indexes of lists give the array of
        both lists as NumPy makes it: labels of different kinds become str)."""

        if isinstance(self.values, list) and isinstance(getattr(other, "values", None), list):
            name = self.name if self.name == getattr(other, "name", None) else None
            return Index(_to_array(np.asarray(self.values + other.values)), name=name)
        if type(self.values) is not type(other.values):
            raise TypeError("Index Types must match")
        name = self.name if self.name == getattr(other, "name", None) else None
        return Index(generic_concat([self.values, other.values]), name=name)

    def _merge(self, other):
        """The sorted distinct labels of both."""

        return Index(GroupBy(generic_concat_values(self.values, other.values)).unique_keys)

    @staticmethod
    def factory(index):
        """An Index of one array, a MultiIndex of a list of arrays."""
        if isinstance(index, (list, tuple)) and len(index) > 0 and _is_atoll_array(index[0]):
            return MultiIndex(list(index))
        return Index(index)


def _array_from_index(a):
    """``ak.array`` of an Index: a copy of its labels (None for any other object, and for a
    MultiIndex, whose labels are several arrays)."""
    if isinstance(a, Index) and not isinstance(a, MultiIndex) and isinstance(a.values, (pdarray, Strings)):
        return array(a.values)
    return None


FOREIGN_ARRAYS.append(_array_from_index)


class MultiIndex(Index):
    """Row labels of several levels (a list of arrays of one length)."""

    objType = "MultiIndex"

    def __init__(self, data, name=None, names=None):
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
        self._names = list(names) if names is not None else [None] * len(levels)
        if len(self._names) != len(levels):
            raise ValueError("names: one name per level")

    @property
    def values(self):
        return self.levels

    @property
    def size(self):
        return self.levels[0].size

    @property
    def name(self):
        return self._name

    @property
    def names(self):
        return self._names

    @property
    def nlevels(self):
        return len(self.levels)

    @property
    def ndim(self):
        return 1

    @property
    def index(self):
        return self.levels

    @property
    def dtype(self):
        return np.dtype("O")

    @property
    def inferred_type(self):
        return "mixed"

    def __len__(self):
        return self.size

    def __repr__(self):
        return f"MultiIndex({self.levels!r})"

    __str__ = __repr__

    def __getitem__(self, key):
        if _is_int(key):
            return tuple(lv[builtins.int(key)] for lv in self.levels)
        if isinstance(key, list):
            key = array(np.asarray(key, dtype=np.int64))
        return MultiIndex([lv[key] for lv in self.levels], name=self._name, names=self._names)

    def __eq__(self, other):
        if isinstance(other, MultiIndex):
            other = other.levels
        if not isinstance(other, (list, tuple)) or len(other) != len(self.levels):
            raise TypeError("MultiIndex comparison needs as many arrays as levels")
        r = None
        for a, b in zip(self.levels, other):
            x = a == b
            r = x if r is None else r & x
        return r

    def get_level_values(self, level):
        """The labels of one level (by position or name) as an Index."""
        if isinstance(level, str):
            if level not in self._names:
                raise ValueError(f"level: {level!r} is not a level name")
            level = self._names.index(level)
        if not _is_int(level) or builtins.abs(level) >= self.nlevels:
            raise ValueError(
                f"level: a level name or an int of absolute value under {self.nlevels} (the levels), got {level!r}"
            )
        return Index(self.levels[level], name=self._names[level])

    def equal_levels(self, other):
        return self.nlevels == other.nlevels and builtins.all(
            Index(a).equals(Index(b)) for a, b in zip(self.levels, other.levels)
        )

    def equals(self, other):
        if not isinstance(other, Index):
            raise TypeError(f"other must be of type Index, got {type(other).__name__}")
        if not isinstance(other, MultiIndex) or other.size != self.size or other.nlevels != self.nlevels:
            return False

        return self.size == 0 or builtins.bool(_all(self == other))

    def memory_usage(self, unit="B"):
        return _convert_bytes(builtins.sum(lv.nbytes for lv in self.levels), unit)

    def to_pandas(self):
        arrs = []
        for lv in self.levels:
            if hasattr(lv, "codes"):
                arrs.append(lv.to_pandas())
            elif isinstance(lv, Strings):
                arrs.append(pd.array(lv.to_list(), dtype="str"))
            else:
                arrs.append(lv.to_ndarray())
        return pd.MultiIndex.from_arrays(arrs, names=self._names)

    def to_ndarray(self):
        return np.array([lv.to_ndarray() for lv in self.levels])

    def tolist(self):
        return list(zip(*[_list(lv) for lv in self.levels]))

    def set_dtype(self, dtype):
        self.levels = [lv.astype(dtype) for lv in self.levels]
        return self

    def to_dict(self, labels=None):
        labels = labels or [f"level_{i}" for i in range(self.nlevels)]
        return dict(zip(labels, self.levels))

    def argsort(self, ascending=True, na_position="last"):
        """The stable permutation that sorts the rows of labels (``ascending``: a bool, or one
        per level), NaN at ``na_position``."""
        return _sorting.lexsort_perm(self.levels, ascending, na_position)

    def _reindex(self, perm):
        return MultiIndex([lv[perm] for lv in self.levels], name=self._name, names=self._names)

    def concat(self, other):
        if not isinstance(other, MultiIndex) or other.nlevels != self.nlevels:
            raise TypeError("MultiIndex can only concatenate a MultiIndex of as many levels")
        return MultiIndex(
            [generic_concat([a, b]) for a, b in zip(self.levels, other.levels)], name=self._name, names=self._names
        )

    def lookup(self, key):
        """A bool pdarray: whether each row of labels is among the rows of ``key`` (a list
        or tuple of one array or scalar per level)."""

        if not isinstance(key, (list, tuple)) or len(key) != self.nlevels:
            raise TypeError("MultiIndex.lookup: key must be a list or tuple of one value or array per level")

        k = [x if _is_atoll_array(x) else array([x]) for x in key]
        return (find(k, self.levels) >= 0)._materialize()


def generic_concat_values(a, b):
    return generic_concat([a, b])


def _is_atoll_array(x):
    return isinstance(x, (pdarray, Strings, Categorical, SegArray)) or hasattr(x, "_is_bigint")
