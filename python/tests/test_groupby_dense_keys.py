"""GroupBy on a Categorical key and on several keys of small ranges (combined into one int64
key, grouped on the dense path or by one single-key sort) against pandas: the distinct keys,
their order (lexicographic, strings by code point), the aggregated values and the counts."""

import contextlib

import atoll as ak
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, strategies as st

LABELS = ["a", "b", "B", "zz", "\u00e4", "N/A0"]


@contextlib.contextmanager
def dense_path(on):
    """The dense paths on or off (off: the combined key is grouped by one sort)."""
    old = ak._keys.DENSE
    ak._keys.DENSE = on
    try:
        yield
    finally:
        ak._keys.DENSE = old


def _key(kind, rng, n):
    """(Atoll key, the same key as pandas groups it: Python values)."""
    if kind == "cat":
        v = np.array(LABELS[:4])[rng.integers(0, 4, n)] if n else np.array([], dtype=str)
        return ak.Categorical(ak.array(v)), list(v)
    if kind == "cat_missing":
        # A pandas Categorical with unsorted categories and missing values ("N/A" in Atoll).
        cats = list(rng.permutation(LABELS[:5]))
        idx = rng.integers(-1, 5, n)
        pc = pd.Categorical.from_codes(idx, categories=cats)
        return ak.Categorical(pc), ["N/A" if i < 0 else cats[i] for i in idx]
    if kind == "strings":
        v = np.array(LABELS)[rng.integers(0, len(LABELS), n)] if n else np.array([], dtype=str)
        return ak.array(v), list(v)
    if kind == "small":
        v = rng.integers(-3, 4, n)
        return ak.array(v), list(v)
    if kind == "large":
        v = rng.integers(-(1 << 40), 1 << 40, n) // (1 << 37) * (1 << 37)
        return ak.array(v), list(v)
    if kind == "uint8":
        v = rng.integers(250, 256, n).astype(np.uint8)
        return ak.array(v), list(v)
    if kind == "bool":
        v = rng.integers(0, 2, n).astype(bool)
        return ak.array(v), list(v)
    if kind == "float":
        v = rng.choice(np.array([0.5, 1.5, np.nan, 2.0]), n)
        return ak.array(v), list(v)
    raise KeyError(kind)


KINDS = ["cat", "cat_missing", "strings", "small", "large", "uint8", "bool", "float"]


def _as_list(a):
    a = getattr(a, "_atoll_values", a)
    return a.to_list() if hasattr(a, "to_list") else a.to_ndarray().tolist()


