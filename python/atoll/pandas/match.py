r"""Arkouda's ``arkouda.pandas.match``: ``Match``, the result of ``Strings.search``,
``Strings.match`` and ``Strings.fullmatch`` (or ``Matcher.get_match``).

A ``Match`` holds, for each string, whether the pattern matched it and where the first match
is (computed on every locale over its own strings). ``matched()`` is a bool pdarray with one
element per string; ``start()`` and ``end()`` give the span of each match, one element per
*matched* string (as ``re.Match.start``/``end``, in characters); ``find_matches()`` the
matched substrings and ``group(n)`` the ``n``-th capture group of each match, with
``return_match_origins``/``return_group_origins`` also the index of the string each comes
from. ``match_type()`` is ``'SEARCH'``, ``'MATCH'`` or ``'FULLMATCH'``.

>>> import atoll as ak
>>> from atoll.pandas.matcher import Matcher
>>> strings = ak.array(["1_2___", "____", "3", "__4___5____6___7", ""])
>>> m = Matcher("_+", strings).get_match("search")
>>> m.matched().tolist()
[True, True, False, True, False]
>>> m.start().tolist(), m.end().tolist()
([1, 0, 0], [2, 4, 2])
>>> m.match_type()
'SEARCH'
>>> matches, origins = m.find_matches(return_match_origins=True)
>>> matches.tolist(), origins.tolist()
(['_', '____', '__'], [0, 1, 3])
>>> m[1]
'matched=True, span=(0, 4)'
>>> people = ak.array(["Isaac Newton, physics", "<-calculus->", "Gottfried Leibniz, math"])
>>> Matcher(r"(\w+) (\w+)", people).get_match("search").group(2).tolist()
['Newton', 'Leibniz']

Group 0 and the matches are found on the locales (the first match of each string);
groups 1 and above are found by Python's ``re`` on the driver, over the matched strings
(Atoll's regular expressions are the Rust ``regex`` crate's, which agrees with ``re`` on
the patterns both accept; a group that takes no part in a match gives the empty string).
"""

import re as _re
from enum import Enum

import numpy as np

from .. import _atoll
from ..numpy.numeric import where
from ..numpy.pdarrayclass import pdarray
from ..numpy.pdarraycreation import arange, array

__all__ = ["Match", "MatchType"]

MatchType = Enum("MatchType", ["SEARCH", "MATCH", "FULLMATCH"])

# The most capture groups a pattern may have (Arkouda's server limit, regexMaxCaptures).
REGEX_MAX_CAPTURES = 20

_INLINE = ((_re.IGNORECASE, "i"), (_re.MULTILINE, "m"), (_re.DOTALL, "s"))


def _match_type(x):
    if isinstance(x, MatchType):
        return x
    if isinstance(x, str) and x.upper() in MatchType.__members__:
        return MatchType[x.upper()]
    raise ValueError(f"match_type: expected 'search', 'match' or 'fullmatch', got {x!r}")


