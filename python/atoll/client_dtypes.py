"""Arkouda's client-side dtypes (``arkouda.client_dtypes``): integers shown as addresses or bits.

``IPv4``, a uint64 pdarray shown as dotted-quad IPv4 addresses, and the functions about IP
addresses (``ip_address``, ``is_ipv4``, ``is_ipv6``); ``BitVector``, a uint64 pdarray shown as
bits (``bit_vectorizer`` makes one), and ``Fields``, one shown as named flags.

>>> import atoll as ak
>>> ip = ak.IPv4(ak.array([3232235777, 16909060]))
>>> ip.tolist()
['192.168.1.1', '1.2.3.4']
>>> ip[1]
'1.2.3.4'
>>> ak.ip_address(["10.0.0.1", "10.0.0.2"]).export_uint().tolist()
[167772161, 167772162]
>>> ak.BitVector(ak.arange(4), width=3).tolist()
['...', '..|', '.|.', '.||']
>>> ak.Fields(ak.array([0, 5]), "ABC").tolist()
['--- (0)', 'A-C (5)']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import partial
from ipaddress import IPv4Address, IPv6Address, ip_address as _ip_address
from typing import Any, Callable, Union

import numpy as np
import numpy.typing as npt

from .numpy.numeric import where
from .numpy.pdarrayclass import pdarray
from .numpy.pdarraycreation import arange, array, zeros
from .numpy.strings import Strings
from .pandas.groupbyclass import GroupBy, broadcast

__all__ = ["BitVector", "bit_vectorizer", "Fields", "IPv4", "ip_address", "is_ipv4", "is_ipv6"]

_INT_KINDS = ("i", "u")
# An address as ``ipaddress`` takes it.
_Address = Union[int, str, IPv4Address, IPv6Address]
# The arrays' operators are set on pdarray by numpy._pdarrayclass_methods, which mypy does
# not see: the values are handled as ``Any`` where they are indexed or combined.


def _is_int_scalar(x: object) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


class IPv4(pdarray):
    """Integers shown as IPv4 addresses.

    A uint64 pdarray (a copy of ``values``) whose elements display, convert (``to_ndarray``,
    ``tolist``) and index as dotted quads. Arithmetic and comparisons treat it as its
    integers; addresses given as strings (``ip == "10.0.0.1"``) compare by their integer.

    Parameters
    ----------
    values : pdarray
        The addresses as integers (int64 or uint64).

    Raises
    ------
    TypeError
        ``values`` is not an integer pdarray.

    Examples
    --------
    >>> import atoll as ak
    >>> ip = ak.IPv4(ak.array([3232235777, 16909060]))
    >>> ip
    IPv4([192.168.1.1,
          1.2.3.4],
         )
    >>> ip == "1.2.3.4"
    array([False  True])
    """

    special_objType = "IPv4"
    objType = "IPv4"

    def __init__(self, values: pdarray) -> None:
        if not isinstance(values, pdarray) or values.dtype.kind not in _INT_KINDS:
            raise TypeError("Argument must be int64 pdarray")
        # A copy (``astype`` always copies), as Arkouda's cast.
        v: Any = values
        self.values = pdarray(v.astype(np.uint64)._whole())
        super().__init__(self.values._arr)
        self.registered_name: str | None = None

    # ----- conversion -------------------------------------------------------------------
    def export_uint(self) -> pdarray:
        """The addresses as a uint64 pdarray (a copy).

        Returns
        -------
        pdarray
            The integers.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.ip_address(["10.0.0.1"]).export_uint()
        array([167772161])
        """
        v: Any = self.values
        out: pdarray = v.astype(np.uint64)
        return out

    def format(self, x: int | np.integer[Any]) -> str:
        """The dotted quad of the integer ``x``.

        Parameters
        ----------
        x : int
            An address as an integer.

        Returns
        -------
        str
            Its dotted quad (IPv6's notation above 2**32 - 1).

        Raises
        ------
        TypeError
            ``x`` is not an integer.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.IPv4(ak.array([0])).format(16909060)
        '1.2.3.4'
        """
        if not _is_int_scalar(x):
            raise TypeError("Argument must be an integer scalar")
        return str(_ip_address(int(x)))

    def normalize(self, x: _Address) -> int:
        """The integer of an address.

        Parameters
        ----------
        x : int, str or ipaddress object
            The address.

        Returns
        -------
        int
            Its integer.

        Raises
        ------
        ValueError
            ``x`` is not an address.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.IPv4(ak.array([0])).normalize("10.0.0.1")
        167772161
        """
        n = int(x) if _is_int_scalar(x) else int(_ip_address(x))
        if n < 0:
            raise ValueError(f"Not an IP address: {n}")
        return n

    def _is_supported_scalar(self, x: object) -> tuple[bool, int | None]:
        try:
            return True, self.normalize(x)  # type: ignore[arg-type]  # any object: others raise
        except (ValueError, TypeError):
            return False, None

    def to_ndarray(self) -> npt.NDArray[np.str_]:
        """The dotted quads, as a NumPy array.

        Returns
        -------
        numpy.ndarray
            The addresses (str).

        Examples
        --------
        >>> import atoll as ak
        >>> ak.IPv4(ak.array([3232235777, 16909060])).to_ndarray()
        array(['192.168.1.1', '1.2.3.4'], dtype='<U11')
        """
        return np.array([self.format(x) for x in self.values.to_ndarray()])

    def tolist(self) -> list[str]:
        """The dotted quads, as a list.

        Returns
        -------
        list of str
            The addresses.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.IPv4(ak.array([3232235777, 16909060])).tolist()
        ['192.168.1.1', '1.2.3.4']
        """
        out: list[str] = self.to_ndarray().tolist()
        return out

    def to_list(self) -> list[str]:
        """The dotted quads, as a list (``tolist``).

        Returns
        -------
        list of str
            The addresses.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.IPv4(ak.array([16909060])).to_list()
        ['1.2.3.4']
        """
        return self.tolist()

    def __str__(self) -> str:
        n = self.size
        idx = list(range(n)) if n <= 100 else [0, 1, 2, None, n - 3, n - 2, n - 1]
        vals = np.asarray(self.values.to_ndarray()) if n <= 100 else None
        values: Any = self.values
        out = []
        for i in idx:
            if i is None:
                out.append("...")
            else:
                out.append(self.format(vals[i] if vals is not None else values[i]))
        pad = " " * (len(type(self).__name__) + 1)
        return "{}([{}],\n{})".format(type(self).__name__, f",\n{pad} ".join(out), pad)

    def __repr__(self) -> str:
        return self.__str__()

    # ----- indexing ---------------------------------------------------------------------
    def __getitem__(self, key: Any) -> str | IPv4:  # noqa: ANN401 (an index, a slice or an array of them)
        values: Any = self.values
        if _is_int_scalar(key):
            return self.format(values[key])
        return type(self)(values[key])

    def __setitem__(self, key: Any, value: object) -> None:  # noqa: ANN401 (an index, a slice or an array)
        values: Any = self.values
        isscalar, v = self._is_supported_scalar(value)
        if isscalar:
            values[key] = v
        elif isinstance(value, IPv4):
            values[key] = value.values
        else:
            raise TypeError(f"IPv4: cannot set {type(value).__name__}")
        self._arr = self.values._whole()

    # ----- operators: on the integers ---------------------------------------------------
    def _other(self, other: object) -> Any:  # noqa: ANN401 (an int, a pdarray or NotImplemented)
        isscalar, v = self._is_supported_scalar(other)
        if isscalar:
            return v
        if isinstance(other, IPv4):
            return other.values
        if isinstance(other, pdarray) and other.dtype.kind in _INT_KINDS:
            return other
        return NotImplemented

    def __eq__(self, other: object) -> Any:  # noqa: ANN401 (a bool pdarray, as NumPy's)
        o = self._other(other)
        values: Any = self.values
        return NotImplemented if o is NotImplemented else values == o

    def __ne__(self, other: object) -> Any:  # noqa: ANN401 (a bool pdarray, as NumPy's)
        o = self._other(other)
        values: Any = self.values
        return NotImplemented if o is NotImplemented else values != o

    def __lt__(self, other: object) -> Any:  # noqa: ANN401 (a bool pdarray, as NumPy's)
        o = self._other(other)
        values: Any = self.values
        return NotImplemented if o is NotImplemented else values < o

    def __le__(self, other: object) -> Any:  # noqa: ANN401 (a bool pdarray, as NumPy's)
        o = self._other(other)
        values: Any = self.values
        return NotImplemented if o is NotImplemented else values <= o

    def __gt__(self, other: object) -> Any:  # noqa: ANN401 (a bool pdarray, as NumPy's)
        o = self._other(other)
        values: Any = self.values
        return NotImplemented if o is NotImplemented else values > o

    def __ge__(self, other: object) -> Any:  # noqa: ANN401 (a bool pdarray, as NumPy's)
        o = self._other(other)
        values: Any = self.values
        return NotImplemented if o is NotImplemented else values >= o

    __hash__ = None  # mutable, as NumPy's arrays


def ip_address(values: pdarray | Iterable[_Address]) -> IPv4:
    """An ``IPv4`` of addresses.

    Parameters
    ----------
    values : pdarray or iterable
        A pdarray of integers, or a list (or NumPy array) of addresses as strings, integers
        or ``ipaddress`` objects.

    Returns
    -------
    IPv4
        The addresses (``values`` itself when it is an IPv4).

    Raises
    ------
    ValueError
        A value is not an address.
    TypeError
        A pdarray that is not of integers.

    Examples
    --------
    >>> import atoll as ak
    >>> ip = ak.ip_address(["10.0.0.1", "10.0.0.9"])
    >>> ip.export_uint()
    array([167772161 167772169])
    >>> ip == "10.0.0.1"
    array([ True False])
    """
    if isinstance(values, IPv4):
        return values
    if isinstance(values, pdarray):
        return IPv4(values)
    return IPv4(array(np.array([int(_ip_address(x)) for x in values], dtype=np.uint64)))


def is_ipv4(ip: pdarray, ip2: pdarray | None = None) -> pdarray:
    """Where the addresses are IPv4 addresses (below 2**32).

    Parameters
    ----------
    ip : pdarray or IPv4
        The addresses (int64 or uint64), or the high 64 bits of IPv6 addresses with ``ip2``.
    ip2 : pdarray, optional
        The low 64 bits of the IPv6 addresses.

    Returns
    -------
    pdarray
        bool: True where the address is below 2**32 (with ``ip2``: where the high bits are 0
        and the low ones below 2**32).

    Raises
    ------
    TypeError
        ``ip`` is not an integer pdarray.
    RuntimeError
        ``ip2`` is not a pdarray of ``ip``'s size.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.is_ipv4(ak.array([1, 2**33]))
    array([ True False])
    >>> ak.is_ipv4(ak.array([0, 1]), ak.array([5, 2**40]))
    array([ True False])
    """
    if isinstance(ip, IPv4):
        ip = ip.values
    if not isinstance(ip, pdarray) or ip.dtype.kind not in _INT_KINDS:
        raise TypeError("is_ipv4: ip must be an int64 or uint64 pdarray or an IPv4")
    if ip2 is not None:
        if not isinstance(ip2, pdarray) or ip2.size != ip.size:
            raise RuntimeError("When supplying a value for ip2, ip and ip2 must be the same size.")
        hi: Any = ip
        lo: Any = ip2
        both: pdarray = (hi.astype(np.uint64) == 0) & (lo.astype(np.uint64) < 2**32)
        return both
    v: Any = ip
    out: pdarray = v.astype(np.uint64) < 2**32
    return out


def is_ipv6(ip: pdarray, ip2: pdarray | None = None) -> pdarray:
    """Where the addresses are not IPv4 addresses: the complement of ``is_ipv4``.

    Parameters
    ----------
    ip : pdarray or IPv4
        The addresses, or the high 64 bits of IPv6 addresses with ``ip2``.
    ip2 : pdarray, optional
        The low 64 bits of the IPv6 addresses.

    Returns
    -------
    pdarray
        bool: True where ``is_ipv4`` is False.

    Raises
    ------
    TypeError
        ``ip`` is not an integer pdarray.
    RuntimeError
        ``ip2`` is not a pdarray of ``ip``'s size.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.is_ipv6(ak.array([1, 2**33]))
    array([False  True])
    """
    v4: Any = is_ipv4(ip, ip2)
    out: pdarray = ~v4
    return out


# ----- bit vectors ------------------------------------------------------------------------
def bit_vectorizer(width: int = 64, reverse: bool = False) -> Callable[[pdarray], BitVector]:
    """A function that makes a ``BitVector`` of ``width`` bits from an integer pdarray.

    Parameters
    ----------
    width : int, default 64
        The bits shown, 1 to 64.
    reverse : bool, default False
        Show the most significant bit on the right.

    Returns
    -------
    callable
        ``BitVector(values, width=width, reverse=reverse)`` of its argument.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.bit_vectorizer(width=4)(ak.array([1, 6])).tolist()
    ['...|', '.||.']
    """
    return partial(BitVector, width=width, reverse=reverse)


class BitVector(pdarray):
    """Integers shown as vectors of ``width`` bits.

    ``|`` is a set bit, ``.`` a clear one; the most significant bit is on the left, on the
    right when ``reverse``. A uint64 pdarray (a copy of ``values``). Arithmetic and
    comparisons treat it as its integers; ``+ - | & ^ << >>`` give a BitVector of the same
    width.

    Parameters
    ----------
    values : pdarray
        The integers (int64 or uint64).
    width : int, default 64
        The bits shown, 1 to 64.
    reverse : bool, default False
        Show the most significant bit on the right.

    Raises
    ------
    TypeError
        ``values`` is not an integer pdarray.
    ValueError
        ``width`` is outside 1..64.

    Examples
    --------
    >>> import atoll as ak
    >>> bv = ak.BitVector(ak.array([1, 6]), width=4)
    >>> bv
    BitVector([...|,
               .||.],
              width=4, reverse=False)
    >>> (bv | 8).tolist()
    ['|..|', '|||.']
    """

    conserves = frozenset(("+", "-", "|", "&", "^", ">>", "<<"))
    special_objType = "BitVector"
    objType = "BitVector"

    def __init__(self, values: pdarray, width: int = 64, reverse: bool = False) -> None:
        self.registered_name: str | None = None
        if not isinstance(values, pdarray) or values.dtype.kind not in _INT_KINDS:
            raise TypeError("Argument must be integer pdarray")
        if not _is_int_scalar(width) or not 0 < int(width) <= 64:
            raise ValueError(f"width: expected an int in 1..64, got {width!r}")
        self.width = int(width)
        self.reverse = bool(reverse)
        v: Any = values
        self.values = pdarray(v.astype(np.uint64)._whole())
        super().__init__(self.values._arr)

    def format(self, x: int | np.integer[Any]) -> str:
        """The bits of the integer ``x``, ``|`` for a set bit.

        Parameters
        ----------
        x : int
            The integer.

        Returns
        -------
        str
            Its bits, padded to ``width`` characters (more where ``x`` has more bits, as
            Arkouda's).

        Examples
        --------
        >>> import atoll as ak
        >>> ak.BitVector(ak.array([0]), width=4).format(5)
        '.|.|'
        """
        bits = format(int(x), f"0{self.width}b").replace("0", ".").replace("1", "|")
        return bits[::-1] if self.reverse else bits

    def to_ndarray(self) -> npt.NDArray[np.str_]:
        """The bit strings, as a NumPy array.

        Returns
        -------
        numpy.ndarray
            The strings (str).

        Examples
        --------
        >>> import atoll as ak
        >>> ak.BitVector(ak.array([1, 6]), width=4).to_ndarray()
        array(['...|', '.||.'], dtype='<U4')
        """
        return np.array([self.format(x) for x in self.values.to_ndarray()])

    def tolist(self) -> list[str]:
        """The bit strings, as a list.

        Returns
        -------
        list of str
            The strings.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.BitVector(ak.array([1, 6]), width=4, reverse=True).tolist()
        ['|...', '.||.']
        """
        out: list[str] = self.to_ndarray().tolist()
        return out

    def to_list(self) -> list[str]:
        """The bit strings, as a list (``tolist``).

        Returns
        -------
        list of str
            The strings.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.BitVector(ak.array([3]), width=2).to_list()
        ['||']
        """
        return self.tolist()

    def __str__(self) -> str:
        n = self.size
        vals = self.values.to_ndarray() if n <= 100 else None
        values: Any = self.values
        idx = list(range(n)) if n <= 100 else [0, 1, 2, None, n - 3, n - 2, n - 1]
        out = ["..." if i is None else self.format(vals[i] if vals is not None else values[i]) for i in idx]
        pad = " " * (len(type(self).__name__) + 1)
        return "{}([{}],\n{}width={}, reverse={})".format(
            type(self).__name__, f",\n{pad} ".join(out), pad, self.width, self.reverse
        )

    def __repr__(self) -> str:
        return self.__str__()

    def _cast(self, values: pdarray) -> BitVector:
        return type(self)(values, width=self.width, reverse=self.reverse)

    # ----- indexing ---------------------------------------------------------------------
    def __getitem__(self, key: Any) -> str | BitVector:  # noqa: ANN401 (an index, a slice or an array of them)
        values: Any = self.values
        if _is_int_scalar(key):
            return self.format(values[key])
        return self._cast(values[key])

    def __setitem__(self, key: Any, value: object) -> None:  # noqa: ANN401 (an index, a slice or an array)
        values: Any = self.values
        if isinstance(value, BitVector):
            values[key] = value.values
        elif _is_int_scalar(value) or (isinstance(value, pdarray) and value.dtype.kind in _INT_KINDS):
            values[key] = value
        else:
            raise TypeError(f"{type(self).__name__}: cannot set {type(value).__name__}")
        self._arr = self.values._whole()

    # ----- operators: on the integers ---------------------------------------------------
    def _operand(self, other: object) -> Any:  # noqa: ANN401 (an int, a pdarray or NotImplemented)
        if _is_int_scalar(other):
            return other
        if isinstance(other, BitVector):
            return other.values
        if isinstance(other, pdarray) and other.dtype.kind in _INT_KINDS:
            return other
        return NotImplemented

    def _binop(self, other: object, op: str, reverse: bool = False) -> Any:  # noqa: ANN401 (as pdarray's)
        o = self._operand(other)
        if o is NotImplemented:
            return NotImplemented
        values: Any = self.values
        r = values._binop(o, op, reverse) if reverse else values._binop(o, op)
        return self._cast(r) if op in self.conserves and r is not NotImplemented else r

    def _inplace(self, other: object, op: str) -> Any:  # noqa: ANN401 (self, or NotImplemented)
        o = self._operand(other)
        if o is NotImplemented:
            return NotImplemented
        r = self.values._inplace(o, op)
        if r is NotImplemented:
            return r
        self._arr = self.values._whole()
        return self

    def opeq(self, other: int | pdarray, op: str) -> None:
        """``self op= other``, in place (Arkouda's name).

        Parameters
        ----------
        other : int or pdarray
            The right operand: an integer, or an integer pdarray or BitVector.
        op : str
            One of ``+ - * | & ^ << >>``, with or without ``=``.

        Raises
        ------
        TypeError
            An operand of another type, or of a dtype NumPy does not combine with uint64.

        Examples
        --------
        >>> import atoll as ak
        >>> bv = ak.BitVector(ak.array([1, 6]), width=4)
        >>> bv.opeq(2, "|=")
        >>> bv.tolist()
        ['..||', '.||.']
        """
        op = op[:-1] if op.endswith("=") else op
        out = self._inplace(other, op)
        if out is NotImplemented:
            raise TypeError(f"{type(self).__name__}: unsupported operand {type(other).__name__} for {op}=")


class Fields(BitVector):
    """Integers shown as sets of named flags.

    Each field is shown as its name when its bit is set, as ``pad`` repeated to the names'
    width when clear, each followed by ``separator``, and the integer in parentheses when
    ``show_int``.

    Parameters
    ----------
    values : pdarray or Strings
        An integer pdarray, or Strings of flags: each name a string holds sets its bit (by
        substring when ``separator`` is empty, else among the pieces between separators).
    names : str or sequence of str
        The fields' names, the left-most name the most significant bit (the least when not
        ``MSB_left``): a str (one character per field) or unique non-empty names, at most 63;
        names of more than one character need a separator.
    MSB_left : bool, default True
        The first name is the most significant bit.
    pad : str, default '-'
        The character of a clear field (or empty).
    separator : str, default ''
        The text after each field.
    show_int : bool, default True
        Show the integer in parentheses.

    Raises
    ------
    ValueError
        The names are empty, too many, repeated or hold the separator; a name is longer than
        one character without a separator; ``pad`` is longer than one character.
    TypeError
        A name, ``pad`` or ``separator`` is not a str.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.Fields(ak.array([0, 5]), "ABC")
    Fields([--- (0),
            A-C (5)],
           width=3, reverse=False)
    >>> ak.Fields(ak.array(["A|C", "B"]), ["A", "B", "C"], separator="|").tolist()
    ['A|-|C| (5)', '-|B|-| (2)']
    """

    def __init__(
        self,
        values: pdarray | Strings,
        names: str | Sequence[str],
        MSB_left: bool = True,
        pad: str = "-",
        separator: str = "",
        show_int: bool = True,
    ) -> None:
        self.names = tuple(names)
        if not self.names:
            raise ValueError("At least one field name is needed")
        if not all(isinstance(n, str) for n in self.names):
            raise TypeError("Field names must be str")
        if len(self.names) > 63:
            raise ValueError("Cannot represent more than 63 fields")
        if len(self.names) != len(set(self.names)):
            raise ValueError("Field names must be unique")
        if any(n == "" for n in self.names):
            raise ValueError("Names cannot be empty strings")
        if not isinstance(separator, str) or not isinstance(pad, str):
            raise TypeError("pad and separator must be str")
        if separator != "" and separator in self.names:
            raise ValueError("Separator cannot be a field name")
        self.namewidth = max(len(n) for n in self.names)
        if self.namewidth > 1 and separator == "":
            raise ValueError("A non-empty separator must be specified when field names have more than one character")
        if len(pad) > 1:
            raise ValueError("Pad must be single character or empty string")
        self.padchar = pad
        self.pad = self.namewidth * pad
        self.separator = separator
        self.MSB_left = bool(MSB_left)
        width = len(self.names)
        self.shifts = range(width - 1, -1, -1) if self.MSB_left else range(width)
        self.show_int = bool(show_int)
        if isinstance(values, Strings):
            values = self._convert_strings(values)
        super().__init__(values, width=width, reverse=not self.MSB_left)

    def _convert_strings(self, s: Strings) -> pdarray:
        """The integers of Strings of flags (see the class)."""
        out: Any = zeros(s.size, np.uint64)
        if self.separator == "":
            for name, shift in zip(self.names, self.shifts):
                out = out | where(s.contains(name), np.uint64(1 << shift), np.uint64(0))
            flags: pdarray = out
            return flags
        strings: Any = s
        pieces, segs = strings.split(self.separator, return_segments=True)
        origin = broadcast(segs, arange(s.size), pieces.size)
        g = GroupBy(origin)
        for name, shift in zip(self.names, self.shifts):
            has: Any = zeros(s.size, bool)
            keys, any_ = g.any(pieces == name)
            has[keys] = any_
            out = out | where(has, np.uint64(1 << shift), np.uint64(0))
        result: pdarray = out
        return result

    def _parse_scalar(self, s: str) -> int:
        """The integer of one string of flags."""
        fields = s.split(self.separator) if self.separator else None
        val = 0
        for name, shift in zip(self.names, self.shifts):
            if (name in fields) if fields is not None else (name in s):
                val |= 1 << shift
        return val

    def format(self, x: int | np.integer[Any]) -> str:
        """The fields of the integer ``x``, as the class shows them.

        Parameters
        ----------
        x : int
            The integer.

        Returns
        -------
        str
            Its fields.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.Fields(ak.array([0]), "ABC").format(3)
        '-BC (3)'
        """
        out = []
        for name, shift in zip(self.names, self.shifts):
            out.append((f"{name:^{self.namewidth}s}" if (int(x) >> shift) & 1 else self.pad) + self.separator)
        s = "".join(out)
        return s + f" ({int(x)})" if self.show_int else s

    def _cast(self, values: pdarray) -> Fields:
        return type(self)(
            values,
            self.names,
            MSB_left=self.MSB_left,
            pad=self.padchar,
            separator=self.separator,
            show_int=self.show_int,
        )

    def __setitem__(self, key: Any, value: object) -> None:  # noqa: ANN401 (an index, a slice or an array)
        super().__setitem__(key, self._parse_scalar(value) if isinstance(value, str) else value)

    def _operand(self, other: object) -> Any:  # noqa: ANN401 (an int, a pdarray or NotImplemented)
        return super()._operand(self._parse_scalar(other) if isinstance(other, str) else other)
