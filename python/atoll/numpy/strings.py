"""Arkouda's ``Strings`` on Atoll's distributed strings (``atoll-strings``).

Each locale holds a block of whole strings in the Arrow layout (UTF-8 bytes and offsets),
Block-distributed by index. Element-wise methods run on every locale over its own strings;
regular expressions (the Rust ``regex`` crate's syntax, close to Python's ``re`` for common
patterns) are compiled once per locale per operation, with no communication while matching.
"""

from __future__ import annotations

import builtins
import re as _re
import typing
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from .. import _atoll
from .._optional import pa
from ..pandas._registry import Registrable, symbol_name
from ..progress import tracked
from .pdarrayclass import _seed, _size, byte_size, html_rows, html_table, pdarray

if TYPE_CHECKING:
    from ..pandas.match import Match

_FLAGS = {_re.IGNORECASE: 1, _re.MULTILINE: 2, _re.DOTALL: 4}


def _flags(flags: object) -> int:
    f = builtins.int(flags)  # type: ignore[call-overload]  # an int-like; int() raises TypeError on others
    out = 0
    for k, v in _FLAGS.items():
        if f & k:
            out |= v
            f &= ~k
    if f:
        raise ValueError(f"flags: only re.IGNORECASE, re.MULTILINE and re.DOTALL are supported, got {flags!r}")
    return out


def _str(x: object, name: str) -> str:
    if not isinstance(x, str):
        raise TypeError(f"{name}: expected a str, got {type(x).__name__}")
    return x


# The comparison operators by the engine's names (for messages).
_CMP_SYMBOL = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}


