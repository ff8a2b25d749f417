"""Arkouda's ``arkouda.pandas.matcher``: ``Matcher``, a regular expression bound to Strings.

Its ``get_match`` gives the ``Match`` of a search, match or fullmatch, and its ``findall``,
``sub`` and ``split`` are the Strings' methods of the same pattern.

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

from __future__ import annotations

import re as _re
from typing import Any

from .. import _atoll
from ..numpy.pdarrayclass import pdarray
from ..numpy.strings import Strings, _flags
from .match import Match, MatchType, _match_type

__all__ = ["Matcher", "MatchType"]


class Matcher:
    """A regular expression over Strings.

    Parameters
    ----------
    pattern : str
        The regular expression (Python's ``re`` syntax).
    parent : Strings
        The strings to search.
    flags : int or re.RegexFlag, default 0
        ``re`` flags.

    Raises
    ------
    TypeError
        ``pattern`` is not a str or ``parent`` not Strings.
    ValueError
        ``pattern`` does not compile.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.pandas.matcher import Matcher
    >>> Matcher("b+", ak.array(["abb", "c"])).get_match("search").matched().tolist()
    [True, False]
    """

    LocationsInfo = frozenset(["matched", "starts", "lengths"])

    def __init__(self, pattern: str, parent: Strings, flags: int = 0) -> None:
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
        self._found: dict[tuple[MatchType, int], tuple[pdarray, pdarray, pdarray]] = {}

    def get_match(self, match_type: MatchType | str, parent: Strings | None = None) -> Match:
        """The ``Match`` of a search, match or fullmatch of the pattern.

        Parameters
        ----------
        match_type : MatchType or str
            ``MatchType.SEARCH``, ``MATCH`` or ``FULLMATCH``, or ``'search'``, ``'match'``,
            ``'fullmatch'``.
        parent : Strings, optional
            The strings to search (default the Matcher's).

        Returns
        -------
        Match
            Where the pattern matched, and what.

        Raises
        ------
        TypeError
            ``parent`` is not Strings.
        ValueError
            ``match_type`` names no kind of match.

        Examples
        --------
        >>> import atoll as ak
        >>> from atoll.pandas.matcher import Matcher
        >>> m = Matcher("a.", ak.array(["ab", "xab"]))
        >>> m.get_match("match").matched().tolist()
        [True, False]
        >>> m.get_match("fullmatch", ak.array(["ac", "abc"])).matched().tolist()
        [True, False]
        """
        kind = _match_type(match_type)
        strings = self.parent if parent is None else parent
        if not isinstance(strings, Strings):
            raise TypeError(f"parent: expected Strings, got {type(strings).__name__}")
        key = (kind, id(strings))
        if key not in self._found:
            found = _atoll.str_val_py(strings._s, kind.name.lower(), a=self.pattern, flags=_flags(self.flags))
            self._found[key] = (pdarray(found[0]), pdarray(found[1]), pdarray(found[2]))
        m, s, l = self._found[key]
        return Match(m, s, l, parent=strings, pattern=self.pattern, match_type=kind, flags=self.flags)

    def _strings(self) -> Any:  # noqa: ANN401 (Strings, with the methods mypy does not see)
        # ``findall`` and ``subn`` are set on Strings by ``atoll.numpy._strings_methods``.
        return self.parent

    def findall(self, return_match_origins: bool = False) -> Any:  # noqa: ANN401 (Strings, or a tuple with the origins)
        """Every non-overlapping match in every string (``Strings.findall``).

        Parameters
        ----------
        return_match_origins : bool, default False
            Also give, for each match, the index of its string.

        Returns
        -------
        Strings or tuple
            The matches, and with ``return_match_origins`` the pdarray of their strings'
            indices as well.

        Examples
        --------
        >>> import atoll as ak
        >>> from atoll.pandas.matcher import Matcher
        >>> Matcher("[0-9]", ak.array(["a1b2", "c3"])).findall().tolist()
        ['1', '2', '3']
        """
        return self._strings().findall(self.pattern, return_match_origins=return_match_origins)

    def sub(self, repl: str, count: int = 0, return_num_subs: bool = False) -> Any:  # noqa: ANN401 (Strings, or a pair)
        """The strings with matches replaced by ``repl``.

        Parameters
        ----------
        repl : str
            The replacement (``re``'s syntax, with group references).
        count : int, default 0
            The most replacements in each string; 0 for every match.
        return_num_subs : bool, default False
            Also give the number of replacements in each string.

        Returns
        -------
        Strings or tuple of (Strings, pdarray)
            The new strings, and with ``return_num_subs`` the counts.

        Examples
        --------
        >>> import atoll as ak
        >>> from atoll.pandas.matcher import Matcher
        >>> out, n = Matcher("o", ak.array(["foo", "bar"])).sub("0", return_num_subs=True)
        >>> out.tolist(), n.tolist()
        (['f00', 'bar'], [2, 0])
        """
        out, n = self._strings().subn(self.pattern, repl, count)
        return (out, n) if return_num_subs else out

    def split(self, maxsplit: int = 0, return_segments: bool = False) -> Any:  # noqa: ANN401 (Strings, or a pair)
        """The pieces between matches (``Strings.regex_split``).

        Parameters
        ----------
        maxsplit : int, default 0
            The most splits in each string; 0 for every match.
        return_segments : bool, default False
            Also give the offset of each string's first piece.

        Returns
        -------
        Strings or tuple of (Strings, pdarray)
            The pieces, and with ``return_segments`` the offsets.

        Examples
        --------
        >>> import atoll as ak
        >>> from atoll.pandas.matcher import Matcher
        >>> Matcher("-", ak.array(["a-b", "c"])).split().tolist()
        ['a', 'b', 'c']
        """
        return self.parent.regex_split(self.pattern, maxsplit=maxsplit, return_segments=return_segments)
