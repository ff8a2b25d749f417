"""Methods of ``Strings`` that call modules above ``atoll.numpy.strings``.

Numeric functions, creation, concatenation, string grouping and ``atoll.pandas.match``'s
``Match``: defined here, where both are known, and set on the class by
``atoll._attach.attach``; the root ``atoll/__init__.py`` runs this module.
"""

from __future__ import annotations

import builtins
import re as _re
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _atoll
from .._attach import attach
from ..pandas.match import Match
from ..str_groupby import string_ranks
from .numeric import cast, where
from .pdarrayclass import cumsum, pdarray
from .pdarraycreation import arange, array, full
from .pdarraymanipulation import concatenate
from .strings import _CMP_SYMBOL, Strings, _check_regex, _flags, _str, from_list

if TYPE_CHECKING:
    _Base = Strings  # the methods see the class they are set on
else:
    _Base = object


def _counts(seg: pdarray, total: int) -> pdarray:
    """Pieces per string from the index of each string's first piece and the number of pieces.

    Of ``findall``/``split``.
    """
    if seg.size == 0:
        return seg
    ends = concatenate([seg[1:], array(np.array([total], dtype=np.int64))])
    out: pdarray = (ends - seg)._materialize()
    return out


def _int_array(v: list[int]) -> pdarray:
    """An int64 pdarray of the Python ints ``v``."""
    out: pdarray = array(np.array(v, dtype=np.int64))
    return out


