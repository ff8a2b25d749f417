"""GroupBy and merge against independent references: bigint aggregations against Python ints
(exact products, sums, extremes and float moments), the DataFrame GroupBy over every value
dtype against pandas, merge's suffix collisions (pandas' MergeError), Strings keys merged with
Categorical keys for every ``how``, and random merges and grouped aggregations against pandas
(order-normalized)."""

import math
import statistics

import atoll as ak
import numpy as np
import pandas as pd
import pytest
from atoll.pandas import MergeError
from hypothesis import given, strategies as st

# ----- bigint GroupBy aggregations against Python ints --------------------------------------


def _groups(keys, vals):
    """{key: [values in row order]} for Python lists."""
    out = {}
    for k, v in zip(keys, vals):
        out.setdefault(k, []).append(v)
    return out


def _py_median(xs):
    s = sorted(xs)
    n = len(s)
    return (s[(n - 1) // 2] + s[n // 2]) / 2


_BIG_REF = {
    "sum": sum,
    "prod": math.prod,
    "min": min,
    "max": max,
    "first": lambda xs: xs[0],
    "count": len,
    "nunique": lambda xs: len(set(xs)),
    "mean": lambda xs: sum(xs) / len(xs),
    "median": _py_median,
    "var": lambda xs: float(statistics.variance(xs)) if len(xs) > 1 else math.nan,
    "std": lambda xs: math.sqrt(statistics.variance(xs)) if len(xs) > 1 else math.nan,
    "any": lambda xs: any(x != 0 for x in xs),
    "all": lambda xs: all(x != 0 for x in xs),
    "or": lambda xs: _fold(xs, lambda a, b: a | b),
    "and": lambda xs: _fold(xs, lambda a, b: a & b),
    "xor": lambda xs: _fold(xs, lambda a, b: a ^ b),
}


def _fold(xs, f):
    r = xs[0]
    for x in xs[1:]:
        r = f(r, x)
    return r


def _check_big(keys, vals, op):
    g = ak.GroupBy(ak.array(keys))
    uk, got = g.aggregate(ak.array(vals, dtype=ak.bigint), op)
    groups = _groups(keys, vals)
    want = [_BIG_REF[op](groups[k]) for k in uk.tolist()]
    got = got.tolist()
    if op in ("mean", "median", "var", "std"):
        np.testing.assert_allclose(got, want, rtol=1e-12, equal_nan=True, err_msg=op)
    else:
        assert got == want, op


def test_bigint_prod_past_two_to_the_64():
    keys, vals = [1, 1, 2, 2, 2], [2**70, 1, -3, 5, 2**65]
    _, got = ak.GroupBy(ak.array(keys)).aggregate(ak.array(vals), "prod")
    assert got.dtype == ak.bigint
    assert got.tolist() == [2**70, -3 * 5 * 2**65]


@pytest.mark.parametrize("op", sorted(_BIG_REF))
def test_bigint_aggregations_match_python_ints(op):
    rng = np.random.default_rng(5)
    n = 60
    keys = rng.integers(0, 7, n).tolist()
    big = [2**64 + 3, -(2**70), 2**65 - 1, -5, 0, 7, 2**127, -(2**64)]
    vals = [big[i] if i < len(big) else int(rng.integers(-(2**62), 2**62)) for i in rng.integers(0, 12, n)]
    _check_big(keys, vals, op)


_BIGS = st.one_of(st.integers(-(2**130), 2**130), st.integers(-3, 3), st.sampled_from([2**64, -(2**63), 2**63]))


@given(st.lists(st.tuples(st.integers(0, 4), _BIGS), min_size=1, max_size=40), st.sampled_from(sorted(_BIG_REF)))
def test_bigint_aggregations_random(rows, op):
    _check_big([k for k, _ in rows], [v for _, v in rows], op)


def test_bigint_argmin_argmax_and_max_bits_prod():
    keys = [0, 1, 0, 1, 0]
    vals = [2**80, -(2**70), -(2**80), -(2**70), 2**80]
    g = ak.GroupBy(ak.array(keys))
    a = ak.array(vals)
    for op, f in (("argmin", min), ("argmax", max)):
        got = g.aggregate(a, op)[1].tolist()
        want = [
            min(i for i in range(5) if keys[i] == k and vals[i] == f(v for j, v in enumerate(vals) if keys[j] == k))
            for k in (0, 1)
        ]
        assert got == want, op
    # max_bits: the product modulo 2**max_bits, as every other bigint operation.
    m = ak.array([2**70 + 3, 2**66 + 5, 7, 9], max_bits=72)
    got = ak.GroupBy(ak.array([0, 0, 1, 0])).prod(m)[1].tolist()
    assert got == [((2**70 + 3) * (2**66 + 5) * 9) % 2**72, 7]


# ----- DataFrame GroupBy over every value dtype ---------------------------------------------

_PD_NAME = {"argmin": "idxmin", "argmax": "idxmax"}
_FRAME_OPS = ["sum", "count", "mean", "median", "min", "max", "var", "std", "nunique", "first", "argmin", "argmax"]
_FRAME_OPS += ["any", "all", "prod"]


def _value_frame(n=40, seed=7):
    rng = np.random.default_rng(seed)
    return {
        "k": rng.integers(0, 5, n),
        "i": rng.integers(-9, 9, n),
        "u": rng.integers(0, 9, n).astype(np.uint64),
        "u8": rng.integers(0, 255, n).astype(np.uint8),
        "f": np.round(rng.normal(size=n), 3),
        "b": rng.integers(0, 2, n).astype(bool),
    }


@pytest.mark.parametrize("op", _FRAME_OPS)
def test_dataframe_groupby_every_value_dtype(op):
    d = _value_frame()
    if op == "prod":
        d = {c: (v % 3 if c not in ("k", "f", "b") else v) for c, v in d.items()}  # no overflow in pandas
    pdf = pd.DataFrame(d)
    df = ak.DataFrame({c: ak.array(v) for c, v in d.items()})
    got = getattr(df.groupby("k"), op)().to_pandas(retain_index=True)
    want = getattr(pdf.groupby("k"), _PD_NAME.get(op, op))()
    assert list(got.columns) == list(want.columns)
    for c in want.columns:
        g, w = got[c].to_numpy(), want[c].to_numpy()
        if op in ("prod",):
            # Arkouda's products are float64; pandas keeps integer dtypes.
            g, w = g.astype(float), w.astype(float)
        else:
            assert g.dtype == w.dtype, (c, g.dtype, w.dtype)
        np.testing.assert_allclose(g.astype(float), w.astype(float), rtol=1e-12, equal_nan=True, err_msg=c)


@pytest.mark.parametrize("op", ["sum", "prod", "min", "max", "first", "count", "nunique", "mean", "median"])
def test_dataframe_groupby_bigint_column(op):
    keys = [3, 1, 3, 3, 1, 2]
    big = [2**70, -1, 5, -(2**66), 2**64 + 1, 9]
    df = ak.DataFrame({"k": ak.array(keys), "big": ak.array(big), "i": ak.array([1, 2, 3, 4, 5, 6])})
    got = getattr(df.groupby("k"), op)().to_pandas(retain_index=True)
    groups = _groups(keys, big)
    want = [_BIG_REF[op](groups[k]) for k in sorted(groups)]
    assert list(got.index) == sorted(groups)
    assert list(got.columns) == ["big", "i"]
    if op in ("mean", "median"):
        np.testing.assert_allclose(got["big"].to_numpy(dtype=float), want, rtol=1e-12)
    else:
        assert [int(x) for x in got["big"]] == want


# ----- merge: suffix collisions ---------------------------------------------------------------


def _pd_error(lf, rf, **kw):
    try:
        pd.merge(lf, rf, **kw)
    except Exception as e:  # noqa: BLE001 - the reference's exception, whatever it is
        return e
    return None


@pytest.mark.parametrize(
    "lcols, rcols, suffixes",
    [
        (["k", "v", "v_x"], ["k", "v"], ("_x", "_y")),
        (["k", "v"], ["k", "v", "v_x"], ("_x", "_y")),
        (["k", "v", "v_y"], ["k", "v"], ("_x", "_y")),
        (["k", "v", "w"], ["k", "v", "w"], ("_x", "_x")),
        (["k", "v"], ["k", "v"], ("", "")),
        (["k", "v"], ["k", "v"], ("", "_r")),
        (["k", "v", "w"], ["k", "v"], ("_w", None)),
        (["k", "a"], ["k", "b"], ("_x", "_y")),
    ],
)
def test_merge_suffix_collisions_as_pandas(lcols, rcols, suffixes):
    lf = pd.DataFrame({c: [1, 2, 3][:3] if c == "k" else [i * 10, i * 10 + 1, i * 10 + 2] for i, c in enumerate(lcols)})
    rf = pd.DataFrame({c: [2, 3, 4] if c == "k" else [i * 7, i * 7 + 1, i * 7 + 2] for i, c in enumerate(rcols)})
    left = ak.DataFrame({c: ak.array(lf[c].to_numpy()) for c in lcols})
    right = ak.DataFrame({c: ak.array(rf[c].to_numpy()) for c in rcols})
    err = _pd_error(lf, rf, on="k", suffixes=suffixes)
    if err is None:
        want = pd.merge(lf, rf, on="k", suffixes=suffixes)
        got = ak.merge(left, right, on="k", left_suffix=suffixes[0], right_suffix=suffixes[1]).to_pandas()
        if want.columns.is_unique:
            assert list(got.columns) == list(want.columns)
            for c in want.columns:
                assert got[c].tolist() == want[c].tolist(), c
        return
    with pytest.raises(ValueError) as info:
        ak.merge(left, right, on="k", left_suffix=suffixes[0], right_suffix=suffixes[1])
    if isinstance(err, pd.errors.MergeError):
        assert isinstance(info.value, MergeError) and str(info.value) == str(err)
    else:
        # pandas' plain ValueError names the overlapping columns as an Index, Atoll as a list.
        assert type(err) is ValueError and not isinstance(info.value, MergeError)
        assert str(info.value).split(":")[0] == str(err).split(":")[0]


# ----- merge: a Strings key with a Categorical key ------------------------------------------


@pytest.mark.parametrize("how", ["inner", "left", "right", "outer"])
@pytest.mark.parametrize("cat_side", ["left", "right"])
def test_merge_strings_key_with_categorical_key(how, cat_side):
    lk, rk = ["a", "b", "c", "b", "e"], ["b", "d", "a", "e", "e"]
    lf = pd.DataFrame({"k": pd.Series(lk, dtype=object), "v": np.arange(5)})
    rf = pd.DataFrame({"k": pd.Series(rk, dtype=object), "w": np.arange(5) * 10})
    if cat_side == "left":
        lf["k"] = pd.Categorical(lk)
    else:
        rf["k"] = pd.Categorical(rk)

    def to_ak(f):
        k = (
            ak.Categorical(ak.array(list(f["k"].astype(str))))
            if isinstance(f["k"].dtype, pd.CategoricalDtype)
            else ak.array(list(f["k"]))
        )
        return ak.DataFrame({"k": k, f.columns[1]: ak.array(f[f.columns[1]].to_numpy())})

    want = pd.merge(lf, rf, on="k", how=how, sort=True)
    got = ak.merge(to_ak(lf), to_ak(rf), on="k", how=how, sort=True)
    # pandas gives the key's values as strings (object or str dtype), not as a categorical:
    # Atoll gives a Strings column.
    assert not isinstance(want["k"].dtype, pd.CategoricalDtype)
    assert isinstance(got.data["k"], ak.Strings)
    gp = got.to_pandas()
    assert gp["k"].tolist() == want["k"].tolist()
    for c in ("v", "w"):
        np.testing.assert_array_equal(gp[c].to_numpy(dtype=float), want[c].to_numpy(dtype=float))


# ----- random merges and grouped aggregations against pandas ---------------------------------


def _norm_cell(x):
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "nan"
    if isinstance(x, (bool, np.bool_)):
        return repr(float(x))
    if isinstance(x, (int, float, np.integer, np.floating)):
        return repr(float(x))
    return str(x)


def _norm_rows(df):
    cols = list(df.columns)
    rows = [tuple(_norm_cell(x) for x in r) for r in zip(*(df[c].tolist() for c in cols))]
    return sorted(rows)


@st.composite
def _merge_case(draw):
    nkeys = draw(st.integers(1, 3))
    kinds = [draw(st.sampled_from(["int", "str"])) for _ in range(nkeys)]

    def key_values(kind, n):
        vals = draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))
        return np.array(vals, dtype=np.int64) if kind == "int" else np.array([f"s{v}" for v in vals], dtype="<U2")

    def frame(n, own):
        d = {f"k{j}": key_values(kinds[j], n) for j in range(nkeys)}
        d["v"] = np.array(draw(st.lists(st.integers(-50, 50), min_size=n, max_size=n)), dtype=np.int64)
        d[own] = np.array(draw(st.lists(st.floats(-9, 9, width=32), min_size=n, max_size=n)), dtype=np.float64)
        return d

    left = frame(draw(st.integers(0, 12)), "a")
    right = frame(draw(st.integers(0, 12)), "b")
    how = draw(st.sampled_from(["inner", "left", "right", "outer"]))
    suffixes = draw(st.sampled_from([("_x", "_y"), ("_l", "_r"), ("", "_r")]))
    sort = draw(st.booleans())
    return left, right, [f"k{j}" for j in range(nkeys)], how, suffixes, sort