class Strings(Registrable):
    """A distributed array of strings (Arkouda's ``Strings``).

    Parameters
    ----------
    handle : StrArr
        The native distributed strings.

    Examples
    --------
    >>> import atoll as ak
    >>> s = ak.array(["a", "bc"])
    >>> type(s).__name__, s.size
    ('Strings', 2)
    """

    __slots__ = ("_s", "registered_name")
    objType = "Strings"

    if TYPE_CHECKING:
        # Methods set on the class by ``atoll.numpy._strings_methods`` (mypy sees no attach).
        def astype(self, dtype: object) -> Any: ...  # noqa: ANN401, D102 (a pdarray, or Strings for str)
        def _match(self, kind: builtins.str, pattern: builtins.str, flags: builtins.int) -> Match: ...
        def get_bytes_lengths(self) -> pdarray: ...  # noqa: D102 (set by attach)
        def take(self, indices: object, axis: builtins.int | None = None) -> Strings: ...  # noqa: D102 (set by attach)
        def _fixes(
            self, n: builtins.int, return_origins: builtins.bool, proper: builtins.bool, suffix: builtins.bool
        ) -> Strings | tuple[Strings, pdarray]: ...
        def __getitem__(self, key: object) -> Any: ...  # noqa: ANN401 (a str, or Strings)
        def _cmp(self, other: object, op: builtins.str) -> Any: ...  # noqa: ANN401 (a pdarray, or NotImplemented)
        def _py_test(self, name: builtins.str) -> pdarray: ...
        def find_locations(self, pattern: builtins.str) -> tuple[pdarray, pdarray, pdarray]: ...  # noqa: D102 (set by attach)
        def findall(  # noqa: D102 (set by attach)
            self, pattern: builtins.str, return_match_origins: builtins.bool = False
        ) -> Strings | tuple[Strings, pdarray]: ...
        def subn(  # noqa: D102 (set by attach)
            self, pat: builtins.str, repl: builtins.str, count: builtins.int = 0
        ) -> tuple[Strings, pdarray]: ...
        def _ranks(self) -> pdarray: ...

    def __init__(self, handle: _atoll.StrArr) -> None:
        self._s = handle
        self.registered_name = None

    @property
    def name(self) -> builtins.str:
        """The array's name in the symbol table (Arkouda's server-side name).

        See ``ak.list_symbol_table``; not the name it is registered under.
        """
        return symbol_name(self)

    # ----- basics ------------------------------------------------------------------------
    @property
    def size(self) -> builtins.int:
        """The number of strings."""
        return self._s.size

    def __len__(self) -> builtins.int:
        return self._s.size

    @property
    def dtype(self) -> np.dtype[Any]:
        """NumPy's ``str`` dtype."""
        return np.dtype(str)

    @tracked("Strings.to_list", rows=0)
    def to_list(self) -> list[builtins.str]:
        """Every string, as a Python list.

        Returns
        -------
        list of str
            The strings, in order.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array(["a", "bc"]).to_list()
        ['a', 'bc']
        """
        return _atoll.str_to_list(self._s)

    tolist = to_list

    @property
    def nbytes(self) -> builtins.int:
        """The bytes the strings take: their UTF-8 bytes and one 8-byte offset each."""
        return builtins.int(self.get_bytes_lengths().sum()) + 8 * self.size if self.size else 0

    @property
    def ndim(self) -> builtins.int:
        """The number of dimensions: 1."""
        return 1

    @property
    def shape(self) -> tuple[builtins.int]:
        """The shape, ``(size,)``."""
        return (self.size,)

    @property
    def entry(self) -> SimpleNamespace:
        """Arkouda's server-side component of the strings' bytes.

        ``entry.itemsize`` is 1, ``entry.size`` the number of bytes; scripts read it to count
        bytes moved.
        """
        return SimpleNamespace(itemsize=1, size=self.nbytes, name=f"strings-{id(self)}", dtype=np.dtype(np.uint8))

    def copy(self) -> Strings:
        """A copy of the strings.

        Returns
        -------
        Strings
            New strings, equal to these.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array(["a", "b"]).copy().to_list()
        ['a', 'b']
        """
        out: Strings = self[:]
        return out

    def _comp_to_ndarray(self, comp: builtins.str) -> np.ndarray[Any, Any]:
        """Arkouda's components on the driver.

        ``values`` (the UTF-8 bytes, each string followed by a NUL) or ``offsets`` (where each
        string starts in them).
        """
        enc = [x.encode() + b"\0" for x in self.to_list()]
        if comp == "values":
            return np.frombuffer(b"".join(enc), dtype=np.uint8).copy()
        if comp == "offsets":
            return np.cumsum([0] + [len(e) for e in enc[:-1]]).astype(np.int64) if enc else np.zeros(0, np.int64)
        raise ValueError(f"comp: expected 'values' or 'offsets', got {comp!r}")

    @tracked("Strings.to_ndarray", rows=0)
    def to_ndarray(self) -> np.ndarray[Any, Any]:
        """Every string, as a NumPy array of ``str``.

        Returns
        -------
        numpy.ndarray
            A 1-D array of dtype ``<U``.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array(["a", "bc"]).to_ndarray()
        array(['a', 'bc'], dtype='<U2')
        """
        return np.array(self.to_list(), dtype=str)

    def to_arrow(self) -> Any:  # noqa: ANN401 (a pyarrow.StringArray)
        """The ``pyarrow`` string array of the strings (``large_string`` from 2 GiB of bytes).

        Returns
        -------
        pyarrow.Array
            A ``string`` (or ``large_string``) array.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array(["a", "bc"]).to_arrow().to_pylist()
        ['a', 'bc']
        """
        return pa.array(self.to_list(), type=pa.large_string() if self.nbytes >= 2**31 else pa.string())

    def _repr_html_(self) -> builtins.str:
        """Jupyter's display: the head and tail strings by position, the size and bytes."""
        head, tail = html_rows(self.size)
        h = self[: len(head)].to_list()
        t = self[self.size - len(tail) :].to_list() if tail else []
        caption = f"Strings: {self.size} values, dtype str, {byte_size(self.nbytes)}"
        return html_table(["", "value"], list(map(list, zip(head, h))), list(map(list, zip(tail, t))), caption)

    def __str__(self) -> builtins.str:
        """Arkouda's format: every string up to 100, else the first and last three."""
        if self.size <= 100:
            return "[" + ", ".join(repr(x) for x in self.to_list()) + "]"
        head, tail = self[:3].to_list(), self[self.size - 3 :].to_list()
        return "[" + ", ".join(repr(x) for x in head) + ", ... , " + ", ".join(repr(x) for x in tail) + "]"

    def equals(self, other: object) -> builtins.bool:
        """True when ``other`` is a Strings of the same strings in the same order.

        Parameters
        ----------
        other : object
            The object compared.

        Returns
        -------
        bool
            Whether the two hold the same strings.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array(["a", "b"]).equals(ak.array(["a", "b"]))
        True
        """
        if not isinstance(other, Strings) or other.size != self.size:
            return False
        return self.size == 0 or builtins.bool((self == other).all())

    @property
    def inferred_type(self) -> builtins.str:
        """The values' inferred type in pandas' words: ``'string'``."""
        return "string"

    def flatten(self) -> Strings:
        """The strings themselves (they are 1-D).

        Returns
        -------
        Strings
            ``self``.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array(["a"]).flatten().to_list()
        ['a']
        """
        return self

    def _driver_map(self, f: Callable[[builtins.str], builtins.str]) -> Strings:
        """Strings of ``f`` of each string, computed on the driver (gathered, mapped, sent back)."""
        return from_list([f(x) for x in self.to_list()])

    def get_prefixes(
        self, n: builtins.int, return_origins: builtins.bool = True, proper: builtins.bool = True
    ) -> Strings | tuple[Strings, pdarray]:
        """The first ``n`` characters of each string that has ``n`` (more than ``n`` when ``proper``).

        Computed on the driver.

        Parameters
        ----------
        n : int
            The length of the prefixes.
        return_origins : bool, default True
            Also return which strings have a prefix.
        proper : bool, default True
            Only strings longer than ``n``.

        Returns
        -------
        Strings or (Strings, pdarray)
            The prefixes, and with ``return_origins`` a bool pdarray of the strings they are of.

        Raises
        ------
        TypeError
            If ``n`` is not a nonnegative int.

        Examples
        --------
        >>> import atoll as ak
        >>> p, o = ak.array(["abc", "a", "xyz"]).get_prefixes(2)
        >>> p.to_list(), o.tolist()
        (['ab', 'xy'], [True, False, True])
        """
        return self._fixes(n, return_origins, proper, False)

    def get_suffixes(
        self, n: builtins.int, return_origins: builtins.bool = True, proper: builtins.bool = True
    ) -> Strings | tuple[Strings, pdarray]:
        """The last ``n`` characters of each string long enough (see ``get_prefixes``).

        Parameters
        ----------
        n : int
            The length of the suffixes.
        return_origins : bool, default True
            Also return which strings have a suffix.
        proper : bool, default True
            Only strings longer than ``n``.

        Returns
        -------
        Strings or (Strings, pdarray)
            The suffixes, and with ``return_origins`` a bool pdarray of the strings they are of.

        Raises
        ------
        TypeError
            If ``n`` is not a nonnegative int.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array(["abc", "a"]).get_suffixes(2, return_origins=False).to_list()
        ['bc']
        """
        return self._fixes(n, return_origins, proper, True)

    def encode(self, toEncoding: builtins.str = "utf-8", fromEncoding: builtins.str = "utf-8") -> Strings:
        """The strings read in ``fromEncoding`` and written in ``toEncoding``.

        ``idna`` is the ASCII form of domain names (each non-ASCII label lower-cased and
        Punycode-encoded after ``xn--``, as IDNA 2008 keeps ``ß``), the UTF encodings are the
        text itself. Computed on the driver.

        Parameters
        ----------
        toEncoding : str, default "utf-8"
            The encoding written.
        fromEncoding : str, default "utf-8"
            The encoding read.

        Returns
        -------
        Strings
            The recoded strings.

        Raises
        ------
        ValueError
            If an encoding is neither ``idna`` nor a UTF encoding.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array(["bücher.de"]).encode("idna").to_list()
        ['xn--bcher-kva.de']
        """
        return self._driver_map(lambda x: _recode(x, fromEncoding, toEncoding))

    def decode(self, fromEncoding: builtins.str = "utf-8", toEncoding: builtins.str = "utf-8") -> Strings:
        """``encode`` the other way: read in ``fromEncoding``, written in ``toEncoding``.

        Parameters
        ----------
        fromEncoding : str, default "utf-8"
            The encoding read.
        toEncoding : str, default "utf-8"
            The encoding written.

        Returns
        -------
        Strings
            The recoded strings.

        Raises
        ------
        ValueError
            If an encoding is neither ``idna`` nor a UTF encoding.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array(["xn--bcher-kva.de"]).decode("idna").to_list()
        ['bücher.de']
        """
        return self._driver_map(lambda x: _recode(x, fromEncoding, toEncoding))

    @staticmethod
    def concatenate_uniquely(strings: Iterable[Strings]) -> Strings:
        """The distinct strings of all the Strings in ``strings``.

        Parameters
        ----------
        strings : iterable of Strings
            The arrays joined.

        Returns
        -------
        Strings
            The distinct strings, sorted.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.Strings.concatenate_uniquely([ak.array(["b", "a"]), ak.array(["a"])]).to_list()
        ['a', 'b']
        """
        return concatenate(list(strings)).unique()

    def __repr__(self) -> builtins.str:
        v = self.to_list() if self.size <= 12 else self[:5].to_list() + ["..."] + self[self.size - 5 :].to_list()
        return f"Strings({v})"

    def __iter__(self) -> Iterator[builtins.str]:
        return iter(self.to_list())

    def __eq__(self, other: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._cmp(other, "eq")

    def __ne__(self, other: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._cmp(other, "ne")

    __hash__: ClassVar[None]  # type: ignore[assignment]  # unhashable, as NumPy's arrays
    __hash__ = None

    # ----- element-wise ------------------------------------------------------------------
    def get_lengths(self) -> pdarray:
        """The number of characters of each string.

        Returns
        -------
        pdarray
            An int64 array.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array(["", "héllo"]).get_lengths().tolist()
        [0, 5]
        """
        return pdarray(_atoll.str_val_py(self._s, "lengths")[0])

    def _test(self, kind: builtins.str) -> pdarray:
        return pdarray(_atoll.str_test_py(self._s, kind))

    def isalpha(self) -> pdarray:
        """Whether each string is nonempty and all letters (``str.isalpha``).

        Returns
        -------
        pdarray
            A bool array.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array(["ab", "a1", ""]).isalpha().tolist()
        [True, False, False]
        """
        return self._test("isalpha")

    def isdigit(self) -> pdarray:
        """Whether each string is nonempty and all digits (``str.isdigit``).

        Returns
        -------
        pdarray
            A bool array.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array(["12", "1a", "²"]).isdigit().tolist()
        [True, False, True]
        """
        return self._py_test("isdigit")

    def isdecimal(self) -> pdarray:
        """Whether each string is nonempty and all decimal characters (``str.isdecimal``).

        Returns
        -------
        pdarray
            A bool array.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array(["12", "²"]).isdecimal().tolist()
        [True, False]
        """
        return self._py_test("isdecimal")

    def isnumeric(self) -> pdarray:
        """Whether each string is nonempty and all numeric characters (``str.isnumeric``).

        Returns
        -------
        pdarray
            A bool array.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array(["½", "a"]).isnumeric().tolist()
        [True, False]
        """
        return self._py_test("isnumeric")

    def isalnum(self) -> pdarray:
        """Whether each string is nonempty and all letters or digits (``str.isalnum``).

        Returns
        -------
        pdarray
            A bool array.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array(["a1", "a-1"]).isalnum().tolist()
        [True, False]
        """
        return self._test("isalnum")

    def isspace(self) -> pdarray:
        """Whether each string is nonempty and all whitespace (``str.isspace``).

        Returns
        -------
        pdarray
            A bool array.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array(["  ", "a "]).isspace().tolist()
        [True, False]
        """
        return self._test("isspace")

    def islower(self) -> pdarray:
        """Whether each string has cased characters, all lower case (``str.islower``).

        Returns
        -------
        pdarray
            A bool array.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array(["ab1", "Ab"]).islower().tolist()
        [True, False]
        """
        return self._test("islower")

    def isupper(self) -> pdarray:
        """Whether each string has cased characters, all upper case (``str.isupper``).

        Returns
        -------
        pdarray
            A bool array.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array(["AB1", "Ab"]).isupper().tolist()
        [True, False]
        """
        return self._test("isupper")

    def istitle(self) -> pdarray:
        """Whether each string is in title case (``str.istitle``).

        Returns
        -------
        pdarray
            A bool array.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array(["Ab Cd", "Ab cd"]).istitle().tolist()
        [True, False]
        """
        return self._test("istitle")

    def isempty(self) -> pdarray:
        """Whether each string is empty.

        Returns
        -------
        pdarray
            A bool array.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array(["", "a"]).isempty().tolist()
        [True, False]
        """
        return self._test("isempty")

    def capitalize(self) -> Strings:
        """Each string with its first character upper case and the rest lower case (``str.capitalize``).

        Returns
        -------
        Strings
            The new strings.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array(["hELLO"]).capitalize().to_list()
        ['Hello']
        """
        return Strings(_atoll.str_map_py(self._s, "capitalize"))

    def swapcase(self) -> Strings:
        """Each string with upper and lower case swapped (``str.swapcase``).

        Returns
        -------
        Strings
            The new strings.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array(["aB"]).swapcase().to_list()
        ['Ab']
        """
        return Strings(_atoll.str_map_py(self._s, "swapcase"))

    def lower(self) -> Strings:
        """Each string in lower case.

        Returns
        -------
        Strings
            The new strings.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array(["AbC"]).lower().to_list()
        ['abc']
        """
        return Strings(_atoll.str_op_py(self._s, "lower"))

    def upper(self) -> Strings:
        """Each string in upper case.

        Returns
        -------
        Strings
            The new strings.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array(["AbC"]).upper().to_list()
        ['ABC']
        """
        return Strings(_atoll.str_op_py(self._s, "upper"))

    def title(self) -> Strings:
        """Each string in title case.

        Returns
        -------
        Strings
            The new strings.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array(["ab cd"]).title().to_list()
        ['Ab Cd']
        """
        return Strings(_atoll.str_op_py(self._s, "title"))

    def strip(self, chars: builtins.str | None = None) -> Strings:
        """Each string without leading and trailing whitespace (or the characters of ``chars``).

        Parameters
        ----------
        chars : str or None
            The characters removed; whitespace when None.

        Returns
        -------
        Strings
            The new strings.

        Raises
        ------
        TypeError
            If ``chars`` is not a str.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array([" a ", "xbx"]).strip("x ").to_list()
        ['a', 'b']
        """
        return Strings(_atoll.str_op_py(self._s, "strip", a=None if chars is None else _str(chars, "chars")))

    def contains(self, substr: builtins.str | bytes, regex: builtins.bool = False) -> pdarray:
        """Whether each string contains ``substr`` (a regular expression when ``regex``).

        Parameters
        ----------
        substr : str or bytes
            The text, or the regular expression.
        regex : bool, default False
            Whether ``substr`` is a regular expression.

        Returns
        -------
        pdarray
            A bool array.

        Raises
        ------
        TypeError
            If ``substr`` is not a str.
        re.error
            If ``regex`` and ``substr`` is not a valid regular expression.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array(["abc", "xyz"]).contains("b").tolist()
        [True, False]
        """
        substr = _text(substr, "substr")
        if regex:
            _check_regex(substr)
        return pdarray(_atoll.str_val_py(self._s, "contains", a=_str(substr, "substr"), regex=builtins.bool(regex))[0])

    def startswith(self, substr: builtins.str | bytes, regex: builtins.bool = False) -> pdarray:
        """Whether each string starts with ``substr`` (a regular expression when ``regex``).

        Parameters
        ----------
        substr : str or bytes
            The prefix, or the regular expression.
        regex : bool, default False
            Whether ``substr`` is a regular expression.

        Returns
        -------
        pdarray
            A bool array.

        Raises
        ------
        TypeError
            If ``substr`` is not a str.
        re.error
            If ``regex`` and ``substr`` is not a valid regular expression.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array(["abc", "xab"]).startswith("ab").tolist()
        [True, False]
        """
        substr = _text(substr, "substr")
        if regex:
            _check_regex(substr)
            return self._match("match", substr, 0).matched()
        return pdarray(_atoll.str_val_py(self._s, "startswith", a=_str(substr, "substr"))[0])

    def endswith(self, substr: builtins.str | bytes, regex: builtins.bool = False) -> pdarray:
        """Whether each string ends with ``substr`` (a regular expression when ``regex``).

        Parameters
        ----------
        substr : str or bytes
            The suffix, or the regular expression; not empty.
        regex : bool, default False
            Whether ``substr`` is a regular expression.

        Returns
        -------
        pdarray
            A bool array.

        Raises
        ------
        TypeError
            If ``substr`` is not a str.
        ValueError
            If ``substr`` is empty (Arkouda's rule).
        re.error
            If ``regex`` and ``substr`` is not a valid regular expression.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array(["abc", "cab"]).endswith("ab").tolist()
        [False, True]
        """
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

    def search(self, pattern: builtins.str, flags: builtins.int = 0) -> Match:
        """The first match of the regular expression ``pattern`` anywhere in each string (``re.search``).

        Parameters
        ----------
        pattern : str
            The regular expression.
        flags : int, default 0
            ``re`` flags (IGNORECASE, MULTILINE, DOTALL).

        Returns
        -------
        Match
            The matches (``atoll.pandas.match.Match``).

        Raises
        ------
        ValueError
            If ``flags`` holds another flag.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array(["xab", "xy"]).search("ab").matched().tolist()
        [True, False]
        """
        return self._match("search", pattern, flags)

    def match(self, pattern: builtins.str, flags: builtins.int = 0) -> Match:
        """The match of the regular expression ``pattern`` at each string's beginning (``re.match``).

        Parameters
        ----------
        pattern : str
            The regular expression.
        flags : int, default 0
            ``re`` flags (IGNORECASE, MULTILINE, DOTALL).

        Returns
        -------
        Match
            The matches (``atoll.pandas.match.Match``).

        Raises
        ------
        ValueError
            If ``flags`` holds another flag.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array(["abx", "xab"]).match("ab").matched().tolist()
        [True, False]
        """
        return self._match("match", pattern, flags)

    def fullmatch(self, pattern: builtins.str, flags: builtins.int = 0) -> Match:
        """The match of the regular expression ``pattern`` with each whole string (``re.fullmatch``).

        Parameters
        ----------
        pattern : str
            The regular expression.
        flags : int, default 0
            ``re`` flags (IGNORECASE, MULTILINE, DOTALL).

        Returns
        -------
        Match
            The matches (``atoll.pandas.match.Match``).

        Raises
        ------
        ValueError
            If ``flags`` holds another flag.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array(["ab", "abx"]).fullmatch("ab").matched().tolist()
        [True, False]
        """
        return self._match("fullmatch", pattern, flags)

    def sub(self, pat: builtins.str, repl: builtins.str, count: builtins.int = 0) -> Strings:
        """Replace matches of ``pat`` by the literal ``repl``.

        Parameters
        ----------
        pat : str
            The regular expression.
        repl : str
            The replacement (literal text).
        count : int, default 0
            The replacements per string; all when 0 or negative.

        Returns
        -------
        Strings
            The new strings.

        Raises
        ------
        re.error
            If ``pat`` is not a valid regular expression.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array(["a1b22", "c"]).sub("[0-9]+", "#").to_list()
        ['a#b#', 'c']
        """
        return self.subn(pat, repl, count)[0]

    def split(
        self,
        delimiter: builtins.str,
        regex: builtins.bool = False,
        maxsplit: builtins.int | None = None,
        return_segments: builtins.bool = False,
    ) -> Strings | tuple[Strings, pdarray]:
        """Split each string at ``delimiter``.

        Parameters
        ----------
        delimiter : str
            The delimiter, or a regular expression with ``regex``.
        regex : bool, default False
            Whether ``delimiter`` is a regular expression.
        maxsplit : int or None
            At most this many splits per string; None (or negative): all.
        return_segments : bool, default False
            Also return the index of each string's first piece.

        Returns
        -------
        Strings or (Strings, pdarray)
            The pieces of every string, and with ``return_segments`` the index of each string's
            first piece.

        Raises
        ------
        TypeError
            If ``delimiter`` is not a str.

        Examples
        --------
        >>> import atoll as ak
        >>> p, seg = ak.array(["a,b", "c"]).split(",", return_segments=True)
        >>> p.to_list(), seg.tolist()
        (['a', 'b', 'c'], [0, 2])
        """
        if regex:
            _check_regex(_str(delimiter, "delimiter"))
        if maxsplit is not None and builtins.int(maxsplit) < 0:
            maxsplit = None  # Python's str.split: a negative maxsplit means no limit
        p, seg = _atoll.str_split_py(
            self._s, _str(delimiter, "delimiter"), regex=builtins.bool(regex), maxsplit=maxsplit
        )
        return (Strings(p), pdarray(seg)) if return_segments else Strings(p)

    def regex_split(
        self, pattern: builtins.str | bytes, maxsplit: builtins.int = 0, return_segments: builtins.bool = False
    ) -> Strings | tuple[Strings, pdarray]:
        """Split each string at the matches of the regular expression ``pattern``, as ``re.split``.

        Parameters
        ----------
        pattern : str or bytes
            The regular expression.
        maxsplit : int, default 0
            At most this many splits per string; 0: all.
        return_segments : bool, default False
            Also return the index of each string's first piece.

        Returns
        -------
        Strings or (Strings, pdarray)
            The pieces of every string, and with ``return_segments`` the index of each string's
            first piece.

        Raises
        ------
        re.error
            If ``pattern`` is not a valid regular expression.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array(["a1b22c"]).regex_split("[0-9]+").to_list()
        ['a', 'b', 'c']
        """
        if isinstance(pattern, bytes):
            pattern = pattern.decode()
        m = builtins.int(maxsplit)
        return self.split(pattern, regex=True, maxsplit=None if m <= 0 else m, return_segments=return_segments)

    def peel(
        self,
        delimiter: builtins.str,
        times: builtins.int = 1,
        includeDelimiter: builtins.bool = False,
        keepPartial: builtins.bool = False,
        fromRight: builtins.bool = False,
        regex: builtins.bool = False,
    ) -> tuple[Strings, Strings]:
        """Each string split in two at the ``times``-th occurrence of ``delimiter``.

        From the left, or the right with ``fromRight``; with ``regex`` at the ``times``-th
        non-overlapping match of the regular expression ``delimiter`` (counted from the left or
        the right), computed on the driver. A string with fewer occurrences is all right (all
        left with ``fromRight``), or the other way round with ``keepPartial``.

        Parameters
        ----------
        delimiter : str
            The delimiter, or a regular expression with ``regex``; not empty.
        times : int, default 1
            Which occurrence to split at (from 1).
        includeDelimiter : bool, default False
            Keep the delimiter on the peeled side.
        keepPartial : bool, default False
            Where a string has fewer occurrences, keep it on the other side.
        fromRight : bool, default False
            Count occurrences from the right.
        regex : bool, default False
            Whether ``delimiter`` is a regular expression.

        Returns
        -------
        (Strings, Strings)
            The left and right parts.

        Raises
        ------
        TypeError
            If ``times`` is not an int or ``delimiter`` not a str.
        ValueError
            If ``times`` < 1, ``delimiter`` is empty, or a regular expression matches the empty string.

        Examples
        --------
        >>> import atoll as ak
        >>> l, r = ak.array(["a.b.c", "d"]).peel(".")
        >>> l.to_list(), r.to_list()
        (['a', ''], ['b.c', 'd'])
        """
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

    def _regex_peel(
        self,
        pattern: builtins.str,
        times: builtins.int,
        include: builtins.bool,
        keep_partial: builtins.bool,
        from_right: builtins.bool,
    ) -> tuple[Strings, Strings]:
        """``peel`` at the matches of the regular expression ``pattern`` (on the driver).

        ValueError for a pattern that matches the empty string, as Arkouda.
        """
        rx = _re.compile(_check_regex(pattern))
        if rx.fullmatch("") is not None or rx.search("") is not None:
            raise ValueError(f"peel: the pattern {pattern!r} matches the empty string")
        lefts: list[builtins.str] = []
        rights: list[builtins.str] = []
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

    def rpeel(
        self,
        delimiter: builtins.str,
        times: builtins.int = 1,
        includeDelimiter: builtins.bool = False,
        keepPartial: builtins.bool = False,
        regex: builtins.bool = False,
    ) -> tuple[Strings, Strings]:
        """``peel`` counting occurrences from the right.

        Parameters
        ----------
        delimiter : str
            The delimiter, or a regular expression with ``regex``; not empty.
        times : int, default 1
            Which occurrence to split at (from 1, from the right).
        includeDelimiter : bool, default False
            Keep the delimiter on the peeled side.
        keepPartial : bool, default False
            Where a string has fewer occurrences, keep it on the other side.
        regex : bool, default False
            Whether ``delimiter`` is a regular expression.

        Returns
        -------
        (Strings, Strings)
            The left and right parts.

        Raises
        ------
        TypeError
            If ``times`` is not an int or ``delimiter`` not a str.
        ValueError
            If ``times`` < 1 or ``delimiter`` is empty.

        Examples
        --------
        >>> import atoll as ak
        >>> l, r = ak.array(["a.b.c"]).rpeel(".")
        >>> l.to_list(), r.to_list()
        (['a.b'], ['c'])
        """
        return self.peel(delimiter, times, includeDelimiter, keepPartial, fromRight=True, regex=regex)

    def stick(self, other: Strings, delimiter: builtins.str = "", toLeft: builtins.bool = False) -> Strings:
        """Each string joined with the string of ``other`` at the same index.

        Parameters
        ----------
        other : Strings
            The strings appended (prepended with ``toLeft``).
        delimiter : str, default ""
            The text between the two.
        toLeft : bool, default False
            Put ``other``'s string first.

        Returns
        -------
        Strings
            The joined strings.

        Raises
        ------
        TypeError
            If ``other`` is not a Strings.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array(["a", "b"]).stick(ak.array(["x", "y"]), "-").to_list()
        ['a-x', 'b-y']
        """
        if not isinstance(other, Strings):
            raise TypeError(f"other: expected Strings, got {type(other).__name__}")
        return Strings(
            _atoll.str_op_py(self._s, "lstick" if toLeft else "stick", a=_str(delimiter, "delimiter"), other=other._s)
        )

    def lstick(self, other: Strings, delimiter: builtins.str = "") -> Strings:
        """Each string joined after the string of ``other`` at the same index.

        Parameters
        ----------
        other : Strings
            The strings prepended.
        delimiter : str, default ""
            The text between the two.

        Returns
        -------
        Strings
            The joined strings.

        Raises
        ------
        TypeError
            If ``other`` is not a Strings.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array(["a", "b"]).lstick(ak.array(["x", "y"]), "-").to_list()
        ['x-a', 'y-b']
        """
        return self.stick(other, delimiter, toLeft=True)

    def __add__(self, other: object) -> Strings:
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

    def hash(self) -> tuple[pdarray, pdarray]:
        """Two uint64 pdarrays: a 128-bit hash of each string.

        Returns
        -------
        (pdarray, pdarray)
            The high and low 64 bits of each hash.

        Examples
        --------
        >>> import atoll as ak
        >>> h1, h2 = ak.array(["a", "b", "a"]).hash()
        >>> h1[0] == h1[2], h1.dtype.name
        (np.True_, 'uint64')
        """
        a, b = _atoll.str_hash_py(self._s)
        return pdarray(a), pdarray(b)

    # ----- as keys -----------------------------------------------------------------------
    @tracked("Strings.argsort", rows=0)
    def argsort(self, algorithm: object = None, ascending: builtins.bool = True) -> pdarray:
        """The stable permutation that sorts the strings (by code point).

        Parameters
        ----------
        algorithm : object
            Accepted for Arkouda's signature.
        ascending : bool, default True
            False: in reverse order, equal strings in reverse index order.

        Returns
        -------
        pdarray
            An int64 permutation.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array(["b", "a", "c"]).argsort().tolist()
        [1, 0, 2]
        """
        if not ascending:
            # Arkouda's (and NumPy's flip of a stable argsort): equal strings in reverse order.
            out: pdarray = pdarray(_atoll.str_val_py(self._s, "argsort")[0])[::-1]
            return out
        return pdarray(_atoll.str_val_py(self._s, "argsort")[0])

    def in1d(self, other: Strings | Iterable[builtins.str]) -> pdarray:
        """Whether each string occurs in ``other`` (Strings, or a list/array of str).

        Parameters
        ----------
        other : Strings or iterable of str
            The strings looked for.

        Returns
        -------
        pdarray
            A bool array.

        Raises
        ------
        TypeError
            If ``other`` holds something other than str.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array(["a", "b", "c"]).in1d(["c", "a"]).tolist()
        [True, False, True]
        """
        if not isinstance(other, Strings):
            other = from_list(list(other))
        return pdarray(_atoll.str_val_py(self._s, "in1d", other=other._s)[0])

    def unique(self) -> Strings:
        """The distinct strings, sorted.

        Returns
        -------
        Strings
            Each string once.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array(["b", "a", "b"]).unique().to_list()
        ['a', 'b']
        """
        return _groupby(self)[2]

    def group(self) -> pdarray:
        """The permutation that groups equal strings (sorted).

        Returns
        -------
        pdarray
            An int64 permutation.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array(["b", "a", "b"]).group().tolist()
        [1, 0, 2]
        """
        return _groupby(self)[0]

    # Defined last: inside the class body the name ``str`` is this property from here on.
    @property
    def str(self) -> "StringMethods":
        """The accessor of pandas' ``Series.str`` on the strings.

        ``contains``, ``startswith``, ... in pandas' words and defaults (``contains`` takes a
        regular expression unless ``regex=False``), so that ``df["col"].str.contains(...)``
        reads as in pandas.

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
    """The accessor of pandas' ``.str`` over a ``Strings`` (``Strings.str``).

    pandas' method names, parameters and defaults, each computed by the distributed string
    kernels. The strings have no missing values, so pandas' ``na`` arguments are accepted and
    have no effect.

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
        out: pdarray | None = None
        for p in pats:
            p = _str(p, "pat")
            # An empty prefix or suffix matches every string (Python's str.startswith).
            r: pdarray = self._s.get_lengths() >= 0 if p == "" else test(p)
            out = r if out is None else out | r
        if out is None:
            none: pdarray = self._s.get_lengths() < 0  # an empty tuple matches nothing
            return none
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


def _groupby(s: Strings) -> tuple[pdarray, pdarray, Strings, pdarray]:
    """(permutation, segments, unique keys, counts) of a group-by by string keys.

    The entry point for ``ak.GroupBy(strings)``.
    """
    p, g, k, c = _atoll.str_groupby_py(s._s)
    return pdarray(p), pdarray(g), Strings(k), pdarray(c)


_UTF = ("utf-8", "utf8", "utf-16", "utf16", "utf-32", "utf32", "ascii")


def _recode(x: str, frm: str, to: str) -> str:
    frm, to = frm.lower(), to.lower()
    for e in (frm, to):
        if e != "idna" and e not in _UTF:
            raise ValueError(f"encoding: {e!r} is not supported (idna and the UTF encodings are)")
    text = _idna_decode(x) if frm == "idna" else x
    return _idna_encode(text) if to == "idna" else text


def _idna_encode(x: str) -> str:
    labels = []
    for label in x.split("."):
        if label.isascii():
            labels.append(label)
        else:
            labels.append("xn--" + label.lower().encode("punycode").decode("ascii"))
    return ".".join(labels)


def _idna_decode(x: str) -> str:
    """The Unicode form of an IDNA name.

    "" for a name that is not valid IDNA (a label that does not decode, does not encode back to
    itself, or starts with a combining mark).
    """
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


def _text(x: object, name: str) -> str:
    """A str of a str, a NumPy str or bytes (UTF-8); TypeError otherwise."""
    if isinstance(x, bytes):
        return x.decode()
    if isinstance(x, np.str_):
        return builtins.str(x)
    return _str(x, name)


def _check_regex(p: str) -> str:
    """Python's ``re.error`` for a pattern Python's ``re`` rejects (Arkouda's exception)."""
    try:
        _re.compile(p)
    except _re.error:
        raise
    return p


def from_list(values: Iterable[object]) -> Strings:
    """Strings from a list (or 1-D NumPy array) of ``str``.

    Parameters
    ----------
    values : iterable of str
        The strings.

    Returns
    -------
    Strings
        The distributed strings.

    Raises
    ------
    TypeError
        If an element is not a str.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.numpy.strings import from_list
    >>> from_list(["a", "bc"]).to_list()
    ['a', 'bc']
    """
    v = [builtins.str(x) if isinstance(x, np.str_) else x for x in values]
    for x in v:
        if not isinstance(x, str):
            raise TypeError(f"expected str elements, got {type(x).__name__}")
    return Strings(_atoll.str_from_list(typing.cast(list[str], v)))


def _int_arg(v: object, name: str) -> int:
    if isinstance(v, (builtins.bool, np.bool_)) or not isinstance(v, (builtins.int, np.integer)):
        raise TypeError(f"{name}: expected an int, got {type(v).__name__}")
    return builtins.int(v)


def random_strings_uniform(
    minlen: int, maxlen: int, size: int, characters: str = "uppercase", seed: int | None = None
) -> Strings:
    """``size`` random strings of lengths in ``[minlen, maxlen)`` (Arkouda).

    Parameters
    ----------
    minlen : int
        The least length.
    maxlen : int
        One more than the greatest length.
    size : int
        The number of strings.
    characters : str, default "uppercase"
        The alphabet: ``uppercase``, ``lowercase``, ``numeric``, ``printable`` or ``binary``.
    seed : int or None
        The seed; None: a fresh one.

    Returns
    -------
    Strings
        The random strings.

    Raises
    ------
    TypeError
        If ``minlen`` or ``maxlen`` is not an int.
    ValueError
        If ``minlen`` < 0 or ``maxlen`` <= ``minlen``.

    Examples
    --------
    >>> import atoll as ak
    >>> s = ak.random_strings_uniform(2, 4, 5, seed=1)
    >>> s.size, bool(((s.get_lengths() >= 2) & (s.get_lengths() < 4)).all())
    (5, True)
    """
    lo, hi = _int_arg(minlen, "minlen"), _int_arg(maxlen, "maxlen")
    if lo < 0 or hi <= lo:
        raise ValueError(f"Incompatible arguments: minlen < 0, maxlen <= minlen (minlen={lo}, maxlen={hi})")
    return Strings(_atoll.str_random_uniform(lo, hi, _size(size), _str(characters, "characters"), _seed(seed)))


def random_strings_lognormal(
    logmean: float, logstd: float, size: int, characters: str = "uppercase", seed: int | None = None
) -> Strings:
    """``size`` random strings of lengths ``1 + floor(exp(N(logmean, logstd)))`` (Arkouda).

    Parameters
    ----------
    logmean : float
        The mean of the lengths' logarithm.
    logstd : float
        The standard deviation of the lengths' logarithm; positive.
    size : int
        The number of strings.
    characters : str, default "uppercase"
        The alphabet: ``uppercase``, ``lowercase``, ``numeric``, ``printable`` or ``binary``.
    seed : int or None
        The seed; None: a fresh one.

    Returns
    -------
    Strings
        The random strings.

    Raises
    ------
    TypeError
        If ``logmean`` or ``logstd`` is not a number.
    ValueError
        If ``logstd`` is not positive.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.random_strings_lognormal(1.0, 0.5, 4, seed=1).size
    4
    """
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


def concatenate(arrays: Iterable[Strings]) -> Strings:
    """The strings of every element of ``arrays``, one after the other.

    Parameters
    ----------
    arrays : iterable of Strings
        The arrays joined.

    Returns
    -------
    Strings
        Their strings, in order.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.numpy.strings import concatenate
    >>> concatenate([ak.array(["a"]), ak.array(["b", "c"])]).to_list()
    ['a', 'b', 'c']
    """
    return Strings(_atoll.str_concatenate_py([a._s for a in arrays]))


def unique(s: Strings) -> Strings:
    """The distinct strings, sorted.

    Parameters
    ----------
    s : Strings
        The strings.

    Returns
    -------
    Strings
        Each string once.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.numpy.strings import unique
    >>> unique(ak.array(["b", "a", "b"])).to_list()
    ['a', 'b']
    """
    return s.unique()


def in1d(a: Strings, b: Strings | Iterable[str]) -> pdarray:
    """Whether each string of ``a`` occurs in ``b``.

    Parameters
    ----------
    a : Strings
        The strings tested.
    b : Strings or iterable of str
        The strings looked for.

    Returns
    -------
    pdarray
        A bool array, one element per string of ``a``.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.numpy.strings import in1d
    >>> in1d(ak.array(["a", "b"]), ak.array(["b"])).tolist()
    [False, True]
    """
    return a.in1d(b)
