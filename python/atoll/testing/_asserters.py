"""Arkouda's asserters (``arkouda.testing._asserters``): equality of Atoll's objects.

Equality of pdarrays, Strings, Categoricals and SegArrays, exact or within a tolerance;
Series, DataFrames and Indexes judged by ``pandas.testing``'s rules with the same options,
except that numbers compared within a tolerance follow NumPy's ``isclose`` (Arkouda's rule:
``|left - right| <= atol + rtol * |right|``).

>>> import atoll as ak
>>> from atoll.testing import assert_frame_equal
>>> df = ak.DataFrame({"x": ak.array([3, 1, 2]), "y": ak.array([0.5, 0.1, 0.2])})
>>> assert_frame_equal(df, df.sort_values("y"), check_like=True)
"""

from __future__ import annotations

import builtins
from collections.abc import Iterable
from typing import Any

import numpy as np

from .._optional import pd
from ..numpy.pdarrayclass import all as _all, is_sorted, pdarray
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
    """pandas' ``no_default`` (the argument was not given) without importing pandas.

    Such an argument is left out of the call to ``pandas.testing``, which then applies its
    default.
    """

    def __repr__(self) -> str:
        return "<no_default>"


no_default = _NoDefault()


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
]


def _is(x: object, name: str) -> bool:
    return isinstance(x, _CLASSES[name])


def _fail(obj: str, msg: str, left: object = None, right: object = None) -> None:
    detail = f"{obj} are different\n\n{msg}"
    if left is not None or right is not None:
        detail += f"\n[left]:  {left!r}\n[right]: {right!r}"
    raise AssertionError(detail)


def assert_class_equal(left: object, right: object, exact: bool = True, obj: str = "Input") -> None:
    """Assert that the two objects are of one class.

    Parameters
    ----------
    left, right : object
        The objects compared.
    exact : bool, default True
        pandas' option; the classes are always compared exactly.
    obj : str, default 'Input'
        The name in the message.

    Raises
    ------
    AssertionError
        They differ.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.testing import assert_class_equal
    >>> assert_class_equal(ak.arange(2), ak.arange(3))
    >>> assert_class_equal(ak.arange(2), ak.array(["a"]))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    AssertionError: Input are different
    ...
    """
    if type(left) is not type(right):
        _fail(obj, f"{obj} classes are different", type(left).__name__, type(right).__name__)


def assert_attr_equal(attr: str, left: object, right: object, obj: str = "Attributes") -> None:
    """Assert that ``left.attr == right.attr`` (NaN equal to NaN).

    Parameters
    ----------
    attr : str
        The attribute.
    left, right : object
        The objects compared.
    obj : str, default 'Attributes'
        The name in the message.

    Raises
    ------
    AssertionError
        They differ.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.testing import assert_attr_equal
    >>> assert_attr_equal("dtype", ak.arange(2), ak.arange(5))
    >>> assert_attr_equal("dtype", ak.arange(2), ak.zeros(2))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    AssertionError: Attributes are different
    ...
    """
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


def assert_dict_equal(left: dict[Any, Any], right: dict[Any, Any], compare_keys: bool = True) -> None:
    """Assert that two dicts have equal keys and equal values (``assert_almost_equal``).

    Parameters
    ----------
    left, right : dict
        The dicts compared.
    compare_keys : bool, default True
        Compare the keys; else only ``left``'s keys are looked up in ``right``.

    Raises
    ------
    AssertionError
        They differ.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.testing import assert_dict_equal
    >>> assert_dict_equal({"a": ak.arange(3)}, {"a": ak.arange(3)})
    """
    if compare_keys:
        assert set(left) == set(right), f"dict keys differ: {set(left) ^ set(right)}"
    for k in left:
        assert_almost_equal(left[k], right[k])