class Match:
    """The matches of a pattern in Strings (see the module). ``matched``, ``starts`` and
    ``lengths`` are pdarrays with one element per string (bool; int64 start and length in
    characters, -1 and 0 where there is no match); ``parent`` is the Strings searched,
    ``pattern`` and ``flags`` (``re.IGNORECASE``, ``re.MULTILINE``, ``re.DOTALL``) the
    pattern, ``match_type`` a ``MatchType`` or its name."""

    def __init__(self, matched, starts, lengths, parent=None, pattern=None, match_type="SEARCH", flags=0):
        self._objtype = type(self).__name__
        self._matched = matched
        self._starts_all = starts
        self._lengths_all = lengths
        self._parent_obj = parent
        self._match_type = _match_type(match_type)
        self._flags = int(flags)
        self.re = pattern

    # ----- display ----------------------------------------------------------------------
    def __getitem__(self, item):
        """``'matched=True, span=(start, end)'`` for string ``item``, ``'matched=False'``
        where it did not match."""
        if not self._matched[item]:
            return "matched=False"
        s = int(self._starts_all[item])
        return f"matched=True, span=({s}, {s + int(self._lengths_all[item])})"

    def __str__(self):
        n = self._matched.size
        idx = list(range(n)) if n <= 100 else [0, 1, 2, None, n - 3, n - 2, n - 1]
        vals = ["... " if i is None else self[i] for i in idx]
        return f"<ak.{self._objtype} object: {'; '.join(vals)}>"

    def __repr__(self):
        return self.__str__()

    # ----- per string -------------------------------------------------------------------
    def matched(self):
        """A bool pdarray: whether each string matched."""
        return self._matched

    def starts(self):
        """The start of each string's match (-1 where there is none), one per string."""
        return self._starts_all

    def ends(self):
        """The end of each string's match (-1 where there is none), one per string."""
        return where(self._matched, self._starts_all + self._lengths_all, -1)

    def lengths(self):
        """The length of each string's match in characters (0 where there is none)."""
        return self._lengths_all

    # ----- per match (Arkouda's) --------------------------------------------------------
    def start(self):
        """The start of each match, one per matched string (``re.Match.start``)."""
        return self._starts_all[self._matched]

    def end(self):
        """The end of each match, one per matched string (``re.Match.end``)."""
        return (self._starts_all + self._lengths_all)[self._matched]

    def match_type(self):
        """``'SEARCH'``, ``'MATCH'`` or ``'FULLMATCH'``."""
        return self._match_type.name

    def _parent(self):
        if self._parent_obj is None or self.re is None:
            raise ValueError("this Match does not know its Strings and pattern (make it with Strings.search)")
        return self._parent_obj

    def _origins(self):
        return arange(self._matched.size)[self._matched]

    def find_matches(self, return_match_origins=False):
        """The matched substrings, one per matched string, as Strings; with
        ``return_match_origins`` also the index of the string each one is from."""
        parent = self._parent()
        if self._match_type == MatchType.FULLMATCH:
            out = parent[self._matched]
        else:
            # A string's first non-overlapping match is its leftmost match: the search's,
            # and the match's where that starts the string.
            inline = "".join(c for f, c in _INLINE if self._flags & f)
            pattern = f"(?{inline}){self.re}" if inline else self.re
            pieces, first = _atoll.str_split_py(parent._s, pattern, findall=True)
            first = pdarray(first)
            out = type(parent)(pieces)[first[self._matched]]
        return (out, self._origins()) if return_match_origins else out

    def group(self, group_num=0, return_group_origins=False):
        """Capture group ``group_num`` of each match (0: the whole match), one per matched
        string, as Strings; with ``return_group_origins`` also the index of the string each
        one is from. ``ValueError`` for a negative number or one above the pattern's groups."""
        if not isinstance(group_num, (int, np.integer)) or isinstance(group_num, (bool, np.bool_)):
            raise TypeError(f"group_num: expected an int, got {type(group_num).__name__}")
        group_num = int(group_num)
        if group_num < 0:
            raise ValueError("group_num cannot be negative")
        if group_num > REGEX_MAX_CAPTURES:
            raise ValueError(f"group_num={group_num} > regexMaxCaptures={REGEX_MAX_CAPTURES}")
        parent = self._parent()
        rx = _re.compile(self.re, self._flags)
        if group_num > rx.groups:
            raise ValueError(f"group_num={group_num}: the pattern {self.re!r} has {rx.groups} group(s)")
        if group_num == 0:
            return self.find_matches(return_match_origins=return_group_origins)
        find = {MatchType.SEARCH: rx.search, MatchType.MATCH: rx.match, MatchType.FULLMATCH: rx.fullmatch}[
            self._match_type
        ]
        vals = []
        for s in parent[self._matched].to_list():
            m = find(s)
            g = m.group(group_num) if m is not None else None
            vals.append("" if g is None else g)
        out = array(np.array(vals, dtype=str)) if vals else parent[self._matched]
        return (out, self._origins()) if return_group_origins else out
