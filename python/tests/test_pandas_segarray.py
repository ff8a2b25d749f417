"""ak.SegArray against Python lists of NumPy arrays: construction, indexing, concatenation,
prefixes/suffixes/n-grams, j-th values, per-sub-array reductions, unique and set operations,
filtering, hashing; int, uint, float, bool and Strings values, empty sub-arrays anywhere."""

import atoll as ak
import numpy as np
import pytest


def lists(seed, n=60, maxlen=6, kind="int"):
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        k = int(rng.integers(0, maxlen + 1))
        if kind == "int":
            out.append(rng.integers(-5, 6, k).tolist())
        elif kind == "uint":
            out.append([int(x) for x in rng.integers(0, 2**63, k, dtype=np.uint64) + np.uint64(2**63 - 1)])
        elif kind == "float":
            out.append(np.round(rng.normal(size=k), 3).tolist())
        elif kind == "bool":
            out.append([bool(x) for x in rng.integers(0, 2, k)])
        else:
            out.append(["".join(rng.choice(list("abé日"), int(rng.integers(0, 3)))) for _ in range(k)])
    return out


def make(ls, kind="int"):
    lens = np.array([len(x) for x in ls], dtype=np.int64)
    segs = np.cumsum(lens) - lens
    flat = [v for x in ls for v in x]
    if kind == "str":
        vals = ak.array(flat) if flat else ak.random_strings_uniform(1, 2, 0)
    else:
        dt = {"int": np.int64, "uint": np.uint64, "float": np.float64, "bool": np.bool_}[kind]
        vals = ak.array(np.array(flat, dtype=dt))
    return ak.SegArray(ak.array(segs), vals)


KINDS = ["int", "uint", "float", "bool", "str"]


def L(x):
    """A list of the values of a pdarray or Strings."""
    return x.to_list() if isinstance(x, ak.Strings) else x.tolist()


@pytest.mark.parametrize("kind", KINDS)
def test_construction_and_indexing(kind):
    ls = lists(1, kind=kind)
    sa = make(ls, kind)
    assert sa.size == len(ls) and len(sa) == len(ls)
    assert sa.tolist() == ls
    assert sa.lengths.tolist() == [len(x) for x in ls]
    assert sa.non_empty.tolist() == [len(x) > 0 for x in ls]
    for i in (0, 7, len(ls) - 1, -3):
        assert L(sa[i]) == ls[i]
    assert sa[5:40:3].tolist() == ls[5:40:3]
    idx = np.array([9, 2, 2, 40, 0])
    assert sa[ak.array(idx)].tolist() == [ls[i] for i in idx]
    mask = np.arange(len(ls)) % 3 == 1
    assert sa[ak.array(mask)].tolist() == [x for x, m in zip(ls, mask) if m]


def test_errors():
    with pytest.raises(TypeError):
        ak.SegArray([0, 5], ak.arange(10))
    with pytest.raises(TypeError):
        ak.SegArray(ak.array([0, 5]), list(range(10)))
    with pytest.raises(ValueError):
        ak.SegArray(ak.array([0, 4, 3]), ak.arange(10))
    with pytest.raises(ValueError):
        ak.SegArray(ak.array([1, 4]), ak.arange(10))
    with pytest.raises(ValueError):
        ak.SegArray(ak.array(np.zeros(0, dtype=np.int64)), ak.arange(10))
    with pytest.raises(ValueError):
        ak.SegArray(ak.array([0, 11]), ak.arange(10))


@pytest.mark.parametrize("kind", KINDS)
def test_concat_and_append(kind):
    a, b = lists(2, 30, kind=kind), lists(3, 25, kind=kind)
    sa, sb = make(a, kind), make(b, kind)
    assert ak.SegArray.concat([sa, sb]).tolist() == a + b
    assert sa.append(sb).tolist() == a + b
    if kind != "str":
        c = lists(4, 30, kind=kind)
        sc = make(c, kind)
        assert ak.SegArray.concat([sa, sc], axis=1).tolist() == [x + y for x, y in zip(a, c)]
    with pytest.raises(ValueError):
        ak.SegArray.concat([sa, sb], axis=1)
    assert ak.SegArray.concat([ak.arange(3)]) is NotImplemented


@pytest.mark.parametrize("kind", ["int", "float", "bool"])
def test_append_prepend_single(kind):
    ls = lists(5, kind=kind)
    sa = make(ls, kind)
    x = {"int": 99, "float": -2.5, "bool": True}[kind]
    assert sa.append_single(x).tolist() == [v + [x] for v in ls]
    assert sa.prepend_single(x).tolist() == [[x] + v for v in ls]
    arr = ak.array(np.array([x] * len(ls)))
    assert sa.append_single(arr).tolist() == [v + [x] for v in ls]


@pytest.mark.parametrize("kind", KINDS)
def test_prefixes_suffixes_ngrams_jth(kind):
    ls = lists(6, kind=kind)
    sa = make(ls, kind)
    for proper in (True, False):
        n = 2
        ok = [len(x) > n if proper else len(x) >= n for x in ls]
        pre, org = sa.get_prefixes(n, proper=proper)
        assert org.tolist() == ok
        assert [L(c) for c in pre] == [[x[i] for x, o in zip(ls, ok) if o] for i in range(n)]
        suf, org = sa.get_suffixes(n, proper=proper)
        assert [L(c) for c in suf] == [[x[len(x) - n + i] for x, o in zip(ls, ok) if o] for i in range(n)]
    grams, origin = sa.get_ngrams(2)
    want = [(x[j], x[j + 1], i) for i, x in enumerate(ls) for j in range(len(x) - 1)]
    assert list(zip(L(grams[0]), L(grams[1]), origin.tolist())) == want
    with pytest.raises(ValueError):
        sa.get_ngrams(100)
    res, org = sa.get_jth(1, compressed=True)
    assert L(res) == [x[1] for x in ls if len(x) > 1]
    assert org.tolist() == [len(x) > 1 for x in ls]
    res, _ = sa.get_jth(-1, compressed=True)
    assert L(res) == [x[-1] for x in ls if x]
    cols, mask = sa.get_length_n(2)
    assert [L(c) for c in cols] == [[x[i] for x in ls if len(x) == 2] for i in range(2)]


