"""``Strings.str``: pandas' ``Series.str`` methods on Atoll's strings, checked against pandas."""

import re

import atoll as ak
import numpy as np
import pandas as pd
import pytest

WORDS = ["Park Ave", "park lane", "Main St", "", "a.b.c", "PARK", "héllo wörld", "x*y", " pad ", "Ab1", "1ab"]


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(7)
    vals = [WORDS[i] for i in rng.integers(0, len(WORDS), 500)]
    return ak.array(vals), pd.Series(vals, dtype=object)


@pytest.mark.parametrize(
    "call",
    [
        lambda s: s.str.contains("park"),
        lambda s: s.str.contains("park", case=False),
        lambda s: s.str.contains(".", regex=False),
        lambda s: s.str.contains("x*y", regex=False, case=False),
        lambda s: s.str.contains(r"\d"),
        lambda s: s.str.contains("PARK", flags=re.IGNORECASE),
        lambda s: s.str.startswith("Pa"),
        lambda s: s.str.startswith(("Pa", "pa", "")),
        lambda s: s.str.startswith(()),
        lambda s: s.str.endswith("St"),
        lambda s: s.str.endswith(("c", "d")),
        lambda s: s.str.match(r"[a-z]+"),
        lambda s: s.str.match("park", case=False),
        lambda s: s.str.fullmatch(r"[A-Za-z ]+"),
        lambda s: s.str.len(),
        lambda s: s.str.lower(),
        lambda s: s.str.upper(),
        lambda s: s.str.strip(),
        lambda s: s.str.strip(" p"),
        lambda s: s.str.replace(".", "-"),
        lambda s: s.str.replace(".", "-", n=1),
        lambda s: s.str.replace("park", "P", case=False),
        lambda s: s.str.replace(r"\d", "#", regex=True),
    ],
)
def test_str_methods_agree_with_pandas(data, call):
    a, p = data
    got = call(a).tolist()
    want = call(p).tolist()
    assert got == want


def test_str_flags_need_regex(data):
    a, _ = data
    with pytest.raises(ValueError):
        a.str.contains("a", flags=re.IGNORECASE, regex=False)


def test_frame_column_str(data):
    a, p = data
    df = ak.DataFrame({"s": a})
    assert df["s"].str.contains("ark").sum() == p.str.contains("ark").sum()
