"""``ak.GroupBy`` and ``ak.broadcast``: defined in ``atoll.pandas.groupbyclass``.

Arkouda's ``arkouda.pandas.groupbyclass``.
"""

from .pandas.groupbyclass import GroupBy, broadcast  # noqa: F401

__all__ = ["GroupBy", "broadcast"]
