"""Methods of ``Datetime`` and ``Timedelta`` that give a ``DataFrame`` (``isocalendar``,
``components``), a type above ``atoll.numpy.timeclass``: defined here and set on the classes
by ``atoll._attach.attach``; the root ``atoll/__init__.py`` runs this module."""

from .._attach import attach
from ..pandas.dataframe import DataFrame
from .timeclass import Datetime, Timedelta


class _DatetimeMethods:
    def isocalendar(self):
        """pandas' ``isocalendar()``: a DataFrame of the ISO 8601 ``year``, ``week`` and
        ``day`` (1 for Monday .. 7 for Sunday)."""
        iso_year, iso_week = self._iso()
        return DataFrame({"year": iso_year, "week": iso_week, "day": self.day_of_week + 1})


class _TimedeltaMethods:
    @property
    def components(self):
        """pandas' ``components``: a DataFrame of days, hours, minutes, seconds, milliseconds,
        microseconds and nanoseconds."""
        return DataFrame(self._component_arrays())


attach(Datetime, _DatetimeMethods)
attach(Timedelta, _TimedeltaMethods)
