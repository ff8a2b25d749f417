"""Differential tests of the pandas layer: random frames (Hypothesis) of every column kind a
DataFrame holds (int64, uint64, uint8, float64 with NaN, inf and -0.0, bool, Strings with empty
and non-ASCII strings, Categorical, bigint from Python ints), 0, 1 and several rows, duplicate
keys, run through Atoll and through pandas on the same data (``ak.DataFrame(pdf)`` /
``.to_pandas()``), results compared: GroupBy, merge, sort_values, drop_duplicates, concat,
value_counts, and HDF5/Parquet/CSV files written at another locale count.

Normalized are only what pandas leaves undefined (the row order of grouped and merged results:
both sorted by their keys) and the places where Atoll follows Arkouda on purpose; each such place
says so in a comment naming the Arkouda behaviour.
"""

import os
import pickle
import subprocess
import sys

import atoll as ak
import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from hypothesis import given, strategies as st

INT64_MIN, INT64_MAX, UINT64_MAX = -(2**63), 2**63 - 1, 2**64 - 1

KINDS = ["i8", "u8", "u1", "f8", "b", "s", "c"]
NUMERIC = ("i8", "u8", "u1", "f8")

STR_POOL = ["", "a", "b", "ab", "é", "日本", "a b", "Z", "🙂"]
CAT_POOL = ["x", "y", "zz", "é"]

# Small pools give duplicate keys; the extremes are there for sorting and keys.
KEY_POOLS = {
    "i8": [INT64_MIN, -2, -1, 0, 1, 2, INT64_MAX],
    "u8": [0, 1, 2, 2**63, UINT64_MAX],
    "u1": [0, 1, 2, 255],
    "f8": [0.0, -0.0, 1.5, -2.25, np.nan, np.inf, -np.inf],
    "b": [False, True],
    "s": STR_POOL,
    "c": CAT_POOL,
    "big": [-(2**70), -1, 0, 2**64, 2**64 + 1, 2**70],
}
# Values that aggregate without overflow or rounding (sums of quarters are exact).
VALUE_ELEMENTS = {
    "i8": st.integers(-9, 9),
    "u8": st.integers(0, 9),
    "u1": st.integers(0, 255),
    "f8": st.one_of(st.integers(-400, 400).map(lambda x: x / 4), st.sampled_from([np.nan, -0.0, np.inf, -np.inf])),
    "b": st.booleans(),
    "s": st.sampled_from(STR_POOL),
    "c": st.sampled_from(CAT_POOL),
    "big": st.integers(-(2**70), 2**70),
}
NP_DTYPES = {"i8": np.int64, "u8": np.uint64, "u1": np.uint8, "f8": np.float64, "b": np.bool_}

MPI = ak.backend() == "mpi"
# Each test runs twice: on frames of 1 or more rows, and on the same frames cut to 0 rows (so that
# a failure of empty frames does not hide the others).
ROWS = ["rows", "0 rows"]


def _column(kind, values):
    """A pandas column of ``kind`` holding ``values``."""
    if kind == "big":
        # Python ints in an object column: Atoll makes a bigint column of them when one is
        # beyond 64 bits (the first value is moved there when none is).
        values = list(values)
        if values and all(INT64_MIN <= v <= UINT64_MAX for v in values):
            values[0] += 2**65
        return pd.Series(values, dtype=object)
    if kind in NP_DTYPES:
        return pd.Series(np.array(values, dtype=NP_DTYPES[kind]))
    if kind == "s":
        return pd.Series(values, dtype="str")
    return pd.Series(pd.Categorical(values, categories=sorted(CAT_POOL)))


@st.composite
def columns(draw, kind, n, key=False):
    elements = st.sampled_from(KEY_POOLS[kind]) if key else VALUE_ELEMENTS[kind]
    return _column(kind, draw(st.lists(elements, min_size=n, max_size=n)))


