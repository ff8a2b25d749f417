"""Atoll: Arkouda's ``pdarray`` API on distributed arrays, in process (no server).

import atoll as ak
a = ak.arange(10)
b = ak.ones(10) * 2.5
print((a + 3 * b).sum())
"""

from . import _atoll
from ._atoll import OutOfMemoryError, AtollError
from ._session import init, shutdown, connect, disconnect, num_locales, backend, _start_at_import
from .numpy.dtypes import DTypes
from .numpy.pdarrayclass import (
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
)
from .numpy.pdarraycreation import (
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
from .numpy.numeric import abs, log, exp, sqrt, sin, cos, floor, ceil, round, isnan, where, clip
from .numpy.sorting import argsort, sort, coargsort, searchsorted
from .numpy.pdarraysetops import unique, value_counts, in1d, union1d, intersect1d, setdiff1d, setxor1d
from .groupby import GroupBy, broadcast
from .numpy.pdarraymanipulation import concatenate, bincount, histogram
from .memory import get_mem_used, get_mem_avail, get_mem_status
from . import graph
from .numpy.strings import Strings, Match, random_strings_uniform
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
    read_zarr,
    to_zarr,
    ParquetTypeError,
    ParquetFormatError,
    ParquetFileNotFoundError,
    AtollFileNotFoundError,
    FileFormatError,
    DatasetTypeError,
)
from .client_dtypes import IPv4, ip_address, is_ipv4, is_ipv6
from .hdf5 import to_hdf, read_hdf, update_hdf
from .csv import read_csv, to_csv
from . import share
from .numpy.segarray import SegArray
from . import pandas
from .pandas import (
    GroupByReductionType,
    GROUPBY_REDUCTION_TYPES,
    Index,
    MultiIndex,
    Series,
    DataFrame,
    DataFrameGroupBy,
    MergeError,
    intx,
    merge,
    join_on_eq_with_dt,
    attach,
    list_registry,
)
from .core.infoclass import list_symbol_table

# Arkouda's numpy layer (atoll.numpy, atoll.core, atoll.testing, atoll.scipy): names that
# Arkouda's scripts and tests use, grouped by module.
import numpy as _np

from .numpy.dtypes import (
    ARKOUDA_SUPPORTED_DTYPES,
    ARKOUDA_SUPPORTED_INTS,
    DType,
    DTypeObjects,
    NumericDTypes,
    ScalarDTypes,
    SeriesDTypes,
    all_scalars,
    bigint,
    bigint_,
    bitType,
    bool_scalars,
    can_cast,
    float_scalars,
    intTypes,
    int_scalars,
    is_supported_bool,
    is_supported_dtype,
    is_supported_float,
    is_supported_int,
    is_supported_number,
    numeric_and_bool_scalars,
    numeric_scalars,
    numpy_scalars,
    promote_types,
    resolve_scalar_dtype,
    result_type,
    str_scalars,
)
from .numpy.dtypes import ak_dtype as dtype
from .numpy.numeric import transpose  # noqa: E402
from .numpy.numeric import (
    ErrorMode,
    allclose,
    arccos,
    arccosh,
    arcsin,
    arcsinh,
    arctan,
    arctan2,
    arctanh,
    array_equal,
    cast,
    clz,
    cosh,
    ctz,
    deg2rad,
    divmod,
    expm1,
    fabs,
    fmod,
    hypot,
    isclose,
    isfinite,
    isinf,
    log10,
    log1p,
    log2,
    logspace,
    maximum,
    minimum,
    mod,
    nextafter,
    parity,
    popcount,
    power,
    rad2deg,
    remainder,
    rotl,
    rotr,
    sign,
    sinh,
    square,
    tan,
    tanh,
    trunc,
)
from .numpy.sorting import SortingAlgorithm
from .stats import (
    argmaxk,
    argmink,
    corr,
    cov,
    diff,
    dot,
    hash,
    matmul,
    maxk,
    median,
    mink,
    percentile,
    putmask,
    quantile,
    skew,
    take,
    vecdot,
)
from .numpy.pdarrayclass import set_eager, is_eager, is_locally_sorted
from .numpy.pdarraycreation import from_series, scalar_array
from .numpy.pdarraysetops import indexof1d
from .testing import (
    assert_almost_equal,
    assert_almost_equivalent,
    assert_arkouda_array_equal,
    assert_arkouda_array_equivalent,
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
    assert_equivalent,
    assert_frame_equal,
    assert_frame_equivalent,
    assert_index_equal,
    assert_index_equivalent,
    assert_is_sorted,
    assert_series_equal,
    assert_series_equivalent,
)
from .numpy.alignment import NonUniqueError, find, is_cosorted, lookup
from .numpy.manipulation_functions import flip, squeeze
from .numpy._bigint import bigint_from_uint_arrays
from .numpy.strings import random_strings_lognormal
from . import numpy, core, testing, scipy, apply, arkouda as _arkouda_alias  # noqa: F401
from .numpy import random, util, pdarraycreation, pdarraysetops, pdarraymanipulation  # noqa: F401
from .numpy import pdarrayclass
from .numpy import sorting
from .numpy import numeric
from .numpy import strings
from .numpy import dtypes
from .core.client import get_config, get_max_array_rank, get_array_ranks, ruok, generate_history  # noqa: F401

# Arkouda's dtypes are NumPy's scalar types (``ak.int64(5)`` makes a scalar); pdarrays' dtypes
# are np.dtype objects, which compare equal to these.
int64 = _np.int64
uint64 = _np.uint64
float64 = _np.float64
bool_ = _np.bool_
uint8 = _np.uint8
str_ = _np.str_
bool = bool_  # noqa: A001  (Arkouda's ak.bool)
int8, int16, int32 = _np.int8, _np.int16, _np.int32
uint16, uint32 = _np.uint16, _np.uint32
float32 = _np.float32
newaxis = None
inf = float("inf")
nan = float("nan")
pi = 3.141592653589793
e = 2.718281828459045

try:
    from importlib.metadata import version as _version

    __version__ = _version("atoll")
except Exception:  # noqa: BLE001  (not installed as a distribution)
    __version__ = "0.1.0"

_start_at_import()
