"""Atoll: Arkouda's ``pdarray`` API on distributed arrays, in process (no server).

import atoll as ak
a = ak.arange(10)
b = ak.ones(10) * 2.5
print((a + 3 * b).sum())
"""

from . import _atoll
from ._atoll import OutOfMemoryError, AtollError
from ._session import init, shutdown, connect, disconnect, num_locales, backend, _start_at_import
from .dtypes import int64, uint64, float64, bool_, dtype, DTypes
from .pdarrayclass import (
    pdarray,
    sum,
    prod,
    min,
    max,
    argmin,
    argmax,
    mean,
    var,
    std,
    any,
    all,
    is_sorted,
    count_nonzero,
    cumsum,
    cumprod,
    argsort,
    sort,
)
from .creation import (
    array,
    zeros,
    ones,
    full,
    zeros_like,
    ones_like,
    full_like,
    arange,
    linspace,
    randint,
    uniform,
    standard_normal,
)
from .numeric import abs, log, exp, sqrt, sin, cos, floor, ceil, round, isnan, where, clip
from .sorting import argsort, sort, coargsort, searchsorted
from .setops import unique, value_counts, in1d, union1d, intersect1d, setdiff1d, setxor1d
from .groupby import GroupBy, broadcast
from .manipulation import concatenate, bincount, histogram
from .memory import get_mem_used, get_mem_avail, get_mem_status
from . import graph
from .strings import Strings, Match, random_strings_uniform
from .categorical import Categorical
from .io import (
    read_parquet,
    to_parquet,
    get_datasets,
    ls,
    read,
    load,
    load_all,
    save_all,
    get_filetype,
    get_null_indices,
    read_tagged_data,
    import_data,
    export,
    snapshot,
    restore,
)
from .hdf5 import to_hdf, read_hdf, update_hdf
from .csv import read_csv, to_csv
from . import share
from .segarray import SegArray
from . import pandas
from .pandas import (
    GroupByReductionType,
    GROUPBY_REDUCTION_TYPES,
    Index,
    MultiIndex,
    Series,
    DataFrame,
    DataFrameGroupBy,
    intx,
    merge,
    join_on_eq_with_dt,
    attach,
    list_registry,
)

bool = bool_  # noqa: A001  (Arkouda's ak.bool)

_start_at_import()
