"""``to_pandas(dtype_backend=...)``: pandas' nullable and Arrow-backed dtypes on the way out,
checked against pandas' own ``convert_dtypes`` of the same data."""

import atoll as ak
import numpy as np
import pandas as pd
import pytest


def frame():
    return pd.DataFrame(
        {
            "i": np.arange(6, dtype=np.int64) - 2,
            "f": np.array([1.5, np.nan, 3.0, -0.0, np.nan, 7.25]),
            "b": np.array([True, False, True, True, False, False]),
            "s": pd.array(["a", "é", "", "long string", "x", "yz"], dtype="str"),
            "c": pd.Categorical(["u", "v", "u", "w", "v", "u"]),
        }
    )


@pytest.mark.parametrize("backend", ["numpy_nullable", "pyarrow"])
def test_frame_to_pandas_nullable(backend):
    pdf = frame()
    got = ak.DataFrame(pdf).to_pandas(dtype_backend=backend)
    want = pdf.convert_dtypes(dtype_backend=backend)
    pd.testing.assert_frame_equal(got, want, check_categorical=False)
    assert got["f"].isna().tolist() == pdf["f"].isna().tolist()


@pytest.mark.parametrize("backend", ["numpy_nullable", "pyarrow"])
def test_series_to_pandas_nullable(backend):
    values = np.array([0.5, np.nan, 2.0])
    got = ak.Series(ak.array(values)).to_pandas(dtype_backend=backend)
    want = pd.Series(values).convert_dtypes(dtype_backend=backend)
    pd.testing.assert_series_equal(got, want, check_index_type=False)


def test_round_trip_through_nullable_dtypes():
    pdf = pd.DataFrame({"n": pd.array([1, None, 3], dtype="Int64"), "t": pd.array(["p", None, "q"], dtype="string")})
    back = ak.DataFrame(pdf).to_pandas(dtype_backend="numpy_nullable")
    # A missing int becomes NaN in Atoll's float64 column, and <NA> again on the way out;
    # a missing string is Atoll's "" (Arkouda's convention).
    assert back["n"].isna().tolist() == [False, True, False]
    assert back["n"].dropna().tolist() == [1.0, 3.0]
    assert back["t"].tolist() == ["p", "", "q"]


def test_bad_dtype_backend_is_a_value_error():
    with pytest.raises(ValueError, match="dtype_backend 'arrow' is invalid"):
        ak.DataFrame({"a": ak.arange(3)}).to_pandas(dtype_backend="arrow")
    with pytest.raises(ValueError, match="dtype_backend"):
        pd.DataFrame({"a": [1]}).convert_dtypes(dtype_backend="arrow")
