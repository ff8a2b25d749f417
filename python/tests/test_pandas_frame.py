"""ak.DataFrame, ak.Series, ak.Index and ak.merge against pandas: construction and conversion,
selection, sorting, groupby aggregations (keys with NaN, several keys, Strings keys), merges
of every kind on one or several keys (ints, strings, categoricals), concat, drop_duplicates,
isin, dropna, label lookups and aligned arithmetic."""

import atoll as ak
import numpy as np
import pandas as pd
import pytest


def frame(n=200, seed=0, strings=True):
    rng = np.random.default_rng(seed)
    d = {
        "k": rng.integers(0, 12, n),
        "k2": rng.integers(0, 3, n),
        "i": rng.integers(-50, 50, n),
        "u": rng.integers(0, 100, n).astype(np.uint64),
        "f": np.round(rng.normal(size=n), 4),
        "b": rng.integers(0, 2, n).astype(bool),
    }
    if strings:
        d["s"] = np.array([f"w{x}" for x in rng.integers(0, 9, n)])
    return d


def ak_frame(d):
    return ak.DataFrame({k: ak.array(v) for k, v in d.items()})


def test_round_trip_and_basics():
    d = frame()
    pdf = pd.DataFrame(d)
    df = ak.DataFrame(pdf)
    pd.testing.assert_frame_equal(df.to_pandas(), pdf)
    assert df.shape == pdf.shape and df.size == pdf.size and len(df) == len(pdf)
    assert df.columns.values == list(pdf.columns)
    assert str(df.dtypes["s"]) == "str" and str(df.dtypes["i"]) == "int64"
    pd.testing.assert_frame_equal(df.head(7).to_pandas(), pdf.head(7))
    pd.testing.assert_frame_equal(df.tail(5).to_pandas(), pdf.tail(5).reset_index(drop=True))
    m = d["f"] > 0
    pd.testing.assert_frame_equal(df[ak.array(m)].to_pandas(retain_index=True), pdf[m])
    pd.testing.assert_frame_equal(df[["s", "i"]].to_pandas(), pdf[["s", "i"]])
    rows = np.array([5, 1, 1, 30])
    pd.testing.assert_frame_equal(df[ak.array(rows)].to_pandas(retain_index=True), pdf.iloc[rows])
    assert isinstance(df.f, ak.Series) and df.f.tolist() == pdf.f.tolist()


def test_repr_matches_pandas_layout():
    pdf = pd.DataFrame({"a": np.arange(5), "b": ["x", "y", "z", "x", "y"]})
    s = repr(ak.DataFrame(pdf))
    assert s.startswith(repr(pdf).split("\n\n")[0]) and s.endswith("(5 rows x 2 columns)")


@pytest.mark.parametrize("by", ["i", "s", ["k", "f"], ["s", "k"]])
def test_sort_values(by):
    d = frame(seed=1)
    pdf = pd.DataFrame(d)
    df = ak_frame(d)
    got = df.sort_values(by=by).to_pandas()
    want = pdf.sort_values(by=by, kind="stable").reset_index(drop=True)
    pd.testing.assert_frame_equal(got, want)
    # Descending: numbers in nonincreasing order (ties in row order, as Arkouda negates the
    # column); other columns the ascending order reversed.
    if by == "i":
        got = df.sort_values(by=by, ascending=False).to_pandas()
        want = pdf.sort_values(by=by, ascending=False, kind="stable").reset_index(drop=True)
        pd.testing.assert_frame_equal(got, want)
    pd.testing.assert_frame_equal(df.sort_index().to_pandas(retain_index=True), pdf.sort_index())


@pytest.mark.parametrize(
    "agg", ["sum", "mean", "min", "max", "count", "first", "var", "std", "median", "prod", "nunique"]
)
@pytest.mark.parametrize("keys", ["k", ["k", "k2"], "s"])
def test_groupby_aggregations(agg, keys):
    d = frame(seed=2)
    d["f"][::7] = np.nan
    pdf = pd.DataFrame(d)
    df = ak_frame(d)
    cols = ["i", "u", "f"]
    if agg == "nunique":
        cols = ["i", "u"]
    if agg == "first":
        cols = ["i", "u"]  # pandas' first skips NaN, Arkouda's is the first row's value
    if agg == "prod":
        cols = ["f"]  # int products overflow (pandas wraps, Arkouda's are float64)
    got = getattr(df.groupby(keys), agg)(cols).to_pandas(retain_index=True)
    kl = keys if isinstance(keys, list) else [keys]
    g = pdf[kl + cols].groupby(keys, as_index=not isinstance(keys, list))
    want = getattr(g, agg)() if agg != "nunique" else g.nunique()
    want = want[(keys if isinstance(keys, list) else []) + cols]
    if agg in ("prod",):
        got = got.astype({c: float for c in cols})
        want = want.astype({c: float for c in cols})
    pd.testing.assert_frame_equal(
        got, want, check_dtype=agg not in ("sum", "prod", "first", "max", "min"), check_index_type=False, rtol=1e-9
    )


