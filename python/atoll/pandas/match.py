r"""Arkouda's ``arkouda.pandas.match``: ``Match``, the result of a regular-expression search.

``Strings.search``, ``Strings.match`` and ``Strings.fullmatch`` (or ``Matcher.get_match``)
give one.

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

from __future__ import annotations

import re as _re
from enum import Enum
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _atoll
from ..numpy.numeric import where
from ..numpy.pdarrayclass import pdarray
from ..numpy.pdarraycreation import arange, array

if TYPE_CHECKING:
    from ..numpy.strings import Strings

__all__ = ["Match", "MatchType"]

MatchType = Enum("MatchType", ["SEARCH", "MATCH", "FULLMATCH"])

# The most capture groups a pattern may have (Arkouda's server limit, regexMaxCaptures).
REGEX_MAX_CAPTURES = 20

_INLINE = ((_re.IGNORECASE, "i"), (_re.MULTILINE, "m"), (_re.DOTALL, "s"))


def _match_type(x: object) -> MatchType:
    if isinstance(x, MatchType):
        return x
    if isinstance(x, str) and x.upper() in MatchType.__members__:
        return MatchType[x.upper()]
    raise ValueError(f"match_type: expected 'search', 'match' or 'fullmatch', got {x!r}")


class Match:
    """The matches of a pattern in Strings (see the module).

    Parameters
    ----------
    matched : pdarray
        bool, one per string: whether the pattern matched it.
    starts : pdarray
        int64, one per string: the start of its match in characters (-1 where none).
    lengths : pdarray
        int64, one per string: the length of its match in characters (0 where none).
    parent : Strings, optional
        The Strings searched (``find_matches`` and ``group`` need it).
    pattern : str, optional
        The pattern (``find_matches`` and ``group`` need it).
    match_type : MatchType or str, default "SEARCH"
        A ``MatchType`` or its name.
    flags : int, default 0
        ``re.IGNORECASE``, ``re.MULTILINE``, ``re.DOTALL`` or a combination.

    Raises
    ------
    ValueError
        ``match_type`` names no kind of match.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.pandas.match import Match
    >>> m = Match(ak.array([True, False]), ak.array([1, -1]), ak.array([2, 0]))
    >>> m.end().tolist(), m.match_type()
    ([3], 'SEARCH')
    """

    def __init__(
        self,
        matched: pdarray,
        starts: pdarray,
        lengths: pdarray,
        parent: Strings | None = None,
        pattern: str | None = None,
        match_type: MatchType | str = "SEARCH",
        flags: int = 0,
    ) -> None:
        self._objtype = type(self).__name__
        self._matched = matched
        self._starts_all = starts
        self._lengths_all = lengths
        self._parent_obj = parent
        self._match_type = _match_type(match_type)
        self._flags = int(flags)
        self.re = pattern

    # ----- display ----------------------------------------------------------------------
    def __getitem__(self, item: int) -> str:
        """``'matched=True, span=(start, end)'`` for string ``item``, or ``'matched=False'``."""
        if not self._matched[item]:
            return "matched=False"
        s = int(self._starts_all[item])
        return f"matched=True, span=({s}, {s + int(self._lengths_all[item])})"

    def __str__(self) -> str:
        n = self._matched.size
        idx = list(range(n)) if n <= 100 else [0, 1, 2, None, n - 3, n - 2, n - 1]
        vals = ["... " if i is None else self[i] for i in idx]
        return f"<ak.{self._objtype} object: {'; '.join(vals)}>"

    def __repr__(self) -> str:
        return self.__str__()

    # ----- per string -------------------------------------------------------------------
    def matched(self) -> pdarray:
        """Whether each string matched.

        Returns
        -------
        pdarray
            bool, one per string.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array(["ab", "b"]).search("a").matched().tolist()
        [True, False]
        """
        return self._matched

    def starts(self) -> pdarray:
        """The start of each string's match (-1 where there is none), one per string.

        Returns
        -------
        pdarray
            int64, in characters.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array(["xab", "b"]).search("a").starts().tolist()
        [1, -1]
        """
        return self._starts_all

    def ends(self) -> pdarray:
        """The end of each string's match (-1 where there is none), one per string.

        Returns
        -------
        pdarray
            int64, in characters.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array(["xab", "b"]).search("ab").ends().tolist()
        [3, -1]
        """
        out: pdarray = where(self._matched, self._starts_all + self._lengths_all, -1)
        return out

    def lengths(self) -> pdarray:
        """The length of each string's match in characters (0 where there is none).

        Returns
        -------
        pdarray
            int64, one per string.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array(["xaab", "b"]).search("a+").lengths().tolist()
        [2, 0]
        """
        return self._lengths_all

    # ----- per match (Arkouda's) --------------------------------------------------------
    def start(self) -> pdarray:
        """The start of each match, one per matched string (``re.Match.start``).

        Returns
        -------
        pdarray
            int64, in characters.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array(["xab", "b", "a"]).search("a").start().tolist()
        [1, 0]
        """
        out: pdarray = self._starts_all[self._matched]
        return out

    def end(self) -> pdarray:
        """The end of each match, one per matched string (``re.Match.end``).

        Returns
        -------
        pdarray
            int64, in characters.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array(["xab", "b", "a"]).search("a").end().tolist()
        [2, 1]
        """
        out: pdarray = (self._starts_all + self._lengths_all)[self._matched]
        return out

    def match_type(self) -> str:
        """The kind of match.

        Returns
        -------
        str
            ``'SEARCH'``, ``'MATCH'`` or ``'FULLMATCH'``.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array(["a"]).fullmatch("a").match_type()
        'FULLMATCH'
        """
        return self._match_type.name

    def _parent(self) -> Any:  # noqa: ANN401 (Strings, whose attached ``__getitem__`` mypy does not see)
        if self._parent_obj is None or self.re is None:
            raise ValueError("this Match does not know its Strings and pattern (make it with Strings.search)")
        return self._parent_obj

    def _origins(self) -> pdarray:
        out: pdarray = arange(self._matched.size)[self._matched]
        return out

    def find_matches(self, return_match_origins: bool = False) -> Any:  # noqa: ANN401 (Strings, or a pair)
        """The matched substrings, one per matched string, as Strings.

        Parameters
        ----------
        return_match_origins : bool, default False
            Also give the index of the string each one is from.

        Returns
        -------
        Strings or tuple of (Strings, pdarray)
            The substrings, and with ``return_match_origins`` their strings' indices.

        Raises
        ------
        ValueError
            The Match was made without its Strings and pattern.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array(["a12", "b", "3"]).search("[0-9]+").find_matches().tolist()
        ['12', '3']
        """
        parent = self._parent()
        if self._match_type == MatchType.FULLMATCH:
            out = parent[self._matched]
        else:
            # A string's first non-overlapping match is its leftmost match: the search's,
            # and the match's where that starts the string.
            inline = "".join(c for f, c in _INLINE if self._flags & f)
            pattern = f"(?{inline}){self.re}" if inline else str(self.re)
            pieces, first_raw = _atoll.str_split_py(parent._s, pattern, findall=True)
            first = pdarray(first_raw)
            out = type(parent)(pieces)[first[self._matched]]
        return (out, self._origins()) if return_match_origins else out

    def group(self, group_num: int = 0, return_group_origins: bool = False) -> Any:  # noqa: ANN401 (Strings, or a pair)
        r"""Capture group ``group_num`` of each match, one per matched string, as Strings.

        Parameters
        ----------
        group_num : int, default 0
            The group (0: the whole match).
        return_group_origins : bool, default False
            Also give the index of the string each one is from.

        Returns
        -------
        Strings or tuple of (Strings, pdarray)
            The groups (the empty string for a group that takes no part in a match), and
            with ``return_group_origins`` their strings' indices.

        Raises
        ------
        TypeError
            ``group_num`` is not an int.
        ValueError
            ``group_num`` is negative or above the pattern's groups, or the Match was made
            without its Strings and pattern.

        Examples
        --------
        >>> import atoll as ak
        >>> m = ak.array(["k=1", "x", "j=22"]).search(r"(\w)=(\d+)")
        >>> m.group(2).tolist()
        ['1', '22']
        >>> out, origins = m.group(1, return_group_origins=True)
        >>> out.tolist(), origins.tolist()
        (['k', 'j'], [0, 2])
        """
        if not isinstance(group_num, (int, np.integer)) or isinstance(group_num, (bool, np.bool_)):
            raise TypeError(f"group_num: expected an int, got {type(group_num).__name__}")
        group_num = int(group_num)
        if group_num < 0:
            raise ValueError("group_num cannot be negative")
        if group_num > REGEX_MAX_CAPTURES:
            raise ValueError(f"group_num={group_num} > regexMaxCaptures={REGEX_MAX_CAPTURES}")
        parent = self._parent()
        rx = _re.compile(str(self.re), self._flags)
        if group_num > rx.groups:
            raise ValueError(f"group_num={group_num}: the pattern {self.re!r} has {rx.groups} group(s)")
        if group_num == 0:
            return self.find_matches(return_match_origins=return_group_origins)
        find = {MatchType.SEARCH: rx.search, MatchType.MATCH: rx.match, MatchType.FULLMATCH: rx.fullmatch}[
            self._match_type
        ]
        vals: list[str] = []
        for s in parent[self._matched].to_list():
            m = find(s)
            g = m.group(group_num) if m is not None else None
            vals.append("" if g is None else g)
        out = array(np.array(vals, dtype=str)) if vals else parent[self._matched]
        return (out, self._origins()) if return_group_origins else out
