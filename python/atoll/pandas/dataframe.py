"""Arkouda's ``DataFrame`` (``arkouda.pandas.dataframe``): named columns of one length (pdarray,
Strings, Categorical, SegArray, and part 1's bigint arrays) with an ``Index`` of row labels.

Row selection, sorting, grouping and joins run on the distributed primitives (gather,
coargsort, GroupBy, the join of ``atoll.pandas.join``); only ``to_pandas``, ``__repr__`` (the
rows it prints) and ``to_markdown`` bring data to the driver.

>>> import atoll as ak
>>> df = ak.DataFrame({"k": ak.array([1, 2, 1]), "v": ak.array([10.0, 20.0, 30.0])})
>>> df.shape
(3, 2)
>>> df.groupby("k").sum().to_pandas(retain_index=True)["v"].tolist()
[40.0, 20.0]
>>> df.sort_values("v", ascending=False)["k"].tolist()
[1, 2, 1]
"""

import builtins
import difflib
import html
from collections import UserDict

import numpy as np

from .. import _atoll
from .._optional import loaded, pd
from ..numpy import sorting as _sorting
from ..numpy.dtypes import bool_, float64, int64, uint8, uint64
from ..numpy.numeric import isnan, where
from ..numpy.pdarrayclass import byte_size, pdarray
from ..numpy.pdarraycreation import arange, arange as _ar, array, full, ones, uniform, zeros
from ..numpy.pdarraymanipulation import concatenate
from ..numpy.pdarraysetops import in1d, unique
from ..numpy.segarray import SegArray
from ..numpy.sorting import argsort, sort
from ..numpy.strings import Strings
from ..numpy.timeclass import is_time
from ..progress import step as progress_step, tracked
from ._align import find
from ._bigint_groupby import OPS as BIGINT_OPS, is_bigint
from ._concat import generic_concat
from ._registry import Registrable
from .categorical import Categorical
from .groupbyclass import GroupBy
from .index import Index, MultiIndex, _convert_bytes, _dtype_backend, _is_atoll_array, _to_array
from .interop import column_from_pandas, frame_columns, is_foreign_frame, table_to_arrow, table_to_polars
from .row import Row
from .series import Series

__all__ = ["DataFrame", "DataFrameGroupBy", "intx", "intersect", "invert_permutation"]


def _is_int(x):
    return isinstance(x, (builtins.int, np.integer)) and not isinstance(x, (builtins.bool, np.bool_))


def _column_classes():
    return (pdarray, Strings, Categorical, SegArray)


def _is_column(x):
    return isinstance(x, _column_classes()) or hasattr(x, "_is_bigint")


def _is_plain(col):
    """A pdarray, Strings or bigint column (the kinds ``in1d`` compares with a value list)."""
    return isinstance(col, (pdarray, Strings)) or is_bigint(col)


def _is_numeric(col):
    return isinstance(col, pdarray) and col.dtype.kind in "iuf"


def _copy_col(c):
    if isinstance(c, pdarray):
        return c.astype(c.dtype)._materialize()
    if isinstance(c, Strings):
        return c[arange(c.size)]
    if isinstance(c, Categorical):
        return c.copy()
    if isinstance(c, SegArray):
        return c.copy()
    return c[arange(c.size)]


def _no_column(key, columns):
    """The KeyError of a column name that is not among ``columns``: it lists them (the first
    20) and the closest name."""
    names = [builtins.str(c) for c in columns]
    close = difflib.get_close_matches(builtins.str(key), names, n=1)
    shown = repr(list(columns)[:20])[:-1] + (", ...]" if len(names) > 20 else "]")
    hint = f"; did you mean {close[0]!r}?" if close else ""
    return KeyError(f"column {key!r} not found; the columns are {shown}{hint}")


def apply_if_callable(maybe_callable, obj, **kwargs):
    return maybe_callable(obj, **kwargs) if callable(maybe_callable) else maybe_callable


