"""The ``.str`` and ``.dt`` accessors of ``Series`` (``arkouda.pandas.accessor``).

``Series(["apple", "banana"]).str.startswith("a")`` calls ``startswith`` on the Series' values
(``Strings`` or a ``Categorical``) and wraps the result in a Series with the same index;
``.dt.floor("s")`` does the same with the ``Datetime`` values' ``floor``.

>>> import atoll as ak
>>> s = ak.Series(["apple", "banana", "apricot"])
>>> s.str.startswith("a").to_list()
[True, False, True]
>>> s.str.contains("an").to_list()
[False, True, False]
"""

from __future__ import annotations

from typing import Any, Callable, TypeVar

from ..numpy.strings import Strings
from ..numpy.timeclass import Datetime
from .categorical import Categorical
from .series import Series

# An accessor class that the decorators give methods.
_P = TypeVar("_P", bound="Properties")

__all__ = ["CachedAccessor", "DatetimeAccessor", "Properties", "StringAccessor", "date_operators", "string_operators"]


class CachedAccessor:
    """A descriptor that builds the accessor ``accessor(obj)`` on its first read from an object.

    It stores the accessor on that object under ``name``, so later reads find it directly.
    Read from the class, it is the accessor class itself.

    Parameters
    ----------
    name : str
        The attribute's name.
    accessor : callable
        Builds the accessor from the object.

    Examples
    --------
    >>> from atoll.pandas.accessor import CachedAccessor
    >>> class Box:
    ...     pass
    >>> Box.double = CachedAccessor("double", lambda obj: [obj, obj])
    >>> b = Box()
    >>> b.double is b.double
    True
    """

    def __init__(self, name: str, accessor: Callable[[Any], Any]) -> None:
        self._name = name
        self._accessor = accessor

    def __get__(self, obj: object, cls: type) -> Any:  # noqa: ANN401 (the accessor, of any class)
        if obj is None:
            return self._accessor
        value = self._accessor(obj)
        try:
            object.__setattr__(obj, self._name, value)
        except AttributeError:  # an object without an instance dict builds it on every read
            pass
        return value


def string_operators(cls: type[_P]) -> type[_P]:
    """Class decorator: set ``contains``, ``startswith`` and ``endswith`` on ``cls``.

    Each is made by ``cls._make_op(name)``.

    Parameters
    ----------
    cls : type
        A subclass of ``Properties``.

    Returns
    -------
    type
        ``cls``, with the methods.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.pandas.accessor import Properties, string_operators
    >>> @string_operators
    ... class Words(Properties):
    ...     def __init__(self, series):
    ...         self.series = series
    >>> Words(ak.Series(ak.array(["ab", "b"]))).startswith("a").to_list()
    [True, False]
    """
    for name in ("contains", "startswith", "endswith"):
        setattr(cls, name, cls._make_op(name))
    return cls


def date_operators(cls: type[_P]) -> type[_P]:
    """Class decorator: set ``floor``, ``ceil`` and ``round`` on ``cls``.

    Each is made by ``cls._make_op(name)``.

    Parameters
    ----------
    cls : type
        A subclass of ``Properties``.

    Returns
    -------
    type
        ``cls``, with the methods.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.pandas.accessor import Properties, date_operators
    >>> @date_operators
    ... class Times(Properties):
    ...     def __init__(self, series):
    ...         self.series = series
    >>> Times(ak.Series(ak.Datetime(ak.array([1_500_000_000])))).floor("s").values
    Datetime(['1970-01-01 00:00:01'],
             dtype='datetime64[ns]')
    """
    for name in ("floor", "ceil", "round"):
        setattr(cls, name, cls._make_op(name))
    return cls


class Properties:
    """The base of the accessors.

    ``_make_op(name)`` is a method that calls ``name`` on the Series' values and returns the
    result as a Series on the same index.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.pandas.accessor import Properties
    >>> ak.Series(ak.array(["x"])).str.__class__.__mro__[1] is Properties
    True
    """

    # The Series whose values the methods call.
    series: Series

    @classmethod
    def _make_op(cls, name: str) -> Callable[..., Series]:
        def op(self: Properties, *args: Any, **kwargs: Any) -> Series:  # noqa: ANN401 (the values' method's arguments)
            out = getattr(self.series.values, name)(*args, **kwargs)
            return Series(data=out, index=self.series.index)

        op.__name__ = name
        op.__qualname__ = f"{cls.__qualname__}.{name}"
        op.__doc__ = f"The values' ``{name}``, elementwise, as a Series on the same index."
        return op


@date_operators
class DatetimeAccessor(Properties):
    """``Series.dt``: ``floor``, ``ceil`` and ``round`` of a Series of ``Datetime`` values.

    Parameters
    ----------
    series : Series
        A Series of ``Datetime`` values.

    Raises
    ------
    AttributeError
        The values are not ``Datetime``.

    Examples
    --------
    >>> import atoll as ak
    >>> s = ak.Series(ak.Datetime(ak.array([1_000_000_000_500])))
    >>> s.dt.floor("s").values
    Datetime(['1970-01-01 00:16:40'],
             dtype='datetime64[ns]')
    """

    def __init__(self, series: Series) -> None:
        if not isinstance(series.values, Datetime):
            raise AttributeError("Can only use .dt accessor with datetimelike values")
        self.series = series


@string_operators
class StringAccessor(Properties):
    """``Series.str``: ``contains``, ``startswith`` and ``endswith`` of string values.

    Parameters
    ----------
    series : Series
        A Series of ``Strings`` or ``Categorical`` values.

    Raises
    ------
    AttributeError
        The values are of another kind.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.Series(ak.Categorical(ak.array(["ab", "ba"]))).str.endswith("a").to_list()
    [False, True]
    """

    def __init__(self, series: Series) -> None:
        if not isinstance(series.values, (Strings, Categorical)):
            raise AttributeError("Can only use .str accessor with string like values")
        self.series = series


# Series reads its ``.str`` and ``.dt`` through these accessors, as pandas' Series does (set
# by name: the class body of Series, below this module, does not know them).
setattr(Series, "str", CachedAccessor("str", StringAccessor))
setattr(Series, "dt", CachedAccessor("dt", DatetimeAccessor))