@given(_merge_case())
def test_merge_random_against_pandas(case):
    left, right, on, how, suffixes, sort = case
    lf, rf = pd.DataFrame(left), pd.DataFrame(right)
    want = pd.merge(lf, rf, on=on, how=how, suffixes=suffixes, sort=sort)
    got = ak.merge(
        ak.DataFrame({c: ak.array(v) for c, v in left.items()}),
        ak.DataFrame({c: ak.array(v) for c, v in right.items()}),
        on=on,
        how=how,
        left_suffix=suffixes[0],
        right_suffix=suffixes[1],
        sort=sort,
    ).to_pandas()
    assert list(got.columns) == list(want.columns)
    assert len(got) == len(want)
    assert _norm_rows(got) == _norm_rows(want)
    if sort or how in ("inner", "left"):
        # The same order too: sorted by key, or the left rows' order (pandas' sort=False
        # order of right and outer joins is not Arkouda's).
        for c in want.columns:
            assert [_norm_cell(x) for x in got[c].tolist()] == [_norm_cell(x) for x in want[c].tolist()], c
    if len(want):
        for c in want.columns:
            g, w = got[c].dtype, want[c].dtype
            assert g.kind == w.kind or (g.kind in "OUT" and w.kind in "OUT"), (c, g, w)


