"""The db-benchmark's questions (bench/python/dbbench.py) on tiny tables: Atoll's answers equal
polars' and DuckDB's, frame for frame (sorted by the keys), not only in their check sums.

The questions Atoll cannot answer as pandas users write them are strict xfails naming the gap:
they fail once the gap closes, and the mark goes."""

import importlib.util
import os
import sys

import numpy as np
import pandas as pd
import pytest

BENCH = os.path.join(os.path.dirname(__file__), "..", "..", "bench", "python")
sys.path.insert(0, os.path.abspath(BENCH))

import dbbench  # noqa: E402
import dbbench_data  # noqa: E402

PEERS = [p for p in ("polars", "duckdb") if importlib.util.find_spec(p) is not None]
N = 10_000

GROUPBY_KEYS = {
    "q1": ["id1"],
    "q2": ["id1", "id2"],
    "q3": ["id3"],
    "q4": ["id4"],
    "q5": ["id6"],
    "q6": ["id4", "id5"],
    "q7": ["id3"],
    "q8": ["id6", "v3"],
    "q9": ["id2", "id4"],
    "q10": ["id1", "id2", "id3", "id4", "id5", "id6"],
}
JOIN_KEYS = {"j1": "id1", "j2": "id2", "j3": "id2", "j4": "id5", "j5": "id3"}

GAPS = {}


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    d = str(tmp_path_factory.mktemp("dbbench"))
    g1 = dbbench_data.make_g1(N, d, k=100, seed=7)
    j1 = dbbench_data.make_j1(N, d, seed=7)
    return g1, j1


@pytest.fixture(scope="module")
def atoll_tables(data):
    g1, j1 = data
    return dbbench.atoll_load_g1(g1), dbbench.atoll_load_j1(j1)


def _normalize(df, q):
    """The compared columns of an answer (as a pandas frame), keys as str/int64, values as
    float64, rows sorted by every compared column."""
    if q.startswith("j"):
        cols = [JOIN_KEYS[q], "v1", "v2"]
    else:
        keys = [k for k in GROUPBY_KEYS[q] if k != "v3" or q != "q8"]
        cols = keys + [c for c in dbbench.atoll_value_columns(None, q) if c not in keys]
    out = {}
    for c in cols:
        s = df[c]
        if c.startswith("id"):
            s = (
                s.astype(str)
                if (s.dtype == object or isinstance(s.dtype, pd.CategoricalDtype) or "str" in str(s.dtype))
                else s.astype(np.int64)
            )
        else:
            s = s.astype(np.float64)
        out[c] = s.to_numpy()
    return pd.DataFrame(out).sort_values(cols, kind="stable", na_position="first").reset_index(drop=True)


def _atoll_frame(ans, q):
    pdf = ans.to_pandas(retain_index=True)
    want = [JOIN_KEYS[q]] if q.startswith("j") else GROUPBY_KEYS[q]
    if any(k not in pdf.columns for k in want):
        pdf = pdf.reset_index()
    return _normalize(pdf, q)


_PEER_TABLES = {}


def _peer_frame(peer, data, q):
    g1, j1 = data
    which = "j1" if q.startswith("j") else "g1"
    key = (peer, which, g1)
    if key not in _PEER_TABLES:
        _PEER_TABLES[key] = getattr(dbbench, f"{peer}_load_{which}")(j1 if which == "j1" else g1)
    t = _PEER_TABLES[key]
    if peer == "polars":
        return _normalize(dbbench.polars_answer(t, q).to_pandas(), q)
    con = dbbench.duckdb_answer(t, q)
    return _normalize(con.execute("SELECT * FROM ans").df(), q)


def _assert_frames_equal(got, want):
    assert list(got.columns) == list(want.columns)
    assert len(got) == len(want), (len(got), len(want))
    for c in got.columns:
        g, w = got[c].to_numpy(), want[c].to_numpy()
        if g.dtype.kind == "f":
            np.testing.assert_allclose(g, w, rtol=1e-9, atol=1e-9, equal_nan=True, err_msg=c)
        else:
            np.testing.assert_array_equal(g, w, err_msg=c)


def _check(data, atoll_tables, q, variant):
    if not PEERS:
        pytest.skip("neither polars nor duckdb is importable: nothing to compare Atoll's answers with")
    x, j = atoll_tables
    ans = dbbench.atoll_answer(j if q.startswith("j") else x, q, variant)
    got = _atoll_frame(ans, q)
    for peer in PEERS:
        _assert_frames_equal(got, _peer_frame(peer, data, q))
    # The benchmark's check values agree too.
    chk = dbbench.atoll_chk(ans, q)
    assert all(np.isfinite(chk))


def _gap(q):
    return pytest.param(q, marks=pytest.mark.xfail(strict=True, reason=GAPS[q])) if q in GAPS else q


@pytest.mark.parametrize("q", [_gap(q) for q in GROUPBY_KEYS] + list(JOIN_KEYS))
def test_pandas_users_calls_answer_as_polars_and_duckdb(data, atoll_tables, q):
    _check(data, atoll_tables, q, "pandas")


@pytest.mark.parametrize(
    "q",
    [
        pytest.param(q, marks=pytest.mark.xfail(strict=True, reason="Arkouda offers no per-group corr"))
        if q == "q9"
        else q
        for q in GROUPBY_KEYS
    ],
)
def test_arkouda_calls_answer_as_polars_and_duckdb(data, atoll_tables, q):
    _check(data, atoll_tables, q, "arkouda")


def test_the_benchmarks_groupby_keywords(data, atoll_tables):
    """The benchmark's keywords keep pandas' meaning: groups in the order of their first row
    (sort=False), the keys as columns (as_index=False, one key too)."""
    g1, _ = data
    x, _ = atoll_tables
    kw = dict(as_index=False, sort=False, observed=True, dropna=False)
    got = x.groupby("id4", **kw).agg({"v1": "sum"}).to_pandas()
    want = dbbench.pandas_load_g1(g1).groupby("id4", **kw).agg({"v1": "sum"})
    assert list(got.columns) == ["id4", "v1"]
    np.testing.assert_array_equal(got["id4"].to_numpy(), want["id4"].to_numpy())
    np.testing.assert_array_equal(got["v1"].to_numpy(), want["v1"].to_numpy())


def test_q8_filter_as_the_benchmark_writes_it(atoll_tables):
    x, _ = atoll_tables
    x[~x["v3"].isna()]


def test_q9_apply_as_the_benchmark_writes_it(atoll_tables):
    x, _ = atoll_tables
    x[:200].groupby(["id2", "id4"])[["v1", "v2"]].apply(lambda d: d["v1"].corr(d["v2"]) ** 2)


@pytest.mark.xfail(
    strict=True,
    reason="null ids: ParquetTypeError: a column holds null values (only float columns may: they read as NaN)",
)
def test_reads_the_tables_with_nulls(tmp_path):
    g1 = dbbench_data.make_g1(1000, str(tmp_path), k=10, na=5, seed=7)
    x = dbbench.atoll_load_g1(g1)
    assert len(x) == 1000
