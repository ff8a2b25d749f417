r"""Arkouda's ``arkouda.numpy.char``: NumPy's character scalar types and ``isnumeric`` of Strings.

>>> import atoll as ak
>>> from atoll.numpy import char
>>> char.isnumeric(ak.array(["12", "3.5", "\u00b2", "x1"])).tolist()
[True, False, True, False]
"""

from __future__ import annotations

from numpy import bool_, character, int_, integer, object_, str_

from .pdarrayclass import pdarray
from .strings import Strings

__all__ = ["bool_", "character", "int_", "integer", "object_", "str_", "isnumeric"]


def isnumeric(pda: Strings) -> pdarray:
    """Where every character of the string is numeric, as ``numpy.char.isnumeric``.

    Numeric in Unicode's sense (digits, superscripts, fractions, ...; ``str.isnumeric``), and
    the string not empty.

    Parameters
    ----------
    pda : Strings
        The strings.

    Returns
    -------
    pdarray
        A bool pdarray, True where the string is numeric.

    Raises
    ------
    TypeError
        ``pda`` is not a Strings.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.numpy.char.isnumeric(ak.array(["12", "1.5", ""])).tolist()
    [True, False, False]
    """
    if not isinstance(pda, Strings):
        raise TypeError(f"input to isnumeric must be Strings, got {type(pda).__name__}")
    return pda.isnumeric()
