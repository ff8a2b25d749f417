"""Series and Index behaviour of Arkouda's API, checked against pandas: label selection and
assignment (with Arkouda's TypeError where a key or value is not of the labels' or values' kind),
``iloc``, ``has_repeat_labels``, ``to_pandas`` of a Series whose name pandas cannot hold,
``ak.array`` of an Index and ``Series.concat(axis=1)`` of Series with different labels."""

import atoll as ak
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, strategies as st

STRINGS = ["A", "C", "C", "DE", "Z"]
FLOATS = [0.0, 1.5, 0.5, 1.5, -1.0]
INTS = [0, 1, 3, 7, 3]


def same(s, p):
    assert s.index.tolist() == p.index.tolist()
    assert s.values.tolist() == p.values.tolist()


def test_to_pandas_leaves_out_an_unhashable_name():
    idx = ak.arange(4)
    s = ak.Series(ak.arange(4) * 2, idx)  # the second argument is the name, as Arkouda's
    pd.testing.assert_series_equal(s.to_pandas(), pd.Series(np.arange(4) * 2, index=np.arange(4)))
    named = ak.Series(ak.arange(4), name="x").to_pandas()
    assert named.name == pd.Series(np.arange(4), name="x").name


@pytest.mark.parametrize("labels", [INTS, FLOATS, STRINGS, [0, 1, 2, 3, 4]])
def test_has_repeat_labels_is_a_method(labels):
    s = ak.Series(ak.array(FLOATS), index=ak.array(labels))
    assert s.has_repeat_labels() == (not pd.Index(labels).is_unique)


def test_array_of_index():
    for labels in (INTS, STRINGS):
        i = ak.Index(ak.array(labels))
        assert ak.array(i).tolist() == pd.Index(labels).tolist()
    assert ak.array(ak.Index(ak.array([1, 2], dtype=ak.uint64))).dtype == np.dtype(np.uint64)


def test_getitem_key_kinds():
    s1 = ak.Series(ak.array(FLOATS), index=ak.array(STRINGS))
    p1 = pd.Series(FLOATS, index=STRINGS)
    for key in (1, 1.0, [1, 2], [1.0], ak.array([1, 2])):
        with pytest.raises(TypeError):
            s1[key]
    same(s1[["C", "DE"]], p1[["C", "DE"]])
    same(s1[ak.array(["A", "Z"])], p1[np.array(["A", "Z"])])
    mask = [True, False, True, False, False]
    same(s1[mask], p1[mask])
    with pytest.raises(IndexError):
        s1[[True, False]]
    s3 = ak.Series(ak.array(INTS), index=ak.array(FLOATS))
    p3 = pd.Series(INTS, index=FLOATS)
    for key in (1, "A", ["A"], ak.array([1, 2])):
        with pytest.raises(TypeError):
            s3[key]
    assert s3[0.0] == p3[0.0]
    same(s3[[0.5, 0.0]], p3[[0.5, 0.0]])
    with pytest.raises(KeyError):
        p3[[1.5, 1.2]]
    with pytest.raises(KeyError):
        s3[[1.5, 1.2]]


@given(data=st.data())
def test_getitem_labels_like_pandas(data):
    labels = data.draw(st.lists(st.integers(0, 6), min_size=2, max_size=12, unique=True))
    keys = data.draw(st.lists(st.sampled_from(labels), min_size=2, max_size=8, unique=True))
    values = np.arange(len(labels), dtype=np.int64) * 10
    s = ak.Series(ak.array(values), index=ak.array(labels))
    p = pd.Series(values, index=labels)
    same(s[keys], p[keys])
    absent = data.draw(st.integers(7, 9))
    with pytest.raises(KeyError):
        p[keys + [absent]]
    with pytest.raises(KeyError):
        s[keys + [absent]]


def test_setitem_by_label_like_pandas():
    s = ak.Series(ak.array(FLOATS), index=ak.array(STRINGS))
    p = pd.Series(FLOATS, index=STRINGS)
    for key, val in (("A", 0.2), ("C", 1.2), ("C", [0.3, 0.4]), ("C", [0.7]), ("X", 0.0)):
        s[key] = val
        p[key] = val
        same(s, p)
    with pytest.raises(ValueError):
        p["C"] = [0.4, 0.3, 0.2]
    with pytest.raises(ValueError):
        s["C"] = [0.4, 0.3, 0.2]
    # A value of another kind than the values is a TypeError (Arkouda's rule).
    for key, val in (("A", 1), ("A", "C"), (1, 1.0), (1.0, 1.0)):
        with pytest.raises(TypeError):
            s[key] = val
    strs = ak.Series(ak.array(STRINGS), index=ak.array(INTS))
    with pytest.raises(TypeError):
        strs[7] = "L"


