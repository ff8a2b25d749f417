"""Arkouda's ``Row``: one row of a DataFrame, a dict of column name -> value."""

from __future__ import annotations

from collections import UserDict
from typing import Any

__all__ = ["Row"]


class Row(UserDict[Any, Any]):
    """A dict of column name -> value, printed as a two-column table.

    Parameters
    ----------
    dict : mapping, optional
        The column names and values (as ``dict``'s constructor takes them).
    **kwargs
        More names and values.

    Examples
    --------
    >>> from atoll.pandas.row import Row
    >>> r = Row({"a": 1, "bb": 2.5})
    >>> r
    {'a': 1, 'bb': 2.5}
    >>> print(r)
    a     1
    bb    2.5
    """

    def __str__(self) -> str:
        keys = [str(k) for k in self.keys()]
        width = max((len(k) for k in keys), default=0) + 4
        return "\n".join(f"{k:<{width}}{v}" for k, v in zip(keys, self.values()))

    def __repr__(self) -> str:
        return repr(dict(self))

    def _repr_html_(self) -> str:
        rows = "".join(f"<tr><td>{k}</td><td>{v}</td></tr>" for k, v in self.items())
        return f"<table><tr><th>keys</th><th>values</th></tr>{rows}</table>"
