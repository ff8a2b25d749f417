"""DataFrame.groupby as pandas users call it, against pandas on the same data: ``agg`` with a
list of operations per column and named aggregations, the ``sort``/``as_index``/``dropna``/
``observed`` keywords, column selection (``gb[col]``, ``gb[[cols]]``), per-group ``corr``,
``nlargest``/``nsmallest``, ``apply`` of a scalar function, and ``dropna`` of frames and
Series."""

import atoll as ak
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, strategies as st

# Values: quarters (sums exact), NaN among them; keys from small pools (repeated keys).
FLOATS = st.one_of(st.integers(-40, 40).map(lambda x: x / 4), st.just(np.nan))


@st.composite
def frames(draw, min_rows=1):
    n = draw(st.integers(min_rows, 40))
    k1 = draw(st.lists(st.integers(0, 4), min_size=n, max_size=n))
    k2 = draw(st.lists(st.integers(-1, 1), min_size=n, max_size=n))
    a = draw(st.lists(FLOATS, min_size=n, max_size=n))
    b = draw(st.lists(FLOATS, min_size=n, max_size=n))
    i = draw(st.lists(st.integers(-9, 9), min_size=n, max_size=n))
    return pd.DataFrame(
        {
            "k1": np.array(k1, dtype=np.int64),
            "k2": np.array(k2, dtype=np.int64),
            "a": np.array(a, dtype=np.float64),
            "b": np.array(b, dtype=np.float64),
            "i": np.array(i, dtype=np.int64),
        }
    )


def _flat(pdf):
    """pandas' two-level columns as Atoll names them: "<column>_<operation>"."""
    if isinstance(pdf.columns, pd.MultiIndex):
        pdf = pdf.copy()
        pdf.columns = [b if a == "" else (a if b == "" else f"{a}_{b}") for a, b in pdf.columns]
    return pdf


def _got(df, index=True):
    """An Atoll DataFrame or Series as pandas, the keys as columns when it is indexed by them."""
    out = df.to_pandas(retain_index=True) if isinstance(df, ak.DataFrame) else df.to_pandas()
    return out


def _same(got, want, check_index=True):
    got = got.reset_index(drop=not check_index) if check_index else got.reset_index(drop=True)
    want = want.reset_index(drop=not check_index) if check_index else want.reset_index(drop=True)
    assert list(got.columns) == list(want.columns), (list(got.columns), list(want.columns))
    for c in got.columns:
        g, w = got[c].to_numpy(), want[c].to_numpy()
        if w.dtype.kind == "f" or g.dtype.kind == "f":
            np.testing.assert_allclose(
                g.astype(float), w.astype(float), rtol=1e-9, atol=1e-12, equal_nan=True, err_msg=c
            )
        else:
            np.testing.assert_array_equal(g, w, err_msg=c)


KEYS = st.sampled_from([["k1"], ["k1", "k2"], "k1"])


@given(frames(), KEYS, st.booleans(), st.booleans())
def test_agg_lists_of_operations_match_pandas(pdf, keys, as_index, sort):
    spec = {"a": ["median", "std", "var", "count"], "b": "sum", "i": ["mean", "min", "max", "size"]}
    kw = dict(as_index=as_index, sort=sort, dropna=True)
    got = ak.DataFrame(pdf).groupby(keys, **kw).agg(spec)
    want = _flat(pdf.groupby(keys, **kw).agg(spec))
    _same(_got(got), want, check_index=as_index)


@given(frames(), KEYS, st.booleans())
def test_named_aggregations_and_a_list_for_every_column_match_pandas(pdf, keys, as_index):
    kw = dict(as_index=as_index, sort=False)
    g = ak.DataFrame(pdf).groupby(keys, **kw)
    pg = pdf.groupby(keys, **kw)
    _same(_got(g.agg(lo=("a", "min"), n=("i", "size"))), pg.agg(lo=("a", "min"), n=("i", "size")), as_index)
    _same(_got(g[["a", "i"]].agg(["sum", "median"])), _flat(pg[["a", "i"]].agg(["sum", "median"])), as_index)


@given(frames(), KEYS, st.booleans(), st.sampled_from(["sum", "mean", "median", "std", "count", "max"]))
def test_sort_false_keeps_first_appearance_order_and_as_index_false_one_key(pdf, keys, as_index, op):
    """The rows in pandas' order exactly (no sort before the comparison)."""
    kw = dict(as_index=as_index, sort=False)
    got = getattr(ak.DataFrame(pdf).groupby(keys, **kw)[["a", "i"]], op)()
    want = getattr(pdf.groupby(keys, **kw)[["a", "i"]], op)()
    _same(_got(got), want, check_index=as_index)