@st.composite
def frames(draw, kinds, n=None, key_names=(), max_rows=12):
    """A pandas DataFrame with the columns ``kinds`` (name -> kind); the columns of
    ``key_names`` are drawn from the small key pools, the others from the value elements."""
    if n is None:
        n = draw(st.one_of(st.just(1), st.integers(2, max_rows)))
    return pd.DataFrame({name: draw(columns(k, n, key=name in key_names)) for name, k in kinds.items()})


@st.composite
def kinds_of(draw, prefix, min_size=1, max_size=3, pool=KINDS):
    ks = draw(st.lists(st.sampled_from(pool), min_size=min_size, max_size=max_size))
    return {f"{prefix}{i}_{k}": k for i, k in enumerate(ks)}


def _cut(pdf, rows):
    """``pdf`` itself, or its first 0 rows (the same columns and dtypes) for the "0 rows" runs,
    less its bigint columns: an empty object column does not say that it holds ints."""
    if rows != "0 rows":
        return pdf
    return pdf.iloc[:0][[c for c in pdf.columns if _kind(c) != "big"]]


def _kind(name):
    return name.rsplit("_", 1)[1]


def _sorted_by(df, keys):
    """``df`` stably sorted by the columns ``keys`` (NaN last), with labels 0..n-1: the
    normalization of results whose row order pandas leaves open."""
    if not keys or len(df) == 0:
        return df.reset_index(drop=True)
    return df.sort_values(list(keys), kind="stable", na_position="last").reset_index(drop=True)


def _to_pd(adf, retain_index=False):
    """``adf.to_pandas()``, normalized by ``_na_category``."""
    return _na_category(adf.to_pandas(retain_index=retain_index))


def _na_category(got):
    """``got`` with Arkouda's missing-value category of Categoricals (``"N/A"``, which Arkouda
    appends to every Categorical's categories and keeps in ``to_pandas``) turned into pandas'
    missing value: the one normalization of Categoricals."""
    got = got.copy()
    for c in got.columns:
        if isinstance(got[c].dtype, pd.CategoricalDtype) and "N/A" in got[c].cat.categories:
            got[c] = got[c].cat.remove_categories(["N/A"])
    if isinstance(got.index, pd.CategoricalIndex) and "N/A" in got.index.categories:
        got.index = got.index.remove_categories(["N/A"])
    return got


def _assert_frames(got, want, **kw):
    pd.testing.assert_frame_equal(got, want, check_exact=False, rtol=1e-9, atol=1e-12, **kw)


# ----- conversion -------------------------------------------------------------------------


@pytest.mark.parametrize("rows", ROWS)
@given(data=st.data())
def test_round_trip_through_atoll_is_exact(rows, data):
    """Everything below relies on ``ak.DataFrame(pdf).to_pandas()`` giving ``pdf`` back."""
    pdf = _cut(data.draw(kinds_of("c", max_size=len(KINDS)).flatmap(frames)), rows)
    got = _to_pd(ak.DataFrame(pdf))
    pd.testing.assert_frame_equal(got, pdf, check_exact=True)


# ----- GroupBy ----------------------------------------------------------------------------

GB_OPS = ["sum", "prod", "mean", "min", "max", "count", "nunique", "first", "std", "var", "median", "any", "all"]
# The bool value columns Atoll's DataFrame GroupBy aggregates with these operations. Arkouda
# aggregates only the int64, uint64 and float64 (and bigint) value columns and leaves Strings,
# Categorical and bool value columns out of the result; Atoll adds bool ones for these.
BOOL_OPS = {"any", "all", "first", "count", "nunique"}


def _pandas_agg(g, op):
    if op == "first":
        # Arkouda's first is the value of the group's first row, NaN or not (pandas skips NaN
        # unless skipna=False).
        return g.first(skipna=False)
    if op == "prod":
        # Arkouda documents the products of a GroupBy as float64 whatever the values' dtype.
        return g.prod().astype(np.float64)
    if op == "sum":
        # pandas casts the sums of a uint8 column back to uint8 when they all fit (a dtype that
        # depends on the values); Atoll gives NumPy's dtype of a uint8 sum, uint64, always.
        r = g.sum()
        return r.astype({c: np.uint64 for c in r.columns if r[c].dtype == np.uint8})
    return getattr(g, op)()


