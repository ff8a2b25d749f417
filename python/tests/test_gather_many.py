"""A DataFrame's rows at int positions (its whole-array number columns gathered together by
``_atoll.gather_many``, one routing of the positions) against pandas' ``take``: random
positions with repeats, negative ones and ones held by other locales, over columns of every
stored dtype, Strings, Categorical, a time column and columns that are views of larger arrays."""

import atoll as ak
import numpy as np
import pandas as pd
import pytest
from atoll import _atoll
from hypothesis import given, strategies as st

WORDS = ["", "a", "bb", "été", "id17", "x" * 30]


def _frames(n, seed):
    rng = np.random.default_rng(seed)
    big = rng.integers(-(2**40), 2**40, 2 * n + 3)
    cols = {
        "i": rng.integers(-(2**62), 2**62, n),
        "u": rng.integers(0, 2**63, n, dtype=np.uint64) * np.uint64(2),
        "f": rng.normal(size=n),
        "b": rng.integers(0, 2, n).astype(bool),
        "u8": rng.integers(0, 256, n).astype(np.uint8),
        "s": np.array([WORDS[k] for k in rng.integers(0, len(WORDS), n)], dtype=object),
        "c": np.array([WORDS[k] for k in rng.integers(0, 3, n)], dtype=object),
        "t": rng.integers(0, 2**50, n).astype("datetime64[ns]"),
        "head": big[:n],  # a prefix view of a longer array: a stored length of its own
        "tail": big[3 : 3 + n],  # a view that starts inside its array
    }
    akd = {k: ak.array(v) for k, v in cols.items() if k not in ("s", "c", "t", "head", "tail")}
    akd["s"] = ak.array(cols["s"].tolist())
    akd["c"] = ak.Categorical(ak.array(cols["c"].tolist()))
    akd["t"] = ak.Datetime(ak.array(cols["t"].astype(np.int64)))
    whole = ak.array(big)
    akd["head"] = whole[:n]
    akd["tail"] = whole[3 : 3 + n]
    return ak.DataFrame(akd), pd.DataFrame(cols)


def _values(col):
    if isinstance(col, ak.Datetime):
        return col.to_ndarray().astype(np.int64)
    return np.asarray(col.to_ndarray())


def _check(n, pos, seed):
    df, pdf = _frames(n, seed)
    got = df[ak.array(np.asarray(pos, dtype=np.int64))]
    want = pdf.take(pos)
    for k in pdf.columns:
        w = want[k].to_numpy()
        if k == "t":
            w = w.astype(np.int64)
        g = _values(got[k])
        assert g.dtype == w.dtype or k in ("s", "c"), (k, g.dtype, w.dtype)
        assert g.tolist() == w.tolist(), k


@given(
    n=st.integers(1, 60),
    data=st.data(),
    seed=st.integers(0, 2**32 - 1),
)
def test_rows_at_positions_match_pandas_take(n, data, seed):
    pos = data.draw(st.lists(st.integers(-n, n - 1), max_size=3 * n))
    _check(n, pos, seed)


def test_many_rows_every_locale_reads_from_every_locale():
    n = 5000
    rng = np.random.default_rng(7)
    pos = rng.integers(-n, n, 3 * n)  # repeats, negatives, every owner
    _check(n, pos, 8)
    _check(n, np.arange(n - 1, -1, -1), 9)  # reversed: all rows move to the other end
    _check(n, np.array([], dtype=np.int64), 10)


def test_out_of_range_position_is_an_index_error():
    df, _ = _frames(10, 1)
    with pytest.raises(IndexError):
        df[ak.array([0, 10])]
    with pytest.raises(IndexError):
        df[ak.array([-11])]


def test_binding_matches_one_gather_per_column():
    rng = np.random.default_rng(3)
    n = 997
    arrs = [ak.array(rng.integers(0, 99, n)), ak.array(rng.normal(size=n)), ak.array(rng.integers(0, 2, n) > 0)]
    pos = ak.array(rng.integers(0, n, 2500))
    got = _atoll.gather_many([a._arr for a in arrs], pos._ex(), pos.size)
    for a, g in zip(arrs, got):
        assert ak.pdarray(g).to_ndarray().tolist() == a.to_ndarray()[pos.to_ndarray()].tolist()
    assert _atoll.gather_many([], pos._ex(), pos.size) == []
    with pytest.raises(ValueError):
        _atoll.gather_many([arrs[0]._arr, ak.arange(3)._arr], pos._ex(), pos.size)
    with pytest.raises(IndexError):
        bad = ak.array([n])
        _atoll.gather_many([arrs[0]._arr], bad._ex(), 1)


def test_whole_number_columns_go_in_one_call(monkeypatch):
    calls = []
    real = _atoll.gather_many

    def spy(arrs, idx, n):
        calls.append(len(arrs))
        return real(arrs, idx, n)

    monkeypatch.setattr(_atoll, "gather_many", spy)
    df, pdf = _frames(40, 2)
    pos = [5, -1, 39, 0, 5]
    got = df[ak.array(pos)]
    # i, u, f, b, u8, t (its int64 values) in one call; "head" (a longer stored array) in another.
    assert sorted(calls) == [1, 6]
    assert _values(got["f"]).tolist() == pdf.take(pos)["f"].tolist()