@pytest.mark.parametrize("dropna", [True, False])
def test_groupby_nan_keys_and_size(dropna):
    d = {"a": np.array([1.0, np.nan, 2.0, np.nan, 1.0, 3.0]), "v": np.arange(6.0)}
    df, pdf = ak_frame(d), pd.DataFrame(d)
    pd.testing.assert_frame_equal(
        df.groupby("a", dropna=dropna).sum().to_pandas(retain_index=True), pdf.groupby("a", dropna=dropna).sum()
    )
    pd.testing.assert_series_equal(
        df.groupby("a", dropna=dropna).size().to_pandas(), pdf.groupby("a", dropna=dropna).size()
    )


KEYS = [("k", "k"), (["k", "k2"], ["k", "k2"]), ("s", "s")]


@pytest.mark.parametrize("how", ["inner", "left", "right", "outer"])
@pytest.mark.parametrize("on", KEYS)
@pytest.mark.parametrize("sort", [True, False])
def test_merge_matches_pandas(how, on, sort):
    l_np, r_np = frame(80, 3), frame(60, 4)
    r_np = {("r" + k if k not in ("k", "k2", "s") else k): v for k, v in r_np.items()}
    left, right = ak_frame(l_np), ak_frame(r_np)
    lo, ro = on
    got = ak.merge(left, right, left_on=lo, right_on=ro, how=how, sort=sort).to_pandas()
    want = pd.merge(pd.DataFrame(l_np), pd.DataFrame(r_np), left_on=lo, right_on=ro, how=how, sort=sort)
    assert sorted(got.columns) == sorted(want.columns)
    got = got[list(want.columns)]
    if how in ("inner", "left") or sort:
        # The same rows in the same order (pandas: left order when not sorting).
        for c in want.columns:
            g, w = got[c].to_numpy(), want[c].to_numpy()
            if w.dtype == object and all(isinstance(x, (bool, np.bool_)) or x != x for x in w):
                w = w.astype(float)  # bool with missing values: float64 here (see docs/pandas.md)
            if w.dtype == object or got[c].dtype == object or str(w.dtype) in ("str", "string"):
                assert [str(x) for x in g] == [str(x) if x == x else "nan" for x in w], c
            else:
                np.testing.assert_allclose(g.astype(float), w.astype(float), equal_nan=True, err_msg=c)
    else:
        for c in want.columns:
            g = sorted(str(float(x)) if isinstance(x, (bool, np.bool_)) else str(x) for x in got[c].tolist())
            w = sorted(
                str(float(x)) if isinstance(x, (bool, np.bool_)) else str(x) if x == x else "nan"
                for x in want[c].tolist()
            )
            assert g == w, c


def test_merge_suffixes_and_categoricals():
    a = ak.DataFrame({"key": ak.Categorical(ak.array(["x", "y", "z", "y"])), "v": ak.arange(4)})
    b = ak.DataFrame({"key": ak.Categorical(ak.array(["y", "w", "x"])), "v": ak.arange(3) * 10})
    m = ak.merge(a, b, on="key", left_suffix="_l", right_suffix="_r")
    pm = pd.merge(
        pd.DataFrame({"key": ["x", "y", "z", "y"], "v": range(4)}),
        pd.DataFrame({"key": ["y", "w", "x"], "v": [0, 10, 20]}),
        on="key",
        suffixes=("_l", "_r"),
    )
    assert m["key"].tolist() == pm["key"].tolist()
    assert m["v_l"].tolist() == pm["v_l"].tolist() and m["v_r"].tolist() == pm["v_r"].tolist()


def test_join_on_eq_with_dt():
    a1 = ak.array([1, 2, 2, 3])
    a2 = ak.array([2, 2, 3, 4])
    t1 = ak.array([10, 20, 30, 40])
    t2 = ak.array([21, 40, 41, 0])
    i, j = ak.join_on_eq_with_dt(a1, a2, t1, t2, 5, "abs_dt")
    want = [(x, y) for x in range(4) for y in range(4) if a1[x] == a2[y] and abs(int(t2[y]) - int(t1[x])) <= 5]
    assert sorted(zip(i.tolist(), j.tolist())) == want
    with pytest.raises(ValueError):
        ak.join_on_eq_with_dt(a1, a2, t1, t2, 1000, "abs_dt", result_limit=1)


