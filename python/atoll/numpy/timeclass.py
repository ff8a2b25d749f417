"""Arkouda's ``Datetime`` and ``Timedelta`` (``arkouda.numpy.timeclass``).

pdarrays of int64 nanoseconds (since the Unix epoch for ``Datetime``, a duration for
``Timedelta``), with pandas' accessors, arithmetic between the two kinds, and rounding to a
frequency.

Both are ``pdarray`` subclasses whose dtype is int64: every function that takes an int64
pdarray (sorting, grouping, joins, set operations) takes them, and ``values`` is the plain
int64 pdarray of the nanoseconds. ``to_ndarray`` gives ``datetime64[ns]``/``timedelta64[ns]``,
``to_pandas`` a ``DatetimeIndex``/``TimedeltaIndex``; one element is a ``pandas.Timestamp`` or
``pandas.Timedelta``.

The calendar fields (``year``, ``month``, ``day``, ``day_of_year``, ISO weeks, ...) are
computed elementwise on the distributed arrays from the day number with the proleptic
Gregorian civil-from-days arithmetic (400-year eras of 146097 days, years starting in March
so that the leap day ends a year); no value is brought to the driver. There is no missing
value: ``NaT`` read from pandas or NumPy is the int64 minimum, as its bits are.

>>> import atoll as ak
>>> d = ak.Datetime(ak.array([0, 86_400 * 366]), unit="s")
>>> d.year.tolist(), d.month.tolist(), d.day.tolist()
([1970, 1971], [1, 1], [1, 2])
>>> (d[1] - d[0]) == pd.Timedelta(days=366)
True
"""

from __future__ import annotations

import builtins
import datetime
import re
from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import Any, NoReturn, TypeVar, cast as _cast

import numpy as np

from .._optional import pd
from .dtypes import int64
from .numeric import cast, where
from .pdarrayclass import _from_numpy, pdarray

__all__ = ["Datetime", "Timedelta", "date_range", "timedelta_range"]

_T = TypeVar("_T", bound="_AbstractBaseTime")

_BASE_UNIT = "ns"
_NS_PER_DAY = 86_400 * 10**9

# Nanoseconds per unit, by the normalised unit name.
_unit2factor = {
    "w": 7 * _NS_PER_DAY,
    "d": _NS_PER_DAY,
    "h": 3600 * 10**9,
    "m": 60 * 10**9,
    "s": 10**9,
    "ms": 10**6,
    "us": 10**3,
    "ns": 1,
}
# Other names of the units (pandas' aliases among them); a prefix of a name, such as "sec",
# "milli" or "hr", names its unit, the first one of this order that it begins.
_unit2normunit = {
    "weeks": "w",
    "days": "d",
    "hours": "h",
    "hrs": "h",
    "minutes": "m",
    "min": "m",
    "t": "m",
    "seconds": "s",
    "milliseconds": "ms",
    "l": "ms",
    "microseconds": "us",
    "u": "us",
    "µs": "us",
    "nanoseconds": "ns",
    "n": "ns",
}


def _get_factor(unit: str) -> int:
    """Nanoseconds in one ``unit``.

    ``unit`` is a unit name, a prefix of one, or a multiple such as ``"5min"``; ``ValueError``
    for anything else.
    """
    if not isinstance(unit, str):
        raise TypeError(f"unit: expected a str, got {type(unit).__name__}")
    m = re.fullmatch(r"\s*(\d*)\s*([A-Za-zµ]+)\s*", unit)
    if m is None:
        raise ValueError(f"unit: cannot read {unit!r} as a time unit")
    mult = builtins.int(m.group(1)) if m.group(1) else 1
    u = m.group(2).lower()
    if u in _unit2factor:
        return mult * _unit2factor[u]
    for name, norm in _unit2normunit.items():
        if name.startswith(u):
            return mult * _unit2factor[norm]
    raise ValueError(f"unit: {unit!r} is not one of {sorted(set(_unit2factor) | set(_unit2normunit))}")


def _identity(x: Any, **kwargs: Any) -> Any:  # noqa: ANN401 (any operation's result)
    return x


def _is_datetime_scalar(x: object) -> bool:
    return (
        isinstance(x, datetime.datetime)  # pandas.Timestamp too
        or (isinstance(x, np.datetime64) and np.isscalar(x))
    )


def _is_timedelta_scalar(x: object) -> bool:
    return isinstance(x, datetime.timedelta) or (isinstance(x, np.timedelta64) and np.isscalar(x))


def _is_int_scalar(x: object) -> bool:
    return isinstance(x, (builtins.int, np.integer)) and not isinstance(x, (builtins.bool, np.bool_))


def _scalar_ns(x: Any) -> int:  # noqa: ANN401 (a datetime or timedelta scalar of any library)
    """The int64 nanoseconds of a datetime scalar or of a timedelta scalar.

    A datetime counts since the epoch, UTC for an aware one.
    """
    v = pd.Timestamp(x) if _is_datetime_scalar(x) else pd.Timedelta(x)
    if v is pd.NaT:
        return builtins.int(np.iinfo(np.int64).min)
    return builtins.int(v.as_unit("ns")._value)


