"""Arkouda's ``Series`` (``arkouda.pandas.series``): values (pdarray, Strings, Categorical,
SegArray) with an ``Index`` of labels. Arithmetic and comparisons between two Series align
them by label as Arkouda does: equal indexes operate element-wise; otherwise on the union of
the labels, a missing value taken as 0. Label lookups (``loc``, ``locate``, ``map``) run on
a GroupBy of the labels and the keys together (no labels gathered to the driver).

>>> import atoll as ak
>>> s = ak.Series(ak.array([3, 1, 2]), index=ak.array(["a", "b", "c"]))
>>> s.sort_values().tolist()
[1, 2, 3]
>>> s.loc["b"].tolist()
[1]
>>> int(s["b"])
1
>>> (s + s).tolist()
[6, 2, 4]
"""

import builtins
import operator

import numpy as np

from .._optional import loaded, pd
from ..numpy import sorting as _sorting
from ..numpy.dtypes import bool_, float64, int64
from ..numpy.numeric import isnan, where
from ..numpy.pdarrayclass import byte_size, html_rows, html_table, pdarray
from ..numpy.pdarraycreation import arange, array, full, zeros
from ..numpy.pdarraysetops import in1d
from ..numpy.segarray import SegArray
from ..numpy.strings import Strings
from ._align import find, lookup
from ._concat import generic_concat
from ._registry import Registrable
from .categorical import Categorical
from .groupbyclass import GroupBy
from .index import Index, MultiIndex, _convert_bytes, _dtype_backend, _is_atoll_array, _list, _to_array

__all__ = ["Series", "map_values"]


def _is_int(x):
    return isinstance(x, (builtins.int, np.integer)) and not isinstance(x, (builtins.bool, np.bool_))


def map_values(values, arg):
    """``values`` mapped through ``arg`` (a dict, or a Series whose index holds the keys):
    a value without a key becomes NaN (numbers) or "null" (strings), as Arkouda's ``map``."""

    if isinstance(arg, dict):
        keys = _to_array(list(arg.keys()))
        vals = _to_array(list(arg.values()))
    elif isinstance(arg, Series):
        keys, vals = arg.index.values, arg.values
    else:
        raise TypeError("arg must be a dict or an arkouda Series")
    if isinstance(vals, Strings):
        return lookup(keys, vals, values, fillvalue="null")
    return lookup(keys, vals, values)


def _kind(x):
    """The kind of a scalar or of an array's values, for Arkouda's checks that keys match the
    labels and values match the values: "s" (str), "b" (bool), "i" (integer), "f" (float), or
    None where no rule applies (a Categorical is "s")."""
    if isinstance(x, (str, np.str_, Strings, Categorical)):
        return "s"
    if isinstance(x, (builtins.bool, np.bool_)):
        return "b"
    if isinstance(x, (builtins.int, np.integer)):
        return "i"
    if isinstance(x, (builtins.float, np.floating)):
        return "f"
    if isinstance(x, pdarray):
        k = getattr(x.dtype, "kind", None)
        if x.dtype == bool_:
            return "b"
        return {"i": "i", "u": "i", "f": "f"}.get(k, "i" if str(x.dtype) == "bigint" else None)
    return None


