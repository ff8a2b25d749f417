"""Arkouda's ``Strings`` on Atoll's distributed strings (``atoll-strings``).

Each locale holds a block of whole strings in the Arrow layout (UTF-8 bytes and offsets),
Block-distributed by index. Element-wise methods run on every locale over its own strings;
regular expressions (the Rust ``regex`` crate's syntax, close to Python's ``re`` for common
patterns) are compiled once per locale per operation, with no communication while matching.
"""

import builtins
import re as _re
import typing

import numpy as np

from .. import _atoll
from .._optional import pa
from ..pandas._registry import Registrable, symbol_name
from ..progress import tracked
from .pdarrayclass import _seed, _size, byte_size, html_rows, html_table, pdarray

_FLAGS = {_re.IGNORECASE: 1, _re.MULTILINE: 2, _re.DOTALL: 4}


def _flags(flags):
    f = builtins.int(flags)
    out = 0
    for k, v in _FLAGS.items():
        if f & k:
            out |= v
            f &= ~k
    if f:
        raise ValueError(f"flags: only re.IGNORECASE, re.MULTILINE and re.DOTALL are supported, got {flags!r}")
    return out


def _str(x, name):
    if not isinstance(x, str):
        raise TypeError(f"{name}: expected a str, got {type(x).__name__}")
    return x


# The comparison operators by the engine's names (for messages).
_CMP_SYMBOL = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}