GROUPBY_FRAMES = st.tuples(kinds_of("k", 1, 3, pool=KINDS), kinds_of("v", 1, 4, pool=KINDS)).flatmap(
    lambda kk: st.tuples(frames({**kk[0], **kk[1]}, key_names=tuple(kk[0])), st.just(list(kk[0])))
)


@pytest.mark.parametrize("rows", ROWS)
@given(GROUPBY_FRAMES, st.booleans(), st.booleans(), st.booleans())
def test_groupby_aggregations_match_pandas(rows, frame_keys, dropna, as_index, key_as_str):
    pdf, keys = frame_keys
    pdf = _cut(pdf, rows)
    by = keys[0] if key_as_str and len(keys) == 1 else keys
    for op in GB_OPS:
        check_groupby(pdf, keys, by, dropna, as_index, op)


def check_groupby(pdf, keys, by, dropna, as_index, op):
    g = ak.DataFrame(pdf).groupby(by, as_index=as_index, dropna=dropna)
    got = _to_pd(getattr(g, op)(), retain_index=True)
    # Arkouda's aggregations ignore as_index: one key gives the keys as the index, several
    # keys give them as columns; both sides are compared with the keys as columns.
    got = got.reset_index(drop=list(got.index.names) == [None])
    vals = [c for c in pdf.columns if c not in keys and _kind(c) in NUMERIC]
    vals += [c for c in pdf.columns if c not in keys and _kind(c) == "b" and (op in BOOL_OPS or c in got.columns)]
    vals = [c for c in pdf.columns if c in vals]
    pg = pdf.groupby(by, dropna=dropna, sort=True, observed=True)
    want = _pandas_agg(pg[vals], op).reset_index()
    _assert_frames(_sorted_by(got, keys), _sorted_by(want, keys), obj=f"groupby({by!r}).{op}()")


BITWISE = {"or_": np.bitwise_or, "and_": np.bitwise_and, "xor": np.bitwise_xor}
INT_FRAMES = st.tuples(kinds_of("k", 1, 3, pool=KINDS), kinds_of("v", 1, 3, pool=["i8", "u8", "u1", "b"])).flatmap(
    lambda kk: st.tuples(frames({**kk[0], **kk[1]}, key_names=tuple(kk[0])), st.just(list(kk[0])))
)


def check_groupby_int_ops(pdf, keys, dropna, op):
    """The bitwise reductions (against NumPy's ``reduce`` of each group) and argmin/argmax
    (against pandas' idxmin/idxmax: the labels are the row numbers) of integer and bool columns."""
    got = _to_pd(getattr(ak.DataFrame(pdf).groupby(keys, dropna=dropna), op)(), retain_index=True)
    got = got.reset_index(drop=list(got.index.names) == [None])
    vals = [c for c in pdf.columns if c not in keys]
    pg = pdf.groupby(keys, dropna=dropna, sort=True, observed=True)
    if op in BITWISE:
        ufunc = BITWISE[op]
        firsts = pg.size().reset_index()
        groups = [g for _, g in pg] if len(firsts) else []
        want = {k: firsts[k] for k in keys}
        for c in vals:
            dtype = ufunc.reduce(pdf[c].to_numpy()[:1]).dtype
            want[c] = np.array([ufunc.reduce(g[c].to_numpy()) for g in groups], dtype=dtype)
        want = pd.DataFrame(want)
    else:
        want = getattr(pg[vals], {"argmin": "idxmin", "argmax": "idxmax"}[op])().reset_index()
        want = want.astype({c: np.int64 for c in vals})
    _assert_frames(_sorted_by(got, keys), _sorted_by(want, keys), obj=f"groupby({keys!r}).{op}()")


