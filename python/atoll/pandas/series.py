"""Arkouda's ``Series`` (``arkouda.pandas.series``): values with an ``Index`` of labels.

The values are a pdarray, Strings, Categorical or SegArray. Arithmetic and comparisons between two Series align
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

from __future__ import annotations

import builtins
import operator
from collections.abc import Callable, Hashable, Iterable
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

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


def _is_int(x: object) -> bool:
    return isinstance(x, (builtins.int, np.integer)) and not isinstance(x, (builtins.bool, np.bool_))


def map_values(values: Any, arg: dict[Any, Any] | Series) -> Any:  # noqa: ANN401 (arrays of any kind)
    """``values`` mapped through ``arg``, as Arkouda's ``map``.

    Parameters
    ----------
    values : pdarray, Strings or Categorical
        The values to map.
    arg : dict or Series
        Key -> value (a Series' index holds the keys).

    Returns
    -------
    pdarray or Strings
        The mapped values: a value without a key becomes NaN (numbers) or "null" (strings).

    Raises
    ------
    TypeError
        ``arg`` is neither a dict nor a Series.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.pandas.series import map_values
    >>> map_values(ak.array([1, 2, 3]), {1: "a", 3: "c"}).tolist()
    ['a', 'null', 'c']
    """
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


def _kind(x: object) -> str | None:
    """The kind of a scalar or of an array's values.

    For Arkouda's checks that keys match the labels and values match the values: "s" (str),
    "b" (bool), "i" (integer), "f" (float), or None where no rule applies (a Categorical is
    "s").
    """
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
        kinds: dict[Any, str | None] = {"i": "i", "u": "i", "f": "f"}
        return kinds.get(k, "i" if str(x.dtype) == "bigint" else None)
    return None


class Series(Registrable):
    """A labelled 1-D array (Arkouda's ``ak.Series``).

    Parameters
    ----------
    data : array-like, Series, pandas.Series or tuple of (index, values)
        The values (a pdarray, Strings, Categorical or SegArray, or what becomes one).
    name : hashable, optional
        The Series' name.
    index : Index or array-like, optional
        The labels (default ``0..n-1``).

    Raises
    ------
    TypeError
        ``data`` is of another kind.
    ValueError
        The index and the values differ in size.

    Examples
    --------
    >>> import atoll as ak
    >>> s = ak.Series(ak.array([5, 6]), index=ak.array(["a", "b"]), name="v")
    >>> s.index.tolist(), s.values.tolist(), s.name
    (['a', 'b'], [5, 6], 'v')
    """

    objType = "Series"

    # A pdarray, Strings, Categorical or SegArray.
    values: Any
    index: Index
    name: Any

    if TYPE_CHECKING:
        # Set on the class by ``atoll.pandas._series_methods`` (mypy sees no attach).
        @staticmethod
        def concat(  # noqa: D102
            arrays: Iterable[Series],
            axis: int = 0,
            index_labels: Any = None,  # noqa: ANN401
            value_labels: Any = None,  # noqa: ANN401
            ordered: bool = False,
        ) -> Any: ...  # noqa: ANN401

    def __init__(
        self,
        data: Any,  # noqa: ANN401 (array-likes of several kinds)
        name: Hashable | None = None,
        index: Any = None,  # noqa: ANN401 (an Index or array-like)
    ) -> None:
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
    def size(self) -> int:
        """The number of values."""
        return self.index.size

    @property
    def _atoll_values(self) -> Any:  # noqa: ANN401 (the values)
        return self.values

    @property
    def dtype(self) -> Any:  # noqa: ANN401 (the values' dtype)
        """The values' dtype."""
        return self.values.dtype

    @property
    def shape(self) -> tuple[int]:
        """``(size,)``."""
        return (self.size,)

    @property
    def ndim(self) -> int:
        """The number of dimensions: 1."""
        return 1

    def __len__(self) -> int:
        return len(self.values)

    def has_repeat_labels(self) -> bool:
        """Whether some label occurs more than once (a method, as Arkouda's).

        Returns
        -------
        bool
            True when a label repeats.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.Series(ak.array([1, 2]), index=ak.array([0, 0])).has_repeat_labels()
        True
        """
        return not self.index.is_unique

    def memory_usage(self, index: bool = True, unit: str = "B") -> float:
        """The bytes of the values (and of the index).

        Parameters
        ----------
        index : bool, default True
            Count the index's bytes too.
        unit : str, default "B"
            ``"B"``, ``"KB"``, ``"MB"`` or ``"GB"``.

        Returns
        -------
        float
            The size in ``unit`` (an int for bytes).

        Examples
        --------
        >>> import atoll as ak
        >>> ak.Series(ak.arange(4)).memory_usage(index=False)
        32
        """
        n = self.values.nbytes + (self.index.memory_usage() if index else 0)
        return _convert_bytes(n, unit)

    # ----- conversion --------------------------------------------------------------------
    def to_pandas(self, dtype_backend: str | None = None) -> Any:  # noqa: ANN401 (a pandas.Series)
        """The ``pandas.Series`` (gathered to the driver).

        Parameters
        ----------
        dtype_backend : str, optional
            As in pandas' readers: ``"numpy_nullable"`` or ``"pyarrow"`` for pandas' nullable
            dtypes (a float NaN becomes ``<NA>``), None for NumPy dtypes.

        Returns
        -------
        pandas.Series
            The values and labels.

        Raises
        ------
        ValueError
            ``dtype_backend`` is of another value.

        Examples
        --------
        >>> import atoll as ak
        >>> import numpy as np
        >>> ak.Series(ak.array([1.5, np.nan])).to_pandas(dtype_backend="numpy_nullable").tolist()
        [1.5, <NA>]
        """
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

    def to_ndarray(self) -> npt.NDArray[Any]:
        """The values as a NumPy array.

        Returns
        -------
        numpy.ndarray
            One element per value.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.Series(ak.array([1, 2])).to_ndarray()
        array([1, 2])
        """
        out: npt.NDArray[Any] = self.values.to_ndarray()
        return out

    def tolist(self) -> list[Any]:
        """The values as a Python list.

        Returns
        -------
        list
            One element per value.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.Series(ak.array(["a", "b"])).tolist()
        ['a', 'b']
        """
        return _list(self.values)

    to_list = tolist

    def to_markdown(
        self,
        mode: str = "wt",
        index: bool = True,
        tablefmt: str = "grid",
        storage_options: object = None,
        **kwargs: Any,  # noqa: ANN401 (tabulate's options)
    ) -> str:
        """The Series as a Markdown table (pandas' ``to_markdown``, which needs ``tabulate``).

        Parameters
        ----------
        mode : str, default "wt"
            pandas' file mode.
        index : bool, default True
            Show the labels.
        tablefmt : str, default "grid"
            The ``tabulate`` table format.
        storage_options : object, optional
            Accepted for pandas' signature.
        **kwargs
            Passed to ``tabulate``.

        Returns
        -------
        str
            The table.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.Series(ak.array([1, 2])).to_markdown(tablefmt="plain").split()
        ['0', '0', '1', '1', '2']
        """
        out: str = self.to_pandas().to_markdown(mode=mode, index=index, tablefmt=tablefmt, **kwargs)
        return out

    def __repr__(self) -> str:
        if len(self) == 0:
            return "Series([ -- ][ 0 values : 0 B])"
        maxrows = pd.get_option("display.max_rows")
        if len(self) <= maxrows:
            prt, tail = self.to_pandas(), ""
        else:
            prt = pd.concat([self.head(maxrows // 2 + 2).to_pandas(), self.tail(maxrows // 2).to_pandas()])
            tail = f"\nLength {len(self)}"
        return str(prt.to_string(dtype=prt.dtype, max_rows=maxrows, length=False)) + tail

    __str__ = __repr__

    def _repr_html_(self) -> str:
        """Jupyter's display: the head and tail rows with their labels, the size, dtype and bytes.

        The bytes are those of the values and the index.
        """
        head, tail = html_rows(len(self))
        parts = [self.head(len(head)).to_pandas()] + ([self.tail(len(tail)).to_pandas()] if tail else [])
        rows = [[[lab, v] for lab, v in zip(p.index.tolist(), p.tolist())] for p in parts]
        name = "" if self.name is None else self.name
        dt = self.dtype.name if isinstance(self.dtype, np.dtype) else str(self.dtype)
        caption = f"Series: {len(self)} values, dtype {dt}, {byte_size(builtins.int(self.memory_usage(index=True)))}"
        out: str = html_table(["", name], rows[0], rows[1] if tail else [], caption)
        return out

    # ----- selection ---------------------------------------------------------------------
    def _take(self, idx: Any) -> Series:  # noqa: ANN401 (positions, a mask or a slice)
        return Series(self.values[idx], index=self.index[idx], name=self.name)

    def __getitem__(self, key: Any) -> Any:  # noqa: ANN401 (labels, a mask or a slice; a value or a Series)
        """By label (a scalar, a list or an array of labels).

        A bool pdarray or Series selects rows; a slice selects by position.
        """
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

    def _check_key(self, key: Any) -> None:  # noqa: ANN401 (labels)
        """TypeError where the labels asked for are not of the kind of the index's labels.

        Arkouda requires that: an int key does not select from str or float labels, a float
        key not from int labels.
        """
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

    def _check_value(self, val: Any) -> Any:  # noqa: ANN401 (a scalar, list or array)
        """``val`` (a scalar, a list or an array) as an array or scalar to write into the values.

        TypeError where its kind differs from theirs, as Arkouda's ``validate_val`` (Strings
        values are immutable).
        """
        if isinstance(self.values, Strings) or isinstance(val, (str, Strings)):
            raise TypeError("Series of Strings are immutable")
        if isinstance(val, (list, tuple)):
            val = _to_array(list(val))
        want, got = _kind(self.values), _kind(val)
        if want is not None and got != want:
            raise TypeError(f"value of kind {got!r} does not match the Series values of kind {want!r}")
        return val

    def _is_label(self, key: Any) -> bool:  # noqa: ANN401 (any key)
        """Whether ``key`` names one label (for a MultiIndex, a tuple of one scalar per level)."""
        if isinstance(self.index, MultiIndex):
            return (
                isinstance(key, tuple) and len(key) == self.index.nlevels and builtins.all(np.isscalar(k) for k in key)
            )
        return bool(np.isscalar(key))

    def __setitem__(self, key: Any, val: Any) -> None:  # noqa: ANN401 (labels or a mask; values)
        """Set the values at the labels ``key``, as Arkouda.

        One label sets all its rows (a scalar, or an array of one value per row) and a label
        not in the index is appended with a scalar value; a list or array of labels (of a
        Series whose labels are unique) sets one value per label, KeyError where one is absent;
        a bool array selects rows. The value must be of the kind of the values (TypeError
        otherwise), as must the labels of the index.
        """
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

    def _put(self, pos: Any, val: Any, one_for_all: bool = False) -> None:  # noqa: ANN401 (positions; values)
        """Write ``val`` (a scalar, or one value per position) at the positions ``pos``.

        With ``one_for_all`` (the rows of one label) an array of one value sets them all.
        """
        if one_for_all and not np.isscalar(val) and len(val) == 1 and pos.size != 1:
            val = val[0]  # one value for every position, as pandas
        if not np.isscalar(val) and len(val) != pos.size:
            raise ValueError(
                f"cannot set using a list-like indexer with a different length ({pos.size}) than the value ({len(val)})"
            )
        self.values[pos] = val

    def _levels_key(self, key: Any) -> list[Any]:  # noqa: ANN401 (a MultiIndex key)
        """A key of a MultiIndex as one array per level.

        The key is a tuple of one value or array per level, or a list of tuples.
        """
        if isinstance(key, list) and key and isinstance(key[0], tuple):
            return [_to_array([t[i] for t in key]) for i in range(self.index.nlevels)]
        return [x if _is_atoll_array(x) else array([x]) for x in key]

    def locate(self, key: Any) -> Series:  # noqa: ANN401 (labels)
        """The rows whose label equals ``key``, in the order of ``key``'s labels.

        Parameters
        ----------
        key : scalar, list, array, Index or Series
            The labels (for a MultiIndex a tuple of one value or array per level).

        Returns
        -------
        Series
            The rows, with their labels.

        Examples
        --------
        >>> import atoll as ak
        >>> s = ak.Series(ak.array([1, 2, 3]), index=ak.array([7, 8, 9]))
        >>> s.locate([9, 7]).tolist()
        [3, 1]
        """
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
    def loc(self) -> _LocIndexer:
        """Selection by label (one label gives the Series of its rows)."""
        return _LocIndexer(self)

    at = loc

    @property
    def iloc(self) -> _iLocIndexer:
        """Selection by position."""
        return _iLocIndexer(self)

    iat = iloc

    def isin(self, lst: Any) -> Series:  # noqa: ANN401 (values: a list, array or Series)
        """Whether each value occurs in ``lst``.

        Parameters
        ----------
        lst : list, array or Series
            The values to look for.

        Returns
        -------
        Series
            bool, on the same labels.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.Series(ak.array([1, 2, 3])).isin([3, 1]).tolist()
        [True, False, True]
        """
        if isinstance(lst, Series):
            lst = lst.values
        if not _is_atoll_array(lst):
            lst = _to_array(list(lst))
        return Series(in1d(self.values, lst), index=self.index, name=self.name)

    # ----- order -------------------------------------------------------------------------
    def _reindex(self, idx: Any) -> Series:  # noqa: ANN401 (a permutation)
        return Series(self.values[idx], index=self.index._reindex(idx), name=self.name)

    def sort_index(self, ascending: bool = True) -> Series:
        """The Series in the order of its labels.

        Parameters
        ----------
        ascending : bool, default True
            The direction.

        Returns
        -------
        Series
            The rows sorted by label (stable).

        Examples
        --------
        >>> import atoll as ak
        >>> ak.Series(ak.array([1, 2]), index=ak.array([5, 3])).sort_index().tolist()
        [2, 1]
        """
        return self._reindex(self.index.argsort(ascending=ascending))

    def sort_values(self, ascending: Any = True, na_position: str = "last", kind: str = "stable") -> Series:  # noqa: ANN401 (a bool, or a list of one)
        """The Series in the order of its values, as pandas' ``sort_values(kind="stable")``.

        Equal values keep their order in either direction.

        Parameters
        ----------
        ascending : bool or list of one bool, default True
            The direction.
        na_position : str, default "last"
            ``"first"`` or ``"last"``: where NaN goes.
        kind : str, default "stable"
            Every kind is this stable sort.

        Returns
        -------
        Series
            The rows sorted by value.

        Raises
        ------
        ValueError
            A list of more than one direction, or another ``na_position``.

        Examples
        --------
        >>> import atoll as ak
        >>> import numpy as np
        >>> ak.Series(ak.array([2.0, np.nan, 1.0])).sort_values(na_position="first").tolist()
        [nan, 1.0, 2.0]
        """
        if isinstance(ascending, (list, tuple)):
            if len(ascending) != 1:
                raise ValueError(f"Length of ascending ({len(ascending)}) != length of by (1)")
            ascending = ascending[0]
        return self._reindex(_sorting.lexsort_perm([self.values], ascending, na_position))

    def head(self, n: int = 10) -> Series:
        """The first ``n`` rows.

        Parameters
        ----------
        n : int, default 10
            The number of rows.

        Returns
        -------
        Series
            The rows.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.Series(ak.arange(5)).head(2).tolist()
        [0, 1]
        """
        return self._take(slice(0, n))

    def tail(self, n: int = 10) -> Series:
        """The last ``n`` rows.

        Parameters
        ----------
        n : int, default 10
            The number of rows.

        Returns
        -------
        Series
            The rows.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.Series(ak.arange(5)).tail(2).tolist()
        [3, 4]
        """
        return self._take(slice(builtins.max(0, self.size - n), self.size))

    def topn(self, n: int = 10) -> Series:
        """The ``n`` largest values, largest first.

        Parameters
        ----------
        n : int, default 10
            The number of values.

        Returns
        -------
        Series
            The rows of the largest values.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.Series(ak.array([4, 9, 1, 7])).topn(2).tolist()
        [9, 7]
        """
        p = _sorting.argsort(self.values)
        k = builtins.min(n, self.size)
        top = p[self.size - k :][::-1].astype(int64)._materialize()
        return self._take(top)

    def value_counts(self, sort: bool = True) -> Series:
        """The number of occurrences of each distinct value.

        Parameters
        ----------
        sort : bool, default True
            Largest counts first (else in value order).

        Returns
        -------
        Series
            The counts, labelled by the values.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.Series(ak.array([3, 1, 3])).value_counts().tolist()
        [2, 1]
        """
        uk, counts = GroupBy(self.values).size()
        s = Series(counts, index=Index(uk))
        return s.sort_values(ascending=False) if sort else s

    # ----- arithmetic --------------------------------------------------------------------
    def _binop(self, other: object, op: Callable[[Any, Any], Any]) -> Any:  # noqa: ANN401 (a Series or NotImplemented)
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

    def add(self, b: Series) -> Series:
        """The values of both Series, summed per label (labels of either).

        Parameters
        ----------
        b : Series
            The other Series.

        Returns
        -------
        Series
            One value per distinct label, the labels sorted.

        Examples
        --------
        >>> import atoll as ak
        >>> a = ak.Series(ak.array([1, 2]), index=ak.array([0, 1]))
        >>> a.add(ak.Series(ak.array([10]), index=ak.array([1]))).tolist()
        [1, 12]
        """
        idx = generic_concat([self.index.values, b.index.values])
        vals = generic_concat([self.values, b.values])
        k, v = GroupBy(idx).sum(vals)
        return Series(v, index=k)

    def diff(self) -> Series:
        """The difference with the previous value (NaN first), float64.

        Returns
        -------
        Series
            float64, on the same labels.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.Series(ak.array([1, 4, 6])).diff().tolist()
        [nan, 3.0, 2.0]
        """
        out = full(self.size, np.nan, float64)
        if self.size > 1:
            out[1:] = (self.values[1:] - self.values[:-1]).astype(float64)
        return Series(out, index=self.index)

    # ----- reductions --------------------------------------------------------------------
    def max(self) -> Any:  # noqa: ANN401 (a scalar of the values' dtype)
        """The largest value.

        Returns
        -------
        scalar
            Of the values' dtype.

        Examples
        --------
        >>> import atoll as ak
        >>> int(ak.Series(ak.array([3, 8, 1])).max())
        8
        """
        return self.values.max()

    def min(self) -> Any:  # noqa: ANN401 (a scalar of the values' dtype)
        """The smallest value.

        Returns
        -------
        scalar
            Of the values' dtype.

        Examples
        --------
        >>> import atoll as ak
        >>> int(ak.Series(ak.array([3, 8, 1])).min())
        1
        """
        return self.values.min()

    def mean(self) -> Any:  # noqa: ANN401 (a float scalar)
        """The mean of the values.

        Returns
        -------
        float
            The mean.

        Examples
        --------
        >>> import atoll as ak
        >>> float(ak.Series(ak.array([1, 2])).mean())
        1.5
        """
        return self.values.mean()

    def sum(self) -> Any:  # noqa: ANN401 (a scalar of the values' dtype)
        """The sum of the values.

        Returns
        -------
        scalar
            Of the values' dtype.

        Examples
        --------
        >>> import atoll as ak
        >>> int(ak.Series(ak.array([1, 2])).sum())
        3
        """
        return self.values.sum()

    def std(self, ddof: int = 0) -> Any:  # noqa: ANN401 (a float scalar)
        """The standard deviation of the values.

        Parameters
        ----------
        ddof : int, default 0
            The delta degrees of freedom.

        Returns
        -------
        float
            The standard deviation.

        Examples
        --------
        >>> import atoll as ak
        >>> float(ak.Series(ak.array([1, 3])).std())
        1.0
        """
        return self.values.std(ddof)

    def var(self, ddof: int = 0) -> Any:  # noqa: ANN401 (a float scalar)
        """The variance of the values.

        Parameters
        ----------
        ddof : int, default 0
            The delta degrees of freedom.

        Returns
        -------
        float
            The variance.

        Examples
        --------
        >>> import atoll as ak
        >>> float(ak.Series(ak.array([1, 3])).var(ddof=1))
        2.0
        """
        return self.values.var(ddof)

    def argmax(self) -> Any:  # noqa: ANN401 (an int scalar)
        """The position of the largest value.

        Returns
        -------
        int
            Its position (the first on ties).

        Examples
        --------
        >>> import atoll as ak
        >>> int(ak.Series(ak.array([3, 8, 1])).argmax())
        1
        """
        return self.values.argmax()

    def argmin(self) -> Any:  # noqa: ANN401 (an int scalar)
        """The position of the smallest value.

        Returns
        -------
        int
            Its position (the first on ties).

        Examples
        --------
        >>> import atoll as ak
        >>> int(ak.Series(ak.array([3, 8, 1])).argmin())
        2
        """
        return self.values.argmin()

    def prod(self) -> Any:  # noqa: ANN401 (a scalar of the values' dtype)
        """The product of the values.

        Returns
        -------
        scalar
            Of the values' dtype.

        Examples
        --------
        >>> import atoll as ak
        >>> int(ak.Series(ak.array([2, 3])).prod())
        6
        """
        return self.values.prod()

    # ----- missing values ----------------------------------------------------------------
    def isna(self) -> Series:
        """Where the values are missing (NaN; only float values hold it).

        Returns
        -------
        Series
            bool, on the same labels.

        Examples
        --------
        >>> import atoll as ak
        >>> import numpy as np
        >>> ak.Series(ak.array([1.0, np.nan])).isna().tolist()
        [False, True]
        """
        if isinstance(self.values, pdarray) and self.values.dtype == float64:
            return Series(isnan(self.values)._materialize(), index=self.index)
        return Series(zeros(self.size, bool_), index=self.index)

    isnull = isna

    def notna(self) -> Series:
        """Where the values are not missing.

        Returns
        -------
        Series
            bool, on the same labels.

        Examples
        --------
        >>> import atoll as ak
        >>> import numpy as np
        >>> ak.Series(ak.array([1.0, np.nan])).notna().tolist()
        [True, False]
        """
        r = self.isna()
        return Series((~r.values)._materialize(), index=self.index)

    notnull = notna

    def hasnans(self) -> bool:
        """Whether some value is missing.

        Returns
        -------
        bool
            True when a value is NaN.

        Examples
        --------
        >>> import atoll as ak
        >>> import numpy as np
        >>> ak.Series(ak.array([1.0, np.nan])).hasnans()
        True
        """
        return builtins.bool(self.isna().values.any()) if self.size else False

    def corr(self, other: Series | pdarray, method: str = "pearson", min_periods: int | None = None) -> float:
        """The Pearson correlation of the values and ``other``'s, as pandas'.

        Over the rows where neither is NaN.

        Parameters
        ----------
        other : Series or pdarray
            A Series with the same labels, or one value a row.
        method : str, default "pearson"
            Only ``"pearson"``.
        min_periods : int, optional
            Not offered (pandas' default: at least 2 rows).

        Returns
        -------
        float
            The correlation; NaN for fewer than two rows or a constant side.

        Raises
        ------
        NotImplementedError
            Another method, ``min_periods``, or Series with other labels.
        TypeError
            Values that are not numeric.
        ValueError
            ``other`` has another size.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.Series(ak.array([1, 2, 3])).corr(ak.Series(ak.array([2, 4, 7])))
        0.9933992677987828
        """
        if method != "pearson":
            raise NotImplementedError(f"corr: method {method!r}: only 'pearson' is offered")
        if min_periods is not None:
            raise NotImplementedError("corr: min_periods is not offered (pandas' default: at least 2 rows)")
        if isinstance(other, Series):
            if not self.index.equals(other.index):
                raise NotImplementedError("corr: Series with other labels (pandas aligns them) are not offered")
        ov: Any = other.values if isinstance(other, Series) else other
        for v in (self.values, ov):
            if not isinstance(v, pdarray) or v.dtype.kind not in "iufb":
                raise TypeError("corr: expected numeric values")
        if ov.size != self.size:
            raise ValueError(f"corr: {ov.size} values for {self.size} rows")
        x, y = self.values.astype(float64), ov.astype(float64)
        ok = (~(isnan(x) | isnan(y)))._materialize()
        x, y = x[ok], y[ok]
        if x.size < 2:
            return np.nan
        dx = x - builtins.float(x.mean())
        dy = y - builtins.float(y.mean())
        den = builtins.float((dx * dx).sum()) * builtins.float((dy * dy).sum())
        if den <= 0:
            return np.nan
        return builtins.max(-1.0, builtins.min(1.0, builtins.float((dx * dy).sum()) / float(np.sqrt(den))))

    def dropna(self) -> Series:
        """The Series without its NaN values, labels kept, as pandas.

        Only float values hold NaN: other Series come back whole.

        Returns
        -------
        Series
            The rows whose value is not NaN.

        Examples
        --------
        >>> import atoll as ak
        >>> import numpy as np
        >>> ak.Series(ak.array([1.0, np.nan, 2.0])).dropna().index.tolist()
        [0, 2]
        """
        if isinstance(self.values, pdarray) and self.values.dtype == float64:
            return self._take(arange(self.size)[(~isnan(self.values))._materialize()])
        return Series(self.values, index=self.index, name=self.name)

    def fillna(self, value: Any) -> Series:  # noqa: ANN401 (a scalar, pdarray or Series)
        """NaN values replaced by ``value``.

        Parameters
        ----------
        value : scalar, pdarray or Series
            The fill (one per row for an array).

        Returns
        -------
        Series
            On the same labels.

        Examples
        --------
        >>> import atoll as ak
        >>> import numpy as np
        >>> ak.Series(ak.array([1.0, np.nan])).fillna(0).tolist()
        [1.0, 0.0]
        """
        if isinstance(value, Series):
            value = value.values
        if isinstance(self.values, pdarray) and self.values.dtype == float64:
            return Series(where(isnan(self.values), value, self.values)._materialize(), index=self.index)
        return Series(self.values, index=self.index, name=self.name)

    # ----- mapping and combining ---------------------------------------------------------
    def map(self, arg: dict[Any, Any] | Series) -> Series:
        """The values mapped through ``arg`` (a dict, or a Series whose labels are keys).

        Parameters
        ----------
        arg : dict or Series
            Key -> value; a value without a key becomes NaN (numbers) or "null" (strings).

        Returns
        -------
        Series
            On the same labels.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.Series(ak.array([1, 2])).map({1: 10.0, 2: 20.0}).tolist()
        [10.0, 20.0]
        """
        return Series(map_values(self.values, arg), index=self.index, name=self.name)

    @staticmethod
    def pdconcat(arrays: Iterable[Series], axis: int = 0, labels: object = None) -> Any:  # noqa: ANN401 (a pandas Series or DataFrame)
        """``concat`` returning pandas objects (Arkouda's helper).

        Parameters
        ----------
        arrays : iterable of Series
            The Series.
        axis : int, default 0
            As ``Series.concat``.
        labels : object, optional
            Accepted for Arkouda's signature.

        Returns
        -------
        pandas.Series or pandas.DataFrame
            ``Series.concat``'s result, gathered.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.Series.pdconcat([ak.Series(ak.array([1])), ak.Series(ak.array([2]))]).tolist()
        [1, 2]
        """
        r = Series.concat(arrays, axis=axis)
        return r.to_pandas()


def _add_ops() -> None:
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

        def binop(self: Series, other: object, fn: Callable[[Any, Any], Any] = fn) -> Any:  # noqa: ANN401 (a Series)
            return self._binop(other, fn)

        def rbinop(self: Series, other: object, fn: Callable[[Any, Any], Any] = fn) -> Any:  # noqa: ANN401 (a Series)
            if isinstance(other, Series):
                return other._binop(self, fn)
            return Series(fn(other, self.values), index=self.index)

        setattr(Series, f"__{name}__", binop)
        if name not in ("lt", "le", "gt", "ge", "eq", "ne"):
            setattr(Series, f"__r{name}__", rbinop)

    def neg(self: Series) -> Series:
        return Series(-self.values, index=self.index, name=self.name)

    def inv(self: Series) -> Series:
        return Series(~self.values, index=self.index, name=self.name)

    # (set by name, as the operators above: the class body does not define them)
    setattr(Series, "__neg__", neg)
    setattr(Series, "__invert__", inv)
    setattr(Series, "__hash__", None)


_add_ops()


class _LocIndexer:
    def __init__(self, series: Series) -> None:
        self.series = series

    def __getitem__(self, key: Any) -> Any:  # noqa: ANN401 (labels; a value or a Series)
        # One label gives the Series of its rows here (Atoll's loc); [] gives pandas' scalar.
        if self.series._is_label(key):
            return self.series.locate(key)
        return self.series[key]

    def __setitem__(self, key: Any, val: Any) -> None:  # noqa: ANN401 (labels; values)
        self.series[key] = val


class _iLocIndexer:
    def __init__(self, series: Series) -> None:
        self.series = series

    def _key(self, key: Any) -> Any:  # noqa: ANN401 (a position, positions, mask or slice)
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

    def __getitem__(self, key: Any) -> Series:  # noqa: ANN401 (a position, positions, mask or slice)
        k = self._key(key)
        if _is_int(k):
            return self.series._take(array([k]))
        return self.series._take(k)

    def __setitem__(self, key: Any, val: Any) -> None:  # noqa: ANN401 (positions; values)
        k = self._key(key)
        val = self.series._check_value(val)
        if _is_int(k):
            k = array([k])
        if isinstance(k, pdarray) and k.dtype == bool_:
            k = arange(self.series.size)[k]
        self.series._put(arange(self.series.size)[k] if isinstance(k, slice) else k, val)
