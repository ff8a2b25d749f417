"""Arkouda's asserters (``arkouda.testing``): equality of pdarrays, Strings, Categoricals and
SegArrays, exact or within a tolerance; Series, DataFrames and Indexes judged by
``pandas.testing``'s rules with the same options; the ``*_equivalent`` forms first turn NumPy
and pandas objects into Atoll's.

>>> import atoll as ak
>>> from atoll.testing import assert_frame_equal
>>> df = ak.DataFrame({"x": ak.array([3, 1, 2]), "y": ak.array([0.5, 0.1, 0.2])})
>>> assert_frame_equal(df, df.sort_values("y"), check_like=True)
"""

import builtins

import numpy as np

from .._optional import loaded, pd
from ..numpy.pdarrayclass import all as _all, is_sorted, pdarray
from ..numpy.pdarraycreation import array
from ..numpy.segarray import SegArray
from ..numpy.strings import Strings
from ..pandas.categorical import Categorical
from ..pandas.dataframe import DataFrame
from ..pandas.index import Index, MultiIndex
from ..pandas.series import Series

_CLASSES = {
    "pdarray": pdarray,
    "Strings": Strings,
    "Categorical": Categorical,
    "SegArray": SegArray,
    "Series": Series,
    "DataFrame": DataFrame,
    "Index": Index,
    "MultiIndex": MultiIndex,
}


class _NoDefault:
    """pandas' ``no_default`` (the argument was not given) without importing pandas: such an
    argument is left out of the call to ``pandas.testing``, which then applies its default."""

    def __repr__(self):
        return "<no_default>"


no_default = _NoDefault()


def _given(**kwargs):
    return {k: v for k, v in kwargs.items() if v is not no_default}


__all__ = [
    "assert_almost_equal",
    "assert_arkouda_array_equal",
    "assert_arkouda_pdarray_equal",
    "assert_arkouda_segarray_equal",
    "assert_arkouda_strings_equal",
    "assert_attr_equal",
    "assert_categorical_equal",
    "assert_class_equal",
    "assert_contains_all",
    "assert_copy",
    "assert_dict_equal",
    "assert_equal",
    "assert_frame_equal",
    "assert_index_equal",
    "assert_is_sorted",
    "assert_series_equal",
    "assert_almost_equivalent",
    "assert_arkouda_array_equivalent",
    "assert_equivalent",
    "assert_frame_equivalent",
    "assert_index_equivalent",
    "assert_series_equivalent",
]


def _is(x, name):
    return isinstance(x, _CLASSES[name])


def _fail(obj, msg, left=None, right=None):
    detail = f"{obj} are different\n\n{msg}"
    if left is not None or right is not None:
        detail += f"\n[left]:  {left!r}\n[right]: {right!r}"
    raise AssertionError(detail)


def assert_class_equal(left, right, exact=True, obj="Input"):
    """The two objects are of one class."""
    if type(left) is not type(right):
        _fail(obj, f"{obj} classes are different", type(left).__name__, type(right).__name__)


def assert_attr_equal(attr, left, right, obj="Attributes"):
    """``left.attr == right.attr`` (NaN equal to NaN)."""
    a, b = getattr(left, attr), getattr(right, attr)
    if a is b:
        return
    try:
        same = a == b
    except TypeError:
        same = False
    if isinstance(a, float) and isinstance(b, float) and np.isnan(a) and np.isnan(b):
        same = True
    if not isinstance(same, (builtins.bool, np.bool_)):
        same = builtins.all(np.asarray(same))
    if not same:
        _fail(obj, f'Attribute "{attr}" are different', a, b)


def assert_dict_equal(left, right, compare_keys=True):
    """Equal keys (when ``compare_keys``) and equal values."""
    if compare_keys:
        assert set(left) == set(right), f"dict keys differ: {set(left) ^ set(right)}"
    for k in left:
        assert_almost_equal(left[k], right[k])


