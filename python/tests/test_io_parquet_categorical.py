"""``read_parquet(..., categorical=...)``: string columns (dictionary-encoded or plain, with
nulls, many row groups, many files whose values differ) read straight into a Categorical
equal to pandas' reading of the same files: categories the distinct strings sorted by code
point then "N/A", a null the missing value."""

import atoll as ak
import numpy as np
import pytest
from hypothesis import given, strategies as st

pd = pytest.importorskip("pandas")
pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

POOL = ["", "a", "b", "ab", "B", "id001", "id010", "id100", "é", "z" * 20, "N/A ", "ä€", "0"]


def _want(values, na="N/A"):
    """The categories and codes pandas' values make under Atoll's rule (sorted by code
    point, then ``na`` unless present; a null's code is ``na``'s), from Python strings."""
    present = sorted({v for v in values if v is not None})
    cats = present if na in present else present + [na]
    index = {c: k for k, c in enumerate(cats)}
    return cats, np.array([index[na if v is None else v] for v in values], dtype=np.int64)


def _check(got, values):
    cats, codes = _want(values)
    assert isinstance(got, ak.Categorical)
    assert got.categories.to_list() == cats
    np.testing.assert_array_equal(got.codes.to_ndarray(), codes)
    # Arkouda's rule: a string equal to the missing-value label is missing too.
    missing = [v is None or v == "N/A" for v in values]
    np.testing.assert_array_equal(got.isna().to_ndarray(), np.array(missing, dtype=bool))


def _pandas_values(paths, name):
    """The column ``name`` of the files in order, as pandas reads it (None for a null)."""
    s = pd.concat([pd.read_parquet(p, columns=[name])[name] for p in paths], ignore_index=True)
    return [None if pd.isna(v) else str(v) for v in s.astype(object)]


def _write(path, values, row_group_size, dictionary, as_dict_type):
    arr = pa.array(values, pa.string())
    if as_dict_type:
        arr = arr.dictionary_encode()
    ints = pa.array(np.arange(len(values), dtype=np.int64))
    pq.write_table(pa.table({"s": arr, "i": ints}), path, row_group_size=row_group_size, use_dictionary=dictionary)


@given(
    parts=st.lists(
        st.lists(st.one_of(st.none(), st.sampled_from(POOL)), min_size=0, max_size=60), min_size=1, max_size=4
    ),
    row_group_size=st.integers(1, 40),
    dictionary=st.booleans(),
    as_dict_type=st.booleans(),
)
def test_string_columns_read_as_categoricals_equal_to_pandas(
    tmp_path_factory, parts, row_group_size, dictionary, as_dict_type
):
    d = tmp_path_factory.mktemp("cat")
    paths = []
    for k, values in enumerate(parts):
        p = str(d / f"part-{k}.parquet")
        _write(p, values, row_group_size, dictionary, as_dict_type)
        paths.append(p)
    got = ak.read_parquet(paths, categorical=["s"])
    values = _pandas_values(paths, "s")
    assert values == [v for part in parts for v in part]
    _check(got["s"], values)
    np.testing.assert_array_equal(got["i"].to_ndarray(), np.concatenate([np.arange(len(p)) for p in parts]))


