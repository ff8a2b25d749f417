"""Atoll: Arkouda's ``pdarray`` API on distributed arrays, in process (no server).

import atoll as ak
a = ak.arange(10)
b = ak.ones(10) * 2.5
print((a + 3 * b).sum())
"""

# Arkouda's numpy layer (atoll.numpy, atoll.core, atoll.testing, atoll.scipy): names that
# Arkouda's scripts and tests use, grouped by module.
import numpy as _np

from . import (  # noqa: F401
    _atoll,
    _client_dtypes_methods,
    arkouda as _arkouda_alias,
    core,
    graph,
    numpy,
    pandas,
    scipy,
    share,
    testing,
)
from ._atoll import AtollError, OutOfMemoryError
from ._session import _start_at_import, backend, connect, disconnect, init, num_locales, shutdown
from .apply import apply  # ``ak.apply`` is the function, as Arkouda's (the module is ``atoll.apply``)
from .categorical import Categorical
from .client_dtypes import BitVector, Fields, IPv4, bit_vectorizer, ip_address, is_ipv4, is_ipv6
from .core.client import generate_history, get_array_ranks, get_config, get_max_array_rank, ruok  # noqa: F401
from .core.infoclass import (
    AllSymbols,
    RegisteredSymbols,
    information,
    list_registry,
    list_symbol_table,
    pretty_print_information,
)
from .csv import read_csv, to_csv
from .groupby import GroupBy, broadcast
from .hdf5 import read_hdf, to_hdf, update_hdf
from .io import (
    AtollFileNotFoundError,
    DatasetTypeError,
    FileFormatError,
    ParquetFileNotFoundError,
    ParquetFormatError,
    ParquetTypeError,
    export,
    get_datasets,
    get_filetype,
    get_null_indices,
    import_data,
    load,
    load_all,
    ls,
    read,
    read_parquet,
    read_tagged_data,
    read_zarr,
    restore,
    save_all,
    snapshot,
    to_parquet,
    to_zarr,
)
from .memory import get_mem_avail, get_mem_status, get_mem_used
from .numpy import (  # noqa: F401
    _bigint_methods,
    _namespace as _numpy_namespace,
    _pdarrayclass_methods,
    _segarray_methods,
    _strings_methods,
    _timeclass_methods,
    char,
    dtypes,
    numeric,
    pdarrayclass,
    pdarraycreation,
    pdarraymanipulation,
    pdarraysetops,
    random,
    sorting,
    strings,
    timeclass,
    util,
)
from .numpy._bigint import bigint_from_uint_arrays
from .numpy.alignment import NonUniqueError, find, interval_lookup, is_cosorted, lookup, search_intervals
from .numpy.dtypes import (
    ARKOUDA_SUPPORTED_DTYPES,
    ARKOUDA_SUPPORTED_INTS,
    NUMBER_FORMAT_STRINGS,
    BoolDType,
    ByteDType,
    BytesDType,
    CLongDoubleDType,
    Complex64DType,
    Complex128DType,
    DateTime64DType,
    DType,
    DTypeObjects,
    DTypes,
    False_,
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
    NumericDTypes,
    ObjectDType,
    ScalarDTypes,
    ScalarType,
    SeriesDTypes,
    ShortDType,
    StrDType,
    TimeDelta64DType,
    True_,
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
    ak_dtype as dtype,
    all_scalars,
    base_repr,
    bigint,
    bigint_,
    binary_repr,
    bitType,
    bool_scalars,
    byte,
    bytes_,
    can_cast,
    cdouble,
    character,
    clongdouble,
    complex64,
    complex128,
    csingle,
    datetime64,
    double,
    finfo,
    flexible,
    float16,
    float_scalars,
    floating,
    format_float_positional,
    format_float_scientific,
    get_byteorder,
    get_server_byteorder,
    half,
    iinfo,
    inexact,
    int_,
    int_scalars,
    intc,
    integer,
    intp,
    intTypes,
    is_supported_bool,
    is_supported_dtype,
    is_supported_float,
    is_supported_int,
    is_supported_number,
    isscalar,
    issubdtype,
    longdouble,
    longlong,
    number,
    numeric_and_bool_scalars,
    numeric_scalars,
    numpy_scalars,
    object_,
    promote_types,
    resolve_scalar_dtype,
    result_type,
    sctypeDict,
    short,
    signedinteger,
    single,
    str_scalars,
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
)
from .numpy.manipulation_functions import expand_dims, flip, repeat, roll, squeeze, tile
from .numpy.numeric import (
    ErrorMode,
    abs,
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
    ceil,
    clip,
    clz,
    cos,
    cosh,
    ctz,
    deg2rad,
    divmod,
    exp,
    expm1,
    fabs,
    floor,
    fmod,
    hypot,
    isclose,
    isfinite,
    isinf,
    isnan,
    log,
    log1p,
    log2,
    log10,
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
    round,
    sign,
    sin,
    sinh,
    sqrt,
    square,
    tan,
    tanh,
    transpose,  # noqa: E402
    trunc,
    where,
)
from .numpy.pdarrayclass import (
    all,
    any,
    argmax,
    argmin,
    count_nonzero,
    cumprod,
    cumsum,
    is_eager,
    is_locally_sorted,
    is_sorted,
    max,
    mean,
    min,
    pdarray,
    prod,
    set_eager,
    std,
    sum,
    var,
)
from .numpy.pdarraycreation import (
    arange,
    array,
    empty,
    empty_like,
    from_series,
    full,
    full_like,
    linspace,
    logspace,
    ones,
    ones_like,
    randint,
    scalar_array,
    standard_normal,
    uniform,
    zeros,
    zeros_like,
)
from .numpy.pdarraymanipulation import (
    append,
    bincount,
    concatenate,
    delete,
    histogram,
    histogram2d,
    histogramdd,
    hstack,
    stack,
    vstack,
)
from .numpy.pdarraysetops import in1d, indexof1d, intersect1d, setdiff1d, setxor1d, union1d, unique, value_counts
from .numpy.segarray import SegArray
from .numpy.sorting import SortingAlgorithm, argsort, coargsort, searchsorted, sort
from .numpy.strings import Strings, random_strings_lognormal, random_strings_uniform
from .pandas.dataframe import DataFrame, DataFrameGroupBy, intx
from .pandas.groupbyclass import GROUPBY_REDUCTION_TYPES, GroupByReductionType
from .pandas.index import Index, MultiIndex
from .pandas.join import MergeError, join_on_eq_with_dt, merge
from .pandas.match import Match
from .pandas.series import Series
from .stats import (
    argmaxk,
    argmink,
    corr,
    cov,
    diff,
    dot,
    eye,
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
    tensordot,
    tril,
    triu,
    vecdot,
)
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

