"""atoll.testing's Index, Series and DataFrame asserters against pandas.testing: random pairs of
pandas objects (equal ones, and ones that differ in a value, a dtype, a name, the order, the
index type, the categories, a float within or beyond the tolerances, a NaN) are compared by
pandas.testing and, after conversion to Atoll, by atoll.testing with the same keyword
arguments; both must raise the same exception (with the same first message line, where the
``obj`` names appear) or both accept.

Where Arkouda's documented semantics differ from pandas' the pair is built so that the
difference cannot show, as noted at each place:
- Atoll has no RangeIndex, so the pandas objects carry plain Indexes (pandas' ``exact="equiv"``
  and Arkouda's ``exact=True`` then agree, and the default of each is used as is).
- An Atoll Categorical holds its missing-value label "N/A" as a category (appended when absent);
  the drawn labels never include it, so it is a category on both sides alike.
"""

import atoll as ak
import numpy as np
import pandas as pd
import pytest
from atoll import testing as akt
from hypothesis import given, strategies as st

LABELS = ["u", "v", "w"]
FLOATS = [0.0, 1.0, -2.5, 1e6, 3.25, 1e-7, np.nan]
# EMPTY_STR: an empty pandas str array becomes an int64 pdarray in ak.Index, ak.Series and
# ak.DataFrame (their constructors cannot tell an empty str array from an empty number list), so
# the drawn objects hold str values only when they have rows.
# Relative changes around the default and drawn tolerances (rtol 1e-5 / 1e-3, atol 1e-8 / 1e-3).
NUDGES = [1e-9, 1e-6, 1e-4, 1e-2]


def outcome(f, *args, **kwargs):
    """None when ``f`` accepts, else the exception's class and the first line of its message."""
    try:
        f(*args, **kwargs)
    except (AssertionError, ValueError, TypeError, KeyError) as e:
        return type(e), str(e).split("\n")[0]
    return None


def column(draw, kind, n):
    if kind == "int":
        return np.array(draw(st.lists(st.integers(-5, 5), min_size=n, max_size=n)), dtype=np.int64)
    if kind == "float":
        return np.array(draw(st.lists(st.sampled_from(FLOATS), min_size=n, max_size=n)), dtype=np.float64)
    if kind == "bool":
        return np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)), dtype=bool)
    values = draw(st.lists(st.sampled_from(LABELS), min_size=n, max_size=n))
    if kind == "str":
        return pd.array(values, dtype="str")
    return pd.Categorical(values, categories=draw(st.permutations(LABELS)))


def labels(draw, kind, n, unique=True):
    if kind == "int":
        v = draw(st.lists(st.integers(-20, 20), min_size=n, max_size=n, unique=unique))
        return pd.Index(np.array(v, dtype=np.int64))
    if kind == "float":
        v = draw(st.lists(st.sampled_from([0.5, 1.0, 2.0, 4.0, 1e6, -3.0]), min_size=n, max_size=n, unique=unique))
        return pd.Index(np.array(v, dtype=np.float64))
    if kind == "multi":
        first = labels(draw, "int", n, unique)
        second = labels(draw, "str", n, unique=False)
        return pd.MultiIndex.from_arrays([first, second], names=[None, "m"])
    v = draw(st.lists(st.sampled_from(["a", "b", "c", "d", "e", "f"]), min_size=n, max_size=n, unique=unique))
    return pd.Index(pd.array(v, dtype="str"))


def mutate_column(draw, col, how):
    """A copy of one column (NumPy or pandas array) changed as ``how`` says."""
    n = len(col)
    if isinstance(col, pd.Categorical):
        if how == "categories":
            cats = list(col.categories)
            new = draw(st.sampled_from([cats[::-1], cats + ["x"], cats[:-1] + ["x"]]))
            if not set(col.dropna()) <= set(new):
                new = cats + ["x"]
            return pd.Categorical(np.asarray(col, dtype=object), categories=new)
        if how == "dtype" and n:  # see EMPTY_STR
            return pd.array(np.asarray(col, dtype=object), dtype="str")
        if how == "value" and n:
            out = col.copy()
            i = draw(st.integers(0, n - 1))
            out[i] = draw(st.sampled_from([c for c in col.categories if c != out[i]]))
            return out
        return col.copy()
    if isinstance(col, pd.api.extensions.ExtensionArray):  # str
        if how == "dtype":
            return pd.Categorical(np.asarray(col, dtype=object))
        out = col.copy()
        if how == "value" and n:
            i = draw(st.integers(0, n - 1))
            out[i] = out[i] + "z"
        return out
    out = col.copy()
    if how == "dtype":
        if out.dtype.kind in "ib":
            return out.astype(np.float64)
        whole = np.isfinite(out).all() and (out == np.round(out)).all()
        return out.astype(np.int64) if whole else out
    if not n:
        return out
    i = draw(st.integers(0, n - 1))
    if how == "value":
        if out.dtype.kind == "b":
            out[i] = not out[i]
        elif out.dtype.kind == "f" and np.isnan(out[i]):
            out[i] = 1.0
        else:
            out[i] = out[i] + 1
    elif how == "close" and out.dtype.kind == "f":
        out[i] = out[i] * (1 + draw(st.sampled_from(NUDGES))) + draw(st.sampled_from([0.0, 1e-9, 1e-4]))
    elif how == "nan" and out.dtype.kind == "f":
        out[i] = np.nan
    return out