class Strings(Registrable):
    """A distributed array of strings (Arkouda's ``Strings``)."""

    __slots__ = ("_s", "registered_name")
    objType = "Strings"

    def __init__(self, handle):
        self._s = handle
        self.registered_name = None

    @property
    def name(self):
        """The array's name in the symbol table (Arkouda's server-side name; see
        ``ak.list_symbol_table``), not the name it is registered under."""
        return symbol_name(self)

    # ----- basics ------------------------------------------------------------------------
    @property
    def size(self):
        return self._s.size

    def __len__(self):
        return self._s.size

    @property
    def dtype(self):
        return np.dtype(str)

    @tracked("Strings.to_list", rows=0)
    def to_list(self):
        """Every string, as a Python list."""
        return _atoll.str_to_list(self._s)

    tolist = to_list

    @property
    def nbytes(self):
        """The bytes the strings take: their UTF-8 bytes and one 8-byte offset each."""
        return builtins.int(self.get_bytes_lengths().sum()) + 8 * self.size if self.size else 0

    @property
    def ndim(self):
        return 1

    @property
    def shape(self):
        return (self.size,)

    @property
    def entry(self):
        """Arkouda's server-side component of the strings' bytes (``entry.itemsize`` is 1,
        ``entry.size`` the number of bytes); scripts read it to count bytes moved."""
        from types import SimpleNamespace

        return SimpleNamespace(itemsize=1, size=self.nbytes, name=f"strings-{id(self)}", dtype=np.dtype(np.uint8))

    def copy(self):
        return self[:]

    def _comp_to_ndarray(self, comp):
        """Arkouda's components on the driver: ``values`` (the UTF-8 bytes, each string
        followed by a NUL) or ``offsets`` (where each string starts in them)."""
        enc = [x.encode() + b"\0" for x in self.to_list()]
        if comp == "values":
            return np.frombuffer(b"".join(enc), dtype=np.uint8).copy()
        if comp == "offsets":
            return np.cumsum([0] + [len(e) for e in enc[:-1]]).astype(np.int64) if enc else np.zeros(0, np.int64)
        raise ValueError(f"comp: expected 'values' or 'offsets', got {comp!r}")

    @tracked("Strings.to_ndarray", rows=0)
    def to_ndarray(self):
        """Every string, as a NumPy array of ``str``."""
        return np.array(self.to_list(), dtype=str)

    def to_arrow(self):
        """The ``pyarrow`` string array of the strings (``large_string`` from 2 GiB of bytes)."""
        return pa.array(self.to_list(), type=pa.large_string() if self.nbytes >= 2**31 else pa.string())

    def _repr_html_(self):
        """Jupyter's display: the head and tail strings by position, the size and bytes."""
        head, tail = html_rows(self.size)
        h = self[: len(head)].to_list()
        t = self[self.size - len(tail) :].to_list() if tail else []
        caption = f"Strings: {self.size} values, dtype str, {byte_size(self.nbytes)}"
        return html_table(["", "value"], list(map(list, zip(head, h))), list(map(list, zip(tail, t))), caption)

    def __str__(self):
        """Arkouda's format: every string up to 100, else the first and last three."""
        if self.size <= 100:
            return "[" + ", ".join(repr(x) for x in self.to_list()) + "]"
        head, tail = self[:3].to_list(), self[self.size - 3 :].to_list()
        return "[" + ", ".join(repr(x) for x in head) + ", ... , " + ", ".join(repr(x) for x in tail) + "]"

    def equals(self, other):
        """True when ``other`` is a Strings of the same strings in the same order."""
        if not isinstance(other, Strings) or other.size != self.size:
            return False
        return self.size == 0 or builtins.bool((self == other).all())

    @property
    def inferred_type(self):
        return "string"

    def flatten(self):
        return self

    def _driver_map(self, f):
        """Strings of ``f`` of each string, computed on the driver (gathered, mapped, sent back)."""
        return from_list([f(x) for x in self.to_list()])

    def get_prefixes(self, n, return_origins=True, proper=True):
        """The first ``n`` characters of each string that has ``n`` (more than ``n`` when
        ``proper``), and which strings those are (computed on the driver)."""
        return self._fixes(n, return_origins, proper, False)

    def get_suffixes(self, n, return_origins=True, proper=True):
        """The last ``n`` characters of each string long enough (see ``get_prefixes``)."""
        return self._fixes(n, return_origins, proper, True)

    def encode(self, toEncoding="utf-8", fromEncoding="utf-8"):
        """The strings read in ``fromEncoding`` and written in ``toEncoding``: ``idna`` is the
        ASCII form of domain names (each non-ASCII label lower-cased and Punycode-encoded
        after ``xn--``, as IDNA 2008 keeps ``ß``), the UTF encodings are the text itself.
        Computed on the driver."""
        return self._driver_map(lambda x: _recode(x, fromEncoding, toEncoding))

    def decode(self, fromEncoding="utf-8", toEncoding="utf-8"):
        """``encode`` the other way: read in ``fromEncoding``, written in ``toEncoding``."""
        return self._driver_map(lambda x: _recode(x, fromEncoding, toEncoding))

    @staticmethod
    def concatenate_uniquely(strings):
        """The distinct strings of all the Strings in ``strings``."""
        return concatenate(list(strings)).unique()

    def __repr__(self):
        v = self.to_list() if self.size <= 12 else self[:5].to_list() + ["..."] + self[self.size - 5 :].to_list()
        return f"Strings({v})"

    def __iter__(self):
        return iter(self.to_list())

    def __eq__(self, other):
        return self._cmp(other, "eq")

    def __ne__(self, other):
        return self._cmp(other, "ne")

    __hash__ = None

    # ----- element-wise ------------------------------------------------------------------
    def get_lengths(self):
        """The number of characters of each string (int64 pdarray)."""
        return pdarray(_atoll.str_val_py(self._s, "lengths")[0])

    def _test(self, kind):
        return pdarray(_atoll.str_test_py(self._s, kind))

    def isalpha(self):
        return self._test("isalpha")

    def isdigit(self):
        return self._py_test("isdigit")

    def isdecimal(self):
        return self._py_test("isdecimal")

    def isnumeric(self):
        return self._py_test("isnumeric")

    def isalnum(self):
        return self._test("isalnum")

    def isspace(self):
        return self._test("isspace")

    def islower(self):
        return self._test("islower")

    def isupper(self):
        return self._test("isupper")

    def istitle(self):
        return self._test("istitle")

    def isempty(self):
        return self._test("isempty")

    def capitalize(self):
        return Strings(_atoll.str_map_py(self._s, "capitalize"))

    def swapcase(self):
        return Strings(_atoll.str_map_py(self._s, "swapcase"))

    def lower(self):
        return Strings(_atoll.str_op_py(self._s, "lower"))

    def upper(self):
        return Strings(_atoll.str_op_py(self._s, "upper"))

    def title(self):
        return Strings(_atoll.str_op_py(self._s, "title"))

    def strip(self, chars=None):
        return Strings(_atoll.str_op_py(self._s, "strip", a=None if chars is None else _str(chars, "chars")))

    def contains(self, substr, regex=False):
        """Whether each string contains ``substr`` (a regular expression when ``regex``)."""
        substr = _text(substr, "substr")
        if regex:
            _check_regex(substr)
        return pdarray(_atoll.str_val_py(self._s, "contains", a=_str(substr, "substr"), regex=builtins.bool(regex))[0])

    def startswith(self, substr, regex=False):
        substr = _text(substr, "substr")
        if regex:
            _check_regex(substr)
            return self._match("match", substr, 0).matched()
        return pdarray(_atoll.str_val_py(self._s, "startswith", a=_str(substr, "substr"))[0])

    def endswith(self, substr, regex=False):
        substr = _text(substr, "substr")
        if substr == "":
            # Arkouda's rule (its suffix search is a regular expression, which may not
            # match the empty string); Python's str.endswith("") is True.
            raise ValueError("substr: must not be empty (Arkouda's rule)")
        if regex:
            _check_regex(substr)
            # Rust's ``$`` outside multi-line mode is the end of the text only (Python's ``\Z``;
            # Python's ``re``, which checks the pattern, has no ``\z`` before 3.14). A ``(?m)``
            # inside the group stays inside it.
            return self.contains(f"(?:{_str(substr, 'substr')})$", regex=True)
        return pdarray(_atoll.str_val_py(self._s, "endswith", a=_str(substr, "substr"))[0])

    def search(self, pattern, flags=0):
        return self._match("search", pattern, flags)

    def match(self, pattern, flags=0):
        return self._match("match", pattern, flags)

    def fullmatch(self, pattern, flags=0):
        return self._match("fullmatch", pattern, flags)

    def sub(self, pat, repl, count=0):
        """Replace matches of ``pat`` by the literal ``repl`` (the first ``count``; all when
        ``count`` is 0 or negative)."""
        return self.subn(pat, repl, count)[0]

    def split(self, delimiter, regex=False, maxsplit=None, return_segments=False):
        """Split each string at ``delimiter``: the pieces of every string, and with
        ``return_segments`` the index of each string's first piece."""
        if regex:
            _check_regex(_str(delimiter, "delimiter"))
        if maxsplit is not None and builtins.int(maxsplit) < 0:
            maxsplit = None  # Python's str.split: a negative maxsplit means no limit
        p, seg = _atoll.str_split_py(
            self._s, _str(delimiter, "delimiter"), regex=builtins.bool(regex), maxsplit=maxsplit
        )
        return (Strings(p), pdarray(seg)) if return_segments else Strings(p)

    def regex_split(self, pattern, maxsplit=0, return_segments=False):
        """Split each string at the matches of the regular expression ``pattern`` (at most
        ``maxsplit`` splits per string; 0: all), as ``re.split``: the pieces of every string,
        and with ``return_segments`` the index of each string's first piece."""
        if isinstance(pattern, bytes):
            pattern = pattern.decode()
        m = builtins.int(maxsplit)
        return self.split(pattern, regex=True, maxsplit=None if m <= 0 else m, return_segments=return_segments)

    def peel(self, delimiter, times=1, includeDelimiter=False, keepPartial=False, fromRight=False, regex=False):
        """``(left, right)``: each string split at the ``times``-th occurrence of
        ``delimiter`` (from the left, or the right with ``fromRight``); with ``regex`` the
        ``times``-th non-overlapping match of the regular expression ``delimiter`` (counted from
        the left or the right), computed on the driver. A string with fewer occurrences is all
        right (all left with ``fromRight``), or the other way round with ``keepPartial``."""
        if isinstance(times, (builtins.bool, np.bool_)) or not isinstance(times, (builtins.int, np.integer)):
            raise TypeError(f"times: expected an int, got {type(times).__name__}")
        if times < 1:
            raise ValueError(f"times: must be >= 1, got {times}")
        if isinstance(delimiter, (str, np.str_)) and delimiter == "":
            raise ValueError("delimiter: must not be empty")
        if regex:
            return self._regex_peel(
                _str(delimiter, "delimiter"), builtins.int(times), includeDelimiter, keepPartial, fromRight
            )
        l, r = _atoll.str_peel_py(
            self._s,
            _str(delimiter, "delimiter"),
            builtins.int(times),
            builtins.bool(includeDelimiter),
            builtins.bool(keepPartial),
            builtins.bool(fromRight),
        )
        return Strings(l), Strings(r)

    def _regex_peel(self, pattern, times, include, keep_partial, from_right):
        """``peel`` at the matches of the regular expression ``pattern`` (on the driver).
        ValueError for a pattern that matches the empty string, as Arkouda."""
        rx = _re.compile(_check_regex(pattern))
        if rx.fullmatch("") is not None or rx.search("") is not None:
            raise ValueError(f"peel: the pattern {pattern!r} matches the empty string")
        lefts, rights = [], []
        for x in self.to_list():
            ms = list(rx.finditer(x))
            if len(ms) < times:
                whole_left = keep_partial != from_right
                lefts.append(x if whole_left else "")
                rights.append("" if whole_left else x)
                continue
            m = ms[-times] if from_right else ms[times - 1]
            cut_left, cut_right = m.start(), m.end()
            if include:
                if from_right:
                    cut_right = m.start()
                else:
                    cut_left = m.end()
            lefts.append(x[:cut_left])
            rights.append(x[cut_right:])
        return from_list(lefts), from_list(rights)

    def rpeel(self, delimiter, times=1, includeDelimiter=False, keepPartial=False, regex=False):
        return self.peel(delimiter, times, includeDelimiter, keepPartial, fromRight=True, regex=regex)

    def stick(self, other, delimiter="", toLeft=False):
        if not isinstance(other, Strings):
            raise TypeError(f"other: expected Strings, got {type(other).__name__}")
        return Strings(
            _atoll.str_op_py(self._s, "lstick" if toLeft else "stick", a=_str(delimiter, "delimiter"), other=other._s)
        )

    def lstick(self, other, delimiter=""):
        return self.stick(other, delimiter, toLeft=True)

    def __add__(self, other):
        if not isinstance(other, Strings):
            kind = f"pdarray of {other.dtype.name}" if isinstance(other, pdarray) else type(other).__name__
            hint = " (convert it with .astype(str))" if isinstance(other, pdarray) else ""
            raise TypeError(
                f"Strings + {type(other).__name__}: + concatenates two Strings of one size, got Strings and {kind}{hint}"
            )
        if other.size != self.size:
            raise ValueError(
                f"operands could not be broadcast together: Strings + Strings of sizes {self.size} and {other.size}"
            )
        return self.stick(other)

    def hash(self):
        """Two uint64 pdarrays: a 128-bit hash of each string."""
        a, b = _atoll.str_hash_py(self._s)
        return pdarray(a), pdarray(b)

    # ----- as keys -----------------------------------------------------------------------
    @tracked("Strings.argsort", rows=0)
    def argsort(self, algorithm=None, ascending=True):
        """The stable permutation that sorts the strings (by code point); ``ascending=False``:
        in reverse order, equal strings in index order."""
        if not ascending:
            # Arkouda's (and NumPy's flip of a stable argsort): equal strings in reverse order.
            return pdarray(_atoll.str_val_py(self._s, "argsort")[0])[::-1]
        return pdarray(_atoll.str_val_py(self._s, "argsort")[0])

    def in1d(self, other):
        """Whether each string occurs in ``other`` (Strings, or a list/array of str)."""
        if not isinstance(other, Strings):
            other = from_list(list(other))
        return pdarray(_atoll.str_val_py(self._s, "in1d", other=other._s)[0])

    def unique(self):
        return _groupby(self)[2]

    def group(self):
        """The permutation that groups equal strings (sorted)."""
        return _groupby(self)[0]

    # Defined last: inside the class body the name ``str`` is this property from here on.
    @property
    def str(self) -> "StringMethods":
        """pandas' ``Series.str`` accessor on the strings: ``contains``, ``startswith``, ... in
        pandas' words and defaults (``contains`` takes a regular expression unless
        ``regex=False``), so that ``df["col"].str.contains(...)`` reads as in pandas.

        Examples
        --------
        >>> import atoll as ak
        >>> s = ak.array(["Park Ave", "Main St", "park lane"])
        >>> s.str.contains("park", case=False).tolist()
        [True, False, True]
        >>> s.str.len().tolist()
        [8, 7, 9]
        """
        return StringMethods(self)


