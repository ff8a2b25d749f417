"""Arkouda's equivalence asserters (``arkouda.testing._equivalence_asserters``).

The ``*_equivalent`` forms of the asserters of ``atoll.testing._asserters``: NumPy arrays and
pandas objects are first turned into Atoll's, so that an Atoll result can be compared with
NumPy's or pandas' directly.

>>> import atoll as ak
>>> import numpy as np
>>> from atoll.testing import assert_equivalent
>>> assert_equivalent(ak.arange(3), np.arange(3))
"""

from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from .._optional import loaded, pd
from ..numpy.pdarrayclass import pdarray
from ..numpy.pdarraycreation import array
from ..numpy.segarray import SegArray
from ..numpy.strings import Strings
from ..pandas.categorical import Categorical
from ..pandas.dataframe import DataFrame
from ..pandas.index import Index, MultiIndex
from ..pandas.series import Series
from ._asserters import (
    assert_almost_equal,
    assert_arkouda_array_equal,
    assert_equal,
    assert_frame_equal,
    assert_index_equal,
    assert_series_equal,
)

__all__ = [
    "assert_almost_equivalent",
    "assert_arkouda_array_equivalent",
    "assert_equivalent",
    "assert_frame_equivalent",
    "assert_index_equivalent",
    "assert_series_equivalent",
]

_ATOLL_CLASSES = (pdarray, Strings, Categorical, SegArray, Series, DataFrame, Index, MultiIndex)


def _to_atoll(x: Any) -> Any:  # noqa: ANN401 (a NumPy, pandas or Atoll object, to Atoll's)
    if isinstance(x, _ATOLL_CLASSES) or isinstance(x, (np.generic, builtins.bool, builtins.int, builtins.float, str)):
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


def assert_almost_equivalent(left: object, right: object, rtol: float = 1.0e-5, atol: float = 1.0e-8) -> None:
    """``assert_almost_equal`` after turning NumPy and pandas objects into Atoll's.

    Parameters
    ----------
    left, right : object
        The objects compared: Atoll's, NumPy arrays or pandas objects.
    rtol, atol : float
        The tolerances.

    Raises
    ------
    AssertionError
        They differ.
    TypeError
        An object of another library.

    Examples
    --------
    >>> import atoll as ak
    >>> import numpy as np
    >>> from atoll.testing import assert_almost_equivalent
    >>> assert_almost_equivalent(ak.array([0.1, 0.2]), np.array([0.1, 0.2 + 1e-12]))
    """
    assert_almost_equal(_to_atoll(left), _to_atoll(right), rtol=rtol, atol=atol)


def assert_arkouda_array_equivalent(
    left: object,
    right: object,
    check_dtype: bool = True,
    err_msg: str | None = None,
    check_same: str | None = None,
    obj: str = "pdarray",
    index_values: object = None,
) -> None:
    """``assert_arkouda_array_equal`` after turning NumPy arrays and pandas Categoricals into Atoll's.

    Parameters
    ----------
    left, right : pdarray, Strings, Categorical, SegArray, numpy.ndarray or pandas.Categorical
        The arrays compared.
    check_dtype : bool, default True
        Also compare the dtypes.
    err_msg : str, optional
        The message when the values differ.
    check_same : {'same', 'copy'}, optional
        Also assert that they share their data or do not.
    obj : str, default 'pdarray'
        The name in the message.
    index_values : optional
        Arkouda's option; not used.

    Raises
    ------
    AssertionError
        They differ.
    TypeError
        An object that is not an array.

    Examples
    --------
    >>> import atoll as ak
    >>> import numpy as np
    >>> from atoll.testing import assert_arkouda_array_equivalent
    >>> assert_arkouda_array_equivalent(ak.arange(3), np.arange(3))
    >>> assert_arkouda_array_equivalent(ak.arange(3), [0, 1, 2])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    TypeError: left and right must be type np.ndarray, pdarray, Strings, Categorical, or SegArray. ...
    """
    ok = (np.ndarray,) + ((pd.Categorical,) if loaded("pandas") else ()) + _ATOLL_CLASSES
    if not isinstance(left, ok) or not isinstance(right, ok):
        raise TypeError(
            "left and right must be type np.ndarray, pdarray, Strings, Categorical, or SegArray.  "
            f"Instead types were {type(left)} and {type(right)}"
        )
    assert_arkouda_array_equal(_to_atoll(left), _to_atoll(right), check_dtype, err_msg, check_same, obj, index_values)


def assert_index_equivalent(
    left: object,
    right: object,
    **kw: Any,  # noqa: ANN401 (the asserter's options, passed through)
) -> None:
    """``assert_index_equal`` after turning pandas Indexes into Atoll's.

    Parameters
    ----------
    left, right : Index, MultiIndex, pandas.Index or pandas.MultiIndex
        The indexes compared.
    **kw
        Passed to ``assert_index_equal``.

    Raises
    ------
    AssertionError
        They differ.

    Examples
    --------
    >>> import atoll as ak
    >>> import pandas as pd
    >>> from atoll.testing import assert_index_equivalent
    >>> assert_index_equivalent(ak.Index(ak.array([1, 2])), pd.Index([1, 2]))
    """
    assert_index_equal(_to_atoll(left), _to_atoll(right), **kw)


def assert_series_equivalent(
    left: object,
    right: object,
    **kw: Any,  # noqa: ANN401 (the asserter's options, passed through)
) -> None:
    """``assert_series_equal`` after turning pandas Series into Atoll's.

    Parameters
    ----------
    left, right : Series or pandas.Series
        The Series compared.
    **kw
        Passed to ``assert_series_equal``.

    Raises
    ------
    AssertionError
        They differ.

    Examples
    --------
    >>> import atoll as ak
    >>> import pandas as pd
    >>> from atoll.testing import assert_series_equivalent
    >>> assert_series_equivalent(ak.Series(ak.array([1.5, 2.5])), pd.Series([1.5, 2.5]))
    """
    assert_series_equal(_to_atoll(left), _to_atoll(right), **kw)


def assert_frame_equivalent(
    left: object,
    right: object,
    **kw: Any,  # noqa: ANN401 (the asserter's options, passed through)
) -> None:
    """``assert_frame_equal`` after turning pandas DataFrames into Atoll's.

    Parameters
    ----------
    left, right : DataFrame or pandas.DataFrame
        The DataFrames compared.
    **kw
        Passed to ``assert_frame_equal``.

    Raises
    ------
    AssertionError
        They differ.

    Examples
    --------
    >>> import atoll as ak
    >>> import pandas as pd
    >>> from atoll.testing import assert_frame_equivalent
    >>> assert_frame_equivalent(ak.DataFrame({"a": ak.arange(2)}), pd.DataFrame({"a": [0, 1]}))
    """
    assert_frame_equal(_to_atoll(left), _to_atoll(right), **kw)


def assert_equivalent(
    left: object,
    right: object,
    **kwargs: Any,  # noqa: ANN401 (the asserter's options, passed through)
) -> None:
    """``assert_equal`` after turning NumPy and pandas objects into Atoll's.

    Parameters
    ----------
    left, right : object
        The objects compared: Atoll's, NumPy arrays or pandas objects.
    **kwargs
        Passed to the class's asserter.

    Raises
    ------
    AssertionError
        They differ.
    TypeError
        An object of another library.

    Examples
    --------
    >>> import atoll as ak
    >>> import numpy as np
    >>> from atoll.testing import assert_equivalent
    >>> assert_equivalent(ak.array([1, 2]), np.array([1, 2]))
    """
    assert_equal(_to_atoll(left), _to_atoll(right), **kwargs)
