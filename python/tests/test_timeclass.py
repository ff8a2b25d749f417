"""Datetime and Timedelta (``atoll.numpy.timeclass``) against pandas' own results: the calendar
fields on random nanosecond timestamps (negative epochs and leap years among them), the
arithmetic between the two kinds, rounding, construction, and their use as DataFrame columns,
GroupBy keys and merge keys."""

import datetime
from fractions import Fraction

import atoll as ak
import numpy as np
import pytest
from hypothesis import given, strategies as st

pd = pytest.importorskip("pandas")

# Every int64 but NaT's (the minimum) is a datetime64[ns] pandas reads.
I64 = st.integers(min_value=-(2**63) + 1, max_value=2**63 - 1)
# Days near leap-year and century boundaries (1600, 1900, 2000, 2100 ...) within pandas' range.
DAY_NS = 86_400 * 10**9
EDGE_DAYS = st.sampled_from([-106_000, -25_567, -25_508, -1, 0, 59, 60, 10_956, 11_016, 47_482, 47_541, 106_000])
NEAR_EDGES = st.builds(
    lambda d, r: d * DAY_NS + r, EDGE_DAYS.flatmap(lambda d: st.integers(d - 400, d + 400)), st.integers(0, DAY_NS - 1)
)
NS = st.one_of(I64, NEAR_EDGES)

FIELDS = (
    "year",
    "month",
    "day",
    "hour",
    "minute",
    "second",
    "microsecond",
    "nanosecond",
    "dayofweek",
    "day_of_week",
    "weekday",
    "dayofyear",
    "day_of_year",
    "is_leap_year",
    "quarter",
    "days_in_month",
    "is_month_start",
    "is_month_end",
    "is_year_start",
    "is_year_end",
)

# Arkouda's other names of pandas' fields (pandas deprecates these spellings).
PANDAS_NAME = {"dayofweek": "day_of_week", "weekday": "day_of_week", "dayofyear": "day_of_year"}


def _pd_dt(ns):
    return pd.Series(np.asarray(ns, dtype=np.int64).view("datetime64[ns]")).dt