@pytest.mark.parametrize("how", ["right", "outer"])
def test_merge_empty_side_keeps_the_key_dtype(how):
    left = {"k": np.array([], dtype=np.int64), "v": np.array([], dtype=np.int64)}
    right = {"k": np.array([3, 1, 3]), "w": np.array([1.5, 2.5, 3.5])}
    want = pd.merge(pd.DataFrame(left), pd.DataFrame(right), on="k", how=how, sort=True)
    got = ak.merge(ak_frame(left), ak_frame(right), on="k", how=how, sort=True).to_pandas()
    assert got["k"].dtype == want["k"].dtype
    assert got["k"].tolist() == want["k"].tolist()


def ak_frame(d):
    return ak.DataFrame({c: ak.array(v) for c, v in d.items()})


_GROUP_OPS = ["sum", "mean", "min", "max", "count", "nunique", "first", "std", "var", "median"]


@st.composite
def _group_case(draw):
    n = draw(st.integers(1, 30))
    nkeys = draw(st.integers(1, 2))
    d = {}
    for j in range(nkeys):
        vals = draw(st.lists(st.integers(0, 4), min_size=n, max_size=n))
        d[f"g{j}"] = np.array(vals) if draw(st.booleans()) else np.array([f"t{v}" for v in vals], dtype="<U2")
    d["i"] = np.array(draw(st.lists(st.integers(-100, 100), min_size=n, max_size=n)), dtype=np.int64)
    d["u"] = np.array(draw(st.lists(st.integers(0, 100), min_size=n, max_size=n)), dtype=np.uint64)
    d["u8"] = np.array(draw(st.lists(st.integers(0, 255), min_size=n, max_size=n)), dtype=np.uint8)
    d["f"] = np.array(draw(st.lists(st.floats(-100, 100, width=32), min_size=n, max_size=n)), dtype=np.float64)
    d["b"] = np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    return d, [f"g{j}" for j in range(nkeys)], draw(st.sampled_from(_GROUP_OPS))


