"""Arrow, polars and pandas' nullable dtypes in and out of ``ak.DataFrame`` and ``ak.array``,
checked against pyarrow's, polars' and pandas' own conversions of the same data."""

import math

import atoll as ak
import numpy as np
import pandas as pd
import pytest
from atoll.pandas import interop
from hypothesis import given, strategies as st

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
pl = pytest.importorskip("polars")

WORDS = ["a", "bb", "", "héllo", "日本語", "😀x", "N/A-like", "zz"]


def _ref_column(col):
    """The values Atoll's rules give an Arrow column, computed with pyarrow: an integer column
    with nulls as pyarrow's own pandas conversion makes it (float64, NaN), a string null as
    "", a dictionary null as the missing value "N/A"."""
    t = col.type
    if pa.types.is_dictionary(t):
        return ["N/A" if v is None else v for v in col.to_pylist()]
    if pa.types.is_string(t) or pa.types.is_large_string(t):
        return ["" if v is None else v for v in col.to_pylist()]
    return _wide(col.to_pandas().to_numpy())


def _wide(x):
    """Atoll's dtypes: NumPy's widening of the narrower ones (uint8 stays)."""
    wide = {"i": np.int64, "u": np.uint64 if x.dtype.itemsize > 1 else np.uint8, "f": np.float64, "b": np.bool_}
    return x.astype(wide[x.dtype.kind])


def _values(c):
    return c.to_list() if isinstance(c, (ak.Strings, ak.Categorical)) else c.to_ndarray()


def _assert_values(got, want):
    if isinstance(want, list):
        assert _values(got) == want
    else:
        g = got.to_ndarray()
        assert g.dtype == want.dtype, (g.dtype, want.dtype)
        np.testing.assert_array_equal(g, want)


def _table(draw_rows):
    n, ints, floats, strs, bools, nulls = draw_rows
    mask = np.array(nulls[:n], dtype=bool)
    return pa.table(
        {
            "i": pa.array(ints[:n], pa.int64()),
            "i32": pa.array(ints[:n], pa.int32()),
            "u": pa.array([abs(x) for x in ints[:n]], pa.uint64()),
            "f": pa.array(floats[:n], pa.float64()),
            "b": pa.array(bools[:n], pa.bool_()),
            "s": pa.array(strs[:n], pa.string()),
            "inull": pa.array(ints[:n], pa.int64(), mask=mask),
            "fnull": pa.array(floats[:n], pa.float32(), mask=mask),
            "snull": pa.array(strs[:n], pa.large_string(), mask=mask),
            "c": pa.array(strs[:n], pa.string(), mask=mask).dictionary_encode(),
        }
    )


rows = st.integers(0, 30).flatmap(
    lambda n: st.tuples(
        st.just(n),
        st.lists(st.integers(-(2**31), 2**31 - 1), min_size=n, max_size=n),
        st.lists(st.floats(-1e6, 1e6), min_size=n, max_size=n),
        st.lists(st.sampled_from(WORDS), min_size=n, max_size=n),
        st.lists(st.booleans(), min_size=n, max_size=n),
        st.lists(st.booleans(), min_size=n, max_size=n),
    )
)


@given(rows)
def test_arrow_table_in_matches_pyarrow(r):
    t = _table(r)
    df = ak.DataFrame(t)
    assert df.shape == (t.num_rows, t.num_columns)
    assert df.columns.to_list() == t.column_names
    for name in t.column_names:
        _assert_values(df[name], _ref_column(t.column(name)))
    assert isinstance(df["c"], ak.Categorical)
    np.testing.assert_array_equal(df["c"].isna().to_ndarray(), t.column("c").is_null().to_numpy(zero_copy_only=False))
    # A RecordBatch reads as its table.
    rb = ak.DataFrame(t.to_batches()[0]) if t.num_rows else None
    if rb is not None:
        assert rb.to_pandas().equals(df.to_pandas())


@given(rows)
def test_polars_in_matches_polars_to_pandas(r):
    t = _table(r)
    frame = pl.from_arrow(t)
    df = ak.DataFrame(frame)
    want = frame.to_pandas()  # polars' rule for an integer column with nulls: float64 with NaN
    for name in ["i", "i32", "f", "b", "s", "inull"]:
        _assert_values(df[name], _wide(want[name].to_numpy()) if name != "s" else want[name].tolist())
    assert df["snull"].to_list() == ["" if v is None else v for v in frame["snull"].to_list()]
    assert df["c"].to_list() == ["N/A" if v is None else v for v in frame["c"].to_list()]