def assert_is_sorted(seq):
    """The sequence is in nondecreasing order."""
    if _is(seq, "Index") or _is(seq, "Series"):
        seq = seq.values
    if _is(seq, "pdarray"):
        assert builtins.bool(is_sorted(seq)), "sequence is not sorted"
    else:
        v = np.asarray(seq)
        assert np.array_equal(v, np.sort(v)), "sequence is not sorted"


def assert_contains_all(iterable, dic):
    for k in iterable:
        assert k in dic, f"Did not contain item: {k!r}"


def assert_copy(iter1, iter2, **eql_kwargs):
    """Equal elements that are different objects."""
    for a, b in zip(iter1, iter2):
        assert_almost_equal(a, b, **eql_kwargs)
        assert a is not b, f"Expected {type(a)!r} and {type(b)!r} to be different objects, but they were the same."


def _number(x):
    return isinstance(x, (builtins.int, builtins.float, np.number)) and not isinstance(x, (builtins.bool, np.bool_))


def _boolean(x):
    return isinstance(x, (builtins.bool, np.bool_))


def _values(x):
    if _is(x, "pdarray") or _is(x, "Strings"):
        return x.to_ndarray()
    return x


def assert_almost_equal(left, right, rtol=1.0e-5, atol=1.0e-8, **kwargs):
    """Equal within ``rtol``/``atol`` (NaN equals NaN): numbers, pdarrays, and the pandas-layer
    objects."""
    for name, f in (("Index", assert_index_equal), ("Series", assert_series_equal), ("DataFrame", assert_frame_equal)):
        if _is(left, name):
            return f(left, right, check_exact=False, rtol=rtol, atol=atol, **kwargs)
    if not ((_number(left) and _number(right)) or (_boolean(left) and _boolean(right))):
        assert_class_equal(left, right, obj="pdarray" if _is(left, "pdarray") or _is(right, "pdarray") else "Input")
    assert np.allclose(_values(left), _values(right), rtol=rtol, atol=atol, equal_nan=True), (
        f"values differ beyond rtol={rtol}, atol={atol}:\n[left]:  {left!r}\n[right]: {right!r}"
    )


def _base(x):
    b = getattr(x, "base", None)
    return x if b is None else b


def _same(left, right, check_same):
    if check_same == "same" and _base(left) is not _base(right):
        raise AssertionError(f"{left!r} is not {right!r}")
    if check_same == "copy" and _base(left) is _base(right):
        raise AssertionError(f"{left!r} is {right!r}")


def assert_arkouda_pdarray_equal(
    left, right, check_dtype=True, err_msg=None, check_same=None, obj="pdarray", index_values=None
):
    """Two pdarrays of one shape, equal element by element (NaN equal to NaN), and of one
    dtype when ``check_dtype``."""
    assert_class_equal(left, right, obj=obj)
    if not _is(left, "pdarray"):
        raise AssertionError(f"{obj}: expected pdarrays, got {type(left).__name__}")
    assert left.ndim == right.ndim, f"left dimension {left.ndim} does not match right dimension {right.ndim}."
    assert left.size == right.size, f"left size {left.size} does not match right size {right.size}."
    assert left.shape == right.shape, f"left shape {left.shape} does not match right shape {right.shape}."
    _same(left, right, check_same)
    if getattr(left.dtype, "name", None) == "bigint" or getattr(right.dtype, "name", None) == "bigint":
        ok = left.size == 0 or builtins.bool(_all(left == right))
    else:
        a, b = left.to_ndarray(), right.to_ndarray()
        if a.dtype.kind in "fc" or b.dtype.kind in "fc":
            ok = np.allclose(a, b, atol=0, rtol=0, equal_nan=True)
        else:
            ok = np.array_equal(a, b)
    if not ok:
        if err_msg is not None:
            raise AssertionError(err_msg)
        _fail(obj, f"{obj} values are different", left, right)
    if check_dtype:
        assert_attr_equal("dtype", left, right, obj=obj)


def assert_arkouda_strings_equal(left, right, err_msg=None, check_same=None, obj="Strings", index_values=None):
    """Two Strings with the same strings in the same order."""
    assert_class_equal(left, right, obj=obj)
    _same(left, right, check_same)
    assert left.size == right.size, f"left size {left.size} does not match right size {right.size}."
    if left.to_list() != right.to_list():
        if err_msg is not None:
            raise AssertionError(err_msg)
        _fail(obj, f"{obj} values are different", left, right)


