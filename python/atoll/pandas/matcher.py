"""Arkouda's ``arkouda.pandas.matcher``: ``Matcher``, a regular expression bound to Strings,
whose ``get_match`` gives the ``Match`` of a search, match or fullmatch, and whose
``findall``, ``sub`` and ``split`` are the Strings' methods of the same pattern.

>>> import atoll as ak
>>> from atoll.pandas.matcher import Matcher
>>> m = Matcher("[0-9]+", ak.array(["a1b22", "ccc", "333"]))
>>> m.get_match("match").matched().tolist()
[False, False, True]
>>> m.findall(return_match_origins=True)[0].tolist()
['1', '22', '333']
>>> m.sub("#").tolist()
['a#b#', 'ccc', '#']
"""

import re as _re

from .. import _atoll
from ..numpy.pdarrayclass import pdarray
from ..numpy.strings import Strings, _flags
from .match import Match, MatchType, _match_type

__all__ = ["Matcher", "MatchType"]


class Matcher:
    """The pattern ``pattern`` (checked by Python's ``re``: ``ValueError`` when it does not
    compile) over the Strings ``parent``, with ``re`` flags ``flags``."""

    LocationsInfo = frozenset(["matched", "starts", "lengths"])

    def __init__(self, pattern, parent, flags=0):
        if not isinstance(pattern, str):
            raise TypeError(f"pattern: expected a str, got {type(pattern).__name__}")
        if not isinstance(parent, Strings):
            raise TypeError(f"parent: expected Strings, got {type(parent).__name__}")
        try:
            _re.compile(pattern, flags)
        except _re.error as e:
            raise ValueError(e) from None
        self.objType = type(self).__name__
        self.pattern = pattern
        self.parent = parent
        self.flags = int(flags)
        self._found = {}

    def get_match(self, match_type, parent=None):
        """The ``Match`` of ``match_type`` (a ``MatchType`` or ``'search'``, ``'match'``,
        ``'fullmatch'``) of the pattern in the Strings (``parent`` when given)."""
        kind = _match_type(match_type)
        strings = self.parent if parent is None else parent
        if not isinstance(strings, Strings):
            raise TypeError(f"parent: expected Strings, got {type(strings).__name__}")
        key = (kind, id(strings))
        if key not in self._found:
            m, s, l = _atoll.str_val_py(strings._s, kind.name.lower(), a=self.pattern, flags=_flags(self.flags))
            self._found[key] = (pdarray(m), pdarray(s), pdarray(l))
        m, s, l = self._found[key]
        return Match(m, s, l, parent=strings, pattern=self.pattern, match_type=kind, flags=self.flags)

    def findall(self, return_match_origins=False):
        """Every non-overlapping match in every string (``Strings.findall``)."""
        return self.parent.findall(self.pattern, return_match_origins=return_match_origins)

    def sub(self, repl, count=0, return_num_subs=False):
        """The strings with matches replaced by ``repl`` (the first ``count`` when positive;
        with ``return_num_subs`` also the number of replacements in each)."""
        out, n = self.parent.subn(self.pattern, repl, count)
        return (out, n) if return_num_subs else out

    def split(self, maxsplit=0, return_segments=False):
        """The pieces between matches (``Strings.regex_split``)."""
        return self.parent.regex_split(self.pattern, maxsplit=maxsplit, return_segments=return_segments)
