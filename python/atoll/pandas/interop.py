"""Columns to and from Apache Arrow, polars and pandas' nullable dtypes.

``ak.DataFrame(table)`` takes a ``pyarrow.Table``, a ``pyarrow.RecordBatch`` or a
``polars.DataFrame``; ``DataFrame.to_arrow()`` and ``DataFrame.to_polars()`` give them back;
``ak.array`` takes a ``pyarrow.Array``, a ``pyarrow.ChunkedArray`` or a ``polars.Series``.

Types, both ways:

* integers, floats and booleans: pdarrays of Atoll's dtypes (int8..int64 -> int64,
  uint16..uint64 -> uint64, uint8 stays uint8, float16/float32 -> float64); decimals read as
  float64, as the Parquet reader reads them.
* strings (``string``, ``large_string``, ``string_view``; polars ``String``): ``Strings``
  (UTF-8, any code point).
* dictionary arrays (polars ``Categorical``/``Enum``; pandas ``category``) of strings:
  ``Categorical``, and back to a dictionary array (a polars ``Categorical``).
* list arrays: ``SegArray`` out (``to_arrow``); other nested types are refused.
* timestamps (any unit; with a time zone: as UTC) read as ``Datetime``, durations as
  ``Timedelta`` (int64 nanoseconds; a null is NaT, the int64 minimum); out they are
  ``timestamp[ns]`` and ``duration[ns]``. pandas' ``datetime64``/``timedelta64`` columns
  likewise. Dates, times of day and periods are refused with a ``TypeError`` that names the
  column and the conversion to int64 that reads them.

Missing values (Arrow's nulls, pandas' ``NA``/``None``/``NaN``) follow one rule whatever the
source, the one of ``ak.read_parquet``:

* a float column: NaN.
* an integer column with nulls: float64 with NaN where the nulls are (pandas' rule for an
  integer column with missing values; values beyond 2**53 round). Without nulls it stays an
  integer column.
* a boolean column with nulls: refused (``ValueError`` naming the column): fill the nulls
  first (``fill_null(False)``, ``fillna(False)``) or cast the column to float64.
* a string column: the empty string ``""`` (Arkouda's missing string, what the Parquet reader
  gives for a null string).
* a dictionary (categorical) column: the ``Categorical``'s missing value (the ``"N/A"``
  category, ``isna()`` True); ``to_arrow`` writes it back as a null.

Copies: a numeric column without nulls that is one contiguous Arrow buffer (one chunk; a
polars column that is not rechunked) reaches NumPy as a view of that buffer, with no copy;
the one copy made is into Atoll's distributed storage. Out, a numeric pdarray gathered to
the driver as a NumPy array becomes an Arrow array that wraps that NumPy buffer (no second
copy), and polars takes Arrow's numeric buffers without copying. Booleans (bit-packed in
Arrow), columns with nulls, several chunks and strings are copied.
"""

from __future__ import annotations

import builtins
from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np

from .._optional import loaded, pa, pd, pl
from ..numpy.pdarrayclass import pdarray
from ..numpy.pdarraycreation import FOREIGN_ARRAYS, array
from ..numpy.strings import Strings, from_list
from ..numpy.timeclass import Datetime, Timedelta
from .categorical import Categorical

__all__ = [
    "MISSING_STRING",
    "column_from_arrow",
    "column_from_pandas",
    "column_to_arrow",
    "frame_columns",
    "is_foreign_frame",
    "table_to_arrow",
    "table_to_polars",
]

# Arkouda's missing string (a null string reads as this in every reader).
MISSING_STRING = ""


# ----- what an object is (never importing a library to learn that it is not of its types) ---
def _is_arrow_frame(x: object) -> bool:
    return loaded("pyarrow") and isinstance(x, (pa.Table, pa.RecordBatch))


def _is_polars_frame(x: object) -> bool:
    return loaded("polars") and isinstance(x, pl.DataFrame)