class DataFrame(Registrable, UserDict):
    """A table of named columns of one length with row labels (Arkouda's ``ak.DataFrame``)."""

    objType = "DataFrame"

    def __init__(self, initialdata=None, index=None, columns=None):
        super().__init__()
        self.registered_name = None
        self._columns = []
        self._nrows = 0
        self._index = None
        if isinstance(initialdata, DataFrame):
            # Arkouda's copy constructor: the columns are shared (a shallow copy).
            self._columns = initialdata._columns
            self.data = initialdata.data
            self._nrows = initialdata._nrows
            self._set_index(initialdata.index if index is None else index)
            return
        if loaded("pandas") and isinstance(initialdata, pd.DataFrame):
            self._from_pandas(initialdata, index)
            return
        if is_foreign_frame(initialdata):
            names, cols, nrows = frame_columns(initialdata)
            self._columns = names
            self.data = dict(zip(names, cols))
            self._nrows = nrows
            self._set_index(arange(nrows) if index is None else index)
            return
        if initialdata is None:
            self._set_index(index)
            return
        sizes = set()
        if isinstance(initialdata, dict):
            items = list(initialdata.items())
        elif isinstance(initialdata, (list, tuple)):
            if columns is not None:
                if any(not isinstance(c, str) for c in columns):
                    raise TypeError("Column labels must be strings.")
                if len(columns) != len(initialdata):
                    raise ValueError("Must have as many labels as columns")
                names = list(columns)
            else:
                names = [str(i) for i in range(len(initialdata))]
            items = list(zip(names, initialdata))
        else:
            raise ValueError(f"Initialize with dict or list of {_column_classes()}.")
        for key, val in items:
            if isinstance(val, Series):
                val = val.values
            if isinstance(val, (list, tuple, np.ndarray)):
                val = _to_array(list(val) if not isinstance(val, np.ndarray) else val)
            if not _is_column(val):
                raise ValueError(f"Values must be one of {_column_classes()}.")
            if isinstance(key, str) and key.lower() == "index" and isinstance(initialdata, dict):
                self._set_index(val)
                continue
            sizes.add(len(val))
            if len(sizes) > 1:
                raise ValueError("Input arrays must have equal size.")
            self._columns.append(key)
            self.data[key] = val
        self._nrows = sizes.pop() if sizes else 0
        if index is not None:
            self._set_index(index)
        elif self._index is None:
            self._set_index(arange(self._nrows))
        if self._index is not None and self._columns and self._index.size != self._nrows:
            raise ValueError(f"Index of size {self._index.size} does not match {self._nrows} rows")

    def _from_pandas(self, pdf, index):
        self._columns = [str(c) if not isinstance(c, str) else c for c in pdf.columns]
        self._nrows = pdf.shape[0]
        for name, key in zip(self._columns, pdf.columns):
            col = pdf[key]
            conv = column_from_pandas(name, col)
            if conv is not None:
                self.data[name] = conv
            elif isinstance(col.dtype, pd.CategoricalDtype):
                self.data[name] = Categorical(col.values)
            elif col.dtype == object and len(col) and isinstance(col.iloc[0], (list, np.ndarray)):
                self.data[name] = SegArray.from_multi_array([_to_array(np.asarray(r)) for r in col])
            elif col.dtype == object and len(col) and builtins.all(isinstance(x, builtins.int) for x in col):
                self.data[name] = _big_or_int(col)
            else:
                self.data[name] = _to_array(col)
        if index is not None:
            self._set_index(index)
        elif isinstance(pdf.index, pd.MultiIndex):
            self._index = MultiIndex(pdf.index)
        elif isinstance(pdf.index, pd.RangeIndex) and pdf.index.start == 0 and pdf.index.step == 1:
            self._index = Index(arange(self._nrows), name=pdf.index.name)
        else:
            self._index = Index(pdf.index)

    @classmethod
    def from_pandas(cls, pd_df):
        """The DataFrame of a ``pandas.DataFrame`` (columns and index)."""
        return cls(pd_df)

    # ----- structure ---------------------------------------------------------------------
    def _set_index(self, value):
        if value is None or isinstance(value, Index):
            self._index = value
        elif _is_atoll_array(value) or (loaded("pandas") and isinstance(value, pd.Index)):
            self._index = Index(value)
        elif isinstance(value, (list, np.ndarray)):
            self._index = Index(_to_array(value))
        else:
            raise TypeError(
                f"DataFrame Index can only be constructed from type ak.Index, pdarray or list. {type(value)} provided."
            )

    @property
    def index(self):
        return self._index

    @property
    def columns(self):
        return Index(list(self._columns), allow_list=True, max_list_size=builtins.max(1000, len(self._columns)))

    @property
    def empty(self):
        return len(self._columns) == 0

    @property
    def _empty(self):
        return self.empty

    def update_nrows(self):
        sizes = {len(v) for v in self.data.values()}
        if len(sizes) > 1:
            raise ValueError("Size mismatch in DataFrame columns.")
        self._nrows = sizes.pop() if sizes else 0

    @property
    def shape(self):
        self.update_nrows()
        return (self._nrows, len(self._columns))

    @property
    def size(self):
        r, c = self.shape
        return r * c

    def __len__(self):
        return self._nrows

    def _ncols(self):
        return len(self._columns)

    @property
    def dtypes(self):
        """The dtype name of each column ('str', 'Categorical', 'SegArray', 'bigint' for the
        non-numeric kinds)."""

        out = {}
        for k in self._columns:
            v = self.data[k]
            if isinstance(v, pdarray):
                out[k] = str(v.dtype)
            elif isinstance(v, Strings):
                out[k] = "str"
            elif isinstance(v, Categorical):
                out[k] = "Categorical"
            elif isinstance(v, SegArray):
                out[k] = "SegArray"
            else:
                out[k] = str(getattr(v, "dtype", type(v).__name__))
        return Row(out)

    def keys(self):
        return list(self._columns)

    def items(self):
        return [(k, self.data[k]) for k in self._columns]

    def values_list(self):
        return [self.data[k] for k in self._columns]

    def __iter__(self):
        return iter(self._columns)

    def __contains__(self, key):
        return key in self._columns

    def __getattr__(self, key):
        if key.startswith("_") or key in ("data",):
            raise AttributeError(key)
        cols = self.__dict__.get("_columns", [])
        if key not in cols:
            raise AttributeError(f"Attribute {key} not found")
        return Series(data=self.data[key], index=self.index)

    def __dir__(self):
        return dir(DataFrame) + list(self._columns) + ["columns"]

    # ----- selection ---------------------------------------------------------------------
    def _rows(self, idx):
        """The DataFrame of the rows ``idx`` (int pdarray or slice), keeping their labels."""
        out = DataFrame()
        out._columns = list(self._columns)
        if isinstance(idx, pdarray):
            out.data = _take_columns(self.data, self._columns, idx, self._nrows)
        else:
            out.data = {k: self.data[k][idx] for k in self._columns}
        out.update_nrows()
        if self._index is not None:
            out._index = self._index._reindex(idx) if not isinstance(idx, slice) else self._index[idx]
        return out

    def __getitem__(self, key):
        if isinstance(key, Series):
            key = key.values
        if isinstance(key, pdarray):
            if key.dtype == bool_:
                if key.size != self._nrows:
                    raise IndexError(f"Boolean index of size {key.size} does not match {self._nrows} rows")
                key = arange(key.size)[key]
            return self._rows(key)
        if isinstance(key, (list, tuple)):
            out = DataFrame()
            if len(key) == 0:
                return out
            if len({type(x) for x in key}) > 1:
                raise TypeError("Invalid selector: too many types in list.")
            if not isinstance(key[0], str):
                raise TypeError(
                    "DataFrames only support lists for column indexing. All list entries must be of type str."
                )
            for k in key:
                if k not in self.data:
                    raise _no_column(k, self._columns)
                out._columns.append(k)
                out.data[k] = self.data[k]
            out._nrows = self._nrows
            out._index = self._index
            return out
        if _is_int(key):
            k = builtins.int(key)
            if k < 0:
                k += self._nrows
            if not 0 <= k < self._nrows:
                raise IndexError(f"row {key} is out of bounds for {self._nrows} rows")
            return Row({c: _scalar_of(self.data[c], k) for c in self._columns})
        if isinstance(key, str):
            if key not in self.data:
                raise _no_column(key, self._columns)
            return self.data[key]
        if isinstance(key, slice):
            return self._rows(key)
        raise IndexError("Invalid selector: unknown error.")

    def __setitem__(self, key, value):
        if _is_int(key):
            if self.empty:
                raise ValueError("Initial data must be dict of arkouda arrays.")
            if not isinstance(value, (dict, UserDict)):
                raise ValueError("Expected dict or Row type.")
            if key >= self._nrows:
                raise KeyError("The row index is out of range.")
            for k, v in value.items():
                if k == "index":
                    continue
                if isinstance(self.data[k], Strings):
                    raise ValueError("This DataFrame has a column of type ak.Strings; so this DataFrame is immutable.")
                self.data[k][key] = v
            return
        if not isinstance(key, str):
            raise ValueError("No valid data received.")
        if isinstance(value, Series):
            value = value.values
        if isinstance(value, (list, tuple, np.ndarray)):
            value = _to_array(value)
        if np.isscalar(value) and not self.empty:
            value = full(self._nrows, value) if not isinstance(value, str) else _to_array([value] * self._nrows)
        if not _is_column(value):
            raise ValueError(f"Column must be one of {_column_classes()}.")
        first = self.empty
        if not first and self._nrows != len(value):
            raise ValueError(f"Expected size {self._nrows} but received size {len(value)}.")
        self.data[key] = value
        if key not in self._columns:
            self._columns.append(key)
        if first:
            self._nrows = len(value)
            if self._index is None or self._index.size != self._nrows:
                self._set_index(arange(self._nrows))

    def __delitem__(self, key):
        if key not in self._columns:
            raise KeyError(key)
        self._columns.remove(key)
        del self.data[key]
        if not self._columns:
            self._index = None
        self.update_nrows()

    def head(self, n=5):
        return self[: builtins.max(0, n)]

    def tail(self, n=5):
        self.update_nrows()
        if self._nrows <= n:
            return self
        return self[self._nrows - n :]

    def sample(self, n=5):
        """``n`` rows chosen at random (without replacement)."""

        if self._nrows <= n:
            return self
        p = argsort(uniform(self._nrows))[:n]
        return self[p.astype(int64)._materialize()]

    # ----- display -----------------------------------------------------------------------
    def _shape_str(self):
        return f"{self._nrows} rows x {self._ncols()} columns"

    def _get_head_tail(self):
        if self.empty:
            return pd.DataFrame()
        maxrows = pd.get_option("display.max_rows")
        if self._nrows <= maxrows:
            return self.to_pandas(retain_index=True)
        idx = array(
            np.array(
                list(range(maxrows // 2 + 1)) + list(range(self._nrows - (maxrows // 2), self._nrows)),
                dtype=np.int64,
            )
        )
        return self[idx].to_pandas(retain_index=True)

    _get_head_tail_server = _get_head_tail

    def __repr__(self):
        prt = self._get_head_tail()
        with pd.option_context("display.show_dimensions", False):
            s = prt.__repr__()
        return s + " (" + self._shape_str() + ")"

    def _repr_html_(self):
        """Jupyter's display: pandas' table of the head and tail rows, then the shape, each
        column's dtype and the bytes of the columns and the index."""
        prt = self._get_head_tail()
        with pd.option_context("display.show_dimensions", False):
            s = prt._repr_html_()
        dtypes = ", ".join(f"{k}: {v}" for k, v in self.dtypes.items())
        mem = byte_size(builtins.int(self.memory_usage(index=True).sum())) if self._columns else "0 B"
        return s + "<p>" + html.escape(f"{self._shape_str()}; dtypes {dtypes}; memory {mem}") + "</p>"

    def __str__(self):
        if self.empty:
            return "DataFrame([ -- ][ 0 rows : 0 B])"
        keystr = ", ".join(f"'{k}'" for k in self._columns)
        rows = " row" if self._nrows == 1 else " rows"
        return "DataFrame([" + keystr + "], {:,}".format(self._nrows) + rows + ", " + self._mem_str() + ")"

    @property
    def info(self):
        if self.empty:
            return "DataFrame([ -- ][ 0 rows : 0 B])"
        return str(self)

    def _mem_str(self):
        b = builtins.int(self.memory_usage(index=True).sum())
        unit = "B" if b < 1024 else "KB" if b < 1024**2 else "MB" if b < 1024**3 else "GB"
        return self.memory_usage_info(unit=unit)

    def to_markdown(self, mode="wt", index=True, tablefmt="grid", storage_options=None, **kwargs):
        return self.to_pandas().to_markdown(mode=mode, index=index, tablefmt=tablefmt, **kwargs)

    # ----- conversion --------------------------------------------------------------------
    @tracked(
        "DataFrame.to_pandas", rows=lambda self, *a, **k: len(self), total=lambda self, *a, **k: len(self._columns)
    )
    def to_pandas(self, datalimit=None, retain_index=False, dtype_backend=None):
        """The ``pandas.DataFrame`` (gathered to the driver); the index kept when
        ``retain_index``; ``dtype_backend`` as in pandas' readers: ``"numpy_nullable"`` or
        ``"pyarrow"`` for pandas' nullable dtypes (a float NaN becomes ``<NA>``), None for NumPy
        dtypes."""

        data = {}
        for k in self._columns:
            v = self.data[k]
            if isinstance(v, SegArray):
                data[k] = v.tolist()
            elif isinstance(v, Categorical):
                data[k] = v.to_pandas()
            elif isinstance(v, Strings):
                data[k] = pd.array(v.to_list(), dtype="str")  # str even when empty
            elif isinstance(v, pdarray):
                data[k] = v.to_ndarray()
            else:
                data[k] = v.tolist()
            progress_step()
        if retain_index and self._index is not None:
            out = pd.DataFrame(data=data, index=self._index.to_pandas(), columns=list(self._columns))
        else:
            out = pd.DataFrame(data=data, columns=list(self._columns))
        return _dtype_backend(out, dtype_backend)

    def to_dict(self):
        return {k: self.data[k] for k in self._columns}

    def to_arrow(self):
        """The ``pyarrow.Table`` of the columns (the index is left out): numbers as their
        Arrow types, Strings as ``string``, Categorical as a dictionary of strings (its missing
        value a null), SegArray as ``large_list``. See ``atoll.pandas.interop`` for the types
        and the copies."""
        return table_to_arrow(self._columns, [self.data[k] for k in self._columns])

    def to_polars(self):
        """The ``polars.DataFrame`` of the columns (through ``to_arrow``; Categorical columns
        are polars ``Categorical``)."""
        return table_to_polars(self._columns, [self.data[k] for k in self._columns])

    @classmethod
    def from_arrow(cls, table):
        """The DataFrame of a ``pyarrow.Table`` or ``RecordBatch`` (``ak.DataFrame(table)``)."""
        return cls(table)

    @classmethod
    def from_polars(cls, frame):
        """The DataFrame of a ``polars.DataFrame`` (``ak.DataFrame(frame)``)."""
        return cls(frame)

    # ----- memory ------------------------------------------------------------------------
    def memory_usage(self, index=True, unit="B"):
        """A Series of the bytes of each column (and the index first, as "Index")."""

        sizes, labels = [], []
        if index and self._index is not None:
            sizes.append(self._index.memory_usage(unit=unit))
            labels.append("Index")
        for k in self._columns:
            sizes.append(_convert_bytes(_nbytes(self.data[k]), unit))
            labels.append(k)
        vals = np.array(sizes, dtype=np.float64 if unit != "B" else np.int64)
        return Series(_to_array(vals), index=Index(_to_array(np.array(labels, dtype=str))))

    def memory_usage_info(self, unit="GB"):
        b = builtins.int(self.memory_usage(index=True).values.sum()) if self._columns else 0
        return "{:.2f} {}".format(_convert_bytes(b, unit), unit)

    # ----- changing ----------------------------------------------------------------------
    def _shallow(self):
        """A new frame of the same arrays (its own column list and dict)."""
        out = DataFrame()
        out._columns = list(self._columns)
        out.data = dict(self.data)
        out._nrows, out._index = self._nrows, self._index
        return out

    def copy(self, deep=True):
        """A copy; ``deep`` copies the columns too, otherwise the copy shares them (setting a
        column of one sets it in both, as in Arkouda)."""
        if not deep:
            return DataFrame(self)
        out = DataFrame()
        out._columns = list(self._columns)
        out.data = {k: _copy_col(self.data[k]) for k in self._columns}
        out._nrows = self._nrows
        if self._index is not None:
            if isinstance(self._index, MultiIndex):
                out._index = MultiIndex([_copy_col(x) for x in self._index.levels], names=self._index.names)
            elif isinstance(self._index.values, list):
                out._index = Index(list(self._index.values), name=self._index.name, allow_list=True)
            else:
                out._index = Index(_copy_col(self._index.values), name=self._index.name)
        return out

    def drop(self, keys, axis=0, inplace=False):
        """Rows (axis 0: their labels must be ints) or columns (axis 1) removed."""
        if isinstance(keys, (str, builtins.int, np.integer)):
            keys = [keys]
        if axis not in (0, 1, "index", "columns"):
            raise ValueError(f"No axis named {axis} for object type DataFrame")
        obj = self if inplace else self.copy()
        if axis in (0, "index"):
            obj._drop_rows(list(keys))
        else:
            for k in keys:
                del obj[k]
        obj.update_nrows()
        return None if inplace else obj

    def _drop_rows(self, keys):
        for k in keys:
            if not _is_int(k):
                raise TypeError("Index keys must be integers.")
        drop = in1d(self._index.values, array(np.asarray(keys, dtype=np.int64)))
        keep = (~drop)._materialize()

        idx = arange(self._nrows)[keep]
        for k in self._columns:
            self.data[k] = self.data[k][idx]
        self._index = self._index[idx]
        self.update_nrows()

        self._set_index(_ar(self._nrows))

    def drop_duplicates(self, subset=None, keep="first"):
        """The rows left when the rows equal over ``subset`` (every column when None) are
        reduced to their first (``keep="first"``) or last (``"last"``) one, or all dropped
        (``keep=False``), in row order, as pandas."""

        if self.empty:
            return self
        if keep not in ("first", "last", False):
            raise ValueError('keep must be either "first", "last" or False')
        subset = list(self._columns) if not subset else ([subset] if isinstance(subset, str) else list(subset))
        for c in subset:
            if c not in self.data:
                raise KeyError(f"{c} is not a column in the DataFrame.")
        if self._nrows == 0:
            return self[arange(0)]
        g = GroupBy(self.data[subset[0]] if len(subset) == 1 else [self.data[c] for c in subset], dropna=False)
        if keep == "first":
            rows = g.permutation[g.segments]
        else:
            ends = concatenate([g.segments[1:], array([g.length])]) - 1
            rows = g.permutation[ends]
            if keep is False:
                sizes = concatenate([g.segments[1:], array([g.length])]) - g.segments
                rows = rows[sizes == 1]
        # pandas keeps the rows in their order (the groups come in key order).
        return self[_sorting.sort(rows)]

    def reset_index(self, size=None, inplace=False):
        """Row labels 0..n-1."""

        obj = self if inplace else self._shallow()
        obj.update_nrows()
        obj._set_index(arange(obj._nrows if not size else size))
        return None if inplace else obj

    def rename(self, mapper=None, index=None, column=None, axis=0, inplace=False, columns=None):
        """Columns (``column`` as Arkouda names it, ``columns`` as pandas does, or ``mapper``
        with axis 1) or index labels renamed by a dict or a function."""
        if columns is not None:
            if column is not None:
                raise TypeError("rename: give column (Arkouda's name) or columns (pandas'), not both")
            column = columns
        if column is not None and index is not None:
            raise RuntimeError("Only column or index can be renamed, cannot rename both at once")
        if isinstance(axis, str):
            axis = {"column": 1, "columns": 1, "1": 1, "index": 0, "0": 0}.get(axis)
            if axis is None:
                raise ValueError("Unknown axis value. Expecting 0, 1, 'column' or 'index'.")
        if column is not None:
            return self._rename_column(column, inplace)
        if mapper is not None and axis == 1:
            return self._rename_column(mapper, inplace)
        if index is not None:
            return self._rename_index(index, inplace)
        if mapper is not None and axis == 0:
            return self._rename_index(mapper, inplace)
        raise RuntimeError("Rename expects index or columns to be specified.")

    def _rename_column(self, mapper, inplace):
        obj = self if inplace else self._shallow()
        if not callable(mapper) and not isinstance(mapper, dict):
            raise TypeError("Argument must be callable or dict-like")
        cols, data = [], {}
        for c in obj._columns:
            n = mapper(c) if callable(mapper) else mapper.get(c, c)
            cols.append(n)
            data[n] = obj.data[c]
        obj._columns, obj.data = cols, data
        return None if inplace else obj

    def _rename_index(self, mapper, inplace):
        obj = self if inplace else self.copy()
        vals = obj._index.values
        if isinstance(mapper, dict):
            for k, v in mapper.items():
                if type(k) is not type(v):
                    raise TypeError("Replacement value must have the same type as the original value")
                vals = where(vals == k, v, vals)._materialize() if isinstance(vals, pdarray) else vals
        elif callable(mapper):
            vals = array(np.array([mapper(x) for x in vals.tolist()]))
        else:
            raise TypeError("Argument must be callable or dict-like")
        obj._index = Index(vals, name=obj._index.name)
        return None if inplace else obj

    def append(self, other, ordered=True):
        """The rows of ``other`` added after these (in place; same columns)."""

        if other.empty:
            return self
        if self.empty:
            o = other.copy()
            self._columns, self.data, self._nrows, self._index = o._columns, o.data, o._nrows, o._index
            return self
        if set(self._columns) != set(other._columns):
            raise KeyError("Key mismatch; keys must be identical in both DataFrames.")
        data = {}
        for k in self._columns:
            try:
                data[k] = generic_concat([self.data[k], other.data[k]], ordered=ordered)
            except TypeError as e:
                raise TypeError(
                    f"Incompatible types for column {k}: {type(self.data[k])} vs {type(other.data[k])}"
                ) from e
        self.data = data
        self.update_nrows()
        self.reset_index(inplace=True)
        return self

    @classmethod
    def concat(cls, items, ordered=True):
        """The rows of the DataFrames of ``items`` one after the other (same columns)."""

        items = [d for d in items if not d.empty]
        if not items:
            return cls()
        cols = items[0]._columns
        for d in items[1:]:
            if set(d._columns) != set(cols):
                raise KeyError("Cannot concatenate DataFrames with mismatched columns")
        out = cls()
        for c in cols:
            try:
                out[c] = generic_concat([d.data[c] for d in items], ordered=ordered)
            except TypeError:
                raise TypeError(f"Incompatible types for column {c}") from None
        return out

    def assign(self, **kwargs):
        """A copy with the columns of ``kwargs`` (values, or functions of the frame) added."""
        data = self._shallow()
        for k, v in kwargs.items():
            data[k] = apply_if_callable(v, data)
        return data

    def apply_permutation(self, perm):
        """Reorders the rows by ``perm`` (in place)."""

        if perm.size != self._nrows or builtins.int(perm.min()) != 0 or builtins.int(perm.max()) != perm.size - 1:
            raise ValueError("The indicated permutation is invalid.")
        if unique(perm).size != perm.size:
            raise ValueError("The indicated permutation is invalid.")
        for k in self._columns:
            self.data[k] = self.data[k][perm]
        self._index = self._index._reindex(perm)

    # ----- sorting -----------------------------------------------------------------------
    def argsort(self, key, ascending=True, na_position="last"):
        """The permutation that sorts the rows by column ``key``, stably in either direction
        (equal values keep their row order, NaN at ``na_position``), as pandas'
        ``sort_values(kind="stable")``."""

        if self.empty:
            return array(np.zeros(0, dtype=np.int64))
        if key not in self.data:
            raise KeyError(key)
        return _sorting.lexsort_perm([self.data[key]], ascending, na_position)

    def coargsort(self, keys, ascending=True, na_position="last"):
        """The permutation that sorts the rows by the columns ``keys`` (the first most
        significant), each ascending or descending (``ascending``: a bool, or one per key),
        stably, NaN at ``na_position``."""

        if self.empty:
            return array(np.zeros(0, dtype=np.int64))
        for k in keys:
            if k not in self.data:
                raise KeyError(k)
        return _sorting.lexsort_perm([self.data[k] for k in keys], ascending, na_position)

    @tracked("DataFrame.sort_values", rows=lambda self, *a, **k: len(self))
    def sort_values(self, by=None, ascending=True, na_position="last", kind="stable", ignore_index=False):
        """The rows sorted by ``by`` (a column name or a list; every column when None) as
        pandas' ``sort_values(kind="stable")``: ``ascending`` a bool or one per key (ValueError
        when the lengths differ), equal keys in row order, NaN at ``na_position``; every
        ``kind`` is this stable sort. ``ignore_index``: labels 0..n-1."""

        if self.empty:
            return array(np.zeros(0, dtype=np.int64))
        if by is None:
            keys = list(self._columns)
        elif isinstance(by, str):
            keys = [by]
        elif isinstance(by, (list, tuple)):
            keys = list(by)
        else:
            raise TypeError("Column name(s) must be str or list/tuple of str")
        if isinstance(ascending, (list, tuple)) and len(ascending) != len(keys):
            raise ValueError(f"Length of ascending ({len(ascending)}) != length of by ({len(keys)})")
        out = self[self.coargsort(keys, ascending, na_position)]
        if ignore_index:
            out._set_index(arange(out._nrows))
        return out

    def sort_index(self, ascending=True):
        """The rows in the order of their labels."""
        p = self._index.argsort(ascending=ascending)
        return self._rows(p)

    def _reindex(self, idx):
        return self._rows(idx)

    # ----- grouping ----------------------------------------------------------------------
    def _build_groupby(self, keys, use_series=False, as_index=True, dropna=True, sort=True, observed=True):
        self.update_nrows()
        for k in [keys] if isinstance(keys, str) else keys if isinstance(keys, (list, tuple)) else []:
            if k not in self.data:
                raise _no_column(k, self._columns)
        if isinstance(keys, str):
            cols = self.data[keys]
        elif not isinstance(keys, (list, tuple)):
            raise TypeError("keys must be a column name or a list/tuple of column names")
        elif len(keys) == 1:
            cols = self.data[keys[0]]
        else:
            cols = [self.data[c] for c in keys]
        if not observed and builtins.any(
            isinstance(c, Categorical) for c in (cols if isinstance(cols, list) else [cols])
        ):
            raise NotImplementedError("groupby(observed=False): groups of the categories no row holds are not made")
        gb = GroupBy(cols, dropna=dropna)
        if use_series:
            return DataFrameGroupBy(gb, self, gb_key_names=keys, as_index=as_index, sort=sort)
        return gb

    def groupby(self, keys=None, use_series=True, as_index=True, dropna=True, sort=True, observed=True, by=None):
        """A DataFrameGroupBy of the rows by the columns ``keys`` (or ``by``, pandas' name; a
        GroupBy when not ``use_series``), with pandas' keywords: ``as_index`` (the keys as
        the result's index, else as its first columns), ``dropna`` (rows of a NaN key left
        out, else NaN is a key), ``sort`` (groups in key order; ``sort=False``: in the order
        of their first row, as pandas), ``observed`` (True, pandas' default: a Categorical
        key makes groups of the categories some row holds; False is refused for Categorical
        keys with NotImplementedError)."""
        if keys is None:
            if by is None:
                raise TypeError("You have to supply one of 'by' and 'level'")
            keys = by
        return self._build_groupby(keys, use_series, as_index=as_index, dropna=dropna, sort=sort, observed=observed)

    def filter_by_range(self, keys, low=1, high=None):
        """A bool pdarray: whether each row's group (by ``keys``) has between ``low`` and
        ``high`` rows."""

        if isinstance(keys, str):
            keys = [keys]
        gb = self._build_groupby(keys, use_series=False)
        _, cts = gb.size()
        ok = (cts >= low) if not high else ((cts >= low) & (cts <= high))
        return gb.broadcast(ok._materialize(), permute=True)

    # ----- predicates --------------------------------------------------------------------
    def isin(self, values):
        """A bool DataFrame: whether each element is in ``values`` (a pdarray for every
        column, a dict of column -> values, or a Series/DataFrame compared by label)."""

        if isinstance(values, (list, tuple, np.ndarray)):
            values = _to_array(values)  # as ak.array infers (Python ints: int64, uint64 or bigint)
        if isinstance(values, (pdarray, Strings)) or is_bigint(values):
            out = {}
            for c in self._columns:
                col = self.data[c]
                same = isinstance(col, Strings) if isinstance(values, Strings) else not isinstance(col, Strings)
                out[c] = in1d(col, values) if same and _is_plain(col) else zeros(self._nrows, bool_)
            return DataFrame(out, index=self._index)
        if isinstance(values, dict):
            out = {}
            for c in self._columns:
                v = values.get(c)
                if v is not None and not _is_atoll_array(v):
                    v = _to_array(list(v))
                out[c] = in1d(self.data[c], v) if v is not None else zeros(self._nrows, bool_)
            return DataFrame(out, index=self._index)
        if isinstance(values, (DataFrame, Series)):
            pos = find(values.index.values, self._index.values)
            hit = (pos >= 0)._materialize()

            safe = where(hit, pos, 0)._materialize()
            out = {}
            for c in self._columns:
                if isinstance(values, DataFrame):
                    if c not in values.columns.values:
                        out[c] = zeros(self._nrows, bool_)
                        continue
                    other = values.data[c]
                else:
                    other = values.values
                mine = self.data[c]
                if hasattr(other, "_is_bigint") or hasattr(mine, "_is_bigint"):
                    eq = mine == other[safe]
                elif isinstance(mine, pdarray) and isinstance(other, pdarray):
                    eq = mine == other[safe]
                else:
                    eq = mine == other[safe]
                out[c] = (hit & eq)._materialize() if values.size else zeros(self._nrows, bool_)
            return DataFrame(out, index=self._index)
        raise ValueError("Cannot compute isin with duplicate axis.")

    def isna(self):
        """A bool DataFrame: True where a value is NaN (only float columns hold NaN)."""

        out = {}
        for c in self._columns:
            col = self.data[c]
            out[c] = (
                isnan(col)._materialize()
                if isinstance(col, pdarray) and col.dtype == float64
                else zeros(self._nrows, bool_)
            )
        return DataFrame(out, index=self._index)

    def notna(self):
        d = self.isna()
        return DataFrame({c: (~d.data[c])._materialize() for c in d._columns}, index=self._index)

    def any(self, axis=0):
        """Whether some value is True, over the bool columns: per column (axis 0), per row
        (axis 1), or over all (axis None)."""

        bools = [c for c in self._columns if isinstance(self.data[c], pdarray) and self.data[c].dtype == bool_]
        if axis is None:
            return builtins.any(builtins.bool(self.data[c].any()) for c in bools)
        if axis in (0, "index"):
            return Series(
                _to_array(np.array([builtins.bool(self.data[c].any()) for c in bools], dtype=bool)),
                index=Index(_to_array(np.array(bools, dtype=str))),
            )
        if axis in (1, "columns"):
            r = zeros(self._nrows, bool_)
            for c in bools:
                r = r | self.data[c]
            return Series(r._materialize(), index=self._index)
        raise ValueError("axis must have value 0, 1, 'index', 'columns', or None.")

    def all(self, axis=0):
        """Whether every value is True, over the bool columns (see ``any``)."""

        bools = [c for c in self._columns if isinstance(self.data[c], pdarray) and self.data[c].dtype == bool_]
        if axis is None:
            return builtins.all(builtins.bool(self.data[c].all()) for c in bools)
        if axis in (0, "index"):
            return Series(
                _to_array(np.array([builtins.bool(self.data[c].all()) for c in bools], dtype=bool)),
                index=Index(_to_array(np.array(bools, dtype=str))),
            )
        if axis in (1, "columns"):
            r = ones(self._nrows, bool_)
            for c in bools:
                r = r & self.data[c]
            return Series(r._materialize(), index=self._index)
        raise ValueError("axis must have value 0, 1, 'index', 'columns', or None.")

    def count(self, axis=0, numeric_only=False):
        """The number of non-NaN values per column (axis 0) or per row (axis 1)."""

        def ok(c):
            col = self.data[c]
            if _is_numeric(col) or (isinstance(col, pdarray) and col.dtype == bool_):
                return True
            return not numeric_only

        if axis in (0, "index"):
            names, counts = [], []
            for c in self._columns:
                if not ok(c):
                    continue
                col = self.data[c]
                names.append(c)
                counts.append(
                    builtins.int((~isnan(col)).sum()) if isinstance(col, pdarray) and col.dtype == float64 else len(col)
                )
            return Series(
                _to_array(np.array(counts, dtype=np.int64)), index=Index(_to_array(np.array(names, dtype=str)))
            )
        if axis in (1, "columns"):
            r = zeros(self._nrows, int64)
            for c in self._columns:
                if not ok(c):
                    continue
                col = self.data[c]
                r = r + ((~isnan(col)).astype(int64) if isinstance(col, pdarray) and col.dtype == float64 else 1)
            return Series(
                r._materialize() if isinstance(r, pdarray) else full(self._nrows, r, int64), index=self._index
            )
        raise ValueError(f"No axis named {axis} for object type DataFrame")

    def dropna(self, axis=0, how=None, thresh=None, ignore_index=False, subset=None):
        """Rows (axis 0) or columns (axis 1) with NaN removed: any NaN (``how='any'``), only
        all-NaN (``how='all'``), or fewer than ``thresh`` non-NaN values; for rows, ``subset``
        (a column name or a list) names the columns looked at (KeyError for one not there)."""

        if how is not None and thresh is not None:
            raise TypeError("You cannot set both the how and thresh arguments at the same time.")
        how = how or "any"
        if axis in (0, "index"):
            if self.empty:
                return self.copy()
            if subset is not None:
                subset = [subset] if isinstance(subset, str) else list(subset)
                missing = [c for c in subset if c not in self._columns]
                if missing:
                    raise KeyError(missing)
                nn = self[subset].count(axis=1).values
                ncols = len(subset)
            else:
                nn = self.count(axis=1).values
                ncols = len(self._columns)
            if thresh is not None:
                keep = nn >= thresh
            elif how == "all":
                keep = nn > 0
            else:
                keep = nn == ncols
            out = self[keep._materialize()]
            if ignore_index:
                out = out.reset_index()
            return out
        if axis in (1, "columns"):
            cols = []
            for c in self._columns:
                col = self.data[c]
                nan = builtins.int(isnan(col).sum()) if isinstance(col, pdarray) and col.dtype == float64 else 0
                good = self._nrows - nan
                if thresh is not None:
                    if good >= thresh:
                        cols.append(c)
                elif how == "all":
                    if good > 0 or self._nrows == 0:
                        cols.append(c)
                elif nan == 0:
                    cols.append(c)
            out = self[cols] if cols else DataFrame(index=self._index)
            if not cols:
                out._index = self._index
            return out
        raise ValueError(f"No axis named {axis} for object type DataFrame")

    def corr(self):
        """The Pearson correlation of every pair of numeric and bool columns (bool as 0/1), over
        the rows where both are not NaN, as pandas' ``corr()`` (NaN for fewer than two such
        rows or a constant column)."""
        cols = [c for c in self._columns if isinstance(self.data[c], pdarray) and self.data[c].dtype.kind in "iufb"]
        n = len(cols)
        x = [self.data[c].astype(float64)._materialize() for c in cols]
        ok = [None if self.data[c].dtype.kind != "f" else (~isnan(v))._materialize() for c, v in zip(cols, x)]
        out = np.empty((n, n))
        for i in range(n):
            for j in range(i, n):
                a, b = x[i], x[j]
                both = ok[i] if ok[j] is None else (ok[j] if ok[i] is None else (ok[i] & ok[j])._materialize())
                if both is not None:
                    a, b = a[both], b[both]
                if a.size < 2:
                    out[i, j] = out[j, i] = np.nan
                    continue
                a = a - builtins.float(a.mean())
                b = b - builtins.float(b.mean())
                num = builtins.float((a * b).sum())
                den = np.sqrt(builtins.float((a * a).sum()) * builtins.float((b * b).sum()))
                out[i, j] = out[j, i] = num / den if den else np.nan
        return DataFrame(
            {c: _to_array(out[:, i]) for i, c in enumerate(cols)}, index=Index(_to_array(np.array(cols, dtype=str)))
        )

    # ----- IO ----------------------------------------------------------------------------
    def _prep_data(self, index=False, columns=None):
        cols = list(self._columns) if columns is None else list(columns)
        data = {c: self.data[c] for c in cols}
        if index:
            data["Index"] = self._index.values
        return data


def _take_columns(data, names, idx, n):
    """``{name: data[name][idx]}`` for the int pdarray ``idx`` of positions in ``n`` rows
    (negative ones from the end): the positions are checked and wrapped once for every
    column, and number columns gathered without checking them again."""
    if idx.dtype not in (int64, uint64, uint8):
        raise TypeError(f"key: unsupported pdarray index dtype {idx.dtype.name}")
    idx = idx if idx.dtype == int64 else idx.astype(int64)
    if idx.size:
        lo, hi = builtins.int(idx.min()), builtins.int(idx.max())
        if lo < -n or hi >= n:
            raise IndexError(f"index {lo if lo < -n else hi} is out of bounds for axis 0 with size {n}")
        if lo < 0:
            idx = where(idx < 0, idx + n, idx)
    idx = idx._materialize()
    out = {}
    # Whole-array columns of one stored length are gathered together: the positions are
    # routed to their owners once for all of them.
    together = {}
    for k in names:
        col = data[k]
        if isinstance(col, pdarray) and not is_bigint(col):
            col._materialize()
            if col._start == 0 and col._step == 1:
                together.setdefault(col._arr.size, []).append(k)
                out[k] = None
                continue
            pos = idx * col._step + col._start
            out[k] = pdarray(_atoll.gather(col._arr, pos._ex(), pos.size))
            if is_time(col):  # a Datetime/Timedelta column keeps its class
                out[k] = type(col)._from_ns(out[k])
        else:
            out[k] = col[idx]
    for ks in together.values():
        got = _atoll.gather_many([data[k]._arr for k in ks], idx._ex(), idx.size)
        for k, a in zip(ks, got):
            out[k] = type(data[k])._from_ns(pdarray(a)) if is_time(data[k]) else pdarray(a)
    return out


def _nbytes(c):
    if hasattr(c, "nbytes"):
        try:
            return builtins.int(c.nbytes)
        except Exception:
            pass

    if isinstance(c, Categorical):
        return c.codes.nbytes
    return 0


def _scalar_of(col, k):
    if isinstance(col, SegArray):
        return col[k]
    return col[k]


def _big_or_int(col):
    """A pandas column of Python ints as ``ak.array`` infers it: int64, uint64 when a value
    needs it, bigint beyond 64 bits."""
    return array(col.tolist())


# The value dtypes each aggregation of a DataFrameGroupBy takes; columns of other kinds
# (Strings, Categorical, SegArray, float64 for the bitwise ones) are left out of the result,
# as Arkouda leaves out its non-numeric columns.
_BITWISE = frozenset(["or", "and", "xor"])
_BIGINT_EXTRA = frozenset(["nunique", "mode", "unique"])


def _aggregates(col, opname):
    """Whether the DataFrameGroupBy aggregation ``opname`` takes the column ``col``."""
    if is_bigint(col):
        return opname in BIGINT_OPS or opname in _BIGINT_EXTRA
    if not isinstance(col, pdarray):
        return False
    if opname in _BITWISE:
        return col.dtype in (int64, uint64, uint8, bool_)
    return col.dtype in (int64, uint64, uint8, float64, bool_)


class DataFrameGroupBy:
    """A DataFrame grouped by some of its columns (Arkouda's ``DataFrameGroupBy``). Its
    aggregations take the int64, uint64, uint8, float64, bool and bigint columns (not the
    grouping keys). ``gb[col]`` (a SeriesGroupBy) and ``gb[[cols]]`` select the aggregated
    columns, as pandas. Results are indexed by the keys (``as_index``; a MultiIndex for
    several keys), else the keys are their first columns; ``sort=False`` puts the groups in
    the order of their first row."""

    def __init__(self, gb, df, gb_key_names=None, as_index=True, sort=True, selection=None):
        self.gb = gb
        self.df = df
        self.gb_key_names = gb_key_names
        self.as_index = as_index
        self.sort = sort
        self.dropna = gb.dropna
        self._selection = selection
        self._order_cache = None

    def __getitem__(self, key):
        if isinstance(key, str):
            if key not in self.df._columns:
                raise KeyError(f"Column not found: {key}")
            return SeriesGroupBy(self, key)
        if isinstance(key, (list, tuple)):
            missing = [c for c in key if c not in self.df._columns]
            if missing:
                raise KeyError(f"Columns not found: {missing}")
            return DataFrameGroupBy(self.gb, self.df, self.gb_key_names, self.as_index, self.sort, list(key))
        raise TypeError(f"column selection: expected a column name or a list of them, got {type(key).__name__}")

    def _value_names(self):
        """The columns the aggregations look at: the selection, else every column but the keys."""
        keys = self._key_list()
        names = self._selection if self._selection is not None else self.df._columns
        return [c for c in names if c not in keys]

    def _order(self):
        """None (groups in key order), or with ``sort=False`` the permutation of the groups
        that puts them in the order of their first row."""
        if self.sort:
            return None
        if self._order_cache is None:
            if getattr(self.gb, "_dense", None) is None:
                # Sorted stably: a group's first row in the grouping is its first row.
                first = self.gb._uki
            else:
                _, first = self.gb.min(arange(self.df._nrows))
            n, ng = self.df._nrows, first.size
            if ng > n // 16:
                # Many groups: the first rows are distinct row numbers, so a scatter of the
                # group numbers over the rows and a compress order them without a sort.
                pos = full(n, -1, int64)
                pos[first] = arange(ng)
                self._order_cache = pos[(pos >= 0)._materialize()]
            else:
                self._order_cache = argsort(first)
        return self._order_cache

    def _key_levels(self):
        """The distinct keys, one array a key, in the result's group order."""
        uk = self.gb.unique_keys
        levels = list(uk) if len(self._key_list()) > 1 else [uk]
        order = self._order()
        return levels if order is None else [k[order] for k in levels]

    def _ordered(self, v):
        order = self._order()
        return v if order is None else v[order]

    def _keys_index(self):
        keys = self._key_list()
        levels = self._key_levels()
        return Index(levels[0], name=keys[0]) if len(keys) == 1 else MultiIndex(levels, names=keys)

    def _finish(self, res, keys_as_columns=False):
        """The DataFrame of the per-group columns ``res`` (in key order), as ``as_index`` and
        ``sort`` say (``keys_as_columns``: the keys as columns for several keys whatever
        ``as_index`` says, as Arkouda's ``gb.sum()``... give them; pandas' way, a MultiIndex,
        when columns were selected as pandas selects them, ``gb[[cols]].sum()``)."""
        res = {c: self._ordered(v) for c, v in res.items()}
        if self.as_index and not (keys_as_columns and len(self._key_list()) > 1):
            return DataFrame(res, index=self._keys_index())
        out = dict(zip(self._key_list(), self._key_levels()))
        out.update(res)
        return DataFrame(out)

    def _finish_series(self, values, name):
        """One value per group: a Series indexed by the keys (``as_index``), else a DataFrame
        of the keys and the column ``name``."""
        if self.as_index:
            return Series(self._ordered(values), index=self._keys_index(), name=name)
        return self._finish({name: values})

    def _one(self, col, op):
        """``op`` of column ``col`` per group (``"size"``: the rows of each group)."""
        if op == "size":
            return self.gb.size()[1]
        if not isinstance(op, str):
            raise TypeError(f"agg: column {col!r}: expected an operation name, got {type(op).__name__}")
        return self.gb.aggregate(self.df.data[col], op)[1]

    @property
    def nkeys(self):
        return self.gb.nkeys

    @property
    def permutation(self):
        return self.gb.permutation

    @property
    def unique_keys(self):
        return self.gb.unique_keys

    @property
    def segments(self):
        return self.gb.segments

    def _key_list(self):
        return [self.gb_key_names] if isinstance(self.gb_key_names, str) else list(self.gb_key_names)

    def _index(self):
        keys = self._key_list()
        if len(keys) == 1:
            uk = self.gb.unique_keys
            return Index(uk, name=keys[0])
        return MultiIndex(list(self.gb.unique_keys), names=keys)

    @tracked(lambda self, opname, *a, **k: f"groupby.{opname}", rows=lambda self, *a, **k: len(self.df))
    def _aggregate(self, opname, colnames=None):
        if colnames is None:
            colnames = self._value_names()
        elif isinstance(colnames, str):
            colnames = [colnames]
        keys = self._key_list()
        cols = [c for c in colnames if c not in keys and _aggregates(self.df.data[c], opname)]
        return self._finish(
            {c: self.gb.aggregate(self.df.data[c], opname)[1] for c in cols}, keys_as_columns=self._selection is None
        )

    def agg(self, func=None, **named):
        """pandas' ``agg`` on one grouping of the rows: ``func`` an operation name (as the
        method of that name), a list of them (for every aggregated column), a dict of column
        name -> operation name or list of names (each one of ``GroupBy.Reductions``, or
        "size": the rows of each group), or named aggregations ``name=(column, operation)``.
        Every column is aggregated over the same GroupBy. A column keeps its name, but when
        some column is given a list: then each result column is named
        ``"<column>_<operation>"`` (pandas makes a two-level column index, which Atoll's
        DataFrame has not). The result is indexed by the keys (``as_index``), else the keys
        are its first columns."""
        if func is None:
            if not named:
                raise TypeError("Must provide 'func' or tuples of '(column, aggfunc).")
            res = {}
            for name, spec in named.items():
                if not (isinstance(spec, tuple) and len(spec) == 2):
                    raise TypeError(f"agg: {name}=: expected a (column, operation) pair, got {spec!r}")
                col, op = spec
                if col not in self.df._columns:
                    raise KeyError(f"Column(s) ['{col}'] do not exist")
                res[name] = self._one(col, op)
            return self._finish(res)
        if isinstance(func, str):
            if func == "size":
                return self.size()
            return self._aggregate(func)
        if isinstance(func, (list, tuple)):
            func = {c: list(func) for c in self._value_names() if _aggregates(self.df.data[c], "sum")}
        if not isinstance(func, dict):
            raise TypeError(
                f"agg: expected an operation name, a list of them or a dict of column -> operation, "
                f"got {type(func).__name__}"
            )
        missing = [c for c in func if c not in self.df._columns]
        if missing:
            raise KeyError(f"Column(s) {missing} do not exist")
        two_level = builtins.any(isinstance(op, (list, tuple)) for op in func.values())
        res = {}
        for col, op in func.items():
            for o in op if isinstance(op, (list, tuple)) else [op]:
                res[f"{col}_{o}" if two_level else col] = self._one(col, o)
        return self._finish(res)

    aggregate = agg

    def sum(self, colnames=None):
        return self._aggregate("sum", colnames)

    def count(self, colnames=None):
        return self._aggregate("count", colnames)

    def prod(self, colnames=None):
        return self._aggregate("prod", colnames)

    def var(self, colnames=None):
        return self._aggregate("var", colnames)

    def std(self, colnames=None):
        return self._aggregate("std", colnames)

    def mean(self, colnames=None):
        return self._aggregate("mean", colnames)

    def median(self, colnames=None):
        return self._aggregate("median", colnames)

    def min(self, colnames=None):
        return self._aggregate("min", colnames)

    def max(self, colnames=None):
        return self._aggregate("max", colnames)

    def argmin(self, colnames=None):
        return self._aggregate("argmin", colnames)

    def argmax(self, colnames=None):
        return self._aggregate("argmax", colnames)

    def nunique(self, colnames=None):
        return self._aggregate("nunique", colnames)

    def any(self, colnames=None):
        return self._aggregate("any", colnames)

    def all(self, colnames=None):
        return self._aggregate("all", colnames)

    def or_(self, colnames=None):
        return self._aggregate("or", colnames)

    def and_(self, colnames=None):
        return self._aggregate("and", colnames)

    def xor(self, colnames=None):
        return self._aggregate("xor", colnames)

    def first(self, colnames=None):
        return self._aggregate("first", colnames)

    def mode(self, colnames=None):
        return self._aggregate("mode", colnames)

    def unique(self, colnames=None):
        return self._aggregate("unique", colnames)

    def size(self, as_series=None, sort_index=True):
        """The number of rows of each group: a Series (as_index) or a DataFrame with a
        "size" column."""

        _, counts = self.gb.size()
        keys = self._key_list()
        sort_index = sort_index and self.sort
        if as_series is True or (as_series is None and self.as_index is True):
            s = Series(self._ordered(counts), index=self._keys_index())
            return s.sort_index() if sort_index else s
        if len(keys) == 1 and self.as_index:
            df = DataFrame({"size": self._ordered(counts)}, index=self._keys_index())
            return df.sort_index() if sort_index else df
        out = dict(zip(keys, self._key_levels()))
        out["size"] = self._ordered(counts)
        return DataFrame(out)

    def head(self, n=5, sort_index=True):
        _, idx = self.gb.head(None, n=n, return_indices=True)
        return self.df[sort(idx) if sort_index else idx]

    def tail(self, n=5, sort_index=True):
        _, idx = self.gb.tail(None, n=n, return_indices=True)
        return self.df[sort(idx) if sort_index else idx]

    def sample(self, n=None, frac=None, replace=False, weights=None, random_state=None):
        idx = self.gb.sample(
            arange(self.df._nrows),
            n=n,
            frac=frac,
            replace=replace,
            weights=weights,
            random_state=random_state,
            return_indices=True,
            permute_samples=True,
        )
        return self.df[idx]

    def broadcast(self, x, permute=True):
        data = self.gb.broadcast(x.values if isinstance(x, Series) else x, permute=permute)
        return Series(data=data, index=self.df.index)

    def diff(self, colname):
        return DiffAggregate(self.gb, self.df.data[colname])

    def corr(self):
        """The Pearson correlation of every pair of the selected numeric columns within each
        group, in pandas' long form: one row a (group, column), indexed by a MultiIndex of the
        keys and the column's name, one column a column (``GroupBy.corr``: vectorized, no loop
        over the groups)."""
        cols = [
            c
            for c in self._value_names()
            if isinstance(self.df.data[c], pdarray) and self.df.data[c].dtype.kind in "iufb"
        ]
        c = len(cols)
        ng = self.gb.ngroups
        pair = {}
        for i in range(c):
            for j in range(i, c):
                r = self._ordered(self.gb.corr(self.df.data[cols[i]], self.df.data[cols[j]])[1])
                pair[i, j] = pair[j, i] = r
        rows = arange(ng * c)
        g, ci = (rows // c)._materialize(), (rows % c)._materialize()
        res = {}
        for j, name in enumerate(cols):
            v = zeros(ng * c, float64)
            for i in range(c):
                v[(arange(ng) * c + i)._materialize()] = pair[i, j]
            res[name] = v
        levels = [k[g] for k in self._key_levels()] + [_to_array(np.array(cols, dtype=str))[ci]]
        return DataFrame(res, index=MultiIndex(levels, names=self._key_list() + [None]))

    def apply(self, func, *args, include_groups=False, **kwargs):
        """``func`` of each group's rows (a DataFrame of the selected columns, the keys left
        out, as pandas' ``include_groups=False``; its labels kept), one call a group: a loop
        in Python, slow beyond a few thousand groups (prefer the aggregations, or
        ``gb[col].corr(other)``). ``func`` returns a scalar (NotImplementedError otherwise);
        the result is a Series indexed by the keys (``as_index``), else a DataFrame of the
        keys and a column named None."""
        if include_groups:
            raise NotImplementedError("apply(include_groups=True): the groups' frames leave the keys out")
        sub = self.df[self._value_names()]
        perm = self.gb.permutation.to_ndarray()
        segs = self.gb.segments.to_ndarray()
        ends = np.append(segs[1:], perm.size)
        out = []
        for s, e in zip(segs, ends):
            r = func(sub._rows(_to_array(perm[s:e])), *args, **kwargs)
            if not np.isscalar(r):
                raise NotImplementedError(f"apply: func returned a {type(r).__name__}; only scalar results are taken")
            out.append(r)
        return self._finish_series(_to_array(np.array(out)), None)


setattr(DataFrameGroupBy, "or", DataFrameGroupBy.or_)
setattr(DataFrameGroupBy, "and", DataFrameGroupBy.and_)


class SeriesGroupBy:
    """One column of a DataFrameGroupBy (``gb[col]``), as pandas' ``SeriesGroupBy``: its
    aggregations give a Series indexed by the keys (``as_index``), else a DataFrame of the
    keys and the column."""

    def __init__(self, parent, name):
        self._parent = parent
        self.name = name
        self.values = parent.df.data[name]

    def _agg1(self, op):
        return self._parent._finish_series(self._parent._one(self.name, op), self.name)

    def agg(self, func):
        """An operation name (a Series, or a DataFrame when not ``as_index``), or a list of
        them (a DataFrame, one column an operation, named by it)."""
        if func == "size":
            return self.size()
        if isinstance(func, str):
            return self._agg1(func)
        if isinstance(func, (list, tuple)):
            return self._parent._finish({op: self._parent._one(self.name, op) for op in func})
        raise TypeError(f"agg: expected an operation name or a list of them, got {type(func).__name__}")

    aggregate = agg

    def size(self):
        if self._parent.as_index:
            return self._agg1("size")
        return self._parent._finish({"size": self._parent._one(self.name, "size")})

    def corr(self, other, method="pearson", min_periods=None):
        """The Pearson correlation of the column and ``other`` (a pdarray or Series, one value
        a row) within each group (``GroupBy.corr``: vectorized), as pandas'
        ``gb[col].corr(other)`` of a Series aligned by row."""
        if method != "pearson":
            raise NotImplementedError(f"corr: method {method!r}: only 'pearson' is offered")
        if min_periods is not None:
            raise NotImplementedError("corr: min_periods is not offered (pandas' default: at least 2 rows)")
        other = other.values if isinstance(other, Series) else other
        return self._parent._finish_series(self._parent.gb.corr(self.values, other)[1], self.name)

    def _top(self, n, largest):
        """The ``n`` largest (smallest) values of each group, NaN after the numbers, the first
        row of equal values first: a Series indexed by the keys and the rows' labels (only the
        labels when not ``as_index``), groups in key order."""
        p = self._parent
        v = self.values
        if not isinstance(v, pdarray) or v.dtype.kind not in "iufb":
            raise TypeError(f"nlargest/nsmallest: column {self.name!r} is not numeric")
        gid = p.gb._group_ids()
        rows = arange(v.size)[(gid >= 0)._materialize()]
        g, vv = gid[rows], v[rows]
        perm = _sorting.lexsort_perm([g, vv], [True, not largest], na_position="last")
        rows, g = rows[perm], g[perm]
        idx = GroupBy(g, assume_sorted=True)._take_ranges(n, False)
        rows, g = rows[idx], g[idx]
        lab = p.df.index
        labels = list(lab.levels) if isinstance(lab, MultiIndex) else [lab.values]
        labels = [lv[rows] for lv in labels]
        if p.as_index:
            uk = p.gb.unique_keys
            keys = list(uk) if len(p._key_list()) > 1 else [uk]
            idx_ = MultiIndex([k[g] for k in keys] + labels, names=p._key_list() + [None] * len(labels))
        else:
            idx_ = Index(labels[0]) if len(labels) == 1 else MultiIndex(labels)
        return Series(v[rows], index=idx_, name=self.name)

    def nlargest(self, n=5, keep="first"):
        if keep != "first":
            raise NotImplementedError(f"nlargest: keep={keep!r}: only 'first' is offered")
        return self._top(n, True)

    def nsmallest(self, n=5, keep="first"):
        if keep != "first":
            raise NotImplementedError(f"nsmallest: keep={keep!r}: only 'first' is offered")
        return self._top(n, False)


def _series_agg(op):
    def fn(self):
        return self._agg1(op)

    fn.__name__ = op
    fn.__doc__ = f"``{op}`` of the column per group."
    return fn


for _op in ("sum", "count", "prod", "var", "std", "mean", "median", "min", "max", "nunique", "first"):
    setattr(SeriesGroupBy, _op, _series_agg(_op))


class DiffAggregate:
    """The differences between consecutive values within each group, for aggregation."""

    def __init__(self, gb, series):
        self.gb = gb
        values = full(series.size, np.nan, float64)
        sv = gb._sorted(series.astype(float64))
        if sv.size > 1:
            d = full(sv.size, np.nan, float64)
            d[1:] = sv[1:] - sv[:-1]

            d = where(gb._flags, np.nan, d)._materialize()
            values[gb.permutation] = d
        self.values = values

    def _agg(self, op):
        return self.gb.aggregate(self.values, op)

    def __getattr__(self, op):
        if op in (
            "sum",
            "count",
            "prod",
            "var",
            "std",
            "mean",
            "median",
            "min",
            "max",
            "argmin",
            "argmax",
            "nunique",
            "any",
            "all",
            "first",
            "mode",
            "unique",
            "xor",
            "or_",
            "and_",
        ):
            return lambda: self._agg(op.rstrip("_"))
        raise AttributeError(op)


def intersect(a, b, positions=True, unique=False):
    """The rows of ``a`` and ``b`` (arrays or lists of arrays) found in both: their positions
    (bool masks) when ``positions``, else the shared values."""

    ma, mb = in1d(a, b), in1d(b, a)
    if positions:
        return arange(ma.size)[ma], arange(mb.size)[mb]
    return a[ma] if not isinstance(a, (list, tuple)) else [x[ma] for x in a]


def invert_permutation(perm):
    """The inverse of the permutation ``perm``."""

    inv = zeros(perm.size, int64)
    inv[perm] = arange(perm.size)
    return inv


def intx(a, b):
    """A bool pdarray: whether each row of DataFrame ``a`` occurs in DataFrame ``b`` (same
    column names)."""

    if set(a._columns) != set(b._columns):
        raise ValueError("Column mismatch.")
    cols = list(a._columns)
    return (find([b.data[c] for c in cols], [a.data[c] for c in cols]) >= 0)._materialize()
