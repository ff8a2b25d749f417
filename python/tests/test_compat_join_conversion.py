"""Arkouda's ``join`` module (inner_join, gen_ranges), ``pandas.conversion.from_series``,
``history``, bigint sizes and registration of list-valued Indexes, against pandas, NumPy
and Python."""

import datetime as dt
import readline
import types

import atoll as ak
import numpy as np
import pandas as pd
import pytest
from atoll.history import HistoryRetriever, ShellHistoryRetriever
from atoll.pandas import conversion, join
from hypothesis import given, strategies as st

INT64 = st.integers(-(2**63), 2**63 - 1)


# ----- ak.join: the module, inner_join, gen_ranges ------------------------------------------


def _pairs(left_rows, right_rows, keep=lambda i, j: True):
    """The reference: every (i, j) with equal rows, ordered by i then j (Arkouda's order)."""
    return [(i, j) for i, lr in enumerate(left_rows) for j, rr in enumerate(right_rows) if lr == rr and keep(i, j)]


def test_join_is_the_module():
    assert isinstance(ak.join, types.ModuleType)
    assert ak.join.inner_join is join.inner_join and ak.join.gen_ranges is join.gen_ranges


@given(st.lists(st.integers(0, 6), max_size=25), st.lists(st.integers(0, 6), max_size=25))
def test_inner_join_ints_and_strings(left, right):
    want = _pairs(left, right)
    li, ri = ak.join.inner_join(ak.array(left, dtype=ak.int64), ak.array(right, dtype=ak.int64))
    assert list(zip(li.tolist(), ri.tolist())) == want
    # Strings keys give the same pairs in the same order ("k 10" sorts before "k 2").
    sl, sr = ak.join.inner_join(
        ak.array([f"k {x}" for x in left], dtype=ak.str_), ak.array([f"k {x}" for x in right], dtype=ak.str_)
    )
    assert list(zip(sl.tolist(), sr.tolist())) == want


@given(st.lists(st.integers(0, 5), max_size=20), st.lists(st.integers(0, 5), max_size=20))
def test_compute_join_size(a, b):
    # pandas' inner merge has one row per pair.
    n = len(pd.DataFrame({"k": a}).merge(pd.DataFrame({"k": b}), on="k"))
    got = ak.join.compute_join_size(ak.array(a, dtype=ak.int64), ak.array(b, dtype=ak.int64))
    assert got == (n, 3 * 8 * n)


def test_inner_join_where_multi_and_categorical():
    rng = np.random.default_rng(7)
    a, b = rng.integers(0, 8, 60), rng.integers(0, 8, 50)
    x, y = rng.integers(0, 2, 60), rng.integers(0, 2, 50)
    left, right = ak.array(a), ak.array(b)

    li, ri = ak.join.inner_join(left, right, wherefunc=lambda p, q: p % 2 == 0, whereargs=(left, right))
    assert list(zip(li.tolist(), ri.tolist())) == _pairs(a.tolist(), b.tolist(), lambda i, j: a[i] % 2 == 0)

    # Two key columns, one of them text; a where over sequences of arrays.
    lk = [ak.array([str(v) for v in a]), ak.array(x)]
    rk = [ak.array([str(v) for v in b]), ak.array(y)]
    want = _pairs(list(zip(a.tolist(), x.tolist())), list(zip(b.tolist(), y.tolist())))
    li, ri = ak.join.inner_join(lk, rk)
    assert list(zip(li.tolist(), ri.tolist())) == want
    li, ri = ak.join.inner_join(lk, rk, lambda p, q: p[1] == 1, (lk, rk))
    assert list(zip(li.tolist(), ri.tolist())) == [(i, j) for i, j in want if x[i] == 1]

    # Categoricals with different categories join on their labels.
    ca = ak.Categorical(ak.array([f"c{v}" for v in a]))
    cb = ak.Categorical(ak.array([f"c{v}" for v in b[::-1]]))
    li, ri = ak.join.inner_join(ca, cb)
    assert list(zip(li.tolist(), ri.tolist())) == _pairs(a.tolist(), b[::-1].tolist())


def test_inner_join_bad_arguments():
    left, right = ak.arange(10), ak.array([0, 5, 3, 3, 4, 6, 7, 9, 8, 1])
    with pytest.raises(ValueError):
        ak.join.inner_join(left, right, wherefunc=ak.unique)
    with pytest.raises(ValueError):
        ak.join.inner_join(left, right, wherefunc=lambda p, q: p == q)  # no whereargs
    with pytest.raises(ValueError):
        ak.join.inner_join(left, right, wherefunc=lambda p, q: p == q, whereargs=(ak.arange(5), right))
    with pytest.raises(ValueError):
        ak.join.inner_join([left, left], [right])
    with pytest.raises(ValueError):
        ak.join.inner_join([left, ak.arange(3)], [right, right])


def test_join_on_eq_with_dt_argument_errors():
    a = ak.array([1, 2, 2, 3])
    t = ak.array([10, 20, 30, 40])
    with pytest.raises(TypeError):
        ak.join_on_eq_with_dt([1, 2, 2, 3], a, t, t, 8, "pos_dt")
    with pytest.raises(TypeError):
        ak.join_on_eq_with_dt(a, a, t, t, "8", "pos_dt")
    with pytest.raises(TypeError):
        ak.join_on_eq_with_dt(a, a, t, t, 8, "pos_dt", result_limit=1.5)
    with pytest.raises(ValueError):
        ak.join_on_eq_with_dt(ak.array([1.0, 2.0, 2.0, 3.0]), a, t, t, 8, "pos_dt")
    with pytest.raises(ValueError):
        ak.join_on_eq_with_dt(a, a, t, t, 8, "ab_dt")
    with pytest.raises(ValueError):
        ak.join_on_eq_with_dt(a, a, t, t, 8, "abs_dt", -1)
    # np.int64 arguments are ints; the pairs are numpy's reference pairs.
    li, ri = ak.join_on_eq_with_dt(a, a, t, t, np.int64(8), "abs_dt", np.int64(100))
    an, tn = a.to_ndarray(), t.to_ndarray()
    want = [(i, j) for i in range(4) for j in range(4) if an[i] == an[j] and abs(tn[j] - tn[i]) <= 8]
    assert sorted(zip(li.tolist(), ri.tolist())) == want