@given(
    frames(), KEYS, st.booleans(), st.sampled_from(["sum", "mean", "median", "std", "var", "min", "nunique", "size"])
)
def test_series_groupby_matches_pandas(pdf, keys, sort, op):
    got = getattr(ak.DataFrame(pdf).groupby(keys, sort=sort)["a"], op)()
    want = getattr(pdf.groupby(keys, sort=sort)["a"], op)()
    assert isinstance(got, ak.Series)
    _same(got.to_pandas().to_frame("a"), want.to_frame("a"))
    got = ak.DataFrame(pdf).groupby(keys, as_index=False, sort=sort)["a"].agg(op)
    want = pdf.groupby(keys, as_index=False, sort=sort)["a"].agg(op)
    _same(_got(got), want, check_index=False)


@given(frames(), KEYS, st.booleans())
def test_per_group_corr_matches_pandas(pdf, keys, as_index):
    """NaN pairs left out, NaN for groups of fewer than two pairs or a constant column."""
    got = ak.DataFrame(pdf).groupby(keys, as_index=as_index)["a"].corr(ak.array(pdf["b"].to_numpy()))
    want = pdf.groupby(keys, as_index=as_index)["a"].corr(pdf["b"])
    if as_index:
        got, want = got.to_pandas().to_frame("a"), want.to_frame("a")
    else:
        got = _got(got)
    _same(got, want, check_index=as_index)


@given(frames(), st.booleans(), st.booleans())
def test_groupby_corr_on_the_dense_and_the_sort_paths_matches_pandas(pdf, two_keys, sorted_first):
    """``GroupBy.corr`` with the groups found by the dense path (no sort) or by a sort made
    before it."""
    keys = ["k1", "k2"] if two_keys else ["k1"]
    arrs = [ak.array(pdf[k].to_numpy()) for k in keys]
    g = ak.GroupBy(arrs if two_keys else arrs[0])
    if sorted_first:
        g.permutation
    _, r = g.corr(ak.array(pdf["a"].to_numpy()), ak.array(pdf["i"].to_numpy()))
    want = pdf.groupby(keys)["a"].corr(pdf["i"].astype(float))
    np.testing.assert_allclose(r.to_ndarray(), want.to_numpy(), rtol=1e-9, atol=1e-12, equal_nan=True)


@given(frames(), KEYS)
def test_the_correlation_matrices_per_group_match_pandas(pdf, keys):
    got = ak.DataFrame(pdf).groupby(keys)[["a", "b", "i"]].corr().to_pandas(retain_index=True)
    want = pdf.groupby(keys)[["a", "b", "i"]].corr()
    _same(got, want)


@given(frames(), st.sampled_from([["k1"], ["k1", "k2"]]), st.integers(0, 3), st.booleans())
def test_nlargest_and_nsmallest_per_group_match_pandas(pdf, keys, n, largest):
    name = "nlargest" if largest else "nsmallest"
    for col in ("a", "i"):
        got = getattr(ak.DataFrame(pdf).groupby(keys)[col], name)(n).to_pandas()
        want = getattr(pdf.groupby(keys)[col], name)(n)
        if len(keys) == 1:
            # pandas gives one group's result without the key level when there is one group.
            want = want if want.index.nlevels == 2 or len(want) == 0 else None
        if want is None:
            continue
        np.testing.assert_array_equal(got.to_numpy(), want.to_numpy())
        if len(want):
            for lv in range(want.index.nlevels):
                np.testing.assert_array_equal(
                    got.index.get_level_values(lv).to_numpy(), want.index.get_level_values(lv).to_numpy()
                )


@given(frames(), st.booleans())
def test_top_two_per_group_as_the_benchmark_writes_it(pdf, as_index):
    kw = dict(as_index=as_index, sort=False, observed=True, dropna=False)
    got = ak.DataFrame(pdf).dropna(subset=["a"])[["k1", "a"]].sort_values("a", ascending=False).groupby("k1", **kw)
    want = pdf.dropna(subset=["a"])[["k1", "a"]].sort_values("a", ascending=False, kind="stable").groupby("k1", **kw)
    _same(_got(got.head(2)), want.head(2))


