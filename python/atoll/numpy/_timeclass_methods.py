"""Methods of ``Datetime`` and ``Timedelta`` that give a ``DataFrame``.

``isocalendar`` and ``components`` give a type above ``atoll.numpy.timeclass``: defined here
and set on the classes by ``atoll._attach.attach``; the root ``atoll/__init__.py`` runs this
module.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._attach import attach
from ..pandas.dataframe import DataFrame
from .timeclass import Datetime, Timedelta

if TYPE_CHECKING:
    _DatetimeBase = Datetime  # the methods see the class they are set on
    _TimedeltaBase = Timedelta
else:
    _DatetimeBase = _TimedeltaBase = object


class _DatetimeMethods(_DatetimeBase):
    def isocalendar(self) -> DataFrame:
        """The ISO 8601 calendar of each date, as pandas' ``isocalendar()``.

        A DataFrame of ``year``, ``week`` and ``day`` (1 for Monday .. 7 for Sunday).
        """
        iso_year, iso_week = self._iso()
        return DataFrame({"year": iso_year, "week": iso_week, "day": self.day_of_week + 1})


class _TimedeltaMethods(_TimedeltaBase):
    @property
    def components(self) -> DataFrame:
        """The parts of each duration, as pandas' ``components``.

        A DataFrame of days, hours, minutes, seconds, milliseconds, microseconds and
        nanoseconds.
        """
        return DataFrame(self._component_arrays())


attach(Datetime, _DatetimeMethods)
attach(Timedelta, _TimedeltaMethods)