def assert_is_sorted(seq: Any) -> None:  # noqa: ANN401 (a pdarray, Strings, Categorical or sequence)
    """Assert that the sequence is in nondecreasing order.

    Parameters
    ----------
    seq : pdarray, Index, Series or array_like
        The values.

    Raises
    ------
    AssertionError
        They are not sorted.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.testing import assert_is_sorted
    >>> assert_is_sorted(ak.array([1, 2, 2, 5]))
    >>> assert_is_sorted(ak.array([2, 1]))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    AssertionError: sequence is not sorted...
    """
    if _is(seq, "Index") or _is(seq, "Series"):
        seq = seq.values
    if _is(seq, "pdarray"):
        assert builtins.bool(is_sorted(seq)), "sequence is not sorted"
    else:
        v = np.asarray(seq)
        assert np.array_equal(v, np.sort(v)), "sequence is not sorted"


def assert_contains_all(iterable: Iterable[Any], dic: Any) -> None:  # noqa: ANN401 (any container)
    """Assert that every item of ``iterable`` is in ``dic``.

    Parameters
    ----------
    iterable : iterable
        The items.
    dic : container
        Where they must be.

    Raises
    ------
    AssertionError
        An item is missing.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.testing import assert_contains_all
    >>> assert_contains_all(["a"], {"a": 1, "b": 2})
    >>> assert_contains_all(["c"], {"a": 1})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    AssertionError: Did not contain item: 'c'...
    """
    for k in iterable:
        assert k in dic, f"Did not contain item: {k!r}"


def assert_copy(iter1: Iterable[Any], iter2: Iterable[Any], **eql_kwargs: Any) -> None:  # noqa: ANN401 (options passed through)
    """Assert that the elements are equal, pairwise, and different objects.

    Parameters
    ----------
    iter1, iter2 : iterable
        The elements compared.
    **eql_kwargs
        Passed to ``assert_almost_equal``.

    Raises
    ------
    AssertionError
        A pair differs, or is one object.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.testing import assert_copy
    >>> a = ak.arange(3)
    >>> assert_copy([a], [a[:]])
    >>> assert_copy([a], [a])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    AssertionError: Expected ... to be different objects, but they were the same...
    """
    for a, b in zip(iter1, iter2):
        assert_almost_equal(a, b, **eql_kwargs)
        assert a is not b, f"Expected {type(a)!r} and {type(b)!r} to be different objects, but they were the same."


def _number(x: object) -> bool:
    return isinstance(x, (builtins.int, builtins.float, np.number)) and not isinstance(x, (builtins.bool, np.bool_))


def _boolean(x: object) -> bool:
    return isinstance(x, (builtins.bool, np.bool_))


def _values(x: Any) -> Any:  # noqa: ANN401 (any object; its values as NumPy's where it has them)
    """The values of ``x`` as a NumPy array where it is a pdarray or Strings, else ``x``."""
    if _is(x, "pdarray") or _is(x, "Strings"):
        return x.to_ndarray()
    return x


def assert_almost_equal(
    left: Any,  # noqa: ANN401 (numbers, arrays or pandas-layer objects)
    right: Any,  # noqa: ANN401 (as left)
    rtol: float = 1.0e-5,
    atol: float = 1.0e-8,
    **kwargs: Any,  # noqa: ANN401 (pandas' options, accepted)
) -> None:
    """Assert that two numbers, pdarrays or pandas-layer objects are equal within a tolerance.

    NaN equals NaN.

    Parameters
    ----------
    left, right : object
        The objects compared.
    rtol, atol : float
        The relative and absolute tolerances (NumPy's ``allclose``).
    **kwargs
        Passed to the Index, Series and DataFrame asserters.

    Raises
    ------
    AssertionError
        They differ.

    Examples
    --------
    >>> import numpy as np
    >>> import atoll as ak
    >>> from atoll.testing import assert_almost_equal
    >>> assert_almost_equal(ak.array([1.0, np.nan]), ak.array([1.0 + 1e-9, np.nan]))
    >>> assert_almost_equal(1.0, 1.1)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    AssertionError: values differ beyond rtol=1e-05, atol=1e-08:
    ...
    """
    checks: tuple[tuple[str, Any], ...] = (
        ("Index", assert_index_equal),
        ("Series", assert_series_equal),
        ("DataFrame", assert_frame_equal),
    )
    for name, f in checks:
        if _is(left, name):
            f(left, right, check_exact=False, rtol=rtol, atol=atol, **kwargs)
            return
    if not ((_number(left) and _number(right)) or (_boolean(left) and _boolean(right))):
        assert_class_equal(left, right, obj="pdarray" if _is(left, "pdarray") or _is(right, "pdarray") else "Input")
    assert np.allclose(_values(left), _values(right), rtol=rtol, atol=atol, equal_nan=True), (
        f"values differ beyond rtol={rtol}, atol={atol}:\n[left]:  {left!r}\n[right]: {right!r}"
    )