def test_concat_append_drop_duplicates_isin_dropna():
    d1, d2 = frame(20, 5), frame(15, 6)
    a, b = ak_frame(d1), ak_frame(d2)
    want = pd.concat([pd.DataFrame(d1), pd.DataFrame(d2)], ignore_index=True)
    pd.testing.assert_frame_equal(ak.DataFrame.concat([a, b]).to_pandas(), want)
    a.append(b)
    pd.testing.assert_frame_equal(a.to_pandas(), want)
    dd = ak_frame({"x": np.array([1, 1, 2, 2, 1]), "y": np.array(["a", "a", "b", "c", "a"])})
    got = dd.drop_duplicates().to_pandas().sort_values(["x", "y"]).reset_index(drop=True)
    ref = (
        pd.DataFrame({"x": [1, 1, 2, 2, 1], "y": ["a", "a", "b", "c", "a"]})
        .drop_duplicates()
        .sort_values(["x", "y"])
        .reset_index(drop=True)
    )
    pd.testing.assert_frame_equal(got, ref)
    df = ak.DataFrame({"A": ak.array([7, 3]), "B": ak.array([1, 9])})
    assert df.isin(ak.array([0, 1]))["B"].tolist() == [True, False]
    nan = {"A": np.array([1.0, np.nan, 3.0]), "B": np.array([np.nan, np.nan, 1.0])}
    pd.testing.assert_frame_equal(ak_frame(nan).dropna().to_pandas(retain_index=True), pd.DataFrame(nan).dropna())
    pd.testing.assert_frame_equal(
        ak_frame(nan).dropna(how="all").to_pandas(retain_index=True), pd.DataFrame(nan).dropna(how="all")
    )


def test_series_lookup_and_alignment():
    s = ak.Series(ak.array([10, 20, 30, 40]), index=ak.array(["a", "b", "c", "d"]))
    p = pd.Series([10, 20, 30, 40], index=["a", "b", "c", "d"])
    assert s.loc["c"].tolist() == [30]
    assert s.locate(ak.array(["d", "a"])).tolist() == [40, 10]
    assert s.sort_values(ascending=True).tolist() == p.sort_values().tolist()
    np.testing.assert_array_equal(s.map({10: 1, 30: 3}).to_ndarray(), p.map({10: 1, 30: 3}).to_numpy())
    t = ak.Series(ak.array([1, 2]), index=ak.array(["b", "e"]))
    got = (s + t).to_pandas().sort_index()
    want = p.add(pd.Series([1, 2], index=["b", "e"]), fill_value=0).sort_index()
    np.testing.assert_array_equal(got.to_numpy(), want.to_numpy())
    assert got.index.tolist() == want.index.tolist()
    vc = ak.Series(ak.array([3, 1, 3, 3, 1, 2])).value_counts()
    assert vc.to_pandas().to_dict() == pd.Series([3, 1, 3, 3, 1, 2]).value_counts().to_dict()
    assert ak.Series(ak.array([5, 1, 9, 7])).topn(2).tolist() == [9, 7]


def test_multiindex_and_index():
    mi = ak.MultiIndex([ak.array([1, 1, 2]), ak.array(["a", "b", "a"])], names=["n", "s"])
    pdm = pd.MultiIndex.from_arrays([[1, 1, 2], ["a", "b", "a"]], names=["n", "s"])
    assert mi.tolist() == pdm.tolist() and mi.nlevels == 2
    pd.testing.assert_index_equal(mi.to_pandas(), pdm)
    assert mi.lookup([ak.array([2]), ak.array(["a"])]).tolist() == [False, False, True]
    i = ak.Index(ak.array([3.0, 1.0, 2.0]), name="x")
    pd.testing.assert_index_equal(i.sort_values().to_pandas(), pd.Index([1.0, 2.0, 3.0], name="x"))


def test_rename_takes_pandas_columns_keyword():
    pdf = pd.DataFrame({"a": [1, 2], "b": [3.0, 4.0]})
    df = ak.DataFrame(pdf)
    for m in ({"a": "x"}, str.upper):
        got = df.rename(columns=m).to_pandas()
        pd.testing.assert_frame_equal(got, pdf.rename(columns=m))
        assert df.rename(column=m).columns.tolist() == list(pdf.rename(columns=m).columns)
    with pytest.raises(TypeError):
        df.rename(columns={"a": "x"}, column={"b": "y"})