class _StringsMethods(_Base):
    def astype(self, dtype: object) -> Any:  # noqa: ANN401 (a pdarray, or Strings for str)
        """The strings parsed as ``dtype`` (``ak.cast(self, dtype)``).

        Numbers as NumPy parses them, "True"/"False" as bool; RuntimeError where a string does
        not parse. ``str`` gives a copy of the Strings.
        """
        return cast(self, dtype)

    def _match(self, kind: str, pattern: str, flags: int) -> Match:
        """The ``Match`` (``atoll.pandas.match``) of ``pattern`` in every string.

        ``kind`` is ``'search'``, ``'match'`` or ``'fullmatch'``.
        """
        m, s, l = _atoll.str_val_py(self._s, kind, a=_str(pattern, "pattern"), flags=_flags(flags))
        return Match(pdarray(m), pdarray(s), pdarray(l), parent=self, pattern=pattern, match_type=kind, flags=flags)

    def get_bytes_lengths(self) -> pdarray:
        """The number of UTF-8 bytes of each string (int64)."""
        out: pdarray = array(np.array([len(x.encode()) for x in self.to_list()], dtype=np.int64))
        return out

    def take(self, indices: object, axis: int | None = None) -> Strings:
        """``self[indices]``."""
        if not isinstance(indices, pdarray):
            indices = array(np.atleast_1d(np.asarray(indices, dtype=np.int64)))
        out: Strings = self[indices]
        return out

    def _fixes(self, n: int, return_origins: bool, proper: bool, suffix: bool) -> Strings | tuple[Strings, pdarray]:
        if isinstance(n, builtins.bool) or not isinstance(n, (builtins.int, np.integer)) or n < 0:
            raise TypeError(f"n: expected a nonnegative int, got {n!r}")
        vals = self.to_list()
        keep = [len(x) > n if proper else len(x) >= n for x in vals]
        out = from_list([(x[len(x) - n :] if suffix else x[:n]) for x, k in zip(vals, keep) if k])
        return (out, array(np.array(keep, dtype=bool))) if return_origins else out

    def __getitem__(self, key: object) -> Any:  # noqa: ANN401 (a str, or Strings)
        if isinstance(key, (builtins.int, np.integer)) and not isinstance(key, (builtins.bool, np.bool_)):
            i = builtins.int(key)
            if i < 0:
                i += self.size
            if not 0 <= i < self.size:
                raise IndexError(f"index {key} is out of bounds for Strings of size {self.size}")
            return self[arange(i, i + 1)].to_list()[0]
        if isinstance(key, slice):
            start, stop, step = key.indices(self.size)
            return self[arange(start, stop, step)]
        if isinstance(key, pdarray):
            idx: pdarray = key
            if key.dtype == np.dtype(bool):
                idx = arange(self.size)[key]
            elif key.dtype != np.dtype(np.int64):
                idx = key.astype(np.int64)
            return Strings(_atoll.str_op_py(self._s, "take", idx=idx._whole()))
        raise TypeError(f"Strings index: expected an int, a slice or a pdarray, got {type(key).__name__}")

    # ----- comparisons -------------------------------------------------------------------
    def _cmp(self, other: object, op: str) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        if isinstance(other, Strings):
            if other.size != self.size:
                raise ValueError(
                    f"operands could not be broadcast together: Strings {_CMP_SYMBOL.get(op, op)} Strings "
                    f"of sizes {self.size} and {other.size}"
                )
            return pdarray(_atoll.str_val_py(self._s, op, other=other._s)[0])
        if isinstance(other, (str, np.str_)):
            return pdarray(_atoll.str_val_py(self._s, op + "_str", a=builtins.str(other))[0])
        if isinstance(other, (builtins.int, builtins.float, np.number, builtins.bool, np.bool_, pdarray)):
            # A string never equals a number (NumPy 2 and Arkouda give an array).
            return full(self.size, op == "ne", bool)
        return NotImplemented

    def _py_test(self, name: str) -> pdarray:
        """Python's ``str.<name>`` of each string, on the driver.

        The Unicode digit and numeric types these tests read are not in Rust's standard library.
        """
        out: pdarray = array(np.array([getattr(x, name)() for x in self.to_list()], dtype=bool))
        return out

    def find_locations(self, pattern: str) -> tuple[pdarray, pdarray, pdarray]:
        """The locations of the non-overlapping matches of ``pattern``.

        Python's ``re``, computed on the driver: ``(matches per string, start of each match,
        length of each match)``.
        """
        rx = _re.compile(_check_regex(_str(pattern, "pattern")))
        counts: list[int] = []
        starts: list[int] = []
        lens: list[int] = []
        for x in self.to_list():
            ms = list(rx.finditer(x))
            counts.append(len(ms))
            starts += [m.start() for m in ms]
            lens += [m.end() - m.start() for m in ms]
        return _int_array(counts), _int_array(starts), _int_array(lens)

    def findall(self, pattern: str, return_match_origins: bool = False) -> Strings | tuple[Strings, pdarray]:
        """Every non-overlapping match of ``pattern``, the matches of each string in order.

        Whole matches, empty ones included, as ``re.findall`` of a pattern without groups; with
        ``return_match_origins`` also, for each match, the index of the string it is from.
        """
        p, seg = _atoll.str_split_py(self._s, _check_regex(_str(pattern, "pattern")), findall=True)
        matches = Strings(p)
        if not return_match_origins:
            return matches

        first = pdarray(seg)
        has = _counts(first, matches.size) > 0
        # A 1 at each string's first match; its running count names the string.
        mark = full(matches.size, 0, np.int64)
        if matches.size:
            mark[first[has]] = 1
        return matches, arange(self.size)[has][cumsum(mark) - 1]

    def subn(self, pat: str, repl: str, count: int = 0) -> tuple[Strings, pdarray]:
        """``(sub(pat, repl, count), number of replacements in each string)``."""
        _check_regex(_str(pat, "pat"))
        k = builtins.int(count)
        k = 0 if k < 0 else k
        out = Strings(_atoll.str_op_py(self._s, "sub", a=pat, b=_str(repl, "repl"), k=k))
        p, seg = _atoll.str_split_py(self._s, pat, findall=True)
        counts = _counts(pdarray(seg), p.size)
        if k:
            counts = where(counts > k, k, counts)
        return out, counts

    def _ranks(self) -> pdarray:
        """Each string's rank among the distinct strings: a sort key (see ``str_groupby``)."""
        ranks: pdarray = string_ranks(self)
        return ranks


attach(Strings, _StringsMethods)
