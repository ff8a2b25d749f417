"""Arkouda's pandas-like layer (``arkouda.pandas``): ``DataFrame``, ``Series``, ``Index``,
``MultiIndex``, ``Categorical``, ``GroupBy``, joins (``merge``, ``join_on_eq_with_dt``) and the
IO helpers of ``io_util``. Every name is also at the top level (``ak.DataFrame``)."""

from .groupbyclass import GroupBy, GroupByReductionType, GROUPBY_REDUCTION_TYPES, broadcast
from .categorical import Categorical
from .index import Index, MultiIndex
from .series import Series
from .dataframe import DataFrame, DataFrameGroupBy, intx, intersect, invert_permutation
from .join import MergeError, merge, join_on_eq_with_dt, inner_join, compute_join_size
from .row import Row
from ._registry import attach, list_registry
from . import io_util

__all__ = [
    "GroupBy",
    "GroupByReductionType",
    "GROUPBY_REDUCTION_TYPES",
    "broadcast",
    "Categorical",
    "Index",
    "MultiIndex",
    "Series",
    "DataFrame",
    "DataFrameGroupBy",
    "intx",
    "intersect",
    "invert_permutation",
    "MergeError",
    "merge",
    "join_on_eq_with_dt",
    "inner_join",
    "compute_join_size",
    "Row",
    "attach",
    "list_registry",
    "io_util",
]