@pytest.mark.parametrize("rows", ROWS)
@given(INT_FRAMES, st.booleans())
def test_groupby_bitwise_and_arg_reductions_match(rows, frame_keys, dropna):
    pdf, keys = frame_keys
    for op in ["or_", "and_", "xor", "argmin", "argmax"]:
        check_groupby_int_ops(_cut(pdf, rows), keys, dropna, op)


@pytest.mark.parametrize("rows", ROWS)
@given(GROUPBY_FRAMES, st.booleans(), st.booleans())
def test_groupby_size_matches_pandas(rows, frame_keys, dropna, as_index):
    pdf, keys = frame_keys
    pdf = _cut(pdf, rows)
    got = ak.DataFrame(pdf).groupby(keys, as_index=as_index, dropna=dropna).size()
    want = pdf.groupby(keys, dropna=dropna, as_index=as_index, observed=True).size()
    if as_index:
        assert isinstance(got, ak.Series)
        got = _na_category(got.to_pandas().reset_index())
        want = want.reset_index()
        got.columns = want.columns  # the Series' name: pandas leaves it None, "size" after reset
    else:
        got = _to_pd(got, retain_index=True).reset_index(drop=True)
    _assert_frames(_sorted_by(got, keys), _sorted_by(want, keys))


# ----- merge ------------------------------------------------------------------------------

MERGE_KEY_KINDS = ["i8", "s", "c"]
SUFFIXES = [("_x", "_y"), ("_l", "_r"), ("_left", "")]


@st.composite
def merge_cases(draw):
    nkeys = draw(st.integers(1, 3))
    kinds = draw(st.lists(st.sampled_from(MERGE_KEY_KINDS), min_size=nkeys, max_size=nkeys))
    keys = {f"k{i}_{k}": k for i, k in enumerate(kinds)}
    # "w_*" columns are in both frames (they get the suffixes), the others in one frame only.
    shared = draw(kinds_of("w", 0, 2))
    lonly = draw(kinds_of("l", 0, 2, pool=KINDS + ["big"]))
    ronly = draw(kinds_of("r", 0, 2, pool=KINDS + ["big"]))
    suffixes = draw(st.sampled_from(SUFFIXES))
    if shared and draw(st.booleans()):
        # A left column named as a suffixed shared column would be: pandas refuses the merge.
        name = next(iter(shared))
        lonly[name + suffixes[0]] = shared[name]
    left = draw(frames({**keys, **shared, **lonly}, key_names=tuple(keys), max_rows=8))
    right = draw(frames({**keys, **shared, **ronly}, key_names=tuple(keys), max_rows=8))
    mixed = [k for k, kind in keys.items() if kind in ("s", "c") and draw(st.booleans())]
    for k in mixed:
        # The key as Strings on one side and as a Categorical on the other.
        right[k] = right[k].astype("str") if keys[k] == "c" else pd.Categorical(right[k])
    how = draw(st.sampled_from(["inner", "left", "right", "outer"]))
    on = list(keys) if nkeys > 1 or draw(st.booleans()) else next(iter(keys))
    right_on = None
    if not mixed and draw(st.booleans()):
        # Keys of other names on the right: left_on/right_on, both key columns kept.
        right = right.rename(columns={k: "R" + k for k in keys})
        right_on = ["R" + k for k in on] if isinstance(on, list) else "R" + on
    return left, right, on, how, suffixes, mixed, right_on


def _missing_as_arkouda(got, want):
    """pandas' result with the missing values of a left, right or outer join written as Atoll
    (following Arkouda) writes them where ``got`` shows it: a bool or bigint column with missing
    values is float64 (1.0, 0.0, NaN; a bigint's values rounded to float64, as int64 columns'
    are in both), a Strings column holds the string "nan"."""
    want = want.copy()
    for c in want.columns:
        if c not in got.columns or not want[c].isna().any():
            continue
        present = want[c].dropna()
        if got[c].dtype == np.float64 and want[c].dtype == object and all(isinstance(x, int) for x in present):
            want[c] = want[c].astype(np.float64)
        elif pd.api.types.is_string_dtype(got[c].dtype) and not isinstance(want[c].dtype, pd.CategoricalDtype):
            want[c] = want[c].fillna("nan")
    return want


