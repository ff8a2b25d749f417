"""Test assertions for the pandas layer (Arkouda's ``arkouda.testing`` names for DataFrame,
Series, Index and Categorical): each object is brought to pandas/NumPy and compared there with
``pandas.testing``, which gives its detailed messages.

>>> import atoll as ak
>>> from atoll.pandas.testing import assert_frame_equal
>>> assert_frame_equal(ak.DataFrame({"a": ak.arange(3)}), ak.DataFrame({"a": ak.arange(3)}))
"""

import numpy as np
from .categorical import Categorical
from .dataframe import DataFrame
from .index import Index
from .series import Series
from ..segarray import SegArray

__all__ = [
    "assert_frame_equal",
    "assert_frame_equivalent",
    "assert_series_equal",
    "assert_series_equivalent",
    "assert_index_equal",
    "assert_index_equivalent",
    "assert_categorical_equal",
    "assert_equal",
    "assert_equivalent",
    "assert_arkouda_array_equal",
]


def _pd(obj, retain_index=True):
    import pandas as pd

    if isinstance(obj, (pd.DataFrame, pd.Series, pd.Index, pd.Categorical, np.ndarray)):
        return obj
    if isinstance(obj, DataFrame):
        return obj.to_pandas(retain_index=retain_index)
    if isinstance(obj, (Series, Index, Categorical)):
        return obj.to_pandas()
    if hasattr(obj, "to_ndarray"):
        return obj.to_ndarray()
    return obj


def assert_frame_equal(
    left,
    right,
    check_dtype=True,
    check_index_type=True,
    check_names=True,
    check_exact=True,
    check_categorical=True,
    check_like=False,
    rtol=1e-5,
    atol=1e-8,
    obj="DataFrame",
    **kwargs,
):
    """The DataFrames hold the same columns, values and index."""
    import pandas as pd

    if not isinstance(left, DataFrame) or not isinstance(right, DataFrame):
        raise AssertionError(f"{obj}: expected two DataFrames, got {type(left).__name__} and {type(right).__name__}")
    pd.testing.assert_frame_equal(
        _pd(left),
        _pd(right),
        check_dtype=check_dtype,
        check_index_type=check_index_type,
        check_names=check_names,
        check_exact=check_exact,
        check_categorical=check_categorical,
        check_like=check_like,
        rtol=rtol,
        atol=atol,
        obj=obj,
    )


def assert_frame_equivalent(
    left,
    right,
    check_dtype=True,
    check_index_type=True,
    check_names=True,
    check_exact=True,
    check_categorical=True,
    check_like=False,
    rtol=1e-5,
    atol=1e-8,
    obj="DataFrame",
    **kwargs,
):
    """Like ``assert_frame_equal``, either side may be a ``pandas.DataFrame``."""
    import pandas as pd

    pd.testing.assert_frame_equal(
        _pd(left),
        _pd(right),
        check_dtype=check_dtype,
        check_index_type=check_index_type,
        check_names=check_names,
        check_exact=check_exact,
        check_categorical=check_categorical,
        check_like=check_like,
        rtol=rtol,
        atol=atol,
        obj=obj,
    )


def assert_series_equal(
    left,
    right,
    check_dtype=True,
    check_index_type=True,
    check_names=True,
    check_exact=False,
    check_categorical=True,
    rtol=1e-5,
    atol=1e-8,
    obj="Series",
    **kwargs,
):
    import pandas as pd

    pd.testing.assert_series_equal(
        _pd(left),
        _pd(right),
        check_dtype=check_dtype,
        check_index_type=check_index_type,
        check_names=check_names,
        check_exact=check_exact,
        check_categorical=check_categorical,
        rtol=rtol,
        atol=atol,
        obj=obj,
    )


assert_series_equivalent = assert_series_equal


def assert_index_equal(
    left,
    right,
    exact=True,
    check_names=True,
    check_exact=True,
    check_categorical=True,
    rtol=1e-5,
    atol=1e-8,
    obj="Index",
    **kwargs,
):
    import pandas as pd

    pd.testing.assert_index_equal(
        _pd(left),
        _pd(right),
        exact=exact,
        check_names=check_names,
        check_exact=check_exact,
        check_categorical=check_categorical,
        rtol=rtol,
        atol=atol,
        obj=obj,
    )


assert_index_equivalent = assert_index_equal


def assert_categorical_equal(left, right, check_dtype=True, check_category_order=True, obj="Categorical"):
    """The Categoricals hold the same values (and categories, in the same order when
    ``check_category_order``)."""

    if not isinstance(left, Categorical) or not isinstance(right, Categorical):
        raise AssertionError(f"{obj}: expected two Categoricals")
    if left.tolist() != right.tolist():
        raise AssertionError(f"{obj}: values differ")
    lc, rc = left.categories.to_list(), right.categories.to_list()
    if check_category_order:
        if lc != rc or left.codes.tolist() != right.codes.tolist():
            raise AssertionError(f"{obj}: categories or codes differ: {lc} vs {rc}")
    elif sorted(lc) != sorted(rc):
        raise AssertionError(f"{obj}: categories differ: {lc} vs {rc}")


def assert_arkouda_array_equal(
    left, right, check_dtype=True, err_msg=None, check_same=None, obj="pdarray", index_values=None
):
    a, b = _pd(left), _pd(right)
    if check_dtype and getattr(a, "dtype", None) != getattr(b, "dtype", None):
        raise AssertionError(f"{obj}: dtypes differ: {getattr(a, 'dtype', None)} vs {getattr(b, 'dtype', None)}")
    np.testing.assert_array_equal(np.asarray(a), np.asarray(b), err_msg=err_msg or "")


def assert_equal(left, right, **kwargs):
    """Equality of any two Atoll (or pandas/NumPy) objects of one kind."""

    if isinstance(left, DataFrame):
        return assert_frame_equal(left, right, **kwargs)
    if isinstance(left, Series):
        return assert_series_equal(left, right, **kwargs)
    if isinstance(left, Index):
        return assert_index_equal(left, right, **kwargs)
    if isinstance(left, Categorical):
        return assert_categorical_equal(left, right, **kwargs)
    if isinstance(left, SegArray):
        if left.tolist() != right.tolist():
            raise AssertionError("SegArray: values differ")
        return None
    a, b = _pd(left), _pd(right)
    if isinstance(a, np.ndarray) and a.dtype.kind == "f":
        np.testing.assert_array_equal(a, np.asarray(b))
        if np.asarray(b).dtype != a.dtype:
            raise AssertionError(f"dtypes differ: {a.dtype} vs {np.asarray(b).dtype}")
        return None
    if isinstance(a, np.ndarray):
        np.testing.assert_array_equal(a, np.asarray(b))
        return None
    assert a == b, f"{a!r} != {b!r}"


def assert_equivalent(left, right, **kwargs):
    """Equality after converting Atoll objects to pandas/NumPy (either side may be one)."""
    a, b = _pd(left), _pd(right)
    import pandas as pd

    if isinstance(a, pd.DataFrame):
        return pd.testing.assert_frame_equal(a, b)
    if isinstance(a, pd.Series):
        return pd.testing.assert_series_equal(a, b)
    if isinstance(a, pd.Index):
        return pd.testing.assert_index_equal(a, b)
    np.testing.assert_array_equal(np.asarray(a), np.asarray(b))