# Names of the modules that build on everything above (Arkouda's arkouda.numpy err, char and
# util names, arkouda.core's registry and logger, plotting). The ``_namespace`` modules fill
# the subpackages (their ``__init__`` imports none of their modules); the ``_*_methods``
# modules set the methods that the lower types get from the modules above them (atoll._attach).
from ._version import __version__  # noqa: E402
from .core import _namespace as _core_namespace  # noqa: E402
from .core.logger import LogLevel, disable_verbose, enable_verbose, write_log  # noqa: E402
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
from .graph_share import SharedEdges as _SharedEdges, share_edges as _share_edges  # noqa: E402
from .numpy.char import isnumeric  # noqa: E402
from .numpy.err import errstate, geterr, geterrcall, seterr, seterrcall  # noqa: E402
from .numpy.util import (  # noqa: E402
    broadcast_arrays,
    broadcast_dims,
    broadcast_shapes,
    broadcast_to,
    copy,
    invert_permutation,
    may_share_memory,
    shape,
    shares_memory,
)
from .pandas import (  # noqa: E402
    _categorical_methods,
    _dataframe_methods,
    _groupbyclass_methods,
    _index_methods,
    _namespace as _pandas_namespace,
    _series_methods,
    join,  # Arkouda's ``ak.join`` module (ak.join.inner_join, ak.join.gen_ranges, ...)
)
from .plotting import hist_all, plot_dist  # noqa: E402

# ``ak.graph.share_edges`` (approach 2 of the Chapel-Grafiki talk) builds on ``atoll.graph``.
graph.SharedEdges, graph.share_edges = _SharedEdges, _share_edges  # type: ignore[attr-defined]  # set here, not in graph

# Datetime and Timedelta (arkouda.numpy.timeclass; ``ak.timeclass`` as Arkouda's tests name it).
from .numpy.timeclass import Datetime, Timedelta, date_range, timedelta_range  # noqa: E402

# The ``.str``/``.dt`` accessors of Series (arkouda.pandas.accessor), also at the top level as Arkouda has them.
from .pandas.accessor import (  # noqa: E402
    CachedAccessor,
    DatetimeAccessor,
    Properties,
    StringAccessor,
    date_operators,
    string_operators,
)

# SciPy's tests and special functions at the top level, as Arkouda has them (arkouda.scipy).
from .scipy import Power_divergenceResult, chisquare, power_divergence  # noqa: E402
from .scipy.special import xlogy  # noqa: E402

_start_at_import()