def check_merge(left, right, on, how, suffixes, mixed=(), right_on=None):
    names = {"on": on} if right_on is None else {"left_on": on, "right_on": right_on}
    try:
        want = pd.merge(left, right, how=how, suffixes=suffixes, sort=True, **names)
    except pd.errors.MergeError:
        with pytest.raises(ValueError):
            ak.merge(
                ak.DataFrame(left),
                ak.DataFrame(right),
                how=how,
                left_suffix=suffixes[0],
                right_suffix=suffixes[1],
                **names,
            )
        return
    got = ak.merge(
        ak.DataFrame(left), ak.DataFrame(right), how=how, left_suffix=suffixes[0], right_suffix=suffixes[1], **names
    )
    got = _to_pd(got)
    want = _missing_as_arkouda(got, want)
    for k in mixed:
        # Which kind (Strings or Categorical) the key of a Strings-with-Categorical merge takes
        # is Atoll's choice (Arkouda converts the Categorical to Strings); the values must agree.
        got[k], want[k] = got[k].astype("str"), want[k].astype("str")
    keys = [on] if isinstance(on, str) else list(on)
    if right_on is not None:
        keys += [right_on] if isinstance(right_on, str) else right_on
    _assert_frames(_sorted_by(got, keys), _sorted_by(want, keys), obj=f"merge({names!r}, how={how!r})")


BIG_LEFT = pd.DataFrame({"k0_i8": [1, 2], "l0_big": pd.Series([2**70, 5], dtype=object)})
BIG_RIGHT = pd.DataFrame({"k0_i8": [2, 3], "r0_big": pd.Series([2**66, 7], dtype=object)})


@pytest.mark.parametrize("how", ["inner", "left", "right", "outer"])
def test_merge_of_bigint_values(how):
    # Random merges reach a bigint value column with missing rows only now and then. Without
    # missing rows (inner) the values stay exact bigints; with them, float64 with NaN.
    check_merge(BIG_LEFT, BIG_RIGHT, "k0_i8", how, ("_x", "_y"))


@pytest.mark.parametrize("rows", ROWS)
@given(merge_cases(), st.sampled_from(["left", "right", "both"]))
def test_merge_matches_pandas(rows, case, side):
    left, right, *rest = case
    if rows == "0 rows":
        left = _cut(left, rows) if side != "right" else left
        right = _cut(right, rows) if side != "left" else right
    check_merge(left, right, *rest)


# ----- sort_values ------------------------------------------------------------------------

SORT_KINDS = ["i8", "u8", "u1", "f8", "b", "s", "c"]


@st.composite
def sort_cases(draw):
    kinds = draw(kinds_of("c", 1, 4, pool=SORT_KINDS))
    # Every column from the key pools: the extremes, NaN, -0.0 and many ties.
    pdf = draw(frames(kinds, key_names=tuple(kinds)))
    names = list(kinds)
    by = draw(st.lists(st.sampled_from(names), min_size=1, max_size=3, unique=True))
    if len(by) == 1 and draw(st.booleans()):
        by = by[0]
    if draw(st.booleans()):
        ascending = draw(st.booleans())
    else:
        ascending = (
            draw(st.lists(st.booleans(), min_size=len(by), max_size=len(by)))
            if isinstance(by, list)
            else draw(st.booleans())
        )
    return pdf, by, ascending, draw(st.sampled_from(["last", "first"])), draw(st.booleans())


