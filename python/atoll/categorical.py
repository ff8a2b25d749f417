"""``ak.Categorical``: defined in ``atoll.pandas.categorical``.

Arkouda's ``arkouda.pandas.categorical``.
"""

from .pandas.categorical import Categorical  # noqa: F401

__all__ = ["Categorical"]