class StringMethods:
    """pandas' ``.str`` accessor over a ``Strings`` (``Strings.str``): pandas' method names,
    parameters and defaults, each computed by the distributed string kernels. The strings
    have no missing values, so pandas' ``na`` arguments are accepted and have no effect.

    Parameters
    ----------
    strings : Strings
        The strings the methods apply to.
    """

    __slots__ = ("_s",)

    def __init__(self, strings: Strings) -> None:
        self._s = strings

    @staticmethod
    def _pattern(pat: builtins.str, case: builtins.bool, regex: builtins.bool) -> builtins.str:
        p = _str(pat, "pat")
        if not regex:
            p = _re.escape(p)
        return p if case else "(?i)" + p

    def contains(
        self,
        pat: builtins.str,
        case: builtins.bool = True,
        flags: builtins.int = 0,
        na: object = None,
        regex: builtins.bool = True,
    ) -> pdarray:
        """Whether each string contains ``pat`` (a regular expression unless ``regex=False``).

        Parameters
        ----------
        pat : str
            The pattern, or the literal text with ``regex=False``.
        case : bool
            Case-sensitive when True.
        flags : int
            ``re`` flags (IGNORECASE, MULTILINE, DOTALL).
        na : object
            Accepted for pandas' signature; the strings have no missing values.
        regex : bool
            Whether ``pat`` is a regular expression.

        Returns
        -------
        pdarray
            A bool array, one element per string.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array(["a.b", "ab"]).str.contains(".", regex=False).tolist()
        [True, False]
        """
        if flags:
            if not regex:
                raise ValueError("flags: only with regex=True")
            return self._s.search(self._pattern(pat, case, True), flags).matched()
        if case and not regex:
            return self._s.contains(_str(pat, "pat"))
        return self._s.contains(self._pattern(pat, case, regex), regex=True)

    def startswith(self, pat: builtins.str | tuple[builtins.str, ...], na: object = None) -> pdarray:
        """Whether each string starts with ``pat`` (a literal, or a tuple of literals: any of them).

        Parameters
        ----------
        pat : str or tuple of str
            The prefix, or prefixes.
        na : object
            Accepted for pandas' signature; the strings have no missing values.

        Returns
        -------
        pdarray
            A bool array, one element per string.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array(["ab", "ba", "cb"]).str.startswith(("a", "b")).tolist()
        [True, True, False]
        """
        return self._any(pat, self._s.startswith)

    def endswith(self, pat: builtins.str | tuple[builtins.str, ...], na: object = None) -> pdarray:
        """Whether each string ends with ``pat`` (a literal, or a tuple of literals: any of them).

        Parameters
        ----------
        pat : str or tuple of str
            The suffix, or suffixes.
        na : object
            Accepted for pandas' signature; the strings have no missing values.

        Returns
        -------
        pdarray
            A bool array, one element per string.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array(["ab", "ba", ""]).str.endswith("b").tolist()
        [True, False, False]
        """
        return self._any(pat, self._s.endswith)

    def _any(self, pat: object, test: "typing.Callable[[builtins.str], pdarray]") -> pdarray:
        pats = pat if isinstance(pat, tuple) else (pat,)
        out = None
        for p in pats:
            p = _str(p, "pat")
            # An empty prefix or suffix matches every string (Python's str.startswith).
            r = self._s.get_lengths() >= 0 if p == "" else test(p)
            out = r if out is None else out | r
        if out is None:
            return self._s.get_lengths() < 0  # an empty tuple matches nothing
        return out

    def match(
        self, pat: builtins.str, case: builtins.bool = True, flags: builtins.int = 0, na: object = None
    ) -> pdarray:
        """Whether a match of the regular expression ``pat`` starts at each string's beginning (``re.match``).

        Parameters
        ----------
        pat : str
            The regular expression.
        case : bool
            Case-sensitive when True.
        flags : int
            ``re`` flags (IGNORECASE, MULTILINE, DOTALL).
        na : object
            Accepted for pandas' signature; the strings have no missing values.

        Returns
        -------
        pdarray
            A bool array, one element per string.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array(["ab1", "1ab"]).str.match(r"[a-z]+").tolist()
        [True, False]
        """
        return self._s.match(self._pattern(pat, case, True), flags).matched()

    def fullmatch(
        self, pat: builtins.str, case: builtins.bool = True, flags: builtins.int = 0, na: object = None
    ) -> pdarray:
        """Whether the regular expression ``pat`` matches each whole string (``re.fullmatch``).

        Parameters
        ----------
        pat : str
            The regular expression.
        case : bool
            Case-sensitive when True.
        flags : int
            ``re`` flags (IGNORECASE, MULTILINE, DOTALL).
        na : object
            Accepted for pandas' signature; the strings have no missing values.

        Returns
        -------
        pdarray
            A bool array, one element per string.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array(["ab", "ab1"]).str.fullmatch(r"[a-z]+").tolist()
        [True, False]
        """
        return self._s.fullmatch(self._pattern(pat, case, True), flags).matched()

    def replace(
        self,
        pat: builtins.str,
        repl: builtins.str,
        n: builtins.int = -1,
        case: builtins.bool | None = None,
        flags: builtins.int = 0,
        regex: builtins.bool = False,
    ) -> Strings:
        """Each string with the occurrences of ``pat`` (the first ``n``; all when ``n`` < 1) replaced by ``repl``.

        Parameters
        ----------
        pat : str
            The text to replace, or a regular expression with ``regex=True``.
        repl : str
            The replacement (literal text).
        n : int
            How many replacements per string; -1 (or 0) for all.
        case : bool or None
            Case-sensitive unless False.
        flags : int
            ``re`` flags, with ``regex=True`` only.
        regex : bool
            Whether ``pat`` is a regular expression.

        Returns
        -------
        Strings
            The new strings.

        Raises
        ------
        ValueError
            If ``flags`` is given with ``regex=False``.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array(["a.a.a", "b"]).str.replace(".", "-", n=1).tolist()
        ['a-a.a', 'b']
        """
        if flags:
            if not regex:
                raise ValueError("flags: only with regex=True")
            raise ValueError("flags: give inline flags such as (?i) in the pattern")
        p = self._pattern(pat, case is not False, regex)
        return self._s.sub(p, _str(repl, "repl"), max(builtins.int(n), 0))

    def len(self) -> pdarray:
        """The length of each string in characters.

        Returns
        -------
        pdarray
            An int64 array.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array(["", "héllo"]).str.len().tolist()
        [0, 5]
        """
        return self._s.get_lengths()

    def lower(self) -> Strings:
        """Each string in lower case.

        Returns
        -------
        Strings
            The new strings.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array(["AbC"]).str.lower().tolist()
        ['abc']
        """
        return self._s.lower()

    def upper(self) -> Strings:
        """Each string in upper case.

        Returns
        -------
        Strings
            The new strings.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array(["AbC"]).str.upper().tolist()
        ['ABC']
        """
        return self._s.upper()

    def strip(self, to_strip: builtins.str | None = None) -> Strings:
        """Each string without leading and trailing whitespace (or the characters of ``to_strip``).

        Parameters
        ----------
        to_strip : str or None
            The characters to remove; whitespace when None.

        Returns
        -------
        Strings
            The new strings.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array([" a ", "xbx"]).str.strip().tolist()
        ['a', 'xbx']
        """
        return self._s.strip(to_strip)