def _pandas_sort(pdf, by, ascending, na_position, ignore_index):
    """pandas' stable sort by ``by``, one key at a time from the last (stable sorts compose to
    the lexicographic order): pandas' own sort by several keys puts -inf before NaN with
    na_position="first" when another key holds INT64_MIN (pandas 3.1)."""
    keys = [by] if isinstance(by, str) else list(by)
    asc = ascending if isinstance(ascending, list) else [ascending] * len(keys)
    out = pdf
    for k, a in reversed(list(zip(keys, asc))):
        out = out.sort_values(k, ascending=a, kind="stable", na_position=na_position)
    return out.reset_index(drop=True) if ignore_index else out


def check_sort(pdf, by, ascending, na_position="last", ignore_index=False):
    got = ak.DataFrame(pdf).sort_values(by, ascending=ascending, na_position=na_position, ignore_index=ignore_index)
    got = _to_pd(got, retain_index=True)
    want = _pandas_sort(pdf, by, ascending, na_position, ignore_index)
    # The row labels travel with the rows: equal frames mean the same (stable) order.
    _assert_frames(
        got,
        want,
        obj=f"sort_values({by!r}, ascending={ascending!r}, na_position={na_position!r})",
    )


@pytest.mark.parametrize("rows", ROWS)
@given(sort_cases())
def test_sort_values_matches_pandas_stable_sort(rows, case):
    pdf, *rest = case
    check_sort(_cut(pdf, rows), *rest)


# ----- drop_duplicates, concat, value_counts ---------------------------------------------


@st.composite
def dedup_cases(draw):
    kinds = draw(kinds_of("c", 1, 4, pool=KINDS))
    pdf = draw(frames(kinds, key_names=tuple(kinds)))
    names = list(kinds)
    subset = draw(
        st.one_of(
            st.none(), st.sampled_from(names), st.lists(st.sampled_from(names), min_size=1, max_size=3, unique=True)
        )
    )
    return pdf, subset, draw(st.sampled_from(["first", "last", False]))


def check_dedup(pdf, subset, keep):
    got = _to_pd(ak.DataFrame(pdf).drop_duplicates(subset=subset, keep=keep), retain_index=True)
    want = pdf.drop_duplicates(subset=subset, keep=keep)
    # Arkouda returns the kept rows grouped by their values, pandas in their original order;
    # the rows keep their labels, so both are compared in the order of the labels.
    _assert_frames(got.sort_index(), want, obj=f"drop_duplicates({subset!r}, keep={keep!r})")


@pytest.mark.parametrize("rows", ROWS)
@given(dedup_cases())
def test_drop_duplicates_matches_pandas(rows, case):
    pdf, *rest = case
    check_dedup(_cut(pdf, rows), *rest)


@st.composite
def concat_cases(draw):
    kinds = draw(kinds_of("c", 1, 4, pool=KINDS))
    parts = []
    for i in range(draw(st.integers(1, 3))):
        # A number or bool column may be of another number or bool dtype in a later frame.
        promotable = NUMERIC + ("b",)
        ks = {
            name: draw(st.sampled_from(promotable)) if i and kind in promotable and draw(st.booleans()) else kind
            for name, kind in kinds.items()
        }
        part = draw(frames(ks))
        # The later frames list their columns in another order.
        parts.append(part if i == 0 else part[draw(st.permutations(list(part.columns)))])
    return parts


def check_concat(parts):
    got = _to_pd(ak.DataFrame.concat([ak.DataFrame(p) for p in parts]))
    want = pd.concat(parts, ignore_index=True)
    for c in want.columns:
        present = want[c].dropna()
        if (
            want[c].dtype == object
            and got[c].dtype == np.float64
            and all(isinstance(x, (bool, int, float, np.number)) for x in present)
        ):
            # bool with float64 (and ints): NumPy's promotion (Atoll, as Arkouda) gives float64,
            # pandas object.
            want[c] = want[c].astype(np.float64)
    _assert_frames(got, want, obj="DataFrame.concat")


