"""The data types of the Array API namespace.

NumPy's scalar types, as Atoll's pdarrays use them, and the standard's groups of them
(``isdtype`` kinds).
"""

from __future__ import annotations

import numpy as np

int8 = np.int8
int16 = np.int16
int32 = np.int32
int64 = np.int64
uint8 = np.uint8
uint16 = np.uint16
uint32 = np.uint32
uint64 = np.uint64
float32 = np.float32
float64 = np.float64
complex64 = np.complex64
complex128 = np.complex128
bool_ = np.bool_

_boolean_dtypes = (bool_,)
_signed_integer_dtypes = (int8, int16, int32, int64)
_unsigned_integer_dtypes = (uint8, uint16, uint32, uint64)
_integer_dtypes = _signed_integer_dtypes + _unsigned_integer_dtypes
_real_floating_dtypes = (float32, float64)
_complex_floating_dtypes = (complex64, complex128)
_floating_dtypes = _real_floating_dtypes + _complex_floating_dtypes
_integer_or_boolean_dtypes = _boolean_dtypes + _integer_dtypes
_real_numeric_dtypes = _integer_dtypes + _real_floating_dtypes
_numeric_dtypes = _real_numeric_dtypes + _complex_floating_dtypes
_all_dtypes = _boolean_dtypes + _numeric_dtypes