def _check_groupby(kinds, n, seed, as_list):
    rng = np.random.default_rng(seed)
    pairs = [_key(k, rng, n) for k in kinds]
    v = rng.integers(-50, 50, n)
    f = rng.uniform(-1, 1, n)
    names = [f"k{i}" for i in range(len(kinds))]
    pdf = pd.DataFrame({**{nm: pd.Series(p[1], dtype=object) for nm, p in zip(names, pairs)}, "v": v, "f": f})
    want = pdf.groupby(names, sort=True, dropna=True).agg(s=("v", "sum"), m=("f", "mean"), c=("v", "size"))
    keys = [p[0] for p in pairs] if as_list else pairs[0][0]
    g = ak.GroupBy(keys)
    uk, s = g.sum(ak.array(v))
    _, m = g.mean(ak.array(f))
    _, c = g.size()
    uk = list(uk) if as_list else [uk]
    assert len(uk) == len(kinds)
    for i, (u, (k, _)) in enumerate(zip(uk, pairs)):
        assert type(u) is type(k)
        if isinstance(k, ak.pdarray):
            assert u.dtype == k.dtype
        level = want.index.get_level_values(i) if len(kinds) > 1 else want.index
        got = _as_list(u)
        exp = level.tolist()
        if kinds[i] == "float":
            np.testing.assert_array_equal(np.array(got, dtype=float), np.array(exp, dtype=float))
        else:
            assert got == [type(got[0])(x) for x in exp] if got else not exp, (kinds, i, got, exp)
    np.testing.assert_array_equal(s.to_ndarray(), want["s"].to_numpy())
    np.testing.assert_allclose(m.to_ndarray(), want["m"].to_numpy(), rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(c.to_ndarray(), want["c"].to_numpy())
    # The grouped rows: stably sorted by the keys.
    if len(want):
        perm = g.permutation.to_ndarray()
        order = pdf.sort_values(names, kind="stable").index.to_numpy()
        order = order[pdf.loc[order, names].notna().all(axis=1).to_numpy()]
        np.testing.assert_array_equal(perm, order)


@given(
    kinds=st.lists(st.sampled_from(KINDS), min_size=1, max_size=3),
    n=st.integers(0, 80),
    seed=st.integers(0, 2**32 - 1),
    dense=st.booleans(),
)
def test_keys_against_pandas(kinds, n, seed, dense):
    with dense_path(dense):
        _check_groupby(kinds, n, seed, as_list=True)


@given(
    kind=st.sampled_from(["cat", "cat_missing"]),
    n=st.integers(0, 80),
    seed=st.integers(0, 2**32 - 1),
    dense=st.booleans(),
)
def test_categorical_key_against_pandas(kind, n, seed, dense):
    with dense_path(dense):
        _check_groupby([kind], n, seed, as_list=False)


def test_categorical_key_takes_the_dense_path():
    rng = np.random.default_rng(5)
    k, ref = _key("cat_missing", rng, 1000)
    g = ak.GroupBy(k)
    assert g._dense is not None
    uk, s = g.sum(ak.arange(1000))
    assert g._perm is None  # grouped without a sort
    want = pd.Series(np.arange(1000)).groupby(pd.Series(ref, dtype=object)).sum()
    assert uk.to_list() == want.index.tolist()
    np.testing.assert_array_equal(s.to_ndarray(), want.to_numpy())


def test_small_multi_keys_take_the_dense_path():
    rng = np.random.default_rng(6)
    pairs = [_key(kind, rng, 2000) for kind in ("cat", "small", "strings")]
    g = ak.GroupBy([p[0] for p in pairs])
    assert g._dense is not None
    uk, c = g.size()
    assert g._perm is None
    want = (
        pd.DataFrame({str(i): pd.Series(p[1], dtype=object) for i, p in enumerate(pairs)})
        .groupby(["0", "1", "2"], sort=True)
        .size()
    )
    assert list(zip(*[_as_list(u) for u in uk])) == [tuple(t) for t in want.index.tolist()]
    np.testing.assert_array_equal(c.to_ndarray(), want.to_numpy())


def test_dataframe_agg_dict_against_pandas():
    rng = np.random.default_rng(7)
    n = 500
    k1, r1 = _key("cat_missing", rng, n)
    k2, r2 = _key("small", rng, n)
    v1, v2, v3 = rng.integers(0, 9, n), rng.integers(-9, 9, n), rng.uniform(0, 1, n)
    df = ak.DataFrame({"id1": k1, "id4": k2, "v1": ak.array(v1), "v2": ak.array(v2), "v3": ak.array(v3)})
    pdf = pd.DataFrame({"id1": pd.Series(r1, dtype=object), "id4": r2, "v1": v1, "v2": v2, "v3": v3})
    spec = {"v1": "sum", "v3": "mean", "v2": "max"}
    for keys in (["id1"], ["id1", "id4"]):
        want = pdf.groupby(keys, as_index=False, sort=True).agg(spec)
        got = df.groupby(keys if len(keys) > 1 else keys[0], as_index=False).agg(spec)
        for col in keys:
            assert _as_list(got[col]) == want[col].tolist()
        for col in ("v1", "v2"):
            np.testing.assert_array_equal(np.array(_as_list(got[col])), want[col].to_numpy())
        np.testing.assert_allclose(np.array(_as_list(got["v3"])), want["v3"].to_numpy(), rtol=1e-12)
        # Several columns of one operation over the same grouping.
        want_s = pdf.groupby(keys, as_index=False, sort=True)[["v1", "v2"]].sum()
        got_s = df.groupby(keys, as_index=False).sum(["v1", "v2"])
        for col in ("v1", "v2"):
            np.testing.assert_array_equal(np.array(_as_list(got_s[col])), want_s[col].to_numpy())


def test_dataframe_agg_size_and_bad_input():
    df = ak.DataFrame({"k": ak.Categorical(ak.array(["x", "y", "x"])), "v": ak.array([1, 2, 3])})
    got = df.groupby("k", as_index=False).agg({"v": "size"})
    assert _as_list(got["v"]) == [2, 1]
    with pytest.raises(KeyError):
        df.groupby("k").agg({"nope": "sum"})
    with pytest.raises(TypeError):
        df.groupby("k").agg(3)
    with pytest.raises(ValueError):
        df.groupby("k").agg({"v": "nosuchop"})
