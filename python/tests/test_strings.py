"""ak.Strings against Python's str/re, NumPy and collections, on random strings with
empty strings and non-ASCII characters, in process (1, 2, 4 locales) and under MPI."""

import collections
import re

import atoll as ak
import numpy as np
import pytest
from hypothesis import given, strategies as st

ALPHABET = "abcAB .-_xyé日ß"
words = st.lists(st.text(alphabet=ALPHABET, max_size=10), max_size=60)


def sample(n=500, seed=3):
    rng = np.random.default_rng(seed)
    chars = list(ALPHABET)
    return ["".join(rng.choice(chars, size=rng.integers(0, 9))) for _ in range(n)]


def test_array_roundtrip_and_numpy_input():
    v = sample()
    s = ak.array(v)
    assert isinstance(s, ak.Strings)
    assert s.size == len(v) and len(s) == len(v)
    assert s.to_list() == v
    a = ak.array(np.array(["x", "", "日本", "ß"]))
    assert a.to_list() == ["x", "", "日本", "ß"]
    np.testing.assert_array_equal(a.to_ndarray(), np.array(["x", "", "日本", "ß"]))
    assert s[3] == v[3] and s[-1] == v[-1]
    assert s[2:40:3].to_list() == v[2:40:3]


@given(words)
def test_elementwise_against_python(v):
    if not v:
        return
    s = ak.array(v)
    np.testing.assert_array_equal(s.get_lengths().to_ndarray(), np.array([len(x) for x in v], dtype=np.int64))
    assert s.lower().to_list() == [x.lower() for x in v]
    assert s.upper().to_list() == [x.upper() for x in v]
    assert s.title().to_list() == [x.title() for x in v]
    assert s.strip().to_list() == [x.strip() for x in v]
    assert s.strip("a.").to_list() == [x.strip("a.") for x in v]
    np.testing.assert_array_equal((s == "ab").to_ndarray(), np.array([x == "ab" for x in v]))
    np.testing.assert_array_equal((s != s.upper()).to_ndarray(), np.array([x != x.upper() for x in v]))
    np.testing.assert_array_equal(s.startswith("a").to_ndarray(), np.array([x.startswith("a") for x in v]))
    np.testing.assert_array_equal(s.endswith("é").to_ndarray(), np.array([x.endswith("é") for x in v]))
    np.testing.assert_array_equal(s.contains("b日").to_ndarray(), np.array(["b日" in x for x in v]))


@given(words, st.sampled_from(["[ab]+", "é|日", "^a.", "x$", "[A-Z][a-z]?", "(ab|ba)+"]))
def test_regex_against_re(v, pat):
    if not v:
        return
    s = ak.array(v)
    rx = re.compile(pat)
    np.testing.assert_array_equal(
        s.contains(pat, regex=True).to_ndarray(), np.array([rx.search(x) is not None for x in v])
    )
    m = s.search(pat)
    want = [rx.search(x) for x in v]
    np.testing.assert_array_equal(m.matched().to_ndarray(), np.array([w is not None for w in want]))
    np.testing.assert_array_equal(
        m.starts().to_ndarray(), np.array([w.start() if w else -1 for w in want], dtype=np.int64)
    )
    np.testing.assert_array_equal(m.ends().to_ndarray(), np.array([w.end() if w else -1 for w in want], dtype=np.int64))
    np.testing.assert_array_equal(s.match(pat).matched().to_ndarray(), np.array([rx.match(x) is not None for x in v]))
    np.testing.assert_array_equal(
        s.fullmatch(pat).matched().to_ndarray(), np.array([rx.fullmatch(x) is not None for x in v])
    )
    assert s.sub(pat, "<>").to_list() == [rx.sub("<>", x) for x in v]
    assert s.sub(pat, "", count=1).to_list() == [rx.sub("", x, count=1) for x in v]
    assert s.findall(pat).to_list() == [m.group(0) for x in v for m in rx.finditer(x)]


