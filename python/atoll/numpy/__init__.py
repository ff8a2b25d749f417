# ruff: noqa: F401  (a namespace of re-exported names)
"""Arkouda's ``arkouda.numpy`` namespace on Atoll: pdarrays, Strings, their creation,
elementwise functions, reductions, sorting and set operations, dtypes, ``random``.

The modules carry Arkouda's names (``atoll.numpy.pdarrayclass``, ``atoll.numpy.pdarraycreation``,
...), so ``arkouda.numpy.X`` is ``atoll.numpy.X``."""

# The order is the import order that the modules' upward imports (into ``atoll.pandas``) need.
from . import dtypes, pdarrayclass, pdarraycreation, numeric, sorting, pdarraysetops  # isort: skip
from . import pdarraymanipulation, strings  # isort: skip
from . import alignment, manipulation_functions, random, util
from .dtypes import (
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
from .pdarraycreation import from_series, scalar_array
from .alignment import NonUniqueError, find, is_cosorted, lookup
from .manipulation_functions import flip, squeeze

newaxis = None
inf = float("inf")
nan = float("nan")
pi = 3.141592653589793
e = 2.718281828459045
euler_gamma = 0.5772156649015329
