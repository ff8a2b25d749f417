"""pandas ExtensionArrays over Atoll arrays (``atoll.pandas.extension``) and the ``.str`` /
``.dt`` accessors of Series (``atoll.pandas.accessor``), against pandas with NumPy-backed
values as the reference."""

import atoll as ak
import numpy as np
import pytest
from hypothesis import given, strategies as st

pd = pytest.importorskip("pandas")
from atoll.pandas import extension as ext  # noqa: E402

tm = pd.testing


@pytest.mark.parametrize(
    "spec, cls",
    [
        ("ak_int64", ext.ArkoudaInt64Dtype),
        ("ak.uint64", ext.ArkoudaUint64Dtype),
        ("akuint8", ext.ArkoudaUint8Dtype),
        ("arkouda.float64", ext.ArkoudaFloat64Dtype),
        ("ak_bool", ext.ArkoudaBoolDtype),
        ("ak.bigint", ext.ArkoudaBigintDtype),
        ("ak_String", ext.ArkoudaStringDtype),
        ("ak.category", ext.ArkoudaCategoricalDtype),
    ],
)
def test_prefixed_dtype_strings_resolve_plain_names_stay_numpy(spec, cls):
    assert isinstance(pd.api.types.pandas_dtype(spec), cls)
    plain = cls().name
    if plain in ("int64", "uint64", "uint8", "float64"):
        # The plain name is still NumPy's.
        assert pd.api.types.pandas_dtype(plain) == np.dtype(plain)
    with pytest.raises(TypeError):
        cls.construct_from_string(plain)


