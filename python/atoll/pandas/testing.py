"""Test assertions for the pandas layer, re-exported from ``atoll.testing``.

The names of ``atoll.testing`` (Arkouda's ``arkouda.testing``) for DataFrame, Series, Index and
Categorical.

>>> import atoll as ak
>>> from atoll.pandas.testing import assert_frame_equal
>>> assert_frame_equal(ak.DataFrame({"a": ak.arange(3)}), ak.DataFrame({"a": ak.arange(3)}))
"""

from ..testing import (
    assert_arkouda_array_equal,
    assert_categorical_equal,
    assert_equal,
    assert_equivalent,
    assert_frame_equal,
    assert_frame_equivalent,
    assert_index_equal,
    assert_index_equivalent,
    assert_series_equal,
    assert_series_equivalent,
)

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
