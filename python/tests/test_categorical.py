"""ak.Categorical against pandas.Categorical: codes and categories, comparisons,
string predicates, unique, sorting, GroupBy by a Categorical, from_codes; random strings with
empty strings, non-ASCII UTF-8 and heavy duplicates, in process and under MPI."""

import atoll as ak
import numpy as np
import pandas as pd
import pytest
from conftest import assert_same
from hypothesis import given, strategies as st

ALPHABET = "ab A_é日ß"


def strings(n, seed, alphabet=ALPHABET, maxlen=4):
    rng = np.random.default_rng(seed)
    chars = list(alphabet)
    return ["".join(rng.choice(chars, size=rng.integers(0, maxlen + 1))) for _ in range(n)]


DATA = {
    "random": strings(300, 1),
    "duplicates": strings(400, 2, alphabet="xé", maxlen=2),
    "all_equal": ["ß日"] * 100,
    "with_empty": [""] * 30 + strings(60, 3, maxlen=1),
}


@pytest.fixture(params=sorted(DATA))
def v(request):
    return DATA[request.param]


def test_codes_and_categories_match_pandas(v):
    c = ak.Categorical(ak.array(v))
    p = pd.Categorical(v)  # categories sorted, as ours, then Arkouda's missing-value label
    assert c.categories.to_list() == list(p.categories) + ["N/A"]
    assert_same(c.codes, p.codes.astype(np.int64))
    assert c.size == len(v) and len(c) == len(v) and c.nlevels == len(p.categories) + 1
    assert not c.isna().any()
    assert c.to_list() == v
    np.testing.assert_array_equal(c.to_ndarray(), np.array(v, dtype=str))
    assert c[0] == v[0] and c[-1] == v[-1]
    assert c[3:40:2].to_list() == v[3:40:2]
    cats, counts = c.counts()
    want = pd.Series(v).value_counts().reindex(p.categories).to_numpy().astype(np.int64)
    assert_same(counts, np.append(want, 0))


def test_comparisons_and_predicates(v):
    c = ak.Categorical(ak.array(v))
    p = pd.Categorical(v)
    a = np.array(v, dtype=object)
    for x in {v[0], v[len(v) // 2], "absent", ""}:
        assert_same(c == x, np.asarray(p == x))
        assert_same(c != x, np.asarray(p != x))
    # Another Categorical: same categories (codes compared) and different categories.
    rev = v[::-1]
    assert_same(c == ak.Categorical(ak.array(v)), np.ones(len(v), dtype=bool))
    assert_same(c == ak.Categorical(ak.array(rev)), a == np.array(rev, dtype=object))
    assert_same(c != ak.Categorical(ak.array(rev)), a != np.array(rev, dtype=object))
    for sub in ["a", "é", "日", ""]:
        assert_same(c.contains(sub), np.array([sub in x for x in v]))
        assert_same(c.startswith(sub), np.array([x.startswith(sub) for x in v]))
        assert_same(c.endswith(sub), np.array([x.endswith(sub) for x in v]))
    assert_same(c.contains("a|ß", regex=True), np.array([("a" in x) or ("ß" in x) for x in v]))
    with pytest.raises(ValueError):
        c == ak.Categorical(ak.array(v[:-1] or ["x", "y"]))


def test_unique_sort_argsort(v):
    c = ak.Categorical(ak.array(v))
    u = c.unique()
    assert isinstance(u, ak.Categorical)
    assert u.to_list() == sorted(set(v))
    perm = c.argsort().to_ndarray()
    np.testing.assert_array_equal(perm, np.argsort(np.array(v, dtype=object), kind="stable"))
    np.testing.assert_array_equal(ak.argsort(c).to_ndarray(), perm)
    assert c.sort().to_list() == sorted(v)
    np.testing.assert_array_equal(c.group().to_ndarray(), perm)


def test_groupby_by_a_categorical(v):
    c = ak.Categorical(ak.array(v))
    x = np.arange(len(v), dtype=np.int64) % 7 - 3
    df = pd.DataFrame({"k": pd.Categorical(v), "x": x})
    pg = df.groupby("k", sort=True, observed=True)
    g = ak.GroupBy(c)
    assert isinstance(g.unique_keys, ak.Categorical)
    assert g.unique_keys.to_list() == [str(k) for k in pg.size().index]
    assert_same(g.size()[1], pg.size().to_numpy().astype(np.int64))
    assert_same(g.sum(ak.array(x))[1], pg["x"].sum().to_numpy())
    assert_same(g.min(ak.array(x))[1], pg["x"].min().to_numpy())
    # Mixed with a pdarray.
    j = x % 2
    g2 = ak.GroupBy([c, ak.array(j)])
    sizes = pd.DataFrame({"k": v, "j": j}).groupby(["k", "j"], sort=True).size()
    assert g2.unique_keys[0].to_list() == list(sizes.index.get_level_values(0))
    assert_same(g2.unique_keys[1], sizes.index.get_level_values(1).to_numpy().astype(np.int64))
    assert_same(g2.size()[1], sizes.to_numpy().astype(np.int64))


def test_from_codes_with_unsorted_categories():
    cats = ["zeta", "", "日本", "alpha", "Ä"]
    rng = np.random.default_rng(5)
    codes = rng.integers(0, len(cats), 200)
    c = ak.Categorical.from_codes(ak.array(codes), ak.array(cats))
    p = pd.Categorical.from_codes(codes, categories=cats)
    assert c.to_list() == list(p.astype(str))
    assert c.categories.to_list() == cats + ["N/A"]
    assert_same(c == "alpha", np.asarray(p == "alpha"))
    vals = [cats[i] for i in codes]
    # Sorting and grouping follow the strings, not the codes.
    np.testing.assert_array_equal(c.argsort().to_ndarray(), np.argsort(np.array(vals, dtype=object), kind="stable"))
    assert c.sort().to_list() == sorted(vals)
    g = ak.GroupBy(c)
    sizes = pd.Series(vals).groupby(vals, sort=True).size()
    assert g.unique_keys.to_list() == list(sizes.index)
    assert_same(g.size()[1], sizes.to_numpy().astype(np.int64))
    assert c.unique().to_list() == sorted(set(vals), key=cats.index)
    # A Categorical of the same values with sorted categories compares equal element-wise.
    assert_same(c == ak.Categorical(ak.array(vals)), np.ones(200, dtype=bool))


def test_from_codes_rejects_bad_input():
    cats = ak.array(["a", "b"])
    with pytest.raises(ValueError):
        ak.Categorical.from_codes(ak.array(np.array([0, 2])), cats)
    with pytest.raises(ValueError):
        ak.Categorical.from_codes(ak.array(np.array([-1, 0])), cats)
    with pytest.raises(ValueError):
        ak.Categorical.from_codes(ak.array(np.array([0, 1])), ak.array(["a", "a"]))
    with pytest.raises(TypeError):
        ak.Categorical.from_codes(ak.array(np.array([0.0])), cats)
    with pytest.raises(ValueError):
        ak.Categorical(ak.arange(3))  # Arkouda's error for values that are not strings


@given(st.lists(st.text(alphabet=ALPHABET + "\u0000", max_size=5), min_size=1, max_size=40))
def test_random_lists_match_pandas(v):
    c = ak.Categorical(ak.array(v))
    p = pd.Categorical(v)
    assert c.categories.to_list() == list(p.categories) + ["N/A"]
    assert_same(c.codes, p.codes.astype(np.int64))
    assert c.to_list() == v
