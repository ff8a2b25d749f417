"""Strings methods against Python's ``str`` and ``re``: case mappings on random Unicode text
(final sigma, title-case letters, special title mappings), ``findall``'s match origins, and
regular expressions that can match the empty string."""

import re
import sys
import unicodedata

import atoll as ak
import numpy as np
import pytest
from hypothesis import given, strategies as st

# Characters Python's Unicode database knows, without surrogates. Atoll's case tables (Rust's)
# follow a later Unicode version: a character unassigned in Python's has no case there, and a
# few characters' case properties changed in Unicode 15 to 17 (new capitals for ƛ, ɤ, ꟓ, ꟕ;
# modifier letters and marks that became cased or case-ignorable); those are left out.
_CHANGED_SINCE_PYTHON_S_UNICODE = set("\u019b\u0264\u0295\u10fc\ua7d3\ua7d5\ua7f2\ua7f3\ua7f4\uab69\U0001171e")
_ASSIGNED = st.characters(codec="utf-8", exclude_categories=("Cs", "Cn", "Co"), max_codepoint=sys.maxunicode).filter(
    lambda c: unicodedata.category(c) != "Cn" and c not in _CHANGED_SINCE_PYTHON_S_UNICODE
)
# The characters case mapping treats specially, and ordinary cased and uncased ones.
_SPECIAL = st.sampled_from(
    list("ΣσςΑαaAzZ ß.'-_\u0345\u0301")
    + ["\u01c4", "\u01c5", "\u01c6", "\u01f1", "\u01f2", "\u0149", "\u0130", "\u0131", "\ufb01", "\u1f80", "\u1f88"]
    + ["\u1fb3", "\u1fb7", "\u1fbc", "\u1ff2", "\u10d0", "\u1c90", "\u2160", "\u24b6", "\u00b7", "\u02b0"]
)
TEXTS = st.lists(st.text(st.one_of(_SPECIAL, _ASSIGNED), max_size=12), min_size=0, max_size=30)


@pytest.mark.parametrize("s", ["aΣ", "ΑΣ", "aΣ b", "ΣΣΣ", "Σ", "aΣ.", "aΣ'b", "ǆX", "ǅA", "ŉ", "ᾳ", "ß"])
@pytest.mark.parametrize("method", ["title", "capitalize", "lower", "upper", "swapcase"])
def test_case_mappings_of_known_cases(method, s):
    assert getattr(ak.array([s]), method)().tolist() == [getattr(s, method)()]


@given(TEXTS)
def test_case_mappings_match_python(values):
    a = ak.array(values) if values else ak.array(np.array([], dtype=str))
    for method in ("title", "capitalize", "lower", "upper", "swapcase"):
        assert getattr(a, method)().tolist() == [getattr(x, method)() for x in values], method


# ----- findall's match origins ----------------------------------------------------------
@given(st.lists(st.text("ab_", max_size=10), max_size=40), st.sampled_from(["_+", "a", "b*", "[ab]", "x"]))
def test_findall_origins_name_each_match_s_string(values, pattern):
    a = ak.array(values) if values else ak.array(np.array([], dtype=str))
    matches, origins = a.findall(pattern, return_match_origins=True)
    want = [(m, i) for i, x in enumerate(values) for m in re.findall(pattern, x)]
    assert matches.tolist() == [m for m, _ in want]
    assert origins.tolist() == [i for _, i in want]
    assert a.findall(pattern).tolist() == [m for m, _ in want]


def test_findall_origins_arkouda_example():
    s = ak.array(["1_2___", "____", "3", "__4___5____6___7", ""])
    matches, origins = s.findall("_+", return_match_origins=True)
    want = [(m, i) for i, x in enumerate(s.tolist()) for m in re.findall("_+", x)]
    assert matches.tolist() == [m for m, _ in want]
    assert origins.tolist() == [i for _, i in want]


# ----- patterns that can match the empty string -----------------------------------------
# Patterns with the same meaning in Python's ``re`` and Rust's ``regex`` that can match the
# empty string, among them patterns whose preferred match at a position is empty while another
# alternative there is not (``|a``, ``a*?``: after the empty match Python takes the non-empty
# one at the same position).
EMPTY_PATTERNS = [
    "b*",
    "x?",
    "a*b*",
    "(?:ab)*",
    "[ab]*",
    "^",
    "$",
    r"\b",
    "",
    "b*$",
    "^a*",
    "a|b*",
    r"\s*",
    "[^a]*",
    "(?:b+|)",
    "b{0,2}",
    "|a",
    "x*|b",
    "a*?",
    "b??",
    "(?:|ab)",
    "a*?b|",
]
STRINGS = st.lists(st.text("abx _.", max_size=8), min_size=0, max_size=25)


def _ak(values):
    return ak.array(values) if values else ak.array(np.array([], dtype=str))


def _match_arrays(m):
    return m.matched().tolist(), m.starts().tolist(), m.lengths().tolist()


def _py_match(found):
    if found is None:
        return (False, -1, 0)
    return (True, found.start(), found.end() - found.start())


@given(STRINGS, st.sampled_from(EMPTY_PATTERNS))
def test_empty_matching_patterns_yes_no_and_match_as_python(values, p):
    a = _ak(values)
    assert a.contains(p, regex=True).tolist() == [re.search(p, x) is not None for x in values]
    assert a.startswith(p, regex=True).tolist() == [re.match(p, x) is not None for x in values]
    if p:
        assert a.endswith(p, regex=True).tolist() == [re.search(f"(?:{p})\\Z", x) is not None for x in values]
    for method, f in (("search", re.search), ("match", re.match), ("fullmatch", re.fullmatch)):
        want = [_py_match(f(p, x)) for x in values]
        assert _match_arrays(getattr(a, method)(p)) == tuple([w[k] for w in want] for k in range(3)), method


@given(STRINGS, st.sampled_from(EMPTY_PATTERNS), st.integers(0, 3))
def test_empty_matching_patterns_findall_sub_split_as_python(values, p, count):
    a = _ak(values)
    matches, origins = a.findall(p, return_match_origins=True)
    want = [(m, i) for i, x in enumerate(values) for m in re.findall(p, x)]
    assert matches.tolist() == [m for m, _ in want]
    assert origins.tolist() == [i for _, i in want]
    assert a.sub(p, "-", count).tolist() == [re.sub(p, "-", x, count=count) for x in values]
    out, n = a.subn(p, "-", count)
    assert out.tolist() == [re.subn(p, "-", x, count=count)[0] for x in values]
    assert n.tolist() == [re.subn(p, "-", x, count=count)[1] for x in values]
    pieces, seg = a.regex_split(p, maxsplit=count, return_segments=True)
    want = [re.split(p, x, maxsplit=count) for x in values]
    assert pieces.tolist() == [y for w in want for y in w]
    assert seg.tolist() == np.cumsum([0] + [len(w) for w in want])[:-1].tolist()


def test_contains_of_an_empty_matching_pattern_without_empty_elements():
    a = ak.array(["abc", "xbz", "q"])
    assert a.contains("b*", regex=True).tolist() == [re.search("b*", x) is not None for x in a.tolist()]
    assert a.findall("b*").tolist() == [m for x in a.tolist() for m in re.findall("b*", x)]