def test_set_jth():
    ls = lists(7)
    sa = make(ls)
    rows = [i for i, x in enumerate(ls) if len(x) > 1][:5]
    sa.set_jth(ak.array(rows), 1, 1234)
    for i in rows:
        ls[i][1] = 1234
    assert sa.tolist() == ls
    short = [i for i, x in enumerate(ls) if len(x) < 2][0]
    with pytest.raises(ValueError):
        sa.set_jth(short, 1, 0)
    with pytest.raises(TypeError):
        make(lists(7, kind="str"), "str").set_jth(0, 0, "x")


@pytest.mark.parametrize("kind", ["int", "uint", "float"])
def test_reductions(kind):
    ls = lists(8, kind=kind)
    sa = make(ls, kind)
    ne = [np.array(x) for x in ls if x]
    np.testing.assert_array_equal(sa.sum().to_ndarray(), [x.sum() for x in ne])
    np.testing.assert_array_equal(sa.min().to_ndarray(), [x.min() for x in ne])
    np.testing.assert_array_equal(sa.max().to_ndarray(), [x.max() for x in ne])
    np.testing.assert_allclose(sa.mean().to_ndarray(), [x.mean() for x in ne], atol=1e-12)
    np.testing.assert_array_equal(
        sa.argmin().to_ndarray() - sa.segments[sa.non_empty].to_ndarray(), [x.argmin() for x in ne]
    )
    np.testing.assert_array_equal(
        sa.nunique().to_ndarray(), [len(set(x.tolist())) for x in ne]
    ) if kind != "float" else None
    if kind == "int":
        np.testing.assert_array_equal(sa.OR().to_ndarray(), [np.bitwise_or.reduce(x) for x in ne])
        np.testing.assert_array_equal(sa.AND().to_ndarray(), [np.bitwise_and.reduce(x) for x in ne])
        np.testing.assert_array_equal(sa.XOR().to_ndarray(), [np.bitwise_xor.reduce(x) for x in ne])
        np.testing.assert_allclose(sa.prod().to_ndarray(), [np.prod(x.astype(float)) for x in ne])
    b = make(lists(9, kind="bool"), "bool")
    bl = [np.array(x) for x in b.tolist() if x]
    assert b.any().tolist() == [bool(x.any()) for x in bl]
    assert b.all().tolist() == [bool(x.all()) for x in bl]


@pytest.mark.parametrize("kind", KINDS)
def test_unique_remove_repeats_filter(kind):
    ls = lists(10, kind=kind)
    sa = make(ls, kind)
    assert sa.unique().tolist() == [sorted(set(x)) for x in ls]
    rr = []
    for x in ls:
        rr.append([v for j, v in enumerate(x) if j == 0 or x[j - 1] != v])
    assert sa.remove_repeats().tolist() == rr
    if kind in ("int", "str"):
        f = ls[0][0] if ls[0] else (0 if kind == "int" else "a")
        assert sa.filter(f).tolist() == [[v for v in x if v != f] for x in ls]
        kept = [[v for v in x if v != f] for x in ls]
        assert sa.filter(f, discard_empty=True).tolist() == [x for x in kept if x]


@pytest.mark.parametrize("op", ["intersect", "union", "setdiff", "setxor"])
def test_setops(op):
    a, b = lists(11, 40), lists(12, 40)
    sa, sb = make(a), make(b)
    fn = getattr(np, f"{op}1d")
    want = [fn(np.array(x, dtype=np.int64), np.array(y, dtype=np.int64)).tolist() for x, y in zip(a, b)]
    assert getattr(sa, op)(sb).tolist() == want


@pytest.mark.parametrize("kind", KINDS)
def test_equality_and_hash(kind):
    ls = lists(13, kind=kind)
    sa = make(ls, kind)
    other = [list(x) for x in ls]
    for i in range(0, len(other), 4):
        if other[i]:
            other[i] = other[i][:-1]
    sb = make(other, kind)
    assert (sa == sb).tolist() == [x == y for x, y in zip(ls, other)]
    h1, h2 = sa.hash()
    g1, g2 = sb.hash()
    same = (h1 == g1) & (h2 == g2)
    assert same.tolist() == [x == y for x, y in zip(ls, other)]


def test_from_multi_array_and_copy():
    parts = [ak.arange(4), ak.arange(0), ak.array([7, 8]), ak.arange(0)]
    sa = ak.SegArray.from_multi_array(parts)
    assert sa.tolist() == [[0, 1, 2, 3], [], [7, 8], []]
    c = sa.copy()
    c.values[0] = 100
    assert sa.tolist()[0][0] == 0 and c.tolist()[0][0] == 100


def test_strings_split_segments():
    s = ak.array(["a,b", "", "c,d,e"])
    pieces, segs = s.split(",", return_segments=True)
    sa = ak.SegArray(segs, pieces)
    assert sa.tolist() == [["a", "b"], [""], ["c", "d", "e"]]
