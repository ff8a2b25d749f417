"""Arkouda's ``arkouda.numpy.char``: NumPy's character scalar types and ``isnumeric`` of Strings.

>>> import atoll as ak
>>> from atoll.numpy import char
>>> char.isnumeric(ak.array(["12", "3.5", "\\u00b2", "x1"])).tolist()
[True, False, True, False]
"""

from numpy import bool_, character, int_, integer, object_, str_

from .strings import Strings

__all__ = ["bool_", "character", "int_", "integer", "object_", "str_", "isnumeric"]


def isnumeric(pda):
    """True where every character of the string is numeric in Unicode's sense (digits,
    superscripts, fractions, ...; ``str.isnumeric``) and the string is not empty, as
    ``numpy.char.isnumeric``. A ``TypeError`` unless ``pda`` is a Strings."""
    if not isinstance(pda, Strings):
        raise TypeError(f"input to isnumeric must be Strings, got {type(pda).__name__}")
    return pda.isnumeric()