@given(st.lists(NS, min_size=1, max_size=40))
def test_calendar_fields_equal_pandas(ns):
    d = ak.Datetime(ak.array(np.array(ns, dtype=np.int64)))
    want = _pd_dt(ns)
    for name in FIELDS:
        got = getattr(d, name)
        assert isinstance(got, ak.pdarray) and not isinstance(got, (ak.Datetime, ak.Timedelta)), name
        assert got.tolist() == getattr(want, PANDAS_NAME.get(name, name)).tolist(), name
    iso = want.isocalendar()
    assert d.week.tolist() == iso.week.tolist()
    assert d.weekofyear.tolist() == iso.week.tolist()
    got_iso = d.isocalendar().to_pandas()
    assert got_iso["year"].tolist() == iso.year.tolist()
    assert got_iso["day"].tolist() == iso.day.tolist()
    try:
        midnight = want.normalize().to_numpy()
    except (ValueError, OverflowError):  # pandas refuses the days before the first whole one
        midnight = None
    if midnight is not None:
        assert (d.date.to_ndarray() == midnight).all()
    assert (d.millisecond.to_ndarray() == (want.microsecond // 1000).to_numpy()).all()


@given(st.lists(NS, min_size=1, max_size=40))
def test_timedelta_components_equal_pandas(ns):
    t = ak.Timedelta(ak.array(np.array(ns, dtype=np.int64)))
    want = pd.Series(np.array(ns, dtype=np.int64).view("timedelta64[ns]")).dt
    for name in ("days", "seconds", "microseconds", "nanoseconds"):
        assert getattr(t, name).tolist() == getattr(want, name).tolist(), name
    got = t.components.to_pandas()
    comp = want.components
    for c in comp.columns:
        assert got[c].tolist() == comp[c].tolist(), c
    np.testing.assert_allclose(t.total_seconds().to_ndarray(), want.total_seconds().to_numpy(), rtol=1e-6)


FREQS = ["D", "h", "min", "s", "ms", "us", "15min", "7s"]


@given(st.lists(st.integers(-(2**62), 2**62), min_size=1, max_size=30), st.sampled_from(FREQS))
def test_floor_ceil_round_equal_pandas(ns, freq):
    a = np.array(ns, dtype=np.int64)
    d = ak.Datetime(ak.array(a))
    t = ak.Timedelta(ak.array(a))
    pdd = pd.DatetimeIndex(a.view("datetime64[ns]"))
    pdt = pd.TimedeltaIndex(a.view("timedelta64[ns]"))
    for fn in ("floor", "ceil", "round"):
        gd = getattr(d, fn)(freq)
        gt = getattr(t, fn)(freq)
        assert isinstance(gd, ak.Datetime) and isinstance(gt, ak.Timedelta)
        assert (gd.to_ndarray() == getattr(pdd, fn)(freq).to_numpy()).all(), fn
        assert (gt.to_ndarray() == getattr(pdt, fn)(freq).to_numpy()).all(), fn


def test_halves_round_to_the_even_multiple():
    # 0.5 s, 1.5 s, 2.5 s, -0.5 s, -1.5 s: to the even second, as pandas.
    a = np.array([500, 1500, 2500, -500, -1500], dtype=np.int64) * 10**6
    got = ak.Datetime(ak.array(a)).round("s").to_ndarray()
    assert (got == pd.DatetimeIndex(a.view("M8[ns]")).round("s").to_numpy()).all()


SMALL = st.integers(-(2**52), 2**52)


@given(st.lists(st.tuples(SMALL, SMALL, st.integers(-1000, 1000)), min_size=1, max_size=30))
def test_arithmetic_between_the_kinds_equals_pandas(rows):
    a, b, k = (np.array(c, dtype=np.int64) for c in zip(*rows))
    da, db = ak.Datetime(ak.array(a)), ak.Datetime(ak.array(b))
    ta, tb = ak.Timedelta(ak.array(a)), ak.Timedelta(ak.array(b))
    ki = ak.array(k)
    pda, pdb = pd.Series(a.view("M8[ns]")), pd.Series(b.view("M8[ns]"))
    pta, ptb = pd.Series(a.view("m8[ns]")), pd.Series(b.view("m8[ns]"))
    pk = pd.Series(k)
    cases = [
        (da - db, pda - pdb, ak.Timedelta),
        (da + tb, pda + ptb, ak.Datetime),
        (tb + da, ptb + pda, ak.Datetime),
        (da - tb, pda - ptb, ak.Datetime),
        (ta + tb, pta + ptb, ak.Timedelta),
        (ta - tb, pta - ptb, ak.Timedelta),
        (ta * ki, pta * pk, ak.Timedelta),
        (ki * ta, pk * pta, ak.Timedelta),
        (-ta, -pta, ak.Timedelta),
        (ta.abs(), pta.abs(), ak.Timedelta),
        (abs(ta), pta.abs(), ak.Timedelta),
    ]
    for got, want, cls in cases:
        assert type(got) is cls
        assert (got.to_ndarray() == want.to_numpy()).all()
    for op in ("==", "!=", "<", "<=", ">", ">="):
        got = eval(f"da {op} db")
        assert type(got) is ak.pdarray and got.dtype == bool
        assert got.tolist() == eval(f"pda {op} pdb").tolist()
        assert eval(f"ta {op} tb").tolist() == eval(f"pta {op} ptb").tolist()
    nz = b != 0
    if nz.any():
        tbn, ptbn = ak.Timedelta(ak.array(b[nz])), ptb[nz].reset_index(drop=True)
        tan, ptan = ak.Timedelta(ak.array(a[nz])), pta[nz].reset_index(drop=True)
        assert (tan // tbn).tolist() == (ptan // ptbn).tolist()
        np.testing.assert_allclose((tan / tbn).to_ndarray(), (ptan / ptbn).to_numpy())
        got = tan % tbn
        assert type(got) is ak.Timedelta and (got.to_ndarray() == (ptan % ptbn).to_numpy()).all()


def test_scalars_of_every_kind_on_either_side():
    d = ak.date_range("2021-01-01 12:00:00", periods=10, freq="s")
    ts = pd.Timestamp("2021-01-01 12:00:05")
    for s in (ts, ts.to_pydatetime(), ts.to_datetime64(), np.datetime64("2021-01-01T12:00:05", "s")):
        assert (d < s).tolist() == [i < 5 for i in range(10)]
        assert (s > d).tolist() == [i < 5 for i in range(10)]
        diff = d - s
        assert type(diff) is ak.Timedelta and diff.to_pandas().equals(d.to_pandas() - ts)
        rdiff = s - d
        assert type(rdiff) is ak.Timedelta and rdiff.to_pandas().equals(ts - d.to_pandas())
    one = pd.Timedelta(1, unit="s")
    for s in (one, one.to_pytimedelta(), one.to_timedelta64(), np.timedelta64(1000, "ms")):
        assert type(d + s) is ak.Datetime and (d + s).to_pandas().equals(d.to_pandas() + one)
        assert type(s + d) is ak.Datetime and (s + d).to_pandas().equals(d.to_pandas() + one)
        assert type(d - s) is ak.Datetime and (d - s).to_pandas().equals(d.to_pandas() - one)
    assert d[3] == pd.Timestamp("2021-01-01 12:00:03") and isinstance(d[3], pd.Timestamp)
    assert d.min() == d[0] and d.max() == d[-1] and d.argmax() == 9
    t = d - d[0]
    assert isinstance(t[1], pd.Timedelta) and t.sum() == pd.Timedelta(seconds=45)
    assert t.mean() == pd.Series(t.to_ndarray()).mean()
    assert d.mean() == pd.Series(d.to_ndarray()).mean()


def test_unsupported_operations_raise_type_error():
    d = ak.date_range("2021-01-01", periods=4)
    t = d - d[0]
    n = ak.arange(4)
    for bad in (
        lambda: d + d,
        lambda: d * 2,
        lambda: d + n,
        lambda: n + d,
        lambda: d * t,
        lambda: t * t,
        lambda: t + n,
        lambda: t / 2.5,
        lambda: d.sum(),
        lambda: -d,
        lambda: d**2,
        lambda: t & t,
    ):
        with pytest.raises(TypeError):
            bad()
    with pytest.raises(TypeError):
        d += d
    with pytest.raises(TypeError):
        ak.Datetime(ak.array([1.5]))
    with pytest.raises(TypeError):
        ak.Datetime(np.array([1, 2]))
    with pytest.raises(ValueError):
        ak.Datetime(ak.array([1]), unit="fortnights")


def test_in_place_addition_and_item_assignment():
    a = np.arange(5, dtype=np.int64) * 10**9
    d = ak.Datetime(ak.array(a))
    assert d.second.tolist() == [0, 1, 2, 3, 4]
    d += pd.Timedelta(seconds=10)
    assert d.second.tolist() == [10, 11, 12, 13, 14]
    d -= ak.Timedelta(ak.ones(5, dtype=ak.int64), unit="s")
    assert d.second.tolist() == [9, 10, 11, 12, 13]
    d[0] = pd.Timestamp("2000-02-29 01:02:03")
    assert (d.year[0], d.month[0], d.day[0], d.hour[0]) == (2000, 2, 29, 1)
    d[1:3] = ak.Datetime(ak.array([0, 0]))
    assert d.to_pandas()[1] == pd.Timestamp(0)
    with pytest.raises(TypeError):
        d[0] = 5


UNITS = {
    "W": ("weeks", "w", "week"),
    "D": ("days", "d", "day"),
    "h": ("hours", "H", "hr", "hrs"),
    "min": ("minutes", "minute", "min", "m", "T"),
    "s": ("seconds", "sec", "s"),
    "ms": ("milliseconds", "milli", "ms", "l"),
    "us": ("microseconds", "micro", "us", "u"),
    "ns": ("nanoseconds", "nano", "ns", "n"),
}


def test_construction_from_int64_with_a_unit_numpy_and_pandas():
    vals = np.array([-3, 0, 1, 7, 12345], dtype=np.int64)
    for pdunit, aliases in UNITS.items():
        for u in aliases:
            want = pd.to_timedelta(vals, unit=pdunit).as_unit("ns").to_numpy()
            got = ak.Datetime(ak.array(vals), unit=u)
            assert (got.to_ndarray() == pd.Timestamp(0) + want).all(), u
            assert got[1] == pd.Timestamp(0) and got[2] == pd.Timestamp(0) + pd.Timedelta(1, unit=pdunit)
            td = ak.Timedelta(ak.array(vals), unit=u)
            assert (td.to_ndarray() == want).all(), u
    # NumPy datetime64 of any unit, pandas Index and Series, lists of scalars.
    with pytest.raises(pd.errors.OutOfBoundsDatetime):  # beyond int64 nanoseconds, as pandas
        ak.Datetime(np.array(["1600-03-01"], dtype="datetime64[s]"))
    npd = np.array(["1969-12-31T23:59:59", "2000-02-29T12:00:00", "1700-03-01"], dtype="datetime64[s]")
    want = pd.DatetimeIndex(npd).as_unit("ns")
    for src in (npd, pd.DatetimeIndex(npd), pd.Series(npd), list(pd.DatetimeIndex(npd))):
        d = ak.Datetime(src)
        assert d.to_ndarray().dtype == np.dtype("datetime64[ns]")
        assert d.to_pandas().equals(want)
    tdn = np.array([-5, 0, 86_400 * 3 + 1], dtype="timedelta64[s]")
    for src in (tdn, pd.TimedeltaIndex(tdn), pd.Series(tdn)):
        t = ak.Timedelta(src)
        assert t.to_pandas().equals(pd.TimedeltaIndex(tdn).as_unit("ns"))
    aware = pd.date_range("2021-03-28", periods=3, freq="h", tz="Europe/Paris")
    assert ak.Datetime(aware).to_pandas().equals(aware.tz_convert(None).as_unit("ns"))
    # A copy: the source array is not written through.
    src = ak.array(vals)
    d = ak.Datetime(src)
    d[0] = pd.Timestamp(99)
    assert src[0] == -3
    assert (ak.Datetime(d) == d).all() and ak.Datetime(d) is not d


def test_ranges_equal_pandas():
    assert (
        ak.date_range("2021-01-01", periods=7, freq="12h")
        .to_pandas()
        .equals(pd.date_range("2021-01-01", periods=7, freq="12h"))
    )
    assert (
        ak.date_range("1980-01-01", periods=30, freq="YE")
        .to_pandas()
        .equals(pd.date_range("1980-01-01", periods=30, freq="YE"))
    )
    assert (
        ak.timedelta_range(start="1 day", periods=5, freq="6h")
        .to_pandas()
        .equals(pd.timedelta_range(start="1 day", periods=5, freq="6h"))
    )


def test_repr_names_the_class_and_the_values():
    d = ak.date_range("2021-01-01", periods=8)
    s = repr(d)
    assert s.startswith("Datetime([") and "2021-01-01" in s and "2021-01-08" in s and "datetime64[ns]" in s
    assert "..." in s
    assert "Timedelta(" in repr(d - d[0])


def test_selection_keeps_the_class():
    d = ak.date_range("2021-01-01", periods=10)
    for sel in (d[2:5], d[ak.array([1, 3])], d[d.day > 5], d.copy()):
        assert type(sel) is ak.Datetime
    assert (d[2:5].to_ndarray() == d.to_ndarray()[2:5]).all()
    assert ak.Datetime(ak.arange(5), unit="d").values.dtype == ak.int64


# ----- frames ----------------------------------------------------------------------------------
def _frame(n, seed):
    rng = np.random.default_rng(seed)
    when = pd.Series(rng.integers(-(2**40), 2**40, n) * 10**6 + rng.integers(0, 3, n) * DAY_NS).astype("datetime64[ns]")
    return pd.DataFrame(
        {
            "when": when,
            "dur": pd.to_timedelta(rng.integers(-(10**12), 10**12, n)),
            "k": rng.integers(0, 4, n),
            "v": rng.random(n),
        }
    )


def test_dataframe_columns_from_pandas_and_back():
    pdf = _frame(50, 1)
    df = ak.DataFrame(pdf)
    assert type(df["when"].values if isinstance(df["when"], ak.Series) else df["when"]) in (ak.Datetime,)
    back = df.to_pandas()
    assert back["when"].dtype == np.dtype("datetime64[ns]")
    assert back["dur"].dtype == np.dtype("timedelta64[ns]")
    pd.testing.assert_frame_equal(back, pdf)
    # A row selection and a sort keep the columns' types.
    got = df.sort_values("when").to_pandas()
    want = pdf.sort_values("when", kind="stable").reset_index(drop=True)
    pd.testing.assert_frame_equal(got.reset_index(drop=True), want)


def _col(df, name):
    c = df[name]
    return c.values if isinstance(c, ak.Series) else c


def test_groupby_on_datetime_keys_gives_datetime_unique_keys():
    pdf = _frame(200, 2)
    pdf["day"] = pdf["when"].dt.floor("D")
    d = ak.Datetime(pdf["day"])
    t = ak.Timedelta(pdf["dur"].dt.floor("h"))
    g = ak.GroupBy(d)
    assert type(g.unique_keys) is ak.Datetime
    assert g.unique_keys.to_pandas().equals(pd.DatetimeIndex(np.unique(pdf["day"].to_numpy())))
    keys, sums = g.sum(ak.array(pdf["v"].to_numpy()))
    want = pdf.groupby("day")["v"].sum()
    assert type(keys) is ak.Datetime and keys.to_pandas().equals(pd.DatetimeIndex(want.index))
    np.testing.assert_allclose(sums.to_ndarray(), want.to_numpy())
    g2 = ak.GroupBy([d, t])
    k0, k1 = g2.unique_keys
    assert type(k0) is ak.Datetime and type(k1) is ak.Timedelta
    want2 = pdf.assign(t=pdf["dur"].dt.floor("h")).groupby(["day", "t"]).size()
    assert list(zip(k0.to_pandas(), k1.to_pandas())) == list(want2.index)
    assert g2.size()[1].tolist() == want2.tolist()
    df = ak.DataFrame(pdf[["day", "v"]])
    got = df.groupby("day").sum().to_pandas(retain_index=True)
    assert got.index.dtype == np.dtype("datetime64[ns]")
    np.testing.assert_allclose(got["v"].to_numpy(), want.to_numpy())


def test_merge_on_a_datetime_key_keeps_the_key_type():
    left = _frame(60, 3)
    left["when"] = left["when"].dt.floor("D")
    right = pd.DataFrame(
        {
            "when": left["when"].drop_duplicates().iloc[::2],
            "w": np.arange(len(left["when"].drop_duplicates().iloc[::2])),
        }
    )
    got = ak.merge(ak.DataFrame(left[["when", "v"]]), ak.DataFrame(right), on="when", how="inner")
    assert type(_col(got, "when")) is ak.Datetime
    g = got.to_pandas().sort_values(["when", "v"]).reset_index(drop=True)
    want = (
        pd.merge(left[["when", "v"]], right, on="when", how="inner").sort_values(["when", "v"]).reset_index(drop=True)
    )
    pd.testing.assert_frame_equal(g, want, check_dtype=False)
    assert g["when"].dtype == np.dtype("datetime64[ns]")


def test_datetime_is_a_pdarray_of_int64_nanoseconds():
    d = ak.Datetime(ak.array([1, 2]), unit="us")
    assert isinstance(d, ak.pdarray) and d.dtype == ak.int64
    assert d.values.tolist() == [1000, 2000]
    assert isinstance(datetime.datetime(2020, 1, 1), datetime.datetime)
    assert ak.sort(d).tolist() == [1000, 2000]


@pytest.mark.parametrize("how", ["left", "right", "outer"])
def test_merge_with_missing_rows_gives_nat_in_time_columns(how):
    left = pd.DataFrame({"when": pd.to_datetime(["2020-01-01", "2020-01-02", "2020-01-03"]), "v": [1, 2, 3]})
    right = pd.DataFrame(
        {
            "when": pd.to_datetime(["2020-01-02", "2020-01-04"]),
            "t": pd.to_datetime(["1999-12-31 23:59", "1969-07-20 20:17"]),
            "d": pd.to_timedelta([5, -7], unit="s"),
        }
    )
    got = ak.merge(ak.DataFrame(left), ak.DataFrame(right), on="when", how=how)
    for c in ("when", "t"):
        assert type(_col(got, c)) is ak.Datetime
    assert type(_col(got, "d")) is ak.Timedelta
    g = got.to_pandas().sort_values("when").reset_index(drop=True)
    want = pd.merge(left, right, on="when", how=how).sort_values("when").reset_index(drop=True)
    for c in ("when", "t", "d"):
        assert g[c].dtype.kind == want[c].dtype.kind, c
        assert g[c].isna().tolist() == want[c].isna().tolist(), c
        assert (g[c][~want[c].isna()] == want[c][~want[c].isna()]).all(), c


def test_merge_refuses_a_datetime_key_with_an_int_key():
    a = ak.DataFrame({"k": ak.Datetime(ak.arange(3), unit="d")})
    b = ak.DataFrame({"k": ak.arange(3)})
    with pytest.raises(ValueError, match="merge on"):
        ak.merge(a, b, on="k")


@given(st.lists(I64, min_size=1, max_size=30))
def test_mean_is_exact_for_any_values(ns):
    a = np.array(ns, dtype=np.int64)
    want = round(Fraction(sum(int(x) for x in ns), len(ns)))  # Python ints: no overflow
    assert ak.Datetime(ak.array(a)).mean() == pd.Timestamp(want, unit="ns")
    assert ak.Timedelta(ak.array(a)).mean() == pd.Timedelta(want, unit="ns")


def test_arrow_and_polars_columns_both_ways():
    pl = pytest.importorskip("polars")
    pa = pytest.importorskip("pyarrow")
    ts = pa.array([0, 1_700_000_000_123, None], pa.timestamp("ms", tz="Asia/Tokyo"))
    du = pa.array([-1, 2, 3], pa.duration("us"))
    df = ak.DataFrame(pa.table({"ts": ts, "du": du}))
    assert type(_col(df, "ts")) is ak.Datetime and type(_col(df, "du")) is ak.Timedelta
    want_ts = ts.cast(pa.timestamp("ns", tz="UTC")).to_pandas().dt.tz_localize(None)
    assert _col(df, "ts").to_pandas().equals(pd.DatetimeIndex(want_ts))
    back = df.to_arrow()
    assert back.schema.field("ts").type == pa.timestamp("ns") and back.schema.field("du").type == pa.duration("ns")
    assert back.column("du").to_pylist() == du.cast(pa.duration("ns")).to_pylist()
    pdf = ak.DataFrame(pl.DataFrame({"du": [datetime.timedelta(seconds=-5)]})).to_polars()
    assert pdf["du"].to_list() == [datetime.timedelta(seconds=-5)]
