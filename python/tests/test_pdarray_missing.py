"""Missing values on a pdarray (a DataFrame column), in pandas' words: isna/isnull, notna/notnull,
fillna and dropna as pandas' Series methods (NaN missing for floats; integers, uint64 and bools
hold none), and corr as Arkouda's (Pearson's coefficient, as NumPy's corrcoef)."""

import warnings

import atoll as ak
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, strategies as st

floats = st.lists(st.one_of(st.floats(-1e6, 1e6), st.just(np.nan)), min_size=0, max_size=40)
ints = st.lists(st.integers(-(2**40), 2**40), min_size=0, max_size=40)


def _arrays(values, dtype):
    a = np.array(values, dtype=dtype)
    return ak.array(a), pd.Series(a)


@given(floats)
def test_float_missing_values_as_pandas(values):
    a, s = _arrays(values, np.float64)
    for name in ("isna", "isnull", "notna", "notnull"):
        got = getattr(a, name)()
        assert isinstance(got, ak.pdarray)
        np.testing.assert_array_equal(got.to_ndarray(), getattr(s, name)().to_numpy())
    np.testing.assert_array_equal(a.dropna().to_ndarray(), s.dropna().to_numpy())
    np.testing.assert_array_equal(a.fillna(-1.5).to_ndarray(), s.fillna(-1.5).to_numpy())
    fill = np.arange(len(values), dtype=np.float64)
    np.testing.assert_array_equal(a.fillna(ak.array(fill)).to_ndarray(), s.fillna(pd.Series(fill)).to_numpy())


@pytest.mark.parametrize("dtype", [np.int64, np.uint64, np.bool_])
@given(values=ints)
def test_other_dtypes_hold_no_missing_value(dtype, values):
    vals = np.abs(np.array(values, dtype=np.int64)).astype(dtype) if len(values) else np.array([], dtype=dtype)
    a, s = ak.array(vals), pd.Series(vals)
    np.testing.assert_array_equal(a.isna().to_ndarray(), s.isna().to_numpy())
    np.testing.assert_array_equal(a.notna().to_ndarray(), s.notna().to_numpy())
    got = a.dropna()
    assert got.dtype == s.dropna().dtype
    np.testing.assert_array_equal(got.to_ndarray(), s.dropna().to_numpy())
    got = a.fillna(0)
    np.testing.assert_array_equal(got.to_ndarray(), s.fillna(0).to_numpy())
    assert got.dtype == s.fillna(0).dtype


def test_fillna_bad_value():
    a = ak.array([1.0, np.nan])
    np.testing.assert_array_equal(a.fillna(None).to_ndarray(), pd.Series([1.0, np.nan]).fillna(None).to_numpy())
    with pytest.raises(TypeError):
        pd.Series([1.0, np.nan]).fillna([1, 2])
    with pytest.raises(TypeError):
        a.fillna([1, 2])
    with pytest.raises(ValueError):
        a.fillna(ak.array([1.0, 2.0, 3.0]))


def test_a_frame_filtered_as_pandas_writes_it():
    v = np.array([1.0, np.nan, 3.0, np.nan, 5.0])
    k = np.arange(5)
    df, pdf = ak.DataFrame({"k": ak.array(k), "v": ak.array(v)}), pd.DataFrame({"k": k, "v": v})
    got = df[~df["v"].isna()].to_pandas()
    want = pdf[~pdf["v"].isna()]
    np.testing.assert_array_equal(got["k"].to_numpy(), want["k"].to_numpy())
    np.testing.assert_array_equal(got["v"].to_numpy(), want["v"].to_numpy())


@given(st.lists(st.tuples(st.integers(-1000, 1000), st.floats(-1e3, 1e3)), min_size=2, max_size=40))
def test_corr_as_numpy_and_pandas(pairs):
    x = np.array([p[0] for p in pairs], dtype=np.int64)
    y = np.array([p[1] for p in pairs], dtype=np.float64)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        got = ak.array(x).corr(ak.array(y))
        want = np.corrcoef(x.astype(np.float64), y)[0, 1]
    assert isinstance(got, np.float64)
    if np.isnan(want) or np.std(x) < 1e-9 or np.std(y) < 1e-9:
        return
    np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(got, pd.Series(x).corr(pd.Series(y)), rtol=1e-9, atol=1e-9)


def test_corr_bad_input():
    with pytest.raises(TypeError):
        ak.arange(3).corr([1, 2, 3])
    with pytest.raises(ValueError):
        ak.arange(3).corr(ak.arange(4))


def test_groupby_apply_with_corr_as_pandas():
    rng = np.random.default_rng(3)
    k = rng.integers(0, 4, 60)
    v1, v2 = rng.integers(1, 6, 60), rng.normal(size=60)
    df = ak.DataFrame({"k": ak.array(k), "v1": ak.array(v1), "v2": ak.array(v2)})
    pdf = pd.DataFrame({"k": k, "v1": v1, "v2": v2})
    got = df.groupby("k")[["v1", "v2"]].apply(lambda d: d["v1"].corr(d["v2"]) ** 2).to_pandas()
    want = pdf.groupby("k")[["v1", "v2"]].apply(lambda d: d["v1"].corr(d["v2"]) ** 2)
    np.testing.assert_array_equal(got.index.to_numpy(), want.index.to_numpy())
    np.testing.assert_allclose(got.to_numpy(), want.to_numpy(), rtol=1e-9)