def is_foreign_frame(x: object) -> bool:
    """Whether ``x`` is a table ``ak.DataFrame`` takes through Arrow.

    Parameters
    ----------
    x : object
        Anything.

    Returns
    -------
    bool
        True for a pyarrow Table or RecordBatch, or a polars DataFrame.

    Examples
    --------
    >>> import pyarrow as pa
    >>> from atoll.pandas.interop import is_foreign_frame
    >>> is_foreign_frame(pa.table({"a": [1]})), is_foreign_frame({"a": [1]})
    (True, False)
    """
    return _is_arrow_frame(x) or _is_polars_frame(x)


def _is_arrow_column(x: object) -> bool:
    return loaded("pyarrow") and isinstance(x, (pa.Array, pa.ChunkedArray))


def _is_polars_column(x: object) -> bool:
    return loaded("polars") and isinstance(x, pl.Series)


def _is_pandas_extension(x: Any) -> bool:  # noqa: ANN401 (any object)
    """A pandas Series, Index or array whose dtype is one of pandas' extension dtypes.

    The nullable ``Int64``/``Float64``/``boolean``/``string`` and ``pd.ArrowDtype``.
    """
    if not loaded("pandas"):
        return False
    if isinstance(x, (pd.Series, pd.Index)):
        return isinstance(x.dtype, pd.api.extensions.ExtensionDtype) and not isinstance(x.dtype, pd.CategoricalDtype)
    return isinstance(x, pd.api.extensions.ExtensionArray) and not isinstance(x, pd.Categorical)


# ----- errors ------------------------------------------------------------------------------
def _temporal_error(name: object, type_name: str, how: str) -> TypeError:
    return TypeError(
        f"column {name!r} is {type_name}, which Atoll does not read (Datetime and Timedelta take "
        f"timestamps and durations); convert it first with {how} and convert back after"
    )


def _time_column(col: Any) -> Any:  # noqa: ANN401 (an Arrow column; a Datetime or Timedelta)
    """The Datetime or Timedelta of an Arrow timestamp or duration column (a null is NaT)."""
    t = col.type
    ns = pa.timestamp("ns", tz=t.tz) if pa.types.is_timestamp(t) else pa.duration("ns")
    values = col.cast(ns).to_numpy(zero_copy_only=False)
    values = np.asarray(values).view(np.int64) if values.dtype.kind in "mM" else values.astype(np.int64)
    ns_values = array(np.ascontiguousarray(values))
    return Datetime._from_ns(ns_values) if pa.types.is_timestamp(t) else Timedelta._from_ns(ns_values)


def _bool_nulls_error(name: object, nulls: int, how: str) -> ValueError:
    return ValueError(
        f"column {name!r} is boolean with {nulls} missing value(s), which a bool pdarray cannot hold: "
        f"fill them first ({how}) or cast the column to float64"
    )


# ----- Arrow -> Atoll ------------------------------------------------------------------------
def _numeric_numpy(col: Any) -> Any:  # noqa: ANN401 (an Arrow column; a NumPy array)
    """The values of a numeric Arrow column without nulls as NumPy.

    A view of the buffer when it is one chunk of a fixed-width type (booleans, bit-packed,
    are copied).
    """
    if isinstance(col, pa.ChunkedArray):
        if col.num_chunks == 1:
            col = col.chunk(0)
        else:
            return col.to_numpy()
    return col.to_numpy(zero_copy_only=not pa.types.is_boolean(col.type))


