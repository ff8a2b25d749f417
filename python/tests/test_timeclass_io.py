"""Datetime and Timedelta in files: Parquet timestamp/duration columns (written by pyarrow and
pandas, read by Atoll; written by Atoll, read by pyarrow and pandas) and HDF5 in Arkouda's
layout (an int64 dataset with ``ObjType`` 7 for Datetime, 8 for Timedelta)."""

import glob

import atoll as ak
import numpy as np
import pytest
from hypothesis import given, strategies as st

pd = pytest.importorskip("pandas")
pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
h5py = pytest.importorskip("h5py")

UNIT_NS = {"s": 10**9, "ms": 10**6, "us": 10**3, "ns": 1}


@pytest.mark.parametrize("unit", ["s", "ms", "us", "ns"])
def test_pyarrow_timestamps_and_durations_read_as_datetime_and_timedelta(tmp_path, unit):
    rng = np.random.default_rng(7)
    bound = (2**62) // UNIT_NS[unit]
    v = rng.integers(-bound, bound, 300)
    path = str(tmp_path / f"t-{unit}.parquet")
    table = pa.table(
        {
            "ts": pa.array(v, pa.timestamp(unit)),
            "tz": pa.array(v, pa.timestamp(unit, tz="America/New_York")),
            "du": pa.array(v, pa.duration(unit)),
            "k": np.arange(300),
        }
    )
    pq.write_table(table, path, row_group_size=64)
    got = ak.read_parquet(path)
    want = pd.read_parquet(path)
    assert type(got["ts"]) is ak.Datetime and type(got["tz"]) is ak.Datetime
    assert type(got["du"]) is ak.Timedelta and type(got["k"]) is ak.pdarray
    np.testing.assert_array_equal(got["ts"].to_ndarray(), want["ts"].to_numpy().astype("datetime64[ns]"))
    # A zoned timestamp is its UTC instant.
    np.testing.assert_array_equal(
        got["tz"].to_ndarray(), want["tz"].dt.tz_convert("UTC").dt.tz_localize(None).to_numpy().astype("datetime64[ns]")
    )
    np.testing.assert_array_equal(got["du"].to_ndarray(), want["du"].to_numpy().astype("timedelta64[ns]"))


def test_nulls_in_a_timestamp_column_read_as_nat(tmp_path):
    path = str(tmp_path / "nulls.parquet")
    ts = pd.Series(
        pd.to_datetime(["2020-02-29 10:00:00", None, "1969-12-31 23:59:59.5"], format="ISO8601"), dtype="datetime64[ns]"
    )
    du = pd.Series(pd.to_timedelta([None, "1s", "-2 days"]), dtype="timedelta64[ns]")
    pd.DataFrame({"ts": ts, "du": du}).to_parquet(path)
    got = ak.read_parquet(path)
    assert type(got["ts"]) is ak.Datetime and type(got["du"]) is ak.Timedelta
    assert got["ts"].to_pandas().equals(pd.DatetimeIndex(ts))
    assert got["du"].to_pandas().equals(pd.TimedeltaIndex(du))


@given(st.lists(st.integers(-(2**63) + 1, 2**63 - 1), min_size=1, max_size=50))
def test_atoll_writes_timestamps_that_pyarrow_and_pandas_read(tmp_path_factory, ns):
    base = tmp_path_factory.mktemp("pq")
    a = np.array(ns, dtype=np.int64)
    d = ak.Datetime(ak.array(a))
    t = ak.Timedelta(ak.array(a[::-1].copy()))
    ak.to_parquet({"d": d, "t": t, "n": ak.array(a)}, str(base / "w"), compression="snappy")
    files = sorted(glob.glob(str(base / "w_LOCALE*")))
    table = pa.concat_tables([pq.read_table(f) for f in files])
    assert table.schema.field("d").type == pa.timestamp("ns")
    assert table.schema.field("t").type == pa.duration("ns")
    assert table.schema.field("n").type == pa.int64()
    np.testing.assert_array_equal(table.column("d").to_numpy(), a.view("datetime64[ns]"))
    np.testing.assert_array_equal(table.column("t").to_numpy(), a[::-1].view("timedelta64[ns]"))
    back = ak.read_parquet(str(base / "w_LOCALE*"))
    assert type(back["d"]) is ak.Datetime and type(back["t"]) is ak.Timedelta
    assert back["d"].tolist() == d.tolist() and back["t"].tolist() == t.tolist()
    frame = pd.concat([pd.read_parquet(f) for f in files], ignore_index=True)
    assert frame["d"].dtype == np.dtype("datetime64[ns]") and frame["t"].dtype == np.dtype("timedelta64[ns]")


