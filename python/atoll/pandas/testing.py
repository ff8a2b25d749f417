"""Test assertions for the pandas layer: the names of ``atoll.testing`` (Arkouda's
``arkouda.testing``) for DataFrame, Series, Index and Categorical, re-exported here.

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
