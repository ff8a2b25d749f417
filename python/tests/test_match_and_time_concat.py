"""``Strings.search``/``match``/``fullmatch`` give Arkouda's complete ``Match`` (``ak.Match`` is
``atoll.pandas.match.Match``), checked against Python's ``re``; ``ak.concatenate`` of
Datetimes (or Timedeltas) gives a Datetime (Timedelta), checked against NumPy's
datetime64/timedelta64 concatenation."""

import re

import atoll as ak
import numpy as np
import pytest
from atoll.pandas.match import Match
from hypothesis import given, strategies as st

WORDS = ["ab12", "", "x_y_3", "777", "no digits", "a1b22c333"]


@pytest.mark.parametrize("kind", ["search", "match", "fullmatch"])
@pytest.mark.parametrize("pattern", [r"[0-9]+", r"a\w*", r"_", r".*"])
def test_strings_matches_are_arkoudas_match(kind, pattern):
    s = ak.array(WORDS)
    m = getattr(s, kind)(pattern)
    assert isinstance(m, Match) and type(m) is ak.Match
    assert m.match_type() == kind.upper()
    found = [getattr(re.compile(pattern), kind)(w) for w in WORDS]
    assert m.matched().tolist() == [f is not None for f in found]
    assert m.start().tolist() == [f.start() for f in found if f]
    assert m.end().tolist() == [f.end() for f in found if f]
    assert m.starts().tolist() == [f.start() if f else -1 for f in found]
    assert m.ends().tolist() == [f.end() if f else -1 for f in found]
    matches, origins = m.find_matches(return_match_origins=True)
    assert matches.tolist() == [f.group(0) for f in found if f]
    assert origins.tolist() == [i for i, f in enumerate(found) if f]


def test_flags_reach_the_match():
    s = ak.array(["ABC", "abc", "x"])
    m = s.search("b", flags=re.IGNORECASE)
    assert m.matched().tolist() == [re.search("b", w, re.IGNORECASE) is not None for w in s.tolist()]
    assert m.find_matches().tolist() == ["B", "b"]


def test_startswith_regex_still_answers():
    s = ak.array(WORDS)
    assert s.startswith("[a-b]", regex=True).tolist() == [re.match("[a-b]", w) is not None for w in WORDS]


ns = st.lists(st.integers(-(2**60), 2**60), min_size=0, max_size=20)


@pytest.mark.parametrize("cls, np_kind", [(ak.Datetime, "M8[ns]"), (ak.Timedelta, "m8[ns]")])
@given(a=ns, b=ns)
def test_concatenate_keeps_the_time_class(cls, np_kind, a, b):
    x, y = np.array(a, dtype=np.int64), np.array(b, dtype=np.int64)
    got = ak.concatenate([cls(ak.array(x)), cls(ak.array(y))])
    assert type(got) is cls
    want = np.concatenate([x.astype(np_kind), y.astype(np_kind)])
    np.testing.assert_array_equal(got.to_ndarray(), want)


def test_mixed_classes_concatenate_to_int64():
    d = ak.Datetime(ak.arange(3))
    t = ak.Timedelta(ak.arange(2))
    got = ak.concatenate([d, t])
    assert type(got) is ak.pdarray
    np.testing.assert_array_equal(got.to_ndarray(), np.array([0, 1, 2, 0, 1], dtype=np.int64))