def _groupby(s):
    """(permutation, segments, unique keys, counts) of a group-by by string keys: the entry
    point for ``ak.GroupBy(strings)``."""
    p, g, k, c = _atoll.str_groupby_py(s._s)
    return pdarray(p), pdarray(g), Strings(k), pdarray(c)


_UTF = ("utf-8", "utf8", "utf-16", "utf16", "utf-32", "utf32", "ascii")


def _recode(x, frm, to):
    frm, to = frm.lower(), to.lower()
    for e in (frm, to):
        if e != "idna" and e not in _UTF:
            raise ValueError(f"encoding: {e!r} is not supported (idna and the UTF encodings are)")
    text = _idna_decode(x) if frm == "idna" else x
    return _idna_encode(text) if to == "idna" else text


def _idna_encode(x):
    labels = []
    for label in x.split("."):
        if label.isascii():
            labels.append(label)
        else:
            labels.append("xn--" + label.lower().encode("punycode").decode("ascii"))
    return ".".join(labels)


def _idna_decode(x):
    """The Unicode form of an IDNA name; "" for a name that is not valid IDNA (a label that
    does not decode, does not encode back to itself, or starts with a combining mark)."""
    import unicodedata

    out = []
    for lab in x.split("."):
        if not lab.lower().startswith("xn--"):
            out.append(lab)
            continue
        try:
            u = lab[4:].encode("ascii").decode("punycode")
        except (UnicodeError, ValueError):
            return ""
        if not u or unicodedata.category(u[0]).startswith("M") or _idna_encode(u).lower() != lab.lower():
            return ""
        out.append(u)
    return ".".join(out)


