# ruff: noqa: F401, F403  (a namespace of re-exported names)
"""The names of ``atoll.numpy``, set on the package by the root ``atoll/__init__.py``: the
package's ``__init__`` imports none of its modules, which sit in different layers of ``atoll``."""

from .. import numpy as _package
from . import dtypes, pdarrayclass, pdarraycreation, numeric, sorting, pdarraysetops
from . import pdarraymanipulation, strings
from . import alignment, manipulation_functions, random, util
from .dtypes import (  # noqa: A004  (NumPy's scalar types, Arkouda's names: bool, ...)
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
    dtype_for_chapel,
    bool,
    int8,
    int16,
    int32,
    uint16,
    uint32,
    float32,
    ARKOUDA_SUPPORTED_DTYPES,
    ARKOUDA_SUPPORTED_INTS,
    DType,
    DTypeObjects,
    DTypes,
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
from .dtypes import ak_dtype as dtype
from .numeric import *  # noqa: F403
from .numeric import ErrorMode, cast
from .pdarrayclass import pdarray
from .pdarraycreation import array, zeros, ones, full, zeros_like, ones_like, full_like, arange, linspace
from .pdarraycreation import randint, uniform, standard_normal
from .sorting import SortingAlgorithm, argsort, coargsort, sort, searchsorted
from .pdarraysetops import unique, value_counts, in1d, union1d, intersect1d, setdiff1d, setxor1d
from .strings import Strings
from ..stats import *  # noqa: F403
from .pdarrayclass import is_sorted, is_locally_sorted
from .pdarraycreation import from_series, logspace, scalar_array
from .alignment import NonUniqueError, find, is_cosorted, lookup
from .manipulation_functions import flip, squeeze, repeat, tile

# Floating-point error modes, NumPy's scalar types and dtype classes, manipulation functions,
# ``char`` (Arkouda's arkouda.numpy names).
from . import err, char
from .err import geterr, seterr, geterrcall, seterrcall, errstate
from .pdarraymanipulation import append, delete, hstack, vstack
from .util import (
    broadcast_arrays,
    broadcast_dims,
    broadcast_shapes,
    broadcast_to,
    copy,
    invert_permutation,
    may_share_memory,
    shares_memory,
)
from .char import isnumeric
import numpy as _np

# Arkouda's arkouda.numpy dtype names are NumPy's scalar types (set after the star imports,
# which bring dtype objects of the same names).
bool_, float64, int64, str_, uint8, uint64 = _np.bool_, _np.float64, _np.int64, _np.str_, _np.uint8, _np.uint64

vars(_package).update((k, v) for k, v in list(globals().items()) if not k.startswith("_"))
