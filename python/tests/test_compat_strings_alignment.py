"""Strings behaviour of Arkouda's API checked against NumPy and Python: ``Strings.astype`` (NumPy's
parse of numbers, RuntimeError on a string that does not parse, as Arkouda) and ``peel`` /
``rpeel`` at the matches of a regular expression (Python's ``re``); and
``numpy.alignment.search_intervals`` / ``interval_lookup`` against a Python scan of the
intervals."""

import re
import warnings

import atoll as ak
import numpy as np
import pytest
from atoll.numpy.alignment import interval_lookup, is_cosorted, search_intervals
from hypothesis import given, strategies as st


@pytest.mark.parametrize(
    "values,dtype",
    [
        (["1", "-2", "30"], np.int64),
        (["1", "2", "18446744073709551615"], np.uint64),
        (["1.5", "-2", "nan", "1e3"], np.float64),
    ],
)
def test_strings_astype_like_numpy(values, dtype):
    got = ak.array(values).astype(dtype)
    want = np.array(values).astype(dtype)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got.to_ndarray(), want)


def test_strings_astype_str_and_bad_labels():
    s = ak.array(["a", "b"])
    assert s.astype(str).tolist() == np.array(["a", "b"]).astype(str).tolist()
    assert ak.array(["True", "False"]).astype(bool).tolist() == [True, False]
    with pytest.raises(ValueError):
        np.array(["1", "x"]).astype(np.int64)
    with pytest.raises(RuntimeError):
        ak.array(["1", "x"]).astype(ak.int64)


def _peel(x, pattern, times, include, keep_partial, from_right):
    """Python's reference of a regex ``peel`` of one string."""
    ms = list(re.finditer(pattern, x))
    if len(ms) < times:
        whole_left = keep_partial != from_right
        return (x, "") if whole_left else ("", x)
    m = ms[-times] if from_right else ms[times - 1]
    if from_right:
        return x[: m.start()], x[m.start() if include else m.end() :]
    return x[: m.end() if include else m.start()], x[m.end() :]


def test_regex_peel_examples():
    under = ak.array(["a_b", "c___d", "e__f____g"])
    left, right = under.peel("_+", regex=True)
    assert left.tolist() == ["a", "c", "e"]
    assert right.tolist() == ["b", "d", "f____g"]
    left, right = under.rpeel("_+", times=2, includeDelimiter=True, regex=True)
    assert left.tolist() == ["a_b", "c___d", "e"]
    assert right.tolist() == ["", "", "__f____g"]
    for pattern in ("|", "^", "a*"):
        with pytest.raises(ValueError):
            under.peel(pattern, regex=True)


@given(
    values=st.lists(st.text(alphabet="ab.-", max_size=8), min_size=1, max_size=12),
    pattern=st.sampled_from([r"\.", "-+", "[.-]", "ab", r"b\.?"]),
    times=st.integers(1, 3),
    include=st.booleans(),
    keep_partial=st.booleans(),
    from_right=st.booleans(),
)
def test_regex_peel_like_python(values, pattern, times, include, keep_partial, from_right):
    a = ak.array(values)
    left, right = a.peel(
        pattern, times=times, includeDelimiter=include, keepPartial=keep_partial, fromRight=from_right, regex=True
    )
    want = [_peel(x, pattern, times, include, keep_partial, from_right) for x in values]
    assert left.tolist() == [w[0] for w in want]
    assert right.tolist() == [w[1] for w in want]


@given(
    values=st.lists(st.text(alphabet="ab.", max_size=8), min_size=1, max_size=12),
    times=st.integers(1, 3),
    include=st.booleans(),
    keep_partial=st.booleans(),
    from_right=st.booleans(),
)
def test_regex_peel_of_a_literal_is_the_literal_peel(values, times, include, keep_partial, from_right):
    a = ak.array(values)
    kw = dict(times=times, includeDelimiter=include, keepPartial=keep_partial, fromRight=from_right)
    lit = a.peel(".", **kw)
    rx = a.peel(re.escape("."), regex=True, **kw)
    assert rx[0].tolist() == lit[0].tolist()
    assert rx[1].tolist() == lit[1].tolist()


def _py_search(vals, lows, highs, hierarchical, tiebreak=None):
    """Python's scan: for each value (a tuple), the first interval holding it, or the one of
    least tiebreak; -1 where none does."""
    out = []
    for v in vals:
        best = -1
        for j, (lo, hi) in enumerate(zip(lows, highs)):
            inside = lo <= v <= hi if hierarchical else all(a <= x <= b for x, a, b in zip(v, lo, hi))
            if inside and (best < 0 or (tiebreak is not None and tiebreak[j] < tiebreak[best])):
                best = j
        out.append(best)
    return out


@given(
    cuts=st.lists(st.integers(-50, 50), min_size=2, max_size=12, unique=True),
    vals=st.lists(st.integers(-60, 60), max_size=30),
    dtype=st.sampled_from([np.int64, np.float64]),
)
def test_search_disjoint_intervals_like_python(cuts, vals, dtype):
    c = sorted(cuts)
    lows, highs = c[0::2], c[1::2]
    lows = lows[: len(highs)]
    got = search_intervals(
        ak.array(np.array(vals, dtype=dtype)),
        (ak.array(np.array(lows, dtype=dtype)), ak.array(np.array(highs, dtype=dtype))),
    )
    assert got.tolist() == _py_search([(v,) for v in vals], [(x,) for x in lows], [(x,) for x in highs], True)


