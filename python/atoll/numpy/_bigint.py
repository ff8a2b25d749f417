"""Arkouda's ``bigint`` arrays: arbitrary-precision integers stored as uint64 limb arrays.

A :class:`BigIntArray` holds ``k`` uint64 pdarrays (least significant limb first), read as a
two's-complement integer of ``64 * k`` bits (the top limb's top bit is the sign), so Python's
int semantics hold for any value: operations widen the limbs as needed. With ``max_bits``
(Arkouda's) every value is kept modulo ``2**max_bits``, as a nonnegative integer. Arithmetic
runs limb by limb on the distributed arrays (carries as comparisons, products on 32-bit
halves); floor division and modulo by bigints are not supported.
"""

from __future__ import annotations

import builtins
import operator as _op
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from .dtypes import bigint, bigint_, bool_, float64, int64, is_bigint, is_str_dtype, uint64
from .pdarrayclass import _from_numpy, _full, pdarray, sum as _sum
from .strings import Strings, from_list

_M = (1 << 64) - 1
_TOP = np.uint64(1 << 63)
_ALL = np.uint64(_M)
_ZERO = np.uint64(0)


def _u(x: pdarray) -> pdarray:
    return x if x.dtype == uint64 else x.astype(uint64)


class BigIntArray(pdarray):
    """A pdarray of dtype ``bigint`` (see the module's doc).

    Parameters
    ----------
    limbs : list of pdarray
        The uint64 limbs, least significant first, all of one size.
    max_bits : int or None, default -1
        Keep every value modulo ``2**max_bits``; -1 or None: unbounded.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.array([2**70, -3], dtype=ak.bigint).tolist()
    [1180591620717411303424, -3]
    """

    __slots__ = ("_limbs", "_mb")

    if TYPE_CHECKING:
        # Methods set on the class by ``atoll.numpy._bigint_methods`` (mypy sees no attach).
        def _sign_limb(self) -> pdarray: ...
        def __abs__(self) -> BigIntArray: ...

    def __init__(self, limbs: Sequence[pdarray], max_bits: int | None = -1) -> None:
        n = limbs[0].size
        self._arr = None
        self._start, self._step, self._size, self._expr, self._nodes, self._shape = 0, 1, n, None, 1, None
        self._dtype = bigint()
        self._limbs: list[pdarray] = [_u(x)._materialize() for x in limbs]
        self._mb = -1 if max_bits is None else builtins.int(max_bits)
        if self._mb >= 0:
            self._wrap()

    # ----- representation -----------------------------------------------------------------
    def _wrap(self) -> None:
        mb = self._mb
        if mb == 0:
            self._limbs = [_zeros(self._size)]
            return
        k = -(-mb // 64)
        limbs = self._ext(k)
        r = mb - 64 * (k - 1)
        if r < 64:
            limbs[-1] = (limbs[-1] & np.uint64((1 << r) - 1))._materialize()
        self._limbs = limbs + [_zeros(self._size)]  # nonnegative

    def _ext(self, k: int) -> list[pdarray]:
        """The limbs sign-extended (or truncated) to ``k``."""
        if k <= len(self._limbs):
            return list(self._limbs[:k])
        s = self._sign_limb()
        return list(self._limbs) + [s] * (k - len(self._limbs))

    @property
    def dtype(self) -> Any:  # noqa: ANN401 (Atoll's bigint dtype)
        """The dtype: ``bigint``."""
        return bigint()

    @property
    def max_bits(self) -> int:
        """The width every value is kept within (modulo ``2**max_bits``); -1: unbounded."""
        return self._mb

    @max_bits.setter
    def max_bits(self, v: int | None) -> None:
        self._mb = -1 if v is None else builtins.int(v)
        if self._mb >= 0:
            self._wrap()

    @property
    def itemsize(self) -> int:
        """The bytes of one value: 8 per limb."""
        return 8 * len(self._limbs)

    @property
    def nbytes(self) -> int:
        """The bytes of the limbs."""
        return self._size * self.itemsize

    def _materialize(self) -> BigIntArray:
        return self

    def _ex(self) -> Any:  # noqa: ANN401 (never returns)
        raise TypeError("bigint arrays do not take part in elementwise expressions of the four dtypes")

    # ----- conversion -----------------------------------------------------------------------
    def bigint_to_uint_arrays(self) -> list[pdarray]:
        """The uint64 limbs, most significant first (Arkouda's order), of the nonnegative values.

        Without leading limbs that are zero everywhere.

        Returns
        -------
        list of pdarray
            The uint64 limbs, most significant first.

        Examples
        --------
        >>> import atoll as ak
        >>> [x.tolist() for x in ak.array([1, 2**64], dtype=ak.bigint).bigint_to_uint_arrays()]
        [[0, 1], [1, 0]]
        """
        limbs = list(self._limbs)
        while len(limbs) > 1 and not builtins.bool(limbs[-1].any()):
            limbs.pop()
        return [x[:] for x in reversed(limbs)]

    def to_ndarray(self) -> np.ndarray[Any, Any]:
        """The values as a NumPy object array of Python ints.

        Returns
        -------
        numpy.ndarray
            An object array.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array([2**64, -1], dtype=ak.bigint).to_ndarray()
        array([18446744073709551616, -1], dtype=object)
        """
        vals = [np.asarray(x.to_ndarray(), dtype=object) for x in self._limbs]
        out = np.zeros(self._size, dtype=object)
        for i, v in enumerate(vals):
            out = out + (v << (64 * i))
        k = len(self._limbs)
        if self._mb < 0:
            neg = vals[-1] >= (1 << 63)
            out = np.where(neg, out - (1 << (64 * k)), out)
        return out

    def tolist(self) -> list[int]:
        """The values as Python ints.

        Returns
        -------
        list of int
            The values.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array([2**64, -1], dtype=ak.bigint).tolist()
        [18446744073709551616, -1]
        """
        return [builtins.int(x) for x in self.to_ndarray()]

    def __iter__(self) -> Iterator[int]:
        return iter(self.tolist())

    def _fmt(self, prefix: str = "") -> str:
        v = self.to_ndarray()
        return "[" + " ".join(str(x) for x in v) + "]"

    def __repr__(self) -> str:
        return f"array({self._fmt()}, dtype=bigint)"

    def astype(self, dtype: Any) -> Any:  # noqa: ANN401 (any dtype-like; a pdarray, BigIntArray or Strings)
        """The values as ``dtype``.

        ``bigint`` copies, ``str`` gives Strings of the decimal digits, ``bool`` whether each is
        nonzero, ``float64`` the nearest float, other dtypes the low 64 bits.

        Parameters
        ----------
        dtype : dtype-like
            The dtype.

        Returns
        -------
        pdarray or Strings
            The converted values.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array([2**64, 5], dtype=ak.bigint).astype(str).to_list()
        ['18446744073709551616', '5']
        """
        if is_bigint(dtype):
            return BigIntArray(self._limbs, self._mb)
        if dtype is not bool and is_str_dtype(dtype):
            return from_list([str(x) for x in self.tolist()])
        d = np.dtype(dtype) if dtype is not bool else bool_
        if d == bool_:
            r = self._limbs[0] != 0
            for x in self._limbs[1:]:
                r = r | (x != 0)
            return r._materialize()
        if d == float64:
            # The magnitude from the most significant limb down, then the sign: summing the
            # two's complement limbs would cancel the value away in the high ones.
            signed = self._mb < 0
            limbs = abs(self)._limbs if signed else self._limbs
            r = limbs[-1].astype(float64)
            for x in reversed(limbs[:-1]):
                r = r * float(2**64) + x.astype(float64)
            if signed:
                r = r * (1.0 - 2.0 * (self._limbs[-1] >= _TOP).astype(float64))
            return r._materialize()
        low = self._limbs[0]
        return low._materialize() if d == uint64 else low.astype(d)._materialize()

    def copy(self) -> BigIntArray:
        """A copy of the values.

        Returns
        -------
        BigIntArray
            New limbs, equal values.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array([2**64], dtype=ak.bigint).copy().tolist()
        [18446744073709551616]
        """
        return BigIntArray([x.copy() for x in self._limbs], self._mb)

    # ----- indexing --------------------------------------------------------------------------
    def __getitem__(self, key: Any) -> Any:  # noqa: ANN401 (an index; a Python int or a BigIntArray)
        if isinstance(key, (builtins.int, np.integer)) and not isinstance(key, (builtins.bool, np.bool_)):
            vals = [builtins.int(x[key]) for x in self._limbs]
            v = builtins.sum(x << (64 * i) for i, x in enumerate(vals))
            if self._mb < 0 and vals[-1] >= (1 << 63):
                v -= 1 << (64 * len(vals))
            return v
        return BigIntArray([x[key] for x in self._limbs], self._mb)

    def __setitem__(self, key: Any, value: Any) -> None:  # noqa: ANN401 (any index and value)
        v = to_bigint(value, size=self._size if not isinstance(value, pdarray) else None)
        if not isinstance(value, pdarray) and not (isinstance(key, slice) and key == slice(None)):
            # A scalar: its limbs as scalars.
            k = builtins.max(len(self._limbs), len(v._limbs))
            mine = [x.copy() for x in self._ext(k)]  # limbs may be shared with other arrays
            iv = builtins.int(value)
            for i in range(k):
                mine[i][key] = np.uint64((iv >> (64 * i)) & _M)
            self._limbs = mine
            if self._mb >= 0:
                self._wrap()
            return
        k = builtins.max(len(self._limbs), len(v._limbs))
        mine, theirs = [x.copy() for x in self._ext(k)], v._ext(k)
        for a, b in zip(mine, theirs):
            a[key] = b
        self._limbs = mine
        if self._mb >= 0:
            self._wrap()

    # ----- operators -------------------------------------------------------------------------
    def _other(self, o: object) -> BigIntArray | None:
        if isinstance(o, BigIntArray):
            if o.size != self._size:
                raise ValueError(f"other: size mismatch {self._size} {o.size}")
            return o
        if isinstance(o, pdarray):
            if o.dtype == float64:
                return None
            return to_bigint(o)
        if isinstance(o, (builtins.int, np.integer)) and not isinstance(o, (builtins.bool, np.bool_)):
            return _const(builtins.int(o), self._size)
        if isinstance(o, (builtins.bool, np.bool_)):
            return _const(builtins.int(o), self._size)
        return None

    def _result(self, limbs: list[pdarray], o: object = None) -> BigIntArray:
        mb = self._mb
        if isinstance(o, BigIntArray) and o._mb >= 0:
            mb = o._mb if mb < 0 else builtins.max(mb, o._mb)
        return BigIntArray(limbs, mb)

    def _arith(self, o: object, op: str, reverse: builtins.bool = False) -> Any:  # noqa: ANN401 (an array, or NotImplemented)
        if isinstance(o, (builtins.float, np.floating)) or (isinstance(o, pdarray) and o.dtype == float64):
            a = self.astype(float64)
            f: Callable[[Any, Any], Any] = {
                "+": _op.add,
                "-": _op.sub,
                "*": _op.mul,
                "/": _op.truediv,
                "//": _op.floordiv,
                "%": _op.mod,
                "**": _op.pow,
            }[op]
            return f(o, a) if reverse else f(a, o)
        b = self._other(o)
        if b is None:
            return NotImplemented
        x, y = (b, self) if reverse else (self, b)
        if op == "+":
            return self._result(_add(x, y), b)
        if op == "-":
            return self._result(_add(x, BigIntArray(_neg(y))), b)
        if op == "*":
            return self._result(_mul(x, y), b)
        if op in ("&", "|", "^"):
            k = builtins.max(len(x._limbs), len(y._limbs))
            xs, ys = x._ext(k), y._ext(k)
            g: Callable[[Any, Any], Any] = {"&": _op.and_, "|": _op.or_, "^": _op.xor}[op]
            return self._result([g(a, c) for a, c in zip(xs, ys)], b)
        if op == "/":
            return x.astype(float64) / y.astype(float64)
        if op in ("//", "%", "**"):
            return _slow(x, y, op, self._mb)
        return NotImplemented

    def __add__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._arith(o, "+")

    def __radd__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._arith(o, "+", True)

    def __sub__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._arith(o, "-")

    def __rsub__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._arith(o, "-", True)

    def __mul__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._arith(o, "*")

    def __rmul__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._arith(o, "*", True)

    def __truediv__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._arith(o, "/")

    def __rtruediv__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._arith(o, "/", True)

    def __floordiv__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._arith(o, "//")

    def __rfloordiv__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._arith(o, "//", True)

    def __mod__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._arith(o, "%")

    def __rmod__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._arith(o, "%", True)

    def __pow__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._arith(o, "**")

    def __rpow__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._arith(o, "**", True)

    def __and__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._arith(o, "&")

    __rand__ = __and__

    def __or__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._arith(o, "|")

    __ror__ = __or__

    def __xor__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._arith(o, "^")

    __rxor__ = __xor__

    def _iop(self, o: object, op: str) -> Any:  # noqa: ANN401 (self, or NotImplemented)
        r = self._arith(o, op)
        if r is NotImplemented:
            return r
        if not isinstance(r, BigIntArray):
            raise TypeError(f"Cannot cast the result of {op} back to bigint in place")
        self._limbs, self._mb = r._limbs, r._mb
        return self

    def __iadd__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._iop(o, "+")

    def __isub__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._iop(o, "-")

    def __imul__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._iop(o, "*")

    def __ifloordiv__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._iop(o, "//")

    def __imod__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._iop(o, "%")

    def __ipow__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._iop(o, "**")

    def __iand__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._iop(o, "&")

    def __ior__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._iop(o, "|")

    def __ixor__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._iop(o, "^")

    def __ilshift__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        r = self << o
        self._limbs, self._mb = r._limbs, r._mb
        return self

    def __irshift__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        r = self >> o
        self._limbs, self._mb = r._limbs, r._mb
        return self

    def __itruediv__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        raise TypeError("Cannot cast ufunc 'divide' output from float64 to bigint in place")

    def __neg__(self) -> BigIntArray:
        return BigIntArray(_neg(self), self._mb)

    def __pos__(self) -> BigIntArray:
        return self

    def __invert__(self) -> BigIntArray:
        if self._mb < 0:
            raise TypeError("~ of a bigint array needs max_bits (Arkouda's rule: the width to invert)")
        if self._mb >= 0:
            return BigIntArray([~x for x in self._limbs[:-1]] or [_zeros(self._size)], self._mb)
        return BigIntArray([~x for x in self._limbs], self._mb)

    def __lshift__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        if isinstance(o, pdarray):
            return _slow(self, to_bigint(o), "<<", self._mb)
        s = builtins.int(o)  # type: ignore[call-overload]  # an int-like; int() raises on others
        if s < 0:
            raise ValueError("negative shift count")
        q, r = divmod(s, 64)
        limbs = [_zeros(self._size)] * q + self._ext(len(self._limbs) + 1)
        if r:
            out = []
            prev = _zeros(self._size)
            for x in limbs:
                out.append(((x << np.uint64(r)) | (prev >> np.uint64(64 - r)))._materialize())
                prev = x
            limbs = out
        return BigIntArray(limbs, self._mb)

    def __rshift__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        if isinstance(o, pdarray):
            return _slow(self, to_bigint(o), ">>", self._mb)
        s = builtins.int(o)  # type: ignore[call-overload]  # an int-like; int() raises on others
        if s < 0:
            raise ValueError("negative shift count")
        q, r = divmod(s, 64)
        sign = self._sign_limb()
        limbs = list(self._limbs[q:]) or [sign]
        limbs = limbs + [sign]
        if r:
            limbs = [
                ((a >> np.uint64(r)) | (b << np.uint64(64 - r)))._materialize() for a, b in zip(limbs[:-1], limbs[1:])
            ] + [sign]
        return BigIntArray(limbs, self._mb)

    def rotl(self, o: object) -> BigIntArray:
        """Each value's bits rotated left by ``o`` within ``max_bits`` (else the stored width).

        Parameters
        ----------
        o : int or pdarray
            The rotation, or one per value.

        Returns
        -------
        BigIntArray
            The rotated values.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array([1, 2], dtype=ak.bigint, max_bits=8).rotl(1).tolist()
        [2, 4]
        """
        return _rotate(self, o, True)

    def rotr(self, o: object) -> BigIntArray:
        """Each value's bits rotated right by ``o`` within ``max_bits`` (else the stored width).

        Parameters
        ----------
        o : int or pdarray
            The rotation, or one per value.

        Returns
        -------
        BigIntArray
            The rotated values.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array([1, 2], dtype=ak.bigint, max_bits=8).rotr(1).tolist()
        [128, 1]
        """
        return _rotate(self, o, False)

    def slice_bits(self, low: int, high: int) -> BigIntArray:
        """Bits ``low..high`` (inclusive, from the least significant) of each value.

        Parameters
        ----------
        low : int
            The lowest bit.
        high : int
            The highest bit.

        Returns
        -------
        BigIntArray
            The bits, as nonnegative values.

        Raises
        ------
        ValueError
            Unless ``0 <= low <= high``.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array([0b1101], dtype=ak.bigint).slice_bits(1, 2).tolist()
        [2]
        """
        if not 0 <= low <= high:
            raise ValueError(f"low/high: need 0 <= low <= high, got {low}, {high}")
        r = self >> low
        return BigIntArray((r & ((1 << (high - low + 1)) - 1))._limbs, -1)

    def _magnitude(self) -> list[pdarray]:
        """The limbs of each value's absolute value (least significant first)."""
        return self._limbs if self._mb >= 0 else abs(self)._limbs

    def popcount(self) -> pdarray:
        """The number of one bits of each value's absolute value (Python's ``int.bit_count``).

        Summed over the limbs.

        Returns
        -------
        pdarray
            A uint64 array.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array([2**64 + 3, -1], dtype=ak.bigint).popcount().tolist()
        [3, 1]
        """
        r: Any = None
        for x in self._magnitude():
            p = x.popcount()
            r = p if r is None else r + p
        out: pdarray = r._materialize()
        return out

    def parity(self) -> pdarray:
        """The parity of ``popcount``: the XOR of the limbs' parities.

        Returns
        -------
        pdarray
            A uint64 array of 0 and 1.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array([2**64 + 3, 1], dtype=ak.bigint).parity().tolist()
        [1, 1]
        """
        r: Any = None
        for x in self._magnitude():
            p = x.parity()
            r = p if r is None else r ^ p
        out: pdarray = r._materialize()
        return out

    def _cmp(self, o: object, op: str) -> Any:  # noqa: ANN401 (a bool pdarray, or NotImplemented)
        if isinstance(o, (builtins.float, np.floating)) or (isinstance(o, pdarray) and o.dtype == float64):
            return getattr(_op, op)(self.astype(float64), o)
        b = self._other(o)
        if b is None:
            return NotImplemented
        k = builtins.max(len(self._limbs), len(b._limbs))
        xs, ys = self._ext(k), b._ext(k)
        eq: Any = None
        lt: Any = None
        for i in range(k - 1, -1, -1):
            a, c = xs[i], ys[i]
            if i == k - 1:
                a, c = a ^ _TOP, c ^ _TOP  # signed order of the top limbs
            li = a < c
            ei = a == c
            lt = li if lt is None else lt | (eq & li)
            eq = ei if eq is None else eq & ei
        r = {"eq": eq, "ne": ~eq, "lt": lt, "le": lt | eq, "gt": ~(lt | eq), "ge": ~lt}[op]
        return r._materialize()

    def __eq__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._cmp(o, "eq")

    def __ne__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._cmp(o, "ne")

    def __lt__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._cmp(o, "lt")

    def __le__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._cmp(o, "le")

    def __gt__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._cmp(o, "gt")

    def __ge__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._cmp(o, "ge")

    __hash__ = None

    # ----- as keys (sorts, set operations, GroupBy) --------------------------------------------
    def _grouping_keys(self) -> list[pdarray]:
        """uint64 keys that sort like the values.

        The limbs, most significant first, the top one with its sign bit flipped.
        """
        k = len(self._limbs)
        return [(self._limbs[k - 1] ^ _TOP)._materialize()] + [self._limbs[i] for i in range(k - 2, -1, -1)]

    def sum(self) -> int:  # type: ignore[override]  # of every value; no axis, as Arkouda's bigint sum
        """The sum of the values, a Python int (modulo ``2**max_bits`` with ``max_bits``).

        Returns
        -------
        int
            The exact sum.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array([2**64, -1], dtype=ak.bigint).sum()
        18446744073709551615
        """
        v = 0
        for i, x in enumerate(self._limbs):
            # Exact: the sum of the limb's halves of 32 bits (each sum fits 64 bits + 32).
            lo = builtins.int(_sum(x & np.uint64(0xFFFFFFFF)))
            hi = builtins.int(_sum(x >> np.uint64(32)))
            v += (lo + (hi << 32)) << (64 * i)
        if self._mb < 0:
            neg = builtins.int((self._limbs[-1] >= _TOP).astype(int64).sum())
            v -= neg << (64 * len(self._limbs))
        return v % (1 << self._mb) if self._mb >= 0 else v

    def min(self) -> int:  # type: ignore[override]  # of every value; no axis, as Arkouda's bigint min
        """The least value, a Python int.

        Returns
        -------
        int
            The least value.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array([2**64, -1], dtype=ak.bigint).min()
        -1
        """
        return builtins.min(self.tolist())

    def max(self) -> int:  # type: ignore[override]  # of every value; no axis, as Arkouda's bigint max
        """The greatest value, a Python int.

        Returns
        -------
        int
            The greatest value.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array([2**64, -1], dtype=ak.bigint).max()
        18446744073709551616
        """
        return builtins.max(self.tolist())

    def is_sorted(self, axis: int | tuple[int, ...] | None = None) -> Any:  # noqa: ANN401 (a NumPy bool)
        """Whether the values are in nondecreasing order.

        Parameters
        ----------
        axis : int, tuple of int or None
            Accepted for pdarray's signature (the array is 1-D).

        Returns
        -------
        numpy.bool
            True when sorted.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array([-1, 2**64], dtype=ak.bigint).is_sorted()
        np.True_
        """
        if self._size < 2:
            return np.bool_(True)
        return np.bool_(builtins.bool((self[: self._size - 1] <= self[1:]).all()))


def _signed(x: pdarray) -> pdarray:
    return x.astype(int64)


def _zeros(n: int) -> pdarray:
    return _full(n, 0, uint64)


def _const(v: int, n: int) -> BigIntArray:
    """A bigint array of ``n`` copies of the Python int ``v``."""
    k = builtins.max(1, (v.bit_length() + 64) // 64 + (1 if v < 0 else 0))
    w = v % (1 << (64 * k))
    return BigIntArray([_full(n, np.uint64((w >> (64 * i)) & _M), uint64) for i in range(k)])


def _add(x: BigIntArray, y: BigIntArray) -> list[pdarray]:
    k = builtins.max(len(x._limbs), len(y._limbs)) + 1
    xs, ys = x._ext(k), y._ext(k)
    out: list[pdarray] = []
    carry: pdarray | None = None
    for a, b in zip(xs, ys):
        t = a + b
        c1 = t < a
        if carry is not None:
            s = t + carry.astype(uint64)
            c2 = s < t
            carry = (c1 | c2)._materialize()
            out.append(s._materialize())
        else:
            carry = c1._materialize()
            out.append(t._materialize())
    return out


def _neg(x: BigIntArray) -> list[pdarray]:
    k = len(x._limbs) + 1
    inv = BigIntArray([(~a)._materialize() for a in x._ext(k)])
    one = _const(1, x.size)
    return _add(inv, one)[:k]


def _mul(x: BigIntArray, y: BigIntArray) -> list[pdarray]:
    """The product modulo 2**(64 * K), K = both limb counts together (two's complement: exact)."""
    K = len(x._limbs) + len(y._limbs)
    xs, ys = x._ext(K), y._ext(K)
    lo32 = np.uint64(0xFFFFFFFF)
    s32 = np.uint64(32)
    xh: list[pdarray] = []
    for a in xs:
        xh += [(a & lo32)._materialize(), (a >> s32)._materialize()]
    yh: list[pdarray] = []
    for b in ys:
        yh += [(b & lo32)._materialize(), (b >> s32)._materialize()]
    H = 2 * K
    cols: list[Any] = [None] * (H + 1)
    for i in range(H):
        for j in range(H - i):
            p = xh[i] * yh[j]
            for at, part in ((i + j, p & lo32), (i + j + 1, p >> s32)):
                if at < H:
                    cols[at] = part if cols[at] is None else cols[at] + part
            if (i * H + j) % 8 == 7:
                cols = [c._materialize() if c is not None else None for c in cols]
    n = x.size
    carry: Any = None
    halves: list[pdarray] = []
    for c in cols[:H]:
        c = _zeros(n) if c is None else c
        if carry is not None:
            c = c + carry
        c = c._materialize()
        halves.append((c & lo32)._materialize())
        carry = (c >> s32)._materialize()
    return [(halves[2 * i] | (halves[2 * i + 1] << s32))._materialize() for i in range(K)]


def _rotate(x: BigIntArray, o: object, left: builtins.bool) -> BigIntArray:
    # Without max_bits: within the width the values are stored in (64 bits per limb).
    mb = x._mb if x._mb >= 0 else 64 * len(x._limbs)
    if isinstance(o, pdarray):
        return _slow(x, to_bigint(o), "rotl" if left else "rotr", mb)
    s = builtins.int(o) % mb if mb else 0  # type: ignore[call-overload]  # an int-like
    if not left:
        s = (mb - s) % mb if mb else 0
    a = x << s
    b = x >> (mb - s) if s else _const(0, x.size)
    return BigIntArray((a | b)._limbs, mb)


def _slow(x: BigIntArray, y: BigIntArray, op: str, mb: int) -> BigIntArray:
    """Operations without a limb algorithm here (``//``, ``%``, ``**``, shifts by arrays).

    Computed on the driver with Python's ints (gathered and distributed again).
    """
    a, b = x.to_ndarray(), y.to_ndarray()
    out: list[int] = []
    for u, v in zip(a.tolist(), b.tolist()):
        if op == "//":
            out.append(0 if v == 0 else u // v)
        elif op == "%":
            out.append(0 if v == 0 else u % v)
        elif op == "**":
            if v < 0:
                raise ValueError("Integers to negative integer powers are not allowed.")
            out.append(pow(u, v, 1 << mb) if mb >= 0 else u**v)
        elif op == "<<":
            out.append(u << v)
        elif op == ">>":
            out.append(u >> v)
        elif op in ("rotl", "rotr"):
            s = v % mb if mb else 0
            if op == "rotr":
                s = (mb - s) % mb if mb else 0
            w = u % (1 << mb) if mb else 0
            out.append(((w << s) | (w >> (mb - s))) % (1 << mb) if mb else 0)
    return from_ints(out, max_bits=mb)


def is_bigint_array(x: object) -> builtins.bool:
    """Whether ``x`` is a bigint array.

    Parameters
    ----------
    x : object
        The object tested.

    Returns
    -------
    bool
        True for a BigIntArray.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.numpy._bigint import from_ints, is_bigint_array
    >>> is_bigint_array(from_ints([1])), is_bigint_array(ak.array([1]))
    (True, False)
    """
    return isinstance(x, BigIntArray)


def from_ints(values: Iterable[Any], max_bits: int | None = -1) -> BigIntArray:  # noqa: ANN401 (int-likes)
    """A bigint array of Python ints.

    Parameters
    ----------
    values : iterable of int
        The values.
    max_bits : int or None, default -1
        Keep every value modulo ``2**max_bits``; -1 or None: unbounded.

    Returns
    -------
    BigIntArray
        The distributed values.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.numpy._bigint import from_ints
    >>> from_ints([1, 2**64]).tolist()
    [1, 18446744073709551616]
    """
    vals = [builtins.int(v) for v in values]
    n = len(vals)
    top = builtins.max([v.bit_length() for v in vals], default=0)
    k = builtins.max(1, (top + 1 + 63) // 64)
    limbs = []
    for i in range(k):
        limbs.append(
            _from_numpy(np.array([((v % (1 << (64 * k))) >> (64 * i)) & _M for v in vals], dtype=np.uint64))
            if n
            else _zeros(0)
        )
    return BigIntArray(limbs, max_bits)


def to_bigint(x: object, max_bits: int | None = -1, size: int | None = None) -> BigIntArray:
    """``x`` as a bigint array.

    Parameters
    ----------
    x : pdarray, int, list of int or Strings
        A pdarray of integers, floats or bool, a Python int (with ``size``), a list of ints, or
        Strings of integers (decimal, or ``0x``/``0b``/``0o``).
    max_bits : int or None, default -1
        Keep every value modulo ``2**max_bits``; -1: unbounded (or ``x``'s own).
    size : int or None
        The size of the array of one Python int.

    Returns
    -------
    BigIntArray
        The values.

    Raises
    ------
    TypeError
        If ``x`` is of another kind.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.numpy._bigint import to_bigint
    >>> to_bigint(ak.array(["0x10", "-5"])).tolist()
    [16, -5]
    """
    if isinstance(x, BigIntArray):
        return BigIntArray(x._limbs, max_bits if max_bits != -1 else x._mb)
    if isinstance(x, pdarray):
        if x.dtype == float64:
            return from_ints([builtins.int(v) for v in np.trunc(x.to_ndarray()).tolist()], max_bits)
        if x.dtype == uint64:
            return BigIntArray([x, _zeros(x.size)], max_bits)
        if x.dtype == int64:
            # An int64's bits are its 64-bit two's complement: one limb, whose top bit is the sign.
            return BigIntArray([x.astype(uint64)], max_bits)
        return BigIntArray([x.astype(uint64)], max_bits)
    if isinstance(x, Strings):
        return from_ints(
            [builtins.int(s, 0) if s[:2].lower() in ("0x", "0b", "0o") else builtins.int(s) for s in x.to_list()],
            max_bits,
        )
    if isinstance(x, (builtins.int, np.integer)) and size is not None:
        return BigIntArray(_const(builtins.int(x), size)._limbs, max_bits)
    if isinstance(x, (list, tuple, np.ndarray)):
        return from_ints(list(x), max_bits)
    raise TypeError(f"cannot make a bigint array of {type(x).__name__}")


def bigint_from_uint_arrays(arrays: list[pdarray] | tuple[pdarray, ...], max_bits: int | None = -1) -> BigIntArray:
    """A bigint array from uint64 limb arrays, most significant first (Arkouda's order).

    Parameters
    ----------
    arrays : list of pdarray
        The uint64 limbs, most significant first, all of one size.
    max_bits : int or None, default -1
        Keep every value modulo ``2**max_bits``; -1 or None: unbounded.

    Returns
    -------
    BigIntArray
        The nonnegative values.

    Raises
    ------
    TypeError
        If ``arrays`` is not a nonempty list of uint64 pdarrays.
    ValueError
        If the arrays' sizes differ.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.numpy._bigint import bigint_from_uint_arrays
    >>> bigint_from_uint_arrays([ak.array([1], dtype=ak.uint64), ak.array([2], dtype=ak.uint64)]).tolist()
    [18446744073709551618]
    """
    if not isinstance(arrays, (list, tuple)) or not arrays:
        raise TypeError("arrays: expected a nonempty list of uint64 pdarrays")
    for a in arrays:
        if not isinstance(a, pdarray) or a.dtype != uint64:
            raise TypeError("arrays: every array must be a uint64 pdarray")
    if len({a.size for a in arrays}) != 1:
        raise ValueError("arrays: all arrays must have one size")
    return BigIntArray(list(reversed(arrays)) + [_zeros(arrays[0].size)], max_bits)


_ = (bigint_,)