@pytest.mark.parametrize("rows", ROWS)
@given(concat_cases(), st.integers(0, 2))
def test_concat_matches_pandas(rows, parts, which):
    if rows == "0 rows":
        parts[which % len(parts)] = parts[which % len(parts)].iloc[:0]
    check_concat(parts)


def check_value_counts(col):
    got = ak.Series(ak.DataFrame(pd.DataFrame({"x": col}))["x"]).value_counts()
    counts = got.values.to_ndarray()
    assert (np.diff(counts) <= 0).all(), counts  # largest counts first
    got = got.to_pandas()
    want = col.value_counts()
    if isinstance(col.dtype, pd.CategoricalDtype):
        # Arkouda counts the values of a Categorical by grouping them: categories that no value
        # takes are not listed (pandas lists them with count 0).
        want = want[want > 0]
    # pandas leaves the order of equal counts open: both are compared in the order of the values.
    got.name, got.index.name = want.name, want.index.name
    if isinstance(got.index, pd.CategoricalIndex):
        got.index = got.index.remove_categories([c for c in got.index.categories if c == "N/A"])
    pd.testing.assert_series_equal(got.sort_index(), want.sort_index())


@pytest.mark.parametrize("rows", ROWS)
@given(st.sampled_from(KINDS).flatmap(lambda k: st.integers(1, 12).flatmap(lambda n: columns(k, n, key=True))))
def test_value_counts_matches_pandas(rows, col):
    check_value_counts(col.iloc[:0] if rows == "0 rows" else col)


# ----- IO round trips across locale counts -----------------------------------------------

# The column kinds each format stores: HDF5 every kind; Parquet and CSV no Categorical (Parquet
# writes them as Strings only when asked); bigint columns are checked on their own below.
IO_KINDS = {
    "hdf5": ["i8", "u8", "u1", "f8", "b", "s", "c"],
    "parquet": ["i8", "u8", "u1", "f8", "b", "s"],
    "csv": ["i8", "u8", "u1", "f8", "b", "s"],
}
OTHER_LOCALES = 3 if ak.num_locales() != 3 else 2

_WRITER = """
import sys, pickle
import atoll as ak
def write(fmt, pdf, prefix):
    df = ak.DataFrame(pdf)
    {"hdf5": df.to_hdf, "parquet": df.to_parquet, "csv": df.to_csv}[fmt](prefix)
for line in sys.stdin:
    fmt, src, prefix = line.split("\\t")
    try:
        with open(src, "rb") as f:
            write(fmt, pickle.load(f), prefix.strip())
        print("ok", flush=True)
    except Exception as e:
        print("error", type(e).__name__, str(e).replace("\\n", " "), flush=True)
"""


class _Writer:
    """A process at another locale count that writes the frames it is sent (in this process
    under MPI, whose locale count mpiexec fixes)."""

    def __init__(self):
        self.proc = None
        if not MPI:
            env = dict(os.environ, ATOLL_LOCALES=str(OTHER_LOCALES), ATOLL_BACKEND="local")
            self.proc = subprocess.Popen(
                [sys.executable, "-c", _WRITER], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env
            )

    def write(self, fmt, pdf, prefix):
        if self.proc is None:
            df = ak.DataFrame(pdf)
            {"hdf5": df.to_hdf, "parquet": df.to_parquet, "csv": df.to_csv}[fmt](prefix)
            return
        src = prefix + ".pkl"
        with open(src, "wb") as f:
            pickle.dump(pdf, f)
        self.proc.stdin.write(f"{fmt}\t{src}\t{prefix}\n")
        self.proc.stdin.flush()
        answer = self.proc.stdout.readline().strip()
        assert answer == "ok", f"the writer at {OTHER_LOCALES} locales failed: {answer}"

    def close(self):
        if self.proc is not None:
            self.proc.stdin.close()
            self.proc.wait(timeout=60)


@pytest.fixture(scope="module")
def writer():
    w = _Writer()
    yield w
    w.close()