COLUMN_CHANGES = ["value", "close", "nan", "dtype", "categories"]
FRAME_CHANGES = ["same", "rows", "cols", "col_name", "index_name", "index_type", "index_value", "length"]


@st.composite
def frame_pairs(draw):
    n = draw(st.integers(0, 5))
    strs = ["str"] if n else []  # see EMPTY_STR
    kinds = draw(st.lists(st.sampled_from(["int", "float", "bool", "cat"] + strs), min_size=1, max_size=3))
    index = labels(draw, draw(st.sampled_from(["int", "float"] + strs + ["multi"] * bool(n))), n)
    name = draw(st.sampled_from([None, "k"]))
    index = index.set_names(name, level=0) if isinstance(index, pd.MultiIndex) else index.rename(name)
    names = ["x", "y", "z"][: len(kinds)]
    left = pd.DataFrame({c: column(draw, k, n) for c, k in zip(names, kinds)}, index=index)
    how = draw(st.sampled_from(COLUMN_CHANGES + FRAME_CHANGES))
    right = left.copy()
    if how in COLUMN_CHANGES:
        c = draw(st.sampled_from(names))
        right[c] = mutate_column(draw, left[c].array if left[c].dtype.kind not in "ifb" else left[c].to_numpy(), how)
    elif how == "rows":
        right = left.iloc[draw(st.permutations(range(n)))]
    elif how == "cols":
        right = left[draw(st.permutations(names))]
    elif how == "col_name":
        right = left.rename(columns={names[-1]: "q"})
    elif how == "index_name":
        name = draw(st.sampled_from([None, "k", "j"]))
        multi = isinstance(index, pd.MultiIndex)
        right.index = right.index.set_names(name, level=0) if multi else right.index.rename(name)
    elif isinstance(index, pd.MultiIndex):
        first = right.index.get_level_values(0).to_numpy().copy()
        if how == "index_type":
            first = first.astype(np.float64)
        if how == "index_value" and n:
            first[0] += 100
        if how in ("index_type", "index_value"):
            right.index = pd.MultiIndex.from_arrays([first, right.index.get_level_values(1)], names=right.index.names)
    elif how == "index_type":
        right.index = (
            pd.Index(right.index.to_numpy().astype(np.float64), name=right.index.name)
            if right.index.dtype.kind in "if"
            else pd.CategoricalIndex(right.index, name=right.index.name)
        )
    elif how == "index_value" and n:
        v = right.index.to_numpy().copy()
        v[0] = v[0] + ("z" if isinstance(v[0], str) else 100)
        right.index = pd.Index(v, dtype=right.index.dtype, name=right.index.name)
    elif how == "length" and n:
        right = left.iloc[:-1]
    if draw(st.booleans()):
        left, right = right, left
    return left, right


def options(draw, allowed):
    """A random subset of the keyword arguments in ``allowed`` (name: candidate values)."""
    return {k: draw(st.sampled_from(v)) for k, v in allowed.items() if draw(st.booleans())}


TOLERANCES = {"rtol": [1e-5, 1e-3, 0.0], "atol": [1e-8, 1e-3, 0.0], "check_exact": [True, False]}


@given(frame_pairs(), st.data())
def test_assert_frame_equal_agrees_with_pandas(pair, data):
    left, right = pair
    kw = options(
        data.draw,
        {
            "check_dtype": [True, False],
            "check_index_type": [True, False],
            "check_column_type": [True, False],
            "check_names": [True, False],
            "check_categorical": [True, False],
            "check_like": [True, False],
            "obj": ["DataFrame", "frame"],
            **TOLERANCES,
        },
    )
    want = outcome(pd.testing.assert_frame_equal, left, right, **kw)
    got = outcome(akt.assert_frame_equal, ak.DataFrame(left), ak.DataFrame(right), **kw)
    if kw.get("check_like") and want is not None and got is not None:
        # pandas reindexes the left frame like the right one before comparing, so where index
        # labels differ within a tolerance its first message can name a column the reindexing
        # changed: both must fail, with the same exception class.
        assert got[0] == want[0], (kw, left, right)
        return
    assert got == want, (kw, left, right)


@st.composite
def series_pairs(draw):
    left, right = draw(frame_pairs())
    c = left.columns[0]
    if c not in right.columns:
        right = right.rename(columns={right.columns[0]: c})
    ls, rs = left[c], right[c]
    name = draw(st.sampled_from([None, "s"]))
    return ls.rename(name), rs.rename(draw(st.sampled_from([name, name, "t"])))