def assert_categorical_equal(left, right, check_dtype=True, check_category_order=True, obj="Categorical"):
    """Two Categoricals with the same values (and categories in the same order when
    ``check_category_order``)."""
    assert_class_equal(left, right, obj=obj)
    if check_category_order:
        assert_arkouda_strings_equal(left.categories, right.categories, obj=f"{obj}.categories")
        assert_arkouda_pdarray_equal(left.codes, right.codes, check_dtype=check_dtype, obj=f"{obj}.codes")
    else:
        assert sorted(left.categories.to_list()) == sorted(right.categories.to_list()), f"{obj} categories differ"
    assert_arkouda_strings_equal(left.categories[left.codes], right.categories[right.codes], obj=f"{obj} values")


def assert_arkouda_segarray_equal(left, right, check_dtype=True, err_msg=None, check_same=None, obj="segarray"):
    """Two SegArrays with equal segments and values."""
    assert_class_equal(left, right, obj=obj)
    _same(left, right, check_same)
    assert_arkouda_array_equal(left.segments, right.segments, check_dtype=check_dtype, err_msg=err_msg)
    assert_arkouda_array_equal(left.values, right.values, check_dtype=check_dtype, err_msg=err_msg)


def assert_arkouda_array_equal(
    left, right, check_dtype=True, err_msg=None, check_same=None, obj="pdarray", index_values=None
):
    """Two Atoll arrays of one class (pdarray, Strings, Categorical or SegArray) with equal
    values."""
    assert_class_equal(left, right)
    kw = dict(err_msg=err_msg, check_same=check_same, obj=obj, index_values=index_values)
    if _is(left, "Strings"):
        assert_arkouda_strings_equal(left, right, **kw)
    elif _is(left, "Categorical"):
        assert_arkouda_array_equal(left.categories[left.codes], right.categories[right.codes], check_dtype, **kw)
    elif _is(left, "SegArray"):
        assert_arkouda_segarray_equal(left, right, check_dtype, err_msg, check_same, obj)
    elif _is(left, "pdarray"):
        assert_arkouda_pdarray_equal(left, right, check_dtype, **kw)
    else:
        raise TypeError(
            "assert_arkouda_array_equal can only compare arrays of matching type: "
            "pdarray | Strings | Categorical | SegArray"
        )


# ----- Index, Series and DataFrame: pandas' rules on the same values --------------------------
#
# The pandas-layer asserters turn each Atoll object into the pandas object of the same values,
# dtypes, labels and names (built here from the Atoll arrays, so that a fault in a conversion
# method of the objects under test cannot hide itself by appearing on both sides), then apply
# pandas.testing with every option passed through: the verdicts, and the ``obj`` names in the
# messages, are pandas'.


def _check_isinstance(left, right, cls):
    for side in (left, right):
        if not isinstance(side, cls):
            raise AssertionError(f"{cls.__name__} Expected type {cls}, found {type(side)} instead")


def _pandas_array(v):
    """The NumPy or pandas array of the values of one Atoll array (or of a list of labels):
    Strings as pandas' ``str`` dtype, a Categorical with its codes and categories (in their
    order, unused ones included), bigint and SegArray values as Python objects."""
    if isinstance(v, Categorical):
        categories = pd.Index(np.asarray(v.categories.to_list(), dtype=object), dtype="str")
        return pd.Categorical.from_codes(v.codes.to_ndarray(), categories=categories)
    if isinstance(v, Strings):
        return pd.array(np.asarray(v.to_list(), dtype=object), dtype="str")
    if isinstance(v, SegArray):
        out = np.empty(v.size, dtype=object)
        out[:] = [np.asarray(x) for x in v.tolist()]
        return out
    if isinstance(v, pdarray):
        return np.asarray(v.to_ndarray())
    return v