def test_split_with_segments_and_peel():
    v = sample() + ["a.b.c", "..", "", "é.日.x"]
    s = ak.array(v)
    p, seg = s.split(".", return_segments=True)
    want = []
    starts = []
    for x in v:
        starts.append(len(want))
        want.extend(x.split("."))
    assert p.to_list() == want
    np.testing.assert_array_equal(seg.to_ndarray(), np.array(starts, dtype=np.int64))
    assert s.split(".", maxsplit=1).to_list() == [y for x in v for y in x.split(".", 1)]
    assert s.split("[. -]+", regex=True).to_list() == [y for x in v for y in re.split("[. -]+", x)]
    l, r = ak.array(["a.b.c", "x", "p.q"]).peel(".")
    assert (l.to_list(), r.to_list()) == (["a", "", "p"], ["b.c", "x", "q"])
    l, r = ak.array(["a.b.c", "x"]).rpeel(".", includeDelimiter=True)
    assert (l.to_list(), r.to_list()) == (["a.b", "x"], [".c", ""])
    a, b = ak.array(["a", "é"]), ak.array(["1", "日"])
    assert a.stick(b, "-").to_list() == ["a-1", "é-日"]
    assert a.lstick(b).to_list() == ["1a", "日é"]
    assert ak.strings.concatenate([a, b]).to_list() == ["a", "é", "1", "日"]


def test_sort_group_unique_in1d_hash():
    v = sample(800, 5)
    s = ak.array(v)
    perm = s.argsort().to_ndarray()
    want = sorted(range(len(v)), key=lambda i: v[i])  # Python's sort is stable
    np.testing.assert_array_equal(perm, np.array(want, dtype=np.int64))
    c = collections.Counter(v)
    keys = sorted(c)
    p, seg, uk, counts = ak.strings._groupby(s)
    assert uk.to_list() == keys
    np.testing.assert_array_equal(counts.to_ndarray(), np.array([c[k] for k in keys], dtype=np.int64))
    np.testing.assert_array_equal(
        seg.to_ndarray(), np.concatenate([[0], np.cumsum([c[k] for k in keys])[:-1]]).astype(np.int64)
    )
    assert s.unique().to_list() == keys
    other = ak.array(["ab", "", "日", "zzz"])
    np.testing.assert_array_equal(s.in1d(other).to_ndarray(), np.array([x in {"ab", "", "日", "zzz"} for x in v]))
    h1, h2 = s.hash()
    h = list(zip(h1.to_ndarray().tolist(), h2.to_ndarray().tolist()))
    first = {}
    for x, hx in zip(v, h):
        assert first.setdefault(x, hx) == hx
    assert len(set(first.values())) == len(first)
    # Against pandas where installed.
    pd = pytest.importorskip("pandas")
    np.testing.assert_array_equal(perm, pd.Series(v).sort_values(kind="stable").index.to_numpy())


def test_random_strings_and_errors():
    a = ak.random_strings_uniform(1, 6, 300, characters="lowercase", seed=7)
    b = ak.random_strings_uniform(1, 6, 300, characters="lowercase", seed=7)
    la = a.to_list()
    assert la == b.to_list()
    assert all(1 <= len(x) < 6 and x.isascii() and x.islower() for x in la)
    s = ak.array(["abc", "x"])
    with pytest.raises(re.error):  # Arkouda's exception (Python's re rejects the pattern)
        s.contains("a(b", regex=True)
    with pytest.raises(re.error):
        s.split("[z-a]", regex=True)
    with pytest.raises(ValueError):
        s.split("")
    with pytest.raises(ValueError):
        ak.random_strings_uniform(3, 3, 10)
    with pytest.raises(ValueError):
        ak.random_strings_uniform(1, 3, 10, characters="klingon")
    with pytest.raises(ValueError):
        s == ak.array(["a", "b", "c"])
    assert s.to_list() == ["abc", "x"]  # nothing changed
