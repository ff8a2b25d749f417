"""Arkouda's client-side dtypes (``arkouda.client_dtypes``): ``IPv4``, a uint64 pdarray shown
as dotted-quad IPv4 addresses, and the functions about IP addresses (``ip_address``,
``is_ipv4``, ``is_ipv6``).

>>> import atoll as ak
>>> ip = ak.IPv4(ak.array([3232235777, 16909060]))
>>> ip.tolist()
['192.168.1.1', '1.2.3.4']
>>> ip[1]
'1.2.3.4'
>>> ak.ip_address(["10.0.0.1", "10.0.0.2"]).export_uint().tolist()
[167772161, 167772162]
"""

from ipaddress import ip_address as _ip_address

import numpy as np

from .numpy.pdarrayclass import pdarray
from .pandas._registry import Registrable
from .hdf5 import to_hdf
from .io import to_parquet
from .numpy.pdarraycreation import array

__all__ = ["IPv4", "ip_address", "is_ipv4", "is_ipv6"]

_INT_KINDS = ("i", "u")


def _is_int_scalar(x):
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


class IPv4(Registrable, pdarray):
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

    # ----- files ------------------------------------------------------------------------
    def to_hdf(self, prefix_path, dataset="array", mode="truncate", file_type="distribute"):
        """Writes the addresses as ``dataset`` (an IPv4 object, ``objType`` 9) to HDF5."""

        to_hdf({dataset: self}, prefix_path, mode=mode, file_type=file_type)

    def to_parquet(self, prefix_path, dataset="array", mode="truncate", compression=None):
        """Writes the addresses (their uint64 integers) as ``dataset`` to Parquet."""

        to_parquet({dataset: self.values}, prefix_path, mode=mode, compression=compression)


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