@given(rows)
def test_to_arrow_and_to_polars_give_the_values_back(r):
    t = _table(r)
    df = ak.DataFrame(t)
    out = df.to_arrow()
    assert out.column_names == t.column_names
    for name in t.column_names:
        got = out.column(name)
        if name == "c":
            assert pa.types.is_dictionary(got.type)
            # The missing value goes back as a null.
            assert got.to_pylist() == t.column("c").to_pylist()
        elif name in ("snull",):
            assert got.to_pylist() == _ref_column(t.column(name))
        else:
            np.testing.assert_array_equal(got.to_numpy(), df[name].to_ndarray())
    frame = df.to_polars()
    assert frame.columns == t.column_names
    assert frame["c"].dtype == pl.Categorical
    assert frame["c"].to_list() == t.column("c").to_pylist()
    np.testing.assert_array_equal(frame["i"].to_numpy(), t.column("i").to_numpy())
    assert frame["s"].to_list() == t.column("s").to_pylist()
    # ...and back in: the same frame.
    again = ak.DataFrame(out)
    for name in t.column_names:
        assert _values(again[name]) == _values(df[name]) if name in ("s", "snull", "c") else True
        if name not in ("s", "snull", "c"):
            np.testing.assert_array_equal(again[name].to_ndarray(), df[name].to_ndarray())


def test_arrays_of_arrow_and_polars():
    _assert_values(ak.array(pa.array([1, 2, 3], pa.int16())), np.array([1, 2, 3]))
    _assert_values(ak.array(pa.array([1, None], pa.int64())), pa.array([1, None]).to_pandas().to_numpy())
    _assert_values(ak.array(pa.chunked_array([[1.5], [None, 2.5]])), np.array([1.5, np.nan, 2.5]))
    _assert_values(ak.array(pa.chunked_array([["é"], ["b", None]])), ["é", "b", ""])
    _assert_values(ak.array(pl.Series("x", [3, None, 5])), pl.Series("x", [3, None, 5]).to_pandas().to_numpy())
    _assert_values(ak.array(pl.Series("s", ["日本", None])), ["日本", ""])
    assert ak.array(pa.array([1, 2]), dtype=ak.float64).dtype == np.float64
    cat = ak.array(pl.Series(["x", "y", None, "x"], dtype=pl.Categorical))
    assert isinstance(cat, ak.Categorical)
    assert cat.to_list() == ["x", "y", "N/A", "x"]
    assert ak.array(pa.array([1, 2], pa.decimal128(5, 1))).tolist() == [1.0, 2.0]


def test_pdarray_and_strings_to_arrow():
    a = ak.arange(5) * 2
    assert a.to_arrow().to_pylist() == [0, 2, 4, 6, 8]
    s = ak.array(["x", "ü", ""])
    assert s.to_arrow().to_pylist() == ["x", "ü", ""]


def test_numeric_arrow_buffers_reach_numpy_without_a_copy():
    arr = pa.array(np.arange(100, dtype=np.int64))
    view = interop._numeric_numpy(arr)
    assert view.ctypes.data == arr.buffers()[1].address
    one_chunk = pa.chunked_array([arr])
    assert interop._numeric_numpy(one_chunk).ctypes.data == arr.buffers()[1].address
    # A slice keeps pointing into the same buffer.
    sl = arr.slice(10, 20)
    assert interop._numeric_numpy(sl).ctypes.data == arr.buffers()[1].address + 10 * 8


def test_empty_frames():
    t = pa.table(
        {
            "i": pa.array([], pa.int64()),
            "f": pa.array([], pa.float32()),
            "s": pa.array([], pa.string()),
            "c": pa.array([], pa.string()).dictionary_encode(),
        }
    )
    df = ak.DataFrame(t)
    assert df.shape == (0, 4)
    assert df["i"].dtype == np.int64 and df["f"].dtype == np.float64
    assert isinstance(df["s"], ak.Strings) and df["s"].size == 0
    assert isinstance(df["c"], ak.Categorical) and df["c"].size == 0
    out = df.to_arrow()
    assert out.num_rows == 0 and out.column_names == ["i", "f", "s", "c"]
    assert out.schema.field("s").type == pa.string()
    assert ak.DataFrame(pl.DataFrame({"x": pl.Series([], dtype=pl.Int64)})).shape == (0, 1)
    assert ak.DataFrame(pa.table({})).shape == (0, 0)
    assert ak.DataFrame().to_arrow().num_columns == 0


def test_segarray_column_to_arrow_list():
    sa = ak.SegArray(ak.array([0, 2, 2]), ak.array([1, 2, 3, 4]))
    out = ak.DataFrame({"l": sa}).to_arrow()
    assert out.column("l").to_pylist() == sa.tolist()


def test_categorical_from_pandas_arrow_polars_agree():
    values = ["x", None, "y", "x", None]
    via_pandas = ak.DataFrame(pd.DataFrame({"c": pd.Categorical(values)}))["c"]
    via_arrow = ak.DataFrame(pa.table({"c": pa.array(values).dictionary_encode()}))["c"]
    via_polars = ak.DataFrame(pl.DataFrame({"c": pl.Series(values, dtype=pl.Categorical)}))["c"]
    want = ["N/A" if v is None else v for v in values]
    for c in (via_pandas, via_arrow, via_polars):
        assert c.to_list() == want
        assert c.isna().tolist() == [v is None for v in values]