def test_setitem_by_labels_like_pandas():
    labels = ["A", "C", "DE", "F", "Z"]
    s = ak.Series(ak.array(INTS), index=ak.array(labels))
    p = pd.Series(INTS, index=labels)
    s[["A", "Z"]] = 2
    p[["A", "Z"]] = 2
    same(s, p)
    s[ak.array(["Z", "C", "F"])] = [10, 11, 12]
    p[np.array(["Z", "C", "F"])] = [10, 11, 12]
    same(s, p)
    with pytest.raises(ValueError):
        p[np.array(["A", "Z"])] = [3]
    with pytest.raises(ValueError):
        s[ak.array(["A", "Z"])] = [3]
    with pytest.raises(KeyError):
        p[["B", "D"]] = 0
    with pytest.raises(KeyError):
        s[["B", "D"]] = 0
    same(s, p)
    repeated = ak.Series(ak.array(FLOATS), index=ak.array(STRINGS))
    with pytest.raises(ValueError):
        repeated[["A", "Z"]] = 2.0


def test_iloc_like_pandas():
    s = ak.Series(ak.array(FLOATS), index=ak.array(STRINGS))
    p = pd.Series(FLOATS, index=STRINGS)
    s.iloc[[1, 2]] = 0.2
    p.iloc[[1, 2]] = 0.2
    same(s, p)
    s.iloc[[3, 4]] = [0.4, 0.5]
    p.iloc[[3, 4]] = [0.4, 0.5]
    same(s, p)
    mask = [True, False, False, True, False]
    same(s.iloc[mask], p.iloc[mask])
    s.iloc[mask] = [0.5, 0.6]
    p.iloc[mask] = [0.5, 0.6]
    same(s, p)
    with pytest.raises(ValueError):
        p.iloc[[3, 4]] = [0.3]
    with pytest.raises(ValueError):
        s.iloc[[3, 4]] = [0.3]
    with pytest.raises(IndexError):
        p.iloc[[3, 5]]
    with pytest.raises(IndexError):
        s.iloc[[3, 5]]
    with pytest.raises(TypeError):
        s.iloc[1, 3]
    with pytest.raises(TypeError):
        s.iloc[0] = 1


def test_concat_axis1_of_different_labels():
    s = ak.Series(ak.arange(5))
    s2 = ak.Series(ak.arange(5, 11), index=ak.arange(5, 11))
    got = ak.Series.concat([s, s2], axis=1).to_pandas()
    p = pd.concat([s.to_pandas(), s2.to_pandas()], axis=1).fillna(0).astype(np.int64)
    assert got.columns.tolist() == ["idx", "val_0", "val_1"]
    assert got["idx"].tolist() == p.index.tolist()
    assert got["val_0"].tolist() == p[0].tolist()
    assert got["val_1"].tolist() == p[1].tolist()
    same_index = ak.Series.concat([s, s], axis=1).to_pandas()
    assert same_index["val_1"].tolist() == list(range(5))


def test_index_equals_needs_an_index():
    i = ak.Index(ak.array([1, 2, 3]))
    assert i.equals(ak.Index(ak.array([1, 2, 3]))) == pd.Index([1, 2, 3]).equals(pd.Index([1, 2, 3]))
    m = ak.MultiIndex([ak.arange(3), ak.arange(3)])
    for idx in (i, m):
        with pytest.raises(TypeError):
            idx.equals("string")
    assert not m.equals(i)


def test_get_level_values_like_pandas_and_level_range():
    arrays = [np.arange(3), np.arange(3) * -1, np.array(["a", "b", "c"])]
    m = ak.MultiIndex([ak.array(a) for a in arrays], names=["c1", "c2", "c3"])
    p = pd.MultiIndex.from_arrays(arrays, names=["c1", "c2", "c3"])
    for level in (0, 1, 2, -1, -2, "c2"):
        got = m.get_level_values(level)
        want = p.get_level_values(level)
        assert got.tolist() == want.tolist()
        assert got.name == want.name
    for level in (3, -3, "c4"):
        with pytest.raises(ValueError):
            m.get_level_values(level)


def test_list_index_kinds_and_concat():
    with pytest.raises(TypeError, match="same type"):
        ak.Index([1, "a", 2], allow_list=True)
    with pytest.raises(TypeError, match="same type"):
        ak.Index(["a", None, "c"], allow_list=True)
    i = ak.Index([1, 2, 3], allow_list=True)
    i2 = ak.Index(["a", "b", "c"], allow_list=True)
    assert i.concat(i2).tolist() == np.asarray([1, 2, 3, "a", "b", "c"]).tolist()
    assert i.concat(i).tolist() == np.asarray([1, 2, 3, 1, 2, 3]).tolist()


def test_multiindex_series_get_and_set_like_pandas():
    mi = ak.MultiIndex([ak.array([1, 1, 2]), ak.array(["a", "b", "a"])])
    s = ak.Series(ak.array([10, 20, 30]), index=mi)
    p = s.to_pandas()
    assert s[(1, "b")] == p[(1, "b")]
    assert s[[(1, "b"), (2, "a")]].values.tolist() == p[[(1, "b"), (2, "a")]].values.tolist()
    s[(1, "a")] = 5
    p[(1, "a")] = 5
    s[[(1, "b"), (2, "a")]] = 7
    p[[(1, "b"), (2, "a")]] = 7
    assert s.values.tolist() == p.values.tolist()