@given(st.lists(st.tuples(st.integers(-50, 50), st.integers(0, 12)), max_size=12), st.integers(1, 4))
def test_gen_ranges(spans, stride):
    starts = [s for s, _ in spans]
    ends = [s + n for s, n in spans]
    lengths = [(e - s) // stride for s, e in zip(starts, ends)]
    segs, ranges, lens = ak.join.gen_ranges(
        ak.array(starts, dtype=ak.int64), ak.array(ends, dtype=ak.int64), stride, return_lengths=True
    )
    assert lens.tolist() == lengths
    assert segs.tolist() == np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(int).tolist()[: len(spans)]
    assert ranges.tolist() == [s + stride * k for s, n in zip(starts, lengths) for k in range(n)]


def test_gen_ranges_errors():
    with pytest.raises(ValueError):
        ak.join.gen_ranges(ak.array([11, 12, 41]), ak.array([10, 20, 30]))
    with pytest.raises(ValueError):
        ak.join.gen_ranges(ak.array([1, 2]), ak.array([10, 20, 30]))


# ----- from_series (ak.from_series, arkouda.pandas.conversion) --------------------------------


@pytest.mark.parametrize("spelling", ["object", "str", "string", "string[python]", "string[pyarrow]", str])
def test_from_series_text_dtypes(spelling):
    s = pd.Series(["x1", "x2", "x3"], dtype=spelling)
    a = conversion.from_series(s)
    assert isinstance(a, ak.Strings) and a.tolist() == s.astype(str).tolist()
    ints = pd.Series([3, 1, 2])
    b = ak.from_series(ints, dtype=spelling)
    assert isinstance(b, ak.Strings) and b.tolist() == ints.astype(str).tolist()


def test_from_series_objects_times_and_bad_dtypes():
    s = pd.Series(["a", None, "b"], dtype="object")
    assert ak.from_series(s).tolist() == [str(v) for v in s.tolist()]
    for s in (
        pd.Series([np.datetime64("2018-01-01", "ms"), np.datetime64("2019-03-04T05:06:07", "ms")]),
        pd.Series([dt.datetime(2016, 1, 1, 0, 0, 1)]),
        pd.Series([np.timedelta64(123, "ms"), np.timedelta64(-4, "s")]),
    ):
        ns = s.astype("timedelta64[ns]" if s.dtype.kind == "m" else "datetime64[ns]")
        assert ak.from_series(s).tolist() == ns.astype("int64").tolist()
    with pytest.raises(ValueError):
        ak.from_series(pd.Series([1, 2, 3]), dtype=np.int8)
    with pytest.raises(ValueError):
        ak.from_series(pd.Series([1, 2, 3], dtype=np.int8))
    with pytest.raises(TypeError):
        ak.from_series(np.ones(3))


# ----- history ----------------------------------------------------------------------------------


def test_shell_history_retriever():
    commands = ["x = ak.arange(3)", "y = 2", "ak.generate_history()", "z = ak.ones(4)", "print(z)"]
    saved = [readline.get_history_item(i + 1) for i in range(readline.get_current_history_length())]
    readline.clear_history()
    try:
        for c in commands:
            readline.add_history(c)
        h = ShellHistoryRetriever()
        assert h.retrieve() == commands
        assert h.retrieve(num_commands=2) == commands[-2:]
        want = [c for c in commands if "ak." in c and "generate_history" not in c]
        assert h.retrieve(command_filter="ak.") == want
        assert h.retrieve(command_filter="ak.", num_commands=1) == want[-1:]
    finally:
        readline.clear_history()
        for c in saved:
            readline.add_history(c)
    with pytest.raises(NotImplementedError):
        HistoryRetriever().retrieve()


# ----- bigint sizes ----------------------------------------------------------------------------


@given(st.lists(INT64, min_size=1, max_size=20))
def test_bigint_cast_of_int64_is_one_limb(values):
    a = ak.array(values, dtype=ak.int64)
    b = ak.cast(a, "bigint")
    assert b.nbytes == len(values) * np.dtype(np.int64).itemsize
    assert b.tolist() == values
    assert (b * b).tolist() == [v * v for v in values]
    assert (b + ak.cast(ak.array([1] * len(values)), "bigint")).tolist() == [v + 1 for v in values]
    b.max_bits = 70
    assert b.tolist() == [v % 2**70 for v in values]


def test_bigint_nbytes_of_cast_matches_array():
    assert ak.cast(ak.array([1, 2, 3]), "bigint").nbytes == ak.array([1, 2, 3], dtype=ak.bigint).nbytes


# ----- registration --------------------------------------------------------------------------


def test_register_index_of_list_raises():
    i = ak.Index([1, 2, 3], allow_list=True)
    with pytest.raises(TypeError):
        i.register("compat_join_list_index")
    assert not i.is_registered()
    j = ak.Index(ak.arange(3)).register("compat_join_array_index")
    try:
        assert j.is_registered()
    finally:
        j.unregister()