@given(series_pairs(), st.data())
def test_assert_series_equal_agrees_with_pandas(pair, data):
    left, right = pair
    kw = options(
        data.draw,
        {
            "check_dtype": [True, False],
            "check_index_type": [True, False],
            "check_series_type": [True, False],
            "check_names": [True, False],
            "check_categorical": [True, False],
            "check_category_order": [True, False],
            "check_index": [True, False],
            "check_like": [True, False],
            "obj": ["Series", "column"],
            **TOLERANCES,
        },
    )
    want = outcome(pd.testing.assert_series_equal, left, right, **kw)
    got = outcome(akt.assert_series_equal, ak.Series(left), ak.Series(right), **kw)
    assert got == want, (kw, left, right)


@st.composite
def index_pairs(draw):
    n = draw(st.integers(0, 5))
    kind = draw(st.sampled_from(["int", "float", "cat"] + (["str", "multi"] if n else [])))  # see EMPTY_STR
    name = draw(st.sampled_from([None, "k"]))
    if kind == "multi":
        a = labels(draw, "int", n, unique=False)
        b = labels(draw, "str", n, unique=False)
        left = pd.MultiIndex.from_arrays([a, b], names=[name, "m"])
        how = draw(st.sampled_from(["same", "order", "name", "value", "length"]))
        arrays = [a.to_numpy(), b.array]
        if how == "order":
            p = draw(st.permutations(range(n)))
            arrays = [x[p] for x in arrays]
        elif how == "value" and n:
            arrays[0] = arrays[0].copy()
            arrays[0][draw(st.integers(0, n - 1))] += 1
        elif how == "length" and n:
            arrays = [x[:-1] for x in arrays]
        names = [draw(st.sampled_from([None, "k", "j"])), "m"] if how == "name" else [name, "m"]
        right = pd.MultiIndex.from_arrays(arrays, names=names)
    else:
        if kind == "cat":
            left = pd.Index(column(draw, "cat", n), name=name)
        else:
            left = labels(draw, kind, n, unique=False).rename(name)
        how = draw(st.sampled_from(COLUMN_CHANGES + ["same", "order", "name", "length"]))
        values = left.array if kind in ("str", "cat") else left.to_numpy()
        if how in COLUMN_CHANGES:
            right = pd.Index(mutate_column(draw, values, how), name=name)
        elif how == "order":
            right = left[draw(st.permutations(range(n)))]
        elif how == "name":
            right = left.rename(draw(st.sampled_from([None, "k", "j"])))
        elif how == "length" and n:
            right = left[:-1]
        else:
            right = left.copy()
    if draw(st.booleans()):
        left, right = right, left
    return left, right


def atoll_index(ix):
    return ak.MultiIndex(ix) if isinstance(ix, pd.MultiIndex) else ak.Index(ix)


@given(index_pairs(), st.data())
def test_assert_index_equal_agrees_with_pandas(pair, data):
    left, right = pair
    kw = options(
        data.draw,
        {
            "exact": [True, False],
            "check_names": [True, False],
            "check_exact": [True, False],
            "check_categorical": [True, False],
            "check_order": [True, False],
            "rtol": [1e-5, 1e-3],
            "atol": [1e-8, 1e-3],
        },
    )
    # pandas names a MultiIndex "MultiIndex" in its messages unless told; Arkouda's default is "Index".
    kw["obj"] = data.draw(st.sampled_from(["Index", "labels"]))
    want = outcome(pd.testing.assert_index_equal, left, right, **kw)
    got = outcome(akt.assert_index_equal, atoll_index(left), atoll_index(right), **kw)
    assert got == want, (kw, left, right)


def test_reported_cases():
    """check_like with reordered rows, and exact=False across float and int labels."""
    df = pd.DataFrame({"x": [3, 1, 2], "y": [0.5, 0.1, 0.2]}, index=pd.Index([10, 20, 30]))
    akt.assert_frame_equal(ak.DataFrame(df), ak.DataFrame(df.sort_values("y")), check_like=True)
    pd.testing.assert_frame_equal(df, df.sort_values("y"), check_like=True)
    fi, ii = pd.Index([1.0, 2.0]), pd.Index([1, 2])
    pd.testing.assert_index_equal(fi, ii, exact=False)
    akt.assert_index_equal(ak.Index(fi), ak.Index(ii), exact=False)
    with pytest.raises(AssertionError):
        akt.assert_index_equal(ak.Index(fi), ak.Index(ii))


def test_almost_equal_and_equal_dispatch_as_pandas():
    """assert_almost_equal compares within the tolerances, assert_equal forwards its options."""
    left = pd.Series([1.0, 2.0, np.nan], name="s")
    right = pd.Series([1.0 + 1e-7, 2.0, np.nan], name="s")
    for kw in ({}, {"rtol": 1e-9, "atol": 0.0}):
        want = outcome(pd.testing.assert_series_equal, left, right, check_exact=False, **kw)
        assert outcome(akt.assert_almost_equal, ak.Series(left), ak.Series(right), **kw) == want
    for kw in ({}, {"check_names": False}, {"check_exact": True}):
        other = right.rename("t")
        want = outcome(pd.testing.assert_series_equal, left, other, **kw)
        assert outcome(akt.assert_equal, ak.Series(left), ak.Series(other), **kw) == want
    with pytest.raises(AssertionError):
        akt.assert_frame_equal(ak.DataFrame(left.to_frame()), ak.Series(left))