def _text(x, name):
    """A str of a str, a NumPy str or bytes (UTF-8); TypeError otherwise."""
    if isinstance(x, bytes):
        return x.decode()
    if isinstance(x, np.str_):
        return builtins.str(x)
    return _str(x, name)


def _check_regex(p):
    """Python's ``re.error`` for a pattern Python's ``re`` rejects (Arkouda's exception)."""
    try:
        _re.compile(p)
    except _re.error:
        raise
    return p


def from_list(values):
    """Strings from a list (or 1-D NumPy array) of ``str``."""
    v = [builtins.str(x) if isinstance(x, np.str_) else x for x in values]
    for x in v:
        if not isinstance(x, str):
            raise TypeError(f"expected str elements, got {type(x).__name__}")
    return Strings(_atoll.str_from_list(v))


def _int_arg(v, name):
    if isinstance(v, (builtins.bool, np.bool_)) or not isinstance(v, (builtins.int, np.integer)):
        raise TypeError(f"{name}: expected an int, got {type(v).__name__}")
    return builtins.int(v)


def random_strings_uniform(minlen, maxlen, size, characters="uppercase", seed=None):
    """``size`` random strings of lengths in ``[minlen, maxlen)`` (Arkouda)."""
    lo, hi = _int_arg(minlen, "minlen"), _int_arg(maxlen, "maxlen")
    if lo < 0 or hi <= lo:
        raise ValueError(f"Incompatible arguments: minlen < 0, maxlen <= minlen (minlen={lo}, maxlen={hi})")
    return Strings(_atoll.str_random_uniform(lo, hi, _size(size), _str(characters, "characters"), _seed(seed)))


def random_strings_lognormal(logmean, logstd, size, characters="uppercase", seed=None):
    """``size`` random strings of lengths ``1 + floor(exp(N(logmean, logstd)))`` (Arkouda)."""
    for name, v in (("logmean", logmean), ("logstd", logstd)):
        if isinstance(v, (builtins.bool, np.bool_, str)) or not isinstance(
            v, (builtins.int, builtins.float, np.number)
        ):
            raise TypeError(f"{name}: expected a number, got {type(v).__name__}")
    if logstd <= 0:
        raise ValueError(f"logstd: must be positive, got {logstd}")
    return Strings(
        _atoll.str_random_lognormal(
            builtins.float(logmean), builtins.float(logstd), _size(size), _str(characters, "characters"), _seed(seed)
        )
    )


def concatenate(arrays):
    """The strings of every element of ``arrays``, one after the other."""
    return Strings(_atoll.str_concatenate_py([a._s for a in arrays]))


def unique(s):
    """The distinct strings, sorted."""
    return s.unique()


def in1d(a, b):
    return a.in1d(b)