@given(
    data=st.data(),
    n_int=st.integers(1, 6),
    vals=st.lists(st.integers(0, 30), max_size=25),
    use_tiebreak=st.booleans(),
)
def test_search_overlapping_intervals_like_python(data, n_int, vals, use_tiebreak):
    lows = sorted(data.draw(st.lists(st.integers(0, 25), min_size=n_int, max_size=n_int)))
    highs = [lo + data.draw(st.integers(0, 10)) for lo in lows]
    tb = data.draw(st.lists(st.integers(0, 5), min_size=n_int, max_size=n_int)) if use_tiebreak else None
    got = search_intervals(
        ak.array(vals) if vals else ak.zeros(0, dtype=ak.int64),
        (ak.array(lows), ak.array(highs)),
        tiebreak=None if tb is None else ak.array(tb),
    )
    assert got.tolist() == _py_search([(v,) for v in vals], [(x,) for x in lows], [(x,) for x in highs], True, tb)


@given(data=st.data(), n_int=st.integers(1, 5), hierarchical=st.booleans())
def test_search_two_level_intervals_like_python(data, n_int, hierarchical):
    pt = st.tuples(st.integers(0, 6), st.integers(0, 6))
    lows = sorted(data.draw(st.lists(pt, min_size=n_int, max_size=n_int)))
    highs = [(a + data.draw(st.integers(0, 3)), b + data.draw(st.integers(0, 3))) for a, b in lows]
    if hierarchical:
        highs = [max(h, lo) for h, lo in zip(highs, lows)]
    vals = data.draw(st.lists(pt, min_size=1, max_size=20))
    level = lambda rows, i: ak.array([r[i] for r in rows])  # noqa: E731
    got = search_intervals(
        (level(vals, 0), level(vals, 1)),
        ((level(lows, 0), level(lows, 1)), (level(highs, 0), level(highs, 1))),
        hierarchical=hierarchical,
    )
    assert got.tolist() == _py_search(vals, lows, highs, hierarchical)
    labels = ak.array([f"i{j}" for j in range(n_int)])
    looked = interval_lookup(
        ((level(lows, 0), level(lows, 1)), (level(highs, 0), level(highs, 1))),
        labels,
        (level(vals, 0), level(vals, 1)),
        fillvalue="none",
        hierarchical=hierarchical,
    )
    assert looked.tolist() == [f"i{j}" if j >= 0 else "none" for j in got.tolist()]


def test_search_bigint_intervals_like_python():
    lows, highs = [0, 2**64 + 5, 2**70], [2**64, 2**65, 2**71]
    vals = [1, 2**64 + 4, 2**64 + 6, 2**70 + 1, 2**72, 2**64]
    b = lambda x: ak.array(x, dtype=ak.bigint)  # noqa: E731
    got = search_intervals(b(vals), (b(lows), b(highs)))
    assert got.tolist() == _py_search([(v,) for v in vals], [(x,) for x in lows], [(x,) for x in highs], True)


def test_search_intervals_errors():
    lo, hi = ak.array([0, 10, 20]), ak.array([9, 19, 29])
    v = ak.array([1, 2])
    with pytest.raises(TypeError):
        search_intervals(v, (lo, ak.array([9.0, 19.0, 29.0])))
    with pytest.raises(ValueError):
        search_intervals(v, (lo, hi, hi))
    with pytest.raises(TypeError):
        search_intervals(ak.array(["a", "b"]), (lo, hi))
    with pytest.raises(ValueError):
        search_intervals(v, (ak.array([0, 10]), hi))
    with pytest.raises(ValueError):
        search_intervals(v, (hi, lo))
    with pytest.raises(ValueError):
        search_intervals(v, (ak.array([10, 0, 20]), ak.array([19, 9, 29])))
    with pytest.raises(TypeError):
        search_intervals(v, (lo, hi), tiebreak=ak.array([1, 2]))


@pytest.mark.parametrize("first", [[3, 1, 2], [1, 2, 3], [1, 1, 2]])
def test_is_cosorted_like_python(first):
    second = [2, 1, 0]
    rows = list(zip(first, second))
    assert is_cosorted([ak.array(first), ak.array(second)]) == (rows == sorted(rows))


def test_duplicate_keys_warn_in_lookup_and_find():
    keys = ak.arange(10) % 5
    args = ak.array([4, 1, 7])
    with pytest.warns(UserWarning, match="Duplicate terms"):
        got = ak.lookup(keys, keys * 10, args)
    assert got.tolist() == [40, 10, -1]  # the first equal key's value, as a dict of the first ones
    with pytest.warns(UserWarning, match="Duplicate terms"):
        assert ak.find(args, keys).tolist() == [4, 1, -1]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ak.lookup(ak.arange(5), ak.arange(5) * 10, args)  # unique keys: no warning
        ak.find(args, keys, all_occurrences=True)