@given(_group_case())
def test_groupby_random_against_pandas(case):
    d, keys, op = case
    pdf = pd.DataFrame(d)
    df = ak.DataFrame({c: ak.array(v) for c, v in d.items()})
    by = keys[0] if len(keys) == 1 else keys
    got = getattr(df.groupby(by), op)().to_pandas(retain_index=len(keys) == 1)
    want = getattr(pdf.groupby(by), op)()
    if len(keys) == 1:
        got = got.reset_index()
    want = want.reset_index()
    got = got.sort_values(keys, kind="stable").reset_index(drop=True)
    want = want.sort_values(keys, kind="stable").reset_index(drop=True)
    assert list(got.columns) == list(want.columns)
    for c in want.columns:
        if c in keys:
            assert [str(x) for x in got[c]] == [str(x) for x in want[c]], c
            continue
        g, w = got[c].to_numpy(), want[c].to_numpy()
        if op == "sum" and c == "u8":
            # NumPy's dtype of a uint8 sum, and pandas' but when every group has one row
            # (pandas then keeps uint8).
            w = w.astype(np.uint64)
        assert g.dtype == w.dtype, (op, c, g.dtype, w.dtype)
        np.testing.assert_allclose(
            g.astype(float), w.astype(float), rtol=1e-9, atol=1e-9, equal_nan=True, err_msg=f"{op} {c}"
        )


