"""Strings behaviour of Arkouda's API checked against NumPy and Python: ``Strings.astype`` (NumPy's
parse of numbers, RuntimeError on a string that does not parse, as Arkouda) and ``peel`` /
``rpeel`` at the matches of a regular expression (Python's ``re``)."""

import re

import atoll as ak
import numpy as np
import pytest
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