def test_files_split_as_by_different_locale_counts_with_different_categories(tmp_path):
    """One column written as the per-locale files of writes by 1, 2 and 3 locales (uneven
    splits, each file its own dictionary, categories differing between files) and by
    ``ak.to_parquet`` at this locale count."""
    rng = np.random.default_rng(7)
    labels = [f"id{k:03d}" for k in range(1, 101)]
    paths = []
    for nloc in (1, 2, 3):
        n = int(rng.integers(500, 3000))
        # Each write draws from its own part of the labels: the files' dictionaries differ.
        own = labels[nloc * 20 : nloc * 20 + 40]
        values = [None if rng.random() < 0.05 else own[int(rng.integers(0, len(own)))] for _ in range(n)]
        bounds = np.linspace(0, n, nloc + 1).astype(int)
        for loc in range(nloc):
            p = str(tmp_path / f"w{nloc}_LOCALE{loc:04d}.parquet")
            _write(p, values[bounds[loc] : bounds[loc + 1]], 700, True, bool(loc % 2))
            paths.append(p)
    extra = ["zz", "id050", "a", "id001"] * 300
    ak.to_parquet({"s": ak.array(extra), "i": ak.arange(len(extra))}, str(tmp_path / "atoll"))
    paths += sorted(str(p) for p in tmp_path.glob("atoll_LOCALE*.parquet"))
    got = ak.read_parquet(paths, categorical=True)
    values = _pandas_values(paths, "s")
    _check(got["s"], values)
    # Without nulls, the same Categorical as one made from the strings.
    nonnull = ak.read_parquet(paths[-1], categorical="s")["s"]
    made = ak.Categorical(ak.read_parquet(paths[-1])["s"])
    assert nonnull.categories.to_list() == made.categories.to_list()
    np.testing.assert_array_equal(nonnull.codes.to_ndarray(), made.codes.to_ndarray())


def test_a_categorical_frame_groups_and_sorts_as_pandas(tmp_path):
    rng = np.random.default_rng(3)
    n = 5000
    labels = np.array([f"id{k:03d}" for k in range(1, 40)])
    df = pd.DataFrame({"k": pd.Categorical(labels[rng.integers(0, len(labels), n)]), "v": rng.integers(0, 9, n)})
    p = str(tmp_path / "g.parquet")
    df.to_parquet(p, row_group_size=999)
    got = ak.read_parquet(p, categorical=True)
    assert list(got) == ["k", "v"]
    k = got["k"]
    assert k.categories.to_list() == sorted(df["k"].unique().astype(str)) + ["N/A"]
    np.testing.assert_array_equal(k.to_ndarray(), df["k"].astype(str).to_numpy())
    sums = ak.GroupBy(k).sum(got["v"])
    want = df.groupby("k", observed=True)["v"].sum()
    assert list(sums[0].to_ndarray()) == list(want.index.astype(str))
    np.testing.assert_array_equal(sums[1].to_ndarray(), want.to_numpy())


def test_na_value_among_the_strings_is_the_missing_category(tmp_path):
    values = ["N/A", None, "b", "N/A", "a", None]
    p = str(tmp_path / "na.parquet")
    _write(p, values, 4, True, False)
    got = ak.read_parquet(p, categorical=["s"])["s"]
    _check(got, values)
    assert got.categories.to_list() == ["N/A", "a", "b"]


def test_empty_files_and_no_categorical_leave_reads_as_before(tmp_path):
    p = str(tmp_path / "empty.parquet")
    _write(p, [], 10, True, True)
    got = ak.read_parquet(p, categorical=True)["s"]
    assert got.size == 0 and got.categories.to_list() == ["N/A"]
    q = str(tmp_path / "some.parquet")
    _write(q, ["x", None, "y"], 10, True, False)
    for off in (None, False, []):
        s = ak.read_parquet(q, categorical=off)["s"]
        assert isinstance(s, ak.Strings) and s.to_list() == ["x", "", "y"]


def test_bad_categorical_arguments_are_typed_errors(tmp_path):
    p = str(tmp_path / "t.parquet")
    _write(p, ["x", "y"], 10, True, False)
    with pytest.raises(ak.ParquetTypeError):
        ak.read_parquet(p, categorical=["i"])
    with pytest.raises(ValueError):
        ak.read_parquet(p, datasets=["s"], categorical=["i"])
    with pytest.raises(TypeError):
        ak.read_parquet(p, categorical=[3])
    with pytest.raises(ValueError):
        ak.read_parquet(p, categorical=True, tag_data=True)
    # The reads that failed left nothing behind: the session goes on.
    assert ak.read_parquet(p, categorical="s")["s"].categories.to_list() == ["x", "y", "N/A"]
