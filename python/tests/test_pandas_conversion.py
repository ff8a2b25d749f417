"""pandas objects into Atoll's: the kind of an empty column and pandas' missing categories."""

import atoll as ak
import numpy as np
import pandas as pd
import pytest


@pytest.mark.parametrize("dtype", ["str", "string"])
def test_empty_string_columns_stay_strings(dtype):
    empty = pd.Series([], dtype=dtype)
    assert isinstance(ak.Series(empty).values, ak.Strings)
    assert isinstance(ak.Index(pd.Index([], dtype=dtype)).values, ak.Strings)
    frame = ak.DataFrame(pd.DataFrame({"s": empty, "i": pd.Series([], dtype=np.int64)}))
    assert isinstance(frame["s"], ak.Strings) and frame["i"].dtype == ak.int64
    back = frame.to_pandas()
    assert list(back.columns) == ["s", "i"] and len(back) == 0


def test_pandas_categorical_with_missing_values():
    values = ["b", None, "a", "b", None, "c"]
    p = pd.Categorical(values)
    c = ak.Categorical(p)
    # A missing value takes Atoll's (Arkouda's) missing-value category, "N/A".
    assert c.to_list() == [v if v is not None else c.na_value for v in values]
    np.testing.assert_array_equal(c.isna().to_ndarray(), pd.isna(p))
    frame = ak.DataFrame(pd.DataFrame({"k": p}))
    assert frame["k"].to_list() == c.to_list()


def test_to_pandas_keeps_string_columns_when_empty():
    d = ak.DataFrame({"s": ak.array(["a", "b", "c"]), "i": ak.array([1, 2, 3])})
    p = pd.DataFrame({"s": ["a", "b", "c"], "i": [1, 2, 3]})
    for mask in ([False, True, True], [False, False, False]):
        got = d[ak.array(mask)].to_pandas(retain_index=True)
        pd.testing.assert_frame_equal(got, p[mask])


def test_merge_error_is_in_the_namespace():
    left = ak.DataFrame({"k": ak.array([1, 2]), "v": ak.array([1, 2]), "v_x": ak.array([3, 4])})
    right = ak.DataFrame({"k": ak.array([1, 2]), "v": ak.array([5, 6])})
    with pytest.raises(ak.MergeError):
        ak.merge(left, right, on="k")
    with pytest.raises(pd.errors.MergeError):
        pd.merge(left.to_pandas(), right.to_pandas(), on="k")
