"""Arkouda's ``Row``: one row of a DataFrame, a dict of column name -> value."""

from collections import UserDict

__all__ = ["Row"]


class Row(UserDict):
    """A dict of column name -> value, printed as a two-column table."""

    def __str__(self):
        keys = [str(k) for k in self.keys()]
        width = max((len(k) for k in keys), default=0) + 4
        return "\n".join(f"{k:<{width}}{v}" for k, v in zip(keys, self.values()))

    def __repr__(self):
        return repr(dict(self))

    def _repr_html_(self):
        rows = "".join(f"<tr><td>{k}</td><td>{v}</td></tr>" for k, v in self.items())
        return f"<table><tr><th>keys</th><th>values</th></tr>{rows}</table>"
