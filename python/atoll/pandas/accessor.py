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

from ..numpy.strings import Strings
from ..numpy.timeclass import Datetime
from .categorical import Categorical
from .series import Series

__all__ = ["CachedAccessor", "DatetimeAccessor", "Properties", "StringAccessor", "date_operators", "string_operators"]


class CachedAccessor:
    """A descriptor that builds the accessor ``accessor(obj)`` on its first read from an object
    and stores it on that object under ``name``, so later reads find it directly. Read from the
    class, it is the accessor class itself.

    >>> class Box:
    ...     pass
    >>> Box.double = CachedAccessor("double", lambda obj: [obj, obj])
    >>> b = Box()
    >>> b.double is b.double
    True
    """

    def __init__(self, name: str, accessor) -> None:
        self._name = name
        self._accessor = accessor

    def __get__(self, obj, cls):
        if obj is None:
            return self._accessor
        value = self._accessor(obj)
        try:
            object.__setattr__(obj, self._name, value)
        except AttributeError:  # an object without an instance dict builds it on every read
            pass
        return value


def string_operators(cls):
    """Class decorator: sets ``contains``, ``startswith`` and ``endswith`` on ``cls``, each made
    by ``cls._make_op(name)``."""
    for name in ("contains", "startswith", "endswith"):
        setattr(cls, name, cls._make_op(name))
    return cls


def date_operators(cls):
    """Class decorator: sets ``floor``, ``ceil`` and ``round`` on ``cls``, each made by
    ``cls._make_op(name)``."""
    for name in ("floor", "ceil", "round"):
        setattr(cls, name, cls._make_op(name))
    return cls


class Properties:
    """The base of the accessors: ``_make_op(name)`` is a method that calls ``name`` on the
    Series' values and returns the result as a Series on the same index."""

    @classmethod
    def _make_op(cls, name):
        def op(self, *args, **kwargs):
            out = getattr(self.series.values, name)(*args, **kwargs)
            return Series(data=out, index=self.series.index)

        op.__name__ = name
        op.__qualname__ = f"{cls.__qualname__}.{name}"
        op.__doc__ = f"The values' ``{name}``, elementwise, as a Series on the same index."
        return op


@date_operators
class DatetimeAccessor(Properties):
    """``Series.dt``: ``floor``, ``ceil`` and ``round`` of a Series of ``Datetime`` values.

    >>> import atoll as ak
    >>> s = ak.Series(ak.Datetime(ak.array([1_000_000_000_500])))
    >>> s.dt.floor("s").values
    Datetime(['1970-01-01 00:16:40'],
             dtype='datetime64[ns]')
    """

    def __init__(self, series):
        if not isinstance(series.values, Datetime):
            raise AttributeError("Can only use .dt accessor with datetimelike values")
        self.series = series


@string_operators
class StringAccessor(Properties):
    """``Series.str``: ``contains``, ``startswith`` and ``endswith`` of a Series of ``Strings``
    or ``Categorical`` values.

    >>> import atoll as ak
    >>> ak.Series(ak.Categorical(ak.array(["ab", "ba"]))).str.endswith("a").to_list()
    [False, True]
    """

    def __init__(self, series):
        if not isinstance(series.values, (Strings, Categorical)):
            raise AttributeError("Can only use .str accessor with string like values")
        self.series = series


# Series reads its ``.str`` and ``.dt`` through these accessors, as pandas' Series does.
Series.str = CachedAccessor("str", StringAccessor)
Series.dt = CachedAccessor("dt", DatetimeAccessor)