def _base(x: object) -> object:
    b = getattr(x, "base", None)
    return x if b is None else b


def _same(left: object, right: object, check_same: str | None) -> None:
    if check_same == "same" and _base(left) is not _base(right):
        raise AssertionError(f"{left!r} is not {right!r}")
    if check_same == "copy" and _base(left) is _base(right):
        raise AssertionError(f"{left!r} is {right!r}")


def assert_arkouda_pdarray_equal(
    left: pdarray,
    right: pdarray,
    check_dtype: bool = True,
    err_msg: str | None = None,
    check_same: str | None = None,
    obj: str = "pdarray",
    index_values: object = None,
) -> None:
    """Assert that two pdarrays of one shape are equal element by element (NaN equal to NaN).

    Parameters
    ----------
    left, right : pdarray
        The arrays compared.
    check_dtype : bool, default True
        Also compare their dtypes.
    err_msg : str, optional
        The message when the values differ.
    check_same : {'same', 'copy'}, optional
        Also assert that they share their data (``'same'``) or do not (``'copy'``).
    obj : str
        The name in the message.
    index_values : optional
        Arkouda's option; not used.

    Raises
    ------
    AssertionError
        They differ.

    Examples
    --------
    >>> import numpy as np
    >>> import atoll as ak
    >>> from atoll.testing import assert_arkouda_pdarray_equal
    >>> assert_arkouda_pdarray_equal(ak.array([1.0, np.nan]), ak.array([1.0, np.nan]))
    >>> assert_arkouda_pdarray_equal(ak.arange(2), ak.zeros(2, ak.int64) + ak.array([0, 2]))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    AssertionError: pdarray are different
    ...
    """
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


def assert_arkouda_strings_equal(
    left: Strings,
    right: Strings,
    err_msg: str | None = None,
    check_same: str | None = None,
    obj: str = "Strings",
    index_values: object = None,
) -> None:
    """Assert that two Strings hold the same strings in the same order.

    Parameters
    ----------
    left, right : Strings
        The arrays compared.
    err_msg : str, optional
        The message when the values differ.
    check_same : {'same', 'copy'}, optional
        Also assert that they share their data (``'same'``) or do not (``'copy'``).
    obj : str
        The name in the message.
    index_values : optional
        Arkouda's option; not used.

    Raises
    ------
    AssertionError
        They differ.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.testing import assert_arkouda_strings_equal
    >>> assert_arkouda_strings_equal(ak.array(["a", "b"]), ak.array(["a", "b"]))
    >>> assert_arkouda_strings_equal(ak.array(["a", "b"]), ak.array(["a", "c"]), err_msg="differ")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    AssertionError: differ
    """
    assert_class_equal(left, right, obj=obj)
    _same(left, right, check_same)
    assert left.size == right.size, f"left size {left.size} does not match right size {right.size}."
    if left.to_list() != right.to_list():
        if err_msg is not None:
            raise AssertionError(err_msg)
        _fail(obj, f"{obj} values are different", left, right)


