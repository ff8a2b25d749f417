"""Arkouda's asserters (``arkouda.testing``): equality of Atoll's objects.

The asserters (``atoll.testing._asserters``) compare Atoll's objects: pdarrays, Strings,
Categoricals and SegArrays, exact or within a tolerance; Series, DataFrames and Indexes judged
by ``pandas.testing``'s rules with the same options. The ``*_equivalent`` forms
(``atoll.testing._equivalence_asserters``) first turn NumPy and pandas objects into Atoll's.

>>> import atoll as ak
>>> from atoll.testing import assert_frame_equal
>>> df = ak.DataFrame({"x": ak.array([3, 1, 2]), "y": ak.array([0.5, 0.1, 0.2])})
>>> assert_frame_equal(df, df.sort_values("y"), check_like=True)
"""

from ._asserters import (
    assert_almost_equal,
    assert_arkouda_array_equal,
    assert_arkouda_pdarray_equal,
    assert_arkouda_segarray_equal,
    assert_arkouda_strings_equal,
    assert_attr_equal,
    assert_categorical_equal,
    assert_class_equal,
    assert_contains_all,
    assert_copy,
    assert_dict_equal,
    assert_equal,
    assert_frame_equal,
    assert_index_equal,
    assert_is_sorted,
    assert_series_equal,
)
from ._equivalence_asserters import (
    assert_almost_equivalent,
    assert_arkouda_array_equivalent,
    assert_equivalent,
    assert_frame_equivalent,
    assert_index_equivalent,
    assert_series_equivalent,
)

__all__ = [
    "assert_almost_equal",
    "assert_arkouda_array_equal",
    "assert_arkouda_pdarray_equal",
    "assert_arkouda_segarray_equal",
    "assert_arkouda_strings_equal",
    "assert_attr_equal",
    "assert_categorical_equal",
    "assert_class_equal",
    "assert_contains_all",
    "assert_copy",
    "assert_dict_equal",
    "assert_equal",
    "assert_frame_equal",
    "assert_index_equal",
    "assert_is_sorted",
    "assert_series_equal",
    "assert_almost_equivalent",
    "assert_arkouda_array_equivalent",
    "assert_equivalent",
    "assert_frame_equivalent",
    "assert_index_equivalent",
    "assert_series_equivalent",
]