def test_dataframe_with_time_columns_through_parquet(tmp_path):
    pdf = pd.DataFrame(
        {
            "when": pd.date_range("1960-01-01", periods=40, freq="37D"),
            "dur": pd.to_timedelta(np.arange(-20, 20), unit="h"),
            "v": np.arange(40.0),
        }
    )
    df = ak.DataFrame(pdf)
    df.to_parquet(str(tmp_path / "df"))
    back = ak.DataFrame(ak.read_parquet(str(tmp_path / "df_LOCALE*")))
    pd.testing.assert_frame_equal(
        back.to_pandas()[list(pdf.columns)], pdf.astype({"when": "datetime64[ns]", "dur": "timedelta64[ns]"})
    )
    # Appending a column keeps the time columns' types.
    ak.to_parquet({"w": ak.arange(40)}, str(tmp_path / "df"), mode="append")
    again = ak.read_parquet(str(tmp_path / "df_LOCALE*"))
    assert type(again["when"]) is ak.Datetime and type(again["dur"]) is ak.Timedelta


def test_hdf5_round_trip_in_arkoudas_layout(tmp_path):
    d = ak.date_range("2021-03-14 01:59:59", periods=25, freq="37min")
    t = d - pd.Timestamp("2021-03-14")
    ak.to_hdf({"d": d, "t": t, "i": ak.arange(25)}, str(tmp_path / "h"))
    files = sorted(glob.glob(str(tmp_path / "h_LOCALE*")))
    with h5py.File(files[0], "r") as f:
        assert f["d"].attrs["ObjType"] == 7 and f["t"].attrs["ObjType"] == 8 and f["i"].attrs["ObjType"] == 1
        assert f["d"].dtype == np.int64
    got = ak.read_hdf(str(tmp_path / "h_LOCALE*"))
    assert type(got["d"]) is ak.Datetime and type(got["t"]) is ak.Timedelta and type(got["i"]) is ak.pdarray
    assert got["d"].to_pandas().equals(d.to_pandas()) and got["t"].to_pandas().equals(t.to_pandas())
    # The method, one dataset per file.
    d.to_hdf(str(tmp_path / "m"), dataset="when")
    one = ak.read_hdf(str(tmp_path / "m_LOCALE*"))
    one = one["when"] if isinstance(one, dict) else one
    assert type(one) is ak.Datetime and one.to_pandas().equals(d.to_pandas())


def test_a_file_in_arkoudas_layout_written_by_h5py_reads_as_datetime(tmp_path):
    ns = np.array([-(10**18), 0, 1_600_000_000_123_456_789], dtype=np.int64)
    path = str(tmp_path / "ark_LOCALE0000")
    with h5py.File(path, "w") as f:
        for name, code in (("d", 7), ("t", 8)):
            ds = f.create_dataset(name, data=ns)
            ds.attrs["ObjType"] = code
            ds.attrs["file_version"] = np.float32(2.0)
            ds.attrs["arkouda_version"] = "v2025.01.01"
    got = ak.read_hdf(path)
    assert type(got["d"]) is ak.Datetime and type(got["t"]) is ak.Timedelta
    np.testing.assert_array_equal(got["d"].to_ndarray(), ns.view("datetime64[ns]"))
    np.testing.assert_array_equal(got["t"].to_ndarray(), ns.view("timedelta64[ns]"))


def test_dataframe_with_time_columns_through_hdf5(tmp_path):
    pdf = pd.DataFrame({"when": pd.date_range("2000-02-28", periods=9, freq="7h").as_unit("ns"), "v": np.arange(9)})
    pdf["dur"] = pdf["when"] - pdf["when"].iloc[0]
    ak.DataFrame(pdf).to_hdf(str(tmp_path / "f"))
    got = ak.read_hdf(str(tmp_path / "f_LOCALE*"))
    got = got if isinstance(got, ak.DataFrame) else ak.DataFrame(got)
    pd.testing.assert_frame_equal(got.to_pandas()[list(pdf.columns)], pdf)