def column_from_arrow(name: Hashable, col: Any, polars_dtype: Any = None) -> Any:  # noqa: ANN401 (Arrow in, any column out)
    """The Atoll column of an Arrow array or chunked array.

    With the types and missing-value rules of the module's docstring.

    Parameters
    ----------
    name : hashable
        The column's name, for the messages.
    col : pyarrow.Array or pyarrow.ChunkedArray
        The values.
    polars_dtype : polars.DataType, optional
        The column's polars dtype when it comes from polars (the messages then name it and
        polars' conversion).

    Returns
    -------
    pdarray, Strings, Categorical, Datetime or Timedelta
        The column.

    Raises
    ------
    TypeError
        The Arrow type has no Atoll column (dates, times, nested types, nulls only).
    ValueError
        A boolean column with nulls.

    Examples
    --------
    >>> import pyarrow as pa
    >>> from atoll.pandas.interop import column_from_arrow
    >>> column_from_arrow("a", pa.array([1, None, 3])).tolist()
    [1.0, nan, 3.0]
    >>> column_from_arrow("s", pa.array(["x", None])).tolist()
    ['x', '']
    """
    t = col.type
    nulls = col.null_count
    types = pa.types
    if types.is_dictionary(t):
        if not (types.is_string(t.value_type) or types.is_large_string(t.value_type)):
            return column_from_arrow(name, col.cast(t.value_type))
        # pandas merges the chunks' dictionaries and gives nulls the code -1, which
        # Categorical reads as its missing value.
        return Categorical(pd.Categorical(col.to_pandas()))
    if types.is_timestamp(t) or types.is_duration(t):
        return _time_column(col)
    if types.is_date(t) or types.is_time(t):
        width = "int32" if (types.is_date32(t) or types.is_time32(t)) else "int64"
        if polars_dtype is not None:
            how = f"pl.col({name!r}).cast(pl.{'Int32' if width == 'int32' else 'Int64'})"
            raise _temporal_error(name, f"polars {polars_dtype}", how)
        raise _temporal_error(name, f"Arrow {t}", f"pyarrow.compute.cast(col, pyarrow.{width}())")
    if types.is_string(t) or types.is_large_string(t) or getattr(types, "is_string_view", lambda _: False)(t):
        if nulls:
            col = col.fill_null(MISSING_STRING)
        return from_list(col.to_pylist())
    if types.is_decimal(t) or types.is_float16(t):
        return column_from_arrow(name, col.cast(pa.float64()))
    if types.is_boolean(t) and nulls:
        raise _bool_nulls_error(name, nulls, "fill_null(False)")
    if types.is_integer(t) or types.is_floating(t) or types.is_boolean(t):
        if nulls:
            # pandas' rule: an integer column with missing values is float64 with NaN.
            col = col.cast(pa.float64()).fill_null(float("nan"))
        return array(_numeric_numpy(col))
    if types.is_null(t):
        raise TypeError(f"column {name!r} holds only nulls (Arrow type null): give it a type first")
    raise TypeError(f"column {name!r} is Arrow {t}, which Atoll does not read")


def frame_columns(obj: Any) -> tuple[list[str], list[Any], int]:  # noqa: ANN401 (an Arrow or polars table)
    """The column names, the columns and the number of rows of an Arrow or polars table.

    Parameters
    ----------
    obj : pyarrow.Table, pyarrow.RecordBatch or polars.DataFrame
        The table.

    Returns
    -------
    tuple of (list of str, list, int)
        The names, the Atoll columns (as ``column_from_arrow`` gives them) and the rows.

    Raises
    ------
    ValueError
        Two columns have the same name.

    Examples
    --------
    >>> import pyarrow as pa
    >>> from atoll.pandas.interop import frame_columns
    >>> names, cols, n = frame_columns(pa.table({"a": [1, 2], "b": ["x", "y"]}))
    >>> names, [c.tolist() for c in cols], n
    (['a', 'b'], [[1, 2], ['x', 'y']], 2)
    """
    polars = _is_polars_frame(obj)
    table = obj.to_arrow() if polars else obj
    names = [builtins.str(n) for n in table.column_names]
    if len(set(names)) != len(names):
        dup = sorted({n for n in names if names.count(n) > 1})
        raise ValueError(f"column names must be distinct: {dup} appear more than once")
    dtypes = obj.dtypes if polars else [None] * len(names)
    cols = [column_from_arrow(n, table.column(i), d) for i, (n, d) in enumerate(zip(names, dtypes))]
    return names, cols, table.num_rows