def test_apply_of_a_scalar_function_matches_pandas():
    rng = np.random.default_rng(5)
    n = 60
    pdf = pd.DataFrame({"k": rng.integers(0, 4, n), "x": rng.normal(size=n), "y": rng.normal(size=n)})
    adf = ak.DataFrame(pdf)
    for as_index in (True, False):
        g, pg = adf.groupby("k", as_index=as_index), pdf.groupby("k", as_index=as_index)
        if as_index:  # (pandas' apply of a selection with as_index=False fails on a scalar)
            g, pg = g[["x", "y"]], pg[["x", "y"]]
        got = g.apply(lambda d: float((d.x - d.y).sum()))
        want = pg.apply(lambda d: (d.x - d.y).sum())
        if as_index:
            np.testing.assert_allclose(got.to_pandas().to_numpy(), want.to_numpy(), rtol=1e-12)
            np.testing.assert_array_equal(got.index.to_pandas().to_numpy(), want.index.to_numpy())
        else:
            g = _got(got)
            np.testing.assert_array_equal(g["k"].to_numpy(), want["k"].to_numpy())
            np.testing.assert_allclose(g[None].to_numpy(), want[None].to_numpy(), rtol=1e-12)
    with pytest.raises(NotImplementedError):
        adf.groupby("k").apply(lambda d: d)


@given(frames(), st.sampled_from(["a", ["a", "b"], ["i"]]), st.sampled_from(["any", "all"]))
def test_dropna_subset_matches_pandas(pdf, subset, how):
    got = ak.DataFrame(pdf).dropna(subset=subset, how=how).to_pandas(retain_index=True)
    want = pdf.dropna(subset=subset, how=how)
    _same(got, want)


@given(frames())
def test_series_dropna_matches_pandas(pdf):
    for c in ("a", "i"):
        got = ak.Series(ak.array(pdf[c].to_numpy())).dropna().to_pandas()
        want = pdf[c].dropna()
        np.testing.assert_array_equal(got.to_numpy(), want.to_numpy())
        np.testing.assert_array_equal(got.index.to_numpy(), want.index.to_numpy())


@given(frames())
def test_series_corr_and_apply_of_it_match_pandas(pdf):
    adf = ak.DataFrame(pdf)
    np.testing.assert_allclose(adf.a.corr(adf.b), pdf.a.corr(pdf.b), rtol=1e-9, equal_nan=True)
    np.testing.assert_allclose(adf.i.corr(adf["a"]), pdf.i.corr(pdf.a), rtol=1e-9, equal_nan=True)
    got = adf[adf.k1 < 2].groupby("k1")[["a", "b"]].apply(lambda d: d.a.corr(d.b))
    want = pdf[pdf.k1 < 2].groupby("k1")[["a", "b"]].apply(lambda d: d.a.corr(d.b))
    # (pandas gives an empty DataFrame for no group)
    np.testing.assert_allclose(got.to_pandas().to_numpy(), want.to_numpy().reshape(-1), rtol=1e-9, equal_nan=True)


def test_keywords_and_errors_as_pandas():
    pdf = pd.DataFrame({"k": [2, 1, 2, 3], "v": [1.0, 2.0, 3.0, 4.0]})
    adf = ak.DataFrame(pdf)
    got = adf.groupby(by="k", sort=False, as_index=False).agg({"v": "sum"}).to_pandas()
    want = pdf.groupby(by="k", sort=False, as_index=False).agg({"v": "sum"})
    _same(got, want, check_index=False)
    names = pd.DataFrame({"c": ["b", "a", "b", "c", "a"], "v": [1.0, 2.0, np.nan, 4.0, 5.0]})
    for sort in (True, False):
        got = ak.DataFrame(names).groupby("c", as_index=False, sort=sort).agg({"v": ["median", "count"]})
        want = _flat(names.groupby("c", as_index=False, sort=sort).agg({"v": ["median", "count"]}))
        _same(got.to_pandas(), want, check_index=False)
    with pytest.raises(TypeError):
        adf.groupby()
    with pytest.raises(KeyError):
        adf.groupby("k")["nope"]
    with pytest.raises(KeyError):
        adf.groupby("k")[["v", "nope"]]
    with pytest.raises(KeyError):
        adf.groupby("k").agg({"nope": "sum"})
    with pytest.raises(KeyError):
        adf.dropna(subset=["nope"])
    with pytest.raises(TypeError):
        adf.groupby("k").agg(3)
    with pytest.raises(TypeError):
        adf.groupby("k").agg(s=("v",))
    with pytest.raises(NotImplementedError):
        adf.groupby("k")["v"].corr(adf["v"], method="spearman")
    with pytest.raises(NotImplementedError):
        adf.v.corr(adf.v, method="kendall")
    with pytest.raises(TypeError):
        ak.Series(ak.array(["a", "b", "c", "d"])).corr(adf["v"])
    cat = ak.DataFrame({"c": ak.Categorical(ak.array(["x", "y", "x"])), "v": ak.array([1, 2, 3])})
    with pytest.raises(NotImplementedError):
        cat.groupby("c", observed=False)
    assert cat.groupby("c", observed=True).agg({"v": "sum"}).to_pandas()["v"].tolist() == [4, 2]
