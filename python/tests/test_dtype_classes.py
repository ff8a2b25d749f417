"""NumPy's scalar types and dtype classes under Arkouda's names, NumPy 2's promotion rules
(result_type, promote_types, can_cast) against NumPy itself, Arkouda's dtype tables, and the
bit functions of bigint arrays against Python ints."""

import sys
import typing

import atoll as ak
import numpy as np
import pytest
from atoll.numpy import dtypes
from hypothesis import given, strategies as st

NUMPY_NAMES = """False_ ScalarType True_ base_repr binary_repr byte bytes_ cdouble character clongdouble csingle
datetime64 double finfo flexible floating format_float_positional format_float_scientific half iinfo inexact
int_ intc integer intp isscalar issubdtype longdouble longlong number object_ sctypeDict short signedinteger
single timedelta64 typename ubyte uint uintc uintp ulonglong unsignedinteger ushort void float16 float32
complex64 complex128 int8 int16 int32 uint16 uint32""".split()
DTYPE_CLASSES = """BoolDType ByteDType BytesDType CLongDoubleDType Complex64DType Complex128DType DateTime64DType
Float16DType Float32DType Float64DType Int8DType Int16DType Int32DType Int64DType IntDType LongDoubleDType LongDType
LongLongDType ObjectDType ShortDType StrDType TimeDelta64DType UByteDType UInt8DType UInt16DType UInt32DType
UInt64DType UIntDType ULongDType ULongLongDType UShortDType VoidDType""".split()

SCALAR_TYPES = [np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]
SCALAR_TYPES += [np.float16, np.float32, np.float64]


@pytest.mark.parametrize("name", NUMPY_NAMES)
def test_scalar_names_are_numpys(name):
    assert getattr(ak, name) is getattr(np, name)
    assert getattr(ak.numpy, name) is getattr(np, name)


@pytest.mark.parametrize("name", DTYPE_CLASSES)
def test_dtype_classes_are_numpys(name):
    assert getattr(ak, name) is getattr(np.dtypes, name)
    assert getattr(dtypes, name) is getattr(np.dtypes, name)


def test_numpy_namespace_scalar_types():
    assert ak.numpy.int64 is np.int64 and ak.numpy.bool is np.bool_ and ak.numpy.float64 is np.float64
    assert ak.numpy.bool_ == ak.bool_ and ak.numpy.uint8 is np.uint8 and ak.numpy.str_ is np.str_


@pytest.mark.parametrize("a", SCALAR_TYPES)
@pytest.mark.parametrize("b", SCALAR_TYPES)
def test_promotion_like_numpy(a, b):
    assert ak.result_type(a, b) == np.result_type(a, b)
    assert ak.promote_types(a, b) == np.promote_types(a, b)
    for casting in ("no", "equiv", "safe", "same_kind", "unsafe"):
        assert ak.can_cast(a, b, casting) == np.can_cast(a, b, casting), casting


def test_result_type_of_arrays_dtypes_and_weak_scalars():
    assert ak.result_type(ak.int64, ak.float64) == np.float64
    pairs = [(np.int64, np.float64), (np.uint64, np.int64), (np.bool_, np.uint8), (np.uint8, np.float64)]
    for a, b in pairs:
        x, y = ak.zeros(2, dtype=a), ak.zeros(2, dtype=b)
        want = np.result_type(np.zeros(2, a), np.zeros(2, b))
        assert ak.result_type(x, y) == want
        assert ak.result_type(x, b) == want and ak.result_type(a, y) == want
    # Python scalars are weak (NEP 50).
    assert ak.result_type(ak.zeros(2, dtype=np.uint8), 1) == np.result_type(np.zeros(2, np.uint8), 1)
    assert ak.result_type(ak.zeros(2, dtype=np.int64), 1.5) == np.result_type(np.zeros(2, np.int64), 1.5)
    assert ak.result_type(ak.bigint, ak.int64) == ak.bigint and ak.result_type(ak.bigint, ak.float64) == np.float64


def test_finfo_iinfo_isscalar_issubdtype():
    assert ak.finfo(ak.float32).eps == np.finfo(np.float32).eps
    assert ak.iinfo(ak.uint64).max == 2**64 - 1
    assert ak.isscalar(3.0) and not ak.isscalar([3.0])
    assert ak.issubdtype(ak.int64, ak.signedinteger) and not ak.issubdtype(ak.uint8, ak.signedinteger)
    assert ak.issubdtype(ak.zeros(1).dtype, ak.floating) and ak.issubdtype(ak.float32, ak.number)
    assert isinstance(ak.int64(3), ak.integer) and isinstance(ak.float64(1.0), ak.inexact)


