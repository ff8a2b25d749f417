# ruff: noqa: F401, F403  (a namespace of re-exported names)
"""The names of ``atoll.pandas``, set on the package by the root ``atoll/__init__.py``: the
package's ``__init__`` imports none of its modules, which sit in different layers of ``atoll``."""

from .. import pandas as _package
from .groupbyclass import GroupBy, GroupByReductionType, GROUPBY_REDUCTION_TYPES, broadcast
from .categorical import Categorical
from .index import Index, MultiIndex
from .series import Series
from .dataframe import DataFrame, DataFrameGroupBy, intx, intersect, invert_permutation
from .join import MergeError, merge, join_on_eq_with_dt, inner_join, compute_join_size
from .row import Row
from ._registry import attach, list_registry
from . import io_util

vars(_package).update((k, v) for k, v in list(globals().items()) if not k.startswith("_"))
