"""Merges with one small side (the lookup join of ``atoll.pandas.join``): every ``how``, one
to three keys of int, str and categorical kinds, duplicate keys on the small side, empty
sides and keys absent on either side, against pandas' merge; the row order against the
documented contract (``sort=True``: key order, within a key the left rows in order each
with the right rows in order, for ``how='right'`` each right row with the left rows in
turn; ``sort=False``: the order of the left rows, rows without one last in the right
rows' order), derived from pandas' result with row numbers."""

import atoll as ak
import numpy as np
import pandas as pd
import pytest
from atoll import sorting
from atoll.pandas import groupbyclass, join
from hypothesis import given, strategies as st

HOWS = ["inner", "left", "right", "outer"]
INT_POOLS = {"small": [1, 2, 3, 5, 8, 9], "wide": [-(2**62), -7, 0, 10**15, 3 * 10**17, 2**62]}
STR_POOL = ["a", "b", "bb", "", "é", "zz"]


def _column(kind, values):
    if kind == "str":
        return pd.array([STR_POOL[v] for v in values], dtype="str")
    if kind == "cat":
        return pd.Categorical([STR_POOL[v] for v in values])
    return np.array([INT_POOLS[kind][v] for v in values], dtype=np.int64)


@st.composite
def cases(draw):
    nkeys = draw(st.integers(1, 3))
    kinds = draw(st.lists(st.sampled_from(["small", "wide", "str", "cat"]), min_size=nkeys, max_size=nkeys))
    # The small side draws its keys from the first 4 values of each pool, the big side from
    # all 6: keys absent on either side, duplicates on both.
    ns = draw(st.integers(0, 6))
    nb = draw(st.integers(0, 30))
    small_keys = [draw(st.lists(st.integers(0, 3), min_size=ns, max_size=ns)) for _ in kinds]
    big_keys = [draw(st.lists(st.integers(0, 5), min_size=nb, max_size=nb)) for _ in kinds]
    names = [f"k{i}" for i in range(nkeys)]
    small = pd.DataFrame({n: _column(k, v) for n, k, v in zip(names, kinds, small_keys)})
    big = pd.DataFrame({n: _column(k, v) for n, k, v in zip(names, kinds, big_keys)})
    small["a"] = np.arange(ns, dtype=np.int64) * 10
    small["t"] = pd.array([f"t{i}" for i in range(ns)], dtype="str")
    big["a"] = np.arange(nb, dtype=np.int64)
    big["b"] = np.arange(nb, dtype=np.float64) / 4
    big["s"] = pd.array([f"s{i % 3}" for i in range(nb)], dtype="str")
    small_left = draw(st.booleans())
    left, right = (small, big) if small_left else (big, small)
    return left, right, names, kinds, draw(st.sampled_from(HOWS)), draw(st.booleans())


def _expected(left, right, on, how, sort):
    """pandas' merge, rows put in the documented order by their row numbers."""
    lr = left.assign(_lr=np.arange(len(left)))
    rr = right.assign(_rr=np.arange(len(right)))
    m = lr.merge(rr, on=on, how=how, sort=False, suffixes=("_x", "_y"))
    if sort:
        by = on + (["_rr", "_lr"] if how == "right" else ["_lr", "_rr"])
    else:
        by = ["_lr", "_rr"]
    m = m.sort_values(by, kind="stable", na_position="last")
    return m.drop(columns=["_lr", "_rr"]).reset_index(drop=True)


def _norm(df):
    """Every value as text (missing values as 'nan', as Atoll's Strings write them)."""
    out = pd.DataFrame({c: [("nan" if pd.isna(v) else str(v)) for v in df[c].tolist()] for c in df.columns})
    return out.reset_index(drop=True)


def _check(left, right, on, how, sort, ordered=True):
    got = ak.merge(ak.DataFrame(left), ak.DataFrame(right), on=on, how=how, sort=sort).to_pandas()
    want = _expected(left, right, on, how, sort)
    assert list(got.columns) == list(want.columns)
    g, w = _norm(got), _norm(want)
    if not ordered:
        g = g.sort_values(list(g.columns), kind="stable").reset_index(drop=True)
        w = w.sort_values(list(w.columns), kind="stable").reset_index(drop=True)
    pd.testing.assert_frame_equal(g, w)


