"""Arkouda's client-side dtypes (``arkouda.client_dtypes``): ``IPv4``, a uint64 pdarray shown
as dotted-quad IPv4 addresses, and the functions about IP addresses (``ip_address``,
``is_ipv4``, ``is_ipv6``); ``BitVector``, a uint64 pdarray shown as bits (``bit_vectorizer``
makes one), and ``Fields``, one shown as named flags.

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

from functools import partial
from ipaddress import ip_address as _ip_address

import numpy as np

from .numpy.numeric import where
from .numpy.pdarrayclass import pdarray
from .numpy.pdarraycreation import arange, array, zeros
from .numpy.strings import Strings
from .pandas.groupbyclass import GroupBy, broadcast

__all__ = ["BitVector", "bit_vectorizer", "Fields", "IPv4", "ip_address", "is_ipv4", "is_ipv6"]

_INT_KINDS = ("i", "u")


def _is_int_scalar(x):
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


class IPv4(pdarray):
    """Integers shown as IPv4 addresses: a uint64 pdarray (a copy of ``values``) whose
    elements display, convert (``to_ndarray``, ``tolist``) and index as dotted quads.
    Arithmetic and comparisons treat it as its integers; addresses given as strings
    (``ip == "10.0.0.1"``) compare by their integer."""

    special_objType = "IPv4"
    objType = "IPv4"

    def __init__(self, values):
        if not isinstance(values, pdarray) or values.dtype.kind not in _INT_KINDS:
            raise TypeError("Argument must be int64 pdarray")
        # A copy (``astype`` always copies), as Arkouda's cast.
        self.values = pdarray(values.astype(np.uint64)._whole())
        super().__init__(self.values._arr)
        self.registered_name = None

    # ----- conversion -------------------------------------------------------------------
    def export_uint(self):
        """The addresses as a uint64 pdarray."""
        return self.values.astype(np.uint64)

    def format(self, x):
        """The dotted quad of the integer ``x``."""
        if not _is_int_scalar(x):
            raise TypeError("Argument must be an integer scalar")
        return str(_ip_address(int(x)))

    def normalize(self, x):
        """The integer of an address given as an int, a string or an ``ipaddress`` object."""
        if not _is_int_scalar(x):
            x = int(_ip_address(x))
        if x < 0:
            raise ValueError(f"Not an IP address: {x}")
        return int(x)

    def _is_supported_scalar(self, x):
        try:
            return True, self.normalize(x)
        except (ValueError, TypeError):
            return False, None

    def to_ndarray(self):
        """A NumPy array of the dotted quads (str)."""
        return np.array([self.format(x) for x in self.values.to_ndarray()])

    def tolist(self):
        return self.to_ndarray().tolist()

    def to_list(self):
        return self.tolist()

    def __str__(self):
        n = self.size
        idx = list(range(n)) if n <= 100 else [0, 1, 2, None, n - 3, n - 2, n - 1]
        vals = np.asarray(self.values.to_ndarray()) if n <= 100 else None
        out = []
        for i in idx:
            if i is None:
                out.append("...")
            else:
                out.append(self.format(vals[i] if vals is not None else self.values[i]))
        pad = " " * (len(type(self).__name__) + 1)
        return "{}([{}],\n{})".format(type(self).__name__, f",\n{pad} ".join(out), pad)

    def __repr__(self):
        return self.__str__()

    # ----- indexing ---------------------------------------------------------------------
    def __getitem__(self, key):
        if _is_int_scalar(key):
            return self.format(self.values[key])
        return type(self)(self.values[key])

    def __setitem__(self, key, value):
        isscalar, v = self._is_supported_scalar(value)
        if isscalar:
            self.values[key] = v
        elif isinstance(value, IPv4):
            self.values[key] = value.values
        else:
            raise TypeError(f"IPv4: cannot set {type(value).__name__}")
        self._arr = self.values._whole()

    # ----- operators: on the integers ---------------------------------------------------
    def _other(self, other):
        isscalar, v = self._is_supported_scalar(other)
        if isscalar:
            return v
        if isinstance(other, IPv4):
            return other.values
        if isinstance(other, pdarray) and other.dtype.kind in _INT_KINDS:
            return other
        return NotImplemented

    def __eq__(self, other):
        o = self._other(other)
        return NotImplemented if o is NotImplemented else self.values == o

    def __ne__(self, other):
        o = self._other(other)
        return NotImplemented if o is NotImplemented else self.values != o

    def __lt__(self, other):
        o = self._other(other)
        return NotImplemented if o is NotImplemented else self.values < o

    def __le__(self, other):
        o = self._other(other)
        return NotImplemented if o is NotImplemented else self.values <= o

    def __gt__(self, other):
        o = self._other(other)
        return NotImplemented if o is NotImplemented else self.values > o

    def __ge__(self, other):
        o = self._other(other)
        return NotImplemented if o is NotImplemented else self.values >= o

    __hash__ = None


def ip_address(values):
    """An ``IPv4`` of ``values``: a pdarray of integers, or a list (or NumPy array) of
    addresses as strings, integers or ``ipaddress`` objects."""

    if isinstance(values, IPv4):
        return values
    if isinstance(values, pdarray):
        return IPv4(values)
    return IPv4(array(np.array([int(_ip_address(x)) for x in values], dtype=np.uint64)))


def is_ipv4(ip, ip2=None):
    """A bool pdarray: True where the address is IPv4 (below 2**32). With ``ip2`` (the low
    64 bits of IPv6 addresses, ``ip`` their high bits), True where the high bits are 0 and the
    low ones below 2**32."""
    if isinstance(ip, IPv4):
        ip = ip.values
    if not isinstance(ip, pdarray) or ip.dtype.kind not in _INT_KINDS:
        raise TypeError("is_ipv4: ip must be an int64 or uint64 pdarray or an IPv4")
    if ip2 is not None:
        if not isinstance(ip2, pdarray) or ip2.size != ip.size:
            raise RuntimeError("When supplying a value for ip2, ip and ip2 must be the same size.")
        return (ip.astype(np.uint64) == 0) & (ip2.astype(np.uint64) < 2**32)
    return ip.astype(np.uint64) < 2**32


def is_ipv6(ip, ip2=None):
    """The complement of ``is_ipv4``."""
    return ~is_ipv4(ip, ip2)


# ----- bit vectors ------------------------------------------------------------------------
def bit_vectorizer(width=64, reverse=False):
    """A function that makes a ``BitVector`` of ``width`` bits (``reverse`` as there) from an
    integer pdarray."""
    return partial(BitVector, width=width, reverse=reverse)


class BitVector(pdarray):
    """Integers shown as vectors of ``width`` bits (``|`` set, ``.`` clear; the most
    significant bit on the left, on the right when ``reverse``): a uint64 pdarray (a copy of
    ``values``, an int64 or uint64 pdarray). Arithmetic and comparisons treat it as its
    integers; ``+ - | & ^ << >>`` give a BitVector of the same width."""

    conserves = frozenset(("+", "-", "|", "&", "^", ">>", "<<"))
    special_objType = "BitVector"
    objType = "BitVector"

    def __init__(self, values, width=64, reverse=False):
        self.registered_name = None
        if not isinstance(values, pdarray) or values.dtype.kind not in _INT_KINDS:
            raise TypeError("Argument must be integer pdarray")
        if not _is_int_scalar(width) or not 0 < int(width) <= 64:
            raise ValueError(f"width: expected an int in 1..64, got {width!r}")
        self.width = int(width)
        self.reverse = bool(reverse)
        self.values = pdarray(values.astype(np.uint64)._whole())
        super().__init__(self.values._arr)

    def format(self, x):
        """The bits of the integer ``x``, ``|`` for a set bit, padded to ``width`` characters
        (more where ``x`` has more bits, as Arkouda's)."""
        bits = format(int(x), f"0{self.width}b").replace("0", ".").replace("1", "|")
        return bits[::-1] if self.reverse else bits

    def to_ndarray(self):
        """A NumPy array of the bit strings."""
        return np.array([self.format(x) for x in self.values.to_ndarray()])

    def tolist(self):
        return self.to_ndarray().tolist()

    def to_list(self):
        return self.tolist()

    def __str__(self):
        n = self.size
        vals = self.values.to_ndarray() if n <= 100 else None
        idx = list(range(n)) if n <= 100 else [0, 1, 2, None, n - 3, n - 2, n - 1]
        out = ["..." if i is None else self.format(vals[i] if vals is not None else self.values[i]) for i in idx]
        pad = " " * (len(type(self).__name__) + 1)
        return "{}([{}],\n{}width={}, reverse={})".format(
            type(self).__name__, f",\n{pad} ".join(out), pad, self.width, self.reverse
        )

    def __repr__(self):
        return self.__str__()

    def _cast(self, values):
        return type(self)(values, width=self.width, reverse=self.reverse)

    # ----- indexing ---------------------------------------------------------------------
    def __getitem__(self, key):
        if _is_int_scalar(key):
            return self.format(self.values[key])
        return self._cast(self.values[key])

    def __setitem__(self, key, value):
        if isinstance(value, BitVector):
            self.values[key] = value.values
        elif _is_int_scalar(value) or (isinstance(value, pdarray) and value.dtype.kind in _INT_KINDS):
            self.values[key] = value
        else:
            raise TypeError(f"{type(self).__name__}: cannot set {type(value).__name__}")
        self._arr = self.values._whole()

    # ----- operators: on the integers ---------------------------------------------------
    def _operand(self, other):
        if _is_int_scalar(other):
            return other
        if isinstance(other, BitVector):
            return other.values
        if isinstance(other, pdarray) and other.dtype.kind in _INT_KINDS:
            return other
        return NotImplemented

    def _binop(self, other, op, reverse=False):
        o = self._operand(other)
        if o is NotImplemented:
            return NotImplemented
        r = self.values._binop(o, op, reverse) if reverse else self.values._binop(o, op)
        return self._cast(r) if op in self.conserves and r is not NotImplemented else r

    def _inplace(self, other, op):
        o = self._operand(other)
        if o is NotImplemented:
            return NotImplemented
        r = self.values._inplace(o, op)
        if r is NotImplemented:
            return r
        self._arr = self.values._whole()
        return self

    def opeq(self, other, op):
        """``self op= other`` for ``op`` one of ``+ - * | & ^ << >>`` (Arkouda's name)."""
        op = op[:-1] if op.endswith("=") else op
        out = self._inplace(other, op)
        if out is NotImplemented:
            raise TypeError(f"{type(self).__name__}: unsupported operand {type(other).__name__} for {op}=")


class Fields(BitVector):
    """Integers shown as sets of named flags: bit ``k`` of ``names`` (the left-most name the
    most significant bit, the least when not ``MSB_left``) is shown as the name when set,
    as ``pad`` repeated to the names' width when clear, each followed by ``separator``,
    and the integer in parentheses when ``show_int``. ``values``: an integer pdarray, or
    Strings of flags (each name a string holds sets its bit: by substring when
    ``separator`` is empty, else among the pieces between separators). ``names``: a str (one
    character per field) or a sequence of unique non-empty names, at most 63; names of more
    than one character need a separator."""

    def __init__(self, values, names, MSB_left=True, pad="-", separator="", show_int=True):
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

    def _convert_strings(self, s):
        """The integers of Strings of flags (see the class)."""
        out = zeros(s.size, np.uint64)
        if self.separator == "":
            for name, shift in zip(self.names, self.shifts):
                out = out | where(s.contains(name), np.uint64(1 << shift), np.uint64(0))
            return out
        pieces, segs = s.split(self.separator, return_segments=True)
        origin = broadcast(segs, arange(s.size), pieces.size)
        g = GroupBy(origin)
        for name, shift in zip(self.names, self.shifts):
            has = zeros(s.size, bool)
            keys, any_ = g.any(pieces == name)
            has[keys] = any_
            out = out | where(has, np.uint64(1 << shift), np.uint64(0))
        return out

    def _parse_scalar(self, s):
        """The integer of one string of flags."""
        fields = s.split(self.separator) if self.separator else None
        val = 0
        for name, shift in zip(self.names, self.shifts):
            if (name in fields) if fields is not None else (name in s):
                val |= 1 << shift
        return val

    def format(self, x):
        """The fields of the integer ``x`` (see the class)."""
        out = []
        for name, shift in zip(self.names, self.shifts):
            out.append((f"{name:^{self.namewidth}s}" if (int(x) >> shift) & 1 else self.pad) + self.separator)
        s = "".join(out)
        return s + f" ({int(x)})" if self.show_int else s

    def _cast(self, values):
        return type(self)(
            values,
            self.names,
            MSB_left=self.MSB_left,
            pad=self.padchar,
            separator=self.separator,
            show_int=self.show_int,
        )

    def __setitem__(self, key, value):
        super().__setitem__(key, self._parse_scalar(value) if isinstance(value, str) else value)

    def _operand(self, other):
        return super()._operand(self._parse_scalar(other) if isinstance(other, str) else other)
