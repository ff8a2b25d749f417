"""Conversion of pandas objects to Atoll arrays, as Arkouda's ``arkouda.pandas.conversion``.

``from_series`` gives a pdarray (or Strings) of a pandas Series' values; it is defined with
the other array constructors (``atoll.numpy.pdarraycreation``) and is ``ak.from_series``.

Examples
--------
>>> import pandas as pd
>>> from atoll.pandas.conversion import from_series
>>> from_series(pd.Series([1, 2, 3])).tolist()
[1, 2, 3]
>>> from_series(pd.Series(["a", "b"], dtype="string[python]")).tolist()
['a', 'b']
"""

from __future__ import annotations

from ..numpy.pdarraycreation import from_series

__all__ = ["from_series"]