def assert_categorical_equal(
    left: Categorical,
    right: Categorical,
    check_dtype: bool = True,
    check_category_order: bool = True,
    obj: str = "Categorical",
) -> None:
    """Assert that two Categoricals have the same values.

    Parameters
    ----------
    left, right : Categorical
        The Categoricals compared.
    check_dtype : bool, default True
        Compare the codes' dtypes.
    check_category_order : bool, default True
        Also compare the categories and their order (and so the codes).
    obj : str, default 'Categorical'
        The name in the message.

    Raises
    ------
    AssertionError
        They differ.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.testing import assert_categorical_equal
    >>> c = ak.Categorical(ak.array(["x", "y", "x"]))
    >>> assert_categorical_equal(c, ak.Categorical(ak.array(["x", "y", "x"])))
    """
    assert_class_equal(left, right, obj=obj)
    if check_category_order:
        assert_arkouda_strings_equal(left.categories, right.categories, obj=f"{obj}.categories")
        assert_arkouda_pdarray_equal(left.codes, right.codes, check_dtype=check_dtype, obj=f"{obj}.codes")
    else:
        assert sorted(left.categories.to_list()) == sorted(right.categories.to_list()), f"{obj} categories differ"
    # Strings' indexing is set on the class by numpy._strings_methods, unseen by mypy.
    lcat: Any = left.categories
    rcat: Any = right.categories
    assert_arkouda_strings_equal(lcat[left.codes], rcat[right.codes], obj=f"{obj} values")


def assert_arkouda_segarray_equal(
    left: SegArray,
    right: SegArray,
    check_dtype: bool = True,
    err_msg: str | None = None,
    check_same: str | None = None,
    obj: str = "segarray",
) -> None:
    """Assert that two SegArrays have equal segments and values.

    Parameters
    ----------
    left, right : SegArray
        The SegArrays compared.
    check_dtype : bool, default True
        Also compare the dtypes.
    err_msg : str, optional
        The message when the values differ.
    check_same : {'same', 'copy'}, optional
        Also assert that they are one object (``'same'``) or not (``'copy'``).
    obj : str, default 'segarray'
        The name in the message.

    Raises
    ------
    AssertionError
        They differ.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.testing import assert_arkouda_segarray_equal
    >>> s = ak.SegArray(ak.array([0, 2]), ak.array([1, 2, 3]))
    >>> assert_arkouda_segarray_equal(s, ak.SegArray(ak.array([0, 2]), ak.array([1, 2, 3])))
    """
    assert_class_equal(left, right, obj=obj)
    _same(left, right, check_same)
    assert_arkouda_array_equal(left.segments, right.segments, check_dtype=check_dtype, err_msg=err_msg)
    assert_arkouda_array_equal(left.values, right.values, check_dtype=check_dtype, err_msg=err_msg)


def assert_arkouda_array_equal(
    left: Any,  # noqa: ANN401 (a pdarray, Strings, Categorical or SegArray)
    right: Any,  # noqa: ANN401 (as left)
    check_dtype: bool = True,
    err_msg: str | None = None,
    check_same: str | None = None,
    obj: str = "pdarray",
    index_values: object = None,
) -> None:
    """Assert that two Atoll arrays of one class have equal values.

    Parameters
    ----------
    left, right : pdarray, Strings, Categorical or SegArray
        The arrays compared.
    check_dtype : bool, default True
        Also compare the dtypes.
    err_msg : str, optional
        The message when the values differ.
    check_same : {'same', 'copy'}, optional
        Also assert that they share their data (``'same'``) or do not (``'copy'``).
    obj : str
        The name in the message.
    index_values : optional
        Arkouda's option; not used.

    Raises
    ------
    AssertionError
        They differ.
    TypeError
        They are not arrays.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.testing import assert_arkouda_array_equal
    >>> assert_arkouda_array_equal(ak.array(["a"]), ak.array(["a"]))
    >>> assert_arkouda_array_equal(ak.arange(3), ak.arange(3), check_same="copy")
    """
    assert_class_equal(left, right)
    kw: dict[str, Any] = dict(err_msg=err_msg, check_same=check_same, obj=obj, index_values=index_values)
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


def _check_isinstance(left: object, right: object, cls: type) -> None:
    for side in (left, right):
        if not isinstance(side, cls):
            raise AssertionError(f"{cls.__name__} Expected type {cls}, found {type(side)} instead")


def _pandas_array(v: Any) -> Any:  # noqa: ANN401 (an array of any kind, to one of NumPy's or pandas')
    """The NumPy or pandas array of the values of one Atoll array (or of a list of labels).

    Strings as pandas' ``str`` dtype, a Categorical with its codes and categories (in their
    order, unused ones included), bigint and SegArray values as Python objects.
    """
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