READERS = {"hdf5": ak.read_hdf, "parquet": ak.read_parquet, "csv": ak.read_csv}


def check_io(fmt, pdf, prefix, writer):
    writer.write(fmt, pdf, prefix)
    got = READERS[fmt](prefix + "_LOCALE*")
    if not isinstance(got, dict):
        got = {pdf.columns[0]: got}
    assert sorted(got) == sorted(pdf.columns)
    got = _to_pd(ak.DataFrame({c: got[c] for c in pdf.columns}))
    if fmt == "parquet":
        # Arkouda's Parquet reader (and Atoll's, see atoll.io) widens the narrower integer
        # columns: uint8 comes back as uint64.
        pdf = pdf.astype({c: np.uint64 for c in pdf.columns if pdf[c].dtype == np.uint8})
    pd.testing.assert_frame_equal(got, pdf, check_exact=True, obj=f"{fmt} written at {OTHER_LOCALES} locales")


@pytest.mark.parametrize("rows", ROWS)
@pytest.mark.parametrize("fmt", ["hdf5", "parquet", "csv"])
def test_io_round_trip_across_locale_counts(fmt, rows, writer, tmp_path_factory):
    base = tmp_path_factory.mktemp(fmt)
    count = iter(range(10**6))

    @given(kinds_of("c", 1, 5, pool=IO_KINDS[fmt]).flatmap(frames))
    def run(pdf):
        check_io(fmt, _cut(pdf, rows), str(base / f"f{next(count)}"), writer)

    run()


# ----- bigint columns (Python ints beyond 64 bits) ----------------------------------------

BIG_OPS = {
    "sum": sum,
    "prod": lambda xs: int(np.prod(np.array(xs, dtype=object))),
    "min": min,
    "max": max,
    "first": lambda xs: xs[0],
    "count": len,
    "nunique": lambda xs: len(set(xs)),
}


@given(frames({"k0_i8": "i8", "v0_big": "big"}, key_names=("k0_i8",)))
def test_bigint_column_round_trips_and_aggregates_as_python_ints(pdf):
    adf = ak.DataFrame(pdf)
    pd.testing.assert_frame_equal(_to_pd(adf), pdf, check_exact=True)
    groups = {k: g["v0_big"].tolist() for k, g in pdf.groupby("k0_i8", sort=True)}
    for op, fn in BIG_OPS.items():
        got = getattr(adf.groupby("k0_i8"), op)().to_pandas(retain_index=True)
        assert got.index.tolist() == list(groups), op
        assert got["v0_big"].tolist() == [fn(v) for v in groups.values()], op


@given(frames({"c0_big": "big", "c1_i8": "i8"}, key_names=("c0_big", "c1_i8")), st.booleans())
def test_bigint_sort_and_drop_duplicates_match_pandas(pdf, ascending):
    check_sort(pdf, "c0_big", ascending)
    check_sort(pdf, ["c1_i8", "c0_big"], [ascending, not ascending])
    check_dedup(pdf, "c0_big", "first")


@pytest.mark.parametrize("fmt", ["hdf5", "csv"])
def test_bigint_io_round_trip_across_locale_counts(fmt, writer, tmp_path_factory):
    base = tmp_path_factory.mktemp(fmt + "big")
    count = iter(range(10**6))

    @given(frames({"c0_big": "big", "c1_i8": "i8"}))
    def run(pdf):
        check_io(fmt, pdf, str(base / f"f{next(count)}"), writer)

    run()


def test_bigint_to_parquet_is_refused_naming_the_column(tmp_path):
    # Parquet's integers end at 64 bits (pyarrow refuses such Python ints too).
    pdf = pd.DataFrame({"c0_big": pd.Series([2**70, 1], dtype=object), "c1_i8": [1, 2]})
    with pytest.raises(Exception):
        pa.Table.from_pandas(pdf)
    with pytest.raises(TypeError, match="c0_big"):
        ak.DataFrame(pdf).to_parquet(str(tmp_path / "p"))