def _array_from_foreign(a: Any) -> Any:  # noqa: ANN401 (any object; a column or None)
    """``ak.array`` of an Arrow array, a polars Series or a pandas array of an extension dtype.

    None for any other object.
    """
    if _is_arrow_column(a):
        return column_from_arrow("values", a)
    if _is_polars_column(a):
        return column_from_arrow(a.name or "values", a.to_arrow(), a.dtype)
    if _is_pandas_extension(a) or (loaded("pandas") and isinstance(a, pd.Series) and a.dtype.kind == "O"):
        name = getattr(a, "name", None)
        return column_from_pandas("values" if name is None else name, pd.Series(a, copy=False))
    return None


FOREIGN_ARRAYS.append(_array_from_foreign)


# ----- pandas -> Atoll -----------------------------------------------------------------------
def column_from_pandas(name: Hashable, col: Any) -> Any:  # noqa: ANN401 (a pandas Series; any column)
    """The Atoll column of a pandas Series whose dtype needs the rules of the module's docstring.

    Those are the nullable dtypes, strings with missing values, ``pd.ArrowDtype``, datetimes
    and timedeltas.

    Parameters
    ----------
    name : hashable
        The column's name, for the messages.
    col : pandas.Series
        The values.

    Returns
    -------
    pdarray, Strings, Categorical, Datetime, Timedelta or None
        The column; None for the columns that convert as NumPy arrays do.

    Raises
    ------
    TypeError
        A column of periods.
    ValueError
        A boolean column with missing values.

    Examples
    --------
    >>> import pandas as pd
    >>> from atoll.pandas.interop import column_from_pandas
    >>> column_from_pandas("a", pd.Series([1, None], dtype="Int64")).tolist()
    [1.0, nan]
    >>> column_from_pandas("b", pd.Series([1, 2])) is None
    True
    """
    d = col.dtype
    if isinstance(d, pd.ArrowDtype):
        return column_from_arrow(name, pa.array(col))
    if isinstance(d, pd.DatetimeTZDtype) or (isinstance(d, np.dtype) and d.kind == "M"):
        return Datetime(col)
    if isinstance(d, np.dtype) and d.kind == "m":
        return Timedelta(col)
    if isinstance(d, pd.PeriodDtype):
        raise _temporal_error(name, builtins.str(d), ".astype('int64') (periods since the epoch)")
    if isinstance(d, pd.StringDtype):
        return from_list(col.fillna(MISSING_STRING).astype(object).tolist()) if len(col) else from_list([])
    if isinstance(d, pd.BooleanDtype):
        nulls = builtins.int(col.isna().sum())
        if nulls:
            raise _bool_nulls_error(name, nulls, ".fillna(False)")
        return array(col.to_numpy(dtype=bool))
    if isinstance(d, pd.api.extensions.ExtensionDtype) and d.kind in "iuf" and hasattr(d, "numpy_dtype"):
        # The masked integer and float dtypes: NaN where a value is missing (float64 then).
        if col.isna().any():
            return array(col.to_numpy(dtype=np.float64, na_value=np.nan))
        return array(col.to_numpy(dtype=d.numpy_dtype))
    if isinstance(d, np.dtype) and d.kind == "O" and len(col):
        vals = col.tolist()
        missing = [_is_missing(v) for v in vals]
        if builtins.any(missing) and builtins.all(m or isinstance(v, str) for v, m in zip(vals, missing)):
            return from_list([MISSING_STRING if m else v for v, m in zip(vals, missing)])
    return None


def _is_missing(v: object) -> bool:
    return v is None or v is pd.NA or (isinstance(v, (builtins.float, np.floating)) and v != v)