def _pandas_index(ix: Any) -> Any:  # noqa: ANN401 (an Index or MultiIndex, to pandas')
    if isinstance(ix, MultiIndex):
        return pd.MultiIndex.from_arrays([_pandas_array(lv) for lv in ix.levels], names=list(ix.names))
    if isinstance(ix.values, list):
        return pd.Index(ix.values, name=ix.name)
    return pd.Index(_pandas_array(ix.values), name=ix.name)


def _pandas_series(s: Series) -> Any:  # noqa: ANN401 (a pandas Series)
    return pd.Series(_pandas_array(s.values), index=_pandas_index(s.index), name=s.name)


def _pandas_frame(df: DataFrame) -> Any:  # noqa: ANN401 (a pandas DataFrame)
    n = len(df)
    index = _pandas_index(df.index) if df.index is not None else pd.Index(np.arange(n))
    columns = list(df.columns.values)
    data = {i: _pandas_array(df[k] if not isinstance(df[k], Series) else df[k].values) for i, k in enumerate(columns)}
    out = pd.DataFrame(data, index=index)
    out.columns = pd.Index(columns)
    return out


# ----- numbers within a tolerance: NumPy's isclose, Arkouda's rule -------------------------
# pandas compares numbers within a tolerance with ``math.isclose`` (the larger of ``atol`` and
# ``rtol`` times the larger magnitude); Arkouda's asserters use NumPy's ``isclose``
# (``atol + rtol * |right|``). The right object's numbers that are within the tolerance of the
# left's are replaced by the left's, and pandas then compares exactly: every other difference
# (labels, names, dtypes, the numbers beyond the tolerance) is judged and reported by pandas.


def _tolerance_mode(check_exact: bool | _NoDefault, rtol: float | _NoDefault, atol: float | _NoDefault) -> str:
    """Which numbers compare within the tolerances.

    ``'none'`` (every number exactly), ``'all'``, or ``'float'`` (pandas' default: floats
    within them, integers exactly; passing ``rtol`` or ``atol`` makes it ``'all'``).
    """
    if isinstance(check_exact, _NoDefault):
        return "all" if not (isinstance(rtol, _NoDefault) and isinstance(atol, _NoDefault)) else "float"
    return "none" if check_exact else "all"


def _tol(x: float | _NoDefault, default: float) -> float:
    return default if isinstance(x, _NoDefault) else builtins.float(x)


def _close(left: Any, right: Any, mode: str, rtol: float, atol: float) -> Any:  # noqa: ANN401 (NumPy arrays or lists)
    """``right`` with its numbers within the tolerance of ``left``'s (position by position) replaced by them.

    ``right`` itself where nothing is compared within a tolerance (another mode, other
    shapes, values that are not numbers).
    """
    if mode == "none" or not isinstance(left, np.ndarray) or not isinstance(right, np.ndarray):
        return right
    lk, rk = left.dtype.kind, right.dtype.kind
    if left.shape != right.shape or lk not in "iuf" or rk not in "iuf":
        return right
    if mode == "float" and lk in "iu" and rk in "iu":  # integers compare exactly by default
        return right
    if np.result_type(left.dtype, right.dtype) != right.dtype:
        return right  # left's numbers do not fit right's dtype; right's dtype is compared as is
    with np.errstate(all="ignore"):
        mask = np.isclose(left, right, rtol=rtol, atol=atol, equal_nan=True)
    out = right.copy()
    out[mask] = left[mask]
    return out