@given(cases())
def test_small_side_merge_matches_pandas(case):
    left, right, on, kinds, how, sort = case
    # Categorical keys sort by their categories' codes: the rows are compared as a multiset.
    _check(left, right, on, how, sort, ordered="cat" not in kinds)


@pytest.mark.parametrize("how", HOWS)
@pytest.mark.parametrize("sort", [True, False])
def test_many_small_keys_and_unmatched_rows(how, sort):
    # A small side of 1500 distinct strings (hashed slots holding several keys) and wide ints.
    rng = np.random.default_rng(7)
    words = np.array([f"w{i}-{i * 7919 % 1013}" for i in range(2000)], dtype=object)
    small = pd.DataFrame(
        {
            "s": pd.array(words[rng.permutation(2000)[:1500]], dtype="str"),
            "i": rng.integers(0, 3, 1500) * 10**16,
            "v": np.arange(1500),
        }
    )
    big = pd.DataFrame(
        {
            "s": pd.array(words[rng.integers(0, 2000, 4000)], dtype="str"),
            "i": rng.integers(0, 4, 4000) * 10**16,
            "w": rng.random(4000),
        }
    )
    _check(big, small, ["s", "i"], how, sort)
    _check(small, big, ["s"], how, sort)


class _Recorder:
    """The sizes of the keys that GroupBy and coargsort are given while it is installed."""

    def __init__(self, monkeypatch):
        self.sizes = []
        base_groupby, base_coargsort = groupbyclass.GroupBy, sorting.coargsort
        rec = self

        def groupby(keys, *a, **k):
            rec.sizes.append(_size(keys))
            return base_groupby(keys, *a, **k)

        def coargsort(arrays, *a, **k):
            rec.sizes.append(_size(arrays))
            return base_coargsort(arrays, *a, **k)

        monkeypatch.setattr(groupbyclass, "GroupBy", groupby)
        monkeypatch.setattr(join, "GroupBy", groupby, raising=False)
        monkeypatch.setattr(sorting, "coargsort", coargsort)


def _size(keys):
    k = keys[0] if isinstance(keys, (list, tuple)) else keys
    return k.size


@pytest.mark.parametrize("how", ["inner", "left"])
def test_big_side_is_not_sorted(monkeypatch, how):
    # Distinct keys on the small side and the big side's order kept (sort=False): the big
    # side's keys are looked up, never grouped or sorted.
    rng = np.random.default_rng(3)
    big = pd.DataFrame(
        {"k": pd.array([f"key{v}" for v in rng.integers(0, 300, 3000)], dtype="str"), "x": np.arange(3000)}
    )
    small = pd.DataFrame({"k": pd.array([f"key{v}" for v in range(265)], dtype="str"), "y": np.arange(265) * 2})
    bl, sr = ak.DataFrame(big), ak.DataFrame(small)
    rec = _Recorder(monkeypatch)
    got = ak.merge(bl, sr, on="k", how=how, sort=False).to_pandas()
    assert max(rec.sizes, default=0) < len(small) * 2
    want = _expected(big, small, ["k"], how, False)
    pd.testing.assert_frame_equal(_norm(got), _norm(want))


@given(st.lists(st.integers(-8, 7), max_size=12))
def test_frame_row_gather_matches_iloc(positions):
    # One index array for every column kind, negative positions counted from the end.
    pdf = pd.DataFrame(
        {
            "i": np.arange(7, dtype=np.int64) * 3,
            "f": np.arange(7, dtype=np.float64) / 2,
            "s": pd.array(list("abcdefg"), dtype="str"),
            "c": pd.Categorical(list("xyxyzzx")),
        }
    )
    df = ak.DataFrame(pdf)
    idx = ak.array(np.array(positions, dtype=np.int64))
    if any(p < -7 or p > 6 for p in positions):
        with pytest.raises(IndexError):
            df[idx]
        return
    got = df[idx].to_pandas()
    want = pdf.iloc[positions].reset_index(drop=True)
    pd.testing.assert_frame_equal(_norm(got), _norm(want))
