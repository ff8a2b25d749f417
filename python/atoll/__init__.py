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
from .numpy.pdarraymanipulation import concatenate, bincount, histogram, append, delete, hstack, vstack
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
from .client_dtypes import IPv4, ip_address, is_ipv4, is_ipv6, BitVector, Fields, bit_vectorizer
from .hdf5 import to_hdf, read_hdf, update_hdf
from .csv import read_csv, to_csv
from . import share
from .numpy.segarray import SegArray
from . import pandas
from .pandas.groupbyclass import GroupByReductionType, GROUPBY_REDUCTION_TYPES
from .pandas.index import Index, MultiIndex
from .pandas.series import Series
from .pandas.dataframe import DataFrame, DataFrameGroupBy, intx
from .pandas.join import MergeError, merge, join_on_eq_with_dt
from .core.infoclass import (
    AllSymbols,
    RegisteredSymbols,
    information,
    list_registry,
    list_symbol_table,
    pretty_print_information,
)

# Arkouda's numpy layer (atoll.numpy, atoll.core, atoll.testing, atoll.scipy): names that
# Arkouda's scripts and tests use, grouped by module.
import numpy as _np

from .numpy.dtypes import (
    False_,
    ScalarType,
    True_,
    base_repr,
    binary_repr,
    byte,
    bytes_,
    cdouble,
    character,
    clongdouble,
    csingle,
    datetime64,
    double,
    finfo,
    flexible,
    floating,
    format_float_positional,
    format_float_scientific,
    half,
    iinfo,
    inexact,
    int_,
    intc,
    integer,
    intp,
    isscalar,
    issubdtype,
    longdouble,
    longlong,
    number,
    object_,
    sctypeDict,
    short,
    signedinteger,
    single,
    timedelta64,
    typename,
    ubyte,
    uint,
    uintc,
    uintp,
    ulonglong,
    unsignedinteger,
    ushort,
    void,
    BoolDType,
    ByteDType,
    BytesDType,
    CLongDoubleDType,
    Complex64DType,
    Complex128DType,
    DateTime64DType,
    Float16DType,
    Float32DType,
    Float64DType,
    Int8DType,
    Int16DType,
    Int32DType,
    Int64DType,
    IntDType,
    LongDoubleDType,
    LongDType,
    LongLongDType,
    ObjectDType,
    ShortDType,
    StrDType,
    TimeDelta64DType,
    UByteDType,
    UInt8DType,
    UInt16DType,
    UInt32DType,
    UInt64DType,
    UIntDType,
    ULongDType,
    ULongLongDType,
    UShortDType,
    VoidDType,
    NUMBER_FORMAT_STRINGS,
    get_byteorder,
    get_server_byteorder,
    float16,
    complex64,
    complex128,
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
from .numpy.pdarraycreation import from_series, logspace, scalar_array
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
from .numpy.manipulation_functions import flip, squeeze, repeat, tile
from .numpy._bigint import bigint_from_uint_arrays
from .numpy.strings import random_strings_lognormal
from . import numpy, core, testing, scipy, apply, arkouda as _arkouda_alias  # noqa: F401
from .numpy import random, util, pdarraycreation, pdarraysetops, pdarraymanipulation, char  # noqa: F401
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

# Floating-point error modes, NumPy's scalar types and dtype classes, manipulation functions
# (Arkouda's top-level names from arkouda.numpy).
from .numpy.err import geterr, seterr, geterrcall, seterrcall, errstate  # noqa: E402
from .numpy.util import (  # noqa: E402
    broadcast_arrays,
    broadcast_dims,
    broadcast_shapes,
    broadcast_to,
    copy,
    invert_permutation,
    may_share_memory,
    shares_memory,
)
from .numpy.char import isnumeric  # noqa: E402

# Registration and checkpoints (arkouda.core.registry), logging (arkouda.core.logger), plotting.
from .core.registry import (  # noqa: E402
    RegistrationError,
    attach,
    attach_all,
    clear,
    is_registered,
    load_checkpoint,
    register_all,
    save_checkpoint,
    unregister,
    unregister_all,
)
from .core.logger import LogLevel, disable_verbose, enable_verbose, write_log  # noqa: E402
from .plotting import hist_all, plot_dist  # noqa: E402

# The subpackages' namespaces (their ``__init__`` imports none of their modules) and the methods
# that the lower types get from the modules above them (atoll._attach).
from .core import _namespace as _core_namespace  # noqa: E402
from .numpy import _namespace as _numpy_namespace  # noqa: E402
from .pandas import _namespace as _pandas_namespace  # noqa: E402
from . import _client_dtypes_methods  # noqa: E402
from .numpy import _bigint_methods, _pdarrayclass_methods, _segarray_methods, _strings_methods  # noqa: E402
from .pandas import _categorical_methods, _dataframe_methods, _groupbyclass_methods  # noqa: E402
from .pandas import _index_methods, _series_methods  # noqa: E402
from .graph_share import SharedEdges as _SharedEdges, share_edges as _share_edges  # noqa: E402

# ``ak.graph.share_edges`` (approach 2 of the Chapel-Grafiki talk) builds on ``atoll.graph``.
graph.SharedEdges, graph.share_edges = _SharedEdges, _share_edges

from ._version import __version__  # noqa: E402

_start_at_import()