def _close_index(lp: Any, rp: Any, mode: str, rtol: float, atol: float) -> Any:  # noqa: ANN401 (pandas indexes)
    """The pandas index ``rp`` with its numbers within the tolerance of ``lp``'s replaced by them."""
    if mode == "none" or isinstance(lp, pd.MultiIndex) != isinstance(rp, pd.MultiIndex) or len(lp) != len(rp):
        return rp
    if isinstance(lp, pd.MultiIndex):
        if lp.nlevels != rp.nlevels:
            return rp
        levels = [
            _close(lp.get_level_values(i).to_numpy(), rp.get_level_values(i).to_numpy(), mode, rtol, atol)
            for i in range(lp.nlevels)
        ]
        return pd.MultiIndex.from_arrays(levels, names=rp.names)
    rv = rp.to_numpy()
    out = _close(lp.to_numpy(), rv, mode, rtol, atol)
    return rp if out is rv else pd.Index(out, name=rp.name)


def _aligned_like(lp: Any, rp: Any, check_like: bool) -> Any:  # noqa: ANN401 (pandas Series or DataFrames)
    """``lp`` with its rows in the order of ``rp``'s labels.

    That is where ``check_like`` and both indexes hold the same unique labels; else ``lp``.
    """
    if check_like and lp.index.is_unique and rp.index.is_unique and len(lp.index) == len(rp.index):
        if bool(lp.index.isin(rp.index).all()):
            return lp.reindex(rp.index)
    return lp


def _close_series(lp: Any, rp: Any, mode: str, rtol: float, atol: float, check_like: bool) -> Any:  # noqa: ANN401
    """The pandas Series ``rp`` with its index's and values' numbers within the tolerance of ``lp``'s replaced."""
    if mode == "none":
        return rp
    index = _close_index(lp.index, rp.index, mode, rtol, atol) if not check_like else rp.index
    rv = rp.to_numpy() if isinstance(rp.dtype, np.dtype) else rp.array
    values = _close(_aligned_like(lp, rp, check_like).to_numpy(), rv, mode, rtol, atol)
    if index is rp.index and values is rv:
        return rp
    return pd.Series(values, index=index, name=rp.name)


def _close_frame(lp: Any, rp: Any, mode: str, rtol: float, atol: float, check_like: bool) -> Any:  # noqa: ANN401
    """The pandas DataFrame ``rp`` with its index's and columns' numbers within the tolerance of ``lp``'s replaced."""
    if mode == "none" or not lp.columns.is_unique or not rp.columns.is_unique:
        return rp
    out = rp.copy()
    if not check_like:
        out.index = _close_index(lp.index, rp.index, mode, rtol, atol)
    la = _aligned_like(lp, rp, check_like)
    for j, col in enumerate(rp.columns):
        if col in la.columns and isinstance(rp.dtypes.iloc[j], np.dtype):
            out.isetitem(j, _close(la[col].to_numpy(), rp.iloc[:, j].to_numpy(), mode, rtol, atol))
    return out


def assert_index_equal(
    left: Index,
    right: Index,
    exact: bool | str = True,
    check_names: bool = True,
    check_exact: bool = True,
    check_categorical: bool = True,
    check_order: bool = True,
    rtol: float = 1.0e-5,
    atol: float = 1.0e-8,
    obj: str = "Index",
) -> None:
    """Assert that two Indexes (or MultiIndexes) are equal, as ``pandas.testing`` judges.

    Parameters
    ----------
    left, right : Index or MultiIndex
        The indexes compared.
    exact : bool or 'equiv', default True
        Check the class, dtype and inferred type (Atoll has no RangeIndex, so True and
        pandas' ``"equiv"`` mean the same).
    check_names : bool, default True
        Compare the names.
    check_exact : bool, default True
        Compare numbers exactly, else within ``rtol`` and ``atol`` (NumPy's ``isclose``:
        ``|left - right| <= atol + rtol * |right|``); as pandas, numbers are compared exactly
        only when ``check_categorical`` is True too.
    check_categorical : bool, default True
        Compare Categorical labels' categories exactly.
    check_order : bool, default True
        When False, the entries may be in any order.
    rtol, atol : float
        The tolerances.
    obj : str, default 'Index'
        The name in the message.

    Raises
    ------
    AssertionError
        They differ.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.testing import assert_index_equal
    >>> assert_index_equal(ak.Index(ak.array([3, 1])), ak.Index(ak.array([1, 3])), check_order=False)
    >>> assert_index_equal(ak.Index(ak.array([3, 1])), ak.Index(ak.array([1, 3])))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    AssertionError: Index are different
    ...
    """
    _check_isinstance(left, right, Index)
    lp, rp = _pandas_index(left), _pandas_index(right)
    if not check_order:
        lp, rp = _sorted_index(lp), _sorted_index(rp)
    pd.testing.assert_index_equal(
        lp,
        _close_index(lp, rp, "none" if check_exact and check_categorical else "all", rtol, atol),
        exact=exact,
        check_names=check_names,
        check_categorical=check_categorical,
        check_order=check_order,
        check_exact=True,
        obj=obj,
    )