class Series(Registrable):
    """A labelled 1-D array (Arkouda's ``ak.Series``)."""

    objType = "Series"

    def __init__(self, data, name=None, index=None):
        self.registered_name = None
        if loaded("pandas") and isinstance(data, pd.Categorical):
            data = Categorical(data)
        if index is None and isinstance(data, (tuple, list)) and len(data) == 2 and not np.isscalar(data[0]):
            if not isinstance(data[0], (pdarray, Index, Strings, Categorical, list, tuple)):
                raise TypeError("indices must be a pdarray, Strings, Categorical, List, or Tuple")
            if not isinstance(data[1], Series) and not _is_atoll_array(data[1]):
                raise TypeError("values must be a pdarray, Strings, SegArray, or Categorical")
            self.values = data[1].values if isinstance(data[1], Series) else data[1]
            self.index = data[0] if isinstance(data[0], Index) else Index.factory(data[0])
            self.name = name
        elif loaded("pandas") and isinstance(data, pd.Series):
            if isinstance(data.dtype, pd.CategoricalDtype):
                self.values = Categorical(data.values)
            else:
                self.values = _to_array(data.values)
            self.index = Index(data.index) if not isinstance(data.index, pd.MultiIndex) else MultiIndex(data.index)
            self.name = data.name if name is None else name
        elif isinstance(data, tuple) and len(data) != 2:
            raise TypeError("Series initialization requries a tuple of (index, values)")
        else:
            if isinstance(data, Series):
                self.values = data.values
                name = data.name if name is None else name
            elif isinstance(data, (list, tuple, np.ndarray)):
                self.values = _to_array(data)
            elif _is_atoll_array(data):
                self.values = data
            else:
                raise TypeError(f"Series: unsupported data type {type(data).__name__}")
            if index is None:
                self.index = Index(arange(len(self.values)))
            elif isinstance(index, Index):
                self.index = index
            else:
                self.index = Index.factory(index)
            self.name = name
        if self.index.size != len(self.values):
            raise ValueError(f"Index size does not match data size: {self.index.size} != {len(self.values)}")

    # ----- attributes --------------------------------------------------------------------
    @property
    def size(self):
        return self.index.size

    @property
    def _atoll_values(self):
        return self.values

    @property
    def dtype(self):
        return self.values.dtype

    @property
    def shape(self):
        return (self.size,)

    @property
    def ndim(self):
        return 1

    def __len__(self):
        return len(self.values)

    def has_repeat_labels(self):
        """Whether some label occurs more than once (a method, as Arkouda's)."""
        return not self.index.is_unique

    def memory_usage(self, index=True, unit="B"):
        """The bytes of the values (and of the index)."""

        n = self.values.nbytes + (self.index.memory_usage() if index else 0)
        return _convert_bytes(n, unit)

    # ----- conversion --------------------------------------------------------------------
    def to_pandas(self, dtype_backend=None):
        """The ``pandas.Series`` (gathered to the driver); ``dtype_backend`` as in pandas'
        readers: ``"numpy_nullable"`` or ``"pyarrow"`` for pandas' nullable dtypes (a float NaN
        becomes ``<NA>``), None for NumPy dtypes."""
        idx = self.index.to_pandas()
        # A name pandas cannot hold (an unhashable object such as an array) is left out, as
        # Arkouda does.
        name = self.name if pd.api.types.is_hashable(self.name) else None
        if isinstance(self.values, Categorical):
            out = pd.Series(self.values.to_pandas(), index=idx, name=name)
        elif isinstance(self.values, SegArray):
            out = pd.Series(self.values.tolist(), index=idx, name=name)
        elif isinstance(self.values, Strings):
            out = pd.Series(self.values.to_list(), index=idx, name=name)
        else:
            out = pd.Series(self.values.to_ndarray(), index=idx, name=name)
        return _dtype_backend(out, dtype_backend)

    def to_ndarray(self):
        return self.values.to_ndarray()

    def tolist(self):
        return _list(self.values)

    to_list = tolist

    def to_markdown(self, mode="wt", index=True, tablefmt="grid", storage_options=None, **kwargs):
        return self.to_pandas().to_markdown(mode=mode, index=index, tablefmt=tablefmt, **kwargs)

    def __repr__(self):
        if len(self) == 0:
            return "Series([ -- ][ 0 values : 0 B])"
        maxrows = pd.get_option("display.max_rows")
        if len(self) <= maxrows:
            prt, tail = self.to_pandas(), ""
        else:
            prt = pd.concat([self.head(maxrows // 2 + 2).to_pandas(), self.tail(maxrows // 2).to_pandas()])
            tail = f"\nLength {len(self)}"
        return prt.to_string(dtype=prt.dtype, max_rows=maxrows, length=False) + tail

    __str__ = __repr__

    def _repr_html_(self):
        """Jupyter's display: the head and tail rows with their labels, the size, dtype and bytes
        (values and index)."""
        head, tail = html_rows(len(self))
        parts = [self.head(len(head)).to_pandas()] + ([self.tail(len(tail)).to_pandas()] if tail else [])
        rows = [[[lab, v] for lab, v in zip(p.index.tolist(), p.tolist())] for p in parts]
        name = "" if self.name is None else self.name
        dt = self.dtype.name if isinstance(self.dtype, np.dtype) else str(self.dtype)
        caption = f"Series: {len(self)} values, dtype {dt}, {byte_size(builtins.int(self.memory_usage(index=True)))}"
        return html_table(["", name], rows[0], rows[1] if tail else [], caption)

    # ----- selection ---------------------------------------------------------------------
    def _take(self, idx):
        return Series(self.values[idx], index=self.index[idx], name=self.name)

    def __getitem__(self, key):
        """By label (a scalar, a list or an array of labels); a bool pdarray or Series selects
        rows; a slice selects by position."""
        if isinstance(key, Series):
            key = key.values
        if isinstance(key, list) and key and builtins.all(isinstance(k, (builtins.bool, np.bool_)) for k in key):
            key = array(key)
        if isinstance(key, pdarray) and key.dtype == bool_:
            if key.size != self.size:
                raise IndexError(f"Boolean index of size {key.size} does not match Series of size {self.size}")
            return self._take(key)
        if isinstance(key, slice):
            return self._take(key)
        self._check_key(key)
        if self._is_label(key):
            # One label: its value when it occurs once, the Series of its rows when it
            # repeats, KeyError when it is absent (as pandas).
            out = self.locate(key)
            if out.size == 0:
                raise KeyError(key)
            return out.values[0] if out.size == 1 else out
        if isinstance(self.index, MultiIndex):
            return self.locate(key)
        if not _is_atoll_array(key):
            key = _to_array(list(key) if isinstance(key, (list, tuple, np.ndarray)) else [key])
        missing = ~in1d(key, self.index.values)
        if missing.any():
            raise KeyError(f"{key[missing].tolist()} not in index")
        return self.locate(key)

    def _check_key(self, key):
        """TypeError where the labels asked for are not of the kind of the index's labels (Arkouda
        requires that: an int key does not select from str or float labels, a float key not from
        int labels)."""
        if isinstance(self.index, MultiIndex):
            return
        want = _kind(self.index.values)
        if want is None:
            return
        if isinstance(key, (list, tuple, np.ndarray)):
            kinds = {_kind(k) for k in (key.tolist() if isinstance(key, np.ndarray) else key)}
        elif _is_atoll_array(key) or np.isscalar(key):
            kinds = {_kind(key)}
        else:
            raise TypeError(f"Series keys must be labels, lists or arrays of labels, got {type(key).__name__}")
        for got in kinds:
            if got is not None and got != want:
                raise TypeError(f"key of kind {got!r} does not match the index labels of kind {want!r}")

    def _check_value(self, val):
        """``val`` (a scalar, a list or an array) as an array or scalar that can be written into
        the values: TypeError where its kind differs from theirs, as Arkouda's ``validate_val``
        (Strings values are immutable)."""
        if isinstance(self.values, Strings) or isinstance(val, (str, Strings)):
            raise TypeError("Series of Strings are immutable")
        if isinstance(val, (list, tuple)):
            val = _to_array(list(val))
        want, got = _kind(self.values), _kind(val)
        if want is not None and got != want:
            raise TypeError(f"value of kind {got!r} does not match the Series values of kind {want!r}")
        return val

    def _is_label(self, key):
        """Whether ``key`` names one label (for a MultiIndex, a tuple of one scalar per level)."""
        if isinstance(self.index, MultiIndex):
            return (
                isinstance(key, tuple) and len(key) == self.index.nlevels and builtins.all(np.isscalar(k) for k in key)
            )
        return np.isscalar(key)

    def __setitem__(self, key, val):
        """Sets the values at the labels ``key``, as Arkouda: one label sets all its rows (a
        scalar, or an array of one value per row) and a label not in the index is appended with
        a scalar value; a list or array of labels (of a Series whose labels are unique) sets one
        value per label, KeyError where one is absent; a bool array selects rows. The value must
        be of the kind of the values (TypeError otherwise), as must the labels of the index."""

        if isinstance(key, Series):
            key = key.values
        if isinstance(key, list) and key and builtins.all(isinstance(k, (builtins.bool, np.bool_)) for k in key):
            key = array(key)
        if isinstance(key, pdarray) and key.dtype == bool_:
            if key.size != self.size:
                raise IndexError(f"Boolean index of size {key.size} does not match Series of size {self.size}")
            self._put(arange(self.size)[key], self._check_value(val))
            return
        self._check_key(key)
        val = self._check_value(val)
        if self._is_label(key):
            pos = arange(self.size)[self.index.lookup(key)]
            if pos.size == 0:
                if not np.isscalar(val):
                    raise ValueError("a new label takes one scalar value")
                self.values = generic_concat([self.values, array([val], dtype=self.values.dtype)])
                self.index = Index(generic_concat([self.index.values, _to_array([key])]))
                return
            self._put(pos, val, one_for_all=True)
            return
        if isinstance(self.index, MultiIndex):
            pos = arange(self.size)[self.index.lookup(self._levels_key(key))]
            if pos.size == 0:
                raise KeyError(f"{key!r} is not a label of the Series")
            self._put(pos, val)
            return
        if not _is_atoll_array(key):
            key = _to_array(list(key) if isinstance(key, (list, tuple, np.ndarray)) else [key])
        missing = ~in1d(key, self.index.values)
        if missing.any():
            raise KeyError(f"{key[missing].tolist()} not in index")
        if self.has_repeat_labels():
            raise ValueError("setting by a list of labels needs a Series whose labels are unique")
        self._put(find(self.index.values, key), val)

    def _put(self, pos, val, one_for_all=False):
        """Writes ``val`` (a scalar, or one value per position) at the positions ``pos``; with
        ``one_for_all`` (the rows of one label) an array of one value sets them all."""
        if one_for_all and not np.isscalar(val) and len(val) == 1 and pos.size != 1:
            val = val[0]  # one value for every position, as pandas
        if not np.isscalar(val) and len(val) != pos.size:
            raise ValueError(
                f"cannot set using a list-like indexer with a different length ({pos.size}) than the value ({len(val)})"
            )
        self.values[pos] = val

    def _levels_key(self, key):
        """A key of a MultiIndex (a tuple of one value or array per level, or a list of
        tuples) as one array per level."""
        if isinstance(key, list) and key and isinstance(key[0], tuple):
            return [_to_array([t[i] for t in key]) for i in range(self.index.nlevels)]
        return [x if _is_atoll_array(x) else array([x]) for x in key]

    def locate(self, key):
        """The rows whose label equals ``key`` (a scalar, a list or an array of labels; for a
        MultiIndex a tuple of one value or array per level), in label order of ``key``."""

        if isinstance(key, Series):
            key = key.values
        if isinstance(key, Index):
            key = key.values
        if isinstance(self.index, MultiIndex):
            m = self.index.lookup(self._levels_key(key))
        else:
            if not _is_atoll_array(key):
                key = _to_array(list(key) if isinstance(key, (list, tuple, np.ndarray)) else [key])
            m = self.index.lookup(key)
            if key.size > 1:
                # Rows in the order of the keys asked for (each key's rows in row order).
                rows = arange(self.size)[m]
                which = find(key, self.index.values[rows])
                order = _sorting.coargsort([which, rows])
                return self._take(rows[order])
        return self._take(m)

    @property
    def loc(self):
        return _LocIndexer(self)

    at = loc

    @property
    def iloc(self):
        return _iLocIndexer(self)

    iat = iloc

    def isin(self, lst):
        """A bool Series: whether each value occurs in ``lst``."""

        if isinstance(lst, Series):
            lst = lst.values
        if not _is_atoll_array(lst):
            lst = _to_array(list(lst))
        return Series(in1d(self.values, lst), index=self.index, name=self.name)

    # ----- order -------------------------------------------------------------------------
    def _reindex(self, idx):
        return Series(self.values[idx], index=self.index._reindex(idx), name=self.name)

    def sort_index(self, ascending=True):
        """The Series in the order of its labels."""
        return self._reindex(self.index.argsort(ascending=ascending))

    def sort_values(self, ascending=True, na_position="last", kind="stable"):
        """The Series in the order of its values, as pandas' ``sort_values(kind="stable")``:
        equal values keep their order in either direction, NaN at ``na_position`` ("first"
        or "last"). Every ``kind`` is this stable sort."""

        if isinstance(ascending, (list, tuple)):
            if len(ascending) != 1:
                raise ValueError(f"Length of ascending ({len(ascending)}) != length of by (1)")
            ascending = ascending[0]
        return self._reindex(_sorting.lexsort_perm([self.values], ascending, na_position))

    def head(self, n=10):
        return self._take(slice(0, n))

    def tail(self, n=10):
        return self._take(slice(builtins.max(0, self.size - n), self.size))

    def topn(self, n=10):
        """The ``n`` largest values, largest first."""
        p = _sorting.argsort(self.values)
        k = builtins.min(n, self.size)
        top = p[self.size - k :][::-1].astype(int64)._materialize()
        return self._take(top)

    def value_counts(self, sort=True):
        """The number of occurrences of each distinct value (largest counts first when
        ``sort``)."""

        uk, counts = GroupBy(self.values).size()
        s = Series(counts, index=Index(uk))
        return s.sort_values(ascending=False) if sort else s

    # ----- arithmetic --------------------------------------------------------------------
    def _binop(self, other, op):
        if isinstance(other, Series):
            if self.index.size == other.index.size and self.index.equals(other.index):
                return Series(op(self.values, other.values), index=self.index)
            if self.size == 0 or other.size == 0:
                # The labels of the nonempty side (the empty one may hold labels of another kind).
                full_side = other if self.size == 0 else self
                idx = full_side.index._merge(full_side.index[0:0])
            else:
                idx = self.index._merge(other.index)
            # Each side's values at the labels of idx, 0 where it lacks a label (as Arkouda aligns).
            a, b = (lookup(x.index.values, x.values, idx.values, fillvalue=0) for x in (self, other))
            return Series(op(a, b), index=idx)
        if isinstance(other, (pdarray, Strings)) or np.isscalar(other):
            return Series(op(self.values, other), index=self.index)
        return NotImplemented

    def add(self, b):
        """The values of both Series, summed per label (labels of either)."""

        idx = generic_concat([self.index.values, b.index.values])
        vals = generic_concat([self.values, b.values])
        k, v = GroupBy(idx).sum(vals)
        return Series(v, index=k)

    def diff(self):
        """The difference with the previous value (NaN first), float64."""

        out = full(self.size, np.nan, float64)
        if self.size > 1:
            out[1:] = (self.values[1:] - self.values[:-1]).astype(float64)
        return Series(out, index=self.index)

    # ----- reductions --------------------------------------------------------------------
    def max(self):
        return self.values.max()

    def min(self):
        return self.values.min()

    def mean(self):
        return self.values.mean()

    def sum(self):
        return self.values.sum()

    def std(self, ddof=0):
        return self.values.std(ddof)

    def var(self, ddof=0):
        return self.values.var(ddof)

    def argmax(self):
        return self.values.argmax()

    def argmin(self):
        return self.values.argmin()

    def prod(self):
        return self.values.prod()

    # ----- missing values ----------------------------------------------------------------
    def isna(self):
        if isinstance(self.values, pdarray) and self.values.dtype == float64:
            return Series(isnan(self.values)._materialize(), index=self.index)
        return Series(zeros(self.size, bool_), index=self.index)

    isnull = isna

    def notna(self):
        r = self.isna()
        return Series((~r.values)._materialize(), index=self.index)

    notnull = notna

    def hasnans(self):
        return builtins.bool(self.isna().values.any()) if self.size else False

    def corr(self, other, method="pearson", min_periods=None):
        """The Pearson correlation of the values and ``other``'s (a Series with the same
        labels, or a pdarray of one value a row), over the rows where neither is NaN, as
        pandas' (NaN for fewer than two such rows or a constant side)."""
        if method != "pearson":
            raise NotImplementedError(f"corr: method {method!r}: only 'pearson' is offered")
        if min_periods is not None:
            raise NotImplementedError("corr: min_periods is not offered (pandas' default: at least 2 rows)")
        if isinstance(other, Series):
            if not self.index.equals(other.index):
                raise NotImplementedError("corr: Series with other labels (pandas aligns them) are not offered")
            other = other.values
        for v in (self.values, other):
            if not isinstance(v, pdarray) or v.dtype.kind not in "iufb":
                raise TypeError("corr: expected numeric values")
        if other.size != self.size:
            raise ValueError(f"corr: {other.size} values for {self.size} rows")
        x, y = self.values.astype(float64), other.astype(float64)
        ok = (~(isnan(x) | isnan(y)))._materialize()
        x, y = x[ok], y[ok]
        if x.size < 2:
            return np.nan
        dx = x - builtins.float(x.mean())
        dy = y - builtins.float(y.mean())
        den = builtins.float((dx * dx).sum()) * builtins.float((dy * dy).sum())
        if den <= 0:
            return np.nan
        return builtins.max(-1.0, builtins.min(1.0, builtins.float((dx * dy).sum()) / np.sqrt(den)))

    def dropna(self):
        """The Series without its NaN values (only float values hold NaN: other Series come
        back whole), labels kept, as pandas."""
        if isinstance(self.values, pdarray) and self.values.dtype == float64:
            return self._take(arange(self.size)[(~isnan(self.values))._materialize()])
        return Series(self.values, index=self.index, name=self.name)

    def fillna(self, value):
        """NaN values replaced by ``value`` (a scalar, a pdarray or a Series)."""

        if isinstance(value, Series):
            value = value.values
        if isinstance(self.values, pdarray) and self.values.dtype == float64:
            return Series(where(isnan(self.values), value, self.values)._materialize(), index=self.index)
        return Series(self.values, index=self.index, name=self.name)

    # ----- mapping and combining ---------------------------------------------------------
    def map(self, arg):
        """The values mapped through ``arg`` (a dict, or a Series whose labels are keys)."""
        return Series(map_values(self.values, arg), index=self.index, name=self.name)

    @staticmethod
    def pdconcat(arrays, axis=0, labels=None):
        """``concat`` returning pandas objects (Arkouda's helper)."""
        r = Series.concat(arrays, axis=axis)
        return r.to_pandas()


def _add_ops():
    ops = {
        "add": operator.add,
        "sub": operator.sub,
        "mul": operator.mul,
        "truediv": operator.truediv,
        "floordiv": operator.floordiv,
        "mod": operator.mod,
        "pow": operator.pow,
        "and": operator.and_,
        "or": operator.or_,
        "xor": operator.xor,
        "lt": operator.lt,
        "le": operator.le,
        "gt": operator.gt,
        "ge": operator.ge,
        "eq": operator.eq,
        "ne": operator.ne,
    }
    for name, fn in ops.items():

        def binop(self, other, fn=fn):
            return self._binop(other, fn)

        def rbinop(self, other, fn=fn):
            if isinstance(other, Series):
                return other._binop(self, fn)
            return Series(fn(other, self.values), index=self.index)

        setattr(Series, f"__{name}__", binop)
        if name not in ("lt", "le", "gt", "ge", "eq", "ne"):
            setattr(Series, f"__r{name}__", rbinop)

    def neg(self):
        return Series(-self.values, index=self.index, name=self.name)

    def inv(self):
        return Series(~self.values, index=self.index, name=self.name)

    Series.__neg__ = neg
    Series.__invert__ = inv
    Series.__hash__ = None


_add_ops()


class _LocIndexer:
    def __init__(self, series):
        self.series = series

    def __getitem__(self, key):
        # One label gives the Series of its rows here (Atoll's loc); [] gives pandas' scalar.
        if self.series._is_label(key):
            return self.series.locate(key)
        return self.series[key]

    def __setitem__(self, key, val):
        self.series[key] = val


class _iLocIndexer:
    def __init__(self, series):
        self.series = series

    def _key(self, key):
        if isinstance(key, Series):
            key = key.values
        if isinstance(key, tuple):
            raise TypeError("iloc takes one position, a list or array of positions, a bool array or a slice")
        if isinstance(key, list):
            key = array(np.asarray(key, dtype=np.bool_ if key and isinstance(key[0], builtins.bool) else np.int64))
        if isinstance(key, pdarray) and key.dtype != bool_ and key.size and (key.max() >= self.series.size):
            raise IndexError(f"iloc cannot enlarge its target object of size {self.series.size}")
        if _is_int(key):
            k = builtins.int(key)
            if k < 0:
                k += self.series.size
            if not 0 <= k < self.series.size:
                raise IndexError(f"index {key} is out of bounds for Series of size {self.series.size}")
            return k
        if isinstance(key, (pdarray, slice)):
            return key
        raise TypeError(f"iloc: unsupported key type {type(key).__name__}")

    def __getitem__(self, key):
        k = self._key(key)
        if _is_int(k):
            return self.series._take(array([k]))
        return self.series._take(k)

    def __setitem__(self, key, val):
        k = self._key(key)
        val = self.series._check_value(val)
        if _is_int(k):
            k = array([k])
        if isinstance(k, pdarray) and k.dtype == bool_:
            k = arange(self.series.size)[k]
        self.series._put(arange(self.series.size)[k] if isinstance(k, slice) else k, val)
