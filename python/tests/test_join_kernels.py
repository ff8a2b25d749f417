"""The joins' native kernels (``atoll.pandas.join``): merges whose sides carry several Strings
columns (gathered together, one exchange of the positions for a side's columns), through the
lookup join (a small side) and the sort join, every ``how`` and both row orders, against
pandas' merge; the counting sort of small int codes against NumPy's stable argsort; the
lookup of string keys and the gather of string columns against Python's own indexing."""

import atoll as ak
import numpy as np
import pandas as pd
import pytest
from atoll import _atoll
from atoll.pandas import join
from hypothesis import given, strategies as st

HOWS = ["inner", "left", "right", "outer"]
WORDS = ["", "a", "bb", "été", "id17", "x" * 30, "ü-ü", "zz"]


@st.composite
def frames(draw):
    key_kind = draw(st.sampled_from(["int", "str"]))
    nl = draw(st.integers(0, 25))
    nr = draw(st.integers(0, 25))

    def keys(n, top):
        v = draw(st.lists(st.integers(0, top), min_size=n, max_size=n))
        if key_kind == "str":
            return pd.array([f"k{x}" for x in v], dtype="str")
        return np.array(v, dtype=np.int64) * 7 - 3

    def words(n):
        v = draw(st.lists(st.sampled_from(WORDS), min_size=n, max_size=n))
        return pd.array(v, dtype="str")

    left = pd.DataFrame({"k": keys(nl, 5), "s": words(nl), "t": words(nl), "a": np.arange(nl, dtype=np.int64)})
    right = pd.DataFrame({"k": keys(nr, 7), "s": words(nr), "u": words(nr), "b": np.arange(nr) / 2})
    return left, right, draw(st.sampled_from(HOWS)), draw(st.booleans()), draw(st.booleans())


def _expected(left, right, how, sort):
    """pandas' merge, rows put in the documented order by their row numbers."""
    lr = left.assign(_lr=np.arange(len(left)))
    rr = right.assign(_rr=np.arange(len(right)))
    m = lr.merge(rr, on="k", how=how, sort=False, suffixes=("_x", "_y"))
    if sort:
        by = ["k"] + (["_rr", "_lr"] if how == "right" else ["_lr", "_rr"])
    else:
        by = ["_lr", "_rr"]
    m = m.sort_values(by, kind="stable", na_position="last")
    return m.drop(columns=["_lr", "_rr"]).reset_index(drop=True)


def _norm(df):
    """Every value as text (missing values as 'nan', as Atoll's Strings write them)."""
    return pd.DataFrame({c: [("nan" if pd.isna(v) else str(v)) for v in df[c].tolist()] for c in df.columns})


@given(frames())
def test_merge_with_several_string_columns_matches_pandas(case):
    left, right, how, sort, lookup = case
    old = join.SMALL_SIDE_MAX
    join.SMALL_SIDE_MAX = old if lookup else 0  # 0: the sort join
    try:
        got = ak.merge(ak.DataFrame(left), ak.DataFrame(right), on="k", how=how, sort=sort).to_pandas()
    finally:
        join.SMALL_SIDE_MAX = old
    want = _expected(left, right, how, sort)
    assert list(got.columns) == list(want.columns)
    pd.testing.assert_frame_equal(_norm(got), _norm(want))


@given(st.integers(1, 70), st.lists(st.integers(0, 69), max_size=300))
def test_codes_argsort_matches_numpy_stable_argsort(u, raw):
    codes = np.array([c % u for c in raw], dtype=np.int64)
    got = join._codes_argsort(ak.array(codes), u).to_ndarray()
    np.testing.assert_array_equal(got, np.argsort(codes, kind="stable"))


def test_codes_argsort_rejects_codes_out_of_range():
    with pytest.raises(ValueError):
        join._codes_argsort(ak.array(np.array([0, 3, 1], dtype=np.int64)), 3)
    with pytest.raises(ValueError):
        join._codes_argsort(ak.array(np.array([0, -1], dtype=np.int64)), 3)


@given(st.lists(st.sampled_from(WORDS), max_size=60), st.lists(st.sampled_from(WORDS + ["new"]), max_size=8))
def test_strings_lookup_matches_a_dict(big, keys):
    keys = sorted(set(keys))
    got = _atoll.strings_lookup(ak.array(big)._s, keys) if big else None
    if got is not None:
        pos = {w: i for i, w in enumerate(keys)}
        np.testing.assert_array_equal(ak.pdarray(got).to_ndarray(), [pos.get(w, -1) for w in big])


def test_strings_lookup_rejects_repeated_keys():
    with pytest.raises(ValueError):
        _atoll.strings_lookup(ak.array(["a", "b"])._s, ["a", "a"])


@given(st.lists(st.sampled_from(WORDS), min_size=1, max_size=40), st.data())
def test_take_strings_matches_python_indexing(words, data):
    n = len(words)
    idx = data.draw(st.lists(st.integers(0, n - 1), max_size=80))
    other = [w[::-1] + "!" for w in words]
    pos = ak.array(np.array(idx, dtype=np.int64))
    got = _atoll.take_strings([ak.array(words)._s, ak.array(other)._s], pos._ex(), pos.size)
    assert [ak.Strings(g).to_list() for g in got] == [[words[i] for i in idx], [other[i] for i in idx]]


def test_take_strings_rejects_positions_out_of_range():
    s = ak.array(["a", "b", "c"])
    for bad in ([0, 3], [-1]):
        pos = ak.array(np.array(bad, dtype=np.int64))
        with pytest.raises(IndexError):
            _atoll.take_strings([s._s], pos._ex(), pos.size)