def _ns_of_pandas(x: Any) -> Any:  # noqa: ANN401 (an array-like; an int64 ndarray)
    """The int64 nanoseconds of a pandas/NumPy datetime64 or timedelta64 array-like.

    Tz-aware datetimes as UTC; ``OutOfBoundsDatetime`` when a value does not fit.
    """
    idx = pd.Index(x)
    if isinstance(idx, pd.DatetimeIndex):
        if idx.tz is not None:
            idx = idx.tz_convert("UTC").tz_localize(None)
        return idx.as_unit("ns").asi8
    if isinstance(idx, pd.TimedeltaIndex):
        return idx.as_unit("ns").asi8
    raise TypeError(f"Invalid dtype: {idx.dtype}")


class _AbstractBaseTime(pdarray):
    """The common part of ``Datetime`` and ``Timedelta``.

    An int64 pdarray of nanoseconds with the ``unit`` it was made from.
    """

    unit: str
    _factor: int
    special_objType = "Time"
    # The operators each class takes with each kind of operand (``self op other`` and, under
    # the ``_r_`` names, ``other op self``); each class sets them.
    supported_with_datetime: frozenset[str] = frozenset()
    supported_with_r_datetime: frozenset[str] = frozenset()
    supported_with_timedelta: frozenset[str] = frozenset()
    supported_with_r_timedelta: frozenset[str] = frozenset()
    supported_with_pdarray: frozenset[str] = frozenset()
    supported_with_r_pdarray: frozenset[str] = frozenset()
    supported_opeq: frozenset[str] = frozenset()

    def __init__(self, pda: Any, unit: str = _BASE_UNIT) -> None:  # noqa: ANN401 (a pdarray, an array-like or a list)
        if isinstance(pda, _AbstractBaseTime):
            unit, factor = pda.unit, pda._factor
            ns = pda.values.copy()
        elif isinstance(pda, pdarray):
            if pda.dtype.kind not in "iu":
                raise TypeError(f"{self.__class__.__name__} array must have int64 dtype")
            factor = _get_factor(unit)
            if factor != 1 or pda.dtype != int64:
                ns = cast(pda * factor if factor != 1 else pda, int64)
            elif pda._expr is not None:
                ns = pda  # a lazy value: its expression is shared, no storage is
            else:
                ns = pda.copy()
        elif hasattr(pda, "dtype") or isinstance(pda, (list, tuple)):
            kind = getattr(getattr(pda, "dtype", None), "kind", None)
            if kind is None:  # a list of scalars: pandas reads them
                conv = pd.to_datetime if self.__class__ is Datetime else pd.to_timedelta
                pda = conv(list(pda))
            elif kind not in "mM":
                raise TypeError(f"Invalid dtype: {pda.dtype}")
            unit, factor = _BASE_UNIT, 1
            ns = _from_numpy(np.ascontiguousarray(_ns_of_pandas(pda), dtype=np.int64))
        else:
            raise TypeError(f"Unsupported type: {type(pda).__name__}")
        self.unit = unit
        self._factor = factor
        self._set(ns)

    def _set(self, ns: pdarray) -> None:
        """Makes this object hold the int64 pdarray ``ns`` (its storage or its lazy value)."""
        pdarray.__init__(self, ns._arr, ns._start, ns._step, ns._size, ns._expr, int64, ns._nodes)

    @classmethod
    def _from_ns(cls: type[_T], ns: pdarray, unit: str = _BASE_UNIT) -> _T:
        """The object of class ``cls`` holding the int64 nanoseconds ``ns`` (no copy)."""
        out = cls.__new__(cls)
        out.unit = unit
        out._factor = _get_factor(unit)
        out._set(ns if ns.dtype == int64 else cast(ns, int64))
        return out

    @property
    def values(self) -> pdarray:
        """The int64 nanoseconds, a plain pdarray over this object's storage."""
        self._materialize()
        return pdarray(self._arr, self._start, self._step, self._size)

    # ----- conversion ----------------------------------------------------------------------
    def _np_dtype(self) -> np.dtype[Any]:
        return np.dtype("datetime64[ns]") if isinstance(self, Datetime) else np.dtype("timedelta64[ns]")

    def to_ndarray(self) -> np.ndarray[Any, Any]:
        """The values as a NumPy ``datetime64[ns]`` / ``timedelta64[ns]`` array."""
        return self.values.to_ndarray().view(self._np_dtype())

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray[Any, Any]:  # noqa: ANN401 (a dtype-like)
        a = self.to_ndarray()
        return a if dtype is None else a.astype(dtype)

    def __iter__(self) -> Iterator[Any]:
        return iter(self._pandas())

    def tolist(self) -> Any:  # noqa: ANN401 (a list, or a scalar of rank 0)
        """The values as a list (of ints, as NumPy's ``tolist`` of nanosecond datetimes)."""
        return self.to_ndarray().tolist()

    def to_list(self) -> Any:  # noqa: ANN401 (as tolist)
        return self.tolist()

    def copy(self: _T) -> _T:
        return self.__class__._from_ns(self.values.copy(), self.unit)

    def _pandas(self) -> Any:  # noqa: ANN401 (a pandas index)
        """The values as a pandas index (``to_pandas`` of the subclass)."""
        return _cast(Any, self).to_pandas()

    def __str__(self) -> str:
        n = self.size
        if n <= 6:
            shown = [builtins.str(v) for v in self._pandas()]
        else:
            shown = [builtins.str(v) for v in self[:3]._pandas()] + ["..."]
            shown += [builtins.str(v) for v in self[n - 3 :]._pandas()]
        name = self.__class__.__name__
        pad = " " * (len(name) + 2)
        body = (",\n" + pad).join(v if v == "..." else f"'{v}'" for v in shown)
        return f"{name}([{body}],\n{' ' * (len(name) + 1)}dtype='{self._np_dtype()}')"

    def __repr__(self) -> str:
        return self.__str__()

    def _repr_html_(self) -> str:
        return "<pre>" + self.__str__().replace("&", "&amp;").replace("<", "&lt;") + "</pre>"

    # ----- indexing ------------------------------------------------------------------------
    def _scalar_callback(self, v: Any) -> Any:  # noqa: ANN401 (an int; a pandas scalar)
        raise NotImplementedError

    def __getitem__(self, key: Any) -> Any:  # noqa: ANN401 (any index; a scalar or an array)
        if _is_int_scalar(key):
            return self._scalar_callback(self.values[key])
        return self.__class__._from_ns(self.values[key], self.unit)

    def __setitem__(self, key: Any, value: Any) -> None:  # noqa: ANN401 (any index and value)
        if isinstance(value, self.__class__):
            self.values[key] = value.values
        elif self._is_own_scalar(value):
            self.values[key] = _scalar_ns(value)
        else:
            raise TypeError(
                f"value: a {self.__class__.__name__} takes {self.__class__.__name__} values, not {type(value).__name__}"
            )

    # ----- operators -----------------------------------------------------------------------
    @classmethod
    def _get_callback(cls, otherclass: str, op: str) -> Callable[..., Any]:
        return _identity

    def _operand(self, other: Any, op: str, reverse: bool) -> tuple[str, Any] | None:  # noqa: ANN401 (any operand)
        """``(class name, int64 data)`` of the operand ``other`` of ``op``.

        TypeError for an operator this class does not take with that operand; None for an
        unknown operand.
        """
        data: Any
        side = "_r_" if reverse else "_"
        name = self.__class__.__name__
        if isinstance(other, Datetime) or _is_datetime_scalar(other):
            kind, data = "Datetime", other.values if isinstance(other, Datetime) else _scalar_ns(other)
        elif isinstance(other, Timedelta) or _is_timedelta_scalar(other):
            kind, data = "Timedelta", other.values if isinstance(other, Timedelta) else _scalar_ns(other)
        elif (isinstance(other, pdarray) and other.dtype.kind in "iu") or _is_int_scalar(other):
            kind, data = "pdarray", other
        elif isinstance(other, pdarray) or isinstance(other, (builtins.float, np.floating, builtins.bool, np.bool_)):
            raise TypeError(f"{op} not supported between {name} and {getattr(other, 'dtype', type(other).__name__)}")
        else:
            return None
        if op not in getattr(self, f"supported_with{side}{kind.lower()}"):
            left, right = (kind, name) if reverse else (name, kind)
            raise TypeError(f"{op} not supported between {left} and {right}")
        return kind, data

    def _binop(self, other: Any, op: str, reverse: bool = False) -> Any:  # noqa: ANN401 (an operand; its result)
        found = self._operand(other, op, reverse)
        if found is None:
            return NotImplemented
        kind, data = found
        v = self.values
        if isinstance(data, pdarray):
            r = data._binop(v, op) if reverse else v._binop(data, op)
        else:
            r = v._binop(data, op, reverse)
        return self._get_callback(kind, op)(r)

    def _inplace(self: _T, o: object, op: str) -> _T:
        if not (isinstance(o, Timedelta) or _is_timedelta_scalar(o)):
            raise TypeError(f"{self.__class__.__name__} {op}= {type(o).__name__} not supported")
        if op + "=" not in self.supported_opeq:
            raise TypeError(f"{self.__class__.__name__} {op}= Timedelta not supported")
        data: Any = o.values if isinstance(o, Timedelta) else _scalar_ns(o)
        self.values[:] = self.values._binop(data, op)
        return self

    def opeq(self: _T, other: object, op: str) -> _T:
        """``self op= other`` (Arkouda's name, ``op`` such as ``"+="``)."""
        return self._inplace(other, op.rstrip("="))

    # Defined here so that Python tries them before a plain pdarray's operator: a subclass's
    # reflected operator comes first when it overrides the base's.
    def __add__(self, o: object) -> Any:  # noqa: ANN401 (a time array, a pdarray, or NotImplemented)
        return self._binop(o, "+")

    def __radd__(self, o: object) -> Any:  # noqa: ANN401 (a time array, a pdarray, or NotImplemented)
        return self._binop(o, "+", True)

    def __sub__(self, o: object) -> Any:  # noqa: ANN401 (a time array, a pdarray, or NotImplemented)
        return self._binop(o, "-")

    def __rsub__(self, o: object) -> Any:  # noqa: ANN401 (a time array, a pdarray, or NotImplemented)
        return self._binop(o, "-", True)

    def __mul__(self, o: object) -> Any:  # noqa: ANN401 (a time array, a pdarray, or NotImplemented)
        return self._binop(o, "*")

    def __rmul__(self, o: object) -> Any:  # noqa: ANN401 (a time array, a pdarray, or NotImplemented)
        return self._binop(o, "*", True)

    def __truediv__(self, o: object) -> Any:  # noqa: ANN401 (a time array, a pdarray, or NotImplemented)
        return self._binop(o, "/")

    def __rtruediv__(self, o: object) -> Any:  # noqa: ANN401 (a time array, a pdarray, or NotImplemented)
        return self._binop(o, "/", True)

    def __floordiv__(self, o: object) -> Any:  # noqa: ANN401 (a time array, a pdarray, or NotImplemented)
        return self._binop(o, "//")

    def __rfloordiv__(self, o: object) -> Any:  # noqa: ANN401 (a time array, a pdarray, or NotImplemented)
        return self._binop(o, "//", True)

    def __mod__(self, o: object) -> Any:  # noqa: ANN401 (a time array, a pdarray, or NotImplemented)
        return self._binop(o, "%")

    def __rmod__(self, o: object) -> Any:  # noqa: ANN401 (a time array, a pdarray, or NotImplemented)
        return self._binop(o, "%", True)

    def __pow__(self, o: object) -> Any:  # noqa: ANN401 (a time array, a pdarray, or NotImplemented)
        return self._binop(o, "**")

    def __rpow__(self, o: object) -> Any:  # noqa: ANN401 (a time array, a pdarray, or NotImplemented)
        return self._binop(o, "**", True)

    def __lt__(self, o: object) -> Any:  # noqa: ANN401 (a time array, a pdarray, or NotImplemented)
        return self._binop(o, "<")

    def __le__(self, o: object) -> Any:  # noqa: ANN401 (a time array, a pdarray, or NotImplemented)
        return self._binop(o, "<=")

    def __gt__(self, o: object) -> Any:  # noqa: ANN401 (a time array, a pdarray, or NotImplemented)
        return self._binop(o, ">")

    def __ge__(self, o: object) -> Any:  # noqa: ANN401 (a time array, a pdarray, or NotImplemented)
        return self._binop(o, ">=")

    def __eq__(self, o: object) -> Any:  # noqa: ANN401 (a time array, a pdarray, or NotImplemented)
        return self._binop(o, "==")

    def __ne__(self, o: object) -> Any:  # noqa: ANN401 (a time array, a pdarray, or NotImplemented)
        return self._binop(o, "!=")

    def __and__(self, o: object) -> Any:  # noqa: ANN401 (a time array, a pdarray, or NotImplemented)
        return self._binop(o, "&")

    def __rand__(self, o: object) -> Any:  # noqa: ANN401 (a time array, a pdarray, or NotImplemented)
        return self._binop(o, "&", True)

    def __or__(self, o: object) -> Any:  # noqa: ANN401 (a time array, a pdarray, or NotImplemented)
        return self._binop(o, "|")

    def __ror__(self, o: object) -> Any:  # noqa: ANN401 (a time array, a pdarray, or NotImplemented)
        return self._binop(o, "|", True)

    def __xor__(self, o: object) -> Any:  # noqa: ANN401 (a time array, a pdarray, or NotImplemented)
        return self._binop(o, "^")

    def __rxor__(self, o: object) -> Any:  # noqa: ANN401 (a time array, a pdarray, or NotImplemented)
        return self._binop(o, "^", True)

    def __lshift__(self, o: object) -> Any:  # noqa: ANN401 (a time array, a pdarray, or NotImplemented)
        return self._binop(o, "<<")

    def __rlshift__(self, o: object) -> Any:  # noqa: ANN401 (a time array, a pdarray, or NotImplemented)
        return self._binop(o, "<<", True)

    def __rshift__(self, o: object) -> Any:  # noqa: ANN401 (a time array, a pdarray, or NotImplemented)
        return self._binop(o, ">>")

    def __rrshift__(self, o: object) -> Any:  # noqa: ANN401 (a time array, a pdarray, or NotImplemented)
        return self._binop(o, ">>", True)

    __hash__ = None  # unhashable, as pdarray

    def __iadd__(self, o: object) -> Any:  # noqa: ANN401 (a time array, a pdarray, or NotImplemented)
        return self._inplace(o, "+")

    def __isub__(self, o: object) -> Any:  # noqa: ANN401 (a time array, a pdarray, or NotImplemented)
        return self._inplace(o, "-")

    def __imod__(self, o: object) -> Any:  # noqa: ANN401 (a time array, a pdarray, or NotImplemented)
        return self._inplace(o, "%")

    def __imul__(self, o: object) -> NoReturn:
        raise TypeError(f"{self.__class__.__name__} *= not supported")

    def __invert__(self) -> NoReturn:
        raise TypeError(f"bad operand type for unary ~: '{self.__class__.__name__}'")

    # ----- rounding ------------------------------------------------------------------------
    def floor(self: _T, freq: str) -> _T:
        """The values rounded down to a multiple of ``freq``.

        ``freq`` is a unit: ``"d"``, ``"h"``, ``"m"`` or ``"min"``, ``"s"``, ``"ms"``, ``"us"``,
        ``"ns"``, or a multiple such as ``"15min"``.
        """
        f = _get_factor(freq)
        return self.__class__._from_ns((self.values // f) * f)

    def ceil(self: _T, freq: str) -> _T:
        """The values rounded up to a multiple of ``freq`` (see ``floor``)."""
        f = _get_factor(freq)
        return self.__class__._from_ns(-((-self.values) // f) * f)

    def round(self: _T, freq: str) -> _T:
        """The values rounded to the nearest multiple of ``freq``.

        Halves go to the even multiple (pandas' rule; see ``floor``).
        """
        f = _get_factor(freq)
        v = self.values
        q = v // f
        r = v - q * f
        up = (2 * r > f) | ((2 * r == f) & (q % 2 == 1))
        return self.__class__._from_ns((q + cast(up, int64)) * f)

    # ----- reductions ----------------------------------------------------------------------
    def min(self, axis: int | tuple[int, ...] | None = None, keepdims: bool = False) -> Any:  # noqa: ANN401 (a pandas scalar)
        return self._scalar_callback(self.values.min())

    def max(self, axis: int | tuple[int, ...] | None = None, keepdims: bool = False) -> Any:  # noqa: ANN401 (a pandas scalar)
        return self._scalar_callback(self.values.max())

    def mean(self, axis: int | tuple[int, ...] | None = None, keepdims: bool = False) -> Any:  # noqa: ANN401 (a pandas scalar)
        """The mean, a ``Timestamp``/``Timedelta``, exact to the nanosecond (halves to even).

        The high and low 32 bits of the values are summed apart (neither sum overflows int64
        below 2**31 values) and combined in Python ints.
        """
        if self.size == 0:
            return pd.NaT
        v = self.values
        high = builtins.int((v // 2**32).sum())
        low = builtins.int((v % 2**32).sum())
        return self._scalar_callback(builtins.round(Fraction(high * 2**32 + low, self.size)))

    def mink(self: _T, k: int) -> _T:
        return self.__class__._from_ns(self.values[self.values.argsort()[: builtins.min(k, self.size)]])

    def maxk(self: _T, k: int) -> _T:
        idx = self.values.argsort()
        return self.__class__._from_ns(self.values[idx[builtins.max(self.size - k, 0) :]])

    def _is_own_scalar(self, x: object) -> bool:
        raise NotImplementedError


def _days_and_rest(ns: pdarray) -> tuple[pdarray, pdarray]:
    """``(days, ns_of_day)``: the day number since 1970-01-01 (floor) and the nanoseconds since midnight.

    ``0 <= ns_of_day <`` one day.
    """
    days = ns // _NS_PER_DAY
    return days, ns - days * _NS_PER_DAY


def _civil(days: pdarray) -> tuple[pdarray, pdarray, pdarray, pdarray, pdarray]:
    """``(year, month, day, day_of_year, is_leap)`` of the day numbers ``days``.

    The proleptic Gregorian calendar, years counted from March inside 400-year eras.
    """
    z = days + 719_468  # days since 0000-03-01
    era = z // 146_097
    doe = z - era * 146_097  # day of the era, 0..146096
    yoe = (doe - doe // 1460 + doe // 36_524 - doe // 146_096) // 365  # year of the era, 0..399
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)  # day of the March-based year, 0..365
    mp = (5 * doy + 2) // 153  # month from March, 0..11
    day = doy - (153 * mp + 2) // 5 + 1
    jan_feb = cast(mp >= 10, int64)
    month = mp + 3 - 12 * jan_feb
    year = yoe + era * 400 + jan_feb
    leap = ((year % 4) == 0) & (((year % 100) != 0) | ((year % 400) == 0))
    # Day of the calendar year: March 1 is day 60 (61 in a leap year); January 1 is day 1.
    day_of_year = where(mp < 10, doy + 60 + cast(leap, int64), doy - 305)
    return year, month, day, day_of_year, leap


def _p(y: pdarray) -> pdarray:
    return _cast(pdarray, (y + y // 4 - y // 100 + y // 400) % 7)


def _iso_weeks_in_year(y: pdarray) -> pdarray:
    """52 or 53: the ISO weeks of the years ``y``.

    A year has 53 when it starts on a Thursday, or on a Wednesday in a leap year
    (``p(y) == 4 or p(y - 1) == 3``).
    """
    return _cast(pdarray, 52 + cast((_p(y) == 4) | (_p(y - 1) == 3), int64))


class Datetime(_AbstractBaseTime):
    """Dates and times: int64 nanoseconds since 1970-01-01 (Arkouda's ``Datetime``, pandas' ``DatetimeIndex``).

    ``pda``: an int64 pdarray (of ``unit``: "w", "d", "h", "m"/"min", "s", "ms", "us", "ns" or
    their long names and prefixes), a pandas ``DatetimeIndex``/``Series``, a NumPy
    ``datetime64`` array (any unit), a list of datetime scalars, or another Datetime (copied).
    ``values`` is always int64 nanoseconds.
    """

    supported_with_datetime = frozenset(("==", "!=", "<", "<=", ">", ">=", "-"))
    supported_with_r_datetime = frozenset(("==", "!=", "<", "<=", ">", ">=", "-"))
    supported_with_timedelta = frozenset(("+", "-", "/", "//", "%"))
    supported_with_r_timedelta = frozenset(("+",))
    supported_opeq = frozenset(("+=", "-="))
    supported_with_pdarray: frozenset[str] = frozenset()
    supported_with_r_pdarray: frozenset[str] = frozenset()

    special_objType = "Datetime"

    @classmethod
    def _get_callback(cls, otherclass: str, op: str) -> Callable[..., Any]:
        return _cast(
            "Callable[..., Any]",
            {
                ("Datetime", "-"): Timedelta,
                ("Timedelta", "+"): cls,
                ("Timedelta", "-"): cls,
                ("Timedelta", "%"): Timedelta,
            }.get((otherclass, op), _identity),
        )

    def _scalar_callback(self, v: Any) -> Any:  # noqa: ANN401 (an int; a pandas.Timestamp)
        return pd.Timestamp(builtins.int(v), unit=_BASE_UNIT)

    def _is_own_scalar(self, x: object) -> bool:
        return _is_datetime_scalar(x)

    def to_pandas(self) -> Any:  # noqa: ANN401 (a pandas.DatetimeIndex)
        """A pandas ``DatetimeIndex`` (``datetime64[ns]``).

        Returns
        -------
        pandas.DatetimeIndex
            The values.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.Datetime(ak.array([0, 1]), unit="d").to_pandas().strftime("%Y-%m-%d").tolist()
        ['1970-01-01', '1970-01-02']
        """
        return pd.DatetimeIndex(self.to_ndarray())

    def sum(self, axis: int | tuple[int, ...] | None = None, keepdims: bool = False) -> NoReturn:
        """Not defined: dates do not sum (TypeError, as pandas).

        Parameters
        ----------
        axis : int, tuple of int or None
            Accepted for pdarray's signature.
        keepdims : bool, default False
            Accepted for pdarray's signature.

        Raises
        ------
        TypeError
            Always.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.Datetime(ak.array([0, 1]), unit="d").sum()
        Traceback (most recent call last):
        TypeError: Cannot sum datetime64 values
        """
        raise TypeError("Cannot sum datetime64 values")

    def __neg__(self) -> NoReturn:
        raise TypeError("bad operand type for unary -: 'Datetime'")

    def __abs__(self) -> NoReturn:
        raise TypeError("bad operand type for abs(): 'Datetime'")

    # ----- fields --------------------------------------------------------------------------
    def _fields(self) -> dict[str, pdarray]:
        """The calendar fields, computed once.

        The values of a Datetime are not written in place by its own methods other than
        ``+=``/``-=``/item assignment, which reset them.
        """
        f: dict[str, pdarray] | None = self.__dict__.get("_cache")
        if f is None:
            days, rest = _days_and_rest(self.values)
            year, month, day, doy, leap = _civil(days)
            dow = (days + 3) % 7  # 1970-01-01 was a Thursday; Monday is 0
            f = dict(
                days=days,
                rest=rest,
                year=year,
                month=month,
                day=day,
                day_of_year=doy,
                is_leap_year=leap,
                day_of_week=dow,
            )
            self.__dict__["_cache"] = f
        return f

    def _forget(self) -> None:
        self.__dict__.pop("_cache", None)

    def __setitem__(self, key: Any, value: Any) -> None:  # noqa: ANN401 (any index and value)
        self._forget()
        super().__setitem__(key, value)

    def _inplace(self, o: object, op: str) -> Datetime:
        self._forget()
        return super()._inplace(o, op)

    @property
    def nanosecond(self) -> pdarray:
        """The nanoseconds past the whole microsecond (0..999)."""
        return _cast(pdarray, self._fields()["rest"] % 1000)

    @property
    def microsecond(self) -> pdarray:
        """The microseconds past the whole second (0..999999)."""
        return _cast(pdarray, (self._fields()["rest"] // 1000) % 1_000_000)

    @property
    def millisecond(self) -> pdarray:
        """The milliseconds past the whole second (0..999)."""
        return _cast(pdarray, (self._fields()["rest"] // 1_000_000) % 1000)

    @property
    def second(self) -> pdarray:
        """The seconds past the whole minute (0..59)."""
        return _cast(pdarray, (self._fields()["rest"] // 10**9) % 60)

    @property
    def minute(self) -> pdarray:
        """The minutes past the whole hour (0..59)."""
        return _cast(pdarray, (self._fields()["rest"] // (60 * 10**9)) % 60)

    @property
    def hour(self) -> pdarray:
        """The hours past midnight (0..23)."""
        return _cast(pdarray, self._fields()["rest"] // (3600 * 10**9))

    @property
    def day(self) -> pdarray:
        """The day of the month (1..31)."""
        return self._fields()["day"]

    @property
    def month(self) -> pdarray:
        """The month (1..12)."""
        return self._fields()["month"]

    @property
    def year(self) -> pdarray:
        """The year."""
        return self._fields()["year"]

    @property
    def day_of_year(self) -> pdarray:
        """The day of the year (1..366)."""
        return self._fields()["day_of_year"]

    dayofyear = day_of_year

    @property
    def day_of_week(self) -> pdarray:
        """The day of the week (Monday 0 to Sunday 6)."""
        return self._fields()["day_of_week"]

    dayofweek = day_of_week
    weekday = day_of_week

    @property
    def is_leap_year(self) -> pdarray:
        """Whether the year is a leap year."""
        return self._fields()["is_leap_year"]

    @property
    def days_in_month(self) -> pdarray:
        """The number of days of the month."""
        m, leap = self.month, self.is_leap_year
        thirty = (m == 4) | (m == 6) | (m == 9) | (m == 11)
        return _cast(pdarray, where(m == 2, 28 + cast(leap, int64), 31 - cast(thirty, int64)))

    daysinmonth = days_in_month

    @property
    def quarter(self) -> pdarray:
        """The quarter of the year (1..4)."""
        return _cast(pdarray, (self.month - 1) // 3 + 1)

    @property
    def is_month_start(self) -> pdarray:
        """Whether the day is the first of its month."""
        return _cast(pdarray, self.day == 1)

    @property
    def is_month_end(self) -> pdarray:
        """Whether the day is the last of its month."""
        return _cast(pdarray, self.day == self.days_in_month)

    @property
    def is_year_start(self) -> pdarray:
        """Whether the day is January 1."""
        return _cast(pdarray, self.day_of_year == 1)

    @property
    def is_year_end(self) -> pdarray:
        """Whether the day is December 31."""
        return _cast(pdarray, (self.month == 12) & (self.day == 31))

    def _iso(self) -> tuple[pdarray, pdarray]:
        """``(iso_year, iso_week)``: the ISO 8601 week-numbering year and week."""
        f = self._fields()
        y = f["year"]
        week = (f["day_of_year"] - (f["day_of_week"] + 1) + 10) // 7
        before = week < 1
        after = week > _iso_weeks_in_year(y)
        iso_week = where(before, _iso_weeks_in_year(y - 1), where(after, 1, week))
        iso_year = y - cast(before, int64) + cast(after, int64)
        return iso_year, iso_week

    @property
    def week(self) -> pdarray:
        """The ISO 8601 week of the year (1..53), pandas' ``isocalendar().week``."""
        return self._iso()[1]

    weekofyear = week

    @property
    def date(self) -> Datetime:
        """The values at midnight (``floor("d")``), a Datetime."""
        return self.floor("d")

    def normalize(self) -> Datetime:
        """The values at midnight (``floor("d")``), as pandas' ``normalize``.

        Returns
        -------
        Datetime
            The dates.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.Datetime(ak.array([36, 50]), unit="h").normalize().day.tolist()
        [2, 3]
        """
        return self.floor("d")


class Timedelta(_AbstractBaseTime):
    """Durations: int64 nanoseconds (Arkouda's ``Timedelta``, pandas' ``TimedeltaIndex``).

    ``pda``: an int64 pdarray (of ``unit``, see ``Datetime``), a pandas
    ``TimedeltaIndex``/``Series``, a NumPy ``timedelta64`` array, a list of timedelta
    scalars, or another Timedelta (copied). ``values`` is always int64 nanoseconds.
    """

    supported_with_datetime = frozenset(("+",))
    supported_with_r_datetime = frozenset(("+", "-", "/", "//", "%"))
    supported_with_timedelta = frozenset(("==", "!=", "<", "<=", ">", ">=", "+", "-", "/", "//", "%"))
    supported_with_r_timedelta = frozenset(("==", "!=", "<", "<=", ">", ">=", "+", "-", "/", "//", "%"))
    supported_opeq = frozenset(("+=", "-=", "%="))
    supported_with_pdarray = frozenset(("*", "//"))
    supported_with_r_pdarray = frozenset(("*",))

    special_objType = "Timedelta"

    @classmethod
    def _get_callback(cls, otherclass: str, op: str) -> Callable[..., Any]:
        return _cast(
            "Callable[..., Any]",
            {
                ("Timedelta", "-"): cls,
                ("Timedelta", "+"): cls,
                ("Datetime", "+"): Datetime,
                ("Datetime", "-"): Datetime,
                ("Timedelta", "%"): cls,
                ("pdarray", "//"): cls,
                ("pdarray", "*"): cls,
            }.get((otherclass, op), _identity),
        )

    def _scalar_callback(self, v: Any) -> Any:  # noqa: ANN401 (an int; a pandas.Timedelta)
        return pd.Timedelta(builtins.int(v), unit=_BASE_UNIT)

    def _is_own_scalar(self, x: object) -> bool:
        return _is_timedelta_scalar(x)

    def to_pandas(self) -> Any:  # noqa: ANN401 (a pandas.TimedeltaIndex)
        """A pandas ``TimedeltaIndex`` (``timedelta64[ns]``).

        Returns
        -------
        pandas.TimedeltaIndex
            The values.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.Timedelta(ak.array([1, 2]), unit="h").to_pandas().total_seconds().tolist()
        [3600.0, 7200.0]
        """
        return pd.TimedeltaIndex(self.to_ndarray())

    def sum(self, axis: int | tuple[int, ...] | None = None, keepdims: bool = False) -> Any:  # noqa: ANN401 (a pandas.Timedelta)
        """The sum, a ``pandas.Timedelta``.

        Parameters
        ----------
        axis : int, tuple of int or None
            Accepted for pdarray's signature: the sum is of all values.
        keepdims : bool, default False
            Accepted for pdarray's signature.

        Returns
        -------
        pandas.Timedelta
            The total duration.

        Examples
        --------
        >>> import atoll as ak
        >>> str(ak.Timedelta(ak.array([1, 2]), unit="h").sum())
        '0 days 03:00:00'
        """
        return self._scalar_callback(self.values.sum())

    def std(self, ddof: float = 0, axis: int | tuple[int, ...] | None = None, keepdims: bool = False) -> Any:  # noqa: ANN401 (a pandas.Timedelta)
        """The standard deviation, a ``pandas.Timedelta`` (rounded to the nanosecond).

        Parameters
        ----------
        ddof : float, default 0
            Delta degrees of freedom.
        axis : int, tuple of int or None
            Accepted for pdarray's signature: the deviation is of all values.
        keepdims : bool, default False
            Accepted for pdarray's signature.

        Returns
        -------
        pandas.Timedelta
            The standard deviation.

        Examples
        --------
        >>> import atoll as ak
        >>> str(ak.Timedelta(ak.array([1, 3]), unit="s").std())
        '0 days 00:00:01'
        """
        return pd.Timedelta(builtins.round(builtins.float(self.values.std(ddof))), unit=_BASE_UNIT)

    def abs(self) -> Timedelta:
        """The absolute durations.

        Returns
        -------
        Timedelta
            The durations without their signs.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.Timedelta(ak.array([-2, 3]), unit="s").abs().seconds.tolist()
        [2, 3]
        """
        return self.__class__._from_ns(where(self.values < 0, -self.values, self.values))

    def __abs__(self) -> Timedelta:
        return self.abs()

    def __neg__(self) -> Timedelta:
        return self.__class__._from_ns(-self.values)

    def __pos__(self) -> Timedelta:
        return self

    # ----- components ----------------------------------------------------------------------
    @property
    def days(self) -> pdarray:
        """Whole days (floor, as pandas: -1ns is -1 day and 86399.999999999 seconds)."""
        return _cast(pdarray, self.values // _NS_PER_DAY)

    @property
    def seconds(self) -> pdarray:
        """Seconds past the whole days (0..86399)."""
        return _cast(pdarray, _days_and_rest(self.values)[1] // 10**9)

    @property
    def microseconds(self) -> pdarray:
        """Microseconds past the whole seconds (0..999999)."""
        return _cast(pdarray, (self.values % 10**9) // 1000)

    @property
    def nanoseconds(self) -> pdarray:
        """Nanoseconds past the whole microseconds (0..999)."""
        return _cast(pdarray, self.values % 1000)

    def total_seconds(self) -> pdarray:
        """The durations in seconds (float64).

        Returns
        -------
        pdarray
            The float64 seconds.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.Timedelta(ak.array([1500]), unit="ms").total_seconds().tolist()
        [1.5]
        """
        return _cast(pdarray, self.values / 10**9)

    def _component_arrays(self) -> dict[str, pdarray]:
        """The arrays of pandas' ``components``.

        Days, hours, minutes, seconds, milliseconds, microseconds, nanoseconds (all but days
        nonnegative).
        """
        days, rest = _days_and_rest(self.values)
        return {
            "days": days,
            "hours": rest // (3600 * 10**9),
            "minutes": (rest // (60 * 10**9)) % 60,
            "seconds": (rest // 10**9) % 60,
            "milliseconds": (rest // 10**6) % 1000,
            "microseconds": (rest // 1000) % 1000,
            "nanoseconds": rest % 1000,
        }


def date_range(
    start: Any = None,  # noqa: ANN401 (a datetime-like)
    end: Any = None,  # noqa: ANN401 (a datetime-like)
    periods: int | None = None,
    freq: Any = None,  # noqa: ANN401 (a frequency string or offset)
    tz: Any = None,  # noqa: ANN401 (a time zone name or object)
    normalize: bool = False,
    name: str | None = None,
    inclusive: str = "both",
    **kwargs: Any,  # noqa: ANN401 (pandas' other arguments)
) -> Datetime:
    """A Datetime of regularly spaced times: ``pandas.date_range`` with the same arguments.

    Exactly three of ``start``, ``end``, ``periods``, ``freq`` are given; the values are made
    on the driver.

    Parameters
    ----------
    start, end : datetime-like, optional
        The bounds.
    periods : int, optional
        The number of times.
    freq : str or offset, optional
        The spacing.
    tz : str or tzinfo, optional
        The time zone of the bounds (the values are UTC nanoseconds).
    normalize : bool, default False
        Bounds at midnight.
    name : str, optional
        Accepted for pandas' signature.
    inclusive : {"both", "neither", "left", "right"}
        Which bounds are included.
    **kwargs
        pandas' other arguments.

    Returns
    -------
    Datetime
        The times.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.date_range("2024-01-30", periods=3, freq="D").day.tolist()
    [30, 31, 1]
    """
    return Datetime(
        pd.date_range(start, end, periods, freq, tz=tz, normalize=normalize, name=name, inclusive=inclusive, **kwargs)
    )


def timedelta_range(
    start: Any = None,  # noqa: ANN401 (a timedelta-like)
    end: Any = None,  # noqa: ANN401 (a timedelta-like)
    periods: int | None = None,
    freq: Any = None,  # noqa: ANN401 (a frequency string or offset)
    name: str | None = None,
    closed: str | None = None,
    **kwargs: Any,  # noqa: ANN401 (pandas' other arguments)
) -> Timedelta:
    """A Timedelta of regularly spaced durations: ``pandas.timedelta_range`` with the same arguments.

    The values are made on the driver.

    Parameters
    ----------
    start, end : timedelta-like, optional
        The bounds.
    periods : int, optional
        The number of durations.
    freq : str or offset, optional
        The spacing.
    name : str, optional
        Accepted for pandas' signature.
    closed : {"left", "right"}, optional
        Which bound is included (default both).
    **kwargs
        pandas' other arguments.

    Returns
    -------
    Timedelta
        The durations.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.timedelta_range("1h", periods=3, freq="30min").total_seconds().tolist()
    [3600.0, 5400.0, 7200.0]
    """
    return Timedelta(pd.timedelta_range(start, end, periods, freq, name=name, closed=closed, **kwargs))


def is_time(x: object) -> bool:
    """Whether ``x`` is a Datetime or a Timedelta.

    Parameters
    ----------
    x : object
        Any object.

    Returns
    -------
    bool
        True for a Datetime or a Timedelta.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.numpy.timeclass import Timedelta, is_time
    >>> is_time(Timedelta(ak.array([1]))), is_time(ak.array([1]))
    (True, False)
    """
    return isinstance(x, _AbstractBaseTime)