def _sorted_index(ix: Any) -> Any:  # noqa: ANN401 (a pandas index)
    """The pandas index ``ix`` sorted, as pandas sorts it for ``check_order=False`` (as is where it cannot)."""
    try:
        return ix.sort_values()
    except TypeError:
        return ix


def assert_series_equal(
    left: Series,
    right: Series,
    check_dtype: bool = True,
    check_index_type: bool | str = True,
    check_series_type: bool = True,
    check_names: bool = True,
    check_exact: bool | _NoDefault = no_default,
    check_categorical: bool = True,
    check_category_order: bool = True,
    rtol: float | _NoDefault = no_default,
    atol: float | _NoDefault = no_default,
    obj: str = "Series",
    *,
    check_index: bool = True,
    check_like: bool = False,
) -> None:
    """Assert that two Series are equal, as ``pandas.testing.assert_series_equal`` judges.

    The index, values, dtype and name are compared.

    Parameters
    ----------
    left, right : Series
        The Series compared.
    check_dtype : bool, default True
        Compare the values' dtypes.
    check_index_type : bool or 'equiv', default True
        The ``exact`` of the index comparison.
    check_series_type : bool, default True
        The two are of one class.
    check_names : bool, default True
        Compare the names.
    check_exact : bool, optional
        By default integer and boolean values compare exactly and floats within ``rtol``
        (1e-5) and ``atol`` (1e-8); passing ``rtol`` or ``atol`` alone makes every number
        compare within them (pandas' rule). Within the tolerances means NumPy's ``isclose``
        (``|left - right| <= atol + rtol * |right|``, Arkouda's rule, not pandas').
    check_categorical, check_category_order : bool, default True
        Compare Categorical values' categories, and their order.
    rtol, atol : float, optional
        The tolerances.
    obj : str, default 'Series'
        The name in the message.
    check_index : bool, default True
        Compare the index (else values only).
    check_like : bool, default False
        The index may be in any order, labels keeping their values (needs ``check_index``).

    Raises
    ------
    AssertionError
        They differ.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.testing import assert_series_equal
    >>> s = ak.Series(ak.array([1.0, 2.0]))
    >>> assert_series_equal(s, ak.Series(ak.array([1.0, 2.0 + 1e-9])))
    >>> assert_series_equal(s, ak.Series(ak.array([1.0, 2.5])))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    AssertionError: Series are different
    ...
    """
    _check_isinstance(left, right, Series)
    if check_series_type:
        assert_class_equal(left, right, obj=obj)
    lp, rp = _pandas_series(left), _pandas_series(right)
    mode = _tolerance_mode(check_exact, rtol, atol)
    # Numbers within the tolerance were made equal above, so pandas compares the rest exactly;
    # two categorical Series are compared as pandas compares them (its check_exact decides
    # whether their dtypes must agree when check_categorical is False).
    both_categorical = isinstance(lp.dtype, pd.CategoricalDtype) and isinstance(rp.dtype, pd.CategoricalDtype)
    exact: dict[str, bool] = {"check_exact": True}
    if both_categorical:
        exact = {} if isinstance(check_exact, _NoDefault) else {"check_exact": check_exact}
    pd.testing.assert_series_equal(
        lp,
        _close_series(lp, rp, mode, _tol(rtol, 1.0e-5), _tol(atol, 1.0e-8), check_like and check_index),
        check_dtype=check_dtype,
        check_index_type=check_index_type,
        check_names=check_names,
        check_categorical=check_categorical,
        check_category_order=check_category_order,
        **exact,
        obj=obj,
        check_index=check_index,
        check_like=check_like,
    )