@given(st.lists(st.integers(-50, 50), min_size=1, max_size=40), st.integers(-5, 5).filter(bool))
def test_series_arithmetic_and_comparison_match_pandas(values, k):
    want = pd.Series(np.array(values, dtype=np.int64))
    got = pd.Series(pd.array(values, dtype="ak_int64"))
    assert isinstance(got.array, ext.ArkoudaArray)
    for op in (lambda s: s + k, lambda s: s * k, lambda s: s - s, lambda s: s // k, lambda s: s % k):
        tm.assert_series_equal(pd.Series(op(got).to_numpy()), op(want))
    tm.assert_series_equal(pd.Series((got > k).to_numpy()), want > k)
    assert got.sum() == want.sum() and got.min() == want.min() and got.max() == want.max()


@given(st.lists(st.sampled_from(["a", "bb", "", "c", "bb"]), min_size=1, max_size=30))
def test_factorize_and_value_counts_match_pandas(values):
    for ea, ref in (
        (ext.ArkoudaStringArray(ak.array(values)), pd.array(values, dtype=object)),
        (ext.ArkoudaCategorical(ak.Categorical(ak.array(values))), pd.array(values, dtype=object)),
    ):
        codes, uniques = ea.factorize()
        want_codes, want_uniques = pd.factorize(ref)
        np.testing.assert_array_equal(codes, want_codes)
        assert list(uniques.to_numpy()) == list(want_uniques)
        got_counts = dict(zip(ea.value_counts().index.to_numpy().tolist(), ea.value_counts().to_numpy().tolist()))
        assert got_counts == pd.Series(values).value_counts().to_dict()


def test_float_factorize_argsort_and_isna_treat_nan_as_missing():
    values = np.array([2.5, np.nan, 1.0, 2.5, np.nan, -3.0])
    ea = ext.ArkoudaArray(ak.array(values))
    codes, uniques = ea.factorize()
    want_codes, want_uniques = pd.factorize(values)
    np.testing.assert_array_equal(codes, want_codes)
    np.testing.assert_array_equal(uniques.to_numpy(), want_uniques)
    np.testing.assert_array_equal(ea.isna(), np.isnan(values))
    for na_position in ("first", "last"):
        got = ea.argsort(na_position=na_position)
        want = pd.Series(values).sort_values(na_position=na_position, kind="stable").index.to_numpy()
        np.testing.assert_array_equal(values[got], values[want])
    with pytest.raises(ValueError):
        ea.argsort(na_position="middle")


def test_take_with_fill_and_indexing_match_pandas():
    values = [5, 7, 9, 11]
    ea = ext.ArkoudaArray(ak.array(values))
    ref = pd.array(values, dtype="Int64")
    idx = [3, -1, 0, -1]
    got = ea.take(idx, allow_fill=True, fill_value=0).to_numpy()
    np.testing.assert_array_equal(got, ref.take(idx, allow_fill=True, fill_value=0).to_numpy())
    np.testing.assert_array_equal(ea.take([-1, 0]).to_numpy(), np.array(values)[[-1, 0]])
    with pytest.raises(ValueError):
        ea.take([0, -2], allow_fill=True)
    with pytest.raises(IndexError):
        ea.take([4])
    mask = np.array([True, False, True, False])
    np.testing.assert_array_equal(ea[mask].to_numpy(), np.array(values)[mask])
    with pytest.raises(NotImplementedError):
        ea[[True, 1]]
    strs = ext.ArkoudaStringArray(ak.array(["x", "y", "z"]))
    assert strs.take([2, -1], allow_fill=True).to_numpy().tolist() == ["z", ""]


def test_series_and_frame_accessors_roundtrip_against_pandas():
    df = pd.DataFrame({"k": [3, 1, 2, 1], "s": ["a", "b", "c", "d"], "f": [0.5, 1.5, np.nan, 2.0]})
    akdf = df.ak.to_ak()
    assert all(isinstance(akdf[c].array, ext.ArkoudaExtensionArray) for c in df.columns)
    assert akdf.index.ak.is_arkouda and not df.index.ak.is_arkouda
    tm.assert_frame_equal(akdf.ak.collect(), df, check_dtype=False)
    legacy = df.ak.to_ak_legacy()
    assert isinstance(legacy, ak.DataFrame)
    tm.assert_frame_equal(legacy.to_pandas(), df, check_dtype=False)
    s = df["f"].ak.to_ak()
    tm.assert_series_equal(s.ak.collect(), df["f"], check_index_type=False)
    perm = s.ak.argsort().ak.collect().to_numpy()
    np.testing.assert_array_equal(perm, df["f"].sort_values(kind="stable").index.to_numpy())
    with pytest.raises(TypeError):
        df["k"].ak.groupby()
    idx = pd.Index([4, 5, 6], name="n")
    assert idx.ak.to_ak().ak.collect().equals(idx)


def test_string_and_datetime_accessors_match_pandas():
    words = ["apple", "banana", "apricot", "cherry"]
    s = ak.Series(words)
    ref = pd.Series(words)
    for name, arg in (("startswith", "a"), ("endswith", "y"), ("contains", "an")):
        np.testing.assert_array_equal(getattr(s.str, name)(arg).to_pandas().to_numpy(), getattr(ref.str, name)(arg))
    cat = ak.Series(ak.Categorical(ak.array(words)))
    np.testing.assert_array_equal(cat.str.startswith("a").to_pandas().to_numpy(), ref.str.startswith("a"))
    with pytest.raises(AttributeError, match="Can only use .str accessor"):
        ak.Series(ak.array([1, 2])).str
    ns = np.array([1_000_000_000_500, 2_500_000_000_000], dtype="datetime64[ns]")
    got = ak.Series(ak.Datetime(ak.array(ns.astype(np.int64)))).dt.floor("s").to_pandas()
    tm.assert_series_equal(got.astype("datetime64[ns]"), pd.Series(ns).dt.floor("s"), check_index_type=False)
    with pytest.raises(AttributeError, match="Can only use .dt accessor"):
        ak.Series(ak.array([1, 2])).dt


def test_one_value_operands_broadcast_and_mixed_dtypes_do_not_concatenate():
    values = np.array([1, 5, 1, 7])
    ea = ext.ArkoudaArray(ak.array(values))
    for other in ([1], np.array([1])):
        np.testing.assert_array_equal((ea == other).to_numpy(), values == np.asarray(other))
    flags = ext.ArkoudaArray(ak.array([True, False, False]))
    np.testing.assert_array_equal((flags | [True]).to_numpy(), np.array([True, False, False]) | True)
    with pytest.raises(ValueError, match="Lengths must match"):
        ea == [1, 2]
    assert ea._arith_method([1, 2, 3, 4], np.add) is NotImplemented
    with pytest.raises(ValueError, match="same dtype"):
        ext.ArkoudaArray._concat_same_type([ea, ext.ArkoudaArray(ak.array([0.5]))])


@pytest.mark.parametrize(
    "labels, dtype", [(["1", "-2", "30"], "int64"), (["1.5", "2.0", "-3.25"], "float64"), (["True", "False"], "bool")]
)
def test_strings_and_categorical_astype_parse_the_labels_as_pandas(labels, dtype):
    want = pd.Series(labels).astype(dtype).to_numpy() if dtype != "bool" else np.array([v == "True" for v in labels])
    for ea in (ext.ArkoudaStringArray(ak.array(labels)), ext.ArkoudaCategorical(ak.Categorical(ak.array(labels)))):
        got = ea.astype(dtype)
        assert isinstance(got, ext.ArkoudaArray)
        np.testing.assert_array_equal(got.to_numpy(), want)
    with pytest.raises(RuntimeError):
        ext.ArkoudaStringArray(ak.array(["x", "1"])).astype("int64")


def test_map_descending_argsort_and_categorical_codes_match_pandas():
    data = np.array([1, 2, 99, 2])
    got = np.asarray(ext.ArkoudaArray(ak.array(data)).map({1: 10, 2: 20}))
    want = np.asarray(pd.array(data).map({1: 10, 2: 20}))
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)
    words = ["b", "a", "c", "a"]
    perm = ext.ArkoudaStringArray(ak.array(words)).argsort(ascending=False)
    assert [words[i] for i in perm] == sorted(words, reverse=True)
    cat = ak.Categorical(ak.array(["a", "a", "b"]))
    np.testing.assert_array_equal(pd.array(cat, dtype="ak_int64").to_numpy(), cat.codes.to_ndarray())


def test_series_accessor_errors_and_index_to_dict():
    plain = pd.Series([80, 443, 80])
    with pytest.raises(TypeError, match="Series must be Arkouda-backed"):
        plain.ak.groupby()
    keys, counts = plain.ak.to_ak().ak.groupby().size()
    assert dict(zip(keys.tolist(), counts.tolist())) == plain.value_counts().to_dict()
    mi = pd.MultiIndex.from_arrays([pd.array([0, 1, 2], dtype="ak_int64"), pd.array([2, 1, 0], dtype="ak_int64")])
    s = pd.Series(pd.array([5, 6, 7], dtype="ak_int64"), index=mi)
    for bad in (0, [0, 2]):
        with pytest.raises(TypeError):
            s.ak.locate(bad)
    idx = ext.ArkoudaIndexAccessor.from_ak_legacy(ak.Index(ak.arange(3)))
    out = idx.ak.to_dict(labels=["foo", "bar"])
    assert list(out) == ["foo"] and out["foo"].tolist() == list(range(3))
