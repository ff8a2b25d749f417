# ruff: noqa: F401  (a namespace of re-exported names)
"""Arkouda's ``arkouda.numpy`` namespace on Atoll: pdarrays, Strings, their creation,
elementwise functions, reductions, sorting and set operations, dtypes, ``random``.

Atoll keeps these modules at its top level (``atoll.pdarrayclass``, ``atoll.creation``, ...);
``atoll.numpy.<Arkouda's module name>`` names the same module objects."""

import sys as _sys

from .. import creation as pdarraycreation
from .. import dtypes
from .. import manipulation as pdarraymanipulation
from .. import numeric
from .. import pdarrayclass
from .. import setops as pdarraysetops
from .. import sorting
from .. import strings
from . import alignment, manipulation_functions, random, util
from ..dtypes import (
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
from ..dtypes import ak_dtype as dtype
from ..numeric import *  # noqa: F403
from ..numeric import ErrorMode, cast
from ..pdarrayclass import pdarray
from ..creation import array, zeros, ones, full, zeros_like, ones_like, full_like, arange, linspace
from ..creation import randint, uniform, standard_normal
from ..sorting import SortingAlgorithm, argsort, coargsort, sort, searchsorted
from ..setops import unique, value_counts, in1d, union1d, intersect1d, setdiff1d, setxor1d
from ..strings import Strings
from ..stats import *  # noqa: F403
from ..pdarrayclass import is_sorted, is_locally_sorted
from ..creation import from_series, scalar_array
from .alignment import NonUniqueError, find, is_cosorted, lookup
from .manipulation_functions import flip, squeeze

newaxis = None
inf = float("inf")
nan = float("nan")
pi = 3.141592653589793
e = 2.718281828459045
euler_gamma = 0.5772156649015329

# Arkouda's module names under atoll.numpy (the same module objects as Atoll's).
for _n, _m in {
    "pdarrayclass": pdarrayclass,
    "pdarraycreation": pdarraycreation,
    "pdarraysetops": pdarraysetops,
    "pdarraymanipulation": pdarraymanipulation,
    "sorting": sorting,
    "strings": strings,
    "numeric": numeric,
    "dtypes": dtypes,
}.items():
    _sys.modules.setdefault(f"{__name__}.{_n}", _m)
del _n, _m