def test_any_all_skip_nan_as_pandas():
    p = pd.DataFrame({"k": [0, 0, 1, 1, 2], "f": [np.nan, -0.0, 2.0, np.nan, np.nan]})
    g = ak.DataFrame(p).groupby("k")
    for op in ("any", "all"):
        got = getattr(g, op)().to_pandas(retain_index=True)["f"]
        want = getattr(p.groupby("k"), op)()["f"]
        assert got.tolist() == want.tolist(), op


def test_uint8_extrema_of_no_rows_stay_uint8():
    p = pd.DataFrame({"k": np.zeros(0, np.int64), "u": np.zeros(0, np.uint8)})
    g = ak.DataFrame(p).groupby("k")
    for op in ("min", "max", "first"):
        assert getattr(g, op)().to_pandas()["u"].dtype == getattr(p.groupby("k"), op)()["u"].dtype, op


def test_index_of_no_strings_is_str():
    idx = ak.Index(ak.array(["a"])[ak.zeros(0, dtype=ak.int64)])
    pd.testing.assert_index_equal(idx.to_pandas(), pd.Index([], dtype="str"))
    m = ak.MultiIndex([ak.array(["a"])[ak.zeros(0, dtype=ak.int64)], ak.zeros(0, dtype=ak.int64)])
    assert m.to_pandas().levels[0].dtype == pd.Index([], dtype="str").dtype
