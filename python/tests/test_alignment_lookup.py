"""ak.numpy.alignment's find and lookup (pdarray, Strings, Categorical and multi-array keys)
against a dict built in Python; regex suffixes (Strings/Categorical.endswith) against
Python's re; list_symbol_table's live arrays. In process and under MPI."""

import gc
import re

import atoll as ak
import numpy as np
import pytest


def _first_index(space_rows):
    first = {}
    for i, r in enumerate(space_rows):
        first.setdefault(r, i)
    return first


@pytest.mark.parametrize("seed", [0, 1])
def test_find_matches_first_occurrence(seed):
    rng = np.random.default_rng(seed)
    space = rng.integers(0, 40, 150)
    query = rng.integers(0, 60, 90)
    first = _first_index(space.tolist())
    want = np.array([first.get(q, -1) for q in query.tolist()])
    got = ak.numpy.alignment.find(ak.array(query), ak.array(space))
    np.testing.assert_array_equal(got.to_ndarray(), want)
    kept = ak.find(ak.array(query), ak.array(space), remove_missing=True)
    np.testing.assert_array_equal(kept.to_ndarray(), want[want != -1])


def test_find_all_occurrences_of_strings():
    rng = np.random.default_rng(3)
    space = [f"w{x}" for x in rng.integers(0, 12, 80)]
    query = [f"w{x}" for x in rng.integers(0, 16, 40)]
    got = ak.numpy.alignment.find(ak.array(query), ak.array(space), all_occurrences=True)
    want = [[i for i, s in enumerate(space) if s == q] for q in query]
    assert got.tolist() == want


def test_find_multi_array_rows_and_type_errors():
    rng = np.random.default_rng(4)
    s1, s2 = rng.integers(0, 5, 60), rng.integers(0, 5, 60)
    q1, q2 = rng.integers(0, 6, 30), rng.integers(0, 6, 30)
    first = _first_index(list(zip(s1.tolist(), s2.tolist())))
    want = [first.get(r, -1) for r in zip(q1.tolist(), q2.tolist())]
    got = ak.find([ak.array(q1), ak.array(q2)], [ak.array(s1), ak.array(s2)])
    assert got.tolist() == want
    with pytest.raises(TypeError):
        ak.find(ak.array(["a"]), ak.arange(3))
    with pytest.raises(TypeError):
        ak.find([ak.arange(3)], [ak.arange(3), ak.arange(3)])


def test_lookup_numbers_strings_and_categorical_values():
    keys = [5, 3, 9, 1, 7]
    vals = [50, 30, 90, 10, 70]
    args = [9, 2, 5, 5, 8, 1]
    d = dict(zip(keys, vals))
    got = ak.numpy.alignment.lookup(ak.array(keys), ak.array(vals), ak.array(args))
    assert got.tolist() == [d.get(a, -1) for a in args]
    got = ak.lookup(ak.array(keys), ak.array([float(v) for v in vals]), ak.array(args), fillvalue=np.nan)
    np.testing.assert_array_equal(got.to_ndarray(), np.array([d.get(a, np.nan) for a in args], dtype=float))
    # String keys, and a Categorical of values: a missing argument gives its missing label.
    skeys = ak.array(["x", "y", "z"])
    cat = ak.Categorical(ak.array(["C", "A", "B"]))
    got = ak.lookup(skeys, cat, ak.array(["z", "q", "x", "y", "x"]))
    assert isinstance(got, ak.Categorical)
    assert got.tolist() == ["B", "N/A", "C", "A", "C"]
    got = ak.lookup(ak.array([1, 2, 3]), ak.Categorical(ak.array(["A", "B", "C"])), ak.array([3, 2, 1, 0]))
    assert got.tolist() == ["C", "B", "A", "N/A"]


@pytest.mark.parametrize("pattern", [r"ing \d", r"\d", r"[a-c]+", r"é|x\w", r"(?:a|b)c?"])
def test_regex_endswith_matches_python(pattern):
    rng = np.random.default_rng(5)
    words = ["string 1", "string\n1", "abc", "ab\n", "éé", "xyz", "b", "1 2"]
    v = [words[i] for i in rng.integers(0, len(words), 60)]
    want = np.array([re.search(f"(?:{pattern})\\Z", x) is not None for x in v])
    np.testing.assert_array_equal(ak.array(v).endswith(pattern, regex=True).to_ndarray(), want)
    cat = ak.Categorical(ak.array(v))
    np.testing.assert_array_equal(cat.endswith(pattern, regex=True).to_ndarray(), want)


def test_list_symbol_table_follows_live_arrays():
    gc.collect()
    before = set(ak.list_symbol_table())
    cat = ak.Categorical(ak.array(["a", "b", "c", "a"]))
    after = set(ak.list_symbol_table())
    # The Categorical's codes and categories at least.
    assert {f"id_{id(cat.codes):x}", f"id_{id(cat.categories):x}"} <= after - before
    assert ak.core.list_symbol_table is ak.list_symbol_table
    del cat
    gc.collect()
    assert not (set(ak.list_symbol_table()) - before)


def test_testing_functions_at_top_level():
    """Arkouda exports its whole testing module at the top level (ak.assert_frame_equal)."""
    for name in ak.testing.__all__:
        assert getattr(ak, name) is getattr(ak.testing, name), name
    df = ak.DataFrame({"a": ak.arange(4), "b": ak.array(["w", "x", "y", "z"])})
    ak.assert_frame_equal(df, ak.DataFrame({"a": ak.arange(4), "b": ak.array(["w", "x", "y", "z"])}))
    with pytest.raises(AssertionError):
        ak.assert_frame_equal(df, ak.DataFrame({"a": ak.arange(4) + 1, "b": ak.array(["w", "x", "y", "z"])}))


# ----- Strings values ---------------------------------------------------------------------


@pytest.mark.parametrize("fill", ["none", -1])
def test_lookup_of_strings_values_matches_a_dict(fill):
    rng = np.random.default_rng(7)
    keys = rng.permutation(50)[:20]
    vals = [f"v{k}é" * int(k % 3) for k in keys]
    args = rng.integers(0, 50, 200)
    table = dict(zip(keys.tolist(), vals))
    want = [table.get(a, str(fill)) for a in args.tolist()]
    got = ak.lookup(ak.array(keys), ak.array(vals), ak.array(args), fillvalue=fill)
    assert isinstance(got, ak.Strings)
    assert got.to_list() == want
    empty = ak.lookup(ak.array(keys[:0]), ak.array(vals)[0:0], ak.array(args[:5]), fillvalue=fill)
    assert empty.to_list() == [str(fill)] * 5