def _pandas_index(ix):
    if isinstance(ix, MultiIndex):
        return pd.MultiIndex.from_arrays([_pandas_array(lv) for lv in ix.levels], names=list(ix.names))
    if isinstance(ix.values, list):
        return pd.Index(ix.values, name=ix.name)
    return pd.Index(_pandas_array(ix.values), name=ix.name)


def _pandas_series(s):
    return pd.Series(_pandas_array(s.values), index=_pandas_index(s.index), name=s.name)


def _pandas_frame(df):
    n = len(df)
    index = _pandas_index(df.index) if df.index is not None else pd.Index(np.arange(n))
    columns = list(df.columns.values)
    data = {i: _pandas_array(df[k] if not isinstance(df[k], Series) else df[k].values) for i, k in enumerate(columns)}
    out = pd.DataFrame(data, index=index)
    out.columns = pd.Index(columns)
    return out


def assert_index_equal(
    left,
    right,
    exact=True,
    check_names=True,
    check_exact=True,
    check_categorical=True,
    check_order=True,
    rtol=1.0e-5,
    atol=1.0e-8,
    obj="Index",
):
    """Two Indexes (or MultiIndexes) are equal, as ``pandas.testing.assert_index_equal`` judges.

    exact: check the class, dtype and inferred type (Atoll has no RangeIndex, so True and
    pandas' ``"equiv"`` mean the same). check_names: compare the names. check_exact: compare
    numbers exactly, else within ``rtol``/``atol``. check_categorical: compare Categorical
    labels' categories exactly. check_order: when False, the entries may be in any order.
    obj: the name in the assertion message."""
    _check_isinstance(left, right, Index)
    pd.testing.assert_index_equal(
        _pandas_index(left),
        _pandas_index(right),
        exact=exact,
        check_names=check_names,
        check_categorical=check_categorical,
        check_order=check_order,
        **_given(check_exact=check_exact, rtol=rtol, atol=atol),
        obj=obj,
    )


def assert_series_equal(
    left,
    right,
    check_dtype=True,
    check_index_type=True,
    check_series_type=True,
    check_names=True,
    check_exact=no_default,
    check_categorical=True,
    check_category_order=True,
    rtol=no_default,
    atol=no_default,
    obj="Series",
    *,
    check_index=True,
    check_like=False,
):
    """Two Series are equal (index, values, dtype, name), as ``pandas.testing.assert_series_equal``
    judges.

    check_exact: by default integer and boolean values compare exactly and floats within
    ``rtol`` (1e-5) and ``atol`` (1e-8); passing ``rtol`` or ``atol`` alone makes every number
    compare within them (pandas' rule). check_index: compare the index (else values only).
    check_like: the index may be in any order, labels keeping their values (needs
    ``check_index``). check_index_type: the ``exact`` of the index comparison.
    check_categorical, check_category_order: compare Categorical values' categories, and their
    order. check_series_type: the two are of one class. obj: the name in the message."""
    _check_isinstance(left, right, Series)
    if check_series_type:
        assert_class_equal(left, right, obj=obj)
    pd.testing.assert_series_equal(
        _pandas_series(left),
        _pandas_series(right),
        check_dtype=check_dtype,
        check_index_type=check_index_type,
        check_names=check_names,
        check_categorical=check_categorical,
        check_category_order=check_category_order,
        **_given(check_exact=check_exact, rtol=rtol, atol=atol),
        obj=obj,
        check_index=check_index,
        check_like=check_like,
    )


