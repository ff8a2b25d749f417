"""Errors that a first session meets name the operator, the column and the sizes; each keeps
the exception type NumPy or pandas raise for the same mistake."""

import operator

import atoll as ak
import numpy as np
import pandas as pd
import pytest


def _numpy_error(f):
    try:
        f()
    except Exception as e:  # noqa: BLE001  (the reference's type is what is compared)
        return type(e)
    return None


def test_strings_plus_pdarray_names_the_operator_and_both_types():
    s, p = ak.array(["a", "b"]), ak.arange(2)
    want = _numpy_error(lambda: np.array(["a", "b"]) + np.arange(2))
    with pytest.raises(TypeError, match=r"Strings \+ pdarray: .*Strings and pdarray of int64") as e:
        s + p
    assert issubclass(want, TypeError) and isinstance(e.value, TypeError)
    assert ".astype(str)" in str(e.value)
    with pytest.raises(TypeError, match=r"Strings \+ str"):
        s + "x"


@pytest.mark.parametrize(
    "op, fn",
    [("+", operator.add), ("-", operator.sub), ("*", operator.mul), ("==", operator.eq), ("<", operator.lt)],
)
def test_pdarray_size_mismatch_names_the_operator_and_both_sizes(op, fn):
    want = _numpy_error(lambda: fn(np.arange(10), np.arange(11)))
    with pytest.raises(want) as e:
        fn(ak.arange(10), ak.arange(11))
    msg = str(e.value)
    assert f"pdarray {op} pdarray" in msg and "10" in msg and "11" in msg


def test_strings_size_mismatch_names_the_operator_and_sizes():
    a, b = ak.array(["a", "b"]), ak.array(["a", "b", "c"])
    want = _numpy_error(lambda: np.array(["a", "b"]) == np.array(["a", "b", "c"]))
    want = want or ValueError  # NumPy 2 raises ValueError (broadcast)
    with pytest.raises(want, match=r"Strings == Strings of sizes 2 and 3"):
        a == b
    with pytest.raises(ValueError, match=r"Strings \+ Strings of sizes 2 and 3"):
        a + b


def test_missing_column_names_it_lists_the_columns_and_the_closest():
    df = ak.DataFrame({"name": ak.arange(3), "value": ak.arange(3)})
    pdf = df.to_pandas()
    want = _numpy_error(lambda: pdf.groupby("nmae"))
    for f in (lambda: df.groupby("nmae"), lambda: df["nmae"], lambda: df[["value", "nmae"]]):
        with pytest.raises(want) as e:
            f()
        msg = str(e.value)
        assert "'nmae'" in msg and "['name', 'value']" in msg and "did you mean 'name'" in msg
    with pytest.raises(KeyError, match="zzz") as e:
        df.groupby(["name", "zzz"])
    assert "did you mean" not in str(e.value)


def test_mixed_types_in_ak_array_say_so():
    with pytest.raises(TypeError, match=r"mixed types \(float, int, str\)") as e:
        ak.array([1, "a", 2.0])
    assert "str(x)" in str(e.value)
    # One kind stays accepted.
    assert ak.array(["a", "b"]).to_list() == ["a", "b"]
    assert ak.array([1, 2.5]).tolist() == [1.0, 2.5]


def test_period_column_is_named():
    pdf = pd.DataFrame({"k": [1, 2], "p": pd.period_range("2020-01", periods=2, freq="M")})
    with pytest.raises(TypeError, match=r"column 'p' is period\[M\].*astype\('int64'\)"):
        ak.DataFrame(pdf)
    # The suggested conversion reads.
    pdf["p"] = pdf["p"].astype("int64")
    np.testing.assert_array_equal(ak.DataFrame(pdf)["p"].to_ndarray(), pdf["p"].to_numpy())


@pytest.mark.parametrize("values", [["a", None], [1, None], [None, 2.5], np.array(["a", None], dtype=object)])
def test_none_in_ak_array_says_what_a_missing_value_is(values):
    want = _numpy_error(lambda: np.array([1, None], dtype=np.int64))  # NumPy: TypeError for None
    with pytest.raises(want, match="None among the values.*float\\('nan'\\).*''"):
        ak.array(values)


def test_mixed_object_array_says_so():
    with pytest.raises(TypeError, match=r"mixed types \(int, str\)"):
        ak.array(np.array([1, "a"], dtype=object))
    # An object array of Python ints stays Arkouda's bigint array.
    assert ak.array(np.array([1, 2**70], dtype=object)).tolist() == [1, 2**70]