# ----- Atoll -> Arrow, polars ----------------------------------------------------------------
def column_to_arrow(name: Hashable, col: Any) -> Any:  # noqa: ANN401 (any column; an Arrow array)
    """The Arrow array of one Atoll column.

    A numeric pdarray wraps the gathered NumPy buffer; a Categorical's missing value becomes
    a null.

    Parameters
    ----------
    name : hashable
        The column's name, for the messages.
    col : pdarray, Strings, Categorical or SegArray
        The column.

    Returns
    -------
    pyarrow.Array
        Its values.

    Raises
    ------
    TypeError
        The column has no Arrow type (a bigint column).

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.pandas.interop import column_to_arrow
    >>> column_to_arrow("a", ak.array([1, 2])).to_pylist()
    [1, 2]
    >>> column_to_arrow("c", ak.Categorical(ak.array(["x", "y", "x"]))).to_pylist()
    ['x', 'y', 'x']
    """
    if isinstance(col, pdarray):  # a Datetime/Timedelta gathers datetime64/timedelta64[ns]
        return pa.array(col.to_ndarray())
    if isinstance(col, Strings):
        return pa.array(col.to_list(), type=pa.large_string() if col.nbytes >= 2**31 else pa.string())
    if isinstance(col, Categorical):
        codes = col.codes.to_ndarray()
        cats = col.categories.to_list()
        idx_type = pa.int32() if len(cats) < 2**31 else pa.int64()
        indices = pa.array(codes.astype(idx_type.to_pandas_dtype()), mask=codes == col._NAcode)
        return pa.DictionaryArray.from_arrays(indices, pa.array(cats, type=pa.string()))
    if getattr(col, "objType", None) == "SegArray":  # (segarray imports this layer: no type test)
        seg = col.segments.to_ndarray()
        offsets = np.append(seg, col.values.size).astype(np.int64)
        return pa.LargeListArray.from_arrays(pa.array(offsets), column_to_arrow(name, col.values))
    raise TypeError(
        f"column {name!r} is {type(col).__name__} ({getattr(col, 'dtype', '?')}), which has no Arrow type: "
        "convert it first (a bigint column: .astype('float64') or to Strings with ak.array(col, dtype=str))"
    )


def table_to_arrow(names: Sequence[Hashable], cols: Sequence[Any]) -> Any:  # noqa: ANN401 (a pyarrow.Table)
    """The ``pyarrow.Table`` of the columns ``cols`` named ``names``.

    Parameters
    ----------
    names : sequence of hashable
        The names (as ``str`` gives them).
    cols : sequence
        The Atoll columns.

    Returns
    -------
    pyarrow.Table
        A column per Atoll column.

    Raises
    ------
    TypeError
        A column has no Arrow type.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.pandas.interop import table_to_arrow
    >>> table_to_arrow(["a", 1], [ak.arange(2), ak.array(["p", "q"])]).to_pydict()
    {'a': [0, 1], '1': ['p', 'q']}
    """
    arrays = [column_to_arrow(n, c) for n, c in zip(names, cols)]
    return pa.Table.from_arrays(arrays, names=[builtins.str(n) for n in names])


def table_to_polars(names: Sequence[Hashable], cols: Sequence[Any]) -> Any:  # noqa: ANN401 (a polars.DataFrame)
    """The ``polars.DataFrame`` of the columns ``cols`` named ``names`` (through Arrow).

    Parameters
    ----------
    names : sequence of hashable
        The names (as ``str`` gives them).
    cols : sequence
        The Atoll columns.

    Returns
    -------
    polars.DataFrame
        A column per Atoll column.

    Raises
    ------
    TypeError
        A column has no Arrow type.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.pandas.interop import table_to_polars
    >>> table_to_polars(["a"], [ak.array([1.5, 2.5])])["a"].to_list()
    [1.5, 2.5]
    """
    return pl.from_arrow(table_to_arrow(names, cols))