@pytest.mark.parametrize(
    "col, want",
    [
        (pd.array([1, None, 3], dtype="Int64"), pd.Series([1, None, 3], dtype="Int64").astype("float64")),
        (pd.array([1, 2, 3], dtype="Int64"), np.array([1, 2, 3], dtype=np.int64)),
        (pd.array([7, 8], dtype="UInt32"), np.array([7, 8], dtype=np.uint64)),
        (pd.array([1.5, None], dtype="Float64"), pd.Series([1.5, None], dtype="Float64").astype("float64")),
        (pd.array([True, False], dtype="boolean"), np.array([True, False])),
        (pd.array(["é", None, "c"], dtype="string"), ["é", "", "c"]),
        (pd.Series(["a", None, "c"], dtype=object), ["a", "", "c"]),
        (pd.Series(["a", np.nan], dtype="str"), ["a", ""]),
        (pd.Series([1, None], dtype=pd.ArrowDtype(pa.int64())), np.array([1.0, np.nan])),
        (pd.Series(["q", None], dtype=pd.ArrowDtype(pa.string())), ["q", ""]),
    ],
)
def test_pandas_nullable_dtypes_in(col, want):
    df = ak.DataFrame(pd.DataFrame({"x": col}))
    want = want.to_numpy() if isinstance(want, pd.Series) else want
    _assert_values(df["x"], want)
    # ak.array of the same column agrees with the frame.
    assert _values(ak.array(pd.Series(col))) == _values(df["x"]) if isinstance(want, list) else True
    # Out through Arrow into pandas' nullable dtypes: the values come back (NaN as NA).
    back = df.to_arrow().to_pandas(types_mapper=pd.ArrowDtype)["x"]
    if isinstance(want, list):
        assert back.tolist() == want
    else:
        np.testing.assert_array_equal(back.to_numpy(dtype=want.dtype, na_value=np.nan), want)


def test_pandas_strings_with_missing_values_read_as_parquet_reads_them(tmp_path):
    """A null string is "" from pandas, Arrow, polars and ``ak.read_parquet`` alike."""
    values = ["a", None, "ü", None]
    path = str(tmp_path / "s.parquet")
    pq.write_table(pa.table({"s": pa.array(values, pa.string())}), path)
    from_file = ak.read_parquet(path)["s"].to_list()
    assert ak.DataFrame(pd.DataFrame({"s": values}))["s"].to_list() == from_file
    assert ak.DataFrame(pa.table({"s": values}))["s"].to_list() == from_file
    assert ak.DataFrame(pl.DataFrame({"s": values}))["s"].to_list() == from_file
    assert from_file == ["a", "", "ü", ""]


def test_nan_in_float_columns_and_unicode_round_trip():
    f = [1.0, math.nan, -0.0, math.inf]
    s = ["😀", "ä" * 50, "", "\u0000x"]
    df = ak.DataFrame(pl.DataFrame({"f": f, "s": s}))
    np.testing.assert_array_equal(df["f"].to_ndarray(), np.array(f))
    assert df["s"].to_list() == s
    assert df.to_polars()["s"].to_list() == s


@pytest.mark.parametrize(
    "frame, fragment",
    [
        (lambda: pa.table({"d": pa.array([1], pa.date32())}), "pyarrow.int32()"),
        (lambda: pa.table({"t": pa.array([1], pa.time64("us"))}), "pyarrow.int64()"),
        (lambda: pl.DataFrame({"d": [pd.Timestamp("2020-01-01").date()]}), "polars Date"),
        (lambda: pd.DataFrame({"p": pd.period_range("2020-01", periods=2, freq="M")}), ".astype('int64')"),
    ],
)
def test_date_and_time_of_day_columns_are_refused_naming_the_column(frame, fragment):
    f = frame()
    name = f.columns[0] if not isinstance(f, pa.Table) else f.column_names[0]
    with pytest.raises(TypeError, match=f"column '{name}'") as e:
        ak.DataFrame(f)
    assert fragment in str(e.value)


def test_boolean_with_nulls_is_refused_naming_the_column():
    with pytest.raises(ValueError, match="column 'flag'.*missing"):
        ak.DataFrame(pa.table({"flag": pa.array([True, None])}))
    with pytest.raises(ValueError, match="column 'flag'.*fillna"):
        ak.DataFrame(pd.DataFrame({"flag": pd.array([True, None], dtype="boolean")}))
    with pytest.raises(ValueError, match="column 'flag'"):
        ak.DataFrame(pl.DataFrame({"flag": [True, None]}))


def test_unsupported_arrow_types_name_the_column():
    with pytest.raises(TypeError, match="column 'st'"):
        ak.DataFrame(pa.table({"st": pa.array([{"a": 1}])}))
    with pytest.raises(TypeError, match="column 'n'.*only nulls"):
        ak.DataFrame(pa.table({"n": pa.array([None, None])}))
    with pytest.raises(ValueError, match="distinct"):
        ak.DataFrame(pa.Table.from_arrays([pa.array([1]), pa.array([2])], names=["a", "a"]))