def assert_frame_equal(
    left,
    right,
    check_dtype=True,
    check_index_type=True,
    check_column_type=True,
    check_frame_type=True,
    check_names=True,
    check_exact=no_default,
    check_categorical=True,
    check_like=False,
    rtol=no_default,
    atol=no_default,
    obj="DataFrame",
):
    """Two DataFrames are equal (shape, index, columns, then each column's values and dtype), as
    ``pandas.testing.assert_frame_equal`` judges.

    check_like: rows and columns may be in any order, labels keeping their values.
    check_index_type, check_column_type: the ``exact`` of the index and columns comparisons.
    check_names: compare the index's names. check_exact, rtol, atol: as for
    ``assert_series_equal`` (floats within the tolerances by default). check_categorical:
    compare Categorical columns' categories. check_frame_type: the two are of one class.
    obj: the name in the message."""
    _check_isinstance(left, right, DataFrame)
    if check_frame_type:
        assert_class_equal(left, right, obj=obj)
    pd.testing.assert_frame_equal(
        _pandas_frame(left),
        _pandas_frame(right),
        check_dtype=check_dtype,
        check_index_type=check_index_type,
        check_column_type=check_column_type,
        check_names=check_names,
        check_categorical=check_categorical,
        check_like=check_like,
        **_given(check_exact=check_exact, rtol=rtol, atol=atol),
        obj=obj,
    )


def assert_equal(left, right, **kwargs):
    """Equality of any two objects these asserters know, else ``==`` (strings) or
    ``assert_almost_equal``."""
    for name, f in (("Index", assert_index_equal), ("Series", assert_series_equal), ("DataFrame", assert_frame_equal)):
        if _is(left, name):
            return f(left, right, **kwargs)
    if builtins.any(_is(left, n) for n in ("pdarray", "Strings", "Categorical", "SegArray")):
        return assert_arkouda_array_equal(left, right, **kwargs)
    assert kwargs == {}, f"unexpected arguments {sorted(kwargs)}"
    if isinstance(left, str):
        assert left == right, f"{left!r} != {right!r}"
    else:
        assert_almost_equal(left, right)


# ----- the *_equivalent forms: NumPy and pandas objects first become Atoll's ------------------


def _to_atoll(x):
    if isinstance(x, tuple(_CLASSES.values())) or isinstance(
        x, (np.generic, builtins.bool, builtins.int, builtins.float)
    ):
        return x
    if loaded("pandas") and isinstance(x, pd.MultiIndex):
        return MultiIndex(x)
    if loaded("pandas") and isinstance(x, pd.Index):
        return Index(x)
    if loaded("pandas") and isinstance(x, pd.Series):
        return Series(x)
    if loaded("pandas") and isinstance(x, pd.DataFrame):
        return DataFrame(x)
    if loaded("pandas") and isinstance(x, pd.Categorical):
        return Categorical(x)
    if isinstance(x, np.ndarray):
        return array(np.ascontiguousarray(x))
    raise TypeError(f"obj must be an arkouda, numpy or pandas object, but was type: {type(x)}")


def assert_almost_equivalent(left, right, rtol=1.0e-5, atol=1.0e-8):
    """``assert_almost_equal`` after turning NumPy/pandas objects into Atoll's."""
    assert_almost_equal(_to_atoll(left), _to_atoll(right), rtol=rtol, atol=atol)


def assert_arkouda_array_equivalent(
    left, right, check_dtype=True, err_msg=None, check_same=None, obj="pdarray", index_values=None
):
    """``assert_arkouda_array_equal`` after turning NumPy arrays and pandas Categoricals into
    Atoll's arrays."""
    ok = (np.ndarray,) + ((pd.Categorical,) if loaded("pandas") else ()) + tuple(_CLASSES.values())
    if not isinstance(left, ok) or not isinstance(right, ok):
        raise TypeError(
            "left and right must be type np.ndarray, pdarray, Strings, Categorical, or SegArray.  "
            f"Instead types were {type(left)} and {type(right)}"
        )
    assert_arkouda_array_equal(_to_atoll(left), _to_atoll(right), check_dtype, err_msg, check_same, obj, index_values)


def assert_index_equivalent(left, right, **kw):
    assert_index_equal(_to_atoll(left), _to_atoll(right), **kw)


def assert_series_equivalent(left, right, **kw):
    assert_series_equal(_to_atoll(left), _to_atoll(right), **kw)


def assert_frame_equivalent(left, right, **kw):
    assert_frame_equal(_to_atoll(left), _to_atoll(right), **kw)


def assert_equivalent(left, right, **kwargs):
    """``assert_equal`` after turning NumPy/pandas objects into Atoll's."""
    assert_equal(_to_atoll(left), _to_atoll(right), **kwargs)
