# ruff: noqa: F401, F403  (a namespace of re-exported names)
"""The names of ``atoll.pandas``, set on the package by the root ``atoll/__init__.py``.

The package's ``__init__`` imports none of its modules, which sit in different layers of ``atoll``.
"""

from .. import pandas as _package
from . import io_util
from ._registry import attach, list_registry

# ``.str`` and ``.dt`` of Series (the module sets them on Series when imported).
from .accessor import CachedAccessor, DatetimeAccessor, Properties, StringAccessor, date_operators, string_operators
from .categorical import Categorical
from .dataframe import DataFrame, DataFrameGroupBy, intersect, intx, invert_permutation
from .groupbyclass import GROUPBY_REDUCTION_TYPES, GroupBy, GroupByReductionType, broadcast
from .index import Index, MultiIndex
from .join import MergeError, compute_join_size, inner_join, join_on_eq_with_dt, merge
from .row import Row
from .series import Series

vars(_package).update((k, v) for k, v in list(globals().items()) if not k.startswith("_"))
