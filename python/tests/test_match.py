"""``Match`` and ``Matcher`` (Arkouda's ``arkouda.pandas.match``/``matcher``) against Python's
``re`` on random strings: which strings match, the spans, the matched substrings, the capture
groups and their origins, for search, match and fullmatch. In process and under MPI."""

import re

import atoll as ak
import numpy as np
import pytest
from atoll.pandas.match import Match, MatchType
from atoll.pandas.matcher import Matcher
from hypothesis import given, strategies as st

PATTERNS = ["_+", "a+b?", "(a)(b*)", "b|_", "^a", "a$", "(a|b)_(a+)?", "[ab]{2}", "(_)(a)?(b)?", "a*"]
KINDS = ["search", "match", "fullmatch"]


def _check(words, pattern, kind, flags=0):
    strings = ak.array(words)
    m = Matcher(pattern, strings, flags=flags).get_match(kind)
    rx = re.compile(pattern, flags)
    want = [getattr(rx, kind)(w) for w in words]
    hits = [x for x in want if x is not None]
    origins = [i for i, x in enumerate(want) if x is not None]
    assert isinstance(m, Match)
    assert m.match_type() == kind.upper()
    assert m.matched().tolist() == [x is not None for x in want]
    assert m.start().tolist() == [x.start() for x in hits]
    assert m.end().tolist() == [x.end() for x in hits]
    assert m.starts().tolist() == [x.start() if x else -1 for x in want]
    assert m.ends().tolist() == [x.end() if x else -1 for x in want]
    found, orig = m.find_matches(return_match_origins=True)
    assert found.tolist() == [x.group(0) for x in hits]
    assert orig.tolist() == origins
    for g in range(rx.groups + 1):
        got, gorig = m.group(g, return_group_origins=True)
        assert got.tolist() == [x.group(g) or "" for x in hits], (pattern, kind, g)
        assert gorig.tolist() == origins
    assert m.group().tolist() == [x.group(0) for x in hits]


@given(
    st.lists(st.text(alphabet="ab_", max_size=7), min_size=1, max_size=25),
    st.sampled_from(PATTERNS),
    st.sampled_from(KINDS),
)
def test_match_against_re(words, pattern, kind):
    _check(words, pattern, kind)


@given(st.lists(st.text(alphabet="aAbB_", max_size=6), min_size=1, max_size=20), st.sampled_from(KINDS))
def test_match_ignorecase(words, kind):
    _check(words, "(a+)(b)?", kind, flags=re.IGNORECASE)


def test_capture_groups_example():
    words = ["Isaac Newton, physicist", "<--calculus-->", "Gottfried Leibniz, mathematician"]
    m = Matcher(r"(\w+) (\w+)", ak.array(words)).get_match(MatchType.SEARCH)
    want = [re.search(r"(\w+) (\w+)", w) for w in words]
    for g in range(3):
        assert m.group(g).tolist() == [x.group(g) for x in want if x]
    assert m.group(1, return_group_origins=True)[1].tolist() == [0, 2]
    for bad in (-1, 3, 40):
        with pytest.raises(ValueError):
            m.group(bad)
    with pytest.raises(TypeError):
        m.group(1.0)


def test_display():
    words = ["1_2___", "____", "3", "__4___5____6___7", ""]
    m = Matcher("_+", ak.array(words)).get_match("search")
    parts = []
    for w in words:
        x = re.search("_+", w)
        parts.append(f"matched=True, span=({x.start()}, {x.end()})" if x else "matched=False")
    assert [m[i] for i in range(len(words))] == parts
    assert str(m) == f"<ak.Match object: {'; '.join(parts)}>"
    assert m.re == "_+"


def test_no_match_and_empty():
    m = Matcher("z", ak.array(["abc", "", "ab"])).get_match("search")
    assert m.matched().tolist() == [False, False, False]
    assert m.start().tolist() == [] and m.find_matches().tolist() == []
    g, o = m.group(0, return_group_origins=True)
    assert g.tolist() == [] and o.tolist() == []


def test_matcher_methods_and_errors():
    words = ["a1b22", "ccc", "333", ""]
    strings = ak.array(words)
    mt = Matcher("[0-9]+", strings)
    assert mt.findall().tolist() == [x for w in words for x in re.findall("[0-9]+", w)]
    out, n = mt.sub("#", return_num_subs=True)
    want = [re.subn("[0-9]+", "#", w) for w in words]
    assert out.tolist() == [w for w, _ in want] and n.tolist() == [k for _, k in want]
    with pytest.raises(ValueError):
        Matcher("(unclosed", strings)
    with pytest.raises(TypeError):
        Matcher(3, strings)
    with pytest.raises(TypeError):
        Matcher("a", ak.arange(3))
    with pytest.raises(ValueError):
        mt.get_match("find")
    # A Match made without its Strings knows no substrings.
    bare = Match(ak.array([True]), ak.array([0]), ak.array([1]))
    assert bare.start().tolist() == [0] and bare.end().tolist() == [1]
    with pytest.raises(ValueError):
        bare.find_matches()


def test_start_end_are_per_match_numpy():
    words = np.array(["xaay", "b", "aa", "yya"])
    m = Matcher("a+", ak.array(words)).get_match("search")
    want = [re.search("a+", w) for w in words]
    np.testing.assert_array_equal(m.start().to_ndarray(), np.array([x.start() for x in want if x], dtype=np.int64))
    np.testing.assert_array_equal(m.end().to_ndarray(), np.array([x.end() for x in want if x], dtype=np.int64))