def test_arkouda_dtype_tables():
    assert ak.DTypes == frozenset(m.value for m in ak.DType) and len(ak.DTypes) == 18
    assert "float32" in ak.DTypes and "bigint" in ak.DTypes and "str" in ak.DTypes
    fmt = ak.NUMBER_FORMAT_STRINGS
    assert fmt["int64"].format(-12) == "-12" and fmt["float64"].format(0.5) == f"{0.5:.17f}"
    assert fmt["bigint"].format(2**70) == str(2**70)
    chapel = {"real(32)": np.float32, "real": np.float64, "complex(64)": np.complex64, "int(8)": np.int8}
    chapel.update({"uint": np.uint64, "uint(16)": np.uint16, "bool": np.bool_})
    for name, want in chapel.items():
        assert dtypes.dtype_for_chapel(name) == np.dtype(want)
    assert dtypes.dtype_for_chapel("bigint") == ak.bigint
    assert dtypes.dtype_for_chapel("string") == np.dtype(np.str_)
    with pytest.raises(TypeError):
        dtypes.dtype_for_chapel("real(16)")
    assert dtypes.dtype("str") == ak.array(["a"]).dtype == ak.dtype("Strings")
    assert dtypes.dtype("bigint") == ak.array([2**100]).dtype
    assert dtypes.dtype("float32") == np.dtype(np.float32)
    with pytest.raises(TypeError):
        ak.zeros(3, dtype="float32")  # arrays still hold only their five dtypes


def test_resolve_scalar_dtype_reads_floats_as_float64():
    # Arkouda's documented names: every float is float64 (the dtype arrays hold).
    for v in (np.float16(1), np.float32(1), np.float64(1), 1.0):
        assert ak.resolve_scalar_dtype(v) == "float64"
    assert ak.resolve_scalar_dtype(np.uint64(7)) == "uint64" and ak.resolve_scalar_dtype(2**64) == "bigint"


def test_union_helpers_and_byteorder():
    u = typing.Union[float, np.float64]
    assert dtypes._is_dtype_in_union(np.float64, u) and not dtypes._is_dtype_in_union(np.int64, u)
    assert not dtypes._is_dtype_in_union(np.float64, float)
    assert dtypes._val_isinstance_of_union(np.float64(1), u) and not dtypes._val_isinstance_of_union(1, u)
    with pytest.raises(TypeError):
        dtypes._datatype_check(np.int8, [np.int64], "f")
    native = "<" if sys.byteorder == "little" else ">"
    assert ak.get_byteorder(np.dtype(np.int64)) == native
    assert ak.get_byteorder(np.dtype(">i8")) == ">"
    assert ak.get_server_byteorder() == sys.byteorder


# ----- bigint bit functions against Python ints ----------------------------------------------

big = st.integers(-(2**200), 2**200)


def _tz(v):
    return (v & -v).bit_length() - 1 if v else 0


@given(st.lists(st.integers(0, 2**200), min_size=1, max_size=12))
def test_bigint_bits_against_python(values):
    a = ak.array(values, dtype=ak.bigint)
    assert ak.popcount(a).tolist() == [v.bit_count() for v in values]
    assert ak.parity(a).tolist() == [v.bit_count() & 1 for v in values]
    assert ak.ctz(a).tolist() == [_tz(v) for v in values]
    assert a.popcount().tolist() == [v.bit_count() for v in values]


@given(st.lists(big, min_size=1, max_size=12), st.integers(1, 256))
def test_bigint_bits_with_max_bits_against_python(values, mb):
    a = ak.array(values, dtype=ak.bigint)
    a.max_bits = mb
    wrapped = [v % (1 << mb) for v in values]
    assert ak.popcount(a).tolist() == [v.bit_count() for v in wrapped]
    assert ak.parity(a).tolist() == [v.bit_count() & 1 for v in wrapped]
    assert ak.clz(a).tolist() == [mb - v.bit_length() for v in wrapped]
    assert ak.ctz(a).tolist() == [_tz(v) for v in wrapped]
    assert a.clz().tolist() == [mb - v.bit_length() for v in wrapped]