def assert_frame_equal(
    left: DataFrame,
    right: DataFrame,
    check_dtype: bool = True,
    check_index_type: bool | str = True,
    check_column_type: bool | str = True,
    check_frame_type: bool = True,
    check_names: bool = True,
    check_exact: bool | _NoDefault = no_default,
    check_categorical: bool = True,
    check_like: bool = False,
    rtol: float | _NoDefault = no_default,
    atol: float | _NoDefault = no_default,
    obj: str = "DataFrame",
) -> None:
    """Assert that two DataFrames are equal, as ``pandas.testing.assert_frame_equal`` judges.

    The shape, index and columns are compared, then each column's values and dtype.

    Parameters
    ----------
    left, right : DataFrame
        The DataFrames compared.
    check_dtype : bool, default True
        Compare the columns' dtypes.
    check_index_type, check_column_type : bool or 'equiv', default True
        The ``exact`` of the index and columns comparisons.
    check_frame_type : bool, default True
        The two are of one class.
    check_names : bool, default True
        Compare the index's names.
    check_exact : bool, optional
        As for ``assert_series_equal`` (floats within the tolerances by default).
    check_categorical : bool, default True
        Compare Categorical columns' categories.
    check_like : bool, default False
        Rows and columns may be in any order, labels keeping their values.
    rtol, atol : float, optional
        The tolerances.
    obj : str, default 'DataFrame'
        The name in the message.

    Raises
    ------
    AssertionError
        They differ.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.testing import assert_frame_equal
    >>> df = ak.DataFrame({"x": ak.array([3, 1, 2]), "y": ak.array([0.5, 0.1, 0.2])})
    >>> assert_frame_equal(df, df.sort_values("y"), check_like=True)
    >>> assert_frame_equal(df, df.sort_values("y"))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    AssertionError: DataFrame.index are different
    ...
    """
    _check_isinstance(left, right, DataFrame)
    if check_frame_type:
        assert_class_equal(left, right, obj=obj)
    lp, rp = _pandas_frame(left), _pandas_frame(right)
    mode = _tolerance_mode(check_exact, rtol, atol)
    pd.testing.assert_frame_equal(
        lp,
        _close_frame(lp, rp, mode, _tol(rtol, 1.0e-5), _tol(atol, 1.0e-8), check_like),
        check_dtype=check_dtype,
        check_index_type=check_index_type,
        check_column_type=check_column_type,
        check_names=check_names,
        check_categorical=check_categorical,
        check_like=check_like,
        check_exact=True,
        obj=obj,
    )


def assert_equal(
    left: Any,  # noqa: ANN401 (an object of any class)
    right: Any,  # noqa: ANN401 (as left)
    **kwargs: Any,  # noqa: ANN401 (the class's asserter's options)
) -> None:
    """Assert that two objects are equal, by the asserter of their class.

    Objects these asserters do not know compare with ``==`` (strings) or
    ``assert_almost_equal``.

    Parameters
    ----------
    left, right : object
        The objects compared.
    **kwargs
        Passed to the class's asserter.

    Raises
    ------
    AssertionError
        They differ.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.testing import assert_equal
    >>> assert_equal(ak.array(["a"]), ak.array(["a"]))
    >>> assert_equal("a", "b")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    AssertionError: 'a' != 'b'...
    """
    checks: tuple[tuple[str, Any], ...] = (
        ("Index", assert_index_equal),
        ("Series", assert_series_equal),
        ("DataFrame", assert_frame_equal),
    )
    for name, f in checks:
        if _is(left, name):
            f(left, right, **kwargs)
            return
    if builtins.any(_is(left, n) for n in ("pdarray", "Strings", "Categorical", "SegArray")):
        assert_arkouda_array_equal(left, right, **kwargs)
        return
    assert kwargs == {}, f"unexpected arguments {sorted(kwargs)}"
    if isinstance(left, str):
        assert left == right, f"{left!r} != {right!r}"
    else:
        assert_almost_equal(left, right)
